"""The mutant generator of tests/mutants/run.py (--random): sites, operators, the draw.

Fast: a small hand-made source in a temporary folder, and the set_sail draw parsed but never
run (no engine compile, no subprocess)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.mutants import probe, run

ROOT = Path(__file__).resolve().parents[1]

SOURCE = '''\
import numpy as np


def cited(T, seat, n):
    """A docstring is no statement to skip."""
    total = 0
    for i in range(n):
        if T[seat, i] < 3:
            total += T[seat, i] * 2
    return total


def also_cited(T, seat):
    total = 0
    total -= 1
    label = "a" + "b"
    first = T[0, seat]
    return total % 5


class Board:
    def move(self, x):
        if x == 2:
            self.at = x
        return self.at


def untouched(T, seat, n):
    total = 0
    for i in range(n):
        if T[seat, i] < 3:
            total += T[seat, i] * 2
    return total
'''
PLACES = {"mod.py": ["cited", "also_cited", "Board::move"]}


@pytest.fixture
def root(tmp_path):
    (tmp_path / "mod.py").write_text(SOURCE)
    return tmp_path


def _span(name: str) -> range:
    node = run.function_nodes(ast.parse(SOURCE))[name]
    return range(node.lineno, node.end_lineno + 1)


def test_every_operator_gives_a_valid_single_site_change_of_a_unique_old(root):
    pool = run.candidates(PLACES, root)
    assert {c.op for c in pool} == set(run.OPERATORS)
    for c in pool:
        assert SOURCE.count(c.old) == 1, c
        mutated = SOURCE.replace(c.old, c.new)
        compile(mutated, "mod.py", "exec")
        assert run.compiles(c, root)
        old, new = c.old.splitlines(), c.new.splitlines()
        assert len(old) == len(new)  # every statement here fits on one line
        changed = [i for i, (a, b) in enumerate(zip(old, new)) if a != b]
        assert len(changed) == 1, c  # one site
        first = SOURCE[: SOURCE.index(c.old)].count("\n") + 1
        assert first + changed[0] == c.line
        assert ast.dump(ast.parse(mutated)) != ast.dump(ast.parse(SOURCE))
    assert len({(c.file, c.old, c.new) for c in pool}) == len(pool)  # no duplicates


@pytest.mark.parametrize("op, line", [
    ("cmp", "        if T[seat, i] <= 3:"),
    ("cmp", "        if x != 2:"),
    ("arith", "            total -= T[seat, i] * 2"),
    ("arith", "            total += T[seat, i] // 2"),
    ("arith", "    total += 1"),
    ("arith", "    return total // 5"),
    ("const", "    total = 1"),
    ("const", "    total = -1"),
    ("const", "        if T[seat, i] < 4:"),
    ("cond", "        if not (T[seat, i] < 3):"),
    ("cond", "        if True:"),
    ("cond", "        if False:"),
    ("skip", "            pass"),
    ("skip", "    pass"),
    ("index", "        if T[seat + 1, i] < 3:"),
    ("index", "        if T[seat, i - 1] < 3:"),
])
def test_each_operator_makes_its_change(root, op, line):
    pool = run.candidates(PLACES, root)
    assert any(line in c.new.splitlines() and c.op == op for c in pool), (op, line)


def test_no_change_to_strings_docstrings_or_constants_as_indices(root):
    pool = run.candidates(PLACES, root)
    lines = SOURCE.splitlines()
    news = [ln for c in pool for ln in c.new.splitlines()]
    assert '    label = "a" - "b"' not in news  # arith leaves string operands alone
    assert not any('"""' in lines[c.line - 1] for c in pool)  # a docstring is never skipped
    assert "    first = T[0 + 1, seat]" not in news  # a constant index is const's: T[1, seat]
    assert "    first = T[1, seat]" in news and "    first = T[0, seat + 1]" in news


def test_sites_come_only_from_the_cited_functions(root):
    pool = run.candidates(PLACES, root)
    cited = set().union(*(_span(n) for n in ("cited", "also_cited", "Board::move")))
    assert {c.line for c in pool} <= cited
    assert not any(c.line in _span("untouched") for c in pool)
    original = ast.get_source_segment(SOURCE, run.function_nodes(ast.parse(SOURCE))["untouched"])
    for c in pool:
        mutated = SOURCE.replace(c.old, c.new)
        node = run.function_nodes(ast.parse(mutated))["untouched"]
        assert ast.get_source_segment(mutated, node) == original, c
    assert {c.function for c in pool} == {"cited", "also_cited", "Board::move"}
    # a function nobody cites gives nothing; citing it alone gives only its lines
    assert run.candidates({"mod.py": ["nowhere"]}, root) == []
    alone = run.candidates({"mod.py": ["untouched"]}, root)
    assert alone and {c.line for c in alone} <= set(_span("untouched"))


def test_a_repeated_line_grows_until_old_is_unique(root):
    pool = run.candidates(PLACES, root)
    # `total = 0` and the loop lines of `cited` are repeated in `untouched`
    zero = [c for c in pool if c.op == "const" and c.line == 6]
    assert zero and all(len(c.old.splitlines()) > 1 and SOURCE.count(c.old) == 1 for c in zero)
    assert all("    total = 0\n" in c.old for c in zero)


def test_the_draw_is_fixed_by_the_seed(root):
    pool = run.candidates(PLACES, root)
    a = run.draw(pool, 6, seed=3, root=root)
    assert a == run.draw(pool, 6, seed=3, root=root)
    assert len(a) == 6 and len(set(a)) == 6
    assert a != run.draw(pool, 6, seed=4, root=root)
    everything = run.draw(pool, len(pool) + 10, seed=3, root=root)
    assert sorted(everything, key=pool.index) == pool  # all of them, once each


def test_a_real_game_draw_is_deterministic_and_cites_rule_code():
    first = run.generate("set_sail", 25, 7)
    assert first == run.generate("set_sail", 25, 7)
    assert [m.id for m in first] == [f"R-7-{k}" for k in range(1, 26)]
    assert [m.old for m in first] != [m.old for m in run.generate("set_sail", 25, 8)]
    places = run.rule_places("set_sail")
    for m in first:
        text = (ROOT / m.file).read_text()
        assert text.count(m.old) == 1
        compile(text.replace(m.old, m.new), m.file, "exec")
        function = m.what.split(" in ")[-1].split(" (")[0]
        assert function in places[m.file]
        assert all(t.startswith("tests/") and "golden" not in t for t in m.caught_by)
        assert run.diff_lines(m)


def test_only_python_functions_are_places():
    places = run.rule_places("set_sail")
    assert all(f.endswith(".py") for f in places)
    assert "SILVER" not in places.get("simkit/games/set_sail/state.py", [])  # a constant, not mutated
    assert "take_turn" in places["simkit/games/set_sail/engine.py"]
    engine = run.rule_places("set_sail", engine=True)
    assert set(places["simkit/games/set_sail/engine.py"]) <= set(engine["simkit/games/set_sail/engine.py"])


def test_the_probe_plays_every_preset_but_the_lookahead():
    cells = probe.cells("set_sail")
    assert ("standard", 2, "random") in cells and ("extended", 6, "tuned") in cells
    assert not any(preset == "lookahead" for _, _, preset in cells)
    assert len(cells) == len(set(cells))
