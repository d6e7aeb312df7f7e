"""The measuring scripts of benchmarks/ that the documentation's figures come from: their arithmetic,
on cases worked by hand."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def load(name: str):
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def chunk(worker: int, start: int, games: int, wall: float) -> dict:
    return {"cell_index": 0, "start": start, "stop": start + games, "worker": worker, "wall": wall,
            "seconds": wall * 0.9}


def test_sweep_costs_projects_chunk_by_chunk_with_each_workers_start_up():
    """Four chunks of 1,000 games, 1 s each, played by two workers whose first chunks took 0.5 s
    more: the start-up is 0.5 s; two workers end at 2.5 s; four take one chunk each, all first
    (1.5 s); one worker plays all four after one start-up (4.5 s). A slower chunk at the end is
    taken by the worker that frees up first."""
    costs = load("sweep_costs")
    chunks = [chunk(7, 0, 1000, 1.5), chunk(8, 1000, 1000, 1.5), chunk(7, 2000, 1000, 1.0),
              chunk(8, 3000, 1000, 1.0)]
    assert costs.start_up(chunks) == pytest.approx(0.5)
    assert costs.makespan(chunks, 2, 0.5) == pytest.approx(2.5)
    assert costs.makespan(chunks, 4, 0.5) == pytest.approx(1.5)
    assert costs.makespan(chunks, 1, 0.5) == pytest.approx(4.5)
    uneven = chunks + [chunk(7, 4000, 1000, 3.0)]
    assert costs.makespan(uneven, 2, 0.5) == pytest.approx(5.5)  # 2.5 s, then the 3 s chunk on either
    assert costs.start_up([chunk(7, 0, 1000, 1.0)]) == 0.0  # a worker with one chunk: nothing to compare


@pytest.mark.parametrize("jobs, said", [("0,1", "a job count is 1 or more"), ("1,x", "not a comma-separated"),
                                        ("1,4096", "this machine lets this process use")])
def test_scaling_refuses_job_counts_it_cannot_measure_in_one_line(jobs, said):
    done = subprocess.run([sys.executable, str(BENCHMARKS / "scaling.py"), "--jobs", jobs], capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [done.stderr.strip()] and done.stderr.startswith("error: ")
    assert said in done.stderr


SCRIPTS = sorted(str(p.relative_to(BENCHMARKS)) for p in BENCHMARKS.rglob("*.py") if not p.name.startswith("_"))


@pytest.mark.parametrize("script", SCRIPTS)
def test_every_script_imports_and_its_usage_line_names_where_it_is(script, monkeypatch):
    """Imported, not run (most play for minutes): its own imports resolve from where it lies (the
    side-by-side scripts import benchmarks/_checkout.py), and the command its docstring gives is
    the path it has."""
    path = BENCHMARKS / script
    monkeypatch.syspath_prepend(str(path.parent))
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert f"python benchmarks/{script}" in module.__doc__
