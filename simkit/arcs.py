"""Game arcs: how a game unfolds, not only who wins it (issue 11, item 3; DESIGN §6).

From seats.parquet alone, every sweep gets per cell:

- winning margin: the top score minus the second-highest score, over decided games (a
  game that some seat won or shared; a round-capped game has no winner). A shared win
  between equal scores has margin 0.
- rank distribution by seat: the share of games each seat finished at each rank (the
  engine's RANK column, tied seats share a rank), over all games played.

With `--arcs` (spec key `arcs = true`) the engine also fills its score trace
(simkit/game.py: trace[g, r - 1, s] = seat s's score after round r), and the sweep stores
it long-form as traces.parquet (cell, game_index, round, seat, score, and the round's top
score and sole leader, see `trace_rows`). Only the first
TRACE_ROUNDS rounds of a game are traced: later rounds are not stored, and a figure that
needs them leaves the game out. From the trace, per cell:

- leader after round t: the seat with the sole highest score after t (none on a tie).
- lead changes per game: how often the sole leader became a different seat, along the
  traced rounds in order; a round with a tied lead neither ends nor starts a lead.
- P(win | leading after round t), t = 1..TRACE_ROUNDS: over decided games that lasted at
  least t rounds and had a sole leader after t, the leader's share of wins (a shared win
  counts 1/k). Near 1 at early t means the game snowballs.
- comeback share: over games with one winner and at least 2 rounds, the share whose
  winner was not among the highest scores after the midpoint round (rounds // 2).
- score arcs: mean score by round and seat, over the games still running at that round.

A game whose engine writes no trace (the buffer keeps its UNWRITTEN sentinel) gives no
trace rows; a cell without any is reported as "no arcs", never as zeros.

The trace is stored rather than reduced in the worker so that `simkit report` can rebuild
every figure from the folder; every figure here is a lazy polars group-by on the streaming
engine, collecting only per-cell aggregates (DESIGN §9).
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import polars as pl

from simkit.results import TRACES  # parts kind and table name: traces.parquet
from simkit.stats import Z95, _length_summary, wilson

TRACE_ROUNDS = 64  # rounds traced per game; later rounds are not stored
UNWRITTEN = np.iinfo(np.int64).min  # the buffer's fill: a round the engine did not trace
TRACE_SCHEMA = {"cell": pl.Utf8, "game_index": pl.Int64, "round": pl.Int64, "seat": pl.Int64, "score": pl.Int64,
                "top": pl.Int64, "leader": pl.Int64}
NO_LEADER = -1  # `leader` of a round whose top score is shared
INCOMPLETE = "round_cap"


# -- the buffer and the stored rows ---------------------------------------------------------


def trace_buffer(games: int, players: int, rounds: int = TRACE_ROUNDS) -> np.ndarray:
    """int64[games, rounds, players] filled with UNWRITTEN, for the engine's `trace` argument."""
    return np.full((games, rounds, players), UNWRITTEN, dtype=np.int64)


def trace_rows(cell_id: str, start: int, trace: np.ndarray) -> pl.DataFrame:
    """The traced rounds of a batch as long-form rows (TRACE_SCHEMA); rounds the engine left
    UNWRITTEN (not played, past the game's end, or an engine without a trace) are dropped.
    A round counts as traced when the engine wrote every seat's score for it.

    Beside each score the row carries the round's `top` score and its `leader` (the seat
    with the sole top score, -1 when several share it), computed here on the arrays: the
    summary then reads them instead of grouping millions of rows by game and round.
    """
    players = trace.shape[2]
    written = (trace != UNWRITTEN).all(axis=2)
    game, rnd = np.nonzero(written)
    k = game.shape[0]
    scores = trace[game, rnd, :]
    top = scores.max(axis=1) if k else np.zeros(0, dtype=np.int64)
    sole = (scores == top[:, None]).sum(axis=1) == 1
    leader = np.where(sole, scores.argmax(axis=1), -1).astype(np.int64)
    return pl.DataFrame(
        {
            "cell": pl.repeat(cell_id, k * players, dtype=pl.Utf8, eager=True),
            "game_index": np.repeat(game.astype(np.int64) + start, players),
            "round": np.repeat(rnd.astype(np.int64) + 1, players),
            "seat": np.tile(np.arange(players, dtype=np.int64), k),
            "score": scores.reshape(-1),
            "top": np.repeat(top, players),
            "leader": np.repeat(leader, players),
        },
        schema=TRACE_SCHEMA,
    )


