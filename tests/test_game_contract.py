"""The checks a game package's declarations pass at import (simkit.core.game): table layouts that
fit their width, metric columns bound to the declared metrics, preset rows whose policy code
matches their kind, and the two engine entries made of one table allocation."""

import dataclasses
import importlib
import importlib.util
from pathlib import Path

import pytest

from simkit.core import bots as B
from simkit.core import game as G
from simkit.games import sea_of_troubles, set_sail

GAMES = ("sea_of_plunder", "sea_of_thieves", "sea_of_troubles", "set_sail", "tide_of_avaris")


def test_table_fits_names_every_part_that_is_wider_than_its_table():
    G.table_fits("T", 8, st=8, seat=3)  # one past the last column: fits exactly
    with pytest.raises(ValueError, match=r"the T table is 8 columns wide but st needs 9, hand needs 12"):
        G.table_fits("T", 8, st=9, seat=3, hand=12)


def test_metric_columns_follow_the_declaration_and_refuse_another_order():
    metrics = (G.Metric("vp", ""), G.Metric("silver", ""))
    assert G.metric_columns(metrics, G.SEAT_COLUMNS, "vp silver") == (G.SEAT_COLUMNS, G.SEAT_COLUMNS + 1)
    for wrong in ("silver vp", "vp", "vp silver gold"):
        with pytest.raises(ValueError, match="metric columns named"):
            G.metric_columns(metrics, G.SEAT_COLUMNS, wrong)


@pytest.mark.parametrize("game", GAMES)
def test_every_game_s_metric_columns_are_the_result_columns_of_its_declared_metrics(game):
    S = importlib.import_module(f"simkit.games.{game}.state")
    GAME = importlib.import_module(f"simkit.games.{game}").GAME
    assert GAME.seat_metrics is S.SEAT_METRICS and GAME.game_metrics is S.GAME_METRICS
    seat_cols = sorted(v for k, v in vars(S).items() if k.startswith("M_") and isinstance(v, int))
    game_cols = sorted(v for k, v in vars(S).items() if k.startswith("GM_") and isinstance(v, int))
    assert seat_cols == list(range(G.SEAT_COLUMNS, G.SEAT_COLUMNS + len(GAME.seat_metrics)))
    assert game_cols == list(range(G.GAME_COLUMNS, G.GAME_COLUMNS + len(GAME.game_metrics)))


def test_a_preset_whose_row_plays_another_policy_than_its_kind_is_refused():
    GAME = set_sail.GAME
    heuristic = next(p for p in GAME.presets if p.kind == B.HEURISTIC)
    wrong = dataclasses.replace(heuristic, weights=(B.LOOKAHEAD_POLICY,) + tuple(heuristic.weights[1:]))
    with pytest.raises(ValueError, match=f"preset {heuristic.name} is heuristic but its row's policy code is 2.0"):
        dataclasses.replace(GAME, presets=GAME.presets + (wrong,))
    # the shipped presets pass, Sea of Thieves' lookahead rows with the heuristic's code
    for game in GAMES:
        GAME = importlib.import_module(f"simkit.games.{game}").GAME
        kinds = {p.kind for p in GAME.presets}
        assert kinds == set(B.KINDS)
        assert dataclasses.replace(GAME) == GAME


def test_the_two_entries_pass_lookahead_on_and_off_to_the_one_table_allocation():
    calls = []

    def play_with_tables(*args):
        calls.append(args)

    play_chunk, play_chunk_heuristic = G.chunk_entries(play_with_tables, "A Game")
    play_chunk(*range(10))
    play_chunk_heuristic(*range(10))
    assert calls == [tuple(range(10)) + (True,), tuple(range(10)) + (False,)]
    assert play_chunk.__name__ == "play_chunk" and play_chunk_heuristic.__module__ == __name__
    assert "A Game" in play_chunk.__doc__
    # the games hand the toolkit entries made this way
    assert sea_of_troubles.GAME.play_chunk.__module__ == "simkit.games.sea_of_troubles.chunk"


def test_a_shipped_layout_that_outgrows_its_table_fails_at_import(tmp_path):
    """The width checks run when state.py is imported: a slot added past T's width is an error
    then, not a silent write into the next row."""
    import simkit.games.set_sail.state as S

    source = Path(S.__file__).read_text().replace("T_WIDTH = 64\n", "T_WIDTH = 16\n")
    assert "T_WIDTH = 16\n" in source
    probe = tmp_path / "narrow_state.py"
    probe.write_text(source)
    spec = importlib.util.spec_from_file_location("narrow_state", probe)
    with pytest.raises(ValueError, match="the T table is 16 columns wide but st needs 29, seat needs 33"):
        spec.loader.exec_module(importlib.util.module_from_spec(spec))
