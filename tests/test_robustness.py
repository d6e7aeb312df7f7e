"""The robustness phase (simkit.sweeps.robustness, simkit.analysis.robustness): labels from figures, the
sample size, and, on the dice game, three findings built to reverse with skill, to hold
everywhere and to depend on a component file, labelled as derived by hand."""

from __future__ import annotations

import functools
import json
import math
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

import simkit
from simkit.analysis import robustness as labelling
from simkit.analysis.robustness import HOLDS, NO_EFFECT, REVERSES, UNDETERMINED, VANISHES, WEAKER, decide, overall
from simkit.commands.cli import app
from simkit.core.errors import InputError
from simkit.sweeps import results

# ---------------------------------------------------------------------------------------
# Labels, by hand


def _measured(figure, se, change, change_se, games=10_000):
    return {"games": games, "figure": figure, "se": se, "change": change, "change_se": change_se}


@pytest.mark.parametrize("side", [1, -1])
def test_labels_are_the_tests_they_are_documented_as_on_either_side(side):
    """Original +8 points on side `side`; δ = 2 points, z = 2 (bounds at ±2 standard errors)."""
    def at(figure, se, change, change_se):
        return decide(side, _measured(side * figure, se, side * change, change_se), 0.02, 2.0)

    assert at(-0.03, 0.01, -0.11, 0.01) == REVERSES  # upper bound -1 point: clear of zero on the other side
    assert at(-0.01, 0.01, -0.09, 0.01) is None  # -1 point +- 2: neither reversed nor within +-2 shown
    assert at(0.08, 0.005, 0.0, 0.005) == HOLDS  # clear of zero; change 0 +- 1 < 2 points
    assert at(0.09, 0.005, 0.01, 0.004) == HOLDS  # a larger effect holds too: the change toward zero is -1
    assert at(0.07, 0.005, -0.01, 0.006) is None  # change toward zero 1 +- 1.2: not shown below 2 nor above
    assert at(0.005, 0.005, -0.075, 0.005) == VANISHES  # 0.5 +- 1 inside +-2 points
    assert at(0.04, 0.005, -0.04, 0.005) == WEAKER  # clear of zero; change toward zero 4 - 1 > 2
    assert at(0.04, 0.005, -0.04, 0.02) is None  # the same change, not shown larger than 2 (4 - 4 < 2)


@pytest.mark.parametrize("toward", [0.0, 0.005, 0.01, 0.015, 0.02, 0.025, 0.04])
def test_every_change_is_decided_in_enough_games(toward):
    """holds needs the change toward zero shown below δ, weaker above δ/2: with the overlap no
    change, not even one of exactly δ or δ/2, stays undetermined as the games grow (the change's
    standard error shrinking as 1/√n); one below δ/2 holds, one above δ is weaker, and in between
    the first shown (holds, tried first, where both are) is the label."""
    figure, change = 0.08 - toward, -toward
    found = [decide(1, _measured(figure, 0.1 / n ** 0.5, change, 0.1 / n ** 0.5, n), 0.02, 2.0)
             for n in (10_000, 100_000, 1_000_000, 10_000_000)]
    assert found[-1] == (HOLDS if toward < 0.02 else WEAKER)
    if toward >= 0.02:
        assert HOLDS not in found  # holds never shown of a change of δ or more
    if toward <= 0.01:
        assert WEAKER not in found  # weaker never shown of a change of δ/2 or less
    assert labelling.WEAKER_FROM == 0.5


def test_a_change_between_half_and_all_of_delta_is_weaker_when_only_that_is_shown():
    """Change toward zero 2.2 ± 0.8 (z = 2): not shown below 2, shown above 1: weaker; 1.5 ± 0.4
    is shown both below 2 and above 1: holds, tried first."""
    assert decide(1, _measured(0.058, 0.002, -0.022, 0.004), 0.02, 2.0) == WEAKER
    assert decide(1, _measured(0.065, 0.002, -0.015, 0.002), 0.02, 2.0) == HOLDS


def test_holds_is_tried_before_vanishes_and_vanishes_before_weaker():
    """A small original (+1.5 points) measured again unchanged shows both holds and vanishes (it
    is within +-2 points of zero): holds. A re-measured +1 point, 4 points down: vanishes and weaker
    are both shown: vanishes."""
    assert decide(1, _measured(0.015, 0.001, 0.0, 0.001), 0.02, 2.0) == HOLDS
    assert decide(1, _measured(0.01, 0.001, -0.04, 0.001), 0.02, 2.0) == VANISHES


