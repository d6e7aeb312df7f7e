"""simkit.report: the report of a hand-built sweep folder leads with the answer, embeds its
plots, fetches nothing from elsewhere, and words the first-seat verdict honestly (DESIGN §8)."""

from __future__ import annotations

import json
import re

import pytest

from simkit.analysis.summary import summarize
from simkit.report import write_report
from simkit.report.sections import answer, cell_labels
from tests.test_stats import write_sweep

PLOTS = ("seat_win_rates", "game_length", "end_reasons", "strategies", "power_win_rates", "comparisons",
         "tournament_base", "tournament_gold", "power_matrix_base", "power_matrix_gold")


@pytest.fixture(scope="module")
def sweep(tmp_path_factory):
    folder = write_sweep(tmp_path_factory.mktemp("sweep"))
    (folder / "summary.json").write_text(json.dumps(summarize(folder)))
    html_path = write_report(folder)
    return folder, html_path


def sections(markdown: str) -> dict[str, str]:
    """Level-2 sections of a markdown report by heading, in order."""
    parts = re.split(r"^## (.+)$", markdown, flags=re.MULTILINE)
    return dict(zip(parts[1::2], parts[2::2]))


def test_report_leads_with_the_headline(sweep):
    folder, _ = sweep
    markdown = (folder / "report.md").read_text()
    first_heading, first_section = next(iter(sections(markdown).items()))
    assert first_heading == "Headline"
    # a dominant strategy comes first (raider wins every decided game it plays in 3p base), then
    # the one other effect clear of noise in this tiny sweep: a quarter of base's games were capped
    items = re.findall(r"^\d+\. (.*)$", first_section, flags=re.MULTILINE)
    assert items[0].startswith("**Dominant strategy, 3 players, standard: raider** finishes ahead")
    assert items[1].startswith("**3 players, standard**: 25.0% of games hit the round cap")
    assert "Precision reached: 4–5 games per cell" in first_section


def test_report_has_every_section_in_order(sweep):
    folder, _ = sweep
    headings = list(sections((folder / "report.md").read_text()))
    assert headings == [
        "Headline",
        "Overview: seat 0 against fair",
        "Seat win rates",
        "Game length",
        "Winning margins and shared wins",
        "End reasons",
        "Strategy results",
        "Win rate by power",
        "Tournament",
        "Head to head by power",
        "Game and seat metrics",
        "Variant comparisons",
        "Precision achieved",
        "Provenance",
    ]
    # a table of contents links every section after it
    assert "[Seat win rates](#seat-win-rates)" in (folder / "report.md").read_text()


def test_seat_answers_are_over_decided_games(sweep):
    folder, _ = sweep
    seats = sections((folder / "report.md").read_text())["Seat win rates"]
    # base: seat 0 won 1.5 of the 3 decided games (one of 4 was capped): 50% against a fair third
    assert (
        "**3 players, standard**: seat 0 wins 50.0% of decided games (95% CI 12.5–87.5%) against a fair 33.3% — "
        "no evidence of a first-seat advantage at this precision (+16.7 points, CI -20.8 to +54.1)"
    ) in seats
    assert "25.0% of games hit the round cap and are left out as nobody's win" in seats


def test_report_flags_round_capped_games_and_lists_comparisons(sweep):
    folder, _ = sweep
    parts = sections((folder / "report.md").read_text())
    assert "**Design finding:** 3 players, standard: 25.0% of games (1) hit the round cap" in parts["End reasons"]
    comparisons = parts["Variant comparisons"]
    assert (
        "| 3 players, standard, starting_gold=900 | 3 players, standard | rounds per game | 15.00 | 10.50 | -4.50 |"
        in (comparisons)
    )
    assert "pairing r" in comparisons
    assert "No manifest.json" in parts["Provenance"]
    assert "| 3 players, standard | 4 | 50.0% |" in parts["Precision achieved"]  # seat 0: 1.5 of 3 decided games


def test_metrics_are_shown_only_where_they_belong(sweep):
    folder, _ = sweep
    metrics = sections((folder / "report.md").read_text())["Game and seat metrics"]
    assert "| – |" not in metrics and "| treasures | seat |" in metrics


def test_html_is_self_contained_with_embedded_plots(sweep):
    folder, html_path = sweep
    assert html_path == folder / "report.html"
    page = html_path.read_text()
    assert page.count('src="data:image/png;base64,') == len(PLOTS)
    assert 'src="http' not in page and "<link" not in page and "<script" not in page
    assert '<h2 id="headline">Headline</h2>' in page
    assert page.index("Headline") < page.index("Seat win rates")
    for name in PLOTS:
        assert (folder / "plots" / f"{name}.png").read_bytes().startswith(b"\x89PNG")


