"""The fault suite (docs/faults.md): nothing silently wrong after a
resume, a bad folder or a full disk; every failure one `error:` line; no leaked workers.

Each test stands for a case a new user or an unlucky CI runner meets: code changed under a
stopped sweep, a hand-edited plan or part, a component file that is a broken link or holds a
misspelt key, a full disk at each phase (a real one: RLIMIT_FSIZE makes every write past a
size fail with EFBIG, as ENOSPC would), a lost Dask scheduler, damaged inputs to `check`,
`report` and `--resume`, a killed sweep with idle workers. The dice game stands in for a real
game wherever the game does not matter.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import psutil
import pytest

import simkit
from simkit.core.components import ComponentSet
from simkit.core.errors import InputError
from simkit.sweeps import identity, runner
from tests.test_cli import SIMKIT, assert_bad_input, run
from tests.test_runner import interrupted

ROOT = Path(__file__).resolve().parent.parent
DICE = ROOT / "tests" / "dicegame_components"
GAMES = ROOT / "simkit" / "games"
OPTIONS = {"game": "dicegame", "players": 2, "games": 3000, "seed": 3}


def sweep(out, **options):
    return simkit.sweep(out=out, quiet=True, report=False, jobs=1, **{**OPTIONS, **options})


def listing(folder: Path) -> dict[str, bytes]:
    """Every file under a folder with its bytes: what a refused command must leave as it was."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def reseal(folder: Path, edit) -> None:
    """Edit plan.json and seal it again with a valid checksum, as a careful hand would: the
    plan's own checks (and the parts') must still catch what the edit broke."""
    plan = json.loads((folder / "plan.json").read_text())
    del plan["checksum"]
    edit(plan)
    plan["checksum"] = runner._checksum(plan)
    (folder / "plan.json").write_text(json.dumps(plan))


def simkit_with_file_limit(args: list, limit: int | None = None, timeout: int = 300):
    """`simkit ARGS` in a subprocess; with `limit`, every file it writes past `limit` bytes fails
    (RLIMIT_FSIZE: EFBIG, 'File too large'), the way a full disk fails a write."""
    def cap():
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run([SIMKIT, *map(str, args)], capture_output=True, text=True, timeout=timeout,
                          preexec_fn=cap, check=False)


def assert_one_error_line(done, *words: str, code: int = 2) -> str:
    assert done.returncode == code, (done.returncode, done.stdout, done.stderr)
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def designer_folder(path: Path, files: dict[str, str]) -> Path:
    path.mkdir(parents=True)
    for name, text in files.items():
        (path / name).write_text(text)
    return path


# -- W1: a sweep's identity covers its code ---------------------------------------------------


def test_resume_refuses_changed_code_naming_the_file(tmp_path, monkeypatch):
    """Kill a sweep, change a source (a `git pull`), resume: refused, naming the changed file;
    the finished parts are left as they were, and with the code restored the resume finishes."""
    code = tmp_path / "code"
    code.mkdir()
    source = code / "sweep_code_probe.py"  # a game module of the sweep's code (SIMKIT_GAME_MODULES)
    source.write_text("VERSION = 1\n")
    monkeypatch.syspath_prepend(str(code))
    monkeypatch.setenv("SIMKIT_GAME_MODULES", os.environ["SIMKIT_GAME_MODULES"] + ",sweep_code_probe")
    folder = interrupted(tmp_path / "cut", monkeypatch, after=3)
    before = listing(folder)
    source.write_text("VERSION = 2\n")
    with pytest.raises(InputError, match=r"the code changed since the sweep .*/sweep_code_probe\.py"):
        simkit.sweep(out=folder, resume=True, quiet=True, report=False, jobs=1)
    assert listing(folder) == before
    source.write_text("VERSION = 1\n")
    done = simkit.sweep(out=folder, resume=True, quiet=True, report=False, jobs=1)
    assert done.games.height == 4 * 2400


def test_resume_refuses_a_new_library_version(tmp_path, monkeypatch):
    folder = interrupted(tmp_path / "cut", monkeypatch, after=2)
    real = identity.library_versions()
    monkeypatch.setattr(identity, "library_versions", lambda: {**real, "numba": "0.0.1"})
    with pytest.raises(InputError, match=rf"numba {real['numba']} -> 0\.0\.1"):
        simkit.sweep(out=folder, resume=True, quiet=True, report=False, jobs=1)


