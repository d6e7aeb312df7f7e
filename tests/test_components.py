"""Component sets as a rule parameter, rules that travel with chunks and
the exclusive claim of a result folder (docs/architecture.md, "A sweep's lifecycle"), on the test dice game."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

import simkit
from simkit.commands.cli import app
from simkit.core.components import ComponentSet, check_value, shipped
from simkit.core.errors import InputError
from simkit.sweeps import runner
from simkit.sweeps.results import Claim
from tests.dicegame import COMPONENTS


def sweep(out, **options):
    options = {"game": "dicegame", "players": "2", "strategies": "careful", "games": 600, "seed": 7,
               "quiet": True, "report": False, "jobs": 1, **options}
    return simkit.sweep(out=out, **options)


def test_shipped_sets_and_values(tmp_path):
    assert shipped(COMPONENTS) == ("standard", "alt-loaded")
    assert check_value(COMPONENTS, "alt-loaded") == "alt-loaded"
    assert check_value(COMPONENTS, str(tmp_path)) == str(tmp_path.resolve())
    with pytest.raises(InputError, match="did you mean 'alt-loaded'"):
        check_value(COMPONENTS, "alt-loadd")
    (tmp_path / "f.txt").write_text("")
    with pytest.raises(InputError, match="is a file"):
        check_value(COMPONENTS, str(tmp_path / "f.txt"))


def test_overlay_reads_the_sets_own_file_else_the_base_one(tmp_path):
    (tmp_path / "d6.txt").write_text("2 2 3 4 5 6\n")
    assert "1 2 3 4 5 6" in ComponentSet.open(COMPONENTS).read_text("d6.txt")
    assert "1 2 3 4 6 6" in ComponentSet.open(COMPONENTS, "alt-loaded").read_text("d6.txt")
    assert ComponentSet.open(COMPONENTS, str(tmp_path)).read_text("d6.txt") == "2 2 3 4 5 6\n"
    assert ComponentSet.open(COMPONENTS, "alt-loaded").where("d6.txt") == "dicegame_components/alt-loaded/d6.txt"


def test_a_grid_over_sets_plays_the_same_seeds_and_hashes_each_set(tmp_path, dicegame):
    r = sweep(tmp_path / "grid", set=["components=[\"standard\", \"alt-loaded\"]"])
    cells = r.cells.sort("cell")
    assert cells["cell"].to_list() == ["dicegame-2p-standard-components=alt-loaded",
                                       "dicegame-2p-standard-components=standard"]
    assert cells["rules_hash"].n_unique() == 2
    games = r.games.pivot(on="cell", index="game_index", values="seed")
    assert (games[:, 1] == games[:, 2]).all()  # common random numbers across the sets
    plain = sweep(tmp_path / "plain")
    standard = r.games.filter(pl.col("cell").str.ends_with("=standard")).drop("cell")
    assert standard.equals(plain.games.drop("cell"))
    loaded = r.games.filter(pl.col("cell").str.ends_with("=alt-loaded"))
    assert loaded["rounds"].mean() < standard["rounds"].mean()  # a die with two 6s races faster
    assert simkit.load(r.folder).manifest["spec"]["cells"][0]["overrides"]["components"] in ("standard", "alt-loaded")


def test_a_designers_folder_is_validated_and_named_in_errors(tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "d6.txt").write_text("# my die\n1 2 3 4 5\n")
    with pytest.raises(InputError, match=r"mine/d6.txt:2: a d6 has 6 faces"):
        sweep(tmp_path / "a", set={"components": str(mine)})
    (mine / "d6.txt").write_text("1 2 3 4 5 6\n")
    (mine / "d7.txt").write_text("oops")
    with pytest.raises(InputError, match="d7.txt: not a component file"):
        sweep(tmp_path / "b", set={"components": str(mine)})
    (mine / "d7.txt").unlink()
    r = sweep(tmp_path / "c", set={"components": str(mine)})
    assert r.cells["cell"].to_list() == ["dicegame-2p-standard"]
    assert not (tmp_path / "a").exists() or not any((tmp_path / "a").iterdir())  # a refused sweep leaves nothing


def test_components_on_the_command_line(tmp_path):
    cli = CliRunner()
    listed = cli.invoke(app, ["rules", "dicegame", "--json"])
    assert '"allowed": "standard|alt-loaded|<folder>"' in listed.output
    ran = cli.invoke(app, ["sweep", "--game", "dicegame", "--players", "2", "--games", "50", "--components",
                           "alt-loaded", "--out", str(tmp_path / "x"), "--quiet"])
    assert ran.exit_code == 0, ran.output
    assert simkit.load(tmp_path / "x").cells["overrides"][0] == '{"components": "alt-loaded"}'
    bad = cli.invoke(app, ["sweep", "--game", "dicegame", "--components", "nope", "--out", str(tmp_path / "y")])
    assert bad.exit_code == 2 and "unknown component set 'nope'" in bad.output
    both = cli.invoke(app, ["replay", "dicegame", "--components", "alt-loaded", "--set", "components=standard"])
    assert both.exit_code == 2 and "once" in both.output


def test_workers_play_the_rules_the_plan_recorded(tmp_path, monkeypatch):
    """A component file edited while a sweep runs changes nothing: workers get the compiled rules."""
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "d6.txt").write_text("1 2 3 4 5 6\n")
    options = {"set": {"components": str(mine)}, "games": 2000, "chunk": 250, "jobs": 2}
    before = sweep(tmp_path / "before", **options)
    real = runner._execute

    def edit_then_execute(*args, **kwargs):
        (mine / "d6.txt").write_text("1 6 6 6 6 6\n")  # after the plan, before any worker starts
        return real(*args, **kwargs)

    (mine / "d6.txt").write_text("1 2 3 4 5 6\n")
    runner._compiled.cache_clear()
    monkeypatch.setattr(runner, "_execute", edit_then_execute)
    during = sweep(tmp_path / "during", **options)
    assert during.games.drop("cell").equals(before.games.drop("cell"))
    assert during.seats.drop("cell").equals(before.seats.drop("cell"))

    def edit_and_forget(*args, **kwargs):  # a big grid's compiled set evicted, then rebuilt from the edit
        (mine / "d6.txt").write_text("1 6 6 6 6 6\n")
        runner._compiled.cache_clear()
        return real(*args, **kwargs)

    (mine / "d6.txt").write_text("1 2 3 4 5 6\n")
    runner._compiled.cache_clear()
    monkeypatch.setattr(runner, "_execute", edit_and_forget)
    with pytest.raises(InputError, match="changed while the sweep ran"):
        sweep(tmp_path / "evicted", **options)


HOLD = """
import sys, time
from simkit.sweeps.results import Claim
claim = Claim(sys.argv[1])
print("held", flush=True)
time.sleep(60)
"""


def test_a_second_sweep_into_a_claimed_folder_is_refused_and_changes_nothing(tmp_path):
    folder = tmp_path / "out"
    folder.mkdir()
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(folder)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        before = sorted(p.name for p in folder.iterdir())
        with pytest.raises(InputError, match="in use by another running sweep"):
            sweep(folder)
        assert sorted(p.name for p in folder.iterdir()) == before
    finally:
        holder.kill()
        holder.wait()
    time.sleep(0.1)
    assert sweep(folder).games.height == 600  # a dead holder leaves no stale claim
    assert not (folder / ".simkit.lock").exists()


def test_a_claim_let_go_removes_its_lock_and_a_waiting_opener_locks_afresh(tmp_path, monkeypatch):
    """Letting go deletes the lock file, kept chunks or not (no litter after a stop). A claimant that
    opened the file just before its holder deleted it and let go gets a lock on a file that is gone:
    it must see that and lock the file now there, or two sweeps would hold the folder."""
    from simkit.sweeps.results import LOCK

    folder = tmp_path / "out"
    folder.mkdir()
    first = Claim(folder)
    real, opened = Claim._open, []

    def open_then_holder_lets_go(self, command):
        real(self, command)
        opened.append(os.fstat(self.fd))
        if len(opened) == 1:
            first.release(remove=False)  # between this claimant's open and its flock

    monkeypatch.setattr(Claim, "_open", open_then_holder_lets_go)
    second = Claim(folder)
    assert len(opened) == 2  # it saw the file it locked was gone, and opened the new one
    assert os.path.samestat(os.fstat(second.fd), os.stat(folder / LOCK))
    monkeypatch.setattr(Claim, "_open", real)
    with pytest.raises(InputError, match="in use by another running sweep"):
        Claim(folder)
    second.release(remove=False)
    assert not (folder / LOCK).exists()


def test_a_refused_new_sweep_leaves_the_folder_usable(tmp_path, monkeypatch):
    def unreachable(*args, **kwargs):
        raise InputError("cannot reach the Dask scheduler at tcp://nowhere:1")

    monkeypatch.setattr(runner, "_execute", unreachable)
    with pytest.raises(InputError, match="cannot reach"):
        sweep(tmp_path / "out")
    assert not (tmp_path / "out").exists()  # the sweep made the folder, and keeps nothing: it is gone again
    (tmp_path / "mine").mkdir()
    with pytest.raises(InputError, match="cannot reach"):
        sweep(tmp_path / "mine")
    assert list((tmp_path / "mine").iterdir()) == []  # a folder that was there stays, as it was
    monkeypatch.undo()
    assert sweep(tmp_path / "out").games.height == 600


def test_engine_never_sees_the_components_parameter(dicegame):
    values = dicegame.rules.resolve("standard", {"components": "alt-loaded"})
    assert "components" not in dicegame.rules.engine_tuple(values)._fields
    assert Path(str(COMPONENTS)).is_dir()


def test_a_damaged_part_is_named_with_the_fix(tmp_path, monkeypatch):
    from tests.test_runner import interrupted

    folder = interrupted(tmp_path / "cut", monkeypatch, after=3, chunk=300)
    part = min((folder / "parts").glob("games-*"))
    part.write_bytes(part.read_bytes()[:50])
    with pytest.raises(InputError, match=rf"{part.name} is damaged .* delete it and the other parts of its chunk"):
        simkit.sweep(out=folder, resume=True, quiet=True, report=False, jobs=1)


def test_a_damaged_plan_is_named(tmp_path, monkeypatch):
    import json

    from tests.test_runner import interrupted

    folder = interrupted(tmp_path / "cut", monkeypatch, after=2, chunk=300)
    plan = json.loads((folder / "plan.json").read_text())
    plan["chunks"].append([99, 0, 10])
    (folder / "plan.json").write_text(json.dumps(plan))
    with pytest.raises(InputError, match=r"plan.json was edited after the sweep started"):
        simkit.sweep(out=folder, resume=True, quiet=True, report=False, jobs=1)
    del plan["checksum"]
    plan["checksum"] = runner._checksum(plan)  # sealed again, as if by hand: the chunk is still checked
    (folder / "plan.json").write_text(json.dumps(plan))
    with pytest.raises(InputError, match=r"plan.json is damaged: chunk \[99, 0, 10\]"):
        simkit.sweep(out=folder, resume=True, quiet=True, report=False, jobs=1)


def test_a_full_disk_keeps_what_was_written(tmp_path, monkeypatch):
    from simkit.sweeps import results

    real, calls = results.write_parts, []

    def fills_up(*args):
        calls.append(1)
        if len(calls) > 2:
            raise OSError(28, "No space left on device")
        return real(*args)

    monkeypatch.setattr(results, "write_parts", fills_up)
    with pytest.raises(InputError, match="No space left on device; finished chunks are kept"):
        sweep(tmp_path / "out", chunk=100)
    assert len(list((tmp_path / "out" / "parts").glob("games-*"))) == 2
    monkeypatch.undo()
    done = simkit.sweep(out=tmp_path / "out", resume=True, quiet=True, report=False, jobs=1)
    assert done.games.height == 600


def test_one_chunk_with_two_jobs_plays_in_this_process(tmp_path):
    """jobs=2 with a single chunk plays in-process: the worker's orphan check must not fire here."""
    assert sweep(tmp_path / "one", jobs=2, games=50).games.height == 50
