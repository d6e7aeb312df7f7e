"""Skill tiers (noise, lookahead), the score trace and the designer knob of Sea of Troubles."""

import numpy as np

from simkit.core.bots import LOOKAHEAD_POLICY
from simkit.core.game import GAME_COLUMNS, LOG_WIDTH, ROUNDS, SCORE, SEAT_COLUMNS, WINNER
from simkit.core.rng import game_seeds
from simkit.core.rules import DESIGNER_KNOB
from simkit.games.sea_of_troubles import GAME, engine, lookahead
from simkit.sweeps.runner import seat_strategies
from strategies import sea_of_troubles as bot

from ..engine_calls import call_by_name
from .harness import S, Table


def play(lineup, players, n, seed=11, overrides=None, trace_rounds=0, entry=None):
    """n games of the rotated line-up: (seat strategy rows, row labels, out_games, out_seats, trace);
    `entry`: the engine entry point (default: play_chunk)."""
    lineup = tuple(lineup)
    table, labels = GAME.strategy_table(lineup)
    c = GAME.compile(GAME.rules.resolve("standard", overrides or {}), players)
    ss = seat_strategies(GAME, lineup, players, 0, n)
    og = np.zeros((n, GAME_COLUMNS + len(GAME.game_metrics)), dtype=np.int64)
    os_ = np.zeros((n, players, SEAT_COLUMNS + len(GAME.seat_metrics)), dtype=np.int64)
    trace = np.zeros((n if trace_rounds else 0, max(trace_rounds, 1), players), dtype=np.int64)
    (entry or GAME.play_chunk)(c.params, c.components, table, ss, game_seeds(seed, 0, n), og, os_,
                               np.zeros((0, LOG_WIDTH), dtype=np.int64), np.zeros(1, dtype=np.int64), trace)
    return ss, labels, og, os_, trace


def test_the_heuristic_entry_plays_the_same_games_as_the_full_one():
    """play_chunk_heuristic (no lookahead compiled) and play_chunk: the same games and traces for
    every heuristic line-up; the runner picks the full entry only when a seat plays the lookahead."""
    lineup = ("pillager", "tuned", "random", "pillager@0.2")
    full = play(lineup, 4, 80, trace_rounds=10)
    heuristic = play(lineup, 4, 80, trace_rounds=10, entry=GAME.play_chunk_heuristic)
    assert all(np.array_equal(a, b) for a, b in zip(full[2:], heuristic[2:])) and full[4].any()
    assert GAME.entry_for(full[0], lineup) is GAME.play_chunk_heuristic
    mixed = ("lookahead", "pillager")
    assert GAME.entry_for(seat_strategies(GAME, mixed, 2, 0, 8), mixed) is GAME.play_chunk


def gap(lineup, players, n, seed=11):
    """(win rate of lineup[0]'s seats minus that of the others' seats, its standard error):
    one seat per game plays lineup[0] (rotated over the seats), the per-game differences
    are independent, so their spread gives the error."""
    ss, labels, _og, os_, _ = play(lineup, players, n, seed)
    row = labels.index(lineup[0])
    mine = ss == row
    assert (mine.sum(axis=1) == 1).all()
    wins = os_[:, :, WINNER].astype(float)
    d = (wins * mine).sum(axis=1) - (wins * ~mine).sum(axis=1) / (players - 1)
    return d.mean(), d.std(ddof=1) / np.sqrt(n)


# ------------------------------------------------------------------ noise (the skill knob)
def test_noise_zero_plays_the_very_same_games():
    for lineup in (("pillager", "quester", "duellist"), ("hoarder", "random", "pillager")):
        noisy = tuple(f"{name}@0" for name in lineup)
        a = play(lineup, 3, 300)
        b = play(noisy, 3, 300)
        assert (a[2] == b[2]).all() and (a[3] == b[3]).all()
        c = play(tuple(f"{name}@0.1" for name in lineup), 3, 300)
        assert not (a[3] == c[3]).all()  # a noise above 0 does reach the games


def test_full_noise_plays_as_the_random_bot():
    # With noise 1 every decision of the heuristic is the random one, so the two seats are
    # alike: their win rates differ by chance only (within 3 standard errors of the data's own).
    d, se = gap(("pillager@1", "random"), 2, 3000)
    assert abs(d) < 3 * se
    d_heuristic, _ = gap(("pillager", "random"), 2, 300)  # the same test does separate unlike bots
    assert d_heuristic > 0.5