def test_the_tail_spreads_alpha_over_looks_and_re_measurements():
    assert labelling.tail(0.05, 3, 4) == pytest.approx(0.05 / 12)
    assert labelling.tail(0.05, 0, 0) == 0.05


def test_a_seat_figure_and_its_paired_change_are_those_derived_by_hand():
    """Six games, two players, one capped (nobody's): seat 0 wins games 0, 1, 3 of the original and
    0, 3, 4 of the re-measurement (game 5 capped in both). Original 3/5 - 1/2 = +10 points,
    re-measured 3/5 - 1/2, change 0; game by game the wins differ in games 1 and 4 only, so the
    change's per-game terms are (w_b - w_a) / (5/6): var = (2 * 1.2^2 - 0) / 5 / 6 for its
    standard error (the decided share is the same game by game, so it drops out)."""
    units = labelling.WIN_UNITS
    won_a, won_b = [1, 1, 0, 1, 0, 0], [1, 0, 0, 1, 1, 0]
    decided = [units] * 5 + [0]
    sums = labelling.pair_sums("seat", {"x": [w * units for w in won_a], "d": decided},
                               {"x": [w * units for w in won_b], "d": decided})
    measured = labelling.measure("seat", sums, 0.5)
    assert measured["original"] == pytest.approx(0.1) and measured["figure"] == pytest.approx(0.1)
    assert measured["change"] == pytest.approx(0.0)
    assert measured["change_se"] == pytest.approx(math.sqrt(2 * 1.2 ** 2 / 5 / 6))
    # the re-measured figure's own: terms (w - 0.6 d) / (5/6), over 6 games
    terms = [((w - 0.6 * (d > 0)) / (5 / 6)) for w, d in zip(won_b, decided)]
    mean = sum(terms) / 6
    assert measured["se"] == pytest.approx(math.sqrt(sum((t - mean) ** 2 for t in terms) / 5 / 6))


def test_a_dealt_value_is_measured_against_its_cells_average_game_by_game():
    """Two seats per game, one of them dealt 'red': red won 2 of 3 decided games; the average of
    every seat is 1/2 (one winner per decided game): +16.7 points, the same as the summary's
    group_figure from the counts."""
    units = labelling.WIN_UNITS
    columns = {"x": [units, units, 0], "d": [units] * 3, "g": [units] * 3, "h": [2 * units] * 3}
    sums = labelling.pair_sums("category", columns, columns)
    measured = labelling.measure("category", sums)
    assert measured["original"] == pytest.approx(2 / 3 - 1 / 2) and measured["change"] == 0.0


def test_more_games_is_the_sample_at_which_the_nearest_label_clears_its_bounds():
    """Holds at +8 +- 1 point (se), change 0 +- 1.5 (se), δ 2, z 2: the change's margin 2 clears
    2 standard errors once se = 1 point, at (1.5 / 1)^2 = 2.25 times the games: 12,500 more
    than 10,000; the figure's own margin (8 against 2 se) needs nothing more."""
    measured = _measured(0.08, 0.01, 0.0, 0.015)
    assert decide(1, measured, 0.02, 2.0) is None
    assert labelling.more_games(1, measured, 0.02, 2.0) == 13_000  # 12,500 rounded up to two figures
    # a change of exactly δ is never shown below δ, but is shown above δ/2 (margin 1 point, se 1
    # point) at 4 times the games: weaker, 30,000 more
    assert labelling.more_games(1, _measured(0.06, 0.01, -0.02, 0.01), 0.02, 2.0) == 30_000


def test_a_finding_takes_the_worst_decided_label_and_no_effect_is_no_label():
    assert overall({"tuned": HOLDS, "components=alt-a": HOLDS}) == (HOLDS, [])
    assert overall({"tuned": WEAKER, "lookahead": REVERSES, "components=alt-a": VANISHES}) == \
        (REVERSES, ["tuned", "lookahead", "components=alt-a"])
    assert overall({"tuned": HOLDS, "components=alt-a": UNDETERMINED}) == (UNDETERMINED, ["components=alt-a"])
    assert overall({"tuned": UNDETERMINED, "components=alt-a": WEAKER}) == (WEAKER, ["components=alt-a"])
    assert overall({"tuned": HOLDS, "components=alt-a": NO_EFFECT}) == (HOLDS, [])
    assert overall({"components=alt-a": NO_EFFECT}) == ("not re-measured", [])


