"""The alternative component sets: each loads, changes only what its header names, and a value it
changes reaches the engine (a hand-built position whose outcome moves with it); the standard set
keeps its values.

Each set is one guess varied so that a designer can see what it decides (docs/games/sea_of_thieves.md,
"Component sets"):

- `alt-islands` (A1-A4): every tile face mirrored;
- `alt-layout` (A1-A4): other maps, islands on the rim of side A and in the core of side B;
- `alt-rewards` (A8): the voyage rewards rebalanced;
- `alt-hazards` (A40-A43, A45, A46): enemies that pay like voyages of their difficulty, an event
  deck with five cards of each spawn, richer captains;
- `alt-charts` (A44): behaviour charts of hunters (a hurt Megalodon fights on, a far one roams);
- `alt-track` (A10): a fortune symbol on every fifth space, not every fourth;
- `alt-fortune` (A11): a deck of special actions (10 Fair Winds of 4 hexes, 10 Broadsides);
- `alt-crew` (A9): special crew priced at the Wealth rate for their reputation.
"""

from __future__ import annotations

import numpy as np
import pytest

from simkit.games.sea_of_thieves import components
from simkit.games.sea_of_thieves import events as EV

from .harness import OUTPOST, S, Table
from .test_hazards import put_enemy, sea_pair, turn

FIELDS = ("faces", "first_layout", "two_player_positions", "tokens", "skeletons", "ships", "track_length",
          "track_symbols", "voyages", "crew", "fortune", "enemies", "charts", "events", "captains")
# set -> the fields of components.load() it changes
CHANGES = {
    "alt-islands": {"faces"},
    "alt-layout": {"faces"},
    "alt-rewards": {"voyages"},
    "alt-hazards": {"enemies", "events", "captains"},
    "alt-charts": {"charts"},
    "alt-track": {"track_symbols"},
    "alt-fortune": {"fortune"},
    "alt-crew": {"crew"},
}


def changed(name: str) -> set[str]:
    std, alt = components.load("standard"), components.load(name)
    return {f for f in FIELDS if getattr(std, f) != getattr(alt, f)}


def test_every_shipped_set_is_listed_here():
    assert set(components.SETS[1:]) == set(CHANGES)


@pytest.mark.parametrize("name", sorted(CHANGES))
def test_the_set_loads_and_changes_only_what_it_names(name):
    assert changed(name) == CHANGES[name]


def test_the_standard_set_keeps_its_values():
    std = components.load("standard")
    assert std.track_symbols == (4, 8, 12, 16, 20, 24, 28, 32)
    assert [(c["effect"], c["cost"], c["reputation"]) for c in std.crew[::3]] == [
        ("scout", 300, 1), ("helmsman", 400, 1), ("gunner", 400, 1), ("surgeon", 500, 2), ("digger", 400, 1),
        ("carpenter", 300, 1)]
    amounts = {(S.FORTUNE_EFFECTS[e], a) for e, a in std.fortune}
    assert amounts == {("fair_winds", 3), ("broadside", 2), ("buried_map", 1), ("spare_planks", 2),
                       ("bilge_pump", 2), ("rum_ration", 0), ("lucky_coin", 200)}
    assert [sum(S.FORTUNE_EFFECTS[e] == n for e, _ in std.fortune) for n in ("fair_winds", "broadside")] == [8, 6]
    en = std.enemies
    assert [en[k]["reputation"] for k in ("skeleton_sloop", "skeleton_galleon", "megalodon", "kraken",
                                          "skeleton_fort")] == [0, 0, 4, 5, 3]
    assert en["megalodon"]["damage_by_players"] == [5, 6, 7] and en["skeleton_fort"]["treasure"] == 3
    assert [sum(e["spawn"] == s for e in std.events) for s in S.SPAWNS] == [5, 6, 6, 3]
    assert [c[1:] for c in std.captains] == [(1, 300), (1, 300), (1, 400), (1, 400), (2, 300), (2, 300),
                                             (2, 500), (3, 500)]


# ------------------------------------------------------------------ each set reaches the engine
def test_layout_the_first_game_board_puts_the_skeletons_and_symbols_elsewhere():
    """Bags and Tokens: a skeleton on each skeleton symbol; the voyages find their islands by the
    symbols. On the same first-game layout the two maps put both elsewhere."""
    where = {}
    for name in ("standard", "alt-layout"):
        t = Table(4, "first_game", {"components": name}, seed=5)
        skeletons = sorted(h for h in range(S.MAX_HEX) if t.T[S.HEX_SKELETONS, h] > 0)
        assert len(skeletons) == 6  # A4: one per face on the full board, on both sets
        where[name] = (skeletons, [int(t.T[S.SYMBOL_HEX, s]) for s in range(S.N_SYMBOLS)])
    assert where["standard"][0] != where["alt-layout"][0]
    assert where["standard"][1] != where["alt-layout"][1]


