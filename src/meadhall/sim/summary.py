"""What a batch of games says: win rate with its interval, rounds, the anatomy of defeat
(triggers, final blows, margins), knockouts and kills per hero and enemy type, who fell first,
and the game's own measures; and how batches compare (paired tests, Holm's correction).
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Sequence
from typing import Any

from meadhall.sim import stats
from meadhall.sim.runner import BASE_COLUMNS, MACHINE_COLUMNS

Row = dict[str, Any]


def _r(x: float | None, digits: int = 4) -> float | None:
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else round(x, digits)


def share(k: int, n: int, level: float = stats.LEVEL) -> dict[str, Any]:
    """A count as a share of ``n`` with its Wilson interval."""
    lo, hi = stats.wilson(k, n, level)
    return {"count": k, "share": _r(k / n if n else 0.0), "ci_low": _r(lo), "ci_high": _r(hi)}


def mean_of(values: Sequence[float], level: float = stats.LEVEL) -> dict[str, Any]:
    """A mean with its interval and the number of values behind it."""
    m, lo, hi = stats.mean_interval(values, level)
    return {"mean": _r(m), "ci_low": _r(lo), "ci_high": _r(hi), "n": len(values)}


def rounds_summary(rows: Sequence[Row]) -> dict[str, Any]:
    """The distribution of rounds: mean, quantiles, and a histogram (rounds: games)."""
    values = sorted(float(r["rounds"]) for r in rows if isinstance(r.get("rounds"), (int, float)))
    if not values:
        return {"n": 0}
    hist = Counter(int(v) for v in values)
    return {"n": len(values), "mean": _r(sum(values) / len(values), 2),
            "min": values[0], "p10": _r(stats.quantile(values, 0.1), 2),
            "median": _r(stats.quantile(values, 0.5), 2),
            "p90": _r(stats.quantile(values, 0.9), 2),
            "max": values[-1], "histogram": {str(k): hist[k] for k in sorted(hist)}}


def _lists(rows: Sequence[Row], column: str) -> list[list[list[str]]]:
    return [json.loads(r.get(column) or "[]") for r in rows]


def measure_names(rows: Sequence[Row]) -> list[str]:
    """The game's own measures present in the rows (every column beyond the base ones)."""
    names: dict[str, None] = {}
    for r in rows:
        for k in r:
            if k not in BASE_COLUMNS and k not in MACHINE_COLUMNS:
                names[k] = None
    return list(names)


def summarize(rows: Sequence[Row], level: float = stats.LEVEL,
              interval: tuple[float, float, str] | tuple[float, float, str, float] | None = None
              ) -> dict[str, Any]:
    """The summary of one batch (one bot, one content variant), JSON-ready and stable: the
    same rows give the same summary. ``interval`` replaces the plain Wilson interval of the
    win rate (the sequential run's, with its method and level)."""
    n = len(rows)
    wins = sum(1 for r in rows if r["result"] == "win")
    results = Counter(r["result"] for r in rows)
    lo, hi = stats.wilson(wins, n, level)
    method = f"Wilson score interval, {level:.0%}"
    ci_level = level
    if interval is not None:
        lo, hi, method = interval[:3]
        ci_level = interval[3] if len(interval) > 3 else level  # type: ignore[misc]
    first = rows[0] if rows else {}
    losses = [r for r in rows if r["result"] == "loss"]
    out: dict[str, Any] = {
        "batch": first.get("batch", ""), "game": first.get("game"),
        "scenario": first.get("scenario"), "heroes": first.get("heroes"),
        "party": first.get("party"), "bot": first.get("bot"),
        "content": {p: v for p, v in json.loads(first.get("content") or "[]")},
        "games": n, "wins": wins, "losses": results.get("loss", 0),
        "unfinished": results.get("unfinished", 0), "errors": results.get("error", 0),
        "win_rate": _r(wins / n if n else 0.0), "ci_low": _r(lo), "ci_high": _r(hi),
        "ci_method": method, "ci_level": ci_level,
        "rounds": rounds_summary(rows),
        "rounds_of_wins": rounds_summary([r for r in rows if r["result"] == "win"]),
        "rounds_of_losses": rounds_summary(losses),
        "decisions": mean_of([float(r["decisions"]) for r in rows], level),
    }
    out["defeat"] = defeat_anatomy(losses, level)
    out["knockouts"], out["kills"] = casualties(rows, level)
    out["measures"] = game_measures(rows, level)
    errs = [r for r in rows if r["result"] == "error"]
    out["error_examples"] = [{"row": r.get("row"), "seed": r["seed"], "error": r["error"]}
                             for r in errs[:5]]
    return out


