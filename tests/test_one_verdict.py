"""One verdict per figure, everywhere (docs/reading-a-report.md, "Words and units used
throughout"): a figure is clear of the noise by one rule (`simkit.analysis.seats.clear_of_noise`,
a Holm correction over every figure the report tests), and the headline, the overview, the seat
sentences and the tables all read it; a round-capped share is a design finding only above 1% of
games; a cell shows only its own game's metrics; the terminal prints the report's headline; and
a finding's "Next:" hint follows its robustness label."""

from __future__ import annotations

import json
import re

import pytest

from simkit.analysis.findings import cell_labels, headline, plain
from simkit.analysis.seats import seat_gap, share
from simkit.analysis.tests import seat_uniformity_p
from simkit.report.render import Bullets, Paragraph, Table
from simkit.report.sections import (
    _end_reason_section,
    _headline_groups,
    _headline_section,
    _overview_section,
    _seat_section,
    answer,
)


def cell(name: str, wins: list[float], capped: int = 0, game: str = "g", variant: str = "standard") -> dict:
    """A summary cell as `simkit.analysis.summary` writes it, from each seat's wins over the
    decided games and the games the round cap stopped."""
    players = len(wins)
    decided = round(sum(wins))
    games = decided + capped
    fair = 1.0 / players
    shares = [{"seat": s, **share(float(w), decided, fair)} for s, w in enumerate(wins)]
    reasons = [{"end_reason": "won", "share": decided / games, "games": decided}]
    if capped:
        reasons.append({"end_reason": "round_cap", "share": capped / games, "games": capped})
    return {
        "cell": name, "game": game, "players": players, "variant": variant, "overrides": {}, "lineup": "default",
        "games": games, "complete_games": decided, "incomplete_share": capped / games, "fair_rate": fair,
        "decided_games": decided, "seats": [{"seat": s, "wins": float(w)} for s, w in enumerate(wins)],
        "seat_advantage": shares, "largest_seat_gap": seat_gap(shares, decided),
        "seat_uniformity_p": seat_uniformity_p(wins, games), "strategies": [], "categories": {},
        "end_reasons": reasons, "precision": {"seat0_half_width": (shares[0]["ci_high"] - shares[0]["ci_low"]) / 2},
    }


def verdicts(summary: dict, tmp_path) -> dict[str, dict[str, bool]]:
    """Per cell, what each section says of seat 0: a headline finding, bold (and coloured) in the
    overview, favoured or disadvantaged in the seat sentence, bold in the seat table."""
    cells = summary["cells"]
    labels = cell_labels(cells)
    top = headline(summary, labels)
    overview = _overview_section(cells, top)[-1]
    by_row = {row[0]: (row, shade) for row, shade in zip(overview.rows, overview.shades)}
    seats = _seat_section(cells, labels, tmp_path, top)
    table = next(block for block in seats if isinstance(block, Table))
    sentences = next(block for block in seats if isinstance(block, Bullets)).items
    out = {}
    for number, c in enumerate(cells):
        row, shade = by_row[c["game"]]  # one overview row per game here: every cell plays the standard rules
        column = 1 + sorted({x["players"] for x in cells}).index(c["players"])
        out[c["cell"]] = {
            "rule": top.clear(c["cell"], "seat", ("seat", 0)),
            "headline": any(f.cell == c["cell"] and f.kind == "seat" for f in top.findings),
            "overview bold": row[column].startswith("**"),
            "overview coloured": shade[column] != "#f4f5f7",
            "seat sentence": bool(re.search(r"— (favoured|disadvantaged) by", sentences[number])),
            "seat table bold": table.rows[number][4].startswith("**"),
        }
    return out


