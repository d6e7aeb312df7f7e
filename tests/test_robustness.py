"""The robustness phase (simkit.robustness, simkit.analysis.robustness): labels from figures, the
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
from simkit import results
from simkit.analysis import robustness as labelling
from simkit.analysis.robustness import HOLDS, REVERSES, VANISHES, WEAKER, allocate, label, overall, sign_games
from simkit.cli import app
from simkit.errors import InputError

# ---------------------------------------------------------------------------------------
# Labels, by hand


@pytest.mark.parametrize("side", [1, -1])
def test_labels_follow_their_definitions_on_either_side(side):
    """Original +5 points (+3 to +7), mirrored for side -1."""
    def at(value, low, high):
        return label(side * 0.05, side * 0.03, side * 0.07, (side * value, side * low, side * high))

    assert at(-0.04, -0.06, -0.02) == REVERSES  # clear of zero on the other side
    assert at(0.01, -0.01, 0.03) == VANISHES  # covers zero
    assert at(-0.01, -0.03, 0.001) == VANISHES  # on the other side, but covering zero
    assert at(0.02, 0.01, 0.03) == WEAKER  # clear, same side, estimate below the near end (+3)
    assert at(0.035, 0.02, 0.05) == HOLDS  # smaller, but not below the near end
    assert at(0.09, 0.08, 0.10) == HOLDS  # larger holds too


def test_a_finding_holds_only_if_it_holds_everywhere_else_takes_the_worst():
    assert overall({"tuned": HOLDS, "components=alt-a": HOLDS}) == (HOLDS, [])
    assert overall({"tuned": WEAKER, "lookahead": REVERSES, "components=alt-a": VANISHES}) == \
        (REVERSES, ["tuned", "lookahead", "components=alt-a"])
    assert overall({"tuned": HOLDS, "components=alt-a": VANISHES}) == (VANISHES, ["components=alt-a"])


def test_the_sign_telling_sample_is_two_standard_errors_of_the_effect():
    # p = 1/2, d = 5 points: (2 * 1.96)^2 / 4 / 0.0025 = 1536.64 -> 1537 decided games
    assert sign_games(0.5, 0.05) == 1537
    assert sign_games(0.5, -0.05, per_game=0.5) == 3074  # half the games decided: twice the games
    assert sign_games(0.75, 0.25) == 200  # a large effect: the floor
    # the effect is then twice its standard error at that n
    n = sign_games(0.3, 0.02)
    assert 0.02 >= 2 * 1.96 * math.sqrt(0.3 * 0.7 / n) > 0.02 * 0.999


def test_allocation_fits_the_budget_step_by_step():
    requests = [{"games": 10_000, "needed": 2_000, "rate": 1_000.0, "slow": False, "priority": 2},
                {"games": 10_000, "needed": 1_000, "rate": 10.0, "slow": True, "priority": 2},
                {"games": 10_000, "needed": 600, "rate": 10.0, "slow": True, "priority": 1},
                {"games": 10_000, "needed": 300, "rate": 100.0, "slow": False, "priority": 3, "group": 2}]
    games, how = allocate(requests, budget=400.0)  # 10 s + 100 s + 60 s + 100 s: the fast cells at their games
    assert games == [10_000, 1_000, 600, 10_000] and "original games" in how
    games, how = allocate(requests, budget=200.0)  # the fast ones drop to their sign sizes: 2 + 100 + 60 + 3
    assert games == [2_000, 1_000, 600, 300] and "sign" in how
    # the headline's cheapest first: the fast cell (2 s), the smaller lookahead (60 s), then 48 s left: 480 games
    games, how = allocate(requests, budget=110.0)
    assert games == [2_000, 480, 600, 0] and "1 got fewer" in how and "1 were not played" in how
    # 8 s left after the two cheapest: under 200 games for the dearer lookahead, not played; the other figure's 3 s fit
    games, how = allocate(requests, budget=70.0)
    assert games == [2_000, 0, 600, 300] and "1 were not played" in how
    games, how = allocate(requests, budget=1.0)  # the fast headline cell gets half its sign size, nothing else
    assert games == [1_000, 0, 0, 0]
    assert sum(n / r["rate"] for n, r in zip(games, requests)) <= 1.0


def test_every_headline_finding_gets_a_label_before_any_gets_a_second():
    # finding f1 (rank 1) is measured again by two fast cells (2 s and 3 s at their sign sizes),
    # f2 (rank 2) by one slow-ish cell: 300 games at 10 games/s, 30 s, 200 games (the floor) 20 s
    requests = [{"games": 10_000, "needed": 2_000, "rate": 1_000.0, "slow": False, "priority": 1, "group": 0,
                 "serves": {"f1": 1}},
                {"games": 10_000, "needed": 3_000, "rate": 1_000.0, "slow": False, "priority": 1, "group": 0,
                 "serves": {"f1": 1}},
                {"games": 10_000, "needed": 300, "rate": 10.0, "slow": False, "priority": 2, "group": 1,
                 "serves": {"f2": 2}}]
    # 24 s: f1's cheaper cell (2 s), then f2's with the 22 s left: 220 games; nothing for f1's second
    assert allocate(requests, budget=24.0)[0] == [2_000, 0, 220]
    # cheapest first alone would have spent 5 s on f1 twice and left f2 19 s: 190 games, under the floor
    unserved = [{k: v for k, v in r.items() if k != "serves"} for r in requests]
    assert allocate(unserved, budget=24.0)[0] == [2_000, 3_000, 0]


def _request(needed, rate, dimension, finding, rank):
    return {"games": 10_000, "needed": needed, "rate": rate, "slow": False, "priority": rank, "group": 0,
            "serves": {finding: rank}, "dimension": dimension}


def test_a_headline_finding_gets_its_other_dimension_from_half_of_what_is_left():
    # f1: sets A (1 s), B and G (2 s each) and a skilled tier K (400 games at 100 games/s, 4 s);
    # f2: sets C (1 s) and F (2,000 games at 100 games/s, 20 s). 30 s in all at the sign sizes, against 9
    requests = [_request(1_000, 1_000.0, "components", "f1", 1), _request(400, 100.0, "skill", "f1", 1),
                _request(2_000, 1_000.0, "components", "f1", 1), _request(2_000, 1_000.0, "components", "f1", 1),
                _request(1_000, 1_000.0, "components", "f2", 2), _request(2_000, 100.0, "components", "f2", 2)]
    # one each: A and C (2 s, 7 s left); f1's skilled tier from half of that, 3.5 s: 350 games; then the
    # cheapest first with the 3.5 s left: B (2 s), G with 1.5 s (1,500 games), nothing for F
    games, how = allocate(requests, budget=9.0)
    assert games == [1_000, 350, 2_000, 1_500, 1_000, 0]
    assert "other dimension" in how and "1 were not played" in how
    # without dimensions the sets come first, cheapest first, and the tier gets the 3 s left: 300 games
    plain = [{k: v for k, v in r.items() if k != "dimension"} for r in requests]
    assert allocate(plain, budget=9.0)[0] == [1_000, 300, 2_000, 2_000, 1_000, 0]


def test_the_opening_sentence_counts_labels_and_says_when_a_label_rests_on_part_of_its_checks():
    findings = [{"label": HOLDS, "depends_on": [], "not_played": [{"by": "lookahead"}]},
                {"label": REVERSES, "depends_on": ["components=alt-x"], "not_played": []},
                {"label": "not re-measured", "depends_on": [], "not_played": []}]
    text = labelling.opening(findings)
    assert text.startswith("Robustness: 1 of 2 findings re-measured are about the game")
    assert "1 on a named assumption (component set alt-x)" in text and "depend" not in text.split(";")[0]
    assert text.endswith("1 of the 2 were measured again at only some of their tiers and sets (the budget; the "
                         "Robustness section lists the rest).")


# ---------------------------------------------------------------------------------------
# The dice game: three findings derived by hand


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
    "robustness": {"check": "all", "skilled": "careful", "lookahead": False, "budget": 10},
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
    assert headline.lstrip().startswith("Robustness: ")
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
    again = results.load(swept / "robustness").games.filter(cell=f"{AHEAD}~careful").sort("game_index")["seed"]
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
    ({"check": "all", "budget": 0}, "budget is the share"),
    ({"check": "all", "lookahead": "yes"}, "lookahead must be true or false"),
])
def test_bad_robustness_settings_are_one_error(value, message):
    with pytest.raises(InputError, match=message):
        simkit.spec.load({"robustness": value, "study": [{"game": "dicegame"}]})


def test_the_cli_refuses_a_bad_robustness_value_with_one_line(tmp_path):
    result = CliRunner().invoke(app, ["sweep", "--game", "dicegame", "--robustness", "maybe", "--out",
                                      str(tmp_path / "x")])
    assert result.exit_code == 2 and result.output.count("\n") == 1 and result.output.startswith("error:")
    assert not (tmp_path / "x").exists()


def test_the_default_spec_turns_robustness_on_and_others_leave_it_off():
    assert simkit.spec.load().robustness["check"] == "all"
    assert simkit.spec.load(game="dicegame").robustness == {}
    assert simkit.spec.load(game="dicegame", robustness="skill").robustness["check"] == "skill"
    assert simkit.spec.load(robustness="off").robustness == {}


def test_an_interrupted_robustness_phase_resumes_to_the_same_labels(swept, tmp_path, monkeypatch):
    """Stopped after the first chunk of its re-measurements, the phase is finished by the sweep's
    --resume, with the labels of a straight run."""
    from simkit import runner

    folder = tmp_path / "sweep"
    real = runner._execute

    def first_chunk_then_stop(where, sweep, plan, pending, *args, **kwargs):
        if Path(where).name != "robustness":
            return real(where, sweep, plan, pending, *args, **kwargs)
        real(where, sweep, plan, pending[:1], *args, **kwargs)
        raise KeyboardInterrupt

    monkeypatch.setattr(runner, "_execute", first_chunk_then_stop)
    with pytest.raises(KeyboardInterrupt):
        simkit.sweep(SPEC, out=folder, jobs=1, quiet=True, report=False)
    assert (folder / labelling.SELECTION).exists() and not results.is_complete(folder / "robustness")
    monkeypatch.setattr(runner, "_execute", real)
    simkit.sweep(out=folder, resume=True, jobs=1, quiet=True, report=False)
    resumed = json.loads((folder / "summary.json").read_text())["robustness"]["findings"]
    straight = json.loads((swept / "summary.json").read_text())["robustness"]["findings"]
    assert [(f["id"], f["label"], [r["figure"] for r in f["remeasurements"]]) for f in resumed] == \
        [(f["id"], f["label"], [r["figure"] for r in f["remeasurements"]]) for f in straight]


def test_the_robustness_section_says_which_seat_0_figures_have_no_sign_to_re_measure():
    from simkit.report.sections import _within_noise

    def cell(name, value, low, high):
        return {"cell": name, "games": 10_000,
                "first_player_advantage": {"value": value, "ci_low": low, "ci_high": high}}

    summary = {"cells": [cell("a-2p", -0.003, -0.013, 0.007), cell("a-3p", 0.05, 0.04, 0.06)]}
    (paragraph,) = _within_noise(summary, {"a-2p": "a, 2 players"})
    assert "a, 2 players -0.3 points (-1.3 to +0.7)" in paragraph.text and "a-3p" not in paragraph.text
    assert _within_noise({"cells": [cell("a-3p", 0.05, 0.04, 0.06)]}, {}) == []


def test_the_skilled_tiers_engines_are_prepared_on_the_sweeps_cores_before_any_probe(tmp_path, monkeypatch):
    """The robustness phase's engines (a skilled tier's bots; the lookahead's entry, which the main
    phase may never have compiled) are prepared as the main phase's are, on the sweep's cores, with
    the originals the probes compare with, before the first speed probe is timed."""
    from simkit import robustness, runner

    events = []
    real_prepare, real_probe = runner._prepare_engines, robustness._probe

    def prepare(cells, jobs, *args, **kwargs):
        events.append(("prepare", sorted({c.id for c in cells}), jobs))
        return real_prepare(cells, jobs, *args, **kwargs)

    def probe(cell):
        events.append(("probe", cell.id))
        return real_probe(cell)

    monkeypatch.setattr(runner, "_prepare_engines", prepare)
    monkeypatch.setattr(robustness, "_probe", probe)
    simkit.sweep(SPEC, out=tmp_path / "sweep", jobs=1, quiet=True, report=False)
    phase = [e for e in events if e[0] == "probe" or "~" in "".join(e[1])]
    kind, prepared, jobs = phase[0]
    assert kind == "prepare" and jobs == 1
    probed = {e[1] for e in phase if e[0] == "probe"}
    assert any("~" in cell for cell in probed)  # the skilled tier was probed
    assert probed <= set(prepared)


def _phase_with_cold_lookahead(tmp_path, monkeypatch, budget: float) -> tuple[dict, list[str]]:
    """The dice game's SPEC with the lookahead tier on and its engine entry taken as not yet compiled:
    (robustness.json, the ids of the cells the phase prepared)."""
    from simkit import robustness, runner

    prepared = []
    real_prepare = runner._prepare_engines

    def prepare(cells, *args, **kwargs):
        prepared.extend(c.id for c in cells)
        return real_prepare(cells, *args, **kwargs)

    monkeypatch.setattr(runner, "_prepare_engines", prepare)
    monkeypatch.setattr(runner, "engine_prepared", lambda cell: "lookahead" not in cell.lineup)
    spec = {**SPEC, "robustness": {**SPEC["robustness"], "lookahead": True, "budget": budget}}
    folder = tmp_path / "sweep"
    simkit.sweep(spec, out=folder, jobs=1, quiet=True, report=False)
    return json.loads((folder / robustness.SELECTION).read_text()), prepared


def test_a_tier_whose_compile_cannot_fit_the_budget_is_not_compiled(tmp_path, monkeypatch):
    """The main phase plays the dice game in well under a second, so its budget (10 times that)
    cannot pay the least a compile costs (robustness.COMPILE_SECONDS): the lookahead cells are
    never handed to the engine preparation, and each is skipped with the reason, while the
    careful tier (the main phase's own entry) is re-measured as before."""
    from simkit import robustness

    selection, prepared = _phase_with_cold_lookahead(tmp_path, monkeypatch, budget=10)
    assert selection["sampling"]["budget_seconds"] * robustness.LOAD_MARGIN < robustness.COMPILE_SECONDS
    lookahead = [s for s in selection["skipped"] if s["cell"].endswith("~lookahead")]
    assert lookahead and all("is not compiled here" in s["reason"] for s in lookahead)
    assert not [cell for cell in prepared if cell.endswith("~lookahead")]
    assert any(cell.endswith("~careful") for cell in selection["sampling"]["cells"])


def test_a_tier_whose_compile_fits_the_budget_is_compiled_and_probed(tmp_path, monkeypatch):
    """The same phase when the budget pays for the compile (here: a compile taken to cost next to
    nothing): the lookahead cells are prepared, probed and played (none is skipped for its compile)."""
    from simkit import robustness

    monkeypatch.setattr(robustness, "COMPILE_SECONDS", 1e-6)
    selection, prepared = _phase_with_cold_lookahead(tmp_path, monkeypatch, budget=10)
    assert [cell for cell in prepared if cell.endswith("~lookahead")]
    assert not [s for s in selection["skipped"] if "is not compiled here" in s["reason"]]
    assert any(cell.endswith("~lookahead") for cell in selection["sampling"]["cells"])


def test_an_entry_is_marked_prepared_once_warmed_in_its_cache_folder(tmp_path, monkeypatch):
    """`_warm_game` leaves a mark in numba's cache folder, so the robustness phase knows the entry
    loads instead of compiling; the lookahead entry of a game with a lighter one is its own."""
    from numba.core import config

    from simkit import runner
    from simkit.spec import Cell

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
