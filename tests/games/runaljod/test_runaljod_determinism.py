"""Random games with the same seeds reach the same end positions as the fixture recorded
before the speed work (fixtures/random_end_states.json): faster code, identical games."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from meadhall.bots.random import RandomBot
from meadhall.games.runaljod import GAME

FIXTURE = json.loads((Path(__file__).parent / "fixtures" / "random_end_states.json").read_text())


@pytest.mark.parametrize("key", sorted(FIXTURE["games"]))
def test_random_games_reach_the_recorded_end_states(key: str) -> None:
    name, seed = key.split(":")
    st = GAME.new_game(FIXTURE["setups"][name], int(seed))
    bot = RandomBot(int(seed))
    while st.decision() is not None:
        st.apply(bot.choose(st))
    digest = hashlib.sha256(json.dumps(st.to_json(), sort_keys=True).encode()).hexdigest()
    assert {"hash": digest[:16], "steps": len(st.log)} == FIXTURE["games"][key]
