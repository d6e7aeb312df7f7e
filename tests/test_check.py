"""simkit.sweeps.check: the CI gate breaches only on a whole interval beyond its limit, calls a
straddle inconclusive with the games that would decide it, refuses impossible limits, and
does not cry wolf: a game that truly meets its limits fails at most 2.5% of the time."""

from __future__ import annotations

import json

import numpy as np
import pytest

from simkit.commands.cli import app
from simkit.core.errors import InputError
from simkit.sweeps import spec as specs
from simkit.sweeps.check import (
    BREACH,
    INCONCLUSIVE,
    OK,
    check,
    false_breach_rate,
    gate,
    limits,
    parse_rate,
)


def cell(wins: list[float], games: int | None = None, incomplete: int = 0, tie_share: float = 0.0, **extra) -> dict:
    """A summary cell whose seats won `wins` games (decided games = their sum)."""
    played = games if games is not None else round(sum(wins)) + incomplete
    return {"cell": extra.pop("name", f"game-{len(wins)}p"), "players": len(wins), "games": played,
            "complete_games": played - incomplete, "tie_share": tie_share,
            "seats": [{"seat": s, "wins": float(w)} for s, w in enumerate(wins)],
            "strategies": extra.pop("strategies", []), "categories": extra.pop("categories", {})}


def judged(cells: list[dict], **table) -> list[str]:
    return [v.outcome for v in gate({"cells": cells}, limits({"min_games": 1, **table})).verdicts]


# ---------------------------------------------------------------------------------------
# Limits


@pytest.mark.parametrize("text, fraction", [("3pt", 0.03), ("3%", 0.03), ("0.5pt", 0.005), (0.03, 0.03),
                                            ("0.03", 0.03), (1, 1.0), (0, 0.0)])
def test_limits_read_as_points_or_fractions(text, fraction):
    assert parse_rate(text, "max_seat_gap") == pytest.approx(fraction)


def test_a_fraction_above_one_is_refused_with_the_points_hint():
    with pytest.raises(InputError, match=r"fraction above 1.*write 3pt for 3 percentage points"):
        parse_rate(3, "max_seat_gap")
    for bad in ("-1pt", "-0.1", "abc", "150pt", True):
        with pytest.raises(InputError, match="max_seat_gap"):
            parse_rate(bad, "max_seat_gap")


def test_at_least_one_limit_is_required():
    with pytest.raises(InputError, match="no limit given"):
        limits({})
    with pytest.raises(InputError, match="no limit given"):
        limits({"min_games": 100, "strict": True})
    with pytest.raises(InputError, match="unknown check key 'max_seat_gaps'.*did you mean 'max_seat_gap'"):
        limits({"max_seat_gaps": "3pt"})
    with pytest.raises(InputError, match="min_rounds 9 is above max_rounds 5"):
        limits({"min_rounds": 9, "max_rounds": 5})


def test_too_few_games_per_cell_is_bad_input():
    fair = cell([500, 500])
    with pytest.raises(InputError, match="played 1,000 games, fewer than the 2,000"):
        gate({"cells": [fair]}, limits({"max_seat_gap": "3pt", "min_games": 2000}))
    assert gate({"cells": [fair]}, limits({"max_seat_gap": "30pt", "min_games": 1000})).code == OK


# ---------------------------------------------------------------------------------------
# Verdicts


def test_breach_only_when_the_whole_interval_is_beyond_the_limit():
    # seat 0 wins 60% of 10,000 two-player games: +10 points, interval about ±1.3 points
    lopsided = cell([6000, 4000])
    assert judged([lopsided], max_first_player_advantage="5pt") == ["breach"]
    assert judged([lopsided], max_first_player_advantage="15pt") == ["ok"]
    # the same +10 points from 200 games straddles a 5-point limit: not a breach
    assert judged([cell([120, 80])], max_first_player_advantage="5pt") == ["inconclusive"]
    # a seat-0 disadvantage as large breaches too: the size is bounded
    assert judged([cell([4000, 6000])], max_first_player_advantage="5pt") == ["breach"]


