"""Engine benchmarks (pytest-benchmark): ``pytest benchmarks --benchmark-enable``.

In the normal suite (``make test``) each runs once as a smoke test; speed targets and figures
live here and in docs/performance.md, never in timed unit tests. ``meadhall bench`` measures
the same operations in one table.
"""

from __future__ import annotations

import copy

import pytest

from meadhall import games
from meadhall.bench import midgame, random_game
from meadhall.core.protocol import GameState
from meadhall.core.rng import Rng

GAMES = games.ids()


def _random_game(game_id: str, seed: int) -> int:
    return random_game(games.get(game_id), None, seed)


@pytest.mark.parametrize("game_id", GAMES)
def test_random_game(benchmark, game_id: str) -> None:  # type: ignore[no-untyped-def]
    seeds = iter(range(10**9))
    assert benchmark(lambda: _random_game(game_id, next(seeds))) > 0


@pytest.mark.parametrize("game_id", GAMES)
def test_step(benchmark, game_id: str) -> None:  # type: ignore[no-untyped-def]
    """One legal_actions() + apply() on a fresh copy of a mid-game state (copy not timed)."""
    base = midgame(games.get(game_id), None)

    def setup() -> tuple[tuple[GameState], dict]:
        return (base.clone(),), {}

    def step(state: GameState) -> None:
        state.apply(state.legal_actions()[0])

    benchmark.pedantic(step, setup=setup, rounds=200 if benchmark.enabled else 1)


@pytest.mark.parametrize("game_id", GAMES)
def test_legal_actions(benchmark, game_id: str) -> None:  # type: ignore[no-untyped-def]
    state = midgame(games.get(game_id), None)
    assert benchmark(state.legal_actions)


@pytest.mark.parametrize("game_id", GAMES)
def test_clone(benchmark, game_id: str) -> None:  # type: ignore[no-untyped-def]
    state = midgame(games.get(game_id), None)
    assert benchmark(state.clone) == state


@pytest.mark.parametrize("game_id", GAMES)
def test_determinize(benchmark, game_id: str) -> None:  # type: ignore[no-untyped-def]
    state = midgame(games.get(game_id), None)
    rng = Rng(3)
    assert benchmark(state.determinize, rng).view(None) == state.view(None)


@pytest.mark.parametrize("game_id", GAMES)
def test_deepcopy_with_content_shared(benchmark, game_id: str) -> None:  # type: ignore[no-untyped-def]
    state = midgame(games.get(game_id), None)
    shared = {id(state.content): state.content, id(state.setup): state.setup}
    assert benchmark(lambda: copy.deepcopy(state, dict(shared))) == state


@pytest.mark.parametrize("game_id", GAMES)
def test_rollout(benchmark, game_id: str) -> None:  # type: ignore[no-untyped-def]
    """Clone a mid-game state and play it out at random (one MCTS rollout)."""
    state = midgame(games.get(game_id), None)
    rng = Rng(5)

    def rollout() -> None:
        s = state.clone()
        while s.decision() is not None:
            acts = s.legal_actions()
            s.apply(acts[rng.below(len(acts))])

    benchmark(rollout)
