"""Interval primitives (docs/statistics.md): Wilson intervals for rates, paired differences on shared
seeds, and delta-method intervals for ratios of per-game sums compared game by game.

Everything here works on counts and sums, never on tables, so a caller aggregates lazily
and passes the sums in (simkit.analysis.tables).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
from scipy import special

Z95 = 1.959963984540054  # two-sided 95% normal quantile, as statsmodels computes it


def one_sided_z(tail: float) -> float:
    """The normal quantile with `tail` above it (tail 0.025 -> 1.96)."""
    return float(-special.ndtri(tail))


def two_sided_p(estimate: float, standard_error: float) -> float:
    """Two-sided normal p-value of an estimate against 0; with no spread, 1 if it is 0, else 0."""
    if not standard_error > 0.0:
        return 1.0 if estimate == 0.0 else 0.0
    return 2.0 * float(special.ndtr(-abs(estimate) / standard_error))  # norm.sf without its overhead


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a rate of `successes` in `n` trials.

    `successes` may be fractional: a k-way shared win counts 1/k for each sharer.
    The formula and the clipping to [0, 1] are statsmodels' `proportion_confint(method=
    "wilson")`, so the two agree to rounding. With no trials nothing is known: (0, 1).
    """
    if n <= 0:
        return 0.0, 1.0
    rate = successes / n
    z2 = z * z
    denominator = 1.0 + z2 / n
    centre = (rate + z2 / (2.0 * n)) / denominator
    half_width = z * math.sqrt(rate * (1.0 - rate) / n + z2 / (4.0 * n * n)) / denominator
    return min(max(centre - half_width, 0.0), 1.0), min(max(centre + half_width, 0.0), 1.0)


def games_needed(p: float, half_width: float, z: float = Z95) -> int:
    """Games for a 95% interval of ± `half_width` around a rate `p`.

    Normal approximation, which the Wilson interval matches at these sizes:
    n = ⌈z² · p(1 − p) / half_width²⌉, e.g. p = 0.25, ±0.01 → 7203 games. At least 1.
    """
    return max(1, math.ceil(z * z * p * (1.0 - p) / (half_width * half_width) - 1e-9))


def paired_difference(diff_sum: float, diff_sq_sum: float, n: int, z: float = Z95) -> tuple[float, float, float, float]:
    """Mean of n per-game paired differences, its normal 95% CI and a two-sided p-value.

    Takes the sum and the sum of squares of the differences, so a caller aggregates them
    lazily instead of holding the games. The CI is mean ± z·s/√n with the sample standard
    deviation s. When every difference is equal (s = 0) the CI is the mean itself and p is
    1 if the mean is 0, else 0. Fewer than two pairs give no variance: ValueError.
    """
    if n < 2:
        raise ValueError(f"a paired difference needs at least 2 pairs, got {n}")
    mean = diff_sum / n
    # sum of squared deviations; cancellation can leave a tiny negative number
    variance = max(diff_sq_sum - diff_sum * diff_sum / n, 0.0) / (n - 1)
    standard_error = math.sqrt(variance / n)
    if standard_error == 0.0:
        return mean, mean, mean, 1.0 if mean == 0.0 else 0.0
    return mean, mean - z * standard_error, mean + z * standard_error, two_sided_p(mean, standard_error)


def pairing(n: int, baseline_sum: float, baseline_sq_sum: float, other_sum: float, other_sq_sum: float,
            diff_sq_sum: float, z: float = Z95) -> dict:
    """How much the shared seeds helped a paired comparison (docs/statistics.md).

    From the sums over n pairs: the correlation of the two cells' per-game outcomes, the
    95% half width of the paired difference, and the half width an unpaired comparison of
    the same games would have had (sqrt(var_a/n + var_b/n)). `gain` = unpaired / paired
    width: 1 means the pairing bought nothing (the rules change the game from its set-up
    on, so a seed deals a different game), 2 means the paired interval is half as wide.
    """
    if n < 2:
        raise ValueError(f"pairing needs at least 2 pairs, got {n}")

    def variance(total: float, squares: float) -> float:
        return max(squares - total * total / n, 0.0) / (n - 1)

    var_a, var_b = variance(baseline_sum, baseline_sq_sum), variance(other_sum, other_sq_sum)
    var_d = variance(other_sum - baseline_sum, diff_sq_sum)
    paired = z * math.sqrt(var_d / n)
    unpaired = z * math.sqrt((var_a + var_b) / n)
    correlation = (var_a + var_b - var_d) / (2.0 * math.sqrt(var_a * var_b)) if var_a > 0 and var_b > 0 else 0.0
    return {"correlation": max(-1.0, min(1.0, correlation)), "paired_half_width": paired,
            "unpaired_half_width": unpaired, "gain": unpaired / paired if paired > 0 else None}


