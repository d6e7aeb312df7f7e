"""The gate that decides: `simkit check DIR --until-decided [--budget N]` (docs/ci.md).

A finished sweep is judged as `simkit check` judges it (simkit.sweeps.check.judge). Every figure
whose interval straddles its limit is left open, and its cell plays more games — fresh
ones, on a root seed derived from the sweep's and the look's number — until each figure is
decided or the cell has played the budget of games. At each look a cell's games at least
double (the sweep's games, then twice as many, ... up to the budget), so a cell gets at most
K = 1 + ⌈log2(budget / its first games)⌉ looks. A figure is decided once: ok or breach,
it is not judged again.

Intervals valid however many looks it takes (alpha spending by Bonferroni): the gate's
2.5% chance of a false breach is spread over every figure (as `simkit check` does) and
over the K looks of the cell that can take most: each interval at each look has a one-sided
tail of 2.5% / (figures × K). A breach is called only when an interval lies wholly past its
limit; by the union bound the chance that any interval at any look misses its figure is at
most 2.5%, whatever the data decided about which cells play on. The table in docs/statistics.md (from
benchmarks/ci/false_breach.py) measures the false-breach rate, the inconclusive rate and the
games it took.

Exit codes are the gate's: 0 every figure ok, 1 a breach, 3 inconclusive — which here means
the budget was spent with a figure still straddling its limit (--strict turns that into 1), or a
figure has no decided game (every game of its cell hit the round cap): no number of games of those
rules decides it, so no look is played for it and the gate stops at once, as plain `simkit check` says.
The looks are ordinary sweep folders in DIR/sequential/look-<k>/ (a rerun reuses them).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from pathlib import Path

from simkit.core.errors import InputError
from simkit.core.files import read_json
from simkit.sweeps import check as gate_module
from simkit.sweeps.check import FAMILY_TAIL, Limits, Outcome, Verdict, figures_checked, judge, validate

LOOK_STREAM = 2 ** 62  # look k plays on root seed derive(the sweep's root, LOOK_STREAM + k): games of its own
LOOKS = "sequential"  # the looks' folder inside the sweep folder

# a player of more games: (look number, [(summary cell, games to add)]) -> {cell: (summary cell of
# the new games, rounds (mean, sd, games) or None)}
Player = Callable[[int, list[tuple[dict, int]]], dict[str, tuple[dict, tuple | None]]]


def schedule(first: int, budget: int) -> list[int]:
    """Games per cell at each look: the sweep's, then doubling, the last one the budget."""
    looks = [first]
    while looks[-1] < budget:
        looks.append(min(2 * looks[-1], budget))
    return looks


def looks_allowed(cells: list[dict], budget: int) -> int:
    """K: the most looks any cell can take."""
    return max(len(schedule(cell["games"], budget)) for cell in cells)


def merge(a: dict, b: dict) -> dict:
    """Two summary cells of one cell's games (the figures the gate reads), as one: every count adds."""
    games = a["games"] + b["games"]
    ties = round(a["tie_share"] * a["games"]) + round(b["tie_share"] * b["games"])

    def rows(left: list[dict], right: list[dict], key: str) -> list[dict]:
        by_name = {row[key]: dict(row) for row in left}
        for row in right:
            mine = by_name.setdefault(row[key], {key: row[key], "seats": 0, "decided_seats": 0, "wins": 0.0})
            for field in ("seats", "decided_seats", "wins"):
                mine[field] = mine.get(field, 0) + row.get(field, row["seats"] if field == "decided_seats" else 0)
        return list(by_name.values())

    return {**a, "games": games, "complete_games": a["complete_games"] + b["complete_games"],
            "tie_share": ties / games if games else 0.0,
            "seats": [{"seat": s["seat"], "wins": s["wins"] + t["wins"]} for s, t in zip(a["seats"], b["seats"])],
            "strategies": rows(a.get("strategies", []), b.get("strategies", []), "strategy"),
            "categories": {column: rows(a.get("categories", {}).get(column, []),
                                        b.get("categories", {}).get(column, []), "value")
                           for column in {*a.get("categories", {}), *b.get("categories", {})}}}


def merge_rounds(a: tuple | None, b: tuple | None) -> tuple | None:
    """(mean, sd, games) of two batches of one cell's games, as one."""
    if a is None or b is None:
        return a or b
    (m1, s1, n1), (m2, s2, n2) = a, b
    n = n1 + n2
    mean = (m1 * n1 + m2 * n2) / n
    squares = (n1 - 1) * s1 * s1 + n1 * m1 * m1 + (n2 - 1) * s2 * s2 + n2 * m2 * m2
    return mean, math.sqrt(max(squares - n * mean * mean, 0.0) / (n - 1)) if n > 1 else 0.0, n


