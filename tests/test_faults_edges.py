"""The fault suite, edges (docs/faults.md): what a hostile user or an unlucky machine does around a
sweep rather than to its inputs. A damaged manifest.json under `report` and `check --until-decided`;
a check killed mid-look and run again; tables that are not whole (seat rows twice, a cell missing
from cells.parquet or listed twice); a loky worker killed as the OOM killer kills it, and a
MemoryError in the sweep itself; a standard output that is closed (`| head -1`) or full
(`> /dev/full`); numba's cache folder unwritable or full. Each is one `error:` line and exit 2
(a closed pipe: a quiet exit 141), keeping what was written. And a cell whose every game hit the
round cap: no figure, said so, and no game played for it. The dice game stands in for a real game.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import polars as pl
import psutil
import pytest

import simkit
from simkit.sweeps import results, runner
from tests.test_cli import SIMKIT, assert_bad_input, run
from tests.test_faults import OPTIONS, assert_one_error_line, listing
from tests.test_faults_tables import copy_of, unseal

TIMEOUT = 300  # seconds for any one subprocess: a regression fails here instead of hanging


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A finished dice-game sweep of two cells (2 and 3 players)."""
    folder = tmp_path_factory.mktemp("edges") / "done"
    simkit.sweep(out=folder, quiet=True, report=False, jobs=1, **{**OPTIONS, "players": "2,3", "games": 1200})
    return folder


# -- 1: a damaged manifest.json -------------------------------------------------------------------


def _spec_edit(manifest: dict, cell_edit) -> str:
    spec = manifest["spec"]
    return json.dumps({**manifest, "spec": {**spec, "cells": [cell_edit(c) for c in spec["cells"]]}})


REFUSED = "is damaged (its cell dicegame-2p-standard holds what a spec would refuse: "


