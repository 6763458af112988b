"""The action vocabulary: finite, fixed, and a superset of every legal action."""

from __future__ import annotations

import pytest

from meadhall import games
from meadhall.bots.random import RandomBot

G = games.get("midhalla")

SETUPS = [
    {"scenario": "chapter1", "heroes": ["harkon", "enyk"]},
    {"scenario": "chapter2", "heroes": ["harkon", "enyk", "tora", "ylva"]},
    {"scenario": "side_loot_den", "heroes": ["ylva"]},
    {"scenario": "chapter1", "heroes": ["harkon", "enyk"], "campaign": True},
]


def test_vocabulary_is_fixed_unique_and_reasonably_small() -> None:
    for setup in SETUPS:
        v = G.action_vocabulary(setup)
        assert v == G.action_vocabulary(dict(setup))
        assert len(v) == len(set(v)) and len(v) < 20_000
        assert all(t == " ".join(t.split()) and not t.startswith("!") for t in v)
    assert len({t.lower() for t in v}) == len(v)  # case-insensitive friendly


@pytest.mark.parametrize("setup", SETUPS)
def test_every_legal_action_of_random_games_is_in_the_vocabulary(setup) -> None:
    vocab = set(G.action_vocabulary(setup))
    for seed in range(3):
        st = G.new_game(setup, seed)
        bot = RandomBot(seed)
        for _ in range(1500):
            if st.decision() is None:
                break
            missing = [a.text for a in st.legal_actions() if a.text not in vocab]
            assert not missing, missing
            st.apply(bot.choose(st))
