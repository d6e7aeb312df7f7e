"""One basis for every rate (docs/statistics.md): seats, strategies and dealt categories are all
measured over decided games, and the capped and shared shares are given beside them.

A round-capped game is nobody's win and is left out: counting its seats as losses would put
every seat, strategy and colour below a fair 1/players. A k-way shared win counts 1/k for
each sharer, so the seats' wins add up to the decided games. The whole-seat figures (the
largest seat gap, every seat within its interval of fair) judge the seat vector as a whole:
tuning, the tiers and the headline read them from here.
"""

from __future__ import annotations

import polars as pl

from simkit.analysis.intervals import gap_interval, paired_ratio_difference, product, ratio, ratio_pairing, wilson
from simkit.analysis.tables import collect, win_units
from simkit.analysis.tests import holm, p_against

SIGNIFICANCE = 0.05  # a Holm-adjusted p below this: clear of the noise (`clear_of_noise`)


def share(wins: float, decided: int, fair: float) -> dict:
    """A share of decided games against fair, with its Wilson interval (rate units)."""
    low, high = wilson(wins, decided)
    rate = wins / decided if decided else 0.0
    return {"rate": rate, "ci_low": low, "ci_high": high, "vs_fair": rate - fair,
            "vs_fair_low": low - fair, "vs_fair_high": high - fair}


def no_decided_game(cell: dict) -> bool:
    """A cell that played games but decided none (every game hit the round cap): it has no seat,
    strategy or dealt-value figure, and no number of games of its rules gives it one; its summary
    holds null for those rates and intervals (docs/results.md)."""
    if not cell.get("games"):
        return False
    decided = cell.get("decided_games")
    if decided is None:  # a summary from before decided_games: the seats' wins add up to the decided games
        seats = cell.get("seats") or []
        if not seats or not all("wins" in s for s in seats):
            return False  # no count to tell: read as measured, as before
        decided = round(sum(s["wins"] for s in seats))
    return decided == 0


def no_decided_text(cell: dict) -> str:
    """What a reader says instead of a figure of a cell with no decided game."""
    return f"no decided game (all {cell['games']:,} capped)"


def seat_shares(wins_by_seat: list[float], fair: float) -> list[dict]:
    """Every seat's share of the decided games (the seats' summed wins) against fair."""
    decided = round(sum(wins_by_seat))
    return [{"seat": seat, **share(wins, decided, fair)} for seat, wins in enumerate(wins_by_seat)]


def clear_of_noise(p_values: list[float]) -> list[tuple[float, bool]]:
    """The report's one rule for a figure standing clear of its noise, for every figure it
    tests at once (seats against fair, dealt values and strategies against their cell's
    average, variant comparisons): per figure, in the input order, its Holm-adjusted p over
    all of them and whether that p is below SIGNIFICANCE. The headline, the overview, the
    seat, strategy, category and comparison tables read this verdict (through
    `simkit.analysis.findings.Headline.verdict`), so a figure clear in one place is clear in all.
    A 95% interval alone may exclude zero and the figure still not be clear: the correction
    over many figures is what keeps chance effects out."""
    return [(adjusted, adjusted < SIGNIFICANCE) for adjusted in holm(list(p_values))]


def covers_fair(row: dict) -> bool:
    """The row's interval contains fair."""
    return row["vs_fair_low"] <= 0.0 <= row["vs_fair_high"]


def every_seat_fair(shares: list[dict]) -> bool:
    """Every seat's interval contains fair: the only case in which a rule 'evens the seats'."""
    return bool(shares) and all(covers_fair(row) for row in shares)


def seat_gap(shares: list[dict], decided: int) -> dict:
    """The largest seat gap over decided games: the highest seat's share minus the lowest's,
    with that pair's interval (it reads a little high for a pair picked after the fact)."""
    if not shares or decided <= 0:
        return {"value": None, "ci_low": None, "ci_high": None, "high_seat": None, "low_seat": None}
    high = max(shares, key=lambda s: s["rate"])
    low = min((s for s in shares if s is not high), key=lambda s: s["rate"], default=high)  # two seats, even when tied
    ci_low, ci_high = gap_interval(high["rate"], low["rate"], decided)
    return {"value": high["rate"] - low["rate"], "ci_low": ci_low, "ci_high": ci_high,
            "high_seat": high["seat"], "low_seat": low["seat"]}


