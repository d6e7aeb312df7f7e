"""Bot parameters as data (simkit.core.bots): declared, validated, set per seat from a spec or
the CLI, recorded in the cell and the rules hash, listed by `simkit strategies`."""

from __future__ import annotations

import json

import numpy as np
import polars as pl
import pytest

from simkit import games as registry
from simkit.core import bots
from simkit.core.errors import InputError
from simkit.core.rng import game_seeds
from simkit.sweeps import runner
from simkit.sweeps import spec as specs

GAMES = ("sea_of_plunder", "sea_of_thieves", "sea_of_troubles", "set_sail", "tide_of_avaris")


def test_a_new_label_gets_its_own_row_and_the_presets_keep_theirs(dicegame):
    settings = dicegame.check_bots({"greedy": {"preset": "careful", "hold_at": 20}}, "test")
    table, labels = dicegame.strategy_table(("greedy", "careful", "greedy@0.5"), settings)
    presets = dicegame.preset_names()
    assert labels[: len(presets)] == tuple(presets)
    careful = labels.index("careful")
    assert table[careful, 1] == 12.0  # the shipped row is untouched
    greedy, noisy = labels.index("greedy"), labels.index("greedy@0.5")
    assert table[greedy, 1] == table[noisy, 1] == 20.0
    assert table[greedy, -1] == 0.0 and table[noisy, -1] == 0.5


def test_a_changed_preset_keeps_its_shipped_row_unlabelled(dicegame):
    settings = dicegame.check_bots({"careful": {"hold_at": 30}}, "test")
    table, labels = dicegame.strategy_table(("careful",), settings)
    row = dicegame.preset_names().index("careful")
    assert labels[row] == "" and table[row, 1] == 12.0  # engines may read a preset's row by index
    assert labels[-1] == "careful" and table[-1, 1] == 30.0


@pytest.mark.parametrize("setting, message", [
    ({"careful": {"hold": 20}}, "unknown parameter 'hold' of careful (did you mean 'hold_at'?)"),
    ({"careful": {"hold_at": 200}}, "must be in 2..60"),
    ({"careful": {"hold_at": 12.5}}, "must be a whole number"),
    ({"careful": {"hold_at": "x"}}, "must be a number"),
    ({"careful": {"hold_at": True}}, "must be a number"),
    ({"carefull": {"hold_at": 20}}, "needs preset = \"<name>\""),
    ({"greedy": {"preset": "carful"}}, "unknown preset 'carful'"),
    ({"careful": {"preset": "bold"}}, "'careful' is a preset"),
    ({"random": {"hold_at": 3}}, "random has no parameters"),
    ({"careful": {"rollouts": 3}}, "unknown parameter 'rollouts' of careful"),  # the lookahead's only
    ({"2fast": {"preset": "bold"}}, "must be a name"),
    ({"greedy": 3}, "must be a table"),
])
def test_bad_settings_name_the_label_the_key_and_what_is_allowed(dicegame, setting, message):
    with pytest.raises(InputError, match=None) as e:
        dicegame.check_bots(setting, "spec.toml")
    assert message in str(e.value)


def test_the_lookahead_reads_both_kinds_of_parameter(dicegame):
    settings = dicegame.check_bots({"lookahead": {"hold_at": 20, "rollouts": 7}}, "test")
    table, labels = dicegame.strategy_table(("lookahead",), settings)
    assert list(table[labels.index("lookahead"), :3]) == [2.0, 20.0, 7.0]


@pytest.mark.parametrize("text, message", [
    ("careful", "must look like LABEL:key=value"),
    ("careful:hold_at", "must be key=value"),
    ("careful:hold_at=x", "must be a number"),
    ("careful:hold_at=1,hold_at=2", "given twice"),
])
def test_bad_bot_options_are_one_line(text, message):
    with pytest.raises(InputError) as e:
        bots.merge_options([text])
    assert message in str(e.value)


def test_a_label_given_twice_on_the_command_line_is_refused():
    with pytest.raises(InputError, match="given twice"):
        bots.merge_options(["careful:hold_at=20", "careful:hold_lead=30"])


