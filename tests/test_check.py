"""simkit.check: the CI gate breaches only on a whole interval beyond its limit, calls a
straddle inconclusive with the games that would decide it, refuses impossible limits, and
does not cry wolf: a game that truly meets its limits fails at most 2.5% of the time."""

from __future__ import annotations

import json

import numpy as np
import pytest

from simkit import spec as specs
from simkit.check import (
    BREACH,
    INCONCLUSIVE,
    OK,
    check,
    false_breach_rate,
    gate,
    limits,
    parse_rate,
)
from simkit.cli import app
from simkit.errors import InputError


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
    assert f"simkit check {out}" in commands
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
