"""The lookahead tier of Sea of Plunder (the `lookahead` and `expert` presets, policy 2): flat
Monte Carlo at the turn's first play, on the rules of engine.py (numba).

From the position after the Draw phase, each of the heuristic's best plays is played out by
rollouts: the state is copied into scratch tables, the cards the seat cannot see are re-dealt,
the candidate is played and the game goes on with every seat playing the deciding seat's own
heuristic weights (its preset row without the lookahead's knobs and noise) for `horizon`
turns (or to the end). All randomness of a rollout comes from one draw of the seat's own
decision stream, so the game's chance stream and the other seats' streams are untouched;
rollouts write no log. Rollout k of every candidate starts from the same seed (the same
re-deal and dice: common random numbers), and a candidate must beat the heuristic's own
choice by a margin to be taken instead. The game loop (chunk.py) seats it.
"""

import numpy as np

from simkit.core.bots import HEURISTIC_POLICY
from simkit.core.jit import jit
from simkit.core.kernels import RACE_ALIVE, RACE_FIRST, RACE_SUM, TRUE, copy_rows, race_pick, race_prune, sort_ints
from simkit.core.rng import CHANCE, next_u64, seed_streams, shuffle
from simkit.games.sea_of_plunder import state as S
from simkit.games.sea_of_plunder.engine import (
    NONE,
    begin_turn,
    finish_turn,
    list_plays,
    score_if_ended,
    score_plays,
    take_turn,
)
from simkit.games.sea_of_plunder.state import CARD0, DECK, HAND0, SEAT0, ST
from strategies import sea_of_plunder as bot

# rows of the scratch table `unseen` (width of T)
U_CARDS, U_EVENTS, U_GOODS, U_WORK, U_HANDS, U_CAND = 0, 1, 2, 3, 4, 5
UNSEEN_ROWS = 6
_ROLLOUT_STEP = np.uint64(0x9E3779B97F4A7C15)


@jit(runtime=False)
def gather_unseen(T, K, seat, unseen, counts):
    """What `seat` cannot see, sorted so that only its contents matter, never where it lies:
    the Map, Port and Action cards in the deck and in the other hands (U_CARDS), the Events
    in the deck (U_EVENTS) and the Goods in the other hands (U_GOODS). counts[0..2] are their
    sizes; counts[3] the cards in the other hands. The seat's own hand, the pile and the
    board are seen (A33, A53)."""
    n_cards = K.shape[0] - CARD0
    na = 0
    ne = 0
    ng = 0
    held = 0
    for i in range(T[ST, S.DECK_N]):
        card = T[DECK, i]
        if K[CARD0 + card, S.CI_KIND] == S.EVENT:
            unseen[U_EVENTS, ne] = card
            ne += 1
        else:
            unseen[U_CARDS, na] = card
            na += 1
    for s in range(T[ST, S.PLAYERS]):
        if s == seat:
            continue
        for h in range(T[SEAT0 + s, S.HAND_N]):
            code = T[HAND0 + s, h]
            if code >= n_cards:
                unseen[U_GOODS, ng] = code
                ng += 1
            else:
                unseen[U_CARDS, na] = code
                na += 1
            held += 1
    sort_ints(unseen[U_CARDS], na)
    sort_ints(unseen[U_EVENTS], ne)
    sort_ints(unseen[U_GOODS], ng)
    counts[0] = na
    counts[1] = ne
    counts[2] = ng
    counts[3] = held


@jit(runtime=False)
def redeal(T, rng, seat, unseen, counts):
    """Deal the unseen cards at random into the other hands (each keeps its size; Goods go to
    hands, Events to the deck) and the deck, from the rollout's chance stream."""
    na, ne, ng, held = counts[0], counts[1], counts[2], counts[3]
    work = unseen[U_WORK]
    hands = unseen[U_HANDS]
    for i in range(na):
        work[i] = unseen[U_CARDS, i]
    shuffle(rng, CHANCE, work, na)
    for i in range(ng):
        hands[i] = unseen[U_GOODS, i]
    for i in range(held - ng):
        hands[ng + i] = work[i]
    shuffle(rng, CHANCE, hands, held)
    j = 0
    for s in range(T[ST, S.PLAYERS]):
        if s == seat:
            continue
        for h in range(T[SEAT0 + s, S.HAND_N]):
            T[HAND0 + s, h] = hands[j]
            j += 1
    n = 0
    for i in range(held - ng, na):
        T[DECK, n] = work[i]
        n += 1
    for i in range(ne):
        T[DECK, n] = unseen[U_EVENTS, i]
        n += 1
    shuffle(rng, CHANCE, T[DECK], n)


