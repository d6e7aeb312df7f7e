"""Break each rule of a game in a scratch copy, one mutant at a time, and check that the
game's tests go red without the golden replay (docs/architecture.md, "Adding a game": a rule test fails when its rule is
broken; a golden replay is regenerated on every deliberate change, so it guards nothing).

    make mutants                                           # every game, every mutant
    .venv/bin/python tests/mutants/run.py tide_of_avaris   # one game
    .venv/bin/python tests/mutants/run.py set_sail --only SS-101,SS-140 --jobs 2
    .venv/bin/python tests/mutants/run.py --list           # the mutants, not run

Each game's mutants live in `tests/mutants/<game>.toml`, one `[[mutant]]` table each:

    [[mutant]]
    id = "TOA-192"                     # the inventory id of the rule it breaks
    area = "economy"                   # set-up | turn | movement | combat | economy | scoring | end
    what = "Recycle takes only exhausted dice"
    file = "simkit/games/tide_of_avaris/actions.py"
    old = '''exact text, found exactly once in the file'''
    new = '''its replacement'''
    caught_by = ["tests/games/tide_of_avaris/test_actions.py::test_recycle_takes_any_two_dice"]

The copy holds the working tree's files (tracked and untracked, not ignored) in a temporary
folder. For each mutant the runner writes `new` in place of `old`, gives the copy a fresh
numba cache (numba would otherwise load machine code compiled from the unbroken source),
runs the `caught_by` tests, then, if they pass, every test of the game but the golden replay
(`-k "not golden"`, stopping at the first failure). A mutant is **caught** when a test fails,
**caught elsewhere** when only a test outside `caught_by` fails (the coverage table should cite
that one), **survived** when everything passes, and **stale** when `old` no longer occurs
exactly once. The unbroken copy runs the `caught_by` tests first: a test that fails on the
real rules catches nothing.

Not part of `.ci/run`: each mutant compiles the game's engine again (a minute or two).
Exit 0 when every mutant run was caught, 1 otherwise.

Drawn mutants (`--random N --seed S`)
-------------------------------------

    .venv/bin/python tests/mutants/run.py set_sail --random 40 --seed 7 --jobs 2
    .venv/bin/python tests/mutants/run.py set_sail --random 40 --seed 7 --list   # the draw, not run
    make mutants RANDOM=40 SEED=7 GAMES=set_sail

The hand-written list measures only the mutants someone chose; `--random` draws N of them
instead, per game, from every single-site change the standard operators make to the game's
rule code.

*Places*: every function (or class: its methods) cited by a `code = ["path::name"]` entry of
the game's `simkit/games/<game>/coverage.toml` (simkit.core.coverage.load), its whole body, the
functions nested in it included; cited module-level constants and non-Python files are not
mutated. `--places engine` adds every other function of the game's package
(simkit/games/<game>/*.py, its engine and components) and its bots (strategies/<game>.py).

*Operators* (one site each, found with `ast`; `OPERATORS` names them):

    cmp     a comparison to its neighbour: < <=, <= <, > >=, >= >, == !=, != ==
    arith   an arithmetic operator (also in `x op= y`): + -, - +, * //, // *, % //
            (not on a string, f-string, list or tuple operand)
    const   an integer constant +1 and -1 (two mutants)
    cond    an `if`/`elif` condition negated (`not (c)`), forced True, forced False
    skip    a simple statement (assignment, augmented assignment, expression, assert) alone on
            its lines replaced by `pass`
    index   a subscript's index (each element of `x[i, j]`) + 1 and - 1, except constants
            (const covers them), strings and slices

Each mutant is a pair of whole source lines (old, new) for the same Mutant(file, old, new)
mechanism: `old` is the mutated line, grown by neighbouring lines until it occurs exactly once
in the file, and the file with `new` in its place must `compile()`; a site that fails either is
no candidate. The candidates (deduplicated on file, old, new) are sorted by file, line and
column, and `random.Random(seed).sample` draws N of them: uniform over sites x operators,
without repeats, the same draw for the same seed and sources. Ids are `R-<seed>-<k>`.

*Equivalence probe* (tests/mutants/probe.py): first the unbroken copy, then each mutant's copy
(its own fresh numba cache) plays 200 self-play games of every preset but the lookahead kind, at
every player count, under the standard rules and each named variant, and reduces each cell's
games and seats tables to a sha256. A mutant with every digest equal to the unbroken copy's
changes no game of the probe: **equivalent**, not tested and not counted. Otherwise the tests
run as above: the tests the coverage file cites for the rules citing the mutated function, then
the game's tests without the golden replay.

*Scoring*, per game: **caught** (a cited rule test fails), **caught elsewhere** (only another test
of the game fails), **crashed** (the probe raised, e.g. numba could not type the mutated engine,
and a test failed: counted as caught, shown apart), **survived** (every test passes; also when the
probe raised but no test failed), **equivalent** (left out of the rate). The rate is
(caught + caught elsewhere + crashed) / (drawn - equivalent). The survivors are listed with their
diffs (file:line, old -> new). A mutant's probe and tests may each run HANG_FACTOR times as long
as the unbroken copy's (at least HANG_FLOOR seconds): past that its games never end, the probe
counts as raised and the tests as failed (a suite that never ends fails its CI), so a mutant
that loops costs minutes, not the hour of TEST_TIMEOUT. A drawn run is a measurement: it exits
0 whatever survives (2 on a usage error or when the unbroken copy fails its probe or tests).
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
AREAS = ("set-up", "turn", "movement", "combat", "economy", "scoring", "end")
KEYS = {"id", "area", "what", "file", "old", "new", "caught_by"}
TEST_TIMEOUT = 3600  # seconds for one mutant's tests: a mutant that makes a game loop is caught by the cap


@dataclass(frozen=True)
class Mutant:
    game: str
    id: str
    area: str
    what: str
    file: str
    old: str
    new: str
    caught_by: tuple[str, ...]


def load(game: str) -> list[Mutant]:
    path = HERE / f"{game}.toml"
    data = tomllib.loads(path.read_text())
    unknown = set(data) - {"mutant"}
    if unknown:
        raise SystemExit(f"error: {path}: unknown table {sorted(unknown)}; only [[mutant]] tables")
    mutants = []
    for i, m in enumerate(data.get("mutant", [])):
        where = f"{path.name} mutant {i + 1} ({m.get('id', '?')})"
        if set(m) != KEYS:
            raise SystemExit(f"error: {where}: keys must be {sorted(KEYS)}, got {sorted(m)}")
        if m["area"] not in AREAS:
            raise SystemExit(f"error: {where}: area {m['area']!r} is not one of {', '.join(AREAS)}")
        caught = m["caught_by"] if isinstance(m["caught_by"], list) else [m["caught_by"]]
        if not caught or not all(isinstance(t, str) and t.startswith("tests/") for t in caught):
            raise SystemExit(f"error: {where}: caught_by must list test node ids under tests/")
        if m["old"] == m["new"]:
            raise SystemExit(f"error: {where}: old and new are the same text")
        mutants.append(Mutant(game, m["id"], m["area"], m["what"], m["file"], m["old"], m["new"], tuple(caught)))
    return mutants


def games() -> list[str]:
    return sorted(p.stem for p in HERE.glob("*.toml"))


def copy_tree(dest: Path) -> None:
    """The working tree's files (tracked and untracked, not ignored) into dest."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=REPO,
                            capture_output=True, check=True).stdout.split(b"\0")
    for name in listed:
        if not name:
            continue
        src = REPO / name.decode()
        if not src.is_file():  # deleted in the working tree but still in the index
            continue
        target = dest / name.decode()
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, target)