@pytest.mark.parametrize("seat0", [4800, 4860, 4890, 4900, 4960, 5000, 5110, 5200])
def test_every_section_gives_seat_0_the_same_verdict(seat0, tmp_path):
    """2 players, 10,000 decided games: from clearly behind, through the edge (4,890: the
    interval alone excludes 0, uncorrected p = 0.028, Holm p over the two seats 0.056), to
    clearly ahead. Every section says clear exactly when the rule does."""
    summary = {"cells": [cell("c", [seat0, 10000 - seat0])], "comparisons": []}
    said = verdicts(summary, tmp_path)["c"]
    assert len(set(said.values())) == 1, said
    # the headline says "No effect" exactly when nothing is clear
    top = headline(summary, cell_labels(summary["cells"]))
    blocks = _headline_section(summary, top, _headline_groups(summary, top, cell_labels(summary["cells"])))
    nothing = any(isinstance(b, Paragraph) and b.text.startswith("No effect stands clear") for b in blocks)
    assert nothing == (not said["rule"])


def test_a_figure_at_the_edge_is_not_clear_anywhere_and_the_seat_sentence_says_why(tmp_path):
    edge = cell("edge", [4890, 5110])
    assert edge["seat_advantage"][0]["vs_fair_high"] < 0  # its interval alone excludes 0
    summary = {"cells": [edge], "comparisons": []}
    said = verdicts(summary, tmp_path)["edge"]
    assert not any(said.values()), said
    sentence = answer(edge, "edge", headline(summary, {"edge": "edge"}))
    assert "no evidence of a first-seat advantage" in sentence
    assert "its interval alone excludes 0, but its Holm-adjusted p = 0.056" in sentence
    assert "not clear of the noise" in sentence and "disadvantaged" not in sentence
    assert "seats differ (" not in sentence  # the chi-square alone (p = 0.028) does not make them differ


def test_the_correction_is_over_every_figure_tested(tmp_path):
    """Seat 0 at 4,860 of 10,000 (uncorrected p = 0.005) is clear among its cell's two seats, not
    among 22 figures: the overview, the seat sentence and the table follow the headline's family."""
    alone = {"cells": [cell("c", [4860, 5140])], "comparisons": []}
    many = {"cells": [cell("c", [4860, 5140])] + [cell(f"fair{i}", [5000, 5000], game=f"h{i}") for i in range(10)],
            "comparisons": []}
    assert set(verdicts(alone, tmp_path)["c"].values()) == {True}
    assert set(verdicts(many, tmp_path)["c"].values()) == {False}


# ---------------------------------------------------------------------------------------
# A capped share is a design finding only above 1% of games


def capped_said(c: dict, tmp_path) -> tuple[bool, bool, str]:
    """(a headline finding, a Design finding line in End reasons, that line)."""
    summary = {"cells": [c], "comparisons": []}
    labels = cell_labels(summary["cells"])
    top = headline(summary, labels)
    found = any(f.kind == "capped" for f in top.findings)
    lines = next(b for b in _end_reason_section(summary["cells"], labels, tmp_path) if isinstance(b, Bullets)).items
    return found, lines[0].startswith("**Design finding:**"), lines[0]


def test_five_capped_games_in_40000_are_a_count_not_a_finding(tmp_path):
    found, design, line = capped_said(cell("few", [19998, 19997], capped=5), tmp_path)
    assert not found and not design
    assert "5 of 40,000 games (0.013%) hit the round cap: a count, not a design finding" in line


def test_three_percent_capped_is_a_design_finding(tmp_path):
    found, design, line = capped_said(cell("many", [19400, 19400], capped=1200), tmp_path)
    assert found and design
    assert "3.0% of games (1,200) hit the round cap" in line


def test_a_capped_share_above_one_percent_whose_interval_is_not_clear_of_it_is_no_finding(tmp_path):
    # 22 of 2,000 games: 1.1%, but the 95% interval reaches down to 0.7%
    found, design, _ = capped_said(cell("near", [989, 989], capped=22), tmp_path)
    assert not found and not design


# ---------------------------------------------------------------------------------------
# A cell shows only its own game's metrics; the terminal prints the report's headline


