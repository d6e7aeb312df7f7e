"""The robustness phase (docs/architecture.md, "A sweep's lifecycle"): after a sweep,
every headline finding is measured again at
a skilled tier and under every shipped alternative component set, on the same seeds, and
labelled holds / weaker / vanishes / reverses (simkit.analysis.robustness says exactly how).

It sits above the runner. From a finished sweep folder's summary.json it picks the findings:

- the findings the report's headline shows, and at least the TOP largest of the ranked list;
- the figures `simkit check` gates on: every cell's first-player advantage (seat 0 against fair)
  whose interval is clear of zero, and, for the limits the spec's `[check]` table names, the
  cell's seat furthest from fair (max_seat_gap), its largest dealt-value or strategy edge
  (max_edge) and its capped share (max_incomplete).

Each finding's cell is played again with the same cell definition but

- (skill) the line-up replaced by the skilled tier: the spec's `skilled` preset, else `tuned`
  when the game has it, else its default preset; plus `lookahead` when the game has it (spec
  `lookahead = false` drops it), on a subsample sized to tell the figure's sign at 95%. A
  strategy finding is about its line-up, so it is not re-measured at another tier;
- (components) `components=<set>` for every shipped alternative set of the game.

The re-measurement cells are an ordinary sweep, `DIR/robustness/`, played by `runner.run`
on the sweep's own root seed, so game i of a re-measurement plays the seed game i of the
original played (the two pair), and jobs, Dask and `--resume` work as for any sweep. What was
picked, and how the games were sampled to fit the budget, is `DIR/robustness.json`, written
before the first game. The budget: the phase plays at most `budget` (default 0.5) times the
main phase's measured play (the seconds its workers spent, manifest.json's `cell_timing`),
predicted per re-measurement cell from the seconds per game the main phase's workers spent on
its original cell: a component set plays at that speed (the same bots), and a skilled tier at
that speed times the ratio of the two cells' speeds as a probe of the runner's measures them
here (the lookahead's included) before anything is played. Only LOAD_MARGIN of the budget
is planned: on a shared machine the load can rise between the phases (measured: a load of 8
during the default sweep's main phase, 13 during its robustness phase, which played 1.6 times
slower than predicted). A tier whose engine entry is not in numba's cache (the lookahead's, when
no run has played it yet: `runner.engine_prepared`) must be compiled before it is probed, which
takes longer than any play the default sweep's budget buys: entries are compiled only while
COMPILE_SECONDS each (the least a compile took) fits the planned budget, the entries of the most
important findings first; the cells of the others are not played, and robustness.json says why.
(`make demo` on a fresh clone spent 35 s compiling the five lookahead entries for a budget of
5 s, of which they got 0.3 s.)

Then the sweep folder's summary.json gains `robustness` (simkit.analysis.summary reads the
two files) and the report is written again with the labels.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import time
from pathlib import Path

from simkit import games as registry
from simkit import results, runner
from simkit.analysis import robustness as labelling
from simkit.bots import LOOKAHEAD, TUNED
from simkit.errors import InputError
from simkit.files import read_json, write_text
from simkit.spec import Cell, Sweep, sweep_of_manifest

FOLDER, SELECTION = labelling.FOLDER, labelling.SELECTION  # DIR/robustness/ and DIR/robustness.json
TOP = 5  # at least this many of the ranked findings are picked
KINDS = ("seat", "category", "strategy", "capped", "comparison")  # findings with a one-cell figure
GATE_KEYS = {"max_seat_gap": "seat", "max_edge": "group", "max_incomplete": "capped"}


def _finding_record(finding, cell: dict, summary: dict, baselines: dict) -> dict | None:
    """A headline Finding as the selection records it, with its figure from the summary."""
    key = list(finding.key)
    record = {"cell": finding.cell, "game": cell["game"], "players": cell["players"], "kind": finding.kind,
              "key": key, "baseline": baselines.get(cell["game"]) if finding.kind == "strategy" else None}
    if finding.kind == "comparison":
        row = next((r for r in summary.get("comparisons", []) if r["cell"] == finding.cell
                    and r["baseline"] == key[1] and r["metric"] == key[2]), None)
        if row is None:
            return None
        measured = (row["diff"], row["ci_low"], row["ci_high"])
        record["against"] = key[1]
    else:
        measured = labelling.figure(record, cell)
    if measured is None or measured[1] <= 0 <= measured[2]:
        return None
    record.update(figure=measured[0], interval=[measured[1], measured[2]], games=cell["games"])
    record["games_needed"] = _games_needed(record, cell)
    return record


def _games_needed(record: dict, cell: dict) -> int:
    """The games that tell the record's sign at 95% (simkit.analysis.robustness.sign_games)."""
    games = cell["games"] or 1
    effect = record["figure"]
    if record["kind"] == "seat":
        decided = round(sum(s["wins"] for s in cell["seats"]))
        rate = (cell["seats"][record["key"][1]]["wins"] / decided) if decided else 0.0
        return labelling.sign_games(rate, effect, decided / games)
    if record["kind"] in ("category", "strategy"):
        rows = cell.get("strategies", []) if record["kind"] == "strategy" else \
            cell.get("categories", {}).get(record["key"][0], [])
        row = next((r for r in rows if str(r.get("strategy", r.get("value"))) == record["key"][1]), None)
        if row is None or not row.get("decided_seats"):
            return games
        return labelling.sign_games(row["wins"] / row["decided_seats"], effect, row["decided_seats"] / games)
    if record["kind"] == "capped":
        return labelling.sign_games(effect, effect)
    return games  # a paired comparison: its pairing sets its precision; the original games