def pytest(root: Path, cache: Path, args: list[str], timeout: float = TEST_TIMEOUT) -> tuple[int, str]:
    """(exit code, the first failing test or the last line) of one pytest run in the copy; a run
    past `timeout` seconds fails (a suite that never ends fails its CI)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "PYTHONPATH": str(root), "PYTHONDONTWRITEBYTECODE": "1"}
    cmd = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "-p", "no:randomly", *args]
    try:
        r = subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return 1, f"timed out after {timeout:.0f} s"
    lines = r.stdout.splitlines()
    failed = next((ln.split(" - ")[0].removeprefix("FAILED ").removeprefix("ERROR ") for ln in lines
                   if ln.startswith(("FAILED ", "ERROR "))), "")
    last = next((ln for ln in reversed(lines) if ln.strip()), r.stderr.strip().splitlines()[-1:] or "no output")
    return r.returncode, failed or str(last)


def run_one(mutant: Mutant, scratch: Path) -> tuple[str, str, float]:
    """(verdict, detail, seconds) of one mutant, in its own copy of the tree."""
    began = time.monotonic()
    # a folder of its own: two mutants of one rule share an id and may run side by side
    root = Path(tempfile.mkdtemp(prefix=f"copy-{mutant.game}-{mutant.id}-", dir=scratch))
    copy_tree(root)
    target = root / mutant.file
    if not target.is_file():
        return "stale", f"{mutant.file} does not exist", 0.0
    text = target.read_text()
    if text.count(mutant.old) != 1:
        return "stale", f"the old text occurs {text.count(mutant.old)} times in {mutant.file}", 0.0
    target.write_text(text.replace(mutant.old, mutant.new))
    cache = Path(tempfile.mkdtemp(prefix=f"cache-{mutant.game}-{mutant.id}-", dir=scratch))
    try:
        code, detail = pytest(root, cache, list(mutant.caught_by))
        if code not in (0, 5):
            return "caught", detail, time.monotonic() - began
        code, detail = pytest(root, cache, [f"tests/games/{mutant.game}", "-k", "not golden"])
        verdict = "caught elsewhere" if code not in (0, 5) else "survived"
        return verdict, detail, time.monotonic() - began
    finally:
        shutil.rmtree(root, ignore_errors=True)
        shutil.rmtree(cache, ignore_errors=True)


def baseline(mutants: list[Mutant], scratch: Path) -> list[str]:
    """The caught_by tests of every mutant on the unbroken tree: any failure is a problem."""
    root = scratch / "copy-baseline"
    copy_tree(root)
    tests = sorted({t for m in mutants for t in m.caught_by})
    problems = []
    for m in mutants:
        text = (root / m.file).read_text() if (root / m.file).is_file() else ""
        if text.count(m.old) != 1:
            problems.append(f"{m.game} {m.id}: stale (old text occurs {text.count(m.old)} times in {m.file})")
    code, detail = pytest(root, scratch / "cache-baseline", tests)
    if code == 5:
        problems.append("the caught_by tests select no test: check their node ids")
    elif code != 0:
        problems.append(f"a caught_by test fails on the unbroken rules: {detail}")
    shutil.rmtree(root, ignore_errors=True)
    return problems

# ---------------------------------------------------------------------------------------------
# drawn mutants (--random): the generator

OPERATORS = ("cmp", "arith", "const", "cond", "skip", "index")
COMPARISONS = {ast.Lt: ("<", "<="), ast.LtE: ("<=", "<"), ast.Gt: (">", ">="), ast.GtE: (">=", ">"),
               ast.Eq: ("==", "!="), ast.NotEq: ("!=", "==")}
ARITHMETIC = {ast.Add: ("+", "-"), ast.Sub: ("-", "+"), ast.Mult: ("*", "//"), ast.FloorDiv: ("//", "*"),
              ast.Mod: ("%", "//")}
SKIPPABLE = (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr, ast.Assert)
ATOMS = (ast.Name, ast.Attribute, ast.Subscript, ast.Call, ast.Constant)
MAX_CONTEXT = 8  # neighbouring lines old may grow by to occur once in its file
PROBE_GAMES = 200  # self-play games per probe cell
PROBE_TIMEOUT = 1800  # seconds for the unbroken copy's probe
HANG_FACTOR = 6  # a mutant's probe or tests may take this many times the unbroken copy's, at least HANG_FLOOR
HANG_FLOOR = 300  # seconds; a mutant past its limit makes a game loop: it is left to the tests, then caught


@dataclass(frozen=True)
class Candidate:
    """One single-site change of a source file, as whole lines."""
    file: str  # relative to the root the places were read from
    line: int  # 1-based line of the change
    col: int
    function: str  # the cited function (or class) it lies in
    op: str  # one of OPERATORS
    what: str  # e.g. "< -> <="
    old: str  # whole lines, found exactly once in the file
    new: str


def function_nodes(tree: ast.Module) -> dict[str, ast.AST]:
    """The functions and classes of a module by the names coverage files cite: `name`,
    `Class::method`, also those defined under a module-level if/try/with (simkit.core.coverage)."""
    found: dict[str, ast.AST] = {}

    def walk(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                found.setdefault(prefix + child.name, child)
                if isinstance(child, ast.ClassDef):
                    walk(child, prefix + child.name + "::")
            elif isinstance(child, (ast.If, ast.Try, ast.With)):
                walk(child, prefix)

    walk(tree, "")
    return found


def rule_places(game: str, engine: bool = False, root: Path = REPO) -> dict[str, list[str]]:
    """{file: [cited function names]} of a game: every `path::name` of its coverage file's `code`
    entries that names a function or class of a Python file. engine=True adds every function of
    the game's package and of its bots (as `name`, module level and methods)."""
    from simkit.core import coverage

    places: dict[str, list[str]] = {}
    defined: dict[str, dict] = {}
    for rule in coverage.load(game).rules:
        for ref in rule.code:
            path, _, name = ref.partition("::")
            if not (name and path.endswith(".py") and (root / path).is_file()):
                continue  # a component file, or a whole file
            if path not in defined:
                defined[path] = function_nodes(ast.parse((root / path).read_text()))
            names = places.setdefault(path, [])
            if name in defined[path] and name not in names:  # not a module-level constant
                names.append(name)
    if engine:
        files = sorted((root / "simkit" / "games" / game).glob("*.py")) + [root / "strategies" / f"{game}.py"]
        for f in files:
            if not f.is_file():
                continue
            names = places.setdefault(str(f.relative_to(root)), [])
            for name in function_nodes(ast.parse(f.read_text())):
                if name not in names and "::" not in name:
                    names.append(name)
    return places


