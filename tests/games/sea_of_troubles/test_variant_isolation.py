"""Each named variant (rules.VARIANTS) is isolated: its own rules never fire in the base game,
and the base rules it replaces never fire under it. Read from the event log (and the tables
right after set-up) of whole self-play games; the ids are the rule inventory's
(simkit/games/sea_of_troubles/coverage.toml).

Every variant needs a case in CASES: a variant added to rules.py without one fails
test_every_variant_has_a_case (and its own parametrized test).
"""

from __future__ import annotations

import functools

import pytest

from simkit.games.sea_of_troubles import rules

from .harness import EV, S, Table, play_game

LINEUPS = (["random"], ["pillager", "duellist", "hoarder", "quester", "random"], ["hoarder"], ["duellist", "random"])
SEEDS = 4
BASE = rules.SCHEMA.resolve("standard")


class Game:
    """A finished game, with what set-up left on the table."""

    def __init__(self, players: int, variant: str, seed: int, lineup: list[str], overrides: dict | None = None):
        t = Table(players, variant, overrides=overrides, seed=seed,
                  strategies=[lineup[s % len(lineup)] for s in range(players)])
        self.players = players
        self.hands = [int(t.seat(s)[S.HAND_N]) for s in range(players)]
        self.infamy = [int(t.seat(s)[S.INFAMY]) for s in range(players)]
        self.tdeck = int(t.st[S.TDECK_N])
        self.quests = int(t.st[S.N_QUESTS])
        self.qdeck = int(t.st[S.QDECK_N])
        self.n_quirks = int(t.K[S.META, S.N_QUIRKS])
        self.wild = int(t.P.wild_value)
        play_game(t)
        self.rows = t.rows(0)
        self.quirks = [int(t.seat(s)[S.QUIRK]) for s in range(players)]
        self.end = int(t.st[S.END_REASON])
        self.sunk = int(t.st[S.SUNK])
        first_turn = next(i for i, r in enumerate(self.rows) if r[2] == EV.TURN)
        self.setup_rows = self.rows[:first_turn]

    def code(self, code: int, rows=None) -> list[tuple]:
        return [r for r in (self.rows if rows is None else rows) if r[2] == code]

    def rival_digs(self) -> list[tuple]:
        """Successful digs at a rival's X (a card drawn: b; the treasure taken: c)."""
        return [r for r in self.code(EV.DIG) if r[5] >= 0 and r[4] >= 0]

    def death_damage(self) -> list[int]:
        """The damage each sinking ship had: the last DAMAGE row of its seat before its DEATH row."""
        out = []
        for i, r in enumerate(self.rows):
            if r[2] == EV.DEATH:
                out.append(next(q[3] for q in reversed(self.rows[:i]) if q[2] == EV.DAMAGE and q[1] == r[1]))
        return out

    def burial_xs(self) -> dict[int, set[int]]:
        xs: dict[int, set[int]] = {}
        for r in self.code(EV.BURY):
            xs.setdefault(r[1], set()).add(r[4])
        return xs


@functools.cache
def games(variant: str) -> tuple[Game, ...]:
    """Self-play games of the variant at each player count it allows (the base game at all)."""
    allowed = rules.SCHEMA.variant_by_name[variant].players if variant != "standard" else None
    counts = allowed or (2, 3, 4, 5)
    return tuple(Game(p, variant, seed, lineup) for p in counts for seed in range(SEEDS) for lineup in LINEUPS)


def need(ok, rule: str, what: str):
    assert ok, f"({rule}) {what}"


