"""`simkit tune`: the value of a rule parameter that brings seat advantage to zero (DESIGN §7, §8).

Seat advantage here is a seat's share of decided games minus the fair 1/players (a
round-capped game is nobody's, a k-way shared win counts 1/k), the figure the report
leads with.

Every evaluation is a sweep cell played by `simkit.runner` into `<out>/evaluations/`, and
every evaluation of a search plays game indices 0..N-1 of the same root seed: two values
are compared on the same deals and dice (common random numbers, DESIGN §4), so their
paired difference is far tighter than their separate intervals, and at a fixed N the
measured advantage is a fixed, nearly monotone function of the value that bisection can
search without noise chasing. When N grows, an evaluation is played again from game 0
with more games (at most twice the work of playing only the new games, and every pair
stays paired on its first N games).

A number parameter (int or float) is searched for seat 0's advantage: from its default,
steps of widening size find where the measured advantage changes (the slope), doubling
steps find a value where its sign changes (a bracket; a step that leads away from zero
turns the search once), and bisection narrows the bracket to adjacent integers (or
multiples of `step` from the default; for a float, to 1/1000 of its allowed range). The
search then checks the stop rule at N games and doubles N until it holds or `max_games`
is reached:

- settled: the better end of the bracket has an interval of seat 0's advantage that
  contains zero and is at most ±precision wide;
- bracketed (int): the two adjacent integers' intervals exclude zero on opposite sides,
  so no integer is fair and the root lies between them (the paired difference says so too);
- at_bound: the advantage keeps its sign over the whole allowed range; the bound is the
  closest value and its interval excludes zero.

A per-seat list parameter (kind "ints", e.g. starting silver by seat) is searched as a
schedule: seat 0 keeps its default and each other seat in turn gets the integer that
brings its own share of decided games closest to fair (the same bracket and bisection,
the other seats held, searched upwards for a seat below fair), sweeping over the seats
until no value changes (at most MAX_ROUNDS times per N). When seat 0's interval is
precise enough but a seat is still off fair, the neighbourhood is played too (every seat
from 1 on at its value or one step either way, all combinations; and, if none of those
puts every seat within its interval of fair, the same with seat 0 one step towards fair) and
the best kept: every seat within its interval first, then seat 0 within its interval,
then the worst seat closest to fair. The schedule is settled when every seat's interval
contains fair and seat 0's advantage interval contains zero within ±precision; bracketed
when seat 0's interval is that precise, no schedule in the neighbourhood has every seat
within its interval, and either seat 0's interval contains zero (a whole step is worth
more than the noise: this is as close as whole steps get) or each seat still off fair
is between two adjacent values whose intervals straddle fair.

When `max_games` is reached before any of these, the search is unsettled: the best
value found is reported with its evidence, and the command exits 3 (inconclusive: more
games would decide), as `simkit check` does for an interval straddling its limit.
"""

from __future__ import annotations

import json
import math
import sys
import types
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from simkit import games as registry
from simkit import spec as specs
from simkit.analysis.curves import label
from simkit.analysis.intervals import paired_share_difference_from_sums, share_sums, wilson
from simkit.errors import InputError, unknown

START_GAMES = 1_000  # games per evaluation at the first stage; doubled per stage
DEFAULT_MAX_GAMES = 256_000  # games per evaluation at most
DEFAULT_PRECISION = 0.01  # ±1 point on seat 0's advantage
MAX_ROUNDS = 4  # passes over the seats per stage (per-seat schedules)
FLOAT_STEPS = 1_000  # a float bracket is narrowed to 1/FLOAT_STEPS of the allowed range
MAX_BISECTIONS = 40
MAX_WALK = 10  # integers tried each way from the chosen one for the run consistent with fair
TUNABLE = ("int", "float", "ints")
EXIT_CODES = {"settled": 0, "bracketed": 0, "at_bound": 0, "unsettled": 3}


# ---------------------------------------------------------------------------------------
# Evaluations


