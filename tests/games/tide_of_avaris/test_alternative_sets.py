"""The alternative component sets for the Wager track, the hold, the upgrade tracks and the decks
(A6-A9): each loads, changes only the values its header names, and the value it changes reaches
the engine (a hand-built position whose outcome moves with it); the standard set keeps its values.

Each set is one guess varied so that a designer can see what it decides (docs/games/tide_of_avaris.md,
"Component sets"):

- `alt-flat-bribes` (A8): a Bribe of 1 gold at every Wager position, not 2, 1, 1, 0;
- `alt-rising-gold` (A8): starting gold 1, 2, 3, 4 by position, not 1, 1, 1, 2;
- `alt-linear-hold` (A6): Upper Hold 1, 4, 7, 10, 13, 16, not 1, 3, 6, 10, 15, 21;
- `alt-rum-crew` (A7): a crew die bought for 4 rum a step, not 4, 6, 8 gold;
- `alt-decks` (A9): every monster 3 dice, every Navy ship but HMS Resolute 4 attacking and 3
  defending, a Burial Bonus deck of the example's kind only (a colour's space, 3 points).
"""

from __future__ import annotations

import pytest

from simkit.games.tide_of_avaris import components

from .harness import COLOUR, EV, S, Table

# set -> the compiled values it changes, as (part, key) of components.load()
CHANGES = {
    "alt-flat-bribes": {("ship", "bribe")},
    "alt-rising-gold": {("ship", "start_gold")},
    "alt-linear-hold": {("ship", "upper")},
    "alt-rum-crew": {("ship", "tracks")},
    "alt-decks": {("decks", "monsters"), ("decks", "navy"), ("decks", "burial")},
}
STANDARD = {  # the standard set's values these sets vary (components/ship.toml, decks.toml)
    ("ship", "bribe"): [2, 1, 1, 0],
    ("ship", "start_gold"): [1, 1, 1, 2],
    ("ship", "upper"): [1, 3, 6, 10, 15, 21],
    ("ship", "tracks"): [(0, [2, 3, 4, 5]), (0, [2, 3, 4, 5]), (1, [1, 2, 3]), (0, [4, 6, 8])],
}


def values(name: str) -> dict:
    """Every compiled value of a set, keyed (part, key)."""
    comp = components.load(name)
    out = {("board", "spaces"): comp.spaces, ("board", "lanes"): comp.lanes, ("board", "regions"): comp.regions}
    for part in ("dice", "ship", "decks"):
        out |= {(part, k): v for k, v in getattr(comp, part).items()}
    return out


def table(name: str, players: int = 2, **kw) -> Table:
    return Table(players=players, overrides={"components": name}, **kw)


def set_order(t: Table, order: list[int]):
    t.T[S.ORDER, : len(order)] = order
    for i, s in enumerate(order):
        t.T[S.ORDER, S.POSITION + s] = i


@pytest.mark.parametrize("name", sorted(CHANGES))
def test_the_set_loads_and_changes_only_what_it_names(name):
    std, alt = values("standard"), values(name)
    assert {key for key in std if std[key] != alt[key]} == CHANGES[name]


def test_the_standard_set_keeps_its_values():
    std = values("standard")
    for key, value in STANDARD.items():
        assert std[key] == value, key
    decks = components.load("standard").decks
    assert [m[0] for m in decks["monsters"]] == [3, 2, 5, 2, 4, 1, 6, 3, 2, 4]  # Strength
    assert [n[:2] for n in decks["navy"]] == [(6, 2), (3, 3), (4, 3), (2, 2), (4, 4), (3, 2)]  # attack, defence
    assert len(decks["burial"]) == 16 and {b[0] for b in decks["burial"]} == set(range(len(S.BURIAL_KINDS)))


def test_flat_bribes_the_first_position_pays_1_gold_not_2():
    """1. Move: the mover pays the Bribe beside its own Wager position to the occupant."""
    paid = {}
    for name in ("standard", "alt-flat-bribes"):
        t = table(name)
        set_order(t, [0, 1])  # seat 0 first in turn order
        space = int(t.seat(1)[S.POS])
        t.seat(0)[S.GOLD] = 5
        t.seat(1)[S.GOLD] = 0
        t.call("bribe", seat=0, space=space, players=2)
        paid[name] = (5 - int(t.seat(0)[S.GOLD]), int(t.seat(1)[S.GOLD]))
    assert paid == {"standard": (2, 2), "alt-flat-bribes": (1, 1)}


