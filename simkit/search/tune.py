"""`simkit tune`: the value of a rule parameter or designer knob that evens the seats (docs/tuning.md).

Fairness means every seat. The search minimises a whole-seat objective (`--objective`,
simkit.analysis.seats.OBJECTIVES) over decided games (a round-capped game is nobody's, a
k-way shared win counts 1/k):

- `gap` (default): the largest seat gap, the highest seat's share minus the lowest's;
- `chi2`: the chi-square distance of the seat shares from fair, per decided game;
- `seat0`: seat 0's distance from fair alone (the figure the report leads with).

Every evaluation is a sweep cell played by `simkit.sweeps.runner` into `<out>/evaluations/`, and
every evaluation of a stage plays game indices 0..N-1 of one root seed: two values are
compared on the same deals and dice (common random numbers), game by game (the
delta method on each game's seat wins). When the rules change the game from its set-up on
(seat 0's own silver decides its first turn, say), the same seed deals a different game
and the pairing buys nothing: each comparison records what the pairing bought, and the
result says which comparisons it could not pair.

The response need not be monotone (one silver more for seat 2 can move seat 0 by 9
points), so the search scans, then refines, then validates:

1. scan: from the default, each seat in turn (for a per-seat list; seat 0 keeps its
   rulebook value here) is set to every value of its range (at most MAX_SCAN of them,
   evenly spaced), the others held, and the best kept; passes repeat until nothing moves;
2. refine: from the best, each value — seat 0's included — one step either way, moving
   while that improves the objective; the step halves to the parameter's grain (at the
   first stage, where games are cheap, every combination of one step on several seats at
   once is tried too: the seats interact); then the
   games per evaluation double, and the best and the values within the noise of it (its
   rivals: their paired difference from it reaches below zero) are played again and the
   refinement repeats, until the best's objective is known to ±precision (settled) or
   `max_games` is reached (unsettled, exit 3);
3. validate: the best and the values within its noise are played again on fresh seeds
   (another root seed, at least VALIDATION_GAMES games each); the answer is the best there,
   and its figures are those of the fresh games, free of the luck the search selected for.

A number parameter (int, float) is the same search along one axis: ints on the default +
k·step, floats on 1/FLOAT_STEPS of the range.
"""

from __future__ import annotations

import itertools
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
from simkit.analysis.curves import label
from simkit.analysis.intervals import Z95
from simkit.analysis.seats import OBJECTIVES, objective
from simkit.analysis.seats import share as share_of_decided
from simkit.core.errors import InputError, unknown
from simkit.core.files import expand_user, fix_for, kind_of, why, write_text
from simkit.sweeps import spec as specs

START_GAMES = 1_000  # games per evaluation at the first stage; doubled per stage
DEFAULT_MAX_GAMES = 64_000  # games per evaluation at most
DEFAULT_PRECISION = 0.01  # ±1 point on the objective at the answer
DEFAULT_OBJECTIVE = "gap"
MAX_SCAN = 21  # values scanned per axis (evenly spaced over the range, the default among them)
SCAN_PASSES = 3  # passes over the seats in the scan
MAX_MOVES = 12  # refinement moves per step size
MAX_BOX_AXES = 4  # the first stage tries every move of one step on several axes at once up to this many axes
MAX_RIVALS = 4  # values within the noise of the best carried to the next stage and to validation
VALIDATION_GAMES = 16_000  # games per value on the fresh seeds, at least
PANEL_VALIDATION_GAMES = 40_000  # with a panel of bots: games per value and panel member on the fresh seeds
CHECK_GAMES = 8_000  # a rollout-tier panel member's own refinement from the search's answer: games per value, at most
VALIDATION_STREAM = 2 ** 61  # the fresh seeds' root: derive(root seed, VALIDATION_STREAM)
BROKEN_PAIRING = 1.1  # a paired interval less than 10% tighter than an unpaired one: the pairing bought nothing
FLOAT_STEPS = 1_000  # a float is searched on 1/FLOAT_STEPS of its allowed range
TUNABLE = ("int", "float", "ints")
EXIT_CODES = {"settled": 0, "unsettled": 3}


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
        n = round(float(self.decided.sum()))
        figure = share_of_decided(float(self.wins[:, seat].sum()), n, self.fair)
        if n == 0:  # no decided game (every game hit the round cap): no share, null (docs/results.md)
            figure = dict.fromkeys(figure)
        return {"seat": seat, **figure}

    def terms(self, name: str, n: int | None = None) -> tuple[float, np.ndarray]:
        """The objective over the first n games, and its per-game linear terms (delta method):
        (gradient · (w − rates · decided)) / mean decided. Their mean is 0 and their spread
        is the objective's: two evaluations on the same seeds compare game by game."""
        n = self.games if n is None else n
        wins = self.wins[:n]
        decided = wins.sum(axis=1)
        total = decided.sum()
        if total <= 0:
            return float("nan"), np.zeros(n)
        rates = wins.sum(axis=0) / total
        value, gradient = objective(rates, self.fair, name)
        g = np.asarray(gradient)
        return value, (wins @ g - float(g @ rates) * decided) / decided.mean()

    def figure(self, name: str) -> dict:
        """The objective with its 95% interval."""
        value, terms = self.terms(name)
        half = Z95 * float(terms.std(ddof=1)) / math.sqrt(self.games) if self.games > 1 else float("inf")
        return {"value": value, "ci_low": value - half, "ci_high": value + half}

    def to_dict(self, name: str) -> dict:
        seat0 = self.share(0)
        return {"value": list(self.value) if isinstance(self.value, tuple) else self.value,
                "label": label(self.value), "games": self.games, "decided_games": round(float(self.decided.sum())),
                "objective": self.figure(name),
                "seat_advantage": {"value": seat0["vs_fair"], "ci_low": seat0["vs_fair_low"],
                                   "ci_high": seat0["vs_fair_high"]},
                "seats": [self.share(seat) for seat in range(self.players)],
                "rounds_mean": float(self.rounds.mean()) if self.games else None, "folder": self.folder}