@pytest.mark.parametrize("damage, words, report_refuses", [
    (lambda text, m: text[: len(text) // 2], "is damaged (", True),
    (lambda text, m: "[]", "is damaged (not a JSON object)", True),
    (lambda text, m: json.dumps({k: v for k, v in m.items() if k != "spec"}), "is damaged (it has no spec)", False),
    (lambda text, m: _spec_edit(m, lambda c: {**c, "players": "two"}), "is damaged (its spec has a value", False),
    # values of the right kind that a fresh spec would refuse: each is damage to manifest.json, not a
    # line about line-ups or summary.json
    (lambda text, m: _spec_edit(m, lambda c: {**c, "players": -3}),
     REFUSED + "dicegame is for 2..4 players, not -3", False),
    (lambda text, m: json.dumps({**m, "spec": {**m["spec"], "cells": []}}), "is damaged (its spec lists no cells)",
     False),
    (lambda text, m: _spec_edit(m, lambda c: {**c, "game": "nosuch"}),
     REFUSED + "unknown game 'nosuch'", False),
    (lambda text, m: _spec_edit(m, lambda c: {**c, "games": -5}),
     REFUSED + "games in cell dicegame-2p-standard must be a whole number of games >= 1, got -5", False),
    (lambda text, m: _spec_edit(m, lambda c: {**c, "overrides": {"target": 100000}}),
     REFUSED + "target (in cell dicegame-2p-standard) = 100000 is out of range", False),
    (lambda text, m: _spec_edit(m, lambda c: {**c, "id": c["id"] + "-renamed"}),
     "is damaged (it lists no cell dicegame-", False),
    (lambda text, m: json.dumps({**m, "spec": {**m["spec"], "cells": m["spec"]["cells"] * 2}}),
     "is damaged (its spec lists cell dicegame-2p-standard twice)", False),
])
def test_a_damaged_manifest_is_one_line_for_report_and_check(finished, tmp_path, damage, words, report_refuses):
    """`check --until-decided` needs the manifest's spec to play more games: a damaged one is one
    line naming the file and the rerun; `report` needs only the tables, and refuses a manifest
    that is not JSON (it holds their seal) the same way."""
    folder = copy_of(finished, tmp_path)
    path = folder / "manifest.json"
    text = path.read_text()
    path.write_text(damage(text, json.loads(text)))
    before = listing(folder)
    result = run("check", folder, "--until-decided", "--max-seat-gap", "1pt", "--min-games", "100")
    assert_bad_input(result)
    assert f"{path} {words}" in result.stderr
    assert f"rerun the sweep into a new folder: simkit sweep {folder / 'spec.toml'}" in result.stderr
    assert listing(folder) == before
    result = run("report", folder)
    if report_refuses:
        assert_bad_input(result)
        assert f"{path} is damaged" in result.stderr and "rerun the sweep" in result.stderr
    else:
        assert result.exit_code == 0, result.stderr


# -- 2: a check killed mid-look, run again --------------------------------------------------------


CHECK = ("--until-decided", "--max-seat-gap", "1pt", "--budget", "4800", "--min-games", "100")


def _no_summary(look: Path) -> None:
    (look / "summary.json").unlink()  # killed while writing it (every file goes in by a rename)


def _unplanned(look: Path) -> None:
    shutil.rmtree(look)  # killed while its engines compiled: the claim and joblib's folder, no plan
    (look / runner.JOBLIB_TEMP).mkdir(parents=True)
    (look / ".simkit.lock").write_text("12345\n")


@pytest.mark.parametrize("leftover", [_no_summary, _unplanned])
def test_a_check_killed_mid_look_is_finished_by_the_rerun(finished, tmp_path, leftover):
    """kill -9 during `check --until-decided` leaves a look without summary.json, or a look without
    its plan: the rerun finishes or replays that look and ends as an uninterrupted check does."""
    whole = copy_of(finished, tmp_path / "whole")
    first = run("check", whole, *CHECK)
    assert first.exit_code in (0, 1, 3), first.stderr
    looks = sorted((whole / "sequential").iterdir())
    assert len(looks) >= 2, first.stdout
    cut = copy_of(whole, tmp_path / "cut")
    leftover(cut / "sequential" / looks[-1].name)
    again = run("check", cut, *CHECK)
    assert "Traceback" not in again.stdout + again.stderr, again.stderr
    assert (again.exit_code, again.stdout) == (first.exit_code, first.stdout), again.stderr
    assert (cut / "sequential" / looks[-1].name / "summary.json").exists()


# -- 3: tables that are not whole -----------------------------------------------------------------


@pytest.mark.parametrize("damage, words", [
    (lambda f: pl.concat([pl.read_parquet(f / "seats.parquet")] * 2).write_parquet(f / "seats.parquet"),
     "seats.parquet is not whole: a game without one seat row per player"),
    (lambda f: pl.read_parquet(f / "cells.parquet").head(1).write_parquet(f / "cells.parquet"),
     "games.parquet is not whole: a cell cells.parquet does not list in cell dicegame-3p-standard"),
    (lambda f: pl.concat([pl.read_parquet(f / "cells.parquet")] * 2).write_parquet(f / "cells.parquet"),
     "cells.parquet is not whole: cell dicegame-2p-standard is listed 2 times"),
])
def test_tables_that_are_not_whole_are_one_line(finished, tmp_path, damage, words):
    """Past the seal (a manifest from before tables were recorded): seat rows twice, a cell missing
    from cells.parquet, or listed twice there (its games would count twice in the summary)."""
    folder = copy_of(finished, tmp_path)
    unseal(folder)
    damage(folder)
    before = listing(folder)
    result = run("report", folder)
    assert_bad_input(result)
    assert words in result.stderr and "rerun the sweep into a new folder" in result.stderr
    assert listing(folder) == before


# -- 4: a worker killed, memory exhausted ---------------------------------------------------------


def test_a_killed_worker_is_one_line_and_resumes(tmp_path):
    """SIGKILL to one loky worker (what the OOM killer sends): one line saying so, what was kept and
    the resume command, exit 2; the resume then finishes the sweep."""
    out = tmp_path / "out"
    proc = subprocess.Popen([SIMKIT, "sweep", "--game", "dicegame", "--players", "4", "--games", "120000",
                             "--chunk", "4000", "--jobs", "2", "--quiet", "--out", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.time() + 120
        while not (out / "parts").is_dir() or len(list((out / "parts").glob("games-*"))) < 2:
            assert time.time() < deadline and proc.poll() is None, proc.communicate()
            time.sleep(0.05)
        workers = [p for p in psutil.Process(proc.pid).children(recursive=True)
                   if "LokyProcess" in " ".join(p.cmdline())]
        assert workers
        workers[0].send_signal(signal.SIGKILL)
        stdout, stderr = proc.communicate(timeout=TIMEOUT)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    done = subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr)
    assert_one_error_line(done, "a worker process died (SIGKILL", "when memory ran out", f"finished chunks are kept in {out}",
                          f"finish with: simkit sweep --out {out} --resume", "fewer --jobs")
    resumed = subprocess.run([SIMKIT, "sweep", "--out", str(out), "--resume", "--jobs", "2", "--quiet"],
                             capture_output=True, text=True, timeout=TIMEOUT, check=False)
    assert resumed.returncode == 0, resumed.stderr
    assert pl.read_parquet(out / "games.parquet").height == 120000


def test_a_memory_error_in_the_sweep_is_one_line_and_resumes(tmp_path, monkeypatch):
    """A MemoryError in the sweep's own process (a `ulimit -v`): one line with what was kept, the
    resume command and the hint; the resume then finishes."""
    out = tmp_path / "out"
    real, calls = runner.run_chunk, []

    def starved(*args):
        calls.append(args)
        if len(calls) == 3:
            raise MemoryError()
        return real(*args)

    monkeypatch.setattr(runner, "run_chunk", starved)
    result = run("sweep", "--game", "dicegame", "--players", "2", "--games", "3000", "--chunk", "500", "--jobs", "1",
                 "--quiet", "--out", out)
    assert_bad_input(result)
    assert f"out of memory: finished chunks are kept in {out}; finish with: simkit sweep --out {out} --resume" \
        in result.stderr and "--jobs 1" in result.stderr
    assert not (out / ".simkit.lock").exists()  # the folder is kept for the resume, its lock is not
    monkeypatch.setattr(runner, "run_chunk", real)
    resumed = run("sweep", "--out", out, "--resume", "--jobs", "1", "--quiet")
    assert resumed.exit_code == 0, resumed.stderr
    assert pl.read_parquet(out / "games.parquet").height == 3000


def _capped(gib: float):
    """A preexec_fn that caps the child's address space as `ulimit -v` does."""
    import resource

    def cap():
        size = int(gib * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (size, size))
    return cap


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("gib", [0.7, 1.5, 2.4])
def test_a_capped_address_space_is_one_line_before_anything_runs(tmp_path, gib, jobs):
    """`ulimit -v` below what numba's compiler and the tables need: between 0.7 and 1.9 GiB a sweep
    died with an ImportError, an OpenBLAS or polars abort (exit 1 or 134) or a MemoryError
    traceback. Now one line naming the cap and the hint, exit 2, and nothing made, the --out folder
    included; the help still prints."""
    out = tmp_path / "a" / "out"
    proc = subprocess.run([SIMKIT, "sweep", "--game", "set_sail", "--players", "3", "--games", "400", "--jobs", jobs,
                           "--out", str(out)], capture_output=True, text=True, timeout=TIMEOUT, check=False,
                          preexec_fn=_capped(gib))
    assert_one_error_line(proc, f"capped at {gib:.2f} GiB (ulimit -v)", "ulimit -v unlimited")
    assert not (tmp_path / "a").exists()
    helped = subprocess.run([SIMKIT, "sweep", "--help"], capture_output=True, text=True, timeout=TIMEOUT,
                            check=False, preexec_fn=_capped(gib))
    assert helped.returncode == 0 and "Usage: simkit sweep" in helped.stdout, helped.stderr


def test_the_cap_check_lets_a_large_or_absent_cap_and_help_through():
    from simkit.commands.launch import MIN_ADDRESS_SPACE, refusal

    assert refusal(None, ["sweep"]) is None
    assert refusal(MIN_ADDRESS_SPACE, ["sweep"]) is None
    assert refusal(MIN_ADDRESS_SPACE - 1, ["sweep", "--help"]) is None and refusal(1, []) is None
    assert "ulimit -v" in refusal(MIN_ADDRESS_SPACE - 1, ["check", "DIR"])
    assert refusal(1, ["games", "--json"]) is None and refusal(1, ["rules", "set_sail"]) is None


@pytest.mark.parametrize("gib, code", [(0.4, 2), (1.0, 0)])
def test_the_listing_commands_run_under_a_cap_or_say_in_one_line_why_not(gib, code):
    """`simkit games` compiles nothing: it runs under 1 GiB, and under 0.4 GiB, where numba's LLVM
    cannot even be mapped, it is one line (it was an OSError traceback from llvmlite)."""
    proc = subprocess.run([SIMKIT, "rules", "set_sail"], capture_output=True, text=True, timeout=TIMEOUT,
                          check=False, preexec_fn=_capped(gib))
    if code:
        assert_one_error_line(proc, "out of memory while loading", f"{gib:.2f} GiB (ulimit -v)")
    else:
        assert proc.returncode == 0 and "starting_silver" in proc.stdout, proc.stderr


def test_memory_failures_while_loading_are_told_apart_from_other_import_errors():
    import errno

    from simkit.commands.launch import out_of_memory

    assert out_of_memory(MemoryError(), None)
    assert out_of_memory(OSError(errno.ENOMEM, "Cannot allocate memory"), None)
    assert out_of_memory(ImportError("x.so: failed to map segment from shared object"), None)
    assert out_of_memory(OSError("Could not find/load shared object file 'libllvmlite.so'"), 2**30)
    assert not out_of_memory(OSError("Could not find/load shared object file 'libllvmlite.so'"), None)
    assert not out_of_memory(ImportError("No module named 'numba'"), 2**30)


def test_a_memory_error_in_another_command_is_one_line(finished, tmp_path, monkeypatch):
    """`simkit report` out of memory while building the summary: one line with the hint, exit 2,
    and the folder's tables untouched."""
    from simkit.sweeps import finish

    folder = copy_of(finished, tmp_path)
    before = {p.name: p.read_bytes() for p in folder.glob("*.parquet")}

    def starved(*args, **kwargs):
        raise MemoryError()

    monkeypatch.setattr(finish, "rebuild_report", starved)
    result = run("report", folder)
    assert_bad_input(result)
    assert "out of memory" in result.stderr and "--jobs 1" in result.stderr
    assert {p.name: p.read_bytes() for p in folder.glob("*.parquet")} == before


# -- 5: a closed or full standard output ----------------------------------------------------------


def _closed_stdout(args) -> tuple[int, str]:
    proc = subprocess.Popen([SIMKIT, *map(str, args)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    proc.stdout.close()  # before the command writes: every write meets a closed pipe
    try:
        stderr = proc.stderr.read()
        proc.wait(timeout=TIMEOUT)
    finally:
        if proc.poll() is None:
            proc.kill()
    return proc.returncode, stderr


@pytest.mark.parametrize("args", [["games"], ["games", "--json"], ["rules", "dicegame"], ["--help"], [], ["sweep", "--help"]])
def test_a_closed_stdout_is_a_quiet_exit_141(args):
    """`simkit games | head -1`: the reader is gone, nothing is wrong; no message, exit 141 (as a
    shell reports a command ended by SIGPIPE), never 0, so a `check | head` cannot pass by it."""
    assert _closed_stdout(args) == (141, "")


def test_a_sweep_and_a_check_into_a_closed_stdout_finish_their_work_and_exit_141(finished, tmp_path):
    """`simkit sweep ... | head -1` and `simkit check DIR | head -1`: the sweep's folder is whole (its
    tables, summary and report written), and the check still exits 141, never 0, whatever it found."""
    out = tmp_path / "out"
    code, stderr = _closed_stdout(["sweep", "--game", "dicegame", "--players", "2", "--games", "1000", "--jobs", "1",
                                   "--out", out])
    assert (code, stderr) == (141, "")
    assert results.is_complete(out) and (out / "report.html").exists()
    assert pl.read_parquet(out / "games.parquet").height == 1000
    code, stderr = _closed_stdout(["check", copy_of(finished, tmp_path), "--max-seat-gap", "50pt"])
    assert (code, stderr) == (141, "")


def test_report_removes_what_a_killed_sweep_left_half_written(finished, tmp_path):
    """A `.parts.<pid>.tmp` folder (parts set aside, their deletion stopped by a kill -9) and a temporary
    summary: `simkit report` deletes them, and the tables stay as they were."""
    folder = copy_of(finished, tmp_path)
    tables = {p.name: p.read_bytes() for p in folder.glob("*.parquet")}
    (folder / ".parts.999.tmp").mkdir()
    (folder / ".parts.999.tmp" / "games-00000-000000000000-000000000600-0000000000000000.parquet").write_text("x")
    (folder / ".summary.json.999.tmp").write_text("{")
    result = run("report", folder)
    assert result.exit_code == 0, result.stderr
    assert not list(folder.rglob(".*.tmp"))
    assert {p.name: p.read_bytes() for p in folder.glob("*.parquet")} == tables


@pytest.mark.parametrize("args", [["games", "--json"], ["rules", "dicegame"], ["sweep"]])
def test_a_full_stdout_is_one_line(tmp_path, args):
    out = tmp_path / "out"
    if args == ["sweep"]:
        args = ["sweep", "--game", "dicegame", "--players", "2", "--games", "300", "--jobs", "1", "--out", str(out)]
    with open("/dev/full", "w") as full:
        done = subprocess.run([SIMKIT, *args], stdout=full, stderr=subprocess.PIPE, text=True, timeout=TIMEOUT,
                              check=False)
    done.stdout = ""
    assert_one_error_line(done, "cannot write to standard output: No space left on device", "hint:")
    if args[0] == "sweep":
        assert (out / "report.html").exists() and pl.read_parquet(out / "games.parquet").height == 300


# -- 6: numba's cache folder ----------------------------------------------------------------------


@pytest.mark.parametrize("how", ["not a folder", "full"])
def test_an_unusable_numba_cache_is_one_line(tmp_path, how):
    """numba would cache beside the sources instead (a folder not keyed by them): refused, naming
    the folder and the fix, before anything is compiled; the new --out is left as it was found."""
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    cache = blocker / "numba" if how == "not a folder" else tmp_path / "empty-cache"
    out = tmp_path / "out"
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    args = [SIMKIT, "sweep", "--game", "dicegame", "--players", "2", "--games", "200", "--jobs", "1", "--quiet",
            "--out", str(out)]
    if how == "full":
        import resource

        def cap():  # a file-size limit fails writes as a full disk does
            resource.setrlimit(resource.RLIMIT_FSIZE, (200_000, 200_000))

        done = subprocess.run(args, capture_output=True, text=True, timeout=TIMEOUT, env=env, preexec_fn=cap,
                              check=False)
    else:
        done = subprocess.run(args, capture_output=True, text=True, timeout=TIMEOUT, env=env, check=False)
    assert_one_error_line(done, f"cannot write numba's compile cache in {cache}", "NUMBA_CACHE_DIR", "HOME")
    assert not out.exists()
    assert not list(cache.glob(".simkit-probe-*")) if cache.is_dir() else True


# -- 7: a cell whose every game hit the round cap --------------------------------------------------

CAPPED_GAMES = 2000


@pytest.fixture(scope="module")
def all_capped(tmp_path_factory):
    """A dice-game sweep through the CLI whose one cell never finishes a game (a round cap of 1 before a
    target of 200): (its folder, the sweep's standard output)."""
    folder = tmp_path_factory.mktemp("capped") / "cap"
    result = run("sweep", "--game", "dicegame", "--players", "2", "--games", CAPPED_GAMES, "--set", "round_cap=1",
                 "--set", "target=200", "--jobs", "1", "--quiet", "--out", folder)
    assert result.exit_code == 0, (result.stdout, result.stderr)
    return folder, result.stdout


def test_an_all_capped_cell_has_no_figure_and_says_so(all_capped):
    """No decided game: no seat, strategy or dealt-value figure anywhere (it used to be -50.0 ±50.0 points
    against fair, each colour 0.0% and -50.0, the precision 'within ±50.0 points', and summary.json a win
    rate of 0.0 with an interval of 0 to 0.19%): summary.json holds null, the report and the terminal
    say there is no decided game, and the report still says first that the games did not finish."""
    folder, stdout = all_capped
    report = (folder / "report.md").read_text()
    for text in (report, (folder / "report.html").read_text(), stdout):
        assert "-50.0" not in text and "±50.0" not in text
    said = f"no decided game (all {CAPPED_GAMES:,} capped)"
    assert said in stdout and "within ±" not in stdout
    assert "most games did not finish: 100.0% hit the round cap" in report.split("## Overview")[0]
    assert report.count(said) >= 1 + 2 + 4  # the headline, both seats, every colour dealt
    cell = json.loads((folder / "summary.json").read_text())["cells"][0]
    assert cell["decided_games"] == 0 and cell["games"] == CAPPED_GAMES and cell["incomplete_share"] == 1.0
    assert [s["wins"] for s in cell["seats"]] == [0.0, 0.0]
    assert all(s[k] is None for s in cell["seats"] for k in ("win_rate", "ci_low", "ci_high"))
    assert all(s[k] is None for s in cell["seat_advantage"] for k in ("rate", "ci_low", "vs_fair", "vs_fair_high"))
    for figure in ("first_player_advantage", "first_player_advantage_decided", "largest_seat_gap"):
        assert cell[figure]["value"] is None and cell[figure]["ci_low"] is None, figure
    assert cell["seat_uniformity_p"] is None and set(cell["precision"].values()) == {None}
    rows = cell["strategies"] + cell["categories"]["colour"]
    assert rows and all(r["decided_seats"] == 0 and r["capped_share"] == 1.0 for r in rows)
    assert all(r[k] is None for r in rows for k in ("win_rate", "ci_low", "ci_high", "vs_fair"))


def test_check_until_decided_plays_no_look_for_an_all_capped_cell(all_capped):
    """No number of games of these rules decides a figure with no decided game: `check --until-decided`
    used to play two more looks (4,000 games) and then advise raising --budget. Now it plays none, says
    so, and exits as plain `check` does (3, inconclusive), which no longer suggests --until-decided."""
    folder, _ = all_capped
    limits = ["--max-seat-gap", "5pt", "--min-games", "100"]
    plain = run("check", folder, *limits)
    until = run("check", folder, *limits, "--until-decided", "--budget", "6000")
    assert plain.exit_code == until.exit_code == 3, (plain.stdout, until.stdout)
    assert not (folder / "sequential").exists()
    for result in (plain, until):
        assert "no decided game (every game hit the round cap)" in result.stdout
        assert "no number of games would decide" in result.stdout.splitlines()[-1]
        assert not any(words in result.stdout for words in ("--budget", "--until-decided plays", "-50.0"))
    assert "1 look, at most 2,000 games per cell" in until.stdout
