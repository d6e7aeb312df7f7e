"""Variant isolation: each named variant's own rules never fire in the base game, and the base rules
it replaces never fire in the variant (simkit/games/tide_of_avaris/rules.py declares what each
changes: `fixed_order` a rule flag, the others a component file).

Per variant a case names two detectors over a played game: `own` (the variant's rule fired) and
`replaced` (the base rule it replaces fired), each returning what it saw or None. Self-play games
of the base rules at every player count must never show `own`; games of the variant must never
show `replaced`; and each detector must fire somewhere on its own side, so a detector that can
never fire proves nothing. A variant without a case fails test_every_variant_has_a_case, and its
parametrized case fails too.

The component variants are read through the event log's facts about the components: a lane
sailed (MOVE), a space's Board Action taken (ACTION), a treasure collected off a space (COLLECT),
the wind of a fight's last lane (COMBAT, NAVY_ATTACK), a crew die's resource (COMMAND), a relic's
effect (RELIC). A fact the variant's components allow and the standard ones do not is the
variant's rule firing; one the standard components allow and the variant's do not is the base
rule firing.
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass

import numpy as np
import pytest

from simkit.games.tide_of_avaris import GAME

from .harness import EV, S, Table, play_game

PRESET_NAMES = GAME.preset_names()
VARIANTS = [v for v in GAME.rules.variant_names() if v != "standard"]
SEEDS = range(2)


@dataclass(frozen=True)
class Game:
    players: int
    rows: tuple  # the event log, set-up included
    relics: np.ndarray  # each seat's relic effects at the end (REL0 columns), rows by seat


@functools.cache
def board(variant: str, players: int) -> np.ndarray:
    """The component tables K of a variant."""
    return Table(players, variant, setup=False).K


@functools.cache
def games(variant: str, players: int) -> tuple[Game, ...]:
    """Self-play games of every preset (a lookahead seat plays its heuristic through play_day)."""
    out = []
    n = len(PRESET_NAMES)
    for j in range(n):
        lineup = [PRESET_NAMES[(j + i) % n] for i in range(players)]
        for seed in SEEDS:
            t = Table(players, variant, seed=900 * players + 10 * j + seed, strategies=lineup)
            play_game(t)
            out.append(Game(players, tuple(t.rows(0)), t.T[S.SEAT0:S.SEAT0 + players, S.REL0:S.SEAT_COLS].copy()))
    return tuple(out)


def counts(variant: str) -> tuple[int, ...]:
    v = GAME.rules.variant_by_name.get(variant)
    return tuple(v.players) if v is not None and v.players else tuple(GAME.players)


# --------------------------------------------------------------------------- fixed_order
def nights(g: Game) -> list[list[tuple[int, int, int]]]:
    """Each Night's Midnight Wager as (seat, total, position) rows, by position."""
    out, cur = [], []
    for r in g.rows:
        if r[2] == EV.WAGER:
            cur.append((r[1], r[3], r[4]))
            if len(cur) == g.players:
                out.append(sorted(cur, key=lambda w: w[2]))
                cur = []
    return out


class FixedOrder:
    """`fixed_order` (A63: midnight_wager off): seat 0 first every Day whatever the wagers; it
    replaces the Midnight Wager's order, highest total first (TOA-148, TOA-151)."""

    @staticmethod
    def own(g: Game) -> str | None:
        for night in nights(g):
            totals = [w[1] for w in night]
            if any(a < b for a, b in itertools.pairwise(totals)):
                return f"a Night's order ignores its wagers {night}"
        return None

    @staticmethod
    def replaced(g: Game) -> str | None:
        for night in nights(g):
            if any(w[0] != w[2] for w in night):
                return f"the wagers reorder the seats {night}"
        return None


