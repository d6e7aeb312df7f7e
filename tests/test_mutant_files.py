"""The mutation harness's files stay true of the code (tests/mutants/run.py runs them, not CI).

A mutant whose text has moved (a function split into another file) would be reported as
stale by `make mutants`, but only when someone runs it; here every mutant is checked on
every test run: its `old` text occurs exactly once in its file, and every test it cites exists.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.mutants.run import REPO, games, load

MUTANTS = [m for game in games() for m in load(game)]


def _test_names(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    return {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef) and node.name.startswith("test")}


@pytest.mark.parametrize("mutant", MUTANTS, ids=[f"{m.game}-{m.id}-{i}" for i, m in enumerate(MUTANTS)])
def test_every_mutant_breaks_text_that_is_in_its_file_once_and_cites_tests_that_exist(mutant):
    source = (REPO / mutant.file).read_text()
    assert source.count(mutant.old) == 1, f"{mutant.id}: its old text occurs {source.count(mutant.old)} times " \
                                          f"in {mutant.file}"
    for node in mutant.caught_by:
        file, _, name = node.partition("::")
        assert name.split("[")[0] in _test_names(REPO / file), f"{mutant.id}: {node} does not exist"


def test_there_are_at_least_twelve_mutants_per_game():
    assert {game: sum(m.game == game for m in MUTANTS) >= 12 for game in games()} == dict.fromkeys(games(), True)
