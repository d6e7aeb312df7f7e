"""The summary builder: a sweep folder's parquet tables -> the `summary.json` content (docs/results.md).

It never loads a whole table: every figure comes from a lazy `pl.scan_parquet` group-by
run on polars' streaming engine, so memory stays flat however many games a sweep holds;
only per-cell aggregates are collected. It sits above the figures (arcs,
curves, tiers, tournament), which it calls, and it is the only part of the analysis that
reads the game registry: what the report needs to know about a game (its default and
baseline presets, its rule parameters and which of them are assumptions) is written into
summary.json's `games`, so the report reads summary.json and the tables only.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from pathlib import Path

import polars as pl

from simkit.analysis import arcs, curves, robustness, tiers, tournament
from simkit.analysis.intervals import games_needed, paired_difference, pairing, wilson
from simkit.analysis.seats import (
    OUTCOME_COLUMNS,
    extremes_frame,
    group_rates,
    outcomes,
    pair_sums,
    seat_changes,
    seat_gap,
    seat_shares,
)
from simkit.analysis.tables import (
    INCOMPLETE,
    WIN_UNITS,
    by_cell,
    collect,
    decided_games,
    exact_mean,
    exact_wins,
    length_counts,
    length_summary,
    validate,
)
from simkit.analysis.tests import holm, seat_uniformity_p

# Columns with a fixed meaning in the result tables (docs/results.md); any other column is a metric.
GAME_KEYS = ("cell", "game_index", "seed", "players", "rounds", "turns", "end_reason", "winner", "n_winners")
SEAT_KEYS = ("cell", "game_index", "seat", "strategy", "rank", "win")  # `score` is summarised as a seat metric
LENGTHS = ("rounds", "turns")  # game-length columns summarised as a distribution
# what a variant comparison compares (docs/statistics.md): seat 0's share of decided games, the largest
# seat gap over decided games, game length, and the share of round-capped games
PAIRED_METRICS = ("seat0_win", "seat_gap", "rounds", "incomplete")
COMPONENTS = "components"  # the rule parameter naming a component set
STANDARD_SET = "standard"
BASELINE_STRATEGY = "random"  # every game's uniform baseline preset
_ASSUMPTION_SOURCE = re.compile(r"^A\d+")


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


def _overrides(text: str | None) -> dict:
    return json.loads(text) if text else {}


def _plain(value):
    return list(value) if isinstance(value, tuple) else value


def game_info(game_ids: Sequence[str]) -> dict[str, dict]:
    """summary.json's `games`: per game of the sweep, what the report and the figures need to
    know of it, so that they never import a game: {title, default_strategy, previous_default
    (the default before a tuned preset replaced it, or null), baseline_strategy (the uniform
    `random` preset, or null), presets, params: {name: {kind, default, source,
    assumption (the source is an assumption id A<n>, or the component set)}}}. A game that is
    not registered here (a folder from elsewhere) is left out."""
    from simkit import games as registry
    from simkit.core.errors import InputError

    out = {}
    for game_id in game_ids:
        try:
            game = registry.get(game_id)
        except (InputError, ImportError):
            continue
        names = game.preset_names()
        out[game_id] = {
            "title": game.title, "default_strategy": game.default_strategy,
            "previous_default": game.previous_default,
            "baseline_strategy": BASELINE_STRATEGY if BASELINE_STRATEGY in names else None, "presets": names,
            "params": {p.name: {"kind": p.kind, "default": _plain(p.default), "source": p.source,
                                "assumption": p.kind == COMPONENTS or bool(_ASSUMPTION_SOURCE.match(str(p.source)))}
                       for p in game.rules.params},
        }
    return out


def summarize(folder: Path) -> dict:
    """The `summary.json` content of a sweep folder (docs/results.md); the caller writes it.

    Per cell, in cells.parquet order: games played and complete; each seat's wins, rate
    over all games (an incomplete game counting as nobody's win) and Wilson interval (the
    shape of docs/results.md); `decided_games` and `seat_advantage`, each seat's share of the decided
    games against fair (the basis of every seat figure); the first-player
    advantage (over all games, and `first_player_advantage_decided`); the largest seat gap
    over decided games; the seat-uniformity p-value; rounds and turns distributions;
    incomplete and tie shares; end reasons; per-strategy and per-category (every text seat
    column, e.g. `power`) rates per decided seat played, with their capped and shared
    shares; seat and game metric means; and the precision reached. `comparisons` holds the
    paired variant comparisons (see `_comparisons`) with Holm-adjusted p-values across all
    of them. Each cell also gets `margin`, `ranks` and, in a sweep with arcs, `arcs`
    (`simkit.analysis.arcs.add_to_summary`); `tiers` holds seat advantage by skill tier
    (`simkit.analysis.tiers.summarize`); `curves` the response curves of a grid over one
    parameter (`simkit.analysis.curves.build`); `games` what the report needs to know of
    each game (`game_info`).
    """
    folder = Path(folder)
    cells = pl.read_parquet(folder / "cells.parquet")  # one row per cell: small
    games = pl.scan_parquet(folder / "games.parquet")
    seats = pl.scan_parquet(folder / "seats.parquet")
    game_numeric, game_categorical = _metric_columns(games.collect_schema(), GAME_KEYS)
    seat_numeric, seat_categorical = _metric_columns(seats.collect_schema(), SEAT_KEYS)
    validate(folder, games, seats, cells)  # one sweep's games, whole, or an InputError saying what is not
    info = game_info(list(dict.fromkeys(cells["game"].to_list())))

    game_totals = by_cell(
        collect(
            games.group_by("cell").agg(
                pl.len().alias("games"),
                (pl.col("end_reason") != INCOMPLETE).sum().alias("complete_games"),
                (pl.col("n_winners") > 1).sum().alias("tied_games"),
                *[exact_mean(metric) for metric in game_numeric],
            )
        )
    )
    lengths = {column: length_summary(length_counts(games, column), column) for column in LENGTHS}
    end_reasons = by_cell(
        collect(games.group_by("cell", "end_reason").len("games").sort(["cell", "games", "end_reason"],
                                                                       descending=[False, True, False]))
    )
    game_categories = {
        column: by_cell(collect(games.group_by("cell", column).len("games").drop_nulls(column).sort("cell", column)))
        for column in game_categorical
    }
    seat_totals = by_cell(
        collect(
            seats.group_by("cell", "seat")
            .agg(exact_wins(), pl.len().alias("seats"), *[exact_mean(metric) for metric in seat_numeric])
            .sort("cell", "seat")
        )
    )
    # strategies and dealt categories per decided seat played (one basis for rates: docs/statistics.md)
    seated = seats.join(decided_games(games), on=["cell", "game_index"], how="inner")

    def per_group(column: str) -> dict[str, list[dict]]:
        return by_cell(collect(
            seated.drop_nulls(column).group_by("cell", column)
            .agg(pl.len().alias("seats"), pl.col("decided").sum().alias("decided_seats"),
                 pl.col("shared").sum().alias("shared_seats"), exact_wins())
            .sort("cell", column)))

    strategy_totals = per_group("strategy")
    category_totals = {column: per_group(column) for column in seat_categorical}

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
    arcs.add_to_summary(folder, summaries)  # margins, ranks, and the game arcs of a sweep with --arcs
    tournament.add_summaries(summaries, seats, games, seat_categorical)
    params = {game: entry["params"] for game, entry in info.items()}
    return {"cells": summaries, "comparisons": _comparisons(cells, games, seats, summaries, params),
            "curves": curves.build(summaries, games, seats, params),  # a grid over one parameter
            "tiers": tiers.summarize(games, seats, summaries, info, tiers.manifest_timing(folder)),
            "games": info, **_robustness(folder)}


def _robustness(folder: Path) -> dict:
    """{"robustness": ...} when the folder holds a robustness phase (simkit.sweeps.robustness): its
    settings, findings with their re-measurements and labels, and the games it played, from
    robustness.json (findings without labels while the phase is unfinished)."""
    path = folder / robustness.SELECTION
    if not path.exists():
        return {}
    selection = json.loads(path.read_text())
    finished = "looks" in selection
    findings = selection.get("findings", []) if finished else [
        {k: v for k, v in f.items() if k != "by"} | {"remeasurements": [], "not_played": [], "label": "",
                                                     "depends_on": []} for f in selection.get("findings", [])]
    return {"robustness": {"settings": selection.get("settings", {}), "finished": finished,
                           "skipped": selection.get("skipped", []), "findings": findings,
                           "sampling": selection.get("sampling", {})}}


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

    seats = [{"seat": seat, **_rate(float(seat_rows.get(seat, {}).get("wins") or 0.0), games)}
             for seat in range(players)]
    seat0 = seats[0]
    # seat advantage over decided games (a shared win splits, so each adds 1)
    decided = round(sum(s["wins"] for s in seats))
    shares = seat_shares([s["wins"] for s in seats], fair)
    first = shares[0]
    decided_share = decided / games if games else 0.0

    seat_metrics = {}
    for metric in seat_numeric:
        by_seat = [seat_rows.get(seat, {}).get(f"mean {metric}") for seat in range(players)]
        counts = [seat_rows.get(seat, {}).get("seats", 0) for seat in range(players)]
        weighted = [(mean, count) for mean, count in zip(by_seat, counts) if mean is not None]
        played = sum(count for _, count in weighted)
        overall = sum(mean * count for mean, count in weighted) / played if played else None
        seat_metrics[metric] = {"mean": overall, "by_seat": by_seat}

    def to_play(decided_needed: int) -> int:
        # games to play for that many decided games: a round-capped game decides nothing
        return math.ceil(decided_needed / decided_share) if decided_share > 0 else decided_needed

    summary = {
        "cell": cell["cell"],
        "game": cell["game"],
        "players": players,
        "variant": cell["variant"],
        "overrides": _overrides(cell.get("overrides")),
        # the line-up string; "strategies" holds the per-strategy rates as docs/results.md names them
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
        # the same over decided games (seat_advantage[0]); the report and `simkit check` use this one
        "first_player_advantage_decided": {"value": first["vs_fair"], "ci_low": first["vs_fair_low"],
                                           "ci_high": first["vs_fair_high"]},
        "seat_advantage": shares,
        "largest_seat_gap": seat_gap(shares, decided),
        "seat_uniformity_p": seat_uniformity_p([s["wins"] for s in seats], games),
        **{column: lengths[column] or dict.fromkeys(("mean", "median", "p90", "min", "max")) for column in LENGTHS},
        "incomplete_share": (games - complete) / games if games else 0.0,
        "tie_share": totals.get("tied_games", 0) / games if games else 0.0,
        "end_reasons": [
            {"end_reason": row["end_reason"], "share": row["games"] / games, "games": row["games"]}
            for row in end_reasons
        ],
        "strategies": group_rates(strategy_rows, "strategy", fair),
        "categories": {
            column: group_rates([{**row, "value": row[column]} for row in rows], "value", fair)
            for column, rows in category_rows.items() if rows
        },
        "game_categories": {
            column: [{"value": row[column], "games": row["games"], "share": row["games"] / games} for row in rows]
            for column, rows in game_categories.items()
            if rows
        },
        "seat_metrics": seat_metrics,
        "game_metrics": {metric: {"mean": totals.get(f"mean {metric}")} for metric in game_numeric},
        "precision": {
            # over decided games, as every seat figure; games to play, capped ones included
            "seat0_half_width": (first["ci_high"] - first["ci_low"]) / 2.0,
            "games_for_1pp": to_play(games_needed(first["rate"], 0.01)),
            "games_for_half_pp": to_play(games_needed(first["rate"], 0.005)),
        },
    }
    return summary if decided else _no_decided_game(summary)


_RATE_FIELDS = ("win_rate", "rate", "ci_low", "ci_high", "vs_fair", "vs_fair_low", "vs_fair_high")


def _no_decided_game(summary: dict) -> dict:
    """A cell with no decided game (every game hit the round cap, or none played) has no seat,
    strategy or dealt-value figure: a share of zero decided games is no number (docs/results.md).
    Its rates, intervals and the figures made of them are null; the counts (wins 0, decided_games 0,
    decided_seats 0) and the capped shares stay, so a reader says "no decided game (all N capped)"."""
    def blank(rows: list[dict]) -> list[dict]:
        return [{k: (None if k in _RATE_FIELDS else v) for k, v in row.items()} for row in rows]

    nothing = dict.fromkeys(("value", "ci_low", "ci_high"))
    return {**summary, "seats": blank(summary["seats"]), "first_player_advantage": dict(nothing),
            "first_player_advantage_decided": dict(nothing), "seat_advantage": blank(summary["seat_advantage"]),
            "seat_uniformity_p": None, "strategies": blank(summary["strategies"]),
            "categories": {column: blank(rows) for column, rows in summary["categories"].items()},
            "precision": dict.fromkeys(summary["precision"])}


def _component_set(cell: dict) -> str:
    return str(_overrides(cell.get("overrides")).get(COMPONENTS, STANDARD_SET))


def _other_overrides(cell: dict) -> dict:
    return {k: v for k, v in _overrides(cell.get("overrides")).items() if k != COMPONENTS}


def _baseline(group: list[dict], params: dict[str, dict]) -> dict:
    """The cell a group's other cells are compared against: the standard rules without
    overrides (a `components` override aside) if the group has them, else any; among
    those the standard component set, else the first in cells.parquet order."""
    candidates = [c for c in group if c["variant"] == "standard" and _at_defaults(c, params)] or group
    return next((c for c in candidates if _component_set(c) == STANDARD_SET), candidates[0])


def _at_defaults(cell: dict, params: dict[str, dict]) -> bool:
    """No override (a `components` one aside) moves a rule from its default: in a grid where
    every cell names every swept value, the cell at the game's defaults is the baseline."""
    overrides = _other_overrides(cell)
    if not overrides:
        return True
    declared = params.get(cell["game"])
    if declared is None:  # a summary of a game no longer registered: no defaults to compare
        return False
    return all(k in declared and json.dumps(v, default=str) == json.dumps(declared[k]["default"], default=str)
               for k, v in overrides.items())


