"""Intervals, tests and paired comparisons, and the sweep summary built from them (DESIGN §6, §7).

The first half is pure statistics on counts and sums. `summarize` turns a sweep folder's
parquet tables into the `summary.json` content. It never loads a whole table: every
figure comes from a lazy `pl.scan_parquet` group-by run on polars' streaming engine, so
memory stays flat however many games a sweep holds (DESIGN §9); only per-cell aggregates
are collected.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path

import polars as pl
from scipy import special

Z95 = 1.959963984540054  # two-sided 95% normal quantile, as statsmodels computes it
INCOMPLETE = "round_cap"  # end_reason of a game stopped by the round cap (DESIGN §3)

# Columns with a fixed meaning in the result tables (DESIGN §6); any other column is a metric.
GAME_KEYS = ("cell", "game_index", "seed", "players", "rounds", "turns", "end_reason", "winner", "n_winners")
SEAT_KEYS = ("cell", "game_index", "seat", "strategy", "rank", "win")  # `score` is summarised as a seat metric
LENGTHS = ("rounds", "turns")  # game-length columns summarised as a distribution
PAIRED_METRICS = ("seat0_win", "rounds", "incomplete")  # what a variant comparison compares (DESIGN §7)


# ---------------------------------------------------------------------------------------
# Pure statistics (DESIGN §7)


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a rate of `successes` in `n` trials.

    `successes` may be fractional: a k-way shared win counts 1/k for each sharer (DESIGN §7).
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
    # scipy.special's survival function itself (what chi2.sf calls, without its per-call overhead: a
    # 10,000-cell grid asks for 10,000 of them)
    return float(special.chdtrc(len(wins_per_seat) - 1, statistic))


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
    p_value = 2.0 * float(special.ndtr(-abs(mean) / standard_error))  # norm.sf, called directly (as above)
    return mean, mean - z * standard_error, mean + z * standard_error, p_value


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm–Bonferroni adjusted p-values, in the input order.

    The i-th smallest of m p-values is multiplied by (m − i + 1), made non-decreasing
    along that order, and capped at 1 (DESIGN §7: a report making many comparisons).
    """
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    adjusted = [0.0] * len(p_values)
    running_max = 0.0
    for rank, index in enumerate(order):
        running_max = max(running_max, min(1.0, (len(p_values) - rank) * p_values[index]))
        adjusted[index] = running_max
    return adjusted


def games_needed(p: float, half_width: float, z: float = Z95) -> int:
    """Games for a 95% interval of ± `half_width` around a rate `p`.

    Normal approximation, which the Wilson interval matches at these sizes:
    n = ⌈z² · p(1 − p) / half_width²⌉, e.g. p = 0.25, ±0.01 → 7203 games. At least 1.
    """
    return max(1, math.ceil(z * z * p * (1.0 - p) / (half_width * half_width) - 1e-9))


# ---------------------------------------------------------------------------------------
# Sweep summary (DESIGN §6)


def _collect(query: pl.LazyFrame) -> pl.DataFrame:
    """A small aggregate, computed on the streaming engine so the scanned table never sits in memory."""
    return query.collect(engine="streaming")


def _is_text(dtype: pl.DataType) -> bool:
    return dtype in (pl.Utf8, pl.Categorical) or isinstance(dtype, (pl.Categorical, pl.Enum))


def _metric_columns(schema: pl.Schema, keys: Sequence[str]) -> tuple[list[str], list[str]]:
    """(numeric, categorical) metric columns of a results table: every column not in `keys`."""
    numeric = [name for name, dtype in schema.items() if name not in keys and dtype.is_numeric()]
    categorical = [name for name, dtype in schema.items() if name not in keys and _is_text(dtype)]
    return numeric, categorical


def _rate(wins: float, trials: int) -> dict:
    low, high = wilson(wins, trials)
    return {"wins": wins, "win_rate": wins / trials if trials else 0.0, "ci_low": low, "ci_high": high}


def _advantage(wins: float, decided: int, fair: float) -> dict:
    """A seat's share of decided games against fair, in rate units, with its Wilson interval."""
    low, high = wilson(wins, decided)
    rate = wins / decided if decided else 0.0
    return {"rate": rate, "ci_low": low, "ci_high": high, "vs_fair": rate - fair,
            "vs_fair_low": low - fair, "vs_fair_high": high - fair}