# ------------------------------------------------------------------ Skirmish Mode
def skirmish(base: tuple[Game, ...], var: tuple[Game, ...]):
    values = rules.SCHEMA.resolve("skirmish")
    # its rules never fire in the base game
    for g in base:
        need(S.END_BURIED not in [r[3] for r in g.code(EV.END_TRIGGER)], "SOTR-220",
             "the buried-treasure victory ended a base game")
        need(all(x == BASE["start_infamy"] for x in g.infamy), "SOTR-208", f"base game starts with {g.infamy} Infamy")
        need(g.tdeck > 6, "SOTR-209", f"a base game's treasure deck holds {g.tdeck} cards, Skirmish's 6")
        need(all(len(x) == 1 for x in g.burial_xs().values()), "SOTR-215", "a base pirate buried at two X's")
        need(all(r[4] >= BASE["dig_min"] for r in g.rival_digs()), "SOTR-213",
             "a base dig succeeded on a Wild (a card below 3)")
        need(all(d == BASE["sink_damage"] for d in g.death_damage()), "SOTR-214",
             f"base ships sank at damage {g.death_damage()}, not 4")
    # the base rules it replaces never fire under it
    for g in var:
        need(g.quests == 0 and not g.code(EV.DELIVER), "SOTR-211", "a quest in a Skirmish game")
        need(S.END_QUESTS not in [r[3] for r in g.code(EV.END_TRIGGER)], "SOTR-221",
             "the all-quests trigger ended a Skirmish game")
        need(not [r for r in g.code(EV.INFAMY) if r[4] == EV.R_PILLAGE], "SOTR-212", "a Skirmish pillage paid Infamy")
        need(g.tdeck == 6, "SOTR-209", f"a Skirmish treasure deck of {g.tdeck} cards")
        need(all(x == values["start_infamy"] for x in g.infamy), "SOTR-208", f"Skirmish starts with {g.infamy} Infamy")
        need(all(r[4] == g.wild for r in g.rival_digs()), "SOTR-213", "a Skirmish dig succeeded on a 3 or 4")
        need(all(d == values["sink_damage"] for d in g.death_damage()), "SOTR-214",
             f"Skirmish ships sank at damage {g.death_damage()}, not 3")
    # neither check is empty: each side's rules do fire where they apply
    need(any(g.code(EV.DELIVER) for g in base) and any(g.code(EV.PILLAGE) for g in var), "SOTR-211",
         "no delivery in the base games or no pillage in Skirmish")
    need(any([r for r in g.code(EV.INFAMY) if r[4] == EV.R_PILLAGE] for g in base), "SOTR-068", "no pillage Infamy")
    need(any(g.end == S.END_BURIED for g in var), "SOTR-220", "no Skirmish game ended by buried treasure")
    need(any(len(x) > 1 for g in var for x in g.burial_xs().values()), "SOTR-215", "nobody buried at two X's")
    need(any(g.rival_digs() for g in base) and any(g.rival_digs() for g in var), "SOTR-132", "no successful digs")
    need(any(g.death_damage() for g in base) and any(g.death_damage() for g in var), "SOTR-157", "no deaths")


# ------------------------------------------------------------------ the bidding start
def bidding_start(base: tuple[Game, ...], var: tuple[Game, ...]):
    for g in base:
        need(not g.code(EV.BID, g.setup_rows) and not g.code(EV.STARTER, g.setup_rows), "SOTR-031",
             "a base game opened with a bid")
        need(g.hands == [BASE["hand_size"]] * g.players, "SOTR-015", f"base hands dealt {g.hands}, not 8 each")
        need(g.code(EV.PLACE)[0][1] == 0 and g.code(EV.TURN)[0][1] == 0, "A13", "a base game not opened by seat 0")
    for g in var:
        bids = g.code(EV.BID, g.setup_rows)
        need(sorted(r[1] for r in bids) == list(range(g.players)), "SOTR-031", "not every seat bid for the first turn")
        need(all(1 <= r[3] <= 2 for r in bids), "SOTR-033", f"opening bids of {[r[3] for r in bids]} cards")
        need(g.hands == [BASE["hand_size"] + 1 - r[3] for r in sorted(bids, key=lambda r: r[1])], "SOTR-032",
             f"hands {g.hands} after a deal of 9 and the bids")
        winner = next(r[1] for r in bids if r[5] == 1)
        starter = g.code(EV.STARTER, g.setup_rows)
        need(g.code(EV.PLACE)[0][1] == winner, "SOTR-035", "the bid winner did not place first")
        need(len(starter) == 1 and starter[0][1] == winner and g.code(EV.TURN)[0][1] == starter[0][3], "SOTR-037",
             "the first turn is not the bid winner's choice")
    need(any(g.code(EV.TURN)[0][1] != 0 for g in var), "SOTR-037", "every bidding game opened with seat 0")


# ------------------------------------------------------------------ Quirks
def quirks(base: tuple[Game, ...], var: tuple[Game, ...]):
    for g in base:
        need(not g.code(EV.QUIRK) and not g.code(EV.GAMBLE), "SOTR-011", "a quirk drawn or played in a base game")
        need(g.qdeck == 0 and g.quirks == [-1] * g.players, "SOTR-202", "a quirk deck or quirk in a base game")
    for g in var:
        need(g.qdeck == g.n_quirks > 0, "SOTR-202", f"{g.qdeck} of {g.n_quirks} quirks shuffled at set-up")
        firsts = {}
        for i, r in enumerate(g.rows):
            if r[2] == EV.INFAMY and r[3] > 0 and r[1] not in firsts:
                firsts[r[1]] = i
        # the base game's first Infamy brings nothing; here it brings the seat's quirk draw, once
        for seat, i in firsts.items():
            nxt = g.rows[i + 1] if i + 1 < len(g.rows) else None
            need(nxt is not None and nxt[2] == EV.QUIRK and nxt[1] == seat, "SOTR-203",
                 f"seat {seat}'s first Infamy brought no quirk draw")
        need(sorted(r[1] for r in g.code(EV.QUIRK)) == sorted(firsts), "SOTR-203", "a quirk drawn on a later gain")
    need(any(g.code(EV.GAMBLE) for g in var), "SOTR-193", "no gambler quirk played")


