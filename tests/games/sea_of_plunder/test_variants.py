"""Set-up, the Two Player Variant, the Random Setup Variant and the Combo Port Island Module."""

from __future__ import annotations

import itertools

from simkit.games.sea_of_plunder import engine

from .harness import COMP, EV, N_CARDS, S, Table, name_of, plain, play_game, sq

PORTS = {"Rabakin": "G2", "Grayseo": "L7", "Izarea": "G12", "Morrosa": "B7"}


# --------------------------------------------------------------------------- standard set-up
def test_standard_board_and_starting_positions():
    """SOP-002, SOP-003, SOP-009..SOP-011, SOP-023; A1..A3."""
    assert [name_of(s) for s in COMP.port_squares] == list(PORTS.values())
    assert list(COMP.ports) == list(PORTS)
    for players in (2, 3, 4):
        t = plain(players=players)
        assert sorted(t.where("pirate", p) for p in range(4)) == ["D10", "D4", "J10", "J4"]
        assert t.islands() == ["G7"]
        islands = {2: [0, 2], 3: [0, 1, 2], 4: [0, 1, 2, 3]}[players]
        assert t.st[S.N_SHIPS] == players
        for s in range(players):
            assert t.where("ship", s) == list(PORTS.values())[islands[s]]
            assert t.goods(s) == [1 if c == islands[s] else 0 for c in range(4)]  # SOP-007
            assert t.seats[s, S.COMPASSES] == 1  # SOP-006
        assert t.goods_total() == [4, 4, 4, 4]  # SOP-004, SOP-065
        assert len({t.where("ship", s) for s in range(players)}) == players  # one colour each (SOP-002)
        # supplies start full: nobody holds Treasure or Debt, the pirate dish is empty (SOP-012)
        assert not t.seats[:, S.TREASURES].any() and not t.seats[:, S.DEBT].any()
        assert t.st[S.PIRATE_TREASURES] == 0


def test_powers_dealt_one_each_and_vary_with_the_seed():
    """SOP-005, SOP-194: one of eight powers per seat, all different, dealt at random."""
    deals = set()
    for seed in range(30):
        t = Table(players=4, seed=seed)
        powers = t.seats[:4, S.POWER].tolist()
        assert len(set(powers)) == 4 and all(0 <= p < S.N_POWERS for p in powers)
        deals.add(tuple(powers))
    assert len(deals) > 20
    t = plain()
    assert (t.seats[:, S.POWER] == -1).all()  # player_powers=false


# --------------------------------------------------------------------------- two players
def test_two_player_setup_four_ships_seven_cards():
    """SOP-143..SOP-147; A27."""
    t = plain(players=2, variant="two_player")
    assert t.st[S.N_SHIPS] == 4 and t.ship_owner.tolist() == [0, 1, 0, 1]
    assert [t.where("ship", k) for k in range(4)] == ["G2", "L7", "G12", "B7"]
    assert t.goods(0) == [1, 0, 1, 0] and t.goods(1) == [0, 1, 0, 1]
    for s in (0, 1):
        assert len(t.hand(s)) == 7 and len([c for c in t.hand(s) if c < N_CARDS]) == 5
        assert t.seats[s, S.COMPASSES] == 1


def test_two_player_own_ships_never_interact():
    """SOP-150."""
    t = plain(players=2, variant="two_player")
    t.layout("""
          ABCDEFGHIJKLM
       1  p..p.........
       5  ......2......
       6  ......3......
       7  ......0......
      13  p..p.........
    """)
    t.put("ship", 1, "H5")
    t.set_active(0)
    t.sail_ship(0, ["G6", "G5"])  # passes seat 1's ship 3, lands on own ship 2
    assert len(t.events(EV.BONUS_DRAW)) == 1 and not t.events(EV.STEAL)
    t.sail_ship(0, ["H5"])  # lands on seat 1's ship 1
    assert [r[3] for r in t.events(EV.STEAL)] == [1]


def test_two_player_either_ship_but_one_per_turn():
    """SOP-148, SOP-149; A27: both ships offered until one moves; then it is bound."""
    t = plain(players=2, variant="two_player")
    t.set_active(0)
    t.set_hand(0, ["Three north"])
    t.seats[0, S.COMPASSES] = 0
    n = t.call("list_plays", seat=0)
    assert sorted(int(t.buf[engine.CAND0 + i, 1]) for i in range(n)) == [0, 2]
    t.st[S.ACTIVE_SHIP] = 2
    n = t.call("list_plays", seat=0)
    assert [int(t.buf[engine.CAND0 + i, 1]) for i in range(n)] == [2]
    used = {0: set(), 1: set()}
    for seed in range(8):
        t = Table(players=2, variant="two_player", seed=seed)
        play_game(t)
        rows = t.rows()
        turns = [i for i, r in enumerate(rows) if r[2] == EV.TURN] + [len(rows)]
        for a, b in itertools.pairwise(turns):
            seat = rows[a][1]
            own = {r[3] for r in rows[a:b] if r[2] == EV.SHIP_MOVE and t.ship_owner[r[3]] == seat}
            assert len(own) <= 1
            used[seat] |= own
    assert used == {0: {0, 2}, 1: {1, 3}}


