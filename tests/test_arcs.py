"""simkit.analysis.arcs: the score trace, margins, ranks, lead changes, P(win | leading after t) and
comebacks; on hand-built traces and on a rigged dice game whose every figure is derived
exactly by enumeration below."""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction

import numpy as np
import polars as pl
import pytest

import simkit
from simkit.analysis import arcs
from simkit.core import traces as stored
from simkit.core.errors import InputError
from simkit.core.traces import TRACE_ROUNDS, UNWRITTEN
from simkit.sweeps import runner

# -- the trace buffer and its rows ---------------------------------------------------------


def test_unwritten_rounds_are_not_stored():
    trace = stored.trace_buffer(3, 2, rounds=4)
    trace[0, 0] = [5, 3]
    trace[0, 1] = [6, 9]
    trace[2, 0] = [0, 0]  # a score of 0 is a score, not a gap
    rows = stored.trace_rows("c", 10, trace)
    assert rows.schema == pl.Schema(stored.TRACE_SCHEMA)
    assert rows.select("game_index", "round", "seat", "score").rows() == [
        (10, 1, 0, 5), (10, 1, 1, 3), (10, 2, 0, 6), (10, 2, 1, 9), (12, 1, 0, 0), (12, 1, 1, 0)]
    # each row carries its round's top score and sole leader (-1: the top is shared)
    assert rows.select("top", "leader").rows()[::2] == [(5, 0), (9, 1), (0, -1)]


def test_an_engine_that_writes_no_trace_gives_no_rows():
    assert stored.trace_rows("c", 0, stored.trace_buffer(50, 4)).height == 0


# -- figures on hand-built traces ----------------------------------------------------------


def _traces(games: dict[int, list[list[int]]]) -> pl.LazyFrame:
    """{game_index: [scores after round 1, after round 2, ...]} as the trace rows of cell 'c',
    through the buffer the engine fills (rounds a game did not play stay unwritten)."""
    players = len(games[0][0])
    buffer = stored.trace_buffer(max(games) + 1, players, rounds=max(len(r) for r in games.values()))
    for g, rounds in games.items():
        buffer[g, : len(rounds)] = rounds
    return stored.trace_rows("c", 0, buffer).lazy()


def test_lead_changes_counted_on_hand_built_traces():
    traces = _traces({
        # leaders 0, 1, (tie), 0, (tie), 2: three changes; a tied round neither ends nor starts a lead
        0: [[5, 3, 1], [5, 6, 1], [7, 7, 1], [8, 7, 1], [9, 7, 9], [10, 7, 12]],
        1: [[1, 0, 0], [2, 0, 0], [3, 0, 0]],  # one leader throughout
        2: [[1, 1, 1], [2, 1, 1]],  # a tie, then a lead: none changed hands
        3: [[0, 4, 0], [5, 4, 0], [5, 6, 0], [7, 6, 0]],  # 1, 0, 1, 0
    })
    changes = arcs.lead_changes(arcs.leaders(traces)).collect().sort("game_index")
    assert changes["lead_changes"].to_list() == [3, 0, 0, 3]


def test_lead_change_rate_is_ludiis_set_of_leaders_per_round():
    """Ludii's LeadChange by round: the set of leaders, ties included, against the set after the
    round before (every seat before round 1), per traced round."""
    traces = _traces({
        0: [[5, 3, 1], [5, 6, 1], [7, 7, 1], [8, 7, 1], [9, 7, 9], [10, 7, 12]],  # {0} {1} {0,1} {0} {0,2} {2}
        1: [[1, 0, 0], [2, 0, 0], [3, 0, 0]],  # {0} from round 1 on: one change, out of the opening tie
        2: [[1, 1, 1], [2, 1, 1]],  # still everyone after round 1, then {0}
        3: [[0, 4, 0], [5, 4, 0], [5, 6, 0], [7, 6, 0]],  # {1} {0} {1} {0}
    })
    rates = arcs.lead_change_rates(traces).collect().sort("game_index")
    assert rates["changes"].to_list() == [6, 1, 1, 4]
    assert rates["rate"].to_list() == [1.0, 1 / 3, 1 / 2, 1.0]


