"""``meadhall tune``: search content values toward a target win rate (and other targets,
such as a number of rounds) with Optuna.

Every trial plays the same seeds (common random numbers), so trials differ by their values, not
by their luck. The best trial's rate is optimistic (it was picked for being close), so the best
values are then measured again on fresh seeds, and that interval is the one reported. A
parameter whose range changes no measure beyond noise (every trial's games identical, or every
difference inside the trials' intervals) is reported as having no effect, and no change of it
is proposed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from meadhall.core.errors import ContentError, MeadhallError
from meadhall.sim.lab import Announce, Plan, run
from meadhall.sim.runner import Backend
from meadhall.sim.stats import mean_interval
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


def parse_target(text: str) -> tuple[str, float]:
    """``MEASURE=VALUE``: a mean to aim for besides the win rate, e.g. ``rounds=12``."""
    name, sep, raw = text.partition("=")
    try:
        value = float(raw)
    except ValueError:
        value = None  # type: ignore[assignment]
    if not sep or not name.strip() or value is None:
        raise MeadhallError(f"--target {text!r}: expected MEASURE=VALUE, e.g. rounds=12")
    return name.strip(), value


@dataclass
class Trial:
    """The values of one trial and what they measured; ``errors`` games failed (the values
    may break the game: such a trial is never the best). ``means`` holds each other target's
    mean with its interval; ``fingerprint`` the games' logs (identical games, identical
    fingerprint)."""

    number: int
    values: dict[str, int | float]
    games: int
    wins: int
    ci: tuple[float, float]
    errors: int = 0
    error: str | None = None
    means: dict[str, tuple[float, float, float]] = field(default_factory=dict)
    fingerprint: int = 0

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
    targets: dict[str, float] = field(default_factory=dict)
    no_effect: list[str] = field(default_factory=list)
    """The parameters whose range changed no measure beyond noise."""

    def distance(self, t: Trial) -> float:
        """How far a trial is from every target: the win rate's distance plus each other
        target's relative distance (errors: the worst possible)."""
        if t.errors:
            return 2.0 * (1 + len(self.targets))
        d = abs(t.win_rate - self.target)
        for name, goal in self.targets.items():
            m = t.means.get(name)
            d += 1.0 if m is None else abs(m[0] - goal) / max(abs(goal), 1.0)
        return d

    def to_json(self) -> dict[str, Any]:
        def t(x: Trial | None) -> dict[str, Any] | None:
            if x is None:
                return None
            return {"trial": x.number, "values": x.values, "games": x.games, "wins": x.wins,
                    "win_rate": round(x.win_rate, 4), "ci_low": round(x.ci[0], 4),
                    "ci_high": round(x.ci[1], 4), "errors": x.errors, "error": x.error,
                    "means": {k: [round(v, 4) for v in m] for k, m in x.means.items()}}
        return {"target_win": self.target, "targets": self.targets,
                "no_effect": self.no_effect, "before": self.before, "authored": self.authored,
                "best": t(self.best), "confirmed": t(self.confirmed),
                "trials": [t(x) for x in self.trials]}


def noise_free_effects(out: TuneResult) -> list[str]:
    """The parameters whose range changes no measure beyond noise: grouped by the
    parameter's value, the trials' win rates and target means (and the number of rounds)
    differ by no more than the widest half interval among them, or the games were
    identical."""
    valid = [t for t in out.trials if not t.errors]
    quiet = []
    for p in out.params:
        groups: dict[Any, list[Trial]] = {}
        for t in valid:
            groups.setdefault(t.values[p.path], []).append(t)
        if len(groups) < 2:
            continue
        fingerprints = {t.fingerprint for t in valid}
        if len(out.params) == 1 and len(fingerprints) == 1:
            quiet.append(p.path)  # the very same games whatever the value
            continue
        moved = False
        names = ["win rate", *sorted({k for t in valid for k in t.means})]
        for name in names:
            per: list[tuple[float, float]] = []
            for ts in groups.values():
                if name == "win rate":
                    pts = [(t.win_rate, (t.ci[1] - t.ci[0]) / 2) for t in ts]
                else:
                    pts = [(t.means[name][0], (t.means[name][2] - t.means[name][1]) / 2)
                           for t in ts if name in t.means]
                if pts:
                    per.append((sum(v for v, _ in pts) / len(pts), max(h for _, h in pts)))
            if len(per) >= 2:
                spread = max(v for v, _ in per) - min(v for v, _ in per)
                if spread > max(h for _, h in per):
                    moved = True
                    break
        if not moved:
            quiet.append(p.path)
    return quiet


