"""Recorded Sea of Plunder games: a golden replay (a change alarm, not a rule's test: the narrated
log of one fixed game, regenerated after a deliberate change as tests/games/replays.py says),
and the same games without the JIT."""

from pathlib import Path

from ..replays import assert_golden, assert_same_without_jit

GOLDEN = Path(__file__).parent / "golden"

NOJIT_CASES = [("standard", 4, ["racer", "random", "collector", "raider"]), ("two_player", 2, ["random", "raider"]),
               ("random_setup+combo_port", 3, ["collector", "random", "racer"])]


def test_same_games_without_jit(tmp_path):
    """NUMBA_DISABLE_JIT=1 (plain Python) plays bit-for-bit the same games
    (docs/architecture.md, "Seeds and reproducibility")."""
    assert_same_without_jit("sea_of_plunder", NOJIT_CASES, tmp_path)


def test_golden_replay():
    assert_golden("sea_of_plunder", GOLDEN / "standard_4p_seed2024.txt", "standard", ("racer", "collector", "raider", "random"))
