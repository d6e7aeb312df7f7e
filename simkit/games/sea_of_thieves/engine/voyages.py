"""Voyages: started at the start of one of a ship's actions, one per ship; completed for their
reward (reputation, gold, or treasure from the bag into the ship's hold) or abandoned for their
penalty; discarded to the bottom of their deck either way. The task vocabulary is A8
(components/voyages.csv)."""

import numpy as np

from simkit.core.jit import jit
from simkit.games.sea_of_thieves import events as EV
from simkit.games.sea_of_thieves import state as S
from simkit.games.sea_of_thieves.engine.cargo import draw, to_hold
from simkit.games.sea_of_thieves.engine.common import deck_bottom, gain_reputation, log_event
from simkit.games.sea_of_thieves.state import SEAT0, SHIP0

ZERO = np.int64(0)


@jit(runtime=False)
def discard_voyage(T, K, v):
    """A voyage card goes to the bottom of its tier's deck."""
    t = K[S.V_TIER, v]
    deck_bottom(T, S.VOY_DECK0 + t, S.VOY_HEAD0 + 2 * t, S.VOY_N0 + 2 * t, np.int64(S.MAX_VOYAGES), v)


@jit(runtime=False)
def start_voyage(T, K, log, k, i):
    """Lay the i-th voyage card of the owner's hand beside ship k (A ship can only undertake a
    single voyage at any time); False if the ship already has one."""
    seat = k // 2
    if T[SHIP0 + k, S.VOYAGE] >= 0 or i < 0 or i >= T[SEAT0 + seat, S.VOY_N]:
        return False
    v = T[S.VHAND0 + seat, i]
    n = T[SEAT0 + seat, S.VOY_N] - 1
    T[S.VHAND0 + seat, i] = T[S.VHAND0 + seat, n]
    T[SEAT0 + seat, S.VOY_N] = n
    T[SHIP0 + k, S.VOYAGE] = v
    T[SHIP0 + k, S.PROGRESS] = 0
    T[SHIP0 + k, S.STAGE] = 0
    T[SHIP0 + k, S.VOY_AGE] = 0
    log_event(T, log, seat, EV.VOYAGE_START, k, v, ZERO)
    return True


@jit(runtime=False)
def complete_voyage(P, T, K, rng, log, k):
    """Claim the reward, then discard the card (Completing a Voyage)."""
    seat = k // 2
    v = T[SHIP0 + k, S.VOYAGE]
    amount = K[S.V_AMOUNT, v]
    kind = K[S.V_REWARD, v]
    T[SHIP0 + k, S.VOYAGE] = -1
    T[SEAT0 + seat, S.VOYAGES_DONE] += 1
    log_event(T, log, seat, EV.VOYAGE_DONE, k, v, amount)
    if kind == S.R_REP:
        gain_reputation(P, T, log, seat, amount)
    elif kind == S.R_GOLD:
        T[SEAT0 + seat, S.GOLD] += amount
    else:
        for _ in range(amount):  # an empty bag gives what it has (Loot and Treasure Bags)
            t = draw(T, rng, np.int64(S.TREASURE_BAG))
            if t < 0:
                break
            to_hold(T, K, t, k)
    discard_voyage(T, K, v)


@jit(runtime=False)
def abandon_voyage(P, T, K, log, k):
    """Suffer the card's penalty, then discard it (Abandoning a Voyage)."""
    seat = k // 2
    v = T[SHIP0 + k, S.VOYAGE]
    if v < 0:
        return
    T[SHIP0 + k, S.VOYAGE] = -1
    T[SEAT0 + seat, S.ABANDONED] += 1
    log_event(T, log, seat, EV.VOYAGE_ABANDON, k, v, K[S.V_PENALTY, v])
    if K[S.V_PENALTY, v] > 0:
        gain_reputation(P, T, log, seat, -K[S.V_PENALTY, v])
    discard_voyage(T, K, v)


@jit(runtime=False)
def add_progress(P, T, K, rng, log, k):
    T[SHIP0 + k, S.PROGRESS] += 1
    v = T[SHIP0 + k, S.VOYAGE]
    log_event(T, log, k // 2, EV.VOYAGE_PROGRESS, k, v, T[SHIP0 + k, S.PROGRESS])
    if T[SHIP0 + k, S.PROGRESS] >= K[S.V_TARGET, v]:
        complete_voyage(P, T, K, rng, log, k)


@jit(runtime=False)
def after_action(P, T, K, rng, log, k):
    """Voyages completed by where the ship is once its action is resolved: reach an island, or
    the two legs of a delivery (A8)."""
    v = T[SHIP0 + k, S.VOYAGE]
    h = T[SHIP0 + k, S.HEX]
    if v < 0 or h < 0:
        return
    task = K[S.V_TASK, v]
    if task == S.V_REACH:
        if h == T[S.SYMBOL_HEX, K[S.V_SYM, v]]:
            complete_voyage(P, T, K, rng, log, k)
    elif task == S.V_DELIVER:
        if T[SHIP0 + k, S.STAGE] == 0 and h == T[S.SYMBOL_HEX, K[S.V_SYM, v]]:
            T[SHIP0 + k, S.STAGE] = 1
            add_progress(P, T, K, rng, log, k)
        elif T[SHIP0 + k, S.STAGE] == 1 and h == T[S.SYMBOL_HEX, K[S.V_SYM2, v]]:
            add_progress(P, T, K, rng, log, k)


@jit(runtime=False)
def on_loot(P, T, K, rng, log, k):
    """A Loot entry on a dig voyage's island is one progress token."""
    v = T[SHIP0 + k, S.VOYAGE]
    if v >= 0 and K[S.V_TASK, v] == S.V_DIG and T[SHIP0 + k, S.HEX] == T[S.SYMBOL_HEX, K[S.V_SYM, v]]:
        add_progress(P, T, K, rng, log, k)


@jit(runtime=False)
def on_fight(P, T, K, rng, log, k):
    """A skeleton defeated is one progress token of a fight voyage."""
    v = T[SHIP0 + k, S.VOYAGE]
    if v >= 0 and K[S.V_TASK, v] == S.V_FIGHT:
        add_progress(P, T, K, rng, log, k)


@jit(runtime=False)
def on_sinking(P, T, K, rng, log, sunk):
    """The ship that last fired on a sunk ship advances its sink voyage (A8)."""
    k = T[SHIP0 + sunk, S.LAST_HIT]
    if k < 0 or k // 2 == sunk // 2:
        return
    v = T[SHIP0 + k, S.VOYAGE]
    if v >= 0 and K[S.V_TASK, v] == S.V_SINK:
        add_progress(P, T, K, rng, log, k)
