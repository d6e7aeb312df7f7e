"""The `simkit` command: JSON listings, exit codes, one `error:` line per bad input, and
a real run of the installed console script."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from simkit.commands.cli import app

SIMKIT = shutil.which("simkit", path=str(Path(sys.executable).parent)) or shutil.which("simkit")


def run(*args: str):
    return CliRunner().invoke(app, [str(a) for a in args])


def assert_bad_input(result) -> None:
    assert result.exit_code == 2, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert "Traceback" not in result.stdout + result.stderr


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A finished dice-game sweep made by the installed console script in a subprocess."""
    assert SIMKIT, "the simkit console script is not installed (pip install -e .)"
    folder = tmp_path_factory.mktemp("cli") / "done"
    done = subprocess.run(
        [SIMKIT, "sweep", "--game", "dicegame", "--players", "2,3", "--games", "3000", "--seed", "4",
         "--jobs", "1", "--out", str(folder)],
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert f"report: {folder / 'report.html'}" in done.stdout
    # the headline comes first in the terminal, then where the report is (make demo)
    assert 0 <= done.stdout.index("Headline:") < done.stdout.index("report: ")
    assert "Precision reached:" in done.stdout
    assert "\x1b" not in done.stdout  # no progress bar when stdout is not a terminal
    return folder


def test_console_script_sweep(finished):
    names = {p.name for p in finished.iterdir()}
    assert {"games.parquet", "seats.parquet", "cells.parquet", "summary.json", "manifest.json", "spec.toml",
            "report.md", "report.html", "plan.json"} <= names
    assert "parts" not in names


def test_console_script_bad_input(tmp_path):
    done = subprocess.run([SIMKIT, "sweep", "--game", "dicegame", "--set", "target=1", "--out", str(tmp_path / "x")],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2
    assert done.stderr.startswith("error: target") and done.stderr.count("\n") == 1
    assert not (tmp_path / "x").exists()


def test_resolved_spec_reruns(finished, tmp_path):
    result = run("sweep", finished / "spec.toml", "--jobs", "1", "--quiet", "--out", tmp_path / "again")
    assert result.exit_code == 0, result.stderr
    import polars as pl

    for table in ("games", "seats", "cells"):
        a = pl.read_parquet(finished / f"{table}.parquet")
        b = pl.read_parquet(tmp_path / "again" / f"{table}.parquet")
        assert a.equals(b), table


def test_listings_json(dicegame):
    games = json.loads(run("games", "--json").stdout)
    dice = next(g for g in games if g["game"] == "dicegame")
    assert dice == {"game": "dicegame", "title": dicegame.title, "players": [2, 3, 4],
                    "variants": ["standard", "quick", "duel", "sudden"]}
    rules = json.loads(run("rules", "dicegame", "--json").stdout)
    assert [r["name"] for r in rules] == ["target", "round_cap", "die", "last_chance", "red_bonus", "head_start",
                                         "first_seat_limit", "first_seat_hold_bonus", "five_bonus", "components"]
    assert all(set(r) == {"name", "default", "allowed", "meaning", "source"} and r["source"] for r in rules)
    quick = json.loads(run("rules", "dicegame", "--variant", "quick", "--json").stdout)
    assert quick[0]["default"] == 20 and rules[0]["default"] == 40 and rules[0]["allowed"] == "10..200"
    strategies = json.loads(run("strategies", "dicegame", "--json").stdout)
    assert [s["name"] for s in strategies] == ["random", "careful", "bold", "lookahead"]
    assert all(s["description"] for s in strategies)


def test_listings_as_tables():
    assert "dicegame" in run("games").stdout
    assert "red_bonus" in run("rules", "dicegame").stdout
    assert "careful (default)" in run("strategies", "dicegame").stdout
    assert run().exit_code == 0 and "sweep" in run().stdout


SWEEP = ["sweep", "--quiet", "--jobs", "1"]


@pytest.mark.parametrize(
    "args, words",
    [
        # the shared contract script's cases
        (["--game", "dicegamex", "--players", "4", "--games", "10"], "did you mean 'dicegame'"),
        (["--game", "dicegame", "--players", "99", "--games", "10"], "not 99"),
        (["--game", "dicegame", "--players", "4", "--games", "0"], "games"),
        (["--game", "dicegame", "--players", "4", "--variant", "no_such_variant", "--games", "10"], "unknown variant"),
        (["--game", "dicegame", "--players", "4", "--set", "no_such_param=1", "--games", "10"],
         "unknown rule parameter"),
        (["--game", "dicegame", "--players", "4", "--strategies", "no_such_bot", "--games", "10"], "unknown strategy"),
        # the rules' own range checks and the command line's
        (["--game", "dicegame", "--set", "target=1000"], "out of range"),
        (["--game", "dicegame", "--players", "3", "--variant", "duel"], "for 2 players"),
        (["--game", "dicegame", "--seed", "-1"], "seed"),
        (["--game", "dicegame", "--games", "many"], "--games"),
        (["--gmae", "dicegame"], "No such option"),
        (["--game", "dicegame", "--backend", "spark"], "unknown backend"),
        (["--game", "dicegame", "--backend", "dask"], "--address"),
        (["--game", "dicegame", "--precision", "2"], "precision"),
        (["no_such_spec.toml"], "not found"),
        # values that once gave tracebacks, ran out of memory, or were silently accepted
        (["--game", "dicegame", "--set", "target=inf"], "must be an integer"),
        (["--game", "dicegame", "--set", "target=-inf"], "must be an integer"),
        (["--game", "dicegame", "--set", "target=nan"], "must be an integer"),
        (["--game", "dicegame", "--set", "target=3,4,5"], "target=[3,4,5]"),
        (["--game", "dicegame", "--games", "1000000000000"], "at most 1,000,000,000"),
        (["--game", "dicegame", "--players", "2-1000000000"], "--players"),
        (["--game", "dicegame", "--players", "2-"], "--players"),
        (["--game", "dicegame", "--variant", ""], "empty variant"),
        (["--game", "dicegame", "--variant", "quick+quick"], "named twice"),
        (["--game", "dicegame", "--precision", "0.5"], "0.5pt"),
        (["--game", "dicegame", "--precision", "fine"], "precision"),
        (["--game", "dicegame", "--strategies", "careful", "bold"], "--strategies a,b"),
    ],
)
def test_sweep_bad_input(args, words, tmp_path):
    result = run(*SWEEP, *args, "--out", tmp_path / "out")
    assert_bad_input(result)
    assert words in result.stderr
    assert not (tmp_path / "out").exists()


def test_bad_spec_files(tmp_path):
    malformed = tmp_path / "malformed.toml"
    malformed.write_text('name = "x"\nseed = = 1\n')
    result = run(*SWEEP, malformed)
    assert_bad_input(result)
    assert f"{malformed}:2: malformed TOML" in result.stderr
    unknown_key = tmp_path / "key.toml"
    unknown_key.write_text('[[study]]\ngame = "dicegame"\nstrategy = ["bold"]\n')
    result = run(*SWEEP, unknown_key)
    assert_bad_input(result)
    assert "key.toml:3" in result.stderr and "did you mean 'strategies'" in result.stderr


@pytest.mark.parametrize("body, words", [
    ('[[study]]\ngame = "dicegame"\nstrategies = [1]\n', "must be line-ups"),
    ('[[study]]\ngame = "dicegame"\nstrategies = { careful = 1 }\n', "must be line-ups"),
    (b'name = "caf\xe9"\n', "not UTF-8"),
])
def test_odd_spec_values(body, words, tmp_path):
    spec = tmp_path / "odd.toml"
    spec.write_bytes(body if isinstance(body, bytes) else body.encode())
    result = run(*SWEEP, spec, "--out", tmp_path / "out")
    assert_bad_input(result)
    assert words in result.stderr


def test_precision_in_points_and_the_run_line(tmp_path):
    result = run(*SWEEP, "--game", "dicegame", "--players", "2", "--games", "20000", "--precision", "2pt",
                 "--out", tmp_path / "p")
    assert result.exit_code == 0, result.stderr
    assert "3,000 games kept; this run played 20,000 games (17,000 past the --precision stops" in result.stdout
    assert "preparing engines" in result.stdout
    again = run(*SWEEP, "--out", tmp_path / "p", "--resume")
    assert again.exit_code == 0 and "already complete" in again.stdout
    (tmp_path / "p" / "games.parquet").unlink()
    assert_bad_input(run(*SWEEP, "--out", tmp_path / "p", "--resume"))


def test_replay_refuses_a_list_and_shows_overrides():
    assert_bad_input(run("replay", "dicegame", "--set", "target=[20,30]"))
    result = run("replay", "dicegame", "--set", "target=20", "--players", "2")
    assert result.stdout.startswith("dicegame, 2 players, standard, target=20, seed ")


def test_unwritable_out(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    result = run(*SWEEP, "--game", "dicegame", "--games", "10", "--out", blocker / "sub")
    assert_bad_input(result)
    assert "cannot write to --out" in result.stderr
    if os.geteuid() != 0:  # root writes anywhere
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        assert_bad_input(run(*SWEEP, "--game", "dicegame", "--games", "10", "--out", locked / "sub"))


def test_existing_results_are_left_untouched(finished):
    before = {p.name: (p.stat().st_mtime_ns, p.read_bytes()) for p in finished.iterdir() if p.is_file()}
    for args in (["--game", "dicegame", "--games", "10"], ["--game", "dicegame", "--set", "target=1"],
                 ["--game", "dicegame", "--games", "10", "--resume"]):
        assert_bad_input(run(*SWEEP, *args, "--out", finished))
    after = {p.name: (p.stat().st_mtime_ns, p.read_bytes()) for p in finished.iterdir() if p.is_file()}
    assert after == before


def test_check_gate(finished):
    # the dice game's seats are far apart (its rules favour the first roller): a 1-point gap limit is
    # breached with the whole interval beyond it; generous limits pass; no limit at all is bad input
    result = run("check", finished, "--max-seat-gap", "1pt", "--max-incomplete", "0.5")
    assert result.exit_code in (1, 3), result.stdout
    assert all(line.split(":")[0] in ("breach", "inconclusive", "failed") for line in result.stdout.splitlines())
    result = run("check", finished, "--max-seat-gap", "100pt", "--max-incomplete", "1",
                 "--max-first-player-advantage", "0.9")
    assert result.exit_code == 0 and result.stdout.startswith("ok: 6 of 6 checks ok over 2 cells"), result.stdout
    assert_bad_input(run("check", finished.parent / "nothing", "--max-seat-gap", "3pt"))
    assert_bad_input(run("check", finished))


def test_report_rebuilds(finished, tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(finished, copy)
    (copy / "report.md").unlink()
    result = run("report", copy)
    assert result.exit_code == 0 and (copy / "report.md").exists()
    assert_bad_input(run("report", tmp_path / "missing"))


def test_replay_narrates():
    result = run("replay", "dicegame", "--players", "3", "--strategies", "bold,random", "--seed", "42")
    assert result.exit_code == 0, result.stderr
    out = result.stdout.splitlines()
    assert out[0] == "dicegame, 3 players, standard, seed 42: seat 0 bold, seat 1 random, seat 2 bold"
    assert any("is dealt" in line for line in out) and any(" rolls " in line for line in out)
    assert any(line.startswith("end: ") for line in out)
    assert "rolls_total" in result.stdout and "colour" in result.stdout
    assert run("replay", "dicegame", "--seed", "42", "--players", "3", "--strategies", "bold,random").stdout == (
        result.stdout)
    assert_bad_input(run("replay", "dicegame", "--variant", "duel", "--players", "4"))
    assert_bad_input(run("replay", "dicegam"))


def test_replay_is_the_sweep_game(finished):
    import polars as pl

    games = pl.read_parquet(finished / "games.parquet").filter(pl.col("cell") == "dicegame-3p-standard").row(
        7, named=True)
    result = run("replay", "dicegame", "--players", "3", "--seed", str(games["seed"]))
    assert f"after {games['rounds']} rounds, {games['turns']} turns" in result.stdout


def test_bench_library():
    from simkit.commands.bench import bench

    rows = bench(["dicegame"], games=2000, players=2, nojit_seconds=0.3)
    assert [r["preset"] for r in rows] == ["careful", "random"]
    for r in rows:
        assert r["identical"] and r["nojit_games"] >= 1
        assert r["games_per_second"] > 0 and r["turns_per_second"] > r["games_per_second"]
        assert r["speedup"] > 1


def test_bench_names_the_first_call_a_compile_then_a_cache_load(tmp_path):
    """The first call's label is read from numba's compile events: an empty cache compiles, the
    next process loads what the first wrote (an entry need not be jitted itself)."""
    import os
    import sys

    code = ("from simkit.commands.bench import _cell, _first_call; "
            "print(_first_call(_cell('dicegame', 2, None))[1])")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    labels = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                             env=env).stdout.strip().splitlines()[-1] for _ in range(2)]
    assert labels == ["compile", "cache load"]


def test_unimportable_game_module_is_bad_input(tmp_path):
    """A game module named in SIMKIT_GAME_MODULES that cannot be imported is an input error."""
    import os

    env = {**os.environ, "SIMKIT_GAME_MODULES": os.environ.get("SIMKIT_GAME_MODULES", "") + ",no_such.module"}
    done = subprocess.run([SIMKIT, "sweep", "--game", "module", "--games", "10", "--out", str(tmp_path / "x")],
                          capture_output=True, text=True, check=False, env=env)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("error: cannot import game module 'no_such.module'")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert not (tmp_path / "x").exists()


def test_replay_takes_a_flat_list_for_a_per_seat_parameter(dicegame):
    done = run("replay", "dicegame", "--players", "2", "--set", "head_start=[5,0,0,0]")
    assert done.exit_code == 0 and "head_start=(5, 0, 0, 0)" in done.stdout
    grid = run("replay", "dicegame", "--players", "2", "--set", "head_start=[[5,0,0,0],[0,0,0,0]]")
    assert grid.exit_code == 2 and "one value" in grid.stderr


def test_the_compile_breakdown_folds_numba_s_nested_compile_events_per_function():
    """simkit bench --compile: a function's own compile time is its compile less its callees'."""
    from numba.core.event import install_recorder

    from simkit.commands.bench import _compile_events
    from simkit.core.jit import jit

    @jit(cache=False)
    def leaf(x):
        return x + 1

    @jit(cache=False)
    def root(x):
        return leaf(x) * 2 + leaf(x + 1)

    with install_recorder("numba:compile") as recorder:
        assert root(1) == 7
    rows = {row["function"].rsplit(".", 1)[-1]: row for row in _compile_events(recorder.buffer)}
    assert set(rows) == {"leaf", "root"} and rows["leaf"]["compiles"] == 1 and rows["root"]["compiles"] == 1
    assert rows["leaf"]["self_seconds"] == pytest.approx(rows["leaf"]["inclusive_seconds"])
    assert rows["root"]["self_seconds"] == pytest.approx(rows["root"]["inclusive_seconds"]
                                                         - rows["leaf"]["inclusive_seconds"])
    assert 0 < rows["root"]["self_seconds"] < rows["root"]["inclusive_seconds"]


def test_python_dash_m_simkit_is_the_same_command_line():
    """`python -m simkit` runs the CLI: it lists the games and refuses bad input with one error line."""
    listed = subprocess.run([sys.executable, "-m", "simkit", "games"], capture_output=True, text=True, timeout=120,
                            check=False)
    assert listed.returncode == 0 and "set_sail" in listed.stdout
    refused = subprocess.run([sys.executable, "-m", "simkit", "sweep", "--games", "x"], capture_output=True,
                             text=True, timeout=120, check=False)
    assert refused.returncode == 2 and refused.stderr.count("error:") == 1 and "Traceback" not in refused.stderr
