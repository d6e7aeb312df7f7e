"""`simkit bench GAME --profile`: where a compiled engine spends its time, per jitted function.

numba's machine code lives in anonymous memory, so a sampling profiler sees addresses without
names. The recipe: play the game in a subprocess under Linux `perf record`; once the engine is
compiled (or loaded from the cache), the subprocess writes `/tmp/perf-<pid>.map`, the file
perf reads to name JIT code, with every symbol numba's engine holds; then it plays for the
asked time between two CLOCK_MONOTONIC stamps, and `perf report --time` counts the samples
between them only (no import, compile or cache load). A function LLVM inlined into its
caller counts as the caller: the table shows the engine as it runs, not as it is written.
A game loop is optimised whole (simkit.core.numba_patches), so most of an engine's time lands in a few
functions that hold everything inlined into them; `--apart NAME,...` keeps the named
functions out of line in the loop (LLVM's `noinline`), so each counts on its own, at the price
of a compile for the profile and calls the engine would not make.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from simkit.core.errors import InputError

SAMPLE_HZ = 1999  # perf's sampling frequency (odd, so it does not beat with a periodic loop)
_ABI_OR_END = re.compile(r"[BE]")
_REPORT_LINE = re.compile(r"^\s*([\d.]+)%\s+\[([.k])\]\s+(.*?)\s*$")
_WRAPPERS = ("cpython.", "cfunc.")


def demangle(symbol: str) -> str:
    """A numba symbol (`_ZN<len><name>...B<abi tags>E...`) as a dotted Python name. numba
    writes a character outside [A-Za-z0-9_] as `_xx` (its hex code), which cannot be told from
    a name's own underscores, so only `<locals>` is spelled back. Other symbols unchanged."""
    prefix = next((w for w in _WRAPPERS if symbol.startswith(w)), "")
    body = symbol[len(prefix):]
    if prefix == "cpython.":  # numba spells the CPython wrapper `_ZN7cpython<...>`
        prefix = ""
    if not body.startswith("_ZN"):
        return symbol
    parts, i = [], 3
    while i < len(body) and body[i].isdigit():
        j = i
        while j < len(body) and body[j].isdigit():
            j += 1
        n = int(body[i:j])
        parts.append(body[j:j + n])
        i = j + n
        if i < len(body) and _ABI_OR_END.match(body[i]):
            break
    if not parts:
        return symbol
    name = ".".join(parts).replace("_3clocals_3e", "<locals>")
    if name.startswith("cpython."):
        return f"{name[len('cpython.'):]} (wrapper)"
    return f"{name} (wrapper)" if prefix else name


def jit_symbols() -> list[tuple[int, int, str]]:
    """(address, size, name) of every function numba's CPU engine has loaded in this process,
    compiled or from the cache. The engine does not keep sizes: a function runs to the next
    symbol's address (the last one gets 4 KiB)."""
    from numba.core.registry import cpu_target

    engine = cpu_target.target_context.codegen()._engine
    found = []
    for name in engine._defined_symbols:
        if name.startswith((".const", "_ZN08NumbaEnv")):
            continue  # constants and environments: data, not code
        address = engine.get_function_address(name)
        if address:
            found.append((address, name))
    found.sort()
    ends = [a for a, _ in found[1:]] + [found[-1][0] + 4096] if found else []
    return [(a, min(end - a, 1 << 24), demangle(name)) for (a, name), end in zip(found, ends)]


def write_perf_map(path: Path | None = None) -> Path:
    """Write perf's map of JIT code for this process (default `/tmp/perf-<pid>.map`)."""
    path = path or Path(f"/tmp/perf-{os.getpid()}.map")
    path.write_text("".join(f"{a:x} {size:x} {name}\n" for a, size, name in jit_symbols()))
    return path


def parse_report(text: str) -> list[dict]:
    """Rows of `perf report --stdio --no-children -F overhead,sym`: share and symbol, and
    whether the symbol is JIT code (named by the map) or elsewhere (the interpreter, numpy,
    the kernel)."""
    rows = []
    for line in text.splitlines():
        m = _REPORT_LINE.match(line)
        if m:
            rows.append({"percent": float(m.group(1)), "function": m.group(3), "kernel": m.group(2) == "k"})
    return rows


def _profile_main(cell_json: str, seconds: str, out: str) -> None:
    """The side of `profile` that runs under perf: compile or load, write the map, then play."""
    from simkit.commands.bench import _play_range
    from simkit.sweeps import spec as specs

    cell = specs.Cell.from_dict(json.loads(cell_json))
    _play_range(cell, 0, 2)  # the first call: compile or cache load, outside the measured window
    Path(out).with_suffix(".pid").write_text(str(os.getpid()))  # so the caller can remove the map
    write_perf_map()
    began, played, batch = time.clock_gettime(time.CLOCK_MONOTONIC), 0, 64
    while time.clock_gettime(time.CLOCK_MONOTONIC) - began < float(seconds):
        _play_range(cell, played, played + batch)
        played += batch
        batch = min(batch * 2, 4096)
    ended = time.clock_gettime(time.CLOCK_MONOTONIC)
    Path(out).write_text(json.dumps({"began": began, "ended": ended, "games": played, "pid": os.getpid()}))