@pytest.fixture(scope="module")
def two_games(tmp_path_factory, dicegame):
    """A real sweep of two games (each with metrics of its own) in one folder."""
    import simkit

    spec = {"name": "two", "study": [{"game": "dicegame", "players": 2, "games": 300},
                                     {"game": "set_sail", "players": 2, "games": 300}]}
    return simkit.sweep(spec, out=tmp_path_factory.mktemp("two") / "run", jobs=1, quiet=True)


def report_section(markdown: str, heading: str) -> str:
    parts = re.split(r"^## (.+)$", markdown, flags=re.MULTILINE)
    return dict(zip(parts[1::2], parts[2::2]))[heading]


def test_a_multi_game_sweep_shows_each_cell_only_its_own_metrics(two_games):
    from simkit import games

    own = {}
    for game_id in ("dicegame", "set_sail"):
        game = games.get(game_id)
        own[game_id] = {"score"} | {m.name for m in (*game.game_metrics, *game.seat_metrics)}
    table = report_section((two_games.folder / "report.md").read_text(), "Game and seat metrics")
    shown: dict[str, set[str]] = {"dicegame": set(), "set_sail": set()}
    for line in table.splitlines():
        match = re.match(r"^\| (dicegame|set_sail), 2 players, standard \| (\w+) \|", line)
        if match:
            shown[match.group(1)].add(match.group(2))
    for game_id, metrics in shown.items():
        assert metrics, f"{game_id}: no metric shown"
        assert metrics <= own[game_id], f"{game_id} shows another game's metrics: {sorted(metrics - own[game_id])}"


def report_headline_as_terminal_lines(markdown: str) -> list[str]:
    """The report's Headline section as the terminal should print it: each paragraph and item
    without markdown, a game's title with a colon, and the pointer to More findings."""
    lines = ["Headline:"]
    for text in (t for t in report_section(markdown, "Headline").strip().split("\n") if t.strip()):
        if text.startswith("**Contents:**"):
            break
        more = re.match(r"^([\d,]+) more findings? in the section More findings", text)
        if more:
            lines.append(f"   ... {more.group(1)} more in the report (More findings)")
        elif re.fullmatch(r"\*\*[^*]+\*\*", text):
            lines.append(f"{plain(text)}:")
        else:
            lines.append(plain(text))
    return lines


def test_the_terminal_headline_is_the_report_headline_of_a_real_sweep(two_games):
    from simkit.report import headline_lines

    markdown = (two_games.folder / "report.md").read_text()
    assert headline_lines(two_games.folder) == report_headline_as_terminal_lines(markdown)


def robust_row(cell_id: str, seat: int, label: str, depends_on: list[str], more_games: int | None = None) -> dict:
    """A row of summary.json's robustness.findings (simkit.sweeps.robustness.finish) for a seat finding."""
    by = depends_on or ["lookahead"]
    again = [{"by": b, "cell": f"{cell_id}~{b}", "games": 2000, "figure": 0.001, "interval": [-0.02, 0.022],
              "change": -0.059, "change_interval": [-0.08, -0.038], "paired_original": 0.06,
              "label": label if depends_on else "holds"} for b in by]
    return {"id": f"{cell_id}/seat/seat/{seat}", "cell": cell_id, "game": "g", "players": 2, "kind": "seat",
            "key": ["seat", seat], "baseline": None, "figure": 0.06, "interval": [0.05, 0.07], "games": 10000,
            "delta": 0.02, "tail": 0.0125, "headline": True, "rank": 1, "gates": [], "remeasurements": again,
            "not_played": [], "label": label, "depends_on": depends_on, "more_games": more_games}