def test_manifest_and_plan_carry_the_code_identity(tmp_path):
    done = sweep(tmp_path / "done")
    plan = json.loads((done.folder / "plan.json").read_text())
    manifest = done.manifest
    assert manifest["code_hash"] == plan["code"]["hash"] == identity.code_identity()["hash"]
    if (ROOT / ".git").exists():
        assert len(manifest["git_commit"]) == 40 and isinstance(manifest["git_dirty"], bool)
    files = plan["code"]["files"]
    # the engine and bot sources that key numba's cache are the start of the code's own list
    assert [identity._name(p) for p in identity.engine_sources()] == list(files)[:len(identity.engine_sources())]
    assert Path(os.environ["NUMBA_CACHE_DIR"]).name == identity.sources_digest(identity.engine_sources())[:16]
    assert {"simkit/sweeps/runner.py", "simkit/sweeps/results.py", "tests/dicegame.py"} <= {f.removeprefix(str(ROOT) + "/")
                                                                             for f in files}
    assert not any(f.startswith(("simkit/report/", "simkit/analysis/")) for f in files)
    assert set(plan["code"]["libraries"]) == {"numba", "llvmlite", "numpy"}


# -- W2: component files that are broken links ----------------------------------------------------


@pytest.mark.parametrize("target", ["/nonexistent/d6.txt", "d6.txt"])  # a dangling link; a link to itself
def test_a_broken_component_link_is_refused_not_replaced(tmp_path, target):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "d6.txt").symlink_to(target)
    result = run("sweep", "--quiet", "--jobs", "1", "--game", "dicegame", "--players", "2", "--games", "50",
                 "--components", folder, "--out", tmp_path / "out")
    assert_bad_input(result)
    assert "d6.txt: a symbolic link to nothing" in result.stderr
    assert not (tmp_path / "out").exists()


def test_a_component_link_to_a_file_plays_that_file(tmp_path, dicegame):
    """The positive side of W2: a link is followed, so the set plays the linked file (not the standard one)."""
    (tmp_path / "loaded.txt").write_text((DICE / "alt-loaded" / "d6.txt").read_text())
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "d6.txt").symlink_to(tmp_path / "loaded.txt")
    mine = dicegame.compile(dicegame.rules.resolve("standard", {"components": str(folder)}), 2)
    loaded = dicegame.compile(dicegame.rules.resolve("standard", {"components": "alt-loaded"}), 2)
    standard = dicegame.compile(dicegame.rules.resolve("standard", {}), 2)
    assert (mine.components[0] == loaded.components[0]).all()
    assert not (mine.components[0] == standard.components[0]).all()


# -- W3 and bounded fields: CSV rows ------------------------------------------------------------------


def test_a_csv_row_wider_than_its_header_is_refused(tmp_path):
    base = designer_folder(tmp_path / "base", {"crew.csv": "name,cost\nBosun,3\n"})
    designer_folder(tmp_path / "mine", {"crew.csv": "name,cost\nBosun,3\nGunner,4,spare\n"})
    assert ComponentSet.open(base, "standard").read_csv("crew.csv") == (["name", "cost"], [(2, ["Bosun", "3"])])
    with pytest.raises(InputError, match=r"crew.csv line 3: 3 fields, but the header names 2 \(name,cost\)"):
        ComponentSet.open(base, str(tmp_path / "mine")).read_csv("crew.csv")


def test_a_real_games_csv_with_an_extra_field_is_refused(tmp_path):
    """Sea of Thieves' captains.csv: a row with a field more than the header was once read with it dropped."""
    rows = (GAMES / "sea_of_thieves" / "components" / "captains.csv").read_text().splitlines()
    first = next(i for i, line in enumerate(rows) if line and not line.startswith("#") and i > 0
                 and not rows[i].startswith("name"))
    rows[first] += ",7"
    folder = designer_folder(tmp_path / "mine", {"captains.csv": "\n".join(rows) + "\n"})
    result = run("sweep", "--quiet", "--jobs", "1", "--game", "sea_of_thieves", "--players", "2", "--games", "10",
                 "--components", folder, "--out", tmp_path / "out")
    assert_bad_input(result)
    assert f"captains.csv line {first + 1}: 4 fields, but the header names 3" in result.stderr


def test_a_huge_csv_field_is_one_error_line(tmp_path):
    rows = (GAMES / "sea_of_thieves" / "components" / "captains.csv").read_text().splitlines()
    rows.append("x" * 200_000 + ",1,100")
    folder = designer_folder(tmp_path / "mine", {"captains.csv": "\n".join(rows) + "\n"})
    result = run("sweep", "--quiet", "--jobs", "1", "--game", "sea_of_thieves", "--players", "2", "--games", "10",
                 "--components", folder, "--out", tmp_path / "out")
    assert_bad_input(result)
    assert "200,000 characters" in result.stderr and len(result.stderr) < 1000


# -- W4: unknown tables and keys in component files ---------------------------------------------------------


