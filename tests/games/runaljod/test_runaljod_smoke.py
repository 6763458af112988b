"""Runaljod plays end to end for every hero count and both adventure levels."""

from __future__ import annotations

import pytest

from meadhall.games.runaljod import GAME
from meadhall.testing import play_random


@pytest.mark.rule("runaljod", "Adventure Mode (Single Session)")
@pytest.mark.parametrize("heroes", [["berserk", "volva"], ["hunter", "warrior", "volva"],
                                    ["volva", "berserk", "hunter", "warrior"]])
def test_random_adventure_for_each_hero_count(heroes: list[str]) -> None:
    g = GAME
    for seed in range(2):
        end = play_random(g, seed, {"heroes": heroes, "players": len(heroes)}, check_every=7)
        assert end.outcome().over


@pytest.mark.rule("runaljod", "Adventure Mode")
def test_level_two_adventure_plays() -> None:
    g = GAME
    end = play_random(g, 3, {"scenario": "adventure-level2", "heroes": ["hunter", "warrior"]},
                      check_every=9)
    assert end.outcome().over