def test_lead_change_rate_does_not_grow_with_the_games_length():
    """Two games whose lead swaps every round: simkit's count grows with the game, the rate does not."""
    swapping = {length: [[r % 2, 1 - r % 2] for r in range(length)] for length in (4, 12)}
    traces = _traces({0: swapping[4], 1: swapping[12]})
    counts = arcs.lead_changes(arcs.leaders(traces)).collect().sort("game_index")["lead_changes"].to_list()
    rates = arcs.lead_change_rates(traces).collect().sort("game_index")["rate"].to_list()
    assert counts == [3, 11] and rates == [1.0, 1.0]


def test_leader_is_the_sole_highest_score():
    leaders = arcs.leaders(_traces({0: [[3, 3, 1], [4, 3, 1]]})).collect().sort("round")
    assert leaders["leader"].to_list() == [None, 0]
    assert leaders["top"].to_list() == [3, 4]


def _tables(rows: list[tuple]) -> tuple[pl.LazyFrame, pl.LazyFrame]:
    """games and seats of cell 'c' from (game_index, rounds, end_reason, [score by seat], [win by seat])."""
    games = pl.DataFrame([("c", g, rounds, end, int(np.argmax(win)) if sum(w > 0 for w in win) == 1 else -1,
                           sum(w > 0 for w in win)) for g, rounds, end, _, win in rows],
                         schema={"cell": pl.Utf8, "game_index": pl.Int64, "rounds": pl.Int64, "end_reason": pl.Utf8,
                                 "winner": pl.Int64, "n_winners": pl.Int64}, orient="row")
    seats = pl.DataFrame([("c", g, s, score[s], 1 + sum(x > score[s] for x in score), float(win[s]))
                          for g, _, _, score, win in rows for s in range(len(score))],
                         schema={"cell": pl.Utf8, "game_index": pl.Int64, "seat": pl.Int64, "score": pl.Int64,
                                 "rank": pl.Int64, "win": pl.Float64}, orient="row")
    return games.lazy(), seats.lazy()


def test_win_when_leading_comebacks_and_margins_on_hand_built_games():
    traces = _traces({
        0: [[5, 1], [6, 8], [6, 12]],  # seat 0 led after 1, seat 1 won from behind at the midpoint (round 1)
        1: [[5, 1], [9, 2]],  # seat 0 led throughout and won
        2: [[2, 2], [4, 3]],  # tied after 1; round-capped: not decided
        3: [[4, 1], [7, 7]],  # shared win
    })
    games, seats = _tables([
        (0, 3, "target", [6, 12], [0, 1]),
        (1, 2, "target", [9, 2], [1, 0]),
        (2, 2, "round_cap", [4, 3], [0, 0]),
        (3, 2, "target", [7, 7], [0.5, 0.5]),
    ])
    lead = arcs.leaders(traces)
    by_round = {r["round"]: (r["games"], r["wins"]) for r in arcs.win_when_leading(lead, games, seats).iter_rows(
        named=True)}
    # after round 1: games 0, 1 and 3 had a sole leader (seat 0) and were decided; it won 0 + 1 + 1/2
    assert by_round[1] == (3, 1.5)
    # after round 2: game 0 (seat 1 led, won) and game 1 (seat 0, won); game 3 tied
    assert by_round[2] == (2, 2.0)
    assert by_round[3] == (1, 1.0)
    # at least 1 round left after t: the last round of each game (its leader has won) is left out
    ahead = {r["round"]: (r["games"], r["wins"]) for r in arcs.win_when_leading_ahead(
        lead, games, seats, rounds_left=1).iter_rows(named=True)}
    assert ahead == {1: (3, 1.5), 2: (1, 1.0)}  # game 1's round 2 is its last: gone
    back = arcs.comebacks(traces, games).row(0, named=True)
    assert (back["games"], back["comebacks"]) == (2, 1)  # game 3 has no single winner, game 2 no winner
    # drama: the winner's deficit behind the top score after each round, over the winning score
    dramas = {r["game_index"]: r for r in arcs.drama(traces, seats).collect().iter_rows(named=True)}
    assert set(dramas) == {0, 1, 3}  # the capped game 2 has no winner
    assert (dramas[0]["drama"], dramas[0]["trailing_rounds"], dramas[0]["trailing_deficit"]) == pytest.approx(
        (4 / (3 * 12), 1, 4 / 12))  # seat 1 was 4 behind after round 1 of 3, and won with 12
    assert (dramas[1]["drama"], dramas[1]["trailing_rounds"], dramas[1]["trailing_deficit"]) == (0.0, 0, None)
    # a shared win: the winners' mean score (2.5 after round 1) against the top (4), over the winning 7
    assert (dramas[3]["drama"], dramas[3]["trailing_deficit"]) == pytest.approx((1.5 / 7 / 2, 1.5 / 7))
    margins = arcs.margins(games, seats).select("margin", "games").rows()
    assert margins == [(0, 1), (6, 1), (7, 1)]  # the capped game has no margin



