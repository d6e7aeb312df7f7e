"""Winning the Game: final scoring in the rulebook's order - wealth (1 reputation per full 500
gold), the penalties of voyages still under way, then the Brigantines', Galleons' and special
crew's reputation values - keeping the running total at zero or above (A27); then the winner,
with the tie-breakers (most treasure tokens in the holds, then most loot tokens: A17); a tie
that survives them is shared."""

import numpy as np

from simkit.core import game as G
from simkit.core.jit import jit
from simkit.games.sea_of_thieves import events as EV
from simkit.games.sea_of_thieves import state as S
from simkit.games.sea_of_thieves.engine.cargo import count_kinds
from simkit.games.sea_of_thieves.engine.common import log_event
from simkit.games.sea_of_thieves.state import SEAT0, SHIP0, ST


@jit(runtime=False)
def final_score(P, T, K, seat):
    score = T[SEAT0 + seat, S.REP]
    score += T[SEAT0 + seat, S.GOLD] // P.gold_per_reputation
    for k in range(2 * seat, 2 * seat + 2):
        v = T[SHIP0 + k, S.VOYAGE]
        if v >= 0:
            score = max(0, score - K[S.V_PENALTY, v])
    for k in range(2 * seat, 2 * seat + 2):
        score += K[S.META, S.SHIP_REP0 + T[SHIP0 + k, S.TYPE]]
        for i in range(S.MAX_SLOTS):
            c = T[SHIP0 + k, S.SPEC0 + i]
            if c >= 0:  # the card scores whether its token is face up or not (A28)
                score += K[S.C_REP, c]
    return score


@jit(runtime=False)
def final_scoring(P, T, K, log, players, out, g):
    """Fill out[g, seat, ...] (SCORE, RANK, WINNER, then the seat metrics)."""
    for s in range(players):
        T[SEAT0 + s, S.FINAL] = final_score(P, T, K, s)
    complete = T[ST, S.END_REASON] == S.END_REPUTATION
    for s in range(players):
        a0 = T[SEAT0 + s, S.FINAL]
        a1 = count_kinds(T, K, s, np.int64(S.TREASURE_BAG))
        a2 = count_kinds(T, K, s, np.int64(S.LOOT_BAG))
        better = 0
        for o in range(players):
            b0 = T[SEAT0 + o, S.FINAL]
            b1 = count_kinds(T, K, o, np.int64(S.TREASURE_BAG))
            b2 = count_kinds(T, K, o, np.int64(S.LOOT_BAG))
            if b0 > a0 or (b0 == a0 and (b1 > a1 or (b1 == a1 and b2 > a2))):
                better += 1
        out[g, s, G.SCORE] = a0
        out[g, s, G.RANK] = better + 1
        out[g, s, G.WINNER] = 1 if (better == 0 and complete) else 0
        out[g, s, S.M_REPUTATION] = a0
        out[g, s, S.M_GOLD] = T[SEAT0 + s, S.GOLD]
        out[g, s, S.M_VOYAGES] = T[SEAT0 + s, S.VOYAGES_DONE]
        out[g, s, S.M_COMMISSIONS] = T[SEAT0 + s, S.COMMISSIONS]
        out[g, s, S.M_SINKINGS] = T[SEAT0 + s, S.SINKINGS]
        out[g, s, S.M_UPGRADES] = T[SEAT0 + s, S.UPGRADES]
        out[g, s, S.M_MONSTERS] = T[SEAT0 + s, S.MONSTERS]
        out[g, s, S.M_FORTS] = T[SEAT0 + s, S.FORTS]
        out[g, s, S.M_HAZARD_SINKS] = T[SEAT0 + s, S.HAZARD_SINKS]
        log_event(T, log, s, EV.SCORE, a0, better + 1, out[g, s, G.WINNER])
