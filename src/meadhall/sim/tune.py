"""``meadhall tune``: search content values toward a target win rate with Optuna.

Every trial plays the same seeds (common random numbers), so trials differ by their values, not
by their luck. The best trial's rate is optimistic (it was picked for being close), so the best
values are then measured again on fresh seeds, and that interval is the one reported.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from meadhall.core.errors import ContentError, MeadhallError
from meadhall.sim.lab import Announce, Plan, run
from meadhall.sim.runner import Backend
from meadhall.sim.whatif import Override, authored, game_for, get_value

_RANGE = re.compile(r"^\s*(-?\d+(?:\.\d*)?)\s*\.\.\s*(-?\d+(?:\.\d*)?)\s*$")


@dataclass(frozen=True)
class Param:
    """A content value to tune, between ``low`` and ``high`` (whole numbers when both
    bounds are)."""

    path: str
    low: float
    high: float
    integer: bool

    def value(self, x: float) -> int | float:
        return int(round(x)) if self.integer else round(float(x), 6)


def parse_param(text: str) -> Param:
    """``PATH=LOW..HIGH``, e.g. ``undead.draugr.hv=1..3`` or ``scenarios.chase.p=0.2..0.8``."""
    path, sep, rng = text.partition("=")
    m = _RANGE.match(rng)
    if not sep or not path.strip() or m is None:
        raise MeadhallError(f"--param {text!r}: expected PATH=LOW..HIGH, e.g. "
                            "undead.draugr.hv=1..3")
    lo_t, hi_t = m.group(1), m.group(2)
    lo, hi = float(lo_t), float(hi_t)
    if lo >= hi:
        raise MeadhallError(f"--param {text!r}: LOW must be below HIGH")
    integer = "." not in lo_t and "." not in hi_t
    return Param(path.strip(), lo, hi, integer)


@dataclass
class Trial:
    """The values of one trial and what they measured; ``errors`` games failed (the values
    may break the game: such a trial is never the best)."""

    number: int
    values: dict[str, int | float]
    games: int
    wins: int
    ci: tuple[float, float]
    errors: int = 0
    error: str | None = None

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass
class TuneResult:
    target: float
    params: list[Param]
    before: dict[str, Any]
    authored: dict[str, bool | None]
    trials: list[Trial] = field(default_factory=list)
    best: Trial | None = None
    confirmed: Trial | None = None

    def to_json(self) -> dict[str, Any]:
        def t(x: Trial | None) -> dict[str, Any] | None:
            if x is None:
                return None
            return {"trial": x.number, "values": x.values, "games": x.games, "wins": x.wins,
                    "win_rate": round(x.win_rate, 4), "ci_low": round(x.ci[0], 4),
                    "ci_high": round(x.ci[1], 4), "errors": x.errors, "error": x.error}
        return {"target_win": self.target, "before": self.before, "authored": self.authored,
                "best": t(self.best), "confirmed": t(self.confirmed),
                "trials": [t(x) for x in self.trials]}


def tune(game: str, setup: dict[str, Any], params: Sequence[Param], target: float,
         backend: Backend, bot: str = "heuristic", games: int = 200, trials: int = 20,
         seed: int = 1, confirm: int = 0, content: Sequence[Override] = (),
         announce: Announce | None = None) -> TuneResult:
    """Search ``params`` for the values whose win rate with ``bot`` is closest to ``target``
    (``games`` per trial, ``trials`` trials), then measure the best on ``confirm`` fresh
    games (0: as many as a trial)."""
    import optuna

    if not 0 <= target <= 1:
        raise MeadhallError("--target-win is a win rate between 0 and 1")
    if trials < 1:
        raise MeadhallError("--trials must be at least 1")
    base = game_for(game, tuple(content)).content
    out = TuneResult(target, list(params), {p.path: get_value(base, p.path) for p in params},
                     {p.path: authored(base, p.path) for p in params})
    for p in params:
        if not isinstance(out.before[p.path], (int, float)) or isinstance(out.before[p.path],
                                                                          bool):
            raise MeadhallError(f"--param {p.path}: the value there is "
                                f"{out.before[p.path]!r}, not a number")

    def measure(number: int, values: dict[str, int | float], base_seed: int, n: int,
                label: str) -> Trial:
        plan = Plan(game, setup, [bot], [*content, *values.items()], games=n, seed=base_seed)
        try:
            res = run(plan, backend, (lambda _l, k: announce(label, k)) if announce else None)
        except ContentError as e:  # values the content's schema refuses
            return Trial(number, values, n, 0, (0.0, 1.0), n, str(e))
        s = res.batches[0].summary
        first = s["error_examples"][0]["error"] if s["error_examples"] else None
        return Trial(number, values, s["games"], s["wins"], (s["ci_low"], s["ci_high"]),
                     s["errors"], first)

    seen: dict[tuple[tuple[str, int | float], ...], Trial] = {}

    def objective(trial: optuna.Trial) -> float:
        values: dict[str, int | float] = {}
        for p in params:
            if p.integer:
                values[p.path] = trial.suggest_int(p.path, int(p.low), int(p.high))
            else:
                values[p.path] = trial.suggest_float(p.path, p.low, p.high)
        key = tuple(sorted(values.items()))
        if key in seen:
            # The same values on the same seeds play the same games: no need to play them.
            got = Trial(trial.number, values, seen[key].games, seen[key].wins, seen[key].ci,
                        seen[key].errors, seen[key].error)
        else:
            got = seen[key] = measure(trial.number, values, seed, games,
                                      f"trial {trial.number + 1}/{trials}")
        out.trials.append(got)
        # Values that break the game (games ending in an error) are the worst possible.
        return 2.0 if got.errors else abs(got.win_rate - target)

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(direction="minimize",
                                sampler=optuna.samplers.TPESampler(seed=seed))
    study.optimize(objective, n_trials=trials)
    valid = [t for t in out.trials if not t.errors]
    if not valid:
        raise MeadhallError(f"every trial's games failed with an error, e.g. "
                            f"{out.trials[0].error} (values {out.trials[0].values})")
    out.best = min(valid, key=lambda t: (abs(t.win_rate - target), t.number))
    out.confirmed = measure(out.best.number, out.best.values, seed + 1_000_003,
                            confirm or games, "confirmation")
    return out