@dataclass
class Evaluation:
    """One value played for `games` games: per game, each seat's share of the win."""

    value: Any
    games: int
    folder: str
    wins: np.ndarray  # float64[games, players]: 1, 1/k for a k-way shared win, or 0; by game_index
    rounds: np.ndarray  # int64[games]

    @property
    def players(self) -> int:
        return self.wins.shape[1]

    @property
    def fair(self) -> float:
        return 1.0 / self.players

    @property
    def decided(self) -> np.ndarray:
        return self.wins.sum(axis=1)

    def share(self, seat: int) -> dict:
        """The seat's share of decided games against fair, with its Wilson interval."""
        decided = float(self.decided.sum())
        n = round(decided)
        wins = float(self.wins[:, seat].sum())
        low, high = wilson(wins, n)
        rate = wins / decided if decided else 0.0
        return {"seat": seat, "rate": rate, "ci_low": low, "ci_high": high, "vs_fair": rate - self.fair,
                "vs_fair_low": low - self.fair, "vs_fair_high": high - self.fair}

    def deviation(self, seat: int = 0) -> float:
        return self.share(seat)["vs_fair"]

    def to_dict(self) -> dict:
        seat0 = self.share(0)
        return {"value": list(self.value) if isinstance(self.value, tuple) else self.value,
                "label": label(self.value), "games": self.games, "decided_games": round(float(self.decided.sum())),
                "seat_advantage": {"value": seat0["vs_fair"], "ci_low": seat0["vs_fair_low"],
                                   "ci_high": seat0["vs_fair_high"]},
                "seats": [self.share(seat) for seat in range(self.players)],
                "rounds_mean": float(self.rounds.mean()) if self.games else None, "folder": self.folder}


def paired(a: Evaluation, b: Evaluation, seat: int = 0) -> dict:
    """b's share of decided games for `seat` minus a's, paired on the games both played."""
    n = min(a.games, b.games)
    sums = share_sums(a.wins[:n, seat], a.decided[:n], b.wins[:n, seat], b.decided[:n])
    return paired_share_difference_from_sums(n, sums)


def _key(value: Any) -> str:
    return json.dumps(value)


class Evaluator:
    """Plays values of one parameter as sweep cells on one root seed, and remembers them."""

    def __init__(self, game: str, param: str, players: int, variant: str, fixed: dict, lineup: str | None,
                 seed: int, jobs: int, folder: Path, progress: Callable[[str], None] | None = None):
        self.game, self.param, self.players, self.variant = game, param, players, variant
        self.fixed, self.lineup, self.seed, self.jobs, self.folder = fixed, lineup, seed, jobs, folder
        self.progress = progress
        self.cache: dict[str, Evaluation] = {}
        self.history: list[Evaluation] = []  # every evaluation played, in order
        self.runs = 0

    def sweep(self, values: list, games: int) -> specs.Sweep:
        """The sweep that plays `values` for `games` games each (a grid over the parameter)."""
        block = {"game": self.game, "players": self.players, "variants": self.variant, "set": dict(self.fixed),
                 "grid": {self.param: [list(v) if isinstance(v, tuple) else v for v in values]}, "games": games}
        if self.lineup:
            block["strategies"] = self.lineup
        return specs.load({"name": "tune", "seed": self.seed, "study": [block]})

    def get(self, values: list, games: int) -> list[Evaluation]:
        """Each value's evaluation with at least `games` games (played now if not yet)."""
        wanted = list(dict.fromkeys(_key(v) for v in values))
        need = [json.loads(k) for k in wanted if k not in self.cache or self.cache[k].games < games]
        if need:
            self._play([tuple(v) if isinstance(v, list) else v for v in need], games)
        return [self.cache[_key(v)] for v in values]

    def one(self, value, games: int) -> Evaluation:
        return self.get([value], games)[0]

    def _play(self, values: list, games: int) -> None:
        from simkit import runner

        self.runs += 1
        folder = self.folder / "evaluations" / f"{self.runs:03d}-{games}games"
        sweep = self.sweep(values, games)
        runner.run(sweep, folder, jobs=self.jobs, quiet=True, report=False)
        seats = (pl.read_parquet(folder / "seats.parquet", columns=["cell", "game_index", "seat", "win"])
                 .sort("cell", "game_index", "seat"))
        rounds = pl.read_parquet(folder / "games.parquet", columns=["cell", "game_index", "rounds"]).sort(
            "cell", "game_index")
        for cell in sweep.cells:
            value = cell.overrides[self.param]
            value = tuple(value) if isinstance(value, list) else value
            wins = seats.filter(pl.col("cell") == cell.id)["win"].to_numpy().reshape(-1, self.players)
            lengths = rounds.filter(pl.col("cell") == cell.id)["rounds"].to_numpy()
            evaluation = Evaluation(value, int(wins.shape[0]), str(folder.relative_to(self.folder)), wins, lengths)
            self.cache[_key(value)] = evaluation
            self.history.append(evaluation)
            if self.progress:
                seat0 = evaluation.share(0)
                self.progress(f"  {self.param} = {label(value)}: {games:,} games, seat 0 "
                              f"{100 * seat0['vs_fair']:+.1f} points (CI {100 * seat0['vs_fair_low']:+.1f} to "
                              f"{100 * seat0['vs_fair_high']:+.1f})")


