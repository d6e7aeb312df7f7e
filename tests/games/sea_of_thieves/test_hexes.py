"""Basics: the board, hex capacity and pushing, treacherous waters, straight lines, sea tile rolls."""

import numpy as np

from simkit.games.sea_of_thieves import components

from .harness import OUTPOST, S, Table

HUB_REEF = 6  # hub hex 6 is treacherous waters on the standard hub face (components/hub.txt)


def line(t, h, d, n):
    return int(t.call("line_end", h=h, d=d, n=n))


def test_tiles_fit_around_the_hub_without_overlap():
    nxt, dist, where = components.geometry((1, 2, 3, 4, 5, 6))
    assert len(where) == 7 * 19
    assert (dist[:133, :133] == dist[:133, :133].T).all()
    # every sea tile position touches the hub and its two neighbouring positions
    pos = {h: h // 19 for h in where.values()}
    for p in range(1, 7):
        touching = {pos[int(nxt[d, h])] for h in where.values() if pos[h] == p for d in range(6) if nxt[d, h] >= 0}
        assert {0, p % 6 + 1, (p - 2) % 6 + 1} <= touching


def test_a_hex_holds_two_standees_and_a_rival_is_pushed_out():
    t = Table(4)
    t.clear_board()
    h = 5  # open sea next to the Outpost
    t.put(2, h)  # seat 1
    t.put(4, h)  # seat 2
    assert t.call("can_end", k=0, h=h)  # full, but rivals can be pushed
    t.call("end_move", k=0, h=h)
    assert t.T[S.HEX_STANDEES, h] == 2
    pushed = [k for k in (2, 4) if t.ship(k)[S.HEX] != h]
    assert len(pushed) == 1
    assert t.ship(pushed[0])[S.HEX] in t.neighbours(h)
    assert t.T[S.HEX_STANDEES].max() <= 2


def test_cannot_end_in_a_full_hex_without_a_rival_standee():
    t = Table(4)
    t.clear_board()
    h = 5
    t.put(0, h)
    t.T[S.HEX_STANDEES, h] += 1  # a second standee that is no player's (an enemy, part 2)
    t.put(1, 4)
    assert not t.call("can_end", k=1, h=h)  # only its own ship and a non-player standee there
    t.put(2, 3)
    assert t.call("can_end", k=2, h=h)  # seat 1 may push seat 0's ship
    t.call("end_move", k=2, h=h)
    assert t.ship(0)[S.HEX] != h and t.ship(2)[S.HEX] == h


def test_no_push_when_no_adjacent_hex_has_room():
    t = Table(4)
    t.clear_board()
    h = OUTPOST
    t.put(2, h)
    t.put(4, h)
    around = t.neighbours(h)
    # fill every neighbour with two standees (counts only: the rule reads standee counts)
    for x in around:
        t.T[S.HEX_STANDEES, x] = 2
    assert not t.call("can_end", k=0, h=h)


def test_treacherous_waters_damage_a_ship_sailing_on_but_not_one_stopping():
    t = Table(4)
    t.clear_board()
    for d in range(6):
        start = int(t.K[S.NEXT0 + (d + 3) % 6, HUB_REEF])
        if start >= 0 and line(t, start, d, 2) >= 0:
            break
    t.put(0, start)
    t.call("sail_line", k=0, d=d, n=1)  # ends on the reef
    assert t.ship(0)[S.HEX] == HUB_REEF and t.ship(0)[S.DAMAGE] == 0
    t.put(0, start)
    t.call("sail_line", k=0, d=d, n=2)  # through the reef
    assert t.ship(0)[S.HEX] == line(t, start, d, 2) and t.ship(0)[S.DAMAGE] == 1
    t.ship(0)[S.DAMAGE] = 0
    t.call("sail_line", k=0, d=(d + 3) % 6, n=1)  # leaving a reef it started in costs nothing (A12)
    assert t.ship(0)[S.DAMAGE] == 0


def test_full_sail_lines_are_straight():
    t = Table(4)
    # each step of a line moves the same axial offset: n steps in direction d = n times one step
    local = components.local_axial()
    axial = {}
    for p, (cq, cr) in enumerate(components.position_centres()):
        for i, (q, r) in enumerate(local):
            axial[p * 19 + i] = (cq + q, cr + r)
    for d, (dq, dr) in enumerate(components.DIRECTIONS):
        end = line(t, OUTPOST, d, 4)
        assert axial[end] == (4 * dq, 4 * dr)


def test_two_player_sea_tile_rolls_reroll_one_and_six():
    t = Table(2)
    rolls = [int(t.call("roll_sea_tile")) for _ in range(600)]
    assert set(rolls) == {2, 3, 4, 5}
    t = Table(4)
    rolls = [int(t.call("roll_sea_tile")) for _ in range(600)]
    assert set(rolls) == {1, 2, 3, 4, 5, 6}
    counts = np.bincount(rolls, minlength=7)[1:]
    assert counts.min() > 60
