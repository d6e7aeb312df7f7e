"""The `lookahead` tier of the Sea of Troubles bots: flat Monte Carlo over a turn's steps (numba).

At each step of its turn the lookahead pirate lists the legal actions as every bot does,
keeps the policy's top few (by the heuristic's own scores, the heuristic's pick first) and
plays each of them out several times from a copy of the game: the hidden information is
re-dealt first (`redeal`: the action deck and the rivals' hands shuffled together, the
treasure deck with the pool's cards left out at set-up, the quirk deck), then the candidate
is carried out and the game goes on with the heuristic for every seat (the lookahead's own
weights, which are the default preset's) to its end or to a horizon of rounds. A playout is
worth the pirate's share of the win if the game ended there, plus a small weight on its
margin over the best rival. The candidate with the best mean wins; ties and near-ties go to
the heuristic's pick. Every random number of a playout (re-deal, card draws, dice, the
bots' tie-breaks) comes from the lookahead seat's own decision stream, and the k-th playout
of every candidate starts from the same stream state (common random numbers), so the real
game's chance stream and the other seats' streams are untouched and candidates are
compared on the same luck (the k-th playouts of all candidates start from one re-deal, dealt
once and copied for each). Playouts never log (a log of capacity 0).

A lookahead row with `bids` (W_LA_BIDS) above 0 (the `expert`) also plays out its bid at each
round's end (`round_end`, `bid_choice`): 0, 1 and 2 cards, the heuristic's count first, each
through the round's end and the next round, under the same discipline. With `start`
(W_LA_START) it names, having won a bid, the next seat as the starter, clockwise, so it plays
last (engine.choose_start; a preset starts itself). Rows without them play as before, bit for bit.

Scratch tables (allocated once per chunk by chunk.play_with_tables): RT the playout's state, RF its
bot weights, Rrng its streams, Rbuf its candidate rows, Rlog an empty log, LV candidate
values (row 0 sums, row 1 the candidates' buf columns, row 2 1 for a repeat not played out,
row 3 the square each leaves the ship on), RD the re-dealt state the k-th
playout of every candidate starts from.
"""

import numpy as np

from simkit.core.bots import HEURISTIC_POLICY, LOOKAHEAD_POLICY
from simkit.core.jit import jit
from simkit.core.kernels import (
    copy_prefix,
    decide,
)
from simkit.core.rng import next_u64, seed_streams, shuffle
from simkit.games.sea_of_troubles import engine as E
from simkit.games.sea_of_troubles import state as S
from simkit.games.sea_of_troubles.state import DECK, HAND0, META, PLAY, SEAT0, ST, TDECK
from strategies import sea_of_troubles as bot

NEAR_TIE = 1e-6  # a candidate must beat the heuristic's pick by more than this mean value


@jit(runtime=False)
def unseen_pool(row, n_ids):
    """Compact the marks row[0..n_ids-1] (1: the id is unseen) into the ids in increasing
    order; returns how many. The pool's order is then the same whatever the hidden order was."""
    m = 0
    for c in range(n_ids):
        if row[c] == 1:
            row[m] = c
            m += 1
    return m


@jit(runtime=False)
def copy_state(dst, T, K, players):
    """Copy of the game state T into dst as far as it is in use: each pile, hand and row of
    treasure up to its count, the table rows up to their ports, quests and X's, the seats in
    play. A pile is only ever read below its count (cards are taken from the top, and a cell
    past it is written before it is read), so the copy plays as a whole one would. PLAY
    (scratch, cleared by `redeal` before it is read) is not copied."""
    copy_prefix(dst, ST, T, ST, S.ST_SIZE)
    copy_prefix(dst, DECK, T, DECK, T[ST, S.DECK_N])
    copy_prefix(dst, S.DISC, T, S.DISC, T[ST, S.DISC_N])
    copy_prefix(dst, TDECK, T, TDECK, T[ST, S.TDECK_N])
    copy_prefix(dst, S.PORT_CLOSED, T, S.PORT_CLOSED, K[META, S.NPORTS])
    copy_prefix(dst, S.QUEST, T, S.QUEST, K[META, S.N_Q])
    copy_prefix(dst, S.XOWNER, T, S.XOWNER, K[META, S.N_X])
    for s in range(players):
        copy_prefix(dst, SEAT0 + s, T, SEAT0 + s, S.SEAT_COLS)
        copy_prefix(dst, HAND0 + s, T, HAND0 + s, T[SEAT0 + s, S.HAND_N])
        copy_prefix(dst, S.CARRY0 + s, T, S.CARRY0 + s, T[SEAT0 + s, S.CARRY_N])
        copy_prefix(dst, S.BURY0 + s, T, S.BURY0 + s, T[SEAT0 + s, S.BURY_N])
        copy_prefix(dst, S.BURYX0 + s, T, S.BURYX0 + s, T[SEAT0 + s, S.BURY_N])
    copy_prefix(dst, S.QUIRK_DECK, T, S.QUIRK_DECK, T[ST, S.QDECK_N])
    copy_prefix(dst, S.QUIRK_UP, T, S.QUIRK_UP, T[ST, S.QUP_N])
    copy_prefix(dst, S.TASIDE, T, S.TASIDE, K[META, S.N_POOL] - K[META, S.N_PICK])


