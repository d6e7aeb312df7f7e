"""The turn and the end, played through the engine's own turn (begin_turn, then
finish_turn with the pieces' end tiles, as take_turn plays it) or its game loop
(play_chunk): the movement budget and what changes it, what happens once per turn, what
stops a turn's actions, the End of Turn Supply loss, the order of a turn, and the end at
exactly the VP to win, with the round finished and the round cap. Each test was checked
by breaking its rule in the engine for a moment (tests/mutants/set_sail.toml holds the
breaks)."""

from __future__ import annotations

import numpy as np
import pytest

from simkit.core.rng import game_seeds
from simkit.games.set_sail import GAME
from simkit.sweeps.runner import play, seat_strategies

from .harness import COMP, EV, S, Table, tile

DEEP, SHALLOW, SHALLOW_2 = "C1", "A1", "A3"  # tiles of board.txt (A2)
PIRATE, SUPPLY = "I2", "B2"


def table(players=2, strategies="plunderer", seed=3, **kw) -> Table:
    t = Table(players=players, seed=seed, strategies=strategies, **kw)
    t.set_active(0)
    return t


def turn(t: Table, seat: int, a: str, b: str) -> int:
    """Seat plays a turn whose pieces end on tiles a and b; returns its movement budget."""
    budget = int(t.call("begin_turn", seat=seat))
    t.call("finish_turn", seat=seat, pick=tile(a) * S.MAX_TILES + tile(b))
    return budget


def steps(t: Table, mark: int) -> int:
    """Tiles sailed in the turn logged after `mark` (each piece's water distance)."""
    return sum(int(t.K[S.DIST0 + m[4], m[5]]) for m in t.events(EV.MOVE, mark))


# ----------------------------------------------------------------------------- movement
@pytest.mark.parametrize("oars,cannons,barrels,budget", [(0, 0, 0, 10), (1, 0, 0, 12), (3, 0, 0, 16),
                                                         (0, 3, 3, 10)])
def test_each_oar_and_nothing_else_adds_two_tiles_of_movement(oars, cannons, barrels, budget):
    """Movement: 10 tiles a turn, +2 per Oar Upgrade (SS-067, SS-068, SS-088, SS-174);
    cannons and barrels add none. A random seat sails every legal pair: over 120 turns its
    two pieces together use the whole budget and never more."""
    used = []
    for seed in range(120):
        t = table(seed=seed, strategies="random")
        t.seat(0)[S.UPG0 + S.OAR] = oars
        t.seat(0)[S.UPG0 + S.CANNON] = cannons
        t.seat(0)[S.UPG0 + S.BARREL] = barrels
        t.seat(0)[S.SUPPLY] = 20
        mark = t.mark()
        t.call("take_turn", seat=0)
        assert t.events(EV.TURN, mark)[0][4] == budget
        used.append(steps(t, mark))
    assert max(used) == budget


def test_running_out_halves_the_next_turn_only():
    """Running Out of Supplies 5: half the total movement on the next turn, oars
    included, (10 + 2 x 1) / 2 = 6 (SS-150); the turn after that has all 12 again."""
    t = table(strategies="plunderer")
    t.seat(0)[S.UPG0 + S.OAR] = 1
    t.seat(0)[S.UPG0 + S.BARREL] = 1  # the plunderer loses the barrel, the upgrade it values least
    t.seat(0)[S.SUPPLY] = 0
    assert t.call("lose_supply", seat=0, n=1, reason=EV.R_FIGHT)
    assert int(t.seat(0)[S.UPG0 + S.OAR]) == 1 and int(t.seat(0)[S.UPG0 + S.BARREL]) == 0
    budgets = []
    for _ in range(2):
        t.seat(0)[S.SUPPLY] = 20
        mark = t.mark()
        t.call("take_turn", seat=0)
        budgets.append(t.events(EV.TURN, mark)[0][4])
        assert steps(t, mark) <= budgets[-1]
    assert budgets == [6, 12]


def test_pieces_stay_when_no_pair_of_end_tiles_is_legal():
    """A18 (SS-G24): a budget of 1 after running out cannot move both pieces a tile each."""
    t = table(overrides={"movement": 2})
    t.seat(0)[S.HALF_MOVE] = 1
    before = (t.where(0, 0), t.where(0, 1))
    mark = t.mark()
    t.call("take_turn", seat=0)
    assert t.events(EV.TURN, mark)[0][4] == 1
    assert not t.events(EV.MOVE, mark) and (t.where(0, 0), t.where(0, 1)) == before


