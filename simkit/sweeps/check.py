"""The CI gate behind `simkit check` (docs/ci.md): limits on a sweep's balance figures,
judged with the noise the sweep has, so that a fair game does not fail a build by luck.

Every figure is checked with an interval. A limit is **breached** only when the figure's
interval lies wholly beyond it; the figure is **ok** when the interval lies wholly within
it; an interval that straddles the limit is **inconclusive**, with the number of games
that would decide it. The intervals are simultaneous across the run: with m figures
checked (cells × limits), each interval has a one-sided tail of 2.5% / m (Bonferroni),
so a game that truly meets every limit fails the whole gate by chance at most 2.5% of
the time, however many cells and limits a spec has. docs/ci.md gives the measured rate.

Figures (docs/statistics.md: seat advantage over decided games; incomplete and shared shares beside it):

| limit (flag / [check] key)      | figure                                                         |
|---------------------------------|----------------------------------------------------------------|
| max_first_player_advantage      | |seat 0's share of decided games − 1/players|                  |
| max_seat_gap                    | largest difference of two seats' shares of decided games       |
| max_incomplete                  | share of games stopped by the round cap                        |
| max_shared_wins                 | share of games whose win is shared                             |
| max_edge                        | largest edge of a strategy or dealt category (e.g. a power)    |
|                                 | over the cell's average win rate per seat played               |
| min_rounds / max_rounds         | mean rounds per game                                           |

Rates are given as points (`3pt`, `3%`) or fractions (`0.03`); a bare number above 1
cannot be a share and is refused with a hint. Rounds are plain numbers.

With `robust` (`--robust`, or `robust = true` in the table) only the figures whose finding
*holds* in the sweep's robustness labels (summary.json `robustness`, simkit.sweeps.robustness: at the
skilled tiers and under every shipped component set) are judged; the rest are counted, not
judged (`robust_only`).

`judge` is the one place a figure meets its limit; `gate` judges a finished sweep once, and
simkit.sweeps.sequential judges it again at each look of `--until-decided`, with the family's
2.5% spread over the looks as well as over the figures.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from pathlib import Path

from scipy import special

from simkit.analysis.intervals import wilson
from simkit.core.errors import InputError, unknown
from simkit.core.files import kind_of, parse_toml, read_json, read_text

FAMILY_TAIL = 0.025  # chance that a game meeting every limit is reported as breaching one (whole run)
DEFAULT_MIN_GAMES = 1000  # a cell with fewer games is refused: its intervals are too wide to gate on

OK, BREACH, BAD_INPUT, INCONCLUSIVE = 0, 1, 2, 3  # exit codes (docs/ci.md)

# limit key -> (what it bounds, unit): "rate" limits accept points or fractions
RATE_LIMITS = {
    "max_first_player_advantage": "first-player advantage",
    "max_seat_gap": "largest seat gap",
    "max_incomplete": "incomplete share",
    "max_shared_wins": "shared-win share",
    "max_edge": "largest strategy/category edge",
}
ROUND_LIMITS = {"min_rounds": "mean rounds", "max_rounds": "mean rounds"}
# [check] keys that are not limits; until_decided and budget drive simkit.sweeps.sequential
OPTIONS = ("min_games", "strict", "until_decided", "budget", "robust")
DEFAULT_BUDGET = 64_000  # games per cell at most in the sequential mode (simkit.sweeps.sequential)
KEYS = (*RATE_LIMITS, *ROUND_LIMITS, *OPTIONS)


# ---------------------------------------------------------------------------------------
# Limits


def parse_rate(value, key: str, where: str = "") -> float:
    """A rate limit as a fraction: '3pt', '3%' and 0.03 all give 0.03.

    A bare number above 1 is refused with a hint (it reads as points written without a
    unit); a negative limit, or more than 100 points, is refused too.
    """
    place = f" in {where}" if where else ""
    text = str(value).strip().lower()
    if isinstance(value, bool):
        raise InputError(f"{key}{place}: expected a limit such as 3pt or 0.03, got {value!r}")
    points = text.endswith(("pt", "%"))
    number = text.removesuffix("pt").removesuffix("%").strip()
    try:
        amount = float(number)
    except ValueError:
        raise InputError(f"{key}{place}: expected a limit such as 3pt or 0.03, got {value!r}") from None
    if not math.isfinite(amount) or amount < 0:
        raise InputError(f"{key}{place}: a limit must be a non-negative number, got {value!r}")
    if points:
        if amount > 100:
            raise InputError(f"{key}{place}: {value!r} is more than 100 points")
        return amount / 100.0
    if amount > 1:
        raise InputError(
            f"{key}{place}: {value!r} is a fraction above 1, which no share can exceed; "
            f"write {number}pt for {number} percentage points (or {amount / 100:g} as a fraction)"
        )
    return amount


def _parse_rounds(value, key: str, where: str) -> float:
    place = f" in {where}" if where else ""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise InputError(f"{key}{place}: expected a number of rounds, got {value!r}")
    try:
        amount = float(value)
    except ValueError:
        raise InputError(f"{key}{place}: expected a number of rounds, got {value!r}") from None
    if not math.isfinite(amount) or amount < 0:
        raise InputError(f"{key}{place}: expected a non-negative number of rounds, got {value!r}")
    return amount


@dataclass(frozen=True)
class Limits:
    """Validated gate settings: rate limits as fractions, round bounds, and the options."""

    rates: dict[str, float]
    rounds: dict[str, float]
    min_games: int = DEFAULT_MIN_GAMES
    strict: bool = False
    until_decided: bool = False  # play more games for the figures that straddle a limit (simkit.sweeps.sequential)
    budget: int = DEFAULT_BUDGET  # ... up to this many games per cell
    robust: bool = False  # gate only the figures whose finding holds (summary.json `robustness`, simkit.sweeps.robustness)

    def describe(self) -> str:
        parts = [f"{'|' + RATE_LIMITS[key] + '|' if key == 'max_first_player_advantage' else RATE_LIMITS[key]} "
                 f"<= {100 * value:g}pt" for key, value in self.rates.items()]
        if "min_rounds" in self.rounds:
            parts.append(f"mean rounds >= {self.rounds['min_rounds']:g}")
        if "max_rounds" in self.rounds:
            parts.append(f"mean rounds <= {self.rounds['max_rounds']:g}")
        return ", ".join(parts)


def parse_table(table: dict, where: str = "") -> dict:
    """Validate a `[check]` table (or the CLI's flags as such a table) and return it
    unchanged but for dropped `None`s; every problem is an InputError naming the key."""
    if not isinstance(table, dict):
        raise InputError(f"[check]{' in ' + where if where else ''} must be a table of limits")
    clean = {}
    for key, value in table.items():
        if value is None:
            continue
        if key not in KEYS:
            raise unknown("check key", key, KEYS, where)
        if key in RATE_LIMITS:
            parse_rate(value, key, where)
        elif key in ROUND_LIMITS:
            _parse_rounds(value, key, where)
        elif key == "min_games":
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise InputError(f"min_games{' in ' + where if where else ''}: expected a whole number >= 1, "
                                 f"got {value!r}")
        elif key in ("strict", "until_decided", "robust") and not isinstance(value, bool):
            raise InputError(f"{key}{' in ' + where if where else ''}: expected true or false, got {value!r}")
        elif key == "budget" and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
            raise InputError(f"budget{' in ' + where if where else ''}: expected a whole number of games per cell "
                             f">= 1, got {value!r}")
        clean[key] = value
    return clean


def limits(table: dict, where: str = "") -> Limits:
    """Limits from a validated table; at least one limit is required."""
    table = parse_table(table, where)
    rates = {key: parse_rate(table[key], key, where) for key in RATE_LIMITS if key in table}
    rounds = {key: _parse_rounds(table[key], key, where) for key in ROUND_LIMITS if key in table}
    if not rates and not rounds:
        flags = ", ".join("--" + key.replace("_", "-") for key in (*RATE_LIMITS, *ROUND_LIMITS))
        raise InputError(f"no limit given: name at least one ({flags}) or add a [check] table to the spec")
    if "min_rounds" in rounds and "max_rounds" in rounds and rounds["min_rounds"] > rounds["max_rounds"]:
        raise InputError(f"min_rounds {rounds['min_rounds']:g} is above max_rounds {rounds['max_rounds']:g}")
    return Limits(rates, rounds, int(table.get("min_games", DEFAULT_MIN_GAMES)), bool(table.get("strict", False)),
                  bool(table.get("until_decided", False)), int(table.get("budget", DEFAULT_BUDGET)),
                  bool(table.get("robust", False)))


def spec_table(folder: Path) -> dict:
    """The `[check]` table of the spec a sweep folder ran (its spec.toml), or {}."""
    path = Path(folder) / "spec.toml"
    if not path.exists():
        return {}
    table = parse_toml(read_text(path, str(path)), str(path)).get("check", {})
    if not isinstance(table, dict):
        raise InputError(f"{path}: [check] must be a table of limits, got {table!r}")
    return table


# ---------------------------------------------------------------------------------------
# Figures with intervals


@dataclass(frozen=True)
class Figure:
    """One checked figure of one cell: estimate and simultaneous interval, in the figure's unit.

    `spread` is the standard deviation of one game's contribution (so the half width at n
    games is z·spread/√n): it sizes the games that would decide an inconclusive check.
    """

    cell: str
    what: str
    value: float
    low: float
    high: float
    games: int
    spread: float
    unit: str = "points"  # "points" (a difference of rates), "share" (a rate) or "rounds"
    decided_share: float = 1.0  # figures over decided games: the share of games that were decided


@dataclass(frozen=True)
class Verdict:
    figure: Figure
    limit: float
    upper: bool  # True: the figure must stay at or below the limit; False: at or above
    outcome: str  # "ok", "breach" or "inconclusive"
    more_games: int | None = None  # for "inconclusive": games to add to decide (None: cannot tell)
    two_sided: bool = False  # the limit bounds the figure's size: -limit <= figure <= limit
    key: str = ""  # the limit's key (max_seat_gap, min_rounds, ...): with the cell, which figure this is
    budget_spent: bool = False  # sequential mode: inconclusive with the budget of games per cell spent

    @property
    def undecidable(self) -> bool:
        """Inconclusive with no decided game (every game of the cell hit the round cap): no number of
        games of these rules would decide it, so `--until-decided` plays none for it."""
        return self.outcome == "inconclusive" and not self.figure.games and self.figure.unit == "points"

    def line(self) -> str:
        f = self.figure
        if f.unit == "points":
            shown = f"{100 * f.value:+.1f} points (interval {100 * f.low:+.1f} to {100 * f.high:+.1f})"
            bound = f"{100 * self.limit:g} points"
        elif f.unit == "share":
            shown = f"{100 * f.value:.1f}% (interval {100 * f.low:.1f} to {100 * f.high:.1f}%)"
            bound = f"{100 * self.limit:g}%"
        else:
            shown = f"{f.value:.1f} (interval {f.low:.1f} to {f.high:.1f})"
            bound = f"{self.limit:g}"
        side = "within ±" if self.two_sided else "at most " if self.upper else "at least "
        head = f"{self.outcome}: {f.cell} {f.what} {shown}, limit {side}{bound}"
        if self.outcome == "breach":
            return f"{head}: the whole interval is beyond the limit"
        if self.undecidable:
            return (f"inconclusive: {f.cell} {f.what}: no decided game (every game hit the round cap), limit "
                    f"{side}{bound}: no number of games of these rules would decide; look at the capped share, or "
                    "raise the round cap")
        if self.outcome == "inconclusive":
            more = (f"about {self.more_games:,} more games would decide" if self.more_games is not None
                    else "the estimate sits on the limit; no number of games would decide")
            spent = f" after {f.games:,} decided games, the budget spent" if self.budget_spent else ""
            return f"{head}: the interval straddles the limit{spent}; {more}"
        return head


def _one_sided_z(tail: float) -> float:
    return float(-special.ndtri(tail))  # the normal's inverse survival function (scipy.stats.norm.isf)


def decided(cell: dict) -> float:
    """Games with a winner: the seats' summed wins (a shared win is split, so each decided game adds 1)."""
    return float(sum(seat["wins"] for seat in cell["seats"]))