@jit(runtime=False)
def redeal(T, K, rng, seat, players):
    """Re-deal what the seat cannot see, keeping every count, from its own stream 1 + seat:
    the action deck and the rivals' hands as one pool; the treasure deck together with the
    pool's cards left out at set-up; the quirk deck (A41). Each pool is gathered in card-id
    order before the shuffle, so the re-deal reads only which cards are unseen, never where
    they lie. PLAY is scratch between steps."""
    r = 1 + seat
    row = T[PLAY]
    row[:] = 0
    for i in range(T[ST, S.DECK_N]):
        row[T[DECK, i]] = 1
    for o in range(players):
        if o != seat:
            for i in range(T[SEAT0 + o, S.HAND_N]):
                row[T[HAND0 + o, i]] = 1
    m = unseen_pool(row, K[META, S.N_CARDS])
    shuffle(rng, r, row, m)
    m = 0
    for o in range(players):
        if o != seat:
            for i in range(T[SEAT0 + o, S.HAND_N]):
                T[HAND0 + o, i] = row[m]
                m += 1
    for i in range(T[ST, S.DECK_N]):
        T[DECK, i] = row[m]
        m += 1
    # treasure: the deck's cards and the ones set aside are alike to the seat
    row[:] = 0
    nt = T[ST, S.TDECK_N]
    na = K[META, S.N_POOL] - K[META, S.N_PICK]
    for i in range(nt):
        row[T[TDECK, i]] = 1
    for i in range(na):
        row[T[S.TASIDE, i]] = 1
    m = unseen_pool(row, K[META, S.BOX_T])
    shuffle(rng, r, row, m)
    for i in range(nt):
        T[TDECK, i] = row[i]
    for i in range(na):
        T[S.TASIDE, i] = row[nt + i]
    row[:] = 0
    nq = T[ST, S.QDECK_N]
    for i in range(nq):
        row[T[S.QUIRK_DECK, i]] = 1
    m = unseen_pool(row, K[META, S.N_QUIRKS])
    shuffle(rng, r, row, m)
    for i in range(nq):
        T[S.QUIRK_DECK, i] = row[i]
    row[:] = 0


@jit(runtime=False)
def outcome(T, K, seat, players, margin_weight):
    """The playout's worth to the seat: its share of the win if the game ended now (more
    Infamy, then more damage, ENDING THE GAME), plus margin_weight per point over the best rival."""
    mine, _b, _c, _g = E.score_now(T, K, seat)
    my_dmg = T[SEAT0 + seat, S.DAMAGE] + T[SEAT0 + seat, S.LIVING_DAMAGE]
    best_other = -1
    beaten = False
    tied = 1
    for o in range(players):
        if o == seat:
            continue
        v, _b, _c, _g = E.score_now(T, K, o)
        best_other = max(best_other, v)
        d = T[SEAT0 + o, S.DAMAGE] + T[SEAT0 + o, S.LIVING_DAMAGE]
        if v > mine or (v == mine and d > my_dmg):
            beaten = True
        elif v == mine and d == my_dmg:
            tied += 1
    share = 0.0 if beaten else 1.0 / tied
    return share + margin_weight * (mine - best_other)


@jit
def playout(P, T, K, F, rng, buf, log, seat, players, pos, kind, arg, steps_left, horizon):
    """From the seat's decision at turn position pos of the round: carry out (kind, arg), end
    the turn with the policy, finish the round, then play up to `horizon` more rounds (the
    game loop of play_games)."""
    if not E.act(P, T, K, F, rng, log, seat, kind, arg):
        E.turn_steps(P, T, K, F, rng, buf, log, seat, players, steps_left)
    first = T[ST, S.FIRST]
    d = T[ST, S.DIR]
    for i in range(pos + 1, players):
        E.take_turn(P, T, K, F, rng, buf, log, (first + d * i) % players, players)
    T[ST, S.ROUND] += 1
    for _ in range(horizon):
        if T[ST, S.END_REASON] >= 0 or T[ST, S.ROUND] >= P.round_cap:
            return
        E.end_round(P, T, K, F, rng, log, players)
        E.play_round(P, T, K, F, rng, buf, log, players)


