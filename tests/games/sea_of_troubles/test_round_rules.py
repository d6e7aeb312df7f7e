"""Rules of the turn and the round that only the golden replays used to guard: the cards a
move and the opening bid need, digging an emptied X, bidding nothing, the closed-port
countdown, the starting player and the direction of play. Each test was checked by breaking
its rule in the engine for a moment (tests/mutants/sea_of_troubles.toml)."""

from collections import Counter

import numpy as np
import pytest

from .harness import EV, S, Table, bot

SW, SA, CA, WI = S.SWORD, S.SAIL, S.CANNON, S.WILD
PORT = (1, 4)  # panel squares (row, column) of map.txt
XSQ = (4, 1)


def at(t, rc, panel=0):
    return t.square(rc[0], rc[1] + 6 * panel)


def turn_order(t):
    return [r[1] for r in t.events(EV.TURN)]


# --------------------------------------------------------------------------- moving (Move)
def test_a_move_past_the_free_points_spends_a_whole_sail_card():
    t = Table(2, strategies="pillager")
    t.put(0, t.square(0, 0))
    t.set_hand(0, [(SA, 3), (SW, 4)])
    t.st[S.FREE] = 0
    assert t.call("move_budget", seat=0) == 3
    t.call("move", seat=0, dest=t.square(0, 1))  # one square on a 3: the card goes, its 2 points are lost (A33)
    assert t.hand(0) == [(SW, 4)] and t.events(EV.MOVE)[-1][5] == 1
    assert t.call("move_budget", seat=0) == 0
    u = Table(2, strategies="pillager")
    u.put(0, u.square(0, 0))
    u.set_hand(0, [(SA, 3)])
    u.st[S.FREE] = 2
    u.call("move", seat=0, dest=u.square(0, 1))  # free points first, and they split over moves
    assert u.hand(0) == [(SA, 3)] and u.st[S.FREE] == 1 and u.events(EV.MOVE)[-1][5] == 0
    u.call("move", seat=0, dest=u.square(0, 3))  # 2 squares: the last free point, then the whole 3
    assert u.hand(0) == [] and u.st[S.FREE] == 0 and u.events(EV.MOVE)[-1][5] == 1


def _sails_paid(values: list[int], need: int) -> tuple[int, list[int]]:
    """Move, worked by hand: while points are owed, the smallest Sail that covers them, else the
    largest; returns the cards played and the values left in hand."""
    left = sorted(values)
    played = 0
    while need > 0 and left:
        covering = [v for v in left if v >= need]
        v = min(covering) if covering else max(left)
        left.remove(v)
        need -= v
        played += 1
    return played, left


def test_a_move_pays_with_the_smallest_sail_that_covers_it_else_the_largest_card_by_card():
    """Move, A33: free points first, then Sail cards one at a time, each the smallest that covers
    what is still owed, else the largest; what a card does not use is lost. Checked against that
    rule worked by hand over random hands of one to four Sails, free points and distances, in
    games of several seeds (so the cards are other copies of each value each time)."""
    rng = np.random.default_rng(33)
    probe = Table(2, strategies="pillager")
    a = probe.square(0, 0)
    probe.put(0, a)
    away = {}  # a square at each distance from a
    for b in range(int(probe.K[S.META, S.N_SQ])):
        d = int(probe.call("steps", seat=0, a=a, b=b))
        if 0 < d <= 12:
            away.setdefault(d, b)
    checked = 0
    for seed in range(1, 201):
        t = Table(2, seed=seed, strategies="pillager")
        t.put(0, a)
        t.clear_hands()
        pool = [1] * 5 + [2] * 5 + [3] * 4 + [4] * 3  # the Sails of the action deck (actions.toml)
        values = [int(v) for v in rng.choice(pool, size=int(rng.integers(1, 5)), replace=False)]
        t.set_hand(0, [(SA, v) for v in values] + [(SW, 2)])
        free = int(rng.integers(0, 3))
        t.st[S.FREE] = free
        d = int(rng.choice([d for d in away if d <= sum(values) + free]))
        t.call("move", seat=0, dest=away[d])
        played, left = _sails_paid(values, d - min(free, d))
        assert t.events(EV.MOVE)[-1][5] == played, (seed, values, free, d)
        assert sorted(t.hand(0)) == sorted([(SA, v) for v in left] + [(SW, 2)]), (seed, values, free, d)
        assert t.st[S.FREE] == free - min(free, d) and t.seat(0)[S.POS] == away[d]
        checked += 1
    assert checked == 200