def tune(game: str, setup: dict[str, Any], params: Sequence[Param], target: float,
         backend: Backend, bot: str = "heuristic", games: int = 200, trials: int = 20,
         seed: int = 1, confirm: int = 0, content: Sequence[Override] = (),
         announce: Announce | None = None, targets: dict[str, float] | None = None
         ) -> TuneResult:
    """Search ``params`` for the values whose win rate with ``bot`` is closest to ``target``
    and whose means are closest to ``targets`` (``games`` per trial, ``trials`` trials),
    then measure the best on ``confirm`` fresh games (0: as many as a trial)."""
    import optuna

    if not 0 <= target <= 1:
        raise MeadhallError("--target-win is a win rate between 0 and 1")
    if trials < 1:
        raise MeadhallError("--trials must be at least 1")
    base = game_for(game, tuple(content)).content
    out = TuneResult(target, list(params), {p.path: get_value(base, p.path) for p in params},
                     {p.path: authored(base, p.path) for p in params},
                     targets=dict(targets or {}))
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
        means: dict[str, tuple[float, float, float]] = {}
        for name in {"rounds", *out.targets}:
            d = s["decisions"] if name == "decisions" else s["measures"].get(name)
            if name == "rounds":
                rows = [float(r["rounds"]) for r in res.batches[0].rows
                        if isinstance(r.get("rounds"), (int, float))]
                if rows:
                    m, lo, hi = mean_interval(rows)
                    means[name] = (m, m if lo is None else lo, m if hi is None else hi)
                continue
            if isinstance(d, dict) and d.get("mean") is not None:
                lo = d["ci_low"] if d["ci_low"] is not None else d["mean"]
                hi = d["ci_high"] if d["ci_high"] is not None else d["mean"]
                means[name] = (d["mean"], lo, hi)
        missing = [n for n in out.targets if n not in means]
        if missing and not s["errors"]:
            raise MeadhallError(f"--target {missing[0]}: no such numeric measure in this "
                                f"game's rows (e.g. rounds, decisions, or a column of "
                                f"`meadhall sim --out`)")
        fingerprint = hash(tuple(r["log"] for r in res.batches[0].rows))
        return Trial(number, values, s["games"], s["wins"], (s["ci_low"], s["ci_high"]),
                     s["errors"], first, means, fingerprint)

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
                        seen[key].errors, seen[key].error, seen[key].means,
                        seen[key].fingerprint)
        else:
            got = seen[key] = measure(trial.number, values, seed, games,
                                      f"trial {trial.number + 1}/{trials}")
        out.trials.append(got)
        # Values that break the game (games ending in an error) are the worst possible.
        return out.distance(got)

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(direction="minimize",
                                sampler=optuna.samplers.TPESampler(seed=seed))
    study.optimize(objective, n_trials=trials)
    valid = [t for t in out.trials if not t.errors]
    if not valid:
        raise MeadhallError(f"every trial's games failed with an error, e.g. "
                            f"{out.trials[0].error} (values {out.trials[0].values})")
    out.best = min(valid, key=lambda t: (out.distance(t), t.number))
    out.no_effect = noise_free_effects(out)
    out.confirmed = measure(out.best.number, out.best.values, seed + 1_000_003,
                            confirm or games, "confirmation")
    return out

