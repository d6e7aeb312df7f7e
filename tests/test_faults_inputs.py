"""Input faults met before any game is played (docs/faults.md): files that are not regular files,
grids too large to plan, paths as users write them (an emoji, a spec's relative folder, a quoted
`~`, a subfolder of a component set), `simkit train` writing only under --out, and error lines
that name the fix. Each is one `error:` line and exit 2, or works; the dice game stands in for a
real game wherever the game does not matter."""

from __future__ import annotations

import json
import os
import subprocess
import time
import tomllib
import warnings
from pathlib import Path

import pytest

from simkit import games as registry
from simkit.core.errors import InputError
from simkit.sweeps import spec
from tests.test_cli import SIMKIT, assert_bad_input, run
from tests.test_faults import DICE, assert_one_error_line, designer_folder

SWEEP = ["sweep", "--quiet", "--jobs", "1"]
DICE_SWEEP = [*SWEEP, "--game", "dicegame", "--players", "2", "--games", "200", "--seed", "5"]
D6 = (DICE / "d6.txt").read_text()
FIFO_TIMEOUT = 120  # seconds: a regression blocks on the pipe, and then fails here instead of hanging

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes need a POSIX system")


def simkit(*args, cwd=None, timeout: int = FIFO_TIMEOUT):
    """`simkit ARGS` in a subprocess that is killed (and fails the test) after `timeout` seconds."""
    return subprocess.run([SIMKIT, *map(str, args)], capture_output=True, text=True, timeout=timeout, cwd=cwd,
                          check=False)


# -- guards before work ---------------------------------------------------------------------------------------


@needs_fifo
def test_a_named_pipe_as_the_spec_is_refused_not_waited_on(tmp_path):
    pipe = tmp_path / "spec.toml"
    os.mkfifo(pipe)
    done = simkit("sweep", pipe, "--jobs", "1", "--out", tmp_path / "out")
    assert_one_error_line(done, str(pipe), "not a regular file", "named pipe")
    assert not (tmp_path / "out").exists()