def jitted_names(game_id: str) -> set[str]:
    """The names of the jitted functions a game's engine is built from: its package's, its
    policy's (strategies/<game>.py) and the shared kernels' and RNG's."""
    import ast

    from simkit import games as registry
    from simkit.sweeps.identity import PACKAGE, ROOT

    files = [PACKAGE / "core" / "kernels.py", PACKAGE / "core" / "rng.py", *registry.folder(game_id).rglob("*.py"),
             ROOT / "strategies" / f"{game_id}.py"]
    names = set()
    for path in files:
        if path.exists():
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.FunctionDef) and any(ast.unparse(d).startswith("jit") for d in node.decorator_list):
                    names.add(node.name)
    return names


def _check_apart(game_id: str, apart: list[str]) -> None:
    from simkit.core.errors import did_you_mean

    known = jitted_names(game_id)
    for name in apart:
        if name not in known:
            raise InputError(f"--apart: '{name}' is not a jitted function of {game_id}'s engine or policy"
                             f"{did_you_mean(name, known)}; hint: name functions as they are defined, e.g. "
                             f"{', '.join(sorted(n for n in known if not n.startswith('_'))[:3])}")


def profile(game_id: str, players: int | None = None, preset: str | None = None, seconds: float = 10.0,
            apart: list[str] | None = None) -> dict:
    """Sample the compiled engine of one game for `seconds` of play; see the module docstring.
    Returns the game, players, preset, games played, samples and rows (share of the samples in
    the play window, per function; `jit` marks the engine's own code). `apart`: jitted functions
    the game loop keeps out of line, so that each counts on its own rather than in its callers
    (the engine is then compiled for the profile, and cached apart from the one that plays)."""
    from simkit import games as registry
    from simkit.commands.bench import _cell

    game = registry.get(game_id)
    _check_apart(game_id, apart or [])
    perf = shutil.which("perf")
    if perf is None:
        raise InputError("--profile needs Linux perf, which is not on PATH; hint: install it (Debian/Ubuntu: "
                          "apt install linux-perf or linux-tools-$(uname -r))")
    if seconds <= 0:
        raise InputError(f"--seconds must be > 0, got {seconds}")
    cell = _cell(game_id, players, preset or game.default_strategy)
    with tempfile.TemporaryDirectory() as tmp:
        data, out = Path(tmp) / "perf.data", Path(tmp) / "window.json"
        args = [perf, "record", "-q", "-k", "CLOCK_MONOTONIC", "-F", str(SAMPLE_HZ), "-o", str(data), "--",
                sys.executable, "-m", "simkit.commands.profiling", json.dumps(cell.to_dict()), str(seconds), str(out)]
        try:
            env = {**os.environ, "SIMKIT_APART": ",".join(apart or [])}
            done = subprocess.run(args, check=False, capture_output=True, text=True, env=env)
            if done.returncode != 0 or not out.exists():
                said = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "no message"
                hint = ("perf may not sample this user's processes; `sysctl kernel.perf_event_paranoid=2` allows it"
                        if "paranoid" in done.stderr or "Permission" in done.stderr
                        else "run the command under perf by hand to see all it says")
                raise InputError(f"perf record failed for {game_id} (exit {done.returncode}): {said}; hint: {hint}")
            window = json.loads(out.read_text())
            report = subprocess.run(
                [perf, "report", "-i", str(data), "--stdio", "--no-children", "-F", "overhead,sym", "--percent-limit",
                 "0.05", "--time", f"{window['began']:.6f},{window['ended']:.6f}"],
                check=False, capture_output=True, text=True)
            if report.returncode != 0:
                raise InputError(f"perf report failed for {game_id}: {report.stderr.strip()}")
            samples = re.search(r"# Samples: (\S+)", report.stdout)
            jit_names = {name for _, _, name in _symbols_from_map(Path(f"/tmp/perf-{window['pid']}.map"))}
        finally:  # perf's map of the subprocess is ours to remove, whatever happened
            pid_file = out.with_suffix(".pid")
            if pid_file.exists():
                Path(f"/tmp/perf-{pid_file.read_text().strip()}.map").unlink(missing_ok=True)
    rows = parse_report(report.stdout)
    for row in rows:
        row["jit"] = row["function"] in jit_names
    return {"game": game_id, "players": cell.players, "preset": cell.lineup[0], "apart": list(apart or []),
            "games": window["games"],
            "seconds": window["ended"] - window["began"], "samples": samples.group(1) if samples else "?",
            "rows": rows}


def _symbols_from_map(path: Path) -> list[tuple[int, int, str]]:
    if not path.exists():
        return []
    out = []
    for line in path.read_text().splitlines():
        a, size, name = line.split(" ", 2)
        out.append((int(a, 16), int(size, 16), name))
    return out


if __name__ == "__main__":
    _profile_main(*sys.argv[1:])
