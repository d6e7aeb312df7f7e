"""Each named variant (rules.VARIANTS) is isolated: its own rules never fire in the base game,
and the base rules it replaces never fire under it. Read from the event log (and the tables
right after set-up) of whole self-play games; the ids are the rule inventory's
(simkit/games/sea_of_thieves/coverage.toml).

The base game is `standard`. At two players it takes the two-player set-up by itself
(two_player = auto), so the two-player case compares the base games that do not (3 and 4
players, and 2 with `two_player=off`) with the variant's. Every variant needs a case in CASES:
one added to rules.py without one fails test_every_variant_has_a_case (and its own test).
"""

from __future__ import annotations

import functools

import pytest

from simkit.games.sea_of_thieves import events as EV
from simkit.games.sea_of_thieves import rules

from .harness import S, Table, play_game

LINEUPS = (["random"], ["merchant", "hunter", "legend_chaser", "random"])
SEEDS = 4
BASE = rules.SCHEMA.resolve("standard")
BOXABLE = (S.MEGALODON, S.KRAKEN, S.FORT)  # what the beginner game leaves in the box
ROLLED_SPAWNS = (S.MEGALODON, S.SKELETON_SLOOP, S.SKELETON_GALLEON)  # ENEMY_SPAWN c: the tile position rolled


class Game:
    """A finished game, with what set-up left on the table."""

    def __init__(self, players: int, variant: str, seed: int, lineup: list[str], overrides: dict | None = None):
        t = Table(players, variant, overrides, seed=seed, strategies=[lineup[s % len(lineup)] for s in range(players)])
        T, K = t.T, t.K
        self.players = players
        self.two_player = int(t.st[S.TWO_PLAYER])
        self.hub = int(T[S.LAYOUT, 0])
        self.tiles = [int(x) for x in T[S.LAYOUT, 1:7]]
        self.first_layout = [int(K[S.META, S.FIRST_LAYOUT0 + p]) for p in range(1, 7)]
        self.gold = [int(t.seat(s)[S.GOLD]) for s in range(players)]
        self.boxed_skeletons = sum(1 for x in range(int(K[S.META, S.FIRST_SKELETON]), int(K[S.META, S.FIRST_CAPTAIN]))
                                   if T[S.TOK_LOC, x] == S.IN_BOX)
        voyages = []
        for tier in range(3):
            head, n = int(t.st[S.VOY_HEAD0 + 2 * tier]), int(t.st[S.VOY_N0 + 2 * tier])
            voyages += [int(T[S.VOY_DECK0 + tier, (head + i) % S.MAX_VOYAGES]) for i in range(n)]
        for s in range(players):
            voyages += t.voyage_hand(s)
        self.voyages = voyages
        self.voyage_cards = int(K[S.META, S.N_VOYAGE_CARDS])
        self.unreachable = [v for v in voyages if any(K[c, v] >= 0 and T[S.SYMBOL_HEX, K[c, v]] < 0
                                                       for c in (S.V_SYM, S.V_SYM2))]
        self.enemy_states0 = [int(T[S.ENEMY0 + e, S.E_STATE]) for e in range(S.N_ENEMIES)]
        self.event_spawn = [int(K[S.EVT_SPAWN, c]) for c in range(int(K[S.META, S.N_EVENTS]))]
        play_game(t)
        self.rows = t.rows(0)
        self.enemy_states = [int(T[S.ENEMY0 + e, S.E_STATE]) for e in range(S.N_ENEMIES)]

    def code(self, *codes: int) -> list[tuple]:
        return [r for r in self.rows if r[2] in codes]

    def layout_rows(self) -> list[int]:
        """The tile face the log shows at hub positions 1-6 (-1: no tile)."""
        return [r[4] for r in sorted(self.code(EV.LAYOUT), key=lambda r: r[3])]

    def tile_rolls(self) -> list[int]:
        """Every random sea tile rolled that the log reports: respawns and waypoint spawns."""
        return [r[5] for r in self.code(EV.RESPAWN)] + [r[5] for r in self.code(EV.ENEMY_SPAWN) if r[3] in ROLLED_SPAWNS]

    def spawned(self) -> set[int]:
        return {r[3] for r in self.code(EV.ENEMY_SPAWN)}


@functools.cache
def games(variant: str, players: tuple[int, ...] = (2, 3, 4), two_player_off: bool = False) -> tuple[Game, ...]:
    overrides = {"two_player": "off"} if two_player_off else None
    return tuple(Game(p, variant, seed, lineup, overrides) for p in players for seed in range(SEEDS)
                 for lineup in LINEUPS)


def need(ok, rule: str, what: str):
    assert ok, f"({rule}) {what}"