@needs_fifo
def test_a_named_pipe_as_a_component_file_is_refused_not_waited_on(tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    os.mkfifo(folder / "d6.txt")
    done = simkit(*DICE_SWEEP, "--components", folder, "--out", tmp_path / "out")
    assert_one_error_line(done, "d6.txt", "not a regular file", "named pipe")
    assert not (tmp_path / "out").exists()


GRID_AXES = (("round_cap", 5), ("hand_size", 1), ("free_moves", 0), ("closed_rounds", 0), ("start_infamy", 0))


def _grid_spec(path: Path, sizes: tuple[int, ...], max_cells: int | None = None) -> Path:
    """A Sea of Troubles grid at 4 players of sizes[0] x sizes[1] x ... cells (round_cap, hand_size, free_moves,
    closed_rounds, start_infamy: GRID_AXES, each from its lowest allowed value)."""
    grid = {name: list(range(low, low + size)) for (name, low), size in zip(GRID_AXES, sizes, strict=False)}
    top = f"max_cells = {max_cells}\n" if max_cells is not None else ""
    path.write_text(f'name = "grid"\ngames = 10\n{top}[[study]]\ngame = "sea_of_troubles"\nplayers = [4]\n'
                    f"grid = {spec._toml(grid)}\n")
    return path


@pytest.mark.parametrize("sizes, cells", [((4011, 20, 5), 401_100), ((4011, 20, 5, 9, 21), 75_807_900)])
def test_a_grid_of_401100_cells_is_refused_at_once_with_its_count_and_the_flag(tmp_path, sizes, cells):
    """Also 75.8 million cells, which once grew to 5.4 GB before a MemoryError: counted, never made."""
    path = _grid_spec(tmp_path / "big.toml", sizes)
    began = time.perf_counter()
    result = run(*SWEEP, path, "--out", tmp_path / "out")
    assert time.perf_counter() - began < 30  # counted, not planned (planning would take many minutes)
    assert_bad_input(result)
    assert f"{cells:,} cells" in result.stderr and "100,000" in result.stderr
    assert f"--max-cells {cells}" in result.stderr and f"max_cells = {cells}" in result.stderr
    assert not (tmp_path / "out").exists()


def test_the_flag_lets_a_large_grid_through_to_planning(tmp_path, monkeypatch):
    """With --max-cells (or the spec's max_cells) the count passes and the cells are made: stopped
    here at the first block expanded, before any of its cells exists."""
    path = _grid_spec(tmp_path / "big.toml", (4011, 20, 5))

    class Planning(Exception):
        pass

    def stop(*args, **kwargs):
        raise Planning

    monkeypatch.setattr(spec, "_expand", stop)
    with pytest.raises(Planning):
        spec.load(path, max_cells=401_100)
    with pytest.raises(Planning):
        spec.load(_grid_spec(tmp_path / "asks.toml", (4011, 20, 5), max_cells=500_000))
    with pytest.raises(InputError, match="401,100 cells"):
        spec.load(path, max_cells=401_099)


def test_a_grid_at_the_limit_plans_and_one_past_it_is_refused(tmp_path, monkeypatch):
    """The limit is the last count allowed; a resolved spec past the default limit asks for its
    own count, so that `simkit sweep DIR/spec.toml` reruns it."""
    assert len(spec.load(_grid_spec(tmp_path / "full.toml", (1000, 10, 10))).cells) == spec.MAX_CELLS == 100_000
    at = spec.load(_grid_spec(tmp_path / "at.toml", (3, 2, 2), max_cells=12))
    assert len(at.cells) == 12
    with pytest.raises(InputError, match="has 13 cells"):
        spec.load(_grid_spec(tmp_path / "past.toml", (13, 1, 1), max_cells=12))
    with pytest.raises(InputError, match="--max-cells 6"):
        spec.load(None, game="dicegame", players="2,3", set=["target=[20,30,40]"], max_cells=5)
    assert len(spec.load(None, game="dicegame", players="2,3", set=["target=[20,30,40]"], max_cells=6).cells) == 6
    monkeypatch.setattr(spec, "MAX_CELLS", 10)
    written = tmp_path / "resolved.toml"
    written.write_text(at.to_toml())
    assert tomllib.loads(written.read_text())["max_cells"] == 12
    assert [c.id for c in spec.load(written).cells] == [c.id for c in at.cells]


# -- paths as users write them --------------------------------------------------------------------------------


def test_an_emoji_component_folder_round_trips_through_spec_toml(tmp_path):
    folder = designer_folder(tmp_path / "dés 🎲 set", {"d6.txt": D6})
    out = tmp_path / "out"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = run(*DICE_SWEEP, "--components", folder, "--out", out)
    assert result.exit_code == 0, result.stderr
    assert not [w for w in caught if "Glyph" in str(w.message)]  # the plots leave out a glyph their font lacks, quietly
    resolved = tomllib.loads((out / "spec.toml").read_text(encoding="utf-8"))
    assert resolved["study"][0]["set"]["components"] == str(folder.resolve())
    again = run(*SWEEP, out / "spec.toml", "--out", tmp_path / "again")
    assert again.exit_code == 0, again.stderr
    cells = [json.loads((d / "manifest.json").read_text())["rules_hashes"] for d in (out, tmp_path / "again")]
    assert cells[0] == cells[1]


def test_a_relative_components_path_in_a_spec_is_relative_to_the_spec_file(tmp_path, monkeypatch):
    """The spec's folder, not the working folder; on the command line, the working folder."""
    specs = tmp_path / "specs"
    mine = designer_folder(specs / "mine", {"d6.txt": D6})
    (specs / "s.toml").write_text('name = "rel"\ngames = 200\n[[study]]\ngame = "dicegame"\nplayers = [2]\n'
                                  'set = { components = "mine" }\n')
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    cell = spec.load(Path("..") / "specs" / "s.toml").cells[0]
    assert cell.overrides["components"] == str(mine.resolve())
    monkeypatch.chdir(specs)  # a flag stays relative to the working folder
    assert spec.load(None, game="dicegame", players=2, set=["components=mine"]).cells[0].overrides[
        "components"] == str(mine.resolve())
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InputError, match="unknown component set 'mine'"):
        spec.load(None, game="dicegame", players=2, set=["components=mine"])