def _comparison_groups(cells: pl.DataFrame, params: dict[str, dict] | None = None) -> list[tuple[str, list[str]]]:
    """(baseline, other cells) pairs to compare, all within one (game, players, line-up).

    Rule comparisons are made within one component set, so that a variant is compared on
    the components it was played with; and each component set is compared with the
    standard set under the same variant and overrides (component sets are an
    assumption swept on shared seeds). Without component sets this is one group per
    (game, players, line-up), as before.
    """
    params = params or {}
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
        baseline = _baseline(group, params)["cell"]
        others = [c["cell"] for c in group if c["cell"] != baseline and (baseline, c["cell"]) not in seen]
        seen.update((baseline, other) for other in others)
        if others:
            out.append((baseline, others))
    return out


def _comparisons(cells: pl.DataFrame, games: pl.LazyFrame, seats: pl.LazyFrame, summaries: list[dict],
                 params: dict[str, dict]) -> list[dict]:
    """Paired variant comparisons (docs/statistics.md).

    Cells sharing (game, players, strategies) played the same seeds game by game (common
    random numbers), so each non-baseline cell is compared with its group's
    baseline (see `_comparison_groups`) on the games both played (same `game_index`):

    - `seat0_win`: seat 0's share of decided games;
    - `seat_gap`: the largest seat gap over decided games (each cell's own highest minus its
      lowest seat): the whole-seat figure a variant that evens the seats must bring down;
    - `rounds`: rounds per game; `incomplete`: the share of round-capped games.

    The two seat figures are ratios over decided games, compared by the delta method game by
    game (simkit.analysis.seats.seat_changes); the other two are paired means. `diff` is
    cell − baseline. Pairs with fewer than two shared games are left out. `p_holm` adjusts
    across every row of the summary. Every pair is summed in one query (a grid of 10,000
    cells is one join, not 30,000 scans).
    """
    pairs = [(baseline, cell) for baseline, others in _comparison_groups(cells, params) for cell in others]
    if not pairs:
        return []
    by_name = {cell["cell"]: cell for cell in summaries}
    seat_frame = outcomes(seats, extremes_frame(summaries))
    rest = games.select("cell", "game_index", pl.col("rounds").cast(pl.Int64),
                        (pl.col("end_reason") == INCOMPLETE).cast(pl.Int64).alias("incomplete"))
    frame = seat_frame.join(rest, on=["cell", "game_index"], how="inner")
    totals = pair_sums(frame, pairs, (*OUTCOME_COLUMNS, "rounds", "incomplete"))
    rows = []
    for baseline, cell in pairs:
        total = totals.get((baseline, cell))
        if total is None or total["n"] < 2:
            continue
        n = int(total["n"])
        changes = seat_changes(total, by_name[cell]["fair_rate"])
        for metric in PAIRED_METRICS:
            if metric in ("seat0_win", "seat_gap"):
                change = changes["seat0_share" if metric == "seat0_win" else "seat_gap"]
                if change["diff"] is None:
                    continue
                figures = {"baseline_mean": change["before"], "cell_mean": change["after"], "diff": change["diff"],
                           "ci_low": change["ci_low"], "ci_high": change["ci_high"], "p": change["p"],
                           "pairing": change["pairing"]}
            else:
                a, b = total[f"{metric}_a"], total[f"{metric}_b"]
                aa, bb = total[f"{metric}_a*{metric}_a"], total[f"{metric}_b*{metric}_b"]
                diff_sq = aa + bb - 2 * total[f"{metric}_a*{metric}_b"]
                diff, ci_low, ci_high, p_value = paired_difference(float(b - a), float(diff_sq), n)
                figures = {"baseline_mean": a / n, "cell_mean": b / n, "diff": diff, "ci_low": ci_low,
                           "ci_high": ci_high, "p": p_value,
                           "pairing": pairing(n, float(a), float(aa), float(b), float(bb), float(diff_sq))}
            rows.append({"cell": cell, "baseline": baseline, "metric": metric, **figures, "paired_games": n})
    for row, adjusted in zip(rows, holm([row["p"] for row in rows])):
        row["p_holm"] = adjusted
    return rows


__all__ = ["GAME_KEYS", "PAIRED_METRICS", "SEAT_KEYS", "WIN_UNITS", "game_info", "summarize"]
