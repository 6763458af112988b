"""``repetition_text`` (the view's JSON text put together from remembered parts: the printed
parts per content, map and scenario, the described decision per question) is exactly the
kernel's ``json.dumps([decision, view(None)], ...)`` at every position of random games of
both scenarios and solo play, so a bot's memory of positions, and its choices, stay the same."""

from __future__ import annotations

from typing import Any

import pytest
from bf_helpers import GAME

from meadhall.bots.random import RandomBot
from meadhall.core.protocol import GameState
from meadhall.testing import mutate_everything

SETUPS: list[tuple[dict[str, Any], range]] = [
    ({"scenario": "last_flame", "heroes": ["ragnar", "lagertha"]}, range(6)),
    ({"scenario": "forge_of_doom", "heroes": ["gunnar", "siegfried", "lynxshade"]}, range(4)),
    ({"scenario": "forge_of_doom", "heroes": ["lagertha", "ragnar"]}, range(3)),
    ({"scenario": "last_flame", "heroes": ["gunnar", "lynxshade"], "players": 1}, range(4)),
]


@pytest.mark.parametrize(("setup", "seeds"), SETUPS, ids=lambda x: str(x))
def test_the_repetition_text_is_the_kernels(setup: dict[str, Any], seeds: range) -> None:
    n = 0
    for seed in seeds:
        s = GAME.new_game(setup, seed)
        bot = RandomBot(seed)
        for _ in range(2000):
            assert s.repetition_text() == GameState.repetition_text(s), s.log[-3:]
            n += 1
            if s.decision() is None:
                break
            if n % 5 == 0:  # a caller changing a view changes no later text
                mutate_everything(s.view(None))
                assert s.repetition_text() == GameState.repetition_text(s), s.log[-3:]
            s.apply(bot.choose(s))
    assert n > 300