def rule_tests(game: str) -> dict[str, tuple[str, ...]]:
    """{"path::function": the tests the coverage file cites for the rules that cite it}."""
    from simkit.core import coverage

    tests: dict[str, list[str]] = {}
    for rule in coverage.load(game).rules:
        for ref in rule.code:
            for t in rule.tests:
                if "golden" not in t and t not in tests.setdefault(ref, []):
                    tests[ref].append(t)
    return {k: tuple(v) for k, v in tests.items()}


class _Sites(ast.NodeVisitor):
    """Every (op, what, start, end, replacement) of one function body; start and end are
    (line, byte column) positions of the source span the replacement takes the place of."""

    def __init__(self, lines: list[str]):
        self.lines = lines
        self.found: list[tuple[str, str, tuple[int, int], tuple[int, int], str]] = []

    def add(self, op, what, start, end, replacement):
        self.found.append((op, what, start, end, replacement))

    def segment(self, node) -> str:
        return _span(self.lines, (node.lineno, node.col_offset), (node.end_lineno, node.end_col_offset))

    def symbol(self, left, right, symbol):
        """(start, end) of `symbol` between two operands on one line, or None."""
        if left.end_lineno != right.lineno:
            return None
        line = self.lines[left.end_lineno - 1].encode()
        gap = line[left.end_col_offset:right.col_offset].decode()
        hits = [m.start() for m in re.finditer(re.escape(symbol), gap)
                if not re.match(r"[=<>!*/%+-]", gap[m.start() + len(symbol):m.start() + len(symbol) + 1])
                and not (m.start() and gap[m.start() - 1] in "=<>!*/%+-")]
        if len(hits) != 1:
            return None
        at = left.end_col_offset + len(gap[:hits[0]].encode())
        return (left.end_lineno, at), (left.end_lineno, at + len(symbol))

    # -- operators
    def visit_Compare(self, node):
        for i, op in enumerate(node.ops):
            if type(op) in COMPARISONS:
                sym, to = COMPARISONS[type(op)]
                left = node.left if i == 0 else node.comparators[i - 1]
                where = self.symbol(left, node.comparators[i], sym)
                if where:
                    self.add("cmp", f"{sym} -> {to}", *where, to)
        self.generic_visit(node)

    @staticmethod
    def _textual(node) -> bool:
        return (isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes))) or \
            isinstance(node, (ast.JoinedStr, ast.List, ast.Tuple, ast.ListComp))

    def visit_BinOp(self, node):
        if type(node.op) in ARITHMETIC and not (self._textual(node.left) or self._textual(node.right)):
            sym, to = ARITHMETIC[type(node.op)]
            where = self.symbol(node.left, node.right, sym)
            if where:
                self.add("arith", f"{sym} -> {to}", *where, to)
        self.generic_visit(node)

    def visit_AugAssign(self, node):
        if type(node.op) in ARITHMETIC and not self._textual(node.value):
            sym, to = ARITHMETIC[type(node.op)]
            where = self.symbol(node.target, node.value, sym + "=")
            if where:
                self.add("arith", f"{sym}= -> {to}=", *where, to + "=")
        self.skip(node)
        self.generic_visit(node)

    def visit_Constant(self, node):
        if type(node.value) is int:
            start, end = (node.lineno, node.col_offset), (node.end_lineno, node.end_col_offset)
            for d in (1, -1):
                self.add("const", f"{node.value} -> {node.value + d}", start, end, repr(node.value + d))

    def visit_If(self, node):
        t = node.test
        start, end = (t.lineno, t.col_offset), (t.end_lineno, t.end_col_offset)
        text = self.segment(t)
        self.add("cond", "negated", start, end, f"not ({text})")
        for forced in ("True", "False"):
            if not (isinstance(t, ast.Constant) and repr(t.value) == forced):
                self.add("cond", f"forced {forced}", start, end, forced)
        self.generic_visit(node)

    def skip(self, node):
        """The statement replaced by `pass`, when nothing but it stands on its lines."""
        before = self.lines[node.lineno - 1].encode()[:node.col_offset].decode()
        after = self.lines[node.end_lineno - 1].encode()[node.end_col_offset:].decode().strip()
        if before.strip() or (after and not after.startswith("#")):
            return
        self.add("skip", "statement -> pass", (node.lineno, node.col_offset), (node.end_lineno, node.end_col_offset),
                 "pass")

    def visit_Assign(self, node):
        self.skip(node)
        self.generic_visit(node)

    def visit_AnnAssign(self, node):  # not the annotation: a type is no index
        if node.value is not None:
            self.skip(node)
            self.visit(node.target)
            self.visit(node.value)

    def visit_Expr(self, node):
        if not (isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)):  # a docstring
            self.skip(node)
        self.generic_visit(node)

    def visit_Assert(self, node):
        self.skip(node)
        self.generic_visit(node)

    def visit_Subscript(self, node):
        parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        for e in parts:
            if isinstance(e, (ast.Slice, ast.Starred, ast.Constant)) or \
                    (isinstance(e, ast.UnaryOp) and isinstance(e.operand, ast.Constant)):
                continue
            text = self.segment(e)
            base = text if isinstance(e, ATOMS) else f"({text})"
            for d in ("+ 1", "- 1"):
                self.add("index", f"[{text}] -> [{base} {d}]", (e.lineno, e.col_offset),
                         (e.end_lineno, e.end_col_offset), f"{base} {d}")
        self.generic_visit(node)

    def visit_FunctionDef(self, node):  # a nested function: its body, not its signature
        for stmt in node.body:
            self.visit(stmt)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node):
        for stmt in node.body:
            self.visit(stmt)

    def visit_Lambda(self, node):
        self.visit(node.body)


