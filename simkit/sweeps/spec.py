"""Sweep specs: TOML or keyword options -> a validated list of cells (docs/reference/spec.md).

A spec file::

    name = "default"     # report folder prefix
    seed = 1             # root seed: game i of every cell plays derive(seed, i)
    games = 10000        # games per cell, unless a block says otherwise
    precision = 0.01     # optional: stop a cell once seat 0's 95% half width <= this

    robustness = "all"   # optional: after the sweep, re-measure its headline findings at a skilled
                         # tier, under every shipped component set and every declared reading of an
                         # assumption (simkit.sweeps.robustness); or a table
                         # [robustness] check = "all", skilled = "tuned", lookahead = false,
                         # games = 320000, lookahead_games = 2000, alpha = 0.05, delta = {seat = "2pt"}

    [check]              # optional: limits for `simkit check` on this sweep's folder (simkit.sweeps.check)
    max_first_player_advantage = "3pt"
    max_incomplete = "1pt"

    [[study]]            # one or more blocks; the cartesian grid of a block's lists = its cells
    game = "sea_of_plunder"      # or "*": every registered game
    players = [2, 3, 4]          # omitted: the game's (or the variant's) player counts
    variants = ["standard", "two_player"]     # 'a+b' combines variants
    set = { some_param = 5 }                  # fixed rule overrides
    grid = { other_param = [4, 6, 8] }        # swept rule overrides
    strategies = ["default", "raider,random"] # line-ups; "default" = the game's default preset
    games = 20000                             # per-block games

    [study.bots.greedy]          # bot parameters (simkit.core.bots): a new strategy for line-ups,
    preset = "merchant"          # built from a preset, with some of its parameters set
    sell_at = 400
    [study.bots.raider]          # a preset's own label changes that preset in this block
    hunt = 1                     # ([bots.<label>] at the top level: every block)

    [tournament]         # optional, beside or instead of [[study]] blocks: every preset
    game = "set_sail"    # against every other, seats balanced (simkit.core.seating)
    players = [2, 3, 4]  # one cell per player count, its line-up the tournament's presets
    presets = ["merchant", "raider", "random"]  # omitted: every preset but the slow rollout tiers
    include_random = true                       # with presets omitted: keep `random` (the baseline)
    games = 20000                               # games per player count
                         # [[tournament]] blocks instead: several, e.g. games by player count

A line-up is seated by its balanced design (`simkit.core.seating.design`); a cell with
fewer games than the design's seatings cannot be balanced and is refused.

Player counts. Omitted, each variant plays its own counts. Counts named for one game (one,
a list or a range) are explicit: a count no chosen variant plays is an error naming the variant
that plays it; a count one chosen variant plays is skipped by the others (standard and
two_player with [2, 3, 4] give standard 2-4p and two_player 2p). A count outside every range
the game declares is an error, except with `game = "*"`, where the counts are a request and
each game plays those it supports (and a request no game supports is an error).

Command-line options (`load`'s keyword arguments) override the spec: seed, games, name
and precision at the top; game, players, variants, set, strategies and bots in every block
(a `--set` key also replaces a grid over the same key; a `--bot` label replaces the spec's
setting of that label). A `--set` value that is a TOML list (`--set target=[20,40]`) is a grid.

Cell ids read `<game>-<players>p-<variant>`, suffixed with `-key=value` for each rule
override that varies among the sweep's cells of that game, with the line-up when
line-ups vary, and with `-label.param=value` for each bot parameter a cell sets. A cell
keeps the bot settings of the labels its line-up uses. Everything is validated here,
before anything runs; every problem is an InputError naming what and where.
"""

from __future__ import annotations

import itertools
import json
import math
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simkit import games as registry
from simkit.core import bots as bot_settings
from simkit.core.errors import InputError, unknown
from simkit.core.game import NOISE_MARK, parse_strategy

TOP_KEYS = ("name", "description", "seed", "games", "precision", "check", "study", "arcs", "tiers", "skill",
            "tournament", "bots", "robustness", "max_cells")
ROBUSTNESS_CHECKS = ("off", "skill", "components", "all")  # what the robustness phase re-measures (simkit.sweeps.robustness)
ROBUSTNESS_KEYS = ("check", "skilled", "lookahead", "games", "lookahead_games", "alpha", "delta")
ROBUSTNESS_GAMES = 320_000  # the most games one re-measurement plays (simkit.sweeps.robustness)
ROBUSTNESS_LOOKAHEAD_GAMES = 2_000  # ... at the slow lookahead tier
ROBUSTNESS_DELTA_KINDS = ("seat", "category", "strategy", "capped")
TOURNAMENT_KEYS = ("game", "players", "variants", "set", "presets", "include_random", "games", "bots")
BLOCK_KEYS = ("game", "players", "variants", "set", "grid", "strategies", "games", "bots")
DEFAULT_GAMES = 10_000
MAX_GAMES = 1_000_000_000  # per cell: past this the plan alone would not fit in memory
MAX_CELLS = 100_000  # cells a sweep plans without being asked for more (--max-cells, spec key max_cells)
MAX_PLAYERS = 100  # a sanity bound for parsing; each game then names its own range
MAX_PRECISION = 0.1  # a half width above 10 points is a slip (0.5 meant as points, say)
DEFAULT_SEED = 1
ALL_GAMES = "*"
DEFAULT_LINEUP = "default"  # line-up entry meaning the game's default preset
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