def compare(best: Evaluation, other: Evaluation, name: str) -> dict:
    """other's objective minus best's on the games both played, game by game, with what the
    pairing bought: diff, ci_low, ci_high, correlation, gain (unpaired / paired half width),
    paired (False when the pairing bought nothing) and the games compared."""
    n = min(best.games, other.games)
    a, terms_a = best.terms(name, n)
    b, terms_b = other.terms(name, n)
    var_a, var_b = float(terms_a.var(ddof=1)), float(terms_b.var(ddof=1))
    var_d = float((terms_b - terms_a).var(ddof=1))
    paired, unpaired = Z95 * math.sqrt(var_d / n), Z95 * math.sqrt((var_a + var_b) / n)
    correlation = (var_a + var_b - var_d) / (2.0 * math.sqrt(var_a * var_b)) if var_a > 0 and var_b > 0 else 0.0
    gain = unpaired / paired if paired > 0 else None
    return {"diff": b - a, "ci_low": b - a - paired, "ci_high": b - a + paired,
            "correlation": max(-1.0, min(1.0, correlation)), "gain": gain,
            "paired": gain is None or gain >= BROKEN_PAIRING, "games": n}


def _key(value: Any) -> str:
    return json.dumps(list(value) if isinstance(value, tuple) else value)


class Evaluator:
    """Plays values of one parameter as sweep cells on one root seed, and remembers them."""

    def __init__(self, game: str, param: str, players: int, variant: str, fixed: dict, lineup: str | None,
                 seed: int, jobs: int, folder: Path, progress: Callable[[str], None] | None = None,
                 name: str = DEFAULT_OBJECTIVE, label_: str = ""):
        self.game, self.param, self.players, self.variant = game, param, players, variant
        self.fixed, self.lineup, self.seed, self.jobs, self.folder = fixed, lineup, seed, jobs, folder
        self.progress, self.name, self.label = progress, name, label_
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
        from simkit.sweeps import runner

        self.runs += 1
        folder = self.folder / "evaluations" / f"{self.runs:03d}-{self.label}{games}games"
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
                figure = evaluation.figure(self.name)
                self.progress(f"  {self.label}{self.param} = {label(value)}: {games:,} games, {self.name} "
                              f"{_points(figure['value'])} (CI {_points(figure['ci_low'])} to "
                              f"{_points(figure['ci_high'])})")


# ---------------------------------------------------------------------------------------
# A panel of line-ups: the robust objective is the worst member's


@dataclass
class PanelEvaluation:
    """One value played under every line-up of a panel, on the same seeds: its objective is the
    worst member's (for `gap`, the largest seat gap under any of the panel's bots), and its
    per-game terms are that member's (the delta method on the maximum, at its active member)."""

    value: Any
    members: list[Evaluation]  # in the panel's order
    name: str

    @property
    def games(self) -> int:
        return min(m.games for m in self.members)

    @property
    def players(self) -> int:
        return self.members[0].players

    def worst(self, n: int | None = None) -> int:
        """The index of the member whose objective is largest (the first of a tie)."""
        values = [m.terms(self.name, n)[0] for m in self.members]
        values = [v if math.isfinite(v) else float("inf") for v in values]
        return values.index(max(values))

    def terms(self, name: str, n: int | None = None) -> tuple[float, np.ndarray]:
        return self.members[self.worst(n)].terms(name, n)

    def figure(self, name: str) -> dict:
        return self.members[self.worst()].figure(name)

    def share(self, seat: int) -> dict:
        return self.members[self.worst()].share(seat)


class PanelEvaluator:
    """Plays values under each line-up of a panel (one Evaluator per member, on the same root
    seed): the Evaluator's interface, answering with PanelEvaluations."""

    def __init__(self, members: dict[str, Evaluator]):
        self.members = members  # line-up label -> its Evaluator
        first = next(iter(members.values()))
        self.name, self.seed = first.name, first.seed

    @property
    def runs(self) -> int:
        return max(e.runs for e in self.members.values())

    @runs.setter
    def runs(self, value: int) -> None:
        for evaluator in self.members.values():
            evaluator.runs = value

    @property
    def cache(self) -> dict[str, PanelEvaluation]:
        """Every value played under every member, at the games all of them reached."""
        keys = set.intersection(*(set(e.cache) for e in self.members.values()))
        return {key: self._combine(key) for key in sorted(keys)}

    @property
    def history(self) -> list[Evaluation]:
        return [evaluation for evaluator in self.members.values() for evaluation in evaluator.history]

    def _combine(self, key: str) -> PanelEvaluation:
        members = [e.cache[key] for e in self.members.values()]
        return PanelEvaluation(members[0].value, members, self.name)

    def get(self, values: list, games: int) -> list[PanelEvaluation]:
        for evaluator in self.members.values():
            evaluator.get(values, games)
        return [self._combine(_key(v)) for v in values]

    def one(self, value, games: int) -> PanelEvaluation:
        return self.get([value], games)[0]


def member_bests(members: dict[str, Evaluator], space: Space, answer: Any, games: int,
                 also: tuple = ()) -> dict[str, Any]:
    """Per member, its own best (its objective alone): from the panel's answer, the best value the
    member played at any stage and the `also` values, one-step moves at `games` games while they
    improve it. Where the bots would each put the answer."""
    out = {}
    for label_, member in members.items():
        name = member.name
        played = [min(member.cache.values(), key=lambda e: (e.terms(name)[0], _key(e.value))).value] \
            if member.cache else []
        candidates = [space.coords(v) for v in [*played, *also]]
        out[label_] = _refine(member, space, space.coords(answer), 1, games, candidates).value
    return out


