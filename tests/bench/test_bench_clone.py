"""Benchmarks (pytest-benchmark; run with `pytest tests/bench --benchmark-enable`).

In the normal suite they run once each as smoke tests; speed targets live here, never in timed
unit tests.
"""

from __future__ import annotations

import copy

import pytest

from meadhall import games


@pytest.mark.parametrize("game_id", games.ids())
def test_clone(benchmark, game_id: str) -> None:  # type: ignore[no-untyped-def]
    state = games.get(game_id).new_game(seed=1)
    c = benchmark(state.clone)
    assert c == state


@pytest.mark.parametrize("game_id", games.ids())
def test_deepcopy_for_comparison(benchmark, game_id: str) -> None:  # type: ignore[no-untyped-def]
    state = games.get(game_id).new_game(seed=1)
    c = benchmark(copy.deepcopy, state)
    assert c.to_json() == state.to_json()


@pytest.mark.parametrize("game_id", games.ids())
def test_legal_actions(benchmark, game_id: str) -> None:  # type: ignore[no-untyped-def]
    state = games.get(game_id).new_game(seed=1)
    acts = benchmark(state.legal_actions)
    assert acts
