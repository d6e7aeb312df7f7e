"""The skill knob: a strategy row's noise is the chance that a decision is the
uniformly random legal choice instead of the preset's, drawn from the seat's own stream."""

import math

import numpy as np

from .tiers import games, win_share


def test_noise_zero_plays_the_preset_bit_for_bit():
    a = games(("controller@0", "raider", "burier"), 3, 60, log_capacity=200_000)
    b = games(("controller", "raider", "burier"), 3, 60, log_capacity=200_000)
    assert (a[1] == b[1]).all() and (a[2] == b[2]).all()
    assert a[3].shape == b[3].shape and (a[3] == b[3]).all()


def test_noise_one_is_as_strong_as_random():
    # every decision random: the two seats are exchangeable, so the win share is 1/2 up to sampling;
    # 3 standard errors of a share of n games (two-sided, p < 0.003 of a false alarm)
    n = 4000
    share = win_share(("controller@1", "random"), "controller@1", 2, n)
    assert abs(share - 0.5) < 3 * math.sqrt(0.25 / n)


def test_noise_one_half_loses_clearly_to_the_preset():
    # H0: the noisy seat wins at least half; 400 games put 0.40 four standard errors below 1/2
    share = win_share(("controller@0.5", "controller"), "controller@0.5", 2, 400)
    assert share < 0.5 - 4 * math.sqrt(0.25 / 400)


def test_noise_changes_the_game_but_keeps_it_reproducible():
    a = games(("controller@0.3", "raider"), 2, 50)
    b = games(("controller@0.3", "raider"), 2, 50)
    plain = games(("controller", "raider"), 2, 50)
    assert (a[2] == b[2]).all()
    assert not np.array_equal(a[2], plain[2])
