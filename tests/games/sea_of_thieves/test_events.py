"""Event phase: the three sections of an event card - enemy spawns, High Seas, Cutthroats'
Corner - and the beginner game without monsters and forts."""

import numpy as np
import pytest

from simkit.games.sea_of_thieves import events as EV
from simkit.games.sea_of_thieves.components import SETS

from .harness import S, Table

E = S.ENEMY0


def card(t, row, value, arg=None):
    for c in range(int(t.K[S.META, S.N_EVENTS])):
        if t.K[row, c] == value and (arg is None or t.K[row + 1, c] == arg):
            return c
    raise LookupError(value)


def spawn(t, c, knave=1):
    start = int(t.st[S.LOG_N])
    t.call("enemy_spawns", knave=np.int64(knave), card=np.int64(c))
    return t.events(start=start)


def test_megalodon_spawns_on_the_rolled_tiles_waypoint_or_an_adjacent_hex_when_blocked():
    t = Table(4, seed=1)
    t.clear_board()
    c = card(t, S.EVT_SPAWN, S.SP_MEGALODON)
    wp = int(t.K[S.EVT_SPAWN_ARG, c])
    rows = spawn(t, c)
    h = int(t.T[E + S.MEGALODON, S.E_HEX])
    assert t.T[E + S.MEGALODON, S.E_STATE] == S.E_ON and t.T[S.HEX_WAYPOINT, h] == wp
    pos = next(r for r in rows if r[2] == EV.ENEMY_SPAWN)[5]
    assert h // S.TILE_HEXES == pos
    # blocked: two ships on every waypoint with this symbol - an adjacent hex instead
    t2 = Table(4, seed=1)
    t2.clear_board()
    targets = [x for x in range(S.MAX_HEX) if t2.T[S.HEX_WAYPOINT, x] == wp]
    k = 0
    for x in targets[:4]:
        t2.put(k, x)
        t2.put(k + 1, x)
        k += 2
    spawn(t2, c)
    h2 = int(t2.T[E + S.MEGALODON, S.E_HEX])
    if h2 >= 0 and h2 // S.TILE_HEXES in [x // S.TILE_HEXES for x in targets[:4]]:
        assert t2.T[S.HEX_WAYPOINT, h2] != wp
        assert any(t2.K[S.DIST0 + h2, x] == 1 for x in targets[:4])
        assert t2.T[S.HEX_STANDEES, h2] <= 2


def test_skeleton_ships_sloop_then_galleon_then_nothing_with_treasure_in_every_slot():
    t = Table(4, seed=2)
    t.clear_board()
    c = card(t, S.EVT_SPAWN, S.SP_SKELETON_SHIP)
    treasure_before = int(t.st[S.TREASURE_N])
    spawn(t, c)
    assert t.T[E + S.SKELETON_SLOOP, S.E_STATE] == S.E_ON and t.T[E + S.SKELETON_GALLEON, S.E_STATE] == S.E_OFF
    spawn(t, c)
    assert t.T[E + S.SKELETON_GALLEON, S.E_STATE] == S.E_ON
    slots = int(t.K[S.EN_DAMAGE, S.SKELETON_SLOOP] + t.K[S.EN_DAMAGE, S.SKELETON_GALLEON])
    assert t.st[S.TREASURE_N] == treasure_before - slots
    rows = spawn(t, c)
    assert not [r for r in rows if r[2] == EV.ENEMY_SPAWN] and t.st[S.TREASURE_N] == treasure_before - slots
    # only the Galleon out: the Sloop comes (A48)
    t.call("sink_skeleton_ship", e=S.SKELETON_SLOOP, k=0)
    spawn(t, c)
    assert t.T[E + S.SKELETON_SLOOP, S.E_STATE] == S.E_ON


def test_kraken_rises_at_the_sixth_tentacle_under_the_fullest_hold_at_sea_and_others_make_way():
    t = Table(4, seed=3)
    t.clear_board()
    sea = t.hexes_of(S.SEA)
    island = t.hexes_of(S.ISLAND, 2)[0]
    t.put(0, sea[0])
    t.put(2, sea[0])
    t.put(4, island)
    for _ in range(5):
        t.give(0, S.TREASURE_BAG, S.CHEST)
        t.give(4, S.TREASURE_BAG, S.SKULL)
    t.give(4, S.TREASURE_BAG, S.CRATE)  # the fullest hold is on an island: not a target
    t.T[E + S.KRAKEN, S.E_TENTACLES] = 4
    c = card(t, S.EVT_SPAWN, S.SP_KRAKEN, 2)
    spawn(t, c)
    assert t.T[E + S.KRAKEN, S.E_TENTACLES] == 6
    assert t.T[E + S.KRAKEN, S.E_HEX] == sea[0] and t.ship(0)[S.HEX] == sea[0]
    assert t.ship(2)[S.HEX] != sea[0] and t.K[S.DIST0 + t.ship(2)[S.HEX], sea[0]] == 1
    assert t.T[S.HEX_STANDEES, sea[0]] == 2


