"""``meadhall replay FILE --row N``: play a results row's game again from its seed and show it.

The row holds the game, setup, seed, bot and bot seed, and content overrides, which is all it
takes to play the same game again; the row's action log is kept too, so the re-run can be
checked against it (and games of bots with a budget in seconds, whose search depends on the
machine, are replayed from the log).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from meadhall.bots import is_timed
from meadhall.core.protocol import FORCE, Decision, Event
from meadhall.sim import results
from meadhall.sim.runner import MAX_STEPS, Job, Step, run_game
from meadhall.sim.whatif import game_for


def find_row(rows: Sequence[dict[str, Any]], n: int, source: str) -> dict[str, Any]:
    """The row numbered ``n`` (the ``row`` column; its position when there is none)."""
    for i, r in enumerate(rows):
        if (r.get("row") if r.get("row") is not None else i) == n:
            return r
    raise results.ResultsError(f"{source}: no row {n} (rows 0 to {len(rows) - 1})")


def job_of(row: dict[str, Any]) -> Job:
    """The job that played this row's game."""
    content = tuple((p, v) for p, v in json.loads(row.get("content") or "[]"))
    steps = int(row["decisions"]) if row.get("result") == "unfinished" else MAX_STEPS
    return Job(str(row["game"]), str(row["setup"]), int(row["seed"]), str(row["bot"]),
               int(row["bot_seed"]), content, str(row.get("batch") or row["bot"]), steps)


@dataclass
class Replayed:
    log: list[str]
    result: str
    reason: str
    measures: dict[str, Any]
    matches: bool
    from_log: bool
    error: str | None = None


def replay(row: dict[str, Any], on_step: Step, from_log: bool = False) -> Replayed:
    """Re-run the row's game (re-playing its bot from the seed, or with ``from_log`` or a
    timed bot, its stored action log), calling ``on_step`` for every decision."""
    stored = json.loads(row.get("log") or "[]")
    job = job_of(row)
    if isinstance(stored, list) and all(isinstance(x, str) for x in stored):
        stored = game_for(job.game, job.content).retired.map_log(stored)
    use_log = from_log or is_timed(job.bot)
    if use_log:
        game = game_for(job.game, job.content)
        state = game.new_game(json.loads(job.setup), job.seed)
        for entry in stored:
            if entry.startswith(FORCE):
                state.force(entry[len(FORCE):])
                continue
            d = state.decision()
            events: list[Event] = state.apply(entry)
            on_step(d or Decision("", ""), entry, events)
        log = list(state.log)
        error = None
    else:
        played = run_game(job, on_step)
        if played.state is None:
            return Replayed([], "error", "", {}, row.get("result") == "error", False,
                            played.error)
        state = played.state
        log = list(state.log)
        error = played.error
    o = state.outcome()
    result = "error" if error else (o.result if o.over else "unfinished")
    return Replayed(log, result, o.reason, state.measures(), log == stored
                    and result == row.get("result"), use_log, error)
