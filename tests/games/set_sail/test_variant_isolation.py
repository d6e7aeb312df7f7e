"""Variant isolation: each named variant's own rules never fire in the base game, and the base rules
it replaces never fire in the variant (simkit/games/set_sail/rules.py declares what each changes).

Per variant a case names two detectors over a played game's event log: `own` (the variant's rule
fired) and `replaced` (the base rule it replaces fired). Self-play games of the base rules at
every player count they allow must never show `own`, and games of the variant at every count it
allows must never show `replaced`; each detector must fire somewhere on its own side, so a
detector that can never fire proves nothing. A variant without a case fails
test_every_variant_has_a_case, and its parametrized case fails too.

Set Sail has one variant, `extended` (A20): 5-6 players, who remove `quest_trim_5p` and
`quest_trim_6p` Quest cards from each deck at set-up where the rules' 2-4 players remove the
top 8, 4 or 2 (Setup - Cards & Tokens 4, SS-044..046). Its games are told apart by the TRIM rows
of the set-up: the rules' trims are overridden to values no other count uses.
"""

from __future__ import annotations

import functools
import json

import numpy as np
import pytest

from simkit.core.rng import game_seeds
from simkit.games.set_sail import GAME
from simkit.sweeps.runner import play, seat_strategies

from .harness import EV, S, Table, play_game

PRESET_NAMES = GAME.preset_names()
VARIANTS = [v for v in GAME.rules.variant_names() if v != "standard"]
SEEDS = range(4)
# every player count removes its own number of cards, so a TRIM row names the count it was read for
TRIMS = {"quest_trim_2p": 8, "quest_trim_3p": 4, "quest_trim_4p": 2, "quest_trim_5p": 1, "quest_trim_6p": 3}
TRIM_OF = {n: TRIMS[f"quest_trim_{n}p"] for n in range(2, 7)}


def counts(variant: str) -> tuple[int, ...]:
    """The player counts a variant is played at: its own, else the game's."""
    v = GAME.rules.variant_by_name.get(variant)
    return tuple(v.players) if v is not None and v.players else tuple(GAME.players)


@functools.cache
def games(variant: str, players: int, overrides: str = "{}") -> tuple[tuple, ...]:
    """Event logs (set-up rows included) of self-play games, every preset seated."""
    out = []
    n = len(PRESET_NAMES)
    for j in range(n):
        lineup = [PRESET_NAMES[(j * players + i) % n] for i in range(players)]
        for seed in SEEDS:
            t = Table(players=players, variant=variant, overrides=json.loads(overrides), seed=500 * players + 7 * j + seed,
                      strategies=lineup)
            play_game(t)
            out.append((players, tuple(t.rows(0))))
    return tuple(out)


def trims(rows) -> set[int]:
    """Cards removed per quest deck at set-up (the TRIM rows), deck by deck."""
    return {r[4] for r in rows if r[2] == EV.TRIM}


class Extended:
    """`extended`: 5-6 players, with the extension's trims (quest_trim_5p/6p) at set-up."""

    overrides = TRIMS

    @staticmethod
    def own(players, rows) -> str | None:
        if players > 4:
            return f"{players} players sit down"
        used = trims(rows) & {TRIM_OF[5], TRIM_OF[6]}
        return f"a deck trimmed by the extension's count {sorted(used)}" if used else None

    @staticmethod
    def replaced(players, rows) -> str | None:
        used = trims(rows) & {TRIM_OF[2], TRIM_OF[3], TRIM_OF[4]}
        return f"a deck trimmed by the 2-4 player count {sorted(used)}" if used else None


CASES = {"extended": Extended}


def test_every_variant_has_a_case():
    assert set(CASES) == set(VARIANTS), f"variants without an isolation case: {sorted(set(VARIANTS) - set(CASES))}"


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_variants_rules_fire_only_in_the_variant(variant):
    assert variant in CASES, f"variant {variant!r} has no isolation case: add one to CASES"
    case = CASES[variant]
    overrides = json.dumps(case.overrides, sort_keys=True)
    base_fired = variant_fired = 0
    for players in counts("standard"):
        for n, rows in games("standard", players, overrides):
            reason = case.own(n, rows)
            assert reason is None, f"{variant}'s rule fires in the base game at {n} players: {reason}"
            base_fired += case.replaced(n, rows) is not None
    for players in counts(variant):
        for n, rows in games(variant, players, overrides):
            reason = case.replaced(n, rows)
            assert reason is None, f"the base rule {variant} replaces fires in {variant} at {n} players: {reason}"
            variant_fired += case.own(n, rows) is not None
    # each detector sees its own side: the base game shows the base rule, the variant its own
    assert base_fired > 0 and variant_fired > 0, (base_fired, variant_fired)


# --------------------------------------------------------------------------- extended, in detail
def test_the_base_rules_refuse_the_extensions_player_counts():
    """SS-G7, A20: 5-6 players need `extended`; the base rules seat 2-4 only."""
    standard = GAME.rules.resolve("standard", {})
    extended = GAME.rules.resolve("extended", {})
    for players in (5, 6):
        assert GAME.check_players(players, standard), f"the base rules seat {players} players"
        assert GAME.check_players(players, extended) is None
    for players in GAME.players:
        assert GAME.check_players(players, standard) is None and GAME.check_players(players, extended) is None


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_each_player_count_trims_its_own_count_and_no_other(players):
    """SS-044..046, A20: the TRIM rows of every game remove quest_trim_<n>p for its n players, from
    the Plunder, Trade and Treasure decks alike (A24), at the rulebook's defaults too."""
    variant = "standard" if players <= 4 else "extended"
    for overrides, want in ((TRIMS, TRIM_OF[players]),
                            ({}, GAME.rules.resolve(variant, {})[f"quest_trim_{players}p"])):
        t = Table(players=players, variant=variant, overrides=overrides, seed=players)
        rows = t.rows(0)
        assert [(r[3], r[4]) for r in rows if r[2] == EV.TRIM] == [(k, want) for k in range(3)]
        assert [int(t.st[S.QREMOVED0 + k]) for k in range(3)] == [want] * 3


def test_extended_at_the_rules_player_counts_plays_the_standard_game():
    """The extension flag has no code path of its own below five players: the same seeds play
    the same games, bit for bit, under `extended` and the rules as written (every preset)."""
    for players in GAME.players:
        seeds = game_seeds(np.uint64(77 + players), 0, 14)
        strategies = seat_strategies(GAME, tuple(PRESET_NAMES), players, 0, len(seeds))
        out = {}
        for variant in ("standard", "extended"):
            compiled = GAME.compile(GAME.rules.resolve(variant, {}), players)
            out[variant] = play(GAME, compiled, strategies, seeds, 200_000, lineup=tuple(PRESET_NAMES))
        for a, b in zip(out["standard"], out["extended"]):
            assert np.array_equal(a, b)