# -- figures (lazy frames in, small frames out) ----------------------------------------------


def _collect(query: pl.LazyFrame) -> pl.DataFrame:
    return query.collect(engine="streaming")


def _decided(games: pl.LazyFrame) -> pl.LazyFrame:
    """(cell, game_index, winner, rounds) of games some seat won or shared."""
    return games.filter((pl.col("n_winners") > 0) & (pl.col("end_reason") != INCOMPLETE)).select(
        "cell", "game_index", "winner", "rounds")


def margins(games: pl.LazyFrame, seats: pl.LazyFrame) -> pl.DataFrame:
    """Games per (cell, margin): the top score minus the second-highest, over decided games."""
    top_two = seats.group_by("cell", "game_index").agg(
        pl.col("score").max().alias("top"),
        pl.col("score").sort(descending=True).get(1).alias("second"))
    return _collect(top_two.join(_decided(games).select("cell", "game_index"), on=["cell", "game_index"])
                    .group_by("cell", (pl.col("top") - pl.col("second")).alias("margin")).len("games")
                    .sort("cell", "margin"))


def ranks(seats: pl.LazyFrame) -> pl.DataFrame:
    """Games per (cell, seat, rank)."""
    return _collect(seats.group_by("cell", "seat", "rank").len("games").sort("cell", "seat", "rank"))


def leaders(traces: pl.LazyFrame) -> pl.LazyFrame:
    """(cell, game_index, round, top, leader): the highest score after each traced round, and
    the seat holding it alone (null when several seats share it); one row per game and round."""
    return traces.filter(pl.col("seat") == 0).select(
        "cell", "game_index", "round", "top",
        pl.when(pl.col("leader") != NO_LEADER).then(pl.col("leader")).otherwise(None).alias("leader"))


def lead_changes(leaders_: pl.LazyFrame) -> pl.LazyFrame:
    """(cell, game_index, lead_changes) per traced game: how often the sole leader became a
    different seat, skipping rounds of a shared lead."""
    sole = pl.col("leader").sort_by("round").drop_nulls()
    return leaders_.group_by("cell", "game_index").agg(
        (sole != sole.shift(1)).sum().fill_null(0).cast(pl.Int64).alias("lead_changes"))


def win_when_leading(leaders_: pl.LazyFrame, games: pl.LazyFrame, seats: pl.LazyFrame) -> pl.DataFrame:
    """Per (cell, round): decided games with a sole leader after that round, and the leader's wins."""
    won = seats.select("cell", "game_index", pl.col("seat").alias("leader"), "win")
    return _collect(leaders_.drop_nulls("leader")
                    .join(_decided(games).select("cell", "game_index"), on=["cell", "game_index"])
                    .join(won, on=["cell", "game_index", "leader"])
                    .group_by("cell", "round").agg(pl.len().alias("games"), pl.col("win").sum().alias("wins"))
                    .sort("cell", "round"))


