"""simkit.analysis (intervals, tests, tables, summary): intervals and tests against independent references, and the sweep summary
of a hand-built sweep folder whose every figure is worked out by hand below (docs/statistics.md)."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from scipy import stats as scipy_stats
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint

from simkit.analysis.intervals import games_needed, paired_difference, wilson
from simkit.analysis.summary import summarize
from simkit.analysis.tables import length_counts
from simkit.analysis.tables import length_summary as _length_summary
from simkit.analysis.tests import holm, seat_uniformity_p

# A 3-player sweep of two cells that play the same game indices (common random numbers).
# Per game: (game_index, rounds, end_reason, winning seats). `base` has a shared win (game 2)
# and a round-capped game (3); `gold` plays one game more (4), which has no pair in `base`.
GAMES = {
    "base": [
        (0, 10, "treasures", [0]),
        (1, 12, "treasures", [1]),
        (2, 8, "treasures", [0, 2]),
        (3, 30, "round_cap", []),
    ],
    "gold": [
        (0, 9, "treasures", [1]),
        (1, 12, "gold", [1]),
        (2, 10, "treasures", [0]),
        (3, 11, "gold", [2]),
        (4, 7, "treasures", [0]),
    ],
}
# `gold` comes first, so the baseline must be found by variant "standard" without overrides.
CELLS = [
    ("gold", "standard", '{"starting_gold": 900}', 5),
    ("base", "standard", "{}", 4),
]
PLAYERS = 3
STRATEGIES = ("raider", "trader")  # line-up rotated seat by seat, game by game
POWERS = ("thief", "merchant", "navy")  # dealt power: seat s of game g gets POWERS[(g + s) % 3]


def write_sweep(folder: Path) -> Path:
    """Write GAMES and CELLS as the three result tables, rows shuffled (order is not guaranteed)."""
    folder.mkdir(parents=True, exist_ok=True)
    shuffle = random.Random(7).shuffle
    game_rows, seat_rows = [], []
    for cell, games in GAMES.items():
        for game_index, rounds, end_reason, winners in games:
            shared = len(winners) > 1
            game_rows.append(
                {
                    "cell": cell,
                    "game_index": game_index,
                    "seed": 1000 + game_index,
                    "players": PLAYERS,
                    "rounds": rounds,
                    "turns": rounds * PLAYERS,
                    "end_reason": end_reason,
                    "winner": -1 if shared or not winners else winners[0],
                    "n_winners": len(winners),
                    "pirate_treasures": rounds // 4,
                    "wind": "east" if game_index % 2 else "west",
                }
            )
            for seat in range(PLAYERS):
                seat_rows.append(
                    {
                        "cell": cell,
                        "game_index": game_index,
                        "seat": seat,
                        "strategy": STRATEGIES[(game_index + seat) % 2],
                        "score": 10 * seat + game_index,
                        "rank": 1 if seat in winners else 2,
                        "win": 1.0 / len(winners) if seat in winners else 0.0,
                        "treasures": seat + 1,
                        "power": POWERS[(game_index + seat) % 3],
                    }
                )
    shuffle(game_rows)
    shuffle(seat_rows)
    pl.DataFrame(game_rows, schema_overrides={"seed": pl.UInt64}).write_parquet(folder / "games.parquet")
    pl.DataFrame(seat_rows).write_parquet(folder / "seats.parquet")
    pl.DataFrame(
        [
            {
                "cell": cell,
                "game": "sea_of_plunder",
                "players": PLAYERS,
                "variant": variant,
                "overrides": overrides,
                "strategies": ",".join(STRATEGIES),
                "games": games,
            }
            for cell, variant, overrides, games in CELLS
        ]
    ).write_parquet(folder / "cells.parquet")
    return folder


# ---------------------------------------------------------------------------------------
# Pure statistics


@pytest.mark.parametrize("successes, n", [(0, 10), (10, 10), (3.5, 10), (1, 1), (2700.5, 10000), (12.25, 37)])
def test_wilson_matches_statsmodels(successes, n):
    low, high = proportion_confint(successes, n, alpha=0.05, method="wilson")
    assert wilson(successes, n) == pytest.approx((low, high), abs=1e-9)


def test_wilson_without_games_knows_nothing():
    assert wilson(0, 0) == (0.0, 1.0)


def test_seat_uniformity_matches_hand_computed_chi_square():
    # expected 25 per seat: (25 + 25 + 0 + 0) / 25 = 2.0 on 3 degrees of freedom
    assert seat_uniformity_p([30, 20, 25, 25], 100) == pytest.approx(scipy_stats.chi2.sf(2.0, 3), abs=1e-12)
    assert seat_uniformity_p([25, 25, 25, 25], 100) == pytest.approx(1.0)
    assert seat_uniformity_p([0.0, 0.0, 0.0], 10) == 1.0


def test_seat_uniformity_rejects_more_wins_than_games():
    with pytest.raises(ValueError, match="won"):
        seat_uniformity_p([6, 6], 10)


def test_holm_matches_known_example_and_statsmodels():
    p_values = [0.01, 0.04, 0.03, 0.005]
    # sorted: 0.005·4 = 0.02, 0.01·3 = 0.03, 0.03·2 = 0.06, 0.04·1 = 0.04 → raised to 0.06
    assert holm(p_values) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm(p_values) == pytest.approx(list(multipletests(p_values, method="holm")[1]))
    assert holm([0.5, 0.9]) == [1.0, 1.0]
    assert holm([]) == []


def test_paired_difference_on_hand_data():
    differences = [1.0, 2.0, 3.0, 4.0]  # mean 2.5, sample variance (30 − 100/4) / 3 = 5/3
    standard_error = math.sqrt(5 / 3 / 4)
    mean, low, high, p_value = paired_difference(sum(differences), sum(d * d for d in differences), 4)
    assert mean == pytest.approx(2.5)
    assert (low, high) == pytest.approx((2.5 - 1.959964 * standard_error, 2.5 + 1.959964 * standard_error))
    assert p_value == pytest.approx(2 * scipy_stats.norm.sf(2.5 / standard_error))


def test_paired_difference_without_variance():
    assert paired_difference(6.0, 12.0, 3) == (2.0, 2.0, 2.0, 0.0)
    assert paired_difference(0.0, 0.0, 5) == (0.0, 0.0, 0.0, 1.0)
    with pytest.raises(ValueError):
        paired_difference(1.0, 1.0, 1)


def test_games_needed():
    # n = ⌈z² p (1 − p) / h²⌉ = ⌈3.8415 · 0.1875 / 0.0001⌉
    assert games_needed(0.25, 0.01) == 7203
    assert games_needed(0.25, 0.005) == 28811
    assert games_needed(0.0, 0.01) == 1


# ---------------------------------------------------------------------------------------
# Sweep summary of the hand-built folder


@pytest.fixture(scope="module")
def summary(tmp_path_factory):
    result = summarize(write_sweep(tmp_path_factory.mktemp("sweep")))
    json.dumps(result, allow_nan=False)  # summary.json must be plain JSON
    return result


def cell_summary(summary: dict, name: str) -> dict:
    return next(cell for cell in summary["cells"] if cell["cell"] == name)


def test_summary_keeps_cells_order_and_descriptions(summary):
    assert [cell["cell"] for cell in summary["cells"]] == ["gold", "base"]
    gold = cell_summary(summary, "gold")
    assert gold["overrides"] == {"starting_gold": 900}
    assert (gold["game"], gold["players"], gold["variant"], gold["lineup"]) == (
        "sea_of_plunder",
        3,
        "standard",
        "raider,trader",
    )


def test_seat_rates_split_shared_wins_and_count_incomplete_games_as_no_win(summary):
    base = cell_summary(summary, "base")
    assert (base["games"], base["complete_games"]) == (4, 3)
    # seat 0: 1 + ½ (shared game 2); seat 1: 1; seat 2: ½; game 3 is round-capped
    assert [seat["wins"] for seat in base["seats"]] == [1.5, 1.0, 0.5]
    assert [seat["win_rate"] for seat in base["seats"]] == [0.375, 0.25, 0.125]
    assert sum(seat["win_rate"] for seat in base["seats"]) == pytest.approx(1 - base["incomplete_share"])
    low, high = proportion_confint(1.5, 4, method="wilson")
    assert (base["seats"][0]["ci_low"], base["seats"][0]["ci_high"]) == pytest.approx((low, high))
    assert base["incomplete_share"] == 0.25
    assert base["tie_share"] == 0.25
    fpa = base["first_player_advantage"]
    assert fpa["value"] == pytest.approx(0.375 - 1 / 3)
    assert (fpa["ci_low"], fpa["ci_high"]) == pytest.approx((low - 1 / 3, high - 1 / 3))
    # the seat figures are over the 3 decided games (docs/statistics.md): 0.5, 1/3 and 1/6
    assert [seat["rate"] for seat in base["seat_advantage"]] == pytest.approx([0.5, 1 / 3, 1 / 6])
    gap = base["largest_seat_gap"]
    assert (gap["value"], gap["high_seat"], gap["low_seat"]) == (pytest.approx(1 / 3), 0, 2)
    half = 1.959964 * math.sqrt((0.5 + 1 / 6 - (1 / 3) ** 2) / 3)  # multinomial: var(w0 − w2) per decided game
    assert (gap["ci_low"], gap["ci_high"]) == pytest.approx((1 / 3 - half, 1 / 3 + half))
    expected = 3.0 / 3  # 3 wins shared equally by 3 seats
    chi_square = sum((wins - expected) ** 2 / expected for wins in (1.5, 1.0, 0.5))
    assert base["seat_uniformity_p"] == pytest.approx(scipy_stats.chi2.sf(chi_square, 2))


def test_game_length_and_end_reasons(summary):
    base = cell_summary(summary, "base")
    # rounds 8, 10, 12, 30: "lower" quantiles take sorted positions ⌊0.5·3⌋ = 1 and ⌊0.9·3⌋ = 2
    assert base["rounds"] == {"mean": 15.0, "median": 10, "p90": 12, "min": 8, "max": 30}
    assert base["turns"]["max"] == 90
    assert base["end_reasons"] == [
        {"end_reason": "treasures", "share": 0.75, "games": 3},
        {"end_reason": "round_cap", "share": 0.25, "games": 1},
    ]
    gold = cell_summary(summary, "gold")
    assert gold["incomplete_share"] == 0.0 and gold["tie_share"] == 0.0
    assert {row["end_reason"]: row["games"] for row in gold["end_reasons"]} == {"treasures": 3, "gold": 2}


def test_length_quantiles_from_counts_match_polars_lower_quantile():
    generator = np.random.default_rng(5)
    games = pl.DataFrame(
        {
            "cell": generator.choice(["a", "b", "c"], 3001),
            "rounds": generator.geometric(0.08, 3001),
        }
    )
    lengths = _length_summary(length_counts(games.lazy(), "rounds"), "rounds")
    for (cell,), rounds in games.group_by("cell"):
        expected = rounds["rounds"]
        assert lengths[cell]["median"] == expected.quantile(0.5, "lower")
        assert lengths[cell]["p90"] == expected.quantile(0.9, "lower")
        assert lengths[cell]["mean"] == pytest.approx(expected.mean())
        assert (lengths[cell]["min"], lengths[cell]["max"]) == (expected.min(), expected.max())


def test_strategy_and_power_rates_are_per_decided_seat_played(summary):
    """One basis for rates (docs/statistics.md): a seat in the round-capped game 3 is nobody's loss, so
    strategies and powers are measured over the decided games they sat in, like the seats."""
    base = cell_summary(summary, "base")
    strategies = {row["strategy"]: row for row in base["strategies"]}
    # raider sits at (game, seat) (0,0) win, (0,2), (1,1) win, (2,0) ½, (2,2) ½, and (3,1) capped: 3 of 5
    raider = strategies["raider"]
    assert (raider["seats"], raider["decided_seats"], raider["wins"], raider["win_rate"]) == (6, 5, 3.0, 0.6)
    assert raider["capped_share"] == pytest.approx(1 / 6)
    assert raider["shared_share"] == pytest.approx(2 / 6)  # its two seats in the shared game 2
    assert raider["vs_fair"] == pytest.approx(0.6 - 1 / 3)
    assert strategies["trader"]["win_rate"] == 0.0 and strategies["trader"]["decided_seats"] == 4
    low, high = proportion_confint(3.0, 5, method="wilson")
    assert (raider["ci_low"], raider["ci_high"]) == pytest.approx((low, high))
    powers = {row["value"]: row for row in base["categories"]["power"]}
    # thief: (0,0) win, (1,2), (2,1); merchant: (0,1), (1,0), ½ at (2,2); navy: (0,2), (1,1) win,
    # ½ at (2,0); each also sat in the capped game 3
    assert {value: row["win_rate"] for value, row in powers.items()} == pytest.approx({
        "thief": 1 / 3,
        "merchant": 1 / 6,
        "navy": 1 / 2,
    })
    assert all(row["seats"] == 4 and row["decided_seats"] == 3 and row["capped_share"] == 0.25
               for row in powers.values())
    # the powers' rates average fair over decided seats, as the seats' do
    assert sum(row["wins"] for row in powers.values()) / sum(row["decided_seats"] for row in powers.values()) == \
        pytest.approx(1 / 3)
    assert set(base["categories"]) == {"power"}  # strategy is reported apart


def test_metrics(summary):
    base = cell_summary(summary, "base")
    assert base["seat_metrics"]["treasures"] == {"mean": 2.0, "by_seat": [1.0, 2.0, 3.0]}
    assert base["seat_metrics"]["score"]["by_seat"] == [1.5, 11.5, 21.5]
    assert base["game_metrics"] == {"pirate_treasures": {"mean": (2 + 3 + 2 + 7) / 4}}
    assert {row["value"]: row["share"] for row in base["game_categories"]["wind"]} == {"east": 0.5, "west": 0.5}


def test_precision(summary):
    """Over decided games, like every seat figure: seat 0's 1.5 of 3; games to play count the
    capped ones (a quarter of the games here decide nothing)."""
    base = cell_summary(summary, "base")
    low, high = proportion_confint(1.5, 3, method="wilson")
    assert base["precision"]["seat0_half_width"] == pytest.approx((high - low) / 2)
    assert base["precision"]["games_for_1pp"] == math.ceil(games_needed(0.5, 0.01) / 0.75)
    assert base["precision"]["games_for_half_pp"] == math.ceil(games_needed(0.5, 0.005) / 0.75)


def test_paired_comparisons_against_the_standard_baseline(summary):
    rows = {row["metric"]: row for row in summary["comparisons"]}
    assert [row["metric"] for row in summary["comparisons"]] == ["seat0_win", "seat_gap", "rounds", "incomplete"]
    assert all(row["cell"] == "gold" and row["baseline"] == "base" for row in rows.values())
    assert all(row["paired_games"] == 4 for row in rows.values())  # gold's game 4 has no pair
    # gold − base on games 0..3
    per_game = {
        "rounds": [9 - 10, 12 - 12, 10 - 8, 11 - 30],
        "incomplete": [0, 0, 0, 0 - 1],
    }
    for metric, differences in per_game.items():
        mean = np.mean(differences)
        standard_error = np.std(differences, ddof=1) / math.sqrt(len(differences))
        row = rows[metric]
        assert row["diff"] == pytest.approx(mean)
        assert (row["ci_low"], row["ci_high"]) == pytest.approx(
            (mean - 1.959964 * standard_error, mean + 1.959964 * standard_error)
        )
        assert row["p"] == pytest.approx(2 * scipy_stats.norm.sf(abs(mean) / standard_error))
    assert rows["rounds"]["baseline_mean"] == 15.0 and rows["rounds"]["cell_mean"] == 10.5
    # the seat figures are ratios over decided games, compared game by game by the delta method:
    # each cell's figure linearised per game as (numerator − figure · decided) / mean decided
    decided_base, decided_gold = np.array([1, 1, 1, 0.0]), np.ones(4)

    def linearised(numerator, decided):
        figure = numerator.sum() / decided.sum()
        return figure, (numerator - figure * decided) / decided.mean()

    seat0_base, seat0_gold = np.array([1, 0, 0.5, 0]), np.array([0, 0, 1, 0.0])
    # base's gap is seat 0 (1.5 of 3) minus seat 2 (0.5); gold's, over its 5 games, seat 0 (2) minus seat 2 (1)
    gap_base, gap_gold = seat0_base - np.array([0, 0, 0.5, 0]), seat0_gold - np.array([0, 0, 0, 1.0])
    for metric, (before, after) in {"seat0_win": (seat0_base, seat0_gold), "seat_gap": (gap_base, gap_gold)}.items():
        (a, terms_a), (b, terms_b) = linearised(before, decided_base), linearised(after, decided_gold)
        standard_error = np.std(terms_b - terms_a, ddof=1) / 2
        row = rows[metric]
        assert (row["baseline_mean"], row["cell_mean"], row["diff"]) == pytest.approx((a, b, b - a))
        assert (row["ci_low"], row["ci_high"]) == pytest.approx(
            (b - a - 1.959964 * standard_error, b - a + 1.959964 * standard_error))
    assert rows["seat0_win"]["diff"] == pytest.approx(0.25 - 0.5)
    assert rows["seat_gap"]["diff"] == pytest.approx(0 - 1 / 3)
    assert [row["p_holm"] for row in summary["comparisons"]] == pytest.approx(
        holm([row["p"] for row in summary["comparisons"]])
    )


def test_comparisons_report_the_pairing_correlation_and_gain(summary):
    """Pairing: the correlation of the two cells' per-game results and the paired against
    the unpaired 95% half width, from the same games 0..3 as above."""
    rows = {row["metric"]: row for row in summary["comparisons"]}
    base_rounds, gold_rounds = np.array([10, 12, 8, 30.0]), np.array([9, 12, 10, 11.0])
    pairing = rows["rounds"]["pairing"]
    assert pairing["correlation"] == pytest.approx(np.corrcoef(base_rounds, gold_rounds)[0, 1])
    n = 4
    assert pairing["paired_half_width"] == pytest.approx(1.959964 * np.std(gold_rounds - base_rounds, ddof=1)
                                                         / math.sqrt(n))
    unpaired = 1.959964 * math.sqrt((np.var(base_rounds, ddof=1) + np.var(gold_rounds, ddof=1)) / n)
    assert pairing["unpaired_half_width"] == pytest.approx(unpaired)
    assert pairing["gain"] == pytest.approx(unpaired / pairing["paired_half_width"])


def test_pairing_gains_nothing_on_uncorrelated_games_and_much_on_correlated_ones():
    from simkit.analysis.intervals import pairing

    rng = np.random.default_rng(3)
    a = rng.normal(size=4000)
    for b, expected in ((rng.normal(size=4000), 1.0), (a + 0.3 * rng.normal(size=4000), 4.8)):
        d = b - a
        row = pairing(len(a), a.sum(), (a * a).sum(), b.sum(), (b * b).sum(), (d * d).sum())
        assert row["gain"] == pytest.approx(expected, rel=0.1)


def test_component_sets_are_compared_with_the_standard_set_and_variants_within_their_set():
    from simkit.analysis.summary import _comparison_groups

    def row(name, variant, components=None, **overrides):
        if components:
            overrides["components"] = components
        return {"cell": name, "game": "g", "players": 2, "variant": variant, "overrides": json.dumps(overrides),
                "strategies": "a"}

    cells = pl.DataFrame([row("alt", "standard", "alt-x"), row("std", "standard", "standard"),
                          row("tp-alt", "two_player", "alt-x"), row("tp-std", "two_player", "standard"),
                          row("gold-std", "standard", "standard", gold=9)])
    pairs = {(baseline, other) for baseline, others in _comparison_groups(cells) for other in others}
    assert pairs == {
        ("std", "tp-std"), ("std", "gold-std"),  # rule changes on the standard set
        ("alt", "tp-alt"),  # the variant on the alternative set, against that set's standard rules
        ("std", "alt"), ("tp-std", "tp-alt"),  # each set against the standard set under the same rules
    }
    # without component sets: one group per (game, players, line-up), as before
    plain = pl.DataFrame([row("base", "standard"), row("tp", "two_player"), row("gold", "standard", gold=9)])
    assert {(b, o) for b, others in _comparison_groups(plain) for o in others} == {("base", "tp"), ("base", "gold")}


def test_a_capped_dice_game_measures_strategies_and_colours_over_decided_games(tmp_path):
    """One basis for rates (docs/statistics.md): with a round cap of 4 a good share of dice races is capped.
    Counting a capped seat as a loss would put every colour and strategy below a fair third;
    over decided games they average exactly fair, the capped share is shown beside them, and
    the gate's edge is measured against that same fair average."""
    import simkit
    from simkit.sweeps.check import edge

    result = simkit.sweep(out=tmp_path / "capped", game="dicegame", players=3, strategies="careful,bold",
                          games=3000, seed=4, jobs=1, quiet=True, set={"round_cap": 4})
    cell = result.summary["cells"][0]
    assert cell["incomplete_share"] > 0.1
    for rows in (cell["strategies"], cell["categories"]["colour"]):
        decided = sum(row["decided_seats"] for row in rows)
        assert sum(row["wins"] for row in rows) / decided == pytest.approx(1 / 3)  # fair, on average
        assert sum(row["wins"] for row in rows) / sum(row["seats"] for row in rows) < 1 / 3 - 0.03  # the old basis
        for row in rows:
            assert row["win_rate"] == pytest.approx(row["wins"] / row["decided_seats"])
            assert row["capped_share"] == pytest.approx(1 - row["decided_seats"] / row["seats"])
            assert row["vs_fair"] == pytest.approx(row["win_rate"] - 1 / 3)
    # the dealt colours are fair but for red's bonus, which is small: no colour far below fair
    assert all(row["vs_fair_high"] > 0 for row in cell["categories"]["colour"])
    figure = edge(cell, 1.96)
    assert figure.value == pytest.approx(max(row["win_rate"] for row in cell["categories"]["colour"]
                                             + cell["strategies"]) - 1 / 3)
    tables = (result.folder / "report.md").read_text()
    assert "| win rate (decided) | 95% CI | vs fair (points) | capped | shared wins |" in tables