def _rate_figure(cell: str, what: str, successes: float, n: int, z: float, shift: float | None = None) -> Figure:
    """A rate's Wilson interval; with `shift`, as a difference from that rate (in points)."""
    low, high = wilson(successes, n, z) if n else (0.0, 1.0)
    rate = successes / n if n else 0.0
    spread = math.sqrt(max(rate * (1 - rate), 1e-12))
    if shift is None:
        return Figure(cell, what, rate, low, high, n, spread, "share")
    return Figure(cell, what, rate - shift, low - shift, high - shift, n, spread)


def first_player_advantage(cell: dict, z: float) -> Figure:
    """Seat 0's share of decided games minus 1/players, with a Wilson interval."""
    n = round(decided(cell))
    figure = _rate_figure(cell["cell"], "first-player advantage", cell["seats"][0]["wins"], n, z,
                          1.0 / cell["players"])
    return replace(figure, decided_share=n / cell["games"] if cell["games"] else 1.0)


def seat_gap(cell: dict, z: float) -> Figure:
    """The largest difference between two seats' shares of decided games.

    Each ordered pair (i, j) gets a normal interval for p_i − p_j with the variance of one
    game's w_i − w_j, at most (p_i + p_j − (p_i − p_j)²) (exact without shared wins);
    the gap's interval runs from the largest lower bound to the largest upper bound, which
    covers the true gap whenever every pair's interval covers its difference. `z` is for
    one pair: the caller spreads the tail over the pairs.
    """
    n = round(decided(cell))
    rates = [seat["wins"] / n if n else 0.0 for seat in cell["seats"]]
    value, low, high, spread = max(rates) - min(rates), 0.0, 0.0, 0.0
    for i, p_i in enumerate(rates):
        for j, p_j in enumerate(rates):
            if i == j:
                continue
            difference = p_i - p_j
            sd = math.sqrt(max(p_i + p_j - difference * difference, 1e-12))
            half = z * sd / math.sqrt(n) if n else 1.0
            low = max(low, difference - half)
            if difference + half > high:
                high, spread = difference + half, sd
    return Figure(cell["cell"], "largest seat gap", value, low, high, n, spread,
                  decided_share=n / cell["games"] if cell["games"] else 1.0)


