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
"""

from __future__ import annotations

import argparse
import os
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


def pytest(root: Path, cache: Path, args: list[str]) -> tuple[int, str]:
    """(exit code, the first failing test or the last line) of one pytest run in the copy."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "PYTHONPATH": str(root), "PYTHONDONTWRITEBYTECODE": "1"}
    cmd = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "-p", "no:randomly", *args]
    try:
        r = subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True, timeout=TEST_TIMEOUT, check=False)
    except subprocess.TimeoutExpired:
        return 1, f"timed out after {TEST_TIMEOUT} s"
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", help=f"games (default: all of {', '.join(games())})")
    parser.add_argument("--only", default="", help="comma-separated mutant ids")
    parser.add_argument("--jobs", type=int, default=1, help="mutants run side by side (each compiles the engine)")
    parser.add_argument("--list", action="store_true", help="list the mutants and stop")
    parser.add_argument("--no-baseline", action="store_true", help="skip the check on the unbroken tree")
    args = parser.parse_args(argv)
    chosen = args.games or games()
    for g in chosen:
        if not (HERE / f"{g}.toml").is_file():
            print(f"error: no mutants for '{g}' (tests/mutants/{g}.toml); games with mutants: {', '.join(games())}")
            return 2
    mutants = [m for g in chosen for m in load(g)]
    if args.only:
        wanted = {s.strip() for s in args.only.split(",")}
        mutants = [m for m in mutants if m.id in wanted]
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
        results: dict[Mutant, tuple[str, str, float]] = {}

        def one(m: Mutant) -> None:
            results[m] = run_one(m, scratch)
            verdict, detail, seconds = results[m]
            print(f"[{verdict:>16}] {m.game} {m.id} ({m.area}) {m.what}: {detail} ({seconds:.0f} s)", flush=True)

        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            list(pool.map(one, mutants))
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
