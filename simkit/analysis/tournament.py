"""Tournament analysis (`simkit sweep --tournament`) of every cell whose seats hold two
or more strategies: the head-to-head matrix, a Bradley–Terry strength ranking, the
dominant-strategy flag and the first-player advantage per table (line-up at the table); and
the same matrix for every categorical seat column (a dealt power, quirk or colour). Run by
the summary builder (simkit.analysis.summary); fields are documented in docs/results.md. The
seating design that balanced the line-ups is simkit.core.seating's.
"""

from __future__ import annotations

import warnings

import numpy as np
import polars as pl

from simkit.analysis.intervals import Z95, wilson
from simkit.analysis.tables import INCOMPLETE, WIN_UNITS, by_cell, collect, win_units
from simkit.core.seating import seating_summary

HALF = 2  # pairwise outcomes are summed in half points (a tie is 1/2), so every sum is an exact integer
SEPARATED = 15.0  # a Bradley-Terry strength this far out (odds e^15) means the fit diverged
DOMINANT_LEVEL = 0.5  # a dominant label's lower bound beats this against every other label


def _pairwise(seats, games, column: str, cells: list[str]):
    """Per (cell, a, b): meetings of a seat labelled a with one labelled b in a decided game,
    and a's score in half points (2 when a finishes ahead by rank, 1 for a tie, else 0).

    Round-capped games decide nothing and are left out. Seats with the same
    label never meet here. Each ordered pair is counted, so (a, b) and (b, a) add to the
    meetings exactly: p_ab + p_ba = 1.
    """
    decided = games.filter(pl.col("end_reason") != INCOMPLETE).select("cell", "game_index")
    mine = (seats.filter(pl.col("cell").is_in(cells))
            .select("cell", "game_index", pl.col(column).cast(pl.Utf8).alias("a"), pl.col("rank"))
            .drop_nulls("a")
            .join(decided, on=["cell", "game_index"], how="semi"))
    other = mine.rename({"a": "b", "rank": "rank_b"})
    return collect(
        mine.join(other, on=["cell", "game_index"])
        .filter(pl.col("a") != pl.col("b"))
        .group_by("cell", "a", "b")
        .agg(pl.len().alias("meetings"),
             (2 * (pl.col("rank") < pl.col("rank_b")).cast(pl.Int64)
              + (pl.col("rank") == pl.col("rank_b")).cast(pl.Int64)).sum().alias("halves"))
        .sort("cell", "a", "b")
    )


def head_to_head(labels: list[str], rows: list[dict], rank: bool) -> dict:
    """The head-to-head matrix of one cell from its `_pairwise` rows, with the dominant label
    and (rank=True) the Bradley–Terry ranking; see docs/results.md."""
    cells = {(r["a"], r["b"]): r for r in rows}
    matrix = []
    for a in labels:
        for b in labels:
            if a == b or (a, b) not in cells:
                continue
            meetings, wins = cells[(a, b)]["meetings"], cells[(a, b)]["halves"] / HALF
            low, high = wilson(wins, meetings)
            matrix.append({"row": a, "column": b, "meetings": meetings, "wins": wins, "rate": wins / meetings,
                           "ci_low": low, "ci_high": high})
    by_pair = {(m["row"], m["column"]): m for m in matrix}
    dominant = [a for a in labels
                if all((a, b) in by_pair and by_pair[(a, b)]["ci_low"] > DOMINANT_LEVEL for b in labels if b != a)]
    out = {"labels": labels, "matrix": matrix, "dominant": dominant[0] if dominant else None,
           "largest_half_width": max(((m["ci_high"] - m["ci_low"]) / 2 for m in matrix), default=None)}
    if rank:
        out["ranking"] = bradley_terry(labels, matrix)
    return out


