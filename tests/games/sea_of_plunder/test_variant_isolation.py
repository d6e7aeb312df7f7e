"""Variant isolation: each named variant's own rules never fire in the base game, and the base rules
it replaces never fire in the variant (simkit/games/sea_of_plunder/rules.py declares what each
changes: one rule flag per variant).

Per variant a case names two detectors over a played game: `own` (the variant's rule fired) and
`replaced` (the base rule it replaces fired), each returning what it saw or None. They read the
game's event log, the set-up, and two traces taken as the turns are played: the ship the turn is
bound to once its Draw phase is over (state ACTIVE_SHIP: -1 while the two-player variant lets the
player choose) and the Combo Port Island's square after every turn. Self-play games of the base
rules at every player count they allow must never show `own`; games of the variant at every
count it allows must never show `replaced`; and each detector must fire somewhere on its own
side, so a detector that can never fire proves nothing. A variant without a case fails
test_every_variant_has_a_case, and its parametrized case fails too.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import pytest

from simkit.games.sea_of_plunder import GAME

from .harness import COMP, EV, S, Table

PRESET_NAMES = GAME.preset_names()
VARIANTS = [v for v in GAME.rules.variant_names() if v != "standard"]
SEEDS = range(3)
PORTS = list(COMP.port_squares)
PIRATES = sorted(COMP.pirate_squares)


@dataclass(frozen=True)
class Game:
    players: int
    n_ships: int
    ports: tuple  # Port Islands' squares after set-up
    pirates: tuple  # the pirates' squares after set-up, sorted
    start_goods: tuple  # Goods in each hand after set-up
    rows: tuple  # the event log, set-up included
    bound: tuple  # ACTIVE_SHIP after each turn's Draw phase
    combo: tuple  # the Combo Port Island's square after set-up and after each turn


def counts(variant: str) -> tuple[int, ...]:
    v = GAME.rules.variant_by_name.get(variant)
    return tuple(v.players) if v is not None and v.players else tuple(GAME.players)


@functools.cache
def games(variant: str, players: int) -> tuple[Game, ...]:
    """Self-play games of every preset (a lookahead seat plays its heuristic here: the variants'
    rules are the engine's, whoever decides)."""
    out = []
    n = len(PRESET_NAMES)
    for j in range(n):
        lineup = [PRESET_NAMES[(j + i) % n] for i in range(players)]
        for seed in SEEDS:
            t = Table(players=players, variant=variant, seed=700 * players + 10 * j + seed, strategies=lineup)
            ports = tuple(int(t.pos[S.PORT0 + c]) for c in range(S.N_COLOURS))
            pirates = tuple(sorted(int(t.pos[S.PIRATE0 + p]) for p in range(S.N_PIRATES)))
            goods = tuple(sum(t.goods(s)) for s in range(players))
            bound, combo = [], [int(t.pos[S.COMBO])]
            while True:  # harness.play_game, each turn in its two halves
                for s in range(players):
                    t.call("begin_turn", seat=s)
                    bound.append(int(t.st[S.ACTIVE_SHIP]))
                    t.call("finish_turn", seat=s)
                    combo.append(int(t.pos[S.COMBO]))
                t.st[S.ROUND] += 1
                if t.st[S.END_REASON] >= 0 or t.st[S.ROUND] >= t.P.round_cap:
                    break
            t.call("final_scoring")
            out.append(Game(players, int(t.st[S.N_SHIPS]), ports, pirates, goods, tuple(t.rows(0)), tuple(bound),
                            tuple(combo)))
    return tuple(out)


class TwoPlayer:
    """`two_player` (Two Player Variant, SOP-143..SOP-150): two ships a player, either of which a
    turn may sail; it replaces one ship a player, which every turn sails."""

    @staticmethod
    def own(g: Game) -> str | None:
        if g.n_ships != g.players:
            return f"{g.n_ships} ships for {g.players} players"
        second = [r[3] for r in g.rows if r[2] == EV.SHIP_MOVE and r[3] >= g.players]
        if second:
            return f"a player's second ship {second[0]} sails"
        if any(b < 0 for b in g.bound):
            return "a turn lets its player choose the ship to sail (ACTIVE_SHIP -1 after the Draw phase)"
        if any(n != 1 for n in g.start_goods) and not any(r[2] == EV.POWER and r[3] == S.SCALLYWAG for r in g.rows):
            return f"starting Goods {g.start_goods}: one of each own colour"
        return None

    @staticmethod
    def replaced(g: Game) -> str | None:
        if g.n_ships == g.players:
            return f"one ship a player ({g.n_ships})"
        if any(b >= 0 for b in g.bound):
            return "a turn bound to the player's first ship before it plays"
        return None


class RandomSetup:
    """`random_setup` (Random Setup Variant, SOP-152..SOP-156): the Port Islands and the pirates
    placed by the placement dice, where the base set-up puts them on their printed squares
    (SOP-003, SOP-010)."""

    @staticmethod
    def own(g: Game) -> str | None:
        if list(g.ports) != PORTS or list(g.pirates) != PIRATES:
            return f"ports on {g.ports}, pirates on {g.pirates}: not the printed squares"
        return None

    @staticmethod
    def replaced(g: Game) -> str | None:
        if list(g.ports) == PORTS and list(g.pirates) == PIRATES:
            return "every Port Island and pirate on its printed square"
        return None


class ComboPort:
    """`combo_port` (Combo Port Island Module, SOP-157..SOP-163): a Combo Port Island on the board,
    placed and re-placed by the dice, paying a Good of any colour; the base board has none."""

    @staticmethod
    def own(g: Game) -> str | None:
        if any(c >= 0 for c in g.combo):
            return "a Combo Port Island on the board"
        for r in g.rows:
            if r[2] == EV.COMBO_PLACED:
                return f"the Combo Port Island placed at {r[3]}"
            if r[2] == EV.GOOD and r[4] == 1:
                return "a Good taken at the Combo Port Island"
        return None

    @staticmethod
    def replaced(g: Game) -> str | None:
        if any(c < 0 for c in g.combo):
            return "the board without its Combo Port Island"
        return None


CASES = {"two_player": TwoPlayer, "random_setup": RandomSetup, "combo_port": ComboPort}


def test_every_variant_has_a_case():
    assert set(CASES) == set(VARIANTS), f"variants without an isolation case: {sorted(set(VARIANTS) - set(CASES))}"


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_variants_rules_fire_only_in_the_variant(variant):
    assert variant in CASES, f"variant {variant!r} has no isolation case: add one to CASES"
    case = CASES[variant]
    base_fired = variant_fired = 0
    for players in counts("standard"):
        for g in games("standard", players):
            reason = case.own(g)
            assert reason is None, f"{variant}'s rule fires in the base game at {players} players: {reason}"
            base_fired += case.replaced(g) is not None
    for players in counts(variant):
        for g in games(variant, players):
            reason = case.replaced(g)
            assert reason is None, f"the base rule {variant} replaces fires in {variant} at {players} players: " \
                                   f"{reason}"
            variant_fired += case.own(g) is not None
    assert base_fired > 0 and variant_fired > 0, (base_fired, variant_fired)


@pytest.mark.parametrize("variant", VARIANTS)
def test_each_variant_leaves_the_other_variants_rules_alone(variant):
    """A variant's games fire no other variant's rule (each flag is orthogonal, SOP-157)."""
    for players in counts(variant):
        for g in games(variant, players):
            for other, case in CASES.items():
                if other != variant:
                    assert case.own(g) is None, f"{other}'s rule fires in {variant}: {case.own(g)}"


def test_combo_port_goods_are_counted_apart_from_the_port_islands():
    """SOP-159: the module's Goods are logged as its own (GOOD source 1), which the base game's
    four Port Islands never log, so the detector above reads the rule and not a coincidence."""
    base = [r for g in games("standard", 4) for r in g.rows if r[2] == EV.GOOD]
    combo = [r for g in games("combo_port", 4) for r in g.rows if r[2] == EV.GOOD]
    assert {r[4] for r in base} <= {0, 2} and 1 in {r[4] for r in combo}
    assert all(0 <= r[3] < S.N_COLOURS for r in base + combo)
