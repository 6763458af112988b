"""``meadhall bench``: how fast states clone (vs ``copy.deepcopy``) and random games play."""

from __future__ import annotations

import copy
import time

from rich.console import Console
from rich.table import Table

from meadhall import games
from meadhall.testing import play_random


def _per_call(fn, budget: float = 0.3) -> float:  # type: ignore[no-untyped-def]
    n, start = 0, time.perf_counter()
    while True:
        fn()
        n += 1
        elapsed = time.perf_counter() - start
        if elapsed > budget:
            return elapsed / n


def run_bench(con: Console, game: str | None = None, seeds: int = 20) -> None:
    table = Table("game", "clone µs", "deepcopy µs", "speed-up", "games/s", "actions/game")
    for g in games.all_games():
        if game and g.id != game:
            continue
        state = g.new_game(seed=1)
        clone = _per_call(state.clone)
        deep = _per_call(lambda s=state: copy.deepcopy(s))
        start = time.perf_counter()
        actions = 0
        for seed in range(seeds):
            actions += len(play_random(g, seed, check_every=0).log)
        elapsed = time.perf_counter() - start
        table.add_row(g.id, f"{clone * 1e6:.1f}", f"{deep * 1e6:.1f}", f"{deep / clone:.1f}×",
                      f"{seeds / elapsed:.1f}", f"{actions / seeds:.0f}")
    con.print(table)
