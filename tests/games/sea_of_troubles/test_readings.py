"""The rule parameters that switch a reading of a rulebook silence, on hand-built positions:
where a sunk ship's carried treasure goes (`sunk_treasure`, A12) and what a dig takes from
(`dig_pool`, A17). Each test plays one position under every reading, so the reading is the
only thing that differs, and checks the default reading's behaviour is the one the engine
played before the parameter existed."""

import numpy as np
import pytest

from simkit.games.sea_of_troubles import engine

from .harness import EV, S, Table, bot

SW, SA, CA, WI = S.SWORD, S.SAIL, S.CANNON, S.WILD
XSQ = (4, 1)  # panel square (row, column) of map.txt's X


def at(t, rc, panel=0):
    return t.square(rc[0], rc[1] + 6 * panel)


# ------------------------------------------------------------------ sunk_treasure (A12)
def laden_wreck(reading, players=3):
    """Seat 1, one damage from sinking, carries two treasures; seat 2 carries one."""
    t = Table(players, overrides={"sunk_treasure": reading}, strategies="duellist")
    t.seat(1)[S.DAMAGE] = t.P.sink_damage - 1
    cargo = [t.give_treasure(1, "Treasure Chest"), t.give_treasure(1, "Exotic Goods")]
    own = t.give_treasure(2, "Doubloon")
    return t, cargo, own


def where(t, cargo):
    deck = {int(x) for x in t.T[S.TDECK, : t.st[S.TDECK_N]]}
    carried = {s: {int(x) for x in t.T[S.CARRY0 + s, : t.seat(s)[S.CARRY_N]]} for s in range(t.players)}
    return deck, carried


@pytest.mark.parametrize("reading", ["lost", "deck", "attacker"])
def test_a_sunk_ships_treasure_goes_where_sunk_treasure_reads(reading):
    t, cargo, own = laden_wreck(reading)
    deck_before = int(t.st[S.TDECK_N])
    t.call("damage", seat=1, by=2)  # seat 2's Cannons sink seat 1
    assert t.seat(1)[S.STATE] == S.DEAD and t.seat(1)[S.CARRY_N] == 0
    deck, carried = where(t, cargo)
    if reading == "lost":  # out of the game (the default, as before the parameter)
        assert t.st[S.SUNK] == 2 and t.st[S.TDECK_N] == deck_before and carried[2] == {own}
        assert not set(cargo) & deck
    elif reading == "deck":  # shuffled back into the treasure deck
        assert t.st[S.SUNK] == 0 and t.st[S.TDECK_N] == deck_before + 2 and set(cargo) <= deck
        assert carried[2] == {own}
    else:  # to the sinking pirate, on top of what it carried
        assert t.st[S.SUNK] == 0 and t.st[S.TDECK_N] == deck_before and carried[2] == {own, *cargo}
        assert [r[1:] for r in t.events(EV.TREASURE)] == [(2, EV.TREASURE, tr, EV.R_SUNK, 1) for tr in cargo]
    assert t.treasure_count() == len(t.comp.treasures)


def test_attacker_reading_without_a_living_attacker_loses_the_treasure():
    # no pirate's Cannons (by=-1), or the sinking pirate already down: nobody to take it
    t, _, _ = laden_wreck("attacker")
    t.call("damage", seat=1, by=-1)
    assert t.st[S.SUNK] == 2
    t, _cargo, _ = laden_wreck("attacker")
    t.seat(2)[S.STATE] = S.DEAD
    t.call("damage", seat=1, by=2)
    assert t.st[S.SUNK] == 2 and t.seat(2)[S.CARRY_N] == 1


def shot_to_the_bottom(reading):
    """Seat 2 shoots seat 1 alongside; seat 1 concedes (a Cannons loss: its fourth damage)."""
    t, cargo, own = laden_wreck(reading)
    sq = t.square(0, 0)
    t.put(1, sq)
    t.put(2, sq)
    t.clear_hands()
    t.set_hand(2, [(CA, 4), (CA, 4)])
    t.set_hand(1, [(SA, 1)])
    t.stack([(SA, 1)])
    t.F[2, bot.W_NERVE] = 10.0  # seat 1 gives up before the reveal
    t.call("fight", att=2, dfn=1, shoot=1)
    return t, cargo, own


@pytest.mark.parametrize("reading", ["lost", "attacker"])
def test_the_winner_of_a_cannon_fight_is_the_one_who_sank_the_ship(reading):
    t, cargo, own = shot_to_the_bottom(reading)
    assert t.seat(1)[S.STATE] == S.DEAD
    _, carried = where(t, cargo)
    assert carried[2] == ({own, *cargo} if reading == "attacker" else {own})


