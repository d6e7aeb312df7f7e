"""simkit.report: the report of a hand-built sweep folder leads with the answer, embeds its
plots, fetches nothing from elsewhere, and words the first-seat verdict honestly (docs/reading-a-report.md)."""

from __future__ import annotations

import json
import re

import pytest

from simkit.analysis.findings import cell_labels
from simkit.analysis.summary import summarize
from simkit.report import write_report
from simkit.report.sections import answer
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
    from simkit.analysis.findings import headline

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
    from simkit.analysis.findings import headline

    cells = [summary_cell("stalls", [300, 100], capped=600), summary_cell("edge", [6000, 4000])]
    top = headline({"cells": cells, "comparisons": []}, labels_of(cells))
    assert [f.cell for f in top.unfinished] == ["stalls"]
    assert "most games did not finish: 60.0% hit the round cap" in top.unfinished[0].sentence()
    assert all(f.cell != "stalls" for f in top.findings)  # seat 0's 75% of the decided games is not a finding


def test_findings_across_assumption_sets_are_labelled_by_the_robustness_tests():
    """The grid's labels are the robustness phase's tests at one look over the 2 other sets (one-sided
    bounds at 5% / 2, z 2.24), on the unpaired change here (no comparison rows): +6 points unchanged
    holds (change 0 +- 2.24 * 0.71 < 2 points); reversed reverses; 1 point down is undetermined (the
    change toward zero, 1 +- 1.58, is shown neither below nor above 2 points)."""
    from simkit.analysis.findings import headline

    cells = [
        summary_cell("base", [5600, 4400]),
        summary_cell("alt-a", [5600, 4400], overrides={"components": "alt-a"}),  # the same figure
        summary_cell("alt-b", [4400, 5600], overrides={"components": "alt-b"}),  # the other way
    ]
    top = headline({"cells": cells, "comparisons": []}, labels_of(cells))
    base = next(f for f in top.findings if f.cell == "base")
    assert "Depends on an assumption: it reverses under alt-b" in base.sentence()
    verdicts = {row["other"]["cell"]: row["verdict"] for row in top.robustness}
    assert verdicts == {"alt-a": "holds", "alt-b": "reverses"}
    top = headline({"cells": cells[:2], "comparisons": []}, labels_of(cells[:2]))
    assert "Robust: holds under all 2 assumption sets" in next(f for f in top.findings if f.cell == "base").sentence()
    cells[1] = summary_cell("alt-a", [5500, 4500], overrides={"components": "alt-a"})
    top = headline({"cells": cells, "comparisons": []}, labels_of(cells))
    assert {row["other"]["cell"]: row["verdict"] for row in top.robustness} == {"alt-a": "undetermined",
                                                                               "alt-b": "reverses"}


def test_the_standard_component_set_is_the_base_whatever_the_grid_order():
    from simkit.analysis.findings import headline

    cells = [
        summary_cell("alt", [4400, 5600], overrides={"components": "alt-x"}),
        summary_cell("std", [5600, 4400], overrides={"components": "standard"}),
    ]
    top = headline({"cells": cells, "comparisons": []}, labels_of(cells))
    assert {row["base"]["cell"] for row in top.robustness} == {"std"}
    assert "reverses under alt" in next(f for f in top.findings if f.cell == "std").sentence()


def test_a_finding_is_said_once_for_all_assumption_sets():
    from simkit.analysis.findings import headline

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
    assert "| holds |" in parts["Findings across assumption sets"] or "| reverses |" in parts[
        "Findings across assumption sets"] or "| undetermined |" in parts[
        "Findings across assumption sets"] or "| vanishes |" in parts["Findings across assumption sets"] \
        or "| weaker |" in parts["Findings across assumption sets"]
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
    from simkit.analysis.findings import headline

    cells = [summary_cell("base", [5600, 4400]), summary_cell("alt", [4400, 5600], overrides={"components": "alt"})]
    change = {"cell": "alt", "baseline": "base", "metric": "seat0_win", "diff": -0.12, "ci_low": -0.13,
              "ci_high": -0.11, "p": 0.0, "baseline_mean": 0.56, "cell_mean": 0.44, "paired_games": 10000}
    top = headline({"cells": cells, "comparisons": [change]}, labels_of(cells))
    row = next(r for r in top.robustness if r["finding"].key == ("seat", 0))
    assert row["paired"] is change and row["verdict"] == "reverses"
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
    from simkit.analysis.findings import headline

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
    assert "it reverses under tp-alt" in variant[0].sentence()
    row = next(r for r in top.robustness if r["finding"] is variant[0])
    assert (row["other"]["cell"], row["verdict"], row["base_value"]) == ("tp-alt", "reverses", -0.06)
    from simkit.report.sections import _robustness_section

    table = _robustness_section(top, labels_of(cells))[-1]
    assert table.rows[0] == ["tp", "seat 0 share of decided games against std", "-6.0", "tp-alt", "+5.0 (+3.0 to +7.0)", "–",
                             "reverses"]


