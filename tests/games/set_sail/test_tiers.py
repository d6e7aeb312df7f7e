"""Skill tiers (DESIGN §5): the noise of a line-up label ("treasure_hunter@0.3"), the chance
that a decision is a uniformly random legal choice instead of the heuristic's.

Wins are counted over decided games (a capped game has no winner). The two-sided bound for
"even" is z = 3 standard errors of a share around one half (0.27% false alarm for a fair
coin); "clearly loses" is a one-sided 99% Wilson upper bound below 45%."""

from __future__ import annotations

import math

import numpy as np

from simkit.games.set_sail import GAME
from simkit.rng import game_seeds
from simkit.runner import play, seat_strategies
from simkit.stats import wilson

DEFAULT = GAME.default_strategy
Z99_ONE_SIDED = 2.326  # one-sided 99% normal quantile


def _play(lineup: tuple[str, ...], n: int, players: int = 2, seed: int = 11, log: int = 0):
    compiled = GAME.compile(GAME.rules.resolve("standard", {}), players)
    strategies = seat_strategies(GAME, lineup, players, 0, n)
    out_games, out_seats, rows = play(GAME, compiled, strategies, game_seeds(np.uint64(seed), 0, n), log, lineup)
    return strategies, out_games, out_seats, rows


def _wins(lineup: tuple[str, ...], n: int, players: int = 2) -> tuple[list[int], int]:
    """Wins of each line-up entry (seats rotated) and the number of decided games."""
    strategies, out_games, out_seats, _ = _play(lineup, n, players)
    index = GAME.strategy_table(lineup)[1]
    wins = [int(out_seats[:, :, 2][strategies == index.index(label)].sum()) for label in lineup]
    decided = int((out_seats[:, :, 2].sum(axis=1) > 0).sum())
    return wins, decided


def test_noise_zero_plays_bit_for_bit_as_the_preset():
    for lineup in [(DEFAULT, "merchant", "raider"), ("plunderer", DEFAULT, "random")]:
        zero = tuple(f"{label}@0" if label != "random" else label for label in lineup)
        *plain, plain_log = _play(lineup, 60, players=3, log=400_000)
        *noisy, noisy_log = _play(zero, 60, players=3, log=400_000)
        assert GAME.strategy_table(zero)[1][-1].endswith("@0")  # a row of its own, noise 0
        assert all(np.array_equal(a, b) for a, b in zip(plain[1:], noisy[1:]))
        assert np.array_equal(plain_log, noisy_log)


def test_full_noise_is_as_strong_as_random():
    (mine, theirs), decided = _wins((f"{DEFAULT}@1", "random"), 4000)
    assert decided > 3000
    share = mine / decided
    assert abs(share - 0.5) < 3 * math.sqrt(0.25 / decided)


def test_half_noise_loses_clearly_to_the_preset():
    (noisy, clean), decided = _wins((f"{DEFAULT}@0.5", DEFAULT), 1000)
    _, high = wilson(float(noisy), decided, Z99_ONE_SIDED)
    assert high < 0.45 and clean > noisy


def test_a_little_noise_already_costs_wins():
    (noisy, clean), decided = _wins((f"{DEFAULT}@0.1", DEFAULT), 1000)
    _, high = wilson(float(noisy), decided, Z99_ONE_SIDED)
    assert high < 0.5