def test_margins_read_in_folder_order_equal_the_group_by_and_any_order_falls_back_to_it():
    """arcs.margins reads each game's run of seat rows (the folder's cell and game order); three
    and four seats, a shared top (margin 0), a top shared by two of three (margin 0, not the
    third's gap), two cells, a capped game left out. Shuffled rows take the group-by, same answer."""
    a_games, a_seats = _tables([
        (0, 3, "target", [6, 12, 1], [0, 1, 0]),
        (1, 2, "target", [9, 9, 4], [0.5, 0.5, 0]),
        (2, 2, "round_cap", [4, 3, 0], [0, 0, 0]),
        (3, 2, "target", [7, 2, 5, 3], [1, 0, 0, 0]),
    ])
    b_games, b_seats = _tables([(0, 3, "target", [3, 10], [0, 1]), (1, 3, "target", [8, 8], [0.5, 0.5])])
    games = pl.concat([a_games, b_games.with_columns(pl.lit("d").alias("cell"))])
    seats = pl.concat([a_seats, b_seats.with_columns(pl.lit("d").alias("cell"))])
    want = [("c", 0, 1), ("c", 2, 1), ("c", 6, 1), ("d", 0, 1), ("d", 7, 1)]
    assert arcs.margins(games, seats).rows() == want
    assert arcs._margins_grouped(games, seats).rows() == want
    shuffled = seats.collect().sample(fraction=1.0, shuffle=True, seed=5).lazy()
    assert arcs.margins(games, shuffled).rows() == want


# -- the rigged dice game: every figure derived exactly -------------------------------------

TARGET = 10


@pytest.fixture(scope="module")
def twos(tmp_path_factory):
    """A component folder whose die shows 2 on every face: no busts, turn totals 2, 4, 6, ..."""
    folder = tmp_path_factory.mktemp("twos")
    (folder / "d6.txt").write_text("2 2 2 2 2 2\n")
    return str(folder)


def _turn(score: int) -> dict[int, Fraction]:
    """The random preset's banked points from `score`: after each roll of 2 it holds with
    chance 1/2, and it must stop once its score would reach the target."""
    last = math.ceil((TARGET - score) / 2)
    out = {2 * k: Fraction(1, 2 ** k) for k in range(1, last)}
    out[2 * last] = Fraction(1, 2 ** (last - 1))
    return out


def _enumerate():
    """Every two-seat game of random bots with target 10, a round cap of 2 and the round
    played out: (probability, [scores after round 1, (after round 2)], decided)."""
    for a1, pa in _turn(0).items():
        for b1, pb in _turn(0).items():
            if max(a1, b1) >= TARGET:
                yield pa * pb, [(a1, b1)], True
                continue
            for a2, qa in _turn(a1).items():
                for b2, qb in _turn(b1).items():
                    final = (a1 + a2, b1 + b2)
                    yield pa * pb * qa * qb, [(a1, b1), final], max(final) >= TARGET


