"""The starting islands (Set-up 1 and 3; assumption A3) under the shipped seatings: the
standard set's, and alt-three-seats, which leaves Izarea empty at 3 players instead of
Morrosa (the rulebook lets players choose their colours, so which island stays empty is ours).
Each test sets up or plays the same seed under both sets, so the seating is the only
difference; at 2 and 4 players the two sets must play the very same game."""

from __future__ import annotations

import numpy as np
import pytest

from .harness import S, Table, play_game

RABAKIN, GRAYSEO, IZAREA, MORROSA = range(4)


def start(players: int, component_set: str, seed: int = 1, strategies="tuned", powers: bool = True) -> Table:
    return Table(players, seed=seed, strategies=strategies, component_set=component_set,
                 overrides={"player_powers": powers})


def islands_of(t: Table) -> list[int]:
    """The Port Island each seat's ship starts on (index into ports.toml)."""
    ports = {t.where("port", p): p for p in range(len(t.comp.colours))}
    return [ports[t.where("ship", t.first_ship(s))] for s in range(t.players)]


def test_three_players_leave_izarea_empty_under_alt_three_seats():
    # standard: Rabakin, Grayseo, Izarea (Morrosa empty); alt-three-seats: Rabakin, Grayseo,
    # Morrosa (Izarea empty): the third seat (seat 2) sails another island with its own Good
    base, alt = start(3, "standard", powers=False), start(3, "alt-three-seats", powers=False)  # no power moves a Good
    assert islands_of(base) == [RABAKIN, GRAYSEO, IZAREA]
    assert islands_of(alt) == [RABAKIN, GRAYSEO, MORROSA]
    assert base.goods(2)[IZAREA] == 1 and base.goods(2)[MORROSA] == 0
    assert alt.goods(2)[MORROSA] == 1 and alt.goods(2)[IZAREA] == 0
    for t in (base, alt):  # seats 0 and 1 keep their islands and Goods
        assert t.goods(0)[RABAKIN] == 1 and t.goods(1)[GRAYSEO] == 1


def test_the_near_pair_moves_from_seats_0_and_2_to_seats_1_and_2():
    # the sea wraps, so opposite islands are the near ones (A2's board): under the standard
    # seating seat 1 starts apart; under alt-three-seats seat 0 does
    for name, apart in (("standard", 1), ("alt-three-seats", 0)):
        t = start(3, name)
        squares = [int(t.pos[S.SHIP0 + t.first_ship(s)]) for s in range(3)]
        near = [min(int(t.dist[squares[s], squares[o]]) for o in range(3) if o != s) for s in range(3)]
        assert near[apart] > max(near[s] for s in range(3) if s != apart), (name, near)


def played(players: int, component_set: str, seed: int) -> Table:
    return play_game(start(players, component_set, seed=seed))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_alt_three_seats_changes_only_three_player_games(seed):
    for players in (2, 4):  # the same seats, so the same game, log row for log row
        a, b = played(players, "standard", seed), played(players, "alt-three-seats", seed)
        n = int(a.logc[0])
        assert n == int(b.logc[0]) and np.array_equal(a.log[:n], b.log[:n])
    a, b = played(3, "standard", seed), played(3, "alt-three-seats", seed)
    n, m = int(a.logc[0]), int(b.logc[0])
    assert n != m or not np.array_equal(a.log[:n], b.log[:m])


def test_no_three_player_game_starts_on_the_other_sets_empty_island():
    # isolation: the standard seating never puts a ship on Morrosa at 3 players, and
    # alt-three-seats never on Izarea, whatever the seed and the presets
    for seed in range(6):
        for strategies in ("random", "tuned", ["racer", "collector", "raider"]):
            assert MORROSA not in islands_of(start(3, "standard", seed, strategies))
            assert IZAREA not in islands_of(start(3, "alt-three-seats", seed, strategies))