@jit(runtime=False)
def landing(T, K, buf, seat, i, pos_now, budget):
    """Where candidate i of buf leaves the ship: its square for ending the turn, the square
    `toward` sails to for a move; -1 for any other action."""
    if buf[E.KIND, i] == E.A_END:
        return pos_now
    if buf[E.KIND, i] == E.A_MOVE:
        return E.toward(T, K, seat, buf[E.ARG, i], budget)
    return E.NONE


@jit(inline="always")
def playout_seats(RF, F, seat, players):
    """Every seat of a playout plays the heuristic with the deciding seat's own weights (the
    lookahead's: the default preset's; the expert's: tuned's), without noise."""
    for s in range(players):
        copy_prefix(RF, 1 + s, F, 1 + seat, bot.N_HEURISTIC)
        RF[1 + s, bot.POLICY] = HEURISTIC_POLICY
        RF[1 + s, E.NOISE] = 0.0


@jit
def choose(P, T, K, F, rng, buf, seat, players, pos, n, pick, steps_left, RT, RF, Rrng, Rbuf, Rlog, LV, RD):
    """The lookahead's choice among the n candidates in buf; `pick` is the heuristic's (whose
    scores are in F[0])."""
    w = F[1 + seat]
    width = int(w[bot.W_LA_CANDIDATES])
    rollouts = int(w[bot.W_LA_ROLLOUTS])
    horizon = int(w[bot.W_LA_HORIZON])
    margin_weight = w[bot.W_LA_MARGIN]
    # the candidates: the heuristic's pick, then its next best, skipping moves to the same square
    LV[1, 0] = pick
    LV[2, 0] = 0.0
    m = 1
    pos_now = T[SEAT0 + seat, S.POS]
    budget = E.move_budget(T, K, seat)
    LV[3, 0] = landing(T, K, buf, seat, pick, pos_now, budget)
    while m < width:
        best = -1
        for i in range(n):
            taken = False
            for j in range(m):
                if int(LV[1, j]) == i:
                    taken = True
            if not taken and (best < 0 or F[0, i] > F[0, best]):
                best = i
        if best < 0:
            break
        LV[1, m] = best  # taken even when a repeat below, so the search moves on
        d = landing(T, K, buf, seat, best, pos_now, budget)
        LV[3, m] = d
        same = False
        if d >= 0:
            for j in range(m):
                if LV[3, j] == d:
                    same = True
        if same:
            LV[2, m] = 1.0  # a duplicate: not played out
        else:
            LV[2, m] = 0.0
        m += 1
    live = 0
    for j in range(m):
        if LV[2, j] == 0.0:
            live += 1
    if live < 2:
        return pick
    playout_seats(RF, F, seat, players)
    for j in range(m):
        LV[0, j] = 0.0
    for _ in range(rollouts):
        # the same luck for every candidate (common random numbers): one re-deal and one seed
        # from the seat's stream, then each candidate plays out from a copy of them
        copy_state(RD, T, K, players)
        redeal(RD, K, rng, seat, players)
        seed = next_u64(rng, 1 + seat)
        for j in range(m):
            if LV[2, j] != 0.0:
                continue
            copy_state(RT, RD, K, players)
            copy_prefix(RT, PLAY, RD, PLAY, RD.shape[1])  # as redeal left it (cleared)
            seed_streams(Rrng, seed)
            c = int(LV[1, j])
            playout(P, RT, K, RF, Rrng, Rbuf, Rlog, seat, players, pos, buf[E.KIND, c], buf[E.ARG, c],
                    steps_left, horizon)
            LV[0, j] += outcome(RT, K, seat, players, margin_weight)
    best = 0
    for j in range(1, m):
        if LV[2, j] == 0.0 and LV[0, j] > LV[0, best] + NEAR_TIE * rollouts:
            best = j
    return int(LV[1, best])


@jit
def lookahead_turn(P, T, K, F, rng, buf, log, seat, players, pos, RT, RF, Rrng, Rbuf, Rlog, LV, RD):
    """A lookahead pirate's turn: take_turn with `choose` after the policy's pick at each step."""
    if not E.begin_turn(P, T, K, log, seat):
        return
    for step in range(E.MAX_STEPS):
        if T[SEAT0 + seat, S.STATE] == S.DEAD:
            return
        n = E.candidates(P, T, K, buf, seat, players)
        if E.plays_random(F, rng, seat):
            k = decide(rng, seat, n)
        else:
            k = E.heuristic_choice(P, T, K, F, rng, buf, seat, players, n)
            if n > 1:
                k = choose(P, T, K, F, rng, buf, seat, players, pos, n, k, E.MAX_STEPS - step - 1,
                           RT, RF, Rrng, Rbuf, Rlog, LV, RD)
        if E.act(P, T, K, F, rng, log, seat, buf[E.KIND, k], buf[E.ARG, k]):
            return


