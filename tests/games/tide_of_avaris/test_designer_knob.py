"""Designer knobs: extra starting gold and rum by seat (compensation levers, not rules)."""

import numpy as np
import pytest

from simkit.core.errors import InputError
from simkit.games.tide_of_avaris import GAME

from .harness import S, Table


@pytest.mark.parametrize("knob,column,total", [("extra_starting_gold", S.GOLD, S.GOLD_MADE),
                                               ("extra_starting_rum", S.RUM, S.RUM_MADE)])
@pytest.mark.parametrize("seat", [0, 1, 3])
def test_the_knob_moves_only_the_named_seats_starting_resource(knob, column, total, seat):
    extra = [0, 0, 0, 0]
    extra[seat] = 3
    plain = Table(players=4, seed=3)
    moved = Table(players=4, seed=3, overrides={knob: extra})
    diff = np.argwhere(plain.T != moved.T)
    assert sorted(map(tuple, diff.tolist())) == sorted([(S.SEAT0 + seat, column), (S.ST, total)])
    assert moved.seat(seat)[column] == plain.seat(seat)[column] + 3


def test_the_knobs_are_marked_and_default_to_the_set_up():
    for name in ("extra_starting_gold", "extra_starting_rum"):
        p = next(p for p in GAME.rules.params if p.name == name)
        assert p.knob and list(p.default) == [0, 0, 0, 0] and p.allowed[2] == GAME.max_players


def test_a_knob_out_of_range_is_refused():
    with pytest.raises(InputError):
        GAME.rules.resolve("standard", {"extra_starting_gold": [0, 13, 0, 0]})
