"""Skill tiers: the noise of a line-up label ("treasure_hunter@0.3"), the chance
that a decision is a uniformly random legal choice instead of the heuristic's.

Wins are counted over decided games (a capped game has no winner). The two-sided bound for
"even" is z = 3 standard errors of a share around one half (0.27% false alarm for a fair
coin); "clearly loses" is a one-sided 99% Wilson upper bound below 45%."""

from __future__ import annotations

import math

import numpy as np

from simkit.analysis.intervals import wilson
from simkit.core.game import GAME_COLUMNS, LOG_WIDTH, ROUNDS, SCORE, SEAT_COLUMNS
from simkit.core.rng import game_seeds
from simkit.games.set_sail import GAME
from simkit.games.set_sail import events as EV
from simkit.sweeps.runner import play, seat_strategies

DEFAULT = GAME.default_strategy
Z99_ONE_SIDED = 2.326  # one-sided 99% normal quantile


def _play(lineup: tuple[str, ...], n: int, players: int = 2, seed: int = 11, log: int = 0):
    compiled = GAME.compile(GAME.rules.resolve("standard", {}), players)
    strategies = seat_strategies(GAME, lineup, players, 0, n)
    out_games, out_seats, rows = play(GAME, compiled, strategies, game_seeds(np.uint64(seed), 0, n), log, lineup)
    return strategies, out_games, out_seats, rows


def _wins(lineup: tuple[str, ...], n: int, players: int = 2) -> tuple[list[int], int]:
    """Wins of each line-up entry (seats rotated) and the number of decided games."""
    strategies, _, out_seats, _ = _play(lineup, n, players)
    index = GAME.strategy_table(lineup)[1]
    wins = [int(out_seats[:, :, 2][strategies == index.index(label)].sum()) for label in lineup]
    decided = int((out_seats[:, :, 2].sum(axis=1) > 0).sum())
    return wins, decided


def test_noise_zero_plays_bit_for_bit_as_the_preset():
    for lineup in [(DEFAULT, "merchant", "raider"), ("plunderer", DEFAULT, "random")]:
        zero = tuple(f"{label}@0" if label != "random" else label for label in lineup)
        *plain, plain_log = _play(lineup, 60, players=3, log=400_000)
        *noisy, noisy_log = _play(zero, 60, players=3, log=400_000)
        assert GAME.strategy_table(zero)[1][-1].endswith("@0")  # a row of its own, noise 0
        assert all(np.array_equal(a, b) for a, b in zip(plain[1:], noisy[1:]))
        assert np.array_equal(plain_log, noisy_log)


def test_full_noise_is_as_strong_as_random():
    (mine, _), decided = _wins((f"{DEFAULT}@1", "random"), 4000)
    assert decided > 3000
    share = mine / decided
    assert abs(share - 0.5) < 3 * math.sqrt(0.25 / decided)


def test_half_noise_loses_clearly_to_the_preset():
    (noisy, clean), decided = _wins((f"{DEFAULT}@0.5", DEFAULT), 1000)
    _, high = wilson(float(noisy), decided, Z99_ONE_SIDED)
    assert high < 0.45 and clean > noisy


def test_a_little_noise_already_costs_wins():
    (noisy, _), decided = _wins((f"{DEFAULT}@0.1", DEFAULT), 1000)
    _, high = wilson(float(noisy), decided, Z99_ONE_SIDED)
    assert high < 0.5


