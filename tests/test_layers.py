"""The layers you can see (docs/architecture.md, "Layers and imports"): every module in a layer
package, each layer importing only the layers below it (core, games, analysis, report, sweeps,
search, commands), no import circle among simkit's modules, the analysis package layered
bottom-up (primitives, seats, figures, findings and the summary builder), a report that reads
summary.json and the tables only, never a game module, and result tables written by a module
that builds neither the summary nor the report.

Every import counts, at module level or inside a function: a deferred import still makes a
circle, it only hides it until the call."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "simkit"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in PACKAGE.rglob("*.py")}


def imports(source: str, name: str, is_package: bool, known: set[str]) -> set[str]:
    """The simkit modules `source` (module `name`) imports, anywhere in it.

    `from simkit.a import b` names the module simkit.a.b when b is a module, else simkit.a;
    `import simkit.a.b` names the innermost module of the dotted path that exists. A package
    itself is only named when it is imported for something its __init__ defines."""
    package = name if is_package else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = alias.name
                while target and target not in known:
                    target = target.rpartition(".")[0]
                if target:
                    found.add(target)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1] + ([base] if base else []))
            if not base.startswith("simkit"):
                continue
            for alias in node.names:
                full = f"{base}.{alias.name}"
                found.add(full if full in known else base)
    found.discard(name)
    return {target for target in found if target in known}


def simkit_graph() -> dict[str, set[str]]:
    found = modules()
    known = set(found)
    return {name: imports(path.read_text(), name, path.name == "__init__.py", known) for name, path in found.items()}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(node: str) -> None:
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for target in sorted(edges.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_the_walker_finds_a_circle_hidden_in_a_function():
    """The check itself: a deferred import that closes a circle is found, and a chain is not one."""
    known = {"simkit.a", "simkit.b", "simkit.c"}
    edges = {
        "simkit.a": imports("from simkit import b\n", "simkit.a", False, known),
        "simkit.b": imports("def f():\n    from simkit.c import thing\n", "simkit.b", False, known),
        "simkit.c": imports("import simkit.a\n", "simkit.c", False, known),
    }
    assert edges == {"simkit.a": {"simkit.b"}, "simkit.b": {"simkit.c"}, "simkit.c": {"simkit.a"}}
    assert circles(edges) == [["simkit.a", "simkit.b", "simkit.c"]]
    edges["simkit.c"] = set()
    assert circles(edges) == []


def test_no_import_circle_in_simkit():
    assert circles(simkit_graph()) == []


# simkit's layers, bottom-up: a module imports only from its own layer and the layers below
PACKAGE_LAYERS = ("core", "games", "analysis", "report", "sweeps", "search", "commands")
TOP = {"simkit", "simkit.__main__"}  # the notebook calls and `python -m simkit`: the commands' layer


def layer_of(name: str) -> int:
    if name in TOP:
        return PACKAGE_LAYERS.index("commands")
    return PACKAGE_LAYERS.index(name.split(".")[1])


def test_every_module_is_in_a_layer():
    stray = [name for name in modules() if name not in TOP and name.split(".")[1] not in PACKAGE_LAYERS]
    assert stray == [], f"modules outside the layer packages {PACKAGE_LAYERS}: {stray}"


def test_each_layer_imports_only_the_layers_below():
    for name, targets in simkit_graph().items():
        for target in targets:
            assert layer_of(target) <= layer_of(name), \
                f"{name} ({PACKAGE_LAYERS[layer_of(name)]}) imports {target}, a layer above"


def test_the_engine_kit_imports_nothing_of_simkit_beyond_itself():
    """What a game and its bots are built from stands alone: the engines compile from it."""
    for name, targets in simkit_graph().items():
        if name.startswith("simkit.core"):
            assert all(t.startswith("simkit.core") for t in targets), f"{name} imports {sorted(targets)}"


def test_a_game_imports_the_engine_kit_and_itself_only():
    for name, targets in simkit_graph().items():
        if name.startswith("simkit.games.") and name.count(".") >= 2:
            own = ".".join(name.split(".")[:3])
            others = {t for t in targets if not t.startswith(("simkit.core", own))}
            assert others == set(), f"{name} imports {sorted(others)}"


# a game package's modules, in the order they may import each other (docs/architecture.md, "One
# shape in every game"): each imports only the game's modules of an earlier rank (Tide of Avaris'
# actions.py is the part of its engine that engine.py builds on)
GAME_RANKS = {"state": 0, "components": 1, "rules": 2, "events": 2, "actions": 3, "engine": 4, "lookahead": 5,
              "chunk": 6}
GAME_FILES = ("state", "components", "rules", "events", "engine", "lookahead", "chunk")


def _games() -> list[str]:
    return sorted({name.split(".")[2] for name in modules() if name.startswith("simkit.games.") and name.count(".") >= 2})


@pytest.mark.parametrize("game", _games())
def test_every_game_has_the_same_files(game):
    names = modules()
    for role in GAME_FILES:
        assert f"simkit.games.{game}.{role}" in names, f"{game} has no {role} module"


@pytest.mark.parametrize("game", _games())
def test_a_games_modules_import_in_one_order(game):
    """state, components, rules and events, the engine, the lookahead, the game loop (chunk), the
    package: a module imports only the game's modules before it (an engine package's modules
    import each other freely, without a circle)."""
    package = f"simkit.games.{game}"
    for name, targets in simkit_graph().items():
        if not name.startswith(package + "."):
            continue
        role = name.split(".")[3]
        assert role in GAME_RANKS, f"{name}: a module of no known role ({sorted(GAME_RANKS)})"
        for target in targets:
            assert target != package, f"{name} imports its game's package (its __init__), which imports it"
            if not target.startswith(package + "."):
                continue
            other = target.split(".")[3]
            assert role == other == "engine" or GAME_RANKS[other] < GAME_RANKS[role], \
                f"{name} ({role}) imports {target} ({other})"


def test_result_tables_are_written_apart_from_the_summary_and_report():
    """simkit.sweeps.results writes and reads the tables; the summary and the report are built
    above it (simkit.sweeps.finish), the only sweep module that imports the report. Which findings
    a sweep has and how they rank is analysis (simkit.analysis.findings): the robustness phase
    reads them there, never from the report."""
    edges = simkit_graph()
    assert not {t for t in edges["simkit.sweeps.results"] if t.startswith(("simkit.analysis", "simkit.report"))}
    for name, targets in edges.items():
        if name.startswith(("simkit.sweeps", "simkit.search")) and name != "simkit.sweeps.finish":
            assert not {t for t in targets if t.startswith("simkit.report")}, f"{name} imports the report"


# the analysis package, bottom-up: a module imports only from layers below its own
LAYERS = {
    "simkit.analysis.intervals": 0, "simkit.analysis.tests": 0, "simkit.analysis.tables": 0,
    "simkit.analysis.seats": 1,
    "simkit.analysis.arcs": 2, "simkit.analysis.curves": 2, "simkit.analysis.tiers": 2,
    "simkit.analysis.tournament": 2, "simkit.analysis.robustness": 2,
    "simkit.analysis.findings": 3, "simkit.analysis.summary": 3,
}
# what the analysis may use from outside it: errors, the trace layout, the tier and seating
# designs of the cells it reads, and (the summary builder only) the game registry
OUTSIDE = {"simkit.core.errors", "simkit.core.traces", "simkit.core.ladder", "simkit.core.seating", "simkit.core.game"}


@pytest.mark.parametrize("name", sorted(LAYERS))
def test_analysis_modules_import_only_the_layers_below(name):
    edges = simkit_graph()
    for target in edges[name]:
        if target in LAYERS:
            assert LAYERS[target] < LAYERS[name], f"{name} imports {target}, which is not below it"
        elif name == "simkit.analysis.summary" and target == "simkit.games":
            continue
        else:
            assert target in OUTSIDE or target == "simkit.analysis", f"{name} imports {target}"


def test_every_analysis_module_has_a_layer():
    assert {name for name in modules() if name.startswith("simkit.analysis.")} == set(LAYERS)


def test_the_report_reads_summary_json_and_the_tables_only():
    """No report module imports a game, the registry, the runner or the summary builder: what it
    needs of a game is in summary.json (its `games` field). It may use the analysis' primitives,
    seat figures, robustness labels and findings, which read numbers only, and simkit.core.files,
    which writes each file whole."""
    edges = simkit_graph()
    allowed = {"simkit.analysis.intervals", "simkit.analysis.tests", "simkit.analysis.tables",
               "simkit.analysis.seats", "simkit.analysis.robustness", "simkit.analysis.findings", "simkit.core.files"}
    for name, targets in edges.items():
        if not name.startswith("simkit.report"):
            continue
        outside = {t for t in targets if not t.startswith("simkit.report")}
        assert outside <= allowed, f"{name} imports {sorted(outside - allowed)}"