def test_no_piece_ends_on_either_start_tile():
    """Movement: each piece moves at least a tile and ends on neither piece's start tile
    (SS-069..071). The pieces start on two neighbouring tiles, so a piece's one-step move
    onto its partner's start tile is the tempting slip; random seats try every legal pair."""
    for seed in range(150):
        t = table(seed=seed, strategies="random")
        t.put(0, 0, "C2")
        t.put(0, 1, "C3")
        t.seat(0)[S.SUPPLY] = 20
        mark = t.mark()
        t.call("take_turn", seat=0)
        for m in t.events(EV.MOVE, mark):
            assert m[5] not in (tile("C2"), tile("C3")) and t.K[S.DIST0 + m[4], m[5]] >= 1


# ----------------------------------------------------------------------------- once per turn, the order of a turn
def test_a_turn_is_movement_then_the_actions_then_one_supply():
    """On a Turn: Movement, then Action (each piece its tile's action: two pieces fishing
    earn 2 silver), then End of Turn: exactly 1 Supply lost, once per turn, not per piece
    (SS-062, SS-074, SS-113, SS-141)."""
    t = table()
    mark = t.mark()
    turn(t, 0, SHALLOW, SHALLOW_2)
    codes = [r[2] for r in t.events(None, mark)]
    assert codes == [EV.TURN, EV.MOVE, EV.MOVE, EV.SILVER, EV.SILVER, EV.SUPPLY]
    assert int(t.seat(0)[S.SILVER]) == 3 + 2 and int(t.seat(0)[S.SUPPLY]) == 5 - 1
    assert t.events(EV.SUPPLY, mark)[0][3:5] == (-1, EV.R_END)


def test_end_of_turn_with_no_supply_left_runs_out():
    """End of Turn: a player who cannot pay the Supply runs out (SS-142, SS-144)."""
    t = table()
    t.seat(0)[S.SUPPLY] = 0
    turn(t, 0, SHALLOW, SHALLOW_2)
    assert int(t.seat(0)[S.RAN_OUT]) == 1 and int(t.seat(0)[S.SUPPLY]) == 3  # the loss is the running out


def test_player_combat_comes_before_the_tile_action():
    """A10 (SS-G10, SS-X23): in the Action phase a piece ending on a rival fights it first,
    then takes its tile's action (here a Deep Water ship fight)."""
    t = table(strategies=["raider", "plunderer"])
    for s in range(2):
        t.seat(s)[S.SUPPLY] = 20
    t.put(1, 0, DEEP)
    mark = t.mark()
    turn(t, 0, DEEP, SHALLOW)
    codes = [r[2] for r in t.events(None, mark)]
    assert EV.ATTACK in codes and EV.SHIP_FIGHT in codes
    assert codes.index(EV.ATTACK) < codes.index(EV.SHIP_FIGHT)


# ----------------------------------------------------------------------------- what stops a turn's actions
def test_running_out_stops_the_rest_of_the_turn():
    """Ship Card Combat: a player who loses more Supply than they hold runs out without
    resolving any further action (SS-139, SS-X20, A12): piece 0 loses a Deep Water fight
    with no Supply and owns the map of that tile, piece 1 ends on Shallow Water; neither
    the dig, nor the fishing, nor a purchase at the Supply Port the pieces were sent to
    follows. Only the End of Turn loss does (A12)."""
    stopped = 0
    for seed in range(80):
        t = table(seed=seed)
        t.seat(0)[S.SUPPLY] = 0
        t.seat(0)[S.SILVER] = 8
        t.T[S.MAPS0, 0] = next(i for i, (_, where) in enumerate(COMP.treasure) if where == tile(DEEP))
        t.seat(0)[S.N_MAPS] = 1
        mark = t.mark()
        turn(t, 0, DEEP, SHALLOW)
        rows = t.events(None, mark)
        if not [r for r in rows if r[2] == EV.SUPPLY and r[4] == EV.R_FIGHT]:
            continue  # the ship was beaten (a roll of 3 or more)
        ran = [i for i, r in enumerate(rows) if r[2] == EV.RAN_OUT]
        stopped += 1
        after = rows[ran[0] + 1:]
        assert all(r[2] in (EV.SILVER, EV.SUPPLY, EV.UPGRADE) for r in after)
        assert [(r[2], r[4]) for r in after] == [(EV.SILVER, EV.R_RUN_OUT), (EV.SUPPLY, EV.R_RUN_OUT),
                                                 (EV.SUPPLY, EV.R_END)]
        assert int(t.seat(0)[S.VP]) == 0 and int(t.seat(0)[S.N_MAPS]) == 1
        assert int(t.seat(0)[S.SILVER]) == 4 and int(t.seat(0)[S.SUPPLY]) == 2
    assert stopped >= 12  # a roll of 1 or 2: about 27 of 80