def test_half_noise_loses_to_the_heuristic():
    d, se = gap(("pillager@0.5", "pillager"), 2, 1000)
    assert d + 2.58 * se < 0  # the 99% interval lies below 0


# ------------------------------------------------------------------ the score trace
def test_the_trace_changes_no_game_and_ends_at_the_final_score():
    for lineup in (("pillager", "hoarder", "quester", "duellist"), ("lookahead", "pillager", "pillager", "pillager")):
        n = 150 if lineup[0] == "pillager" else 40
        _, _, og, os_, _ = play(lineup, 4, n)
        _, _, og_t, os_t, trace = play(lineup, 4, n, trace_rounds=60)
        assert (og == og_t).all() and (os_ == os_t).all()
        for g in range(n):
            rounds = og[g, ROUNDS]
            assert (trace[g, rounds - 1] == os_[g, :, SCORE]).all()  # the last round's is the final score
            assert (trace[g, rounds:] == 0).all()  # nothing after the game's end
            assert (trace[g, :rounds] >= 0).all()  # no pirate has fewer than 0 Infamy


def test_the_trace_is_the_score_the_game_would_end_with_after_that_round():
    # A game stopped by the round cap after round r has played exactly the traced game's
    # first r rounds, so its final score is what the trace calls "the score if it ended now".
    n = 200
    _, _, og, _, trace = play(("pillager", "duellist", "quester"), 3, n, trace_rounds=30)
    checked = 0
    for r in (5, 6, 8):
        _, _, og_r, os_r, _ = play(("pillager", "duellist", "quester"), 3, n, overrides={"round_cap": r})
        running = og[:, ROUNDS] >= r
        assert (og_r[running, ROUNDS] == r).all()
        assert (os_r[running, :, SCORE] == trace[running, r - 1]).all()
        checked += running.sum()
    assert checked > 100


# ------------------------------------------------------------------ the designer knob
def test_seat_infamy_is_a_per_seat_designer_knob_defaulting_to_the_rulebook():
    p = next(p for p in GAME.rules.params if p.name == "seat_infamy")
    assert p.knob and p.source == DESIGNER_KNOB and p.kind == "ints"
    assert list(p.default) == [0] * S.MAX_PLAYERS and p.allowed[2] == S.MAX_PLAYERS and p.allowed[1] >= 3


def test_seat_infamy_moves_only_the_named_seats_start():
    for variant, base in (("standard", 0), ("skirmish", 3)):
        plain = Table(4, variant, seed=3)
        knob = Table(4, variant, seed=3, overrides={"seat_infamy": [0, 2, 0, 5, 0]})
        assert [int(knob.seat(s)[S.INFAMY]) for s in range(4)] == [base, base + 2, base, base + 5]
        diff = np.argwhere(plain.T != knob.T)
        assert {(int(r), int(c)) for r, c in diff} == {(S.SEAT0 + 1, S.INFAMY), (S.SEAT0 + 3, S.INFAMY)}
        assert (plain.log == knob.log).all() and (plain.rng == knob.rng).all()


def test_seat_infamy_default_plays_the_same_games_and_a_head_start_helps():
    lineup = ("pillager",)
    _, _, og, os_, _ = play(lineup, 2, 600)
    _, _, og0, os0, _ = play(lineup, 2, 600, overrides={"seat_infamy": [0, 0, 0, 0, 0]})
    assert (og == og0).all() and (os_ == os0).all()
    _, _, _, os3, _ = play(lineup, 2, 600, overrides={"seat_infamy": [0, 3, 0, 0, 0]})
    assert os3[:, 1, WINNER].mean() > os_[:, 1, WINNER].mean() + 0.1


# ------------------------------------------------------------------ the lookahead tier
def scratch(t):
    width = t.F.shape[1]
    return {"RT": np.zeros_like(t.T), "RF": np.zeros((1 + t.players, width)), "Rrng": np.zeros_like(t.rng),
            "Rbuf": np.zeros_like(t.buf), "Rlog": np.zeros((0, LOG_WIDTH), dtype=np.int64),
            "LV": np.zeros((4, engine.BUF_WIDTH)), "RD": np.zeros_like(t.T)}


