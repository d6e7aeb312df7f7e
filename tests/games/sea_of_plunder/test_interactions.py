"""Possible Interactions, placing Treasure Islands, and the Magical Compass, on hand-built
positions (ASCII boards: digits = ships, p = pirates, T = Treasure Islands, R G I M = ports)."""

from __future__ import annotations

from simkit.games.sea_of_plunder import engine
from simkit.games.sea_of_plunder.events import card_name

from .harness import EV, S, card_ids, plain, sq

BOARD = """
      ABCDEFGHIJKLM
   1  p..p.........
   5  ......1......
   6  ......T......
   7  ......0......
  13  p..p.........
"""


def table(seed=1, board=BOARD, **kw):
    t = plain(seed=seed, **kw)
    t.layout(board)
    t.set_active(0)
    return t


def draws_for(t, seat, mark=0):
    """Cards drawn by `seat` as interaction rewards (placement-roll draws left out)."""
    placed = len([r for r in t.events(EV.PLACE_ON_SHIP, mark) if r[4] == seat])
    return len([r for r in t.events(EV.BONUS_DRAW, mark) if r[1] == seat]) - placed


# --------------------------------------------------------------------------- Treasure Islands
def test_passing_over_a_treasure_island_pays_a_treasure_only():
    """SOP-096, SOP-105, SOP-106."""
    t = table()
    t.put("ship", 1, None)
    t.sail_ship(0, ["G6", "G5", "G4"])
    assert t.seats[0, S.TREASURES] == 1 and draws_for(t, 0) == 0
    assert t.st[S.N_ISLANDS] == 1 and len(t.events(EV.ISLAND_PLACED)) == 1
    codes = t.codes()
    assert codes.index(EV.TREASURE) < codes.index(EV.ISLAND_PLACED) < codes.index(EV.SHIP_MOVE)


def test_landing_on_a_treasure_island_pays_a_treasure_and_a_card():
    """SOP-097."""
    t = table()
    hand = len(t.hand(0))
    t.sail_ship(0, ["G6"])
    assert t.seats[0, S.TREASURES] == 1 and draws_for(t, 0) == 1
    assert len(t.hand(0)) == hand + 1 + len([r for r in t.events(EV.PLACE_ON_SHIP) if r[4] == 0])


def test_island_moving_onto_a_ship_pays_like_a_landing():
    """SOP-096/SOP-097 ('a Treasure Island lands on you'); A49: it stops at the first ship."""
    t = table()
    t.put("ship", 1, None)
    t.set_islands(["G4"])
    t.drift_island(0, ["G5", "G6", "G7"])  # lands on ship 0 at G7
    assert t.seats[0, S.TREASURES] == 1 and draws_for(t, 0) == 1
    t = table()
    t.put("ship", 1, None)
    t.set_islands(["G4"])
    t.drift_island(0, ["G5", "G6", "G7", "G8"])  # passes over ship 0 and stops there
    assert t.seats[0, S.TREASURES] == 1 and draws_for(t, 0) == 0
    assert t.events(EV.ISLAND_MOVE)[0][5] == sq("G7")


def test_pirate_collects_a_treasure_island_for_the_dish():
    """SOP-104, SOP-108, SOP-125."""
    t = table()
    t.put("pirate", 0, "G8")
    t.put("ship", 0, None)
    t.sail_pirate(0, ["G7", "G6", "G5"])
    first = t.events(EV.TREASURE)[0]
    assert first[3] == -1 and first[4] == sq("G6")  # a = -1: the pirate dish
    assert t.st[S.PIRATE_TREASURES] == 1 + len(t.events(EV.PLACE_SKULL)) + len(t.events(EV.PLACE_ON_PIRATE))
    assert t.seats[:, S.TREASURES].tolist() == [0, 0, 0, 0]
    assert t.st[S.N_ISLANDS] == 1 and len(t.events(EV.ISLAND_PLACED)) == 1