def test_running_out_in_player_combat_stops_the_attackers_tile_action():
    """The attacker who loses a fight beyond its Supply runs out before its own tile's
    action (SS-139, A10, A12): no Deep Water ship fight follows."""
    stopped = 0
    for seed in range(80):
        t = table(seed=seed, strategies=["raider", "plunderer"])
        t.seat(0)[S.SUPPLY] = 0
        t.seat(1)[S.SUPPLY] = 20
        t.seat(1)[S.UPG0 + S.CANNON] = 3
        t.put(1, 0, DEEP)
        mark = t.mark()
        turn(t, 0, DEEP, SHALLOW)
        if [r for r in t.events(EV.SUPPLY, mark) if r[1] == 0 and r[4] == EV.R_COMBAT]:  # lost the fight
            assert t.events(EV.RAN_OUT, mark)[0][1] == 0
            stopped += 1
            assert not t.events(EV.SHIP_FIGHT, mark)
            assert not [r for r in t.events(EV.SILVER, mark) if r[4] == EV.R_FISH]
    assert stopped >= 20


# ----------------------------------------------------------------------------- the end
@pytest.mark.parametrize("vp,ends", [(25, False), (26, True)])
def test_reaching_exactly_the_vp_to_win_triggers_the_end(vp, ends):
    """Objective: a player who reaches 30 VP triggers the end (SS-031); 29 does not. Played
    at a Pirate Port: a 4-VP Plunder Quest completed from 25 or 26 VP."""
    t = table(strategies="treasure_hunter")
    t.seat(0)[S.VP] = vp
    t.seat(0)[S.SILVER] = 0
    t.give_ships(0, S.DW, 3, 3)
    t.put(0, 0, PIRATE)
    t.call("tile_action", seat=0, piece=0)
    assert int(t.seat(0)[S.VP]) == vp + 4
    assert (int(t.st[S.END_REASON]) == S.END_VP) == ends and bool(t.events(EV.END_TRIGGER)) == ends


def _chunk(players, lineup, n, seed, overrides=None, log_rows=0):
    values = GAME.rules.resolve("standard", overrides or {})
    strategies = seat_strategies(GAME, lineup, players, 0, n)
    return play(GAME, GAME.compile(values, players), strategies, game_seeds(np.uint64(seed), 0, n), log_rows)


def test_the_round_in_which_the_end_is_triggered_is_finished():
    """Objective: once a player reaches 30 VP the round is played to its end, so every seat
    has had as many turns (SS-032); seats play in order, seat 0 first (SS-030, SS-060,
    SS-143). Played by the engine's own game loop; in most games the trigger comes before
    the last seat's turn."""
    lineup = ("plunderer", "merchant", "treasure_hunter", "raider")
    out_games, out_seats, log = _chunk(4, lineup, 40, 8, log_rows=400_000)
    assert (out_games[:, 2] == S.END_VP).all()
    assert (out_games[:, 1] == 4 * out_games[:, 0]).all()
    assert ((out_seats[:, 3, 3] < 30) & (out_seats[:, :3, 3].max(axis=1) >= 30)).sum() >= 10
    turns = log[log[:, 2] == EV.TURN]
    assert (turns[:, 1] == np.arange(len(turns)) % 4).all()


def test_the_round_cap_stops_the_game_after_exactly_that_many_rounds():
    """A19: a game not ended by the rules stops after round_cap rounds, unscored: nobody wins."""
    out_games, out_seats, _ = _chunk(2, ("treasure_hunter", "raider"), 4, 9, {"round_cap": 5, "vp_to_win": 200})
    assert (out_games[:, 0] == 5).all() and (out_games[:, 1] == 10).all()
    assert (out_games[:, 2] == S.END_ROUND_CAP).all() and out_seats[:, :, 2].sum() == 0
