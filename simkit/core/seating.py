"""Balanced line-ups (docs/guide.md; `simkit sweep --tournament`): how the seats of
a game are dealt to the strategies of a line-up.

The seating design is used by `simkit.sweeps.runner.seat_strategies` and spec validation. A
line-up is a multiset of k strategy labels; a game has n seats. The tables of the design:

- k >= n: every n-combination of the line-up's entries (by position, so an entry named
  twice counts twice: the line-up's multiplicity);
- k < n: every entry sits n // k times, and every (n mod k)-combination of the entries
  takes the remaining seats (`careful,random` at 3 players: {careful, careful, random}
  and {careful, random, random}).

Each table is seated in every distinct order of its labels (its "full" design), weighted
so that every table counts as often as all n! orders of its entries would: the mix of
tables is exactly that of dealing n entries of the line-up at random. When that is more
than DESIGN_CAP seatings, each table is instead seated in its n cyclic rotations (a
Latin design). Either way every strategy sits in every seat equally often and every
pair of entries meets equally often. Repeated seatings are reduced by their common
factor, and the result — the design's `period` of seatings — is cycled through by game
index: game i plays seating i mod period, a pure function of (line-up, players, i). A
game count that is not a multiple of the period leaves one partial period: a seat's
share of a strategy is then off by at most 1/games (noted in summary.json's `seating`
and by `simkit sweep`). A line-up whose period exceeds the games asked for cannot be
balanced and is refused (`check_games`). The tournament's figures (head-to-head, ranking)
are simkit.analysis.tournament's.
"""

from __future__ import annotations

import math
from collections import Counter
from functools import lru_cache, reduce
from itertools import combinations

from simkit.core.bots import LOOKAHEAD
from simkit.core.errors import InputError

DESIGN_CAP = 5_040  # seatings of the full design (7!); past this, cyclic rotations of each table
MAX_PERIOD = 1_000_000  # a design longer than this is refused: it could not be played in balance


# ---------------------------------------------------------------------------------------
# The design


def _tables(k: int, players: int) -> list[tuple[int, ...]]:
    """The tables of the design as tuples of line-up positions (see the module docstring)."""
    repeats, rest = divmod(players, k)
    base = tuple(range(k)) * repeats
    return [base + combo for combo in combinations(range(k), rest)]


def _distinct_orders(labels: tuple[str, ...]) -> int:
    counts = Counter(labels).values()
    return math.factorial(len(labels)) // math.prod(math.factorial(c) for c in counts)


def _unique_permutations(items: list[str]):
    """Distinct orderings of a multiset, lexicographic in the items' given order, without repeats."""
    order = {label: i for i, label in enumerate(dict.fromkeys(items))}
    state = sorted(items, key=order.__getitem__)
    keys = [order[x] for x in state]
    while True:
        yield tuple(state)
        i = len(keys) - 2  # next lexicographic permutation (Narayana)
        while i >= 0 and keys[i] >= keys[i + 1]:
            i -= 1
        if i < 0:
            return
        j = len(keys) - 1
        while keys[j] <= keys[i]:
            j -= 1
        keys[i], keys[j] = keys[j], keys[i]
        state[i], state[j] = state[j], state[i]
        keys[i + 1:] = reversed(keys[i + 1:])
        state[i + 1:] = reversed(state[i + 1:])


@lru_cache(maxsize=256)
def design(lineup: tuple[str, ...], players: int) -> tuple[tuple[tuple[str, ...], ...], str]:
    """(seatings, kind): the design's period of seatings (each a label per seat) and its
    kind, "full" or "rotations" (see the module docstring). Seating 0 is the line-up's
    own order (its first `players` entries, repeated to fill the table)."""
    if not lineup or players < 1:
        raise InputError(f"a line-up needs at least one strategy and a game at least one seat, got {lineup!r}")
    tables = [tuple(lineup[p] for p in table) for table in _tables(len(lineup), players)]
    full = sum(_distinct_orders(t) for t in tables)
    kind = "full" if full <= DESIGN_CAP else "rotations"
    weights: Counter = Counter()
    if kind == "full":
        for table in tables:
            # each distinct order stands for prod(m!) orders of the entries: every table weighs n!
            weight = math.prod(math.factorial(c) for c in Counter(table).values())
            # the rotations first, so that game i of a k == n line-up seats it as the old cyclic rotation did
            rotations = list(dict.fromkeys(table[r:] + table[:r] for r in range(players)))
            for seating in rotations + [p for p in _unique_permutations(list(table)) if p not in rotations]:
                weights[seating] += weight
    else:
        for table in tables:
            for r in range(players):
                weights[table[r:] + table[:r]] += 1
    common = reduce(math.gcd, weights.values())
    period = sum(weights.values()) // common
    if period > MAX_PERIOD:
        raise InputError(f"line-up {','.join(lineup)} at {players} players needs {period:,} seatings to balance "
                         f"(at most {MAX_PERIOD:,}); name fewer strategies")
    left = {seating: w // common for seating, w in weights.items()}
    seatings = []
    while left:  # spread a seating's repeats over the period: a partial period stays near balance
        for seating in list(left):
            seatings.append(seating)
            left[seating] -= 1
            if not left[seating]:
                del left[seating]
    return tuple(seatings), kind


def period(lineup: tuple[str, ...], players: int) -> int:
    """Seatings in the line-up's design: the game count that balances it exactly."""
    return len(design(tuple(lineup), players)[0])


def check_games(lineup: tuple[str, ...], players: int, games: int, where: str) -> None:
    """Refuse a line-up that `games` games cannot balance: fewer games than its seatings."""
    needed = period(lineup, players)
    if games < needed:
        raise InputError(f"line-up {','.join(lineup)} at {players} players has {needed} seatings (every strategy "
                         f"in every seat, every pair meeting equally often) but only {games} games are asked for "
                         f"(in {where}); play at least {needed} games, a multiple of {needed} for an exact balance")


def seating_summary(lineup: tuple[str, ...], players: int, games: int) -> dict:
    """The design a cell was played with, for summary.json: its period and any partial period."""
    seatings, kind = design(tuple(lineup), players)
    return {"kind": kind, "period": len(seatings), "full_periods": games // len(seatings),
            "partial_games": games % len(seatings)}


def tournament_lineup(game, presets: list[str] | None = None, include_random: bool = True) -> tuple[str, ...]:
    """The line-up of a tournament: the presets named, else every preset except the slow
    rollout tiers (kind lookahead: the lookahead and expert presets) and, unless
    include_random, `random`."""
    if presets:
        return tuple(presets)
    names = [p.name for p in game.presets if p.kind != LOOKAHEAD]
    if not include_random:
        names = [n for n in names if n != "random"]
    return tuple(names)


def seating_notes(summary: dict) -> list[str]:
    """One line per cell played with a partial last period of its seating design."""
    notes = []
    for cell in summary.get("cells", []):
        seating = cell.get("seating") or {}
        if seating.get("partial_games"):
            notes.append(f"{cell['cell']}: {cell['games']:,} games are not a multiple of the line-up's "
                         f"{seating['period']} seatings; the last {seating['partial_games']} games are a partial "
                         f"period (each seat's share of a strategy is off by at most 1/{cell['games']:,}); "
                         f"play a multiple of {seating['period']} for an exact balance")
    return notes
