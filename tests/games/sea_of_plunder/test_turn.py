"""The turn (Draw, Play, Discard), the game end and final scoring with its tie-breakers."""

from __future__ import annotations

import numpy as np
import pytest

from simkit.games.sea_of_plunder import GAME

from .harness import EV, N_CARDS, PRESET_INDEX, S, Table, card_ids, plain, play_game, score


# --------------------------------------------------------------------------- draw phase
def test_draw_phase_two_cards_never_two_from_the_pile():
    """SOP-028..SOP-031; A13: the pile's top card only, taken first, then the deck."""
    outcomes = set()
    for seed in range(40):
        t = plain(seed=seed)
        t.set_active(0)
        for name in ("Three north", "Three east", "Three south"):
            t.set_pile_top(name)
        pile = t.pile[: t.st[S.PILE_N]].tolist()
        hand = len(t.hand(0))
        mark = t.mark()
        t.call("draw_phase", seat=0)
        draws = t.events(EV.DRAW, mark)
        from_pile = [r for r in draws if r[4] == 1]
        assert len(draws) == 2 and len(from_pile) <= 1 and len(t.hand(0)) == hand + 2
        if from_pile:
            assert draws[0] == from_pile[0] and from_pile[0][3] == pile[-1]
            assert t.pile[: t.st[S.PILE_N]].tolist() == pile[:-1]
        else:
            assert t.pile[: t.st[S.PILE_N]].tolist() == pile
        outcomes.add(len(from_pile))
    assert outcomes == {0, 1}


def test_event_on_the_pile_is_not_taken():
    """A13 (pile_draw_events=false)."""
    for seed in range(20):
        t = plain(seed=seed)
        t.set_active(0)
        t.set_pile_top("Magical Compass")
        mark = t.mark()
        t.call("draw_phase", seat=0)
        assert all(r[4] == 0 for r in t.events(EV.DRAW, mark))
        assert card_ids("Magical Compass")[0] == t.pile_top()


def test_events_drawn_are_replaced_and_resolved_after_the_draw_in_order():
    """SOP-032, SOP-033, SOP-051..SOP-056."""
    t = plain()
    t.set_active(0)
    t.seats[:, S.COMPASSES] = 0
    t.set_pile_top("Tales of More Treasure")  # an Event on the pile: both draws from the deck
    deck = t.stack_deck(["Magical Compass", "Three north", "Parting Storms", "Three east",
                         "Three south", "Three west", "Two north-east", "Two south-east"])
    hand = len(t.hand(0))
    mark = t.mark()
    t.call("draw_phase", seat=0)
    assert [r[3] for r in t.events(EV.DRAW, mark)] == [deck[1], deck[3]]
    assert len(t.hand(0)) == hand + 2
    assert t.pending[: t.st[S.PENDING_N]].tolist() == [deck[0], deck[2]]
    assert not t.events(EV.EVENT, mark)  # not resolved while drawing
    t.call("resolve_pending")
    assert [r[3] for r in t.events(EV.EVENT, mark)] == [deck[0], deck[2]]
    assert t.seats[:, S.COMPASSES].tolist() == [1, 1, 1, 1]
    assert t.pile[t.st[S.PILE_N] - 2: t.st[S.PILE_N]].tolist() == [deck[0], deck[2]]


def test_events_resolve_between_draw_and_play_in_a_turn():
    """SOP-053, SOP-055: in take_turn the Events resolve before the Play phase begins."""
    t = plain()
    t.set_pile_top("Tales of More Treasure")
    t.stack_deck(["Magical Compass", "Three north", "Parting Storms", "Three east"])
    mark = t.mark()
    t.take_turn(0)
    codes = t.codes(mark)
    last_draw = max(i for i, c in enumerate(codes) if c == EV.DRAW)
    events = [i for i, c in enumerate(codes) if c == EV.EVENT]
    assert len(events) == 2 and last_draw < min(events) and max(events) < codes.index(EV.PLAY)