def test_inconclusive_names_the_games_that_would_decide():
    outcome = gate({"cells": [cell([540, 460])]}, limits({"max_first_player_advantage": "2pt", "min_games": 1}))
    assert outcome.code == INCONCLUSIVE
    line = outcome.lines()[0]
    assert line.startswith("inconclusive: game-2p first-player advantage +4.0 points")
    more = int(line.split("about ")[1].split(" more games")[0].replace(",", ""))
    # seat 0's +4 points is 2 points from the limit; ±2 points at z≈2.24 needs about 3,100 games in all
    assert 1500 < more < 3000
    decided = gate({"cells": [cell([round(0.54 * (1000 + more)), round(0.46 * (1000 + more))])]},
                   limits({"max_first_player_advantage": "2pt", "min_games": 1}))
    assert decided.code == BREACH


def test_strict_fails_on_an_inconclusive_check():
    straddle = {"cells": [cell([120, 80])]}
    assert gate(straddle, limits({"max_first_player_advantage": "5pt", "min_games": 1})).code == INCONCLUSIVE
    assert gate(straddle, limits({"max_first_player_advantage": "5pt", "min_games": 1, "strict": True})).code == BREACH


def test_seat_gap_incomplete_shared_and_edge_figures():
    four = cell([3000, 2500, 2500, 2000])  # gap 10 points between seats 0 and 3
    assert judged([four], max_seat_gap="5pt") == ["breach"]
    assert judged([four], max_seat_gap="15pt") == ["ok"]
    capped = cell([400, 400], incomplete=200)  # 20% capped
    assert judged([capped], max_incomplete="10pt") == ["breach"]
    assert judged([capped], max_incomplete="30pt") == ["ok"]
    # incomplete games are nobody's win, not seat 0's loss: 400 of 800 decided is fair
    assert judged([capped], max_first_player_advantage="5pt") == ["ok"]
    tied = cell([450, 450], tie_share=0.1)
    assert judged([tied], max_shared_wins="2pt") == ["breach"]
    powers = {"power": [{"value": "thief", "seats": 5000, "wins": 1000.0},
                        {"value": "gambler", "seats": 5000, "wins": 1500.0}]}
    dealt = cell([625, 625, 625, 625], categories=powers)  # average 25% per seat; gambler +5 points
    assert judged([dealt], max_edge="2pt") == ["breach"]
    assert judged([dealt], max_edge="9pt") == ["ok"]
    assert judged([cell([500, 500])], max_edge="2pt") == []  # nothing dealt or mixed: nothing to check


def test_round_bounds_use_the_mean_and_its_interval():
    rounds = {"game-2p": (12.0, 4.0, 1000)}  # mean 12, sd 4: interval about ±0.3
    fair = {"cells": [cell([500, 500])]}
    assert [v.outcome for v in gate(fair, limits({"max_rounds": 11, "min_games": 1}), rounds).verdicts] == ["breach"]
    assert [v.outcome for v in gate(fair, limits({"min_rounds": 13, "min_games": 1}), rounds).verdicts] == ["breach"]
    verdicts = gate(fair, limits({"min_rounds": 8, "max_rounds": 12.1, "min_games": 1}), rounds).verdicts
    assert [v.outcome for v in verdicts] == ["ok", "inconclusive"]


# ---------------------------------------------------------------------------------------
# The gate's statistics: it does not cry wolf, and it still catches a real breach


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("games", [1000, 4000, 16000])
def test_a_fair_game_rarely_breaches_limits_it_meets(players, games):
    """False-breach rate of a fair game (every seat 1/players), and of a game exactly at
    each limit, the hardest case the gate can face. At most 2.5% + sampling slack (600
    runs: 2.5% has a binomial standard error of 0.64%)."""
    table = {"max_seat_gap": "3pt", "max_first_player_advantage": "2pt"}
    assert false_breach_rate(players, games, table, runs=600, seed=games + players) <= 0.025
    at_gap = np.full(players, 1.0 / players)
    at_gap[0] += 0.015
    at_gap[1] -= 0.015  # seats 0 and 1 exactly 3 points apart
    assert false_breach_rate(players, games, {"max_seat_gap": "3pt"}, runs=600, seat_rates=at_gap) <= 0.035
    at_advantage = np.full(players, (1 - (1 / players + 0.02)) / (players - 1))
    at_advantage[0] = 1 / players + 0.02  # seat 0 exactly 2 points above fair
    assert false_breach_rate(players, games, {"max_first_player_advantage": "2pt"}, runs=600,
                             seat_rates=at_advantage) <= 0.035


