"""The rulebook's worked examples that the component files decide, on every shipped set:
the turn's orders of actions (SOTR-053, on each set's map), the 3-against-6
reveal (SOTR-112, on each set's action deck) and the two Doubloons that leave room for six
action cards (SOTR-186, on each set's treasure cards). A set that broke one would fail here,
or be refused by the schema (a Doubloon must be weighted: test_components.py)."""

import pytest

from simkit.core.components import shipped
from simkit.games.sea_of_troubles import components

from .harness import EV, S, Table, bot

SW, SA, CA, WI = S.SWORD, S.SAIL, S.CANNON, S.WILD
A_END, A_MOVE, A_PILLAGE, A_BOARD, A_SHOOT = 0, 1, 2, 3, 4
SETS = shipped(components.FOLDER)


def legal(t, seat):
    n = t.call("candidates", seat=seat, players=t.players)
    return {(int(t.buf[0, i]), int(t.buf[1, i])) for i in range(n)}


def water(t, sq):
    return t.K[S.SQ_KIND, sq] != S.LAND


def squares(t):
    return range(int(t.K[S.META, S.N_SQ]))


def table(name):
    t = Table(2, strategies="duellist", component_set=name)
    t.clear_hands()
    t.T[S.PORT_CLOSED, :2] = 0
    t.call("begin_turn", seat=0)
    return t


@pytest.mark.parametrize("name", SETS)
def test_move_shoot_move_and_shoot_then_move(name):
    """Your turn: Move, Shoot, Move; or Shoot then Move (SOTR-052, SOTR-053)."""
    t = table(name)
    port = int(t.K[S.PORT_SQ, 0])
    # pirate 1 out of sight of pirate 0, two moves away at most
    start = next(a for a in squares(t) if water(t, a) and a != port and t.K[S.SIGHT0 + a, port] == 0
                 and t.K[S.DIST0 + a, port] <= 4)
    t.put(0, start)
    t.put(1, port)
    t.set_hand(0, [(SA, 4), (CA, 4), (SA, 3)])
    t.st[S.FREE] = 0
    assert (A_SHOOT, 1) not in legal(t, 0) and (A_MOVE, port) in legal(t, 0)
    assert not t.call("act", seat=0, kind=A_MOVE, arg=port)  # move: the turn goes on
    assert t.seat(0)[S.POS] == port and (A_SHOOT, 1) in legal(t, 0)
    assert not t.call("act", seat=0, kind=A_SHOOT, arg=1)  # shoot
    assert t.events(EV.FIGHT)[-1][3:5] == (1, 1)
    x = int(t.K[S.X_SQ, 0])
    assert (A_MOVE, x) in legal(t, 0)
    assert not t.call("act", seat=0, kind=A_MOVE, arg=x)  # and move again
    assert t.seat(0)[S.POS] != port and [r[1] for r in t.events(EV.MOVE)] == [0, 0]
    # shoot first, then move
    u = table(name)
    a = next(a for a in squares(u) if water(u, a) and any(
        b != a and water(u, b) and u.K[S.SIGHT0 + a, b] for b in squares(u)))
    b = next(b for b in squares(u) if b != a and water(u, b) and u.K[S.SIGHT0 + a, b])
    u.put(0, a)
    u.put(1, b)
    u.set_hand(0, [(CA, 4), (SA, 2)])
    assert not u.call("act", seat=0, kind=A_SHOOT, arg=1)
    goal = int(u.K[S.PORT_SQ, 1])
    assert (A_MOVE, goal) in legal(u, 0)
    assert not u.call("act", seat=0, kind=A_MOVE, arg=goal)
    assert u.seat(0)[S.POS] != a


@pytest.mark.parametrize("name", SETS)
def test_pillage_then_move_then_shoot(name):
    """Your turn: Pillage, then Move, then Shoot (SOTR-053)."""
    t = table(name)
    port = int(t.K[S.PORT_SQ, 0])
    t.put(0, port)
    near = [b for b in squares(t) if water(t, b) and t.K[S.DIST0 + port, b] == 1]
    target = next(r for r in squares(t) if water(t, r) and r != port and any(
        t.K[S.SIGHT0 + q, r] and t.K[S.SIGHT0 + port, r] == 0 for q in near))
    step = next(q for q in near if t.K[S.SIGHT0 + q, target])
    t.put(1, target)
    t.set_hand(0, [(SW, 4), (SW, 4), (CA, 4)])
    t.stack([(SA, 1), (SA, 1), (SA, 1)])
    assert (A_PILLAGE, 0) in legal(t, 0)
    assert not t.call("act", seat=0, kind=A_PILLAGE, arg=0)  # pillage: the turn goes on
    assert t.seat(0)[S.CARRY_N] == 1 and t.T[S.PORT_CLOSED, 0] == 3
    t.set_hand(0, [(CA, 3)])
    t.st[S.FREE] = 1
    t.call("move", seat=0, dest=step)  # one free point: a move
    assert (A_SHOOT, 1) in legal(t, 0)
    assert not t.call("act", seat=0, kind=A_SHOOT, arg=1)  # and shoot
    assert t.events(EV.FIGHT)[-1][1] == 0


@pytest.mark.parametrize("name", SETS)
def test_three_cards_against_six_every_card_is_revealed(name):
    """With 3 cards against 6, the 6-card side turns up its last three at once: every card
    counts in the totals (SOTR-111, SOTR-112)."""
    t = Table(2, strategies="duellist", component_set=name)
    t.alongside()
    t.clear_hands()
    t.set_hand(0, [(SW, 4), (SW, 4), (SW, 4)])
    t.set_hand(1, [(SW, 1), (SW, 1), (SW, 2), (SW, 2), (SW, 3), (SW, 3)])
    t.stack([(SA, 1)])  # the defender's draw, which it cannot fight with
    t.F[2, bot.W_NERVE] = 0.0  # the defender engages
    t.call("fight", att=0, dfn=1, shoot=0)
    assert t.events(EV.RESPONSE)[-1][3:5] == (SW, 6)
    assert t.events(EV.FIGHT_END)[-1][3:] == (12, 12, 2)  # every card counted: a tie


@pytest.mark.parametrize("name", SETS)
def test_two_doubloons_leave_room_for_six_action_cards(name):
    """Hand Size: a pirate carrying 2 Doubloons holds at most 6 action cards (SOTR-186, SOTR-187)."""
    t = Table(2, component_set=name)
    t.give_treasure(0, "Doubloon")
    t.give_treasure(0, "Doubloon")
    assert t.call("hand_limit", seat=0) == 6
    t.call("refill", seat=0)
    assert t.seat(0)[S.HAND_N] == 6
    t.set_hand(0, [(SA, 1), (SA, 2), (SA, 3), (SA, 4), (SW, 1)])
    t.call("refill", seat=0)
    assert t.seat(0)[S.HAND_N] == 6
