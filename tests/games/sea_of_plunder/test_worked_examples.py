"""Every worked example of the rulebook, and its FAQ, as a test, played on every
shipped component set: the examples read the board, the ports and the deck, so each runs
with the set's own squares and cards (a port's square, a Map card with the example's path,
a multi-option card). A set that could not play one is refused by the schema
(test_components.py::test_a_deck_that_cannot_play_the_worked_examples_is_refused)."""

from __future__ import annotations

import numpy as np
import pytest

from simkit.core.components import shipped
from simkit.core.rng import seed_streams, shuffle
from simkit.games.sea_of_plunder import components, engine

from .harness import EV, S, plain, sq

SETS = shipped(components.FOLDER)
ENDLESS_SEAS = (-2, 1)  # rows and columns the Endless Seas example's card sails (SOP-085)


def offset(path) -> tuple:
    return (sum(components.OFFSETS[d][0] for d in path), sum(components.OFFSETS[d][1] for d in path))


def map_card(t, options: int = 1, sail=None) -> str:
    """The first Map card of the table's deck with this many paths (and this sail, if given)."""
    for card in t.comp.cards:
        if card.kind == S.MAP and len(card.paths) == options and (sail is None or offset(card.paths[0]) == sail):
            return card.name
    raise AssertionError(f"no such Map card in {t.values['components']}")


def port_card(t, port: int) -> str:
    return next(c.name for c in t.comp.cards if c.kind == S.PORT_CARD and c.port == port)


@pytest.mark.parametrize("name", SETS)
def test_final_scoring_example_1_sets_of_two(name):
    """1 blue, 2 green, 1 purple -> blue+green and purple+green, 3 + 3 = 6 (SOP-136)."""
    t = plain(component_set=name)
    blue, green, purple = t.colours[:3]
    t.set_hand(0, [f"good:{blue}", f"good:{green}", f"good:{green}", f"good:{purple}"])
    t.seats[0, S.COMPASSES] = 0
    assert int(t.call("seat_score", seat=0, n_cards=t.n_cards)) == 6


@pytest.mark.parametrize("name", SETS)
def test_final_scoring_example_2_same_colour_scores_nothing(name):
    """3 blue Goods score 0 (SOP-137)."""
    t = plain(component_set=name)
    blue = t.colours[0]
    t.set_hand(1, [f"good:{blue}"] * 3 + [map_card(t)])
    t.seats[1, S.COMPASSES] = 0
    assert int(t.call("seat_score", seat=1, n_cards=t.n_cards)) == 0


@pytest.mark.parametrize("name", SETS)
def test_endless_sea_example_m2_to_a13(name):
    """The example's card takes the orange ship from M2 over both edges onto A13 (SOP-084, SOP-085)."""
    t = plain(component_set=name)
    card = t.card_ids(map_card(t, sail=ENDLESS_SEAS))[0]
    squares = t.trace(card, "M2")
    assert squares[-1] == "A13" and any(s[0] == "A" for s in squares) and any(s[1:] == "13" for s in squares)
    t.layout("""
          ABCDEFGHIJKLM
       2  ............0
    """)
    t.set_active(0)
    t.set_hand(0, [card])
    t.seats[0, S.COMPASSES] = 0
    t.call("play_phase", seat=0)
    assert t.where("ship", 0) == "A13"
    assert t.events(EV.SHIP_MOVE)[-1][3:] == (0, sq("M2"), sq("A13"))


def _two_ships_on_the_first_port(name):
    t = plain(players=2, component_set=name)
    t.layout("")  # no pirates, no islands; the ports stay
    port = t.where("port", 0)  # Rabakin in the standard set
    t.put("ship", 0, port)
    t.put("ship", 1, port)
    t.set_active(0)
    return t, port


@pytest.mark.parametrize("name", SETS)
def test_faq_q1_no_move_no_interaction(name):
    """On Rabakin with another ship, playing Broken Compass triggers nothing (SOP-213, SOP-214)."""
    t, port = _two_ships_on_the_first_port(name)
    t.set_hand(0, ["Broken Compass", f"good:{t.colours[0]}"])
    before_1 = t.set_hand(1, [map_card(t), map_card(t, options=2)])
    stock = t.stock(t.colours[0])
    mark = t.mark()
    t.call("play_phase", seat=0)
    codes = t.codes(mark)
    assert EV.PLAY in codes
    for code in (EV.GOOD, EV.STEAL, EV.BONUS_DRAW, EV.SHIP_MOVE, EV.BRIBE, EV.TREASURE):
        assert code not in codes
    assert t.hand(1) == before_1 and t.stock(t.colours[0]) == stock
    assert t.where("ship", 0) == t.where("ship", 1) == port


