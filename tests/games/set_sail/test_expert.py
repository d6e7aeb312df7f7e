"""The expert tier (strategies/set_sail.py `expert`): the lookahead on the tuned preset's weights.
Its first candidate is tuned's own pair, every seat of its playouts plays tuned (the deciding
seat's heuristic weights, lookahead.rollout_weights), it is deterministic, and it leaves the
game's chance stream and the other seats' streams alone. The lookahead preset still plays out
the treasure hunter it carries. (Its strength against tuned is in the game's README.)"""

from __future__ import annotations

import json

import numpy as np

from simkit.core.bots import LOOKAHEAD
from simkit.core.rng import game_seeds, seed_streams
from simkit.games.set_sail import GAME, engine
from simkit.games.set_sail import lookahead as LA
from simkit.sweeps.runner import play, seat_strategies
from strategies import set_sail as bot

from .harness import EV, PRESET_INDEX, PRESETS, Table
from .test_lookahead import Scratch
from .test_lookahead import _mid_game as lookahead_mid_game

TUNED = "tuned"
HEURISTIC = slice(1, bot.N_HEURISTIC)


def _mid_game(seed: int, first: str = "expert", players: int = 3) -> tuple[Table, int]:
    """`first` (seat 0) against tuned for a few rounds, then seat 0's turn begun, its playouts
    as its preset sets them (test_lookahead's mid-game)."""
    return lookahead_mid_game(seed, players, first=first, rivals=TUNED, rollouts=None)


def test_expert_is_listed_last_as_a_lookahead_on_the_tuned_weights():
    from typer.testing import CliRunner

    from simkit.commands.cli import app

    out = CliRunner().invoke(app, ["strategies", "set_sail", "--json"])
    assert out.exit_code == 0, out.output
    rows = json.loads(out.output)
    assert rows[-1]["name"] == "expert" and rows[-1]["kind"] == LOOKAHEAD
    assert GAME.presets[-1].name == "expert" and GAME.preset("expert").kind == LOOKAHEAD
    expert, tuned = PRESETS[PRESET_INDEX["expert"]], PRESETS[PRESET_INDEX[TUNED]]
    assert expert[bot.POLICY] == 2 and np.array_equal(expert[HEURISTIC], tuned[HEURISTIC])


def _as(t: Table, name: str) -> np.ndarray:
    """A copy of t.F with seat 0 on preset `name`."""
    F = t.F.copy()
    F[1, : PRESETS.shape[1]] = PRESETS[PRESET_INDEX[name]]
    return F


def _replayed(t: Table, scratch: Scratch, F2: np.ndarray, count: int) -> np.ndarray:
    """Each candidate's summed playout values, replayed by hand with the playout seats on F2."""
    w = t.F[1]
    values = np.zeros(count)
    T2, rng2, L = np.zeros_like(t.T), np.zeros_like(t.rng), np.zeros_like(scratch.L)
    for k in range(int(w[bot.W_ROLLOUTS])):
        for c in range(count):
            T2[:] = t.T
            seed_streams(rng2, scratch.seeds[k])
            LA.redeal(T2, rng2, L, np.int64(0))
            values[c] += LA.playout(t.P, T2, t.K, F2, rng2, scratch.buf2, scratch.log2, np.int64(0),
                                    scratch.L[LA.CAND, c], np.int64(w[bot.W_HORIZON]), w[bot.W_MARGIN])
    return values


def _seats_on(t: Table, name: str) -> np.ndarray:
    """Playout tables with every seat on preset `name` (as play_chunk loads its rollout row)."""
    F2 = np.zeros_like(t.F)
    for s in range(t.players):
        engine.load_strategy(F2, PRESETS, np.int64(PRESET_INDEX[name]), np.int64(s))
    return F2


def test_the_experts_first_candidate_is_tuneds_and_its_playouts_play_tuned():
    t, budget = _mid_game(9)
    tuned_pick = int(t.call("heuristic_moves", F=_as(t, TUNED), seat=0, budget=budget))
    scratch = Scratch(t)
    _, values = scratch.decide(t, 0, budget)
    assert scratch.L[LA.CAND, 0] == tuned_pick and len(values) >= 3
    # every playout seat carries tuned's weights, as a heuristic without noise
    tuned = PRESETS[PRESET_INDEX[TUNED]]
    for s in range(t.players):
        assert np.array_equal(scratch.F2[1 + s, HEURISTIC], tuned[HEURISTIC])
        assert scratch.F2[1 + s, bot.POLICY] == 1 and scratch.F2[1 + s, -1] == 0
    # the values are those of playouts by tuned in every seat, not by the treasure hunter
    assert np.array_equal(values, _replayed(t, scratch, _seats_on(t, TUNED), len(values)))
    assert not np.array_equal(values, _replayed(t, scratch, _seats_on(t, bot.ROLLOUT), len(values)))