def decide(cells: list[dict], limits: Limits, play: Player, rounds: dict | None = None) -> Outcome:
    """Judge the cells, then play more games for the figures that straddle a limit, look after
    look, until each is decided or its cell has played `limits.budget` games (module docstring)."""
    validate(cells, limits, rounds)
    tail = FAMILY_TAIL / (figures_checked(cells, limits) * looks_allowed(cells, limits.budget))
    state = {cell["cell"]: cell for cell in cells}
    # a cell takes at most the looks of its schedule, the K the tail was split over: a player that
    # rounds a look's games down (whole seating periods) would otherwise need one more look to reach
    # the budget, so a cell's last look asks for every game the budget has left
    looks_left = {cell["cell"]: len(schedule(cell["games"], limits.budget)) - 1 for cell in cells}
    lengths = {cell["cell"]: (rounds or {}).get(cell["cell"]) for cell in cells}
    open_keys: dict[str, set[str] | None] = {cell["cell"]: None for cell in cells}  # None: not judged yet
    final: dict[tuple[str, str], Verdict] = {}
    order: dict[str, list[str]] = {}
    look = 0
    while True:
        for name, keys in open_keys.items():
            if keys is not None and not keys:
                continue
            verdicts = judge(state[name], limits, tail, lengths[name], keys)
            if keys is None:
                order[name] = [v.key for v in verdicts]
            # a figure with no decided game (all capped) is not played for: no number of games decides it
            open_keys[name] = {v.key for v in verdicts if v.outcome == "inconclusive" and not v.undecidable}
            final.update({(name, v.key): v for v in verdicts})
        more = [(state[name], (limits.budget if looks_left[name] == 1 else min(2 * state[name]["games"], limits.budget))
                 - state[name]["games"]) for name, keys in open_keys.items()
                if keys and state[name]["games"] < limits.budget and looks_left[name] > 0]
        if not more:
            break
        look += 1
        for cell, _ in more:
            looks_left[cell["cell"]] -= 1
        played_now = play(look, more)
        if not any(played["games"] for played, _ in played_now.values()):
            break  # nothing was played (a player that cannot add games): judge what there is
        for name, (played, played_rounds) in played_now.items():
            state[name] = merge(state[name], played)
            lengths[name] = merge_rounds(lengths[name], played_rounds)
    verdicts = []
    for cell in cells:
        for key in order[cell["cell"]]:
            verdict = final[(cell["cell"], key)]
            if verdict.outcome == "inconclusive" and not verdict.undecidable:
                verdict = dataclasses.replace(verdict, budget_spent=True)
            verdicts.append(verdict)
    return Outcome(verdicts, limits, len(cells), looks=look + 1, games={n: c["games"] for n, c in state.items()})


# ---------------------------------------------------------------------------------------
# More games for a sweep folder


