"""A lab run: the batches a designer asks for (bots x content variants), each played to a game
count or, with ``until_ci``, until its win-rate interval is narrow enough; then the summaries
and the comparisons against the baseline.

Games are numbered per batch and take the same seeds in every batch, so variants and bots are
compared on the same games (common random numbers) and the paired McNemar test applies.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from meadhall.core.errors import MeadhallError
from meadhall.sim import stats
from meadhall.sim.runner import MAX_STEPS, Backend, Job, game_seed
from meadhall.sim.summary import Row, compare, correct, summarize
from meadhall.sim.whatif import Override, apply_overrides, game_for, get_value

FIRST_LOOK = 100
"""Games played before the first look of a sequential run; each later look doubles them."""


@dataclass(frozen=True)
class Variant:
    """One batch to play: a bot and the content overrides, and whether it is a baseline."""

    bot: str
    content: tuple[Override, ...] = ()
    label: str = ""
    baseline: bool = False
    sweep_value: Any = None


@dataclass
class Plan:
    """What to play: one game and setup, the bots, fixed overrides and an optional sweep."""

    game: str
    setup: dict[str, Any]
    bots: list[str]
    content: list[Override] = field(default_factory=list)
    sweep: tuple[str, list[Any]] | None = None
    games: int = 100
    seed: int = 1
    until_ci: float | None = None
    max_steps: int = MAX_STEPS
    level: float = stats.LEVEL

    def variants(self) -> list[Variant]:
        """The batches, in report order. A sweep always includes the current value as its
        baseline (in its place among numeric values); without a sweep the first bot is the
        baseline."""
        fixed = tuple(self.content)
        if self.sweep is None:
            return [Variant(b, fixed, b, i == 0) for i, b in enumerate(self.bots)]
        path, values = self.sweep
        current = get_value(game_for(self.game, fixed).content, path)
        out = []
        for b in self.bots:
            values_here = list(values)
            if current not in values_here:
                values_here.insert(0, current)
                if all(isinstance(v, (int, float)) and not isinstance(v, bool)
                       for v in values_here):
                    values_here.sort()  # the current value in its place on the scale
            for v in values_here:
                is_base = v == current
                content = fixed if is_base else (*fixed, (path, v))
                tag = f"{path}={json.dumps(v)}" + (" (current)" if is_base else "")
                label = tag if len(self.bots) == 1 else f"{b} {tag}"
                out.append(Variant(b, content, label, is_base, v))
        return out

    def check(self) -> None:
        """Fail early, with one clear line, on what would make every game fail."""
        from meadhall.bots import check_spec

        if self.games < 1:
            raise MeadhallError("--games must be at least 1")
        if self.until_ci is not None and not 0 < self.until_ci < 1:
            raise MeadhallError("--until-ci takes an interval width between 0 and 1, e.g. 0.1")
        if not self.bots:
            raise MeadhallError("no bot given: --bot heuristic or --bots random,heuristic")
        for b in self.bots:
            check_spec(b)
        game = game_for(self.game)
        content = apply_overrides(game.content, self.content)
        if self.sweep is not None:
            for v in self.sweep[1]:
                apply_overrides(content, [(self.sweep[0], v)])
        game_for(self.game, tuple(self.content)).blank_state(
            game.normalise_setup(self.setup), 0)

    def jobs(self, variant: Variant, start: int, stop: int) -> list[Job]:
        setup = game_for(self.game).normalise_setup(self.setup)
        return [Job.make(self.game, setup, game_seed(self.seed, i), variant.bot,
                         variant.content, variant.label, self.max_steps)
                for i in range(start, stop)]


@dataclass
class Batch:
    """A played batch: its variant, rows and summary."""

    variant: Variant
    rows: list[Row]
    summary: dict[str, Any]
    looks: int = 0
    reached: bool = True


@dataclass
class LabResult:
    plan: Plan
    batches: list[Batch]
    comparisons: list[dict[str, Any]]

    def rows(self) -> list[Row]:
        """Every row, numbered in file order."""
        out = []
        for b in self.batches:
            for r in b.rows:
                out.append({**r, "row": len(out)})
        return out

    def to_json(self) -> dict[str, Any]:
        """The summary ``--json`` prints: one batch's summary as it is, several under
        ``batches`` with the pooled counts at the top."""
        if len(self.batches) == 1:
            return self.batches[0].summary
        games = sum(b.summary["games"] for b in self.batches)
        wins = sum(b.summary["wins"] for b in self.batches)
        lo, hi = stats.wilson(wins, games, self.plan.level)
        return {"game": self.plan.game, "games": games, "wins": wins,
                "win_rate": round(wins / games, 4) if games else 0.0,
                "ci_low": round(lo, 4), "ci_high": round(hi, 4), "pooled": True,
                "batches": [b.summary for b in self.batches],
                "comparisons": self.comparisons}


Announce = Callable[[str, int], Callable[[int], None]]
"""Called when a batch (or a look) starts with its label and game count; returns the
progress callback the backend advances."""


def _sequential(plan: Plan, variant: Variant, backend: Backend, announce: Announce | None
                ) -> Batch:
    rows: list[Row] = []
    look = 0
    alpha = 1 - plan.level
    target = plan.until_ci
    assert target is not None
    n = min(FIRST_LOOK, plan.games)
    while True:
        look += 1
        progress = announce(f"{variant.label} (look {look})", n - len(rows)) if announce \
            else None
        rows += backend.run(plan.jobs(variant, len(rows), n), progress)
        wins = sum(1 for r in rows if r["result"] == "win")
        level = 1 - stats.look_alpha(look, alpha)
        lo, hi = stats.wilson(wins, len(rows), level)
        if hi - lo <= target or len(rows) >= plan.games:
            method = (f"Wilson score interval at {level:.4%} (look {look}: alpha/(k(k+1)) of "
                      f"{alpha:g} spent), valid for sequential stopping")
            summary = summarize(rows, plan.level, (lo, hi, method, level))
            summary["until_ci"] = {"width_asked": target, "width": round(hi - lo, 4),
                                   "looks": look, "reached": hi - lo <= target}
            return Batch(variant, rows, summary, look, hi - lo <= target)
        n = min(2 * n, plan.games)


def run(plan: Plan, backend: Backend, announce: Announce | None = None) -> LabResult:
    """Play every batch of ``plan`` on ``backend`` and compare them."""
    plan.check()
    batches: list[Batch] = []
    for variant in plan.variants():
        if plan.until_ci is not None:
            batches.append(_sequential(plan, variant, backend, announce))
            continue
        progress = announce(variant.label, plan.games) if announce else None
        rows = backend.run(plan.jobs(variant, 0, plan.games), progress)
        batches.append(Batch(variant, rows, summarize(rows, plan.level)))
    return LabResult(plan, batches, comparisons(plan, batches))


def comparisons(plan: Plan, batches: Sequence[Batch]) -> list[dict[str, Any]]:
    """Each variant against its baseline (the same bot's current content in a sweep, else
    the first bot), with Holm's correction over the whole family."""
    pairs: list[tuple[Batch, Batch]] = []
    if plan.sweep is not None:
        for b in batches:
            if not b.variant.baseline:
                base = next(x for x in batches if x.variant.baseline and x.variant.bot ==
                            b.variant.bot)
                pairs.append((base, b))
    elif len(batches) > 1:
        pairs = [(batches[0], b) for b in batches[1:]]
    out = []
    for base, other in pairs:
        c = compare(base.rows, other.rows, len(pairs), plan.level)
        out.append({"variant": other.variant.label, "baseline": base.variant.label, **c})
    if out:
        correct(out, plan.level)
    return out