def test_a_misspelt_key_in_a_component_file_is_refused_with_the_nearest_name(tmp_path):
    """Tide of Avaris' loader read only the keys it wanted: a misspelt key changed nothing, silently."""
    dice = (GAMES / "tide_of_avaris" / "components" / "dice.toml").read_text()
    assert "number   = [2," in dice
    folder = designer_folder(tmp_path / "mine", {"dice.toml": dice.replace("[crew]\n", "[crew]\nnumbr = [1]\n")})
    result = run("sweep", "--quiet", "--jobs", "1", "--game", "tide_of_avaris", "--players", "2", "--games", "10",
                 "--components", folder, "--out", tmp_path / "out")
    assert_bad_input(result)
    assert "dice.toml [crew]: unknown key 'numbr' (did you mean 'number'?)" in result.stderr


def test_an_unknown_table_in_a_component_file_is_refused(tmp_path):
    dice = (GAMES / "tide_of_avaris" / "components" / "dice.toml").read_text()
    folder = designer_folder(tmp_path / "mine", {"dice.toml": dice + "\n[marauders]\nhits = [3, 3, 3]\n"})
    result = run("sweep", "--quiet", "--jobs", "1", "--game", "tide_of_avaris", "--players", "2", "--games", "10",
                 "--components", folder, "--out", tmp_path / "out")
    assert_bad_input(result)
    assert "dice.toml: unknown table 'marauders' (did you mean 'marauder'?)" in result.stderr


def test_every_key_a_loader_does_not_read_is_refused(tmp_path):
    """The mechanism on its own: keys read, keys listed only, a key read by one entry of an array
    of tables but not by another (it has no effect there), and nested tables."""
    base = designer_folder(tmp_path / "base", {"deck.toml": (
        'size = 3\nnote = "x"\n[[card]]\nkind = "map"\npaths = 2\n[[card]]\nkind = "port"\npaths = 1\n'
        '[rules.bonus]\nvalue = 1\nvalu = 2\n')})

    def load(read_paths_of_second: bool, read_note: bool, read_valu: bool):
        cset = ComponentSet.open(base, "standard")
        doc = cset.read_toml("deck.toml")
        assert doc["size"] == 3 and list(doc) == ["size", "note", "card", "rules"]  # listing keys reads none
        if read_note:
            doc.get("note")
        for i, card in enumerate(doc["card"]):
            card["kind"]
            if i == 0 or read_paths_of_second:
                card["paths"]
        bonus = doc["rules"]["bonus"]
        bonus["value"]
        if read_valu:
            bonus["valu"]
        cset.check_read()

    load(True, True, True)
    with pytest.raises(InputError, match=r"deck.toml: unknown key 'note'; known here: card, rules, size"):
        load(True, False, True)
    with pytest.raises(InputError, match=r"deck.toml \[\[card\]\] 2: 'paths' has no effect in this entry"):
        load(False, True, True)
    with pytest.raises(InputError, match=r"deck.toml \[rules.bonus\]: unknown key 'valu' \(did you mean 'value'\?\)"):
        load(True, True, False)


# -- W5: hand-edited plans and parts ---------------------------------------------------------------------------


def test_an_edited_plan_is_refused_and_nothing_is_touched(tmp_path, monkeypatch):
    folder = interrupted(tmp_path / "cut", monkeypatch, after=3)
    plan = json.loads((folder / "plan.json").read_text())
    plan["sweep"]["seed"] = 6
    (folder / "plan.json").write_text(json.dumps(plan))
    before = listing(folder)
    with pytest.raises(InputError, match="plan.json was edited after the sweep started"):
        simkit.sweep(out=folder, resume=True, quiet=True, report=False, jobs=1)
    assert listing(folder) == before


def test_a_resealed_plan_with_another_seed_meets_parts_of_the_old_seed(tmp_path, monkeypatch):
    """Mixed seeds under one manifest: every part records the seed (and plan) it was played with."""
    folder = interrupted(tmp_path / "cut", monkeypatch, after=3)
    reseal(folder, lambda plan: plan["sweep"].update(seed=6))
    with pytest.raises(InputError, match=r"was not played by this sweep's plan: its plan '\w+' \(the plan: '\w+'\), "
                                         r"seed 5 \(the plan: 6\)"):
        simkit.sweep(out=folder, resume=True, quiet=True, report=False, jobs=1)


def test_a_chunk_listed_twice_or_dropped_is_refused(tmp_path, monkeypatch):
    """22,500 rows in a 20,000-game cell came from a chunk listed twice; a gap leaves games unplayed."""
    folder = interrupted(tmp_path / "cut", monkeypatch, after=3)
    reseal(folder, lambda plan: plan["chunks"].append(plan["chunks"][0]))
    with pytest.raises(InputError, match=r"plan.json is damaged: cell \S+ has game 0 in two chunks"):
        simkit.sweep(out=folder, resume=True, quiet=True, report=False, jobs=1)
    reseal(folder, lambda plan: [plan["chunks"].pop(), plan["chunks"].pop(0)])  # no duplicate; one chunk dropped
    with pytest.raises(InputError, match=r"plan.json is damaged: cell \S+ has games 0..499 in no chunk"):
        simkit.sweep(out=folder, resume=True, quiet=True, report=False, jobs=1)