@jit(runtime=False)
def rollout_value(P, T, K, buf, seat, win):
    """A rollout's result for `seat`: `win` times its share of the lead (what it would win
    if the game ended now; tied leaders share) plus its score margin over the best rival."""
    players = T[ST, S.PLAYERS]
    mine = score_if_ended(P, T, K, buf, seat)
    best = np.int64(-(1 << 40))
    for s in range(players):
        if s != seat:
            best = max(best, score_if_ended(P, T, K, buf, s))
    if mine > best:
        share = 1.0
    elif mine == best:
        tied = 1
        for s in range(players):
            if s != seat and score_if_ended(P, T, K, buf, s) == mine:
                tied += 1
        share = 1.0 / tied
    else:
        share = 0.0
    return win * share + (mine - best)


@jit(runtime=False)
def play_on(P, T, K, F, rng, buf, log, seat, horizon):
    """Go on from the end of `seat`'s turn for `horizon` turns (0: to the end of the game),
    ending rounds as play_games does."""
    players = T[ST, S.PLAYERS]
    s = seat
    done = 0
    while True:
        s += 1
        if s == players:
            T[ST, S.ROUND] += 1
            if T[ST, S.END_REASON] >= 0 or T[ST, S.ROUND] >= P.round_cap:
                return
            s = 0
        if horizon > 0 and done >= horizon:
            return
        take_turn(P, T, K, F, rng, buf, log, s)
        done += 1


@jit(runtime=False)
def lookahead_choice(P, T, K, F, rng, buf, seat, T2, F2, rr, buf2, nolog, unseen, values):
    """The candidate row (of list_plays, as buf holds it) the lookahead plays first this turn,
    or -1 to leave the play to the heuristic (at most one legal play). Reads T, changes
    nothing in it, and draws once from the seat's decision stream."""
    n_cand = list_plays(P, T, K, buf, seat, NONE, TRUE)
    if n_cand <= 1:
        return np.int64(-1)
    w = F[1 + seat]
    score_plays(P, T, K, F, buf, seat, n_cand)
    # the heuristic's best plays, best first (ties: the first listed)
    k = min(np.int64(w[bot.LA_CANDIDATES]), n_cand, bot.MAX_LOOKAHEAD)
    cand = unseen[U_CAND]
    for c in range(k):
        best = np.int64(-1)
        for i in range(n_cand):
            taken = False
            for j in range(c):
                if cand[j] == i:
                    taken = True
            if not taken and (best < 0 or F[0, i] > F[0, best]):
                best = i
        cand[c] = best
    if k <= 1:
        return cand[0]
    # every seat of a rollout plays the deciding seat's own heuristic weights, without noise: the
    # `lookahead` preset carries collector's, the `expert` tuned's (its lookahead slots are read
    # by nothing a rollout calls)
    for s in range(T[ST, S.PLAYERS]):
        for j in range(bot.N_WEIGHTS):
            F2[1 + s, j] = w[j]
        F2[1 + s, bot.POLICY] = HEURISTIC_POLICY
    counts = unseen[U_CAND, bot.MAX_LOOKAHEAD:]
    gather_unseen(T, K, seat, unseen, counts)
    rollouts = min(np.int64(w[bot.LA_ROLLOUTS]), np.int64(bot.MAX_ROLLOUTS))
    horizon = np.int64(w[bot.LA_HORIZON])
    win = w[bot.LA_WIN]
    base = next_u64(rng, 1 + seat)
    for c in range(k):
        values[c, RACE_SUM] = 0.0
        values[c, RACE_ALIVE] = 1.0
    played = np.int64(0)
    running = k
    while played < rollouts and running > 1:  # rollout r of every running candidate, then the race
        r = played
        for c in range(k):
            if values[c, RACE_ALIVE] != 1.0:
                continue
            seed_streams(rr, base + np.uint64(r) * _ROLLOUT_STEP)
            copy_rows(T2, T, 0, T.shape[0])
            redeal(T2, rr, seat, unseen, counts)
            T2[ST, S.FORCED_PLAY] = cand[c] + 1
            finish_turn(P, T2, K, F2, rr, buf2, nolog, seat)
            play_on(P, T2, K, F2, rr, buf2, nolog, seat, horizon)
            v = rollout_value(P, T2, K, buf2, seat, win)
            values[c, RACE_FIRST + r] = v
            values[c, RACE_SUM] += v
        played += 1
        running = race_prune(values, k, played, w[bot.LA_RACE])
    # the best running candidate; while the heuristic's own choice runs, only by LA_MARGIN a rollout
    return cand[race_pick(values, k, w[bot.LA_MARGIN] * played)]


@jit(runtime=False)
def lookahead_turn(P, T, K, F, rng, buf, log, seat, T2, F2, rr, buf2, nolog, unseen, values):
    """A turn of a lookahead seat: the Draw phase, its rollouts, then the rest of the turn with
    the chosen first play."""
    begin_turn(P, T, K, F, rng, buf, log, seat)
    choice = lookahead_choice(P, T, K, F, rng, buf, seat, T2, F2, rr, buf2, nolog, unseen, values)
    T[ST, S.FORCED_PLAY] = choice + 1
    finish_turn(P, T, K, F, rng, buf, log, seat)