def test_spec_tables_and_options_set_bots_per_block_and_cell(dicegame):
    table = {"name": "t", "bots": {"greedy": {"preset": "careful", "hold_at": 20}},
             "study": [{"game": "dicegame", "players": 2, "strategies": ["greedy,careful", "bold"], "games": 10},
                       {"game": "dicegame", "players": 3, "strategies": "greedy", "games": 10,
                        "bots": {"greedy": {"preset": "bold", "hold_lead": 30}}}]}
    cells = specs.load(table).cells
    by_id = {c.lineup: c for c in cells}
    assert by_id[("greedy", "careful")].bots == {"greedy": {"preset": "careful", "hold_at": 20.0}}
    assert by_id[("bold",)].bots == {}  # a cell keeps the settings of the labels it seats
    three = next(c for c in cells if c.players == 3)
    assert three.bots == {"greedy": {"preset": "bold", "hold_lead": 30.0}}
    assert "greedy.hold_lead=30" in three.id
    # --bot replaces the spec's setting of the same label
    cells = specs.load(table, bots=["greedy:preset=bold,hold_at=40"]).cells
    assert all(c.bots.get("greedy") == {"preset": "bold", "hold_at": 40.0} for c in cells if "greedy" in c.lineup)


def test_an_unknown_label_in_a_line_up_is_refused(dicegame):
    with pytest.raises(InputError, match="unknown strategy of dicegame 'greedy'"):
        specs.load(game="dicegame", players=2, strategies="greedy,careful", games=10)


def test_the_resolved_spec_replays_the_same_cells(dicegame, tmp_path):
    sweep = specs.load(game="dicegame", players=2, strategies="greedy,careful", games=10,
                       bots=["greedy:preset=careful,hold_at=20,hold_lead=30"])
    path = tmp_path / "spec.toml"
    path.write_text(sweep.to_toml())
    again = specs.load(path)
    assert [c.to_dict() for c in again.cells] == [c.to_dict() for c in sweep.cells]


def test_the_rules_hash_covers_the_bots(dicegame):
    def digest(bot_options):
        cell = specs.load(game="dicegame", players=2, strategies="careful", games=10, bots=bot_options).cells[0]
        return runner.compiled(cell)[1]

    plain = digest(None)
    assert digest(["careful:hold_at=20"]) != plain
    assert digest(["careful:hold_at=12"]) != digest(["careful:hold_at=20"])
    assert digest(None) == plain


def test_a_preset_set_to_another_presets_values_plays_its_games(dicegame):
    """careful with bold's hold_at plays bold's games, seed for seed: the setting reaches the engine."""
    def seats(lineup, bot_options):
        cell = specs.load(game="dicegame", players=3, strategies=lineup, games=300, bots=bot_options).cells[0]
        rules, _ = runner.compiled(cell)
        strategies = runner.seat_strategies(dicegame, cell.lineup, 3, 0, 300, cell.bots)
        return runner.play(dicegame, rules, strategies, game_seeds(np.uint64(5), 0, 300), lineup=cell.lineup,
                           bots=cell.bots)[1]

    as_bold = seats("careful", ["careful:hold_at=25"])
    assert np.array_equal(as_bold, seats("bold", None))
    assert not np.array_equal(as_bold, seats("careful", None))


def test_a_sweep_records_the_bots_in_the_cell_table_manifest_and_spec(dicegame, tmp_path):
    import simkit

    results = simkit.sweep(game="dicegame", players=2, strategies="greedy,careful", games=200, jobs=1,
                           out=tmp_path / "r", report=False, bots=["greedy:preset=careful,hold_at=22"])
    cells = pl.read_parquet(results.folder / "cells.parquet")
    assert json.loads(cells["bots"][0]) == {"greedy": {"preset": "careful", "hold_at": 22.0}}
    manifest = json.loads((results.folder / "manifest.json").read_text())
    assert "hold_at" in json.dumps(manifest)
    assert "hold_at = 22.0" in (results.folder / "spec.toml").read_text()
    assert set(results.seats["strategy"].unique()) == {"greedy", "careful"}


def test_strategies_lists_each_presets_parameters(dicegame):
    from typer.testing import CliRunner

    from simkit.commands.cli import app

    out = CliRunner().invoke(app, ["strategies", "dicegame", "--json"])
    assert out.exit_code == 0, out.output
    rows = {r["name"]: r for r in json.loads(out.output)}
    assert rows["random"]["parameters"] == []
    bold = {p["name"]: p for p in rows["bold"]["parameters"]}
    assert bold["hold_at"]["default"] == 25.0 and (bold["hold_at"]["low"], bold["hold_at"]["high"]) == (2, 60)
    assert "rollouts" not in bold and "rollouts" in {p["name"] for p in rows["lookahead"]["parameters"]}
    text = CliRunner().invoke(app, ["strategies", "dicegame"]).output
    assert "hold_lead" in text and "2..60 (whole)" in text