def test_a_plan_naming_an_impossible_player_count_is_refused(tmp_path, monkeypatch):
    folder = interrupted(tmp_path / "cut", monkeypatch, after=2)
    reseal(folder, lambda plan: plan["sweep"]["cells"][0].update(players=7))
    result = run("sweep", "--out", folder, "--resume", "--quiet", "--jobs", "1")
    assert_bad_input(result)
    assert "asks for 7 players" in result.stderr


def test_a_plan_that_is_a_folder_is_one_error_line(tmp_path, monkeypatch):
    folder = interrupted(tmp_path / "cut", monkeypatch, after=2)
    (folder / "plan.json").unlink()
    (folder / "plan.json").mkdir()
    result = run("sweep", "--out", folder, "--resume", "--quiet", "--jobs", "1")
    assert_bad_input(result)
    assert "plan.json is a folder" in result.stderr


def _games_parts(folder: Path) -> list[Path]:
    return sorted((folder / "parts").glob("games-*.parquet"))


def test_a_part_put_in_the_place_of_another_is_refused(tmp_path, monkeypatch):
    folder = interrupted(tmp_path / "cut", monkeypatch, after=3)
    first, second = _games_parts(folder)[:2]
    checksum = first.name.rsplit("-", 1)[1]
    second.unlink()
    shutil.copy(first, second.with_name(second.name.rsplit("-", 1)[0] + "-" + checksum))
    with pytest.raises(InputError, match=r"was not played by this sweep's plan: its start 0 \(the plan: 500\)"):
        simkit.sweep(out=folder, resume=True, quiet=True, report=False, jobs=1)


def test_a_part_of_another_sweep_is_refused(tmp_path, monkeypatch):
    """Same cells and chunks, another seed: the part looks right by its name, but it is foreign."""
    ours = interrupted(tmp_path / "ours", monkeypatch, after=3)
    theirs = interrupted(tmp_path / "theirs", monkeypatch, after=3, seed=8)
    mine = _games_parts(ours)[0]
    mine.unlink()
    shutil.copy(_games_parts(theirs)[0], ours / "parts")
    with pytest.raises(InputError, match=r"was not played by this sweep's plan: its plan .* seed 8 \(the plan: 5\)"):
        simkit.sweep(out=ours, resume=True, quiet=True, report=False, jobs=1)


def test_two_parts_of_one_chunk_are_refused(tmp_path, monkeypatch):
    folder = interrupted(tmp_path / "cut", monkeypatch, after=3)
    part = _games_parts(folder)[0]
    shutil.copy(part, part.with_name(part.name.rsplit("-", 1)[0] + "-" + "0" * 16 + ".parquet"))
    with pytest.raises(InputError, match=r"holds 2 games parts of the chunk at game 0"):
        simkit.sweep(out=folder, resume=True, quiet=True, report=False, jobs=1)


def test_a_stray_file_in_parts_is_refused(tmp_path, monkeypatch):
    folder = interrupted(tmp_path / "cut", monkeypatch, after=2)
    (folder / "parts" / "notes.parquet").write_text("mine")
    with pytest.raises(InputError, match=r"notes.parquet is not a part file of this sweep"):
        simkit.sweep(out=folder, resume=True, quiet=True, report=False, jobs=1)


def test_a_part_whose_bytes_changed_is_refused(tmp_path, monkeypatch):
    """A part that still reads as parquet but is not the file that was written (its checksum)."""
    folder = interrupted(tmp_path / "cut", monkeypatch, after=2)
    part = _games_parts(folder)[0]
    pl.read_parquet(part).with_columns(pl.col("winner").reverse()).write_parquet(part)
    with pytest.raises(InputError, match=r"is damaged \(its contents do not match the checksum in its name\)"):
        simkit.sweep(out=folder, resume=True, quiet=True, report=False, jobs=1)


