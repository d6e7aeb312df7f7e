"""simkit.core.rng: deterministic, uniform, independent streams, identical with and without JIT."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
from scipy import stats

from simkit.core.jit import jit
from simkit.core.rng import derive, game_seeds, next_u64, randint, seed_streams, shuffle


@jit
def draws(seed, streams, n, faces):
    """n dice from each of `streams` streams of one game seed."""
    rng = np.zeros((streams, 4), dtype=np.uint64)
    seed_streams(rng, seed)
    out = np.zeros((streams, n), dtype=np.int64)
    for r in range(streams):
        for i in range(n):
            out[r, i] = randint(rng, r, faces)
    return out


def test_same_seed_same_numbers():
    a = draws(np.uint64(123), 3, 1000, np.int64(6))
    assert np.array_equal(a, draws(np.uint64(123), 3, 1000, np.int64(6)))
    assert not np.array_equal(a, draws(np.uint64(124), 3, 1000, np.int64(6)))


def test_randint_is_uniform():
    """Chi-square goodness of fit on 60,000 draws of randint(6)."""
    values = draws(np.uint64(2024), 1, 60_000, np.int64(6))[0]
    assert values.min() == 0 and values.max() == 5
    counts = np.bincount(values, minlength=6)
    assert stats.chisquare(counts).pvalue > 0.001


def test_streams_are_independent():
    a, b = draws(np.uint64(7), 2, 60_000, np.int64(6))
    assert not np.array_equal(a[:100], b[:100])
    table = np.zeros((6, 6), dtype=np.int64)
    np.add.at(table, (a, b), 1)
    assert stats.chi2_contingency(table).pvalue > 0.001
    # drawing more from one stream does not move another
    more = draws(np.uint64(7), 2, 90_000, np.int64(6))
    assert np.array_equal(more[1][:60_000], b)


def test_game_seeds():
    whole = game_seeds(np.uint64(9), 0, 100)
    assert whole.dtype == np.uint64 and len(set(whole.tolist())) == 100
    assert np.array_equal(np.concatenate([game_seeds(np.uint64(9), 0, 37), game_seeds(np.uint64(9), 37, 100)]), whole)
    assert whole[5] == derive(np.uint64(9), np.uint64(5))
    assert not np.array_equal(game_seeds(np.uint64(10), 0, 100), whole)


def test_shuffle_is_a_permutation():
    rng = np.zeros((1, 4), dtype=np.uint64)
    seed_streams(rng, np.uint64(3))
    a = np.arange(10, dtype=np.int64)
    shuffle(rng, 0, a, 10)
    assert sorted(a.tolist()) == list(range(10)) and a.tolist() != list(range(10))
    next_u64(rng, 0)


def numbers_and_games() -> list:
    """Dice from three streams, and 200 dice-game games with their event log, as plain lists."""
    from simkit.sweeps.runner import play, seat_strategies
    from tests.dicegame import GAME

    dice = draws(np.uint64(99), 3, 500, np.int64(6))
    strategies = seat_strategies(GAME, ("random", "bold"), 3, 0, 200)
    rules = GAME.compile(GAME.rules.resolve(), 3)
    out_games, out_seats, log = play(GAME, rules, strategies, game_seeds(np.uint64(1), 0, 200), 1000)
    return [dice.tolist(), out_games.tolist(), out_seats.tolist(), log.tolist()]


def test_identical_without_jit(tmp_path):
    """The plain-Python run (NUMBA_DISABLE_JIT=1) gives the same numbers and games bit for bit."""
    # its own cache folder: numba's cache does not key on the switch
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "NUMBA_CACHE_DIR": str(tmp_path)}
    script = "import json; from tests.test_rng import numbers_and_games; print(json.dumps(numbers_and_games()))"
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    jit = numbers_and_games()
    assert json.loads(done.stdout) == jit
    assert len(jit[3]) == 1000  # the log filled up to its capacity
