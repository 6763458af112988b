"""Playing many games: one :class:`Job` is one game, one row of results comes back.

A job names everything that makes its game reproducible: the game, setup, seed, bot spec and
bot seed, and the content overrides. :func:`play` runs it to the end in this process; the
backends run many jobs in local worker processes or on a Ray cluster and give the rows back in
job order, so results never depend on which worker finished first.
"""

from __future__ import annotations

import json
import os
import time
import traceback
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

from meadhall.bots import make_bot
from meadhall.core.errors import MeadhallError
from meadhall.core.protocol import Decision, Event, GameState
from meadhall.sim.whatif import Override, game_for

MAX_STEPS = 5000
"""Decisions after which a game counts as unfinished (a bot stuck in a loop)."""

BASE_COLUMNS = ("row", "batch", "game", "scenario", "heroes", "party", "setup", "seed", "bot",
                "bot_seed", "content", "result", "win", "reason", "rounds", "decisions",
                "trigger", "final_blow", "knockouts", "kills", "first_fallen", "knockout_list",
                "kill_list", "trajectory", "log", "error")
"""The columns every row has (game measures follow, under their own names)."""
MACHINE_COLUMNS = ("cpu_seconds", "node")
"""Columns that depend on the machine, not on the game: left out of summaries and of the
comparison of rows (the same seeds give the same rows on any machine otherwise). ``node`` is
the Ray node that played the game (``--backend ray`` only)."""


def same_game(row: dict[str, Any]) -> dict[str, Any]:
    """A row without its :data:`MACHINE_COLUMNS`, to compare runs of the same games."""
    return {k: v for k, v in row.items() if k not in MACHINE_COLUMNS}

Progress = Callable[[int], None]


def mix(*parts: int) -> int:
    """A 31-bit seed from integers (splitmix64 finaliser), stable across runs and machines.

    >>> mix(1, 0) == mix(1, 0) != mix(1, 1)
    True
    """
    x = 0x9E3779B97F4A7C15
    for p in parts:
        x = (x ^ (p & 0xFFFFFFFFFFFFFFFF)) * 0xBF58476D1CE4E5B9 & 0xFFFFFFFFFFFFFFFF
        x ^= x >> 31
        x = x * 0x94D049BB133111EB & 0xFFFFFFFFFFFFFFFF
        x ^= x >> 29
    return x & 0x7FFFFFFF


def game_seed(base: int, index: int) -> int:
    """The seed of the ``index``-th game of a run started with ``--seed base``."""
    return mix(base, index)


def bot_seed(seed: int) -> int:
    """The bot's own seed for the game with this seed (the same in every variant of a sweep,
    so that variants are compared on the same games)."""
    return mix(seed, 0xB07)


@dataclass(frozen=True, slots=True)
class Job:
    """One game to play: everything its row needs to be reproduced."""

    game: str
    setup: str
    """The setup as canonical JSON (hashable and picklable)."""
    seed: int
    bot: str
    bot_seed: int
    content: tuple[Override, ...] = ()
    batch: str = ""
    max_steps: int = MAX_STEPS

    @classmethod
    def make(cls, game: str, setup: dict[str, Any], seed: int, bot: str,
             content: Sequence[Override] = (), batch: str = "",
             max_steps: int = MAX_STEPS) -> Job:
        return cls(game, json.dumps(setup, sort_keys=True), seed, bot, bot_seed(seed),
                   tuple((p, v) for p, v in content), batch or bot, max_steps)


@dataclass
class Played:
    """A game played by a job: the final state and the statistics seen on the way."""

    state: GameState | None
    knockouts: list[list[str]] = field(default_factory=list)
    kills: list[list[str]] = field(default_factory=list)
    decisions: int = 0
    error: str | None = None
    legal_total: int = 0
    legal_max: int = 0
    cpu_seconds: float = 0.0
    trajectory: list[list[float]] = field(default_factory=list)
    """``[round, value]``: the party's ``evaluate`` as each round began (and at the end)."""
    seats: dict[str, dict[str, float]] = field(default_factory=dict)
    """Per seat: actions taken, damage dealt and taken, knockouts suffered, kills."""

    def seat(self, name: str) -> dict[str, float]:
        got = self.seats.get(name)
        if got is None:
            got = self.seats[name] = {"actions": 0, "damage_dealt": 0.0, "damage_taken": 0.0,
                                      "knockouts": 0, "kills": 0}
        return got


