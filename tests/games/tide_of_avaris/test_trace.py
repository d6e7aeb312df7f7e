"""The score trace (game arcs): after each Day, the Treasure Points each seat would have if the
game ended then (every hold buried where it lies, then the endgame bonuses)."""

import numpy as np

from simkit.core.game import GAME_COLUMNS, ROUNDS, SCORE, SEAT_COLUMNS
from simkit.core.rng import game_seeds
from simkit.games.tide_of_avaris import GAME, chunk
from simkit.sweeps.runner import seat_strategies

from .harness import COLOUR, S, Table, play_game
from .tiers import compiled

DAYS = 12


def traced(players, lineup, n, days, entry=None):
    c = compiled(players)
    table, _ = GAME.strategy_table(lineup)
    ss = seat_strategies(GAME, lineup, players, 0, n)
    og = np.zeros((n, GAME_COLUMNS + len(GAME.game_metrics)), dtype=np.int64)
    os_ = np.zeros((n, players, SEAT_COLUMNS + len(GAME.seat_metrics)), dtype=np.int64)
    trace = np.zeros((n if days else 0, max(days, 1), players), dtype=np.int64)
    (entry or GAME.play_chunk)(c.params, c.components, table, ss, game_seeds(np.uint64(5), 0, n), og, os_,
                               np.zeros((0, 6), dtype=np.int64), np.zeros(1, dtype=np.int64), trace)
    return og, os_, trace


def test_tracing_does_not_change_the_games():
    lineup = ("controller", "raider", "random", "hoarder")
    a = traced(4, lineup, 80, DAYS)
    b = traced(4, lineup, 80, 0)
    assert (a[0] == b[0]).all() and (a[1] == b[1]).all()


def test_the_heuristic_entry_plays_the_same_games_as_the_full_one():
    """play_chunk_heuristic (no lookahead compiled) and play_chunk: the same games and traces for
    every heuristic line-up; the runner picks the full entry only when a seat plays the lookahead."""
    lineup = ("controller", "raider", "random", "tuned")
    full = traced(4, lineup, 60, DAYS)
    heuristic = traced(4, lineup, 60, DAYS, entry=GAME.play_chunk_heuristic)
    assert all((a == b).all() for a, b in zip(full, heuristic)) and full[2].any()
    assert GAME.entry_for(seat_strategies(GAME, lineup, 4, 0, 8), lineup) is GAME.play_chunk_heuristic
    mixed = ("lookahead", "tuned")
    assert GAME.entry_for(seat_strategies(GAME, mixed, 2, 0, 8), mixed) is GAME.play_chunk


def test_the_last_traced_day_is_the_final_score_and_later_days_stay_empty():
    og, os_, trace = traced(3, ("controller", "burier", "random"), 120, DAYS)
    for g in range(og.shape[0]):
        days = og[g, ROUNDS]
        assert days <= DAYS  # the buffer holds every Day of these games
        assert (trace[g, days - 1] == os_[g, :, SCORE]).all()
        assert (trace[g, days:] == 0).all()


def test_a_short_buffer_keeps_the_first_days():
    full = traced(2, ("controller", "raider"), 40, DAYS)[2]
    short = traced(2, ("controller", "raider"), 40, 2)[2]
    assert (short == full[:, :2]).all()


def end_now_trace(t):
    W = np.zeros_like(t.T)
    trace = np.zeros((1, 1, t.players), dtype=np.int64)
    chunk.record_trace(t.P, t.T, t.K, W, np.zeros((0, 6), dtype=np.int64), np.int64(t.players), trace,
                       np.int64(0), np.int64(1))
    return trace[0, 0]


def test_score_if_ended_now_buries_the_hold_and_adds_gold_and_matching_colours():
    t = Table(players=4)
    t.st[S.PUBLIC_BONUS] = -1  # no burial bonus to meet
    t.seat(0)[S.POINTS] = 5  # buried earlier
    t.T[S.HOLD0 + 0, S.BURIED + COLOUR["red"]] = 2
    t.hold(0, unbound={"red": 2, "pink": 1, "blue": 1}, bound={"teal": 1})  # 4 colours up, 1 down: 10 + 1
    t.seat(0)[S.GOLD] = 7  # 3 points at 2 gold a point
    for s in (1, 2, 3):
        t.seat(s)[S.GOLD] = 1
    before = t.T.copy()
    # 5 banked + 11 for the hold + 3 for gold + 4 for four red buried (Matching Colours); others nothing
    assert list(end_now_trace(t)) == [5 + 11 + 3 + 4, 0, 0, 0]
    assert (t.T == before).all()  # measured on a copy


def test_score_if_ended_now_of_a_finished_game_is_its_final_points():
    t = Table(players=2)
    t.hold(0, unbound={"red": 1})
    t.seat(0)[S.POINTS] = 9
    t.st[S.END_REASON] = S.END_BAG  # the end's burials and bonuses are already in POINTS
    assert list(end_now_trace(t)) == [9, 0]


def test_the_trace_never_falls_below_the_banked_points_which_never_fall():
    for seed in range(3):
        t = Table(players=3, seed=seed, strategies=["raider", "controller", "random"])
        banked = [0] * 3

        def check(t, banked=banked):
            now = end_now_trace(t)
            for s in range(3):
                assert t.seat(s)[S.POINTS] >= banked[s]
                banked[s] = int(t.seat(s)[S.POINTS])
                assert now[s] >= banked[s]

        play_game(t, check)