def unpaired_difference(high: float, se_high: float, low: float, se_low: float, z: float = Z95) -> dict:
    """high − low of two independent estimates with their standard errors: normal interval and p."""
    diff = high - low
    se = math.sqrt(se_high * se_high + se_low * se_low)
    return {"diff": diff, "ci_low": diff - z * se, "ci_high": diff + z * se, "p": two_sided_p(diff, se)}


def gap_interval(rate_high: float, rate_low: float, decided: int, z: float = Z95) -> tuple[float, float]:
    """Interval of the difference of two seats' shares of the same decided games
    (multinomial: var = (p1 + p2 − (p1 − p2)²) / n). It is the interval for this pair of
    seats; picking the most distant pair after the fact makes the gap itself read a little high."""
    if decided <= 0:
        return -1.0, 1.0
    gap = rate_high - rate_low
    half = z * math.sqrt(max(rate_high + rate_low - gap * gap, 0.0) / decided)
    return gap - half, gap + half


# ---------------------------------------------------------------------------------------
# Ratios of per-game sums, compared game by game (the delta method)
#
# A figure such as a seat's share of decided games is a ratio of two sums over games,
# R = Σw / Σd. On shared seeds two cells' figures are compared game by game: each figure is
# linearised per game, (w − R·d) / mean(d), and the per-game difference of those terms gives
# the standard error of the difference of the figures. Any figure that is a fixed linear
# combination of such ratios (a seat gap: the high seat's share minus the low seat's; a
# distance from fair with its sign fixed) is handled the same way. Callers pass the sums of
# the per-game columns and of their pairwise products (`cross_sums`, or a polars query that
# names them alike), so nothing holds the games.


def product(x: str, y: str) -> str:
    """The name of the sum of x·y over games, as `cross_sums` writes it (x before y in column order)."""
    return f"{x}*{y}"


def cross_sums(columns: Mapping[str, np.ndarray]) -> dict[str, float]:
    """Per-game columns -> their sums and the sums of every pairwise product (in column order)."""
    arrays = {name: np.asarray(values, dtype=np.float64) for name, values in columns.items()}
    names = list(arrays)
    sums = {name: float(arrays[name].sum()) for name in names}
    for i, x in enumerate(names):
        for y in names[i:]:
            sums[product(x, y)] = float((arrays[x] * arrays[y]).sum())
    return sums


def _product_sum(sums: Mapping[str, float], x: str, y: str) -> float:
    key = product(x, y)
    return sums[key] if key in sums else sums[product(y, x)]


def ratio(n: int, sums: Mapping[str, float], numerator: Mapping[str, float], denominator: str,
          sign: float = 1.0, shift: float = 0.0) -> tuple[float, dict[str, float]] | None:
    """sign · (Σ_k a_k·Σx_k / Σd − shift) and its per-game linearisation coefficients.

    `numerator` maps columns to weights a_k (one seat: {"w": 1}; a seat gap: {"h": 1, "l": -1}).
    None when nothing was decided (Σd = 0).
    """
    decided = sums[denominator]
    if n < 1 or decided <= 0:
        return None
    mean_decided = decided / n
    value = sum(weight * sums[column] for column, weight in numerator.items()) / decided
    coefficients = {column: sign * weight / mean_decided for column, weight in numerator.items()}
    coefficients[denominator] = coefficients.get(denominator, 0.0) - sign * value / mean_decided
    return sign * (value - shift), coefficients


