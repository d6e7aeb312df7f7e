"""The `expert` tier of Sea of Troubles: the lookahead on the tuned preset's weights, with
tuned in every seat of its playouts, its bids played out and, having won one, the last turn."""

import json

import numpy as np
from typer.testing import CliRunner

from simkit.commands.cli import app
from simkit.core.bots import LOOKAHEAD_POLICY
from simkit.games.sea_of_troubles import GAME, engine, lookahead
from strategies import sea_of_troubles as bot

from ..engine_calls import call_by_name
from .harness import PRESET_INDEX, PRESETS, S, Table
from .test_invariants import scratch
from .test_tiers import play


def weights(name):
    return next(p for p in GAME.presets if p.name == name).weights


def first_step(t, seat=0):
    """(the heuristic's pick, n) at the first step of seat's turn on table t."""
    t.call("begin_turn", seat=seat)
    n = int(t.call("candidates", seat=seat, players=t.players))
    return int(t.call("heuristic_choice", seat=seat, players=t.players, n=n)), n


def test_expert_is_the_lookahead_tier_on_the_tuned_weights_listed_last():
    ex, tuned = GAME.presets[-1], weights("tuned")
    assert ex.name == "expert" and ex.kind == bot.LOOKAHEAD_TIER
    assert ex.weights[bot.POLICY] == LOOKAHEAD_POLICY and ex.weights[1:bot.N_HEURISTIC] == tuned[1:bot.N_HEURISTIC]
    assert tuple(ex.weights[bot.N_HEURISTIC:]) == bot.EXPERT_KNOBS
    # the lookahead preset holds the knobs the expert added at 0: it plays as it did
    la = PRESETS[PRESET_INDEX["lookahead"]]
    assert la[bot.W_LA_BIDS] == la[bot.W_LA_START] == 0.0


def test_simkit_strategies_lists_the_expert_as_a_lookahead_kind():
    out = CliRunner().invoke(app, ["strategies", "sea_of_troubles", "--json"])
    assert out.exit_code == 0, out.output
    rows = json.loads(out.output)
    assert rows[-1]["name"] == "expert" and rows[-1]["kind"] == "lookahead"


def test_the_experts_first_candidate_is_tuneds_choice_and_its_playouts_seat_tuned():
    for seed in range(4):
        t = Table(3, seed=seed, strategies=["expert", "tuned", "tuned"])
        u = Table(3, seed=seed, strategies=["tuned", "tuned", "tuned"])
        k, n = first_step(t)
        assert (k, n) == first_step(u)  # the same pick as tuned on the same table
        sc = scratch(t)
        choice = call_by_name(lookahead.choose, t, dict(seat=0, players=3, pos=0, n=n, pick=k,
                                                        steps_left=engine.MAX_STEPS - 1, **sc))
        assert int(sc["LV"][1, 0]) == k and 0 <= int(choice) < n
        for s in range(3):  # every playout seat plays tuned's heuristic, without noise
            assert (sc["RF"][1 + s, 1:bot.N_HEURISTIC] == PRESETS[PRESET_INDEX["tuned"], 1:bot.N_HEURISTIC]).all()
            assert sc["RF"][1 + s, bot.POLICY] == 1.0 and sc["RF"][1 + s, engine.NOISE] == 0.0


def test_a_tuned_weight_reaches_the_experts_playouts():
    # the playouts read the deciding seat's own row: change one of its heuristic weights and
    # the rollout seats play otherwise (the candidates' values move)
    values = []
    for quest in (weights("tuned")[bot.W_QUEST], 0.0):
        t = Table(2, seed=3, strategies=["expert", "tuned"])
        t.F[1, bot.W_QUEST] = quest
        k, n = first_step(t)
        sc = scratch(t)
        call_by_name(lookahead.choose, t, dict(seat=0, players=2, pos=0, n=n, pick=k,
                                               steps_left=engine.MAX_STEPS - 1, **sc))
        assert sc["RF"][2, bot.W_QUEST] == quest
        values.append(sc["LV"][0, :4].copy())
    assert not (values[0] == values[1]).all()


def test_the_experts_bid_touches_only_its_own_stream_and_no_real_state():
    checked = 0
    for seed in range(2, 8):
        t = Table(2, seed=seed, strategies=["expert", "tuned"])
        t.F[1, bot.W_LA_BIDS] = 3.0
        t.call("take_turn", seat=0)
        t.call("take_turn", seat=1)
        t.st[S.ROUND] += 1
        if t.seat(0)[S.HAND_N] < 2:  # an empty hand bids nothing (Bidding): no choice to play out
            continue
        checked += 1
        T, rng = t.T.copy(), t.rng.copy()
        sc = scratch(t)
        nb = call_by_name(lookahead.bid_choice, t, dict(seat=0, players=2, **sc))
        assert 0 <= nb <= 2
        assert (t.T == T).all() and (t.rng[0] == rng[0]).all() and (t.rng[2:] == rng[2:]).all()
        assert not (t.rng[1] == rng[1]).all()  # its playouts drew from the seat's own stream
        assert (sc["LV"][1, :3] == (0, 1, 2)).all()  # tuned's count (0) first, then 1 and 2 cards
    assert checked >= 2


def test_the_round_end_of_a_table_without_an_expert_bid_is_the_engines():
    # round_end with no seat playing out its bids is engine.end_round, bit for bit
    for lineup in (["tuned", "pillager", "lookahead"], ["pillager", "duellist", "tuned"]):
        t = Table(3, seed=9, strategies=lineup)
        u = Table(3, seed=9, strategies=lineup)
        for tab in (t, u):
            for s in range(3):
                tab.call("take_turn", seat=s)
            tab.st[S.ROUND] += 1
        t.call("end_round", players=3)
        call_by_name(lookahead.round_end, u, dict(players=3, **scratch(u)))
        assert (t.T == u.T).all() and (t.rng == u.rng).all() and (t.F == u.F).all()


def test_a_bid_winner_that_plays_last_names_the_next_seat_clockwise():
    for winner in range(4):
        t = Table(4, seed=2, strategies="tuned")
        t.call("choose_start", winner=winner, players=4)
        assert (t.st[S.FIRST], t.st[S.DIR]) == (winner, 1)  # a preset starts itself
        t.F[1 + winner, bot.W_LA_START] = 1.0
        t.call("choose_start", winner=winner, players=4)
        assert (t.st[S.FIRST], t.st[S.DIR]) == ((winner + 1) % 4, 1)  # so it plays last


def test_expert_is_deterministic_and_keeps_the_other_seats_streams():
    a = play(("expert", "tuned"), 2, 12)
    b = play(("expert", "tuned"), 2, 12)
    assert all(np.array_equal(x, y) for x, y in zip(a[2:4], b[2:4]))
    # the chance stream and the rivals' streams: the games' set-up (dealt from them before any
    # decision) is the same whichever seat plays the expert
    t = Table(3, seed=4, strategies=["expert", "tuned", "tuned"])
    u = Table(3, seed=4, strategies=["tuned", "tuned", "tuned"])
    assert (t.T == u.T).all() and (t.rng == u.rng).all()
    k, n = first_step(t)
    first_step(u)
    rng = t.rng.copy()
    call_by_name(lookahead.choose, t, dict(seat=0, players=3, pos=0, n=n, pick=k,
                                           steps_left=engine.MAX_STEPS - 1, **scratch(t)))
    assert (t.rng[0] == rng[0]).all() and (t.rng[2:] == rng[2:]).all() and (t.T == u.T).all()
