"""Ocean Hazards phase and enemies: each behaviour-chart branch, the turn order, damage and
defeat of every enemy, skeleton captains, skeleton forts and the Scurvy Knave's tie-breaks."""

import numpy as np
import pytest

from simkit.games.sea_of_thieves import events as EV
from simkit.games.sea_of_thieves.components import SETS

from .harness import S, Table

E = S.ENEMY0


def sea_pair(t, d):
    """Two open-sea hexes d apart (a, b)."""
    sea = t.hexes_of(S.SEA)
    for a in sea:
        for b in sea:
            if t.K[S.DIST0 + a, b] == d:
                return a, b
    raise LookupError(d)


def put_enemy(t, e, h):
    t.call("set_enemy_hex", e=e, h=h)
    t.T[E + e, S.E_STATE] = S.E_ON


def lone(t, players_ships=(0,)):
    """A board with only the listed ships (the others sunk out of the way)."""
    t.clear_board()
    return players_ships


def turn(t, e):
    start = int(t.st[S.LOG_N])
    t.call("enemy_turn", e=e, knave=np.int64(3))
    return t.events(start=start)


# ------------------------------------------------------------------ the skeleton ships' chart
@pytest.mark.parametrize("e", [S.SKELETON_SLOOP, S.SKELETON_GALLEON])
def test_skeleton_ship_in_a_ships_hex_attacks_without_moving(e):
    t = Table(4, seed=3)
    t.clear_board()
    a, _ = sea_pair(t, 2)
    t.put(0, a)
    put_enemy(t, e, a)
    rows = turn(t, e)
    assert [r for r in rows if r[2] == EV.ENEMY_MOVE] == []
    attacks = [r for r in rows if r[2] == EV.ENEMY_ATTACK]
    assert len(attacks) == 1 and attacks[0][4] == 0
    assert t.ship(0)[S.DAMAGE] == attacks[0][5]


@pytest.mark.parametrize("components", SETS)
def test_skeleton_ship_within_three_hexes_moves_in_and_attacks_the_rulebook_example(components):
    t = Table(4, seed=4, overrides={"components": components})
    t.clear_board()
    a, b = sea_pair(t, 3)
    t.put(2, a)
    put_enemy(t, S.SKELETON_SLOOP, b)
    rows = turn(t, S.SKELETON_SLOOP)
    assert t.T[E + S.SKELETON_SLOOP, S.E_HEX] == a
    assert [r[2] for r in rows if r[2] in (EV.ENEMY_MOVE, EV.ENEMY_ATTACK)] == [EV.ENEMY_MOVE, EV.ENEMY_ATTACK]
    assert t.T[S.HEX_STANDEES, a] == 2 and t.T[S.HEX_STANDEES, b] == 0


def test_skeleton_ship_further_than_three_hexes_closes_in_two_and_does_not_attack():
    t = Table(4, seed=5)
    t.clear_board()
    a, b = sea_pair(t, 6)
    t.put(4, a)
    put_enemy(t, S.SKELETON_SLOOP, b)
    rows = turn(t, S.SKELETON_SLOOP)
    now = t.T[E + S.SKELETON_SLOOP, S.E_HEX]
    assert t.K[S.DIST0 + now, a] == 4
    assert not [r for r in rows if r[2] == EV.ENEMY_ATTACK] and t.ship(4)[S.DAMAGE] == 0


# ------------------------------------------------------------------ the Megalodon's and the Kraken's
def test_megalodon_hurt_submerges_and_heals():
    t = Table(4, seed=6)
    t.clear_board()
    a, _ = sea_pair(t, 1)
    t.put(0, a)
    put_enemy(t, S.MEGALODON, a)
    t.T[E + S.MEGALODON, S.E_DAMAGE] = 4
    rows = turn(t, S.MEGALODON)
    assert t.T[E + S.MEGALODON, S.E_STATE] == S.E_OFF and t.T[E + S.MEGALODON, S.E_HEX] == -1
    assert t.T[E + S.MEGALODON, S.E_DAMAGE] == 0 and t.T[S.HEX_STANDEES, a] == 1
    assert not [r for r in rows if r[2] == EV.ENEMY_ATTACK]


def test_megalodon_bites_a_ship_in_its_hex_moves_in_within_three_and_submerges_otherwise():
    t = Table(4, seed=7)
    t.clear_board()
    a, b = sea_pair(t, 3)
    t.put(0, a)
    put_enemy(t, S.MEGALODON, b)
    rows = turn(t, S.MEGALODON)
    assert t.T[E + S.MEGALODON, S.E_HEX] == a and [r for r in rows if r[2] == EV.ENEMY_ATTACK]
    t.clear_board()
    a, b = sea_pair(t, 4)
    t.put(0, a)
    t.call("set_enemy_hex", e=S.MEGALODON, h=b)
    rows = turn(t, S.MEGALODON)
    assert t.T[E + S.MEGALODON, S.E_STATE] == S.E_OFF and [r for r in rows if r[2] == EV.SUBMERGE]