def test_without_free_points_or_sails_there_is_no_move():
    t = Table(2, strategies="pillager")
    t.put(0, t.square(0, 0))
    t.set_hand(0, [(SW, 4), (CA, 4)])
    t.st[S.FREE] = 0
    n = t.call("candidates", seat=0, players=2)
    assert all(k != 1 for k in t.buf[0, :n])  # no A_MOVE without a point to pay for it


# --------------------------------------------------------------------------- the opening bid (Set Sail!)
def test_the_opening_bid_takes_one_or_two_cards_even_from_a_pirate_that_would_not_bid():
    t = Table(4, "bidding_start", strategies="pillager", setup=False)
    for s in range(4):
        t.F[1 + s, bot.W_BID] = 0.0  # would bid nothing later in the game
    t.call("setup_game", players=4)
    bids = t.events(EV.BID, start=0)
    assert len(bids) == 4 and all(r[3] == 1 for r in bids)  # compulsory: 1 card each (Set Sail!)
    assert all(t.seat(s)[S.HAND_N] == 8 for s in range(4))  # 9 dealt, 1 bid
    counts = Counter()
    for seed in range(40):
        u = Table(3, "bidding_start", seed=seed)  # random players bid 1 or 2, never 0 or 3
        bids = u.events(EV.BID, start=0)
        assert len(bids) == 3  # nobody sits the opening bid out
        counts.update(r[3] for r in bids)
    assert set(counts) == {1, 2}


# --------------------------------------------------------------------------- bidding nothing (Bidding)
def test_nobody_has_to_bid_and_a_round_without_bids_keeps_the_order():
    t = Table(3, strategies="pillager")
    for s in range(3):
        t.F[1 + s, bot.W_BID] = 0.0
    t.st[S.FIRST] = 2
    t.st[S.DIR] = -1
    assert t.call("bidding", compulsory=False) == -1
    assert not t.events(EV.BID)
    t.call("end_round")
    assert t.st[S.FIRST] == 2 and t.st[S.DIR] == -1 and not t.events(EV.STARTER)
    # a single card bid beats the pirates that bid nothing, however strong their hands
    u = Table(3, strategies="pillager")
    for s in range(3):
        u.F[1 + s, bot.W_BID] = 0.0
    u.F[1 + 2, bot.W_BID] = 1.0
    u.clear_hands()
    u.set_hand(0, [(SW, 4)] * 3)
    u.set_hand(1, [(CA, 4)] * 3)
    u.set_hand(2, [(SA, 1)])
    assert u.call("bidding", compulsory=False) == 2
    assert [r[1] for r in u.events(EV.BID)] == [2]


# --------------------------------------------------------------------------- digging (Dig)
def test_digging_stops_when_the_x_is_emptied_and_an_emptied_x_cannot_be_dug():
    t = Table(2, strategies="hoarder")
    x = at(t, XSQ)
    t.put(0, x)
    for name in ("Doubloon", "Doubloon"):
        t.give_treasure(0, name)
    t.set_hand(0, [(SA, 1), (SA, 1)])
    t.call("bury", seat=0, slot=0)
    t.call("bury", seat=0, slot=0)
    assert t.seat(0)[S.BURY_N] == 2
    t.put(1, x)
    t.stack([(SW, 3), (CA, 4), (SW, 4)])  # two successes empty the X; the third card stays on the deck
    deck = int(t.st[S.DECK_N])
    t.call("dig", seat=1, owner=0)
    assert t.seat(1)[S.CARRY_N] == 2 and t.seat(0)[S.BURY_N] == 0
    assert t.st[S.DECK_N] == deck - 2 and len(t.events(EV.DIG)) == 2
    assert t.call("dig_owner", seat=1) == -1
    t.st[S.ACTIVE] = 1
    n = t.call("candidates", seat=1, players=2)
    assert 6 not in list(t.buf[0, :n])  # no A_DIG on an emptied X
    assert t.T[S.XOWNER, 0] == 0  # the X stays its owner's