def pairing(n: int, baseline_sum: float, baseline_sq_sum: float, other_sum: float, other_sq_sum: float,
            diff_sq_sum: float, z: float = Z95) -> dict:
    """How much the shared seeds helped a paired comparison (DESIGN §7).

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


def length_counts(games: pl.LazyFrame, column: str = "rounds") -> pl.DataFrame:
    """Games per (cell, value) of a game-length column: the length distribution, small
    (one row per distinct length) whatever the number of games. The report plots it."""
    return _collect(games.group_by("cell", column).len("games").sort("cell", column))


def _length_summary(counts: pl.DataFrame, column: str) -> dict[str, dict]:
    """Per cell: mean, median, p90, min and max of a game-length column, from `length_counts`.

    Median and p90 follow polars' `quantile(q, "lower")`: the value at sorted position
    ⌊q·(n − 1)⌋, so both are lengths that actually occurred. They are read off the
    cumulative counts rather than by polars' quantile on the games, which would hold every
    game's length in memory (DESIGN §9).
    """
    value, games = pl.col(column), pl.col("games")

    def lower_quantile(q: float) -> pl.Expr:
        position = ((pl.col("played") - 1).cast(pl.Float64) * q).floor()
        return value.filter(pl.col("seen") > position).min()

    # seen: games at or below this length (counts come sorted by length within a cell)
    ranked = counts.with_columns(seen=games.cum_sum().over("cell"), played=games.sum().over("cell"))
    rows = ranked.group_by("cell").agg(
        ((value * games).sum() / games.sum()).alias("mean"),
        lower_quantile(0.5).alias("median"),
        lower_quantile(0.9).alias("p90"),
        value.min().alias("min"),
        value.max().alias("max"),
    )
    return {row.pop("cell"): row for row in rows.iter_rows(named=True)}


def _by_cell(frame: pl.DataFrame) -> dict[str, list[dict]]:
    """Rows of an aggregate grouped by their `cell`, each row without the cell."""
    grouped: dict[str, list[dict]] = {}
    for row in frame.iter_rows(named=True):
        grouped.setdefault(row.pop("cell"), []).append(row)
    return grouped


def _overrides(text: str | None) -> dict:
    return json.loads(text) if text else {}


# Sums in a fixed order: polars adds floats in whatever order its threads and the file's
# row groups give, so a float sum could differ in the last digit between two sweeps that
# played the same games in different chunks. Every sum below is of integers (a shared win
# 1/k is counted in units of 1/WIN_UNITS, exact for k <= 10), so summary.json is the same
# to the bit whatever the chunking, --jobs or backend.
WIN_UNITS = 2520  # lcm(1..10)


def _win_units(column: str = "win") -> pl.Expr:
    return (pl.col(column).cast(pl.Float64) * WIN_UNITS).round().cast(pl.Int64)


def _exact_wins() -> pl.Expr:
    return (_win_units().sum() / WIN_UNITS).alias("wins")


def _exact_mean(metric: str) -> pl.Expr:
    return (pl.col(metric).cast(pl.Int64).sum() / pl.len()).alias(f"mean {metric}")


def summarize(folder: Path) -> dict:
    """The `summary.json` content of a sweep folder (DESIGN §6); the caller writes it.

    Per cell, in cells.parquet order: games played and complete; each seat's wins, rate
    (wins / games, an incomplete game counting as nobody's win) and Wilson interval; the
    first-player advantage (seat-0 rate − 1/players, its interval shifted alike); the
    largest seat gap; the seat-uniformity p-value; rounds and turns distributions;
    incomplete and tie shares; end reasons; per-strategy and per-category (every text seat
    column, e.g. `power`) rates per seat played; seat and game metric means; and the
    precision reached. `comparisons` holds the paired variant comparisons (see
    `_comparisons`) with Holm-adjusted p-values across all of them. Each cell also gets
    `margin`, `ranks` and, in a sweep with arcs, `arcs` (`simkit.arcs.add_to_summary`);
    `tiers` holds seat advantage by skill tier (`simkit.tiers.summarize`); `curves` the response
    curves of a grid over one parameter (`simkit.curves.build` documents the fields).
    """
    folder = Path(folder)
    cells = pl.read_parquet(folder / "cells.parquet")  # one row per cell: small
    games = pl.scan_parquet(folder / "games.parquet")
    seats = pl.scan_parquet(folder / "seats.parquet")
    game_numeric, game_categorical = _metric_columns(games.collect_schema(), GAME_KEYS)
    seat_numeric, seat_categorical = _metric_columns(seats.collect_schema(), SEAT_KEYS)

    game_totals = _by_cell(
        _collect(
            games.group_by("cell").agg(
                pl.len().alias("games"),
                (pl.col("end_reason") != INCOMPLETE).sum().alias("complete_games"),
                (pl.col("n_winners") > 1).sum().alias("tied_games"),
                *[_exact_mean(metric) for metric in game_numeric],
            )
        )
    )
    lengths = {column: _length_summary(length_counts(games, column), column) for column in LENGTHS}
    end_reasons = _by_cell(
        _collect(games.group_by("cell", "end_reason").len("games").sort(["cell", "games", "end_reason"], descending=[False, True, False]))
    )
    game_categories = {
        column: _by_cell(_collect(games.group_by("cell", column).len("games").drop_nulls(column).sort("cell", column)))
        for column in game_categorical
    }
    seat_totals = _by_cell(
        _collect(
            seats.group_by("cell", "seat")
            .agg(
                _exact_wins(),
                pl.len().alias("seats"),
                *[_exact_mean(metric) for metric in seat_numeric],
            )
            .sort("cell", "seat")
        )
    )
    strategy_totals = _by_cell(
        _collect(
            seats.group_by("cell", "strategy")
            .agg(pl.len().alias("seats"), _exact_wins())
            .sort("cell", "strategy")
        )
    )
    category_totals = {
        column: _by_cell(
            _collect(
                seats.drop_nulls(column)
                .group_by("cell", column)
                .agg(pl.len().alias("seats"), _exact_wins())
                .sort("cell", column)
            )
        )
        for column in seat_categorical
    }

    summaries = []
    for cell in cells.iter_rows(named=True):
        name = cell["cell"]
        totals = (game_totals.get(name) or [{}])[0]
        summaries.append(
            _cell_summary(
                cell,
                totals,
                {column: by_cell.get(name, {}) for column, by_cell in lengths.items()},
                end_reasons.get(name, []),
                {column: rows.get(name, []) for column, rows in game_categories.items()},
                {row["seat"]: row for row in seat_totals.get(name, [])},
                strategy_totals.get(name, []),
                {column: rows.get(name, []) for column, rows in category_totals.items()},
                game_numeric,
                seat_numeric,
            )
        )
    from simkit import arcs, curves, tiers
    from simkit.tournament import add_summaries  # seating design, head-to-head matrices, ranking

    arcs.add_to_summary(folder, summaries)  # margins, ranks, and the game arcs of a sweep with --arcs
    add_summaries(summaries, seats, games, seat_categorical)
    return {"cells": summaries, "comparisons": _comparisons(cells, games, seats),
            "curves": curves.build(summaries, games, seats),  # a grid over one parameter (simkit.curves)
            "tiers": tiers.summarize(folder, summaries)}


def _cell_summary(
    cell: dict,
    totals: dict,
    lengths: dict[str, dict],
    end_reasons: list[dict],
    game_categories: dict[str, list[dict]],
    seat_rows: dict[int, dict],
    strategy_rows: list[dict],
    category_rows: dict[str, list[dict]],
    game_numeric: list[str],
    seat_numeric: list[str],
) -> dict:
    """One cell's entry of summary.json from its aggregates (see `summarize`)."""
    players = int(cell["players"])
    games = int(totals.get("games", 0))
    complete = int(totals.get("complete_games", 0))
    fair = 1.0 / players

    seats = []
    for seat in range(players):
        row = seat_rows.get(seat, {})
        seats.append({"seat": seat, **_rate(float(row.get("wins") or 0.0), games)})
    seat0 = seats[0]
    highest = max(seats, key=lambda s: s["win_rate"])
    lowest = min(seats, key=lambda s: s["win_rate"])
    seat0_half_width = (seat0["ci_high"] - seat0["ci_low"]) / 2.0
    # DESIGN §7: seat advantage over decided games (a shared win splits, so each adds 1)
    decided = round(sum(s["wins"] for s in seats))

    seat_metrics = {}
    for metric in seat_numeric:
        by_seat = [seat_rows.get(seat, {}).get(f"mean {metric}") for seat in range(players)]
        counts = [seat_rows.get(seat, {}).get("seats", 0) for seat in range(players)]
        weighted = [(mean, count) for mean, count in zip(by_seat, counts) if mean is not None]
        played = sum(count for _, count in weighted)
        overall = sum(mean * count for mean, count in weighted) / played if played else None
        seat_metrics[metric] = {"mean": overall, "by_seat": by_seat}

    def per_seat_played(rows: list[dict], column: str, key: str) -> list[dict]:
        # rate per seat played: a fair strategy or power wins 1/players of its seats (DESIGN §6)
        return [{key: row[column], "seats": row["seats"], **_rate(float(row["wins"]), row["seats"])} for row in rows]

    return {
        "cell": cell["cell"],
        "game": cell["game"],
        "players": players,
        "variant": cell["variant"],
        "overrides": _overrides(cell.get("overrides")),
        # the line-up string; "strategies" holds the per-strategy rates as DESIGN §6 names them
        "lineup": cell["strategies"],
        "games_requested": cell.get("games"),
        "games": games,
        "complete_games": complete,
        "fair_rate": fair,
        "seats": seats,
        "first_player_advantage": {
            "value": seat0["win_rate"] - fair,
            "ci_low": seat0["ci_low"] - fair,
            "ci_high": seat0["ci_high"] - fair,
        },
        "decided_games": decided,
        # DESIGN §7: the same over decided games (seat_advantage[0]); the report and `simkit check` use this one
        "first_player_advantage_decided": dict(zip(("value", "ci_low", "ci_high"), (
            _advantage(seat0["wins"], decided, fair)[key] for key in ("vs_fair", "vs_fair_low", "vs_fair_high")))),
        "seat_advantage": [
            {"seat": s["seat"], **_advantage(s["wins"], decided, fair)} for s in seats
        ],
        "largest_seat_gap": {
            "value": highest["win_rate"] - lowest["win_rate"],
            "high_seat": highest["seat"],
            "low_seat": lowest["seat"],
        },
        "seat_uniformity_p": seat_uniformity_p([s["wins"] for s in seats], games),
        **{column: lengths[column] or dict.fromkeys(("mean", "median", "p90", "min", "max")) for column in LENGTHS},
        "incomplete_share": (games - complete) / games if games else 0.0,
        "tie_share": totals.get("tied_games", 0) / games if games else 0.0,
        "end_reasons": [
            {"end_reason": row["end_reason"], "share": row["games"] / games, "games": row["games"]}
            for row in end_reasons
        ],
        "strategies": per_seat_played(strategy_rows, "strategy", "strategy"),
        "categories": {
            column: per_seat_played(rows, column, "value") for column, rows in category_rows.items() if rows
        },
        "game_categories": {
            column: [{"value": row[column], "games": row["games"], "share": row["games"] / games} for row in rows]
            for column, rows in game_categories.items()
            if rows
        },
        "seat_metrics": seat_metrics,
        "game_metrics": {metric: {"mean": totals.get(f"mean {metric}")} for metric in game_numeric},
        "precision": {
            "seat0_half_width": seat0_half_width,
            "games_for_1pp": games_needed(seat0["win_rate"], 0.01),
            "games_for_half_pp": games_needed(seat0["win_rate"], 0.005),
        },
    }


COMPONENTS = "components"  # the rule parameter naming a component set (DESIGN §2)
STANDARD_SET = "standard"


def _component_set(cell: dict) -> str:
    return str(_overrides(cell.get("overrides")).get(COMPONENTS, STANDARD_SET))


def _other_overrides(cell: dict) -> dict:
    return {k: v for k, v in _overrides(cell.get("overrides")).items() if k != COMPONENTS}


def _baseline(group: list[dict]) -> dict:
    """The cell a group's other cells are compared against: the standard rules without
    overrides (a `components` override aside) if the group has them, else any; among
    those the standard component set, else the first in cells.parquet order."""
    candidates = [c for c in group if c["variant"] == "standard" and _at_defaults(c)] or group
    return next((c for c in candidates if _component_set(c) == STANDARD_SET), candidates[0])


def _at_defaults(cell: dict) -> bool:
    """No override (a `components` one aside) moves a rule from its default: in a grid where
    every cell names every swept value, the cell at the game's defaults is the baseline."""
    overrides = _other_overrides(cell)
    if not overrides:
        return True
    try:
        from simkit import games as registry

        defaults = {p.name: p.default for p in registry.get(cell["game"]).rules.params}
    except Exception:  # noqa: BLE001 (a summary of a game no longer registered: no defaults to compare)
        return False
    return all(json.dumps(v, default=str) == json.dumps(defaults.get(k), default=str)
               for k, v in overrides.items())


def _comparison_groups(cells: pl.DataFrame) -> list[tuple[str, list[str]]]:
    """(baseline, other cells) pairs to compare, all within one (game, players, line-up).

    Rule comparisons are made within one component set, so that a variant is compared on
    the components it was played with; and each component set is compared with the
    standard set under the same variant and overrides (DESIGN §2: component sets are an
    assumption swept on shared seeds). Without component sets this is one group per
    (game, players, line-up), as before.
    """
    rows = list(cells.iter_rows(named=True))
    by_rules: dict[tuple, list[dict]] = {}
    by_rules_set: dict[tuple, list[dict]] = {}
    for cell in rows:
        lineup = (cell["game"], cell["players"], cell["strategies"])
        by_rules.setdefault((*lineup, _component_set(cell)), []).append(cell)
        rest = json.dumps(_other_overrides(cell), sort_keys=True, default=str)
        by_rules_set.setdefault((*lineup, cell["variant"], rest), []).append(cell)
    out, seen = [], set()
    for group in (*by_rules.values(), *by_rules_set.values()):
        if len(group) < 2:
            continue
        baseline = _baseline(group)["cell"]
        others = [c["cell"] for c in group if c["cell"] != baseline and (baseline, c["cell"]) not in seen]
        seen.update((baseline, other) for other in others)
        if others:
            out.append((baseline, others))
    return out


def _outcomes(games: pl.LazyFrame, seats: pl.LazyFrame) -> pl.LazyFrame:
    """Per (cell, game_index): each paired metric as an integer (seat 0's win in units of
    1/WIN_UNITS), so every sum over them is exact and independent of order."""
    seat0 = seats.filter(pl.col("seat") == 0).select("cell", "game_index", _win_units().alias("seat0_win"))
    rest = games.select("cell", "game_index", pl.col("rounds").cast(pl.Int64),
                        (pl.col("end_reason") == INCOMPLETE).cast(pl.Int64).alias("incomplete"))
    return seat0.join(rest, on=["cell", "game_index"], how="inner")


def _comparisons(cells: pl.DataFrame, games: pl.LazyFrame, seats: pl.LazyFrame) -> list[dict]:
    """Paired variant comparisons (DESIGN §7).

    Cells sharing (game, players, strategies) played the same seeds game by game (common
    random numbers, DESIGN §4), so each non-baseline cell is compared with its group's
    baseline (see `_comparison_groups`) on the games both played (same `game_index`): seat 0's
    `win`, `rounds`, and `incomplete` (1 for a round-capped game). `diff` is cell − baseline.
    Pairs with fewer than two shared games have no variance and are left out. `p_holm`
    adjusts across every row of the summary. Every pair is summed in one query (a grid of
    10,000 cells is one join, not 30,000 scans).
    """
    pairs = [(baseline, cell) for baseline, others in _comparison_groups(cells) for cell in others]
    if not pairs:
        return []
    wanted = pl.DataFrame({"baseline": [b for b, _ in pairs], "cell": [c for _, c in pairs]}).lazy()
    outcomes = _outcomes(games, seats)
    joined = (wanted.join(outcomes, on="cell", how="inner")
              .join(outcomes.rename({"cell": "baseline"}), on=["baseline", "game_index"], how="inner", suffix="_base"))
    sums = []
    for metric in PAIRED_METRICS:
        a, b = pl.col(f"{metric}_base"), pl.col(metric)
        sums += [a.sum().alias(f"{metric}:baseline_sum"), b.sum().alias(f"{metric}:other_sum"),
                 (a * a).sum().alias(f"{metric}:baseline_sq_sum"), (b * b).sum().alias(f"{metric}:other_sq_sum"),
                 (b - a).sum().alias(f"{metric}:diff_sum"), ((b - a) * (b - a)).sum().alias(f"{metric}:diff_sq_sum")]
    totals = {(r["baseline"], r["cell"]): r for r in
              _collect(joined.group_by("baseline", "cell").agg(pl.len().alias("pairs"), *sums)).iter_rows(named=True)}
    rows = []
    for baseline, cell in pairs:
        total = totals.get((baseline, cell))
        if total is None or total["pairs"] < 2:
            continue
        n = total["pairs"]
        for metric in PAIRED_METRICS:
            units = WIN_UNITS if metric == "seat0_win" else 1
            got = {key: total[f"{metric}:{key}"] / (units * units if "_sq_" in key else units)
                   for key in ("baseline_sum", "other_sum", "baseline_sq_sum", "other_sq_sum", "diff_sum", "diff_sq_sum")}
            diff, ci_low, ci_high, p_value = paired_difference(got["diff_sum"], got["diff_sq_sum"], n)
            rows.append(
                {
                    "cell": cell,
                    "baseline": baseline,
                    "metric": metric,
                    "baseline_mean": got["baseline_sum"] / n,
                    "cell_mean": got["other_sum"] / n,
                    "diff": diff,
                    "ci_low": ci_low,
                    "ci_high": ci_high,
                    "p": p_value,
                    "paired_games": n,
                    "pairing": pairing(n, got["baseline_sum"], got["baseline_sq_sum"], got["other_sum"],
                                       got["other_sq_sum"], got["diff_sq_sum"]),
                }
            )
    for row, adjusted in zip(rows, holm([row["p"] for row in rows])):
        row["p_holm"] = adjusted
    return rows