def seat_pairs(players: int) -> int:
    return players * (players - 1)


def edge(cell: dict, z: float) -> Figure | None:
    """The largest edge of one strategy (mixed line-ups) or one value of a dealt seat
    category (e.g. a power) over the cell's average win rate per seat played. `z` is per
    value: the caller spreads the tail over the values. None when nothing is dealt or mixed."""
    groups = [cell["strategies"]] if len(cell.get("strategies", [])) > 1 else []
    groups += [rows for rows in cell.get("categories", {}).values() if len(rows) > 1]
    if not groups:
        return None
    best = None
    for rows in groups:
        # the average per decided seat played (1/players when every seat is in the group); a
        # round-capped game is nobody's and counts against no strategy or power (docs/statistics.md)
        played = sum(row.get("decided_seats", row["seats"]) for row in rows)
        average = sum(row["wins"] for row in rows) / played if played else 0.0
        for row in rows:
            figure = _rate_figure(cell["cell"], f"edge of {row.get('strategy', row.get('value'))}", row["wins"],
                                  row.get("decided_seats", row["seats"]), z, average)
            if best is None or figure.high > best.high:
                best = figure
    return best


def edge_values(cell: dict) -> int:
    count = len(cell["strategies"]) if len(cell.get("strategies", [])) > 1 else 0
    return count + sum(len(rows) for rows in cell.get("categories", {}).values() if len(rows) > 1)