def _copied(value):
    """A copy of a rule value (a TOML scalar, list or table) that shares nothing mutable."""
    if isinstance(value, dict):
        return {key: _copied(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_copied(item) for item in value)
    return value


@dataclass(frozen=True)
class Cell:
    """One point of a sweep: a rule set, a player count and a line-up, played `games` times."""

    id: str
    game: str
    players: int
    variant: str
    overrides: dict
    lineup: tuple[str, ...]  # strategy labels; game i seats them by the balanced design (simkit.core.seating)
    games: int
    bots: dict = field(default_factory=dict)  # checked bot settings of the line-up's labels (simkit.core.bots)

    def to_dict(self) -> dict:
        # by hand, not dataclasses.asdict: a 10,000-cell grid converts its cells several times
        return {"id": self.id, "game": self.game, "players": self.players, "variant": self.variant,
                "overrides": _copied(self.overrides), "lineup": list(self.lineup), "games": self.games,
                "bots": {label: dict(values) for label, values in self.bots.items()}}

    @classmethod
    def from_dict(cls, d: dict) -> Cell:
        return cls(d["id"], d["game"], int(d["players"]), d["variant"], dict(d["overrides"]), tuple(d["lineup"]),
                   int(d["games"]), {k: dict(v) for k, v in d.get("bots", {}).items()})

    def strategy_table(self):
        """(the engine's strategy table, the label of each row) for this cell's line-up and bots."""
        return registry.get(self.game).strategy_table(self.lineup, self.bots)

    def rules(self) -> dict:
        """Every rule parameter's value for this cell (validated when the cell was made)."""
        return registry.get(self.game).rules.resolve(self.variant, self.overrides)


@dataclass
class Sweep:
    """A validated sweep: what `simkit sweep` will run."""

    name: str
    seed: int
    cells: list[Cell]
    precision: float | None = None
    source: str = "command-line options"
    check: dict = field(default_factory=dict)  # the spec's [check] table: `simkit check` limits (simkit.sweeps.check)
    arcs: bool = False  # the engine fills its score trace, kept as traces.parquet (simkit.core.traces)
    # the robustness phase after the sweep (simkit.sweeps.robustness): {check, skilled, lookahead, games,
    # lookahead_games, alpha, delta}; {} is off
    robustness: dict = field(default_factory=dict)

    def to_toml(self) -> str:
        """The resolved spec, one block per cell: `simkit sweep` on it runs this very sweep."""
        lines = [f"# resolved from {self.source}; `simkit sweep` on this file reruns the same cells",
                 f"name = {_toml(self.name)}", f"seed = {self.seed}"]
        if len(self.cells) > MAX_CELLS:  # asked for with --max-cells: the rerun asks for as many
            lines.append(f"max_cells = {len(self.cells)}")
        if self.precision is not None:
            lines.append(f"precision = {_toml(self.precision)}")
        if self.arcs:
            lines.append("arcs = true")
        if self.check:
            lines += ["", "[check]", *(f"{key} = {_toml(value)}" for key, value in self.check.items())]
        if self.robustness:
            lines += ["", "[robustness]", *(f"{key} = {_toml(value)}" for key, value in self.robustness.items()
                                            if value is not None)]
        for c in self.cells:
            lines += ["", "[[study]]", f"game = {_toml(c.game)}", f"players = {c.players}",
                      f"variants = {_toml(c.variant)}"]
            if c.overrides:
                lines.append(f"set = {_toml(c.overrides)}")
            lines += [f"strategies = {_toml(','.join(c.lineup))}", f"games = {c.games}"]
            if c.bots:
                lines.append(f"bots = {_toml(c.bots)}")
        return "\n".join(lines) + "\n"

    def to_dict(self) -> dict:
        return {"name": self.name, "seed": self.seed, "precision": self.precision, "source": self.source,
                "check": dict(self.check), "arcs": self.arcs, "cells": [c.to_dict() for c in self.cells],
                **({"robustness": dict(self.robustness)} if self.robustness else {})}

    @classmethod
    def from_dict(cls, d: dict) -> Sweep:
        return cls(d["name"], int(d["seed"]), [Cell.from_dict(c) for c in d["cells"]], d.get("precision"),
                   d.get("source", "command-line options"), dict(d.get("check", {})), bool(d.get("arcs", False)),
                   dict(d.get("robustness", {})))


def sweep_of_manifest(folder: Path, manifest: dict | None = None) -> Sweep:
    """The sweep a finished folder's manifest.json records (its `spec`; `manifest`: the file as
    already read); a manifest that is damaged (not JSON, not an object, no spec, a spec of the
    wrong shape, or one holding a value a fresh spec would refuse: see `_recorded_problem`) is an
    InputError naming the file and the fix: rerun the sweep (docs/faults.md)."""
    from simkit.core.files import read_json
    from simkit.sweeps.results import rerun_hint

    path = Path(folder) / "manifest.json"
    fix = rerun_hint(folder)
    spec = (read_json(path, fix) if manifest is None else manifest).get("spec")
    if not isinstance(spec, dict):
        raise InputError(f"{path} is damaged ({'it has no spec' if spec is None else 'its spec is not a table'}); "
                         f"{fix}")
    try:
        sweep = Sweep.from_dict(spec)
        what = _recorded_problem(spec)
    except KeyError as e:
        what = f"its spec lacks {e.args[0]!r}"
    except (TypeError, ValueError, AttributeError) as e:
        what = f"its spec has a value of the wrong kind: {str(e)[:120]}"
    if what is None:
        return sweep
    raise InputError(f"{path} is damaged ({what}); {fix}")


def _recorded_problem(spec: dict) -> str | None:
    """What a manifest's spec holds that a fresh spec would refuse (None: nothing): its name,
    seed, precision, arcs, [check] and robustness settings, and each cell, remade from its own
    game, players, variant, rule overrides, line-up, games and bots as a one-cell block is."""
    where = "its spec"
    try:
        _name(spec["name"], where)
        _seed(spec["seed"], where)
        _precision(spec.get("precision"), where)
        _flag(spec.get("arcs", False), "arcs", where)
        from simkit.sweeps.check import parse_table

        parse_table(spec.get("check", {}), where)
        if spec.get("robustness"):
            parse_robustness(spec["robustness"], f"robustness in {where}")
    except InputError as e:
        return f"it holds what a spec would refuse: {e}"
    cells = spec["cells"]
    if not isinstance(cells, list) or not cells:
        return "its spec lists no cells"
    seen = set()
    for cell in cells:
        if not isinstance(cell, dict):
            return f"its spec holds a cell that is not a table: {str(cell)[:60]!r}"
        cell_id = cell["id"]
        if not isinstance(cell_id, str) or not cell_id.strip():
            return f"its spec holds a cell whose id is not a name: {cell_id!r}"
        if cell_id in seen:
            return f"its spec lists cell {cell_id} twice"
        seen.add(cell_id)
        block = {"game": cell["game"], "players": cell["players"], "variants": [cell["variant"]],
                 "set": cell["overrides"], "strategies": [cell["lineup"]], "games": cell["games"],
                 "bots": cell.get("bots", {})}
        try:
            made = _expand(block, DEFAULT_GAMES, f"cell {cell_id}")
        except InputError as e:
            if _folder_gone(cell):  # a designer's component folder moved since: the file is not damaged
                raise
            return f"its cell {cell_id} holds what a spec would refuse: {e}"
        if len(made) != 1:
            return f"its cell {cell_id} stands for {len(made)} cells, not one (a list among its values?)"
    return None


def _folder_gone(cell: dict) -> bool:
    """A recorded cell plays a designer's component folder (a path) that is no longer there."""
    if cell["game"] not in registry.ids() or not isinstance(cell["overrides"], dict):
        return False
    keys = {p.name for p in registry.get(cell["game"]).rules.params if p.kind == "components"}
    return any(isinstance(v, str) and ("/" in v or "\\" in v) and not Path(v).expanduser().is_dir()
               for k, v in cell["overrides"].items() if k in keys)


def _toml(value: Any) -> str:
    """A TOML literal for the plain values a spec holds."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        keys = (k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else _toml_string(k) for k in value)
        return "{ " + ", ".join(f"{k} = {_toml(v)}" for k, v in zip(keys, value.values())) + " }"
    raise TypeError(f"cannot write {value!r} as TOML")


_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def _toml_string(text: str) -> str:
    """A TOML basic string: every character as itself but the quote, the backslash and the control
    characters, which TOML requires escaped (json.dumps would write an emoji as a surrogate pair
    of escapes, which TOML refuses)."""
    if text.isprintable() and '"' not in text and "\\" not in text:  # most values: nothing to escape
        return f'"{text}"'
    out = []
    for ch in text:
        code = ord(ch)
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\u{code:04X}")
        elif 0xD800 <= code <= 0xDFFF:  # a byte of a name that is not UTF-8 (os.fsdecode): no TOML holds it
            raise InputError(f"{text!r} holds bytes that are not UTF-8 text, which a spec cannot hold; "
                             "rename the file or folder it comes from")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


# -- command-line value parsing (library functions so notebooks accept the same text) ------


def parse_players(text: str | int | list | None) -> list[int] | None:
    """'2,3,4' or '2-4' or 3 -> a list of counts; None stays None."""
    if text is None or isinstance(text, list):
        return text
    if isinstance(text, int):
        return [text]
    out: list[int] = []
    try:
        for part in str(text).split(","):
            low, dash, high = part.strip().partition("-")
            low = int(low)
            high = int(high) if dash else low
            if not 1 <= low <= high <= MAX_PLAYERS:
                raise ValueError
            out += list(range(low, high + 1))
    except ValueError:
        raise InputError(f"--players expects counts from 1 to {MAX_PLAYERS} like 2,3,4 or 2-4, got '{text}'") from None
    return out


def parse_set(items: list[str] | dict | None) -> dict:
    """['key=value', ...] -> {key: value}; a value is read as TOML (20, true, "d8", [1,2]) or else as text."""
    if items is None or isinstance(items, dict):
        return dict(items or {})
    out: dict = {}
    for item in items:
        key, eq, text = item.partition("=")
        if not eq or not key.strip():
            raise InputError(f"--set expects key=value, got '{item}'")
        try:
            value = tomllib.loads(f"v = {text.strip()}")["v"]
        except (tomllib.TOMLDecodeError, RecursionError):
            value = text.strip()
        if key.strip() in out:
            raise InputError(f"--set {key.strip()} is given twice ({key.strip()}={out[key.strip()]!r} and "
                             f"{item.strip()}); give it once, or sweep it as a list: {key.strip()}=[a,b]")
        if value == []:
            raise InputError(f"--set {item.strip()}: an empty list; give one value, or a list of values to sweep")
        out[key.strip()] = value
    return out


# -- loading -----------------------------------------------------------------------------


def default_spec_path() -> Path | None:
    """experiments/default.toml in the working folder, else the one beside the simkit package."""
    for base in (Path.cwd(), Path(__file__).resolve().parents[2]):
        path = base / "experiments" / "default.toml"
        if path.is_file():
            return path
    return None


def read_toml(path: Path) -> tuple[dict, str]:
    """A spec file's table and text; a missing or malformed file names the file and line."""
    from simkit.core import files

    if files.kind_of(path, "spec file") == "missing":
        hint = "" if path.suffix == ".toml" else (
            "; a spec is a .toml file — to name several strategies write them as one line-up: --strategies a,b")
        raise InputError(f"spec file {files.shown(str(path))} not found{hint}")
    text = files.read_text(path, f"spec file {files.shown(str(path))}")
    try:
        return tomllib.loads(text), text
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"\s*\(at line (\d+), column (\d+)\)", str(e))
        line, message = (f":{m.group(1)}", str(e)[: m.start()]) if m else ("", str(e))
        raise InputError(f"{path}{line}: malformed TOML: {message}") from None
    except RecursionError:  # tomllib recurses once per level of nested arrays and inline tables
        raise InputError(f"{path}: arrays or tables nested too deeply to read (hundreds of levels)") from None


