"""The Treasure Placement dice are data (A8, A9): every roll the engine makes — island
placement, The Strategist's roll, tie-breaker 4 — reads the faces of dice.toml.

Each test gives the engine dice that no hard-coded die could imitate (a two-face number die,
or the alt-one-skull set) and checks the outcome follows them.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.stats import chisquare

from .harness import EV, S, plain

Z = 4.5


def within(hits: int, n: int, p: float) -> bool:
    return abs(hits / n - p) <= Z * math.sqrt(p * (1 - p) / n)


def _strategist(seed=77, component_set="standard"):
    t = plain(seed=seed, component_set=component_set)
    t.set_power(0, S.STRATEGIST)
    t.set_hand(0, [])
    return t


def test_strategist_rolls_the_number_die_of_the_dice_file():
    """The Strategist: a pirate contact is void on 8-13 (SOP-209, SOP-210; A9). With a number
    die showing only 7 and 8, every roll is 7 or 8, and exactly the 8s spare the ship."""
    t = _strategist()
    t.set_number_die([6, 7])  # the faces 7 and 8
    t.st[S.PIRATE_TREASURES] = 2
    mark = t.mark()
    for _ in range(200):
        t.call("pirate_contact", seat=0)
    rolls = t.events(EV.STRATEGIST, mark)
    assert {r[3] for r in rolls} == {6, 7}
    spared = [r for r in rolls if r[4]]
    assert all(r[3] == 7 for r in spared) and len(spared) > 50
    assert int(t.seats[0, S.DEBT]) == 200 - len(spared)
    assert int(t.st[S.PIRATE_TREASURES]) == 2  # a Debt, never Treasure for the pirates


def test_strategist_skull_face_does_not_spare_and_pays_the_pirates_nothing():
    """A9: a skull on the numbered die is not 8-13, and this roll never pays the pirates."""
    t = _strategist()
    t.set_number_die([-1])
    t.st[S.PIRATE_TREASURES] = 1
    mark = t.mark()
    for _ in range(20):
        t.call("pirate_contact", seat=0)
    assert all(r[3] == -1 and r[4] == 0 for r in t.events(EV.STRATEGIST, mark))
    assert int(t.seats[0, S.DEBT]) == 20 and int(t.st[S.PIRATE_TREASURES]) == 1


def test_strategist_spared_rate_follows_the_component_set():
    """6 spared faces of 14 with the standard dice, 6 of 13 with alt-one-skull (no skull on the
    number die): 15,000 rolls tell the two apart by more than 7 standard errors."""
    n = 15000
    for component_set, faces in (("standard", 14), ("alt-one-skull", 13)):
        t = _strategist(component_set=component_set)
        mark = t.mark()
        for _ in range(n):
            t.call("pirate_contact", seat=0)
        rolls = t.events(EV.STRATEGIST, mark)
        spared = sum(r[4] for r in rolls)
        assert within(spared, n, 6 / faces), (component_set, spared / n)
        counts = np.bincount([r[3] + 1 for r in rolls], minlength=14)  # 0 = skull, 1..13
        if faces == 13:
            assert counts[0] == 0
            counts = counts[1:]
        assert chisquare(counts).pvalue > 1e-4


def test_tie_breaker_4_rolls_the_number_die_of_the_dice_file():
    """Tie-breaker 4 (SOP-141; A28): the tied leaders roll the numbered die. With a number die
    of faces 3, skull and 11 every roll is 3 or 11 (skulls rerolled) and the 11 wins."""
    winners = set()
    for seed in range(30):
        t = plain(players=3, seed=seed)
        t.set_number_die([2, -1, 10])
        t.st[S.END_REASON] = S.END_PLAYER_TREASURES
        for s in range(3):
            t.set_hand(s, [])
            t.seats[s, S.TREASURES] = 1 if s < 2 else 0
            t.seats[s, S.COMPASSES] = 1 if s < 2 else 0
        t.call("final_scoring")
        rolls = t.events(EV.TIE_ROLL)
        assert {r[3] for r in rolls} <= {2, 10} and {r[1] for r in rolls} == {0, 1}
        winner = int(np.flatnonzero(t.out_seats[0, :, 2])[0])
        last = {r[1]: r[3] for r in rolls[-2:]}
        assert last[winner] == 10 and last[1 - winner] == 2
        winners.add(winner)
    assert winners == {0, 1}


def _placements(t, n=15000):
    for k in range(4):
        t.put("ship", k, None)
        t.put("pirate", k, None)
    mark = t.mark()
    for _ in range(n):
        t.st[S.N_ISLANDS] = 0
        t.call("place_island")
    rows = t.events(None, mark)
    skulls = sum(r[2] == EV.PLACE_SKULL for r in rows)
    placed = [r[3] for r in rows if r[2] == EV.ISLAND_PLACED]
    return skulls, placed


def test_one_skull_reading_pays_the_pirates_on_one_roll_in_fourteen():
    """alt-one-skull (A8): the skull is on the letter die only, so a placement roll shows it
    1 time in 14 (standard: 1 - (13/14)^2), and every square stays equally likely."""
    t = plain(seed=2024, component_set="alt-one-skull")
    skulls, placed = _placements(t)
    assert len(placed) == 15000
    assert within(skulls, skulls + len(placed), 1 / 14), skulls / (skulls + len(placed))
    assert int(t.st[S.PIRATE_TREASURES]) == skulls
    assert chisquare(np.bincount(placed, minlength=S.SQUARES)).pvalue > 1e-4


def test_placement_reads_each_die_with_its_own_face_count():
    """A die of 13 faces beside one of 14 (A8): a number die of only the row 5 face puts every
    island on row 5, whatever the letter die's 14 faces say."""
    t = plain(seed=3)
    t.set_number_die([4])
    skulls, placed = _placements(t, 3000)
    assert {p // S.SIZE for p in placed} == {4}
    assert len({p % S.SIZE for p in placed}) == S.SIZE
    assert within(skulls, skulls + len(placed), 1 / 14)
