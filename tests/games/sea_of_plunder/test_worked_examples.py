"""Every worked example of the rulebook, and its FAQ, as a test (DESIGN §2)."""

from __future__ import annotations

import numpy as np

from simkit.games.sea_of_plunder import engine
from simkit.rng import seed_streams, shuffle

from .harness import EV, N_CARDS, S, card_ids, kind_of, plain, score, sq


def test_final_scoring_example_1_sets_of_two():
    """1 blue, 2 green, 1 purple -> blue+green and purple+green, 3 + 3 = 6 (SOP-136)."""
    t = plain()
    t.set_hand(0, ["good:blue", "good:green", "good:green", "good:purple"])
    t.seats[0, S.COMPASSES] = 0
    assert score(t, 0) == 6


def test_final_scoring_example_2_same_colour_scores_nothing():
    """3 blue Goods score 0 (SOP-137)."""
    t = plain()
    t.set_hand(1, ["good:blue", "good:blue", "good:blue", "Three north"])
    t.seats[1, S.COMPASSES] = 0
    assert score(t, 1) == 0


def test_endless_sea_example_m2_to_a13():
    """'North, north, east' from M2 wraps over both edges onto A13 (SOP-084, SOP-085)."""
    t = plain()
    card = card_ids("North, north, east")[0]
    assert t.trace(card, "M2") == ["M1", "M13", "A13"]
    t.layout("""
          ABCDEFGHIJKLM
       2  ............0
    """)
    t.set_active(0)
    t.set_hand(0, ["North, north, east"])
    t.seats[0, S.COMPASSES] = 0
    t.call("play_phase", seat=0)
    assert t.where("ship", 0) == "A13"
    assert t.events(EV.SHIP_MOVE)[-1][3:] == (0, sq("M2"), sq("A13"))


def test_faq_q1_no_move_no_interaction():
    """On Rabakin with another ship, playing Broken Compass triggers nothing (SOP-213, SOP-214)."""
    t = plain(players=2)
    t.layout("""
          ABCDEFGHIJKLM
       2  ......0......
    """)
    t.put("ship", 1, "G2")  # Rabakin, shared
    t.set_active(0)
    t.set_hand(0, ["Broken Compass", "good:blue"])
    before_1 = t.set_hand(1, ["Three north", "Three east"])
    stock = t.stock("blue")
    mark = t.mark()
    t.call("play_phase", seat=0)
    codes = t.codes(mark)
    assert EV.PLAY in codes
    for code in (EV.GOOD, EV.STEAL, EV.BONUS_DRAW, EV.SHIP_MOVE, EV.BRIBE, EV.TREASURE):
        assert code not in codes
    assert t.hand(1) == before_1 and t.stock("blue") == stock
    assert t.where("ship", 0) == t.where("ship", 1) == "G2"


def test_faq_q1_port_card_onto_own_port_fires_again():
    """Playing the Rabakin card while on Rabakin: the Good again and a steal (SOP-215)."""
    t = plain(players=2)
    t.layout("""
          ABCDEFGHIJKLM
       2  ......0......
    """)
    t.put("ship", 1, "G2")
    t.set_active(0)
    t.set_hand(0, ["Rabakin"])
    victim = t.set_hand(1, ["Three north", "Three east"])
    stock = t.stock("blue")
    mark = t.mark()
    t.call("play_phase", seat=0)
    assert [r[3:5] for r in t.events(EV.GOOD, mark)] == [(0, 0)]  # blue, from the port
    steals = t.events(EV.STEAL, mark)
    assert len(steals) == 1 and steals[0][3] == 1 and steals[0][4] in victim
    assert t.stock("blue") == stock - 1
    assert sorted(t.hand(0)) == sorted([N_CARDS + 0, steals[0][4]])
    assert len(t.hand(1)) == 1