def _sole(scores):
    return None if scores[0] == scores[1] else int(scores[1] > scores[0])


def _win(final, seat):
    return Fraction(1, 2) if final[0] == final[1] else Fraction(int(_sole(final) == seat))


def exact() -> dict[str, Fraction]:
    games = list(_enumerate())
    assert sum(p for p, _, _ in games) == 1
    led = [(p, _win(arc[-1], _sole(arc[0]))) for p, arc, decided in games if decided and _sole(arc[0]) is not None]
    won = [(p, arc) for p, arc, decided in games if decided and len(arc) == 2 and _sole(arc[1]) is not None]
    decided = [(p, arc) for p, arc, d in games if d]
    def rate(arc):  # Ludii's LeadChange by round, every seat leading before round 1
        sets = [{0, 1}] + [{s for s in (0, 1) if scores[s] == max(scores)} for scores in arc]
        return Fraction(sum(a != b for a, b in itertools.pairwise(sets)), len(arc))

    def drama(arc):  # the winners' mean deficit behind the top, over the winning score, per round
        final = arc[-1]
        winners = [s for s in (0, 1) if final[s] == max(final)]
        return sum(max(scores) - Fraction(sum(scores[s] for s in winners), len(winners))
                   for scores in arc) / (max(max(final), 1) * len(arc))

    return {
        "lead_change_rate": sum(p * rate(arc) for p, arc, _ in games),
        "drama": sum(p * drama(arc) for p, arc in decided) / sum(p for p, _ in decided),
        "led_after_1": sum(p for p, _ in led),
        "win_when_leading_1": sum(p * w for p, w in led) / sum(p for p, _ in led),
        "lead_changes": sum(p for p, arc, _ in games if len(arc) == 2 and None not in (_sole(arc[0]), _sole(arc[1]))
                            and _sole(arc[0]) != _sole(arc[1])),
        "comeback": sum(p for p, arc in won if arc[0][_sole(arc[1])] < max(arc[0])) / sum(p for p, _ in won),
        "margin": sum(p * abs(arc[-1][0] - arc[-1][1]) for p, arc in decided) / sum(p for p, _ in decided),
    }


GAMES = 20_000


@pytest.fixture(scope="module")
def rigged(tmp_path_factory, twos):
    return simkit.sweep(out=tmp_path_factory.mktemp("rigged") / "out", game="dicegame", players=2,
                        strategies="random", games=GAMES, seed=3, jobs=1, quiet=True, report=False, arcs=True,
                        set={"components": twos, "target": TARGET, "round_cap": 2, "red_bonus": 0})


def _close(observed: float, expected: float, se: float) -> bool:
    return abs(observed - expected) <= 4 * se


def test_rigged_game_arcs_match_the_enumeration(rigged):
    want = {k: float(v) for k, v in exact().items()}
    cell = rigged.summary["cells"][0]
    arc = cell["arcs"]
    assert arc["traced_games"] == GAMES and arc["trace_rounds"] == TRACE_ROUNDS
    first = arc["win_when_leading"][0]
    assert first["round"] == 1
    p = want["win_when_leading_1"]  # 23/27: the leader after round 1 can still be caught in round 2
    assert _close(first["rate"], p, math.sqrt(p * (1 - p) / first["games"]))
    q = want["led_after_1"]
    assert _close(first["games"] / GAMES, q, math.sqrt(q * (1 - q) / GAMES))
    # the sole leader after the last round of a decided game is its winner
    assert [r["rate"] for r in arc["win_when_leading"][1:]] == [1.0]
    lead = arc["lead_changes"]
    m = want["lead_changes"]
    assert _close(lead["mean"], m, math.sqrt(m * (1 - m) / GAMES))
    assert {r["lead_changes"] for r in lead["distribution"]} == {0, 1}
    back = arc["comeback"]
    c = want["comeback"]
    assert _close(back["share"], c, math.sqrt(c * (1 - c) / back["games"]))
    assert back["ci_low"] <= back["share"] <= back["ci_high"]
    # the standard metrics: each mean's interval is about ±2 standard errors, so ±4 half widths suffice
    for name in ("lead_change_rate", "drama"):
        figure = arc[name]
        assert figure["games"] == (GAMES if name == "lead_change_rate" else cell["decided_games"])
        assert abs(figure["mean"] - want[name]) <= 2 * (figure["ci_high"] - figure["ci_low"]), name
    # with a round cap of 2, no decided game has a round after round 1 with a round still to come
    assert arc["win_when_leading_ahead"]["rounds"] == [] and arc["win_when_leading_ahead"]["rounds_left"] == 3