def test_the_gate_catches_a_real_breach():
    lopsided = np.array([0.30, 0.25, 0.25, 0.20])  # a 10-point gap against a 3-point limit
    assert false_breach_rate(4, 4000, {"max_seat_gap": "3pt"}, runs=200, seat_rates=lopsided) > 0.99


# ---------------------------------------------------------------------------------------
# The command and the spec's [check] table


def write_folder(folder, cells, spec_text=""):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "summary.json").write_text(json.dumps({"cells": cells, "comparisons": []}))
    if spec_text:
        (folder / "spec.toml").write_text(spec_text)
    return folder


def test_spec_check_table_is_validated_and_carried_into_the_folder_spec(dicegame, tmp_path):
    sweep = specs.load({"study": [{"game": "dicegame"}], "check": {"max_seat_gap": "3pt", "min_games": 500}})
    assert sweep.check == {"max_seat_gap": "3pt", "min_games": 500}
    text = sweep.to_toml()
    assert '[check]\nmax_seat_gap = "3pt"\nmin_games = 500' in text
    again = tmp_path / "again.toml"
    again.write_text(text)
    assert specs.load(again).check == sweep.check
    assert specs.Sweep.from_dict(sweep.to_dict()).check == sweep.check
    with pytest.raises(InputError, match="max_seat_gap.*fraction above 1"):
        specs.load({"study": [{"game": "dicegame"}], "check": {"max_seat_gap": 3}})
    with pytest.raises(InputError, match="unknown check key 'max_gap'"):
        specs.load({"study": [{"game": "dicegame"}], "check": {"max_gap": "3pt"}})


def test_check_reads_the_spec_table_and_flags_win(tmp_path):
    folder = write_folder(tmp_path / "run", [cell([6000, 4000])], '[check]\nmax_first_player_advantage = "5pt"\n')
    assert check(folder, {}).code == BREACH
    assert check(folder, {"max_first_player_advantage": "15pt"}).code == OK
    with pytest.raises(InputError, match="no summary.json"):
        check(tmp_path, {"max_seat_gap": "3pt"})


def test_command_exit_codes(tmp_path):
    from typer.testing import CliRunner

    def run(*args):
        return CliRunner().invoke(app, ["check", *map(str, args)])

    lopsided = write_folder(tmp_path / "lopsided", [cell([6000, 4000])])
    straddle = write_folder(tmp_path / "straddle", [cell([600, 400])])
    result = run(lopsided, "--max-first-player-advantage", "5pt")
    assert result.exit_code == 1 and result.stdout.startswith("breach: game-2p first-player advantage +10.0 points")
    result = run(lopsided, "--max-first-player-advantage", "15pt")
    assert result.exit_code == 0 and result.stdout.startswith("ok: 1 of 1 checks ok over 1 cells")
    result = run(straddle, "--max-first-player-advantage", "0.08")
    assert result.exit_code == 3 and "more games would decide" in result.stdout
    assert run(straddle, "--max-first-player-advantage", "0.08", "--strict").exit_code == 1
    for args in ([], ["--max-seat-gap", "3"], ["--max-seat-gap", "3pt", "--min-games", "5000"]):
        result = run(straddle, *args)
        assert result.exit_code == 2, result.stdout
        assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1


def test_the_ci_workflow_sweeps_a_spec_gates_on_check_and_keeps_the_report():
    import shlex
    from pathlib import Path

    yaml = pytest.importorskip("yaml")
    root = Path(__file__).resolve().parent.parent
    workflow = yaml.safe_load((root / ".github/workflows/balance.yml").read_text())
    steps = workflow["jobs"]["balance"]["steps"]
    commands = [step.get("run", "") for step in steps]
    sweep = next(shlex.split(c) for c in commands if c.startswith("simkit sweep"))
    spec_path, out = root / sweep[2], sweep[sweep.index("--out") + 1]
    assert any(c.startswith("pip install") or "pip install -e ." in c for c in commands)
    gate_step = next(c for c in commands if c.startswith(f"simkit check {out}"))
    assert "--until-decided" in shlex.split(gate_step)  # the gate decides: exit 3 only with the budget spent
    assert any("report.md" in c and "GITHUB_STEP_SUMMARY" in c for c in commands)
    upload = next(step for step in steps if step.get("uses", "").startswith("actions/upload-artifact"))
    assert upload["if"] == "always()" and upload["with"]["path"].rstrip("/") == out
    # the spec it runs is valid and carries the limits the gate reads
    sweep_spec = specs.load(spec_path)
    assert limits(sweep_spec.check).rates