def linear_interval(n: int, sums: Mapping[str, float], coefficients: Mapping[str, float], estimate: float,
                    z: float = Z95) -> dict:
    """`estimate` with the normal interval whose standard error is that of the per-game terms
    Σ_k c_k·x_k (their sample variance / n). Returns diff, ci_low, ci_high, p, se, paired_games."""
    if n < 2:
        return {"diff": None, "ci_low": None, "ci_high": None, "p": None, "se": None, "paired_games": n}
    se = math.sqrt(_variance(n, sums, coefficients) / n)
    return {"diff": estimate, "ci_low": estimate - z * se, "ci_high": estimate + z * se,
            "p": two_sided_p(estimate, se), "se": se, "paired_games": n}


def paired_ratio_difference(n: int, sums: Mapping[str, float], after: tuple[float, dict] | None,
                            before: tuple[float, dict] | None, z: float = Z95) -> dict:
    """after − before of two `ratio` figures measured on the same n games (shared seeds)."""
    if after is None or before is None:
        return {"diff": None, "ci_low": None, "ci_high": None, "p": None, "se": None, "paired_games": n}
    coefficients = dict(after[1])
    for column, c in before[1].items():
        coefficients[column] = coefficients.get(column, 0.0) - c
    return linear_interval(n, sums, coefficients, after[0] - before[0], z)


def _variance(n: int, sums: Mapping[str, float], coefficients: Mapping[str, float]) -> float:
    total = sum(c * sums[x] for x, c in coefficients.items())
    squares = sum(cx * cy * _product_sum(sums, x, y) for x, cx in coefficients.items()
                  for y, cy in coefficients.items())
    return max(squares - total * total / n, 0.0) / (n - 1)


def ratio_pairing(n: int, sums: Mapping[str, float], after: tuple[float, dict] | None,
                  before: tuple[float, dict] | None, z: float = Z95) -> dict | None:
    """What the shared seeds bought a paired `ratio` comparison, as `pairing` says it for a
    mean: the correlation of the two figures' per-game terms, the paired and unpaired half
    widths, and their ratio `gain` (1: the pairing bought nothing)."""
    if after is None or before is None or n < 2:
        return None
    var_b, var_a = _variance(n, sums, after[1]), _variance(n, sums, before[1])
    difference = dict(after[1])
    for column, c in before[1].items():
        difference[column] = difference.get(column, 0.0) - c
    var_d = _variance(n, sums, difference)
    paired, unpaired = z * math.sqrt(var_d / n), z * math.sqrt((var_a + var_b) / n)
    correlation = (var_a + var_b - var_d) / (2.0 * math.sqrt(var_a * var_b)) if var_a > 0 and var_b > 0 else 0.0
    return {"correlation": max(-1.0, min(1.0, correlation)), "paired_half_width": paired,
            "unpaired_half_width": unpaired, "gain": unpaired / paired if paired > 0 else None}


# the per-game columns of a paired share difference: a seat's wins and decided (0/1) in cells a and b
SHARE_COLUMNS = ("w_a", "d_a", "w_b", "d_b")


def share_sums(w_a: Sequence, d_a: Sequence, w_b: Sequence, d_b: Sequence) -> dict:
    """The sums `paired_share_difference_from_sums` needs, from per-game arrays of two cells
    on the same seeds (game i of a and of b played seed i)."""
    return cross_sums(dict(zip(SHARE_COLUMNS, (w_a, d_a, w_b, d_b))))


def paired_share_difference_from_sums(n: int, sums: Mapping[str, float], z: float = Z95) -> dict:
    """Paired difference of two ratios r = Σw / Σd (a seat's share of decided games) over n
    shared seeds, r_b − r_a, with a 95% interval (delta method, see above). Returns diff,
    ci_low, ci_high, p, se and the games compared."""
    if n < 2:
        return {"diff": None, "ci_low": None, "ci_high": None, "p": None, "se": None, "paired_games": n}
    return paired_ratio_difference(n, sums, ratio(n, sums, {"w_b": 1.0}, "d_b"), ratio(n, sums, {"w_a": 1.0}, "d_a"),
                                   z)