def test_stacked_islands_each_pay():
    """A26: two tokens on one square pay two Treasures and are both replaced."""
    t = table()
    t.set_islands(["G6", "G6"])
    t.put("ship", 1, None)
    t.sail_ship(0, ["G6", "G5"])
    assert t.seats[0, S.TREASURES] == 2 and len(t.events(EV.ISLAND_PLACED)) == 2


# --------------------------------------------------------------------------- other ships
def test_passing_a_ship_on_your_turn_draws_landing_steals():
    """SOP-098, SOP-099."""
    t = table()
    t.set_islands([])
    victim = t.set_hand(1, ["Three north", "Three east"])
    t.sail_ship(0, ["G6", "G5", "G4"])  # passes ship 1
    assert draws_for(t, 0) == 1 and not t.events(EV.STEAL)
    t = table()
    t.set_islands([])
    victim = t.set_hand(1, ["Three north", "Three east"])
    t.sail_ship(0, ["G6", "G5"])  # lands on ship 1
    (steal,) = t.events(EV.STEAL)
    assert steal[3] == 1 and steal[4] in victim and steal[4] in t.hand(0)
    assert draws_for(t, 0) == 0 and len(t.hand(1)) == 1


def test_landing_steal_is_random():
    """SOP-099: over seeds, both cards of the victim get taken."""
    taken = set()
    for seed in range(30):
        t = table(seed)
        t.set_islands([])
        t.set_hand(1, ["Three north", "Three east"])
        t.sail_ship(0, ["G6", "G5"])
        taken.add(card_name(t.events(EV.STEAL)[0][4]))
    assert len(taken) == 2


def test_no_reward_for_ship_contact_outside_your_turn():
    """SOP-100: moved on someone else's turn (e.g. by Hurricane), no draw, no steal."""
    for path in (["G6", "G5"], ["G6", "G5", "G4"]):
        t = table()
        t.set_islands([])
        t.set_active(2)
        t.sail_ship(0, path)
        assert draws_for(t, 0) == 0 and not t.events(EV.STEAL)


def test_one_reward_per_ship_met():
    """A18: two ships on the square landed on: two steals."""
    t = table()
    t.set_islands([])
    t.put("ship", 2, "G5")
    t.sail_ship(0, ["G6", "G5"])
    assert sorted(r[3] for r in t.events(EV.STEAL)) == [1, 2]


# --------------------------------------------------------------------------- pirates
PIRATE_BOARD = """
      ABCDEFGHIJKLM
   1  p..p.........
   5  ......p......
   7  ......0......
  13  p............
"""


def test_pirate_contact_bribe_returns_the_chosen_good_to_its_stack():
    """SOP-101, SOP-120, SOP-121, SOP-074: the contacted player picks which Good."""
    chosen = set()
    for seed in range(30):
        t = table(seed, PIRATE_BOARD)
        t.set_hand(0, ["good:blue", "good:green", "Three north"])
        stock = [t.stock(c) for c in ("blue", "green")]
        t.sail_ship(0, ["G6", "G5"])
        (bribe,) = t.events(EV.BRIBE)
        colour = bribe[3]
        chosen.add(colour)
        assert t.goods(0)[colour] == 0 and sum(t.goods(0)) == 1
        assert t.stock(("blue", "green")[colour]) == stock[colour] + 1
        assert t.seats[0, S.DEBT] == 0
    assert chosen == {0, 1}
    # a heuristic player hands over the Good whose loss costs fewest set points
    t = table(1, PIRATE_BOARD, strategies="collector")
    t.set_hand(0, ["good:blue", "good:blue", "good:green"])
    t.sail_ship(0, ["G6", "G5"])
    assert t.events(EV.BRIBE)[0][3] == 0 and t.goods(0)[:2] == [1, 1]