def rounds_stats(folder: Path) -> dict[str, tuple[float, float, int]]:
    """Per cell: mean and standard deviation of rounds, and games (lazy)."""
    import polars as pl

    frame = (
        pl.scan_parquet(Path(folder) / "games.parquet")
        .group_by("cell")
        .agg(pl.col("rounds").cast(pl.Float64).mean().alias("mean"),
             pl.col("rounds").cast(pl.Float64).std().alias("sd"), pl.len().alias("games"))
        .collect(engine="streaming")
    )
    return {row["cell"]: (row["mean"], row["sd"] or 0.0, row["games"]) for row in frame.iter_rows(named=True)}


def _judge(figure: Figure, limit: float, upper: bool, z: float, two_sided: bool = False, key: str = "") -> Verdict:
    """Breach when the interval is wholly beyond the limit, ok when wholly within it, else
    inconclusive with the games that would shrink the interval to the estimate's distance
    from the limit. `two_sided` bounds the size: −limit <= figure <= limit."""
    if two_sided:
        beyond = figure.low > limit or figure.high < -limit
        within = figure.low >= -limit and figure.high <= limit
        distance = abs(abs(figure.value) - limit)
    elif upper:
        beyond, within, distance = figure.low > limit, figure.high <= limit, abs(figure.value - limit)
    else:
        beyond, within, distance = figure.high < limit, figure.low >= limit, abs(figure.value - limit)
    if beyond:
        return Verdict(figure, limit, upper, "breach", two_sided=two_sided, key=key)
    if within:
        return Verdict(figure, limit, upper, "ok", two_sided=two_sided, key=key)
    if distance < 1e-12 or (not figure.games and figure.unit == "points"):  # on the limit, or nothing decided
        return Verdict(figure, limit, upper, "inconclusive", two_sided=two_sided, key=key)
    needed = math.ceil((z * figure.spread / distance) ** 2)
    # games to play, not decided games: a round-capped game decides nothing
    more = math.ceil((needed - figure.games) / max(figure.decided_share, 1e-9))
    return Verdict(figure, limit, upper, "inconclusive", max(more, 1), two_sided, key)