def test_the_playouts_follow_the_deciding_seats_weights():
    """A heuristic weight changed in the deciding seat's row changes what its playout seats do."""
    t, budget = _mid_game(9)
    saved = t.rng.copy()
    scratch = Scratch(t)
    _, values = scratch.decide(t, 0, budget)
    t.F[1, bot.W_CANNON] = 0.0
    t.F[1, bot.W_RAID] = 6.0
    t.rng[:] = saved
    _, changed = scratch.decide(t, 0, budget)
    assert np.all(scratch.F2[1: 1 + t.players, bot.W_RAID] == 6.0)
    assert not np.array_equal(values, changed)


def test_the_lookahead_still_plays_out_the_treasure_hunter():
    t, budget = _mid_game(9, first="lookahead")
    scratch = Scratch(t)
    scratch.decide(t, 0, budget)
    assert np.array_equal(scratch.F2[1:], _seats_on(t, bot.ROLLOUT)[1:])  # row 0: the playouts' tile values


# the expert with a bar no candidate can clear (values in [0, 1] without the margin): it runs
# every playout but always plays tuned's own pair
HEURISTIC_PICK = {"sure": {"preset": "expert", "margin": 0.0, "prefer": 1.0}}


def _logged(first_seat: str, seed: int, players: int = 2):
    lineup = (first_seat,) + (TUNED,) * (players - 1)
    compiled = GAME.compile(GAME.rules.resolve("standard", {}), players)
    index = GAME.strategy_table(lineup, HEURISTIC_PICK)[1]
    strategies = np.array([[index.index(x) for x in lineup]], dtype=np.int64)
    return play(GAME, compiled, strategies, game_seeds(np.uint64(seed), 0, 1), 20_000, lineup, bots=HEURISTIC_PICK)


def _first_difference(label: str, seed: int, players: int = 2) -> tuple[int, np.ndarray]:
    """The first row where seat 0 on `label` and on tuned log differently, and the tuned log."""
    *_, mine = _logged(label, seed, players)
    *_, plain = _logged(TUNED, seed, players)
    differ = np.flatnonzero((mine[: len(plain)] != plain[: len(mine)]).any(axis=1))
    first = int(differ[0]) if len(differ) else min(len(mine), len(plain))
    if first < min(len(mine), len(plain)):
        # seat 0's own doing: a move, or a Trade card of its choice drawn from its decision stream
        assert mine[first, 1] == 0 and mine[first, 2] in (EV.MOVE, EV.GOOD), f"{label} {seed}: {mine[first]}"
    return first, plain


def test_the_game_sees_the_same_dice_until_the_expert_chooses_otherwise():
    """Seat 0 played by the expert or by tuned: the logs agree row for row until seat 0 itself
    does something else, so its playouts drew nothing from the game's chance stream nor from
    the other seats' streams. With a bar no candidate clears, it moves as tuned does, so the
    logs agree until its own decision stream (which seeded its playouts) picks a Trade card."""
    compared = 0
    for seed, players in [(0, 2), (1, 2), (2, 4), (3, 3)]:
        first, plain = _first_difference("sure", seed, players)
        compared += int((plain[:first, 2] == EV.SHIP_FIGHT).sum())
    assert compared > 10  # many dice rolls after the expert's decisions were compared
    for seed in range(4):
        _first_difference("expert", seed)


def test_it_is_deterministic():
    lineup = ("expert", TUNED, "lookahead")
    compiled = GAME.compile(GAME.rules.resolve("standard", {}), 3)
    strategies = seat_strategies(GAME, lineup, 3, 0, 12)
    runs = [play(GAME, compiled, strategies, game_seeds(np.uint64(2), 0, 12), lineup=lineup) for _ in range(2)]
    assert all(np.array_equal(a, b) for a, b in zip(runs[0][:2], runs[1][:2]))