def test_empty_deck_is_refilled_from_the_pile_under_its_top_card():
    """A12/SOP-G12."""
    t = plain()
    t.set_active(0)
    n = int(t.st[S.DECK_N])
    rest = t.deck[: n - 1].tolist()
    t.deck[0] = t.deck[n - 1]
    t.st[S.DECK_N] = 1
    for c in rest:
        t.pile[t.st[S.PILE_N]] = c
        t.st[S.PILE_N] += 1
    top = t.set_pile_top("Magical Compass")
    pile_n = int(t.st[S.PILE_N])
    mark = t.mark()
    t.call("draw_phase", seat=0)
    (reshuffle,) = t.events(EV.RESHUFFLE, mark)
    assert reshuffle[3] == pile_n - 1
    assert t.st[S.PILE_N] == 1 and t.pile_top() == top
    assert t.deck_cards() == list(range(N_CARDS))
    assert len([r for r in t.events(EV.DRAW, mark) if r[3] >= 0]) == 2


def test_pile_of_only_events_does_not_refill_the_deck():
    """A12: with the deck empty and only Event cards under the pile's top card, a draw finds
    nothing and no Event is drawn. (Refilling from them would set each Event aside and draw
    again; with two copies of Parting Storms in the deck that chain never ended.)"""
    compass, storms = card_ids("Magical Compass")[0], card_ids("Parting Storms")[0]
    top, east = card_ids("Three north")[0], card_ids("Three east")[0]
    t = plain()
    t.set_active(0)
    t.st[S.DECK_N] = 0
    t.pile[:3] = (compass, storms, top)
    t.st[S.PILE_N] = 3
    hand = t.hand(0)
    mark = t.mark()
    assert t.call("draw_card", seat=0) == -1
    assert t.hand(0) == hand and t.st[S.PENDING_N] == 0 and t.st[S.PILE_N] == 3
    assert not t.events(EV.RESHUFFLE, mark)
    # one drawable card under the top: the deck is refilled, Events met on the way are set aside
    t.pile[:4] = (compass, storms, east, top)
    t.st[S.PILE_N] = 4
    assert t.call("draw_card", seat=0) == east
    assert set(t.pending[: t.st[S.PENDING_N]].tolist()) <= {compass, storms}
    assert t.st[S.PILE_N] == 1 and t.pile_top() == top


# --------------------------------------------------------------------------- turn structure
def test_turns_run_draw_play_discard_clockwise():
    """SOP-025..SOP-027, SOP-034, SOP-042, SOP-044."""
    for seed in range(4):
        t = Table(players=3, seed=seed, strategies="random")
        play_game(t)
        rows = t.rows()
        turns = [i for i, r in enumerate(rows) if r[2] == EV.TURN]
        seats = [rows[i][1] for i in turns]
        assert seats == [i % 3 for i in range(len(seats))]
        for a, b in zip(turns, turns[1:] + [len(rows)]):
            codes = [r[2] for r in rows[a:b]]
            first = {c: codes.index(c) for c in (EV.DRAW, EV.PLAY, EV.DISCARD) if c in codes}
            assert first.get(EV.DRAW, 0) < first.get(EV.PLAY, 99999)
            assert codes.count(EV.DISCARD) + codes.count(EV.NO_PLAY) >= 1
            if EV.DISCARD in codes:
                assert codes.count(EV.DISCARD) == 1
                assert first[EV.DISCARD] > max(i for i, c in enumerate(codes) if c == EV.PLAY)


def test_goods_are_never_played_or_discarded():
    """SOP-036, SOP-043, SOP-073; A15: a Goods-only hand skips play and discard."""
    t = plain()
    t.set_active(0)
    t.set_hand(0, ["good:blue", "good:green"])
    assert t.call("list_plays", seat=0) == 0 and t.call("list_discards", seat=0) == 0
    mark = t.mark()
    t.call("play_phase", seat=0)
    t.call("discard_phase", seat=0)
    assert [r[3] for r in t.events(EV.NO_PLAY, mark)] == [0, 1]
    assert not t.events(EV.PIRATE_MOVE, mark) and t.goods(0)[:2] == [1, 1]