def test_rigged_game_margins_and_score_arcs(rigged):
    want = float(exact()["margin"])
    cell = rigged.summary["cells"][0]
    margin = cell["margin"]
    assert margin["ci_low"] - 0.1 <= want <= margin["ci_high"] + 0.1
    assert all(r["margin"] % 2 == 0 for r in margin["distribution"])  # scores move in 2s
    assert margin["games"] == cell["decided_games"]
    # mean score after round 1 is the random preset's mean turn, 2 + 4/2 + ... exactly
    first_turn = float(sum(points * p for points, p in _turn(0).items()))
    by_round = {(r["round"], r["seat"]): r for r in cell["arcs"]["score_by_round"]}
    for seat in (0, 1):
        assert by_round[(1, seat)]["games"] == GAMES
        assert abs(by_round[(1, seat)]["mean_score"] - first_turn) < 0.1
    ranks = {r["seat"]: {x["rank"]: x["share"] for x in r["shares"]} for r in cell["ranks"]}
    assert all(abs(sum(shares.values()) - 1.0) < 1e-12 for shares in ranks.values())


def test_traces_table_matches_the_final_scores(rigged):
    """The last traced round of every game holds its final scores (the engine traces each round)."""
    last = rigged.traces.group_by("game_index", "seat").agg(pl.col("score").sort_by("round").last())
    final = rigged.seats.select("game_index", "seat", "score")
    assert last.join(final, on=["game_index", "seat"]).filter(pl.col("score") != pl.col("score_right")).height == 0
    rounds = rigged.traces.group_by("game_index").agg(pl.col("round").max()).join(
        rigged.games.select("game_index", "rounds"), on="game_index")
    assert (rounds["round"] == rounds["rounds"]).all()


# -- sweeps with and without arcs ---------------------------------------------------------


def test_without_arcs_nothing_is_traced(tmp_path, monkeypatch):
    seen = []
    play = runner.play

    def spy(*args, **kwargs):
        seen.append(kwargs.get("trace"))
        return play(*args, **kwargs)

    monkeypatch.setattr(runner, "play", spy)
    r = simkit.sweep(out=tmp_path / "off", game="dicegame", players=2, games=300, jobs=1, quiet=True, report=False)
    assert seen and all(t is None for t in seen)  # the engine gets n_traced = 0
    assert r.traces is None
    assert "arcs" not in r.summary["cells"][0]
    assert "margin" in r.summary["cells"][0]  # from seats.parquet, with or without arcs


def test_arcs_leave_every_result_unchanged(tmp_path):
    a = simkit.sweep(out=tmp_path / "a", game="dicegame", players="2,3", games=500, jobs=1, quiet=True, report=False)
    b = simkit.sweep(out=tmp_path / "b", game="dicegame", players="2,3", games=500, jobs=1, quiet=True, report=False,
                     arcs=True, chunk=170)
    assert a.games.equals(b.games) and a.seats.equals(b.seats)
    assert b.traces.height > 0
    assert json.loads((b.folder / "manifest.json").read_text())["spec"]["arcs"] is True
    assert "arcs = true" in (b.folder / "spec.toml").read_text()