def _round_of(state: GameState) -> Any:
    try:
        return state.measures().get("rounds")
    except Exception:  # noqa: BLE001 - a broken measure is reported by play()
        return None


Step = Callable[[Decision, str, list[Event]], None]


def run_game(job: Job, on_step: Step | None = None) -> Played:
    """Play ``job``'s game to its end (or ``max_steps`` decisions); ``on_step`` sees each
    decision, the action chosen and its events (``meadhall replay`` prints them)."""
    game = game_for(job.game, job.content)
    out = Played(None)
    start = time.process_time()
    try:
        state = game.new_game(json.loads(job.setup), job.seed)
        out.state = state
        for hero in state.setup.get("heroes") or []:  # the heroes, whoever plays them
            out.seat(str(hero))
        bot = make_bot(job.bot, job.bot_seed)
        rounds = _round_of(state)
        out.trajectory.append([rounds, game.evaluate(state)])
        health = game.health(state)
        for _ in range(job.max_steps):
            decision = state.decision()
            if decision is None:
                break
            n = len(state.legal_actions())
            out.legal_total += n
            out.legal_max = max(out.legal_max, n)
            action = bot.choose(state)
            events = state.apply(action)
            out.decisions += 1
            who = out.seat(decision.seat)
            who["actions"] += 1
            for e in events:
                if e.kind == "knockout":
                    d = e.data
                    out.knockouts.append([str(d.get("hero")), str(d.get("by")),
                                          str(d.get("by_type"))])
                    out.seat(str(d.get("hero")))["knockouts"] += 1
                elif e.kind == "kill":
                    d = e.data
                    out.kills.append([str(d.get("by")), str(d.get("enemy")),
                                      str(d.get("enemy_type"))])
                    if d.get("by") in out.seats:
                        out.seats[str(d.get("by"))]["kills"] += 1
            after = game.health(state)
            if after:
                # Damage taken: each hero's health lost in the step; damage dealt: the
                # enemies' health lost, credited to the seat that decided the step.
                for hero, hp in after.items():
                    if hero != "enemies" and hp < health.get(hero, hp):
                        out.seat(hero)["damage_taken"] += health[hero] - hp
                lost = health.get("enemies", 0.0) - after.get("enemies", 0.0)
                if lost > 0:
                    who["damage_dealt"] += lost
            health = after
            now = _round_of(state)
            if now != rounds or state.decision() is None:
                rounds = now
                out.trajectory.append([now, game.evaluate(state)])
            if on_step is not None:
                on_step(decision, action.text, events)
    except Exception as e:  # noqa: BLE001 - recorded in the row and reported loudly
        where = ""
        if not isinstance(e, MeadhallError):  # a bug: say where, for the game's engineer
            frame = traceback.extract_tb(e.__traceback__)[-1]
            where = f" (at {frame.filename.split('/src/')[-1]}:{frame.lineno})"
        out.error = f"{type(e).__name__}: {e}{where}"
    out.cpu_seconds = time.process_time() - start
    return out


CROSS = 0.5
"""The value a trajectory crosses when the lead changes (``evaluate`` is 0 lost .. 1 won)."""


def tension(trajectory: Sequence[Sequence[float]], won: bool | None
            ) -> dict[str, Any]:
    """What a game's trajectory of ``evaluate`` values says: the closest call (the lowest
    value of a won game), the decisive round (the round after which the value never crossed
    0.5 again) and the lead changes (crossings of 0.5)."""
    values = [float(v) for _, v in trajectory]
    sides = [v > CROSS for v in values if v != CROSS]
    changes = sum(1 for a, b in zip(sides, sides[1:], strict=False) if a != b)
    decisive = None
    if values and won is not None:
        # the first point from which every later value lies on the side of the result
        start = 0
        for i, v in enumerate(values):
            if v != CROSS and (v > CROSS) != won:
                start = i + 1
        decisive = trajectory[min(start, len(trajectory) - 1)][0]
    return {"closest_call": round(min(values), 4) if won and values else None,
            "decisive_round": decisive, "lead_changes": changes}


