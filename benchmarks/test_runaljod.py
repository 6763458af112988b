"""Runaljod benchmarks (pytest-benchmark): ``pytest benchmarks/test_runaljod.py
--benchmark-enable -p no:xdist``. In the normal suite each runs once as a smoke test; the
figures live in docs/performance.md ("Runaljod: random play")."""

from __future__ import annotations

import random

import pytest

from meadhall.bench import random_game
from meadhall.games.runaljod import GAME
from meadhall.games.runaljod.state import RunaljodState

FOUR = {**GAME.default_setup(), "heroes": ["volva", "berserk", "hunter", "warrior"]}


def _enemy_positions(n: int = 40) -> list[RunaljodState]:
    """Positions of random games where enemies are in play (every fifth such step)."""
    out: list[RunaljodState] = []
    seed = 0
    while len(out) < n:
        s = GAME.new_game(None, seed)
        rng = random.Random(seed)
        k = 0
        while s.decision() is not None and len(out) < n:
            if s.enemies and s.standing_heroes():
                k += 1
                if k % 5 == 0:
                    out.append(s.clone())  # type: ignore[arg-type]
            acts = s.legal_actions()
            s.apply(acts[rng.randrange(len(acts))])
        seed += 1
    return out


@pytest.mark.parametrize("what", ["move_choices", "sight_options"])
def test_enemy_evaluation(benchmark, what: str) -> None:  # type: ignore[no-untyped-def]
    """The enemies' evaluation of a move or sight line toward each hero, over 40 positions."""
    states = _enemy_positions()

    def run() -> int:
        n = 0
        for s in states:
            for e in s.enemies:
                for h in s.standing_heroes():
                    n += len(getattr(s, what)(e, [h.id])[0])
        return n

    assert benchmark(run) >= 0


def test_random_game_four_heroes(benchmark) -> None:  # type: ignore[no-untyped-def]
    seeds = iter(range(10**9))

    def play() -> int:
        return random_game(GAME, FOUR, next(seeds))

    assert benchmark(play) > 0