def test_games_to_decide_count_the_games_that_will_be_capped():
    # half the games are capped: twice as many games must be played to decide as many more
    decided_only = gate({"cells": [cell([540, 460])]}, limits({"max_first_player_advantage": "2pt", "min_games": 1}))
    half_capped = gate({"cells": [cell([540, 460], incomplete=1000)]},
                       limits({"max_first_player_advantage": "2pt", "min_games": 1}))
    more = decided_only.verdicts[0].more_games
    assert half_capped.verdicts[0].more_games == pytest.approx(2 * more, abs=2)


# ---------------------------------------------------------------------------------------
# The sequential gate (--until-decided): more games for exactly the figures that straddle a
# limit, intervals valid over every look


def test_looks_double_the_games_up_to_the_budget():
    from simkit.sweeps.sequential import looks_allowed, schedule

    assert schedule(4000, 64_000) == [4000, 8000, 16000, 32000, 64000]
    assert schedule(5000, 64_000) == [5000, 10000, 20000, 40000, 64000]
    assert schedule(70_000, 64_000) == [70_000]  # past the budget already: one look, the gate as it was
    assert looks_allowed([cell([500, 500]), cell([4000, 4000])], 64_000) == 7  # the smallest cell sets K


def test_each_look_spends_its_share_of_the_family_tail():
    """The same figure is judged with a wider interval in the sequential mode: the 2.5% is spread
    over the figures and over the K looks the cell can take (here 5: 2,000 games doubling to 32,000)."""
    from simkit.analysis.intervals import wilson
    from simkit.sweeps.check import _one_sided_z
    from simkit.sweeps.sequential import decide

    fair = cell([1000, 1000])  # ok at the first look either way: no game is played
    table = {"max_first_player_advantage": "10pt", "min_games": 1}
    once = gate({"cells": [fair]}, limits(table)).verdicts[0].figure
    sequential = decide([fair], limits({**table, "budget": 32_000}), lambda look, asked: {})
    figure = sequential.verdicts[0].figure
    assert sequential.looks == 1 and sequential.code == OK
    assert figure.high - figure.low > once.high - once.low
    assert figure.high == pytest.approx(wilson(1000, 2000, _one_sided_z(0.025 / 2 / 5))[1] - 0.5)


def test_more_games_for_exactly_the_figures_that_straddle():
    """The look plays only the cell whose figure straddles; a decided figure is not judged again;
    inconclusive (exit 3) is said only when the budget is spent."""
    from simkit.sweeps.sequential import decide

    clear = cell([5000, 5000], name="clear")  # fair and precise: ok at the first look
    close = cell([530, 470], name="close")  # +3 points over 1,000 games against 2 points: straddles
    asked = []

    def play(look, requests):
        asked.append([(c["cell"], extra) for c, extra in requests])
        # the close cell goes on at +3 points exactly: its interval will come to lie past the limit
        return {c["cell"]: (cell([0.53 * extra, 0.47 * extra], name=c["cell"]), None) for c, extra in requests}

    outcome = decide([clear, close], limits({"max_first_player_advantage": "2pt", "min_games": 1,
                                             "budget": 64_000}), play)
    assert [names for names in asked] == [[("close", 1000)], [("close", 2000)], [("close", 4000)],
                                          [("close", 8000)], [("close", 16000)], [("close", 32000)]][:len(asked)]
    assert all(name == "close" for look in asked for name, _ in look)
    assert outcome.code == BREACH and outcome.games == {"clear": 10000, "close": 2 ** len(asked) * 1000}
    verdicts = {v.figure.cell: v for v in outcome.verdicts}
    assert verdicts["clear"].outcome == "ok" and verdicts["close"].outcome == "breach"
    # the same figure, but the budget is too small to decide it: inconclusive, and the line says why
    short = decide([close], limits({"max_first_player_advantage": "2pt", "min_games": 1, "budget": 2000}), play)
    assert short.code == INCONCLUSIVE and short.games == {"close": 2000}
    assert "the budget spent" in short.lines()[0] and "raise --budget" in short.lines()[-1]