def test_faq_q2_rotation_does_not_stay_with_the_card():
    """A compass-turned discard goes to the pile as the bare card; whoever takes it plays it
    unturned unless they spend their own compass (SOP-216, SOP-217)."""
    for seed in range(300):
        t = plain(seed=seed)
        t.set_active(0)
        card = t.set_hand(0, ["Three north", "good:blue"])[0]
        t.seats[0, S.COMPASSES] = 1
        mark = t.mark()
        t.call("discard_phase", seat=0)
        c = t.events(EV.DISCARD, mark)[0][5]
        if c & 16 and c & 3:
            break
    else:
        raise AssertionError("no turned discard in 300 seeds")
    assert len(t.events(EV.COMPASS, mark)) == 1 and t.seats[0, S.COMPASSES] == 0
    assert t.pile_top() == card  # the pile stores the card id only: no orientation
    # seat 1 takes it, without a compass: the only play is the printed orientation
    t.set_active(1)
    t.set_hand(1, [card])
    t.seats[1, S.COMPASSES] = 0
    start = t.pos[S.SHIP0 + 1]
    mark = t.mark()
    t.call("play_phase", seat=1)
    play = t.events(EV.PLAY, mark)[0]
    assert play[5] == 0
    assert t.where("ship", 1) == t.trace(card, int(start))[-1]  # three squares north, unturned
    # with a compass of their own, every turned choice spends it
    t.set_hand(1, [card])
    t.seats[1, S.COMPASSES] = 1
    n = t.call("list_plays", seat=1)
    rows = t.buf[engine.CAND0: engine.CAND0 + n]
    assert {int(r[3]) for r in rows} == {0, 1, 2, 3}
    assert all(r[4] == 1 for r in rows if r[3] != 0)


def _hurricane_position(seed=1):
    t = plain(seed=seed)
    t.layout("""
          ABCDEFGHIJKLM
       3  .p.........p.
       7  ..0..1..2..3.
      11  .p.........p.
    """)
    return t


def test_faq_q3_action_effect_before_discard_bonus():
    """Hurricane, Trouble at Sea and So Close Yet So Far act before the Discard Bonus (SOP-218)."""
    for action, mover in (("Hurricane", EV.SHIP_MOVE), ("Trouble at Sea", EV.PIRATE_MOVE),
                          ("So Close Yet So Far", EV.ISLAND_MOVE)):
        t = _hurricane_position()
        t.set_islands(["E5", "J9"])
        t.set_active(0)
        t.set_hand(0, [action])
        t.call("play_phase", seat=0)
        t.set_hand(0, ["Three east"])
        t.seats[0, S.COMPASSES] = 0
        mark = t.mark()
        t.call("discard_phase", seat=0)
        codes = t.codes(mark)
        assert codes[0] == EV.DISCARD
        bonus_pirate = t.events(EV.DISCARD, mark)[0][4]
        pirate_moves = [r[3] for r in t.events(EV.PIRATE_MOVE, mark)]
        if mover == EV.PIRATE_MOVE:  # Trouble at Sea: pirates 0..3, then the bonus pirate again
            assert pirate_moves == [0, 1, 2, 3, bonus_pirate], action
        else:
            assert pirate_moves == [bonus_pirate]
            bonus = codes.index(EV.PIRATE_MOVE)
            effect = [i for i, c in enumerate(codes) if c == mover]
            assert effect and max(effect) < bonus, action


def test_hurricane_with_multi_option_discard_example():
    """Blue plays Hurricane and stays; each other ship goes to an X the active player picks
    on the multi-option discard (same or different X); then one pirate moves (SOP-081,
    SOP-079, SOP-080)."""
    seen_same, seen_diff = False, False
    for seed in range(40):
        t = _hurricane_position(seed)
        t.set_active(0)
        t.set_hand(0, ["Hurricane"])
        t.call("play_phase", seat=0)
        fork = t.set_hand(0, ["Fork north or south"])[0]
        ships = [int(t.pos[S.SHIP0 + k]) for k in range(4)]
        pirates = [int(t.pos[S.PIRATE0 + p]) for p in range(4)]
        mark = t.mark()
        t.call("discard_phase", seat=0)
        assert int(t.pos[S.SHIP0]) == ships[0]  # Blue's own ship does not move
        choices = []
        for k in (1, 2, 3):
            ends = {t.trace(fork, ships[k], option=o)[-1] for o in (0, 1)}
            assert t.where("ship", k) in ends
            choices.append(t.where("ship", k) == t.trace(fork, ships[k], option=0)[-1])
        seen_same |= len(set(choices)) == 1
        seen_diff |= len(set(choices)) == 2
        moved = [p for p in range(4) if int(t.pos[S.PIRATE0 + p]) != pirates[p]]
        assert len(moved) == 1  # the Discard Bonus only; Hurricane never moves pirates
        codes = t.codes(mark)
        assert codes.count(EV.SHIP_MOVE) == 3 and codes.count(EV.PIRATE_MOVE) == 1
        assert codes.index(EV.PIRATE_MOVE) > max(i for i, c in enumerate(codes) if c == EV.SHIP_MOVE)
    assert seen_same and seen_diff


