"""`simkit bench --profile`: naming numba's machine code for perf, and reading perf's report."""

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from simkit.commands.profiling import demangle, jit_symbols, parse_report, write_perf_map
from simkit.core.jit import jit


def test_numba_symbols_read_as_dotted_python_names():
    assert demangle("_ZN6simkit5games14sea_of_thieves6engine7actions11take_actionB2v7B38c8tJTIeFIjxB2IKSgI4Cr"
                    "vQClQZ6FczSBAA_3dExx") == "simkit.games.sea_of_thieves.engine.actions.take_action"
    assert demangle("_ZN7cpython5tests8dicegame10play_chunkB3v12E") == "tests.dicegame.play_chunk (wrapper)"
    assert demangle("cfunc._ZN5tests8dicegame4stepB2v1E") == "tests.dicegame.step (wrapper)"
    assert demangle("_ZN5tests4test1f12_3clocals_3e4leafB2v1E") == "tests.test.f.<locals>.leaf"
    assert demangle("gc_collect_main") == "gc_collect_main"  # not numba's: unchanged


def test_the_perf_map_names_each_compiled_function_at_its_address(tmp_path):
    @jit(cache=False)
    def profiled_leaf(n):
        s = 0
        for i in range(n):
            s += i % 7
        return s

    profiled_leaf(3)
    symbols = jit_symbols()
    names = [name for _, _, name in symbols]
    assert any(name.endswith("<locals>.profiled_leaf") for name in names)
    addresses = [a for a, _, _ in symbols]
    assert addresses == sorted(addresses) and all(size > 0 for _, size, _ in symbols)
    # each function ends where the next begins: no two overlap, so perf names each sample once
    assert all(a + size <= b for (a, size, _), b in zip(symbols, addresses[1:]))
    path = write_perf_map(tmp_path / "perf.map")
    line = next(line for line in path.read_text().splitlines() if line.endswith("<locals>.profiled_leaf"))
    address, size, _ = line.split(" ", 2)
    assert (int(address, 16), int(size, 16)) in {(a, s) for a, s, n in symbols if n.endswith("profiled_leaf")}


def test_perf_s_report_is_read_into_shares_per_function():
    report = """# Samples: 9K of event 'cpu-clock:pppH'
#
# Overhead  Symbol
# ........  ......
#
    35.28%  [.] simkit.games.sea_of_thieves.engine.actions.take_action
     8.60%  [.] gc_collect_main
     0.12%  [k] clear_page_erms

#
# (Tip: ...)
"""
    assert parse_report(report) == [
        {"percent": 35.28, "function": "simkit.games.sea_of_thieves.engine.actions.take_action", "kernel": False},
        {"percent": 8.6, "function": "gc_collect_main", "kernel": False},
        {"percent": 0.12, "function": "clear_page_erms", "kernel": True},
    ]


def _perf_can_sample() -> bool:
    """perf is installed and may sample this user's processes here (a container may forbid it)."""
    perf = shutil.which("perf")
    if perf is None:
        return False
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run([perf, "record", "-q", "-o", str(Path(tmp) / "probe.data"), "--", sys.executable, "-c",
                               "pass"], capture_output=True, check=False)
    return done.returncode == 0


@pytest.mark.skipif(not _perf_can_sample(), reason="Linux perf is not installed or may not sample this user")
def test_a_profile_puts_the_play_window_s_samples_on_the_engine_s_functions(dicegame):
    from simkit.commands.profiling import profile

    maps_before = set(Path("/tmp").glob("perf-*.map"))
    report = profile("dicegame", 2, None, 1.0)
    assert set(Path("/tmp").glob("perf-*.map")) <= maps_before  # the subprocess's map is removed
    assert report["games"] > 0 and report["seconds"] >= 1.0
    compiled = [row for row in report["rows"] if row["jit"]]
    # the window holds play only: the engine's own functions take nearly every sample
    assert sum(row["percent"] for row in compiled) > 80
    assert any(row["function"].startswith("tests.dicegame.play_chunk") for row in compiled)


def test_a_perf_that_fails_is_one_input_error_naming_what_it_said(tmp_path, monkeypatch, dicegame):
    from simkit.commands import profiling
    from simkit.core.errors import InputError

    fake = tmp_path / "perf"
    fake.write_text("#!/bin/sh\necho 'Error: Access to performance monitoring is limited (perf_event_paranoid)' >&2\n"
                    "exit 255\n")
    fake.chmod(0o755)
    monkeypatch.setattr(profiling.shutil, "which", lambda name: str(fake))
    with pytest.raises(InputError, match=r"perf record failed for dicegame \(exit 255\).*paranoid.*hint: .*sysctl"):
        profiling.profile("dicegame", 2, None, 1.0)


def test_apart_takes_only_the_game_s_jitted_functions(dicegame):
    """--apart names functions of the game's engine or policy; a misspelt one is one error with
    the likely name, before anything is compiled or sampled."""
    from simkit.commands import profiling
    from simkit.core.errors import InputError

    assert {"score_discards", "score_plays", "pick_best", "randint"} <= profiling.jitted_names("sea_of_plunder")
    assert "score_discards" not in profiling.jitted_names("set_sail")
    with pytest.raises(InputError, match=r"--apart: 'score_discard' is not a jitted function of sea_of_plunder.*"
                                         r"did you mean 'score_discards'"):
        profiling.profile("sea_of_plunder", 4, None, 1.0, ["score_discard"])


def test_apart_without_profile_is_refused():
    from typer.testing import CliRunner

    from simkit.commands.cli import app

    done = CliRunner().invoke(app, ["bench", "set_sail", "--apart", "tile_action"])
    assert done.exit_code == 2 and "error: --apart changes what --profile counts" in done.output


_APART = """
import numpy as np
from simkit.core.jit import jit
from simkit.core.jit import engine_loop

@jit(cache=False)
def _step(a, i):
    return a[i] * 3

@engine_loop
@jit(cache=False)
def _loop(a, n):
    t = 0
    for i in range(n):
        t += _step(a, i)
    return t

assert _loop(np.arange(5), 5) == 30
module = next(iter(_loop.overloads.values())).library._final_module
kept = [f for f in module.functions if not f.is_declaration and "5_stepB" in f.name]
print(len(kept), sum(b"noinline" in bytes(a).split() for f in kept for a in f.attributes))
"""


@pytest.mark.parametrize("apart, expected", [("_step", "1 1"), ("", "0 0")])
def test_a_function_kept_apart_stays_out_of_line_in_its_loop(apart, expected):
    """SIMKIT_APART (what --apart sets for the profiled process): the loop's module keeps the
    function, marked noinline; without it LLVM inlines so small a callee and drops it."""
    import os

    env = {**os.environ, "SIMKIT_APART": apart}
    done = subprocess.run([sys.executable, "-c", _APART], capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split("\n")[0] == expected
