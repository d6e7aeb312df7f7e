"""simkit.core.ladder: the tier cells a --tiers sweep builds, and first-player advantage by tier on
a rigged dice game where every tier's figure is derived by hand."""

from __future__ import annotations

import dataclasses
import json
import math
from fractions import Fraction

import pytest
from typer.testing import CliRunner

import simkit
from simkit import games as registry
from simkit.commands.cli import app
from simkit.core import ladder
from simkit.core.errors import InputError
from simkit.sweeps import spec


def _without_lookahead(game):
    return dataclasses.replace(game, presets=tuple(p for p in game.presets if p.name != ladder.LOOKAHEAD))


def test_tier_lineups_in_order_of_skill(dicegame):
    assert ladder.tier_lineups(dicegame) == [("random",), ("careful",), ("lookahead",)]
    assert ladder.tier_lineups(dicegame, (0.5, 0.25)) == [("random",), ("careful@0.5",), ("careful@0.25",),
                                                         ("careful",), ("lookahead",)]


def test_a_game_without_lookahead_has_two_tiers(dicegame):
    assert ladder.tier_lineups(_without_lookahead(dicegame)) == [("random",), ("careful",)]


def test_a_previous_default_is_the_rung_below_the_default(dicegame):
    """A game whose default (here `bold`, as a tuned preset would be) replaced another (`careful`)
    plays that one as its own tier, between random and the default."""
    retuned = dataclasses.replace(dicegame, default_strategy="bold", previous_default="careful")
    assert ladder.tier_lineups(retuned, (0.5,)) == [("random",), ("bold@0.5",), ("careful",), ("bold",),
                                                   ("lookahead",)]
    orders = [ladder.tier_of("bold", lineup, "careful") for lineup in ("random", "bold@0.5", "careful", "bold",
                                                                         "lookahead")]
    assert [name for _, name, _ in orders] == ["random", "heuristic@0.5", ladder.PREVIOUS, "heuristic", "lookahead"]
    assert [order for order, _, _ in orders] == sorted(order for order, _, _ in orders)
    assert ladder.tier_of("bold", "careful") is None  # without a previous default it is no tier
    assert ladder.tier_lineups(dataclasses.replace(dicegame, previous_default="careful")) == \
        ladder.tier_lineups(dicegame)  # the previous default is the default: no rung of its own


def test_a_tuned_preset_that_is_not_the_default_is_the_rung_above_it(dicegame):
    from simkit.core.game import Preset

    trained = dataclasses.replace(dicegame, presets=dicegame.presets[:-1] + (
        Preset("tuned", "careful, holding at 20", (1.0, 20.0, 0.0)), dicegame.presets[-1]))
    assert ladder.tier_lineups(trained) == [("random",), ("careful",), ("tuned",), ("lookahead",)]
    assert ladder.tier_of("careful", "tuned") == (1.5, "tuned", 0.0)
    assert ladder.tier_of("tuned", "tuned") == (1.0, "heuristic", 0.0)  # the default: its own tier


def test_an_expert_preset_is_the_top_rung_above_the_lookahead(dicegame):
    from simkit.core.game import Preset

    lookahead = dicegame.preset("lookahead")
    with_expert = dataclasses.replace(dicegame, presets=dicegame.presets + (
        Preset("expert", "the lookahead on more rollouts", lookahead.weights, lookahead.kind),))
    assert ladder.tier_lineups(with_expert) == [("random",), ("careful",), ("lookahead",), ("expert",)]
    assert ladder.tier_of("careful", "expert") == (3.0, "expert", 0.0)
    assert ladder.tier_of("careful", "expert@0.5") is None  # a noisy expert is no rung
    assert ladder.tier_of("careful", "lookahead")[0] < ladder.tier_of("careful", "expert")[0]


def test_skill_levels_parsed_and_checked():
    assert ladder.parse_skill("0,0.25,0.5") == (0.5, 0.25)  # 0 is the default tier itself
    assert ladder.parse_skill([0.5, 1]) == (1.0, 0.5)
    assert ladder.parse_skill(None) == ()
    for bad in ("2", "x", "-0.1", [True]):
        with pytest.raises(InputError, match="noise levels from 0 to 1"):
            ladder.parse_skill(bad)