def test_a_bad_bot_option_on_the_command_line_is_one_error_line(dicegame, tmp_path):
    from typer.testing import CliRunner

    from simkit.commands.cli import app

    out = CliRunner().invoke(app, ["sweep", "--game", "dicegame", "--players", "2", "--games", "10",
                                   "--bot", "careful:hold_at=99", "--out", str(tmp_path / "x")])
    assert out.exit_code == 2
    assert out.output.strip().startswith("error: bot parameter hold_at") and out.output.count("\n") == 1
    assert not (tmp_path / "x").exists()


def test_the_tuned_file_is_read_and_checked(dicegame, tmp_path):
    presets = {p.name: (p.kind, p.weights) for p in dicegame.presets}
    assert bots.read_tuned(tmp_path, dicegame.bot_params, presets) is None
    (tmp_path / bots.TUNED_FILE).write_text('preset = "careful"\n[params]\nhold_at = 19\nhold_lead = 27\n')
    base, weights = bots.read_tuned(tmp_path, dicegame.bot_params, presets)
    assert base == "careful" and weights[:4] == (1.0, 19.0, 0.0, 27.0)
    (tmp_path / bots.TUNED_FILE).write_text('preset = "careful"\n[params]\nhold_at = 99\n')
    with pytest.raises(InputError, match="must be in 2..60"):
        bots.read_tuned(tmp_path, dicegame.bot_params, presets)
    (tmp_path / bots.TUNED_FILE).write_text('preset = "careful"\nhold_at = 19\n')
    with pytest.raises(InputError, match=r"\[params\] table"):
        bots.read_tuned(tmp_path, dicegame.bot_params, presets)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_declares_the_parameters_its_presets_hold(game_id):
    """Each slot a heuristic preset fills is declared once, and every preset's own value lies
    within the declared range, so `--bot` and `simkit train` can reach every preset."""
    game = registry.get(game_id)
    params = game.bot_params
    assert params, f"{game_id} declares no bot parameters"
    assert len({p.name for p in params}) == len(params) and len({p.slot for p in params}) == len(params)
    table = game.strategy_table()[0]
    for row, preset in enumerate(game.presets):
        if preset.kind == bots.RANDOM:
            continue
        assert game.params_of(preset.name), preset.name
        for p in game.params_of(preset.name):
            value = table[row, p.slot]
            assert p.low <= value <= p.high, f"{game_id} {preset.name} {p.name} = {value} outside {p.range_text()}"
            assert not p.integer or value == int(value), f"{game_id} {preset.name} {p.name} = {value} is not whole"
    kinds = [p.kind for p in game.presets]
    assert kinds[0] == bots.RANDOM and kinds.count(bots.LOOKAHEAD) >= 1
    first = kinds.index(bots.LOOKAHEAD)  # the rollout tiers (lookahead, expert) come after every heuristic
    assert set(kinds[first:]) == {bots.LOOKAHEAD}, kinds
    declared = {p.slot for p in params}
    for preset in game.presets:  # every slot past the policy code is a declared parameter
        missing = set(range(1, len(preset.weights))) - declared
        assert not missing, f"{game_id} {preset.name}: slots {sorted(missing)} are not declared"


def test_a_tuned_file_adds_the_tuned_preset_before_the_lookahead(dicegame, tmp_path):
    from simkit.core.game import with_tuned

    assert with_tuned(dicegame.presets, dicegame.bot_params, tmp_path) == dicegame.presets
    (tmp_path / bots.TUNED_FILE).write_text('preset = "bold"\n[params]\nhold_at = 21\n')
    presets = with_tuned(dicegame.presets, dicegame.bot_params, tmp_path)
    names = [p.name for p in presets]
    assert names == ["random", "careful", "bold", "tuned", "lookahead"]
    tuned = presets[3]
    assert tuned.kind == bots.HEURISTIC and tuned.weights[:2] == (1.0, 21.0) and "bold" in tuned.description