def test_pirate_contact_without_goods_gives_debt():
    """SOP-102, SOP-122, SOP-123."""
    t = table(1, PIRATE_BOARD)
    t.set_hand(0, ["Three north"])
    t.sail_ship(0, ["G6", "G5", "G4"])  # a pass-over counts too
    assert t.seats[0, S.DEBT] == 1 and len(t.events(EV.DEBT)) == 1 and not t.events(EV.BRIBE)


def test_one_bribe_per_pirate():
    """A17: two pirates on the square: two bribes (then a Debt when the Goods run out)."""
    t = table(1, PIRATE_BOARD)
    t.put("pirate", 1, "G5")
    t.set_hand(0, ["good:blue"])
    t.sail_ship(0, ["G6", "G5"])
    assert len(t.events(EV.BRIBE)) == 1 and t.seats[0, S.DEBT] == 1


def test_pirate_moving_onto_or_over_a_ship_is_a_contact():
    """SOP-119; A39 (pirate_pass_over)."""
    t = table(1, PIRATE_BOARD)
    t.set_hand(0, [])
    t.sail_pirate(2, ["G6", "G7"])  # lands on ship 0
    assert t.seats[0, S.DEBT] == 1
    t = table(1, PIRATE_BOARD)
    t.set_hand(0, [])
    t.sail_pirate(2, ["G6", "G7", "G8"])  # passes over
    assert t.seats[0, S.DEBT] == 1
    t = table(1, PIRATE_BOARD, overrides={"pirate_pass_over": False})
    t.set_hand(0, [])
    t.sail_pirate(2, ["G6", "G7", "G8"])
    assert t.seats[0, S.DEBT] == 0


def test_pirate_contact_happens_on_other_players_turns():
    """SOP-119: a Hurricane-moved ship meeting a pirate pays on the active player's turn."""
    t = table(1, PIRATE_BOARD)
    t.set_active(1)
    t.set_hand(0, ["good:orange"])
    t.sail_ship(0, ["G6", "G5"])
    assert len(t.events(EV.BRIBE)) == 1


# --------------------------------------------------------------------------- ports
PORT_BOARD = """
      ABCDEFGHIJKLM
   1  p..p.........
   2  ......R......
   3  ......0......
  13  p............
"""


def test_port_pass_and_land_give_its_good():
    """SOP-063, SOP-064, SOP-103."""
    for path in (["G2"], ["G2", "G1"]):
        t = table(1, PORT_BOARD)
        blue = t.goods(0)[0]
        stock = t.stock("blue")
        t.sail_ship(0, path)
        assert t.goods(0)[0] == blue + 1 and t.stock("blue") == stock - 1


def test_no_good_from_a_port_with_a_pirate():
    """SOP-048; A44: blocked, and the pirate still meets the ship."""
    t = table(1, PORT_BOARD)
    t.put("pirate", 1, "G2")
    t.set_hand(0, [])
    t.sail_ship(0, ["G2"])
    assert not t.events(EV.GOOD) and t.seats[0, S.DEBT] == 1


def test_no_good_from_an_empty_stack_until_a_bribe_refills_it():
    """SOP-067, SOP-068, SOP-074."""
    t = table(1, PORT_BOARD)
    t.set_hand(0, [])
    t.set_hand(1, ["good:blue"])
    t.set_stock("blue", 0)
    t.sail_ship(0, ["G2"])
    assert not t.events(EV.GOOD) and t.goods(0) == [0, 0, 0, 0]
    t.put("ship", 1, "K4")
    t.put("pirate", 1, "K6")
    t.sail_pirate(1, ["K5", "K4"])  # seat 1 must bribe with its only Good, the blue one
    assert t.stock("blue") == 1
    t.sail_ship(0, ["G1", "G2"])
    assert [r[3] for r in t.events(EV.GOOD)] == [0] and t.goods(0)[0] == 1