# ------------------------------------------------------------------ the two-player board and set-up
def two_player():
    base = games("standard", (3, 4)) + games("standard", (2,), two_player_off=True)
    var = games("two_player")
    for g in base:
        need(g.two_player == 0 and g.hub == S.HUB_STANDARD, "SOT-135", f"{g.players}-player base game on the 2p hub")
        need(all(x >= 0 for x in g.tiles) and all(x >= 0 for x in g.layout_rows()), "SOT-136",
             f"a base board with tiles {g.tiles}")
        need(g.boxed_skeletons == 0, "SOT-142", f"{g.boxed_skeletons} skeletons boxed in a base game")
        need(len(g.voyages) == g.voyage_cards, "SOT-147", f"{g.voyage_cards - len(g.voyages)} voyages removed")
    for g in var:
        need(g.two_player == 1 and g.hub == S.HUB_TWO_PLAYER, "SOT-135", f"{g.players}-player 2p game on the base hub")
        need(sum(x >= 0 for x in g.tiles) == 4 == sum(x >= 0 for x in g.layout_rows()), "SOT-136",
             f"a two-player board with tiles {g.tiles}")
        need(g.boxed_skeletons == BASE["two_player_skeletons_removed"], "SOT-142",
             f"{g.boxed_skeletons} skeletons boxed in a two-player game")
        need(not g.unreachable and len(g.voyages) < g.voyage_cards, "SOT-147",
             f"voyages {g.unreachable} name islands not on the two-player board")
        need(not {1, 6} & set(g.tile_rolls()), "SOT-037", f"tile rolls {sorted(set(g.tile_rolls()))} in a 2p game")
    # the base rolls every position: the reroll of a 1 or a 6 never runs there
    rolled = {p for g in base for p in g.tile_rolls()}
    need(rolled == set(range(1, 7)), "SOT-036", f"base games rolled only the positions {sorted(rolled)}")
    need(sum(len(g.tile_rolls()) for g in var) > 50, "SOT-037", "too few two-player tile rolls to tell")


# ------------------------------------------------------------------ equal starting gold
def equal_gold():
    base, var = games("standard"), games("equal_gold")
    amount = rules.SCHEMA.resolve("equal_gold")["equal_gold_amount"]
    for games_, want in ((base, lambda g: list(BASE["starting_gold"][: g.players])),
                         (var, lambda g: [amount] * g.players)):
        for g in games_:
            first = {}
            for r in g.code(EV.TURN):
                first.setdefault(r[1], r[4])  # the gold at the seat's first turn: nothing is paid before
            rule = "SOT-158" if games_ is base else "A13"
            need(g.gold == want(g) and [first[s] for s in range(g.players)] == want(g), rule,
                 f"{g.players} players start with {g.gold} gold (first turns: {first}), not {want(g)}")


# ------------------------------------------------------------------ the first-game layout
def first_game():
    base, var = games("standard"), games("first_game")
    for g in base:
        need(g.layout_rows() != g.first_layout, "SOT-133", "a base board laid out as the cover sheet's")
    need(len({tuple(g.layout_rows()) for g in base if g.players == 4}) > 1, "SOT-133", "base boards all alike")
    for g in var:
        need(g.layout_rows() == g.first_layout == g.tiles, "SOT-132",
             f"a first game laid out {g.layout_rows()}, not {g.first_layout}")


# ------------------------------------------------------------------ the beginner game
def beginner():
    base, var = games("standard"), games("beginner")
    monster_rows = (EV.TENTACLES, EV.KRAKEN_WAITS, EV.KRAKEN_WOUND, EV.FORT_WAVE, EV.FORT_RAIDED)
    for g in base:
        need(S.E_BOXED not in g.enemy_states0 + g.enemy_states, "SOT-148", "an enemy left in the box in a base game")
    # the Megalodon, the Kraken and the forts come out in base games (their spawns fire)
    need(set(BOXABLE) <= {e for g in base for e in g.spawned()}, "SOT-277", "a monster or fort never spawned in base")
    need(any(g.code(EV.TENTACLES) for g in base), "SOT-278", "no Kraken tentacles in base games")
    for g in var:
        for e in BOXABLE:
            need(g.enemy_states0[e] == g.enemy_states[e] == S.E_BOXED, "SOT-148",
                 f"the {S.ENEMY_NAMES[e]} is not boxed in a beginner game")
        need(not g.spawned() & set(BOXABLE) and not g.code(*monster_rows), "SOT-148",
             "a boxed monster or fort came into a beginner game")
    # their event symbols were drawn and ignored (boxed_spawns = ignore, A49)
    drawn = {g.event_spawn[r[3]] for g in var for r in g.code(EV.EVENT_CARD)}
    need({S.SP_MEGALODON, S.SP_KRAKEN, S.SP_FORT} <= drawn, "A49", "no boxed enemy's symbol drawn in beginner games")


CASES = {"two_player": two_player, "equal_gold": equal_gold, "first_game": first_game, "beginner": beginner}


@pytest.mark.parametrize("variant", [v.name for v in rules.VARIANTS])
def test_a_variant_fires_only_under_itself(variant):
    assert variant in CASES, f"variant {variant!r} has no isolation case"
    CASES[variant]()


def test_every_variant_has_a_case():
    assert set(CASES) == {v.name for v in rules.VARIANTS}