# ---------------------------------------------------------------------------------------
# A headline a designer can act on


def strategy_rows(rates: dict[str, tuple[int, float]]) -> list[dict]:
    """Strategy rows of a cell from {strategy: (decided seats, wins)}."""
    return [{"strategy": name, "seats": n, "decided_seats": n, "wins": wins} for name, (n, wins) in rates.items()]


def test_the_random_baseline_is_never_a_finding():
    """random trails by construction (it measures the bots); the other presets are measured
    against their own average, the baseline left out."""
    from simkit.analysis.findings import headline

    cell = summary_cell("mixed", [4000, 4000, 4000, 4000])
    cell["strategies"] = strategy_rows({"careful": (12000, 5400.0), "bold": (12000, 4600.0),
                                        "steady": (12000, 4800.0), "random": (12000, 1200.0)})
    summary = {"cells": [cell], "comparisons": [],
               "games": {"g": {"baseline_strategy": "random", "default_strategy": "careful", "params": {}}}}
    top = headline(summary, labels_of([cell]))
    strategies = [f for f in top.findings if f.kind == "strategy"]
    assert strategies and all(f.key != ("strategy", "random") for f in strategies)
    (finding,) = strategies  # one sentence for the line-up: careful +3.9 points over the presets' 41.1%
    assert finding.key == ("strategy", "careful")
    assert "against the other presets' average 41.1% (the random baseline left out)" in finding.sentence()
    assert "+3.9 points" in finding.sentence()
    # without the game's facts (a summary from elsewhere) random is one preset among the others
    assert any(f.key == ("strategy", "random") for f in headline({**summary, "games": {}}, labels_of([cell])).findings)


def seat_comparisons(cell: str, baseline: str, before: tuple[float, float], after: tuple[float, float],
                     players: int = 2) -> list[dict]:
    """The comparison rows of a variant: seat 0's share and the largest seat gap, before and after."""
    rows = []
    for metric, (a, b) in (("seat0_win", (before[0], after[0])), ("seat_gap", (before[1], after[1]))):
        rows.append({"cell": cell, "baseline": baseline, "metric": metric, "baseline_mean": a, "cell_mean": b,
                     "diff": b - a, "ci_low": b - a - 0.008, "ci_high": b - a + 0.008, "p": 1e-9,
                     "paired_games": 10000, "pairing": {"gain": 3.0}})
    return rows


def test_variants_rank_by_how_close_to_fair_they_bring_every_seat():
    """Seat 0 at +3.9: a variant that evens it (−0.0) outranks one that overshoots (−1.7),
    although the overshoot moves seat 0 further; only the first 'evens the seats'."""
    from simkit.analysis.findings import headline

    base = summary_cell("base", [5390, 4610])
    evens = summary_cell("evens", [5000, 5000], variant="bonus")
    overshoots = summary_cell("overshoots", [4830, 5170], variant="big_bonus")
    comparisons = (seat_comparisons("evens", "base", (0.539, 0.078), (0.500, 0.0))
                   + seat_comparisons("overshoots", "base", (0.539, 0.078), (0.483, 0.034)))
    top = headline({"cells": [base, evens, overshoots], "comparisons": comparisons},
                   labels_of([base, evens, overshoots]))
    variants = [f for f in top.findings if f.kind == "comparison"]
    assert [f.cell for f in variants] == ["evens", "overshoots"]  # one finding each: the seat gap speaks
    assert all(f.key[2] == "seat_gap" for f in variants)
    assert "evens the seats: the largest seat gap falls from +7.8 to +0.0 points" in variants[0].sentence()
    assert "consider it for the standard rules" in variants[0].sentence()
    assert "narrows the largest seat gap from +7.8 to +3.4 points, but seat 0 is still -1.7 points from fair" in \
        variants[1].sentence()
    assert "evens" not in variants[1].sentence()