def test_simultaneous_port_arrivals_served_in_turn_order_from_the_active_player():
    """SOP-069, SOP-070: Hurricane sends every other ship to Rabakin; one blue Good left goes
    to the first of them in turn order after the active player (A19)."""
    t = plain(seed=3)
    t.layout("""
          ABCDEFGHIJKLM
       3  .p.........p.
       7  ..0..1..2..3.
      11  .p.........p.
    """)
    t.set_active(2)
    t.set_hand(2, ["Hurricane"])
    t.call("play_phase", seat=2)
    t.set_hand(2, ["Rabakin"])
    t.set_stock("blue", 1)
    mark = t.mark()
    t.call("discard_phase", seat=2)
    assert [t.where("ship", k) for k in (0, 1, 3)] == ["G2"] * 3
    assert [(r[1], r[3]) for r in t.events(EV.GOOD, mark)] == [(3, 0)]
    t.set_stock("blue", 3)
    t.layout("""
          ABCDEFGHIJKLM
       3  .p.........p.
       7  ..0..1..2..3.
      11  .p.........p.
    """)
    t.set_hand(2, ["Hurricane"])
    t.set_active(2)
    t.call("play_phase", seat=2)
    t.set_hand(2, ["Rabakin"])
    mark = t.mark()
    t.call("discard_phase", seat=2)
    assert [r[1] for r in t.events(EV.GOOD, mark)] == [3, 0, 1]  # each arrival collects


def test_port_card_goes_straight_to_the_port_touching_nothing():
    """SOP-038..SOP-040, SOP-082, SOP-083."""
    t = plain()
    t.layout("""
          ABCDEFGHIJKLM
       1  p..p.........
       3  ......T......
       4  ......p......
       5  ......1......
       7  ......0......
      13  p............
    """)
    t.set_active(0)
    t.set_hand(0, ["Rabakin"])
    t.set_hand(1, ["Three north"])
    t.put("ship", 2, "G2")
    t.set_hand(2, ["Three east"])
    debt = int(t.seats[0, S.DEBT])
    t.call("play_phase", seat=0)
    assert t.where("ship", 0) == "G2"
    assert t.seats[0, S.TREASURES] == 0 and t.seats[0, S.DEBT] == debt  # nothing on the way
    assert [r[3] for r in t.events(EV.STEAL)] == [2]  # but the ship already at the port
    assert [r[3] for r in t.events(EV.GOOD)] == [0]


def test_port_card_discard_sends_a_pirate_straight_there():
    """SOP-047: the pirate goes directly, meeting nothing on the way."""
    t = plain()
    t.layout("""
          ABCDEFGHIJKLM
       1  p..p.........
       4  ......p......
       5  ......0......
      13  p............
    """)
    t.set_active(1)
    t.set_hand(0, [])
    t.set_hand(1, ["Rabakin"])
    t.call("discard_phase", seat=1)
    (move,) = t.events(EV.PIRATE_MOVE)
    assert move[5] == sq("G2") and t.seats[0, S.DEBT] == 0


# --------------------------------------------------------------------------- placing islands
def _placement_checks(t, calls):
    seen = {EV.PLACE_SKULL: 0, EV.PLACE_ON_PIRATE: 0, EV.PLACE_ON_SHIP: 0, "stacked": 0}
    pirates_at = {int(t.pos[S.PIRATE0 + p]) for p in range(4)}
    ships_at = {int(t.pos[S.SHIP0 + k]): int(t.ship_owner[k]) for k in range(4)}
    ports_at = {int(t.pos[S.PORT0 + c]) for c in range(4)}
    for _ in range(calls):
        t.set_islands(["A1"])
        before = (int(t.st[S.PIRATE_TREASURES]), [len(t.hand(s)) for s in range(4)], t.seats[:, S.TREASURES].copy())
        mark = t.mark()
        t.call("place_island")
        rows = t.events(None, mark)
        skulls = [r for r in rows if r[2] == EV.PLACE_SKULL]
        on_pirate = [r for r in rows if r[2] == EV.PLACE_ON_PIRATE]
        on_ship = [r for r in rows if r[2] == EV.PLACE_ON_SHIP]
        (placed,) = [r for r in rows if r[2] == EV.ISLAND_PLACED]
        # skull or pirate square: the pirates gain a Treasure and the dice are rolled again
        assert int(t.st[S.PIRATE_TREASURES]) - before[0] == len(skulls) + len(on_pirate)
        assert all(r[3] in pirates_at for r in on_pirate)
        # a ship's square: that player draws, no Treasure, reroll
        for s in range(4):
            assert len(t.hand(s)) - before[1][s] == len([r for r in on_ship if r[4] == s])
        assert (t.seats[:, S.TREASURES] == before[2]).all()
        square = placed[3]
        assert square not in pirates_at and square not in ships_at
        assert t.st[S.N_ISLANDS] == 2 and sq(t.islands()[0]) in (square, sq("A1"))
        if square in ports_at or square == sq("A1"):
            seen["stacked"] += 1
            assert placed[4] == (1 if square == sq("A1") else 0)
        for key in (EV.PLACE_SKULL, EV.PLACE_ON_PIRATE, EV.PLACE_ON_SHIP):
            seen[key] += len([r for r in rows if r[2] == key])
        t.st[S.PIRATE_TREASURES] = 0
        for s in range(4):
            t.set_hand(s, [])
    return seen