def test_tiers_sweep_builds_self_play_cells_per_player_count():
    sweep = spec.load(game="dicegame", players="2,3", tiers=True, skill="0,0.5", games=100)
    got = [(c.players, c.lineup) for c in sweep.cells]
    assert got == [(p, lineup) for p in (2, 3)
                   for lineup in (("random",), ("careful@0.5",), ("careful",), ("lookahead",))]
    assert len({c.id for c in sweep.cells}) == len(sweep.cells)
    # the spec keys do the same
    keyed = spec.load({"tiers": True, "skill": [0.5], "games": 100, "study": [{"game": "dicegame", "players": [2, 3]}]})
    assert [(c.players, c.lineup) for c in keyed.cells] == got


def test_tiers_refuse_a_line_up_and_skill_needs_tiers():
    with pytest.raises(InputError, match="drop --strategies"):
        spec.load(game="dicegame", tiers=True, strategies="careful")
    with pytest.raises(InputError, match="are tiers"):
        spec.load(game="dicegame", skill="0.5")
    result = CliRunner().invoke(app, ["sweep", "--game", "dicegame", "--tiers", "--skill", "3", "--quiet"])
    assert result.exit_code == 2
    assert result.output.strip().startswith("error:") and len(result.output.strip().splitlines()) == 1


# -- a rigged sudden-death race: first-player advantage by tier derived by hand -------------
#
# A die of 2s (no busts), target 10, round cap 1, sudden end, no colour bonus, 2 players:
# a seat reaches 10 in its one turn unless it holds first. It faces 4 decisions (at 2, 4, 6
# and 8); reaching 10 takes "roll on" at all four. Seat 0 reaches it with chance p and then
# wins at once; otherwise seat 1 wins if it reaches it (chance p), else the game is capped.
# Over decided games seat 0's share is p / (p + (1 - p) p) = 1 / (2 - p):
#   random, careful@1: holds with chance 1/2 per decision, p = 1/16
#   careful@0.5: holds with chance 1/2 * 1/2 (noise, then the random choice), p = (3/4)^4
#   careful (holds at 12) and lookahead (holding loses every playout): p = 1, share 1
P_REACH = {"random": Fraction(1, 16), "heuristic@1": Fraction(1, 16), "heuristic@0.5": Fraction(3, 4) ** 4,
           "heuristic": Fraction(1), "lookahead": Fraction(1)}
GAMES = 6000


@pytest.fixture(scope="module")
def rigged(tmp_path_factory):
    folder = tmp_path_factory.mktemp("twos")
    (folder / "d6.txt").write_text("2 2 2 2 2 2\n")
    return simkit.sweep(out=tmp_path_factory.mktemp("tiers") / "out", game="dicegame", players=2, variant="sudden",
                        tiers=True, skill="1,0.5", games=GAMES, seed=7, jobs=1, quiet=True,
                        set={"components": str(folder), "target": 10, "round_cap": 1, "red_bonus": 0})


def test_first_player_advantage_by_tier_matches_the_derivation(rigged):
    (group,) = rigged.summary["tiers"]
    assert group["lookahead"] is True and group["note"] == ""
    assert [t["tier"] for t in group["tiers"]] == ["random", "heuristic@1", "heuristic@0.5", "heuristic",
                                                    "lookahead"]
    for tier in group["tiers"]:
        p = P_REACH[tier["tier"]]
        share = float(1 / (2 - p))
        decided = float(p + (1 - p) * p)
        assert tier["rounds"] == {"mean": 1.0, "ci_low": 1.0, "ci_high": 1.0}
        if p == 1:
            assert tier["decided_games"] == GAMES and tier["first_player_advantage"]["value"] == 0.5
            continue
        se_decided = math.sqrt(decided * (1 - decided) / GAMES)
        assert abs(tier["decided_games"] / GAMES - decided) <= 4 * se_decided, tier["tier"]
        fpa = tier["first_player_advantage"]
        assert fpa["ci_low"] - 0.01 <= share - 0.5 <= fpa["ci_high"] + 0.01, tier["tier"]
        se = math.sqrt(share * (1 - share) / tier["decided_games"])
        assert abs(fpa["value"] - (share - 0.5)) <= 4 * se, tier["tier"]