def test_provenance_comes_from_the_manifest(tmp_path):
    folder = write_sweep(tmp_path / "sweep")
    (folder / "summary.json").write_text(json.dumps(summarize(folder)))
    manifest = {
        "simkit_version": "0.1.0",
        "root_seed": 20240611,
        "rules_hashes": {"base": "ab12cd", "gold": "ef34ab"},
        "platform": "linux",
        "spec": {"games": 5},
    }
    (folder / "manifest.json").write_text(json.dumps(manifest))
    write_report(folder)
    provenance = sections((folder / "report.md").read_text())["Provenance"]
    assert "simkit version: 0.1.0" in provenance
    assert "root seed: 20240611" in provenance
    assert "| 3 players, standard | ab12cd |" in provenance
    assert "| 3 players, standard, starting_gold=900 | ef34ab |" in provenance
    assert "platform: linux" in provenance


def advantage_cell(seat0_rate: float, low: float, high: float, uniformity_p: float) -> dict:
    """The summary fields `answer` reads, for a 4-player cell with every game decided."""
    return {
        "games": 20000,
        "fair_rate": 0.25,
        "seats": [{"seat": 0, "win_rate": seat0_rate, "ci_low": low, "ci_high": high}],
        "seat_advantage": [{"seat": 0, "rate": seat0_rate, "ci_low": low, "ci_high": high}],
        "first_player_advantage": {"value": seat0_rate - 0.25, "ci_low": low - 0.25, "ci_high": high - 0.25},
        "seat_uniformity_p": uniformity_p,
        "incomplete_share": 0.0,
    }


def test_answer_names_an_advantage_only_when_its_interval_excludes_zero():
    favoured = answer(advantage_cell(0.273, 0.269, 0.277, 0.0004), "4 players, standard")
    assert favoured == (
        "**4 players, standard**: seat 0 wins 27.3% of decided games (95% CI 26.9–27.7%) against a fair 25.0% — "
        "favoured by +2.3 points (CI +1.9 to +2.7); seats differ (chi-square p < 0.001)."
    )
    disadvantaged = answer(advantage_cell(0.231, 0.227, 0.235, 0.01), "4 players, standard")
    assert "disadvantaged by -1.9 points (CI -2.3 to -1.5); seats differ (chi-square p = 0.010)" in disadvantaged
    unclear = answer(advantage_cell(0.252, 0.246, 0.258, 0.4), "4 players, standard")
    assert "no evidence of a first-seat advantage at this precision" in unclear
    assert "no evidence that seats differ (chi-square p = 0.40)" in unclear
    stalled = {**advantage_cell(0.9, 0.85, 0.95, 0.0), "incomplete_share": 0.7}
    assert answer(stalled, "4 players, standard") == (
        "**4 players, standard**: most games did not finish: 70.0% hit the round cap, so who won the rest is not "
        "read as a seat effect."
    )


def test_cell_labels_name_only_what_tells_cells_apart():
    cells = [
        {"cell": "a", "game": "g", "players": 4, "variant": "standard", "overrides": {}, "lineup": "default"},
        {"cell": "b", "game": "g", "players": 4, "variant": "standard", "overrides": {"gold": 9}, "lineup": "default"},
        {"cell": "c", "game": "g", "players": 3, "variant": "standard", "overrides": {}, "lineup": "default"},
        {"cell": "d", "game": "g", "players": 3, "variant": "standard", "overrides": {}, "lineup": "default"},
    ]
    assert cell_labels(cells) == {
        "a": "4 players, standard",
        "b": "4 players, standard, gold=9",
        "c": "3 players, standard [c]",
        "d": "3 players, standard [d]",
    }


# ---------------------------------------------------------------------------------------
# The headline: ranked findings, noise left out, unfinished cells first, robustness


def summary_cell(name: str, wins: list[float], games: int | None = None, capped: int = 0, overrides=None,
                 categories=None, game: str = "g", variant: str = "standard") -> dict:
    """The summary fields the headline reads, from each seat's wins."""
    players = len(wins)
    played = games if games is not None else round(sum(wins)) + capped
    decided = round(sum(wins))
    fair = 1.0 / players
    from simkit.analysis.seats import share

    return {
        "cell": name, "game": game, "players": players, "variant": variant, "overrides": overrides or {},
        "lineup": "default", "games": played, "complete_games": played - capped, "incomplete_share": capped / played,
        "fair_rate": fair, "decided_games": decided,
        "seats": [{"seat": s, "wins": float(w)} for s, w in enumerate(wins)],
        "seat_advantage": [{"seat": s, **share(float(w), decided, fair)} for s, w in enumerate(wins)],
        "strategies": [], "categories": categories or {},
        "precision": {"seat0_half_width": 0.01},
    }