def test_hazards_a_sunk_skeleton_sloop_pays_a_bounty():
    """Sinking Skeleton Ships: the ship that sinks it gains the card's reputation (A40: none on the
    standard card, 1 on alt-hazards')."""
    gained = {}
    for name in ("standard", "alt-hazards"):
        t = Table(4, seed=2, overrides={"components": name})
        t.clear_board()
        t.call("set_enemy_hex", e=S.SKELETON_SLOOP, h=OUTPOST + 1)
        t.T[S.ENEMY0 + S.SKELETON_SLOOP, S.E_STATE] = S.E_ON
        rep = int(t.seat(0)[S.REP])
        t.call("sink_skeleton_ship", e=S.SKELETON_SLOOP, k=0)
        gained[name] = int(t.seat(0)[S.REP]) - rep
    assert gained == {"standard": 0, "alt-hazards": 1}


def test_hazards_the_event_deck_spawns_five_of_each():
    t = Table(4, overrides={"components": "alt-hazards"})
    n = int(t.K[S.META, S.N_EVENTS])
    assert [sum(int(t.K[S.EVT_SPAWN, i]) == s for i in range(n)) for s in range(len(S.SPAWNS))] == [5, 5, 5, 5]


def test_charts_a_hurt_megalodon_bites_instead_of_fleeing():
    """Ocean Hazards Phase: the enemy follows its chart. With 4 damage on its card the standard
    Megalodon submerges (A44); alt-charts' fights on and bites the ship in its hex."""
    out = {}
    for name in ("standard", "alt-charts"):
        t = Table(4, seed=6, overrides={"components": name})
        t.clear_board()
        a, _ = sea_pair(t, 1)
        t.put(0, a)
        put_enemy(t, S.MEGALODON, a)
        t.T[S.ENEMY0 + S.MEGALODON, S.E_DAMAGE] = 4
        rows = turn(t, S.MEGALODON)
        out[name] = (int(t.T[S.ENEMY0 + S.MEGALODON, S.E_STATE]), any(r[2] == EV.ENEMY_ATTACK for r in rows))
    assert out == {"standard": (S.E_OFF, False), "alt-charts": (S.E_ON, True)}


def test_track_a_fortune_symbol_every_fifth_space_means_fewer_catch_up_draws():
    """Fortune Phase: 1 + the symbols between a player and the leader (A10). Leader on 9, others on
    5, 6 and 3: symbols 4 and 8 give the rulebook's 1/2/2/3; symbols 5 and 10 give 1/1/1/2."""
    draws = {}
    for name in ("standard", "alt-track"):
        t = Table(4, overrides={"components": name})
        for s, rep in enumerate((9, 5, 6, 3)):
            t.seat(s)[S.REP] = rep
        draws[name] = [int(t.call("fortune_draws", seat=s, players=4)) for s in range(4)]
    assert draws == {"standard": [1, 2, 2, 3], "alt-track": [1, 1, 1, 2]}


def empty_hand(t, seat):
    while t.seat(seat)[S.FORT_N]:
        t.call("discard_fortune", seat=seat, i=0)


def test_fortune_fair_winds_moves_four_hexes_not_three():
    """A Fair Winds special action moves up to the card's amount (A11: 3 on the standard card, 4 on
    alt-fortune's) toward a goal four hexes off."""
    left = {}
    for name in ("standard", "alt-fortune"):
        t = Table(4, seed=1, overrides={"components": name})
        t.clear_board()
        empty_hand(t, 0)
        t.give_fortune(0, S.F_FAIR_WINDS)
        goal = int(t.call("line_end", h=OUTPOST, d=3, n=4))
        t.put(0, OUTPOST)
        t.call("special_action", k=0, i=0, goal=goal)
        left[name] = int(t.K[S.DIST0 + t.ship(0)[S.HEX], goal])
    assert left == {"standard": 1, "alt-fortune": 0}


def test_fortune_the_bots_play_fair_winds_only_beyond_the_cards_reach():
    """The bots play Fair Winds when the goal lies beyond the card's move, read from the card: a goal
    four hexes off is beyond a 3-hex card (special action) but within a 4-hex one (Full Sail)."""
    chosen = {}
    for name in ("standard", "alt-fortune"):
        t = Table(4, seed=1, strategies="merchant", overrides={"components": name})
        t.clear_board()
        empty_hand(t, 0)
        for _ in range(5):  # more than the merchant keeps back from rerolls
            t.give_fortune(0, S.F_FAIR_WINDS)
        goal = int(t.call("line_end", h=OUTPOST + 1, d=3, n=4))
        t.put(0, OUTPOST + 1)
        assert t.K[S.DIST0 + OUTPOST + 1, goal] == 4
        chosen[name] = int(t.call("choose_action", k=0, goal=np.int64(goal), intent=np.int64(0))[0])
    assert chosen == {"standard": S.A_SPECIAL, "alt-fortune": S.A_FULL_SAIL}


def test_crew_a_scout_costs_600_gold_not_300():
    """Hire Special Crew: the player pays the card's value (A9: 300 for a Scout on the standard card,
    600 on alt-crew's)."""
    paid = {}
    for name in ("standard", "alt-crew"):
        t = Table(2, seed=1, overrides={"components": name})
        scout = next(c for c in range(int(t.K[S.META, S.N_CREW_CARDS])) if t.K[S.C_EFFECT, c] == S.E_SCOUT)
        t.T[S.MARKET, 0] = scout
        t.seat(0)[S.GOLD] = 2000
        t.call("hire", k=0, slot=0)
        paid[name] = 2000 - int(t.seat(0)[S.GOLD])
    assert paid == {"standard": 300, "alt-crew": 600}