def load(
    spec: str | Path | dict | None = None,
    *,
    game: str | None = None,
    players: str | int | list | None = None,
    variant: str | list | None = None,
    set: list[str] | dict | None = None,  # named like the spec key and --set
    strategies: str | list | None = None,
    games: int | None = None,
    seed: int | None = None,
    name: str | None = None,
    precision: float | None = None,
    arcs: bool | None = None,
    tiers: bool | None = None,
    skill: str | list | None = None,
    tournament: bool = False,
    balanced: bool = True,
    bots: list[str] | dict | None = None,
    robustness: str | None = None,
    max_cells: int | None = None,
) -> Sweep:
    """A validated Sweep from a spec (a TOML path, or its table as a dict) and/or options.

    With neither a spec nor `game`, the default spec (experiments/default.toml) is used.
    `variant` may list variants ('standard,quick'); `strategies` is one line-up
    ('careful,random') or a list of line-ups. `arcs` (spec key `arcs = true`): trace every
    game's score by round (simkit.core.traces). `tiers` (spec key `tiers = true`): every block's
    line-ups become the skill tiers of each of its games (simkit.core.ladder), with a
    `default@p` tier for each noise level p in `skill` ('0.25,0.5' or [0.25, 0.5]).
    `tournament` (`sweep --tournament`): each block's line-up is the tournament's (every preset but the slow tiers, see
    `simkit.core.seating.tournament_lineup`) unless `strategies` names one. balanced=False
    skips the refusal of a cell too short to balance its line-up (replay and bench play
    single games, not a sweep). `bots`: bot settings (simkit.core.bots), as `--bot` texts
    ('greedy:preset=merchant,sell_at=400') or a table {label: {"preset": ..., param: value}}.
    `robustness` (`--robustness`): off, skill, components or all, over the spec's `robustness` key
    (see `parse_robustness`); the default spec sets all, any other spec is off unless it says.
    `max_cells` (`--max-cells`, spec key `max_cells`): the most cells the sweep may have (default
    MAX_CELLS), counted before any cell is made. Relative folder paths in a spec file (components,
    a bot's file) are relative to the spec file's folder; on the command line, to the working folder.
    """
    text = ""
    spec_folder = None  # the folder of the spec file, which its relative paths start from
    if isinstance(spec, dict):
        table, source = spec, "spec"
    elif spec is not None or game is None:
        path = Path(spec) if spec is not None else default_spec_path()
        if path is None:
            table, source = {"name": "default", "study": [{"game": ALL_GAMES}]}, "built-in default spec"
        else:
            (table, text), source = read_toml(path), str(path)
            spec_folder = path.absolute().parent
    else:
        # the sweep is named after its game; a --game that is no name is left to the game's own check
        named = game if game != ALL_GAMES and _NAME.match(game) else "sweep"
        table, source = {"name": named, "study": [{}]}, "command-line options"
        if tournament:
            table = {"name": f"{named}-tournament", "tournament": {}}

    for key in table:
        if key not in TOP_KEYS:
            raise unknown("spec key", key, TOP_KEYS, _where(source, text, key))
    blocks = table.get("study", [])
    if isinstance(blocks, dict):
        blocks = [blocks]
    if "tournament" in table:  # [tournament], or [[tournament]] for several (games by player count, say)
        sections = table["tournament"] if isinstance(table["tournament"], list) else [table["tournament"]]
        blocks = [*blocks, *(_tournament_block(section, _where(source, text, "tournament")) for section in sections)] \
            if isinstance(blocks, list) else blocks
    elif tournament:
        # a block that names its line-ups keeps them (they are seated by the balanced design anyway)
        blocks = [b if isinstance(b, dict) and "strategies" in b else {**b, TOURNAMENT: True} for b in blocks] \
            if isinstance(blocks, list) else blocks
    if not isinstance(blocks, list) or not blocks or not all(isinstance(b, dict) for b in blocks):
        raise InputError(f"{source} has no [[study]] block; add one naming at least a game")

    cli = {"game": game, "players": parse_players(players), "variants": variant,
           "strategies": strategies}
    cli = {k: v for k, v in cli.items() if v is not None}
    cli_set = parse_set(set)
    cli_bots = bots if isinstance(bots, dict) else bot_settings.merge_options(bots)
    top_bots = table.get("bots", {})
    if not isinstance(top_bots, dict):
        raise InputError(f"bots in {source} must be tables [bots.<label>], got {top_bots!r}")
    if spec_folder is not None:
        top_bots = _relative_bots(top_bots, spec_folder)
    limit = _max_cells(max_cells, "--max-cells") if max_cells is not None else \
        _max_cells(table.get("max_cells", MAX_CELLS), f"max_cells in {_where(source, text, 'max_cells')}")

    top_games = _games(games if games is not None else table.get("games", DEFAULT_GAMES), f"games in {source}")
    root = _seed(seed if seed is not None else table.get("seed", DEFAULT_SEED), source)
    sweep_name = _name(name if name is not None else table.get("name", Path(source).stem if text else "sweep"),
                       source)
    prec = _precision(precision if precision is not None else table.get("precision"), source)
    traced = _flag(arcs if arcs is not None else table.get("arcs", False), "arcs", source)
    from simkit.core import ladder

    tiered = _flag(tiers if tiers is not None else table.get("tiers", False), "tiers", source)
    levels = ladder.parse_skill(skill if skill is not None else table.get("skill"), source)
    if levels and not tiered:
        raise InputError(f"skill levels in {source} are tiers: add --tiers (or tiers = true)")
    if tiered and strategies is not None:
        raise InputError("--tiers plays its own line-ups (random, the default preset, lookahead): "
                         "drop --strategies, or drop --tiers")

    ready: list[tuple[dict, str]] = []  # (block with the command line's options, where)
    for number, block in enumerate(blocks, 1):
        where = f"{source} [[study]] {number}" if len(blocks) > 1 or text else source
        for key in block:
            if key not in BLOCK_KEYS and key != TOURNAMENT:
                raise unknown("study key", key, BLOCK_KEYS, _where(source, text, key, where))
        if spec_folder is not None:
            block = _relative_paths(block, spec_folder, cli.get("game", block.get("game")))
        block = {**block, **cli}
        if TOURNAMENT in block and tiered:
            raise InputError(f"{where}: a tournament and skill tiers are two sweeps; give one of them")
        if TOURNAMENT in block and "strategies" in cli:  # --strategies names the tournament's presets
            block[TOURNAMENT] = [n.strip() for n in cli["strategies"].split(",")] \
                if isinstance(cli["strategies"], str) else cli["strategies"]
            del block["strategies"]
        if cli_set:
            block["set"] = {**block.get("set", {}), **cli_set}
            block["grid"] = {k: v for k, v in block.get("grid", {}).items() if k not in cli_set}
        if games is not None:
            block["games"] = games
        block_bots = block.get("bots", {})
        if not isinstance(block_bots, dict):
            raise InputError(f"bots in {where} must be tables [study.bots.<label>], got {block_bots!r}")
        block["bots"] = {**top_bots, **block_bots, **cli_bots}
        ready.append((block, where))
    # counted before any cell is made: a mistyped grid of millions of cells is refused at once
    count = sum(_count(block, levels if tiered else None) for block, _ in ready)
    if count > limit:
        raise InputError(f"the sweep has {count:,} cells (in {source}), more than the {limit:,} a sweep plans unless "
                         f"asked (the lists of a grid multiply); shorten the grid, or allow it with --max-cells {count}"
                         + (f" (or max_cells = {count} in the spec)" if text else ""))
    raw: list[tuple[dict, str]] = []  # (cell fields without id, where)
    for block, where in ready:
        raw += _expand(block, top_games, where, levels if tiered else None)

    cells = _with_ids(raw)
    if balanced:
        from simkit.core.seating import check_games

        for cell, (_, where) in zip(cells, raw):
            check_games(cell.lineup, cell.players, cell.games, where)
    from simkit.sweeps.check import parse_table  # the gate owns what a [check] table may hold

    check = parse_table(table.get("check", {}), f"{source} [check]")
    settings = parse_robustness(table.get("robustness"), f"robustness in {source}")
    if robustness is not None:
        settings = parse_robustness({**(settings or {"check": "off"}), "check": robustness}, "--robustness")
    return Sweep(sweep_name, root, cells, prec, source, check, traced, settings)