def test_careful_at_full_noise_plays_like_random(rigged):
    (group,) = rigged.summary["tiers"]
    by = {t["tier"]: t for t in group["tiers"]}
    pair = next(c for c in group["comparisons"] if (c["higher"], c["lower"]) == ("heuristic@1", "random"))
    # at noise 1 the preset makes random's very draws: the same seeds give the same games, and the
    # paired difference is exactly 0 (an unpaired test would have given an interval of ±4 points)
    change = pair["seat0_share"]
    assert (change["diff"], change["ci_low"], change["ci_high"]) == (0.0, 0.0, 0.0)
    assert pair["seat0_distance"]["verdict"] == pair["seat_gap"]["verdict"] == "no clear change"
    assert abs(by["heuristic@1"]["decided_games"] - by["random"]["decided_games"]) < 4 * math.sqrt(
        2 * GAMES * float(P_REACH["random"]))


def test_skill_effect_and_its_interval(rigged):
    (group,) = rigged.summary["tiers"]
    effect = group["skill_effect"]
    assert (effect["higher"], effect["lower"]) == ("lookahead", "random")
    true_diff = 1 - 16 / 31
    share = effect["seat0_share"]
    assert share["ci_low"] <= true_diff <= share["ci_high"]
    assert share["diff"] == pytest.approx(group["tiers"][-1]["seat0_share"] - group["tiers"][0]["seat0_share"])
    # by size: seat 0's distance from fair grows from 16/31 − 1/2 to 1/2, and so does the 2-seat gap
    distance = effect["seat0_distance"]
    assert distance["ci_low"] <= 1 / 2 - (16 / 31 - 1 / 2) <= distance["ci_high"]
    assert distance["verdict"] == effect["seat_gap"]["verdict"] == "grows"
    assert effect["seat_gap"]["after"] == pytest.approx(1.0)  # lookahead: seat 0 wins every game


def test_lookahead_cost_from_the_sweep_timings(rigged):
    (group,) = rigged.summary["tiers"]
    cost = group["lookahead_cost"]
    timing = rigged.manifest["cell_timing"]
    by = {t["tier"]: t for t in group["tiers"]}
    look = timing[by["lookahead"]["cell"]]
    assert look["games"] == GAMES
    assert cost["lookahead_games_per_second"] == pytest.approx(GAMES / look["seconds"])
    assert cost["slowdown"] > 1.0  # 200 playouts a decision cost more than a threshold
    assert cost["ms_per_game"] == pytest.approx(1000.0 / cost["lookahead_games_per_second"])


def test_tier_section_in_the_report(rigged):
    text = (rigged.folder / "report.md").read_text()
    assert "## Seat advantage by tier" in text
    assert ("dicegame, 2 players, sudden, lookahead against random: seat 0's distance from fair grows" in text
            and "the largest seat gap grows" in text)
    assert (rigged.folder / "plots" / "tiers_first_player_advantage.png").exists()


def test_without_lookahead_the_summary_says_two_tiers(tmp_path, monkeypatch, dicegame):
    plain = _without_lookahead(dicegame)
    get = registry.get
    monkeypatch.setattr(registry, "get", lambda game_id: plain if game_id == "dicegame" else get(game_id))
    r = simkit.sweep(out=tmp_path / "two", game="dicegame", players=2, tiers=True, games=300, jobs=1, quiet=True)
    (group,) = r.summary["tiers"]
    assert [t["tier"] for t in group["tiers"]] == ["random", "heuristic"]
    assert group["lookahead"] is False and "no 'lookahead' preset" in group["note"]
    assert group["lookahead_cost"] is None
    assert "no 'lookahead' preset: no lookahead tier" in (r.folder / "report.md").read_text()


def test_no_tiers_section_for_a_plain_sweep(tmp_path):
    r = simkit.sweep(out=tmp_path / "plain", game="dicegame", players=2, games=200, jobs=1, quiet=True)
    assert r.summary["tiers"] == []
    assert "Seat advantage by tier" not in (r.folder / "report.md").read_text()
    assert json.loads((r.folder / "manifest.json").read_text())["cell_timing"]


def test_a_tier_that_hardly_finishes_is_left_out_of_the_comparisons(rigged, monkeypatch):
    """random and heuristic@1 decide about 12% of the rigged games (720 of 6,000): with a bar of
    1,000 decided games they are not compared, and the note says so."""
    import polars as pl

    from simkit.analysis import tiers

    monkeypatch.setattr(tiers, "MIN_DECIDED", 1000)
    (group,) = tiers.summarize(pl.scan_parquet(rigged.folder / "games.parquet"),
                               pl.scan_parquet(rigged.folder / "seats.parquet"), rigged.summary["cells"],
                               rigged.summary["games"])
    compared = {c["higher"] for c in group["comparisons"]} | {c["lower"] for c in group["comparisons"]}
    assert "random" not in compared and "heuristic@1" not in compared and "lookahead" in compared
    assert "random" in group["note"] and "heuristic@1" in group["note"]


