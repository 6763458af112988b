"""The lab's statistics against published values, and the coverage of sequential stopping."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from meadhall.core.rng import Rng
from meadhall.sim import stats


def test_wilson_matches_published_values() -> None:
    # Newcombe (1998), Table I: 81/263 -> 0.2553 to 0.3662 (Wilson, 95%).
    lo, hi = stats.wilson(81, 263)
    assert (round(lo, 4), round(hi, 4)) == (0.2553, 0.3662)
    # 0 of 10 still has an upper bound: 0.2775 (Newcombe 1998, Table I, 0/10).
    lo, hi = stats.wilson(0, 10)
    assert lo == 0.0 and round(hi, 4) == 0.2775
    assert stats.wilson(0, 0) == (0.0, 1.0)


@given(st.integers(0, 500), st.integers(1, 500))
def test_wilson_is_a_proper_interval(k: int, n: int) -> None:
    k = min(k, n)
    lo, hi = stats.wilson(k, n)
    assert 0.0 <= lo <= k / n <= hi <= 1.0
    wider = stats.wilson(k, n, 0.99)
    assert wider[0] <= lo + 1e-12 and wider[1] >= hi - 1e-12


def test_newcombe_difference_matches_the_paper() -> None:
    # Newcombe (1998), example (a): 56/70 - 48/80, method 10: 0.0524 to 0.3339.
    lo, hi = stats.newcombe(56, 70, 48, 80)
    assert (round(lo, 4), round(hi, 4)) == (0.0524, 0.3339)


def test_exact_mcnemar_and_binomial() -> None:
    assert stats.mcnemar(0, 0) == 1.0
    # 9 discordant pairs all one way: 2 * 0.5^9.
    assert math.isclose(stats.mcnemar(9, 0), 2 / 512)
    assert math.isclose(stats.binom_two_sided(5, 10), 1.0)
    assert stats.mcnemar(3, 12) == stats.mcnemar(12, 3)


def test_holm_step_down() -> None:
    assert stats.holm([0.01, 0.04, 0.03]) == [0.03, 0.06, 0.06]
    assert stats.holm([0.2, 0.9]) == [0.4, 0.9]
    assert stats.holm([]) == []


def test_alpha_spending_sums_to_alpha() -> None:
    assert math.isclose(sum(stats.look_alpha(k, 0.05) for k in range(1, 10_000)), 0.05,
                        rel_tol=1e-3)
    with pytest.raises(ValueError):
        stats.look_alpha(0)


def test_quantiles_and_means() -> None:
    assert stats.quantile([1, 2, 3, 4], 0.5) == 2.5
    assert stats.quantile([7], 0.9) == 7
    m, lo, hi = stats.mean_interval([1.0, 2.0, 3.0])
    assert m == 2.0 and lo is not None and hi is not None and lo < 2 < hi
    assert stats.mean_interval([4.0])[1:] == (None, None)


def _sequential_run(p: float, width: float, rng: Rng, cap: int = 20_000) -> tuple[float, float]:
    """The lab's --until-ci rule on a simulated coin: looks at 100, 200, 400... games."""
    wins = games = 0
    n, look = 100, 0
    while True:
        look += 1
        while games < n:
            wins += rng.random() < p
            games += 1
        lo, hi = stats.wilson(wins, games, 1 - stats.look_alpha(look))
        if hi - lo <= width or games >= cap:
            return lo, hi
        n *= 2


@pytest.mark.parametrize("p", [0.05, 0.3, 0.5])
def test_sequential_stopping_keeps_its_coverage(p: float) -> None:
    """Stopping as soon as the interval is narrow enough still covers the true rate in at
    least 95% of runs (here: no miss at all in 300 runs, as the spending is conservative)."""
    rng = Rng(int(p * 1000))
    misses = 0
    runs = 300
    for _ in range(runs):
        lo, hi = _sequential_run(p, 0.2, rng)
        misses += not lo <= p <= hi
    assert misses / runs <= 0.05