def test_a_bot_shoots_a_laden_ship_harder_when_the_sinker_takes_its_treasure():
    # the fight odds read sunk_treasure (A12): sinking the carrier is a swing of twice its cargo
    swings = {}
    for reading in ("lost", "deck", "attacker"):
        t, _, _ = laden_wreck(reading)
        own = bot.own_view(t.T, t.K, 2)
        swings[reading] = bot.fight_swing(t.P, t.T, t.K, t.F, 2, 1, 1, own)
    assert swings["lost"] == swings["deck"] < swings["attacker"]


# ------------------------------------------------------------------ dig_pool (A17)
def two_xs(reading, players=3):
    """Skirmish: seat 1 has two treasures buried at X 0 and one at X 2; seat 2 stands on X 2."""
    t = Table(players, "skirmish", overrides={"dig_pool": reading}, strategies="hoarder")
    t.clear_hands()
    first, second = at(t, XSQ), at(t, XSQ, panel=2)
    t.put(1, first)
    far = [t.give_treasure(1, "Doubloon"), t.give_treasure(1, "Exotic Goods")]
    t.set_hand(1, [(SA, 1)] * 3)
    t.call("bury", seat=1, slot=0)
    t.call("bury", seat=1, slot=0)
    t.put(1, second)
    near = t.give_treasure(1, "Doubloon")
    t.set_hand(1, [(SA, 1)])
    t.call("bury", seat=1, slot=0)
    t.put(2, second)
    return t, set(far), near


@pytest.mark.parametrize("reading", ["owner", "x"])
def test_a_skirmish_dig_takes_from_what_dig_pool_reads(reading):
    t, far, near = two_xs(reading)
    x = int(t.K[S.SQ_INDEX, t.seat(2)[S.POS]])
    assert t.call("dig_owner", seat=2) == 1
    t.stack([(WI, 0)] * 4)  # every draw digs in Skirmish
    t.call("dig", seat=2, owner=1)
    taken = {int(c) for c in t.T[S.CARRY0 + 2, : t.seat(2)[S.CARRY_N]]}
    if reading == "owner":  # the owner's whole buried stock, at both X's (the default)
        assert taken == far | {near} and t.seat(1)[S.BURY_N] == 0
    else:  # only the card buried at the X dug; the two at X 0 stay
        assert taken == {near} and t.seat(1)[S.BURY_N] == 2
        assert {int(c) for c in t.T[S.BURY0 + 1, :2]} == far and all(t.T[S.BURYX0 + 1, :2] != x)
        assert t.call("dig_owner", seat=2) == -1  # nothing left at that X
        t.put(2, at(t, XSQ))
        assert t.call("dig_owner", seat=2) == 1  # the other X still holds two


@pytest.mark.parametrize("reading", ["owner", "x"])
def test_digging_up_ones_own_treasure_follows_dig_pool(reading):
    t, far, near = two_xs(reading)
    t.put(1, at(t, XSQ, panel=2))  # the owner at the X holding one of its three
    assert t.call("can_recover", seat=1)
    n = t.call("candidates", seat=1, players=t.players)
    recoverable = {int(t.T[S.BURY0 + 1, t.buf[engine.ARG, i]]) for i in range(n)
                   if t.buf[engine.KIND, i] == engine.A_RECOVER}
    assert recoverable == (far | {near} if reading == "owner" else {near})


def test_the_base_game_digs_the_same_under_either_pool():
    # one X per pirate outside Skirmish: the two readings take the same cards on the same draws
    taken = {}
    for reading in ("owner", "x"):
        t = Table(3, overrides={"dig_pool": reading}, seed=5)
        t.clear_hands()
        t.put(1, at(t, XSQ))
        for name in ("Doubloon", "Exotic Goods", "Jewels"):
            t.give_treasure(1, name)
        t.set_hand(1, [(SA, 1), (SA, 2), (SW, 1), (CA, 1), (SA, 3), (SW, 2)])
        for _ in range(3):
            t.call("bury", seat=1, slot=0)
        t.put(2, at(t, XSQ))
        t.stack([(SW, 3), (SW, 4), (SA, 1)])
        t.call("dig", seat=2, owner=1)
        taken[reading] = [int(c) for c in t.T[S.CARRY0 + 2, : t.seat(2)[S.CARRY_N]]]
    assert taken["owner"] == taken["x"] and len(taken["x"]) == 2


@pytest.mark.parametrize("reading", ["owner", "x"])
def test_a_bots_dig_odds_count_what_the_dig_can_take(reading):
    # the dig's expected swing reads dig_pool (A17): at the X holding one of the owner's three
    # cards it counts three under owner, one under x
    t, _, _ = two_xs(reading)
    swing = {x: bot.dig_swing(t.P, t.T, t.K, np.int64(2), np.int64(1), np.int64(x)) for x in (0, 2)}
    if reading == "owner":
        assert swing[0] == swing[2]
    else:
        assert swing[2] < swing[0]