def test_the_opening_sentence_counts_every_finding_once():
    findings = [{"label": HOLDS, "depends_on": []}, {"label": HOLDS, "depends_on": []},
                {"label": WEAKER, "depends_on": ["lookahead"]}, {"label": VANISHES, "depends_on": ["components=alt-a"]},
                {"label": UNDETERMINED, "depends_on": ["tuned"]}]
    text = labelling.opening(findings)
    assert text.startswith("Robustness of 5 findings: 2 hold (about the game), 1 is weaker, 1 vanishes, "
                           "1 is undetermined.")
    assert "depend on components=alt-a, lookahead." in text
    assert sum(labelling.counts(findings).values()) == len(findings)


@pytest.mark.parametrize("players", [2, 4])
def test_simulated_re_measurements_get_the_label_of_what_changed(players):
    """The phase's own decisions (simkit.sweeps.robustness.simulated) on a +8-point seat-0 finding at the
    defaults (10,000 original games, up to 320,000, δ 2 points, α 5%, 4 re-measurements): nothing
    changed is holds, half the effect weaker, none vanishes, the opposite reverses, each in nearly
    every run (the docs' table runs 2,000 of each; 300 here keep the suite fast)."""
    from simkit.sweeps.robustness import simulated

    assert simulated(players, 0.08, 0.08, runs=300, seed=players).get(HOLDS, 0) >= 0.95
    assert simulated(players, 0.08, 0.04, runs=300, seed=players).get(WEAKER, 0) >= 0.9
    assert simulated(players, 0.08, 0.0, same=0.5, runs=300, seed=players).get(VANISHES, 0) >= 0.9
    assert simulated(players, 0.08, -0.08, runs=300, seed=players).get(REVERSES, 0) >= 0.95


def _banked_per_turn(hold: str, limit: int = 0, bonus: int = 0) -> Fraction:
    """The expected points a first seat banks on its first turn from 0, by hand (exact, a fair
    d6, a race to 40: a turn total of 40 is banked at once): `random` holds with chance 1/2 after
    each roll, `careful` holds once its turn total reaches 12; past `limit` (0: none) the turn
    busts, and a banked turn earns `bonus` more (the dice game's first_seat_limit and
    first_seat_hold_bonus)."""
    @functools.cache
    def from_total(total: int) -> Fraction:
        value = Fraction(0)
        for face in range(2, 7):  # a 1 busts: nothing
            after = total + face
            if limit and after > limit:
                continue
            if after >= 40:
                value += Fraction(1, 6) * (after + bonus)
            elif hold == "careful":
                value += Fraction(1, 6) * (after + bonus if after >= 12 else from_total(after))
            else:
                value += Fraction(1, 6) * (Fraction(1, 2) * (after + bonus) + Fraction(1, 2) * from_total(after))
        return value

    return from_total(0)


SPEC = {
    "name": "dice-robust", "seed": 3, "games": 2000,
    "robustness": {"check": "all", "skilled": "careful", "lookahead": False, "games": 8000},
    "check": {"max_first_player_advantage": "10pt", "min_games": 1000},
    "study": [
        # reverses with skill: short turns with a bonus for the first seat
        {"game": "dicegame", "players": [2], "strategies": ["random"],
         "set": {"first_seat_limit": 10, "first_seat_hold_bonus": 5}},
        # holds everywhere: seat 1 starts past the target
        {"game": "dicegame", "players": [2], "strategies": ["random"], "set": {"head_start": [0, 50, 0, 0]}},
        # depends on the die: the first seat's 5s are worth more, and the loaded die has none
        {"game": "dicegame", "players": [2], "strategies": ["random"], "set": {"five_bonus": 10}},
    ],
}
SHORT = "dicegame-2p-standard-first_seat_limit=10-first_seat_hold_bonus=5"
AHEAD = "dicegame-2p-standard-head_start=0-50-0-0"
FIVES = "dicegame-2p-standard-five_bonus=10"


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    folder = tmp_path_factory.mktemp("robust") / "sweep"
    simkit.sweep(SPEC, out=folder, jobs=1, quiet=True)
    return folder