@jit
def bid_choice(P, T, K, F, rng, seat, players, RT, RF, Rrng, Rbuf, Rlog, LV, RD):
    """The cards a lookahead seat bids at the round's end (W_LA_BIDS > 0): each count the
    bidding allows (0, 1, 2, at most the hand; the heuristic's own count first) played out
    W_LA_BIDS times from a re-deal, through the round's end with that bid, the next round and
    `horizon` more, every seat playing the seat's heuristic; the best mean, near-ties to the
    heuristic's count. The same discipline as `choose`: the seat's own stream, common random
    numbers, no real state touched."""
    w = F[1 + seat]
    rollouts = int(w[bot.W_LA_BIDS])
    horizon = int(w[bot.W_LA_HORIZON])
    margin_weight = w[bot.W_LA_MARGIN]
    top = min(2, T[SEAT0 + seat, S.HAND_N])
    own = min(bot.bid_count(F, seat, False), top)
    if T[SEAT0 + seat, S.STATE] == S.DEAD or top == 0 or rollouts <= 0:
        return own
    m = 1
    LV[1, 0] = own
    for nb in range(top + 1):
        if nb != own:
            LV[1, m] = nb
            m += 1
    playout_seats(RF, F, seat, players)
    RF[1 + seat, bot.W_LA_START] = w[bot.W_LA_START]  # the seat names the starter in its playouts as it would
    for j in range(m):
        LV[0, j] = 0.0
    for _ in range(rollouts):
        copy_state(RD, T, K, players)
        redeal(RD, K, rng, seat, players)
        seed = next_u64(rng, 1 + seat)
        for j in range(m):
            copy_state(RT, RD, K, players)
            copy_prefix(RT, PLAY, RD, PLAY, RD.shape[1])
            seed_streams(Rrng, seed)
            RF[1 + seat, bot.W_BID] = LV[1, j]
            E.end_round(P, RT, K, RF, Rrng, Rlog, players)
            RF[1 + seat, bot.W_BID] = w[bot.W_BID]
            E.play_round(P, RT, K, RF, Rrng, Rbuf, Rlog, players)
            for _h in range(horizon):
                if RT[ST, S.END_REASON] >= 0 or RT[ST, S.ROUND] >= P.round_cap:
                    break
                E.end_round(P, RT, K, RF, Rrng, Rlog, players)
                E.play_round(P, RT, K, RF, Rrng, Rbuf, Rlog, players)
            LV[0, j] += outcome(RT, K, seat, players, margin_weight)
    RF[1 + seat, bot.W_LA_START] = 0.0
    best = 0
    for j in range(1, m):
        if LV[0, j] > LV[0, best] + NEAR_TIE * rollouts:
            best = j
    return int(LV[1, best])


@jit
def round_end(P, T, K, F, rng, log, players, RT, RF, Rrng, Rbuf, Rlog, LV, RD):
    """engine.end_round, with the lookahead seats that play out their bids (W_LA_BIDS > 0)
    bidding the count `bid_choice` picks (each seat's choice made before any bid is shown, as
    the bids are simultaneous); a seat's own bid weight is restored afterwards."""
    saved = np.empty(players, dtype=np.float64)
    chosen = np.full(players, -1.0)
    for s in range(players):
        saved[s] = F[1 + s, bot.W_BID]
        if F[1 + s, bot.POLICY] == LOOKAHEAD_POLICY and F[1 + s, bot.W_LA_BIDS] > 0.0:
            chosen[s] = bid_choice(P, T, K, F, rng, s, players, RT, RF, Rrng, Rbuf, Rlog, LV, RD)
    for s in range(players):
        if chosen[s] >= 0.0:
            F[1 + s, bot.W_BID] = chosen[s]
    E.end_round(P, T, K, F, rng, log, players)
    for s in range(players):
        F[1 + s, bot.W_BID] = saved[s]


@jit
def play_round(P, T, K, F, rng, buf, log, players, RT, RF, Rrng, Rbuf, Rlog, LV, RD):
    """engine.play_round, with lookahead seats deciding by `lookahead_turn`."""
    first = T[ST, S.FIRST]
    d = T[ST, S.DIR]
    for i in range(players):
        s = (first + d * i) % players
        if F[1 + s, bot.POLICY] == LOOKAHEAD_POLICY:
            lookahead_turn(P, T, K, F, rng, buf, log, s, players, i, RT, RF, Rrng, Rbuf, Rlog, LV, RD)
        else:
            E.take_turn(P, T, K, F, rng, buf, log, s, players)
    T[ST, S.ROUND] += 1

