"""Bot parameters as data (docs/reference/spec.md): declared once, validated, listed, set per seat.

A game's bots are one compiled policy read from a row of weights; a preset is a named row.
Each weight or threshold the policy reads is declared as a `BotParam` (its slot in the row,
its range, what it means), like a rule parameter. From that one declaration come the
validation of a spec's `[bots.<label>]` tables and `--bot` options, `simkit strategies`,
the search space of `simkit train`, and the `tuned` preset read from a data file.

A bot setting is a label and a table: `{"preset": base, param: value, ...}`. A label that
names a preset changes that preset for the cell; any other label is a new strategy built
from `preset`, usable in line-ups (with a noise suffix too: `label@0.25`). Settings are
recorded in the cell, the resolved spec, the manifest and the rules hash.

A setting may instead read its preset and parameters from a file that `simkit train` wrote
(`file = "reports/train-.../tuned.toml"`, or `--bot mine:file=...`; a training folder
stands for the tuned.toml in it): `mine` then plays the trained preset without it being
installed in the game's package (docs/tuning.md). The values read are what is recorded.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simkit.core.errors import InputError, did_you_mean

RANDOM, HEURISTIC, LOOKAHEAD = "random", "heuristic", "lookahead"  # Preset.kind
KINDS = (RANDOM, HEURISTIC, LOOKAHEAD)
# Slot 0 of every weight row (each game's POLICY) holds the policy that plays the row, as a code
# the engines compare with: a random preset's row RANDOM_POLICY, a heuristic's HEURISTIC_POLICY,
# a lookahead-kind preset's LOOKAHEAD_POLICY (Game checks each preset's code against its kind).
RANDOM_POLICY, HEURISTIC_POLICY, LOOKAHEAD_POLICY = 0.0, 1.0, 2.0
POLICY_CODES = {RANDOM: RANDOM_POLICY, HEURISTIC: HEURISTIC_POLICY, LOOKAHEAD: LOOKAHEAD_POLICY}
BASE = "preset"  # the key of a bot setting that names the preset it starts from
TUNED = "tuned"  # the preset `simkit train` writes (a data file in the game's package)
TUNED_FILE = "tuned.toml"
FILE = "file"  # the key of a bot setting that reads its preset and parameters from a tuned.toml
TUNED_KEYS = (BASE, "params", "game")  # what a tuned.toml holds (simkit.search.train.write_tuned)
_LABEL = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
MAX_LABEL = 40


@dataclass(frozen=True)
class BotParam:
    """One weight or threshold of a game's policy.

    slot: its column in a strategy row. low..high: the values a spec may set and `simkit
    train` searches (inclusive). integer: the policy reads it as a count or a switch, so
    only whole numbers are allowed. reader: HEURISTIC if every heuristic preset reads it
    (the lookahead too, for its other decisions and its rollouts), LOOKAHEAD if only the
    lookahead tier does (rollouts, candidates, horizon).
    """

    name: str
    slot: int
    low: float
    high: float
    meaning: str
    integer: bool = False
    reader: str = HEURISTIC

    def __post_init__(self):
        if not self.low <= self.high:
            raise ValueError(f"bot parameter {self.name}: low {self.low} above high {self.high}")
        if self.reader not in (HEURISTIC, LOOKAHEAD):
            raise ValueError(f"bot parameter {self.name}: reader must be {HEURISTIC} or {LOOKAHEAD}")

    def range_text(self) -> str:
        return f"{self.low:g}..{self.high:g}" + (" (whole)" if self.integer else "")

    def check(self, value: Any, where: str) -> float:
        """The value as a float, or an InputError naming the range."""
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise InputError(f"bot parameter {self.name} (in {where}) must be a number in {self.range_text()}, "
                             f"got {_short(value)}")
        if not self.low <= value <= self.high:
            raise InputError(f"bot parameter {self.name} (in {where}) must be in {self.range_text()}, got {value!r}")
        if self.integer and value != int(value):
            raise InputError(f"bot parameter {self.name} (in {where}) must be a whole number in "
                             f"{self.range_text()}, got {value!r}")
        return float(value)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:40]}... ({len(text)} characters)"


def params_for(kind: str, params: Iterable[BotParam]) -> tuple[BotParam, ...]:
    """The parameters a preset of this kind reads."""
    if kind == RANDOM:
        return ()
    return tuple(p for p in params if kind == LOOKAHEAD or p.reader == HEURISTIC)


def check_settings(bots: Any, presets: dict[str, tuple[str, tuple[float, ...]]], params: tuple[BotParam, ...],
                   where: str, game: str | None = None) -> dict[str, dict]:
    """Validated bot settings: {label: {"preset": base, param: value}} with sorted keys.

    presets: {name: (kind, weights)} of the game (`game`, its id). A setting with `file` takes
    its preset and parameters from that tuned.toml (its other keys win). Raises InputError
    naming the label, the key and what is allowed.
    """
    if not isinstance(bots, dict):
        raise InputError(f"bots in {where} must be a table of labels like {{ greedy = {{ preset = \"merchant\", "
                         f"... }} }}, got {_short(bots)}")
    out: dict[str, dict] = {}
    for label in sorted(bots):
        setting = bots[label]
        here = f"{where} bots.{label}"
        if not isinstance(label, str) or not _LABEL.match(label) or len(label) > MAX_LABEL:
            raise InputError(f"bot label {_short(label)} in {where} must be a name of letters, digits and _ "
                             f"(at most {MAX_LABEL} characters, starting with a letter)")
        if not isinstance(setting, dict):
            raise InputError(f"{here} must be a table of parameter values, got {_short(setting)}")
        if FILE in setting:
            setting = _from_file(setting, here, game)
        base = setting.get(BASE, label if label in presets else None)
        if base is None:
            raise InputError(f"{here}: a new label needs {BASE} = \"<name>\", the preset it starts from; presets: "
                             f"{', '.join(presets)}{did_you_mean(label, presets)}")
        if not isinstance(base, str) or base not in presets:
            raise InputError(f"{here}: unknown preset {_short(base)}{did_you_mean(str(base), presets)}; "
                             f"presets: {', '.join(presets)}")
        if label in presets and base != label:
            raise InputError(f"{here}: '{label}' is a preset; to start a new strategy from {base}, give it a new "
                             f"label")
        kind = presets[base][0]
        allowed = {p.name: p for p in params_for(kind, params)}
        values = {}
        for key in sorted(k for k in setting if k != BASE):
            if key not in allowed:
                if not allowed:
                    raise InputError(f"{here}: preset {base} has no parameters (it plays uniformly at random)")
                raise InputError(f"{here}: unknown parameter '{key}' of {base}{did_you_mean(key, allowed)}; "
                                 f"known: {', '.join(allowed)}")
            values[key] = allowed[key].check(setting[key], here)
        out[label] = {BASE: base, **values}
    return out


def _from_file(setting: dict, here: str, game: str | None) -> dict:
    """A bot setting with `file`: the preset and parameters of that tuned.toml, then the setting's own."""
    from simkit.core import files

    text = setting[FILE]
    if not isinstance(text, str) or not text.strip():
        raise InputError(f"{here}: {FILE} must be the path of a tuned.toml that simkit train wrote, got "
                         f"{_short(text)}")
    path = files.expand_user(text, f"{here} {FILE}")
    if files.kind_of(path, f"{here} {FILE}") == "dir":  # a training folder: its tuned.toml
        path = path / TUNED_FILE
    shown = files.shown(str(path))
    data = files.parse_toml(files.read_text(path, f"{here}: {FILE} {shown}"), shown)
    if set(data) - set(TUNED_KEYS) or not isinstance(data.get(BASE), str) or not isinstance(data.get("params"), dict):
        raise InputError(f"{here}: {shown} is not a tuned.toml of simkit train (it holds {BASE} = \"<name>\", a "
                         "[params] table and the game's id); point file at one")
    if game is not None and data.get("game", game) != game:
        raise InputError(f"{here}: {shown} was trained for {data['game']}, not {game}; point file at a training "
                         f"of {game}")
    if BASE in setting and setting[BASE] != data[BASE]:
        raise InputError(f"{here}: {shown} trained {data[BASE]}, but {BASE} = {_short(setting[BASE])}; drop {BASE} "
                         "(the file names its preset)")
    return {BASE: data[BASE], **data["params"], **{k: v for k, v in setting.items() if k not in (FILE, BASE)}}