def select(summary: dict, check_table: dict | None = None) -> list[dict]:
    """The findings to re-measure (module docstring), each once, in rank order, with an `id`,
    `headline` (the headline shows it), `rank` (its place in the ranked list, or None) and
    `gates` (the `simkit check` limits whose figure it is)."""
    from simkit.report.findings import headline, rank
    from simkit.report.sections import HEADLINE_ITEMS, HEADLINE_PER_GAME, cell_labels
    from simkit.report.tournament import dominant as dominant_findings

    cells = summary["cells"]
    by_name = {cell["cell"]: cell for cell in cells}
    labels = cell_labels(cells)
    top = headline(summary, labels)
    baselines = {game: entry.get("baseline_strategy") for game, entry in (summary.get("games") or {}).items()}
    ranked = [f for f in rank(top.findings) if f.kind in KINDS]
    limit = HEADLINE_ITEMS if len(top.games) <= 1 else HEADLINE_PER_GAME
    dominant = dominant_findings(cells)  # (cell, kind, key, matrix) per dominant strategy or dealt value
    unfinished = top.unfinished_sentences(labels)
    shown = set()
    for game, found in top.by_game().items():
        room = limit - len(unfinished.get(game, [])) - sum(cell["game"] == game for cell, *_ in dominant)
        shown.update(id(f) for f in found[:max(room, 0)])
    records: dict[str, dict] = {}

    def add(finding, gate: str | None = None) -> None:
        cell = by_name.get(finding.cell)
        if cell is None or cell["incomplete_share"] > 0.5:
            return
        record = _finding_record(finding, cell, summary, baselines)
        if record is None:
            return
        record_id = labelling.finding_id(record["cell"], record["kind"], record["key"])
        entry = records.setdefault(record_id, {"id": record_id, **record, "headline": False, "rank": None,
                                               "gates": []})
        entry["headline"] = entry["headline"] or id(finding) in shown
        if finding in ranked and entry["rank"] is None:
            entry["rank"] = ranked.index(finding) + 1
        if gate and gate not in entry["gates"]:
            entry["gates"].append(gate)

    from simkit.report.findings import Finding

    for number, finding in enumerate(ranked):
        if id(finding) in shown or number < TOP:
            add(finding)
    # a dominant strategy or dealt value the headline shows: its win-rate finding in that cell
    per_game: dict[str, int] = {}
    for cell, kind, key, _ in dominant:
        per_game[cell["game"]] = per_game.get(cell["game"], 0) + 1
        if per_game[cell["game"]] > limit - len(unfinished.get(cell["game"], [])):
            continue  # past the headline's room: listed under More findings
        mine = next((f for f in ranked if f.cell == cell["cell"] and f.kind == kind and tuple(f.key) == key), None)
        finding = mine or Finding(0.0, 1.0, "", kind, cell["cell"], key, game=cell["game"])
        shown.add(id(finding))
        add(finding)

    checked = set(check_table or {})
    for cell in cells:
        if not cell["games"] or cell["incomplete_share"] > 0.5:
            continue
        seat0 = Finding(0.0, 1.0, "", "seat", cell["cell"], ("seat", 0), game=cell["game"])
        add(next((f for f in ranked if f.cell == cell["cell"] and f.key == ("seat", 0)), seat0),
            "max_first_player_advantage")
        for gate, kind in GATE_KEYS.items():
            if gate not in checked:
                continue
            mine = [f for f in ranked if f.cell == cell["cell"]
                    and (f.kind == kind or kind == "group" and f.kind in ("category", "strategy"))]
            if mine:
                add(mine[0], gate)
    return sorted(records.values(), key=lambda r: (r["rank"] is None, r["rank"] or 0, r["id"]))