def _span(lines: list[str], start: tuple[int, int], end: tuple[int, int]) -> str:
    """The source text between two (1-based line, byte column) positions."""
    (l1, c1), (l2, c2) = start, end
    if l1 == l2:
        return lines[l1 - 1].encode()[c1:c2].decode()
    first = lines[l1 - 1].encode()[c1:].decode()
    last = lines[l2 - 1].encode()[:c2].decode()
    return first + "".join(lines[l1:l2 - 1]) + last


def _as_lines(text: str, lines: list[str], start, end, replacement) -> tuple[str, str, int] | None:
    """(old, new, first line) of a span replaced, old grown by whole neighbouring lines until it
    occurs exactly once in the file; None when it never does within MAX_CONTEXT lines."""
    (l1, c1), (l2, c2) = start, end
    head = lines[l1 - 1].encode()[:c1].decode()
    tail = lines[l2 - 1].encode()[c2:].decode()
    changed = head + replacement + tail
    lo, hi = l1 - 1, l2  # lines[lo:hi] is old
    for grow in range(2 * MAX_CONTEXT + 1):
        old = "".join(lines[lo:hi])
        if text.count(old) == 1:
            new = "".join(lines[lo:l1 - 1]) + changed + "".join(lines[l2:hi])
            return old, new, l1
        if grow % 2 == 0 and hi < len(lines):
            hi += 1
        elif lo > 0:
            lo -= 1
        elif hi < len(lines):
            hi += 1
        else:
            return None
    return None


