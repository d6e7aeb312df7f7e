"""Rule parameters: declared once, validated, listed, and compiled for the engine.

Every game declares its rule parameters as a tuple of `Param` (default, allowed values,
meaning, source) and its named variants as sets of overrides. Everything else derives
from that one declaration: TOML/`--set` validation, `simkit rules`, and the typed
NamedTuple the numba engine receives.
"""

from __future__ import annotations

import collections
import hashlib
import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from simkit.core.errors import InputError, unknown

DESIGNER_KNOB = "designer knob"  # Param.source of a compensation lever that is not a rule (simkit tune)

@dataclass(frozen=True)
class Param:
    """One rule parameter.

    kind: "int", "float", "bool", "choice", "ints" or "components". `allowed` is (low,
    high) inclusive for int/float, (low, high, length) for ints (a fixed-length list of
    whole numbers, e.g. starting gold per seat), the tuple of names for choice, (base
    folder, set names...) for components (see simkit.core.components), and ignored for bool.
    An ints parameter reaches the engine as fields `<name>_1` .. `<name>_<length>`. `source` is a rulebook
    section ("Final Scoring") or an assumption id ("A7"). A components parameter chooses
    files, not a value the engine reads: it stays out of the engine tuple; `validate` checks
    its value (simkit.core.components.component_param sets it, so this module needs no import of
    that one). `readings`: for a parameter that settles an unsourced assumption, the other values
    the rulebook could also mean; the robustness phase measures every headline finding again
    under each (simkit.sweeps.robustness), as it does under each shipped component set.
    """

    name: str
    kind: str
    default: Any
    allowed: tuple = ()
    meaning: str = ""
    source: str = ""
    validate: Callable[[Any, str], Any] | None = field(default=None, compare=False, repr=False)
    readings: tuple = ()

    def __post_init__(self):
        for value in self.readings:
            if self.kind not in ("bool", "choice") or self.check(value, "") == self.default:
                raise ValueError(f"{self.name}: a reading is another allowed value of a bool or choice "
                                 f"parameter, got {value!r}")

    @property
    def knob(self) -> bool:
        """A designer knob (e.g. starting resources by seat): not a rulebook rule, but a
        lever a designer would pull to compensate seats; its default plays the rulebook."""
        return self.source == DESIGNER_KNOB

    def allowed_text(self) -> str:
        if self.kind == "bool":
            return "true|false"
        if self.kind == "choice":
            return "|".join(self.allowed)
        if self.kind == "components":
            return "|".join(self.allowed[1:]) + "|<folder>"
        if self.kind == "ints":
            return f"{self.allowed[2]} x {self.allowed[0]}..{self.allowed[1]}"
        return f"{self.allowed[0]}..{self.allowed[1]}"

    def check(self, value: Any, where: str) -> Any:
        """The value cast to this parameter's type, or an InputError naming the range."""
        name = f"{self.name} (in {where})" if where else self.name
        if self.kind == "bool":
            if isinstance(value, str) and value.lower() in ("true", "1", "yes", "on", "false", "0", "no", "off"):
                return value.lower() in ("true", "1", "yes", "on")
            if isinstance(value, (bool, np.bool_)) or value in (0, 1):
                return bool(value)
            raise InputError(f"{name} must be true or false, got {value!r}")
        if self.kind == "components":
            return self.validate(value, where)
        if self.kind == "ints":
            low, high, length = self.allowed
            if not isinstance(value, (list, tuple)) or len(value) != length or not all(
                    isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in value):
                raise InputError(f"{name} must be a list of {length} whole numbers like "
                                 f"{list(self.default)}, got {value!r}")
            if not all(low <= v <= high for v in value):
                raise InputError(f"{name} = {list(value)} is out of range; each must be in {low}..{high}")
            return tuple(int(v) for v in value)
        if self.kind == "choice":
            if value not in self.allowed:
                raise unknown(f"value for {self.name}", value, self.allowed, where)
            return value
        caster = int if self.kind == "int" else float
        try:
            if isinstance(value, (bool, list, tuple, dict)):
                raise TypeError
            number = caster(value)
            if self.kind == "int" and isinstance(value, float) and number != value:
                raise ValueError
            if not math.isfinite(number):
                raise ValueError
        except (TypeError, ValueError, OverflowError):
            hint = ""
            if isinstance(value, str) and "," in value:
                hint = f"; to sweep several values write a TOML list: {self.name}=[{value}]"
            raise InputError(f"{name} must be {'an integer' if self.kind == 'int' else 'a finite number'} in "
                             f"{self.allowed_text()}, got {value!r}{hint}") from None
        low, high = self.allowed
        if not low <= number <= high:
            raise InputError(f"{name} = {number} is out of range; allowed {self.allowed_text()}")
        return number

    def engine_fields(self) -> list[str]:
        """The engine tuple's field names for this parameter (none for components)."""
        if self.kind == "components":
            return []
        if self.kind == "ints":
            return [f"{self.name}_{i + 1}" for i in range(self.allowed[2])]
        return [self.name]

    def engine_values(self, value: Any) -> list:
        if self.kind == "ints":
            return [np.int64(v) for v in value]
        return [self.engine_value(value)] if self.kind != "components" else []

    def engine_value(self, value: Any):
        """The value as the engine sees it: int64 (bool -> 0/1, choice -> index) or float64."""
        if self.kind == "float":
            return np.float64(value)
        if self.kind == "choice":
            return np.int64(self.allowed.index(value))
        return np.int64(int(value))