def test_rising_gold_each_position_starts_with_one_gold_more():
    """3. First Day Setup: each player collects the resources beside its Wager position."""
    for name, gold in (("standard", [1, 1, 1, 2]), ("alt-rising-gold", [1, 2, 3, 4])):
        t = table(name, players=4)
        assert [int(t.seat(s)[S.GOLD]) for s in range(4)] == gold, name
        assert [int(t.seat(s)[S.RUM]) for s in range(4)] == [0, 0, 1, 1], name


def test_linear_hold_six_colours_bury_for_16_not_21():
    """Treasure Hold: a burial scores the rightmost covered Upper space (six colours: the 6th)."""
    points = {}
    for name in ("standard", "alt-linear-hold"):
        t = table(name)
        t.st[S.PUBLIC_BONUS] = -1  # no Burial Bonus to take
        t.hold(0, {c: 1 for c in S.COLOURS})
        before = int(t.seat(0)[S.POINTS])
        t.call("bury", seat=0)
        points[name] = int(t.seat(0)[S.POINTS]) - before
    assert points == {"standard": 21, "alt-linear-hold": 16}


def test_rum_crew_a_crew_die_costs_4_rum_not_4_gold():
    """Step 1: Upgrade: the next step's cost, in its track's currency. Seat 0 buys only crew dice
    and keeps nothing back; with 5 gold and 5 rum it buys one die either way, paid in gold on the
    standard track and in rum on the rum-crew track."""
    paid = {}
    for name in ("standard", "alt-rum-crew"):
        t = table(name, strategies="controller")
        t.weights(0, W_UP_ATTACK=0, W_UP_DEFENCE=0, W_UP_FLEET=0, W_UP_CREW=1, W_RESERVE=0)
        t.seat(0)[S.GOLD] = 5
        t.seat(0)[S.RUM] = 5
        for s in (1,):
            t.seat(s)[S.GOLD] = 0
            t.seat(s)[S.RUM] = 0
        t.call("upgrades", players=2)
        paid[name] = (int(t.seat(0)[S.CREW_N]), int(t.seat(0)[S.GOLD]), int(t.seat(0)[S.RUM]))
    assert paid == {"standard": (6, 1, 5), "alt-rum-crew": (6, 5, 1)}


def test_decks_hms_sparrow_attacks_with_4_dice_not_2():
    """Navy Hunts: the Navy ship rolls its card's attack dice. With every combat face a sword the
    Navy's hits are its dice, and the pirate, rolling swords when it defends, hits nothing."""
    hits = {}
    for name in ("standard", "alt-decks"):
        t = table(name, strategies="burier")
        card = t.comp.decks["navy_names"].index("HMS Sparrow")
        t.K = t.K.copy()
        t.K[S.COMBAT_FACE, 0] = S.SWORD
        t.K[S.META, S.N_COMBAT_FACES] = 1
        t.st[S.NAVY_CARD] = card
        t.st[S.NAVY_POS] = t.space("Raid")
        t.put(0, "Raid")
        t.call("navy_attacks", seat=0, wind=0)
        hits[name] = [r[3:5] for r in t.events(EV.BATTLE)]
    assert hits == {"standard": [(2, 0)], "alt-decks": [(4, 0)]}


def test_decks_no_burial_bonus_for_a_full_upper_hold():
    """Burial Bonus: the standard deck pays 4 for a burial with at least 4 colours in the Upper
    Hold; the alternative deck has only colour-space cards, and its blue card is met on a blue
    space whatever the hold."""
    for name in ("standard", "alt-decks"):
        kinds = [int(b[0]) for b in components.load(name).decks["burial"]]
        assert (S.BB_UPPER in kinds) == (name == "standard"), name
    t = table("alt-decks")
    card = next(i for i in range(int(t.K[S.META, S.N_BURIAL]))
                if t.K[S.BB_KIND, i] == S.BB_COLOUR and t.K[S.BB_ARG, i] == COLOUR["blue"])
    t.st[S.PUBLIC_BONUS] = card
    t.put(0, "Raid")
    t.set_slot("Raid", "blue")
    t.hold(0, {"red": 1, "pink": 1, "teal": 1, "green": 1})
    t.call("bury", seat=0)
    assert t.seat(0)[S.POINTS] == 10 + 3