@pytest.mark.parametrize("cargo", [(1, 3, 3, 2), (2, 0, 1, 4), (0, 0, 2, 2), (4, 3, 2, 1)])
def test_the_krakens_targets_are_exactly_the_ships_at_sea_with_the_fullest_hold(cargo):
    # Kraken (A42): among the ships at sea, the ones holding the most cargo, ties all kept, and
    # none of a smaller hold listed before the fullest one, whatever the seat order
    t = Table(4, seed=3)
    t.clear_board()
    sea = t.hexes_of(S.SEA)
    ships = (0, 2, 4, 6)
    for k, n, h in zip(ships, cargo, (sea[0], sea[4], sea[8], sea[12])):
        t.put(k, h)
        for _ in range(n):
            t.give(k, S.TREASURE_BAG, S.CHEST)
    targets = int(t.call("kraken_targets"))
    most = max(cargo)
    assert [k for k in range(8) if targets >> k & 1] == [k for k, n in zip(ships, cargo) if n == most]


def test_kraken_waits_beside_the_board_without_a_target_and_tries_again_next_event_phase():
    t = Table(4, seed=4)
    t.clear_board()
    island = t.hexes_of(S.ISLAND, 1)[0]
    t.put(0, island)
    t.T[E + S.KRAKEN, S.E_TENTACLES] = 5
    spawn(t, card(t, S.EVT_SPAWN, S.SP_KRAKEN))
    assert t.T[E + S.KRAKEN, S.E_STATE] == S.E_WAITING and t.T[E + S.KRAKEN, S.E_HEX] == -1
    sea = t.hexes_of(S.SEA)[3]
    t.put(0, sea)
    t.call("event_phase", players=4)
    assert t.T[E + S.KRAKEN, S.E_STATE] == S.E_ON and t.T[E + S.KRAKEN, S.E_HEX] == sea


def test_a_defeated_monsters_symbol_summons_a_skeleton_ship_and_one_on_the_board_is_ignored():
    t = Table(4, seed=5)
    t.clear_board()
    c = card(t, S.EVT_SPAWN, S.SP_MEGALODON)
    t.T[E + S.MEGALODON, S.E_STATE] = S.E_DEFEATED
    spawn(t, c)
    assert t.T[E + S.SKELETON_SLOOP, S.E_STATE] == S.E_ON and t.T[E + S.MEGALODON, S.E_HEX] == -1
    t.T[E + S.MEGALODON, S.E_STATE] = S.E_OFF
    spawn(t, c)
    h = int(t.T[E + S.MEGALODON, S.E_HEX])
    rows = spawn(t, c)
    assert t.T[E + S.MEGALODON, S.E_HEX] == h and not [r for r in rows if r[2] == EV.ENEMY_SPAWN]


def test_the_beginner_game_leaves_the_monsters_and_forts_in_the_box():
    t = Table(4, "beginner", seed=6)
    for e in (S.MEGALODON, S.KRAKEN, S.FORT):
        assert t.T[E + e, S.E_STATE] == S.E_BOXED
    for sp in (S.SP_MEGALODON, S.SP_KRAKEN, S.SP_FORT):
        spawn(t, card(t, S.EVT_SPAWN, sp))
    assert all(t.T[E + e, S.E_HEX] == -1 for e in range(S.N_ENEMIES))
    assert t.T[E + S.KRAKEN, S.E_TENTACLES] == 0
    t2 = Table(4, "beginner", {"boxed_spawns": "skeleton_ship"}, seed=6)
    spawn(t2, card(t2, S.EVT_SPAWN, S.SP_MEGALODON))
    assert t2.T[E + S.SKELETON_SLOOP, S.E_STATE] == S.E_ON


@pytest.mark.parametrize("components", SETS)
def test_flotsam_lays_loot_and_treasure_on_a_waypoint_returning_skeletons(components):
    t = Table(4, seed=7, overrides={"components": components})
    t.clear_board()
    c = card(t, S.EVT_HIGH, S.H_FLOTSAM)
    wp = int(t.K[S.EVT_HIGH_ARG, c])
    for seed in range(8):
        before = {x: len(t.tokens_at(x)) for x in range(S.MAX_HEX) if t.T[S.HEX_WAYPOINT, x] == wp}
        t.call("high_seas", knave=np.int64(0), card=np.int64(c))
        after = {x: len(t.tokens_at(x)) for x in before}
        gained = sum(after.values()) - sum(before.values())
        assert 1 <= gained <= 3 and sum(1 for x in before if after[x] != before[x]) == 1
    assert all(t.K[S.TOK_KIND, i] != S.SKELETON for x in before for i in t.tokens_at(x))


