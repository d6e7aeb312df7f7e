"""simkit.search.tune: the whole-seat search (scan, refine, validate on fresh seeds) on models whose
answer is known by construction, the pairing it keeps and the pairing it cannot, and the dice
game's head start tuned against a direct sweep of the fresh seeds; bad input is one `error:`
line (docs/tuning.md)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

import simkit
from simkit import games as registry
from simkit.commands.cli import app
from simkit.core.ladder import default_panel
from simkit.core.rules import Param
from simkit.search.tune import (
    VALIDATION_GAMES,
    Evaluation,
    PanelEvaluator,
    _rollout,
    _space,
    compare,
    member_bests,
    panel_rows,
    search,
    validate,
)


def run(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


# ---------------------------------------------------------------------------------------
# Models: game i is won by the seat whose slice of [0, 1) holds u_i (the same u_i for every
# value: common random numbers, as the same seeds give), slices in proportion to strengths


class Model:
    """Evaluations of a rule value whose seats' strengths `strengths(value)` are known. The root
    seed picks the stream of u; `redraws(value)` says whether the value deals other games from
    the same seed (a change to the set-up that the shared seeds cannot pair)."""

    def __init__(self, strengths, players: int, seed: int = 12, name: str = "gap", redraws=lambda value: False):
        self.strengths, self.players, self.seed, self.name, self.redraws = strengths, players, seed, name, redraws
        self.cache: dict = {}
        self.played = 0

    def _u(self, value, games: int) -> np.ndarray:
        stream = self.seed * 1000 + (hash(json.dumps(value)) % 997 if self.redraws(value) else 0)
        return np.random.default_rng(stream).random(games)

    def one(self, value, games: int) -> Evaluation:
        value = tuple(value) if isinstance(value, list) else value
        key = json.dumps(list(value) if isinstance(value, tuple) else value)
        if key not in self.cache or self.cache[key].games < games:
            strength = np.asarray(self.strengths(value), dtype=float)
            edges = np.cumsum(strength) / strength.sum()
            winner = np.searchsorted(edges, self._u(value, games), side="right")
            wins = (winner[:, None] == np.arange(self.players)[None, :]).astype(float)
            self.cache[key] = Evaluation(value, games, "", wins, np.ones(games, dtype=np.int64))
            self.played += games
        return self.cache[key]

    def get(self, values, games: int) -> list[Evaluation]:
        return [self.one(v, games) for v in values]


def gap_at(strengths) -> float:
    shares = np.asarray(strengths, float) / sum(strengths)
    return float(shares.max() - shares.min())


def test_the_scan_finds_a_fair_value_past_a_bump_that_a_bisection_would_stop_at():
    """A non-monotone response (seat 0 +3 points at the default, +1 point at 2, then worse, then
    fair at 32): the search starting at the default and following the slope stops at 2; the
    scan finds 32."""
    def strengths(v):
        edge = 0.03 - 0.01 * v if v <= 2 else 0.01 + 0.004 * (v - 2) if v <= 12 else 0.05 - 0.0025 * (v - 12)
        return [0.5 + edge, 0.5 - edge]

    model = Model(strengths, 2)
    param = Param("bonus", "int", 0, (0, 40))
    space = _space(param, 0, 2, 1)
    found = search(model, space, 0.01, 64_000)
    assert abs(found["best"].value - 32) <= 3  # ±0.8 points of seat 0 is ±3 values at 0.25 points a value
    scanned = {row["value"] for row in found["scan"]}
    assert {0, 2, 32} <= scanned
    assert found["status"] == "settled"


def test_every_seat_is_evened_not_seat_0_alone():
    """Three seats; strengths 1.2 for seat 0, 1.0 + 0.02·x for seat 1 and 0.9 + 0.02·x for seat 2:
    every seat is fair at (0, 10, 15). The largest-gap search finds it; a search on seat 0 alone
    is content with any (x1, x2) whose sum puts seat 0 at a third, however far apart seats 1 and 2."""
    def strengths(value):
        return [1.2, 1.0 + 0.02 * value[1], 0.9 + 0.02 * value[2]]

    param = Param("bonus", "ints", (0, 0, 0), (0, 40, 3))
    space = _space(param, (0, 0, 0), 3, 1)
    found = search(Model(strengths, 3), space, 0.01, 64_000)
    value = found["best"].value
    assert value[0] == 0 and abs(value[1] - 10) <= 3 and abs(value[2] - 15) <= 3
    assert gap_at(strengths(value)) < 0.02
    seat0_only = search(Model(strengths, 3, name="seat0"), space, 0.01, 64_000)["best"].value
    assert abs(strengths(seat0_only)[0] / sum(strengths(seat0_only)) - 1 / 3) < 0.01  # seat 0 at fair...
    assert gap_at(strengths(seat0_only)) > 0.05  # ... and seats 1 and 2 far apart


def test_a_change_to_the_set_up_is_compared_unpaired_and_says_so():
    """Seat 1's value keeps the games (paired: much tighter than two independent runs); seat 0's
    own value deals other games from the same seeds: the comparison gains nothing and says so."""
    model = Model(lambda v: [1.0 + 0.01 * v[0], 1.0 + 0.01 * v[1]], 2, redraws=lambda v: v[0] != 0)
    base = model.one((0, 0), 16_000)
    seat1 = compare(base, model.one((0, 1), 16_000), "gap")
    seat0 = compare(base, model.one((1, 0), 16_000), "gap")
    assert seat1["paired"] and seat1["gain"] > 3 and seat1["correlation"] > 0.9
    assert not seat0["paired"] and abs(seat0["correlation"]) < 0.05
    # either way the interval is honest: the unpaired one is as wide as two independent runs
    assert seat0["ci_high"] - seat0["ci_low"] > 3 * (seat1["ci_high"] - seat1["ci_low"])


def test_the_answer_is_validated_on_fresh_seeds():
    """Values 20 and 21 are equally fair by construction; on the search's seeds one looks better.
    The validation plays the candidates again on another seed's games and reports those."""
    def strengths(v):
        edge = 0.0 if v in (20, 21) else 0.002 * abs(v - 20.5)
        return [0.5 + edge, 0.5 - edge]

    param = Param("bonus", "int", 0, (0, 40))
    space = _space(param, 0, 2, 1)
    found = search(Model(strengths, 2), space, 0.01, 16_000)
    fresh = Model(strengths, 2, seed=99)
    checked = validate(fresh, space, found)
    assert checked["games"] == max(found["games"], VALIDATION_GAMES) and checked["seed"] == 99
    rows = {row["value"]: row for row in checked["rows"]}
    assert found["best"].value in rows and rows[found["best"].value]["search_best"]
    assert checked["best"] is min(fresh.get(list(rows), checked["games"]), key=lambda e: e.terms("gap")[0])
    assert all(row["within_noise"] for row in rows.values() if row["value"] in (20, 21))