def parse_robustness(value: Any, where: str) -> dict:
    """The robustness phase's settings (simkit.sweeps.robustness) from a spec's `robustness = "all"` or
    its table `[robustness] check = "all", skilled = "tuned", lookahead = false, games = 320000,
    lookahead_games = 2000, alpha = 0.05, delta = {seat = "2pt"}`: {check, skilled (None: the
    game's `tuned` preset, else its default), lookahead, games and lookahead_games (the most
    games a re-measurement plays), alpha (a finding's chance of a false label), delta (per figure
    kind, the tolerance in rate units; kinds left out take the gate's limit or the default)};
    {} when off."""
    if value is None:
        return {}
    table = {"check": value} if isinstance(value, str) else value
    if not isinstance(table, dict):
        raise InputError(f"{where}: expected one of {', '.join(ROBUSTNESS_CHECKS)} or a table with "
                         f"{', '.join(ROBUSTNESS_KEYS)}, got {value!r}")
    if "budget" in table:
        raise InputError(f"{where}: budget (a share of the main phase's seconds) is gone: the robustness phase's "
                         f"budget is in games, the same on every machine; write games = {ROBUSTNESS_GAMES} (per "
                         f"re-measurement) and lookahead_games = {ROBUSTNESS_LOOKAHEAD_GAMES}")
    for key in table:
        if key not in ROBUSTNESS_KEYS:
            raise unknown("robustness key", key, ROBUSTNESS_KEYS, where)
    check = table.get("check", "all")
    if check not in ROBUSTNESS_CHECKS:
        raise InputError(f"{where}: check must be one of {', '.join(ROBUSTNESS_CHECKS)}, got {check!r}")
    skilled = table.get("skilled")
    if skilled is not None and (not isinstance(skilled, str) or not skilled.strip()):
        raise InputError(f"{where}: skilled must name a preset (like \"tuned\"), got {skilled!r}")
    lookahead = table.get("lookahead", False)
    if not isinstance(lookahead, bool):
        raise InputError(f"{where}: lookahead must be true or false, got {lookahead!r}")
    counts = {}
    for key, default in (("games", ROBUSTNESS_GAMES), ("lookahead_games", ROBUSTNESS_LOOKAHEAD_GAMES)):
        n = table.get(key, default)
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 100_000_000:
            raise InputError(f"{where}: {key} is the most games one re-measurement plays, a whole number from 1 to "
                             f"100,000,000, got {n!r}")
        counts[key] = n
    alpha = table.get("alpha", 0.05)
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or not 0 < alpha < 0.5:
        raise InputError(f"{where}: alpha is a finding's chance of a false label, a number above 0 and below 0.5 "
                         f"(0.05 is 5%), got {alpha!r}")
    delta = table.get("delta", {})
    if not isinstance(delta, dict):
        raise InputError(f"{where}: delta is a table of tolerances per figure kind, like delta = {{seat = \"2pt\"}}, "
                         f"got {delta!r}")
    from simkit.sweeps.check import parse_rate

    tolerances = {}
    for kind, amount in delta.items():
        if kind not in ROBUSTNESS_DELTA_KINDS:
            raise unknown("delta kind", kind, ROBUSTNESS_DELTA_KINDS, where)
        tolerances[kind] = parse_rate(amount, f"delta.{kind}", where)
        if tolerances[kind] <= 0:
            raise InputError(f"{where}: delta.{kind} must be above 0, got {amount!r}")
    if check == "off":
        return {}
    return {"check": check, "skilled": skilled, "lookahead": lookahead, **counts, "alpha": float(alpha),
            "delta": tolerances}