def panel_rows(evaluator: PanelEvaluator, best: PanelEvaluation, evaluations: list[PanelEvaluation],
               search_members: list[str]) -> list[dict]:
    """Per panel member: the answer's objective and seats under it, the member's own best among the
    candidates, and whether that beats the answer beyond the noise (paired, 95%): if it does, the
    answer depends on the bots."""
    name = evaluator.name
    rows = []
    for index, label_ in enumerate(evaluator.members):
        at_answer = best.members[index]
        own = min((e.members[index] for e in evaluations), key=lambda e: (e.terms(name)[0], _key(e.value)))
        change = None if own.value == at_answer.value else compare(own, at_answer, name)
        rows.append({"lineup": label_, "role": "search" if label_ in search_members else "check",
                     "games": at_answer.games, "objective": at_answer.figure(name),
                     "seats": [at_answer.share(s) for s in range(at_answer.players)],
                     "own_best": _plain(own.value), "own_best_label": label(own.value),
                     "own_best_objective": own.figure(name), "answer_against_own_best": change,
                     "depends": change is not None and change["ci_low"] > 0.0})
    return rows


def _points(value: float | None) -> str:
    return "–" if value is None or not math.isfinite(value) else f"{100 * value:.1f}"


# ---------------------------------------------------------------------------------------
# The search space: a lattice of whole steps per axis


@dataclass
class Space:
    """The values a search may try: per axis a start (the default) and a grain, value = start +
    k·grain for k in [k_low, k_high]. A per-seat list has one axis per seat that plays (the rest
    keep their defaults); a number has one axis."""

    kind: str
    starts: tuple
    grains: tuple
    bounds: tuple  # per axis (k_low, k_high)
    rest: tuple = ()  # a per-seat list's values for seats that do not play

    def value(self, ks: tuple[int, ...]):
        values = [start + k * grain for start, grain, k in zip(self.starts, self.grains, ks)]
        if self.kind == "ints":
            return tuple(int(v) for v in values) + self.rest
        return int(values[0]) if self.kind == "int" else float(values[0])

    def coords(self, value) -> tuple[int, ...]:
        values = value[:len(self.starts)] if self.kind == "ints" else (value,)
        return tuple(round((v - start) / grain) for v, start, grain in zip(values, self.starts, self.grains))

    def at_bound(self, ks: tuple[int, ...]) -> list[int]:
        """The axes (for a per-seat list: the seats) the search moved to an end of their range: a
        better value may lie past it."""
        return [axis for axis, (k, (low, high)) in enumerate(zip(ks, self.bounds))
                if k != 0 and k in (low, high) and low != high]