def test_verified_parts_resume_to_the_uninterrupted_tables(tmp_path, monkeypatch):
    """The checks refuse only what is wrong: a sweep cut anywhere, a half-written chunk (its seats
    part without its games part) and write litter included, resumes to the straight run's tables."""
    from tests.test_runner import sweep as spec_sweep

    straight = spec_sweep(tmp_path / "straight", jobs=1, chunk=500)
    folder = interrupted(tmp_path / "cut", monkeypatch, after=3)
    last = _games_parts(folder)[-1]
    last.unlink()  # that chunk is then half written: played again, its leftover part deleted first
    leftover = next((folder / "parts").glob(last.name.replace("games-", "seats-").rsplit("-", 1)[0] + "-*"))
    # a leftover unlike what the replay writes (another writer's bytes): it must not survive beside the new part
    leftover.rename(leftover.with_name(leftover.name.rsplit("-", 1)[0] + "-" + "0" * 16 + ".parquet"))
    (folder / "parts" / ".games-00000-000000000000.123.tmp").write_text("a write stopped mid-way")
    done = simkit.sweep(out=folder, resume=True, quiet=True, report=False, jobs=1)
    assert done.games.equals(straight.games) and done.seats.equals(straight.seats)
    assert done.manifest["games_this_run"] == 4 * 2400 - 2 * 500
    assert not list(folder.rglob(".*.tmp"))


# -- full disk, at every phase (real failed writes) --------------------------------------------------------------


@pytest.fixture(scope="module")
def warm(tmp_path_factory):
    """The dice game's engine in numba's cache, so a process with a file-size limit never writes the cache."""
    sweep(tmp_path_factory.mktemp("warm") / "out", games=50)


def test_a_full_disk_while_playing_is_one_line_and_resumes(tmp_path, warm):
    """The small cell's chunk fits; the large cell's parts do not."""
    spec = tmp_path / "spec.toml"
    spec.write_text('name = "full"\nseed = 2\n[[study]]\ngame = "dicegame"\nplayers = [2]\ngames = 2000\n'
                    '[[study]]\ngame = "dicegame"\nplayers = [4]\ngames = 20000\n')
    out = tmp_path / "out"
    done = simkit_with_file_limit(["sweep", spec, "--chunk", "20000", "--jobs", "1", "--quiet", "--out", out],
                                  limit=60_000)
    assert_one_error_line(done, "File too large", "finished chunks are kept", f"simkit sweep --out {out} --resume")
    assert [p.name.split("-")[1] for p in _games_parts(out)] == ["00000"]  # the small cell's chunk, whole
    resumed = simkit_with_file_limit(["sweep", "--out", out, "--resume", "--quiet", "--jobs", "1"])
    assert resumed.returncode == 0, resumed.stderr
    straight = simkit.sweep(spec, out=tmp_path / "straight", quiet=True, report=False, jobs=1, chunk=20000)
    assert simkit.load(out).games.equals(straight.games)


def test_a_full_disk_before_any_chunk_finished_keeps_nothing(tmp_path, warm):
    out = tmp_path / "out"
    done = simkit_with_file_limit(["sweep", "--game", "dicegame", "--players", "4", "--games", "20000", "--jobs", "1",
                                   "--quiet", "--out", out], limit=30_000)
    assert_one_error_line(done, "File too large", "nothing was kept", "run the sweep again")
    assert not out.exists()


def test_a_full_disk_while_merging_keeps_every_game(tmp_path, warm):
    """Parts of 2,000 games fit; the merged 20,000-game table does not."""
    out = tmp_path / "out"
    done = simkit_with_file_limit(["sweep", "--game", "dicegame", "--players", "2", "--games", "20000", "--chunk",
                                   "2000", "--jobs", "1", "--quiet", "--out", out], limit=100_000)
    assert_one_error_line(done, "File too large", "every game is played and kept", "--resume")
    assert len(_games_parts(out)) == 10 and not (out / "games.parquet").exists()
    assert not list(out.rglob(".*.tmp"))  # no half-written file left behind
    resumed = simkit_with_file_limit(["sweep", "--out", out, "--resume", "--quiet", "--jobs", "1"])
    assert resumed.returncode == 0, resumed.stderr
    assert simkit.load(out).games.height == 20_000


def test_a_full_disk_while_writing_the_report_leaves_no_truncated_report(tmp_path, warm):
    """The tables fit, report.html does not: no report.html at all rather than a truncated one,
    and the line says how to write it; `simkit report` on the finished folder, stopped alike,
    keeps the old report whole."""
    out = tmp_path / "out"
    args = ["sweep", "--game", "dicegame", "--players", "2", "--games", "3000", "--chunk", "1000", "--jobs", "1",
            "--quiet", "--out", out]
    done = simkit_with_file_limit(args, limit=100_000)
    assert_one_error_line(done, "cannot write the summary and report", "File too large", "every table is written",
                          f"simkit report {out}")
    assert (out / "games.parquet").exists() and (out / "summary.json").exists() and not (out / "parts").exists()
    assert not (out / "report.html").exists() and not list(out.rglob(".*.tmp"))
    assert simkit_with_file_limit(["report", out]).returncode == 0
    report = (out / "report.html").read_bytes()
    again = simkit_with_file_limit(["report", out], limit=100_000)
    assert_one_error_line(again, "cannot write the report", "File too large", f"simkit report {out}")
    assert (out / "report.html").read_bytes() == report and not list(out.rglob(".*.tmp"))


