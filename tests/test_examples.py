"""The designer's example scripts of examples/: each runs to the end at a tiny size on the test
dice game (registered by conftest.py) and prints what its docstring says, and examples/README.md
and docs/getting-started.md list every one."""

from __future__ import annotations

import re
import runpy
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.fixture
def run(tmp_path, monkeypatch, capsys):
    """run(script, *args): the script's output, run as `python examples/<script> args` would run it,
    in this process (it skips the imports a subprocess would pay for again) and in tmp_path. An
    exit other than a normal end (SystemExit, an exception) fails the test."""
    monkeypatch.chdir(tmp_path)

    def run(script: str, *args: str) -> str:
        monkeypatch.setattr(sys, "argv", [str(EXAMPLES / script), *args])
        capsys.readouterr()
        runpy.run_path(str(EXAMPLES / script), run_name="__main__")
        return capsys.readouterr().out

    return run


def test_seat_edge_by_rule_prints_a_line_per_value_and_plots_them(run, tmp_path):
    out = run("seat_edge_by_rule.py", "--game", "dicegame", "--set", "target=[20,30,40]", "--games", "200",
              "--out", str(tmp_path / "sweep"))
    rows = [line for line in out.splitlines() if line.startswith("target=")]
    assert [row.split()[0] for row in rows] == ["target=20", "target=30", "target=40"]
    assert all(re.search(r"[+-]\d+\.\d +[+-]\d+\.\d to [+-]\d+\.\d", row) for row in rows), rows
    assert (tmp_path / "sweep" / "seat0_edge.png").stat().st_size > 0


def test_win_rate_by_strategy_and_seat_sweeps_or_loads_the_same_table(run):
    played = run("win_rate_by_strategy_and_seat.py", "--game", "dicegame", "--players", "2",
                 "--strategies", "careful,bold", "--games", "200")
    folder = re.search(r"^sweep: (.+)$", played, re.MULTILINE).group(1)
    assert "seat 0" in played and "seat 1" in played
    assert re.search(r"careful .*%", played) and re.search(r"bold .*%", played)
    loaded = run("win_rate_by_strategy_and_seat.py", folder)
    assert loaded.splitlines()[1:] == played.splitlines()[1:]  # all but the folder's line


def test_compare_component_sets_pairs_the_games(run, tmp_path):
    out = run("compare_component_sets.py", "--game", "dicegame", "--sets", "standard,alt-loaded", "--games", "200",
              "--out", str(tmp_path / "sweep"))
    assert "200 paired games" in out
    assert re.search(r"difference \(alt-loaded - standard\): [+-]\d+\.\d points", out)
    assert "x tighter" in out and "the report's figure" in out


def test_even_the_seats_names_an_answer_and_every_seat_at_it(run, tmp_path):
    out = run("even_the_seats.py", "--game", "dicegame", "--param", "head_start", "--strategies", "careful",
              "--max-games", "1000", "--validate-games", "1000", "--out", str(tmp_path / "tune"))
    assert re.search(r"^head_start = \d+-\d+-\d+-\d+ \((settled|unsettled)\): largest seat gap", out, re.MULTILINE)
    assert len(re.findall(r"^[01] +\d+\.\d%", out, re.MULTILINE)) == 2
    assert (tmp_path / "tune" / "tune.md").exists()


@pytest.mark.parametrize("script", sorted(p.name for p in EXAMPLES.glob("*.py")))
def test_every_example_is_listed_run_here_and_its_docstring_runs_it_from_where_it_is(script):
    assert f"({script})" in (EXAMPLES / "README.md").read_text()
    assert f"`examples/{script}`" in (EXAMPLES.parent / "docs" / "getting-started.md").read_text()
    assert f'run("{script}"' in Path(__file__).read_text()  # a new example comes with its test
    assert f"python examples/{script}" in (EXAMPLES / script).read_text().split('"""')[1]
