"""Balanced line-ups (simkit.core.seating) and tournaments (simkit.analysis.tournament): the seating design's balance, the
refusal of a line-up a cell cannot balance, and the head-to-head figures checked against
values derived by hand on the test dice game."""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter
from functools import lru_cache

import pytest
from typer.testing import CliRunner

import simkit
from simkit.analysis import tournament
from simkit.commands.cli import app
from simkit.core import seating as lineups
from simkit.core.errors import InputError
from simkit.sweeps import spec as specs
from simkit.sweeps.runner import seat_strategies

# -- the seating design ------------------------------------------------------------------------


def assert_balanced(lineup: tuple[str, ...], players: int) -> list[tuple[str, ...]]:
    """Every label in every seat equally often; every pair of line-up entries at a table equally often."""
    seatings = list(lineups.design(lineup, players)[0])
    per_seat = [Counter(seating[s] for seating in seatings) for s in range(players)]
    assert all(counts == per_seat[0] for counts in per_seat), per_seat
    # pairs of entries: a label named m times in the line-up stands for m entries
    share = Counter(lineup)
    meets = Counter()
    for seating in seatings:
        here = Counter(seating)
        for a, b in itertools.combinations(sorted(share), 2):
            meets[(a, b)] += here[a] * here[b] / (share[a] * share[b])
    assert len({round(v, 9) for v in meets.values()}) <= 1, meets
    return seatings


@pytest.mark.parametrize("lineup, players, period", [
    (("a", "b", "c", "d"), 2, 12),      # every ordered pair
    (("a", "b", "c", "d"), 3, 24),      # every 3-table in its 6 orders
    (("a", "b", "c", "d"), 4, 24),      # all 4! orders
    (("a", "b"), 3, 6),                 # tables {a,a,b} and {a,b,b}, 3 orders each
    (("a", "b", "c"), 4, 36),           # each once, plus every 1-combination: 3 tables x 12 orders
    (("p", "r", "r", "r"), 4, 4),       # one table, its 4 distinct orders = the old rotation
    (("c", "c", "r"), 2, 3),            # multiplicity: {c,c} once per {c,r} twice (cc, cr, rc)
    (("a", "b", "c", "d", "e", "f", "g", "h"), 5, 56 * 5),  # 6,720 orders > DESIGN_CAP: rotations
])
def test_design_is_balanced(lineup, players, period):
    seatings = assert_balanced(lineup, players)
    assert len(seatings) == period
    assert seatings[0] == tuple((lineup * players)[:players])  # game 0 plays the line-up as written


def test_four_strategies_at_two_seats_all_meet(dicegame):
    """The old cyclic rotation never sat lineup[0] with lineup[2] at two seats: now every pair meets."""
    rows = seat_strategies(dicegame, ("random", "careful", "bold", "lookahead"), 2, 0, 12).tolist()
    assert Counter(frozenset(r) for r in rows) == {frozenset(p): 2 for p in itertools.combinations(range(4), 2)}
    assert all(Counter(r[s] for r in rows) == dict.fromkeys(range(4), 3) for s in range(2))


def test_large_design_uses_rotations_and_keeps_every_table():
    seatings, kind = lineups.design(tuple("abcdefgh"), 5)
    assert kind == "rotations"
    assert {frozenset(s) for s in seatings} == {frozenset(c) for c in itertools.combinations("abcdefgh", 5)}


def test_seating_is_a_pure_function_of_the_game_index(dicegame):
    lineup = ("random", "careful", "bold", "lookahead")
    whole = seat_strategies(dicegame, lineup, 3, 0, 100)
    for start, n in ((0, 7), (7, 40), (47, 53)):
        assert (seat_strategies(dicegame, lineup, 3, start, n) == whole[start:start + n]).all()
    assert (whole[24:48] == whole[:24]).all()  # period 24


def test_a_cell_shorter_than_its_design_is_refused():
    with pytest.raises(InputError, match="has 24 seatings .* only 10 games"):
        specs.load(game="dicegame", players=4, strategies="random,careful,bold,lookahead", games=10)
    specs.load(game="dicegame", players=4, strategies="random,careful,bold,lookahead", games=24)


def test_the_refusal_is_one_error_line():
    result = CliRunner().invoke(app, ["sweep", "--game", "dicegame", "--players", "3", "--strategies",
                                      "random,careful,bold,lookahead", "--games", "10", "--jobs", "1"])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: line-up random,careful,bold,lookahead at 3 players")


# -- the spec and the command ------------------------------------------------------------------