def defeat_anatomy(losses: Sequence[Row], level: float = stats.LEVEL) -> dict[str, Any]:
    """For the lost games: which end condition fired, what dealt the final blow, and how close
    the party came (each ``margin_*`` measure)."""
    n = len(losses)
    triggers = Counter(str(r.get("trigger")) for r in losses)
    blows = Counter(str(r.get("final_blow")) for r in losses)
    margins: dict[str, Any] = {}
    for name in measure_names(losses):
        if name.startswith("margin_"):
            vals = [float(r[name]) for r in losses
                    if isinstance(r.get(name), (int, float)) and not isinstance(r[name], bool)]
            margins[name] = mean_of(vals, level)
    return {
        "losses": n,
        "triggers": {k: share(c, n, level) for k, c in triggers.most_common()},
        "final_blows": {k: share(c, n, level) for k, c in blows.most_common()},
        "margins": margins,
    }


def casualties(rows: Sequence[Row], level: float = stats.LEVEL
               ) -> tuple[dict[str, Any], dict[str, Any]]:
    """Knockouts (per hero, per enemy type and hero, who fell first) and kills (per hero and
    per enemy type), from the statistics events."""
    n = len(rows)
    kos = _lists(rows, "knockout_list")
    kills = _lists(rows, "kill_list")
    by_hero: Counter[str] = Counter()
    by_enemy: dict[str, Counter[str]] = {}
    for game in kos:
        for hero, _by, by_type in game:
            by_hero[hero] += 1
            by_enemy.setdefault(by_type, Counter())[hero] += 1
    first = Counter(r["first_fallen"] for r in rows if r.get("first_fallen"))
    kill_hero: Counter[str] = Counter()
    kill_type: Counter[str] = Counter()
    for game in kills:
        for by, _enemy, enemy_type in game:
            kill_hero[by] += 1
            kill_type[enemy_type] += 1
    knockouts = {
        "per_game": mean_of([float(len(g)) for g in kos], level),
        "by_hero": {h: {"count": c, "per_game": _r(c / n if n else 0.0)}
                    for h, c in by_hero.most_common()},
        "by_enemy_type": {t: dict(c.most_common()) for t, c in
                          sorted(by_enemy.items(), key=lambda kv: -sum(kv[1].values()))},
        "fell_first": {h: share(c, n, level) for h, c in first.most_common()},
    }
    kill_out = {
        "per_game": mean_of([float(len(g)) for g in kills], level),
        "by_hero": {h: {"count": c, "per_game": _r(c / n if n else 0.0)}
                    for h, c in kill_hero.most_common()},
        "by_enemy_type": dict(kill_type.most_common()),
    }
    return knockouts, kill_out


def game_measures(rows: Sequence[Row], level: float = stats.LEVEL) -> dict[str, Any]:
    """The game's own measures: numbers as means with intervals, yes/no as shares, words as
    counts (margins are reported with the defeats)."""
    out: dict[str, Any] = {}
    for name in measure_names(rows):
        if name.startswith("margin_"):
            continue
        present = [r[name] for r in rows if r.get(name) is not None]
        if present and all(isinstance(v, bool) for v in present):
            out[name] = {"yes": share(sum(present), len(present), level)}
        elif present and all(isinstance(v, (int, float)) for v in present):
            out[name] = mean_of([float(v) for v in present], level)
        else:
            out[name] = {"counts": dict(Counter(str(v) for v in present).most_common())}
    return out


def compare(base: Sequence[Row], other: Sequence[Row], family: int,
            level: float = stats.LEVEL) -> dict[str, Any]:
    """The effect of a variant on the win rate against the baseline batch: the difference
    with its interval at the Bonferroni level ``1 - alpha / family`` (simultaneous over the
    family of comparisons) and the exact McNemar p-value on the seeds both played (Holm's
    correction is applied by :func:`correct`)."""
    kb = sum(1 for r in base if r["result"] == "win")
    ko = sum(1 for r in other if r["result"] == "win")
    lo, hi = stats.newcombe(ko, len(other), kb, len(base), 1 - (1 - level) / max(1, family))
    won_base = {r["seed"]: r["result"] == "win" for r in base}
    only_other = only_base = paired = 0
    for r in other:
        if r["seed"] in won_base:
            paired += 1
            w = r["result"] == "win"
            if w and not won_base[r["seed"]]:
                only_other += 1
            elif won_base[r["seed"]] and not w:
                only_base += 1
    rate_b = kb / len(base) if base else 0.0
    rate_o = ko / len(other) if other else 0.0
    return {"effect": _r(rate_o - rate_b), "ci_low": _r(lo), "ci_high": _r(hi),
            "ci_level": 1 - (1 - level) / max(1, family),
            "paired_games": paired, "won_only_by_variant": only_other,
            "won_only_by_baseline": only_base,
            "p_value": _r(stats.mcnemar(only_other, only_base), 6)}


def correct(comparisons: list[dict[str, Any]], level: float = stats.LEVEL) -> None:
    """Add Holm-adjusted p-values and the verdict to each comparison of one family."""
    adjusted = stats.holm([c["p_value"] for c in comparisons])
    for c, p in zip(comparisons, adjusted, strict=True):
        c["p_holm"] = _r(p, 6)
        c["significant"] = p < 1 - level