def test_a_quoted_tilde_out_is_the_home_folder_before_any_game(tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    result = run(*DICE_SWEEP, "--out", "~/x")
    assert result.exit_code == 0, result.stderr
    assert (home / "x" / "spec.toml").is_file()
    assert not (work / "~").exists()
    assert_bad_input(run(*DICE_SWEEP, "--out", "~nosuchuser_simkit/x"))
    assert not any(work.iterdir())
    # the folder argument of report and check reads ~ alike
    assert run("report", "~/x").exit_code == 0
    checked = run("check", "~/x", "--max-first-player-advantage", "100pt", "--min-games", "1")
    assert checked.exit_code == 0, checked.stderr
    assert_bad_input(run("check", "~nosuchuser_simkit/x", "--max-seat-gap", "5pt"))


def test_component_files_in_a_subfolder_are_refused_naming_it(tmp_path):
    folder = tmp_path / "mine"
    designer_folder(folder / "round2", {"d6.txt": D6})
    (folder / "notes").mkdir()
    (folder / "notes" / "why.md").write_text("a note beside the set is fine\n")
    result = run(*DICE_SWEEP, "--components", folder, "--out", tmp_path / "out")
    assert_bad_input(result)
    assert str(folder / "round2") in result.stderr and "d6.txt" in result.stderr
    assert "notes" not in result.stderr
    assert not (tmp_path / "out").exists()


# -- simkit train writes only under --out ---------------------------------------------------------------------


TRAIN = ["train", "dicegame", "--preset", "careful", "--players", "2", "--games", "40", "--population", "4",
         "--generations", "1", "--lookahead-share", "0", "--validate-games", "40", "--evidence-games", "40",
         "--evidence-lookahead-games", "20", "--seed", "3", "--jobs", "1", "--quiet"]


def _package_listing(folder: Path) -> dict[str, int]:
    """The game package's data files with their modification times (its .py files are left out:
    other test files may come and go in tests/, the dice game's package)."""
    return {p.name: p.stat().st_mtime_ns for p in folder.iterdir() if p.is_file() and p.suffix != ".py"}


@pytest.mark.usefixtures("dicegame")
def test_train_writes_only_under_out_and_a_sweep_plays_the_file(tmp_path, monkeypatch):
    package = registry.folder("dicegame")
    before = _package_listing(package)
    out = tmp_path / "training"
    result = run(*TRAIN, "--out", out)
    assert result.exit_code == 0, result.stderr
    assert _package_listing(package) == before
    assert {"tuned.toml", "tuned.md", "tuned.json", "train.json"} <= {p.name for p in out.iterdir()}
    answer = json.loads((out / "train.json").read_text())["answer"]
    for bot in (f"mine:file={out / 'tuned.toml'}", f"mine:file={out}"):  # the file, or its training folder
        cell = spec.load(None, game="dicegame", players=2, strategies="mine,careful", games=200, bots=[bot]).cells[0]
        assert cell.bots["mine"] == {"preset": "careful", **answer}
    (tmp_path / "s.toml").write_text('name = "t"\ngames = 200\n[bots.mine]\nfile = "training/tuned.toml"\n'
                                     '[[study]]\ngame = "dicegame"\nplayers = 2\nstrategies = "mine,careful"\n')
    monkeypatch.chdir(package)  # the spec's file path is relative to the spec, not here
    assert spec.load(tmp_path / "s.toml").cells[0].bots["mine"] == {"preset": "careful", **answer}
    with pytest.raises(InputError, match="trained for dicegame, not set_sail"):
        spec.load(None, game="set_sail", players=2, games=200, strategies="mine,random",
                  bots=[f"mine:file={out / 'tuned.toml'}"])


def test_train_without_out_writes_under_reports_in_the_working_folder(tmp_path, monkeypatch):
    package = registry.folder("dicegame")
    before = _package_listing(package)
    monkeypatch.chdir(tmp_path)
    result = run(*TRAIN)
    assert result.exit_code == 0, result.stderr
    assert _package_listing(package) == before
    [folder] = (tmp_path / "reports").iterdir()
    assert folder.name.startswith("train-") and (folder / "tuned.toml").is_file()
    assert [p.name for p in tmp_path.iterdir()] == ["reports"]


@pytest.mark.usefixtures("dicegame")
def test_train_install_is_the_step_that_writes_the_package(tmp_path, monkeypatch):
    package = tmp_path / "package"  # stands for the dice game's package folder
    package.mkdir()
    monkeypatch.setattr(registry, "folder", lambda game_id: package)
    result = run(*TRAIN, "--out", tmp_path / "training", "--install")
    assert result.exit_code == 0, result.stderr
    assert {"tuned.toml", "tuned.md", "tuned.json"} == {p.name for p in package.iterdir()}
    assert (package / "tuned.toml").read_text() == (tmp_path / "training" / "tuned.toml").read_text()


# -- messages -------------------------------------------------------------------------------------------------


def test_a_variant_named_twice_says_so():
    result = run(*SWEEP, "--game", "set_sail", "--variant", "standard+standard", "--games", "10")
    assert_bad_input(result)
    assert "'standard' is named twice in 'standard+standard'" in result.stderr
    assert "did you mean" not in result.stderr


def test_players_beyond_the_standard_rules_name_the_variant_that_allows_them():
    result = run(*SWEEP, "--game", "set_sail", "--players", "5", "--games", "10")
    assert_bad_input(result)
    assert "--variant extended" in result.stderr and "drop the variant" not in result.stderr


def test_a_per_seat_list_asks_for_one_value_per_seat_at_the_player_count(tmp_path):
    result = run(*SWEEP, "--game", "set_sail", "--players", "3", "--set", "starting_silver=5", "--games", "10",
                 "--out", tmp_path / "out")
    assert_bad_input(result)
    assert "one whole number per seat" in result.stderr and "at 3 players give a list of 3" in result.stderr
    assert "list of 6" not in result.stderr
    cell = spec.load(None, game="set_sail", players=3, set=["starting_silver=[5,4,3]"], games=60).cells[0]
    assert cell.overrides["starting_silver"] == (5, 4, 3, 3, 3, 3)  # seats 4-6, never played, keep the default
    assert cell.overrides == spec.load(None, game="set_sail", players=3, games=60,
                                       set=["starting_silver=[5,4,3,3,3,3]"]).cells[0].overrides
    with pytest.raises(InputError, match="at 4 players give a list of 4"):
        spec.load(None, game="set_sail", players="3,4", set=["starting_silver=[5,4,3]"], games=60)


def test_a_number_that_is_not_one_names_the_allowed_range():
    allowed = registry.get("set_sail").rules.by_name["vp_to_win"].allowed_text()
    result = run(*SWEEP, "--game", "set_sail", "--set", "vp_to_win=abc", "--games", "10")
    assert_bad_input(result)
    assert f"must be an integer in {allowed}, got 'abc'" in result.stderr


STANDARD_ONLY = "set_sail is for 2..4 players under its standard rules, not "


@pytest.mark.parametrize("options, words", [
    (["--game", "set_sail", "--players", "2,5"],
     [STANDARD_ONLY + "5 (in command-line options)", "the variant extended plays 5..6 players",
      "--variant standard,extended", "or drop 5 from the players"]),
    (["--game", "set_sail", "--players", "3,5"], [STANDARD_ONLY + "5 (", "--variant standard,extended"]),
    (["--game", "set_sail", "--players", "2-5"], [STANDARD_ONLY + "5 (", "--variant standard,extended"]),
    (["--game", "set_sail", "--players", "5,6"],
     [STANDARD_ONLY + "5, 6 (", "--variant extended (variants = [\"extended\"]", "drop 5, 6"]),
    (["--game", "dicegame", "--players", "2,3", "--variant", "duel"],
     ["dicegame is for 2 players under the variant duel (2), not 3 (", "--variant duel,standard"]),
    (["spec"], [STANDARD_ONLY + "5 (in ", "s.toml [[study]] 1)", "--variant standard,extended"]),
])
def test_a_named_count_no_chosen_variant_plays_is_refused_naming_the_variant(tmp_path, options, words):
    """Counts named for one game are a request of each: one that no chosen variant plays was
    silently dropped (2,5 played 2 players, exit 0). Now one line naming the count, the game, the
    variants' counts and the variant that plays it, exit 2, before anything is made."""
    if options == ["spec"]:
        path = tmp_path / "s.toml"
        path.write_text('name = "s"\ngames = 10\n[[study]]\ngame = "set_sail"\nplayers = [2, 5]\n')
        options, words = [path], [*words, str(path)]
    result = run(*SWEEP, *options, "--games", "10", "--out", tmp_path / "out")
    assert_bad_input(result)
    for word in words:
        assert word in result.stderr, result.stderr
    assert not (tmp_path / "out").exists()


def test_counts_some_chosen_variant_plays_are_kept_and_every_game_still_takes_what_it_supports(tmp_path):
    """A count one chosen variant plays is skipped by the others (a request across variants), and
    with game = "*" each game plays the counts it supports."""
    assert [c.id for c in spec.load(None, game="set_sail", players="2,5", variant="standard,extended",
                                     games=10).cells] == ["set_sail-2p-standard", "set_sail-5p-extended"]
    (tmp_path / "all.toml").write_text('[[study]]\ngame = "*"\nplayers = [2, 5]\n')
    cells = spec.load(tmp_path / "all.toml").cells
    assert {(c.game, c.players) for c in cells if c.game in ("set_sail", "sea_of_troubles")} == {
        ("set_sail", 2), ("sea_of_troubles", 2), ("sea_of_troubles", 5)}