def _shipped_sets(game) -> tuple[str, ...]:
    param = next((p for p in game.rules.params if p.kind == "components"), None)
    return tuple(param.allowed[1:]) if param is not None else ()


def remeasurements(cell: Cell, kind: str, settings: dict) -> list[tuple[str, Cell]]:
    """(by, cell) of every re-measurement of a finding of `kind` in `cell` (module docstring)."""
    game = registry.get(cell.game)
    presets = game.preset_names()
    out = []
    if settings["check"] in ("skill", "all") and kind != "strategy":
        skilled = settings.get("skilled") or (TUNED if TUNED in presets else game.default_strategy)
        tiers = [skilled] + ([LOOKAHEAD] if settings.get("lookahead", True) and LOOKAHEAD in presets
                             and skilled != LOOKAHEAD else [])
        for tier in tiers:
            if cell.lineup != (tier,):
                out.append((tier, dataclasses.replace(cell, id=f"{cell.id}~{tier}", lineup=(tier,),
                                                      bots={k: v for k, v in cell.bots.items() if k == tier})))
    if settings["check"] in ("components", "all"):
        current = str(cell.overrides.get("components", "standard"))
        for name in _shipped_sets(game):
            if name != current:
                by = f"components={name}"
                out.append((by, dataclasses.replace(cell, id=f"{cell.id}~{by}",
                                                    overrides={**cell.overrides, "components": name})))
    return out


def main_seconds(manifest: dict) -> float:
    """The main phase's play, in seconds of one core: its workers' seconds per cell, or the
    play time times the workers when the manifest lacks them."""
    timing = manifest.get("cell_timing") or {}
    if timing:
        return float(sum(t["seconds"] for t in timing.values()))
    return float(manifest.get("play_seconds") or 0.0) * float(manifest.get("jobs") or 1)


PROBE_SECONDS = 0.05  # the runner's probe time per cell (runner.MEASURE_SECONDS)
LOAD_MARGIN = 2 / 3  # share of the budget planned: the rest is held back for the load to rise between the phases
# the least a cold compile of an engine entry takes (the lookahead's, after the main phase compiled the
# rest): Set Sail's, the smallest, took 8.5 s in `make demo` on a fresh clone of this 2-core machine
COMPILE_SECONDS = 8.0


def _probe(cell: Cell) -> float:
    """The cell's games/s on one core here, timed as the runner sizes its chunks (runner.play on
    seeds of its own), from 2 games up: a lookahead cell of 2 games/s costs a second, not eight."""
    import numpy as np

    from simkit.rng import game_seeds

    game = registry.get(cell.game)
    rules, _ = runner.compiled(cell)
    n = 2
    while True:
        strategies = runner.seat_strategies(game, cell.lineup, cell.players, 0, n, cell.bots)
        began = time.perf_counter()
        runner.play(game, rules, strategies, game_seeds(np.uint64(0), 0, n), lineup=cell.lineup, bots=cell.bots)
        elapsed = time.perf_counter() - began
        if elapsed >= PROBE_SECONDS or n >= 4096:
            return n / max(elapsed, 1e-9)
        n *= 4


