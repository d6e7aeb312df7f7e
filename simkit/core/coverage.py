"""A game's rules coverage and assumption register, kept as data.

Each game package holds `coverage.toml`: one `[[rule]]` table per id of the game's rule
inventory (rules, gaps and contradictions), saying what the engine does with it, where in
the code that happens and which test fails when it is broken, and one `[[assumption]]` table
per registered assumption `A<n>`. The documentation site renders both into the game's page
(docs/hooks.py); tests/test_coverage.py checks that every cited file, function, test, rule
parameter and assumption exists and that every id of the inventory is answered.

A reference to code or a test is `path` or `path::name`, the path relative to the repository's
top folder and the name a function or class defined in that file (`Class::method` for a method).
"""

from __future__ import annotations

import ast
import re
import tomllib
from dataclasses import MISSING, dataclass, field
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FILE = "coverage.toml"

STATUSES = ("implemented", "parameter", "assumption", "structural", "n/a", "not modelled")
# statuses that describe something the engine plays, and so cite where in the code it happens
PLAYED = ("implemented", "parameter", "structural")
# statuses that need a reason in `why`: nothing to test, or nothing played
NEED_WHY = ("structural", "n/a", "not modelled")

_ID = re.compile(r"^(?P<prefix>[A-Z]{2,4})-(?:(?P<rule>\d{3})|G(?P<gap>\d+)|X(?P<contradiction>\d+))$")
_A = re.compile(r"^A\d+$")


class CoverageError(ValueError):
    """A coverage file that does not follow the schema above."""


@dataclass(frozen=True)
class Rule:
    id: str
    rule: str  # the rule in the project's own short words
    status: str
    detail: str = ""  # how the engine reads it, where that needs saying
    params: tuple[str, ...] = ()  # the rule parameters that set it (status parameter)
    assumption: tuple[str, ...] = ()  # the register's ids that answer it
    code: tuple[str, ...] = ()
    tests: tuple[str, ...] = ()
    why: str = ""  # the reason for n/a, not modelled, structural, or played without a test


@dataclass(frozen=True)
class Assumption:
    id: str
    rulebook: str  # what the rulebook says or leaves out (own words, section cited)
    assumes: str  # what simkit plays
    why: str
    control: str = ""  # how a designer changes it: a parameter, a component file or set
    params: tuple[str, ...] = ()
    components: tuple[str, ...] = ()  # component files or alt- sets, relative to the game's components/
    answers: tuple[str, ...] = ()  # inventory ids (gaps, contradictions) this reading answers


@dataclass(frozen=True)
class Coverage:
    game: str
    prefix: str
    counts: dict  # {"rules": n, "gaps": n, "contradictions": n}: the inventory's ids
    rules: tuple[Rule, ...]
    assumptions: tuple[Assumption, ...]
    path: Path = field(compare=False)

    def expected_ids(self) -> list[str]:
        """Every id the inventory numbers, from the counts this file declares."""
        p, c = self.prefix, self.counts
        return ([f"{p}-{i:03d}" for i in range(1, c["rules"] + 1)]
                + [f"{p}-G{i}" for i in range(1, c["gaps"] + 1)]
                + [f"{p}-X{i}" for i in range(1, c["contradictions"] + 1)])

    def by_status(self) -> dict[str, int]:
        counts = {s: 0 for s in STATUSES}
        for r in self.rules:
            counts[r.status] += 1
        return counts


def _tuple(value, where: str) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise CoverageError(f"{where}: expected a string or a list of strings, got {value!r}")
    return tuple(value)


def _record(cls, table: dict, where: str):
    names = {f for f in cls.__dataclass_fields__}
    unknown = sorted(set(table) - names)
    if unknown:
        raise CoverageError(f"{where}: unknown key(s) {', '.join(unknown)}; known: {', '.join(sorted(names))}")
    values = {}
    for name, f in cls.__dataclass_fields__.items():
        if name not in table:
            if f.default is MISSING:
                raise CoverageError(f"{where}: missing key '{name}'")
            continue
        value = table[name]
        if f.type == "tuple[str, ...]":
            value = _tuple(value, f"{where}.{name}")
        elif not isinstance(value, str):
            raise CoverageError(f"{where}.{name}: expected a string, got {value!r}")
        values[name] = value
    return cls(**values)