def test_evens_the_seats_only_when_every_seat_covers_fair():
    """3 players: the variant brings seat 0 to fair but leaves seat 2 at −2 points: it narrows the
    gap (seat 1 is +2 points, seat 2 −2), it does not even the seats, whichever of its figures speaks."""
    from simkit.analysis.findings import headline

    base = summary_cell("base", [3800, 3100, 3100])
    variant = summary_cell("variant", [3333, 3533, 3134], variant="bonus")
    rows = seat_comparisons("variant", "base", (0.38, 0.07), (0.3333, 0.04), players=3)
    for only in (rows, [row for row in rows if row["metric"] == "seat0_win"]):
        top = headline({"cells": [base, variant], "comparisons": only}, labels_of([base, variant]))
        (finding,) = [f for f in top.findings if f.kind == "comparison"]
        assert "evens" not in finding.sentence()
        assert "seat 1 is still +2.0 points from fair" in finding.sentence()


def big_grid(cells_per_game: int, games: tuple[str, ...]) -> dict:
    """A summary of many cells: every fifth mostly unfinished, the rest with 20% of games capped
    and seat 0 at +10 points (each a finding), as a grid over rules would give."""
    cells = []
    for game in games:
        for i in range(cells_per_game):
            name = f"{game}-{i}"
            if i % 5 == 0:
                cells.append(summary_cell(name, [300, 100], capped=600, game=game))
            else:
                cells.append(summary_cell(name, [4800, 3200], capped=2000, game=game))
    return {"cells": cells, "comparisons": []}


def test_a_big_grid_headline_is_capped_and_grouped():
    """experiments/big_grid.toml's 10,000 cells: the headline shows a few lines, the unfinished
    cells in one sentence, and says how many more findings the More findings section holds."""
    from simkit.analysis.findings import headline
    from simkit.report.render import MAX_ROWS, Bullets, Paragraph, to_markdown
    from simkit.report.sections import HEADLINE_ITEMS, _headline_groups, _headline_section, _more_findings_section

    summary = big_grid(10_000, ("g",))
    labels = cell_labels(summary["cells"])
    top = headline(summary, labels)
    groups = _headline_groups(summary, top, labels)
    blocks = _headline_section(summary, top, groups)
    items = [item for block in blocks if isinstance(block, Bullets) for item in block.items]
    assert len(items) == HEADLINE_ITEMS
    assert items[0].startswith("**g: 2,000 cells mostly did not finish**")
    more = len(top.findings) - (HEADLINE_ITEMS - 1)
    assert more > 10_000  # two findings for each of the 8,000 finishing cells: the capped share and seat 0
    assert any(isinstance(b, Paragraph) and b.text.startswith(f"{more:,} more findings in the section More findings")
               for b in blocks)
    rest = _more_findings_section(summary, top, groups)
    assert len(rest[1].items) == more
    text = to_markdown(rest, "t")
    assert text.count("\n1. ") + text.count("\n2") > 0 and f"… {more - MAX_ROWS:,} more not shown here" in text


def test_a_headline_of_several_games_shows_a_few_per_game():
    from simkit.analysis.findings import headline
    from simkit.report.render import Bullets, Paragraph
    from simkit.report.sections import HEADLINE_PER_GAME, _headline_groups, _headline_section

    summary = big_grid(20, ("g", "h"))
    labels = cell_labels(summary["cells"])
    top = headline(summary, labels)
    blocks = _headline_section(summary, top, _headline_groups(summary, top, labels))
    lists = [block for block in blocks if isinstance(block, Bullets)]
    assert len(lists) == 2 and all(len(block.items) == HEADLINE_PER_GAME for block in lists)
    titles = [block.text for block in blocks if isinstance(block, Paragraph) and block.text in ("**g**", "**h**")]
    assert titles == ["**g**", "**h**"]
    assert lists[1].items[0].startswith("**h: 4 cells mostly did not finish**")


def test_the_terminal_headline_is_capped_and_grouped_too(tmp_path):
    from simkit.report import headline_lines

    (tmp_path / "summary.json").write_text(json.dumps(big_grid(30, ("g", "h"))))
    lines = headline_lines(tmp_path, items=4)
    assert lines[0] == "Headline:" and lines[1] == "g:" and lines[4] == "h:"
    assert [line[:3] for line in lines[2:4] + lines[5:7]] == ["1. ", "2. ", "1. ", "2. "]
    assert lines[2].startswith("1. g: 6 cells mostly did not finish")
    assert lines[7].startswith("   ... ") and lines[7].endswith("more in the report (More findings)")