def _seat0(summary: dict, cell: str) -> dict:
    return next(f for f in summary["robustness"]["findings"] if f["id"] == f"{cell}/seat/seat/0")


def _again(finding: dict, by: str) -> dict:
    return next(r for r in finding["remeasurements"] if r["by"] == by)


def test_a_finding_built_to_reverse_with_skill_is_labelled_reverses(swept):
    """By hand: a random first seat banks more per turn under short turns with a bonus (so it is
    ahead of fair); a careful one holds at 12, so every turn total passes the limit of 10 and
    busts, and it can never bank (it starts at most 2 points from 0, 38 short of the target):
    it wins exactly none of the decided games, -50 points."""
    assert _banked_per_turn("random", limit=10, bonus=5) > _banked_per_turn("random")
    assert _banked_per_turn("careful", limit=10, bonus=5) == 0
    finding = _seat0(json.loads((swept / "summary.json").read_text()), SHORT)
    assert finding["figure"] > 0 and finding["interval"][0] > 0
    careful = _again(finding, "careful")
    assert careful["figure"] == -0.5 and careful["label"] == REVERSES
    assert finding["label"] == REVERSES and "careful" in finding["depends_on"]


def test_a_finding_built_to_hold_is_labelled_holds(swept):
    """By hand: seat 1 starts at 50; the first seat's turns end at the target 40 (at most 45 with
    the red seat's 2), so after round 1 seat 1 has won, whatever the bots or the die: seat 0
    wins none, -50 points, in every measurement."""
    finding = _seat0(json.loads((swept / "summary.json").read_text()), AHEAD)
    assert finding["figure"] == -0.5
    assert {r["by"] for r in finding["remeasurements"]} == {"careful", "components=alt-loaded"}
    assert all(r["figure"] == -0.5 and r["label"] == HOLDS for r in finding["remeasurements"])
    assert finding["label"] == HOLDS and finding["depends_on"] == []


def test_a_finding_built_on_a_component_file_is_labelled_by_that_set(swept):
    """By hand: the first seat's 5s add 10 points, so it is ahead with the standard d6 at any
    skill (a careful seat banks more per turn too); the loaded die of alt-loaded has no 5, and
    with no 5 the race is the same for both seats (each plays its own turns, as many of them,
    and the bots ignore each other), so seat 0's expected share is exactly fair: the interval
    covers zero and the finding vanishes under that set, and only there."""
    assert _banked_per_turn("careful") > 0
    finding = _seat0(json.loads((swept / "summary.json").read_text()), FIVES)
    assert finding["figure"] > 0
    loaded = _again(finding, "components=alt-loaded")
    assert loaded["interval"][0] <= 0 <= loaded["interval"][1] and loaded["label"] == VANISHES
    careful = _again(finding, "careful")
    assert careful["interval"][0] > 0 and careful["label"] in (HOLDS, WEAKER)
    assert finding["label"] == VANISHES and "components=alt-loaded" in finding["depends_on"]


def test_the_report_says_the_labels_the_opening_sentence_and_the_table(swept):
    report = (swept / "report.md").read_text()
    headline = report.split("## Headline", 1)[1].split("**Contents:**", 1)[0]
    assert headline.lstrip().startswith("Robustness of ")
    assert "*Robustness: **reverses**" in headline and "*Robustness: **holds**" in headline
    assert "*Robustness: **vanishes**" in headline and "components=alt-loaded" in headline
    assert "## Robustness" in report


def test_simkit_report_rebuilds_the_labels_from_the_robustness_folder(swept):
    before = json.loads((swept / "summary.json").read_text())["robustness"]
    (swept / "summary.json").unlink()
    result = CliRunner().invoke(app, ["report", str(swept)])
    assert result.exit_code == 0, result.output
    assert json.loads((swept / "summary.json").read_text())["robustness"] == before


def test_the_re_measurements_pair_with_the_original_seeds(swept):
    original = results.load(swept).games.filter(cell=AHEAD).sort("game_index")["seed"]
    again = results.load(swept / "robustness" / "look-0").games.filter(cell=f"{AHEAD}~careful").sort("game_index")["seed"]
    assert again.to_list() == original.to_list()[:len(again)]


