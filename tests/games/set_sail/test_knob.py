"""The designer knob `starting_silver` (silver by seat, DESIGNER_KNOB): its default plays the
rulebook's set-up (3 silver each, Setup - Players 1); a value moves the silver of exactly the
seat it names."""

from __future__ import annotations

import numpy as np
import pytest

from simkit.core.errors import InputError
from simkit.core.rng import game_seeds
from simkit.games.set_sail import GAME
from simkit.sweeps.runner import play, seat_strategies

from .harness import S, Table


def test_starting_silver_is_a_per_seat_designer_knob_defaulting_to_the_rulebook():
    knob = GAME.rules.by_name["starting_silver"]
    assert knob.knob and knob.kind == "ints"
    low, high, length = knob.allowed
    assert length == GAME.max_players and list(knob.default) == [3] * length
    assert low == 0 and high >= 3 * 3  # room to compensate a seat by triple the normal amount
    for players in (2, 3, 4):
        t = Table(players=players, seed=5)
        assert [int(t.seat(s)[S.SILVER]) for s in range(players)] == [3] * players


@pytest.mark.parametrize("seat", [0, 2, 3])
def test_the_knob_moves_only_the_silver_of_the_seat_it_names(seat):
    base = Table(players=4, seed=9)
    values = [3] * 6
    values[seat] = 11
    t = Table(players=4, seed=9, overrides={"starting_silver": values})
    for s in range(4):
        assert t.seat(s)[S.SILVER] == (11 if s == seat else 3)
    # everything else at set-up is as the rulebook deals it (same seed)
    t.seat(seat)[S.SILVER] = 3
    assert np.array_equal(t.T, base.T)


def _games(overrides: dict, players: int = 3, n: int = 200):
    compiled = GAME.compile(GAME.rules.resolve("standard", overrides), players)
    lineup = ("treasure_hunter", "merchant", "plunderer")[:players]
    strategies = seat_strategies(GAME, lineup, players, 0, n)
    return play(GAME, compiled, strategies, game_seeds(np.uint64(4), 0, n), lineup=lineup)


def test_default_knob_leaves_games_bit_identical_and_a_change_moves_them():
    default_games, default_seats, _ = _games({})
    same_games, same_seats, _ = _games({"starting_silver": [3] * 6})
    assert np.array_equal(default_games, same_games) and np.array_equal(default_seats, same_seats)
    # an unseated slot (seat 4 of a 3-player game) changes nothing either
    idle_games, idle_seats, _ = _games({"starting_silver": [3, 3, 3, 20, 0, 7]})
    assert np.array_equal(default_games, idle_games) and np.array_equal(default_seats, idle_seats)
    _, rich_seats, _ = _games({"starting_silver": [3, 3, 20, 3, 3, 3]})
    assert not np.array_equal(default_seats, rich_seats)
    # 17 silver more at set-up is worth a lot more wins to seat 2
    assert rich_seats[:, 2, 2].sum() > default_seats[:, 2, 2].sum() + 10


def test_bad_knob_values_are_input_errors():
    with pytest.raises(InputError):
        GAME.rules.resolve("standard", {"starting_silver": [3, 3, 3]})
    with pytest.raises(InputError):
        GAME.rules.resolve("standard", {"starting_silver": [3, 3, 3, 3, 3, 99]})