def parse(path: Path) -> Coverage:
    """Read and check the shape of one coverage file (not yet its references: see `problems`)."""
    with open(path, "rb") as f:
        data = tomllib.load(f)
    where = str(path)
    for key in ("game", "prefix", "rules", "gaps", "contradictions"):
        if key not in data:
            raise CoverageError(f"{where}: missing top-level key '{key}'")
    rules = tuple(_record(Rule, t, f"{where}: rule {t.get('id', i)}") for i, t in enumerate(data.get("rule", [])))
    assumptions = tuple(_record(Assumption, t, f"{where}: assumption {t.get('id', i)}")
                        for i, t in enumerate(data.get("assumption", [])))
    return Coverage(game=data["game"], prefix=data["prefix"],
                    counts={k: int(data[k]) for k in ("rules", "gaps", "contradictions")},
                    rules=rules, assumptions=assumptions, path=path)


def path_of(game_id: str) -> Path:
    return ROOT / "simkit" / "games" / game_id / FILE


@cache
def load(game_id: str) -> Coverage:
    return parse(path_of(game_id))


@cache
def _names_in(path: Path) -> frozenset[str]:
    """Every function and class defined in a Python file, as `name` and `Class::method`,
    and every module-level assignment (a constant a rule lives in)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    names = set()

    def walk(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(prefix + child.name)
                walk(child, prefix + child.name + "::" if isinstance(child, ast.ClassDef) else prefix)
            elif prefix == "" and isinstance(child, (ast.Assign, ast.AnnAssign)):
                targets = child.targets if isinstance(child, ast.Assign) else [child.target]
                names.update(t.id for t in targets if isinstance(t, ast.Name))
            elif isinstance(child, (ast.If, ast.Try, ast.With)):
                walk(child, prefix)

    walk(tree, "")
    return frozenset(names)


def reference_problem(ref: str, must_be_test: bool = False) -> str | None:
    """What is wrong with a `path` or `path::name` reference, or None."""
    path, _, name = ref.partition("::")
    file = ROOT / path
    if not file.is_file():
        return f"{ref}: no file {path}"
    if must_be_test and not (path.startswith("tests/") and name.split("::")[-1].startswith("test")):
        return f"{ref}: not a test (tests/...py::test_...)"
    if name:
        if file.suffix != ".py":
            return f"{ref}: names '{name}' in a file that is not Python"
        if name not in _names_in(file):
            return f"{ref}: {path} defines no '{name}'"
    return None


def inventory_ids(path: Path) -> list[str]:
    """The ids of a rule inventory: the first column of its rule tables, and the bold id that
    opens each item of its lists of gaps and contradictions (`- **SOP-G1** — ...`)."""
    ids = []
    row = re.compile(r"^\|\s*\**([A-Z]{2,4}-(?:\d{3}|G\d+|X\d+))\**\s*\|")
    item = re.compile(r"^\s*[-*]\s+\*\*([A-Z]{2,4}-(?:\d{3}|G\d+|X\d+))\*\*")
    for line in path.read_text().splitlines():
        m = row.match(line) or item.match(line)
        if m:
            ids.append(m.group(1))
    return ids


def problems(cov: Coverage, params: set[str], component_names: set[str]) -> list[str]:
    """Every inconsistency of a coverage file: ids missing, repeated or out of the inventory's
    numbering, a status without what it needs, a reference to a file, function, test, rule
    parameter, component or assumption that does not exist."""
    out = []
    ids = [r.id for r in cov.rules]
    expected = cov.expected_ids()
    seen = set()
    for i in ids:
        if i in seen:
            out.append(f"{i}: answered twice")
        seen.add(i)
    missing = [i for i in expected if i not in seen]
    extra = [i for i in ids if i not in set(expected)]
    if missing:
        out.append(f"{len(missing)} inventory id(s) not answered: {', '.join(missing[:10])}")
    if extra:
        out.append(f"id(s) outside the declared numbering: {', '.join(extra[:10])}")
    registered = {a.id for a in cov.assumptions}
    for a in cov.assumptions:
        if not _A.match(a.id):
            out.append(f"assumption {a.id}: ids are A<n>")
        out += _unknown(f"assumption {a.id}", a.params, params, "no rule parameter")
        out += _unknown(f"assumption {a.id}", a.components, component_names, "no component file or set")
        out += _unknown(f"assumption {a.id}", a.answers, seen, "answers no id of this file:")
    if len(registered) != len(cov.assumptions):
        out.append("an assumption id is registered twice")
    for r in cov.rules:
        m = _ID.match(r.id)
        if not m or m.group("prefix") != cov.prefix:
            out.append(f"{r.id}: not an id of the form {cov.prefix}-001, {cov.prefix}-G1, {cov.prefix}-X1")
        if r.status not in STATUSES:
            out.append(f"{r.id}: status '{r.status}' is none of {', '.join(STATUSES)}")
            continue
        if r.status == "parameter" and not r.params:
            out.append(f"{r.id}: status parameter names no rule parameter (params)")
        if r.status == "assumption" and not r.assumption:
            out.append(f"{r.id}: status assumption names no assumption id")
        if r.status in PLAYED and not r.code:
            out.append(f"{r.id}: status {r.status} cites no code")
        if r.status in NEED_WHY and not r.why:
            out.append(f"{r.id}: status {r.status} needs a reason (why)")
        if r.status in ("implemented", "parameter") and not r.tests and not r.why:
            out.append(f"{r.id}: {r.status} without a test needs a reason (why)")
        out += _unknown(r.id, r.params, params, "no rule parameter")
        out += _unknown(r.id, r.assumption, registered, "no registered assumption")
        for ref in r.code:
            if (problem := reference_problem(ref)):
                out.append(f"{r.id}: {problem}")
        for ref in r.tests:
            if (problem := reference_problem(ref, must_be_test=True)):
                out.append(f"{r.id}: {problem}")
    return out


def _unknown(owner: str, names: tuple[str, ...], known, what: str) -> list[str]:
    return [f"{owner}: {what} '{name}'" for name in names if name not in known]


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _refs(refs: tuple[str, ...]) -> str:
    return "<br>".join(f"`{r}`" for r in refs)


def render_assumptions(cov: Coverage) -> str:
    rows = ["| id | the rulebook | what simkit plays | why | how to change it |", "|---|---|---|---|---|"]
    for a in cov.assumptions:
        control = a.control or ", ".join([f"`{p}`" for p in a.params] + [f"`{c}`" for c in a.components]) or "—"
        answers = f" ({', '.join(a.answers)})" if a.answers else ""
        rows.append(f"| {a.id} | {_cell(a.rulebook)}{answers} | {_cell(a.assumes)} | {_cell(a.why)} | {_cell(control)} |")
    return "\n".join(rows) + "\n"


def _status(r: Rule) -> str:
    if r.status == "parameter":
        return "parameter (" + ", ".join(f"`{p}`" for p in r.params) + ")"
    if r.status == "assumption":
        return "assumption (" + ", ".join(r.assumption) + ")"
    return r.status


def summary(cov: Coverage) -> str:
    """How the inventory is answered, in one line: "278 ids: 173 implemented, 23 parameter, ..."."""
    return f"{len(cov.rules)} ids: " + ", ".join(f"{n} {s}" for s, n in cov.by_status().items() if n)


def render_rules(cov: Coverage) -> str:
    rows = [summary(cov) + ".", "",
            "| id | rule | status | where in the code | test |", "|---|---|---|---|---|"]
    for r in cov.rules:
        what = _cell(r.rule + (f" — {r.detail}" if r.detail else ""))
        tests = _refs(tuple(t.removeprefix("tests/") for t in r.tests)) or _cell(r.why)
        code = _refs(tuple(c.removeprefix("simkit/games/") for c in r.code))
        rows.append(f"| {r.id} | {what} | {_status(r)} | {code} | {tests} |")
    return "\n".join(rows) + "\n"
