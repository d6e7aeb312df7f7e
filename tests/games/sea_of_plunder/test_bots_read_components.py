"""The bots read the components they play with. strategies/sea_of_plunder.py holds no component
value as a literal: Goods are valued from the compiled set-score table (K[GS0]: set2/3/4_points),
The Strategist's pirate risk from the number die's faces (dice.toml, K[DICE0 + NUMBER_DIE]),
distances from the board (K[DIST0]), cards from the deck (K[CARD0]). These tests pin two of
them to the files: under `alt-one-skull` (no skull on the number die) The Strategist's expected
cost of a pirate contact is the share of that die's faces that do not spare it, read from the set."""

from __future__ import annotations

import numpy as np
import pytest

from simkit.games.sea_of_plunder import components
from strategies import sea_of_plunder as bot

from .harness import S, Table

ONE_SKULL = "alt-one-skull"


def hit_share(component_set: str, strategist_low: int) -> float:
    """The number die's faces that do not spare The Strategist (A9): a skull, or a number below
    strategist_low, read from the set's dice.toml (a face is its row index, -1 the skull)."""
    faces = components.load(component_set).number_faces
    return sum(1 for f in faces if f < strategist_low - 1) / len(faces)


def pirate_cost(t: Table, seat: int, goods=(0, 0, 0, 0)) -> float:
    mine = np.array(goods, dtype=np.int64)
    return bot.pirate_cost(t.T, t.K, t.F[1 + seat], np.int64(seat), mine, t.P.strategist_low)


def test_the_alternative_die_has_no_skull():
    assert -1 in components.load().number_faces
    assert -1 not in components.load(ONE_SKULL).number_faces


@pytest.mark.parametrize("component_set", ["standard", ONE_SKULL])
def test_the_strategists_pirate_cost_is_the_number_dies_share(component_set):
    t = Table(players=2, strategies="collector", component_set=component_set)
    debt = t.F[1, bot.W_DEBT]
    t.set_power(0, S.STRATEGIST)
    assert pirate_cost(t, 0) == pytest.approx(debt * hit_share(component_set, t.P.strategist_low))
    t.set_power(0, -1)  # no power
    assert pirate_cost(t, 0) == pytest.approx(debt)  # any other pirate pays in full, whatever the die


def test_one_skull_lowers_the_strategists_risk():
    std = Table(players=2, strategies="collector")
    alt = Table(players=2, strategies="collector", component_set=ONE_SKULL)
    for t in (std, alt):
        t.set_power(0, S.STRATEGIST)
    assert hit_share("standard", 8) == 8 / 14 and hit_share(ONE_SKULL, 8) == 7 / 13
    assert pirate_cost(alt, 0) < pirate_cost(std, 0)


def test_goods_are_valued_from_the_set_score_table():
    """A Good's worth is what it adds to the best partition under the set points (rule
    parameters compiled into K[GS0]): doubling set2_points doubles a first pair's gain."""
    base = Table(players=2)
    dear = Table(players=2, overrides={"set2_points": 2 * base.P.set2_points})
    mine = np.array([1, 0, 0, 0], dtype=np.int64)
    gain = bot.goods_gain(base.K, mine, 1)
    assert gain == base.P.set2_points
    assert bot.goods_gain(dear.K, mine, 1) == 2 * gain
