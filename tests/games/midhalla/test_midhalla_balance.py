"""The heuristic party used to measure authored-content balance still plays whole chapters."""

from __future__ import annotations

from meadhall.games.midhalla.heuristic import SETUPS, play


def test_heuristic_party_finishes_each_chapter() -> None:
    for setup in SETUPS.values():
        st = play(setup, 0)
        assert st.outcome().over