def _flag(value: Any, key: str, where: str) -> bool:
    if not isinstance(value, bool):
        raise InputError(f"{key} in {where} must be true or false, got {value!r}")
    return value


TOURNAMENT = "_tournament"  # a block made by [tournament] or --tournament: its presets, or True for the default


def _tournament_block(section: Any, where: str) -> dict:
    """The [[study]] block a [tournament] section stands for (see the module docstring)."""
    if not isinstance(section, dict):
        raise InputError(f"tournament in {where} must be a table like [tournament] game = \"...\"")
    for key in section:
        if key not in TOURNAMENT_KEYS:
            raise unknown("tournament key", key, TOURNAMENT_KEYS, where)
    block = {k: v for k, v in section.items() if k not in ("presets", "include_random")}
    presets = section.get("presets", True)
    if presets is not True and (not isinstance(presets, list) or len(presets) < 2
                                or not all(isinstance(p, str) and p for p in presets)):
        raise InputError(f"presets in {where} [tournament] must list at least two preset names, got {presets!r}")
    include_random = section.get("include_random", True)
    if not isinstance(include_random, bool):
        raise InputError(f"include_random in {where} [tournament] must be true or false, got {include_random!r}")
    if presets is not True and "include_random" in section:
        raise InputError(f"{where} [tournament]: give presets or include_random, not both "
                         "(with presets named, name random among them to include it)")
    block[TOURNAMENT] = presets if presets is not True else ("all" if include_random else "all but random")
    return block


def _where(source: str, text: str, key: str, where: str | None = None) -> str:
    """`where`, with the line of `key = ` in the spec's text when it can be found."""
    m = re.search(rf"^\s*{re.escape(key)}\s*=", text, re.MULTILINE) if text else None
    line = f"{source}:{text[: m.start()].count(chr(10)) + 1}" if m else None
    if line and where and where != source:
        return f"{line} ({where.removeprefix(source).strip()})"
    return line or where or source


