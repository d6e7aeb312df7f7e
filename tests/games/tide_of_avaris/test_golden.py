"""Recorded Tide of Avaris games: a golden replay (a change alarm, not a rule's test), and the
same games without the JIT."""

from pathlib import Path

from ..replays import assert_golden, assert_same_without_jit

GOLDEN = Path(__file__).parent / "golden"


def test_golden_replays():
    assert_golden("tide_of_avaris", GOLDEN / "standard_4p_seed2024.txt", "standard",
                  ("burier", "hoarder", "raider", "controller"))
    assert_golden("tide_of_avaris", GOLDEN / "windward_3p_seed2024.txt", "windward", ("raider", "random", "controller"))


def test_no_jit_plays_the_same_games(tmp_path):
    cases = [("standard", 4, ["burier", "hoarder", "raider", "controller"]),
             ("alt_dice", 2, ["random", "raider"]),
             ("windward+fixed_order", 3, ["controller", "random", "hoarder"])]
    assert_same_without_jit("tide_of_avaris", cases, tmp_path)