def test_tournament_section_defaults_leave_out_the_slow_tier(tmp_path):
    sweep = specs.load({"name": "t", "games": 120, "tournament": {"game": "dicegame", "players": [2, 3]}})
    assert [(c.players, c.lineup) for c in sweep.cells] == [(2, ("random", "careful", "bold")),
                                                            (3, ("random", "careful", "bold"))]
    sweep = specs.load({"name": "t", "games": 120, "tournament": {"game": "dicegame", "players": 2,
                                                                   "include_random": False}})
    assert sweep.cells[0].lineup == ("careful", "bold")
    sweep = specs.load({"name": "t", "games": 120, "tournament": {"game": "dicegame", "players": 2,
                                                                   "presets": ["lookahead", "careful"]}})
    assert sweep.cells[0].lineup == ("lookahead", "careful")


@pytest.mark.parametrize("section, message", [
    ({"game": "dicegame", "pressets": ["careful"]}, "unknown tournament key 'pressets'"),
    ({"game": "dicegame", "presets": ["careful"]}, "at least two preset names"),
    ({"game": "dicegame", "presets": ["careful", "sly"]}, "unknown strategy of dicegame 'sly'"),
    ({"game": "dicegame", "include_random": "yes"}, "true or false"),
])
def test_tournament_section_is_validated(section, message):
    with pytest.raises(InputError, match=message):
        specs.load({"name": "t", "games": 120, "tournament": section})


def test_sweep_tournament_option(tmp_path):
    out = tmp_path / "t"
    result = CliRunner().invoke(app, ["sweep", "--game", "dicegame", "--tournament", "--players", "3", "--games",
                                      "100", "--jobs", "1", "--quiet", "--out", str(out)])
    assert result.exit_code == 0, result.stderr
    # 100 games are not a multiple of the 6 seatings of three presets at three seats
    assert "note: dicegame-3p-standard: 100 games are not a multiple of the line-up's 6 seatings" in result.stderr
    cell = json.loads((out / "summary.json").read_text())["cells"][0]
    assert cell["lineup"] == "random,careful,bold"
    assert cell["head_to_head"]["labels"] == ["random", "careful", "bold"]
    assert cell["seating"] == {"kind": "full", "period": 6, "full_periods": 16, "partial_games": 4}


# -- head-to-head figures against values derived by hand ---------------------------------------

TARGET = 10  # sudden death at 10 on a d6, no red bonus: the race below is solvable exactly


@lru_cache(maxsize=1)
def exact_race() -> dict[str, float]:
    """P(the seat to move first wins) in the dice race with --set target=10 red_bonus=0, variant
    sudden (the first seat to reach 10 wins at once), for each policy pairing.

    `careful` holds at a turn total of 12, which a seat below 10 never banks before reaching
    10: it rolls until it reaches the target or busts. `random` holds with probability 1/2
    after each roll that does not reach the target. W[p][x][y][t] is the chance that the seat
    to move, playing p with score x and turn total t against a seat with score y, wins;
    solved by value iteration (the round cap of 60 rounds is never reached in practice).
    """
    policies = ("careful", "random")
    W = {p: [[[0.0] * TARGET for _ in range(TARGET)] for _ in range(TARGET)] for p in policies}
    for _ in range(400):
        change = 0.0
        for p in policies:
            q = policies[1 - policies.index(p)]
            for x in range(TARGET):
                for y in range(TARGET):
                    for t in reversed(range(TARGET - x)):
                        value = (1.0 - W[q][y][x][0]) / 6.0  # a 1: the turn is lost
                        for face in range(2, 7):
                            if x + t + face >= TARGET:
                                value += 1.0 / 6.0
                            elif p == "careful":
                                value += W[p][x][y][t + face] / 6.0
                            else:
                                value += (0.5 * (1.0 - W[q][y][x + t + face][0]) + 0.5 * W[p][x][y][t + face]) / 6
                        change = max(change, abs(value - W[p][x][y][t]))
                        W[p][x][y][t] = value
        if change < 1e-13:
            break
    return {"careful first": W["careful"][0][0][0], "random first": W["random"][0][0][0]}


@pytest.fixture(scope="module")
def race(tmp_path_factory):
    """careful against random at 2 players, seats balanced (2 seatings), 20,000 games."""
    out = tmp_path_factory.mktemp("race") / "r"
    simkit.sweep(game="dicegame", players=2, variant="sudden", set=[f"target={TARGET}", "red_bonus=0"],
                 strategies="careful,random", tournament=True, games=20_000, seed=3, jobs=1, quiet=True,
                 out=out, report=False)
    return json.loads((out / "summary.json").read_text())["cells"][0]


def entry(h2h: dict, row: str, column: str) -> dict:
    return next(m for m in h2h["matrix"] if m["row"] == row and m["column"] == column)


