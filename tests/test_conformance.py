"""Every registered game passes the generic conformance check (docs/architecture.md)."""

from __future__ import annotations

import pytest

from meadhall import games
from meadhall.testing import play_random


@pytest.mark.parametrize("game_id", games.ids())
@pytest.mark.parametrize("seed", range(8))
def test_random_play_keeps_every_promise(game_id: str, seed: int) -> None:
    game = games.get(game_id)
    end = play_random(game, seed, check_every=1)
    assert end.outcome().over


@pytest.mark.parametrize("game_id", games.ids())
@pytest.mark.parametrize("seed", range(3))
def test_table_mode_asks_for_every_result(game_id: str, seed: int) -> None:
    game = games.get(game_id)
    end = play_random(game, seed, chance="table", check_every=5)
    assert end.outcome().over


@pytest.mark.parametrize("game_id", games.ids())
def test_auto_choices_take_the_default(game_id: str) -> None:
    game = games.get(game_id)
    end = play_random(game, 11, auto_choices=True, check_every=10)
    assert end.outcome().over


def test_every_game_package_loads() -> None:
    assert games.import_errors() == {}
    assert {"niflheim", "battleforge", "midhalla", "runaljod", "toy"} <= set(games.ids())