def labels_of(cells):
    return {cell["cell"]: cell["cell"] for cell in cells}


def test_headline_ranks_findings_by_size_and_leaves_noise_out():
    from simkit.report.findings import headline

    powers = {"power": [{"value": "thief", "seats": 5000, "wins": 900.0}, {"value": "gambler", "seats": 5000,
                                                                             "wins": 1500.0},
                        {"value": "navy", "seats": 10000, "wins": 2600.0}]}
    cells = [
        summary_cell("small-edge", [5300, 4700]),  # seat 0 +3 points: a finding
        summary_cell("powers", [1250, 1250, 1250, 1250], categories=powers),  # gambler +5, thief -7 points
        summary_cell("fair", [5020, 4980]),  # +0.2 points: noise
    ]
    top = headline({"cells": cells, "comparisons": []}, labels_of(cells))
    assert [f.cell for f in top.findings][:2] == ["powers", "small-edge"]
    first = top.findings[0].sentence()
    assert first.startswith("**powers**: the power thief wins 18.0% of its decided seats against an average 25.0%: "
                            "-7.0")
    assert "Next: strengthen thief" in first
    assert all(f.cell != "fair" for f in top.findings)
    # one sentence per dealt category: the value furthest from the average speaks for it
    assert sum(f.cell == "powers" for f in top.findings) == 1


def test_a_mostly_unfinished_cell_is_said_first_and_not_read_as_a_seat_effect():
    from simkit.report.findings import headline

    cells = [summary_cell("stalls", [300, 100], capped=600), summary_cell("edge", [6000, 4000])]
    top = headline({"cells": cells, "comparisons": []}, labels_of(cells))
    assert [f.cell for f in top.unfinished] == ["stalls"]
    assert "most games did not finish: 60.0% hit the round cap" in top.unfinished[0].sentence()
    assert all(f.cell != "stalls" for f in top.findings)  # seat 0's 75% of the decided games is not a finding


def test_findings_across_assumption_sets_hold_or_flip():
    from simkit.report.findings import headline

    cells = [
        summary_cell("base", [5600, 4400]),
        summary_cell("alt-a", [5500, 4500], overrides={"components": "alt-a"}),  # still favours seat 0
        summary_cell("alt-b", [4400, 5600], overrides={"components": "alt-b"}),  # the other way
    ]
    top = headline({"cells": cells, "comparisons": []}, labels_of(cells))
    base = next(f for f in top.findings if f.cell == "base")
    assert "Depends on an assumption: it flips under alt-b" in base.sentence()
    verdicts = {row["other"]["cell"]: row["verdict"] for row in top.robustness}
    assert verdicts == {"alt-a": "holds", "alt-b": "flips"}
    top = headline({"cells": cells[:2], "comparisons": []}, labels_of(cells[:2]))
    assert "Robust: holds under all 2 assumption sets" in next(f for f in top.findings if f.cell == "base").sentence()


def test_the_standard_component_set_is_the_base_whatever_the_grid_order():
    from simkit.report.findings import headline

    cells = [
        summary_cell("alt", [4400, 5600], overrides={"components": "alt-x"}),
        summary_cell("std", [5600, 4400], overrides={"components": "standard"}),
    ]
    top = headline({"cells": cells, "comparisons": []}, labels_of(cells))
    assert {row["base"]["cell"] for row in top.robustness} == {"std"}
    assert "flips under alt" in next(f for f in top.findings if f.cell == "std").sentence()


def test_a_finding_is_said_once_for_all_assumption_sets():
    from simkit.report.findings import headline

    cells = [
        summary_cell("std", [5600, 4400], overrides={"components": "standard"}),
        summary_cell("alt", [5500, 4500], overrides={"components": "alt-x"}),
        summary_cell("std-3p", [1000, 1000, 1000], overrides={"components": "standard"}),
        summary_cell("alt-3p", [1200, 900, 900], overrides={"components": "alt-x"}),
    ]
    top = headline({"cells": cells, "comparisons": []}, labels_of(cells))
    assert sorted(f.cell for f in top.findings if f.kind == "seat") == ["alt-3p", "std"]
    only = next(f for f in top.findings if f.cell == "alt-3p").sentence()
    assert "Only under this assumption set: not a finding under std-3p" in only


def test_a_sweep_over_an_assumption_parameter_reports_what_holds(dicegame, tmp_path):
    """Through the whole pipeline: the dice game's round_cap is registered as assumption A1,
    so a grid over it is an assumption grid, and the report says which findings hold."""
    import simkit

    results = simkit.sweep(game="dicegame", players="2", set=["round_cap=[60,14]"], games=3000, seed=3, jobs=1,
                           out=tmp_path / "run", quiet=True)
    parts = sections((results.folder / "report.md").read_text())
    assert "Findings across assumption sets" in parts
    assert "| holds |" in parts["Findings across assumption sets"] or "| flips |" in parts[
        "Findings across assumption sets"] or "inside the noise" in parts["Findings across assumption sets"]
    assert "assumption set" in parts["Headline"]