# ---------------------------------------------------------------------------------------
# One-dimensional root finding on a fixed set of seeds


def find_root(g: Callable[[Any], float], start, low, high, integer: bool, step,
              increasing: bool | None = None) -> tuple[Any, Any, bool]:
    """(a, b, at_bound): a bracket a <= b where g changes sign (g(a)·g(b) <= 0), narrowed
    to adjacent integers (for a float, to 1/FLOAT_STEPS of [low, high]); or (x, x, True)
    when g keeps its sign up to the bound x of [low, high] that it approaches; or (x, x,
    False) when |g| grows both ways from x (noise at this many games: x is the best seen).

    g is nearly monotone (the same seeds for every value). `increasing` says which way when
    it is known (a seat's own resource raises its share); otherwise steps of doubling width
    from `start` find a value where g differs, and the slope between them says which way.
    Steps doubling in that direction find where the sign changes; a step that takes |g|
    further from zero turns the search the other way once. Then bisection.
    """
    def clamp(x):
        x = min(max(x, low), high)
        return int(x) if integer else x

    seen: dict = {}

    def at(x):
        if x not in seen:
            seen[x] = g(x)
        return seen[x]

    if at(start) == 0:
        return start, start, False
    if increasing is not None:
        direction = 1 if (at(start) < 0) == increasing else -1
        a, width = start, step
    else:
        other, width = None, step
        while other is None:  # the slope: the nearest step either way where g differs
            up, down = clamp(start + width), clamp(start - width)
            other = next((x for x in (up, down) if x != start and at(x) != at(start)), None)
            if other is None and up == high and down == low:
                best = min(seen, key=lambda x: abs(seen[x]))  # no step changes g: nothing to follow
                return best, best, True
            width *= 2
        if at(start) * at(other) <= 0:
            a, b = sorted((start, other))
            direction = 0
        else:
            slope = (at(other) - at(start)) / (other - start)
            direction = 1 if (at(start) > 0) == (slope < 0) else -1
            a = other if (other - start) * direction > 0 else start
            width = abs(other - start)
    turned = False
    first_width = width
    while direction:
        b = clamp(a + direction * width)
        if b == a:  # the bound, still on the same side
            return a, a, True
        if at(a) * at(b) <= 0:
            a, b = sorted((a, b))
            break
        if abs(at(b)) > abs(at(a)):  # moving away from zero: the slope read at the start was noise
            if turned:
                best = min(seen, key=lambda x: abs(seen[x]))
                return best, best, False
            turned, direction, a, width = True, -direction, start, 2 * first_width  # over a bump next to start
            continue
        a, width = b, 2 * width
    tolerance = 1 if integer else (high - low) / FLOAT_STEPS
    for _ in range(MAX_BISECTIONS):
        if b - a <= tolerance:
            break
        middle = (a + b) // 2 if integer else (a + b) / 2
        if at(middle) == 0:
            return middle, middle, False
        if at(a) * at(middle) <= 0:
            b = middle
        else:
            a = middle
    return a, b, False


# ---------------------------------------------------------------------------------------
# The result