def test_two_player_hurricane_moves_both_opponent_ships():
    """A27/SOP-X11."""
    t = plain(players=2, variant="two_player")
    t.layout("""
          ABCDEFGHIJKLM
       3  .p.........p.
       7  ..0..1..2..3.
      11  .p.........p.
    """)
    t.set_active(0)
    t.set_hand(0, ["Hurricane"])
    t.call("play_phase", seat=0)
    t.set_hand(0, ["Three south"])
    t.seats[0, S.COMPASSES] = 0
    t.call("discard_phase", seat=0)
    assert [t.where("ship", k) for k in range(4)] == ["C7", "F10", "I7", "L10"]


def test_plain_two_player_game_sails_one_ship_each():
    """A4: two players without the variant."""
    t = plain(players=2)
    assert t.st[S.N_SHIPS] == 2 and [t.where("ship", k) for k in range(2)] == ["G2", "G12"]


# --------------------------------------------------------------------------- random set-up
def test_random_setup_places_ports_and_pirates_on_distinct_free_squares():
    """SOP-152..SOP-156; A23."""
    layouts = set()
    for seed in range(80):
        t = Table(players=4, variant="random_setup", seed=seed)
        ports = [int(t.pos[S.PORT0 + c]) for c in range(4)]
        pirates = [int(t.pos[S.PIRATE0 + p]) for p in range(4)]
        assert len(set(ports + pirates + [sq("G7")])) == 9
        assert t.islands() == ["G7"]
        for k in range(4):
            assert int(t.pos[S.SHIP0 + k]) == ports[k]  # ship on its own (moved) island
        layouts.add(tuple(ports + pirates))
    assert len(layouts) == 80


# --------------------------------------------------------------------------- combo port
def combo_table(seed=1, **kw):
    t = plain(seed=seed, variant="combo_port", **kw)
    t.layout("""
          ABCDEFGHIJKLM
       1  p..p.........
       5  ......C......
       7  ......0......
      13  p..p.........
    """)
    t.set_active(0)
    return t


def test_combo_port_set_up_on_a_free_square():
    """SOP-157, SOP-158; A24."""
    for variant in ("combo_port", "random_setup+combo_port", "two_player+combo_port"):
        for seed in range(20):
            t = Table(players=2 if "two" in variant else 4, variant=variant, seed=seed)
            combo = int(t.pos[S.COMBO])
            others = [int(t.pos[i]) for i in range(S.COMBO)] + [int(t.pos[S.ISLAND0])]
            assert 0 <= combo < S.SQUARES and combo not in others


def test_combo_port_any_available_good_then_it_moves():
    """SOP-159, SOP-160: a Good of a colour still in stock, then re-placed elsewhere."""
    colours = set()
    for seed in range(30):
        t = combo_table(seed)
        t.set_stock("blue", 0)
        t.sail_ship(0, ["G6", "G5", "G4"])  # passing over counts as contact
        good = t.events(EV.GOOD)[0]  # (a second one if it was re-placed onto G4, still ahead)
        assert good[4] == 1 and good[3] != 0
        colours.add(good[3])
        placed = t.events(EV.COMBO_PLACED)
        assert placed[0][3] != sq("G5") and t.where("combo", 0) == name_of(placed[-1][3])
        assert len(placed) == len(t.events(EV.GOOD))
    assert colours == {1, 2, 3}


def test_combo_port_blocked_by_a_pirate_or_empty_stacks_stays():
    """SOP-163; A24."""
    t = combo_table()
    t.put("pirate", 0, "G5")
    t.set_hand(0, [])
    t.sail_ship(0, ["G6", "G5"])
    assert not t.events(EV.GOOD) and not t.events(EV.COMBO_PLACED) and t.where("combo", 0) == "G5"
    t = combo_table()
    for c in ("blue", "green", "purple", "orange"):
        t.set_stock(c, 0)
    t.sail_ship(0, ["G6", "G5"])
    assert not t.events(EV.GOOD) and t.where("combo", 0) == "G5"


def test_combo_port_placement_skulls_pay_nothing_and_pirates_ignore_it():
    """SOP-161; A25."""
    t = combo_table()
    for _ in range(400):
        t.call("place_combo")
        combo = int(t.pos[S.COMBO])
        assert combo >= 0 and combo not in [int(t.pos[i]) for i in range(S.COMBO)]
    assert t.st[S.PIRATE_TREASURES] == 0
    t = combo_table()
    t.put("pirate", 0, "G6")
    t.sail_pirate(0, ["G5", "G4"])
    assert t.where("combo", 0) == "G5" and not t.events(EV.COMBO_PLACED) and not t.events(EV.GOOD)


def test_no_port_card_leads_to_the_combo_port():
    """SOP-162: port cards name one of the four Port Islands only."""
    t = combo_table()
    ports = [c for c in range(N_CARDS) if t.card_info[c, 0] == S.PORT_CARD]
    assert len(ports) == 8 and sorted({int(t.card_info[c, 3]) for c in ports}) == [0, 1, 2, 3]
    for c in ports:
        n = t.call("mover_path", card=c, option=0, rotation=0, start=0, path=t.path)
        assert n == 1 and int(t.path[0]) != int(t.pos[S.COMBO])