def test_placement_rules():
    """SOP-112..SOP-118: skull, pirate square and ship square reroll; islands and ports stack."""
    t = plain(seed=11)
    t.layout("""
          ABCDEFGHIJKLM
       2  ..0..p..1..p.
       6  ..p..2..p..3.
    """)
    seen = _placement_checks(t, 1500)
    assert all(v > 0 for v in seen.values()), seen


def test_placement_on_a_pirate_and_a_ship_pays_the_pirates_only():
    """A41: pirate rule first; the player does not draw."""
    t = plain(seed=12)
    t.layout("""
          ABCDEFGHIJKLM
       2  ..p..p..p..p.
    """)
    for k, s in enumerate(("C2", "F2", "I2", "L2")):
        t.put("ship", k, s)
    hits = 0
    for _ in range(1500):
        t.set_islands(["A1"])
        mark = t.mark()
        t.call("place_island")
        assert not t.events(EV.PLACE_ON_SHIP, mark)
        hits += len(t.events(EV.PLACE_ON_PIRATE, mark))
    assert hits > 0


def test_replacement_island_on_the_rest_of_the_path_is_met():
    """A40: a replacement island placed further along the moving ship's path is collected."""
    found = 0
    for seed in range(3000):
        t = plain(seed=seed)
        t.layout("""
              ABCDEFGHIJKLM
           1  p..p.........
           7  ......0T.....
          13  p..p.........
        """)
        t.set_active(0)
        t.sail_ship(0, ["H7", "I7", "J7", "K7", "L7"])
        placed = [r[3] for r in t.events(EV.ISLAND_PLACED)]
        if placed and placed[0] in {sq(x) for x in ("I7", "J7", "K7")}:
            found += 1
            assert t.seats[0, S.TREASURES] == 2
        if found >= 2:
            break
    assert found


# --------------------------------------------------------------------------- Magical Compass
def _rows(t, n):
    return [tuple(int(x) for x in t.buf[engine.CAND0 + i, :5]) for i in range(n)]


def test_compass_offers_every_quarter_turn_and_costs_a_token():
    """SOP-086, SOP-088..SOP-092, SOP-076."""
    t = plain()
    t.set_active(0)
    t.set_hand(0, ["Three north"])
    t.seats[0, S.COMPASSES] = 0
    assert [(r[3], r[4]) for r in _rows(t, t.call("list_plays", seat=0))] == [(0, 0)]
    t.seats[0, S.COMPASSES] = 1
    assert sorted((r[3], r[4]) for r in _rows(t, t.call("list_plays", seat=0))) == [(0, 0), (1, 1), (2, 1), (3, 1)]
    north = card_ids("Three north")[0]
    assert t.trace(north, "G7", rotation=1) == ["H7", "I7", "J7"]
    assert t.trace(north, "G7", rotation=2) == ["G8", "G9", "G10"]
    assert t.trace(north, "G7", rotation=3) == ["F7", "E7", "D7"]
    ne = card_ids("Two north-east")[0]
    assert t.trace(ne, "G7", rotation=1) == ["H8", "I9"]  # a quarter turn, never 45 degrees
    # discards offer the same turns (with each pirate)
    n = t.call("list_discards", seat=0)
    assert sorted({(r[3], r[4]) for r in _rows(t, n)}) == [(0, 0), (1, 1), (2, 1), (3, 1)]
    assert {r[1] for r in _rows(t, n)} == {0, 1, 2, 3}


