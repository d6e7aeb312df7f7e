"""Test primitives (docs/statistics.md): seat uniformity, a rate against a reference rate, and the Holm
correction a report applies when it makes many comparisons."""

from __future__ import annotations

import math
from collections.abc import Sequence

from scipy import special


def seat_uniformity_p(wins_per_seat: Sequence[float], n_games: int) -> float:
    """p-value of a chi-square goodness-of-fit test that every seat wins equally often.

    The observed counts are each seat's summed `win` (shared wins split); the expected
    count of every seat is an equal share of all wins, so games nobody won (round cap)
    do not count against any seat. df = seats − 1. Without wins there is nothing to test: 1.0.
    `n_games` guards the input: seats cannot win more than the games played.
    """
    total = float(sum(wins_per_seat))
    if total > n_games * (1.0 + 1e-9):
        raise ValueError(f"seats won {total} games but only {n_games} were played")
    if total <= 0.0 or len(wins_per_seat) < 2:
        return 1.0
    expected = total / len(wins_per_seat)
    statistic = sum((wins - expected) ** 2 / expected for wins in wins_per_seat)
    # scipy.special's survival functions themselves (what chi2.sf and norm.sf call, without their
    # per-call overhead: a 10,000-cell grid asks for 10,000 of them)
    return float(special.chdtrc(len(wins_per_seat) - 1, statistic))


def p_against(rate: float, reference: float, n: float) -> float:
    """Two-sided p of a rate over n trials against a reference rate (normal approximation with
    the reference's variance). 1 when there is nothing to test."""
    if n <= 0 or reference <= 0 or reference >= 1:
        return 1.0
    z = (rate - reference) / math.sqrt(reference * (1 - reference) / n)
    return 2.0 * float(special.ndtr(-abs(z)))


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm–Bonferroni adjusted p-values, in the input order.

    The i-th smallest of m p-values is multiplied by (m − i + 1), made non-decreasing
    along that order, and capped at 1 (a report making many comparisons).
    """
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    adjusted = [0.0] * len(p_values)
    running_max = 0.0
    for rank, index in enumerate(order):
        running_max = max(running_max, min(1.0, (len(p_values) - rank) * p_values[index]))
        adjusted[index] = running_max
    return adjusted
