"""Every game's rules coverage and assumption register (coverage.toml, simkit.core.coverage) is
checked against the code: each cited file, function, test, rule parameter, component and
assumption exists, each inventory id is answered once, and the rule inventory the rulebooks
ship with (when it is beside the repository) numbers exactly the ids the file declares."""

from pathlib import Path

import pytest

from simkit import games
from simkit.core import coverage

# the shipped games (a test game registered through SIMKIT_GAME_MODULES keeps no inventory)
GAMES = sorted(p.parent.name for p in (coverage.ROOT / "simkit" / "games").glob("*/__init__.py"))
INVENTORY = coverage.ROOT.parent / "shared" / "rulebooks" / "inventory"


def component_names(game_id: str) -> set[str]:
    folder = games.folder(game_id) / "components"
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if "__pycache__" not in p.parts}


@pytest.mark.parametrize("game_id", GAMES)
def test_coverage_cites_only_what_exists(game_id):
    cov = coverage.load(game_id)
    assert cov.game == game_id
    params = set(games.get(game_id).rules.by_name)
    assert coverage.problems(cov, params, component_names(game_id)) == []


@pytest.mark.parametrize("game_id", GAMES)
def test_coverage_answers_the_rule_inventory(game_id):
    inventory = INVENTORY / f"{game_id}.md"
    if not inventory.is_file():
        pytest.skip(f"no rule inventory at {inventory}")
    cov = coverage.load(game_id)
    assert sorted(set(coverage.inventory_ids(inventory))) == sorted(cov.expected_ids())


def test_problems_names_each_broken_reference(tmp_path):
    """A hand-made file with one fault of every kind: each is reported."""
    f = tmp_path / "coverage.toml"
    f.write_text('''
game = "g"
prefix = "GG"
rules = 3
gaps = 1
contradictions = 0

[[assumption]]
id = "A1"
rulebook = "silent"
assumes = "x"
why = "y"
params = ["no_such_param"]
components = ["missing.toml"]

[[rule]]
id = "GG-001"
rule = "a"
status = "implemented"
code = ["simkit/core/coverage.py::no_such_function"]
tests = ["tests/test_coverage.py::test_problems_names_each_broken_reference"]

[[rule]]
id = "GG-001"
rule = "b"
status = "parameter"
code = ["simkit/core/coverage.py::parse"]
tests = ["simkit/core/coverage.py::parse"]

[[rule]]
id = "GG-G1"
rule = "c"
status = "assumption"
assumption = "A2"

[[rule]]
id = "GG-X1"
rule = "d"
status = "n/a"
''')
    cov = coverage.parse(f)
    found = "\n".join(coverage.problems(cov, {"p"}, {"board.txt"}))
    for expected in ("GG-001: answered twice", "not answered: GG-002, GG-003", "outside the declared numbering: GG-X1",
                     "no rule parameter 'no_such_param'", "no component file or set 'missing.toml'",
                     "defines no 'no_such_function'", "names no rule parameter", "not a test",
                     "no registered assumption 'A2'", "n/a needs a reason"):
        assert expected in found, expected


def test_a_key_outside_the_schema_is_refused(tmp_path):
    f = tmp_path / "coverage.toml"
    f.write_text('game = "g"\nprefix = "GG"\nrules = 1\ngaps = 0\ncontradictions = 0\n'
                 '[[rule]]\nid = "GG-001"\nrule = "a"\nstatus = "n/a"\nwhy = "flavour"\ntest = "x"\n')
    with pytest.raises(coverage.CoverageError, match="unknown key"):
        coverage.parse(f)


def test_references_resolve_functions_methods_and_constants():
    assert coverage.reference_problem("simkit/core/coverage.py::Coverage::expected_ids") is None
    assert coverage.reference_problem("simkit/core/coverage.py::STATUSES") is None
    assert coverage.reference_problem("simkit/core/coverage.py") is None
    assert "no file" in coverage.reference_problem("simkit/nowhere.py::x")
    assert coverage.reference_problem("tests/test_coverage.py::component_names", must_be_test=True)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_rendered_tables_hold_every_id(game_id):
    cov = coverage.load(game_id)
    rules = coverage.render_rules(cov)
    assert all(f"| {r.id} |" in rules for r in cov.rules)
    register = coverage.render_assumptions(cov)
    assert all(f"| {a.id} |" in register for a in cov.assumptions)
    assert Path(cov.path).name == coverage.FILE