def test_the_terminal_prints_the_report_headline_sentence_for_sentence(tmp_path):
    """Two games, more findings than the headline shows, robustness labels: the same sentences in
    the same order (the terminal used to print 5 items, no robustness sentence, its own short
    no-effect line, and the precision alone)."""
    from simkit.report import headline_lines
    from simkit.report.render import to_markdown

    cells = [cell(f"{game}-{i}", [5600 + 10 * i, 4400 - 10 * i], game=game, variant=f"v{i}")
             for game in ("g", "h") for i in range(5)]
    summary = {"cells": cells, "comparisons": [],
               "robustness": {"findings": [*(robust_row("g-4", seat, "vanishes", ["components=alt-x"]) for seat in (0, 1)),
                                           *(robust_row("h-4", seat, "holds", []) for seat in (0, 1))]}}
    (tmp_path / "summary.json").write_text(json.dumps(summary))
    labels = cell_labels(cells)
    top = headline(summary, labels)
    markdown = to_markdown(_headline_section(summary, top, _headline_groups(summary, top, labels)), "t")
    lines = headline_lines(tmp_path)
    assert lines == report_headline_as_terminal_lines(markdown + "\n## End\n")
    assert lines[1].startswith("Robustness of 4 headline findings")  # the report's first sentence, first
    assert "Next: it vanishes under the component set alt-x" in lines[3]  # g-4 ranks first
    assert "   ... 4 more in the report (More findings)" in lines  # 5 per game, 3 shown
    assert lines[-1].startswith("Precision reached:") and "figures tested are findings" in lines[-1]


# ---------------------------------------------------------------------------------------
# The Next hint follows the robustness label


RULE_CHANGE = "try a compensation for the later seats"  # seat 0 ahead: the rule to try


@pytest.mark.parametrize(("label", "depends_on", "more", "says"), [
    ("holds", [], None, [RULE_CHANGE]),
    ("vanishes", ["components=alt-x"], None, ["vanishes under the component set alt-x", "rests on an assumption",
                                              "check those component values"]),
    ("reverses", ["components=alt-x", "components=alt-y"], None,
     ["reverses under the component sets alt-x, alt-y", "check those component values"]),
    ("vanishes", ["lookahead"], None, ["with the lookahead bots", "about how the bots play", "stronger tier"]),
    ("reverses", ["tuned", "components=alt-x"], None, ["alt-x", "tuned", "stronger tier", "component values"]),
    ("reverses", ["sunk_treasure=deck"], None, ["reverses under the reading sunk_treasure=deck",
                                                "rests on an assumption", "check those readings"]),
    ("vanishes", ["components=alt-x", "dig_pool=x", "tuned"], None,
     ["under the component set alt-x and the reading dig_pool=x and with the tuned bots",
      "check those component values and readings"]),
    ("undetermined", ["components=alt-x"], 4000, ["settle its robustness label first", "about 4,000 more games"]),
])
def test_the_next_hint_follows_the_robustness_label(label, depends_on, more, says):
    cells = [cell("c", [5600, 4400])]
    summary = {"cells": cells, "comparisons": [],
               "robustness": {"findings": [robust_row("c", seat, label, depends_on, more) for seat in (0, 1)]}}
    (finding,) = headline(summary, {"c": "c"}).findings
    hint = finding.next_hint()
    assert f"Next: {hint}." in finding.sentence()
    assert ". " not in hint  # one sentence
    for text in says:
        assert text in hint
    if label != "holds":
        assert RULE_CHANGE not in hint  # not a rule change while the finding rests on an assumption or the bots


def test_the_next_hint_names_only_what_gives_the_finding_its_label():
    """Reverses under alt-y, only weaker under alt-x: the hint says it reverses under alt-y and
    does not say it reverses under alt-x (the label line still names both)."""
    cells = [cell("c", [5600, 4400])]
    rows = []
    for seat in (0, 1):
        row = robust_row("c", seat, "reverses", ["components=alt-x", "components=alt-y"])
        row["remeasurements"][0]["label"] = "weaker"
        rows.append(row)
    summary = {"cells": cells, "comparisons": [], "robustness": {"findings": rows}}
    (finding,) = headline(summary, {"c": "c"}).findings
    hint = finding.next_hint()
    assert "reverses under the component set alt-y," in hint and "alt-x" not in hint
    assert "alt-x" in finding.sentence()
