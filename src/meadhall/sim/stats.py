"""The statistics of the lab: intervals for win rates and their differences, exact paired tests,
Holm's correction, and the alpha spending that keeps ``--until-ci`` honest.

Only the standard library: these are a few formulas, each with its reference.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist, fmean, stdev

LEVEL = 0.95


def z_for(level: float = LEVEL) -> float:
    """The two-sided normal quantile for a confidence ``level`` (1.96 for 95%)."""
    if not 0 < level < 1:
        raise ValueError("a confidence level lies strictly between 0 and 1")
    return NormalDist().inv_cdf(1 - (1 - level) / 2)


def wilson(k: int, n: int, level: float = LEVEL) -> tuple[float, float]:
    """Wilson score interval for a proportion of ``k`` successes in ``n`` trials.

    Wilson (1927); it keeps close to its nominal coverage even for few games or win rates near
    0 or 1, where the textbook ``p ± z·se`` interval collapses.

    >>> lo, hi = wilson(50, 100); round(lo, 3), round(hi, 3)
    (0.404, 0.596)
    """
    if n <= 0:
        return 0.0, 1.0
    z = z_for(level)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # At k = 0 or k = n the bound is exactly 0 or 1; rounding must not move it.
    lo = 0.0 if k == 0 else max(0.0, min(p, centre - half))
    hi = 1.0 if k == n else min(1.0, max(p, centre + half))
    return lo, hi


def newcombe(k1: int, n1: int, k2: int, n2: int, level: float = LEVEL) -> tuple[float, float]:
    """Interval for the difference of two proportions ``k1/n1 - k2/n2`` from their Wilson
    intervals (Newcombe 1998, method 10). For batches played on the same seeds the outcomes
    are positively correlated, which makes this unpaired interval conservative."""
    p1 = k1 / n1 if n1 else 0.0
    p2 = k2 / n2 if n2 else 0.0
    l1, u1 = wilson(k1, n1, level)
    l2, u2 = wilson(k2, n2, level)
    d = p1 - p2
    lo = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    hi = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return max(-1.0, lo), min(1.0, hi)


def binom_two_sided(k: int, n: int) -> float:
    """Exact two-sided p-value of ``k`` successes in ``n`` fair coin flips."""
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(k, n - k) + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def mcnemar(won_only_a: int, won_only_b: int) -> float:
    """Exact McNemar test for paired games (the same seed played by two variants): only the
    seeds one variant won and the other lost carry evidence, and under no difference either
    side is a fair coin flip (McNemar 1947, exact binomial form)."""
    return binom_two_sided(won_only_a, won_only_a + won_only_b)


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm-adjusted p-values (Holm 1979): controls the chance of any false claim among all
    the comparisons of a sweep, at every level, without assuming they are independent.

    >>> holm([0.01, 0.04, 0.03])
    [0.03, 0.06, 0.06]
    """
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    out = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        out[i] = round(running, 12)
    return out


def mean_interval(values: Sequence[float], level: float = LEVEL
                  ) -> tuple[float, float | None, float | None]:
    """Mean with a normal-approximation interval, kept within the values seen (``None``
    bounds for fewer than 2 values)."""
    if not values:
        return math.nan, None, None
    m = fmean(values)
    if len(values) < 2:
        return m, None, None
    half = z_for(level) * stdev(values) / math.sqrt(len(values))
    # The normal approximation can reach past what the measure can be (a negative count):
    # the interval is kept within the values seen.
    return m, max(m - half, min(values)), min(m + half, max(values))


def look_alpha(look: int, alpha: float = 1 - LEVEL) -> float:
    """The error rate spent at the ``look``-th look (1, 2, ...) of a sequential run:
    ``alpha / (k (k + 1))``, which sums to ``alpha`` over any number of looks. By the union
    bound every interval computed at every look covers the true rate with probability at
    least ``1 - alpha``, so stopping whenever an interval is narrow enough keeps it."""
    if look < 1:
        raise ValueError("looks are numbered from 1")
    return alpha / (look * (look + 1))


def quantile(sorted_values: Sequence[float], q: float) -> float:
    """The ``q`` quantile by linear interpolation (``sorted_values`` ascending)."""
    if not sorted_values:
        return math.nan
    pos = (len(sorted_values) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)