def candidates(places: dict[str, list[str]], root: Path = REPO) -> list[Candidate]:
    """Every single-site mutant of the named functions, old found once in its file, in a fixed
    order (file, line, column, operator). Whether the mutated file compiles is checked on the
    drawn ones only (`draw`): a compile of an engine file for each of thousands of sites takes a minute."""
    out: list[Candidate] = []
    seen: set[tuple[str, str, str]] = set()
    for file in sorted(places):
        text = (root / file).read_text()
        lines = text.splitlines(keepends=True)
        nodes = function_nodes(ast.parse(text, filename=file))
        found = []
        for name in places[file]:
            node = nodes.get(name)
            if node is None:
                continue
            sites = _Sites(lines)
            for stmt in node.body:
                sites.visit(stmt)
            found += [(start, op, what, end, repl, name) for op, what, start, end, repl in sites.found]
        found.sort(key=lambda f: (f[0], OPERATORS.index(f[1]), f[2], f[4]))
        for start, op, what, end, repl, name in found:
            pair = _as_lines(text, lines, start, end, repl)
            if pair is None:
                continue
            old, new, line = pair
            if old == new or (file, old, new) in seen:
                continue
            seen.add((file, old, new))
            out.append(Candidate(file, line, start[1], name, op, what, old, new))
    return out