def sweep_player(folder: Path, jobs: int = 1) -> Player:
    """Plays a look's games as a sweep of the cells asked for, into folder/sequential/look-<k>/,
    on the root seed derived from the sweep's and k; a look already played there is reused."""
    from simkit.core.rng import derive
    from simkit.core.seating import period
    from simkit.sweeps import spec as specs

    folder = Path(folder)
    manifest_path = folder / "manifest.json"
    if not manifest_path.exists():
        raise InputError(f"{folder} has no manifest.json: --until-decided needs the sweep that made it, to play "
                         "more of its games; run the sweep again into a new folder")
    sweep = specs.sweep_of_manifest(folder)
    by_id = {cell.id: cell for cell in sweep.cells}

    def play(look: int, requests: list[tuple[dict, int]]) -> dict[str, tuple[dict, tuple | None]]:
        import numpy as np

        cells = []
        for cell, extra in requests:
            planned = by_id.get(cell["cell"])
            if planned is None:
                from simkit.sweeps.results import rerun_hint

                raise InputError(f"{manifest_path} is damaged (it lists no cell {cell['cell']}, which "
                                 f"{folder / 'summary.json'} reports); {rerun_hint(folder)}")
            design = period(planned.lineup, planned.players)  # whole periods keep a mixed line-up balanced
            cells.append(dataclasses.replace(planned, games=max(design, extra // design * design)))
        root = int(derive(np.uint64(sweep.seed), np.uint64(LOOK_STREAM + look)))
        look_sweep = dataclasses.replace(sweep, name=f"{sweep.name}-look{look}", seed=root, cells=cells,
                                         precision=None, arcs=False, check={}, source=f"{folder} look {look}")
        out = folder / LOOKS / f"look-{look}"
        play_look(look_sweep, out, f"another check's games; remove {folder / LOOKS} and check again", jobs=jobs,
                  quiet=True)
        summary = read_json(out / "summary.json", f"remove {out} and check again")
        lengths = gate_module.rounds_stats(out)
        return {cell["cell"]: (cell, lengths.get(cell["cell"])) for cell in summary["cells"]}

    return play


def play_look(look_sweep, out: Path, other: str, **options) -> None:
    """One look's sweep into `out` (this gate's looks, the robustness phase's): a look already
    played there is reused, and refused (`other`: what it holds and the fix) when it played other
    games; one killed while writing its summary is finished from its tables; one killed before
    its plan is played afresh; any other is resumed."""
    from simkit.sweeps import results, runner
    from simkit.sweeps import spec as specs

    if out.exists() and results.is_complete(out):
        done = specs.sweep_of_manifest(out)
        if done.to_dict() | {"source": ""} != look_sweep.to_dict() | {"source": ""}:
            raise InputError(f"{out} holds {other}")
        if not (out / "summary.json").exists():
            runner.run(look_sweep, out, report=False, resume=True, **options)
        return
    if out.exists() and not (out / results.PLAN).exists():
        _forget_unplanned(out)
    runner.run(look_sweep, out, report=False, resume=out.exists(), **options)


def _forget_unplanned(out: Path) -> None:
    """A look folder without its plan (a check killed before the look's first chunk was planned)
    holds no game: it is removed, and the look played afresh (docs/faults.md). One that a
    running check holds is refused instead."""
    import shutil

    from simkit.sweeps import results

    if any((out / name).exists() for name in (results.PARTS, *results.FINAL_FILES)):
        raise InputError(f"{out} holds games but no {results.PLAN}; remove {out.parent} and check again")
    results.Claim(out, "simkit check again").release()  # refused while another check plays this look
    shutil.rmtree(out)


def check(folder: Path, table: dict, jobs: int = 1) -> Outcome:
    """`simkit check`: the gate over a sweep folder; with until_decided (the flag or the spec's
    [check] table), sequential, playing more games into the folder's sequential/ looks."""
    settings, summary, rounds = gate_module.load(folder, table)
    where = str(Path(folder) / "summary.json")
    if settings.robust:  # bad input before any game is played
        gate_module.robust_only(gate_module.Outcome([], settings, 0), summary, where)
    if not settings.until_decided:
        return gate_module.robust_only(gate_module.gate_folder(folder, summary, settings, rounds), summary, where)
    return gate_module.robust_only(decide(summary.get("cells", []), settings, sweep_player(Path(folder), jobs), rounds),
                                   summary, where)


# ---------------------------------------------------------------------------------------
# The sequential gate's own statistics, measured


def simulated(players: int, games: int, table: dict, runs: int = 2000, seed: int = 1, seat_rates=None,
              budget: int | None = None) -> dict:
    """`runs` simulated one-cell sweeps of `games` decided games (winner drawn with `seat_rates`,
    fair by default), each checked with --until-decided against `table`, the looks' games drawn
    the same way: the shares that end ok, breached and inconclusive, and the games per cell
    they took (mean, 90th percentile)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    rates = np.full(players, 1.0 / players) if seat_rates is None else np.asarray(seat_rates, float)
    settings = gate_module.limits({**table, "min_games": 1, "until_decided": True,
                                   **({"budget": budget} if budget is not None else {})})

    def play(look: int, requests: list[tuple[dict, int]]) -> dict[str, tuple[dict, None]]:
        return {cell["cell"]: (gate_module.simulated_summary(players, extra, rates, rng), None)
                for cell, extra in requests}

    codes, spent = [], []
    for _ in range(runs):
        outcome = decide([gate_module.simulated_summary(players, games, rates, rng)], settings, play)
        codes.append(outcome.code)
        spent.append(max(outcome.games.values()))
    codes, spent = np.array(codes), np.array(spent)
    return {"ok": float(np.mean(codes == gate_module.OK)), "breach": float(np.mean(codes == gate_module.BREACH)),
            "inconclusive": float(np.mean(codes == gate_module.INCONCLUSIVE)), "mean_games": float(spent.mean()),
            "p90_games": float(np.quantile(spent, 0.9)), "runs": runs, "budget": settings.budget}