def judge(cell: dict, limits: Limits, tail: float, rounds: tuple[float, float, int] | None = None,
          keys: set[str] | None = None) -> list[Verdict]:
    """Every figure of one summary cell against its limit, each interval with a one-sided tail
    of `tail` (spread over the seat pairs, the dealt values or the two sides where a figure
    has several). `rounds` is (mean, sd, games) for round limits; `keys` limits the figures
    judged (None: all). The one place a figure meets its limit."""
    verdicts = []
    for key, limit in limits.rates.items():
        if keys is not None and key not in keys:
            continue
        if key == "max_first_player_advantage":
            # a seat-0 disadvantage as large is as much a balance problem: the size is checked,
            # so the tail is split between the two sides
            z = _one_sided_z(tail / 2)
            verdict = _judge(first_player_advantage(cell, z), limit, True, z, two_sided=True, key=key)
        elif key == "max_seat_gap":
            z = _one_sided_z(tail / seat_pairs(cell["players"]))
            verdict = _judge(seat_gap(cell, z), limit, True, z, key=key)
        elif key == "max_incomplete":
            z = _one_sided_z(tail)
            incomplete = cell["games"] - cell["complete_games"]
            verdict = _judge(_rate_figure(cell["cell"], "incomplete share", incomplete, cell["games"], z),
                             limit, True, z, key=key)
        elif key == "max_shared_wins":
            z = _one_sided_z(tail)
            shared = round(cell["tie_share"] * cell["games"])
            verdict = _judge(_rate_figure(cell["cell"], "shared-win share", shared, cell["games"], z),
                             limit, True, z, key=key)
        else:  # max_edge
            values = edge_values(cell)
            if not values:
                continue
            z = _one_sided_z(tail / values)
            verdict = _judge(edge(cell, z), limit, True, z, key=key)
        verdicts.append(verdict)
    if limits.rounds:
        mean, sd, games = rounds
        # two bounds on one figure: the tail is split between them
        z = _one_sided_z(tail / len(limits.rounds))
        half = z * sd / math.sqrt(games)
        figure = Figure(cell["cell"], "mean rounds", mean, mean - half, mean + half, games, sd, "rounds")
        for key, bound in limits.rounds.items():
            if keys is None or key in keys:
                verdicts.append(_judge(figure, bound, key == "max_rounds", z, key=key))
    return verdicts