def first_choice(t, seat=0):
    """The lookahead's choice at the first step of seat's turn on table t, with what it
    leaves behind: (choice, candidate values, the seat stream after, its scratch)."""
    t.call("begin_turn", seat=seat)
    n = int(t.call("candidates", seat=seat, players=t.players))
    k = int(t.call("heuristic_choice", seat=seat, players=t.players, n=n))
    sc = scratch(t)
    choice = call_by_name(lookahead.choose, t, dict(seat=seat, players=t.players, pos=0, n=n, pick=k,
                                                    steps_left=engine.MAX_STEPS - 1, **sc))
    return int(choice), sc["LV"][0].copy(), t.rng[1 + seat].copy(), n


def test_lookahead_touches_only_its_own_stream_and_no_real_state():
    t = Table(3, seed=5, strategies=["lookahead", "pillager", "pillager"])
    t.call("begin_turn", seat=0)
    n = int(t.call("candidates", seat=0, players=3))
    k = int(t.call("heuristic_choice", seat=0, players=3, n=n))
    T, buf, rng = t.T.copy(), t.buf.copy(), t.rng.copy()
    sc = scratch(t)
    call_by_name(lookahead.choose, t, dict(seat=0, players=3, pos=0, n=n, pick=k, steps_left=50, **sc))
    assert (t.T == T).all() and (t.buf == buf).all()
    assert (t.rng[0] == rng[0]).all() and (t.rng[2:] == rng[2:]).all()  # chance and the rivals' streams
    assert not (t.rng[1] == rng[1]).all()  # the playouts drew from the seat's own stream
    assert sc["LV"][0, :4].any()  # and were played


def test_lookahead_never_reads_the_rivals_hands_or_the_decks_order():
    for seed in range(6):
        t = Table(3, seed=seed, strategies=["lookahead", "pillager", "pillager"])
        u = Table(3, seed=seed, strategies=["lookahead", "pillager", "pillager"])
        # u: the rivals' hands swapped with cards from the deck, the decks reordered; seat 0 sees the same table
        n = int(u.st[S.DECK_N])
        h1 = int(u.seat(1)[S.HAND_N])
        hand1 = u.T[S.HAND0 + 1, :h1].copy()
        u.T[S.HAND0 + 1, :h1] = u.T[S.DECK, :h1]
        u.T[S.DECK, :h1] = hand1
        u.T[S.DECK, :n] = u.T[S.DECK, :n][::-1].copy()
        u.T[S.HAND0 + 2, : int(u.seat(2)[S.HAND_N])] = u.T[S.HAND0 + 2, : int(u.seat(2)[S.HAND_N])][::-1].copy()
        nt = int(u.st[S.TDECK_N])
        u.T[S.TDECK, :nt] = u.T[S.TDECK, :nt][::-1].copy()
        assert sorted(u.all_cards()) == sorted(t.all_cards()) and not (u.T == t.T).all()
        a = first_choice(t)
        b = first_choice(u)
        assert a[0] == b[0] and (a[1] == b[1]).all() and (a[2] == b[2]).all()
        assert a[1][:a[3]].any()


def test_lookahead_is_deterministic_and_finishes_its_games():
    a = play(("lookahead",), 4, 60)
    b = play(("lookahead",), 4, 60)
    assert (a[2] == b[2]).all() and (a[3] == b[3]).all()
    assert (a[2][:, 2] != S.END_ROUND_CAP).all()


def test_lookahead_beats_the_preset_it_plays_out_at_two_players():
    # 400 games, one lookahead seat each (rotated); the per-game win differences are
    # independent, so the normal one-sided 95% bound of their mean applies. (The tuned default
    # beats the lookahead: tuned.md.)
    d, se = gap(("lookahead", "pillager"), 2, 400)
    assert d - 1.645 * se > 0.10


def test_the_lookahead_preset_plays_the_pillagers_weights():
    la = next(p for p in GAME.presets if p.name == "lookahead").weights
    default = next(p for p in GAME.presets if p.name == "pillager").weights
    assert la[0] == LOOKAHEAD_POLICY and la[1:bot.N_HEURISTIC] == default[1:bot.N_HEURISTIC]
    assert [p.name for p in GAME.presets][-2:] == ["lookahead", "expert"]  # the expert after it (test_expert)