def worst_seat(shares: list[dict]) -> dict:
    """The seat furthest from fair."""
    return max(shares, key=lambda s: abs(s["vs_fair"]))


def group_rates(rows: list[dict], key: str, fair: float) -> list[dict]:
    """Strategies or a dealt category's values (rows with `seats`, `decided_seats`, `wins`,
    `capped_seats`, `shared_seats`) as rates per decided seat played, against fair.

    A strategy (or power) as strong as the rest wins 1/players of the decided games it sat
    in; `win_rate` is that share, `capped_share` and `shared_share` the shares of its seats
    in capped games and in games with a shared win."""
    out = []
    for row in rows:
        decided, seats = int(row["decided_seats"]), int(row["seats"])
        measured = share(float(row["wins"]), decided, fair)
        out.append({key: row[key], "seats": seats, "decided_seats": decided, "wins": float(row["wins"]),
                    "win_rate": measured["rate"], "ci_low": measured["ci_low"], "ci_high": measured["ci_high"],
                    "vs_fair": measured["vs_fair"], "vs_fair_low": measured["vs_fair_low"],
                    "vs_fair_high": measured["vs_fair_high"],
                    "capped_share": (seats - decided) / seats if seats else 0.0,
                    "shared_share": int(row.get("shared_seats", 0)) / seats if seats else 0.0})
    return out


def group_average(rows: list[dict]) -> float | None:
    """The average win rate per decided seat of a group of rows (1/players when every seat is in
    it; another value when the category is dealt to some seats only)."""
    decided = sum(row["decided_seats"] for row in rows)
    return sum(row["wins"] for row in rows) / decided if decided else None


# ---------------------------------------------------------------------------------------
# The headline's figures: one number with its interval from one summary cell (the report's
# findings and the robustness labels read them from here, so both measure alike)


def wilson_vs(wins: float, n: int, reference: float) -> tuple[float, float, float]:
    """(rate − reference, low − reference, high − reference) with the Wilson interval."""
    low, high = wilson(wins, n)
    rate = wins / n if n else 0.0
    return rate - reference, low - reference, high - reference


def seat_rates(cell: dict) -> tuple[int, list[tuple[int, float, float, float, float]]]:
    """Decided games and per seat (seat, rate, vs fair, low, high) over decided games."""
    decided = round(sum(s["wins"] for s in cell["seats"]))
    fair = 1.0 / cell["players"]
    rows = []
    for s in cell["seats"]:
        vs, low, high = wilson_vs(s["wins"], decided, fair)
        rows.append((s["seat"], s["wins"] / decided if decided else 0.0, vs, low, high))
    return decided, rows


def seat_figure(cell: dict, seat: int) -> tuple[float, float, float, float]:
    """(vs fair, low, high, p) of one seat over decided games."""
    decided, rows = seat_rates(cell)
    _, rate, vs, low, high = rows[seat]
    return vs, low, high, p_against(rate, 1.0 / cell["players"], decided)


def decided_seats(row: dict) -> int:
    """The seats a rate is over: decided seats (summaries from before the one basis: all seats)."""
    return int(row.get("decided_seats", row["seats"]))


def group_rows(cell: dict, what: str, baseline: str | None) -> list[dict]:
    """The rows a strategy or category figure compares: a strategy line-up without its random
    baseline (which measures the bots, never the game)."""
    if what == "strategy":
        return [r for r in cell.get("strategies", []) if str(r["strategy"]) != baseline]
    return cell.get("categories", {}).get(what, [])


def group_mean(rows: list[dict]) -> float | None:
    """The average win rate per decided seat of the rows (decided seats of old summaries: all)."""
    seats = sum(decided_seats(r) for r in rows)
    return sum(r["wins"] for r in rows) / seats if seats else None