# --------------------------------------------------------------------------- closed ports (Set up next round)
def test_a_pillaged_port_reopens_after_three_round_ends():
    t = Table(2, strategies="pillager")
    t.T[S.PORT_CLOSED, :] = 0
    t.put(0, at(t, PORT))
    t.set_hand(0, [(SW, 4), (SW, 4), (CA, 4)])
    t.stack([(SA, 1), (SA, 1), (SA, 1)])
    t.call("pillage", seat=0)
    assert t.T[S.PORT_CLOSED, 0] == 3
    seen = []
    for _ in range(3):
        assert not t.call("can_pillage", seat=0)
        t.call("end_round")
        t.put(0, at(t, PORT))
        seen.append(int(t.T[S.PORT_CLOSED, 0]))
    assert seen == [2, 1, 0]  # one tick per round end, never below 0
    assert t.call("can_pillage", seat=0)
    t.call("end_round")
    assert t.T[S.PORT_CLOSED, 0] == 0


def test_a_set_up_die_closes_a_port_for_its_value_in_round_ends():
    t = Table(3, strategies="pillager")
    t.T[S.PORT_CLOSED, :3] = [5, 0, 1]
    t.call("end_round")
    assert list(t.T[S.PORT_CLOSED, :3]) == [4, 0, 0]


# --------------------------------------------------------------------------- who starts (Set Sail!, A13)
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_seat_0_starts_round_one_and_play_goes_clockwise(players):
    t = Table(players, strategies="pillager")
    assert t.st[S.FIRST] == 0 and t.st[S.DIR] == 1
    t.call("play_round", players=players)
    assert turn_order(t) == list(range(players))


def test_the_bid_winners_starter_and_direction_set_the_next_rounds_order():
    t = Table(4, strategies="pillager")
    t.st[S.FIRST] = 2
    t.st[S.DIR] = -1
    t.call("play_round", players=4)
    assert turn_order(t) == [2, 1, 0, 3]  # counter-clockwise from seat 2
    directions = Counter()
    starters = Counter()
    for seed in range(40):
        u = Table(3, seed=seed)  # a random winner may name anyone and either direction
        u.call("choose_start", winner=1)
        directions[int(u.st[S.DIR])] += 1
        starters[int(u.st[S.FIRST])] += 1
    assert set(directions) == {1, -1} and set(starters) == {0, 1, 2}
    p = Table(3, strategies="pillager")
    p.call("choose_start", winner=2)
    assert p.st[S.FIRST] == 2 and p.st[S.DIR] == 1  # a preset starts itself, clockwise (A24)


# --------------------------------------------------------------------------- the port dice (Getting started 4)
def test_a_port_die_of_4_leaves_the_port_open_and_any_other_value_closes_it_that_long():
    seen = Counter()
    for seed in range(200):
        t = Table(5, seed=seed)
        closed = [int(v) for v in t.T[S.PORT_CLOSED, :5]]
        assert 4 not in closed and sum(v == 0 for v in closed) >= 2
        seen.update(v for v in closed if v)
    assert set(seen) == {1, 2, 3, 5, 6}  # a d6 (A8): every other face stays on its port


# --------------------------------------------------------------------------- digging ends the turn (Dig)
def test_digging_at_a_rivals_x_ends_the_turn():
    base = Table(2, strategies="random")
    x = at(base, XSQ)
    base.put(1, x)
    for _ in range(3):
        base.give_treasure(1, "Doubloon")
    base.set_hand(1, [(SA, 1), (SA, 1), (SA, 1)])
    for _ in range(3):
        base.call("bury", seat=1, slot=0)
    base.put(0, x)
    base.put(1, base.square(0, 0))
    dug = 0
    for seed in range(80):  # a random pirate may do anything first; once it digs, nothing follows
        v = Table(2, strategies="random", seed=seed)
        v.T[:] = base.T
        v.set_hand(0, [(SA, 4), (CA, 4), (SW, 4), (SA, 3)])
        mark = int(v.st[S.LOG_N])
        v.call("take_turn", seat=0)
        rows = v.rows(mark)
        first = next((i for i, r in enumerate(rows) if r[2] == EV.DIG), None)
        if first is None:
            continue
        dug += 1
        assert all(r[2] in (EV.DIG, EV.TREASURE, EV.RESHUFFLE) for r in rows[first:]), seed
    assert dug >= 8