def _jsonable(v: Any) -> Any:
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    return json.dumps(v, sort_keys=True, default=str)


def play(job: Job) -> dict[str, Any]:
    """Play one job and return its row (see :data:`BASE_COLUMNS`)."""
    played = run_game(job)
    setup = json.loads(job.setup)
    state = played.state
    heroes = setup.get("heroes") or []
    if state is not None:
        setup = state.setup
        heroes = list(state.setup.get("heroes") or [])
    row: dict[str, Any] = {
        "row": None, "batch": job.batch, "game": job.game,
        "scenario": None if setup.get("scenario") is None else str(setup.get("scenario")),
        "heroes": ",".join(map(str, heroes)), "party": len(heroes),
        "setup": json.dumps(setup, sort_keys=True), "seed": job.seed, "bot": job.bot,
        "bot_seed": job.bot_seed,
        "content": json.dumps([list(o) for o in job.content]) if job.content else "",
        "result": "error", "win": False, "reason": "", "rounds": None,
        "decisions": played.decisions, "trigger": None, "final_blow": None,
        "knockouts": len(played.knockouts), "kills": len(played.kills),
        "first_fallen": played.knockouts[0][0] if played.knockouts else None,
        "knockout_list": json.dumps(played.knockouts), "kill_list": json.dumps(played.kills),
        "trajectory": json.dumps([[r, round(v, 4)] for r, v in played.trajectory]),
        "log": json.dumps(state.log if state is not None else []), "error": played.error,
    }
    if state is not None and played.error is None:
        o = state.outcome()
        row["result"] = o.result if o.over else "unfinished"
        row["win"] = o.result == "win"
        row["reason"] = o.reason if o.over else f"no end after {job.max_steps} decisions"
    over = row["result"] in ("win", "loss")
    row.update(tension(played.trajectory, row["win"] if over else None))
    row["legal_mean"] = round(played.legal_total / played.decisions, 3) \
        if played.decisions else None
    row["legal_max"] = played.legal_max
    row["cpu_seconds"] = round(played.cpu_seconds, 4)
    for seat, figures in played.seats.items():
        for what, v in figures.items():
            row[f"seat_{seat}_{what}"] = round(v, 3) if isinstance(v, float) else v
    if state is not None:
        try:
            measures = state.measures()
        except Exception as e:  # noqa: BLE001 - a broken measure is an error of this row
            measures = {}
            row["error"] = row["error"] or f"measures(): {type(e).__name__}: {e}"
            row["result"] = "error"
        for k, v in measures.items():
            value = _jsonable(v)
            if k in ("rounds", "trigger", "final_blow") or k not in BASE_COLUMNS:
                row[k] = value
            elif row[k] != value and str(row[k]) != str(value):
                # A measure named like a row column (and saying something else) keeps a prefix.
                row[f"measure_{k}"] = value
    return row


def play_chunk(jobs: Sequence[Job]) -> list[dict[str, Any]]:
    """Play several jobs in this process (one task for a worker)."""
    return [play(j) for j in jobs]


def play_chunk_on_node(jobs: Sequence[Job]) -> list[dict[str, Any]]:
    """:func:`play_chunk` as a Ray task: each row also names the Ray node that played it."""
    import ray

    node = ray.get_runtime_context().get_node_id()
    rows = play_chunk(jobs)
    for r in rows:
        r["node"] = node
    return rows