@dataclass(frozen=True)
class Variant:
    """A named set of overrides, with the player counts it is meant for (None: any)."""

    name: str
    overrides: dict
    meaning: str
    players: tuple[int, ...] | None = None


@dataclass
class RuleSchema:
    """A game's rule parameters and named variants.

    `tuple_type` is the NamedTuple class the engine receives; it is created here, at
    import time of the game's rules module, and registered as `simkit.core.rules.<Game>Rules`
    so numba's on-disk cache can key on it.
    """

    game: str
    params: tuple[Param, ...]
    variants: tuple[Variant, ...] = ()
    tuple_type: type = field(init=False)

    def __post_init__(self):
        names = [p.name for p in self.params]
        if len(set(names)) != len(names):
            raise ValueError(f"{self.game}: a rule parameter is declared twice")
        for p in self.params:
            p.check(p.default, "defaults")
        self.by_name = {p.name: p for p in self.params}
        self.variant_by_name = {v.name: v for v in self.variants}
        for v in self.variants:
            self.validate(v.overrides, f"variant {v.name}")
        title = "".join(w.title() for w in self.game.split("_")) + "Rules"
        # numba's on-disk cache pickles the argument types by reference: the class must be
        # importable under its module and name, or every process misses the cache and
        # recompiles. Registering it here works for games outside simkit/games too.
        self.tuple_type = collections.namedtuple(title, [f for p in self.params for f in p.engine_fields()],
                                                 module=__name__)
        globals()[title] = self.tuple_type

    def variant_names(self) -> list[str]:
        return ["standard"] + [v.name for v in self.variants]

    def validate(self, overrides: dict, where: str = "") -> dict:
        """Overrides checked against the schema: unknown names and bad values raise."""
        out = {}
        for key, value in overrides.items():
            if key not in self.by_name:
                raise unknown(f"rule parameter for {self.game}", key, self.by_name, where)
            out[key] = self.by_name[key].check(value, where)
        return out

    def variant_overrides(self, variant: str, where: str = "") -> dict:
        """The overrides of a variant; 'a+b' combines variants (a later one wins nothing: a clash is an error)."""
        if variant in ("standard", None):
            return {}
        place = f" in {where}" if where else ""
        if not isinstance(variant, str) or not variant.strip():
            raise InputError(f"empty variant name{place}; use 'standard' or one of: {', '.join(self.variant_names())}")
        out: dict = {}
        parts = variant.split("+")
        twice = next((part for k, part in enumerate(parts) if part in parts[:k]), None)
        if twice is not None:
            raise InputError(f"variant '{twice}' is named twice in '{variant}'{place}; name it once")
        for part in parts:
            if part == "standard":  # the rules as written: nothing to combine
                others = "+".join(q for q in dict.fromkeys(parts) if q != "standard") or "standard"
                raise InputError(f"variant '{variant}'{place}: 'standard' is the rules as written and combines with "
                                 f"no variant; write '{others}'")
            if part not in self.variant_by_name:
                raise unknown(f"variant of {self.game}", part, self.variant_names(), where)
            for key, value in self.variant_by_name[part].overrides.items():
                if key in out and out[key] != value:
                    raise InputError(f"variants in '{variant}' disagree on {key}{' in ' + where if where else ''}")
                out[key] = value
        return out

    def variant_players(self, variant: str) -> set[int] | None:
        """The player counts a (possibly combined) variant allows, or None for any."""
        allowed = None
        for part in (variant or "standard").split("+"):
            v = self.variant_by_name.get(part)
            if v is not None and v.players is not None:
                allowed = set(v.players) if allowed is None else allowed & set(v.players)
        return allowed

    def resolve(self, variant: str = "standard", overrides: dict | None = None, where: str = "") -> dict:
        """Every parameter's value: defaults, then the variant, then explicit overrides."""
        values = {p.name: p.default for p in self.params}
        values.update(self.variant_overrides(variant, where))
        values.update(self.validate(overrides or {}, where))
        return values

    def engine_tuple(self, values: dict):
        """The typed NamedTuple for the engine (each field cast to its declared type)."""
        return self.tuple_type(*(v for p in self.params for v in p.engine_values(values[p.name])))

    def listing(self, variant: str = "standard") -> list[dict]:
        """Rows for `simkit rules`: name, default (under the variant), allowed, meaning, source."""
        values = self.resolve(variant)
        return [
            {"name": p.name, "default": list(values[p.name]) if p.kind == "ints" else values[p.name],
             "allowed": p.allowed_text(), "meaning": p.meaning, "source": p.source}
            for p in self.params
        ]


def rules_hash(game: str, values: dict, component_bytes: bytes = b"") -> str:
    """A short, stable hash of a resolved rule set and its component files."""
    h = hashlib.sha256()
    h.update(game.encode())
    h.update(json.dumps(values, sort_keys=True, default=str).encode())
    h.update(component_bytes)
    return h.hexdigest()[:16]