def test_careful_beats_random_as_derived(race):
    exact = exact_race()
    # careful is seat 0 in half the games and seat 1 in the other half
    derived = (exact["careful first"] + 1.0 - exact["random first"]) / 2.0
    got = entry(race["head_to_head"], "careful", "random")
    assert got["meetings"] == 20_000
    standard_error = math.sqrt(derived * (1 - derived) / got["meetings"])
    assert abs(got["rate"] - derived) < 4 * standard_error, (got, derived)
    assert got["ci_low"] < derived < got["ci_high"]
    assert race["head_to_head"]["dominant"] == "careful"


def test_first_player_share_per_table_as_derived(race):
    exact = exact_race()
    table = race["first_player_by_table"]["by_table"]
    assert [t["table"] for t in table] == ["careful,random"]
    derived = (exact["careful first"] + exact["random first"]) / 2.0  # seat 0 holds each policy half the time
    standard_error = math.sqrt(derived * (1 - derived) / table[0]["decided"])
    assert abs(table[0]["rate"] - derived) < 4 * standard_error, (table[0], derived)
    assert table[0]["value"] == pytest.approx(table[0]["rate"] - 0.5)


@pytest.fixture(scope="module")
def rigged(tmp_path_factory):
    """careful against itself made random (careful@1) and random, at 2 and 3 players."""
    out = tmp_path_factory.mktemp("rigged") / "r"
    simkit.sweep(game="dicegame", players="2,3", strategies="careful,careful@1,random", tournament=True,
                 games=3_000, seed=5, jobs=1, quiet=True, out=out, report=False)
    return json.loads((out / "summary.json").read_text())["cells"]


def test_matrix_is_symmetric(rigged):
    for cell in rigged:
        h2h = cell["head_to_head"]
        for m in h2h["matrix"]:
            mirror = entry(h2h, m["column"], m["row"])
            assert m["meetings"] == mirror["meetings"]
            assert m["wins"] + mirror["wins"] == m["meetings"]


def test_every_pair_meets_equally_often(rigged):
    # 3,000 games are a whole number of periods (6 seatings at 2 and at 3 players)
    for cell in rigged:
        meetings = {m["meetings"] for m in cell["head_to_head"]["matrix"]}
        decided = cell["decided_games"]
        assert len(meetings) == 1 or decided < cell["games"]
        if cell["players"] == 2:
            assert meetings == {1_000}


def test_dominant_and_ranking_on_a_rigged_lineup(rigged):
    for cell in rigged:
        h2h = cell["head_to_head"]
        assert h2h["dominant"] == "careful"
        ranking = h2h["ranking"]
        assert ranking[0]["strategy"] == "careful"
        # careful@1 and random play the same uniformly random bot: their strengths cannot be told apart
        rest = {r["strategy"]: r for r in ranking[1:]}
        assert rest["careful@1"]["ci_low"] < rest["random"]["strength"] < rest["careful@1"]["ci_high"]
        assert ranking[0]["ci_low"] > max(r["ci_high"] for r in ranking[1:])


def test_no_dominant_between_equals():
    h2h = tournament.head_to_head(["a", "b", "c"], [
        {"a": "a", "b": "b", "meetings": 1000, "halves": 2 * 700}, {"a": "b", "b": "a", "meetings": 1000, "halves": 600},
        {"a": "a", "b": "c", "meetings": 1000, "halves": 2 * 500}, {"a": "c", "b": "a", "meetings": 1000, "halves": 1000},
        {"a": "b", "b": "c", "meetings": 1000, "halves": 2 * 300}, {"a": "c", "b": "b", "meetings": 1000, "halves": 1400},
    ], rank=True)
    assert h2h["dominant"] is None  # a beats b clearly but only ties c
    h2h = tournament.head_to_head(["a", "b"], [{"a": "a", "b": "b", "meetings": 1000, "halves": 2 * 540},
                                               {"a": "b", "b": "a", "meetings": 1000, "halves": 2 * 460}], rank=False)
    assert h2h["dominant"] == "a"  # 54.0%, Wilson lower bound 50.9% > 50%
    h2h = tournament.head_to_head(["a", "b"], [{"a": "a", "b": "b", "meetings": 1000, "halves": 2 * 520},
                                               {"a": "b", "b": "a", "meetings": 1000, "halves": 2 * 480}], rank=False)
    assert h2h["dominant"] is None  # 52.0% is ahead, but its lower bound 48.9% is not clear of 50%


def test_bradley_terry_recovers_known_strengths():
    strengths = {"a": 0.6, "b": 0.1, "c": -0.7}
    matrix = []
    for a, b in itertools.permutations(strengths, 2):
        p = 1.0 / (1.0 + math.exp(strengths[b] - strengths[a]))
        matrix.append({"row": a, "column": b, "meetings": 100_000, "wins": 100_000 * p})
    ranking = tournament.bradley_terry(["c", "a", "b"], matrix)
    assert [r["strategy"] for r in ranking] == ["a", "b", "c"]
    mean = sum(strengths.values()) / 3
    for r in ranking:
        assert r["strength"] == pytest.approx(strengths[r["strategy"]] - mean, abs=1e-6)
        assert r["ci_low"] < r["strength"] < r["ci_high"]