def test_storm_damages_ships_at_sea_only():
    t = Table(4, seed=8)
    t.clear_board()
    t.put(0, t.hexes_of(S.SEA)[2])
    t.put(2, t.hexes_of(S.ISLAND, 3)[0])
    t.put(4, 9)
    c = card(t, S.EVT_HIGH, S.H_STORM)
    t.call("high_seas", knave=np.int64(0), card=np.int64(c))
    assert t.ship(0)[S.DAMAGE] == t.K[S.EVT_HIGH_ARG, c] > 0 and t.ship(0)[S.LAST_HIT] == S.HAZARD
    assert t.ship(2)[S.DAMAGE] == 0 and t.ship(4)[S.DAMAGE] == 0


def test_cutthroats_corner_benefits_the_knave_and_a_kept_card_stays_in_front_of_them():
    t = Table(4, seed=9)
    c = card(t, S.EVT_CORNER, S.C_WINDFALL)
    gold = [int(t.seat(s)[S.GOLD]) for s in range(4)]
    t.call("cutthroats_corner", knave=np.int64(2), card=np.int64(c))
    assert [int(t.seat(s)[S.GOLD]) for s in range(4)] == [g + (int(t.K[S.EVT_CORNER_ARG, c]) if s == 2 else 0)
                                                          for s, g in enumerate(gold)]
    charm = card(t, S.EVT_CORNER, S.C_CHARM)
    kept = t.call("cutthroats_corner", knave=np.int64(3), card=np.int64(charm))
    assert kept and t.T[S.KEPT_BY, charm] == 3 and t.seat(3)[S.KEPT] == 1
    # the kept card rerolls a crew roll of its owner once, then goes to the bottom of the event deck
    n = int(t.st[S.EVENT_N])
    while t.seat(3)[S.FORT_N] > 0:
        t.call("discard_fortune", seat=3, i=0)
    for _ in range(50):
        if t.seat(3)[S.KEPT] == 0:
            break
        t.call("crew_roll", k=6)
    assert t.seat(3)[S.KEPT] == 0 and t.T[S.KEPT_BY, charm] == -1 and t.st[S.EVENT_N] == n + 1


@pytest.mark.parametrize("edge", ["first", "last", "any"])
def test_shifting_sands_moves_a_skeleton_between_islands_away_from_the_knave(edge):
    """Also with the island's skeleton the first or the last skeleton token (the ends of the ids
    the engine scans, K's FIRST_SKELETON to FIRST_CAPTAIN)."""
    t = Table(4, seed=10)
    t.clear_board()
    mine = t.hexes_of(S.ISLAND, 0)[0]
    t.put(0, mine)  # the Knave's ship
    want = {"first": int(t.K[S.META, S.FIRST_SKELETON]), "last": int(t.K[S.META, S.FIRST_CAPTAIN]) - 1}.get(edge)
    passed = []
    while True:
        skeleton = t.take(S.LOOT_BAG, S.SKELETON)
        if want is None or skeleton == want:
            break
        passed.append(skeleton)
    for x in passed:
        t.call("to_bag", t=x)
    t.call("to_hex", t=skeleton, h=mine)
    far = t.hexes_of(S.ISLAND, 4)[0]
    t.put(6, far)  # the leader's ship
    t.seat(3)[S.REP] = 10
    total = sum(int(t.T[S.HEX_SKELETONS, h]) for h in range(S.MAX_HEX))
    t.call("shifting_sands", knave=np.int64(0))
    assert t.T[S.HEX_SKELETONS, mine] == 0
    assert sum(int(t.T[S.HEX_SKELETONS, h]) for h in range(S.MAX_HEX)) == total
    moved = next(iter(t.events(EV.SANDS)))
    assert t.T[S.HEX_TYPE, moved[4]] == S.ISLAND and t.K[S.DIST0 + moved[4], far] < t.K[S.DIST0 + mine, far]


def test_event_phase_draws_one_card_resolves_it_and_puts_it_at_the_bottom():
    t = Table(4, seed=11)
    top = int(t.T[S.EVENT_DECK, t.st[S.EVENT_HEAD]])
    n = int(t.st[S.EVENT_N])
    t.call("event_phase", players=4)
    rows = t.events(EV.EVENT_CARD)
    assert rows[0][3] == top
    kinds = [r[2] for r in t.events() if r[2] in (EV.HIGH_SEAS, EV.CORNER)]
    assert kinds == [EV.HIGH_SEAS, EV.CORNER]
    if t.T[S.KEPT_BY, top] < 0:
        assert t.st[S.EVENT_N] == n
        last = (t.st[S.EVENT_HEAD] + n - 1) % S.MAX_EVENTS
        assert t.T[S.EVENT_DECK, last] == top