def test_check_robust_gates_only_the_figures_whose_finding_holds(swept):
    runner = CliRunner()
    plain = runner.invoke(app, ["check", str(swept)])
    assert plain.exit_code == 1  # three cells: seat 0 far past 10 points in two of them
    robust = runner.invoke(app, ["check", str(swept), "--robust"])
    # only the head start's seat 0 holds everywhere, and it is a breach (-50 points against 10)
    assert robust.exit_code == 1, robust.output
    assert AHEAD in robust.output and FIVES not in robust.output and SHORT not in robust.output
    assert "2 figures not gated" in robust.output


def test_check_robust_without_labels_is_bad_input(tmp_path):
    folder = tmp_path / "plain"
    simkit.sweep(game="dicegame", players=2, games=1000, out=folder, jobs=1, quiet=True, report=False)
    result = CliRunner().invoke(app, ["check", str(folder), "--max-seat-gap", "50pt", "--robust"])
    assert result.exit_code == 2 and result.output.startswith("error: --robust needs robustness labels")


@pytest.mark.parametrize("value, message", [
    ("maybe", "check must be one of off, skill, components, all"),
    ({"check": "all", "budgit": 0.5}, "unknown robustness key 'budgit'"),
    ({"check": "all", "budget": 0.5}, "budget .* is gone: the robustness phase's budget is in games"),
    ({"check": "all", "games": 0}, "games is the most games one re-measurement plays"),
    ({"check": "all", "alpha": 0.5}, "alpha is a finding's chance of a false label"),
    ({"check": "all", "delta": {"seats": "2pt"}}, "unknown delta kind 'seats'"),
    ({"check": "all", "delta": {"seat": "0pt"}}, "delta.seat must be above 0"),
    ({"check": "all", "lookahead": "yes"}, "lookahead must be true or false"),
])
def test_bad_robustness_settings_are_one_error(value, message):
    from simkit.sweeps import spec

    with pytest.raises(InputError, match=message):
        spec.load({"robustness": value, "study": [{"game": "dicegame"}]})


def test_the_cli_refuses_a_bad_robustness_value_with_one_line(tmp_path):
    result = CliRunner().invoke(app, ["sweep", "--game", "dicegame", "--robustness", "maybe", "--out",
                                      str(tmp_path / "x")])
    assert result.exit_code == 2 and result.output.count("\n") == 1 and result.output.startswith("error:")
    assert not (tmp_path / "x").exists()


def test_the_default_spec_turns_robustness_on_and_others_leave_it_off():
    assert simkit.sweeps.spec.load().robustness["check"] == "all"
    assert simkit.sweeps.spec.load(game="dicegame").robustness == {}
    assert simkit.sweeps.spec.load(game="dicegame", robustness="skill").robustness["check"] == "skill"
    assert simkit.sweeps.spec.load(robustness="off").robustness == {}


def test_an_interrupted_robustness_phase_resumes_to_the_same_labels(swept, tmp_path, monkeypatch):
    """Stopped after the first chunk of its re-measurements, the phase is finished by the sweep's
    --resume, with the labels of a straight run."""
    from simkit.sweeps import runner

    folder = tmp_path / "sweep"
    real = runner._execute

    def first_chunk_then_stop(where, sweep, plan, pending, *args, **kwargs):
        if Path(where).parent.name != "robustness":
            return real(where, sweep, plan, pending, *args, **kwargs)
        real(where, sweep, plan, pending[:1], *args, **kwargs)
        raise KeyboardInterrupt

    monkeypatch.setattr(runner, "_execute", first_chunk_then_stop)
    with pytest.raises(KeyboardInterrupt):
        simkit.sweep(SPEC, out=folder, jobs=1, quiet=True, report=False)
    assert (folder / labelling.SELECTION).exists() and not results.is_complete(folder / "robustness" / "look-0")
    assert "looks" not in json.loads((folder / labelling.SELECTION).read_text())
    monkeypatch.setattr(runner, "_execute", real)
    simkit.sweep(out=folder, resume=True, jobs=1, quiet=True, report=False)
    resumed = json.loads((folder / "summary.json").read_text())["robustness"]["findings"]
    straight = json.loads((swept / "summary.json").read_text())["robustness"]["findings"]
    assert [(f["id"], f["label"], [r["figure"] for r in f["remeasurements"]]) for f in resumed] == \
        [(f["id"], f["label"], [r["figure"] for r in f["remeasurements"]]) for f in straight]
    # to the byte: the plan, the labels and the summary (no seconds in either)
    assert (folder / labelling.SELECTION).read_bytes() == (swept / labelling.SELECTION).read_bytes()
    assert (folder / "summary.json").read_bytes() == (swept / "summary.json").read_bytes()