def figures_checked(cells: list[dict], limits: Limits) -> int:
    """The figures a run judges: every cell's rate limits, and its mean rounds once for both bounds."""
    return len(cells) * (len(limits.rates) + (1 if limits.rounds else 0))


def validate(cells: list[dict], limits: Limits, rounds: dict | None) -> None:
    """Bad input for the gate: no cells, a cell with fewer than min_games games, round limits
    without the rounds."""
    if not cells:
        raise InputError("the sweep has no cells to check")
    short = [c for c in cells if c["games"] < limits.min_games]
    if short:
        c = short[0]
        raise InputError(f"cell {c['cell']} played {c['games']:,} games, fewer than the {limits.min_games:,} a "
                         f"check needs per cell; run more games or lower min_games (--min-games)")
    if limits.rounds and rounds is None:
        raise InputError("round limits need the sweep's games.parquet")


# ---------------------------------------------------------------------------------------
# The gate


@dataclass(frozen=True)
class Outcome:
    verdicts: list[Verdict]
    limits: Limits
    cells: int
    looks: int = 1  # sequential mode: the looks taken (1: the sweep as it was)
    games: dict[str, int] | None = None  # sequential mode: games per cell at the end, the sweep's included
    not_gated: int = 0  # --robust: figures left out because their finding does not hold everywhere

    @property
    def code(self) -> int:
        if any(v.outcome == "breach" for v in self.verdicts):
            return BREACH
        if any(v.outcome == "inconclusive" for v in self.verdicts):
            return BREACH if self.limits.strict else INCONCLUSIVE
        return OK

    def lines(self) -> list[str]:
        shown = [v.line() for v in self.verdicts if v.outcome != "ok"]
        checked = len(self.verdicts)
        passed = sum(v.outcome == "ok" for v in self.verdicts)
        tail = (f"{passed} of {checked} checks ok over {self.cells} cells ({self.limits.describe()}); "
                f"simultaneous intervals, false-breach chance <= {100 * FAMILY_TAIL:g}%")
        if self.limits.robust:
            tail += (f"; --robust: {self.not_gated} figure{'s' * (self.not_gated != 1)} not gated (no finding, or one "
                     f"that does not hold at every skilled tier and component set; the report's Robustness table)")
        if self.games is not None:
            most = max(self.games.values(), default=0)
            tail += (f"; {self.looks} look{'s' * (self.looks != 1)}, at most {most:,} games per cell "
                     f"(budget {self.limits.budget:,})")
        if self.code == OK:
            return [f"ok: {tail}"]
        if self.code == INCONCLUSIVE:
            if all(v.undecidable for v in self.verdicts if v.outcome == "inconclusive"):
                hint = ("no number of games would decide: no decided game (every game hit the round cap); look at "
                        "the capped share, or raise the round cap")
            else:
                hint = ("the budget is spent: raise --budget, or widen a limit the game cannot be shown to meet"
                        if self.games is not None else
                        "--until-decided plays more games until each figure is decided; --strict fails on it")
            return [*shown, f"inconclusive: {tail}; {hint}"]
        return [*shown, f"failed: {tail}"]


def gate(summary: dict, limits: Limits, rounds: dict[str, tuple[float, float, int]] | None = None) -> Outcome:
    """Judge every cell of a summary against the limits once (see the module docstring).

    `rounds` (from `rounds_stats`) is needed only for round limits. A cell with fewer
    games than `limits.min_games` is an InputError: its intervals cannot gate a build.
    """
    cells = summary.get("cells", [])
    validate(cells, limits, rounds)
    # Bonferroni across every figure checked in this run (module docstring)
    tail = FAMILY_TAIL / figures_checked(cells, limits)
    verdicts = [v for cell in cells for v in judge(cell, limits, tail, rounds[cell["cell"]] if limits.rounds else None)]
    return Outcome(verdicts, limits, len(cells))


