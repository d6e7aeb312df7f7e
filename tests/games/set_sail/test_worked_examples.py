"""Every worked example of the rulebook that the component files decide, as a test on every
shipped component set (standard and each components/alt-*/). The rulebook's
examples here are its counts and numbers: the cards of each deck and their values, the
odds of a ship fight without cannons, the cannons that make a ship unbeatable, the cards
trimmed by player count, the ports of the board, and the treasure a map pays. An
alternative set varies invented data (A2, A4-A7) and must still honour all of them."""

from __future__ import annotations

from collections import Counter

import pytest

from simkit.core.components import shipped
from simkit.games.set_sail import components

from .harness import EV, S, Table

SETS = shipped(components.FOLDER)


def test_every_shipped_set_is_tested():
    assert set(SETS) == {"standard", "alt-deep-maps", "alt-strong-routes", "alt-dear-quests", "alt-far-pirates"}


def table(name: str, players: int = 2, seed: int = 3, strategies="plunderer") -> Table:
    t = Table(players=players, seed=seed, strategies=strategies, overrides={"components": name})
    t.set_active(0)
    return t


def first_tile(comp, kind: int) -> int:
    return comp.types.index(kind)


@pytest.mark.parametrize("name", SETS)
def test_the_decks_hold_the_printed_cards(name):
    """Components: 14 Plunder and 14 Trade Quests of 4x4, 4x5, 3x6, 3x7 VP (75 VP each),
    14 Treasure Quests of 5x4, 4x5, 3x6, 2x7 VP (72 VP), every quest worth 4 to 7 VP
    (SS-009..014, SS-026); 15 Trade cards of each good (SS-015..017); 45 Deep Water ships,
    all of health 3, and 22 Trade Route ships of health 4 or 5 (SS-018, SS-019, SS-104,
    SS-110)."""
    comp = components.load(name)
    quest = Counter({4: 4, 5: 4, 6: 3, 7: 3})
    assert Counter(vp for vp, _ in comp.plunder) == quest and sum(vp for vp, _ in comp.plunder) == 75
    assert Counter(vp for vp, _ in comp.trade) == quest and sum(vp for vp, _ in comp.trade) == 75
    assert Counter(vp for vp, _ in comp.treasure) == Counter({4: 5, 5: 4, 6: 3, 7: 2})
    assert sum(vp for vp, _ in comp.treasure) == 72
    assert comp.goods_per_kind == 15
    assert comp.ships[S.DW] == (3,) * 45
    assert len(comp.ships[S.TR]) == 22 and set(comp.ships[S.TR]) <= {4, 5}
    t = table(name)  # and the game is dealt from them
    assert t.ship_cards(S.DW) == [3] * 45 and t.ship_cards(S.TR) == sorted(comp.ships[S.TR])
    assert t.goods_total() == [15, 15, 15]


def fights(name: str, deck: int, health: int, cannons: int, seeds) -> list[tuple[int, bool]]:
    """(die, won) of a ship fight against a card of `health` put on top of its deck."""
    comp = components.load(name)
    where = first_tile(comp, S.DEEP if deck == S.DW else S.ROUTE)
    out = []
    for seed in seeds:
        t = table(name, seed=seed)
        t.seat(0)[S.SUPPLY] = 20
        t.seat(0)[S.UPG0 + S.CANNON] = cannons
        t.stack_ship(deck, health)
        t.put(0, 0, where)
        mark = t.mark()
        t.call("tile_action", seat=0, piece=0)
        (fight,) = t.events(EV.SHIP_FIGHT, mark)
        assert (fight[3], fight[4]) == (deck, health)
        won = bool(t.events(EV.SHIP_WON, mark))
        assert int(t.seat(0)[S.SUPPLY]) == (20 if won else 20 - (health - fight[5]))
        out.append((fight[5] - cannons, won))
    return out


@pytest.mark.parametrize("name", SETS)
def test_worked_example_without_cannons_a_ship_falls_to_4_3_or_2_faces_of_6(name):
    """Ship Card Combat with no Cannon: a roll at least the ship's health wins, so 4 faces
    of 6 beat a Deep Water ship (health 3), 3 a Trade Route ship of health 4 and 2 one of
    health 5 (SS-133); every card of the set's decks is one of these."""
    comp = components.load(name)
    faces = {3: 4, 4: 3, 5: 2}
    for deck in (S.DW, S.TR):
        for health in sorted(set(comp.ships[deck])):
            played = fights(name, deck, health, 0, range(60))
            assert {die for die, _ in played} == {1, 2, 3, 4, 5, 6}
            assert all(won == (die >= health) for die, won in played)
            assert len({die for die, won in played if won}) == faces[health]


def fight_through(name: str, deck: int, cannons: int, seed: int) -> list[tuple[int, bool]]:
    """(health, won) of a fight against every card of a ship deck in turn."""
    comp = components.load(name)
    t = table(name, seed=seed)
    t.seat(0)[S.UPG0 + S.CANNON] = cannons
    out = []
    for _ in range(len(comp.ships[deck])):
        t.set_active(0)
        t.seat(0)[S.SUPPLY] = 20
        t.put(0, 0, first_tile(comp, S.DEEP if deck == S.DW else S.ROUTE))
        mark = t.mark()
        t.call("tile_action", seat=0, piece=0)
        (fight,) = t.events(EV.SHIP_FIGHT, mark)
        out.append((fight[4], bool(t.events(EV.SHIP_WON, mark))))
    return out


