"""The fault suite, tables (docs/faults.md): a result folder's tables prove they are the sweep's,
every summary is the same to the bit however it was made, and a resume finishes what a killed
sweep left unwritten.

Each test stands for a case a hostile user or an unlucky run meets: another sweep's seats or
games table dropped into a folder (same cells, other seed), half the seat rows deleted, rounds
negated or nulled, a summary whose seat won more games than were played; a sweep with arcs
played with one worker or two, in other chunks, stopped and resumed, or summarised again by
`simkit report`; a sweep killed while writing its report. The dice game stands in for a real game.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import numpy as np
import polars as pl
import pytest

import simkit
from simkit.analysis import arcs, tiers
from simkit.analysis.summary import summarize
from simkit.core.errors import InputError
from simkit.core.files import json_text
from simkit.core.traces import TRACE_SCHEMA
from simkit.sweeps import results, runner
from tests.test_cli import SIMKIT, SWEEP, assert_bad_input, run
from tests.test_faults import OPTIONS, listing
from tests.test_runner import Stop


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A finished dice-game sweep (seed 3) and another of the same cells with seed 4."""
    base = tmp_path_factory.mktemp("tables")
    ours = simkit.sweep(out=base / "ours", quiet=True, report=False, jobs=1, **OPTIONS).folder
    theirs = simkit.sweep(out=base / "theirs", quiet=True, report=False, jobs=1, **{**OPTIONS, "seed": 4}).folder
    return ours, theirs


def copy_of(folder: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)
    return copy


def unseal(folder: Path) -> None:
    """The manifest as a sweep from before the tables were recorded wrote it (no `tables`)."""
    manifest = json.loads((folder / "manifest.json").read_text())
    del manifest["tables"]
    (folder / "manifest.json").write_text(json_text(manifest))


def refused_everywhere(folder: Path, *words: str) -> None:
    """`simkit report`, `simkit check`, simkit.load and `--resume` each refuse the folder with one
    line holding `words`, and leave every file as it was."""
    before = listing(folder)
    for args in (["report", folder], ["check", folder, "--max-seat-gap", "100pt"],
                 [*SWEEP, "--out", folder, "--resume"]):
        result = run(*args)
        assert_bad_input(result)
        for word in words:
            assert word in result.stderr, (args[0], result.stderr)
    with pytest.raises(InputError) as caught:
        simkit.load(folder)
    for word in words:
        assert word in str(caught.value)
    assert listing(folder) == before


# -- tables of another sweep, or edited ----------------------------------------------------------


@pytest.mark.parametrize("table", ["seats.parquet", "games.parquet"])
def test_a_table_of_another_sweep_is_refused_everywhere(finished, tmp_path, table):
    """Same cells, same row counts, other seed: it reads as a table of this sweep, but it is not."""
    ours, theirs = finished
    folder = copy_of(ours, tmp_path)
    shutil.copy(theirs / table, folder / table)
    refused_everywhere(folder, f"{folder / table} is not the table this sweep wrote",
                       "a table of another sweep, or edited?", f"simkit sweep {folder / 'spec.toml'}")