def test_the_robustness_section_says_which_seat_0_figures_have_no_sign_to_re_measure():
    from simkit.report.sections import _within_noise

    def cell(name, value, low, high):
        return {"cell": name, "games": 10_000,
                "first_player_advantage": {"value": value, "ci_low": low, "ci_high": high}}

    summary = {"cells": [cell("a-2p", -0.003, -0.013, 0.007), cell("a-3p", 0.05, 0.04, 0.06)]}
    (paragraph,) = _within_noise(summary, {"a-2p": "a, 2 players"})
    assert "a, 2 players -0.3 points (-1.3 to +0.7)" in paragraph.text and "a-3p" not in paragraph.text
    assert _within_noise({"cells": [cell("a-3p", 0.05, 0.04, 0.06)]}, {}) == []


def test_the_lookahead_is_played_whatever_the_cache_holds(tmp_path, monkeypatch):
    """With its engine entry taken as not yet compiled, the lookahead tier is still planned and
    played (the runner compiles it, with its progress lines): what is re-measured never depends
    on numba's cache or on the machine's speed."""
    from simkit.sweeps import robustness, runner

    monkeypatch.setattr(runner, "engine_prepared", lambda cell: "lookahead" not in cell.lineup)
    spec = {**SPEC, "robustness": {**SPEC["robustness"], "lookahead": True, "lookahead_games": 400}}
    folder = tmp_path / "sweep"
    simkit.sweep(spec, out=folder, jobs=1, quiet=True, report=False)
    selection = json.loads((folder / robustness.SELECTION).read_text())
    lookahead = [c for c in selection["cells"] if c.endswith("~lookahead")]
    assert lookahead and all(selection["cells"][c]["schedule"] == [100, 200, 400] for c in lookahead)
    assert not selection["skipped"]
    played = results.load(folder / "robustness" / "look-0").games["cell"].unique().to_list()
    assert set(lookahead) <= set(played)


def test_the_phase_is_the_same_at_one_and_two_jobs(swept, tmp_path):
    """robustness.json (labels, figures, games) and every look's tables, bit for bit."""
    import hashlib

    folder = tmp_path / "sweep"
    simkit.sweep(SPEC, out=folder, jobs=2, quiet=True, report=False)
    assert (folder / "robustness.json").read_bytes() == (swept / "robustness.json").read_bytes()
    for table in sorted((swept / "robustness").rglob("*.parquet")):
        mine = folder / table.relative_to(swept)
        assert hashlib.sha256(mine.read_bytes()).hexdigest() == hashlib.sha256(table.read_bytes()).hexdigest()


def test_an_entry_is_marked_prepared_once_warmed_in_its_cache_folder(tmp_path, monkeypatch):
    """`_warm_game` leaves a mark in numba's cache folder, so the robustness phase knows the entry
    loads instead of compiling; the lookahead entry of a game with a lighter one is its own."""
    from numba.core import config

    from simkit.sweeps import runner
    from simkit.sweeps.spec import Cell

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(config, "DISABLE_JIT", False)
    cell = Cell("dice-2p", "dicegame", 2, "standard", {}, ("careful", "lookahead"), 2, {})
    assert runner.entry_name(cell) == "dicegame"  # one entry: the dice game has no lighter one
    assert not runner.engine_prepared(cell)
    runner._warm_game(cell.to_dict())
    assert runner.engine_prepared(cell)
    set_sail = Cell("ss-2p", "set_sail", 2, "standard", {}, ("treasure_hunter", "lookahead"), 2, {})
    assert runner.entry_name(set_sail) == "set_sail (lookahead)"
    assert runner.entry_name(Cell("ss-2p", "set_sail", 2, "standard", {}, ("treasure_hunter",), 2, {})) == "set_sail"