@dataclass
class TuneResult:
    """What `simkit.tune` found: the value, its evidence, and every evaluation played."""

    game: str
    param: str
    kind: str
    players: int
    variant: str
    lineup: str
    fixed: dict
    seed: int
    precision: float
    max_games: int
    step: int  # an int's values are default + k·step
    default: Any
    status: str  # settled, bracketed, at_bound or unsettled (see the module docstring)
    value: Any
    games: int  # games per evaluation at the final stage
    seat_advantage: dict  # seat 0's share of decided games − fair at `value`: value, ci_low, ci_high
    seats: list[dict]  # every seat's share of decided games at `value`, with intervals
    interval: dict | None  # the parameter's values consistent with fair: low, high (see `_interval`)
    evidence: list[dict]  # neighbouring values on the same seeds, with paired differences
    evaluations: list[dict] = field(default_factory=list)
    folder: str = ""
    # per-seat list, when it differs from `value`: the schedule tried at the final stage whose worst
    # seat is closest to fair (value, label, seats), for a designer who prefers even seats to seat 0 at fair
    most_even: dict | None = None

    @property
    def exit_code(self) -> int:
        return EXIT_CODES[self.status]

    def to_dict(self) -> dict:
        value = list(self.value) if isinstance(self.value, tuple) else self.value
        default = list(self.default) if isinstance(self.default, tuple) else self.default
        return {"game": self.game, "param": self.param, "kind": self.kind, "players": self.players,
                "variant": self.variant, "lineup": self.lineup, "fixed": self.fixed, "seed": self.seed,
                "precision": self.precision, "max_games": self.max_games, "step": self.step, "default": default,
                "status": self.status, "exit_code": self.exit_code, "value": value, "label": label(self.value),
                "games": self.games, "seat_advantage": self.seat_advantage, "seats": self.seats,
                "interval": self.interval, "evidence": self.evidence, "most_even": self.most_even,
                "evaluations": self.evaluations}

    def answer(self) -> str:
        """One sentence: the value, seat 0's advantage there, and how sure the search is."""
        adv = self.seat_advantage
        figure = (f"seat 0 {100 * adv['value']:+.1f} points (95% CI {100 * adv['ci_low']:+.1f} to "
                  f"{100 * adv['ci_high']:+.1f}) over {self.games:,} games")
        where = f"{self.game} {self.players}p {self.variant}"
        verdict = {
            "settled": "its interval contains zero within the precision asked",
            "bracketed": ("no schedule of whole steps nearby puts every seat within its interval of fair; this one "
                          "is the closest (see evidence)") if self.kind == "ints" else
                         "no value is fair: the fair point lies between this value and a neighbour (see evidence)",
            "at_bound": "the advantage keeps its sign over the whole allowed range; this bound is the closest value",
            "unsettled": f"NOT settled within {self.max_games:,} games per evaluation: the best value so far",
        }[self.status]
        text = f"{where}: {self.param} = {label(self.value)} ({self.status}) — {figure}; {verdict}."
        if self.most_even:
            worst = max(self.most_even["seats"], key=lambda s: abs(s["vs_fair"]))
            text += (f" Most even schedule tried: {self.most_even['label']} (its worst seat, {worst['seat']}, "
                     f"{100 * worst['vs_fair']:+.1f} points from fair; seat 0 "
                     f"{100 * self.most_even['seats'][0]['vs_fair']:+.1f}).")
        if self.kind == "ints" and len(self.value) > self.players:
            unused = len(self.value) - self.players
            which = "The last value is for a seat that does" if unused == 1 else \
                f"The last {unused} values are for seats that do"
            text += f" {which} not play at {self.players} players (kept at the default)."
        if self.interval:
            text += (f" Values consistent with fair: {self.interval['low']:g} to {self.interval['high']:g}"
                     + (" (or wider: the search stopped walking)." if self.interval.get("open") else "."))
        return text

    def markdown(self) -> str:
        """tune.md: the answer, the evidence, and every evaluation."""
        def points(v):
            return "–" if v is None else f"{100 * v:+.1f}"

        lines = [f"# simkit tune: {self.game} {self.param}", "", self.answer(), "",
                 f"Searched {self.kind} parameter `{self.param}` (default {label(self.default)}) at {self.players} "
                 f"players, variant {self.variant}, line-up {self.lineup}"
                 + (f", with {', '.join(f'{k}={label(v)}' for k, v in self.fixed.items())}" if self.fixed else "")
                 + (f"; values in steps of {self.step} from the default" if self.step != 1 else "")
                 + f"; root seed {self.seed}; target ±{100 * self.precision:g} points; at most "
                 f"{self.max_games:,} games per evaluation. Every evaluation plays the same seeds (game i of each "
                 "plays seed i), so neighbouring values are compared paired.", "",
                 "## Seats at the chosen value", "",
                 "| seat | share of decided games | 95% CI | against fair (points) |", "|---|---:|---:|---:|"]
        for seat in self.seats:
            lines.append(f"| {seat['seat']} | {100 * seat['rate']:.1f}% | {100 * seat['ci_low']:.1f}–"
                         f"{100 * seat['ci_high']:.1f}% | {points(seat['vs_fair'])} |")
        if self.most_even:
            lines += ["", f"Most even schedule tried at this stage: {self.most_even['label']}, seats "
                      + " / ".join(f"{points(seat['vs_fair'])}" for seat in self.most_even["seats"])
                      + " points against fair."]
        if self.evidence:
            lines += ["", "## Evidence: neighbouring values on the same seeds", "",
                      ("| seat | value | its share against fair (points, 95% CI) | paired change from the chosen "
                       "value (points, 95% CI) | games |"), "|---|---|---:|---:|---:|"]
            for row in self.evidence:
                change = row["paired"]
                lines.append(f"| {row['seat']} | {row['label']} | {points(row['vs_fair'])} "
                             f"({points(row['vs_fair_low'])} to {points(row['vs_fair_high'])}) | "
                             f"{points(change['diff'])} ({points(change['ci_low'])} to {points(change['ci_high'])}) | "
                             f"{change['paired_games']:,} |")
        lines += ["", "## Every evaluation", "",
                  ("| # | value | games | seat 0 against fair (points, 95% CI) | seats' shares of decided games | "
                   "mean rounds | folder |"), "|---:|---|---:|---:|---|---:|---|"]
        for number, row in enumerate(self.evaluations, 1):
            adv = row["seat_advantage"]
            shares = " / ".join(f"{100 * s['rate']:.1f}%" for s in row["seats"])
            lines.append(f"| {number} | {row['label']} | {row['games']:,} | {points(adv['value'])} "
                         f"({points(adv['ci_low'])} to {points(adv['ci_high'])}) | {shares} | "
                         f"{row['rounds_mean']:.1f} | {row['folder']} |")
        return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------