@pytest.mark.parametrize("name", SETS)
def test_worked_example_two_cannons_beat_every_deep_water_ship_three_every_health_4_route(name):
    """Ship Card Combat: with 2 Cannons the lowest total is 3, so no Deep Water ship of
    the set can win; with 3 Cannons no Trade Route ship of health 4 can (SS-140). One
    Cannon fewer, a roll of 1 loses."""
    comp = components.load(name)
    for seed in range(3):
        assert all(won for _, won in fight_through(name, S.DW, 2, seed))
        routes = fight_through(name, S.TR, 3, seed)
        assert sorted(h for h, _ in routes) == sorted(comp.ships[S.TR])
        assert all(won for h, won in routes if h == 4)
    assert not all(won for _, won in fight_through(name, S.DW, 1, 0))
    assert not all(won for seed in range(5) for h, won in fight_through(name, S.TR, 2, seed) if h == 4)


@pytest.mark.parametrize("name", SETS)
@pytest.mark.parametrize("players,trim", [(2, 8), (3, 4), (4, 2)])
def test_worked_example_quest_decks_trimmed_by_player_count(name, players, trim):
    """Setup 2-4: a 4-VP card on each open Plunder and Trade space (A3: three each), then
    the top 8 / 4 / 2 cards of each Quest deck removed at 2 / 3 / 4 players, the Treasure
    Quest deck too (A24): 14 - 3 - 8 = 3 Plunder and Trade cards and 14 - 8 = 6 maps left
    at 2 players (SS-039..047)."""
    comp = components.load(name)
    for seed in range(5):
        t = table(name, players=players, seed=seed)
        for kind, cards in ((S.PLUNDER, comp.plunder), (S.TRADEQ, comp.trade), (S.TREASURE, comp.treasure)):
            opened = [q for q in t.open_quests(kind) if q >= 0] if kind < 2 else []
            assert len(opened) == (3 if kind < 2 else 0) and all(cards[q][0] == 4 for q in opened)
            assert int(t.st[S.QREMOVED0 + kind]) == trim
            assert int(t.st[S.QDECK_N0 + kind]) == len(cards) - len(opened) - trim
            dealt = opened + [int(x) for x in t.T[S.QDECK0 + kind, : len(cards) - len(opened)]]
            assert sorted(dealt) == list(range(len(cards)))  # the removed cards lie past the deck's count


@pytest.mark.parametrize("name", SETS)
def test_worked_example_the_board_has_the_rulebooks_ports(name):
    """The Board and Pirate Ports: two Pirate Ports, one Trade Port, one Upgrade Port, and a
    Supply Port of two tiles (SS-091, SS-171, A3). Both pieces of every player start on
    the Supply Port (SS-056); running out sends them to its two different tiles (SS-148)."""
    comp = components.load(name)
    counts = Counter(comp.types)
    assert (counts[S.PIRATE_PORT], counts[S.TRADE_PORT], counts[S.UPGRADE_PORT], counts[S.SUPPLY_PORT]) == (2, 1, 1, 2)
    supply = {i for i, ty in enumerate(comp.types) if ty == S.SUPPLY_PORT}
    t = table(name, players=4)
    for s in range(4):
        assert {int(t.pos[2 * s]), int(t.pos[2 * s + 1])} == supply
    t.put(0, 0, first_tile(comp, S.DEEP))
    t.put(0, 1, first_tile(comp, S.DEEP))
    t.seat(0)[S.SUPPLY] = 0
    assert t.call("lose_supply", seat=0, n=1, reason=EV.R_FIGHT)
    assert {int(t.pos[0]), int(t.pos[1])} == supply


@pytest.mark.parametrize("name", SETS)
def test_worked_example_every_map_pays_its_vp_and_as_much_silver(name):
    """Dig Up Treasure: a piece ending on the tile its map shows digs it up for the map's VP
    and that many silver (SS-114..116), for every map of the set."""
    comp = components.load(name)
    for card, (vp, where) in enumerate(comp.treasure):
        assert comp.types[where] < S.FIRST_PORT  # a water tile (A6)
        t = table(name)
        t.seat(0)[S.SUPPLY] = 20
        t.seat(0)[S.UPG0 + S.CANNON] = 3  # the tile's own ship fight is won; its silver is logged apart
        t.T[S.MAPS0, 0] = card
        t.seat(0)[S.N_MAPS] = 1
        t.put(0, 0, where)
        t.call("tile_action", seat=0, piece=0)
        assert int(t.seat(0)[S.VP]) == vp and int(t.seat(0)[S.N_MAPS]) == 0
        assert [r[3] for r in t.events(EV.SILVER) if r[4] == EV.R_DIG] == [vp]