def test_kraken_grabs_and_attacks_the_ship_it_holds_and_submerges_when_alone():
    t = Table(4, seed=8)
    t.clear_board()
    a, b = sea_pair(t, 2)
    t.put(6, a)
    put_enemy(t, S.KRAKEN, a)
    t.empty_hold(6)  # no resource to save the crew
    up = t.ship(6)[S.CREW_UP]
    rows = turn(t, S.KRAKEN)
    assert [r[2] for r in rows if r[2] in (EV.ENEMY_GRAB, EV.ENEMY_ATTACK)] == [EV.ENEMY_GRAB, EV.ENEMY_ATTACK]
    assert t.ship(6)[S.CREW_UP] == up - 1 and t.ship(6)[S.CREW_DOWN] == 1
    t.T[E + S.KRAKEN, S.E_TENTACLES] = 6
    t.call("set_enemy_hex", e=S.KRAKEN, h=b)
    turn(t, S.KRAKEN)
    assert t.T[E + S.KRAKEN, S.E_STATE] == S.E_OFF and t.T[E + S.KRAKEN, S.E_TENTACLES] == 0


def test_enemies_act_in_reference_card_order():
    t = Table(4, seed=9)
    t.clear_board()
    hexes = t.hexes_of(S.SEA)
    for e, h in zip((S.KRAKEN, S.MEGALODON, S.SKELETON_GALLEON, S.SKELETON_SLOOP), hexes[::7]):
        put_enemy(t, e, h)
    put_enemy(t, S.FORT, t.hexes_of(S.ISLAND, 3)[0])
    start = int(t.st[S.LOG_N])
    t.call("ocean_hazards_phase", players=4)
    order = [r[3] for r in t.events(EV.ENEMY_TURN, start=start)]
    assert order == sorted(order, key=lambda e: t.K[S.EN_ORDER, e])
    assert order[0] == S.SKELETON_SLOOP and len(order) == 4  # the fort on the board takes no turn


# ------------------------------------------------------------------ damage and defeat
def test_skeleton_ship_sinks_when_its_slots_are_full_and_leaves_its_treasure():
    t = Table(4, seed=10)
    t.clear_board()
    a, _ = sea_pair(t, 1)
    t.put(0, a)
    t.call("spawn_skeleton_ship", knave=np.int64(1), waypoint=np.int64(1))
    e = S.SKELETON_SLOOP
    h = int(t.T[E + e, S.E_HEX])
    treasure = [int(x) for x in t.T[E + e, S.E_SLOT0:S.E_SLOT0 + 5] if x >= 0]
    assert len(treasure) == t.K[S.EN_DAMAGE, e] == 3
    t.call("damage_enemy", e=e, k=0, n=2)
    assert t.T[E + e, S.E_STATE] == S.E_ON and t.tokens_at(h) == []
    t.call("damage_enemy", e=e, k=0, n=1)
    assert t.T[E + e, S.E_STATE] == S.E_OFF and sorted(t.tokens_at(h)) == sorted(treasure)
    assert t.T[S.HEX_STANDEES, h] == 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_megalodon_is_defeated_at_its_damage_for_the_player_count(players):
    t = Table(players, seed=11)
    t.clear_board()
    a, _ = sea_pair(t, 1)
    put_enemy(t, S.MEGALODON, a)
    need = int(t.K[S.MEG_DAMAGE, players])
    assert need == [5, 6, 7][players - 2]
    t.call("damage_enemy", e=S.MEGALODON, k=1, n=need - 1)
    assert t.T[E + S.MEGALODON, S.E_STATE] == S.E_ON
    rep = int(t.seat(0)[S.REP])
    t.call("damage_enemy", e=S.MEGALODON, k=1, n=1)
    assert t.T[E + S.MEGALODON, S.E_STATE] == S.E_DEFEATED
    assert t.seat(0)[S.REP] == rep + t.K[S.EN_REP, S.MEGALODON] and t.seat(0)[S.MONSTERS] == 1


def test_kraken_three_tokens_wound_and_submerge_then_defeat():
    t = Table(4, seed=12)
    t.clear_board()
    a, _ = sea_pair(t, 1)
    put_enemy(t, S.KRAKEN, a)
    t.call("damage_enemy", e=S.KRAKEN, k=2, n=2)
    assert t.T[E + S.KRAKEN, S.E_STATE] == S.E_ON and t.T[E + S.KRAKEN, S.E_WOUNDS] == 0
    t.call("damage_enemy", e=S.KRAKEN, k=2, n=1)
    assert t.T[E + S.KRAKEN, S.E_STATE] == S.E_OFF and t.T[E + S.KRAKEN, S.E_WOUNDS] == 1
    assert t.seat(1)[S.MONSTERS] == 0
    put_enemy(t, S.KRAKEN, a)
    t.call("damage_enemy", e=S.KRAKEN, k=2, n=5)
    assert t.T[E + S.KRAKEN, S.E_STATE] == S.E_DEFEATED and t.seat(1)[S.MONSTERS] == 1