def test_dealt_colour_matrix(tmp_path):
    """A red seat starting 20 points ahead in a race to 40 finishes ahead of every other colour."""
    out = tmp_path / "c"
    simkit.sweep(game="dicegame", players=2, set=["red_bonus=20"], games=2_000, seed=2, jobs=1, quiet=True,
                 out=out, report=False)
    cell = json.loads((out / "summary.json").read_text())["cells"][0]
    colour = cell["matchups"]["colour"]
    assert colour["labels"] == ["blue", "green", "red", "yellow"]
    assert colour["dominant"] == "red"
    assert "head_to_head" not in cell  # one strategy: no tournament figures
    for m in colour["matrix"]:
        assert m["wins"] + entry(colour, m["column"], m["row"])["wins"] == m["meetings"]


def test_first_player_advantage_over_decided_games(tmp_path):
    """With games stopped by the round cap, the decided-game figure leaves them out."""
    out = tmp_path / "d"
    simkit.sweep(game="dicegame", players=2, set=["round_cap=5"], games=600, seed=2, jobs=1,
                 quiet=True, out=out, report=False)
    results = simkit.load(out)
    cell = results.summary["cells"][0]
    assert 0 < cell["complete_games"] < cell["games"]
    seat0 = sum(results.seats.filter(results.seats["seat"] == 0)["win"])
    decided = sum(results.seats["win"])
    assert cell["first_player_advantage_decided"]["value"] == pytest.approx(seat0 / decided - 0.5)
    assert cell["first_player_advantage"]["value"] == pytest.approx(seat0 / cell["games"] - 0.5)
    # the CI gate judges the same figure
    from simkit.analysis.intervals import Z95
    from simkit.sweeps.check import first_player_advantage

    gate = first_player_advantage(cell, Z95)
    fpa = cell["first_player_advantage_decided"]
    assert (gate.value, gate.low, gate.high) == pytest.approx((fpa["value"], fpa["ci_low"], fpa["ci_high"]))


def test_results_do_not_depend_on_jobs_or_chunks(tmp_path):
    runs = []
    for name, jobs, chunk in (("a", 1, 1_000), ("b", 2, 97)):
        simkit.sweep(game="dicegame", players="2,4", strategies="careful,bold,random", tournament=True, games=360,
                     seed=9, jobs=jobs, chunk=chunk, quiet=True, out=tmp_path / name, report=False)
        runs.append([{k: c.get(k) for k in ("head_to_head", "first_player_by_table", "matchups", "seating")}
                     for c in json.loads((tmp_path / name / "summary.json").read_text())["cells"]])
    assert runs[0] == runs[1]


def test_tournament_option_on_a_spec_keeps_named_lineups():
    blocks = [{"game": "dicegame", "players": 2}, {"game": "dicegame", "players": 3, "strategies": "careful,bold"}]
    sweep = specs.load({"name": "t", "games": 120, "study": blocks}, tournament=True)
    assert [c.lineup for c in sweep.cells] == [("random", "careful", "bold"), ("careful", "bold")]


def test_a_dominant_item_in_the_headline_carries_its_win_rate_finding_s_robustness_label():
    from simkit.report.tournament import headline_items

    matrix = {"dominant": "thief", "labels": ["thief", "gambler"],
              "matrix": [{"row": "thief", "column": "gambler", "rate": 0.56, "ci_low": 0.53, "ci_high": 0.59},
                         {"row": "gambler", "column": "thief", "rate": 0.44, "ci_low": 0.41, "ci_high": 0.47}]}
    cells = [{"cell": "c-3p", "game": "g", "matchups": {"power": matrix}}]
    row = {"id": "c-3p/category/power/thief", "kind": "category", "label": "reverses", "players": 3, "delta": 0.02,
           "remeasurements": [{"by": "lookahead", "label": "reverses", "figure": -0.04, "interval": [-0.06, -0.02],
                               "change": -0.1, "change_interval": [-0.12, -0.08], "games": 900}], "not_played": []}
    (game, plain), = headline_items(cells, {"c-3p": "3 players"})
    assert game == "g" and plain.startswith("**Dominant power, 3 players: thief**") and "Robustness" not in plain
    (_, labelled), = headline_items(cells, {"c-3p": "3 players"}, {"findings": [row]})
    assert labelled.startswith(plain) and "*Robustness: **reverses** — reverses at lookahead: -4.0 points" in labelled
    (_, unlabelled), = headline_items(cells, {"c-3p": "3 players"}, {"findings": []})
    assert "not re-measured (thief's win rate against the average is within its noise" in unlabelled