def test_each_value_is_on_the_default_plus_whole_steps():
    model = Model(lambda v: [0.5 + 0.0004 * (300 - v), 0.5 - 0.0004 * (300 - v)], 2)
    param = Param("bonus", "int", 7, (0, 1000))
    found = search(model, _space(param, 7, 2, 5), 0.01, 16_000)
    assert all((json.loads(key) - 7) % 5 == 0 for key in model.cache)
    assert abs(found["best"].value - 300) <= 25


def test_too_few_games_leaves_the_search_unsettled():
    model = Model(lambda v: [0.5 + 0.004 * (30 - v), 0.5 - 0.004 * (30 - v)], 2)
    found = search(model, _space(Param("bonus", "int", 0, (0, 100)), 0, 2, 1), 0.002, 2000)
    assert found["status"] == "unsettled" and found["games"] == 2000


# ---------------------------------------------------------------------------------------
# A panel of bots: the seats even under every line-up, or the answer says it depends on them


class Member(Model):
    """A Model as a panel member, with an Evaluator's bookkeeping."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.runs, self.history = 0, []


def edge_model(fair_at: float, slope: float = 0.01, seed: int = 12) -> Member:
    """2 players, seat 0 ahead by slope·(fair_at − v) of a share: fair at v = fair_at."""
    return Member(lambda v: [0.5 + slope * (fair_at - v), 0.5 - slope * (fair_at - v)], 2, seed=seed)


def panel_of(*fairs, seed: int = 12) -> PanelEvaluator:
    return PanelEvaluator({f"bot{i}": edge_model(fair, seed=seed) for i, fair in enumerate(fairs)})


def test_a_panel_value_is_judged_by_its_worst_member():
    """At v = 12 the bot fair at 10 sees a gap of 4 points and the bot fair at 20 one of 16: the
    panel's objective is 16 points, with the second member's per-game terms."""
    panel = panel_of(10, 20)
    at = panel.one(12, 20_000)
    values = [member.terms("gap")[0] for member in at.members]
    assert values == pytest.approx([0.04, 0.16], abs=0.015)
    assert at.worst() == 1 and at.terms("gap")[0] == max(values)
    assert np.array_equal(at.terms("gap")[1], at.members[1].terms("gap")[1])
    assert at.share(0)["vs_fair"] == pytest.approx(0.08, abs=0.01)  # the worst member's seats: seat 0 ahead


def test_bots_that_disagree_get_the_minimax_value_and_are_told_it_depends():
    """One bot is fair at 10, the other at 20: no value evens both. The worst case is least at 15
    (5 points of seat 0 either way, a 10-point gap under each); each bot's own best is its own
    fair value, which beats the answer under it by about 10 points: the answer depends on the bots."""
    param = Param("bonus", "int", 0, (0, 40))
    space = _space(param, 0, 2, 1)
    searched = panel_of(10, 20)
    found = search(searched, space, 0.01, 16_000)
    bests = member_bests(searched.members, space, found["best"].value, found["games"])
    assert abs(bests["bot0"] - 10) <= 2 and abs(bests["bot1"] - 20) <= 2
    fresh = panel_of(10, 20, seed=99)
    checked = validate(fresh, space, found, tuple(bests.values()), 16_000)
    assert abs(checked["best"].value - 15) <= 2
    assert {row["value"] for row in checked["rows"]} >= {bests["bot0"], bests["bot1"]}
    assert all(set(row["members"]) == {"bot0", "bot1"} for row in checked["rows"])
    rows = panel_rows(fresh, checked["best"], checked["evaluations"], ["bot0", "bot1"])
    assert [row["own_best"] for row in rows] == [bests["bot0"], bests["bot1"]]
    assert all(row["depends"] and row["answer_against_own_best"]["diff"] > 0.05 for row in rows)


def test_bots_that_agree_are_not_told_it_depends():
    """Both bots are fair at 12 (one twice as sensitive): the answer is 12 under both, and neither
    bot's own best beats it beyond the noise."""
    param = Param("bonus", "int", 0, (0, 40))
    space = _space(param, 0, 2, 1)

    def agreeing(seed):
        return PanelEvaluator({"gentle": edge_model(12, 0.01, seed), "steep": edge_model(12, 0.02, seed)})

    searched = agreeing(12)
    found = search(searched, space, 0.01, 16_000)
    fresh = agreeing(99)
    checked = validate(fresh, space, found, tuple(member_bests(searched.members, space, found["best"].value, found["games"]).values()), 16_000)
    assert abs(checked["best"].value - 12) <= 1
    rows = panel_rows(fresh, checked["best"], checked["evaluations"], ["gentle", "steep"])
    assert not any(row["depends"] for row in rows)