def group_figure(cell: dict, what: str, name: str, baseline: str | None = None
                 ) -> tuple[float, float, float, float] | None:
    """(vs average, low, high, p) of one category value or strategy of a cell, or None."""
    rows = [r for r in group_rows(cell, what, baseline) if decided_seats(r)]
    average = group_mean(rows)
    match = [r for r in rows if str(r.get("strategy", r.get("value"))) == name]
    if not match or average is None:
        return None
    r = match[0]
    n = decided_seats(r)
    vs, low, high = wilson_vs(r["wins"], n, average)
    return vs, low, high, p_against(r["wins"] / n, average, n)


def capped_figure(cell: dict) -> tuple[float, float, float]:
    """(share, low, high) of the cell's games stopped by the round cap."""
    capped = cell["games"] - cell["complete_games"]
    low, high = wilson(capped, cell["games"])
    return capped / cell["games"] if cell["games"] else 0.0, low, high


# ---------------------------------------------------------------------------------------
# Seat figures compared game by game on shared seeds
#
# Cells that play the same seeds (a variant and its baseline, two skill tiers, two tuned
# schedules) are compared game by game: per game and cell, seat 0's win, the cell's highest
# and lowest seat's wins, and whether the game was decided, all in integer units of
# 1/WIN_UNITS so the sums are exact. Each seat figure is a ratio of sums over decided games,
# compared by the delta method (simkit.analysis.intervals).

OUTCOME_COLUMNS = ("w0", "h", "l", "d")  # seat 0's win, the high seat's, the low seat's, decided


def outcomes(seats: pl.LazyFrame, extremes: pl.DataFrame) -> pl.LazyFrame:
    """Per (cell, game_index) of the cells in `extremes` (cell, high_seat, low_seat): `w0`, `h`,
    `l` and `d` (WIN_UNITS when some seat won, else 0), in units of 1/WIN_UNITS."""
    units = win_units()
    return (seats.join(extremes.lazy().select("cell", pl.col("high_seat").cast(pl.Int64),
                                              pl.col("low_seat").cast(pl.Int64)), on="cell", how="inner")
            .group_by("cell", "game_index")
            .agg(units.filter(pl.col("seat") == 0).sum().alias("w0"),
                 units.filter(pl.col("seat") == pl.col("high_seat")).sum().alias("h"),
                 units.filter(pl.col("seat") == pl.col("low_seat")).sum().alias("l"),
                 units.sum().alias("d")))


def extremes_frame(cells: list[dict]) -> pl.DataFrame:
    """(cell, high_seat, low_seat) of summary cells with a seat gap: the pair each cell's gap is between."""
    rows = [(c["cell"], c["largest_seat_gap"]["high_seat"], c["largest_seat_gap"]["low_seat"]) for c in cells
            if c.get("largest_seat_gap", {}).get("high_seat") is not None]
    return pl.DataFrame(rows, schema={"cell": pl.Utf8, "high_seat": pl.Int64, "low_seat": pl.Int64}, orient="row")


def pair_sums(frame: pl.LazyFrame, pairs: list[tuple[str, str]], columns: tuple[str, ...]) -> dict[tuple, dict]:
    """Per (a, b) pair of cells: the games both played (`n`) and, over them, the sums of every
    column of a (suffix _a) and of b (suffix _b) and of all their pairwise products — what
    `intervals.ratio` and `intervals.paired_ratio_difference` read. One join for all pairs."""
    if not pairs:
        return {}
    wanted = pl.DataFrame({"a": [a for a, _ in pairs], "b": [b for _, b in pairs]}).lazy()
    left = frame.select("cell", "game_index", *columns).rename({"cell": "a", **{c: f"{c}_a" for c in columns}})
    right = frame.select("cell", "game_index", *columns).rename({"cell": "b", **{c: f"{c}_b" for c in columns}})
    joined = wanted.join(left, on="a", how="inner").join(right, on=["b", "game_index"], how="inner")
    names = [f"{c}_a" for c in columns] + [f"{c}_b" for c in columns]
    aggregates = [pl.len().alias("n"), *[pl.col(x).cast(pl.Int64).sum().alias(x) for x in names]]
    for i, x in enumerate(names):
        for y in names[i:]:
            aggregates.append((pl.col(x).cast(pl.Int64) * pl.col(y).cast(pl.Int64)).sum().alias(product(x, y)))
    rows = collect(joined.group_by("a", "b").agg(*aggregates))
    return {(row.pop("a"), row.pop("b")): row for row in rows.iter_rows(named=True)}