def test_every_play_option_is_offered():
    """SOP-035, SOP-078: Map (each X), Port and Action cards are playable."""
    from simkit.games.sea_of_plunder import engine

    t = plain()
    t.set_active(0)
    t.seats[0, S.COMPASSES] = 0
    t.set_hand(0, ["Compass rose", "Rabakin", "Hurricane", "good:blue"])
    n = t.call("list_plays", seat=0)
    rows = [tuple(int(x) for x in t.buf[engine.CAND0 + i, :3]) for i in range(n)]
    assert sorted(rows) == [(0, 0, 0), (0, 0, 1), (0, 0, 2), (0, 0, 3), (1, 0, 0), (2, -1, 0)]


# --------------------------------------------------------------------------- game end
def test_end_triggered_by_a_players_third_treasure():
    """SOP-126."""
    t = plain()
    t.layout("""
          ABCDEFGHIJKLM
       6  ......T......
       7  ......0......
    """)
    t.set_active(0)
    t.seats[0, S.TREASURES] = 2
    t.sail_ship(0, ["G6"])
    (row,) = t.events(EV.END_TRIGGER)
    assert row[3] == S.END_PLAYER_TREASURES == t.st[S.END_REASON]


def test_end_triggered_by_the_pirates_sixth_treasure():
    """SOP-127: the sixth Treasure in the pirates' dish triggers the end, the fifth does not."""
    for before, ends in ((4, False), (5, True)):
        for seed in range(20):  # a seed whose replacement island is not rolled onto a skull
            t = plain(seed=seed)
            t.layout("""
                  ABCDEFGHIJKLM
               6  ......T......
               7  ......p......
            """)
            t.st[S.PIRATE_TREASURES] = before
            t.sail_pirate(0, ["G6"])
            if t.st[S.PIRATE_TREASURES] == before + 1:
                break
        assert t.st[S.PIRATE_TREASURES] == before + 1
        if ends:
            assert t.events(EV.END_TRIGGER)[0][3] == S.END_PIRATE_TREASURES == t.st[S.END_REASON]
        else:
            assert t.st[S.END_REASON] == -1 and not t.events(EV.END_TRIGGER)


def test_end_thresholds_are_parameters():
    t = plain(overrides={"treasures_to_end": 4})
    t.layout("""
          ABCDEFGHIJKLM
       6  ......T......
       7  ......0......
    """)
    t.set_active(0)
    t.seats[0, S.TREASURES] = 2
    t.sail_ship(0, ["G6"])
    assert t.st[S.END_REASON] == -1 and not t.events(EV.END_TRIGGER)


def test_the_round_is_finished_after_the_trigger():
    """SOP-128, SOP-129, SOP-X23; A46: play_chunk finishes the round, every seat gets equal turns."""
    values = GAME.rules.resolve("standard", {})
    compiled = GAME.compile(values, 4)
    early = 0
    for g in range(120):
        out_games = np.zeros((1, 4), dtype=np.int64)
        out_seats = np.zeros((1, 4, 10), dtype=np.int64)
        log = np.zeros((20000, 6), dtype=np.int64)
        logc = np.zeros(1, dtype=np.int64)
        strategies = np.array([[PRESET_INDEX["random"]] * 4], dtype=np.int64)
        GAME.play_chunk(compiled.params, compiled.components, GAME.preset_table(), strategies,
                        np.array([1000 + g], dtype=np.uint64), out_games, out_seats, log, logc,
                        np.zeros((0, 1, strategies.shape[1]), dtype=np.int64))
        rows = [tuple(r) for r in log[: logc[0]]]
        (trigger,) = [r for r in rows if r[2] == EV.END_TRIGGER]
        turns = [r for r in rows if r[2] == EV.TURN]
        assert turns[-1][0] == trigger[0] and turns[-1][1] == 3  # the trigger's round, last seat
        assert out_games[0, 1] == 4 * out_games[0, 0] == len(turns)
        early += trigger[1] < 3
    assert early > 10  # games ended on an early seat's turn still gave the later seats theirs


# --------------------------------------------------------------------------- final scoring
def _scored(rows, seed=1, end_reason=S.END_PLAYER_TREASURES):
    """rows: (treasures, compasses, debt, goods colours) per seat."""
    t = plain(players=len(rows), seed=seed)
    t.st[S.END_REASON] = end_reason
    for s in range(len(rows)):
        t.set_hand(s, [])
    for s, (treasures, compasses, debt, goods) in enumerate(rows):
        t.seats[s, S.TREASURES] = treasures
        t.seats[s, S.COMPASSES] = compasses
        t.seats[s, S.DEBT] = debt
        t.set_hand(s, [f"good:{g}" for g in goods])
    t.call("final_scoring")
    return t, t.out_seats[0]