def test_first_contact_only_the_first_ship_collects():
    """An island drifting across two ships: only the first it meets collects (SOP-110, SOP-111)."""
    t = plain()
    t.layout("""
          ABCDEFGHIJKLM
       1  p..p.........
       5  ......2......
       6  ......1......
       7  ......T......
      13  p..p.........
    """)
    t.set_active(0)
    t.drift_island(0, ["G6", "G5", "G4"])
    assert t.seats[1, S.TREASURES] == 1 and t.seats[2, S.TREASURES] == 0
    treasure = t.events(EV.TREASURE)
    assert [r[3] for r in treasure] == [1]
    assert t.st[S.N_ISLANDS] == 1 and "G7" not in t.islands()  # replaced by a new one


def test_first_contact_same_square_each_collects():
    """Ships sharing the square the island reaches each get a Treasure (SOP-109)."""
    t = plain()
    t.layout("""
          ABCDEFGHIJKLM
       1  p..p.........
       6  ......1......
       7  ......T......
      13  p..p.........
    """)
    t.put("ship", 2, "G6")
    t.drift_island(0, ["G6", "G5"])
    assert t.seats[1, S.TREASURES] == 1 and t.seats[2, S.TREASURES] == 1


def _deal_order(seed: int, players: int) -> np.ndarray:
    """The shuffled deck set-up deals from (no powers, standard board: the deck shuffle is
    the first chance draw)."""
    rng = np.zeros((1 + players, 4), dtype=np.uint64)
    seed_streams(rng, np.uint64(seed))
    deck = np.arange(N_CARDS, dtype=np.int64)
    shuffle(rng, 0, deck, np.int64(N_CARDS))
    return deck


def test_setup_example_event_and_port_card_are_replaced():
    """A dealt Tales of More Treasure and a dealt Rabakin are set aside, replaced, and go back
    into the deck (SOP-022, SOP-015, SOP-016, SOP-020)."""
    tales = set(card_ids("Tales of More Treasure"))
    rabakin = set(card_ids("Rabakin"))
    for seed in range(5000):
        deck = list(_deal_order(seed, 4))
        hand, aside = [], []
        while len(hand) < 5:
            card = int(deck.pop())
            (aside if kind_of(card) in (S.EVENT, S.PORT_CARD) else hand).append(card)
        if set(aside) & tales and set(aside) & rabakin:
            break
    else:
        raise AssertionError("no such deal")
    t = plain(seed=seed)
    assert t.hand(0)[:5] == hand
    for card in aside:
        assert t._locate(card)[0] == "deck"


def test_setup_never_deals_events_or_port_cards():
    """Starting hands hold 5 Action/Map cards plus the island's Good; the pile starts with one
    Map card (SOP-014..SOP-019)."""
    for seed in range(60):
        t = plain(players=2 + seed % 3, seed=seed)
        for s in range(t.players):
            deck_cards = [c for c in t.hand(s) if c < N_CARDS]
            assert len(deck_cards) == 5 and len(t.hand(s)) == 6
            assert all(kind_of(c) in (S.MAP, S.ACTION) for c in deck_cards)
        assert t.st[S.PILE_N] == 1 and kind_of(t.pile_top()) == S.MAP
        assert t.deck_cards() == list(range(N_CARDS))