def apply(weights: tuple[float, ...], setting: dict, params: tuple[BotParam, ...]) -> tuple[float, ...]:
    """A preset's row with a setting's parameter values written into their slots."""
    row = list(weights)
    by_name = {p.name: p for p in params}
    for key, value in setting.items():
        if key == BASE:
            continue
        slot = by_name[key].slot
        row += [0.0] * (slot + 1 - len(row))
        row[slot] = float(value)
    return tuple(row)


def parse_option(text: str) -> tuple[str, dict]:
    """One `--bot` option: 'LABEL:key=value,key=value' -> (label, {key: value}).

    'merchant:sell_at=400' changes the merchant; 'greedy:preset=merchant,sell_at=400' makes a
    new strategy 'greedy' for line-ups.
    """
    label, colon, rest = text.partition(":")
    label = label.strip()
    if not colon or not label or not rest.strip():
        raise InputError(f"--bot '{_short(text)[1:-1]}' must look like LABEL:key=value,key=value, e.g. "
                         "--bot greedy:preset=merchant,sell_at=400 or --bot merchant:sell_at=400")
    setting: dict[str, Any] = {}
    for item in rest.split(","):
        key, eq, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not eq or not key or not value:
            raise InputError(f"--bot {label}: '{item.strip()}' must be key=value")
        if key in setting:
            raise InputError(f"--bot {label}: '{key}' is given twice")
        if key in (BASE, FILE):  # a preset's name, a file's path: text
            setting[key] = value
            continue
        try:
            setting[key] = float(value)
        except ValueError:
            raise InputError(f"--bot {label}: {key} must be a number, got {_short(value)}") from None
    return label, setting


