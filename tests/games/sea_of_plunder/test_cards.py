"""Each Event card and each Action card on a hand-built position (Card List)."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from simkit.games.sea_of_plunder.events import card_name

from .harness import EV, N_CARDS, S, card_ids, kind_of, name_of, plain, sq

# A quiet board: four pirates at the corners of a box, four ships on row 7, two islands.
BOARD = """
      ABCDEFGHIJKLM
   3  .p.........p.
   5  ....T........
   7  ..0..1..2..3.
   9  .........T...
  11  .p.........p.
"""


def board(seed=1, players=4):
    t = plain(players=players, seed=seed)
    t.layout(BOARD)
    for k in range(players, 4):
        t.put("ship", k, None)
    return t


# --------------------------------------------------------------------------- Event cards
def test_cargo_adrift_everyone_takes_from_the_right_at_once():
    """Each seat takes one random card from the previous seat; simultaneous, so every card
    moves at most one seat (SOP-164, SOP-165; A51)."""
    for seed in range(25):
        t = board(seed)
        t.set_active(seed % 4)
        before = [Counter(t.hand(s)) for s in range(4)]
        card = t.set_pending(["Cargo Adrift"])[0]
        mark = t.mark()
        t.call("resolve_pending")
        for s in range(4):
            right = (s - 1) % 4
            after = Counter(t.hand(s))
            gained, lost = after - before[s], before[s] - after
            assert sum(gained.values()) == 1 and sum(lost.values()) == 1
            assert next(iter(gained)) in before[right]  # from the seat on the right, not further
        assert sorted(r[3] for r in t.events(EV.CARGO, mark)) == [0, 1, 2, 3]
        assert [r[1] for r in t.events(EV.CARGO, mark)] == [0, 1, 2, 3]
        assert t.pile_top() == card and t.st[S.PENDING_N] == 0


def test_cargo_adrift_empty_hand_gives_nothing():
    t = board()
    t.set_hand(2, [])
    before = [t.hand(s) for s in range(4)]
    t.set_pending(["Cargo Adrift"])
    t.call("resolve_pending")
    assert len(t.hand(3)) == len(before[3]) - 1  # seat 3 gives one, gets none from empty seat 2
    assert len(t.hand(2)) == 1  # seat 2 gets one from seat 1


def test_magical_compass_event_gives_everyone_a_token():
    """SOP-166."""
    t = board()
    t.seats[:, S.COMPASSES] = [0, 1, 2, 3]
    t.set_pending(["Magical Compass"])
    t.call("resolve_pending")
    assert t.seats[:, S.COMPASSES].tolist() == [1, 2, 3, 4]
    assert len(t.events(EV.COMPASS_GAIN)) == 4


def test_parting_storms_everyone_draws_from_the_deck():
    """All draw one card from the deck, active player first (SOP-167, SOP-168; A52)."""
    t = board()
    t.set_active(2)
    top = t.stack_deck(["Three north", "Three east", "Three south", "Three west"])
    pile = t.pile[: t.st[S.PILE_N]].tolist()
    sizes = [len(t.hand(s)) for s in range(4)]
    card = t.set_pending(["Parting Storms"])[0]
    mark = t.mark()
    t.call("resolve_pending")
    draws = t.events(EV.BONUS_DRAW, mark)
    assert [r[1] for r in draws] == [2, 3, 0, 1]
    assert [r[3] for r in draws] == top
    assert [len(t.hand(s)) for s in range(4)] == [n + 1 for n in sizes]
    assert t.pile[: t.st[S.PILE_N]].tolist() == pile + [card]  # the pile gave nothing


def test_event_drawn_while_resolving_is_replaced_then_resolved_in_order():
    """An Event met during Parting Storms is set aside, replaced, and resolved after (A14)."""
    t = board()
    t.set_active(0)
    t.seats[:, S.COMPASSES] = 0
    stacked = t.stack_deck(["Three north", "Magical Compass", "Three east", "Three south", "Three west"])
    storms = t.set_pending(["Parting Storms"])[0]
    mark = t.mark()
    t.call("resolve_pending")
    assert [r[3] for r in t.events(EV.BONUS_DRAW, mark)] == [stacked[0]] + stacked[2:]
    assert [r[3] for r in t.events(EV.EVENT, mark)] == [storms, stacked[1]]
    assert t.seats[:, S.COMPASSES].tolist() == [1, 1, 1, 1]
    assert t.pile_top() == stacked[1]


def test_tales_of_more_treasure_adds_an_island():
    """SOP-169."""
    t = board()
    t.set_islands(["E5"])
    t.set_pending(["Tales of More Treasure"])
    t.call("resolve_pending")
    assert t.st[S.N_ISLANDS] == 2 and len(t.events(EV.ISLAND_PLACED)) == 1


def test_tales_of_more_treasure_cap_of_three():
    """With three islands on the board (stacked ones count, A42) it does nothing (SOP-170)."""
    for islands in (["E5", "J9", "A1"], ["E5", "E5", "J9"]):
        t = board()
        t.set_islands(islands)
        t.set_pending(["Tales of More Treasure"])
        mark = t.mark()
        t.call("resolve_pending")
        assert t.st[S.N_ISLANDS] == 3
        assert not t.events(EV.ISLAND_PLACED, mark) and not t.events(EV.PLACE_SKULL, mark)
    t = plain(overrides={"max_islands": 5})
    t.set_islands(["E5", "J9", "A1"])
    t.set_pending(["Tales of More Treasure"])
    t.call("resolve_pending")
    assert t.st[S.N_ISLANDS] == 4


# --------------------------------------------------------------------------- Action cards
def test_broken_compass_both_modes_count_hands_after_playing():
    """Others with >= (or <=) as many cards as the player holds after playing it, Goods
    included, take a Debt (SOP-171..SOP-173)."""
    modes = set()
    for seed in range(40):
        t = board(seed)
        t.set_active(0)
        t.set_hand(0, ["Broken Compass", "good:blue", "good:green"])  # 2 cards once played
        t.set_hand(1, ["Three north"])  # fewer
        t.set_hand(2, ["Three east", "good:purple"])  # equal
        t.set_hand(3, ["Three south", "Three west", "Hurricane", "good:orange"])  # more
        mark = t.mark()
        t.call("play_phase", seat=0)
        (row,) = t.events(EV.BROKEN_COMPASS, mark)
        mode, mine = row[3], row[4]
        assert mine == 2 == len(t.hand(0))
        hit = [0, 0, 1, 1] if mode == 0 else [0, 1, 1, 0]
        assert t.seats[:, S.DEBT].tolist() == hit
        modes.add(mode)
    assert modes == {0, 1}


def test_cursed_treasure_hits_players_with_as_many_treasures_or_more():
    """SOP-175."""
    t = board()
    t.set_active(0)
    t.seats[:, S.TREASURES] = [1, 0, 1, 2]
    t.set_hand(0, ["Cursed Treasure"])
    t.call("play_phase", seat=0)
    assert t.seats[:, S.DEBT].tolist() == [0, 0, 1, 1]


def test_cursed_treasure_with_no_treasure_hits_everyone_else():
    """SOP-176."""
    t = board()
    t.set_active(1)
    t.seats[:, S.TREASURES] = [0, 0, 2, 1]
    t.set_hand(1, ["Cursed Treasure"])
    t.call("play_phase", seat=1)
    assert t.seats[:, S.DEBT].tolist() == [1, 0, 1, 1]


def _discard(t, seat, card_name_):
    card = t.set_hand(seat, [card_name_])[0]
    t.seats[seat, S.COMPASSES] = 0
    mark = t.mark()
    t.call("discard_phase", seat=seat)
    return card, mark


def test_hurricane_moves_other_ships_not_own_nor_pirates_then_bonus():
    """SOP-177..SOP-180."""
    t = board()
    t.set_active(1)
    t.set_hand(1, ["Hurricane"])
    t.call("play_phase", seat=1)
    ships = [int(t.pos[S.SHIP0 + k]) for k in range(4)]
    pirates = [int(t.pos[S.PIRATE0 + p]) for p in range(4)]
    card, mark = _discard(t, 1, "Three north")
    for k in (0, 2, 3):
        assert t.where("ship", k) == t.trace(card, ships[k])[-1]
    assert int(t.pos[S.SHIP0 + 1]) == ships[1]
    moves = t.events(EV.SHIP_MOVE, mark)
    assert [r[3] for r in moves] == [2, 3, 0]  # clockwise from the player's left (A19)
    (bonus,) = t.events(EV.PIRATE_MOVE, mark)
    p = bonus[3]
    assert t.where("pirate", p) == t.trace(card, pirates[p])[-1]
    assert all(int(t.pos[S.PIRATE0 + q]) == pirates[q] for q in range(4) if q != p)


def test_resupply_draws_three_then_one_non_good_to_the_deck_bottom():
    """SOP-182, SOP-183."""
    t = board()
    t.set_active(0)
    t.set_hand(0, ["Resupply", "good:blue"])
    top = t.stack_deck(["Three north", "Three east", "Three south"])
    deck_n = int(t.st[S.DECK_N])
    t.call("play_phase", seat=0)
    hand = t.hand(0)
    assert len(hand) == 3 and N_CARDS in hand  # the Good stays; 3 drawn, 1 returned
    bottom = int(t.deck[0])
    assert bottom in top and bottom not in hand
    assert sorted([c for c in hand if c < N_CARDS] + [bottom]) == sorted(top)
    assert t.st[S.DECK_N] == deck_n - 3 + 1


def test_resupply_event_among_the_draws_is_replaced_and_resolved():
    """A14/SOP-X20: an Event met while drawing is set aside, replaced, resolved after the play."""
    t = board()
    t.set_active(0)
    t.seats[:, S.COMPASSES] = 0
    t.set_hand(0, ["Resupply"])
    stacked = t.stack_deck(["Three north", "Magical Compass", "Three east", "Three south"])
    mark = t.mark()
    t.call("play_phase", seat=0)
    assert [r[3] for r in t.events(EV.BONUS_DRAW, mark)] == [stacked[0], stacked[2], stacked[3]]
    assert len(t.hand(0)) == 2
    assert t.seats[:, S.COMPASSES].tolist() == [1, 1, 1, 1]
    assert t.pile_top() == stacked[1]


def test_so_close_yet_so_far_moves_one_or_two_islands_like_ships():
    """SOP-184..SOP-187."""
    counts = set()
    for seed in range(40):
        t = board(seed)
        t.set_active(0)
        t.set_hand(0, ["So Close Yet So Far"])
        t.call("play_phase", seat=0)
        _, mark = _discard(t, 0, "Three east")
        moved = t.events(EV.ISLAND_MOVE, mark)
        assert 1 <= len(moved) <= 2
        counts.add(len(moved))
        expected = {"E5": "H5", "J9": "M9"}
        for r in moved:
            assert (r[4], r[5]) in {(sq(a), sq(b)) for a, b in expected.items()}
        still = {sq(a) for a in expected} - {r[4] for r in moved}
        assert sorted(t.islands()) == sorted([name_of(r[5]) for r in moved] + [name_of(s) for s in still])
        codes = t.codes(mark)
        assert codes.index(EV.PIRATE_MOVE) > max(i for i, c in enumerate(codes) if c == EV.ISLAND_MOVE)
    assert counts == {1, 2}


def test_so_close_yet_so_far_may_move_any_two_of_three_islands():
    """SOP-184: with three Treasure Islands on the board, a random seat moves one island or any
    two of them (each pair and each single island comes up over the seeds)."""
    three = BOARD.replace("   9  .........T...", "   9  ..T......T...")
    seen = set()
    for seed in range(60):
        t = board(seed)
        t.layout(three)
        t.set_active(0)
        t.set_hand(0, ["So Close Yet So Far"])
        t.call("play_phase", seat=0)
        _, mark = _discard(t, 0, "Three east")
        seen.add(frozenset(name_of(r[4]) for r in t.events(EV.ISLAND_MOVE, mark)))
    islands = ("E5", "C9", "J9")
    assert seen == {frozenset(c) for c in combinations(islands, 1)} | {frozenset(c) for c in combinations(islands, 2)}


def test_trouble_at_sea_moves_every_pirate_then_the_bonus_pirate_again():
    """SOP-188, SOP-189."""
    t = board()
    t.set_active(0)
    t.set_hand(0, ["Trouble at Sea"])
    t.call("play_phase", seat=0)
    pirates = [int(t.pos[S.PIRATE0 + p]) for p in range(4)]
    card, mark = _discard(t, 0, "Three north")
    moves = t.events(EV.PIRATE_MOVE, mark)
    assert len(moves) == 5 and [r[3] for r in moves[:4]] == [0, 1, 2, 3]
    bonus = moves[4][3]
    for p in range(4):
        once = t.trace(card, pirates[p])[-1]
        expected = t.trace(card, once)[-1] if p == bonus else once
        assert t.where("pirate", p) == expected


def test_uncharted_waters_draw_one_play_two_more_end_one_card_down():
    """SOP-190..SOP-193: over the whole turn the hand ends one card smaller."""
    found = 0
    for seed in range(60):
        t = plain(seed=seed)
        t.layout("""
              ABCDEFGHIJKLM
           7  ......0......
        """, clear_ports=True)
        for p in range(4):
            t.put("pirate", p, "A1")  # out of reach of every move below
        t.set_active(0)
        t.set_hand(0, ["Uncharted Waters", "Three north", "Three east"])
        t.set_pile_top("Three south")
        t.stack_deck(["Three west", "Two north-east", "Two south-east", "Two south-west"])
        t.seats[0, S.COMPASSES] = 0
        start = len(t.hand(0))
        mark = t.mark()
        t.take_turn(0)
        plays = t.events(EV.PLAY, mark)
        if card_name(plays[0][3]) != "Uncharted Waters":
            continue
        found += 1
        assert len(plays) == 3 and len(t.events(EV.DISCARD, mark)) == 1
        codes = t.codes(mark)
        first_play = codes.index(EV.PLAY)
        assert codes[first_play + 1] == EV.BONUS_DRAW  # the draw comes before the extra plays
        assert len(t.hand(0)) == start - 1
    assert found >= 5


def test_uncharted_waters_skips_a_play_the_hand_cannot_make():
    """A31: with too few cards, the missing play is skipped."""
    t = board()
    t.set_active(0)
    t.set_hand(0, ["Uncharted Waters", "good:blue"])
    t.stack_deck(["Three north"])
    t.seats[0, S.COMPASSES] = 0
    mark = t.mark()
    t.call("play_phase", seat=0)
    assert len(t.events(EV.PLAY, mark)) == 2 and len(t.events(EV.NO_PLAY, mark)) == 1
    assert t.hand(0) == [N_CARDS]


def test_discarded_action_moves_a_pirate_one_step_and_does_nothing_else():
    """SOP-049, SOP-060; A7: a discarded Action is a four-X one-step map, its text inert."""
    for seed in range(10):
        t = board(seed)
        t.set_active(0)
        pirates = [int(t.pos[S.PIRATE0 + p]) for p in range(4)]
        debts = t.seats[:, S.DEBT].tolist()
        card, mark = _discard(t, 0, "Cursed Treasure")
        assert kind_of(card) == S.ACTION
        (move,) = t.events(EV.PIRATE_MOVE, mark)
        assert int(t.dist[pirates[move[3]], move[5]]) == 1
        assert t.seats[:, S.DEBT].tolist() == debts
        assert not t.events(EV.BROKEN_COMPASS, mark)


def test_card_catalogue_matches_the_register():
    """A5: 68 cards: 38 Map (19 designs x 2), 8 Port, 14 Action (7 x 2), 4 Events (1 each)."""
    from .harness import COMP

    kinds = Counter(c.kind for c in COMP.cards)
    assert (kinds[S.MAP], kinds[S.PORT_CARD], kinds[S.ACTION], kinds[S.EVENT]) == (38, 8, 14, 4)
    assert len({c.name for c in COMP.cards if c.kind == S.MAP}) == 19
    assert {c.name for c in COMP.cards if c.kind == S.EVENT} == {
        "Cargo Adrift", "Magical Compass", "Parting Storms", "Tales of More Treasure"}
    assert all(len(card_ids(n)) == 2 for n in ("Rabakin", "Grayseo", "Izarea", "Morrosa"))
    multi = {c.name for c in COMP.cards if c.kind == S.MAP and len(c.paths) > 1}
    assert len(multi) == 4
    assert all(1 <= len(p) <= 5 for c in COMP.cards if c.kind == S.MAP for p in c.paths)


def test_hurricane_note_co_located_ship_and_pirate_meet_again():
    """SOP-181/SOP-X19: a ship and a pirate sharing a square, moved by the same single-X discard
    (Hurricane, then the Discard Bonus), meet again."""
    met = 0
    for seed in range(40):
        t = board(seed)
        t.put("pirate", 0, "F7")  # on ship 1
        t.set_hand(1, [])
        t.set_active(0)
        t.set_hand(0, ["Hurricane"])
        t.call("play_phase", seat=0)
        _, mark = _discard(t, 0, "Three north")
        if t.events(EV.PIRATE_MOVE, mark)[0][3] != 0:
            continue
        met += 1
        assert t.where("ship", 1) == t.where("pirate", 0) == "F4"
        assert t.seats[1, S.DEBT] == 1  # no Goods: the meeting costs a Debt
    assert met


RESUPPLY_HANDS = [
    ["Three north", "Three east", "Three south"],
    ["good:blue", "Three east", "Three north"],
    ["Resupply", "Three north", "Three east", "good:green"],
    ["Three south", "Three south", "Three west"],
]


@pytest.mark.parametrize("names", RESUPPLY_HANDS)
def test_the_heuristic_returns_its_plainest_card_the_first_of_equals(names):
    """Resupply (SOP-183) as the heuristic plays it: the non-Goods card with the lowest value (1 +
    0.2 per path option, + 1 unless a map card) goes to the deck bottom, the first in hand of
    equal ones; Goods stay in hand."""
    t = plain(strategies="collector")
    t.set_hand(0, names)
    hand = t.hand(0)

    def value(card):
        row = t.K[S.CARD0 + card]
        return 1.0 + 0.2 * row[S.CI_NOPT] + (1.0 if row[S.CI_KIND] != S.MAP else 0.0)

    plain_cards = [c for c in hand if c < N_CARDS]
    expected = min(plain_cards, key=value)  # min keeps the first of equals
    deck_n = int(t.st[S.DECK_N])
    t.call("resupply_bottom", seat=0)
    assert int(t.deck[0]) == expected and t.st[S.DECK_N] == deck_n + 1
    left = list(hand)
    left.remove(expected)
    assert t.hand(0) == left
    if names == RESUPPLY_HANDS[0]:  # three map cards of one value: the tie is what this hand tests
        assert len({value(c) for c in plain_cards}) == 1 and expected == hand[0]
