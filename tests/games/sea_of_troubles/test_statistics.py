"""Chance in the set-up and in a dig, against values derived by hand.

Each check replays the set-up (or a dig) a few thousand times with different seeds and
compares a frequency with its exact value, allowing 4 standard errors.
"""

from math import comb, sqrt

import numpy as np

from simkit.core.rng import derive, seed_streams

from .harness import COMP, S, Table

N = 3000


def setups(players, variant="standard"):
    t = Table(players, variant)
    for i in range(N):
        seed_streams(t.rng, np.uint64(derive(99, i)))
        t.call("setup_game", players=players)
        yield t


def close(freq, p, n=N):
    return abs(freq - p) <= 4 * sqrt(p * (1 - p) / n)


def test_open_ports_follow_the_die_and_the_two_open_rule():
    # a port opens on a 4 of a d6; fewer than 2 open: the highest dice go until 2 are (A8)
    players = 5
    p = 1 / 6
    expected = sum(max(k, 2) * comb(players, k) * p**k * (1 - p) ** (players - k) for k in range(players + 1))
    opened = [int((t.T[S.PORT_CLOSED, :players] == 0).sum()) for t in setups(players)]
    sd = np.std(opened)
    assert abs(np.mean(opened) - expected) <= 4 * sd / sqrt(N)  # expected = 2.039


def test_no_weight_cards_and_quests_are_dealt_uniformly():
    light = [i for i, (_, _, weighted) in enumerate(COMP.treasures) if not weighted]
    for players, share in ((4, 1 / 4), (5, 2 / 4)):  # 1 (4 players) or 2 of the 4 no-weight cards
        seen = np.zeros(len(COMP.treasures))
        dealt = np.zeros(len(COMP.quests))
        for t in setups(players):
            seen[t.T[S.TDECK, : t.st[S.TDECK_N]]] += 1
            dealt[t.T[S.QUEST, :players]] += 1
        assert all(close(seen[i] / N, share) for i in light)
        assert all(close(d / N, players / len(COMP.quests)) for d in dealt)


def test_a_dig_succeeds_on_a_three_or_four_that_is_not_a_wild():
    # one buried treasure, so one draw: P = (3s and 4s of the three suits) / deck
    cards = COMP.cards
    p = sum(1 for t, v in cards if t != S.WILD and v >= 3) / len(cards)
    t = Table(2)
    wins = 0
    for i in range(N):
        seed_streams(t.rng, np.uint64(derive(98, i)))
        t.call("setup_game", players=2)
        t.T[S.BURY0 + 1, 0] = t.T[S.TDECK, t.st[S.TDECK_N] - 1]
        t.st[S.TDECK_N] -= 1
        t.seat(1)[S.BURY_N] = 1
        t.T[S.XOWNER, 1] = 1
        t.call("dig", seat=0, owner=1)
        wins += int(t.seat(0)[S.CARRY_N])
    assert close(wins / N, p)  # 21 of 57 with the assumed deck


def test_the_highest_dice_are_removed_until_two_ports_are_open():
    # Getting started 4: with fewer than 2 ports open the highest dice go, so the ports left
    # closed hold the low rolls. At 5 players, given exactly 2 open ports, the mean counter
    # left is 2.69 (4.08 if the lowest dice went instead; 3.4 for a d6 roll other than 4)
    closed = []
    for t in setups(5):
        counters = [int(v) for v in t.T[S.PORT_CLOSED, :5]]
        if counters.count(0) == 2:
            closed += [v for v in counters if v]
    assert len(closed) > 3000 and abs(np.mean(closed) - 2.69) < 0.15
