"""A sweep's code identity: which engine, bot and toolkit code played its games
(docs/architecture.md, "Seeds and reproducibility").

A sweep's plan records the rule values and component bytes of every cell (the rules hash)
and, from here, the code that turns a cell into result rows: the hash of every engine, bot,
kernel and RNG source (the very files that key numba's cache, `engine_sources`), of every
other toolkit module except those that only read finished tables (`READS_TABLES_ONLY`), of
any game module added through SIMKIT_GAME_MODULES, and the versions of the libraries that
can change a result (`RESULT_LIBRARIES`). `--resume` under other code is refused, naming
what changed: finished chunks played by the old code would otherwise be mixed with new ones
under one manifest. The manifest carries the same identity and the git commit, when the
sources are a git checkout.

This module imports only the standard library: simkit/__init__.py calls `engine_sources`
before numba is imported.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from functools import lru_cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent  # simkit/
ROOT = PACKAGE.parent  # the checkout or install prefix holding simkit/ and strategies/
# numba compiles the engines to machine code, llvmlite is its back end, numpy builds the seeds
# and the compiled rule arrays: a new version of any of them may play a game differently
RESULT_LIBRARIES = ("numba", "llvmlite", "numpy")
# toolkit modules that only read finished tables or start the others (summary, report, gate,
# tuning, the commands):
# the summary and report are rebuilt from the whole tables at the end, so an edit to them
# cannot mix two codes in one result. Every other module (a new one too) is in the hash.
READS_TABLES_ONLY = ("report", "analysis", "commands", "sweeps/check.py", "core/ladder.py", "search/tune.py")


def engine_sources() -> list[Path]:
    """The files numba's engines are built from: the shared kernels and RNG, the decorator and
    numba patches they are compiled through, every game, every bot.

    numba's cache checks only the file of the function it caches, so simkit keys the cache
    folder by all of these (simkit._numba_cache_dir); the code identity starts from the same list.
    """
    core = PACKAGE / "core"
    sources = [core / "kernels.py", core / "rng.py", core / "jit.py", core / "numba_patches.py",
               *sorted((PACKAGE / "games").rglob("*.py")), *sorted((ROOT / "strategies").rglob("*.py"))]
    return [path for path in sources if path.exists()]


def sources_digest(paths: list[Path]) -> str:
    """sha256 over each file's path (relative to ROOT) and bytes, in the given order."""
    h = hashlib.sha256()
    for path in paths:
        h.update(_name(path).encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def _name(path: Path) -> str:
    try:
        return str(path.relative_to(ROOT))
    except ValueError:  # a game module outside the checkout (SIMKIT_GAME_MODULES)
        return str(path)


def code_sources() -> list[Path]:
    """Every source file whose code can change a result row (see the module docstring)."""
    engine = engine_sources()
    seen = set(engine)
    toolkit = [p for p in sorted(PACKAGE.rglob("*.py"))
               if p not in seen and not _reads_tables_only(p.relative_to(PACKAGE).as_posix())]
    return engine + toolkit + _extra_game_sources()


def _reads_tables_only(name: str) -> bool:
    return any(name == part or name.startswith(part + "/") for part in READS_TABLES_ONLY)


def _extra_game_sources() -> list[Path]:
    """The files of games registered through SIMKIT_GAME_MODULES (a designer's own, a test's)."""
    import importlib.util

    out = []
    for module in filter(None, (m.strip() for m in os.environ.get("SIMKIT_GAME_MODULES", "").split(","))):
        try:
            spec = importlib.util.find_spec(module)
        except (ImportError, ValueError):
            continue  # the registry says so when the game is used
        if spec is None or not spec.origin or not spec.origin.endswith(".py"):
            continue
        origin = Path(spec.origin).resolve()
        out += sorted(origin.parent.rglob("*.py")) if origin.name == "__init__.py" else [origin]
    return out


def library_versions() -> dict[str, str]:
    from importlib import metadata

    versions = {}
    for name in RESULT_LIBRARIES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "absent"
    return versions


def code_identity() -> dict:
    """{"hash", "files": {path: sha256[:16]}, "libraries": {name: version}, "git_commit", "git_dirty"}.

    `hash` covers the files and libraries (not the commit: the same code from two commits is
    the same code). Read afresh on every call, so a sweep sees the code as it is now.
    """
    files = {_name(p): hashlib.sha256(p.read_bytes()).hexdigest()[:16] for p in code_sources()}
    libraries = library_versions()
    digest = hashlib.sha256(json.dumps({"files": files, "libraries": libraries}, sort_keys=True).encode())
    commit, dirty = _git()
    return {"hash": digest.hexdigest()[:16], "files": files, "libraries": libraries, "git_commit": commit,
            "git_dirty": dirty}


@lru_cache(maxsize=1)
def _git() -> tuple[str | None, bool | None]:
    """(HEAD's commit, whether tracked files differ from it) when ROOT is a git checkout, else (None, None)."""
    if not (ROOT / ".git").exists():
        return None, None
    try:
        commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True,
                                timeout=10, check=True).stdout.strip()
        status = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"],
                                capture_output=True, text=True, timeout=10, check=True).stdout
    except (OSError, subprocess.SubprocessError):
        return None, None
    return commit or None, bool(status.strip())


def differences(old: dict, new: dict, limit: int = 4) -> str:
    """What changed between two code identities, in words: files first, then library versions."""
    changed = []
    old_files, new_files = old.get("files", {}), new.get("files", {})
    for path in sorted(old_files.keys() | new_files.keys()):
        if path not in new_files:
            changed.append(f"{path} (removed)")
        elif path not in old_files:
            changed.append(f"{path} (new)")
        elif old_files[path] != new_files[path]:
            changed.append(path)
    for name in sorted(old.get("libraries", {}).keys() | new.get("libraries", {}).keys()):
        before, now = old.get("libraries", {}).get(name), new.get("libraries", {}).get(name)
        if before != now:
            changed.append(f"{name} {before} -> {now}")
    if not changed:
        return "the code hash differs"
    shown = ", ".join(changed[:limit])
    return shown + (f" and {len(changed) - limit} more" if len(changed) > limit else "")