def test_lookahead_true_re_measures_at_the_expert_where_the_game_has_one(dicegame):
    """`lookahead = true` adds the game's top rollout tier: Set Sail's `expert` (the lookahead on
    tuned), the dice game's `lookahead` (it has no expert); either is slow, so it plays the
    lookahead_games schedule, a quarter of them first."""
    from simkit.sweeps.robustness import _schedule_of, remeasurements, top_tier
    from simkit.sweeps.spec import Cell

    settings = {"check": "skill", "lookahead": True, "games": 320_000, "lookahead_games": 2_000}
    set_sail = Cell("ss-2p", "set_sail", 2, "standard", {}, ("treasure_hunter",), 10_000, {})
    assert [by for by, _ in remeasurements(set_sail, "seat", settings)] == ["tuned", "expert"]
    assert [by for by, _ in remeasurements(set_sail, "seat", settings | {"lookahead": False})] == ["tuned"]
    assert top_tier(dicegame) == "lookahead"
    dice = Cell("d-2p", "dicegame", 2, "standard", {}, ("random",), 10_000, {})
    assert [by for by, _ in remeasurements(dice, "seat", settings)][-1] == "lookahead"
    again = dict(remeasurements(set_sail, "seat", settings))
    assert _schedule_of(again["expert"], "expert", 10_000, settings) == [500, 1000, 2000]
    assert _schedule_of(again["tuned"], "tuned", 10_000, settings)[:2] == [10_000, 20_000]


def test_every_other_reading_of_an_assumption_is_re_measured_and_the_cells_own_is_not():
    """Sea of Troubles declares readings of A12 (`sunk_treasure`: lost, deck, attacker) and A17
    (`dig_pool`: owner, x): a finding is measured again under each reading its cell does not play,
    beside the shipped component sets, and only by the components check."""
    from simkit.sweeps.robustness import remeasurements
    from simkit.sweeps.spec import Cell

    settings = {"check": "components", "games": 320_000, "lookahead_games": 2_000}
    base = Cell("st-3p", "sea_of_troubles", 3, "standard", {}, ("pillager",), 10_000, {})
    readings = {by: again for by, again in remeasurements(base, "seat", settings) if not by.startswith("components=")}
    assert list(readings) == ["sunk_treasure=deck", "sunk_treasure=attacker", "dig_pool=x"]
    assert readings["sunk_treasure=attacker"].overrides == {"sunk_treasure": "attacker"}
    assert readings["dig_pool=x"].id == "st-3p~dig_pool=x" and readings["dig_pool=x"].lineup == ("pillager",)
    deck = Cell("st-3p", "sea_of_troubles", 3, "standard", {"sunk_treasure": "deck"}, ("pillager",), 10_000, {})
    again = [by for by, _ in remeasurements(deck, "seat", settings) if by.startswith("sunk_treasure=")]
    assert again == ["sunk_treasure=lost", "sunk_treasure=attacker"]
    assert all("=" not in by for by, _ in remeasurements(base, "seat", settings | {"check": "skill"}))


@pytest.mark.parametrize("readings", [("lost",), ("sunk",)])
def test_a_reading_is_another_allowed_value(readings):
    from simkit.core.rules import Param

    with pytest.raises((ValueError, InputError)):
        Param("sunk_treasure", "choice", "lost", ("lost", "deck"), "where it goes", "A12", readings=readings)
    with pytest.raises(ValueError):
        Param("port_die", "int", 6, (4, 6), "the die", "A8", readings=(4,))


def test_a_reading_that_cannot_change_the_base_game_is_no_effect_and_one_that_can_is_labelled(tmp_path):
    """Sea of Troubles at 3 players, base game: a pirate's buried treasure lies under its one X, so
    `dig_pool=x` (a dig takes only what is under the X dug, A17) plays the very games of `owner`:
    no effect. Where a sunk ship's treasure goes (A12) changes what later pirates can take, so the
    two other readings of `sunk_treasure` are played and paired with the original."""
    spec = {"name": "readings", "seed": 5, "games": 1000,
            "robustness": {"check": "components", "games": 1000},
            "study": [{"game": "sea_of_troubles", "players": [3]}]}
    simkit.sweep(spec, out=tmp_path / "sweep", jobs=1, quiet=True)
    findings = json.loads((tmp_path / "sweep" / "summary.json").read_text())["robustness"]["findings"]
    assert findings
    for finding in findings:
        rows = {r["by"]: r for r in finding["remeasurements"]}
        assert rows["dig_pool=x"]["label"] == NO_EFFECT
        for by in ("sunk_treasure=deck", "sunk_treasure=attacker"):
            assert rows[by]["label"] != NO_EFFECT and rows[by]["games"] >= 1000
            assert "change" in rows[by]
