"""Response curves: balance figures against the value of one swept rule parameter (docs/tuning.md).

When a sweep's cells of one game, player count, variant and line-up differ in exactly one
rule parameter, they form a curve: for each value of that parameter, seat 0's advantage
(its share of decided games minus 1/players), the largest seat gap (over decided games),
the mean game length in rounds, and the end-reason shares, each with a 95% interval; and,
because every cell of a sweep plays the same seeds (common random numbers),
the paired change from the previous value, whose interval is usually much narrower than
the two points' intervals suggest.

A per-seat list parameter (kind "ints") swept as a list of lists is one axis: its points
keep the grid's order and are labelled by their values ("3-3-4-4"). Component sets are
compared in the report's robustness section instead, so a `components` grid makes no curve.

`build` is called by the summary builder (simkit.analysis.summary) and gives summary.json its
`curves` field.
"""

from __future__ import annotations

import json
import math
from typing import Any

import polars as pl

from simkit.analysis.intervals import (
    SHARE_COLUMNS,
    Z95,
    paired_difference,
    paired_share_difference_from_sums,
    product,
    wilson,
)
from simkit.analysis.seats import seat_gap
from simkit.analysis.tables import WIN_UNITS, collect

NOT_AN_AXIS = ("components",)  # parameters compared as assumptions, not drawn as curves
MIN_POINTS = 3  # two cells are a comparison (the report's variant comparisons), three or more a curve


# ---------------------------------------------------------------------------------------
# Which cells form a curve


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


def label(value: Any) -> str:
    """An axis label for a value: a per-seat list reads 3-3-4-4."""
    if isinstance(value, (list, tuple)):
        return "-".join(str(v) for v in value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def groups(cells: list[dict], params: dict[str, dict] | None = None) -> list[dict]:
    """The curves a sweep's cells make: [{game, players, variant, lineup, param, kind, fixed,
    cells: [(value, cell), ...]}] in order of first appearance. `params` holds each game's
    declared rule parameters ({game: {name: {kind, default}}}, summary.json's `games`).

    Cells are grouped by (game, players, variant, line-up); a group of MIN_POINTS or more cells
    whose overrides (missing ones read as the default) differ in exactly one parameter is a
    curve along that parameter. Numbers are ordered by value; lists, choices and
    component-free text keep the order of the sweep's cells.
    """
    grouped: dict[tuple, list[dict]] = {}
    for cell in cells:
        grouped.setdefault((cell["game"], cell["players"], cell["variant"], cell.get("lineup")), []).append(cell)
    out = []
    for (game, players, variant, lineup), members in grouped.items():
        if len(members) < MIN_POINTS:
            continue
        declared = (params or {}).get(game, {})
        names = sorted({name for cell in members for name in cell.get("overrides", {})})

        def value(cell: dict, name: str, declared: dict = declared):
            overrides = cell.get("overrides", {})
            if name in overrides:
                return overrides[name]
            param = declared.get(name)
            return None if param is None else list(param["default"]) if param["kind"] == "ints" else param["default"]

        varying = [name for name in names if len({_key(value(cell, name)) for cell in members}) > 1]
        if len(varying) != 1 or varying[0] in NOT_AN_AXIS or varying[0] not in declared and any(
                varying[0] not in cell.get("overrides", {}) for cell in members):
            continue  # an undeclared parameter missing from a cell has no value to place it at
        param = varying[0]
        if len({_key(value(cell, param)) for cell in members}) != len(members):
            continue  # two cells at one value: not a curve
        kind = (declared.get(param) or {}).get("kind")
        points = [(value(cell, param), cell) for cell in members]
        numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v, _ in points)
        if numeric:
            points.sort(key=lambda point: point[0])
            kind = kind or ("float" if any(isinstance(v, float) for v, _ in points) else "int")
        out.append({"game": game, "players": players, "variant": variant, "lineup": lineup, "param": param,
                    "kind": kind or "value", "numeric": numeric,
                    "fixed": {k: v for k, v in members[0].get("overrides", {}).items() if k != param},
                    "cells": points})
    return out


# ---------------------------------------------------------------------------------------
# The curves


def _outcomes(games: pl.LazyFrame, seats: pl.LazyFrame, cells: list[str]) -> pl.LazyFrame:
    """Per (cell, game_index) of the curve cells, as integers so every sum is exact:
    seat 0's win (units of 1/WIN_UNITS), decided (WIN_UNITS if someone won, else 0), rounds."""
    wanted = pl.col("cell").is_in(cells)
    seat0 = seats.filter(wanted & (pl.col("seat") == 0)).select(
        "cell", "game_index", (pl.col("win").cast(pl.Float64) * WIN_UNITS).round().cast(pl.Int64).alias("w"))
    rest = games.filter(wanted).select("cell", "game_index", pl.col("rounds").cast(pl.Int64).alias("rounds"),
                                       ((pl.col("n_winners") > 0).cast(pl.Int64) * WIN_UNITS).alias("d"))
    return seat0.join(rest, on=["cell", "game_index"], how="inner")


