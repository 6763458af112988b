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
    explain_columns(con, table)


COLUMNS = {
    "game": "the game's id",
    "clone µs": "microseconds to copy a game state with state.clone() (what search bots do "
                "at every node)",
    "deepcopy µs": "the same copy made by Python's copy.deepcopy, for comparison",
    "speed-up": "how many times faster clone() is than deepcopy",
    "games/s": "random games played to the end per second (a random bot, seeded dice)",
    "actions/game": "decisions taken in an average random game (its length)",
}
"""What each column of the bench table measures, printed under the table."""


def explain_columns(con: Console, table: Table) -> None:
    """One line per column of ``table`` saying what it measures (columns not described in
    :data:`COLUMNS` are listed without an explanation, so a new column is never silent)."""
    con.print("Columns:", style="bold")
    for column in table.columns:
        name = str(column.header)
        con.print(f"  {name}: {COLUMNS.get(name, '(not described yet)')}", markup=False,
                  highlight=False)