def test_a_cell_takes_no_more_looks_than_the_tail_was_split_over():
    """A mixed line-up's looks play whole seating periods (here 6), so each look adds a little
    less than it asked; the cell must still stop at the K looks of its schedule (1,000 games
    doubling to 8,000: K = 4), its last look asking for all the budget has left, or the bound
    that split the tail over K looks would not hold."""
    from simkit.sweeps.sequential import decide, looks_allowed

    period = 6
    asked = []

    def play(look, requests):
        asked.append([extra for _, extra in requests])
        out = {}
        for c, extra in requests:
            games = max(period, extra // period * period)  # as sequential.sweep_player plays a mixed line-up
            out[c["cell"]] = (cell([0.51 * games, 0.49 * games], name=c["cell"]), None)
        return out

    at_limit = cell([510, 490], name="close")  # +1 point against a 1-point limit: never decided
    table = limits({"max_first_player_advantage": "1pt", "min_games": 1, "budget": 8000})
    outcome = decide([at_limit], table, play)
    assert looks_allowed([at_limit], 8000) == 4
    assert outcome.looks == 4 and len(asked) == 3
    assert asked[-1] == [8000 - 1000 - 996 - 1992]  # the last look asks for the rest of the budget
    assert outcome.code == INCONCLUSIVE and 8000 - period < outcome.games["close"] <= 8000


def test_merged_counts_add_up():
    from simkit.sweeps.sequential import merge, merge_rounds

    first = cell([30, 20], incomplete=10, tie_share=0.1,
                 categories={"power": [{"value": "a", "seats": 60, "decided_seats": 50, "wins": 30.0}]})
    second = cell([5, 15], incomplete=0, tie_share=0.0,
                  categories={"power": [{"value": "a", "seats": 20, "decided_seats": 20, "wins": 5.0},
                                        {"value": "b", "seats": 20, "decided_seats": 20, "wins": 15.0}]})
    both = merge(first, second)
    assert (both["games"], both["complete_games"], both["tie_share"]) == (80, 70, pytest.approx(6 / 80))
    assert [s["wins"] for s in both["seats"]] == [35.0, 35.0]
    assert {r["value"]: (r["seats"], r["decided_seats"], r["wins"]) for r in both["categories"]["power"]} == {
        "a": (80, 70, 35.0), "b": (20, 20, 15.0)}
    values_a, values_b = np.array([3.0, 5.0, 7.0]), np.array([2.0, 10.0])
    merged = merge_rounds((values_a.mean(), values_a.std(ddof=1), 3), (values_b.mean(), values_b.std(ddof=1), 2))
    joined = np.concatenate([values_a, values_b])
    assert merged == pytest.approx((joined.mean(), joined.std(ddof=1), 5))


@pytest.mark.parametrize("players", [2, 4])
def test_the_sequential_gate_rarely_breaches_limits_it_meets(players):
    """Exactly at each limit, the hardest case, however many looks it takes: at most 2.5% plus
    sampling slack (600 runs: a standard error of 0.64%)."""
    from simkit.sweeps.sequential import simulated

    at_gap = np.full(players, 1.0 / players)
    at_gap[0] += 0.015
    at_gap[1] -= 0.015
    assert simulated(players, 1000, {"max_seat_gap": "3pt"}, runs=600, seat_rates=at_gap)["breach"] <= 0.035
    at_advantage = np.full(players, (1 - (1 / players + 0.02)) / (players - 1))
    at_advantage[0] = 1 / players + 0.02
    assert simulated(players, 1000, {"max_first_player_advantage": "2pt"}, runs=600,
                     seat_rates=at_advantage)["breach"] <= 0.035


@pytest.mark.parametrize("players", [2, 4])
def test_the_sequential_gate_decides_a_fair_game_and_catches_a_one_point_breach(players):
    """The limits of docs/ci.md from 4,000 games per cell with the default budget: a fair game ends ok,
    a first player 1 point over its 2-point limit is caught."""
    from simkit.sweeps.sequential import simulated

    table = {"max_seat_gap": "3pt", "max_first_player_advantage": "2pt"}
    fair = simulated(players, 4000, table, runs=200)
    assert fair["ok"] >= 0.95 and fair["breach"] == 0.0
    over = np.full(players, (1 - (1 / players + 0.03)) / (players - 1))
    over[0] = 1 / players + 0.03
    caught = simulated(players, 4000, table, runs=200, seed=2, seat_rates=over)
    assert caught["breach"] >= 0.8 and caught["mean_games"] <= caught["budget"]


def test_until_decided_plays_looks_into_the_sweep_folder(tmp_path):
    """A real sweep: the dice game's red bonus gives the red seat an edge; --until-decided plays
    fresh games for the straddling figure into DIR/sequential/look-<k>/, and a rerun reuses them."""
    import simkit
    from simkit.sweeps.sequential import check as check_until

    folder = tmp_path / "dice"
    swept = simkit.sweep(out=folder, game="dicegame", players=2, games=1000, seed=5, jobs=1, quiet=True,
                         report=False)
    # a limit at the estimate itself: its interval straddles it
    limit = f"{abs(round(100 * swept.summary['cells'][0]['first_player_advantage_decided']['value']))}pt"
    table = {"max_first_player_advantage": limit, "min_games": 1000, "until_decided": True, "budget": 8000}
    assert check(folder, {**table, "until_decided": False}).code == INCONCLUSIVE
    outcome = check_until(folder, table)
    looks = sorted(p.name for p in (folder / "sequential").iterdir())
    assert outcome.looks == len(looks) + 1 and outcome.code in (OK, BREACH, INCONCLUSIVE)
    assert max(outcome.games.values()) == 1000 * 2 ** len(looks) or max(outcome.games.values()) == 8000
    first = json.loads((folder / "sequential" / looks[0] / "manifest.json").read_text())
    assert first["root_seed"] != json.loads((folder / "manifest.json").read_text())["root_seed"]  # fresh games
    again = check_until(folder, table)
    assert again.lines() == outcome.lines()
    assert sorted(p.name for p in (folder / "sequential").iterdir()) == looks
    from typer.testing import CliRunner

    result = CliRunner().invoke(app, ["check", str(folder), "--max-first-player-advantage", limit, "--until-decided",
                                      "--budget", "8000"])
    assert result.exit_code == outcome.code and result.stdout.splitlines()[-1] == outcome.lines()[-1]


def test_a_cell_with_no_decided_game_is_said_so_not_measured_at_fair_minus_half():
    """Every game capped: the seat figures have no decided game; the gate says so and names no number
    of games (more games of the same rules decide nothing), and the capped share is still judged."""
    summary = {"cells": [cell([0.0, 0.0], games=2000, incomplete=2000)]}
    outcome = gate(summary, limits({"min_games": 1, "max_first_player_advantage": "5pt", "max_seat_gap": "5pt",
                                    "max_incomplete": "50%"}))
    lines = [v.line() for v in outcome.verdicts]
    assert [v.outcome for v in outcome.verdicts] == ["inconclusive", "inconclusive", "breach"]
    assert all(v.more_games is None for v in outcome.verdicts[:2])
    assert all("no decided game (every game hit the round cap)" in line and "-50.0" not in line
               and "more games would decide" not in line for line in lines[:2])


def test_until_decided_plays_no_game_for_a_cell_with_no_decided_game():
    """Every game capped: no number of games of these rules decides the seat figures, so the sequential
    gate plays no look for them, stops at once with the plain gate's exit code, and neither gate sends the
    user to --until-decided or --budget."""
    from simkit.sweeps.sequential import decide

    capped = cell([0.0, 0.0], games=2000, incomplete=2000)
    table = {"min_games": 1, "max_first_player_advantage": "5pt", "max_seat_gap": "5pt"}
    asked = []
    outcome = decide([capped], limits({**table, "budget": 6000}), lambda look, more: asked.append(more) or {})
    plain = gate({"cells": [capped]}, limits(table))
    assert asked == [] and outcome.looks == 1 and outcome.games == {capped["cell"]: 2000}
    assert outcome.code == plain.code == INCONCLUSIVE
    assert not any(v.budget_spent for v in outcome.verdicts)
    for lines in (outcome.lines(), plain.lines()):
        assert "no number of games would decide" in lines[-1]
        assert not any(words in line for line in lines for words in ("--budget", "--until-decided plays", "-50.0"))