def _point(value: Any, cell: dict, rounds: dict) -> dict:
    """One value's figures, from the cell's summary and its rounds sums."""
    games = cell["games"]
    decided = cell.get("decided_games", 0)
    shares = cell.get("seat_advantage") or []
    seat0 = shares[0] if shares else None
    point: dict = {"value": value, "label": label(value), "cell": cell["cell"], "games": games,
                   "decided_games": decided}
    point["seat_advantage"] = (
        {"value": seat0["vs_fair"], "ci_low": seat0["vs_fair_low"], "ci_high": seat0["vs_fair_high"]}
        if seat0 and decided else {"value": None, "ci_low": None, "ci_high": None})
    point["largest_seat_gap"] = seat_gap(shares, decided)
    n, total, squares = rounds.get("n", 0), rounds.get("sum", 0), rounds.get("sq", 0)
    if n >= 2:
        mean = total / n
        sd = math.sqrt(max(squares - total * total / n, 0.0) / (n - 1))
        point["rounds"] = {"mean": mean, "ci_low": mean - Z95 * sd / math.sqrt(n),
                           "ci_high": mean + Z95 * sd / math.sqrt(n)}
    else:
        point["rounds"] = {"mean": total / n if n else None, "ci_low": None, "ci_high": None}
    point["end_reasons"] = []
    for row in cell.get("end_reasons", []):
        low_share, high_share = wilson(row["games"], games)
        point["end_reasons"].append({"end_reason": row["end_reason"], "share": row["games"] / games if games else 0.0,
                                     "ci_low": low_share, "ci_high": high_share})
    point["incomplete_share"] = cell.get("incomplete_share", 0.0)
    point["tie_share"] = cell.get("tie_share", 0.0)
    return point


def build(cells: list[dict], games: pl.LazyFrame, seats: pl.LazyFrame, params: dict[str, dict] | None = None
          ) -> list[dict]:
    """summary.json's `curves`: one entry per one-parameter curve of the sweep (see `groups`).

    Each curve: game, players, variant, lineup, param, kind, numeric (bool: the x axis is
    numeric), fixed (the other overrides), and `points` in axis order, each with value,
    label, cell, games, decided_games, seat_advantage {value, ci_low, ci_high} (seat 0's
    share of decided games − 1/players, Wilson), largest_seat_gap {value, ci_low, ci_high,
    high_seat, low_seat} (over decided games), rounds {mean, ci_low, ci_high},
    end_reasons [{end_reason, share, ci_low, ci_high}], incomplete_share, tie_share, and
    from the second point on `step`: the paired change from the previous point on the
    games both played — seat_advantage {diff, ci_low, ci_high, p, paired_games} and
    rounds {diff, ci_low, ci_high, p}.
    """
    found = groups(cells, params)
    if not found:
        return []
    names = sorted({cell["cell"] for curve in found for _, cell in curve["cells"]})
    outcomes = _outcomes(games, seats, names)
    per_cell = {row["cell"]: row for row in collect(outcomes.group_by("cell").agg(
        pl.len().alias("n"), pl.col("rounds").sum().alias("sum"),
        (pl.col("rounds") * pl.col("rounds")).sum().alias("sq"))).iter_rows(named=True)}
    pairs = [(a["cell"], b["cell"]) for curve in found
             for (_, a), (_, b) in zip(curve["cells"], curve["cells"][1:])]
    step_sums = _step_sums(outcomes, pairs)
    out = []
    for curve in found:
        points = []
        for index, (value, cell) in enumerate(curve["cells"]):
            point = _point(value, cell, per_cell.get(cell["cell"], {}))
            if index:
                point["step"] = _step(step_sums.get((curve["cells"][index - 1][1]["cell"], cell["cell"])))
            points.append(point)
        out.append({key: curve[key] for key in ("game", "players", "variant", "lineup", "param", "kind", "numeric",
                                                "fixed")} | {"points": points})
    return out


def _step_sums(outcomes: pl.LazyFrame, pairs: list[tuple[str, str]]) -> dict:
    """Per (previous, next) cell pair: the integer sums of their per-game outcomes on shared seeds."""
    if not pairs:
        return {}
    wanted = pl.DataFrame({"a": [a for a, _ in pairs], "b": [b for _, b in pairs]}).lazy()
    joined = (wanted.join(outcomes.rename({"cell": "a", "w": "w_a", "d": "d_a", "rounds": "rounds_a"}), on="a")
              .join(outcomes.rename({"cell": "b", "w": "w_b", "d": "d_b", "rounds": "rounds_b"}),
                    on=["b", "game_index"]))
    sums = [pl.len().alias("n")] + [pl.col(x).sum().alias(x) for x in SHARE_COLUMNS]
    for i, x in enumerate(SHARE_COLUMNS):
        for y in SHARE_COLUMNS[i:]:
            sums.append((pl.col(x) * pl.col(y)).sum().alias(product(x, y)))
    change = pl.col("rounds_b") - pl.col("rounds_a")
    sums += [change.sum().alias("rounds_diff"), (change * change).sum().alias("rounds_diff_sq")]
    rows = collect(joined.group_by("a", "b").agg(*sums))
    return {(row["a"], row["b"]): row for row in rows.iter_rows(named=True)}


def _step(row: dict | None) -> dict:
    if row is None or row["n"] < 2:
        return {"seat_advantage": {"diff": None, "ci_low": None, "ci_high": None, "p": None, "paired_games": 0},
                "rounds": {"diff": None, "ci_low": None, "ci_high": None, "p": None}}
    n = row["n"]
    scale = {x: WIN_UNITS for x in SHARE_COLUMNS}  # back from integer units to wins
    sums = {x: row[x] / WIN_UNITS for x in SHARE_COLUMNS}
    for i, x in enumerate(SHARE_COLUMNS):
        for y in SHARE_COLUMNS[i:]:
            sums[product(x, y)] = row[product(x, y)] / (scale[x] * scale[y])
    share = paired_share_difference_from_sums(n, sums)
    diff, low, high, p = paired_difference(float(row["rounds_diff"]), float(row["rounds_diff_sq"]), n)
    return {"seat_advantage": share, "rounds": {"diff": diff, "ci_low": low, "ci_high": high, "p": p}}