# ----------------------------------------------------------------------------- the score trace
def _traced(lineup: tuple[str, ...], n: int, players: int, rounds: int, log: int = 0, entry=None, seed: int = 17):
    """(out_games, out_seats, log rows, trace) of n games with a trace of `rounds` rounds
    (rounds = 0: untraced); the trace starts at -1 so unwritten cells show. `entry`: the engine
    entry point (default: play_chunk)."""
    compiled = GAME.compile(GAME.rules.resolve("standard", {}), players)
    strategies = seat_strategies(GAME, lineup, players, 0, n)
    out_games = np.zeros((n, GAME_COLUMNS + len(GAME.game_metrics)), dtype=np.int64)
    out_seats = np.zeros((n, players, SEAT_COLUMNS + len(GAME.seat_metrics)), dtype=np.int64)
    rows = np.zeros((log, LOG_WIDTH), dtype=np.int64)
    count = np.zeros(1, dtype=np.int64)
    trace = np.full((n if rounds else 0, max(rounds, 1), players), -1, dtype=np.int64)
    (entry or GAME.play_chunk)(compiled.params, compiled.components, GAME.strategy_table(lineup)[0], strategies,
                               game_seeds(np.uint64(seed), 0, n), out_games, out_seats, rows, count, trace)
    return out_games, out_seats, rows[: count[0]], trace


LINEUP = ("treasure_hunter", "merchant", "plunderer", "random")


def test_tracing_does_not_change_the_games():
    plain = _traced(LINEUP, 40, 4, 0, log=400_000)
    traced = _traced(LINEUP, 40, 4, 50, log=400_000)
    assert all(np.array_equal(a, b) for a, b in zip(plain[:3], traced[:3]))
    assert (traced[3] >= 0).any()


def test_the_trace_is_each_seats_vp_after_every_round_and_ends_at_the_score():
    out_games, out_seats, rows, trace = _traced(LINEUP, 40, 4, 60, log=400_000)
    quest = rows[rows[:, 2] == EV.QUEST]
    starts = np.flatnonzero(rows[:, 2] == EV.SCORE)  # the last rows of each game
    first = 0
    for g in range(40):
        rounds = int(out_games[g, ROUNDS])
        assert rounds <= 60
        game_rows = rows[first: starts[4 * g] + 1]
        first = starts[4 * g + 3] + 1
        vp = np.zeros(4, dtype=np.int64)
        for r in range(1, rounds + 1):  # log rows carry the 0-based round they happened in
            for row in game_rows[(game_rows[:, 2] == EV.QUEST) & (game_rows[:, 0] == r - 1)]:
                vp[row[1]] = row[5]
            assert np.array_equal(trace[g, r - 1], vp)
        assert np.array_equal(trace[g, rounds - 1], out_seats[g, :, SCORE])
        assert (trace[g, rounds:] == -1).all()  # rounds never played are left alone
        assert (np.diff(trace[g, :rounds], axis=0) >= 0).all()  # VP are never lost (Objective)
    assert len(quest) > 0


def test_a_short_trace_keeps_the_first_rounds():
    *_, long = _traced(LINEUP, 30, 4, 60)
    *_, short = _traced(LINEUP, 30, 4, 3)
    assert np.array_equal(short, long[:, :3])


def test_the_heuristic_entry_plays_the_same_games_as_the_full_one():
    """play_chunk_heuristic (no lookahead compiled) and play_chunk give the same games, event for
    event, to every heuristic line-up; the runner picks the full entry for a lookahead seat."""
    full = _traced(LINEUP, 60, 4, 30, log=600_000, seed=23)
    heuristic = _traced(LINEUP, 60, 4, 30, log=600_000, entry=GAME.play_chunk_heuristic, seed=23)
    assert all(np.array_equal(a, b) for a, b in zip(full, heuristic)) and len(full[2]) > 1000
    seats = seat_strategies(GAME, LINEUP, 4, 0, 8)
    assert GAME.entry_for(seats, LINEUP) is GAME.play_chunk_heuristic
    with_lookahead = ("lookahead", "tuned")
    seats = seat_strategies(GAME, with_lookahead, 2, 0, 8)
    assert GAME.entry_for(seats, with_lookahead) is GAME.play_chunk
    only_tuned = seats.copy()
    only_tuned[:] = GAME.strategy_table(with_lookahead)[1].index("tuned")
    assert GAME.entry_for(only_tuned, with_lookahead) is GAME.play_chunk_heuristic  # no seat plays it