def test_open_fire_reaches_monsters_and_skeleton_ships_but_never_the_fort():
    t = Table(4, seed=13, strategies="random")
    t.clear_board()
    island = t.hexes_of(S.ISLAND, 1)[0]
    t.put(0, island)
    put_enemy(t, S.FORT, island)
    assert t.call("rival_count", k=0) == 0
    put_enemy(t, S.SKELETON_SLOOP, island)
    assert t.call("rival_count", k=0) == 1
    for _ in range(20):
        t.call("open_fire", k=0, bonus=np.int64(3))
    assert t.T[E + S.FORT, S.E_DAMAGE] == 0
    assert t.events(EV.FIRE_ENEMY) and all(r[4] == S.SKELETON_SLOOP for r in t.events(EV.FIRE_ENEMY))


def test_ships_sunk_after_an_enemys_damage_count_as_sunk_by_hazards():
    t = Table(4, seed=14)
    t.clear_board()
    a, _ = sea_pair(t, 1)
    t.put(0, a)
    t.empty_hold(0)
    t.call("hazard_damage", k=0, n=np.int64(10))
    t.call("rising_waters", seat=0)
    assert t.ship(0)[S.HEX] == -1 and t.seat(0)[S.HAZARD_SINKS] == 1 and t.seat(0)[S.SINKINGS] == 1
    t.put(1, a)
    t.empty_hold(1)
    t.ship(1)[S.DAMAGE] = 10  # treacherous waters or cannon fire: not a hazard's sinking
    t.call("rising_waters", seat=0)
    assert t.seat(0)[S.SINKINGS] == 2 and t.seat(0)[S.HAZARD_SINKS] == 1


# ------------------------------------------------------------------ captains and forts
def test_a_captain_cannot_be_defeated_beside_a_normal_skeleton_and_flips_to_treasure():
    t = Table(4, seed=15)
    t.clear_board()
    island = t.hexes_of(S.ISLAND, 2)[0]
    cap = int(t.call("place_captain", h=island))
    t.drop(island, S.LOOT_BAG, S.SKELETON)
    assert t.T[S.HEX_SKELETONS, island] == 2 and t.T[S.HEX_CAPTAINS, island] == 1
    first = int(t.call("defeat_skeleton", h=island))
    assert t.K[S.TOK_KIND, first] == S.SKELETON and t.T[S.HEX_CAPTAINS, island] == 1
    second = int(t.call("defeat_skeleton", h=island))
    assert second == cap and t.T[S.TOK_SIDE, cap] == 1 and t.T[S.TOK_LOC, cap] == island
    assert t.T[S.HEX_SKELETONS, island] == 0 and t.T[S.HEX_CARGO, island] == 1


def test_captains_treasure_sells_for_its_gold_and_reputation_and_returns_to_the_pool():
    t = Table(4, seed=16)
    t.clear_board()
    t.put(0, 9)  # the Outpost
    cap = int(t.call("place_captain", h=9))
    t.call("defeat_skeleton", h=9)
    t.call("to_hold", t=cap, k=0)
    gold, rep = int(t.seat(0)[S.GOLD]), int(t.seat(0)[S.REP])
    t.call("sell_stage", k=0)
    assert t.seat(0)[S.GOLD] == gold + t.K[S.TOK_VALUE, cap]
    assert t.seat(0)[S.REP] == rep + t.K[S.TOK_REP, cap] > rep
    assert t.T[S.TOK_LOC, cap] == S.IN_BOX and t.T[S.TOK_SIDE, cap] == 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_fort_waves_by_player_count_then_raided_for_reputation_and_treasure(players):
    t = Table(players, seed=17)
    t.clear_board()
    symbol = int(t.K[S.EVT_SPAWN_ARG, next(c for c in range(20) if t.K[S.EVT_SPAWN, c] == S.SP_FORT)])
    t.call("spawn_fort", knave=np.int64(0), symbol=np.int64(symbol))
    h = int(t.T[E + S.FORT, S.E_HEX])
    if h < 0:
        pytest.skip("the fort's island is not on this two-player board and the rolled tile had no room")
    assert t.T[E + S.FORT, S.E_PROGRESS] == players and t.T[S.HEX_SKELETONS, h] == 2
    t.put(0, h)
    rep = int(t.seat(0)[S.REP])
    fights = 0
    captains = 0
    while t.T[E + S.FORT, S.E_STATE] == S.E_ON:
        captains = max(captains, int(t.T[S.HEX_CAPTAINS, h]))
        t.call("defeat_skeleton", h=h)
        fights += 1
        if t.T[S.HEX_SKELETONS, h] == 0:
            t.call("fort_cleared", k=0)
    assert fights == 2 * players + 1 and captains == 1  # two a wave, the last wave's captain
    assert t.seat(0)[S.FORTS] == 1 and t.seat(0)[S.REP] == rep + t.K[S.EN_REP, S.FORT]
    assert len(t.tokens_at(h)) == t.K[S.META, S.FORT_TREASURE] + 1  # its treasure and the captain's
    assert t.T[S.HEX_STANDEES, h] == 1