@pytest.mark.parametrize("name", SETS)
def test_faq_q1_port_card_onto_own_port_fires_again(name):
    """Playing the Rabakin card while on Rabakin: the Good again and a steal (SOP-215)."""
    t, _port = _two_ships_on_the_first_port(name)
    t.set_hand(0, [port_card(t, 0)])
    victim = t.set_hand(1, [map_card(t), map_card(t, options=2)])
    stock = t.stock(t.colours[0])
    mark = t.mark()
    t.call("play_phase", seat=0)
    assert [r[3:5] for r in t.events(EV.GOOD, mark)] == [(0, 0)]  # the port's colour, from the port
    steals = t.events(EV.STEAL, mark)
    assert len(steals) == 1 and steals[0][3] == 1 and steals[0][4] in victim
    assert t.stock(t.colours[0]) == stock - 1
    assert sorted(t.hand(0)) == sorted([t.good(0), steals[0][4]])
    assert len(t.hand(1)) == 1


@pytest.mark.parametrize("name", SETS)
def test_faq_q2_rotation_does_not_stay_with_the_card(name):
    """A compass-turned discard goes to the pile as the bare card; whoever takes it plays it
    unturned unless they spend their own compass (SOP-216, SOP-217)."""
    for seed in range(300):
        t = plain(seed=seed, component_set=name)
        t.set_active(0)
        card = t.set_hand(0, [map_card(t), f"good:{t.colours[0]}"])[0]
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
    assert t.where("ship", 1) == t.trace(card, int(start))[-1]  # the card's printed path, unturned
    # with a compass of their own, every turned choice spends it
    t.set_hand(1, [card])
    t.seats[1, S.COMPASSES] = 1
    n = t.call("list_plays", seat=1)
    rows = t.buf[engine.CAND0: engine.CAND0 + n]
    assert {int(r[3]) for r in rows} == {0, 1, 2, 3}
    assert all(r[4] == 1 for r in rows if r[3] != 0)


def _hurricane_position(name, seed=1):
    t = plain(seed=seed, component_set=name)
    t.layout("""
          ABCDEFGHIJKLM
       3  .p.........p.
       7  ..0..1..2..3.
      11  .p.........p.
    """)
    return t


@pytest.mark.parametrize("name", SETS)
def test_faq_q3_action_effect_before_discard_bonus(name):
    """Hurricane, Trouble at Sea and So Close Yet So Far act before the Discard Bonus (SOP-218)."""
    for action, mover in (("Hurricane", EV.SHIP_MOVE), ("Trouble at Sea", EV.PIRATE_MOVE),
                          ("So Close Yet So Far", EV.ISLAND_MOVE)):
        t = _hurricane_position(name)
        t.set_islands(["E5", "J9"])
        t.set_active(0)
        t.set_hand(0, [action])
        t.call("play_phase", seat=0)
        t.set_hand(0, [map_card(t)])
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


@pytest.mark.parametrize("name", SETS)
def test_hurricane_with_multi_option_discard_example(name):
    """Blue plays Hurricane and stays; each other ship goes to an X the active player picks
    on the multi-option discard (same or different X); then one pirate moves (SOP-081,
    SOP-079, SOP-080)."""
    seen_same, seen_diff = False, False
    for seed in range(40):
        t = _hurricane_position(name, seed)
        t.set_active(0)
        t.set_hand(0, ["Hurricane"])
        t.call("play_phase", seat=0)
        fork_name = map_card(t, options=2)
        fork = t.set_hand(0, [fork_name])[0]
        ships = [int(t.pos[S.SHIP0 + k]) for k in range(4)]
        pirates = [int(t.pos[S.PIRATE0 + p]) for p in range(4)]
        mark = t.mark()
        t.call("discard_phase", seat=0)
        assert int(t.pos[S.SHIP0]) == ships[0]  # Blue's own ship does not move
        choices = []
        for k in (1, 2, 3):
            ends = [t.trace(fork, ships[k], option=o)[-1] for o in (0, 1)]
            assert t.where("ship", k) in ends
            choices.append(t.where("ship", k) == ends[0])
        seen_same |= len(set(choices)) == 1
        seen_diff |= len(set(choices)) == 2
        moved = [p for p in range(4) if int(t.pos[S.PIRATE0 + p]) != pirates[p]]
        assert len(moved) == 1  # the Discard Bonus only; Hurricane never moves pirates
        codes = t.codes(mark)
        assert codes.count(EV.SHIP_MOVE) == 3 and codes.count(EV.PIRATE_MOVE) == 1
        assert codes.index(EV.PIRATE_MOVE) > max(i for i, c in enumerate(codes) if c == EV.SHIP_MOVE)
    assert seen_same and seen_diff


