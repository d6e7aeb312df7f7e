"""simkit.sweeps.runner and simkit.sweeps.results with the dice game: results never depend on --jobs,
chunk size, backend or interruption; the tables follow docs/results.md."""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import os
import signal
import subprocess
import sys
import time

import numpy as np
import polars as pl
import pytest

import simkit
from simkit.analysis.intervals import wilson
from simkit.core.errors import InputError
from simkit.core.rng import derive
from simkit.sweeps import finish, results, runner, spec

# Four cells: two rule sets x two player counts, a three-strategy line-up that rotates.
SPEC = {"game": "dicegame", "players": "2,3", "variant": "standard,sudden", "strategies": "careful,random,bold",
        "games": 2400, "seed": 5}
KEYS = {"games": ["cell", "game_index"], "seats": ["cell", "game_index", "seat"]}


def sweep(out, **options):
    return simkit.sweep(out=out, quiet=True, report=False, **{**SPEC, **options})


def assert_same(a: simkit.Results, b: simkit.Results) -> None:
    for table, keys in KEYS.items():
        left, right = getattr(a, table), getattr(b, table)
        assert left.equals(right), table  # the same rows in the same order
        assert left.sort(keys).equals(right.sort(keys)), table
    assert a.cells.equals(b.cells)
    for name in ("games.parquet", "seats.parquet", "cells.parquet"):  # the files too, to the byte
        assert (a.folder / name).read_bytes() == (b.folder / name).read_bytes(), name
    # the summary is the same to the bit (integer sums in a fixed order), not merely close
    assert (a.folder / "summary.json").read_bytes() == (b.folder / "summary.json").read_bytes()


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The sweep played in-process, one chunk per cell."""
    return sweep(tmp_path_factory.mktemp("ref") / "out", jobs=1)


def test_schema(reference, dicegame):
    games, seats, cells = reference.games, reference.seats, reference.cells
    assert games.schema == pl.Schema({
        "cell": pl.Utf8, "game_index": pl.Int64, "seed": pl.UInt64, "players": pl.Int64, "rounds": pl.Int64,
        "turns": pl.Int64, "end_reason": pl.Utf8, "winner": pl.Int64, "n_winners": pl.Int64, "busts": pl.Int64,
        "winning_colour": pl.Utf8})
    assert seats.schema == pl.Schema({
        "cell": pl.Utf8, "game_index": pl.Int64, "seat": pl.Int64, "strategy": pl.Utf8, "score": pl.Int64,
        "rank": pl.Int64, "win": pl.Float64, "rolls_total": pl.Int64, "colour": pl.Utf8})
    assert cells.columns == ["cell", "game", "players", "variant", "overrides", "strategies", "bots", "games",
                             "rules_hash"]
    assert cells["cell"].to_list() == ["dicegame-2p-standard", "dicegame-3p-standard", "dicegame-2p-sudden",
                                       "dicegame-3p-sudden"]
    assert cells["strategies"].unique().to_list() == ["careful,random,bold"]
    assert games.height == 4 * 2400 and seats.height == 2400 * (2 + 3 + 2 + 3)
    assert set(games["end_reason"]) <= set(dicegame.end_reasons)
    assert set(seats["colour"]) <= {"red", "green", "blue", "yellow"}


def test_common_random_numbers(reference):
    """Game i has the same seed in every cell, derived from the root seed and i alone."""
    seeds = reference.games.group_by("game_index").agg(pl.col("seed").n_unique().alias("n"))
    assert seeds["n"].max() == 1
    first = reference.games.filter(pl.col("game_index") < 3)["seed"].to_list()[:3]
    assert first == [int(derive(np.uint64(5), np.uint64(i))) for i in range(3)]


def test_seats_wins_and_winners(reference):
    games, seats = reference.games, reference.seats
    per_game = seats.group_by("cell", "game_index").agg(
        pl.len().alias("rows"), pl.col("win").sum().alias("wins"), (pl.col("rank") == 1).sum().alias("firsts"),
        (pl.col("win") > 0).sum().alias("winners"))
    joined = games.join(per_game, on=["cell", "game_index"])
    assert (joined["rows"] == joined["players"]).all()
    complete = joined.filter(pl.col("end_reason") != "round_cap")
    assert ((complete["wins"] - 1.0).abs() < 1e-12).all()
    assert (joined["winners"] == joined["n_winners"]).all()
    assert ((joined["n_winners"] == 1) == (joined["winner"] >= 0)).all()
    assert (complete["firsts"] == complete["n_winners"]).all()
    assert joined.filter(pl.col("n_winners") > 1).height > 0  # shared wins happen and are split
    shared = seats.filter((pl.col("win") > 0) & (pl.col("win") < 1))["win"]
    assert set(shared.round(12)) <= {0.5, round(1 / 3, 12)}


def test_lineup_rotation(reference):
    """Every strategy sits in every seat equally often (2400 games is a multiple of 3)."""
    counts = reference.seats.group_by("cell", "seat", "strategy").len()
    assert counts["len"].unique().to_list() == [800]
    assert counts.height == 2 * (2 * 3) + 2 * (3 * 3)
    game0 = reference.seats.filter((pl.col("cell") == "dicegame-3p-standard") & (pl.col("game_index") < 2))
    assert game0["strategy"].to_list() == ["careful", "random", "bold", "random", "bold", "careful"]


def test_rotation_rule_directly(dicegame):
    rows = runner.seat_strategies(dicegame, ("careful",), 4, 10, 3)
    assert (rows == 1).all()
    # two strategies at three seats: the tables {random, random, bold} and {random, bold, bold},
    # each in its three orders (simkit.core.seating); game 1 is the second seating, game 7 the same
    rows = runner.seat_strategies(dicegame, ("random", "bold"), 3, 1, 7)
    assert rows.tolist()[:2] == [[2, 0, 0], [0, 0, 2]]
    assert rows[6].tolist() == rows[0].tolist()
    assert sorted(map(tuple, runner.seat_strategies(dicegame, ("random", "bold"), 3, 0, 6).tolist())) == sorted(
        [(0, 2, 0), (2, 0, 0), (0, 0, 2), (0, 2, 2), (2, 2, 0), (2, 0, 2)])


def test_jobs_and_chunks_do_not_change_results(reference, tmp_path):
    assert_same(reference, sweep(tmp_path / "a", jobs=2, chunk=700))
    assert_same(reference, sweep(tmp_path / "b", jobs=1, chunk=1000))
    plan = json.loads((tmp_path / "a" / "plan.json").read_text())
    assert len(plan["chunks"]) == 4 * 4  # 2400 games in chunks of 700
    assert not (tmp_path / "a" / "parts").exists()  # parts go once the final files are in place


def test_a_computed_plan_is_whole_waves_of_chunks_of_one_size(monkeypatch, tmp_path):
    """A plan sized by measured speed cuts each cell into chunks that differ by one game at most
    (no short last chunk), and a one-cell sweep into a multiple of the workers: every worker takes
    as many chunks as the others and they end together. --chunk keeps its exact size."""
    assert runner.even_bounds(10, 3) == [(0, 2), (2, 5), (5, 7), (7, 10)]
    assert runner.even_bounds(7, 7) == [(0, 7)] and runner.even_bounds(5, 9) == [(0, 5)]
    bounds = runner.even_bounds(1_000_000, 28_311)
    assert len(bounds) == 36 and {b - a for a, b in bounds} == {27_777, 27_778}
    assert bounds[0][0] == 0 and bounds[-1][1] == 1_000_000 and all(
        b == c for (_, b), (c, _) in itertools.pairwise(bounds))
    assert runner.chunk_bounds(10, 3) == [(0, 3), (3, 6), (6, 9), (9, 10)]
    # measured speeds are noisy: pin one, then plan a sweep of 100 s of work on two and on three workers
    monkeypatch.setattr(runner, "_rates_and_hashes",
                        lambda cells, need_rates: ([1_000.0] * len(cells), [runner.compiled(c)[1] for c in cells]))
    monkeypatch.setattr(runner, "_execute", lambda *args, **kwargs: (0, 0.0))
    monkeypatch.setattr(finish, "finalise", lambda *args, **kwargs: None)
    for jobs, chunks in ((2, 34), (3, 36)):  # 17 waves of 2.94 s; 12 waves of 2.78 s
        runner.run(spec.load(game="set_sail", players="4", games=100_000), tmp_path / f"j{jobs}", jobs=jobs,
                   quiet=True, force_jobs=True)
        plan = json.loads((tmp_path / f"j{jobs}" / "plan.json").read_text())["chunks"]
        assert len(plan) == chunks
        assert {stop - start for _, start, stop in plan} <= {100_000 // chunks, 100_000 // chunks + 1}


def test_dask_backend(reference, tmp_path):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as c:
        done = sweep(tmp_path / "dask", backend="dask", address=c.scheduler_address, chunk=900)
    assert_same(reference, done)
    assert done.manifest["backend"] == "dask"


class Stop(Exception):
    pass


def interrupted(tmp_path, monkeypatch, after: int, chunk: int = 500, **options):
    """A sweep stopped by an error after `after` chunks; returns its folder."""
    real, calls = runner.run_chunk, []

    def flaky(*args):
        if len(calls) == after:
            raise Stop
        calls.append(args)
        return real(*args)

    monkeypatch.setattr(runner, "run_chunk", flaky)
    with pytest.raises(Stop):
        sweep(tmp_path, jobs=1, chunk=chunk, **options)
    monkeypatch.setattr(runner, "run_chunk", real)
    return tmp_path


def test_resume_completes_an_interrupted_sweep(reference, tmp_path, monkeypatch):
    folder = interrupted(tmp_path / "cut", monkeypatch, after=7)
    parts = sorted(p.name for p in (folder / "parts").iterdir())
    assert len(parts) == 2 * 7 and (folder / "plan.json").exists()
    assert not (folder / "games.parquet").exists()
    with pytest.raises(InputError, match="already holds a sweep"):
        sweep(folder, jobs=1)
    (folder / "parts" / parts[3]).unlink()  # a lost part is played again
    done = simkit.sweep(out=folder, resume=True, quiet=True, report=False, jobs=2)
    assert_same(reference, done)
    assert done.manifest["resumed"] is True
    assert done.manifest["games_this_run"] == 4 * 2400 - (2400 + 1000 - 500)  # 7 chunks done, one lost


def test_resume_with_the_same_options_and_with_different_ones(reference, tmp_path, monkeypatch):
    folder = interrupted(tmp_path / "cut", monkeypatch, after=2)
    with pytest.raises(InputError, match="differ from the sweep"):
        simkit.sweep(out=folder, resume=True, quiet=True, report=False, **{**SPEC, "games": 100})
    assert_same(reference, sweep(folder, resume=True))
    assert_same(reference, sweep(folder, resume=True))  # a finished sweep stays as it is


def test_killed_sweep_keeps_finished_parts_and_resumes(tmp_path):
    """SIGKILL in the middle of a sweep: every part left is whole, and --resume finishes it."""
    options = {"game": "dicegame", "players": 4, "games": 100_000, "seed": 9}
    script = (f"import simkit; simkit.sweep(out={str(tmp_path / 'killed')!r}, jobs=1, chunk=500, quiet=True, "
              f"report=False, **{options!r})")
    proc = subprocess.Popen([sys.executable, "-c", script], start_new_session=True)
    parts = tmp_path / "killed" / "parts"
    deadline = time.time() + 60
    while time.time() < deadline and proc.poll() is None:
        if parts.exists() and len(list(parts.glob("games-*.parquet"))) >= 10:
            break
        time.sleep(0.01)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    finished = sorted(parts.glob("games-*.parquet"))
    assert 10 <= len(finished) < 200, "the sweep should have been stopped in the middle"
    for path in finished:  # whole files only: each one reads, and has its seats part
        assert pl.read_parquet(path).height == 500
        chunk = path.name.removeprefix("games-").rsplit("-", 1)[0]  # <cell>-<start>-<stop>, then the checksum
        assert len(list(parts.glob(f"seats-{chunk}-*.parquet"))) == 1
    resumed = simkit.sweep(out=tmp_path / "killed", resume=True, quiet=True, report=False, jobs=2)
    straight = simkit.sweep(out=tmp_path / "straight", quiet=True, report=False, jobs=1, **options)
    assert resumed.games.equals(straight.games)
    assert resumed.seats.equals(straight.seats)


def test_precision_stop_is_deterministic(tmp_path):
    options = {"game": "dicegame", "players": "2,4", "games": 20_000, "seed": 2, "precision": 0.02}
    a = simkit.sweep(out=tmp_path / "a", quiet=True, report=False, jobs=1, chunk=300, **options)
    b = simkit.sweep(out=tmp_path / "b", quiet=True, report=False, jobs=2, chunk=4000, **options)
    kept = a.cells["games"].to_list()
    assert all(n % runner.PRECISION_STEP == 0 and n < 20_000 for n in kept)
    assert a.games.equals(b.games) and a.seats.equals(b.seats)
    for cell in a.summary["cells"]:  # stopped at the first checkpoint tight enough
        assert cell["precision"]["seat0_half_width"] <= 0.02
        earlier = a.seats.filter((pl.col("cell") == cell["cell"]) & (pl.col("seat") == 0)
                                 & (pl.col("game_index") < cell["games"] - runner.PRECISION_STEP))
        low, high = wilson(earlier["win"].sum(), earlier.height)
        assert (high - low) / 2 > 0.02


def test_precision_stop_survives_resume(tmp_path, monkeypatch):
    options = {"players": "2,4", "variant": "standard", "strategies": "careful", "games": 20_000,
               "precision": 0.02}
    straight = sweep(tmp_path / "straight", jobs=1, chunk=1000, **options)
    folder = interrupted(tmp_path / "cut", monkeypatch, after=5, chunk=800, **options)
    resumed = simkit.sweep(out=folder, resume=True, quiet=True, report=False, jobs=2)
    assert resumed.games.equals(straight.games) and resumed.seats.equals(straight.seats)
    assert resumed.cells["games"].to_list() == straight.cells["games"].to_list()


def test_out_folder_rules(tmp_path):
    taken = tmp_path / "taken"
    taken.mkdir()
    (taken / "notes.txt").write_text("mine")
    with pytest.raises(InputError, match="not empty"):
        sweep(taken)
    with pytest.raises(InputError, match="is a file"):
        sweep(taken / "notes.txt")
    with pytest.raises(InputError, match="no plan.json"):
        sweep(taken, resume=True)
    assert sorted(p.name for p in taken.iterdir()) == ["notes.txt"]


def test_run_options_are_checked_first(tmp_path):
    for options, words in [({"backend": "ray"}, "unknown backend"), ({"backend": "dask"}, "needs --address"),
                           ({"address": "tcp://x:1"}, "is for --backend dask"), ({"jobs": 0}, "--jobs"),
                           ({"chunk": 0}, "--chunk")]:
        with pytest.raises(InputError, match=words):
            sweep(tmp_path / "never", **options)
    assert not (tmp_path / "never").exists()


def test_results_api(reference):
    again = simkit.load(reference.folder)
    assert "games" not in again.__dict__  # read on first access
    assert again.games.equals(reference.games)
    frames = again.to_pandas()
    assert set(frames) == {"games", "seats", "cells"} and len(frames["seats"]) == reference.seats.height
    manifest = again.manifest
    assert manifest["root_seed"] == 5 and set(manifest["rules_hashes"]) == set(again.cells["cell"])
    assert {"python", "numba", "numpy", "platform", "simkit_version", "wall_seconds"} <= set(manifest)
    assert len(again.summary["cells"]) == 4
    with pytest.raises(InputError, match="no finished sweep"):
        simkit.load(reference.folder.parent)
    with pytest.raises(InputError, match="not a folder"):
        simkit.load(reference.folder / "nothing-here")


def test_merge_streams_parts_in_order_across_schemas(tmp_path):
    """Cells of different games carry different metric columns: merged diagonally, in cell and game order."""
    a = [pl.DataFrame({"cell": ["a"] * 2, "game_index": [2, 3], "x": [1, 2]}),
         pl.DataFrame({"cell": ["a"] * 2, "game_index": [0, 1], "x": [3, 4]})]
    b = pl.DataFrame({"cell": ["b"] * 3, "game_index": [0, 1, 2], "y": ["p", "q", "r"]})
    paths = []
    for name, frame in [("a0", a[1]), ("a2", a[0]), ("b0", b)]:
        paths.append(tmp_path / f"{name}.parquet")
        frame.write_parquet(paths[-1])
    results.merge(tmp_path, "games", [(paths[:2], 4), (paths[2:], 2)])  # cell b keeps 2 games (--precision)
    merged = pl.read_parquet(tmp_path / "games.parquet")
    assert merged.columns == ["cell", "game_index", "x", "y"]
    assert merged.rows() == [("a", 0, 3, None), ("a", 1, 4, None), ("a", 2, 1, None), ("a", 3, 2, None),
                             ("b", 0, None, "p"), ("b", 1, None, "q")]
    assert not list(tmp_path.glob(".*tmp"))


def test_noise_label_is_the_skill_knob(dicegame):
    """`careful@0` plays exactly as `careful`; `careful@1` holds at random like `random`."""
    compiled, _ = runner._compiled("dicegame", "standard", "{}", 2)
    seeds = np.arange(1, 4001, dtype=np.uint64)

    def seat0_wins(lineup):
        strategies = runner.seat_strategies(dicegame, lineup, 2, 0, len(seeds))
        _, seats, _ = runner.play(dicegame, compiled, strategies, seeds, lineup=lineup)
        return seats

    assert (seat0_wins(("careful@0", "bold")) == seat0_wins(("careful", "bold"))).all()
    noisy = seat0_wins(("careful@1", "random"))
    table, labels = dicegame.strategy_table(("careful@1", "random"))
    assert labels[-1] == "careful@1" and table[-1, -1] == 1.0 and table[-1, 1] == 12.0
    # careful@1 against random: the two seatings alternate, so each label wins half the decided games
    share = noisy[0::2, 0, 2].sum() + noisy[1::2, 1, 2].sum()
    assert abs(share / noisy[:, :, 2].sum() - 0.5) < 3 * 0.5 / np.sqrt(len(seeds))


def test_bad_noise_label_is_refused(dicegame):
    with pytest.raises(InputError, match="from 0 to 1"):
        spec.load(game="dicegame", strategies="careful@2")
    with pytest.raises(InputError, match="from 0 to 1"):
        spec.load(game="dicegame", strategies="careful@x")


def test_a_long_compile_says_every_few_seconds_which_games_are_still_compiling():
    """The heartbeat behind `preparing engines` (simkit.sweeps.runner._heartbeat): a line per beat naming
    the games still being prepared and the elapsed time, none once every game is ready."""
    import io

    stream = io.StringIO()
    waiting = {"sea_of_thieves": True, "set_sail": False}
    with runner._heartbeat(waiting, time.perf_counter(), stream, every=0.05):
        time.sleep(0.3)
        waiting["sea_of_thieves"] = False
        beats = stream.getvalue().splitlines()
        time.sleep(0.2)
    assert len(beats) >= 2
    assert all(line.startswith("  still preparing sea_of_thieves (compiling; ") for line in beats)
    assert "set_sail" not in stream.getvalue()
    assert stream.getvalue().splitlines() == beats  # nothing once every game is ready
    # two workers take four games in order: the first two not yet ready compile, the others wait
    shared = io.StringIO()
    waiting = {"sea_of_plunder": False, "sea_of_thieves": True, "set_sail": True, "tide_of_avaris": True}
    with runner._heartbeat(waiting, time.perf_counter(), shared, every=0.05, slots=2):
        time.sleep(0.2)
    line = shared.getvalue().splitlines()[0]
    assert line.startswith("  still preparing sea_of_thieves, set_sail (compiling; ")
    assert line.endswith(" s so far; then tide_of_avaris)")
    quiet = io.StringIO()
    with runner._heartbeat({"set_sail": True}, time.perf_counter(), quiet, every=math.inf):
        time.sleep(0.1)
    assert quiet.getvalue() == ""


def test_a_worker_that_holds_its_engines_is_not_restarted_as_a_leak():
    """loky restarts a worker whose memory grew by 300 MB after its first task (with a warning on
    the terminal); a worker that compiled engines holds more. The pool's initializer
    (runner.watch_parent) raises that allowance, so the worker that grew is the one that goes on."""
    pytest.importorskip("psutil")  # loky checks memory only with psutil
    from joblib.externals.loky import get_reusable_executor

    executor = get_reusable_executor(max_workers=1, initializer=runner.watch_parent, reuse=False)
    try:
        first = executor.submit(os.getpid).result()
        # 400 MB written (so resident) and kept by the worker, then past loky's 1 s between checks
        executor.submit(exec, "import sys, time; sys.simkit_held = b'x' * (400 * 2**20); time.sleep(1.5)").result()
        assert executor.submit(os.getpid).result() == first
    finally:
        executor.shutdown(wait=True, kill_workers=True)


def test_engines_are_prepared_largest_first(tmp_path, monkeypatch):
    """Side by side on two cores, an engine handed out last compiles alone: the largest
    (most jitted functions, runner._compile_weight) go first."""
    order = []
    monkeypatch.setattr(runner, "_warm_game", lambda cell, name=None: (order.append(name), (name, 0.0))[1])
    cells = [c for game in ("set_sail", "sea_of_thieves", "sea_of_troubles")
             for c in spec.load(game=game, players="4").cells]
    runner._prepare_engines(cells, 1, "loky", False, tmp_path, quiet=True)
    assert order == ["sea_of_thieves", "sea_of_troubles", "set_sail"]
    assert runner._compile_weight("sea_of_thieves") > runner._compile_weight("set_sail") > 0
    assert runner._compile_weight("dicegame") == 0


def test_a_big_sweep_has_chunks_enough_for_every_worker_and_a_small_one_keeps_them_whole():
    """chunk_seconds: about 3 s chunks, as many for every worker (whole waves, at least four);
    shorter ones (not below one second, in fewer waves) when there are many workers; the chunk
    size never changes a result."""
    cell = spec.load(game="set_sail", players="4").cells[0]
    million = [dataclasses.replace(cell, games=1_000_000)]
    assert runner.chunk_seconds(million, [12_500.0], 2) == pytest.approx(80 / 28)  # 80 s of work: 14 waves of 2
    assert runner.chunk_seconds(million, [12_500.0], 16) == pytest.approx(80 / 64)  # four waves of 16
    assert runner.chunk_seconds(million, [12_500.0], 512) == runner.MIN_CHUNK_SECONDS
    # 20 s of work: one wave of 1.25 s on 16 workers, not 20 one-second chunks in two waves
    assert runner.chunk_seconds(million, [50_000.0], 16) == pytest.approx(20 / 16)
    assert runner.chunk_seconds(million, [50_000.0], 8) == pytest.approx(20 / 16)  # two waves of 8
    # two cells of a slow game: the work of both counts
    slow = [dataclasses.replace(cell, games=10_000)] * 2
    assert runner.chunk_seconds(slow, [1_000.0, 1_000.0], 2) == pytest.approx(20 / 8)