def _games(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise InputError(f"{where} must be a whole number of games >= 1, got {value!r}")
    if value > MAX_GAMES:
        raise InputError(f"{where} asks for {value:,} games; at most {MAX_GAMES:,} per cell, "
                         "so split the sweep or raise the precision target")
    return value


def _seed(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**64:
        raise InputError(f"seed in {where} must be an integer in 0..2**64-1, got {value!r}")
    return value


def _name(value: Any, where: str) -> str:
    if not isinstance(value, str) or not _NAME.match(value):
        raise InputError(f"name in {where} must be letters, digits, '_', '-' or '.', got {value!r}")
    return value


def _precision(value: Any, where: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, str):  # from the command line; "0.5pt" is in points, i.e. 0.005
        text = value.strip()
        try:
            value = float(text[:-2]) / 100 if text.endswith("pt") else float(text)
        except ValueError:
            raise InputError(f"precision in {where} must be a half width like 0.01 or 1pt, got {text!r}") from None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= MAX_PRECISION:
        hint = f" (for {value:g} points write {value / 100:g} or {value:g}pt)" if (
            isinstance(value, (int, float)) and not isinstance(value, bool) and MAX_PRECISION < value <= 10) else ""
        raise InputError(f"precision in {where} must be a win-rate half width in (0, {MAX_PRECISION}], e.g. 0.01 "
                         f"or 1pt; got {value!r}{hint}")
    return float(value)


def _as_list(value: Any, key: str, where: str) -> list:
    """A block value that may be one item or a list of items."""
    items = value if isinstance(value, list) else [value]
    if not items:
        raise InputError(f"{key} in {where} is an empty list")
    return items


def _span(counts) -> str:
    counts = sorted(counts)
    if counts == list(range(counts[0], counts[-1] + 1)) and len(counts) > 1:
        return f"{counts[0]}..{counts[-1]}"
    return ", ".join(map(str, counts))


def _max_cells(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InputError(f"{what} must be a whole number of cells >= 1, got {value!r}")
    return value


def _relative(value: Any, folder: Path, names: set) -> Any:
    """A folder path written in a spec, relative to the spec's `folder`; a set's name, an absolute
    path and a ~ path (expanded where it is checked) stay as written."""
    if isinstance(value, list):
        return [_relative(v, folder, names) for v in value]
    if not isinstance(value, str) or not value.strip() or value in names or value.startswith("~") \
            or Path(value).is_absolute():
        return value
    return str(folder / value)


def _relative_paths(block: dict, folder: Path, game: Any) -> dict:
    """A spec block with its relative paths (a component folder in set or grid, a bot's file)
    made relative to the spec file's folder (docs/reference/spec.md)."""
    ids = registry.ids() if game == ALL_GAMES else [game] if game in registry.ids() else []
    params = [p for g in ids for p in registry.get(g).rules.params if p.kind == "components"]
    keys, names = {p.name for p in params}, {n for p in params for n in p.allowed[1:]}
    out = dict(block)
    for section in ("set", "grid"):
        table = block.get(section)
        if isinstance(table, dict) and keys & table.keys():
            out[section] = {k: _relative(v, folder, names) if k in keys else v for k, v in table.items()}
    if isinstance(block.get("bots"), dict):
        out["bots"] = _relative_bots(block["bots"], folder)
    return out


def _relative_bots(bots: dict, folder: Path) -> dict:
    """Bot settings with each relative `file` (a tuned.toml, simkit.core.bots) made relative to `folder`."""
    return {label: {**setting, bot_settings.FILE: _relative(setting[bot_settings.FILE], folder, set())}
            if isinstance(setting, dict) and bot_settings.FILE in setting else setting
            for label, setting in bots.items()}


def _one_list(key: str, value: Any, game_ids: list[str]) -> bool:
    """A flat list given to a list parameter (one value per seat) is one value, not a grid."""
    return isinstance(value, list) and not any(isinstance(v, list) for v in value) and any(
        getattr(registry.get(g).rules.by_name.get(key), "kind", None) == "ints" for g in game_ids)


def _count(block: dict, tiers: tuple[float, ...] | None) -> int:
    """How many cells `_expand` makes of a (merged) block, counted without making any; a bad
    block counts what it can (0 at worst) and `_expand` then says what is wrong with it."""
    try:
        game_ids = registry.ids() if block["game"] == ALL_GAMES else [block["game"]]
        requested = block.get("players")
        requested = None if requested is None else requested if isinstance(requested, list) else [requested]
        variants = block.get("variants", "standard")
        variants = [v.strip() for v in variants.split(",")] if isinstance(variants, str) else \
            variants if isinstance(variants, list) else [variants]
        lineups = block.get("strategies", DEFAULT_LINEUP)
        grid = {**{k: v for k, v in block.get("set", {}).items() if isinstance(v, list)
                   and not _one_list(k, v, game_ids)}, **block.get("grid", {})}
        points = math.prod(len(values) for values in grid.values())
        total = 0
        for game_id in game_ids:
            game = registry.get(game_id)
            if tiers is not None:
                from simkit.core.ladder import tier_lineups

                n_lineups = len(tier_lineups(game, tiers))
            else:
                n_lineups = 1 if block.get(TOURNAMENT) is not None else len(lineups) if isinstance(lineups, list) \
                    else 1
            width = game.max_players or max(game.players)
            possible = set(game.players).union(*(v.players or () for v in game.rules.variants))
            for variant in variants:
                allowed = game.rules.variant_players(variant)
                own = set(allowed) if allowed is not None else set(game.players)
                counts = requested if requested is not None else sorted(own)
                kept = sum(1 for p in counts if p in possible and p <= width and p in own)
                total += kept * points * n_lineups
        return total
    except Exception:  # noqa: BLE001 (only an estimate: every problem is reported by _expand)
        return 0


def _per_seat(param, value: Any, seats: int, where: str) -> Any:
    """A list parameter's value (one whole number per seat, seat 1 first): a list of at least one
    value per seat of `seats`, the most players the block plays, and at most the parameter's length;
    a shorter list keeps the default's values for the seats past it (seats never played)."""
    length = param.allowed[2]
    if isinstance(value, (list, tuple)) and all(isinstance(v, int) and not isinstance(v, bool) for v in value) \
            and seats <= len(value) <= length:
        return [*value, *list(param.default)[len(value):]] if len(value) < length else value
    counts = f"{seats}" if seats == length else f"{seats} (up to {length})"
    raise InputError(f"{param.name} (in {where}) is one whole number per seat, seat 1 first: at {seats} players "
                     f"give a list of {counts} values like {list(param.default)[:seats]}, got {value!r}")


def _expand(block: dict, top_games: int, where: str, tiers: tuple[float, ...] | None = None) -> list[tuple[dict, str]]:
    """A block's cells (without ids), every value validated. `tiers`: the skill levels of a
    tiers sweep, whose line-ups replace the block's (simkit.core.ladder.tier_lineups)."""
    if "game" not in block:
        raise InputError(f"{where}: a [[study]] block needs game = \"<id>\" (or \"*\" for every game)")
    if not isinstance(block["game"], str):
        raise InputError(f"game in {where} must be a game id, got {block['game']!r}")
    game_ids = registry.ids() if block["game"] == ALL_GAMES else [block["game"]]
    games = _games(block.get("games", top_games), f"games in {where}")
    requested = block.get("players")
    if requested is not None:
        requested = _as_list(requested, "players", where)
        if not all(isinstance(p, int) and not isinstance(p, bool) for p in requested):
            raise InputError(f"players in {where} must be whole numbers, got {block['players']!r}")
    is_range = requested is None or len(requested) > 1
    variants = block.get("variants", "standard")
    variants = _as_list([v.strip() for v in variants.split(",")] if isinstance(variants, str) else variants,
                        "variants", where)
    lineups = _as_list(block.get("strategies", DEFAULT_LINEUP), "strategies", where)
    tournament = block.get(TOURNAMENT)
    fixed = block.get("set", {})
    grid = block.get("grid", {})
    bots = block.get("bots", {})
    for key, value in (("set", fixed), ("grid", grid)):
        if not isinstance(value, dict):
            raise InputError(f"{key} in {where} must be a table like {{ param = value }}, got {value!r}")
    both = sorted(fixed.keys() & grid.keys())
    if both:
        raise InputError(f"{where}: '{both[0]}' is in both set and grid; keep it in one")
    for key, values in grid.items():
        if not isinstance(values, list) or not values:
            raise InputError(f"grid.{key} in {where} must be a non-empty list of values, got {values!r}")
    def one_list(key: str, value) -> bool:  # a flat list given to a list parameter is one value
        return _one_list(key, value, game_ids)

    for key, values in fixed.items():  # a list in `set` (e.g. from --set k=[1,2]) is a grid
        if values == []:
            raise InputError(f"set.{key} in {where} is an empty list; give one value, or a list of values to sweep")
        if isinstance(values, list) and not one_list(key, values):
            grid = {**grid, key: values}
    fixed = {k: v for k, v in fixed.items() if not isinstance(v, list) or one_list(k, v)}

    out = []
    for game_id in game_ids:
        game = registry.get(game_id)
        schema = game.rules
        by_seat = {k: p for k, p in schema.by_name.items() if p.kind == "ints" and (k in fixed or k in grid)}
        if by_seat:  # a list by seat needs a value for each seat the block plays
            seats = min(max(requested) if requested is not None else max(set(game.players).union(
                *(schema.variant_players(v) or () for v in variants if isinstance(v, str)))), *(
                p.allowed[2] for p in by_seat.values()))  # more players than seats is refused below
            fixed = {k: _per_seat(by_seat[k], v, seats, where) if k in by_seat else v for k, v in fixed.items()}
            grid = {k: [_per_seat(by_seat[k], v, seats, where) for v in vs] if k in by_seat else vs
                    for k, vs in grid.items()}
        fixed_ok = schema.validate(fixed, where)
        grid_ok = {k: [schema.validate({k: v}, where)[k] for v in vs] for k, vs in grid.items()}
        bots_ok = game.check_bots(bots, where)
        presets = game.strategy_names(bots_ok)
        resolved_lineups = []
        if tiers is not None:
            from simkit.core.ladder import tier_lineups

            lineups = [",".join(lineup) for lineup in tier_lineups(game, tiers)]
        elif tournament is not None:
            from simkit.core.seating import tournament_lineup

            lineups = [list(tournament_lineup(game, tournament if isinstance(tournament, list) else None,
                                              tournament != "all but random"))]
            twice = sorted({n for n in lineups[0] if lineups[0].count(n) > 1})
            if twice:
                raise InputError(f"a tournament of {game_id} names {twice[0]} twice (in {where}); name each preset "
                                 "once: every preset meets every other")
            if len(lineups[0]) < 2:
                raise InputError(f"a tournament of {game_id} needs at least two presets, got {lineups[0]} "
                                 f"(in {where})")
        for lineup in lineups:
            if not isinstance(lineup, (str, list)):
                raise InputError(f"strategies in {where} must be line-ups like \"a,b\" or [\"a\", \"b\"], "
                                 f"got {lineup!r}")
            names = [n.strip() for n in lineup.split(",")] if isinstance(lineup, str) else list(lineup)
            if not names or not all(isinstance(n, str) and n for n in names):
                raise InputError(f"strategies in {where}: a line-up must name presets, got {lineup!r}")
            names = [game.default_strategy + n[len(DEFAULT_LINEUP):]
                     if n.partition(NOISE_MARK)[0] == DEFAULT_LINEUP else n for n in names]
            for n in names:
                try:
                    preset, _ = parse_strategy(n)
                except ValueError as e:
                    raise InputError(f"strategies in {where}: {e}, e.g. 'merchant@0.25'") from None
                if preset not in presets:
                    raise unknown(f"strategy of {game_id}", preset, presets + [DEFAULT_LINEUP], where)
            resolved_lineups.append(tuple(names))
        used = {label: bots_ok[label] for lineup in resolved_lineups for label in
                sorted({parse_strategy(n)[0] for n in lineup}) if label in bots_ok}
        width = game.max_players or max(game.players)
        possible = set(game.players).union(*(v.players or () for v in schema.variants))
        owns = {}  # each chosen variant's player counts
        for variant in variants:
            if not isinstance(variant, str):
                raise InputError(f"variants in {where} must be names, got {variant!r}")
            schema.variant_overrides(variant, where)  # unknown names and clashes raise here
            allowed = schema.variant_players(variant)
            owns[variant] = set(allowed) if allowed is not None else set(game.players)
        if is_range and requested is not None and block["game"] != ALL_GAMES:
            _refuse_unplayed(game, requested, owns, possible, width, where)
        for variant in variants:
            own = owns[variant]
            counts = requested if requested is not None else sorted(own)
            kept = []
            for p in counts:
                if p not in possible or p > width:
                    if block["game"] == ALL_GAMES:
                        continue
                    raise InputError(f"{game_id} is for {_span(possible)} players, not {p} (in {where})")
                if p not in own:
                    if is_range:
                        continue
                    fits = [v.name for v in schema.variants if v.players and p in v.players]
                    use = f"for {p} players use the variant {fits[0]}: --variant {fits[0]} (variants = " \
                          f"[\"{fits[0]}\"] in a spec)" if fits else None
                    if variant == "standard":
                        raise InputError(f"{game_id} is for {_span(own)} players under its standard rules, not {p} "
                                         f"(in {where}); {use or 'pick a count it allows'}")
                    raise InputError(f"variant {variant} of {game_id} is for {_span(own)} players, not {p} "
                                     f"(in {where}); {use or 'drop the variant or pick a count it allows'}")
                kept.append(p)
            if not kept and not (block["game"] == ALL_GAMES and requested is not None):
                raise InputError(f"variant {variant} of {game_id} allows {_span(own)} players, none of "
                                 f"{requested} (in {where})")
            for p, point, lineup in itertools.product(kept, itertools.product(*grid_ok.values()), resolved_lineups):
                overrides = {**fixed_ok, **dict(zip(grid_ok, point))}
                values = schema.resolve(variant, overrides, where)
                problem = game.check_players(p, values) if game.check_players else None
                if problem:
                    raise InputError(f"{game_id} {p}p {variant}: {problem} (in {where})")
                own = {label: used[label] for label in sorted({parse_strategy(n)[0] for n in lineup}) if label in used}
                out.append(({"game": game_id, "players": p, "variant": variant, "overrides": overrides,
                             "lineup": lineup, "games": games, "bots": own}, where))
    if not out:
        raise InputError(f"{where} makes no cells: no game supports players {requested}")
    return out


def _refuse_unplayed(game, requested: list[int], owns: dict[str, set], possible: set, width: int, where: str) -> None:
    """Several counts named for one game are explicit too: one that no chosen variant plays is refused,
    naming the variant that plays it (a count one chosen variant plays is skipped by the others)."""
    dropped = [p for p in dict.fromkeys(requested) if p in possible and p <= width
               and not any(p in own for own in owns.values())]
    if not dropped:
        return
    counts = ", ".join(map(str, dropped))
    chosen = "under its standard rules" if list(owns) == ["standard"] else \
        f"under the variant{'s' if len(owns) > 1 else ''} " + ", ".join(f"{v} ({_span(own)})" for v, own in owns.items())
    fits = [(v.name, v.players) for v in game.rules.variants if v.players and any(p in v.players for p in dropped)]
    if "standard" not in owns and any(p in game.players for p in dropped):
        fits.insert(0, ("standard", game.players))
    if fits:
        name, plays = fits[0]
        named = [name] if len(dropped) == len(set(requested)) else [*owns, name]
        listed = ", ".join(f'"{v}"' for v in named)
        hint = (f"the variant {name} plays {_span(plays)} players: --variant {','.join(named)} "
                f"(variants = [{listed}] in a spec), or drop {counts} from the players")
    else:
        hint = f"drop {counts} from the players, or pick a variant that plays {'it' if len(dropped) == 1 else 'them'}"
    raise InputError(f"{game.id} is for {_span(set().union(*owns.values()))} players {chosen}, not {counts} "
                     f"(in {where}); {hint}")


def _with_ids(raw: list[tuple[dict, str]]) -> list[Cell]:
    """Cells with readable, unique ids (see the module docstring)."""
    by_game: dict[str, list[dict]] = {}
    for fields, _ in raw:
        by_game.setdefault(fields["game"], []).append(fields)
    varying: dict[str, tuple[set, bool]] = {}
    for game_id, rows in by_game.items():
        keys = {k for r in rows for k in r["overrides"]}
        keys = {k for k in keys if len({json.dumps(r["overrides"].get(k, None)) for r in rows}) > 1}
        varying[game_id] = (keys, len({r["lineup"] for r in rows}) > 1)

    folders = _folder_names({v for fields, _ in raw for v in fields["overrides"].values()
                             if isinstance(v, str) and ("/" in v or "\\" in v)})
    cells, seen = [], {}
    for fields, where in raw:
        keys, lineups_vary = varying[fields["game"]]
        order = [p.name for p in registry.get(fields["game"]).rules.params]
        parts = [f"{fields['game']}-{fields['players']}p-{fields['variant']}"]
        parts += [f"{k}={folders.get(fields['overrides'][k]) or _id_value(fields['overrides'][k])}"
                  for k in order if k in keys and k in fields["overrides"]]
        if lineups_vary:
            parts.append(",".join(fields["lineup"]))
        parts += [f"{label}.{k}={v:g}" for label, setting in fields["bots"].items() for k, v in setting.items()
                  if k != bot_settings.BASE]
        cell_id = "-".join(parts)
        if cell_id in seen:
            raise InputError(f"cell {cell_id} is asked for twice ({seen[cell_id]} and {where}); drop one")
        seen[cell_id] = where
        cells.append(Cell(id=cell_id, **fields))
    return cells


def _folder_names(paths: set[str]) -> dict[str, str]:
    """A short name for each designer folder of a sweep: its last path part, or as many of its
    last parts as tell it apart from the others (a/cards and b/cards are a/cards and b/cards)."""
    names = {}
    for path in paths:
        parts = Path(path).parts
        for n in range(1, len(parts) + 1):
            tail = parts[-n:]
            if not any(Path(other).parts[-n:] == tail for other in paths if other != path):
                break
        names[path] = "/".join(tail)
    return names


def _id_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):  # a list parameter: 600-700-800-900
        return "-".join(str(v) for v in value)
    if isinstance(value, str) and ("/" in value or "\\" in value):  # a designer's folder: its name
        return Path(value).name
    return str(value)