def test_final_score_terms():
    """SOP-130..SOP-135: 3 per Treasure, 1 per compass, -1 per Debt, Goods sets 0/3/5/8."""
    _, out = _scored([(2, 3, 4, ["blue", "green", "purple", "orange", "blue"]), (0, 0, 0, ["blue", "green", "purple"]),
                      (1, 0, 0, ["green"]), (0, 0, 2, [])])
    assert out[:, 0].tolist() == [6 + 3 - 4 + 8, 5, 3, -2]
    assert out[:, S.M_GOODS_POINTS].tolist() == [8, 5, 0, 0]  # the goods_points seat metric


def test_every_seat_metric_is_written_under_its_own_name():
    """Each seat's counters at the end land in the column GAME.seat_metrics names, seat by seat
    (values chosen distinct, so a counter in a neighbour's column or seat shows), and the win,
    rank and score columns keep theirs."""
    from simkit.core.game import SEAT_COLUMNS

    rows = [(2, 3, 4, ["blue", "green", "purple", "orange", "blue"]), (0, 1, 0, ["blue", "green", "purple"]),
            (1, 0, 5, ["green"]), (0, 2, 2, [])]
    t = plain(players=4, seed=3)
    t.st[S.END_REASON] = S.END_PLAYER_TREASURES
    for s, (treasures, compasses, debt, goods) in enumerate(rows):
        t.set_hand(s, [f"good:{g}" for g in goods])
        t.seats[s, S.TREASURES] = treasures
        t.seats[s, S.COMPASSES] = compasses
        t.seats[s, S.DEBT] = debt
        t.seats[s, S.STEALS] = 10 + s
        t.seats[s, S.BRIBES] = 20 + s
        t.seats[s, S.POWER] = s % len(S.POWER_NAMES)
    t.call("final_scoring")
    out = t.out_seats[0]
    column = {m.name: SEAT_COLUMNS + i for i, m in enumerate(GAME.seat_metrics)}
    assert out[:, column["treasures"]].tolist() == [2, 0, 1, 0]
    assert out[:, column["compasses"]].tolist() == [3, 1, 0, 2]
    assert out[:, column["debt"]].tolist() == [4, 0, 5, 2]
    assert out[:, column["goods_points"]].tolist() == [8, 5, 0, 0]
    assert out[:, column["steals"]].tolist() == [10, 11, 12, 13]
    assert out[:, column["bribes"]].tolist() == [20, 21, 22, 23]
    assert out[:, column["power"]].tolist() == [s % len(S.POWER_NAMES) + 1 for s in range(4)]
    scores = [score(t, s) for s in range(4)]  # the powers dealt here may add to a score
    assert out[:, 0].tolist() == scores and scores[1:] == [0 + 1 - 0 + 5, 3 + 0 - 5 + 0, 0 + 2 - 2 + 0]
    ranks = [1 + sum(b > a for b in scores) for a in scores]  # the scores differ: no tie-breaker
    assert out[:, 1].tolist() == ranks and out[:, 2].tolist() == [int(r == 1) for r in ranks]


def test_tie_breaker_1_most_compasses():
    """SOP-138, SOP-142: equal scores -> more compasses wins, even with fewer Treasures."""
    _, out = _scored([(2, 0, 1, []), (1, 2, 0, []), (0, 0, 9, []), (0, 0, 9, [])])
    assert out[0, 0] == out[1, 0] == 5
    assert out[:, 2].tolist() == [0, 1, 0, 0] and out[:, 1].tolist() == [2, 1, 3, 3]


def test_tie_breaker_2_most_goods_types():
    """SOP-139: equal score and compasses -> more Goods types, before Treasures."""
    _, out = _scored([(1, 1, 0, []), (0, 1, 0, ["blue", "green"]), (0, 0, 9, [])])
    assert out[0, 0] == out[1, 0] == 4
    assert out[:, 2].tolist() == [0, 1, 0]