def test_a_seats_table_with_half_its_rows_is_refused(finished, tmp_path):
    folder = copy_of(finished[0], tmp_path)
    seats = pl.read_parquet(folder / "seats.parquet")
    seats.head(seats.height // 2).write_parquet(folder / "seats.parquet")
    refused_everywhere(folder, "seats.parquet is not the table this sweep wrote",
                       f"it holds {seats.height // 2:,} rows, the sweep wrote {seats.height:,}")


@pytest.mark.parametrize("edit, words", [
    (lambda games: games.with_columns(-pl.col("rounds")), "rounds is negative in cell dicegame-2p-standard (game 0)"),
    (lambda games: games.with_columns(pl.when(pl.col("game_index") == 7).then(None).otherwise(pl.col("rounds"))
                                      .alias("rounds")), "rounds is null in cell dicegame-2p-standard (game 7)"),
])
def test_negated_or_null_rounds_are_refused(finished, tmp_path, edit, words):
    """Refused by the seal; and, in a folder whose manifest records no tables, by the summary builder."""
    folder = copy_of(finished[0], tmp_path)
    edit(pl.read_parquet(folder / "games.parquet")).write_parquet(folder / "games.parquet")
    refused_everywhere(folder, "games.parquet is not the table this sweep wrote")
    unseal(folder)
    before = listing(folder)
    result = run("report", folder)
    assert_bad_input(result)
    assert f"{folder / 'games.parquet'} is not whole: {words}" in result.stderr
    assert "rerun the sweep into a new folder" in result.stderr
    assert listing(folder) == before


@pytest.mark.parametrize("damage, words", [
    (lambda seats: seats.filter(pl.col("game_index") % 2 == 0),
     "a game without seat rows in cell dicegame-2p-standard (game 1)"),
    (lambda seats: seats.filter(~((pl.col("game_index") == 5) & (pl.col("seat") == 1))),
     "a game without one seat row per player in cell dicegame-2p-standard (game 5)"),
    (lambda seats: seats.with_columns(pl.when(pl.col("game_index") == 3).then(1.0).otherwise(pl.col("win"))
                                      .alias("win")), "in cell dicegame-2p-standard (game 3)"),
    (lambda seats: pl.concat([seats, seats.filter(pl.col("game_index") == 9)]),
     "a game without one seat row per player in cell dicegame-2p-standard (game 9)"),
])
def test_the_summary_builder_refuses_seat_rows_that_are_not_whole(finished, tmp_path, damage, words):
    """Past the seal (a manifest without table records): every game's seats, once each, with its wins."""
    folder = copy_of(finished[0], tmp_path)
    unseal(folder)
    damage(pl.read_parquet(folder / "seats.parquet")).write_parquet(folder / "seats.parquet")
    with pytest.raises(InputError, match="seats.parquet is not whole: ") as caught:
        summarize(folder)
    assert words in str(caught.value)


def test_a_traces_table_the_sweep_did_not_write_is_refused(finished, tmp_path):
    folder = copy_of(finished[0], tmp_path)
    pl.DataFrame(schema=TRACE_SCHEMA).write_parquet(folder / "traces.parquet")
    with pytest.raises(InputError, match=r"traces.parquet is not a table of this sweep .*move it out"):
        simkit.load(folder)


def test_a_folder_from_before_the_tables_were_recorded_still_loads(finished, tmp_path):
    """The choice for old folders: their tables are read unverified (nothing to verify them against)."""
    folder = copy_of(finished[0], tmp_path)
    unseal(folder)
    assert simkit.load(folder).games.height == OPTIONS["games"]
    assert run("report", folder).exit_code == 0
    assert run(*SWEEP, "--out", folder, "--resume").exit_code == 0


def test_the_manifest_records_every_table(finished):
    folder = finished[0]
    tables = json.loads((folder / "manifest.json").read_text())["tables"]
    assert set(tables) == {"games.parquet", "seats.parquet", "cells.parquet"}
    for name, record in tables.items():
        assert record["sha256"] == hashlib.sha256((folder / name).read_bytes()).hexdigest()
        assert record["rows"] == pl.read_parquet(folder / name).height


# -- a summary no sweep writes -----------------------------------------------------------------------


@pytest.mark.parametrize("edit, words", [
    (lambda cell: cell["seats"][0].update(wins=cell["games"] + 5), "seat 0 won 3005 of 3,000 games, outside 0..3,000"),
    (lambda cell: cell["seats"][1].update(wins=-1.0), "seat 1 won -1.0 of 3,000 games"),
    (lambda cell: cell["seats"][1].update(win_rate=1.5), "seat 1's win_rate is 1.5, outside 0..1"),
    (lambda cell: [s.update(wins=cell["games"] * 0.75) for s in cell["seats"]],
     "its seats won 4500 games in all, more than the 3,000 played"),
    (lambda cell: cell.update(tie_share=-0.25), "tie_share is -0.25, outside 0..1"),
])
def test_check_refuses_a_summary_no_sweep_writes(finished, tmp_path, edit, words):
    folder = copy_of(finished[0], tmp_path)
    summary = json.loads((folder / "summary.json").read_text())
    edit(summary["cells"][0])
    (folder / "summary.json").write_text(json.dumps(summary))
    result = run("check", folder, "--max-seat-gap", "100pt")
    assert_bad_input(result)
    assert "summary.json: cell dicegame-2p-standard" in result.stderr and words in result.stderr
    assert f"simkit report {folder}" in result.stderr


# -- the same summary, to the bit ---------------------------------------------------------------------

# four seats and a short race: three-way shared wins (1/3 each, inexact in binary) among the leaders
ARCS = {"game": "dicegame", "players": "4", "games": 12000, "seed": 11, "arcs": True, "tournament": True,
        "set": ["target=15"]}


def summary_sha(folder: Path) -> str:
    return hashlib.sha256((Path(folder) / "summary.json").read_bytes()).hexdigest()


def arcs_sweep(out: Path, **options) -> Path:
    return simkit.sweep(out=out, quiet=True, report=False, **{**ARCS, "jobs": 1, **options}).folder


def test_summaries_are_the_same_to_the_bit_however_made(tmp_path, monkeypatch):
    """--arcs and --tournament; one worker or two, two chunk sizes, a stopped and resumed run, and
    `simkit report` again on the folder: summary.json's bytes are the same (docs/results.md)."""
    straight = arcs_sweep(tmp_path / "straight", chunk=3000)
    expected = summary_sha(straight)
    assert summary_sha(arcs_sweep(tmp_path / "small", chunk=1100)) == expected
    assert summary_sha(arcs_sweep(tmp_path / "two", chunk=3000, jobs=2)) == expected
    real, calls = runner.run_chunk, []

    def flaky(*args):
        if len(calls) == 2:
            raise Stop
        calls.append(args)
        return real(*args)

    monkeypatch.setattr(runner, "run_chunk", flaky)
    with pytest.raises(Stop):
        arcs_sweep(tmp_path / "cut", chunk=1500)
    monkeypatch.setattr(runner, "run_chunk", real)
    resumed = simkit.sweep(out=tmp_path / "cut", resume=True, quiet=True, report=False, jobs=1).folder
    assert summary_sha(resumed) == expected
    assert run("report", straight).exit_code == 0
    assert summary_sha(straight) == expected


def test_the_summary_does_not_depend_on_the_order_of_the_rows(tmp_path):
    """The same tables with every row in another order (as another engine, chunking or thread
    count may deliver them): the same summary, to the bit, arcs and tournament figures included."""
    folder = arcs_sweep(tmp_path / "ordered", chunk=4000)
    shuffled = tmp_path / "shuffled"
    shutil.copytree(folder, shuffled)
    for name in ("games.parquet", "seats.parquet", "traces.parquet"):
        table = pl.read_parquet(folder / name)
        table.sample(fraction=1.0, shuffle=True, seed=5).write_parquet(shuffled / name, row_group_size=5000)
    assert json_text(summarize(shuffled)) == json_text(summarize(folder))


def test_arcs_and_tier_sums_do_not_depend_on_the_order_of_the_rows(tmp_path):
    """The figures that once summed floats in polars' order (a leader's wins, a mean score, the
    tiers' rounds interval), on tables rich in three-way shared wins, read in two row orders and
    several times: the same to the bit."""
    rng = np.random.default_rng(3)
    n = 60_000
    leader = rng.integers(0, 4, n)
    share = rng.choice([1.0, 1 / 3, 0.5, 0.0], n)
    index = np.arange(n)
    games = pl.DataFrame({"cell": "c", "game_index": index, "winner": np.where(share == 1.0, leader, -1),
                          "rounds": rng.integers(4, 60, n), "n_winners": np.select([share == 1.0, share == 0.5,
                                                                                    share > 0], [1, 2, 3], 1),
                          "end_reason": "target"})
    seats = pl.DataFrame({"cell": "c", "game_index": np.repeat(index, 4), "seat": np.tile(np.arange(4), n),
                          "win": np.where(np.tile(np.arange(4), n) == np.repeat(leader, 4), np.repeat(share, 4), 0.0),
                          "score": rng.integers(0, 90, 4 * n)})
    traces = pl.DataFrame({"cell": "c", "game_index": np.repeat(index, 3), "round": np.tile([1, 2, 3], n),
                           "seat": 0, "score": rng.integers(0, 90, 3 * n), "top": 90,
                           "leader": np.repeat(leader, 3)})
    figures = []
    for order in ("ordered", "shuffled"):
        folder = tmp_path / order
        folder.mkdir()
        for name, frame in (("games", games), ("seats", seats), ("traces", traces)):
            frame = frame if order == "ordered" else frame.sample(fraction=1.0, shuffle=True, seed=1)
            frame.write_parquet(folder / f"{name}.parquet", row_group_size=2_000)
        scan = {name: pl.scan_parquet(folder / f"{name}.parquet") for name in ("games", "seats", "traces")}
        for _ in range(3):
            lead = arcs.leaders(scan["traces"])
            figures.append(json_text({
                "leading": arcs.win_when_leading(lead, scan["games"], scan["seats"]).to_dicts(),
                "ahead": arcs.win_when_leading_ahead(lead, scan["games"], scan["seats"]).to_dicts(),
                "scores": arcs.score_by_round(scan["traces"]).to_dicts(),
                "rounds": tiers._rounds(scan["games"], ["c"])}))
    assert all(f == figures[0] for f in figures)


# -- a sweep killed while writing its report ------------------------------------------------------------


def test_a_sweep_killed_while_writing_its_report_is_finished_by_resume(tmp_path):
    """kill -9 once the tables are whole and the report is being written: `--resume` writes the
    summary and report from the tables (not "already complete" and a report that does not
    exist), and removes what the killed writes left behind."""
    out = tmp_path / "out"
    proc = subprocess.Popen([SIMKIT, "sweep", "--game", "dicegame", "--players", "2", "--games", "20000",
                             "--chunk", "5000", "--arcs", "--jobs", "1", "--quiet", "--out", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.time() + 240
    while not results.is_complete(out) or not (out / "summary.json").exists():
        assert time.time() < deadline and proc.poll() is None, proc.communicate()
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.communicate()
    (out / "report.html").unlink(missing_ok=True)  # however far the report had got: its last file is not there
    (out / "summary.json").unlink()  # nor, in a kill a moment earlier, the summary
    (out / ".report.html.123.tmp").write_text("a write stopped mid-way")
    (out / ".parts.123.tmp").mkdir()  # parts set aside, their deletion stopped
    (out / ".parts.123.tmp" / "games-00000-000000000000-000000005000-0000000000000000.parquet").write_text("x")
    result = run(*SWEEP, "--out", out, "--resume")
    assert result.exit_code == 0, result.stderr
    assert "wrote the missing summary.json and report.html from its tables" in result.stdout
    assert (out / "report.html").exists() and (out / "report.md").exists() and (out / "summary.json").exists()
    assert list((out / "plots").glob("*.png"))
    assert not list(out.rglob(".*.tmp")) and not (out / ".simkit.lock").exists()
    straight = simkit.sweep(out=tmp_path / "straight", game="dicegame", players=2, games=20000, chunk=5000,
                            arcs=True, jobs=1, quiet=True, report=False)
    assert summary_sha(out) == summary_sha(straight.folder)