def _sign(value: float) -> float:
    return 1.0 if value >= 0.0 else -1.0


def seat_changes(sums: dict, fair: float) -> dict:
    """b − a on the games both played, from `pair_sums` over OUTCOME_COLUMNS: seat 0's share of
    decided games (`seat0_share`), its distance from fair (`seat0_distance`, |share − fair|, each
    cell's sign held at its own estimate) and the largest seat gap (`seat_gap`, each cell's gap
    between its own highest and lowest seat). Each: diff, ci_low, ci_high, p, paired_games,
    before, after, and `pairing` (what the shared seeds bought)."""
    n = int(sums["n"])
    out = {}
    share_a = ratio(n, sums, {"w0_a": 1.0}, "d_a")
    share_b = ratio(n, sums, {"w0_b": 1.0}, "d_b")
    figures = {"seat0_share": (share_a, share_b)}
    if share_a is not None and share_b is not None:
        figures["seat0_distance"] = (
            ratio(n, sums, {"w0_a": 1.0}, "d_a", _sign(share_a[0] - fair), fair),
            ratio(n, sums, {"w0_b": 1.0}, "d_b", _sign(share_b[0] - fair), fair))
    else:
        figures["seat0_distance"] = (None, None)
    figures["seat_gap"] = (ratio(n, sums, {"h_a": 1.0, "l_a": -1.0}, "d_a"),
                           ratio(n, sums, {"h_b": 1.0, "l_b": -1.0}, "d_b"))
    for name, (before, after) in figures.items():
        out[name] = {**paired_ratio_difference(n, sums, after, before),
                     "before": None if before is None else before[0], "after": None if after is None else after[0],
                     "pairing": ratio_pairing(n, sums, after, before)}
    return out


def verdict(change: dict) -> str:
    """A paired change of a size (a distance from fair, a gap): grows, shrinks or no clear change."""
    if change.get("ci_low") is not None and change["ci_low"] > 0:
        return "grows"
    if change.get("ci_high") is not None and change["ci_high"] < 0:
        return "shrinks"
    return "no clear change"


# ---------------------------------------------------------------------------------------
# Whole-seat objectives (simkit tune): how far a seat vector is from fair, with its gradient
# in the seats' shares so that two vectors measured on the same seeds compare game by game

OBJECTIVES = {
    "gap": "the largest seat gap: the highest seat's share of decided games minus the lowest's",
    "chi2": "the chi-square distance from fair per decided game: Σ (share − 1/players)² / (1/players)",
    "seat0": "seat 0's distance from fair: |its share of decided games − 1/players|",
}


def objective(rates, fair: float, name: str) -> tuple[float, list[float]]:
    """(value, gradient in the shares) of a whole-seat objective at these seat shares (OBJECTIVES).
    For the gap the pair is held at its estimate (the highest and the lowest seat)."""
    rates = [float(r) for r in rates]
    gradient = [0.0] * len(rates)
    if name == "gap":
        high = max(range(len(rates)), key=rates.__getitem__)
        # the lowest of the other seats: two seats even when every share is tied, so the gap's
        # per-game terms measure its noise (a pair of one seat would have none)
        low = min((s for s in range(len(rates)) if s != high), key=rates.__getitem__, default=high)
        gradient[high] += 1.0
        gradient[low] -= 1.0
        return rates[high] - rates[low], gradient
    if name == "chi2":
        return sum((r - fair) ** 2 / fair for r in rates), [2.0 * (r - fair) / fair for r in rates]
    if name == "seat0":
        gradient[0] = 1.0 if rates[0] >= fair else -1.0
        return abs(rates[0] - fair), gradient
    raise ValueError(f"unknown objective {name!r}; expected one of {', '.join(OBJECTIVES)}")