def test_a_game_without_a_trace_has_no_arcs(tmp_path):
    r = simkit.sweep(out=tmp_path / "x", game="dicegame", players=2, games=200, jobs=1, quiet=True, report=False,
                     arcs=True)
    # as an engine that never writes its trace leaves it: no rows
    pl.DataFrame(schema=stored.TRACE_SCHEMA).write_parquet(r.folder / "traces.parquet")
    from simkit.sweeps.finish import rebuild_report
    from simkit.sweeps.results import table_record

    manifest = json.loads((r.folder / "manifest.json").read_text())  # the table recorded as the sweep's own
    manifest["tables"]["traces.parquet"] = table_record(r.folder / "traces.parquet")
    (r.folder / "manifest.json").write_text(json.dumps(manifest))

    rebuild_report(r.folder)
    cell = json.loads((r.folder / "summary.json").read_text())["cells"][0]
    assert cell["arcs"] == {"trace_rounds": TRACE_ROUNDS, "traced_games": 0}
    assert "No arcs for dicegame" in (r.folder / "report.md").read_text()


def test_arcs_section_and_plots_in_the_report(tmp_path):
    r = simkit.sweep(out=tmp_path / "rep", game="dicegame", players=2, games=400, jobs=1, quiet=True, arcs=True)
    text = (r.folder / "report.md").read_text()
    assert "## Game arcs" in text and "## Winning margins and shared wins" in text
    assert (r.folder / "plots" / "arcs-dicegame-2p-standard.png").exists()


def test_arcs_key_must_be_a_boolean():
    from simkit.sweeps import spec

    with pytest.raises(InputError, match="arcs .* must be true or false"):
        spec.load({"arcs": "yes", "study": [{"game": "dicegame"}]})
    assert UNWRITTEN < -(2 ** 62)  # the sentinel is no score an engine writes


def test_an_interrupted_sweep_with_arcs_resumes_to_the_same_traces(tmp_path, monkeypatch):
    options = {"game": "dicegame", "players": "2,3", "games": 900, "quiet": True, "report": False, "arcs": True}
    straight = simkit.sweep(out=tmp_path / "straight", jobs=1, **options)
    real, calls = runner.run_chunk, []

    class Stop(Exception):
        pass

    def flaky(*args):
        if len(calls) == 3:
            raise Stop
        calls.append(args)
        return real(*args)

    monkeypatch.setattr(runner, "run_chunk", flaky)
    with pytest.raises(Stop):
        simkit.sweep(out=tmp_path / "cut", jobs=1, chunk=300, **options)
    monkeypatch.setattr(runner, "run_chunk", real)
    assert len(list((tmp_path / "cut" / "parts").glob("traces-*"))) == 3
    done = simkit.sweep(out=tmp_path / "cut", resume=True, quiet=True, report=False, jobs=1)
    assert done.traces.equals(straight.traces)
    assert [c["arcs"] for c in done.summary["cells"]] == [c["arcs"] for c in straight.summary["cells"]]


def test_a_precision_stop_keeps_the_traces_of_kept_games_only(tmp_path):
    r = simkit.sweep(out=tmp_path / "p", game="dicegame", players=2, games=20_000, precision=0.05, jobs=1,
                     chunk=700, quiet=True, report=False, arcs=True)
    kept = r.games.height
    assert kept < 20_000
    assert r.traces["game_index"].max() == kept - 1
    assert r.summary["cells"][0]["arcs"]["traced_games"] == kept


def test_cli_arcs_flag(tmp_path):
    from typer.testing import CliRunner

    from simkit.commands.cli import app

    out = tmp_path / "cli"
    result = CliRunner().invoke(app, ["sweep", "--game", "dicegame", "--players", "2", "--games", "150", "--arcs",
                                      "--jobs", "1", "--quiet", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert (out / "traces.parquet").exists()


def test_traces_do_not_depend_on_jobs_or_chunks(tmp_path):
    options = {"game": "dicegame", "players": 3, "games": 1200, "quiet": True, "report": False, "arcs": True}
    one = simkit.sweep(out=tmp_path / "one", jobs=1, **options)
    two = simkit.sweep(out=tmp_path / "two", jobs=2, chunk=250, **options)
    assert one.traces.equals(two.traces)
    assert [c["arcs"] for c in one.summary["cells"]] == [c["arcs"] for c in two.summary["cells"]]