# --------------------------------------------------------------------------- one attack of a kind per pirate (Clarifying details)
def test_the_same_attack_on_the_same_pirate_only_once_a_turn():
    t = Table(3, strategies="duellist")
    sq = t.alongside()
    t.put(2, sq)
    t.clear_hands()
    t.set_hand(0, [(CA, 1)])
    t.stack([(CA, 1)])  # the defender's draw: too weak to fight, so it concedes and stays
    t.call("begin_turn", seat=0)
    t.call("fight", att=0, dfn=1, shoot=1)
    t.set_hand(0, [(CA, 1), (SW, 1)])
    assert not t.call("can_attack", att=0, dfn=1, shoot=1)  # no second shot at pirate 1
    assert t.call("can_attack", att=0, dfn=1, shoot=0)  # boarding it is another attack
    assert t.call("can_attack", att=0, dfn=2, shoot=1)  # shooting another pirate is fine
    n = t.call("candidates", seat=0, players=3)
    assert (4, 1) not in {(int(t.buf[0, i]), int(t.buf[1, i])) for i in range(n)}  # no A_SHOOT at 1
    t.call("begin_turn", seat=0)  # a new turn: pirate 1 may be shot again
    assert t.call("can_attack", att=0, dfn=1, shoot=1)


# --------------------------------------------------------------------------- the sea (Move, A6)
def test_moves_are_orthogonal_and_an_edge_wraps_to_the_opposite_edge_as_one_move():
    t = Table(2, strategies="pillager")
    corner, bottom, east_edge = t.square(0, 0), t.square(5, 0), t.square(0, 11)  # two panels: 6 x 12
    assert t.call("steps", seat=0, a=corner, b=bottom) == 1  # north edge to south edge
    assert t.call("steps", seat=0, a=corner, b=east_edge) == 1  # west edge to east edge
    assert t.call("steps", seat=0, a=t.square(0, 2), b=t.square(1, 3)) == 2  # no diagonal step
    west, east = t.square(2, 0), t.square(2, 3)  # the island (2, 1)-(2, 2) between them
    assert t.call("steps", seat=0, a=west, b=east) > 3  # no sailing through land
    t.put(0, corner)
    t.set_hand(0, [(SW, 4)])
    t.st[S.FREE] = 1
    t.call("move", seat=0, dest=bottom)
    assert t.seat(0)[S.POS] == bottom and t.st[S.FREE] == 0  # the wrap cost one point


# --------------------------------------------------------------------------- the discard pile (Discard pile)
def test_an_empty_action_deck_is_the_shuffled_discard_pile():
    t = Table(2)
    n, d = int(t.st[S.DECK_N]), int(t.st[S.DISC_N])
    t.T[S.DISC, d: d + n] = t.T[S.DECK, :n]
    t.st[S.DISC_N] = d + n
    t.st[S.DECK_N] = 0
    pile = [int(c) for c in t.T[S.DISC, : d + n]]
    card = t.call("draw_card")
    assert card >= 0 and t.st[S.DISC_N] == 0 and t.st[S.DECK_N] == len(pile) - 1
    deck = [int(c) for c in t.T[S.DECK, : t.st[S.DECK_N]]]
    assert sorted(deck + [card]) == sorted(pile) and deck + [card] != pile  # the same cards, shuffled
    assert t.events(EV.RESHUFFLE)[-1][3] == len(pile)
    t.st[S.DECK_N] = 0  # nothing in the deck nor the pile: no card
    assert t.call("draw_card") == -1
