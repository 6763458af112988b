"""The action vocabulary: every action text a setup can offer, in a fixed order."""

from __future__ import annotations

import pytest
from bf_helpers import GAME

from meadhall.bots.random import RandomBot

SETUPS = [
    {"scenario": "last_flame", "heroes": ["ragnar", "lagertha"]},
    {"scenario": "forge_of_doom", "heroes": ["gunnar", "siegfried", "lynxshade"],
     "berserkers": ["stag", "boar", "raven"]},
    {"scenario": "last_flame", "heroes": ["ragnar", "lagertha", "gunnar", "siegfried"]},
]


def test_the_vocabulary_is_fixed_unique_and_small() -> None:
    for setup in SETUPS:
        v = GAME.action_vocabulary(setup)
        assert v == GAME.action_vocabulary(dict(reversed(list(setup.items()))))
        assert len({t.lower() for t in v}) == len(v) < 20_000
        assert v[0] == "melee space 1 at AshFolk A" and "end turn" in v
    four = GAME.action_vocabulary(SETUPS[2])
    assert "push IronTroll D to G7" in four and "push IronTroll D to G7" not in \
        GAME.action_vocabulary(SETUPS[0])


@pytest.mark.parametrize("setup", SETUPS)
def test_every_legal_action_of_random_games_is_in_the_vocabulary(setup: dict) -> None:
    vocab = set(GAME.action_vocabulary(setup))
    for seed in range(4):
        s = GAME.new_game(setup, seed)
        bot = RandomBot(seed + 17)
        while s.decision() is not None:
            missing = [a.text for a in s.legal_actions() if a.text not in vocab]
            assert not missing, missing
            s.apply(bot.choose(s))


def test_a_bad_setup_is_refused() -> None:
    from meadhall.core.errors import ContentError

    with pytest.raises(ContentError, match="heroes"):
        GAME.action_vocabulary({"heroes": ["ragnar", "nobody"]})