# The search


def _contains(share: dict) -> bool:
    return share["vs_fair_low"] <= 0.0 <= share["vs_fair_high"]


def _half_width(share: dict) -> float:
    return (share["vs_fair_high"] - share["vs_fair_low"]) / 2.0


def _opposite(a: dict, b: dict) -> bool:
    """The two intervals exclude fair on opposite sides."""
    return (a["vs_fair_low"] > 0 and b["vs_fair_high"] < 0) or (a["vs_fair_high"] < 0 and b["vs_fair_low"] > 0)


def _neighbour_row(seat: int, chosen: Evaluation, other: Evaluation) -> dict:
    share = other.share(seat)
    return {"seat": seat, "value": list(other.value) if isinstance(other.value, tuple) else other.value,
            "label": label(other.value), **{k: share[k] for k in ("vs_fair", "vs_fair_low", "vs_fair_high")},
            "paired": paired(chosen, other, seat)}


def _lattice(start: int, low: int, high: int, grain: int) -> tuple[int, int]:
    """The range of k for which start + k·grain lies in low..high."""
    return -((start - low) // grain), (high - start) // grain


def _search_number(evaluator: Evaluator, param, start, precision: float, max_games: int, grain: int = 1) -> dict:
    """Seat 0's advantage against a number parameter; an int moves on start + k·grain."""
    integer = param.kind == "int"
    low, high = param.allowed
    games = min(START_GAMES, max_games)
    x = start
    while True:
        if integer:
            def g(k, games=games):
                return evaluator.one(start + k * grain, games).deviation(0)

            k_low, k_high = _lattice(start, low, high, grain)
            a, b, at_bound = find_root(g, (x - start) // grain, k_low, k_high, True, 1)
            a, b = start + a * grain, start + b * grain
        else:
            def g(v, games=games):
                return evaluator.one(v, games).deviation(0)

            a, b, at_bound = find_root(g, x, low, high, False, (high - low) / 20)
        ends = evaluator.get([a, b], games)
        best = min(ends, key=lambda e: abs(e.deviation(0)))
        share = best.share(0)
        status = None
        if _contains(share) and _half_width(share) <= precision:
            status = "settled"
        elif at_bound and not _contains(share):
            status = "at_bound"
        elif integer and a != b and _opposite(ends[0].share(0), ends[1].share(0)):
            status = "bracketed"
        elif games >= max_games:
            status = "unsettled"
        if status:
            return {"status": status, "best": best, "bracket": (a, b), "games": games, "grain": grain}
        x = best.value
        games = min(2 * games, max_games)


def _search_schedule(evaluator: Evaluator, param, start: tuple, players: int, precision: float,
                     max_games: int, grain: int = 1) -> dict:
    """Each seat from 1 on in turn to fair, on its default + k·grain; see the module docstring."""
    low, high, _ = param.allowed
    schedule = list(start)
    games = min(START_GAMES, max_games)
    while True:
        for _ in range(MAX_ROUNDS):
            changed = False
            for seat in range(1, players):
                base = start[seat]

                def g(k, seat=seat, games=games, base=base, schedule=schedule):
                    trial = tuple(schedule[:seat] + [base + k * grain] + schedule[seat + 1:])
                    return evaluator.one(trial, games).deviation(seat)

                k_low, k_high = _lattice(base, low, high, grain)
                a, b, _ = find_root(g, (schedule[seat] - base) // grain, k_low, k_high, True,
                                    max(1, (k_high - k_low) // 100), increasing=True)
                best = base + grain * min((a, b), key=lambda k: abs(g(k)))
                if best != schedule[seat]:
                    schedule[seat] = best
                    changed = True
            if not changed:
                break
        chosen = evaluator.one(tuple(schedule), games)
        shares = [chosen.share(seat) for seat in range(players)]
        if not all(_contains(s) for s in shares) and _half_width(shares[0]) <= precision:
            chosen = _polish(evaluator, chosen, players, games, low, high, grain)
            schedule = list(chosen.value)
            shares = [chosen.share(seat) for seat in range(players)]
        status = None
        if all(_contains(s) for s in shares) and _half_width(shares[0]) <= precision:
            status = "settled"
        else:
            off = [seat for seat in range(1, players) if not _contains(shares[seat])]
            if _half_width(shares[0]) <= precision and (_contains(shares[0]) or off and all(
                    _bracketed(evaluator, schedule, seat, games, shares[seat], low, high, grain) for seat in off)):
                status = "bracketed"
        if status is None and games >= max_games:
            status = "unsettled"
        if status:
            return {"status": status, "best": chosen, "games": games, "grain": grain}
        games = min(2 * games, max_games)


def _worst(evaluation: Evaluation) -> float:
    """How far the worst seat is from fair, in half widths of its interval (<= 1: every seat is within)."""
    return max(abs(s["vs_fair"]) / max(_half_width(s), 1e-12) for s in
               (evaluation.share(seat) for seat in range(evaluation.players)))


def _rank(evaluation: Evaluation) -> tuple:
    """Schedules compared: every seat within its interval of fair first, then seat 0 within its
    interval, then the worst seat's distance from fair in half widths."""
    shares = [evaluation.share(seat) for seat in range(evaluation.players)]
    return not all(_contains(s) for s in shares), not _contains(shares[0]), _worst(evaluation)


def _polish(evaluator: Evaluator, chosen: Evaluation, players: int, games: int, low: int, high: int,
            grain: int) -> Evaluation:
    """The best schedule (by `_rank`) around the chosen one: every seat from 1 on at its value or one
    step either way, all combinations (seats interact: one seat's step moves the others' shares). When
    a whole step is worth several points, none of these may put every seat within its interval of
    fair; then the same neighbourhood with seat 0 one step towards fair is tried too."""
    import itertools

    def around(first: int) -> list[tuple]:
        options = [[first]] + [[v for v in (x - grain, x, x + grain) if low <= v <= high]
                               for x in chosen.value[1:players]]
        return [tuple(values) + tuple(chosen.value[players:]) for values in itertools.product(*options)]

    best = min(evaluator.get(around(chosen.value[0]), games), key=_rank)
    seat0 = chosen.share(0)
    towards = chosen.value[0] + (grain if seat0["vs_fair"] < 0 else -grain)
    if _rank(best)[0] and low <= towards <= high:  # no seat-0-fixed schedule has every seat within
        best = min([best, *evaluator.get(around(towards), games)], key=_rank)
    return best


def _bracketed(evaluator: Evaluator, schedule: list, seat: int, games: int, share: dict, low: int, high: int,
               grain: int) -> bool:
    """The seat is off fair at its value, and the neighbouring value towards fair is off on the other side."""
    step = grain if share["vs_fair"] < 0 else -grain  # assumed: more of the resource helps its seat (checked here)
    x = schedule[seat] + step
    if not low <= x <= high:
        return False
    trial = tuple(schedule[:seat] + [x] + schedule[seat + 1:])
    return _opposite(share, evaluator.one(trial, games).share(seat))


def _evidence(evaluator: Evaluator, param, chosen: Evaluation, players: int, games: int, grain: int = 1) -> list[dict]:
    """The chosen value's neighbours at the final stage, each with its paired change from the chosen value:
    for a number, one step (grain) either side; for a per-seat schedule, each free seat's value ± grain."""
    rows = []
    if param.kind == "ints":
        low, high, _ = param.allowed
        for seat in range(1, players):
            for step in (-grain, grain):
                x = chosen.value[seat] + step
                if low <= x <= high:
                    trial = tuple(chosen.value[:seat]) + (x,) + tuple(chosen.value[seat + 1:])
                    rows.append(_neighbour_row(seat, chosen, evaluator.one(trial, games)))
        return rows
    low, high = param.allowed
    step = grain if param.kind == "int" else (high - low) / FLOAT_STEPS
    for x in (chosen.value - step, chosen.value + step):
        if low <= x <= high:
            rows.append(_neighbour_row(0, chosen, evaluator.one(x, games)))
    return rows


def _interval(param, evaluator: Evaluator, found: dict, games: int) -> dict | None:
    """The parameter's values consistent with fair at the final stage (low, high). For an int:
    the run of integers around the chosen one whose seat-0 interval contains zero (walking out at
    most MAX_WALK steps each way; `open` when a walk was cut short), or the bracket when none does.
    For a float: the value where the secant through the evaluated values meets each end of the
    chosen value's interval. None for a per-seat schedule (its evidence is per seat)."""
    if param.kind == "ints":
        return None
    if param.kind == "int":
        best = found["best"]
        if not _contains(best.share(0)):
            a, b = found["bracket"]
            return {"low": a, "high": b, "open": False} if a != b else None
        low, high = param.allowed
        ends, open_end = [], False
        for step in (-found["grain"], found["grain"]):  # walk out while the interval still holds zero
            x = best.value
            for _ in range(MAX_WALK):
                if not low <= x + step <= high or not _contains(evaluator.one(x + step, games).share(0)):
                    break
                x += step
            else:
                open_end = True
            ends.append(x)
        return {"low": ends[0], "high": ends[1], "open": open_end}
    evaluated = [e for e in evaluator.cache.values() if e.games >= games]
    ordered = sorted(evaluated, key=lambda e: e.value)
    if len(ordered) < 2:
        return None
    first, last = ordered[0], ordered[-1]
    slope = (last.deviation(0) - first.deviation(0)) / (last.value - first.value)
    best = found["best"].share(0)
    if slope == 0:
        return None
    ends = sorted(found["best"].value - (best["vs_fair"] - bound) / slope
                  for bound in (best["vs_fair_low"], best["vs_fair_high"]))
    return {"low": ends[0], "high": ends[1]}


def _most_even(evaluator: Evaluator, chosen: Evaluation, games: int) -> dict | None:
    """The schedule played at the final stage whose worst seat is fewest half widths from fair,
    when that is not the chosen one."""
    played = [e for e in evaluator.cache.values() if e.games >= games]
    even = min(played, key=_worst)
    if _worst(even) >= _worst(chosen):
        return None
    return {"value": list(even.value), "label": label(even.value),
            "seats": [even.share(seat) for seat in range(even.players)]}


def _folder(out, game: str, param: str, players: int) -> Path:
    folder = Path(out) if out is not None else Path("reports") / (
        f"tune-{game}-{param}-{players}p-{datetime.now().strftime('%Y%m%d-%H%M%S')}")
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise InputError(f"--out {folder} is not a new or empty folder; choose a new folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise InputError(f"cannot write to --out {folder}: {e.strerror}; choose a writable folder") from None
    return folder


def tune(game: str, param: str, *, players: int | None = None, variant: str = "standard",
         set: list[str] | dict | None = None, strategies: str | None = None,  # named like --set
         precision: float | str | None = None, max_games: int | None = None, step: int | None = None,
         seed: int = 1, jobs: int = 1, out: str | Path | None = None,
         progress: Callable[[str], None] | None = None) -> TuneResult:
    """Search `param` for the value bringing seat advantage closest to zero; see the module docstring.

    players: the player count (default: the game's largest); variant, set (fixed rule
    overrides, as `simkit sweep --set`), strategies (one line-up "a,b"): the cell searched.
    precision: the half width asked of seat 0's advantage (0.01 or "1pt"; default 1 point);
    max_games: games per evaluation at most. step: for an int or ints parameter, the values
    tried are the default + k·step (a game whose amounts move in 100s needs no 650). Writes tune.json, tune.md and the evaluations'
    sweep folders into `out` (default reports/tune-<game>-<param>-<players>p-<time>/).
    """
    the_game = registry.get(game)
    schema = the_game.rules
    if param not in schema.by_name:
        raise unknown(f"rule parameter for {game}", param, schema.by_name, "--param")
    declared = schema.by_name[param]
    if declared.kind not in TUNABLE:
        raise InputError(f"--param {param} is a {declared.kind} parameter of {game}; tune searches a number (int or "
                         f"float) or a per-seat list of whole numbers (ints)")
    players = max(the_game.players) if players is None else players
    if isinstance(players, bool) or not isinstance(players, int) or players < 2:
        raise InputError(f"--players must be one player count of at least 2, got {players!r}")
    fixed = specs.parse_set(set)
    for key, value in fixed.items():
        kind = getattr(schema.by_name.get(key), "kind", None)
        if isinstance(value, list) and (kind != "ints" or any(isinstance(v, list) for v in value)):
            raise InputError(f"--set {key}={value} lists several values, but tune plays one rule set besides "
                             f"--param; give {key} one value")
    if param in fixed:
        raise InputError(f"--param {param} is also given in --set; tune chooses its value, so drop it from --set")
    if declared.kind == "ints" and declared.allowed[2] < players:
        raise InputError(f"--param {param} holds {declared.allowed[2]} values, one per seat, but {players} players "
                         "were asked for")
    target = specs._precision(DEFAULT_PRECISION if precision is None else precision, "--precision")
    limit = DEFAULT_MAX_GAMES if max_games is None else max_games
    if isinstance(limit, bool) or not isinstance(limit, int) or not 100 <= limit <= specs.MAX_GAMES:
        raise InputError(f"--max-games must be a whole number of games from 100 to {specs.MAX_GAMES:,}, "
                         f"got {limit!r}")
    grain = 1 if step is None else step
    if isinstance(grain, bool) or not isinstance(grain, int) or grain < 1:
        raise InputError(f"--step must be a whole number >= 1, got {step!r}")
    if step is not None and declared.kind == "float":
        raise InputError(f"--step is for whole-number parameters; {param} is a float, searched to 1/{FLOAT_STEPS} "
                         "of its range")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise InputError(f"--jobs must be >= 1, got {jobs!r}")
    lineup = strategies
    fixed_ok = schema.validate(fixed, "--set")
    start = schema.resolve(variant, fixed_ok, "--set")[param]
    probe = Evaluator(game, param, players, variant, fixed, lineup, seed, jobs, Path("."))
    probe.sweep([start], 1)  # every other input (players, variant, line-up, seed) is checked here, before any game
    folder = _folder(out, game, param, players)
    evaluator = Evaluator(game, param, players, variant, fixed, lineup, seed, jobs, folder, progress)

    if declared.kind == "ints":
        found = _search_schedule(evaluator, declared, tuple(start), players, target, limit, grain)
    else:
        found = _search_number(evaluator, declared, start, target, limit, grain)
    chosen, games = found["best"], found["games"]
    evidence = _evidence(evaluator, declared, chosen, players, games, grain)
    seat0 = chosen.share(0)
    cell = evaluator.sweep([chosen.value], 1).cells[0]
    result = TuneResult(
        game=game, param=param, kind=declared.kind, players=players, variant=variant, lineup=",".join(cell.lineup),
        fixed=fixed_ok, seed=seed, precision=target, max_games=limit, step=grain, default=start,
        status=found["status"],
        value=chosen.value, games=games,
        seat_advantage={"value": seat0["vs_fair"], "ci_low": seat0["vs_fair_low"], "ci_high": seat0["vs_fair_high"]},
        seats=[chosen.share(seat) for seat in range(players)],
        interval=_interval(declared, evaluator, found, games), evidence=evidence,
        most_even=_most_even(evaluator, chosen, games) if declared.kind == "ints" else None,
        evaluations=[e.to_dict() for e in evaluator.history], folder=str(folder))
    (folder / "tune.json").write_text(json.dumps(result.to_dict(), indent=1, default=_plain))
    (folder / "tune.md").write_text(result.markdown())
    return result


def _plain(value):
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return str(value)


class _CallableModule(types.ModuleType):
    """`simkit.tune(...)` is the library call (DESIGN §8) and `simkit.tune` is also this module:
    importing a submodule binds its name on the package, so the module itself answers the call."""

    def __call__(self, game: str, param: str, **options) -> TuneResult:
        return tune(game, param, **options)


sys.modules[__name__].__class__ = _CallableModule