# ------------------------------------------------------------------ the Scurvy Knave
def test_scurvy_knave_lowest_reputation_then_least_gold_then_furthest_clockwise():
    t = Table(4, seed=18)
    for s, (rep, gold) in enumerate([(5, 100), (3, 900), (3, 800), (4, 0)]):
        t.seat(s)[S.REP] = rep
        t.seat(s)[S.GOLD] = gold
    assert t.call("scurvy_knave", players=4) == 2
    t.seat(1)[S.GOLD] = 800
    assert t.call("scurvy_knave", players=4) == 2  # tied: the one further clockwise from seat 0
    t.seat(0)[S.REP] = 3
    t.seat(0)[S.GOLD] = 800
    assert t.call("scurvy_knave", players=4) == 2
    t.seat(1)[S.REP] = 1
    assert t.call("scurvy_knave", players=4) == 1


# ------------------------------------------------------------------ the nearest ship (charts' "ship within")
def at_distance(t, h, d, n):
    """n open-sea hexes d from h."""
    found = [x for x in t.hexes_of(S.SEA) if t.K[S.DIST0 + h, x] == d]
    assert len(found) >= n
    return found[:n]


def nearest(t, knave, reach, need_room=True):
    return int(t.call("nearest_ship_hex", e=np.int64(S.SKELETON_SLOOP), knave=np.int64(knave),
                      reach=np.int64(reach), need_room=np.bool_(need_room)))


def test_nearest_ship_is_the_knaves_pick_among_the_nearest_within_reach():
    """A ship beyond reach or further than another never counts; among the nearest the Knave (a
    heuristic seat) sends the enemy at the leader's ship, never at its own; with need_room a full
    hex is passed over; nothing in reach: -1, and the Knave's stream is not touched."""
    t = Table(4, seed=7)
    t.clear_board()
    h = t.hexes_of(S.SEA)[10]
    put_enemy(t, S.SKELETON_SLOOP, h)
    (near,) = at_distance(t, h, 1, 1)
    a, b = at_distance(t, h, 2, 2)
    (far,) = at_distance(t, h, 4, 1)
    t.seat(2)[S.REP] = 5  # the leader
    t.put(0, a)  # the Knave's own ship (seat 0), as near as the leader's
    t.put(4, b)  # seat 2, the leader
    t.put(6, far)  # seat 3, beyond a reach of 3
    assert nearest(t, knave=0, reach=3) == b
    assert nearest(t, knave=2, reach=3) == a  # seat 2 as the Knave spares its own ship
    t.put(7, near)  # seat 3's other ship, nearer than both
    assert nearest(t, knave=0, reach=3) == near
    t.put(1, near)  # the Knave's second ship fills that hex: two standees
    assert nearest(t, knave=0, reach=3) == b
    assert nearest(t, knave=0, reach=3, need_room=False) == near
    before = t.rng.copy()
    assert nearest(t, knave=0, reach=0, need_room=False) == -1
    assert (t.rng == before).all()


def test_nearest_ship_ties_are_drawn_from_the_knaves_stream_once():
    """Two rival ships the Knave likes as much, as near: one draw from the Knave's decision stream
    picks either (both come up over seeds); a lone favourite draws nothing."""
    picked = set()
    for seed in range(12):
        t = Table(4, seed=seed)
        t.clear_board()
        h = t.hexes_of(S.SEA)[10]
        put_enemy(t, S.SKELETON_SLOOP, h)
        a, b = at_distance(t, h, 2, 2)
        t.put(2, a)  # seat 1
        t.put(4, b)  # seat 2: the same reputation and hold as seat 1's ship
        before = t.rng.copy()
        got = nearest(t, knave=0, reach=3)
        assert got in (a, b)
        picked.add(2 if got == a else 4)  # the ship sent for
        assert (t.rng[1] != before[1]).any() and (t.rng[[0, 2, 3, 4]] == before[[0, 2, 3, 4]]).all()
    assert picked == {2, 4}
    t.seat(2)[S.REP] = 1  # now seat 2's ship is the favourite
    before = t.rng.copy()
    assert nearest(t, knave=0, reach=3) == b
    assert (t.rng == before).all()
