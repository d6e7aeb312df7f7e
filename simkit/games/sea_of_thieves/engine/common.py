"""What every engine module shares: the event log, the random-bot test, reputation and the
end trigger (Reputation; Winning the Game), and the card decks kept as rings (Discarding
Cards: a discarded card goes to the bottom of its deck)."""

import numpy as np

from simkit.core.bots import RANDOM_POLICY
from simkit.core.jit import jit
from simkit.core.kernels import append_event, noisy
from simkit.core.rng import randint
from simkit.games.sea_of_thieves import events as EV
from simkit.games.sea_of_thieves import state as S
from simkit.games.sea_of_thieves.state import ST
from strategies.sea_of_thieves import NOISE, POLICY


@jit(runtime=False)
def log_event(T, log, seat, code, a, b, c):
    """One row of the event log, dated by the round it happens in (simkit.core.kernels.append_event)."""
    append_event(T, log, ST, S.LOG_N, T[ST, S.ROUND] + 1, seat, code, a, b, c)


# F column of a seat's row, past its strategy row: the skill-knob coin of the action the seat is
# taking (0 no action under way, 1 the action follows the plan, 2 the action is played at random)
ACTION_COIN = NOISE + 1


@jit(runtime=False)
def plays_random(F, rng, seat):
    """This decision is a uniformly random legal choice: the `random` preset's always, any
    other preset's with the chance its noise column gives (the skill knob). Inside
    one of the seat's actions every decision follows the action's one coin (A53); elsewhere
    each decision tosses its own."""
    if F[1 + seat, POLICY] == RANDOM_POLICY:
        return True
    coin = F[1 + seat, ACTION_COIN]
    if coin != 0.0:
        return coin > 1.5
    return noisy(rng, seat, F[1 + seat, NOISE])


@jit(inline="always", runtime=False)
def begin_action(F, rng, seat):
    """Toss the skill-knob coin of one action (A53): which ship acts, its voyage, its tasks, the
    action and every choice it resolves, Trade's stages included, are all the plan's or all
    random. No coin is tossed at noise 0 or 1 (simkit.core.kernels.noisy)."""
    if F[1 + seat, POLICY] != RANDOM_POLICY:
        F[1 + seat, ACTION_COIN] = 2.0 if noisy(rng, seat, F[1 + seat, NOISE]) else 1.0


@jit(inline="always", runtime=False)
def end_action(F, seat):
    F[1 + seat, ACTION_COIN] = 0.0


@jit(runtime=False)
def gain_reputation(P, T, log, seat, n):
    """Reputation moves by n and never below zero; the first time a player reaches the target
    the end is triggered, and it stays triggered (Winning the Game)."""
    r = max(0, T[S.SEAT0 + seat, S.REP] + n)
    T[S.SEAT0 + seat, S.REP] = r
    log_event(T, log, seat, EV.REPUTATION, n, r, np.int64(0))
    if r >= P.win_reputation and T[ST, S.END_REASON] < 0:
        T[ST, S.END_REASON] = S.END_REPUTATION
        T[ST, S.TRIGGER_SEAT] = seat
        log_event(T, log, seat, EV.END_TRIGGER, r, np.int64(0), np.int64(0))


@jit(runtime=False)
def deck_draw(T, row, head_col, n_col, size):
    """The top card of a ring deck, or -1 if it is empty."""
    n = T[ST, n_col]
    if n == 0:
        return np.int64(-1)
    h = T[ST, head_col]
    card = T[row, h]
    T[ST, head_col] = h + 1 if h + 1 < size else 0
    T[ST, n_col] = n - 1
    return card


@jit(runtime=False)
def deck_bottom(T, row, head_col, n_col, size, card):
    """Put a card face down at the bottom of its deck."""
    i = T[ST, head_col] + T[ST, n_col]
    if i >= size:
        i -= size
    T[row, i] = card
    T[ST, n_col] += 1


@jit(runtime=False)
def shuffle_row(T, rng, stream, row, n):
    """Fisher-Yates on the first n entries of T's row (simkit.core.rng.shuffle's draws, on a row in place)."""
    for i in range(n - 1, 0, -1):
        j = randint(rng, stream, i + 1)
        t = T[row, i]
        T[row, i] = T[row, j]
        T[row, j] = t
