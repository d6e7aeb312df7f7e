"""The robustness phase (docs/statistics.md, "Robustness labels"): after a sweep, every headline
finding is measured again at a skilled tier and under every shipped alternative component set,
on the same seeds, and labelled holds / weaker / vanishes / reverses, or undetermined with the
games a decision needs (simkit.analysis.robustness says exactly how, and with what error rate).

It sits above the runner. From a finished sweep folder's summary.json it picks the findings:

- the findings the report's headline shows, and at least the TOP largest of the ranked list;
- the figures `simkit check` gates on: every cell's first-player advantage (seat 0 against fair)
  whose interval is clear of zero, and, for the limits the spec's `[check]` table names, the
  cell's seat furthest from fair (max_seat_gap), its largest dealt-value or strategy edge
  (max_edge) and its capped share (max_incomplete).

Each finding's cell is played again with the same cell definition but

- (skill) the line-up replaced by the skilled tier: the spec's `skilled` preset, else `tuned`
  when the game has it, else its default preset; plus, when the spec says `lookahead = true`,
  the game's top rollout tier: `expert` (the lookahead on the tuned preset), else `lookahead`.
  A strategy finding is about its line-up, so it is not re-measured at
  another tier;
- (components) `components=<set>` for every shipped alternative set of the game, and
  `<param>=<value>` for every other reading a rule parameter declares of an unsourced
  assumption (`Param.readings`: e.g. Sea of Troubles' `sunk_treasure`, A12).

Sized to decide, in games: each re-measurement plays in looks. Look 0 plays the original's
games (a slow tier: a quarter of its `lookahead_games`, at most the original's) on the sweep's
own root seed, so they pair with the original's games one by one. While a figure's label is
undetermined its cell plays on: look k doubles its games on a root seed of its own (derived
from the sweep's and k, as `simkit check --until-decided` does), and the original cell is played
again on the same seeds beside it to pair with, up to `games` (`lookahead_games` for the
lookahead) per re-measurement. Every look is an ordinary sweep folder, DIR/robustness/look-<k>/,
played by `runner.run`: jobs, Dask and `--resume` work as for any sweep, and nothing depends on
the machine's speed or load or on numba's cache: the same spec and seed give the same looks and
labels anywhere. What was picked, the schedule and, once decided, every label are
DIR/robustness.json; summary.json's `robustness` is read from it and the report is written
again with the labels.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import time
from pathlib import Path

import numpy as np
import polars as pl

from simkit import games as registry
from simkit.analysis import robustness as labelling
from simkit.analysis.intervals import Z95, one_sided_z
from simkit.analysis.tables import INCOMPLETE, win_units
from simkit.core.bots import LOOKAHEAD, TUNED
from simkit.core.errors import InputError
from simkit.core.files import read_json, write_text
from simkit.core.ladder import EXPERT
from simkit.core.ladder import LOOKAHEAD as LOOKAHEAD_PRESET
from simkit.core.rng import derive
from simkit.sweeps import runner
from simkit.sweeps.finish import rebuild_report, write_summary
from simkit.sweeps.sequential import play_look
from simkit.sweeps.spec import ROBUSTNESS_GAMES, ROBUSTNESS_LOOKAHEAD_GAMES, Cell, Sweep, sweep_of_manifest

FOLDER, SELECTION = labelling.FOLDER, labelling.SELECTION  # DIR/robustness/ and DIR/robustness.json
TOP = 5  # at least this many of the ranked findings are picked
KINDS = labelling.KINDS  # findings with a one-cell figure that pairs game by game
GATE_KEYS = {"max_seat_gap": "seat", "max_edge": "group", "max_incomplete": "capped"}
LOOK_STREAM = 2 ** 61  # look k >= 1 plays on root seed derive(the sweep's root, LOOK_STREAM + k)
GAMES = ROBUSTNESS_GAMES  # the most games a re-measurement plays (the spec's `games`)
LOOKAHEAD_GAMES = ROBUSTNESS_LOOKAHEAD_GAMES  # ... at the slow lookahead tier (`lookahead_games`)
FIRST_SLOW = 4  # a slow tier's first look: 1/FIRST_SLOW of its games, at most the original's


def _finding_record(finding, cell: dict, summary: dict, baselines: dict) -> dict | None:
    """A headline Finding as the selection records it, with its figure from the summary."""
    if finding.kind not in KINDS:
        return None  # a variant comparison is itself a paired measurement of two rule sets: not re-measured
    record = {"cell": finding.cell, "game": cell["game"], "players": cell["players"], "kind": finding.kind,
              "key": list(finding.key),
              "baseline": baselines.get(cell["game"]) if finding.kind == "strategy" else None}
    measured = _figure(record, cell)
    if measured is None or measured[1] <= 0 <= measured[2]:
        return None
    record.update(figure=measured[0], interval=[measured[1], measured[2]], games=cell["games"])
    return record


def _figure(finding: dict, cell: dict) -> tuple[float, float, float] | None:
    """(value, low, high) of a finding in its summary cell, as the headline measures it."""
    from simkit.analysis.seats import capped_figure, group_figure, seat_figure

    if not cell.get("games"):
        return None
    kind, key = finding["kind"], finding["key"]
    if kind == "seat":
        return seat_figure(cell, int(key[1]))[:3]
    if kind == "capped":
        return capped_figure(cell)
    found = group_figure(cell, key[0], key[1], finding.get("baseline"))
    return None if found is None else found[:3]


def select(summary: dict, check_table: dict | None = None) -> list[dict]:
    """The findings to re-measure (module docstring), each once, in rank order, with an `id`,
    `headline` (the headline shows it), `rank` (its place in the ranked list, or None) and
    `gates` (the `simkit check` limits whose figure it is)."""
    from simkit.analysis.findings import HEADLINE_ITEMS, HEADLINE_PER_GAME, cell_labels, headline, rank
    from simkit.analysis.findings import dominant as dominant_findings

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

    from simkit.analysis.findings import Finding

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


def _other_assumptions(game, cell: Cell) -> list[tuple[str, object]]:
    """(param, value) of every assumption the cell does not already play: each shipped
    alternative component set, then each declared reading of a rule parameter and its default,
    less the value the cell plays (its variant's, then its own override)."""
    played = game.rules.resolve(cell.variant, cell.overrides)
    out = []
    for p in game.rules.params:
        others = p.allowed[1:] if p.kind == "components" else (p.default, *p.readings) if p.readings else ()
        out += [(p.name, value) for value in others if value != played[p.name]]
    return sorted(out, key=lambda pair: pair[0] != "components")  # the sets first


def _override_text(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def top_tier(game) -> str | None:
    """The rollout tier a `lookahead = true` re-measurement plays: the game's `expert` preset (the
    lookahead on the tuned preset, the top rung of simkit.core.ladder), else its `lookahead` preset."""
    presets = game.preset_names()
    return next((name for name in (EXPERT, LOOKAHEAD_PRESET) if name in presets), None)


def remeasurements(cell: Cell, kind: str, settings: dict) -> list[tuple[str, Cell]]:
    """(by, cell) of every re-measurement of a finding of `kind` in `cell` (module docstring)."""
    game = registry.get(cell.game)
    presets = game.preset_names()
    out = []
    if settings["check"] in ("skill", "all") and kind != "strategy":
        skilled = settings.get("skilled") or (TUNED if TUNED in presets else game.default_strategy)
        top = top_tier(game)
        tiers = [skilled] + ([top] if settings.get("lookahead", False) and top and skilled != top else [])
        for tier in tiers:
            if cell.lineup != (tier,):
                out.append((tier, dataclasses.replace(cell, id=f"{cell.id}~{tier}", lineup=(tier,),
                                                      bots={k: v for k, v in cell.bots.items() if k == tier})))
    if settings["check"] in ("components", "all"):
        for name, value in _other_assumptions(game, cell):
            by = f"{name}={_override_text(value)}"
            out.append((by, dataclasses.replace(cell, id=f"{cell.id}~{by}", overrides={**cell.overrides, name: value})))
    return out


# ---------------------------------------------------------------------------------------
# The plan: findings, their re-measurements, each one's schedule of looks


def delta_of(finding: dict, settings: dict, check_table: dict | None) -> float:
    """A finding's tolerance δ in rate units: the spec's `[robustness] delta` for its kind, else
    the gate's limit where `simkit check` gates the figure, else the kind's default."""
    from simkit.sweeps.check import parse_rate

    explicit = (settings.get("delta") or {}).get(finding["kind"])
    if explicit is not None:
        return float(explicit)
    limits = {"max_first_player_advantage": "seat", "max_seat_gap": "seat", "max_edge": "group",
              "max_incomplete": "capped"}
    for gate in finding.get("gates", []):
        if gate in (check_table or {}) and limits.get(gate) in (finding["kind"], "group"):
            if limits[gate] == "group" and finding["kind"] not in ("category", "strategy"):
                continue
            return parse_rate((check_table or {})[gate], gate, "[check]")
    return labelling.DELTA[finding["kind"]]


def schedule(first: int, cap: int) -> list[int]:
    """A re-measurement's games after each look: `first`, then doubling, the last one `cap`."""
    looks = [first]
    while looks[-1] < cap:
        looks.append(min(2 * looks[-1], cap))
    return looks


def _schedule_of(again: Cell, by: str, original_games: int, settings: dict) -> list[int]:
    game = registry.get(again.game)
    if by in game.preset_names() and game.preset(by).kind == LOOKAHEAD:  # a slow rollout tier
        cap = int(settings.get("lookahead_games", LOOKAHEAD_GAMES))
        return schedule(min(original_games, max(1, cap // FIRST_SLOW)), cap)
    return schedule(original_games, max(original_games, int(settings.get("games", GAMES))))


def plan(sweep: Sweep, summary: dict) -> dict:
    """The selection robustness.json records before the first game: the findings (each with its
    re-measurements `by`, δ and the tail each bound is tested at) and the re-measurement cells
    with their schedules. Pure: the same sweep and summary give the same plan anywhere."""
    settings = sweep.robustness
    skilled = settings.get("skilled")
    by_id = {cell.id: cell for cell in sweep.cells}
    findings = select(summary, sweep.check)
    cells: dict[str, dict] = {}
    skipped = []
    for finding in findings:
        base = by_id.get(finding["cell"])
        if base is None:
            continue
        finding["by"] = []
        for by, again in remeasurements(base, finding["kind"], settings):
            if skilled and by == skilled and skilled not in registry.get(again.game).preset_names():
                raise InputError(f"robustness: skilled preset '{skilled}' is not a preset of {again.game}; "
                                 f"presets: {', '.join(registry.get(again.game).preset_names())}")
            if any(item["cell"] == again.id for item in skipped):
                continue
            if again.id not in cells:
                try:
                    runner.compiled(again)  # a set that cannot hold this cell's rules: said, not a re-measurement
                except InputError as e:
                    skipped.append({"cell": again.id, "reason": str(e)})
                    continue
            finding["by"].append(by)
            looks = _schedule_of(again, by, base.games, settings)
            cells.setdefault(again.id, {"cell": again.to_dict(), "original": base.id, "by": by, "schedule": looks})
        looks_most = max((len(cells[f"{finding['cell']}~{by}"]["schedule"]) for by in finding["by"]), default=1)
        finding["delta"] = delta_of(finding, settings, sweep.check)
        finding["tail"] = labelling.tail(float(settings.get("alpha", labelling.ALPHA)), looks_most, len(finding["by"]))
    return {"settings": settings, "findings": findings, "skipped": skipped, "cells": cells,
            "seed": sweep.seed, "name": sweep.name}


# ---------------------------------------------------------------------------------------
# Per-game columns from a folder's tables (simkit.analysis.robustness.COLUMNS)


def _tables(folder: Path, cells: list[str], limit: int) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(games, seats) rows of `cells` with game_index below `limit`, sorted by cell and game."""
    wanted = pl.col("cell").is_in(cells) & (pl.col("game_index") < limit)
    games = pl.scan_parquet(folder / "games.parquet").filter(wanted).select(
        "cell", "game_index", "n_winners", "end_reason").collect().sort("cell", "game_index")
    seats = pl.scan_parquet(folder / "seats.parquet").filter(wanted).collect().sort("cell", "game_index", "seat")
    return games, seats


def columns(games: pl.DataFrame, seats: pl.DataFrame, cell: str, finding: dict, n: int) -> dict[str, np.ndarray]:
    """The per-game columns of `finding`'s figure over games 0..n-1 of `cell`."""
    kind, key = finding["kind"], finding["key"]
    played = games.filter(pl.col("cell") == cell).head(n)
    if played.height != n or (n and played["game_index"][-1] != n - 1):
        raise InputError(f"the robustness phase's tables lack games of {cell}: remove the robustness folder and "
                         "robustness.json, then simkit sweep --out DIR --resume")
    decided = (played["n_winners"] > 0).to_numpy()
    if kind == "capped":
        return {"x": (played["end_reason"] == INCOMPLETE).to_numpy().astype(np.int64), "d": np.ones(n, np.int64)}
    rows = seats.filter(pl.col("cell") == cell).with_columns(units=win_units())
    rows = rows.join(played.select("game_index", (pl.col("n_winners") > 0).alias("decided")), on="game_index")
    if kind == "seat":
        mine = rows.filter(pl.col("seat") == int(key[1])).sort("game_index")
        return {"x": mine["units"].to_numpy(), "d": decided.astype(np.int64) * labelling.WIN_UNITS}
    column, name = ("strategy", key[1]) if kind == "strategy" else (key[0], key[1])
    if column not in rows.columns:
        raise InputError(f"{cell}: the seats table has no column {column!r} for the finding {finding['id']}")
    group = rows.filter(pl.col(column).is_not_null())
    if kind == "strategy" and finding.get("baseline"):
        group = group.filter(pl.col(column).cast(pl.Utf8) != str(finding["baseline"]))
    group = group.with_columns(mine=pl.col(column).cast(pl.Utf8) == str(name),
                               decided_units=pl.col("decided").cast(pl.Int64) * labelling.WIN_UNITS)
    per_game = group.group_by("game_index").agg(
        x=pl.col("units").filter(pl.col("mine")).sum(), d=pl.col("decided_units").filter(pl.col("mine")).sum(),
        g=pl.col("units").sum(), h=pl.col("decided_units").sum())
    full = pl.DataFrame({"game_index": np.arange(n, dtype=np.int64)}).join(per_game, on="game_index", how="left")
    return {c: full[c].fill_null(0).to_numpy().astype(np.int64) for c in ("x", "d", "g", "h")}


def _identical(original: pl.DataFrame, again: pl.DataFrame, original_cell: str, again_cell: str, n: int) -> bool:
    """Every one of the first n games of the two cells ended alike, seat by seat (score, rank,
    win): the set or reading changes nothing this cell plays."""
    def rows(seats: pl.DataFrame, cell: str) -> pl.DataFrame:
        return seats.filter(pl.col("cell") == cell, pl.col("game_index") < n).select("game_index", "seat", "score",
                                                                                     "rank", "win")

    a, b = rows(original, original_cell), rows(again, again_cell)
    return a.height == b.height > 0 and a.equals(b)


# ---------------------------------------------------------------------------------------
# Looks, labels


def look_seed(seed: int, look: int) -> int:
    """The root seed of look `look`: the sweep's own for look 0, else one derived from it."""
    return seed if look == 0 else int(derive(np.uint64(seed), np.uint64(LOOK_STREAM + look)))


def _look_sweep(selection: dict, look: int, wanted: dict[str, int], originals: dict[str, int]) -> Sweep:
    """Look `look`'s sweep: re-measurement cells at their games this look, and (from look 1) the
    originals again on the same seeds."""
    cells = [dataclasses.replace(Cell.from_dict(selection["cells"][cell_id]["cell"]), games=n)
             for cell_id, n in wanted.items()]
    main = {c.id: c for c in Sweep.from_dict(selection["sweep"]).cells}
    cells += [dataclasses.replace(main[cell_id], games=n) for cell_id, n in originals.items()]
    return Sweep(f"{selection['name']}-robustness-{look}", look_seed(selection["seed"], look), cells, None,
                 f"robustness phase look {look}")


def _judge(finding: dict, by: str, sums: dict, players: int) -> dict:
    """One re-measurement's figure, change and label from its paired sums so far."""
    fair = 1.0 / players if finding["kind"] == "seat" else 0.0
    measured = labelling.measure(finding["kind"], sums, fair)
    row = {"by": by, "cell": f"{finding['cell']}~{by}", "games": int(sums["n"])}
    if measured is None:
        return row | {"label": labelling.UNDETERMINED, "more_games": None}
    side = 1.0 if finding["figure"] > 0 else -1.0
    z = one_sided_z(finding["tail"])
    found = labelling.decide(side, measured, finding["delta"], z)
    row |= {"figure": measured["figure"], "interval": [measured["figure"] - Z95 * measured["se"],
                                                       measured["figure"] + Z95 * measured["se"]],
            "change": measured["change"], "change_interval": [measured["change"] - Z95 * measured["change_se"],
                                                              measured["change"] + Z95 * measured["change_se"]],
            "paired_original": measured["original"], "label": found or labelling.UNDETERMINED}
    if found is None:
        row["more_games"] = labelling.more_games(side, measured, finding["delta"], z)
    return row


def _evaluate(folder: Path, selection: dict, looks: list[dict]) -> tuple[dict[tuple[str, str], dict], set[str]]:
    """Every (finding, by)'s row after the looks played so far, and the cells still open."""
    sums: dict[tuple[str, str], dict] = {}
    no_effect: set[str] = set()
    out = folder / FOLDER
    for k, look in enumerate(looks):
        here = out / f"look-{k}"
        names = list(look["cells"])
        limit = max([*look["cells"].values(), *look["originals"].values(), 0])
        games, seats = _tables(here, names + list(look["originals"]), limit)
        if k == 0:  # the original's own games, from the sweep's tables
            originals = sorted({selection["cells"][c]["original"] for c in names})
            main_games, main_seats = _tables(folder, originals, limit)
        else:
            main_games, main_seats = games, seats
        for cell_id, n in look["cells"].items():
            info = selection["cells"][cell_id]
            if k == 0 and labelling.is_assumption(info["by"]) and _identical(main_seats, seats, info["original"],
                                                                               cell_id, n):
                no_effect.add(cell_id)
            for finding in selection["findings"]:
                if finding["cell"] != info["original"] or info["by"] not in finding.get("by", []):
                    continue
                a = columns(main_games, main_seats, info["original"], finding, n)
                b = columns(games, seats, cell_id, finding, n)
                key = (finding["id"], info["by"])
                sums[key] = labelling.add_sums(sums.get(key), labelling.pair_sums(finding["kind"], a, b))
    rows = {}
    open_cells = set()
    for finding in selection["findings"]:
        for by in finding.get("by", []):
            cell_id = f"{finding['cell']}~{by}"
            if (finding["id"], by) not in sums:
                continue
            if cell_id in no_effect:
                rows[(finding["id"], by)] = {"by": by, "cell": cell_id, "games": int(sums[(finding["id"], by)]["n"]),
                                             "label": labelling.NO_EFFECT}
                continue
            row = _judge(finding, by, sums[(finding["id"], by)], finding["players"])
            rows[(finding["id"], by)] = row
            if row["label"] == labelling.UNDETERMINED:
                open_cells.add(cell_id)
    return rows, open_cells


def _next_look(selection: dict, looks: list[dict], open_cells: set[str]) -> dict | None:
    """The games each open cell plays at the next look (its schedule's next step), and the
    originals' games beside them; None when no open cell has a look left."""
    k = len(looks)
    wanted = {}
    for cell_id in sorted(open_cells):
        steps = selection["cells"][cell_id]["schedule"]
        if k < len(steps):
            wanted[cell_id] = steps[k] - steps[k - 1]
    if not wanted:
        return None
    originals: dict[str, int] = {}
    for cell_id, n in wanted.items():
        original = selection["cells"][cell_id]["original"]
        originals[original] = max(originals.get(original, 0), n)
    return {"cells": wanted, "originals": dict(sorted(originals.items()))}


def finish(selection: dict, rows: dict[tuple[str, str], dict], looks: list[dict]) -> dict:
    """robustness.json's final form: the plan with every finding's re-measurements, labels and
    what they depend on, and the looks played. Games, never seconds: the same anywhere."""
    skipped = {item["cell"]: item["reason"] for item in selection.get("skipped", [])}
    findings = []
    for finding in selection["findings"]:
        mine = [rows[(finding["id"], by)] for by in finding.get("by", []) if (finding["id"], by) in rows]
        verdict, depends = labelling.overall({row["by"]: row["label"] for row in mine})
        unplayed = [{"by": cell.split("~", 1)[1], "cell": cell, "reason": reason} for cell, reason in skipped.items()
                    if cell.split("~", 1)[0] == finding["cell"]]
        more = [row.get("more_games") for row in mine if row["label"] == labelling.UNDETERMINED]
        findings.append({k: v for k, v in finding.items() if k != "by"} | {
            "remeasurements": mine, "not_played": unplayed, "label": verdict, "depends_on": depends,
            "more_games": ((None if None in more else max(more)) if more else None)
            if verdict == labelling.UNDETERMINED else None})
    games = sum(sum(look["cells"].values()) + sum(look["originals"].values()) for look in looks)
    return {k: v for k, v in selection.items() if k not in ("findings",)} | {
        "findings": findings, "looks": looks, "sampling": {"games": games, "looks": len(looks)}}


def run(folder: Path, *, jobs: int | None = None, backend: str = "loky", address: str | None = None,
        quiet: bool = False, force_jobs: bool = False, report: bool = True) -> Path | None:
    """The robustness phase of the finished sweep in `folder` (its spec's `robustness` settings),
    or its resume: look after look until every label is decided or its games are spent; then
    summary.json and the report are written again with the labels. Returns DIR/robustness, or
    None when the settings are off."""
    folder = Path(folder)
    manifest = read_json(folder / "manifest.json", "run the sweep again into a new folder")
    sweep = sweep_of_manifest(folder, manifest)
    if not sweep.robustness:
        return None
    show = not quiet and sys.stdout.isatty()
    out = folder / FOLDER
    selection_path = folder / SELECTION
    began = time.perf_counter()
    if selection_path.exists():
        selection = read_json(selection_path, f"remove {out} and {selection_path} and run simkit sweep --out "
                                              f"{folder} --resume")
        if "cells" not in selection or "sweep" not in selection:
            raise InputError(f"{selection_path} is not this version's robustness plan; remove {out} and "
                             f"{selection_path} and run simkit sweep --out {folder} --resume")
    else:
        if out.exists():
            raise InputError(f"{out} exists without {selection_path}; remove {out} and run the sweep's robustness "
                             f"phase again: simkit sweep --out {folder} --resume")
        summary = read_json(folder / "summary.json", f"rebuild it with simkit report {folder}")
        selection = plan(sweep, summary) | {"sweep": sweep.to_dict()}
        write_text(selection_path, json.dumps(selection, indent=1))
    options = {"jobs": jobs, "backend": backend, "address": address, "quiet": quiet, "force_jobs": force_jobs}
    looks: list[dict] = []
    step: dict | None = {"cells": {c: info["schedule"][0] for c, info in selection["cells"].items()},
                         "originals": {}}
    rows: dict = {}
    try:
        while step is not None and step["cells"]:
            k = len(looks)
            if show:
                games = sum(step["cells"].values()) + sum(step["originals"].values())
                print(f"robustness look {k}: {len(step['cells'])} re-measurement cells, {games:,} games", flush=True)
            play_look(_look_sweep(selection, k, step["cells"], step["originals"]), out / f"look-{k}",
                      f"other games than this robustness phase plans; remove {out} and {selection_path}, then "
                      f"simkit sweep --out {folder} --resume", **options)
            looks.append(step)
            rows, open_cells = _evaluate(folder, selection, looks)
            step = _next_look(selection, looks, open_cells)
    except KeyboardInterrupt:
        print(f"the robustness phase of {folder} stopped; finish it with: simkit sweep --out {folder} --resume",
              file=sys.stderr, flush=True)
        raise
    final = finish(selection, rows, looks)
    write_text(selection_path, json.dumps(final, indent=1))
    if show:
        print(f"robustness phase done in {time.perf_counter() - began:.1f} s ({final['sampling']['games']:,} games); "
              "writing the summary and report…", flush=True)
    if report:
        rebuild_report(folder)
    else:
        write_summary(folder)
    return out


__all__ = ["FOLDER", "SELECTION", "plan", "remeasurements", "run", "select"]


# ---------------------------------------------------------------------------------------
# The labels' own statistics, measured (benchmarks/ci/robustness_labels.py, docs/statistics.md)


def simulated(players: int, effect: float, after: float, *, games: int = 10_000, cap: int = GAMES,
              same: float = 0.0, remeasurements: int = 4, delta: float = labelling.DELTA["seat"],
              alpha: float = labelling.ALPHA, runs: int = 2000, seed: int = 1) -> dict[str, float]:
    """`runs` simulated re-measurements of a seat-0 finding, decided look by look as the phase
    decides them (`_judge`, `schedule`): seat 0 wins each decided game with chance 1/players +
    `effect` in the original and 1/players + `after` in the re-measurement; a share `same` of the
    pairs are the very same game (a set that changes little), the rest independent. The original
    plays `games` games (the first look), the re-measurement up to `cap`, over one of
    `remeasurements` re-measurements of the finding. Returns the share of runs ending in each
    label, and the games they took (mean)."""
    rng = np.random.default_rng(seed)
    fair = 1.0 / players
    p_a = fair + effect
    # the independent games' rate, so that the re-measurement's overall rate is fair + after
    p_b = (fair + after - same * p_a) / (1.0 - same) if same < 1 else p_a
    if not 0.0 <= p_b <= 1.0:
        raise ValueError(f"no independent rate gives {after:+.3f} with {same:.0%} identical games")
    looks = schedule(games, max(games, cap))
    finding = {"cell": "sim", "kind": "seat", "key": ["seat", 0], "figure": effect, "players": players,
               "delta": delta, "tail": labelling.tail(alpha, len(looks), remeasurements)}
    ended: dict[str, int] = {}
    spent = []
    for _ in range(runs):
        sums = None
        played = 0
        for total in looks:
            n = total - played
            won_a = rng.random(n) < p_a
            won_b = np.where(rng.random(n) < same, won_a, rng.random(n) < p_b)
            units = labelling.WIN_UNITS
            decided = np.full(n, units, np.int64)
            sums = labelling.add_sums(sums, labelling.pair_sums(
                "seat", {"x": won_a * units, "d": decided}, {"x": won_b * units, "d": decided}))
            played = total
            row = _judge(finding, "sim", sums, players)
            if row["label"] != labelling.UNDETERMINED:
                break
        ended[row["label"]] = ended.get(row["label"], 0) + 1
        spent.append(played)
    return {**{found: count / runs for found, count in ended.items()}, "mean_games": float(np.mean(spent)),
            "runs": runs}