def test_overview_colours_only_what_stands_clear_of_noise():
    from simkit.report.sections import _overview_section

    cells = [summary_cell("a", [5600, 4400], game="g"), summary_cell("b", [1010, 990, 1000], game="g"),
             summary_cell("c", [3000, 500, 500], capped=5000, game="h")]
    table = _overview_section(cells)[-1]
    assert table.header == ["game", "2 players", "3 players"]
    rows = {row[0]: (row, shades) for row, shades in zip(table.rows, table.shades)}
    (g_row, g_shades), (h_row, h_shades) = rows["g"], rows["h"]
    assert g_row[1] == "**+6.0 ±1.0**" and g_shades[1].startswith("rgb(245,")  # seat 0 favoured: red
    assert g_row[2] == "+0.3 ±1.7" and g_shades[2] == "#f4f5f7"  # inside the noise: grey, not bold
    assert h_row[2] == "unfinished 55.6%" and h_shades[2] == "#d9d9d9"  # mostly capped: said instead


def test_a_seat_zero_finding_carries_its_paired_change_under_each_set():
    from simkit.report.findings import headline

    cells = [summary_cell("base", [5600, 4400]), summary_cell("alt", [4400, 5600], overrides={"components": "alt"})]
    change = {"cell": "alt", "baseline": "base", "metric": "seat0_win", "diff": -0.12, "ci_low": -0.13,
              "ci_high": -0.11, "p": 0.0, "baseline_mean": 0.56, "cell_mean": 0.44, "paired_games": 10000}
    top = headline({"cells": cells, "comparisons": [change]}, labels_of(cells))
    row = next(r for r in top.robustness if r["finding"].key == ("seat", 0))
    assert row["paired"] is change and row["verdict"] == "flips"
    # the set comparison itself is worded as an assumption, not as a variant to adopt
    sentence = next(f for f in top.findings if f.kind == "assumption").sentence()
    assert "rests on invented data or an assumed reading" in sentence


def test_a_line_up_is_named_only_for_a_game_that_plays_several():
    cells = [
        {"cell": "a", "game": "g", "players": 2, "variant": "standard", "overrides": {}, "lineup": "x"},
        {"cell": "b", "game": "h", "players": 2, "variant": "standard", "overrides": {}, "lineup": "y"},
        {"cell": "c", "game": "h", "players": 2, "variant": "standard", "overrides": {}, "lineup": "y,z"},
    ]
    assert cell_labels(cells) == {"a": "g, 2 players, standard", "b": "h, 2 players, standard, line-up y",
                                  "c": "h, 2 players, standard, line-up y,z"}


def test_a_variant_finding_is_checked_again_under_every_assumption_set():
    from simkit.report.findings import headline

    def compared(cell, baseline, diff):
        return {"cell": cell, "baseline": baseline, "metric": "seat0_win", "diff": diff, "ci_low": diff - 0.02,
                "ci_high": diff + 0.02, "p": 1e-6, "baseline_mean": 0.5, "cell_mean": 0.5 + diff,
                "paired_games": 10000}

    cells = [
        summary_cell("std", [5000, 5000], overrides={"components": "standard"}),
        summary_cell("tp", [5000, 5000], variant="two_player", overrides={"components": "standard"}),
        summary_cell("alt", [5000, 5000], overrides={"components": "alt-x"}),
        summary_cell("tp-alt", [5000, 5000], variant="two_player", overrides={"components": "alt-x"}),
    ]
    comparisons = [compared("tp", "std", -0.06), compared("tp-alt", "alt", +0.05)]
    top = headline({"cells": cells, "comparisons": comparisons}, labels_of(cells))
    variant = [f for f in top.findings if f.kind == "comparison"]
    assert [f.cell for f in variant] == ["tp"]  # said once, on the standard set
    assert "it flips under tp-alt" in variant[0].sentence()
    row = next(r for r in top.robustness if r["finding"] is variant[0])
    assert (row["other"]["cell"], row["verdict"], row["base_value"]) == ("tp-alt", "flips", -0.06)
    from simkit.report.sections import _robustness_section

    table = _robustness_section(top, labels_of(cells))[-1]
    assert table.rows[0] == ["tp", "seat 0 share of decided games against std", "-6.0", "tp-alt", "+5.0 (+3.0 to +7.0)", "–",
                             "flips"]
