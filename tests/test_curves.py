"""simkit.analysis.curves: a grid over one parameter gives curves whose every figure is the per-cell
figure worked out again here from the result tables, and whose paired steps are the delta
method computed game by game (docs/statistics.md)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import polars as pl
import pytest

import simkit
from simkit.analysis.curves import groups
from simkit.analysis.intervals import Z95, gap_interval, paired_share_difference_from_sums, share_sums, wilson
from simkit.analysis.summary import game_info

SCHEDULES = [[0, 0, 0, 0], [0, 4, 0, 0], [0, 8, 0, 0]]  # seat 1's head start (dice game designer knob)


@pytest.fixture(scope="module")
def head_start(tmp_path_factory):
    """2 players, first to the target wins at once (seat 0 moves first): seat 1's head start is the lever."""
    return simkit.sweep(game="dicegame", players=2, variant="sudden", set={"head_start": SCHEDULES}, games=1500,
                        seed=3, jobs=1, quiet=True, out=tmp_path_factory.mktemp("curve") / "out")


def seat0_share(results: simkit.Results, cell: str) -> tuple[float, int]:
    seats = results.seats.filter(pl.col("cell") == cell)
    decided = seats["win"].sum()
    return seats.filter(pl.col("seat") == 0)["win"].sum() / decided, round(decided)


def test_one_parameter_grid_makes_one_curve_in_grid_order(head_start):
    curves = head_start.summary["curves"]
    assert len(curves) == 1
    curve = curves[0]
    assert (curve["game"], curve["players"], curve["variant"], curve["param"], curve["kind"]) == (
        "dicegame", 2, "sudden", "head_start", "ints")
    assert [p["label"] for p in curve["points"]] == ["0-0-0-0", "0-4-0-0", "0-8-0-0"]
    assert [p["value"] for p in curve["points"]] == SCHEDULES
    assert "step" not in curve["points"][0] and all("step" in p for p in curve["points"][1:])


def test_curve_points_equal_the_figures_worked_out_from_the_tables(head_start):
    cells = {c["cell"]: c for c in head_start.summary["cells"]}
    for point in head_start.summary["curves"][0]["points"]:
        share, decided = seat0_share(head_start, point["cell"])
        low, high = wilson(share * decided, decided)
        assert point["decided_games"] == decided
        assert point["seat_advantage"]["value"] == pytest.approx(share - 0.5)
        assert point["seat_advantage"]["ci_low"] == pytest.approx(low - 0.5)
        assert point["seat_advantage"]["ci_high"] == pytest.approx(high - 0.5)
        # the summary's own per-cell figure, too
        assert point["seat_advantage"]["value"] == pytest.approx(cells[point["cell"]]["seat_advantage"][0]["vs_fair"])
        # two seats: the gap is |seat 0 − seat 1| of decided games, 2·|share − 1/2|
        gap = point["largest_seat_gap"]
        assert gap["value"] == pytest.approx(abs(2 * share - 1))
        rate_high, rate_low = max(share, 1 - share), min(share, 1 - share)
        half = Z95 * math.sqrt((rate_high + rate_low - (rate_high - rate_low) ** 2) / decided)
        assert (gap["ci_low"], gap["ci_high"]) == pytest.approx((gap["value"] - half, gap["value"] + half))
        rounds = head_start.games.filter(pl.col("cell") == point["cell"])["rounds"].to_numpy()
        half = Z95 * rounds.std(ddof=1) / math.sqrt(len(rounds))
        assert point["rounds"]["mean"] == pytest.approx(rounds.mean())
        assert point["rounds"]["mean"] == pytest.approx(cells[point["cell"]]["rounds"]["mean"])
        assert (point["rounds"]["ci_low"], point["rounds"]["ci_high"]) == pytest.approx(
            (rounds.mean() - half, rounds.mean() + half))
        ends = head_start.games.filter(pl.col("cell") == point["cell"])["end_reason"].value_counts()
        for row in point["end_reasons"]:
            games = ends.filter(pl.col("end_reason") == row["end_reason"])["count"][0]
            assert row["share"] == pytest.approx(games / len(rounds))
            assert (row["ci_low"], row["ci_high"]) == pytest.approx(wilson(games, len(rounds)))


def test_head_start_for_seat_1_moves_seat_0_down_the_curve(head_start):
    # seat 0 moves first in a race won at once: a clear advantage that seat 1's head start takes away
    points = head_start.summary["curves"][0]["points"]
    values = [p["seat_advantage"]["value"] for p in points]
    assert points[0]["seat_advantage"]["ci_low"] > 0
    assert values[0] > values[1] > values[2]
    for point in points[1:]:  # each step down is clear on the shared seeds
        assert point["step"]["seat_advantage"]["ci_high"] < 0


