"""Statistical checks against values derivable by hand (docs/architecture.md, "Adding a game").

Tolerances are 4.5 standard errors (or p > 1e-4 for goodness of fit): a correct engine
fails one of them about once in 100,000 runs; the seeds are fixed, so a run is repeatable.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.stats import chisquare

from .harness import EV, S, Table, plain

Z = 4.5


def within(hits: int, n: int, p: float) -> bool:
    return abs(hits / n - p) <= Z * math.sqrt(p * (1 - p) / n)


def test_placement_skull_rate_and_uniform_squares():
    """A8: two 14-sided dice, a skull on either is the skull: P = 1 - (13/14)^2 per roll
    (SOP-113); the other rolls fall uniformly on the 169 squares (SOP-112)."""
    t = plain(seed=2024)
    for k in range(4):
        t.put("ship", k, None)
        t.put("pirate", k, None)
    mark = t.mark()
    for _ in range(15000):
        t.st[S.N_ISLANDS] = 0
        t.call("place_island")
    rows = t.events(None, mark)
    skulls = sum(r[2] == EV.PLACE_SKULL for r in rows)
    placed = [r[3] for r in rows if r[2] == EV.ISLAND_PLACED]
    assert len(placed) == 15000
    rolls = skulls + len(placed)
    assert within(skulls, rolls, 1 - (13 / 14) ** 2), skulls / rolls
    assert int(t.st[S.PIRATE_TREASURES]) == skulls  # each skull paid the pirates
    counts = np.bincount(placed, minlength=S.SQUARES)
    assert chisquare(counts).pvalue > 1e-4


def test_strategist_spared_rate_is_six_in_fourteen():
    """A9: faces 8..13 of the 14-sided number die spare The Strategist (SOP-209)."""
    t = plain(seed=77)
    t.set_power(0, S.STRATEGIST)
    t.set_hand(0, [])
    mark = t.mark()
    n = 15000
    for _ in range(n):
        t.call("pirate_contact", seat=0)
    rolls = t.events(EV.STRATEGIST, mark)
    spared = sum(r[4] for r in rolls)
    assert len(rolls) == n and within(spared, n, 6 / 14), spared / n
    assert int(t.seats[0, S.DEBT]) == n - spared
    faces = np.bincount([r[3] + 1 for r in rolls], minlength=14)  # 0 = skull, 1..13
    assert chisquare(faces).pvalue > 1e-4


def test_powers_dealt_uniformly():
    """Set-up 3: each power is equally likely for every seat (1/8)."""
    counts = np.zeros((4, S.N_POWERS), dtype=np.int64)
    for seed in range(1600):
        t = Table(players=4, seed=seed)
        for s in range(4):
            counts[s, t.seats[s, S.POWER]] += 1
    for s in range(4):
        assert chisquare(counts[s]).pvalue > 1e-4
