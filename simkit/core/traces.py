"""Score traces: what the engine records for game arcs, and how a sweep stores it (docs/results.md).

With `--arcs` (spec key `arcs = true`) the engine fills its score trace (simkit/core/game.py:
trace[g, r - 1, s] = seat s's score after round r), and the sweep stores it long-form as
traces.parquet (cell, game_index, round, seat, score, and the round's top score and sole
leader, see `trace_rows`). Only the first TRACE_ROUNDS rounds of a game are traced: later
rounds are not stored. simkit.analysis.arcs turns the table into the summary's figures.
"""

from __future__ import annotations

import numpy as np
import polars as pl

TRACES = "traces"  # traces.parquet and its parts, only in a sweep with arcs
TRACE_ROUNDS = 64  # rounds traced per game; later rounds are not stored
UNWRITTEN = np.iinfo(np.int64).min  # the buffer's fill: a round the engine did not trace
TRACE_SCHEMA = {"cell": pl.Utf8, "game_index": pl.Int64, "round": pl.Int64, "seat": pl.Int64, "score": pl.Int64,
                "top": pl.Int64, "leader": pl.Int64}
NO_LEADER = -1  # `leader` of a round whose top score is shared


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