# --------------------------------------------------------------------------- the component variants
def facts(g: Game):
    """(what, test) for every fact about the components in the game's log: test(K) says whether
    the components K allow it."""
    last_move: dict[int, tuple[int, int]] = {}
    navy_lane = None
    for r in g.rows:
        s, code, a, b, c = r[1], r[2], r[3], r[4], r[5]
        if code == EV.MOVE:
            last_move[s] = (a, b)
            yield f"seat {s} sails the lane {a} -> {b}", lambda K, a=a, b=b: K[S.DIST0 + a, b] == 1
        elif code == EV.ACTION:
            yield f"seat {s} takes {S.ACTIONS[a]} on space {b}", lambda K, a=a, b=b: K[S.SP_ACTION, b] == a
        elif code == EV.COLLECT:
            yield f"seat {s} collects on space {b}", lambda K, b=b: K[S.SP_SLOTS, b] >= 1
        elif code == EV.COMBAT and s in last_move:
            lane = last_move[s]
            yield f"seat {s} attacks over {lane} with wind {b}", lambda K, lane=lane, w=b: K[S.WIND0 + lane[0], lane[1]] == w
        elif code == EV.NAVY_MOVE:
            navy_lane = (a, b)
        elif code == EV.NAVY_ATTACK and navy_lane is not None:
            lane = navy_lane
            yield f"the Navy attacks over {lane} with wind {b}", lambda K, lane=lane, w=b: K[S.WIND0 + lane[0], lane[1]] == w
        elif code == EV.COMMAND:
            yield f"seat {s} commands face {a} for {c} {S.RESOURCES[b]}", \
                lambda K, f=a, res=b, n=c: K[S.CREW_RES, f] == res and K[S.CREW_AMOUNT, f] == n
        elif code == EV.RELIC:
            yield f"seat {s} gains relic {a} as {S.RELIC_EFFECTS[b]} +{c}", \
                lambda K, card=a, e=b, n=c: K[S.RELIC_EFFECT, card] == e and K[S.RELIC_AMOUNT, card] == n
        if code in (EV.TURN, EV.DAY):
            last_move.pop(s, None)


def component_case(name: str, doc: str):
    class Case:
        __doc__ = doc
        variant = name

        @staticmethod
        def own(g: Game) -> str | None:
            mine, base = board(name, g.players), board("standard", g.players)
            return next((what for what, ok in facts(g) if ok(mine) and not ok(base)), None)

        @staticmethod
        def replaced(g: Game) -> str | None:
            mine, base = board(name, g.players), board("standard", g.players)
            return next((what for what, ok in facts(g) if ok(base) and not ok(mine)), None)

    Case.__name__ = "".join(w.title() for w in name.split("_"))
    return Case


Windward = component_case("windward", "`windward` (components/alt-windward, A5): winds reversed, two slots fewer, "
                                      "Buy a Sea and Old Vault traded, a lane moved")
AltDice = component_case("alt_dice", "`alt_dice` (components/alt-dice, A1-A4): a crew face's resource, the "
                                     "Numbers, the combat, spirit and Navy dice")
_PlainRelicFacts = component_case("plain_relics", "")


class PlainRelics(_PlainRelicFacts):
    """`plain_relics` (components/alt-plain-relics, A68): relics that are bonuses (extra dice, rum,
    gold, burial points, wager) where the standard relics break a rule."""

    @staticmethod
    def own(g: Game) -> str | None:
        held = g.relics[:, :S.N_BONUS_EFFECTS]
        if held.any():
            return f"a bonus relic held ({held.tolist()})"
        return _PlainRelicFacts.own(g)

    @staticmethod
    def replaced(g: Game) -> str | None:
        held = g.relics[:, S.N_BONUS_EFFECTS:]
        if held.any():
            return f"a rule-breaking relic held ({held.tolist()})"
        return _PlainRelicFacts.replaced(g)


CASES = {"fixed_order": FixedOrder, "windward": Windward, "alt_dice": AltDice, "plain_relics": PlainRelics}


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
    """A variant changes one thing: its games fire no other variant's rule."""
    for players in counts(variant):
        for g in games(variant, players):
            for other, case in CASES.items():
                if other != variant:
                    assert case.own(g) is None, f"{other}'s rule fires in {variant}: {case.own(g)}"


def test_every_fact_of_a_game_is_allowed_by_its_own_components():
    """The facts the component cases read are true of the components each game was played on, so
    a detector that fires reads a difference between the sets and not a misreading of the log."""
    for variant in ["standard"] + VARIANTS:
        for players in counts(variant):
            K = board(variant, players)
            for g in games(variant, players):
                wrong = [what for what, ok in facts(g) if not ok(K)]
                assert not wrong, f"{variant} at {players} players: {wrong[:3]}"