CASES = {"skirmish": skirmish, "bidding_start": bidding_start, "quirks": quirks}


@pytest.mark.parametrize("variant", [v.name for v in rules.VARIANTS])
def test_a_variant_fires_only_under_itself(variant):
    assert variant in CASES, f"variant {variant!r} has no isolation case"
    CASES[variant](games("standard"), games(variant))


def test_every_variant_has_a_case():
    assert set(CASES) == {v.name for v in rules.VARIANTS}


# ------------------------------------------------------------------ readings (rule parameters)
# A reading's parameter (rules.py) switches one silence of the rulebook; its other values must
# never fire under the default, nor the default's under them. Whole self-play games of the
# fighting and burying presets, so ships sink laden and Skirmish pirates bury at several X's.
READING_LINEUPS = (["duellist"], ["duellist", "hoarder", "tuned"], ["tuned"], ["hoarder", "duellist"])
READING_SEEDS = 6


@functools.cache
def reading_games(variant: str, name: str, value: str) -> tuple[Game, ...]:
    counts = (3, 4) if variant == "skirmish" else (2, 3, 4, 5)
    return tuple(Game(p, variant, seed, lineup, {name: value}) for p in counts
                 for seed in range(READING_SEEDS) for lineup in READING_LINEUPS)


def sunk_rows(g: Game) -> list[tuple]:
    return [r for r in g.code(EV.TREASURE) if r[4] == EV.R_SUNK]


def test_sunk_treasure_readings_fire_only_under_themselves():
    # A12: the default's carried treasure leaves the game (counted in SUNK, nobody takes it)
    lost = reading_games("standard", "sunk_treasure", "lost")
    need(any(sunk_rows(g) for g in lost), "A12", "no laden ship sank")
    for g in lost:
        need(all(r[5] == -1 for r in sunk_rows(g)) and g.sunk == len(sunk_rows(g)), "A12",
             "a sunk ship's treasure stayed in the game under the default")
    deck = reading_games("standard", "sunk_treasure", "deck")
    need(any(sunk_rows(g) for g in deck), "A12", "no laden ship sank under deck")
    need(all(g.sunk == 0 and all(r[5] == -1 for r in sunk_rows(g)) for g in deck), "A12",
         "a sunk treasure left the game (or was taken) under deck")
    taker = reading_games("standard", "sunk_treasure", "attacker")
    need(any(r[5] >= 0 for g in taker for r in sunk_rows(g)), "A12", "no sinking pirate took a cargo under attacker")
    for g in taker:  # what is not taken (no living sinker) is the only thing lost
        need(g.sunk == sum(1 for r in sunk_rows(g) if r[5] < 0), "A12", "a taken treasure counted as sunk")


def digs_elsewhere(g: Game) -> tuple[int, int]:
    """Digs that took a card (a rival's or its own) in the game: how many, and how many took a
    card buried at another X than the one dug."""
    buried_at: dict[int, int] = {}
    digs = other = 0
    for r in g.rows:
        if r[2] == EV.BURY:
            buried_at[r[3]] = r[4]
        elif r[2] == EV.DIG and r[5] >= 0:
            digs += 1
            other += buried_at[r[5]] != r[3]
    return digs, other


def test_dig_pool_readings_fire_only_under_themselves():
    # A17: in Skirmish the default pool is the owner's whole stock, so some dig takes a card
    # buried at another of its X's; with dig_pool=x a dig never does
    owner = [digs_elsewhere(g) for g in reading_games("skirmish", "dig_pool", "owner")]
    need(sum(o for _, o in owner) > 0, "A17", "no Skirmish dig reached another X under the default")
    at_x = [digs_elsewhere(g) for g in reading_games("skirmish", "dig_pool", "x")]
    need(sum(d for d, _ in at_x) > 0, "A17", "no Skirmish dig under x")
    need(all(o == 0 for _, o in at_x), "A17", "a dig took treasure buried at another X under x")
    base = [digs_elsewhere(g) for g in reading_games("standard", "dig_pool", "owner")]
    need(all(o == 0 for _, o in base), "A17", "a base-game dig reached another X (one X per pirate)")