# -- a lost Dask scheduler -----------------------------------------------------------------------------------------


def test_a_lost_dask_scheduler_is_one_line_and_the_chunks_are_kept(tmp_path):
    pytest.importorskip("distributed")
    dask = str(Path(SIMKIT).with_name("dask"))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "start_new_session": True}
    scheduler = subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
                                 **quiet)
    worker = subprocess.Popen([dask, "worker", address, "--nworkers", "1", "--nthreads", "1", "--no-dashboard"],
                              **quiet)
    out = tmp_path / "out"
    try:
        proc = subprocess.Popen([SIMKIT, "sweep", "--game", "dicegame", "--players", "4", "--games", "20000000",
                                 "--chunk", "20000", "--backend", "dask", "--address", address, "--quiet", "--out",
                                 out], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.time() + 120
        while not (out / "parts").is_dir() or len(_games_parts(out)) < 2:
            assert time.time() < deadline and proc.poll() is None, proc.communicate()
            time.sleep(0.2)
        os.killpg(scheduler.pid, signal.SIGKILL)
        stdout, stderr = proc.communicate(timeout=120)
    finally:
        for p in (scheduler, worker):
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    done = subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr)
    assert_one_error_line(done, f"lost the Dask scheduler at {address}", "finished chunks are kept", "--resume")
    assert len(_games_parts(out)) >= 2


def test_a_sweep_stuck_after_its_scheduler_is_lost_ends_itself_with_the_line():
    """The watch interrupts the main thread; should joblib's clean-up then wait on the dead
    scheduler, the watch ends the process itself after its grace: the same one line, exit 2."""
    code = (
        "import signal, time\n"
        "from pathlib import Path\n"
        "from simkit.sweeps import runner\n"
        "class Client:\n"
        "    status = 'closed'\n"
        "signal.signal(signal.SIGINT, signal.SIG_IGN)  # a main thread the interrupt does not reach\n"
        "watch = runner._SchedulerWatch(Client(), [], 'tcp://127.0.0.1:9', Path('/tmp/out'))\n"
        "watch.GRACE_SECONDS = 0.5\n"
        "with watch:\n"
        "    time.sleep(20)\n"
    )
    began = time.time()
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False)
    assert time.time() - began < 15
    assert_one_error_line(done, "lost the Dask scheduler at tcp://127.0.0.1:9", "finished chunks are kept in /tmp/out",
                          "--resume")


# -- damaged inputs to check, report and the spec ------------------------------------------------------------------


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    folder = tmp_path_factory.mktemp("faults") / "done"
    simkit.sweep(out=folder, quiet=True, jobs=1, **OPTIONS)
    return folder


