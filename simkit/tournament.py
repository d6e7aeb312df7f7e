"""Balanced line-ups and tournaments (DESIGN §5 balanced line-ups, §8 `sweep --tournament`).

Two halves:

**Seating design** (used by `simkit.runner.seat_strategies` and spec validation). A
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
balanced and is refused (`check_games`).

**Tournament analysis** (`summaries`, run by `simkit.stats.summarize`) of every cell
whose seats hold two or more strategies: the head-to-head matrix, a Bradley–Terry
strength ranking, the dominant-strategy flag and the first-player advantage per table
(line-up at the table); and the same matrix for every categorical seat column (a dealt
power, quirk or colour). Fields are documented in docs/summary.md.
"""

from __future__ import annotations

import math
from collections import Counter
from functools import lru_cache, reduce
from itertools import combinations

from simkit.errors import InputError

DESIGN_CAP = 5_040  # seatings of the full design (7!); past this, cyclic rotations of each table
MAX_PERIOD = 1_000_000  # a design longer than this is refused: it could not be played in balance
SLOW_PRESETS = ("lookahead",)  # left out of a default tournament: rollout bots, many times slower
INCOMPLETE = "round_cap"  # a round-capped game decides nothing (DESIGN §7)


# ---------------------------------------------------------------------------------------
# Seating design


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
    rollout tiers (SLOW_PRESETS) and, unless include_random, `random`."""
    if presets:
        return tuple(presets)
    names = [n for n in game.preset_names() if n not in SLOW_PRESETS]
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


# ---------------------------------------------------------------------------------------
# Tournament analysis (from the seats table)

HALF = 2  # pairwise outcomes are summed in half points (a tie is 1/2), so every sum is an exact integer
SEPARATED = 15.0  # a Bradley-Terry strength this far out (odds e^15) means the fit diverged
DOMINANT_LEVEL = 0.5  # a dominant label's lower bound beats this against every other label


def _collect(query):
    return query.collect(engine="streaming")


def _pairwise(seats, games, column: str, cells: list[str]):
    """Per (cell, a, b): meetings of a seat labelled a with one labelled b in a decided game,
    and a's score in half points (2 when a finishes ahead by rank, 1 for a tie, else 0).

    Round-capped games decide nothing (DESIGN §7) and are left out. Seats with the same
    label never meet here. Each ordered pair is counted, so (a, b) and (b, a) add to the
    meetings exactly: p_ab + p_ba = 1.
    """
    import polars as pl

    decided = games.filter(pl.col("end_reason") != INCOMPLETE).select("cell", "game_index")
    mine = (seats.filter(pl.col("cell").is_in(cells))
            .select("cell", "game_index", pl.col(column).cast(pl.Utf8).alias("a"), pl.col("rank"))
            .drop_nulls("a")
            .join(decided, on=["cell", "game_index"], how="semi"))
    other = mine.rename({"a": "b", "rank": "rank_b"})
    return _collect(
        mine.join(other, on=["cell", "game_index"])
        .filter(pl.col("a") != pl.col("b"))
        .group_by("cell", "a", "b")
        .agg(pl.len().alias("meetings"),
             (2 * (pl.col("rank") < pl.col("rank_b")).cast(pl.Int64)
              + (pl.col("rank") == pl.col("rank_b")).cast(pl.Int64)).sum().alias("halves"))
        .sort("cell", "a", "b")
    )


def head_to_head(labels: list[str], rows: list[dict], rank: bool) -> dict:
    """The head-to-head matrix of one cell from its `_pairwise` rows, with the dominant label
    and (rank=True) the Bradley–Terry ranking; see docs/summary.md."""
    from simkit.stats import wilson

    cells = {(r["a"], r["b"]): r for r in rows}
    matrix = []
    for a in labels:
        for b in labels:
            if a == b or (a, b) not in cells:
                continue
            meetings, wins = cells[(a, b)]["meetings"], cells[(a, b)]["halves"] / HALF
            low, high = wilson(wins, meetings)
            matrix.append({"row": a, "column": b, "meetings": meetings, "wins": wins, "rate": wins / meetings,
                           "ci_low": low, "ci_high": high})
    by_pair = {(m["row"], m["column"]): m for m in matrix}
    dominant = [a for a in labels
                if all((a, b) in by_pair and by_pair[(a, b)]["ci_low"] > DOMINANT_LEVEL for b in labels if b != a)]
    out = {"labels": labels, "matrix": matrix, "dominant": dominant[0] if dominant else None,
           "largest_half_width": max(((m["ci_high"] - m["ci_low"]) / 2 for m in matrix), default=None)}
    if rank:
        out["ranking"] = bradley_terry(labels, matrix)
    return out


def bradley_terry(labels: list[str], matrix: list[dict]) -> list[dict] | None:
    """Bradley–Terry strengths from the pairwise results: P(a ahead of b) = logistic(s_a − s_b).

    Fitted as a binomial GLM (statsmodels) with one ±1 column per label but the first, whose
    strength is 0; the strengths are then centred (mean 0) and their 95% intervals come from
    the fit's covariance, transformed alike. Ties count as half a win. In games of three or
    more the pairs of one game are not independent, so the intervals are somewhat narrow.
    None when the fit does not exist (some label always or never ahead, or pairs that never met).
    """
    import warnings

    import numpy as np
    import statsmodels.api as sm

    from simkit.stats import Z95

    k = len(labels)
    index = {label: i for i, label in enumerate(labels)}
    pairs = [m for m in matrix if index[m["row"]] < index[m["column"]]]
    if k < 2 or not pairs:
        return None
    design_matrix = np.zeros((len(pairs), k))
    outcome = np.zeros((len(pairs), 2))
    for r, m in enumerate(pairs):
        design_matrix[r, index[m["row"]]] = 1.0
        design_matrix[r, index[m["column"]]] = -1.0
        outcome[r] = (m["wins"], m["meetings"] - m["wins"])
    try:
        with warnings.catch_warnings():
            # statsmodels also warns of "perfect prediction" when the model fits exactly (two
            # labels: one pair, one strength): separation is judged below by the estimates
            warnings.simplefilter("ignore")
            fit = sm.GLM(outcome, design_matrix[:, 1:], family=sm.families.Binomial()).fit()
        covariance = np.zeros((k, k))
        covariance[1:, 1:] = np.asarray(fit.cov_params())
        strength = np.concatenate([[0.0], np.asarray(fit.params)])
    except (ValueError, np.linalg.LinAlgError):
        return None
    if np.any(np.abs(strength) > SEPARATED):  # some label always or never ahead: no finite strength
        return None
    centre = np.eye(k) - 1.0 / k
    strength = centre @ strength
    half = Z95 * np.sqrt(np.maximum(np.diag(centre @ covariance @ centre.T), 0.0))
    if not (np.all(np.isfinite(strength)) and np.all(np.isfinite(half))):
        return None
    order = sorted(range(k), key=lambda i: -strength[i])
    return [{"strategy": labels[i], "rank": place, "strength": float(strength[i]),
             "ci_low": float(strength[i] - half[i]), "ci_high": float(strength[i] + half[i])}
            for place, i in enumerate(order, 1)]


def _first_player_by_table(seats, games, cells: list[str]) -> dict[str, list[dict]]:
    """Per cell and table (the sorted labels at the table): decided games and seat 0's share of them."""
    import polars as pl

    from simkit.stats import WIN_UNITS, _win_units

    per_game = (seats.filter(pl.col("cell").is_in(cells))
                .group_by("cell", "game_index")
                .agg(pl.col("strategy").cast(pl.Utf8).sort().str.join(",").alias("table"),
                     _win_units().filter(pl.col("seat") == 0).sum().alias("seat0"),
                     _win_units().sum().alias("won")))
    rows = _collect(per_game.group_by("cell", "table")
                    .agg(pl.len().alias("games"), (pl.col("won") > 0).sum().alias("decided"),
                         pl.col("seat0").sum().alias("seat0"))
                    .sort("cell", "table"))
    out: dict[str, list[dict]] = {}
    for r in rows.iter_rows(named=True):
        out.setdefault(r["cell"], []).append({"table": r["table"], "games": r["games"], "decided": r["decided"],
                                              "seat0_wins": r["seat0"] / WIN_UNITS})
    return out