# -- the verdict reads the size, for every seat, paired on the shared seeds ----------------------


def write_tiers(folder, players: int, winners_by_tier: dict[str, list[int]]):
    """A dice-game sweep folder whose tier cells (line-ups `random` and the default `careful`)
    played game i with winner winners[i] (-1: round-capped), game i of every cell on seed i."""
    import polars as pl

    from simkit.analysis.summary import summarize

    folder.mkdir(parents=True, exist_ok=True)
    games, seats, cells = [], [], []
    for lineup, winners in winners_by_tier.items():
        cell = f"dicegame-{players}p-{lineup}"
        cells.append({"cell": cell, "game": "dicegame", "players": players, "variant": "standard", "overrides": "{}",
                      "strategies": lineup, "games": len(winners)})
        for i, winner in enumerate(winners):
            games.append({"cell": cell, "game_index": i, "seed": i, "players": players, "rounds": 5, "turns": 5,
                          "end_reason": "round_cap" if winner < 0 else "target", "winner": winner,
                          "n_winners": 0 if winner < 0 else 1})
            seats += [{"cell": cell, "game_index": i, "seat": s, "strategy": lineup, "score": int(s == winner),
                       "rank": 1 if s == winner else 2, "win": float(s == winner)} for s in range(players)]
    pl.DataFrame(games, schema_overrides={"seed": pl.UInt64}).write_parquet(folder / "games.parquet")
    pl.DataFrame(seats).write_parquet(folder / "seats.parquet")
    pl.DataFrame(cells).write_parquet(folder / "cells.parquet")
    return summarize(folder)


def test_a_first_player_disadvantage_that_deepens_grows(tmp_path):
    """Seat 0 wins 46% of random's games and 40% of careful's: the signed change reads −6 points,
    but the first player's distance from fair grows from 4 to 10 points, and the verdict says so."""
    n = 5000
    random = [0 if i % 50 < 23 else 1 for i in range(n)]
    careful = [0 if i % 50 < 20 else 1 for i in range(n)]
    (group,) = write_tiers(tmp_path / "deepens", 2, {"random": random, "careful": careful})["tiers"]
    effect = group["skill_effect"]
    assert (effect["higher"], effect["lower"]) == ("heuristic", "random")
    assert effect["seat0_share"]["diff"] == pytest.approx(-0.06) and effect["seat0_share"]["ci_high"] < 0
    distance = effect["seat0_distance"]
    assert (distance["before"], distance["after"], distance["diff"]) == pytest.approx((0.04, 0.10, 0.06))
    assert distance["verdict"] == "grows" and effect["seat_gap"]["verdict"] == "grows"
    # the two cells agree on 47 of every 50 games: pairing on the shared seeds narrows the interval
    assert effect["seat_gap"]["pairing"]["gain"] > 2


def test_a_later_seat_that_pulls_ahead_grows_the_gap_with_seat_0_fair(tmp_path):
    """3 players: seat 0 stays at a fair third in both tiers while seat 1 goes from a third to a
    half: seat 0's distance shows no change, the largest seat gap grows, and the section names seat 1."""
    n = 6000
    random = [i % 3 for i in range(n)]
    careful = [(0, 1, 1, 2, 0, 1)[i % 6] for i in range(n)]  # seats 1/3, 1/2, 1/6
    summary = write_tiers(tmp_path / "seat1", 3, {"random": random, "careful": careful})
    (group,) = summary["tiers"]
    effect = group["skill_effect"]
    assert effect["seat0_distance"]["verdict"] == "no clear change"
    assert effect["seat_gap"]["verdict"] == "grows"
    assert effect["seat_gap"]["after"] == pytest.approx(1 / 2 - 1 / 6)
    careful_tier = next(t for t in group["tiers"] if t["tier"] == "heuristic")
    assert [s["vs_fair"] for s in careful_tier["seats"]] == pytest.approx([0, 1 / 2 - 1 / 3, 1 / 6 - 1 / 3])
    from simkit.report.arcs import _finding

    sentence = _finding(group)
    assert "seat 0's distance from fair does not change clearly" in sentence
    assert "the largest seat gap grows" in sentence and "seat 1, +16.7 points" in sentence
