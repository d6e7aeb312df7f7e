"""A hostile user's probe, kept (docs/faults.md): 160 command lines drawn from a fixed seed, each
mixing valid and invalid values for every command's options (empty, negative, huge, not a
number, unknown names, half-written lists, paths that are files, missing folders, unknown
users' homes). Whatever the mix, the command ends with an exit code it documents (0, 1, 2 or
3), never a traceback; a refusal (exit 2) is exactly one `error:` line on standard error; and
nothing is written outside the folder the test works in. The dice game stands in for a real
game wherever games are played, so that every drawn sweep is small."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from simkit.commands.cli import app

CASES = 160
SEED = 20261202  # drawn once: the cases are whatever this seed gives

GAMES = ["dicegame"] * 8 + ["nosuch", "", "DICEGAME", "dice game", "dicegame,dicegame", "../dicegame"]
NUMBERS = ["0", "-1", "x", "1e3", "", "2.5", str(2 ** 70), "  3", "NaN"]


def _pick(rng: random.Random, options: list[str]) -> str:
    return rng.choice(options)


def _sweep(rng: random.Random, out: Path) -> list[str]:
    args = ["sweep", "--quiet", "--jobs", "1", "--out", str(out), "--game", _pick(rng, GAMES),
            "--games", _pick(rng, ["20", "50", "30", "40", "20", "50", "0", "-5", "x", str(2 ** 70), "", "1.5"])]
    optional = {
        "--players": ["2", "2", "3", "2-3", "3,2", "0", "-1", "99", "2-", "2,,3", "a", ""],
        "--seed": ["1", "7", "0", "-1", "x", str(2 ** 70), ""],
        "--set": ["round_cap=0", "round_cap=abc", "nosuch=1", "round_cap=[1,2", "=1", "round_cap",
                  "head_start=[0,0]", "red_bonus=1e400", "red_bonus=-3", "round_cap=[30,40]", "red_bonus=3"],
        "--variant": ["standard", "standard", "nosuch", "standard+standard", "", "+"],
        "--strategies": ["random", "careful,bold", "bold", "nosuch", "random,", ",", "random,random,random,random,random"],
        "--precision": ["1pt", "5pt", "0", "-1", "abc", "200pt", "0.5"],
        "--chunk": ["7", "10", "0", "-1", "x"],
        "--bot": ["random:x=1", "nosuch:a=b", ":", "careful:hold=-5", "careful:", "mine:preset=careful"],
        "--components": ["alt-loaded", "standard", "nosuch", "/nonexistent/folder", ""],
        "--robustness": ["off", "off", "maybe", "", "OFF"],
        "--max-cells": ["100", "1", "0", "-1", "x"],
        "--backend": ["loky", "nosuch", ""],
    }
    for option in rng.sample(sorted(optional), rng.randint(0, 3)):
        args += [option, _pick(rng, optional[option])]
    if rng.random() < 0.2:
        args.append(_pick(rng, ["--tiers", "--arcs", "--tournament", "--resume", "--force-jobs", "--nosuch"]))
    return args


def _check(rng: random.Random, folders: dict[str, Path]) -> list[str]:
    args = ["check", str(_pick(rng, [folders["done"]] * 4 + list(folders.values())))]
    limits = {"--max-seat-gap": ["3pt", "40pt", "x", "-1", "200pt", "1.5", "", "0"],
              "--max-first-player-advantage": ["5pt", "0.05", "30pt", "abc", "-2pt"],
              "--max-incomplete": ["1%", "50%", "101%", "x"], "--min-games": ["10", "100", "0", "-1", "x"],
              "--max-rounds": ["10", "100", "-1", "x"], "--min-rounds": ["1", "x"]}
    for option in rng.sample(sorted(limits), rng.randint(1, 3)):
        args += [option, _pick(rng, limits[option])]
    if rng.random() < 0.2:
        args += ["--until-decided", "--budget", _pick(rng, ["400", "0", "-5", "x"])]
    if rng.random() < 0.2:
        args.append(_pick(rng, ["--strict", "--robust", "--nosuch"]))
    return args


def _listing(rng: random.Random) -> list[str]:
    command = _pick(rng, ["rules", "strategies", "games", "replay"])
    args = [command]
    if command != "games":
        args.append(_pick(rng, [*GAMES, "set_sail", "tide_of_avaris"]))
    if command == "replay":
        for option, values in (("--players", ["2", "0", "x", "9"]), ("--seed", NUMBERS),
                               ("--strategies", ["random", "nosuch", ","])):
            if rng.random() < 0.5:
                args += [option, _pick(rng, values)]
    elif rng.random() < 0.5:
        args.append(_pick(rng, ["--json", "--nosuch", "extra"]))
    return args


def _report(rng: random.Random, folders: dict[str, Path]) -> list[str]:
    return ["report", str(_pick(rng, [folders["done"]] * 2 + list(folders.values())))]


def _tune(rng: random.Random, out: Path) -> list[str]:
    args = ["tune", _pick(rng, GAMES), "--quiet", "--out", str(out), "--max-games", _pick(rng, ["400", "0", "x"]),
            "--param", _pick(rng, ["red_bonus", "nosuch", "", "round_cap", "head_start"])]
    if rng.random() < 0.5:
        args += ["--players", _pick(rng, ["2", "0", "x"])]
    if rng.random() < 0.3:
        args += ["--objective", _pick(rng, ["gap", "chi2", "nosuch"])]
    return args


def cases(folders: dict[str, Path], scratch: Path) -> list[list[str]]:
    rng = random.Random(SEED)
    drawn = []
    for number in range(CASES):
        kind = rng.random()
        if kind < 0.45:
            drawn.append(_sweep(rng, scratch / f"sweep-{number}"))
        elif kind < 0.65:
            drawn.append(_check(rng, folders))
        elif kind < 0.85:
            drawn.append(_listing(rng))
        elif kind < 0.95:
            drawn.append(_report(rng, folders))
        else:
            drawn.append(_tune(rng, scratch / f"tune-{number}"))
    return drawn


@pytest.fixture(scope="module")
def workplace(tmp_path_factory):
    """A folder to work in, holding a finished dice-game sweep, a file, an empty folder and a
    folder holding only a damaged summary.json, for the commands that take a folder."""
    root = tmp_path_factory.mktemp("probe")
    done = root / "done"
    result = CliRunner().invoke(app, ["sweep", "--game", "dicegame", "--players", "2,3", "--games", "1000",
                                      "--quiet", "--jobs", "1", "--out", str(done)])
    assert result.exit_code == 0, result.output
    (root / "a-file").write_text("not a folder\n")
    (root / "empty").mkdir()
    (root / "damaged").mkdir()
    (root / "damaged" / "summary.json").write_text("{not json")
    folders = {"done": done, "file": root / "a-file", "empty": root / "empty", "damaged": root / "damaged",
               "missing": root / "missing", "home": Path("~nosuchuser_simkit/x")}
    return root, folders


def test_every_drawn_command_line_ends_documented_and_tracebackless(workplace, monkeypatch):
    root, folders = workplace
    scratch = root / "scratch"
    scratch.mkdir()
    monkeypatch.chdir(scratch)  # a relative path a case writes lands here, and is seen
    before = {p for p in root.rglob("*") if not p.is_relative_to(scratch)}
    failures = []
    codes = {}
    for args in cases(folders, scratch):
        result = CliRunner().invoke(app, args)
        code = result.exit_code
        codes[code] = codes.get(code, 0) + 1
        text = result.stdout + result.stderr
        problem = None
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            problem = f"raised {type(result.exception).__name__}: {result.exception}"
        elif code not in (0, 1, 2, 3):
            problem = f"exit {code}"
        elif "Traceback" in text:
            problem = "a traceback"
        elif code == 2:
            lines = result.stderr.strip().splitlines()
            if len(lines) != 1 or not lines[0].startswith("error: "):
                problem = f"not one error: line: {result.stderr!r}"
        if problem:
            failures.append(f"simkit {' '.join(args)}: {problem}")
    assert not failures, "\n".join(failures[:20])
    # what the probe wrote outside its scratch folder: nothing (the finished sweep is read, never changed,
    # but a report or check may write its summary and report again, which are its own files)
    after = {p for p in root.rglob("*") if not p.is_relative_to(scratch)}
    assert {p for p in after - before if p.parent.name not in ("done", "plots", "sequential")
            and not p.is_relative_to(folders["done"])} == set()
    # the draw mixes refusals with commands that run: sweeps that play, checks that judge
    assert codes.get(2, 0) >= CASES // 3 and codes.get(0, 0) + codes.get(1, 0) + codes.get(3, 0) >= CASES // 8, codes