@pytest.mark.parametrize("seed", range(6))
def test_tie_breaker_3_most_treasures(seed):
    """SOP-140: equal score, compasses and Goods types -> more Treasures wins, whichever seat holds
    them, by one or by three, on any seed (the die of tie-breaker 4 never rolls)."""
    _, out = _scored([(1, 1, 0, []), (2, 1, 3, []), (0, 0, 9, [])], seed=seed)
    assert out[0, 0] == out[1, 0] == 4
    assert out[:, 2].tolist() == [0, 1, 0] and out[:, 1].tolist() == [2, 1, 3]
    _, out = _scored([(0, 0, 9, []), (4, 2, 9, []), (1, 2, 0, [])], seed=seed)
    assert out[1, 0] == out[2, 0] == 5
    assert out[:, 2].tolist() == [0, 1, 0] and out[:, 1].tolist() == [3, 1, 2]
    _, out = _scored([(3, 0, 7, ["blue"]), (1, 0, 1, ["green"])], seed=seed)
    assert out[0, 0] == out[1, 0]
    assert out[:, 2].tolist() == [1, 0]


def test_tie_breaker_4_die_roll_decides():
    """SOP-141; A28: the numbered die among the still-tied, until one is highest."""
    winners = set()
    for seed in range(30):
        t, out = _scored([(1, 1, 0, []), (1, 1, 0, []), (0, 0, 9, [])], seed=seed)
        rolls = t.events(EV.TIE_ROLL)
        assert rolls and {r[1] for r in rolls} == {0, 1}
        assert all(0 <= r[3] <= 12 for r in rolls)  # skulls are rerolled (A9)
        last = {r[1]: r[3] for r in rolls[-2:]}
        winner = int(np.flatnonzero(out[:, 2])[0])
        assert last[winner] > last[1 - winner]
        assert out[:, 2].sum() == 1 and out[1 - winner, 1] == 2 and out[2, 1] == 3
        winners.add(winner)
    assert winners == {0, 1}


def test_pirates_ending_the_game_still_leave_a_player_winner():
    """A34/SOP-G34: the pirates have no score."""
    _, out = _scored([(0, 1, 0, []), (0, 0, 0, [])], end_reason=S.END_PIRATE_TREASURES)
    assert out[:, 2].tolist() == [1, 0]


def test_round_cap_game_has_no_winner():
    """A47: a game stopped by the round cap is scored but has no winner."""
    _, out = _scored([(1, 1, 0, []), (0, 0, 0, [])], end_reason=S.END_ROUND_CAP)
    assert out[:, 2].sum() == 0 and out[:, 0].tolist() == [4, 0]


def test_starting_player_is_seat_0():
    """A22."""
    t = Table(players=3, seed=5)
    play_game(t)
    assert t.events(EV.TURN)[0][1] == 0 and t.events(EV.TURN)[0][3] == 1


def test_choice_counts_match_the_listed_rows():
    """A uniform choice counts each card's legal plays and discards without listing them
    (plays_of_card, discards_of_card); the counts must equal the rows the lists write."""
    from simkit.games.sea_of_plunder import engine

    from .harness import Table, play_game

    checked = 0

    def compare(t, seat):
        nonlocal checked
        nxt = (seat + 1) % t.players
        t.set_active(nxt)
        for lister, extra in (("list_plays", {}), ("list_discards", {"turns": True, "shortlist": False})):
            total = t.call(lister, seat=nxt, write=False, **extra)
            counts = t.T[S.COUNTS, : t.seats[nxt, S.HAND_N]].copy()
            rows = t.call(lister, seat=nxt, write=True, **extra)
            assert total == rows == counts.sum()
            listed = np.bincount(t.buf[engine.CAND0: engine.CAND0 + rows, 0], minlength=len(counts))
            assert (listed[: len(counts)] == counts).all()
            checked += 1

    for seed, variant, players in ((1, "standard", 4), (2, "two_player", 2), (3, "standard", 3)):
        play_game(Table(players=players, variant=variant, seed=seed), after_turn=compare)
    assert checked > 100