@pytest.mark.parametrize("game_id", ["sea_of_plunder", "sea_of_thieves", "sea_of_troubles", "set_sail",
                                     "tide_of_avaris"])
def test_the_default_panel_holds_the_default_its_predecessor_and_the_expert(game_id):
    game = registry.get(game_id)
    panel = default_panel(game)
    assert panel[0] == game.default_strategy and panel[-1] == "expert" and len(panel) == len(set(panel)) >= 3
    assert "tuned" in panel and (game.previous_default is None or game.previous_default in panel)
    assert [_rollout(game, member) for member in panel] == [False] * (len(panel) - 1) + [True]


def test_a_panel_tune_writes_each_line_up_s_answer_and_its_own_best(tmp_path):
    out = tmp_path / "panel"
    result = run("tune", "dicegame", "--param", "head_start", "--players", "2", "--variant", "sudden",
                 "--bots", "careful;bold", "--precision", "5pt", "--max-games", "2000", "--validate-games", "3000",
                 "--out", out, "--quiet")
    assert result.exit_code in (0, 3), (result.stdout, result.stderr)
    assert "under each line-up on 3,000 fresh games: careful" in result.stdout
    written = json.loads((out / "tune.json").read_text())
    assert written["lineup"] == "careful; bold" and [row["lineup"] for row in written["panel"]] == ["careful", "bold"]
    assert all(row["role"] == "search" and row["games"] == 3000 for row in written["panel"])
    worst = max(row["objective"]["value"] for row in written["panel"])
    assert written["figure"]["value"] == pytest.approx(worst)  # the answer's objective is its worst line-up's
    assert isinstance(written["depends_on_bots"], bool)
    assert "## Under each line-up of the panel" in (out / "tune.md").read_text()
    assert {p.name.split("-")[1] for p in (out / "evaluations").iterdir() if "fresh" not in p.name} == {"careful",
                                                                                                         "bold"}


# ---------------------------------------------------------------------------------------
# The dice game: the later seats' head start against seat 0 moving first


@pytest.fixture(scope="module")
def three(tmp_path_factory):
    """3 players, the first to the target wins at once: the earlier seat is favoured."""
    out = tmp_path_factory.mktemp("tune") / "three"
    return simkit.search.tune("dicegame", "head_start", players=3, variant="sudden", precision="2pt", max_games=32_000,
                       seed=5, out=out)