def per_game(results: simkit.Results, cell: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    seats = results.seats.filter(pl.col("cell") == cell).sort("game_index", "seat")
    wins = seats["win"].to_numpy().reshape(-1, 2)
    rounds = results.games.filter(pl.col("cell") == cell).sort("game_index")["rounds"].to_numpy()
    return wins[:, 0], wins.sum(axis=1), rounds


def test_paired_steps_are_the_delta_method_game_by_game(head_start):
    points = head_start.summary["curves"][0]["points"]
    for before, after in itertools.pairwise(points):
        w_a, d_a, rounds_a = per_game(head_start, before["cell"])
        w_b, d_b, rounds_b = per_game(head_start, after["cell"])
        n = len(w_a)
        r_a, r_b = w_a.sum() / d_a.sum(), w_b.sum() / d_b.sum()
        # each game's linearised share, (w − r·d) / mean(d), differenced between the cells
        z = (w_b - r_b * d_b) / d_b.mean() - (w_a - r_a * d_a) / d_a.mean()
        half = Z95 * z.std(ddof=1) / math.sqrt(n)
        step = after["step"]["seat_advantage"]
        assert step["paired_games"] == n
        assert step["diff"] == pytest.approx(r_b - r_a)
        assert step["diff"] == pytest.approx(after["seat_advantage"]["value"] - before["seat_advantage"]["value"])
        assert (step["ci_low"], step["ci_high"]) == pytest.approx((r_b - r_a - half, r_b - r_a + half))
        # the pairing pays: narrower than an unpaired difference of the two points' intervals
        own = [(p["seat_advantage"]["ci_high"] - p["seat_advantage"]["ci_low"]) / 2 for p in (before, after)]
        assert (step["ci_high"] - step["ci_low"]) / 2 < 0.75 * math.hypot(*own)
        change = rounds_b - rounds_a
        rounds_step = after["step"]["rounds"]
        assert rounds_step["diff"] == pytest.approx(change.mean())
        assert rounds_step["ci_high"] - rounds_step["diff"] == pytest.approx(
            Z95 * change.std(ddof=1) / math.sqrt(n))


def test_share_difference_sums_match_the_direct_computation():
    generator = np.random.default_rng(4)
    d_a = (generator.random(500) < 0.9).astype(float)
    d_b = np.where(generator.random(500) < 0.1, 1 - d_a, d_a)
    w_a = d_a * (generator.random(500) < 0.4)
    w_b = d_b * np.where(generator.random(500) < 0.8, w_a, generator.random(500) < 0.5)
    got = paired_share_difference_from_sums(500, share_sums(w_a, d_a, w_b, d_b))
    r_a, r_b = w_a.sum() / d_a.sum(), w_b.sum() / d_b.sum()
    z = (w_b - r_b * d_b) / d_b.mean() - (w_a - r_a * d_a) / d_a.mean()
    half = Z95 * z.std(ddof=1) / math.sqrt(500)
    assert got["diff"] == pytest.approx(r_b - r_a)
    assert (got["ci_low"], got["ci_high"]) == pytest.approx((r_b - r_a - half, r_b - r_a + half))
    assert 0 < got["p"] < 1
    same = paired_share_difference_from_sums(500, share_sums(w_a, d_a, w_a, d_a))
    assert (same["diff"], same["ci_low"], same["ci_high"]) == pytest.approx((0.0, 0.0, 0.0), abs=1e-6)


def test_gap_interval_by_hand():
    # shares 0.5 and 0.2 of 100 decided games: var = (0.5 + 0.2 − 0.09) / 100 = 0.0061
    low, high = gap_interval(0.5, 0.2, 100)
    assert (low, high) == pytest.approx((0.3 - Z95 * math.sqrt(0.0061), 0.3 + Z95 * math.sqrt(0.0061)))


def dice_groups(cells: list[dict]) -> list[dict]:
    """The curves of hand-built dice-game cells, with the dice game's declared parameters."""
    return groups(cells, {"dicegame": game_info(["dicegame"])["dicegame"]["params"]})


def cell(name: str, overrides: dict, players: int = 2, variant: str = "standard", lineup: str = "careful") -> dict:
    return {"cell": name, "game": "dicegame", "players": players, "variant": variant, "lineup": lineup,
            "overrides": overrides}


def test_numbers_are_ordered_by_value_and_missing_values_read_as_the_default():
    found = dice_groups([cell("a", {"target": 60}), cell("b", {}), cell("c", {"target": 20}),
                    cell("d", {"target": 30}, players=3)])
    assert len(found) == 1
    assert [value for value, _ in found[0]["cells"]] == [20, 40, 60]  # b plays the default target, 40
    assert [c["cell"] for _, c in found[0]["cells"]] == ["c", "b", "a"]
    assert found[0]["numeric"] and found[0]["kind"] == "int"


def test_no_curve_for_two_varying_parameters_two_points_or_component_sets():
    two_params = [cell("a", {"target": 20, "red_bonus": 0}), cell("b", {"target": 30, "red_bonus": 1}),
                  cell("c", {"target": 40, "red_bonus": 2})]
    assert dice_groups(two_params) == []
    assert dice_groups([cell("a", {"target": 20}), cell("b", {"target": 30})]) == []  # a comparison, not a curve
    sets = [cell(x, {"components": x}) for x in ("standard", "alt-loaded", "mine")]
    assert dice_groups(sets) == []
    # the same grid under a fixed second override is a curve again, in each line-up separately
    fixed = [cell(x, {"target": t, "red_bonus": 5}, lineup=lineup) for x, t in (("a", 20), ("b", 30), ("c", 40))
             for lineup in ("careful", "bold")]
    found = dice_groups([{**c, "cell": c["cell"] + c["lineup"]} for c in fixed])
    assert [(g["lineup"], g["fixed"]) for g in found] == [("careful", {"red_bonus": 5}), ("bold", {"red_bonus": 5})]


def test_report_has_a_curve_section_with_its_plot(head_start):
    markdown = (head_start.folder / "report.md").read_text()
    section = markdown.split("## Response curves", 1)[1].split("\n## ", 1)[0]
    assert "### head_start: dicegame, 2 players, sudden" in section
    first, second = head_start.summary["curves"][0]["points"][:2]
    advantage = f"{100 * first['seat_advantage']['value']:+.1f}"
    row = next(line for line in section.splitlines() if line.startswith("| 0-4-0-0 |"))
    assert f"{100 * second['step']['seat_advantage']['diff']:+.1f}" in row
    assert any(line.startswith(f"| 0-0-0-0 | 1,500 | {advantage} (") for line in section.splitlines())
    assert "![" in section and (head_start.folder / "plots" / "curve_1.png").stat().st_size > 10_000