def damaged_copy(finished: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "copy"
    shutil.copytree(finished, copy)
    return copy


@pytest.mark.parametrize("content, words", [
    (lambda text: text[: len(text) // 2], "summary.json is damaged"),
    (lambda text: "", "summary.json is damaged"),
    (lambda text: "[]", "summary.json is damaged (not a JSON object)"),
    (lambda text: json.dumps({"cells": [{"cell": "x"}]}), "summary.json is damaged (a cell lacks or mangles"),
])
def test_check_on_a_damaged_summary_is_one_line(finished, tmp_path, content, words):
    folder = damaged_copy(finished, tmp_path)
    summary = folder / "summary.json"
    summary.write_text(content(summary.read_text()))
    result = run("check", folder, "--max-seat-gap", "20pt")
    assert_bad_input(result)
    assert words in result.stderr and f"simkit report {folder}" in result.stderr


@pytest.mark.parametrize("damage, words", [
    (lambda f: (f / "games.parquet").write_bytes((f / "games.parquet").read_bytes()[:1000]), "truncated"),
    (lambda f: (f / "seats.parquet").write_bytes(b""), "seats.parquet is damaged (empty)"),
    (lambda f: [(f / "games.parquet").rename(f / "x"), (f / "seats.parquet").rename(f / "games.parquet"),
                (f / "x").rename(f / "seats.parquet")], "games.parquet is not a games table: it lacks seed"),
])
def test_report_on_damaged_tables_is_one_line(finished, tmp_path, damage, words):
    folder = damaged_copy(finished, tmp_path)
    damage(folder)
    before = listing(folder)
    result = run("report", folder)
    assert_bad_input(result)
    assert words in result.stderr and "simkit sweep" in result.stderr
    assert listing(folder) == before


def test_deeply_nested_toml_is_one_error_line(tmp_path):
    spec = tmp_path / "deep.toml"
    spec.write_text('name = "deep"\nx = ' + "[" * 100_000 + "]" * 100_000 + "\n")
    result = run("sweep", spec, "--quiet")
    assert_bad_input(result)
    assert "nested too deeply" in result.stderr
    dice = (GAMES / "tide_of_avaris" / "components" / "dice.toml").read_text()
    folder = designer_folder(tmp_path / "mine", {"dice.toml": dice + "\n[deep]\nx = " + "[" * 50_000 + "]" * 50_000})
    result = run("sweep", "--quiet", "--jobs", "1", "--game", "tide_of_avaris", "--players", "2", "--games", "10",
                 "--components", folder, "--out", tmp_path / "out")
    assert_bad_input(result)
    assert "dice.toml: arrays or tables nested too deeply" in result.stderr


@pytest.mark.parametrize("where", ["--components", "--out"])
def test_a_path_too_long_is_one_error_line(tmp_path, where):
    long = tmp_path / ("x" * 300)
    args = ["--components", long, "--out", tmp_path / "out"] if where == "--components" else ["--out", long]
    result = run("sweep", "--quiet", "--jobs", "1", "--game", "dicegame", "--players", "2", "--games", "50", *args)
    assert_bad_input(result)
    assert "File name too long" in result.stderr and " characters)" in result.stderr
    assert not (tmp_path / "out").exists()


def test_an_unknown_home_folder_is_one_error_line(tmp_path):
    result = run("sweep", "--quiet", "--jobs", "1", "--game", "dicegame", "--components", "~nosuchuser_simkit/x",
                 "--out", tmp_path / "out")
    assert_bad_input(result)
    assert "cannot expand '~nosuchuser_simkit'" in result.stderr


# -- leaks and litter ---------------------------------------------------------------------------------------------


def _start(out: Path, *extra: str) -> subprocess.Popen:
    return subprocess.Popen([SIMKIT, "sweep", "--game", "dicegame", "--players", "4", "--games", "4000000",
                             "--chunk", "4000", "--jobs", "2", "--quiet", "--out", str(out), *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)


def _wait_for_parts(proc: subprocess.Popen, out: Path, n: int = 2) -> None:
    deadline = time.time() + 120
    while not (out / "parts").is_dir() or len(_games_parts(out)) < n:
        assert time.time() < deadline and proc.poll() is None, proc.communicate()
        time.sleep(0.1)


def test_killing_a_sweep_whose_workers_are_idle_leaves_no_process(tmp_path):
    """`kill -9 <sweep pid>` while its workers wait for work: within 10 s none of its processes is
    alive (workers, loky's resource tracker), and /dev/shm holds nothing of it."""
    out = tmp_path / "out"
    proc = _start(out)
    _wait_for_parts(proc, out)
    proc.send_signal(signal.SIGSTOP)  # the sweep stops handing out chunks: its workers finish theirs and idle
    children = psutil.Process(proc.pid).children(recursive=True)
    assert len(children) >= 2
    time.sleep(3)
    assert all(child.cpu_percent(interval=0.3) < 50 for child in children), "the workers should be idle"
    proc.kill()
    proc.wait()
    _, alive = psutil.wait_procs(children, timeout=10)
    assert not alive, f"{[(p.pid, p.cmdline()[:3]) for p in alive]} alive 10 s after the sweep was killed"
    if Path("/dev/shm").is_dir():
        assert not [n for n in os.listdir("/dev/shm") if f"_{proc.pid}_" in n]


def test_a_sigterm_stops_the_sweep_like_ctrl_c(tmp_path):
    """What `timeout` sends: one line saying what was kept and how to resume, exit 143, no worker left."""
    out = tmp_path / "out"
    proc = _start(out)
    _wait_for_parts(proc, out)
    children = psutil.Process(proc.pid).children(recursive=True)
    proc.send_signal(signal.SIGTERM)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 143, stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"terminated: finished chunks are kept in {out}"), stderr
    _, alive = psutil.wait_procs(children, timeout=10)
    assert not alive
    assert not (out / runner.JOBLIB_TEMP).exists()


def test_jobs_above_the_cores_are_capped_with_a_warning(tmp_path, capsys):
    cores = runner.cores()
    done = simkit.sweep(out=tmp_path / "capped", quiet=True, report=False, **{**OPTIONS, "games": 600},
                        jobs=cores + 3, chunk=100)
    assert done.manifest["jobs"] == cores
    assert f"warning: --jobs {cores + 3} is more than the {cores} cores here; using {cores}" in capsys.readouterr().err
    forced = simkit.sweep(out=tmp_path / "forced", quiet=True, report=False, **{**OPTIONS, "games": 600},
                          jobs=cores + 1, force_jobs=True, chunk=100)
    assert forced.manifest["jobs"] == cores + 1
    assert "warning" not in capsys.readouterr().err


def test_a_failed_component_check_leaves_no_out_folder(tmp_path):
    folder = designer_folder(tmp_path / "mine", {"d6.txt": "1 2 3 4 5\n"})
    result = run("sweep", "--quiet", "--jobs", "1", "--game", "dicegame", "--players", "2", "--games", "50",
                 "--components", folder, "--out", tmp_path / "deep" / "out")
    assert_bad_input(result)
    assert not (tmp_path / "deep").exists()


# -- messages ----------------------------------------------------------------------------------------------------------


def test_a_huge_value_in_an_error_line_shows_its_start_and_size(tmp_path):
    dice = (GAMES / "tide_of_avaris" / "components" / "dice.toml").read_text()
    faces = ", ".join(['"miss"'] * 200_000)
    folder = designer_folder(tmp_path / "mine", {"dice.toml": dice.replace(
        'faces = ["attack", "attack", "defence", "defence", "wind", "miss"]', f"faces = [{faces}]")})
    result = run("sweep", "--quiet", "--jobs", "1", "--game", "tide_of_avaris", "--players", "2", "--games", "10",
                 "--components", folder, "--out", tmp_path / "out")
    assert_bad_input(result)
    line = result.stderr.strip()
    assert len(line) < 1000 and "dice.toml: [combat]: 'faces' must be a list of 1..12 entries" in line
    assert "characters left out]" in line


def test_an_empty_list_in_set_says_so(tmp_path):
    for value in ("target=[]", "head_start=[]"):
        result = run("sweep", "--quiet", "--game", "dicegame", "--set", value, "--out", tmp_path / "out")
        assert_bad_input(result)
        assert "an empty list" in result.stderr


def test_a_repeated_set_key_is_refused(tmp_path):
    result = run("sweep", "--quiet", "--game", "dicegame", "--set", "target=30", "--set", "target=50", "--out",
                 tmp_path / "out")
    assert_bad_input(result)
    assert "--set target is given twice (target=30 and target=50)" in result.stderr


def test_two_designer_folders_with_one_name_can_be_compared(tmp_path):
    a = designer_folder(tmp_path / "a" / "dice", {"d6.txt": (DICE / "d6.txt").read_text()})
    b = designer_folder(tmp_path / "b" / "dice", {"d6.txt": (DICE / "alt-loaded" / "d6.txt").read_text()})
    done = sweep(tmp_path / "out", games=300, set=[f"components=[{json.dumps(str(a))}, {json.dumps(str(b))}]"])
    assert sorted(done.cells["cell"]) == ["dicegame-2p-standard-components=a/dice",
                                          "dicegame-2p-standard-components=b/dice"]


def test_replay_refuses_strategies_that_would_sit_nowhere():
    result = run("replay", "dicegame", "--players", "2", "--strategies", "careful,bold,random")
    assert_bad_input(result)
    assert "names 3 presets (careful,bold,random) for 2 seats" in result.stderr


def test_a_tournament_naming_a_preset_twice_is_refused(tmp_path):
    result = run("sweep", "--quiet", "--game", "dicegame", "--tournament", "--strategies", "careful,bold,careful",
                 "--out", tmp_path / "out")
    assert_bad_input(result)
    assert "names careful twice" in result.stderr


def test_error_lines_are_bounded():
    line = str(InputError("where: " + "x" * 5_000_000 + " hint"))
    assert len(line) < 1000 and line.startswith("where: xxx") and line.endswith("x hint")
    assert "characters left out" in line


def test_a_complete_folder_missing_its_summary_is_finished_by_resume(finished, tmp_path):
    """The tables are whole (a failure came after them): a resume writes the summary from them, not a rerun;
    without a table it says to rerun."""
    folder = damaged_copy(finished, tmp_path)
    summary = (folder / "summary.json").read_bytes()
    (folder / "summary.json").unlink()
    simkit.sweep(out=folder, resume=True, quiet=True, report=False, jobs=1)
    assert (folder / "summary.json").read_bytes() == summary
    (folder / "summary.json").unlink()
    (folder / "games.parquet").unlink()
    with pytest.raises(InputError, match="lacks games.parquet, summary.json; rerun it into a new folder"):
        simkit.sweep(out=folder, resume=True, quiet=True, report=False, jobs=1)


def test_json_files_read_back_unchanged():
    """summary.json and the manifest are written a line per cell by the C encoder (json_text), readable as JSON."""
    from simkit.core.files import json_text

    data = {"cells": [{"cell": "a", "seats": [{"seat": 0, "win_rate": 0.25}]}, {"cell": "b"}], "comparisons": [],
            "tiers": {"x": [1, 2]}, "path": Path("/p")}
    text = json_text(data)
    assert json.loads(text) == {**data, "path": "/p"}
    assert text.splitlines()[2] == '  {"cell": "a", "seats": [{"seat": 0, "win_rate": 0.25}]},'