def comebacks(traces: pl.LazyFrame, games: pl.LazyFrame) -> pl.DataFrame:
    """Per cell: games with one winner and a traced midpoint round, and how many of them the
    winner won from behind (below the top score after round rounds // 2)."""
    decided = _decided(games).filter((pl.col("winner") >= 0) & (pl.col("rounds") >= 2)).select(
        "cell", "game_index", pl.col("winner").alias("seat"), (pl.col("rounds") // 2).alias("round"))
    at_midpoint = decided.join(traces.select("cell", "game_index", "seat", "round", "score", "top"),
                               on=["cell", "game_index", "seat", "round"])
    return _collect(at_midpoint.group_by("cell").agg(
        pl.len().alias("games"), (pl.col("score") < pl.col("top")).sum().alias("comebacks")))


def score_by_round(traces: pl.LazyFrame) -> pl.DataFrame:
    """Per (cell, round, seat): games still running at that round and their mean score."""
    return _collect(traces.group_by("cell", "round", "seat").agg(
        pl.len().alias("games"), pl.col("score").cast(pl.Float64).mean().alias("mean_score"))
        .sort("cell", "round", "seat"))


# -- summary fields ------------------------------------------------------------------------


def _by_cell(frame: pl.DataFrame) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for row in frame.iter_rows(named=True):
        out.setdefault(row.pop("cell"), []).append(row)
    return out


def _mean_interval(rows: list[dict], value: str) -> dict:
    """Mean of a count distribution [{value, games}] with its normal 95% interval."""
    n = sum(r["games"] for r in rows)
    if n == 0:
        return {"mean": None, "ci_low": None, "ci_high": None}
    total = sum(r[value] * r["games"] for r in rows)
    squares = sum(r[value] * r[value] * r["games"] for r in rows)
    mean = total / n
    sd = math.sqrt(max(squares - total * mean, 0.0) / (n - 1)) if n > 1 else 0.0
    half = Z95 * sd / math.sqrt(n)
    return {"mean": mean, "ci_low": mean - half, "ci_high": mean + half}


def _share(part: float, n: int) -> dict:
    low, high = wilson(part, n)
    return {"games": n, "share": part / n if n else None, "ci_low": low, "ci_high": high}


def cell_fields(folder: Path) -> dict[str, dict]:
    """Per cell: the summary fields of this module (documented in `add_to_summary`)."""
    folder = Path(folder)
    games = pl.scan_parquet(folder / "games.parquet")
    seats = pl.scan_parquet(folder / "seats.parquet")
    out: dict[str, dict] = {}
    margin_counts = margins(games, seats)
    margin_stats = _length_summary(margin_counts, "margin") if margin_counts.height else {}
    for cell, rows in _by_cell(margin_counts).items():
        out.setdefault(cell, {})["margin"] = {
            "games": sum(r["games"] for r in rows), **_mean_interval(rows, "margin"),
            **{k: margin_stats[cell][k] for k in ("median", "p90", "min", "max")},
            "distribution": rows}
    for cell, rows in _by_cell(ranks(seats)).items():
        by_seat: dict[int, list[dict]] = {}
        for r in rows:
            by_seat.setdefault(r["seat"], []).append(r)
        out.setdefault(cell, {})["ranks"] = [
            {"seat": seat, "shares": [{"rank": r["rank"], "games": r["games"],
                                       "share": r["games"] / sum(x["games"] for x in seat_rows)} for r in seat_rows]}
            for seat, seat_rows in sorted(by_seat.items())]
    path = folder / f"{TRACES}.parquet"
    if not path.exists():
        return out
    traces = pl.scan_parquet(path)
    lead = leaders(traces)
    changes = _by_cell(_collect(lead_changes(lead).group_by("cell", "lead_changes").len("games")
                                .sort("cell", "lead_changes")))
    leading = _by_cell(win_when_leading(lead, games, seats))
    comeback = {r["cell"]: r for r in comebacks(traces, games).iter_rows(named=True)}
    arcs_rows = _by_cell(score_by_round(traces))
    for cell in _collect(games.select("cell").unique()).get_column("cell").to_list():
        fields = out.setdefault(cell, {})
        traced = sum(r["games"] for r in changes.get(cell, []))
        arc: dict = {"trace_rounds": TRACE_ROUNDS, "traced_games": traced}
        if traced:
            back = comeback.get(cell, {"games": 0, "comebacks": 0})
            arc |= {
                "lead_changes": {**_mean_interval(changes[cell], "lead_changes"), "distribution": changes[cell]},
                "win_when_leading": [
                    {"round": r["round"], "games": r["games"], "wins": r["wins"], "rate": r["wins"] / r["games"],
                     **dict(zip(("ci_low", "ci_high"), wilson(r["wins"], r["games"])))}
                    for r in leading.get(cell, [])],
                "comeback": {"comebacks": back["comebacks"], **_share(back["comebacks"], back["games"])},
                "score_by_round": arcs_rows.get(cell, []),
            }
        fields["arcs"] = arc
    return out


def add_to_summary(folder: Path, cells: list[dict]) -> None:
    """Add to each cell of summary.json (in place):

    - `margin`: {games (decided), mean, ci_low, ci_high, median, p90, min, max,
      distribution: [{margin, games}]}: top score minus second-highest, decided games.
    - `ranks`: [{seat, shares: [{rank, games, share}]}] over all games.
    - `arcs` (only when the sweep traced arcs): {trace_rounds, traced_games, and when
      traced_games > 0: lead_changes {mean, ci_low, ci_high, distribution: [{lead_changes,
      games}]}, win_when_leading [{round, games, wins, rate, ci_low, ci_high}], comeback
      {comebacks, games, share, ci_low, ci_high}, score_by_round [{round, seat, games,
      mean_score}]}. traced_games = 0: the game's engine wrote no trace (no arcs).
    """
    fields = cell_fields(folder)
    for cell in cells:
        cell.update(fields.get(cell["cell"], {}))