def test_tuned_head_start_is_as_even_as_the_best_schedule_on_fresh_seeds(three, tmp_path):
    """Must reach: the answer's largest seat gap is within the noise of the best schedule of its
    neighbourhood, swept directly on seeds the search never saw."""
    assert three.value[0] == 0 or three.value[0] == 1  # seat 0 keeps (about) the rulebook's nothing
    assert three.value[2] >= three.value[1] > 0 and three.value[3] == 0  # later seats need more; seat 3 sits out
    schedules = [[0, three.value[1] + a, three.value[2] + b, 0] for a in (-1, 0, 1) for b in (-1, 0, 1)]
    swept = simkit.sweep(game="dicegame", players=3, variant="sudden", games=16_000, seed=77, jobs=1, quiet=True,
                         report=False, out=tmp_path / "fresh", set={"head_start": schedules})
    gaps = {tuple(point["value"]): point["largest_seat_gap"] for point in swept.summary["curves"][0]["points"]}
    best = min(gaps.values(), key=lambda gap: gap["value"])
    mine = gaps[(0, three.value[1], three.value[2], 0)] if three.value[0] == 0 else None
    if mine is not None:
        half = (mine["ci_high"] - mine["ci_low"]) / 2
        assert mine["value"] - best["value"] <= 2 * half


def test_every_stage_plays_the_same_seeds_and_the_answer_fresh_ones(three):
    folder = Path(three.folder)
    evaluations = sorted(folder.glob("evaluations/*"), key=lambda p: p.name)
    search_runs = [p for p in evaluations if "fresh" not in p.name]
    fresh_runs = [p for p in evaluations if "fresh" in p.name]
    assert search_runs and fresh_runs
    first = pl.read_parquet(search_runs[0] / "games.parquet").sort("cell", "game_index")
    seeds = first.filter(pl.col("cell") == first["cell"][0])["seed"]
    for run_folder in search_runs:
        frame = pl.read_parquet(run_folder / "games.parquet").sort("cell", "game_index")
        for cell in frame["cell"].unique():
            mine = frame.filter(pl.col("cell") == cell)["seed"]
            n = min(len(mine), len(seeds))
            assert mine[:n].equals(seeds[:n])  # game i plays seed i in every evaluation of the search
    fresh = pl.read_parquet(fresh_runs[0] / "games.parquet")
    assert not set(fresh["seed"].to_list()) & set(seeds.to_list())  # the validation's games are new
    assert three.validation["games"] >= VALIDATION_GAMES
    written = json.loads((folder / "tune.json").read_text())
    assert written["value"] == list(three.value) and written["objective"] == "gap"
    assert written["figure"] == pytest.approx(three.figure)
    assert "## The answer on fresh seeds" in (folder / "tune.md").read_text()


# ---------------------------------------------------------------------------------------
# The command


def assert_bad_input(result, words: str) -> None:
    assert result.exit_code == 2, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and words in lines[0], result.stderr


@pytest.mark.parametrize("args, words", [
    (["--param", "head_strat"], "did you mean 'head_start'"),
    (["--param", "die"], "die is a choice parameter"),
    (["--param", "last_chance"], "last_chance is a bool parameter"),
    (["--param", "components"], "components is a components parameter"),
    (["--param", "head_start", "--set", "head_start=[0,1,0,0]"], "also given in --set"),
    (["--param", "head_start", "--set", "target=[20,30]"], "give target one value"),
    (["--param", "target", "--precision", "5"], "precision"),
    (["--param", "target", "--max-games", "10"], "--max-games"),
    (["--param", "target", "--players", "7"], "not 7"),
    (["--param", "target", "--strategies", "careful,nobody"], "unknown strategy"),
    (["--param", "target", "--jobs", "0"], "--jobs"),
    (["--param", "target", "--step", "0"], "--step"),
    (["--param", "target", "--objective", "gaps"], "did you mean 'gap'"),
    (["--param", "target", "--bots", "careful;bold", "--strategies", "careful"], "--bots and --strategies"),
    (["--param", "target", "--bots", "careful;;bold"], "separated by ';'"),
    (["--param", "target", "--bots", "careful;careful"], "names careful twice"),
    (["--param", "target", "--bots", "careful;nobody"], "unknown strategy"),
    (["--param", "target", "--bots", "careful;bold", "--validate-games", "5"], "--validate-games"),
])
def test_bad_input_is_one_error_line(args, words, tmp_path):
    out = tmp_path / "out"
    assert_bad_input(run("tune", "dicegame", *args, "--out", out), words)
    assert not out.exists()  # nothing played, nothing written


def test_unsettled_search_exits_3_with_the_answer_written(tmp_path):
    out = tmp_path / "few"
    result = run("tune", "dicegame", "--param", "head_start", "--players", "2", "--variant", "sudden",
                 "--max-games", "200", "--out", out, "--quiet")
    assert result.exit_code == 3, (result.stdout, result.stderr)
    assert "NOT settled within 200 games" in result.stdout
    written = json.loads((out / "tune.json").read_text())
    assert written["status"] == "unsettled" and written["exit_code"] == 3 and written["games"] == 200
    assert math.isfinite(written["figure"]["value"])