def plan(folder: Path, sweep: Sweep, summary: dict, manifest: dict, show: bool = False, *, jobs: int = 1,
         backend: str = "loky", quiet: bool = False) -> tuple[dict, Sweep]:
    """(the selection written to robustness.json, the re-measurement sweep) for a finished sweep.
    The engines its skilled tiers play through (the lookahead's, which the main phase may not have
    needed) are prepared first as the main phase's are: on `jobs` cores side by side, each announced
    as it is ready, with a line every few seconds while they compile (runner._prepare_engines)."""
    settings = sweep.robustness
    skilled = settings.get("skilled")
    by_id = {cell.id: cell for cell in sweep.cells}
    findings = select(summary, sweep.check)
    # id -> (cell, slow, games needed, rank, group: 0 the TOP largest, 1 the headline's others, 2 the gate's)
    wanted: dict[str, tuple[Cell, bool, int, int, int]] = {}
    serves: dict[str, dict[str, int]] = {}  # re-measurement cell -> {headline finding id: rank}
    skipped = []
    for finding in findings:
        base = by_id.get(finding["cell"])
        if base is None:
            continue
        pairs = remeasurements(base, finding["kind"], settings)
        if finding["kind"] == "comparison":  # the baseline cell is measured again alike, to pair with it
            other = by_id.get(finding["against"])
            theirs = {by: c for by, c in remeasurements(other, finding["kind"], settings)} if other else {}
            pairs = [(by, c) for by, c in pairs if by in theirs] + [(by, theirs[by]) for by, _ in pairs if by in theirs]
        finding["by"] = list(dict.fromkeys(by for by, c in pairs if c.id.startswith(f"{finding['cell']}~")))
        for by, again in pairs:
            if skilled and by == skilled and skilled not in registry.get(again.game).preset_names():
                raise InputError(f"robustness: skilled preset '{skilled}' is not a preset of {again.game}; "
                                 f"presets: {', '.join(registry.get(again.game).preset_names())}")
            slow = by == LOOKAHEAD
            need = finding["games_needed"] if slow or finding["kind"] != "comparison" else base.games
            priority = finding["rank"] or 1_000_000
            group = 0 if finding["rank"] and finding["rank"] <= TOP else 1 if finding["headline"] else 2
            if finding["headline"]:
                serves.setdefault(again.id, {})[finding["id"]] = priority
            previous = wanted.get(again.id)
            if previous is None or group < previous[4]:  # sized for its most important finding
                wanted[again.id] = (again, slow, need, priority, group)
            elif group == previous[4]:
                wanted[again.id] = (again, slow, max(previous[2], need), min(previous[3], priority), group)
    cells = []
    requests = []
    order = {cell.id: number for number, cell in enumerate(sweep.cells)}
    # in the sweep's cell order, so the re-measured comparisons pick the baselines the sweep's picked
    timing = manifest.get("cell_timing") or {}
    probed: dict[str, float] = {}

    def same_bots(again: Cell) -> bool:
        """A component set is played by the original's line-up: its speed is the original's in the main
        phase (the margin covers a set that lengthens games); a tier is probed, as its bots set its speed."""
        original, by = again.id.split("~", 1)
        spent = timing.get(original) or {}
        return bool(by.startswith("components=") and spent.get("games") and spent.get("seconds"))

    budget_seconds = settings["budget"] * main_seconds(manifest)
    planned = LOAD_MARGIN * budget_seconds
    # an engine entry not in numba's cache costs a compile before its first game: as many entries are
    # compiled as COMPILE_SECONDS each fits the play planned, the most important finding's first
    cold: dict[str, list[str]] = {}
    for again, *_ in sorted(wanted.values(), key=lambda w: (w[4], w[3])):
        if not same_bots(again) and not runner.engine_prepared(again):
            cold.setdefault(runner.entry_name(again), []).append(again.id)
    for name, ids in list(cold.items())[int(planned // COMPILE_SECONDS):]:
        for cell_id in ids:
            del wanted[cell_id]
            skipped.append({"cell": cell_id, "reason": (
                f"the budget: its engine ({name}) is not compiled here, and a compile takes longer (at least "
                f"{COMPILE_SECONDS:.0f} s) than the {planned:.1f} s of play planned; a larger [robustness] budget, "
                f"or any run that plays it, compiles it")})
    # compiled (or loaded) before any is timed; the originals the probes compare with too
    probes = [again for again, *_ in wanted.values() if not same_bots(again)]
    originals = {again.id.split("~", 1)[0] for again in probes} & by_id.keys()
    runner._prepare_engines(probes + [by_id[cell] for cell in sorted(originals)], jobs, backend, show, folder, quiet)
    for again, slow, need, priority, group in sorted(wanted.values(),
                                                     key=lambda w: order.get(w[0].id.split("~")[0], 0)):
        original, by = again.id.split("~", 1)
        spent = timing.get(original) or {}
        try:
            if same_bots(again):
                runner.compiled(again)  # the set must hold these rules (else: said, not played)
                rate = spent["games"] / spent["seconds"]
            else:
                rate = _probe(again)
        except InputError as e:  # a set that cannot play this cell's rules: said, not played
            skipped.append({"cell": again.id, "reason": str(e)})
            continue
        if not same_bots(again) and spent.get("games") and spent.get("seconds"):
            # the main phase's workers played the original at their own speed, under this machine's load: the
            # re-measurement plays at that speed times the probes' ratio (the probe runs here, alone, faster)
            if original not in probed:
                probed[original] = _probe(by_id[original])
            rate = spent["games"] / spent["seconds"] * rate / probed[original]
        cells.append(again)
        requests.append({"games": again.games, "needed": min(need, again.games), "rate": rate, "slow": slow,
                         "priority": priority, "group": group, "serves": serves.get(again.id, {}),
                         "dimension": "components" if by.startswith("components=") else "skill"})
    games, how = labelling.allocate(requests, planned)
    predicted = sum(n / r["rate"] for n, r in zip(games, requests))
    for cell, n, r in zip(cells, games, requests):
        if not n:
            skipped.append({"cell": cell.id, "reason": f"the budget: at {r['rate']:.1f} games/s its "
                                                       f"{r['needed']:,} games would take {r['needed'] / r['rate']:.0f} s"})
    kept = [(dataclasses.replace(c, games=n), r) for c, n, r in zip(cells, games, requests) if n]
    cells, requests = [c for c, _ in kept], [r for _, r in kept]
    if show:
        print(f"robustness: {len(findings)} findings, {len(cells)} re-measurement cells, predicted "
              f"{predicted:.0f} s of play against a budget of {budget_seconds:.0f} s", flush=True)
    again_sweep = Sweep(f"{sweep.name}-robustness", sweep.seed, cells, None, f"{folder} robustness phase")
    selection = {"settings": settings, "findings": findings, "skipped": skipped,
                 "sampling": {"budget_share": settings["budget"], "main_seconds": round(main_seconds(manifest), 3),
                              "budget_seconds": round(budget_seconds, 3), "predicted_seconds": round(predicted, 3),
                              "how": how,
                              "cells": {c.id: {"games": c.games, "games_per_second": round(r["rate"], 1)}
                                        for c, r in zip(cells, requests)}},
                 "sweep": again_sweep.to_dict()}
    return selection, again_sweep


def run(folder: Path, *, jobs: int | None = None, backend: str = "loky", address: str | None = None,
        quiet: bool = False, force_jobs: bool = False, report: bool = True) -> Path | None:
    """The robustness phase of the finished sweep in `folder` (its spec's `robustness` settings),
    or its resume when DIR/robustness is unfinished; then summary.json and the report are written
    again with the labels. Returns DIR/robustness, or None when the settings are off."""
    folder = Path(folder)
    manifest = read_json(folder / "manifest.json", "run the sweep again into a new folder")
    sweep = sweep_of_manifest(folder, manifest)
    if not sweep.robustness:
        return None
    show = not quiet and sys.stdout.isatty()
    out = folder / FOLDER
    selection_path = folder / SELECTION
    began = time.perf_counter()
    if selection_path.exists() and out.exists():
        selection = read_json(selection_path, f"remove {out} and {selection_path} and run simkit report {folder}")
        again = Sweep.from_dict(selection["sweep"])
        if not results.is_complete(out):
            try:
                runner.run(again, out, jobs=jobs, backend=backend, address=address, resume=True, quiet=quiet,
                           report=False, force_jobs=force_jobs)
            except KeyboardInterrupt:
                print(f"the robustness phase of {folder} stopped; finish it with: simkit sweep --out {folder} "
                      "--resume", file=sys.stderr, flush=True)
                raise
    else:
        if out.exists():
            raise InputError(f"{out} exists without {selection_path}; remove {out} and run the sweep's robustness "
                             f"phase again: simkit sweep --out {folder} --resume")
        summary = read_json(folder / "summary.json", f"rebuild it with simkit report {folder}")
        # compiling more engines side by side than there are cores gains nothing (see runner._check_options)
        prepare_jobs = 1 if backend != "loky" else min(jobs or runner.cores(), runner.cores())
        selection, again = plan(folder, sweep, summary, manifest, show, jobs=prepare_jobs, backend=backend,
                                quiet=quiet)
        write_text(selection_path, json.dumps(selection, indent=1))
        if again.cells:
            try:
                runner.run(again, out, jobs=jobs, backend=backend, address=address, quiet=quiet, report=False,
                           force_jobs=force_jobs)
            except KeyboardInterrupt:
                print(f"the robustness phase of {folder} stopped; finish it with: simkit sweep --out {folder} "
                      "--resume", file=sys.stderr, flush=True)
                raise
    if show:
        print(f"robustness phase done in {time.perf_counter() - began:.1f} s; writing the summary and report…",
              flush=True)
    if report:
        results.rebuild_report(folder)
    else:
        results.write_summary(folder)
    return out


__all__ = ["FOLDER", "SELECTION", "plan", "remeasurements", "run", "select"]
