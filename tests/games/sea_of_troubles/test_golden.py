"""Recorded Sea of Troubles games: a golden replay, and the same games without the JIT."""

from pathlib import Path

from ..replays import assert_golden, assert_same_without_jit

GOLDEN = Path(__file__).parent / "golden"


def test_golden_replays():
    assert_golden("sea_of_troubles", GOLDEN / "standard_4p_seed2024.txt", "standard",
                  ("pillager", "duellist", "hoarder", "quester"))
    assert_golden("sea_of_troubles", GOLDEN / "skirmish_quirks_3p_seed2024.txt", "skirmish+quirks",
                  ("duellist", "random", "hoarder"))


def test_no_jit_plays_the_same_games(tmp_path):
    cases = [("standard", 4, ["pillager", "duellist", "hoarder", "quester"]),
             ("quirks+bidding_start", 2, ["random", "quester"]),
             ("skirmish+quirks", 3, ["duellist", "random", "hoarder"])]
    assert_same_without_jit("sea_of_troubles", cases, tmp_path)