def _first_player(tables: list[dict], players: int) -> dict:
    from simkit.stats import wilson

    fair = 1.0 / players
    rows = []
    for t in tables:
        low, high = wilson(t["seat0_wins"], t["decided"])
        rate = t["seat0_wins"] / t["decided"] if t["decided"] else 0.0
        rows.append({**t, "rate": rate, "value": rate - fair, "ci_low": low - fair, "ci_high": high - fair})
    out = {"by_table": rows}
    if len(rows) > 1:
        low, high = min(rows, key=lambda r: r["value"]), max(rows, key=lambda r: r["value"])
        out["range"] = {"value": high["value"] - low["value"], "low_table": low["table"], "high_table": high["table"]}
    return out


def add_summaries(summaries: list[dict], seats, games, categorical: list[str]) -> None:
    """Add the seating design, the tournament figures (cells of two or more strategies) and
    the head-to-head matrix of every categorical seat column to each cell's summary."""
    for cell in summaries:
        lineup = tuple(str(cell.get("lineup") or "").split(","))
        if all(lineup):
            cell["seating"] = seating_summary(lineup, cell["players"], cell["games"])
    mixed = [c for c in summaries if len(c.get("strategies", [])) > 1]
    names = [c["cell"] for c in summaries]
    if mixed:
        pairs = _by_cell(_pairwise(seats, games, "strategy", [c["cell"] for c in mixed]))
        tables = _first_player_by_table(seats, games, [c["cell"] for c in mixed])
        for cell in mixed:
            order = list(dict.fromkeys(cell["lineup"].split(",")))
            cell["head_to_head"] = head_to_head(order, pairs.get(cell["cell"], []), rank=True)
            cell["first_player_by_table"] = _first_player(tables.get(cell["cell"], []), cell["players"])
    for column in categorical:
        pairs = _by_cell(_pairwise(seats, games, column, names))
        for cell in summaries:
            rows = pairs.get(cell["cell"])
            if rows:
                labels = sorted({r["a"] for r in rows} | {r["b"] for r in rows})
                cell.setdefault("matchups", {})[column] = head_to_head(labels, rows, rank=False)


def _by_cell(frame) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for row in frame.iter_rows(named=True):
        out.setdefault(row.pop("cell"), []).append(row)
    return out
