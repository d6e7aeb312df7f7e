"""Recorded Sea of Thieves games: a golden replay (a change alarm, not a rule's test), and the
same games played without the JIT."""

from pathlib import Path

from ..replays import assert_golden, assert_same_without_jit

GOLDEN = Path(__file__).parent / "golden"


def test_golden_replay():
    assert_golden("sea_of_thieves", GOLDEN / "standard_4p_seed2024.txt", "standard",
                  ("merchant", "hunter", "legend_chaser", "random"))


def test_no_jit_plays_the_same_games(tmp_path):
    cases = [("standard", 4, ["merchant", "hunter", "legend_chaser", "random"]),
             ("standard", 2, ["random", "hunter"])]
    assert_same_without_jit("sea_of_thieves", cases, tmp_path)