def merge_options(options: list[str] | None) -> dict[str, dict]:
    """Every `--bot` option as one settings table (a label given twice is refused)."""
    out: dict[str, dict] = {}
    for text in options or []:
        label, setting = parse_option(text)
        if label in out:
            raise InputError(f"--bot {label} is given twice; put its parameters in one option: "
                             f"--bot {label}:a=1,b=2")
        out[label] = setting
    return out


def read_tuned(folder: Path, params: tuple[BotParam, ...],
               presets: dict[str, tuple[str, tuple[float, ...]]]) -> tuple[str, tuple[float, ...]] | None:
    """(base preset, weights) of the game's tuned preset from `folder/tuned.toml`, or None.

    The file is written by `simkit train` (simkit.search.train.write_tuned); a damaged one is an
    error, since every sweep of the game would otherwise play other bots than it says.
    """
    path = folder / TUNED_FILE
    if not path.is_file():
        return None
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise InputError(f"{path} is not valid TOML ({e}); restore it from git or rerun simkit train") from None
    unknown = set(data) - set(TUNED_KEYS)
    if unknown or BASE not in data or not isinstance(data.get("params"), dict):
        raise InputError(f"{path} must hold {BASE} = \"<name>\" and a [params] table only; restore it from git")
    setting = check_settings({TUNED: {BASE: data[BASE], **data["params"]}}, presets, params, str(path))[TUNED]
    return setting[BASE], apply(presets[setting[BASE]][1], setting, params)
