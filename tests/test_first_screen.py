"""The report's first screen: every seat of every plain self-play cell against fair, in points with
its 95% interval, each marker styled by the robustness label of its seat finding."""

from __future__ import annotations

import pytest

from simkit.analysis.findings import cell_labels
from simkit.analysis.seats import seat_figure
from simkit.report import plots
from simkit.report.render import Plot
from simkit.report.sections import _first_screen_section


def cell(cell_id: str, players: int, wins: list[float], game: str = "dice", **extra) -> dict:
    return {"cell": cell_id, "game": game, "players": players, "variant": "standard", "overrides": {},
            "lineup": "greedy", "games": int(sum(wins)), "seats": [{"seat": s, "wins": w} for s, w in enumerate(wins)],
            **extra}


def finding(cell_id: str, seat: int, label: str) -> dict:
    return {"id": f"{cell_id}/seat/seat/{seat}", "cell": cell_id, "kind": "seat", "key": ["seat", seat],
            "label": label}


TWO = cell("dice-2p", 2, [600, 400])
THREE = cell("dice-3p", 3, [500, 300, 200])
LABELLED = {"cells": [TWO, THREE], "robustness": {"findings": [
    finding("dice-2p", 0, "holds"),
    finding("dice-2p", 1, "weaker"),
    finding("dice-3p", 0, "reverses"),
    finding("dice-3p", 2, "undetermined"),
    {"cell": "dice-3p", "kind": "capped", "key": ["capped"], "label": "vanishes"},  # not a seat figure
]}}


def points(c: dict, seat: int) -> tuple[float, float, float]:
    value, low, high, _ = seat_figure(c, seat)
    return 100 * value, 100 * low, 100 * high


def test_seat_markers_are_every_seat_in_points_with_its_label():
    names = cell_labels(LABELLED["cells"])
    assert names == {"dice-2p": "2 players, standard", "dice-3p": "3 players, standard"}
    markers = plots.seat_markers(LABELLED, names)
    expected = [
        ("2 players, standard", 0, *points(TWO, 0), "holds"),
        ("2 players, standard", 1, *points(TWO, 1), "weaker"),
        ("3 players, standard", 0, *points(THREE, 0), "reverses"),
        ("3 players, standard", 1, *points(THREE, 1), "not a finding"),
        ("3 players, standard", 2, *points(THREE, 2), "undetermined"),
    ]
    assert [tuple(vars(m).values()) for m in markers] == expected
    assert markers[0].value == pytest.approx(10.0)  # 60% of decided games against a fair 50%
    assert markers[0].low < markers[0].value < markers[0].high


def test_the_section_leads_with_the_plot_and_its_legend_lists_the_labels_present(tmp_path, monkeypatch):
    drawn = []
    save = plots._save
    monkeypatch.setattr(plots, "_save", lambda figure, path: drawn.append(figure) or save(figure, path))
    blocks = _first_screen_section(LABELLED, cell_labels(LABELLED["cells"]), tmp_path)
    assert isinstance(blocks[0], Plot)
    assert blocks[0].path == f"{tmp_path.name}/first_screen.png"
    assert "95% interval" in blocks[0].caption and "0 = fair" in blocks[0].caption
    assert "left out" not in blocks[0].caption
    png = tmp_path / "first_screen.png"
    assert png.stat().st_size > 5_000 and png.read_bytes().startswith(b"\x89PNG")
    (figure,) = drawn
    legend = [text.get_text() for text in figure.legends[0].get_texts()]
    assert legend == ["holds", "weaker", "reverses", "undetermined", "not a finding"]  # best to worst, then unjudged
    assert figure.get_size_inches()[0] == pytest.approx(7.0)


def test_cells_past_the_first_24_are_counted_in_the_caption(tmp_path):
    cells = [cell(f"dice-{n}", 2, [50 + n, 50], lineup=f"tier{n}") for n in range(30)]
    summary = {"cells": cells}
    blocks = _first_screen_section(summary, cell_labels(cells), tmp_path)
    assert "the first 24 of 30 cells shown, 6 left out" in blocks[0].caption
    assert len(plots.first_screen_cells(plots.seat_markers(summary, cell_labels(cells)))) == 30
    assert (tmp_path / "first_screen.png").stat().st_size > 5_000


def test_without_robustness_every_seat_is_not_a_finding():
    summary = {"cells": [TWO, THREE]}
    markers = plots.seat_markers(summary)
    assert [(m.cell, m.seat, m.label) for m in markers] == [
        ("dice-2p", 0, "not a finding"), ("dice-2p", 1, "not a finding"),
        ("dice-3p", 0, "not a finding"), ("dice-3p", 1, "not a finding"), ("dice-3p", 2, "not a finding")]


def test_only_plain_self_play_cells_with_seats_are_drawn(tmp_path):
    others = [
        cell("mixed", 2, [60, 40], lineup="greedy,random"),
        cell("variant", 2, [60, 40], variant="fast"),
        cell("override", 2, [60, 40], overrides={"gold": 3}),
        cell("unplayed", 2, [0, 0]),
    ]
    assert plots.seat_markers({"cells": others}) == []
    assert _first_screen_section({"cells": others}, cell_labels(others), tmp_path) == []
    assert _first_screen_section({"cells": []}, {}, tmp_path) == []
    assert not (tmp_path / "first_screen.png").exists()
    assert [m.cell for m in plots.seat_markers({"cells": [others[0], TWO]})] == ["dice-2p", "dice-2p"]


def test_rows_of_several_games_are_named_by_the_game_title(tmp_path, monkeypatch):
    """Short enough to be read whole beside the plot: the title without its subtitle, the players,
    the variant only when it is not the standard game."""
    cells = [TWO, cell("cards-2p", 2, [45, 55], game="cards")]
    summary = {"cells": cells, "games": {"dice": {"title": "Dice Race: The Board Game (dice)"}}}
    drawn = []
    monkeypatch.setattr(plots, "first_screen", lambda markers, path: drawn.append(markers) or path)
    _first_screen_section(summary, cell_labels(cells), tmp_path)
    assert plots.first_screen_cells(drawn[0]) == ["Dice Race, 2 players", "cards, 2 players"]
