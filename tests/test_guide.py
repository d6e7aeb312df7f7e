"""docs/guide.md's commands work as printed: every `$ simkit ...` line of its console blocks is
run through the CLI, in the guide's order, with small game counts, and must exit as the guide
says and print what it says it prints.

Each command sits alone in a ```console block, under a marker the page does not show:

    <!-- test: exit=1,3 games=200 shows="first-player advantage" section="Seat win rates" -->

exit: the exit codes the guide allows (default 0); games: the game count the test plays
(default SMALL); shows: text the output must contain; section: a section the report written
to the command's --out folder must have, the section the guide tells the reader to open
(both repeatable; at least one of them). The test
then plays `--games` and `--max-games` at that count, adds `--jobs 1 --quiet` to the commands
that play, and writes every `reports/...` folder under a temporary one, so that a `simkit
check reports/X` finds the sweep written by `--out reports/X` above it. `simkit tune` plays
its fresh-seed validation at the same small count.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from typer.testing import CliRunner

from simkit.commands.cli import app

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "guide.md"
SMALL = 1000  # games per cell unless the marker says less: the least `simkit check` judges (its --min-games)
MARK = re.compile(r"^<!--\s*test:(.*?)-->\s*$")
PLAYS = {"sweep", "tune"}  # the commands that play games: --jobs 1 --quiet


@dataclass
class Command:
    line: int
    text: str  # as printed, without the "$ "
    exits: tuple[int, ...] = (0,)
    games: int = SMALL
    shows: list[str] = field(default_factory=list)
    sections: list[str] = field(default_factory=list)


def _marker(text: str, line: int) -> dict:
    found: dict = {"shows": [], "sections": []}
    for token in shlex.split(text):
        key, sep, value = token.partition("=")
        assert sep, f"guide.md:{line}: marker token {token!r} is not key=value"
        if key == "exit":
            found["exits"] = tuple(int(code) for code in value.split(","))
        elif key == "games":
            found["games"] = int(value)
        elif key == "shows":
            found["shows"].append(value)
        elif key == "section":
            found["sections"].append(value)
        else:
            raise AssertionError(f"guide.md:{line}: unknown marker key {key!r}")
    return found


def guide_commands(text: str) -> list[Command]:
    """Every `$ simkit` line of the page's console blocks, with its marker's expectations."""
    commands, marker, block, taken = [], None, None, False
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if block is None:
            if m := MARK.match(line):
                marker = (number, _marker(m.group(1), number))
            elif line.startswith("```"):
                block, taken = line[3:].strip(), False
                if marker is not None and block != "console":
                    raise AssertionError(f"guide.md:{marker[0]}: a test marker over a {block or 'plain'} block")
            elif line and marker is not None:
                raise AssertionError(f"guide.md:{marker[0]}: a test marker must come just before its console block")
            continue
        if line == "```":
            if block == "console" and marker is not None and not taken:
                raise AssertionError(f"guide.md:{marker[0]}: a marker over a block without a `$ simkit` line")
            block, marker = None, None
            continue
        if block == "console" and raw.startswith("$ simkit "):
            assert marker is not None, f"guide.md:{number}: `{raw}` has no test marker above its block"
            assert not taken, f"guide.md:{number}: one `$ simkit` command per console block"
            expect = marker[1]
            assert expect["shows"] or expect["sections"], f"guide.md:{marker[0]}: the marker expects nothing"
            commands.append(Command(number, raw[2:], expect.get("exits", (0,)), expect.get("games", SMALL),
                                    expect["shows"], expect["sections"]))
            taken = True
    return commands


COMMANDS = guide_commands(GUIDE.read_text())


def test_the_guide_has_commands_and_every_one_is_extracted():
    """A change to the page's layout must not leave the test running nothing."""
    assert len(COMMANDS) >= 10, [c.text for c in COMMANDS]
    printed = [line for line in GUIDE.read_text().splitlines() if line.lstrip().startswith("$ simkit ")]
    assert [c.text for c in COMMANDS] == [line.lstrip()[2:] for line in printed]
    for verb in ("sweep", "tune", "check", "rules", "strategies"):
        assert any(c.text.split()[1] == verb for c in COMMANDS), f"the guide shows no `simkit {verb}`"


def test_the_extraction_reads_markers_and_refuses_an_unmarked_command():
    page = ('<!-- test: exit=1,3 games=200 shows="a b" shows=c section="Seat win rates" -->\n```console\n'
            "$ simkit sweep --games 5000 --out reports/x\nsome output\n```\n")
    [command] = guide_commands(page)
    assert (command.exits, command.games, command.shows) == ((1, 3), 200, ["a b", "c"])
    assert command.sections == ["Seat win rates"]
    assert command.text == "simkit sweep --games 5000 --out reports/x"
    with pytest.raises(AssertionError, match="no test marker"):
        guide_commands("```console\n$ simkit games\n```\n")
    assert guide_commands("no commands here\n") == []


def as_run(command: Command, reports: Path) -> list[str]:
    """The command's arguments as the test plays them: small counts, one worker, quiet,
    every reports/ folder under `reports`."""
    words = shlex.split(command.text)[1:]
    args, index = [], 0
    while index < len(words):
        word = words[index]
        if word in ("--games", "--max-games"):
            args += [word, str(command.games)]
            index += 2
            continue
        if word.startswith("reports/"):
            word = str(reports / word.removeprefix("reports/"))
        args.append(word)
        index += 1
    if args[0] in PLAYS:
        args += ["--jobs", "1", "--quiet"]
    return args


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory):
    """Every command, in the guide's order (a check reads the sweep above it), run once."""
    import simkit.search.tune

    reports = tmp_path_factory.mktemp("guide") / "reports"
    reports.mkdir()
    saved = simkit.search.tune.VALIDATION_GAMES, simkit.search.tune.START_GAMES
    simkit.search.tune.VALIDATION_GAMES, simkit.search.tune.START_GAMES = SMALL, 250  # the fresh-seed check, small too
    try:
        done = {}
        for command in COMMANDS:
            args = as_run(command, reports)
            result = CliRunner().invoke(app, args)
            out = Path(args[args.index("--out") + 1]) if "--out" in args else None
            report = (out / "report.md").read_text() if out and (out / "report.md").exists() else ""
            done[command.line] = (result.exit_code, result.stdout + result.stderr, result.exception, report)
        return done
    finally:
        simkit.search.tune.VALIDATION_GAMES, simkit.search.tune.START_GAMES = saved


@pytest.mark.parametrize("command", COMMANDS, ids=[f"line{c.line}-{' '.join(c.text.split()[1:3])}" for c in COMMANDS])
def test_a_guide_command_runs_as_printed(outcomes, command):
    code, output, exception, report = outcomes[command.line]
    assert code in command.exits, (f"guide.md:{command.line}: `{command.text}` exited {code}, the guide says "
                                   f"{command.exits}\n{output[-3000:]}\n{exception!r}")
    assert "Traceback" not in output
    for text in command.shows:
        assert text in output, f"guide.md:{command.line}: `{command.text}` did not print {text!r}\n{output[-3000:]}"
    headings = {line[3:].strip() for line in report.splitlines() if line.startswith("## ")}
    for section in command.sections:
        assert section in headings, f"guide.md:{command.line}: its report has no section {section!r}: {sorted(headings)}"