def test_compass_has_no_effect_on_multi_option_cards():
    """SOP-087: a multi-X card (or a discarded Action) is never offered turned."""
    t = plain()
    t.set_active(0)
    t.seats[0, S.COMPASSES] = 2
    for card in ("Compass rose", "Fork east or west"):
        t.set_hand(0, [card])
        rows = _rows(t, t.call("list_plays", seat=0))
        assert all(r[3] == 0 and r[4] == 0 for r in rows)
        assert sorted(r[2] for r in rows) == list(range(len(rows)))
        rows = _rows(t, t.call("list_discards", seat=0))
        assert all(r[3] == 0 and r[4] == 0 for r in rows)
    t.set_hand(0, ["Hurricane"])
    rows = _rows(t, t.call("list_discards", seat=0))
    assert all(r[3] == 0 and r[4] == 0 for r in rows) and {r[2] for r in rows} == {0, 1, 2, 3}


def test_one_token_per_card_two_for_play_and_discard():
    """SOP-089, SOP-092, SOP-093."""
    for seed in range(300):
        t = plain(seed=seed)
        t.layout(BOARD)
        t.set_active(0)
        t.seats[0, S.COMPASSES] = 2
        t.set_hand(0, ["Three north"])
        mark = t.mark()
        t.call("play_phase", seat=0)
        t.set_hand(0, ["Three east"])
        t.call("discard_phase", seat=0)
        play, discard = t.events(EV.PLAY, mark)[0], t.events(EV.DISCARD, mark)[0]
        spent = (play[5] >> 4) + (discard[5] >> 4)
        assert len(t.events(EV.COMPASS, mark)) == spent == 2 - int(t.seats[0, S.COMPASSES])
        if spent == 2:
            return
    raise AssertionError("never spent on both")


# --------------------------------------------------------------------------- several things on a square
def test_island_stacked_on_a_port_gives_both_effects():
    """SOP-117, SOP-118."""
    t = table(1, PORT_BOARD)
    t.set_islands(["G2"])
    blue = t.goods(0)[0]
    t.sail_ship(0, ["G2"])
    assert t.seats[0, S.TREASURES] == 1 and draws_for(t, 0) == 1 and t.goods(0)[0] == blue + 1


def test_order_on_one_square_islands_port_pirates_ships():
    """A16: Treasure Islands, then the port, then pirates, then other ships."""
    t = table(1, PORT_BOARD)
    t.set_islands(["G2"])
    t.put("ship", 1, "G2")
    t.set_hand(1, ["Three north"])
    t.sail_ship(0, ["G2"])
    codes = [c for c in t.codes() if c in (EV.TREASURE, EV.GOOD, EV.STEAL)]
    assert codes[0] == EV.TREASURE and codes.index(EV.GOOD) < codes.index(EV.STEAL)
    t = table(1, PIRATE_BOARD)
    t.set_islands(["G5"])
    t.put("ship", 1, "G5")
    t.set_hand(0, [])
    t.set_hand(1, ["Three north"])
    t.sail_ship(0, ["G6", "G5"])
    codes = [c for c in t.codes() if c in (EV.TREASURE, EV.DEBT, EV.STEAL)]
    assert codes.index(EV.TREASURE) < codes.index(EV.DEBT) < codes.index(EV.STEAL)