def chunks(jobs: Sequence[Job], workers: int) -> list[list[Job]]:
    """Split jobs into tasks small enough to balance the workers and show progress."""
    size = max(1, min(16, len(jobs) // max(1, workers * 8)))
    return [list(jobs[i:i + size]) for i in range(0, len(jobs), size)]


def cpu_workers() -> int:
    """The CPUs this process may use (``--workers auto``)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


class Backend:
    """Runs jobs somewhere and gives their rows back in job order."""

    name = "inline"

    def run(self, jobs: Sequence[Job], progress: Progress | None = None
            ) -> list[dict[str, Any]]:
        rows = []
        for j in jobs:
            rows.append(play(j))
            if progress:
                progress(1)
        return rows

    def close(self) -> None:
        return None

    def __enter__(self) -> Backend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class LocalBackend(Backend):
    """Worker processes on this machine (one per CPU with ``workers=0``)."""

    name = "local"

    def __init__(self, workers: int = 0) -> None:
        self.workers = workers or cpu_workers()
        self._pool: ProcessPoolExecutor | None = None

    def run(self, jobs: Sequence[Job], progress: Progress | None = None
            ) -> list[dict[str, Any]]:
        if self.workers <= 1 or len(jobs) <= 1:
            return super().run(jobs, progress)
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=self.workers)
        tasks = chunks(jobs, self.workers)
        results: dict[int, list[dict[str, Any]]] = {}
        pending: dict[Future[list[dict[str, Any]]], int] = {
            self._pool.submit(play_chunk, t): i for i, t in enumerate(tasks)}
        try:
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for f in done:
                    i = pending.pop(f)
                    results[i] = f.result()
                    if progress:
                        progress(len(results[i]))
        except BaseException:
            for f in pending:
                f.cancel()
            self.close()
            raise
        return [r for i in range(len(tasks)) for r in results[i]]

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


class RayBackend(Backend):
    """The same jobs as Ray tasks: on a running cluster (``address``), on an already
    initialised Ray, or on a local Ray started here (and shut down again on close)."""

    name = "ray"

    def __init__(self, address: str | None = None, workers: int = 0) -> None:
        try:
            import ray
        except ImportError:
            raise MeadhallError("the ray backend needs Ray: pip install 'meadhall[ray]'") \
                from None
        self.ray = ray
        self.started = False
        if not ray.is_initialized():
            kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
            if address:
                kwargs["address"] = address
            else:
                # "local" always starts a Ray of our own: a bare ray.init() would join any
                # cluster `ray start` left running on this machine (someone else's, perhaps)
                kwargs["address"] = "local"
                kwargs["num_cpus"] = workers or cpu_workers()
            ray.init(**kwargs)
            self.started = True
        self.task = ray.remote(play_chunk_on_node)
        self.workers = workers or int(ray.cluster_resources().get("CPU", 1))

    def run(self, jobs: Sequence[Job], progress: Progress | None = None
            ) -> list[dict[str, Any]]:
        ray = self.ray
        tasks = chunks(jobs, self.workers)
        # SPREAD: a sweep's games go to every node with a free CPU, not first to the
        # driver's own node (Ray's default packs a node before it uses the next).
        task = self.task.options(scheduling_strategy="SPREAD")
        refs = {task.remote(t): i for i, t in enumerate(tasks)}
        results: dict[int, list[dict[str, Any]]] = {}
        waiting = list(refs)
        while waiting:
            done, waiting = ray.wait(waiting, num_returns=1)
            for ref in done:
                i = refs[ref]
                results[i] = ray.get(ref)
                if progress:
                    progress(len(results[i]))
        return [r for i in range(len(tasks)) for r in results[i]]

    def close(self) -> None:
        if self.started:
            self.ray.shutdown()
            self.started = False


def backend(name: str = "local", workers: int = 0, address: str | None = None) -> Backend:
    """The backend ``--backend`` names."""
    if name == "local":
        if address:
            # a cluster address with the local backend would be dropped without a word
            raise MeadhallError(f"--address {address} names a Ray cluster: add --backend ray")
        return LocalBackend(workers)
    if name == "ray":
        return RayBackend(address, workers)
    raise MeadhallError(f"unknown backend {name!r}; choose local or ray")