def robust_only(outcome: Outcome, summary: dict, where: str = "summary.json") -> Outcome:
    """`--robust`: the outcome with only the figures whose finding holds (summary.json's
    `robustness`: a finding labelled holds names the limits whose figure it is in `gates`);
    every other figure is left out and counted. A summary without labels is bad input."""
    if not outcome.limits.robust:
        return outcome
    found = summary.get("robustness")
    if not isinstance(found, dict) or not isinstance(found.get("findings"), list):
        raise InputError(f"--robust needs robustness labels, and {where} has none: sweep with --robustness all (a "
                         f"spec's robustness key), or finish an interrupted phase with simkit sweep --out DIR --resume")
    held = {(row["cell"], gate) for row in found["findings"] if row.get("label") == "holds"
            for gate in row.get("gates", [])}
    kept = [v for v in outcome.verdicts if (v.figure.cell, v.key) in held]
    return replace(outcome, verdicts=kept, not_gated=len(outcome.verdicts) - len(kept))


def load(folder: Path, table: dict) -> tuple[Limits, dict, dict | None]:
    """(limits, summary, rounds) of a sweep folder: `table` (flags) over the folder's spec
    `[check]` table, its summary.json, and the rounds per cell when a round limit needs them."""
    folder = Path(folder)
    summary_path = folder / "summary.json"
    if kind_of(folder, "the sweep folder") != "dir":
        raise InputError(f"{folder} is not a sweep folder")
    if not summary_path.exists():
        raise InputError(f"{folder} has no summary.json; rebuild it with simkit report {folder}")
    merged = {**parse_table(spec_table(folder), f"{folder / 'spec.toml'} [check]"), **parse_table(table)}
    settings = limits(merged)
    rebuild = f"rebuild it from the tables with simkit report {folder}"
    summary = read_json(summary_path, rebuild)
    if not isinstance(summary.get("cells"), list) or not all(isinstance(c, dict) for c in summary["cells"]):
        raise InputError(f"{summary_path} is damaged (no list of cells); {rebuild}")
    from simkit.sweeps.results import verify_tables

    verify_tables(folder, present_only=True)  # the tables present are the sweep's own (docs/results.md)
    check_summary(summary, summary_path, rebuild)
    if settings.rounds and not (folder / "games.parquet").exists():
        raise InputError(f"round limits need {folder / 'games.parquet'}, which is missing")
    return settings, summary, rounds_stats(folder) if settings.rounds else None


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


SHARES = ("win_rate", "ci_low", "ci_high")  # a seat's rate and its interval, each within [0, 1]
CELL_SHARES = ("incomplete_share", "tie_share")


def check_summary(summary: dict, path: Path, rebuild: str) -> None:
    """What no sweep's summary holds, refused before anything is judged (one InputError naming the
    cell): games that are not a whole number >= 0, a seat (or a strategy or category) with negative
    wins or more wins than games played, seats whose wins add up to more than the games, a rate or
    share outside [0, 1]. A field that is absent is left to the gate (gate_folder)."""
    slack = 1e-9  # the summary's wins are sums of shares in units of 1/2520, divided once
    for cell in summary["cells"]:
        name, games = cell.get("cell"), cell.get("games")
        where = f"{path}: cell {name}"
        if games is None:
            continue
        if not _number(games) or games < 0 or games != int(games):
            raise InputError(f"{where} played {games!r} games, not a whole number >= 0; {rebuild}")
        seats = cell.get("seats")
        total = 0.0
        for seat in seats if isinstance(seats, list) else []:
            if not isinstance(seat, dict):
                continue
            wins = seat.get("wins")
            if wins is not None:
                if not _number(wins) or wins < -slack or wins > games + slack:
                    raise InputError(f"{where}: seat {seat.get('seat')} won {wins!r} of {games:,} games, outside "
                                     f"0..{games:,}; {rebuild}")
                total += wins
            for key in SHARES:
                value = seat.get(key)
                if value is not None and (not _number(value) or not -slack <= value <= 1 + slack):
                    raise InputError(f"{where}: seat {seat.get('seat')}'s {key} is {value!r}, outside 0..1; {rebuild}")
        if total > games + slack * max(1, games):
            raise InputError(f"{where}: its seats won {total:g} games in all, more than the {games:,} played; "
                             f"{rebuild}")
        for key in CELL_SHARES:
            value = cell.get(key)
            if value is not None and (not _number(value) or not -slack <= value <= 1 + slack):
                raise InputError(f"{where}: {key} is {value!r}, outside 0..1; {rebuild}")
        groups = cell.get("strategies") if isinstance(cell.get("strategies"), list) else []
        categories = cell.get("categories") if isinstance(cell.get("categories"), dict) else {}
        for rows in (groups, *[r for r in categories.values() if isinstance(r, list)]):
            for row in rows:
                if not isinstance(row, dict):
                    continue
                wins, seats_played = row.get("wins"), row.get("decided_seats", row.get("seats"))
                label = row.get("strategy", row.get("value"))
                if _number(wins) and _number(seats_played) and not -slack <= wins <= seats_played + slack:
                    raise InputError(f"{where}: {label} won {wins:g} of the {seats_played:,} seats it played, outside "
                                     f"0..{seats_played:,}; {rebuild}")