def compiles(c: Candidate, root: Path = REPO) -> bool:
    """Whether the candidate's file, with new in the place of old, is valid Python."""
    text = (root / c.file).read_text()
    try:
        compile(text.replace(c.old, c.new), c.file, "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return False
    return text.count(c.old) == 1


def draw(pool: list[Candidate], n: int, seed: int, root: Path = REPO) -> list[Candidate]:
    """n candidates (all the valid ones when fewer), uniform without repeats over the valid ones,
    the same for the same seed: the first n of the pool's random.Random(seed) permutation whose
    mutated file compiles."""
    out = []
    for c in random.Random(seed).sample(pool, len(pool)):
        if len(out) == n:
            break
        if compiles(c, root):
            out.append(c)
    return out


def generate(game: str, n: int, seed: int, engine: bool = False, root: Path = REPO) -> list[Mutant]:
    """The drawn mutants of a game, as Mutants with ids R-<seed>-<k>."""
    tests = rule_tests(game)
    drawn = draw(candidates(rule_places(game, engine, root), root), n, seed, root)
    return [Mutant(game, f"R-{seed}-{k}", c.op, f"{c.op} {c.what} in {c.function} ({c.file}:{c.line})", c.file,
                   c.old, c.new, tests.get(f"{c.file}::{c.function}", ()))
            for k, c in enumerate(drawn, 1)]


def diff_lines(m: Mutant) -> list[str]:
    """The changed lines of a mutant, `- old` then `+ new`, without the unchanged context."""
    old, new = m.old.splitlines(), m.new.splitlines()
    a = 0
    while a < min(len(old), len(new)) and old[a] == new[a]:
        a += 1
    b = 0
    while b < min(len(old), len(new)) - a and old[-1 - b] == new[-1 - b]:
        b += 1
    return [f"    - {ln}" for ln in old[a:len(old) - b]] + [f"    + {ln}" for ln in new[a:len(new) - b]]


def run_probe(root: Path, cache: Path, game: str, games: int = PROBE_GAMES, timeout: float = PROBE_TIMEOUT) -> dict:
    """The probe's digests in a copy ({"cells": ...} or {"error": ...})."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "PYTHONPATH": str(root), "PYTHONDONTWRITEBYTECODE": "1"}
    out = cache.parent / f"probe-{cache.name}.json"
    cmd = [sys.executable, str(root / "tests" / "mutants" / "probe.py"), game, "--games", str(games), "--out", str(out)]
    try:
        r = subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return {"error": f"the probe timed out after {timeout:.0f} s (a game that never ends)"}
    if not out.is_file():
        return {"error": f"the probe wrote nothing (exit {r.returncode}): {r.stderr.strip()[-500:]}"}
    data = json.loads(out.read_text())
    out.unlink()
    if "cells" in data and not str(data.get("simkit", "")).startswith(str(root)):
        return {"error": f"the probe imported simkit from {data.get('simkit')}, not from the copy {root}"}
    return data


def limit(seconds: float) -> float:
    """How long a mutant's probe or tests may run, from the unbroken copy's `seconds`."""
    return max(HANG_FLOOR, HANG_FACTOR * seconds)


def run_drawn(mutant: Mutant, scratch: Path, reference: dict, took: dict[str, float]) -> tuple[str, str, float]:
    """(verdict, detail, seconds) of one drawn mutant: the probe first, the tests unless equivalent.
    `took` holds the unbroken copy's probe and tests seconds, which bound the mutant's."""
    began = time.monotonic()
    root = Path(tempfile.mkdtemp(prefix=f"copy-{mutant.game}-{mutant.id}-", dir=scratch))
    cache = Path(tempfile.mkdtemp(prefix=f"cache-{mutant.game}-{mutant.id}-", dir=scratch))
    try:
        copy_tree(root)
        target = root / mutant.file
        text = target.read_text() if target.is_file() else ""
        if text.count(mutant.old) != 1:
            return "stale", f"the old text occurs {text.count(mutant.old)} times in {mutant.file}", 0.0
        target.write_text(text.replace(mutant.old, mutant.new))
        probe = run_probe(root, cache, mutant.game, timeout=limit(took["probe"]))
        if probe.get("cells") == reference:
            return "equivalent", f"no game of the probe changes ({len(reference)} cells)", time.monotonic() - began
        crashed = probe.get("error", "")
        if crashed:
            changed = f"the probe raised: {crashed.splitlines()[0][:200]}"
        else:
            cells = probe["cells"]
            diff = [c for c in reference if cells.get(c) != reference[c]]
            changed = f"{len(diff)}/{len(reference)} probe cells differ"
        if mutant.caught_by:
            code, detail = pytest(root, cache, list(mutant.caught_by), timeout=limit(took["tests"]))
            if code not in (0, 5):
                return ("crashed" if crashed else "caught"), f"{changed}; {detail}", time.monotonic() - began
        code, detail = pytest(root, cache, [f"tests/games/{mutant.game}", "-k", "not golden"],
                              timeout=limit(took["tests"]))
        if code not in (0, 5):
            verdict = "crashed" if crashed else "caught elsewhere"
        else:
            verdict = "survived"
        return verdict, f"{changed}; {detail}", time.monotonic() - began
    finally:
        shutil.rmtree(root, ignore_errors=True)
        shutil.rmtree(cache, ignore_errors=True)


def drawn_baseline(chosen: list[str], scratch: Path, tests: bool) -> tuple[dict[str, dict], dict, list[str]]:
    """The unbroken copy's probe of each game (computed once per run), its probe and tests
    seconds per game, and its problems: a probe that raises, or (tests=True) a test of the game
    that fails without the golden replay."""
    root = scratch / "copy-baseline"
    copy_tree(root)
    references, took, problems = {}, {}, []
    for g in chosen:
        cache = scratch / f"cache-baseline-{g}"
        cache.mkdir()
        began = time.monotonic()
        probe = run_probe(root, cache, g)
        if "error" in probe:
            problems.append(f"{g}: the probe fails on the unbroken rules: {probe['error']}")
            continue
        references[g] = probe["cells"]
        took[g] = {"probe": time.monotonic() - began, "tests": TEST_TIMEOUT / HANG_FACTOR}
        line = f"[        baseline] {g}: probe of {len(probe['cells'])} cells x {PROBE_GAMES} games"
        if tests:
            began_tests = time.monotonic()
            code, detail = pytest(root, cache, [f"tests/games/{g}", "-k", "not golden"])
            if code != 0:
                problems.append(f"{g}: a test fails on the unbroken rules: {detail}")
            # the mutant compiles in its tests as well: the unbroken tests ran on a warm cache
            took[g]["tests"] = time.monotonic() - began_tests + took[g]["probe"]
            line += f", tests: {detail}"
        print(f"{line} ({time.monotonic() - began:.0f} s)", flush=True)
    shutil.rmtree(root, ignore_errors=True)
    return references, took, problems


def drawn_report(chosen: list[str], mutants: list[Mutant], results: dict) -> None:
    """The per-game table, then every survivor with its diff."""
    print()
    print("| game | drawn | equivalent | counted | caught by a cited test | caught elsewhere | crashed | survived "
          "| stale | caught |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for g in chosen:
        ours = [results[m][0] for m in mutants if m.game == g]
        if not ours:
            continue
        n = {v: ours.count(v) for v in ("caught", "caught elsewhere", "crashed", "survived", "stale", "equivalent")}
        counted = len(ours) - n["equivalent"] - n["stale"]
        killed = n["caught"] + n["caught elsewhere"] + n["crashed"]
        rate = f"{100 * killed / counted:.0f}%" if counted else "-"
        print(f"| {g} | {len(ours)} | {n['equivalent']} | {counted} | {n['caught']} | {n['caught elsewhere']} "
              f"| {n['crashed']} | {n['survived']} | {n['stale']} | {rate} |")
    for verdict in ("survived", "equivalent"):
        listed = [m for m in mutants if results[m][0] == verdict]
        if listed:
            print()
            print(f"{verdict} ({len(listed)}):")
        for m in listed:
            print(f"  {m.game} {m.id} {m.what}")
            for ln in diff_lines(m):
                print(ln)


def only(mutants: list[Mutant], ids: str | None) -> list[Mutant]:
    """The mutants `--only ID,ID,...` names (all of them without it)."""
    if not ids:
        return mutants
    wanted = {i.strip() for i in ids.split(",")}
    return [m for m in mutants if m.id in wanted]


def main_random(args, chosen: list[str]) -> int:
    mutants = [m for g in chosen for m in generate(g, args.random, args.seed, args.places == "engine")]
    mutants = only(mutants, args.only)
    if args.list:
        for m in mutants:
            print(f"{m.game:16} {m.id:10} {m.what}")
            for ln in diff_lines(m):
                print(ln)
        return 0
    if not mutants:
        print("error: no mutant drawn")
        return 2
    began = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="simkit-mutants-") as tmp:
        scratch = Path(tmp)
        references, took, problems = drawn_baseline(sorted({m.game for m in mutants}), scratch,
                                                    not args.no_baseline)
        if problems:
            for p in problems:
                print(f"error: {p}")
            return 2
        results = run_each(mutants, lambda m: run_drawn(m, scratch, references[m.game], took[m.game]), args.jobs,
                           lambda m: m.what)
    drawn_report(chosen, mutants, results)
    print(f"\n{len(mutants)} drawn mutants in {time.monotonic() - began:.0f} s (seed {args.seed})")
    return 0


def run_each(mutants: list[Mutant], run, jobs: int, label) -> dict[Mutant, tuple[str, str, float]]:
    """Each mutant's (verdict, detail, seconds) by `run`, `jobs` at a time, each printed as it ends."""
    results: dict[Mutant, tuple[str, str, float]] = {}

    def one(m: Mutant) -> None:
        results[m] = run(m)
        verdict, detail, seconds = results[m]
        print(f"[{verdict:>16}] {m.game} {m.id} {label(m)}: {detail} ({seconds:.0f} s)", flush=True)

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        list(pool.map(one, mutants))
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", help=f"games (default: all of {', '.join(games())})")
    parser.add_argument("--only", default="", help="comma-separated mutant ids")
    parser.add_argument("--jobs", type=int, default=1, help="mutants run side by side (each compiles the engine)")
    parser.add_argument("--list", action="store_true", help="list the mutants and stop")
    parser.add_argument("--no-baseline", action="store_true", help="skip the check on the unbroken tree")
    parser.add_argument("--random", type=int, default=0, metavar="N",
                        help="draw N mutants per game from its rule code instead of the hand-written ones")
    parser.add_argument("--seed", type=int, default=0, help="the draw's seed (with --random)")
    parser.add_argument("--places", choices=("rules", "engine"), default="rules",
                        help="with --random: the functions coverage.toml cites (rules), or also every function "
                             "of the game's package and bots (engine)")
    args = parser.parse_args(argv)
    chosen = args.games or games()
    if args.random:
        if args.random < 0:
            print("error: --random takes a positive number of mutants")
            return 2
        for g in chosen:
            if not (REPO / "simkit" / "games" / g / "coverage.toml").is_file():
                print(f"error: '{g}' has no simkit/games/{g}/coverage.toml to draw its rule code from")
                return 2
        return main_random(args, chosen)
    for g in chosen:
        if not (HERE / f"{g}.toml").is_file():
            print(f"error: no mutants for '{g}' (tests/mutants/{g}.toml); games with mutants: {', '.join(games())}")
            return 2
    mutants = [m for g in chosen for m in load(g)]
    mutants = only(mutants, args.only)
    if args.list:
        for m in mutants:
            print(f"{m.game:16} {m.id:10} {m.area:9} {m.what}")
        return 0
    if not mutants:
        print("error: no mutant selected")
        return 2
    with tempfile.TemporaryDirectory(prefix="simkit-mutants-") as tmp:
        scratch = Path(tmp)
        if not args.no_baseline:
            problems = baseline(mutants, scratch)
            if problems:
                for p in problems:
                    print(f"error: {p}")
                return 2
        results = run_each(mutants, lambda m: run_one(m, scratch), args.jobs, lambda m: f"({m.area}) {m.what}")
    print()
    print("| game | mutants | caught by the cited test | caught by another test | survived | stale |")
    print("|---|---:|---:|---:|---:|---:|")
    for g in chosen:
        ours = [results[m][0] for m in mutants if m.game == g]
        if ours:
            print(f"| {g} | {len(ours)} | {ours.count('caught')} | {ours.count('caught elsewhere')} "
                  f"| {ours.count('survived')} | {ours.count('stale')} |")
    return 0 if all(v[0] == "caught" for v in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