def _space(param, default, players: int, grain: int) -> Space:
    if param.kind == "ints":
        low, high, _ = param.allowed
        starts = tuple(int(v) for v in default[:players])
        bounds = tuple((-((s - low) // grain), (high - s) // grain) for s in starts)
        return Space("ints", starts, (grain,) * players, bounds, tuple(default[players:]))
    low, high = param.allowed
    step = grain if param.kind == "int" else (high - low) / FLOAT_STEPS
    k_low, k_high = -math.floor((default - low) / step + 1e-9), math.floor((high - default) / step + 1e-9)
    return Space(param.kind, (default,), (step,), ((k_low, k_high),))


def _scan_points(low: int, high: int, limit: int = MAX_SCAN) -> tuple[list[int], int]:
    """At most `limit` lattice points from low to high, evenly spaced, 0 (the default) among
    them; and their spacing."""
    stride = max(1, math.ceil((high - low) / (limit - 1)))
    points = sorted({0, *range(0, high + 1, stride), *range(0, low - 1, -stride), low, high})
    return points, stride


# ---------------------------------------------------------------------------------------
# Scan, refine, validate


@dataclass
class Stage:
    games: int
    best: Evaluation
    rivals: list[tuple[Evaluation, dict]]  # values within the noise of the best, with their comparison


def _rank_key(evaluation: Evaluation, name: str, space: Space) -> tuple:
    """Lower is better: the objective, then (a tie) the fewest steps from the default."""
    value = evaluation.terms(name)[0]
    return (value if math.isfinite(value) else float("inf"), sum(abs(k) for k in space.coords(evaluation.value)))


def _scan(evaluator: Evaluator, space: Space, games: int, scan_rows: list[dict]) -> tuple[tuple, list[int]]:
    """Each scanned axis in turn to every scan point, the others held: the best point, and each
    axis' scan spacing (the first refinement step)."""
    name = evaluator.name
    current = tuple(0 for _ in space.starts)
    axes = list(range(1, len(space.starts))) if space.kind == "ints" and len(space.starts) > 1 else [0]
    strides = [1] * len(space.starts)
    for number in range(SCAN_PASSES):
        moved = False
        for axis in axes:
            points, strides[axis] = _scan_points(*space.bounds[axis])
            trials = [current[:axis] + (k,) + current[axis + 1:] for k in points]
            evaluations = evaluator.get([space.value(t) for t in trials], games)
            for ks, evaluation in zip(trials, evaluations):
                scan_rows.append({"pass": number + 1, "axis": axis, "value": _plain(evaluation.value),
                                  "label": label(evaluation.value), "games": games,
                                  "objective": evaluation.figure(name),
                                  "seats": [evaluation.share(s)["vs_fair"] for s in range(evaluation.players)]})
            best = min(evaluations, key=lambda e: _rank_key(e, name, space))
            if space.coords(best.value) != current:
                current, moved = space.coords(best.value), True
        if not moved:
            break
    return current, strides


def _neighbours(space: Space, ks: tuple, step: int) -> list[tuple]:
    """Every axis one step either way (within its range)."""
    out = []
    for axis, (low, high) in enumerate(space.bounds):
        for move in (-step, step):
            k = ks[axis] + move
            if low <= k <= high:
                out.append(ks[:axis] + (k,) + ks[axis + 1:])
    return out


def _box(space: Space, ks: tuple) -> list[tuple]:
    """Every combination of one step either way (or none) on every axis: the moves that change
    several seats at once, which matter when the seats interact."""
    moves = itertools.product(*[[k + d for d in (-1, 0, 1) if low <= k + d <= high]
                                for k, (low, high) in zip(ks, space.bounds)])
    return [m for m in moves if m != ks]


def _refine(evaluator: Evaluator, space: Space, start: tuple, step: int, games: int,
            candidates: list[tuple], box: bool = False) -> Evaluation:
    """From the best of `start` and `candidates`, move one step on any axis while that improves
    the objective; halve the step down to one grain and do it again. With `box` (the first
    stage, where games are cheap), the moves on several axes at once are tried too."""
    name = evaluator.name
    best = min(evaluator.get([space.value(ks) for ks in [start, *candidates]], games),
               key=lambda e: _rank_key(e, name, space))
    while True:
        for _ in range(MAX_MOVES):
            ks = space.coords(best.value)
            moves = _box(space, ks) if box and step == 1 and len(ks) <= MAX_BOX_AXES else _neighbours(space, ks, step)
            around = evaluator.get([space.value(m) for m in moves], games)
            better = min([best, *around], key=lambda e: _rank_key(e, name, space))
            if better is best:
                break
            best = better
        if step == 1:
            return best
        step = max(1, step // 2)


def _rivals(evaluator: Evaluator, best: Evaluation, games: int) -> list[tuple[Evaluation, dict]]:
    """Every value played at this stage whose objective's paired interval against the best's
    reaches below zero: within the noise of the best, closest first."""
    out = []
    for evaluation in evaluator.cache.values():
        if evaluation is best or evaluation.games < games:
            continue
        change = compare(best, evaluation, evaluator.name)
        if change["ci_low"] <= 0.0:
            out.append((evaluation, change))
    return sorted(out, key=lambda pair: pair[1]["diff"])


def search(evaluator: Evaluator, space: Space, precision: float, max_games: int) -> dict:
    """Scan, then refine stage by stage (see the module docstring): {status, best, stages,
    scan, games}."""
    games = min(START_GAMES, max_games)
    scan_rows: list[dict] = []
    start, strides = _scan(evaluator, space, games, scan_rows)
    step = max(strides)
    candidates: list[tuple] = []
    stages = []
    while True:
        best = _refine(evaluator, space, start, step, games, candidates, box=not stages)
        rivals = _rivals(evaluator, best, games)
        stages.append(Stage(games, best, rivals))
        figure = best.figure(evaluator.name)
        if (figure["ci_high"] - figure["ci_low"]) / 2 <= precision:
            return {"status": "settled", "best": best, "stages": stages, "scan": scan_rows, "games": games}
        if games >= max_games:
            return {"status": "unsettled", "best": best, "stages": stages, "scan": scan_rows, "games": games}
        games = min(2 * games, max_games)
        start, step = space.coords(best.value), 1
        candidates = [space.coords(e.value) for e, _ in rivals[:MAX_RIVALS]]


def validate(evaluator: Evaluator | PanelEvaluator, space: Space, found: dict, extra: tuple = (),
             games: int = VALIDATION_GAMES) -> dict:
    """The best, its closest rivals (and the `extra` values: a panel's members' own bests) again
    on fresh seeds, at least `games` games each: {seed, games, best, evaluations, rows: [{value,
    label, objective, seats, against_best (paired), ...}]}; with a panel, each row also holds
    every member's objective."""
    final = found["stages"][-1]
    values = [final.best.value, *[e.value for e, _ in final.rivals[:MAX_RIVALS]], *extra]
    values = [json.loads(k) for k in dict.fromkeys(_key(v) for v in values)]
    values = [tuple(v) if isinstance(v, list) else v for v in values]
    games = max(found["games"], games)
    evaluations = evaluator.get(values, games)
    name = evaluator.name
    best = min(evaluations, key=lambda e: _rank_key(e, name, space))
    rows = []
    for evaluation in evaluations:
        change = None if evaluation is best else compare(best, evaluation, name)
        row = {"value": _plain(evaluation.value), "label": label(evaluation.value), "games": evaluation.games,
               "objective": evaluation.figure(name), "seats": [evaluation.share(s) for s in range(evaluation.players)],
               "search_best": evaluation.value == final.best.value, "against_best": change,
               "within_noise": change is None or change["ci_low"] <= 0.0}
        if isinstance(evaluation, PanelEvaluation):
            row["members"] = {lineup: m.figure(name) for lineup, m in zip(evaluator.members, evaluation.members)}
            row["worst_member"] = list(evaluator.members)[evaluation.worst()]
        rows.append(row)
    return {"seed": evaluator.seed, "games": games, "best": best, "evaluations": evaluations, "rows": rows}


# ---------------------------------------------------------------------------------------
# The result


@dataclass
class TuneResult:
    """What `simkit.search.tune` found: the value, validated on fresh seeds, and every evaluation played."""

    game: str
    param: str
    kind: str
    players: int
    variant: str
    lineup: str
    fixed: dict
    seed: int
    objective: str
    precision: float
    max_games: int
    step: int  # an int's values are default + k·step
    default: Any
    status: str  # settled or unsettled (see the module docstring)
    value: Any  # the answer: the best on the fresh seeds
    games: int  # games per evaluation at the search's last stage
    figure: dict  # the objective at `value` on the fresh seeds: value, ci_low, ci_high
    seat_advantage: dict  # seat 0's share of decided games − fair at `value` (fresh seeds)
    seats: list[dict]  # every seat's share of decided games at `value` (fresh seeds), with intervals
    validation: dict  # seed, games, rows: the candidates on the fresh seeds
    search_value: Any  # the search's own best (on the search's seeds)
    stages: list[dict]  # per stage: games, best, the values within its noise with their paired comparison
    scan: list[dict]  # the scan: every value of each scanned axis
    unpaired: list[dict]  # comparisons the shared seeds could not pair (the pairing bought nothing)
    at_bound: list[int]  # axes (seats, for a per-seat list) whose answer is an end of the allowed range
    interval: dict | None  # a number: the values within the noise of the answer at the last stage (low, high)
    evaluations: list[dict] = field(default_factory=list)
    folder: str = ""
    panel: list[dict] = field(default_factory=list)  # per panel member: the answer under it, its own best
    depends_on_bots: bool = False  # a member's own best beats the answer under it beyond the noise

    @property
    def exit_code(self) -> int:
        return EXIT_CODES[self.status]

    def to_dict(self) -> dict:
        return {"game": self.game, "param": self.param, "kind": self.kind, "players": self.players,
                "variant": self.variant, "lineup": self.lineup, "fixed": self.fixed, "seed": self.seed,
                "objective": self.objective, "objective_meaning": OBJECTIVES[self.objective],
                "precision": self.precision, "max_games": self.max_games, "step": self.step,
                "default": _plain(self.default), "status": self.status, "exit_code": self.exit_code,
                "value": _plain(self.value), "label": label(self.value), "games": self.games, "figure": self.figure,
                "seat_advantage": self.seat_advantage, "seats": self.seats, "validation": self.validation,
                "search_value": _plain(self.search_value), "stages": self.stages, "scan": self.scan,
                "unpaired": self.unpaired, "at_bound": self.at_bound, "interval": self.interval,
                "panel": self.panel, "depends_on_bots": self.depends_on_bots, "evaluations": self.evaluations}

    def answer(self) -> str:
        """One paragraph: the value, its objective and seats on fresh seeds, and how sure the search is."""
        where = f"{self.game} {self.players}p {self.variant}"
        seats = " / ".join("–" if s["vs_fair"] is None else f"{100 * s['vs_fair']:+.1f}" for s in self.seats)
        fig = self.figure
        text = (f"{where}: {self.param} = {label(self.value)} ({self.status}) — {OBJECTIVE_NAMES[self.objective]} "
                f"{_points(fig['value'])} points (95% CI {_points(fig['ci_low'])} to {_points(fig['ci_high'])}), "
                f"seats {seats} points from fair, on {self.validation['games']:,} fresh games"
                + (f", under the worst of the panel's {len(self.panel)} line-ups "
                   f"({self.validation['rows'][self._answer_row()]['worst_member']})." if self.panel else "."))
        if self.panel:
            text += " " + self._panel_text()
        rivals = [row for row in self.validation["rows"] if row["against_best"] is not None]
        close = [row["label"] for row in rivals if row["within_noise"]]
        if close:
            text += f" Within the noise of it on the fresh seeds: {', '.join(close)}."
        elif rivals:
            text += f" It beats {len(rivals)} other candidate{'s' * (len(rivals) != 1)} on the fresh seeds."
        if self.search_value != self.value:
            held = next((row["within_noise"] for row in rivals if row["search_best"]), False)
            text += (f" (The search's own best, {label(self.search_value)}, came second on the fresh seeds"
                     + (", within the noise of this one.)" if held else ", clearly behind this one.)"))
        if self.status == "unsettled":
            text += (f" NOT settled within {self.max_games:,} games per evaluation: the best's "
                     f"{OBJECTIVE_NAMES[self.objective]} is not yet known to ±{100 * self.precision:g} points.")
        if self.unpaired:
            text += (f" {len(self.unpaired)} comparison{'s' * (len(self.unpaired) != 1)} of the refinement could not "
                     "be paired on the shared seeds (their games were no more alike than two independent runs': a "
                     "value that deals another game from the same seed, or seats trading places at the ends of the "
                     "gap): their intervals are as wide as independent runs', and tune.md marks them.")
        if self.at_bound:
            which = ", ".join(f"seat {a}" for a in self.at_bound) if self.kind == "ints" else "the value"
            text += f" Moved to the end of its allowed range: {which} (a better value may lie past it)."
        if self.kind == "ints" and len(self.value) > self.players:
            unused = len(self.value) - self.players
            which = "The last value is for a seat that does" if unused == 1 else \
                f"The last {unused} values are for seats that do"
            text += f" {which} not play at {self.players} players (kept at the default)."
        if self.interval:
            text += f" Values within the noise of it: {self.interval['low']:g} to {self.interval['high']:g}."
        return text

    def _answer_row(self) -> int:
        return next(i for i, row in enumerate(self.validation["rows"]) if row["against_best"] is None)

    def _panel_text(self) -> str:
        """Under each panel member: the answer's objective, and whether the member's own best
        beats it beyond the noise."""
        what = OBJECTIVE_NAMES[self.objective]
        under = "; ".join(f"{row['lineup']} {_points(row['objective']['value'])} ({_points(row['objective']['ci_low'])}"
                          f" to {_points(row['objective']['ci_high'])})" for row in self.panel)
        text = f"Its {what} under each line-up on {self.panel[0]['games']:,} fresh games: {under}."
        checked = [row["lineup"] for row in self.panel if row["role"] == "check"]
        if checked:
            text += (f" ({', '.join(checked)}: too slow to search with, checked the answer instead by one-step moves "
                     "from it and the validation.)")
        depends = [row for row in self.panel if row["depends"]]
        if depends:
            text += " THE ANSWER DEPENDS ON THE BOTS: " + "; ".join(
                f"under {row['lineup']} its own best, {row['own_best_label']}, gives "
                f"{_points(row['own_best_objective']['value'])}, and the answer is "
                f"{100 * row['answer_against_own_best']['diff']:.1f} points worse (paired 95% CI "
                f"{100 * row['answer_against_own_best']['ci_low']:.1f} to "
                f"{100 * row['answer_against_own_best']['ci_high']:.1f})" for row in depends) + "."
        else:
            count = len(self.validation["rows"])
            text += (f" No line-up's own best among the {count} candidate{'s' * (count != 1)} beats the answer under "
                     "it beyond the noise (paired, 95%).")
        return text

    def markdown(self) -> str:
        """tune.md: the answer, the validation, the stages, the scan and every evaluation."""
        def points(v):
            return "–" if v is None or not math.isfinite(v) else f"{100 * v:+.1f}"

        def figure(block):
            return f"{_points(block['value'])} ({_points(block['ci_low'])} to {_points(block['ci_high'])})"

        lines = [f"# simkit tune: {self.game} {self.param}", "", self.answer(), "",
                 f"Searched {self.kind} parameter `{self.param}` (default {label(self.default)}) at {self.players} "
                 f"players, variant {self.variant}, "
                 + (f"panel of line-ups {self.lineup}" if self.panel else f"line-up {self.lineup}")
                 + (f", with {', '.join(f'{k}={label(v)}' for k, v in self.fixed.items())}" if self.fixed else "")
                 + (f"; values in steps of {self.step} from the default" if self.step != 1 else "")
                 + f"; objective: {OBJECTIVES[self.objective]}; root seed {self.seed}; target ±"
                 f"{100 * self.precision:g} points; at most {self.max_games:,} games per evaluation. Every evaluation "
                 "of a stage plays the same seeds (game i of each plays seed i), so values are compared game by game; "
                 f"the answer was then played again on fresh seeds (root seed {self.validation['seed']}).", "",
                 "## The answer on fresh seeds", "",
                 ("| value | games | objective (points, 95% CI) | seats against fair (points) | against the best "
                 "(paired, points) | pairing r | within the noise |"), "|---|---:|---:|---|---:|---:|---|"]
        for row in self.validation["rows"]:
            change = row["against_best"]
            lines.append(f"| {row['label']}{' (search)' if row['search_best'] else ''} | {row['games']:,} | "
                         f"{figure(row['objective'])} | "
                         + " / ".join(points(s["vs_fair"]) for s in row["seats"])
                         + " | " + ("best" if change is None else
                                    f"{points(change['diff'])} ({points(change['ci_low'])} to "
                                    f"{points(change['ci_high'])})")
                         + f" | {'–' if change is None else format(change['correlation'], '.2f')} | "
                         f"{'yes' if row['within_noise'] else 'no'} |")
        if self.panel:
            lines += ["", "## Under each line-up of the panel (fresh seeds)", "",
                      (f"The objective is the worst line-up's ({OBJECTIVES[self.objective]}, under each line-up, "
                      "the largest counts). A line-up's own best is the candidate it alone would choose; the answer "
                      "depends on the bots when that beats the answer under it beyond the noise (paired, 95%)."), "",
                      ("| line-up | role | games | objective at the answer | seats against fair (points) | its own best "
                      "| its objective | answer minus own best (paired) | depends |"), "|---|---|---:|---:|---|---|---:|---:|---|"]
            for row in self.panel:
                change = row["answer_against_own_best"]
                lines.append(f"| {row['lineup']} | {row['role']} | {row['games']:,} | {figure(row['objective'])} | "
                             + " / ".join(points(s["vs_fair"]) for s in row["seats"])
                             + f" | {row['own_best_label']} | {figure(row['own_best_objective'])} | "
                             + ("– (the answer)" if change is None else
                                f"{points(change['diff'])} ({points(change['ci_low'])} to {points(change['ci_high'])})")
                             + f" | {'yes' if row['depends'] else 'no'} |")
        lines += ["", "## Seats at the answer (fresh seeds)", "",
                  "| seat | share of decided games | 95% CI | against fair (points) |", "|---|---:|---:|---:|"]
        for seat in self.seats:
            lines.append(f"| {seat['seat']} | no decided game | – | – |" if seat["rate"] is None else
                         f"| {seat['seat']} | {100 * seat['rate']:.1f}% | {100 * seat['ci_low']:.1f}–"
                         f"{100 * seat['ci_high']:.1f}% | {points(seat['vs_fair'])} |")
        lines += ["", "## Refinement: the best at each stage and the values within its noise", "",
                  "| games | best | objective | within the noise (paired difference, points; pairing r) |",
                  "|---:|---|---:|---|"]
        for stage in self.stages:
            rivals = "; ".join(f"{r['label']} {points(r['diff'])} ({points(r['ci_low'])} to {points(r['ci_high'])}; "
                               f"r {r['correlation']:.2f}{'' if r['paired'] else ', unpaired'})"
                               for r in stage["rivals"]) or "none"
            lines.append(f"| {stage['games']:,} | {stage['label']} | {figure(stage['objective'])} | {rivals} |")
        lines += ["", "## Scan: each axis over its range, the others held", "",
                  "| pass | axis | value | games | objective (points, 95% CI) | seats against fair (points) |",
                  "|---:|---:|---|---:|---:|---|"]
        for row in self.scan:
            lines.append(f"| {row['pass']} | {row['axis']} | {row['label']} | {row['games']:,} | "
                         f"{figure(row['objective'])} | " + " / ".join(points(v) for v in row["seats"]) + " |")
        lines += ["", "## Every evaluation", "",
                  ("| # | value | games | objective (points, 95% CI) | seats' shares of decided games | mean rounds | "
                  "folder |"), "|---:|---|---:|---:|---|---:|---|"]
        for number, row in enumerate(self.evaluations, 1):
            shares = " / ".join("no decided game" if s["rate"] is None else f"{100 * s['rate']:.1f}%"
                                for s in row["seats"])
            lines.append(f"| {number} | {row['label']} | {row['games']:,} | {figure(row['objective'])} | {shares} | "
                         f"{row['rounds_mean']:.1f} | {row['folder']} |")
        return "\n".join(lines) + "\n"


OBJECTIVE_NAMES = {"gap": "largest seat gap", "chi2": "chi-square distance from fair",
                   "seat0": "seat 0's distance from fair"}


def _plain(value):
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, np.generic):
        return value.item()
    return value


def _json(value):
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return str(value)


def _folder(out, game: str, param: str, players: int) -> Path:
    folder = expand_user(str(out), "--out") if out is not None else Path("reports") / (
        f"tune-{game}-{param}-{players}p-{datetime.now().strftime('%Y%m%d-%H%M%S')}")
    state = kind_of(folder, "--out")  # a name too long is one error line
    if state in ("file", "broken") or (state == "dir" and any(folder.iterdir())):
        raise InputError(f"--out {folder} is not a new or empty folder; choose a new folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise InputError(f"cannot write to --out {folder}: {why(e)}; choose a writable folder") from None
    return folder


def _stage_row(stage: Stage, name: str) -> dict:
    return {"games": stage.games, "value": _plain(stage.best.value), "label": label(stage.best.value),
            "objective": stage.best.figure(name),
            "rivals": [{"value": _plain(e.value), "label": label(e.value), **change} for e, change in stage.rivals]}


def _interval(space: Space, stage: Stage) -> dict | None:
    """A number's values within the noise of the best at the last stage."""
    if space.kind == "ints":
        return None
    values = [stage.best.value, *[e.value for e, _ in stage.rivals]]
    return {"low": min(values), "high": max(values)}


def _panel(game, bots, strategies) -> list[str]:
    """The line-ups to even the seats under: `strategies` alone, else the `bots` panel, else the
    game's default panel."""
    from simkit.core.ladder import default_panel

    if bots is not None and strategies is not None:
        raise InputError("--bots and --strategies both name the line-ups to tune under; give the panel with --bots "
                         "(line-ups separated by ';') or one line-up with --strategies")
    if strategies is not None:
        return [strategies]
    if bots is None:
        return default_panel(game)
    items = bots.split(";") if isinstance(bots, str) else bots if isinstance(bots, list) else None
    members = [m.strip() for m in items if isinstance(m, str)] if items is not None else []
    if not members or not all(members) or (items is not None and len(members) != len(items)):
        raise InputError(f"--bots must name line-ups separated by ';', like 'tuned;expert;merchant,raider', got "
                         f"{bots!r}")
    twice = sorted({m for m in members if members.count(m) > 1})
    if twice:
        raise InputError(f"--bots names {twice[0]} twice; name each line-up once")
    return members


def _rollout(game, lineup: str) -> bool:
    """Whether a line-up seats a rollout tier (a preset of kind lookahead): ~100 times slower than
    a heuristic, it is played at validation, not in the search."""
    from simkit.core.bots import LOOKAHEAD
    from simkit.core.game import parse_strategy

    kinds = {p.name: p.kind for p in game.presets}
    names = [parse_strategy(n.strip())[0] for n in lineup.split(",")]
    return any(kinds.get(n) == LOOKAHEAD for n in names)


def _safe(lineup: str) -> str:
    """A line-up as part of a folder name."""
    return lineup.replace(",", "+").replace("@", "at").replace("/", "_")


def fresh_seed(seed: int) -> int:
    """The validation's root seed: a stream of its own, derived from the search's."""
    from simkit.core.rng import derive

    return int(derive(np.uint64(seed), np.uint64(VALIDATION_STREAM)))


def tune(game: str, param: str, *, players: int | None = None, variant: str = "standard",
         set: list[str] | dict | None = None, strategies: str | None = None,  # named like --set
         bots: str | list[str] | None = None, validate_games: int | None = None,
         objective: str | None = None, precision: float | str | None = None, max_games: int | None = None,
         step: int | None = None, seed: int = 1, jobs: int = 1, out: str | Path | None = None,
         progress: Callable[[str], None] | None = None) -> TuneResult:
    """Search `param` for the value that evens the seats best; see the module docstring.

    players: the player count (default: the game's largest); variant, set (fixed rule
    overrides, as `simkit sweep --set`), strategies (one line-up "a,b"): the cell searched.
    bots: the panel of line-ups the seats must be even under ("tuned;expert", or a list; default
    simkit.core.ladder.default_panel when `strategies` is not given): the objective is the worst
    member's, the rollout-tier members are played at validation only (see docs/tuning.md).
    validate_games: games per candidate (and panel member) on the fresh seeds, at least (default
    16,000 for one line-up, 40,000 for a panel).
    objective: gap (default), chi2 or seat0. precision: the half width asked of the objective at
    the best value (0.01 or "1pt"; default 1 point); max_games: games per evaluation at most. step: for an int or ints parameter, the
    values tried are the default + k·step. Writes tune.json, tune.md and the evaluations' sweep
    folders into `out` (default reports/tune-<game>-<param>-<players>p-<time>/).
    """
    the_game = registry.get(game)
    schema = the_game.rules
    if param not in schema.by_name:
        raise unknown(f"rule parameter for {game}", param, schema.by_name, "--param")
    declared = schema.by_name[param]
    if declared.kind not in TUNABLE:
        raise InputError(f"--param {param} is a {declared.kind} parameter of {game}; tune searches a number (int or "
                         f"float) or a per-seat list of whole numbers (ints)")
    name = DEFAULT_OBJECTIVE if objective is None else objective
    if name not in OBJECTIVES:
        raise unknown("objective", name, OBJECTIVES, "--objective")
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
    panel = _panel(the_game, bots, strategies)
    fresh_games = (VALIDATION_GAMES if len(panel) == 1 else PANEL_VALIDATION_GAMES) if validate_games is None \
        else validate_games
    if isinstance(fresh_games, bool) or not isinstance(fresh_games, int) or not 100 <= fresh_games <= specs.MAX_GAMES:
        raise InputError(f"--validate-games must be a whole number of games from 100 to {specs.MAX_GAMES:,}, "
                         f"got {validate_games!r}")
    fixed_ok = schema.validate(fixed, "--set")
    start = schema.resolve(variant, fixed_ok, "--set")[param]
    start = tuple(start) if declared.kind == "ints" else start
    for lineup in panel:  # every other input (players, variant, line-ups, seed) is checked here, before any game
        Evaluator(game, param, players, variant, fixed, lineup, seed, jobs, Path(".")).sweep([start], 1)
    folder = _folder(out, game, param, players)
    space = _space(declared, start, players, grain)
    searched = [m for m in panel if not _rollout(the_game, m)] or panel

    def evaluator_of(members: list, root: int, prefix: str):
        if len(panel) == 1:
            return Evaluator(game, param, players, variant, fixed, panel[0], root, jobs, folder, progress, name, prefix)
        return PanelEvaluator({m: Evaluator(game, param, players, variant, fixed, m, root, jobs, folder, progress,
                                            name, f"{prefix}{_safe(m)}-") for m in members})

    evaluator = evaluator_of(searched, seed, "")
    found = search(evaluator, space, target, limit)
    fresh = evaluator_of(panel, fresh_seed(seed), "fresh-")
    fresh.runs = evaluator.runs
    history_extra: list[Evaluation] = []  # a rollout tier's own refinement
    if len(panel) == 1:
        checked = validate(fresh, space, found, games=fresh_games)
        panel_table, depends = [], False
    else:  # every member's own best joins the candidates, and every member plays them
        answer = found["best"].value
        bests = member_bests(evaluator.members, space, answer, found["games"])
        checks = {m: Evaluator(game, param, players, variant, fixed, m, seed, jobs, folder, progress, name,
                               f"{_safe(m)}-") for m in panel if m not in searched}
        for check in checks.values():
            check.runs = evaluator.runs
        bests.update(member_bests(checks, space, answer, min(CHECK_GAMES, fresh_games), tuple(bests.values())))
        history_extra = [e for check in checks.values() for e in check.history]
        fresh.runs = evaluator.runs
        checked = validate(fresh, space, found, tuple(bests.values()), fresh_games)
        panel_table = panel_rows(fresh, checked["best"], checked["evaluations"], searched)
        depends = any(row["depends"] for row in panel_table)
    best = checked["best"]
    seat0 = best.share(0)
    cell = Evaluator(game, param, players, variant, fixed, panel[0], seed, jobs, folder).sweep([best.value], 1).cells[0]
    stages = [_stage_row(stage, name) for stage in found["stages"]]
    unpaired = [{"stage": stage["games"], "best": stage["label"], **rival} for stage in stages
                for rival in stage["rivals"] if not rival["paired"]]
    result = TuneResult(
        game=game, param=param, kind=declared.kind, players=players, variant=variant,
        lineup=",".join(cell.lineup) if len(panel) == 1 else "; ".join(panel),
        fixed=fixed_ok, seed=seed, objective=name, precision=target, max_games=limit, step=grain, default=start,
        status=found["status"], value=best.value, games=found["games"], figure=best.figure(name),
        seat_advantage={"value": seat0["vs_fair"], "ci_low": seat0["vs_fair_low"], "ci_high": seat0["vs_fair_high"]},
        seats=[best.share(seat) for seat in range(players)],
        validation={"seed": checked["seed"], "games": checked["games"], "rows": checked["rows"]},
        search_value=found["best"].value, stages=stages, scan=found["scan"], unpaired=unpaired,
        at_bound=space.at_bound(space.coords(best.value)), interval=_interval(space, found["stages"][-1]),
        evaluations=[e.to_dict(name) for e in [*evaluator.history, *history_extra, *fresh.history]],
        folder=str(folder),
        panel=panel_table, depends_on_bots=depends)
    try:  # each through a temporary file and a rename (simkit.core.files)
        write_text(folder / "tune.json", json.dumps(result.to_dict(), indent=1, default=_json))
        write_text(folder / "tune.md", result.markdown())
    except OSError as e:
        raise InputError(f"cannot write the tuning results in {folder}: {why(e)}; {fix_for(e)}, then tune "
                         "again") from None
    return result


class _CallableModule(types.ModuleType):
    """`simkit.search.tune(...)` is the library call and `simkit.search.tune` is also this module:
    importing a submodule binds its name on the package, so the module itself answers the call."""

    def __call__(self, game: str, param: str, **options) -> TuneResult:
        return tune(game, param, **options)


sys.modules[__name__].__class__ = _CallableModule
__all__ = ["Evaluation", "Evaluator", "Space", "TuneResult", "compare", "search", "tune", "validate"]