def gate_folder(folder: Path, summary: dict, settings: Limits, rounds: dict | None) -> Outcome:
    """`gate` on a folder's summary: a field missing or of another type is a damaged file (the
    gate reads only what summarize writes), one InputError."""
    try:
        return gate(summary, settings, rounds)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
        raise InputError(f"{Path(folder) / 'summary.json'} is damaged (a cell lacks or mangles {e}); rebuild it "
                         f"from the tables with simkit report {folder}") from None


def check(folder: Path, table: dict) -> Outcome:
    """`simkit check` on a finished sweep, once: the gate over a sweep folder, with `table`
    (flags) over the folder's spec `[check]` table. The sequential mode is simkit.sweeps.sequential's."""
    settings, summary, rounds = load(folder, table)
    return robust_only(gate_folder(folder, summary, settings, rounds), summary, str(Path(folder) / "summary.json"))


# ---------------------------------------------------------------------------------------
# The gate's own statistics, measured


def simulated_summary(players: int, games: int, seat_rates, rng) -> dict:
    """The summary of one simulated cell: `games` decided games whose winner is drawn
    with probabilities `seat_rates` (no shared wins, none capped). For measuring the gate."""
    wins = rng.multinomial(games, seat_rates)
    return {"cell": f"simulated-{players}p", "players": players, "games": games, "complete_games": games,
            "tie_share": 0.0, "seats": [{"seat": s, "wins": float(w)} for s, w in enumerate(wins)],
            "strategies": [], "categories": {}}


def simulated_rates(players: int, games: int, table: dict, runs: int = 2000, seed: int = 1,
                    seat_rates=None) -> dict:
    """Shares of `runs` simulated sweeps (one cell of `games` games, winner drawn with
    `seat_rates`, fair by default) that the gate, judging once, calls ok, breach and
    inconclusive. On a fair game any limit given is truly met: every breach is a false one."""
    import numpy as np

    rng = np.random.default_rng(seed)
    rates = np.full(players, 1.0 / players) if seat_rates is None else np.asarray(seat_rates, float)
    settings = limits({**table, "min_games": 1})
    codes = np.array([gate({"cells": [simulated_summary(players, games, rates, rng)]}, settings).code
                      for _ in range(runs)])
    return {"ok": float(np.mean(codes == OK)), "breach": float(np.mean(codes == BREACH)),
            "inconclusive": float(np.mean(codes == INCONCLUSIVE))}


def false_breach_rate(players: int, games: int, table: dict, runs: int = 2000, seed: int = 1,
                      seat_rates=None) -> float:
    """Share of `runs` simulated sweeps that the gate calls a breach (see `simulated_rates`)."""
    return simulated_rates(players, games, table, runs, seed, seat_rates)["breach"]


__all__ = ["BAD_INPUT", "BREACH", "INCONCLUSIVE", "OK", "Limits", "Outcome", "check", "gate", "judge", "limits",
           "load", "parse_rate", "parse_table"]
