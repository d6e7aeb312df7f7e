"""Test set-up: register the test-only dice game (tests/dicegame.py) for this process and
every process it starts (loky and Dask workers, `simkit` subprocesses); and, for `make test`'s
run on every core (pytest-xdist, --dist loadgroup), one group per game's folder of tests, so
that one worker compiles that game's engine, and one group per other test file."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DICEGAME = "tests.dicegame"


def _prepend(variable: str, value: str, sep: str) -> None:
    parts = [p for p in os.environ.get(variable, "").split(sep) if p]
    if value not in parts:
        os.environ[variable] = sep.join([value, *parts])


_prepend("SIMKIT_GAME_MODULES", DICEGAME, ",")
_prepend("PYTHONPATH", str(ROOT), os.pathsep)  # so workers and subprocesses can import tests.dicegame
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


@pytest.fixture(scope="session")
def dicegame():
    from simkit import games

    return games.get("dicegame")


def pytest_collection_modifyitems(config, items):
    """Each test's xdist group: tests/games/<game>/ as one, any other test file as its own, except
    the files of GAME_GROUP that play one game's engine, which join that game's group."""
    tests = Path(__file__).resolve().parent
    for item in items:
        parts = Path(str(item.fspath)).resolve().relative_to(tests).parts
        group = parts[1] if parts[0] == "games" and len(parts) > 2 else GAME_GROUP.get(parts[0], parts[0])
        item.add_marker(pytest.mark.xdist_group(group))


# test files outside tests/games/ that play only one game (compiled once, in that game's worker)
GAME_GROUP = {"test_guide.py": "sea_of_plunder"}