def bradley_terry(labels: list[str], matrix: list[dict]) -> list[dict] | None:
    """Bradley–Terry strengths from the pairwise results: P(a ahead of b) = logistic(s_a − s_b).

    Fitted as a binomial GLM (statsmodels) with one ±1 column per label but the first, whose
    strength is 0; the strengths are then centred (mean 0) and their 95% intervals come from
    the fit's covariance, transformed alike. Ties count as half a win. In games of three or
    more the pairs of one game are not independent, so the intervals are somewhat narrow.
    None when the fit does not exist (some label always or never ahead, or pairs that never met).
    """
    import statsmodels.api as sm  # imported when a tournament is summarised: it is slow to import

    k = len(labels)
    index = {label: i for i, label in enumerate(labels)}
    pairs = [m for m in matrix if index[m["row"]] < index[m["column"]]]
    if k < 2 or not pairs:
        return None
    design_matrix = np.zeros((len(pairs), k))
    outcome = np.zeros((len(pairs), 2))
    for r, m in enumerate(pairs):
        design_matrix[r, index[m["row"]]] = 1.0
        design_matrix[r, index[m["column"]]] = -1.0
        outcome[r] = (m["wins"], m["meetings"] - m["wins"])
    try:
        with warnings.catch_warnings():
            # statsmodels also warns of "perfect prediction" when the model fits exactly (two
            # labels: one pair, one strength): separation is judged below by the estimates
            warnings.simplefilter("ignore")
            fit = sm.GLM(outcome, design_matrix[:, 1:], family=sm.families.Binomial()).fit()
        covariance = np.zeros((k, k))
        covariance[1:, 1:] = np.asarray(fit.cov_params())
        strength = np.concatenate([[0.0], np.asarray(fit.params)])
    except (ValueError, np.linalg.LinAlgError):
        return None
    if np.any(np.abs(strength) > SEPARATED):  # some label always or never ahead: no finite strength
        return None
    centre = np.eye(k) - 1.0 / k
    strength = centre @ strength
    half = Z95 * np.sqrt(np.maximum(np.diag(centre @ covariance @ centre.T), 0.0))
    if not (np.all(np.isfinite(strength)) and np.all(np.isfinite(half))):
        return None
    order = sorted(range(k), key=lambda i: -strength[i])
    return [{"strategy": labels[i], "rank": place, "strength": float(strength[i]),
             "ci_low": float(strength[i] - half[i]), "ci_high": float(strength[i] + half[i])}
            for place, i in enumerate(order, 1)]


def _first_player_by_table(seats, games, cells: list[str]) -> dict[str, list[dict]]:
    """Per cell and table (the sorted labels at the table): decided games and seat 0's share of them."""
    per_game = (seats.filter(pl.col("cell").is_in(cells))
                .group_by("cell", "game_index")
                .agg(pl.col("strategy").cast(pl.Utf8).sort().str.join(",").alias("table"),
                     win_units().filter(pl.col("seat") == 0).sum().alias("seat0"),
                     win_units().sum().alias("won")))
    rows = collect(per_game.group_by("cell", "table")
                    .agg(pl.len().alias("games"), (pl.col("won") > 0).sum().alias("decided"),
                         pl.col("seat0").sum().alias("seat0"))
                    .sort("cell", "table"))
    out: dict[str, list[dict]] = {}
    for r in rows.iter_rows(named=True):
        out.setdefault(r["cell"], []).append({"table": r["table"], "games": r["games"], "decided": r["decided"],
                                              "seat0_wins": r["seat0"] / WIN_UNITS})
    return out


def _first_player(tables: list[dict], players: int) -> dict:
    fair = 1.0 / players
    rows = []
    for t in tables:
        if not t["decided"]:  # no decided game at this table (all capped): no figure, null
            rows.append({**t, **dict.fromkeys(("rate", "value", "ci_low", "ci_high"))})
            continue
        low, high = wilson(t["seat0_wins"], t["decided"])
        rate = t["seat0_wins"] / t["decided"]
        rows.append({**t, "rate": rate, "value": rate - fair, "ci_low": low - fair, "ci_high": high - fair})
    out = {"by_table": rows}
    measured = [r for r in rows if r["value"] is not None]
    if len(measured) > 1:
        low, high = min(measured, key=lambda r: r["value"]), max(measured, key=lambda r: r["value"])
        out["range"] = {"value": high["value"] - low["value"], "low_table": low["table"], "high_table": high["table"]}
    return out


def add_summaries(summaries: list[dict], seats, games, categorical: list[str]) -> None:
    """Add the seating design, the tournament figures (cells of two or more strategies) and
    the head-to-head matrix of every categorical seat column to each cell's summary."""
    for cell in summaries:
        lineup = tuple(str(cell.get("lineup") or "").split(","))
        if all(lineup):
            cell["seating"] = seating_summary(lineup, cell["players"], cell["games"])
    mixed = [c for c in summaries if len(c.get("strategies", [])) > 1]
    names = [c["cell"] for c in summaries]
    if mixed:
        pairs = by_cell(_pairwise(seats, games, "strategy", [c["cell"] for c in mixed]))
        tables = _first_player_by_table(seats, games, [c["cell"] for c in mixed])
        for cell in mixed:
            order = list(dict.fromkeys(cell["lineup"].split(",")))
            cell["head_to_head"] = head_to_head(order, pairs.get(cell["cell"], []), rank=True)
            cell["first_player_by_table"] = _first_player(tables.get(cell["cell"], []), cell["players"])
    for column in categorical:
        pairs = by_cell(_pairwise(seats, games, column, names))
        for cell in summaries:
            rows = pairs.get(cell["cell"])
            if rows:
                labels = sorted({r["a"] for r in rows} | {r["b"] for r in rows})
                cell.setdefault("matchups", {})[column] = head_to_head(labels, rows, rank=False)