@pytest.mark.parametrize("name", SETS)
def test_one_token_turns_the_card_separately_for_every_target(name):
    """The Magical Compass example: Hurricane plus one compass on the discarded Map card, each
    moved ship turned its own way (SOP-094, SOP-095; A50)."""
    differing = 0
    for seed in range(200):
        t = _hurricane_position(name, seed)
        t.set_active(0)
        t.set_hand(0, ["Hurricane"])
        t.call("play_phase", seat=0)
        card = t.set_hand(0, [map_card(t)])[0]
        t.seats[0, S.COMPASSES] = 1
        ships = [int(t.pos[S.SHIP0 + k]) for k in range(4)]
        mark = t.mark()
        t.call("discard_phase", seat=0)
        if not t.events(EV.DISCARD, mark)[0][5] & 16:
            continue
        assert len(t.events(EV.COMPASS, mark)) == 1 and t.seats[0, S.COMPASSES] == 0
        turns = set()
        for k in (1, 2, 3):
            ends = {t.trace(card, ships[k], rotation=r)[-1]: r for r in range(4)}
            assert t.where("ship", k) in ends
            turns.add(ends[t.where("ship", k)])
        differing += len(turns) > 1
    assert differing > 5


@pytest.mark.parametrize("name", SETS)
def test_first_contact_only_the_first_ship_collects(name):
    """An island drifting across two ships: only the first it meets collects (SOP-110, SOP-111)."""
    t = plain(component_set=name)
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


@pytest.mark.parametrize("name", SETS)
def test_first_contact_same_square_each_collects(name):
    """Ships sharing the square the island reaches each get a Treasure (SOP-109)."""
    t = plain(component_set=name)
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


def _deal_order(seed: int, players: int, n_cards: int) -> np.ndarray:
    """The shuffled deck set-up deals from (no powers, no random set-up, no Combo Port: the
    deck shuffle is the first chance draw)."""
    rng = np.zeros((1 + players, 4), dtype=np.uint64)
    seed_streams(rng, np.uint64(seed))
    deck = np.arange(n_cards, dtype=np.int64)
    shuffle(rng, 0, deck, np.int64(n_cards))
    return deck


@pytest.mark.parametrize("name", SETS)
def test_setup_example_event_and_port_card_are_replaced(name):
    """A dealt Tales of More Treasure and a dealt Rabakin are set aside, replaced, and go back
    into the deck (SOP-022, SOP-015, SOP-016, SOP-020)."""
    probe = plain(component_set=name)
    tales = set(probe.card_ids("Tales of More Treasure"))
    rabakin = set(probe.card_ids(port_card(probe, 0)))
    for seed in range(5000):
        deck = list(_deal_order(seed, 4, probe.n_cards))
        hand, aside = [], []
        while len(hand) < 5:
            card = int(deck.pop())
            (aside if probe.kind_of(card) in (S.EVENT, S.PORT_CARD) else hand).append(card)
        if set(aside) & tales and set(aside) & rabakin:
            break
    else:
        raise AssertionError("no such deal")
    t = plain(seed=seed, component_set=name)
    assert t.hand(0)[:5] == hand
    for card in aside:
        assert t._locate(card)[0] == "deck"


@pytest.mark.parametrize("name", SETS)
def test_setup_never_deals_events_or_port_cards(name):
    """Starting hands hold 5 Action/Map cards plus the island's Good; the pile starts with one
    Map card (SOP-014..SOP-019)."""
    for seed in range(60):
        t = plain(players=2 + seed % 3, seed=seed, component_set=name)
        for s in range(t.players):
            deck_cards = [c for c in t.hand(s) if c < t.n_cards]
            assert len(deck_cards) == 5 and len(t.hand(s)) == 6
            assert all(t.kind_of(c) in (S.MAP, S.ACTION) for c in deck_cards)
        assert t.st[S.PILE_N] == 1 and t.kind_of(t.pile_top()) == S.MAP
        assert t.deck_cards() == list(range(t.n_cards))
