"""The lookahead tier of Tide of Avaris: flat Monte Carlo over each
turn's destination, the turn's main decision (numba).

At each of its turns the seat takes the heuristic's best `LA_CANDIDATES` destinations (the
heuristic's own choice first). For each of `LA_ROLLOUTS` rollouts it copies the table into a
scratch table and re-deals what its player cannot see (`redeal`, once for all the candidates);
for each candidate it copies that deal, sends its ship to the candidate
and plays on, every seat with the deciding row's judgement (`bot.copy_judgement`: the controller's
for the `lookahead` preset, tuned's for `expert`), to the end
of the game or for `LA_HORIZON` Nights (0: to the end). The table is then scored as if the game
ended there (`engine.end_now`): 1 for a win (after the rulebook's tie-break), plus `LA_MARGIN`
per Treasure Point of lead over the best rival. The k-th rollout of every candidate starts from
one seed (common random numbers): candidates are compared on the same re-deal, dice and bag
draws. Another destination replaces the heuristic's only when its mean beats the heuristic's by
`LA_KEEP`. Rollouts run a round at a time over the candidates still running: from the third on, a
candidate trailing the leader by `LA_RACE` standard errors of the paired differences stops
(`simkit.core.kernels.race_prune`; 0: none), and the best candidate still running is played. Every other decision of the seat (Act, fights, dice, Night) is the heuristic's.

Randomness: each rollout's seed is drawn from the seat's own decision stream and seeds a scratch
rng (chance and every seat); the real game's chance stream and the other seats' streams are never
touched. Rollouts play on scratch tables with a log of no rows: they write nothing the game keeps.
"""

import numpy as np

from simkit.core.jit import jit
from simkit.core.kernels import (
    BARRED_BELOW,
    NO_BEST,
    RACE_ALIVE,
    RACE_FIRST,
    RACE_SUM,
    copy_prefix,
    copy_rows,
    race_pick,
    race_prune,
    sort_ints,
)
from simkit.core.rng import CHANCE, next_u64, randint, seed_streams, shuffle
from simkit.games.tide_of_avaris import engine as E
from simkit.games.tide_of_avaris import state as S
from simkit.games.tide_of_avaris.state import DICE0, FACE, META, ORDER, SEAT0, ST
from strategies import tide_of_avaris as bot

MAX_CANDIDATES = 8  # the candidates knob is capped here (scratch arrays are this long)
VALUE_WIDTH = RACE_FIRST + bot.MAX_ROLLOUTS  # a row of `value`: a candidate's race (kernels.race_prune)


@jit(runtime=False)
def canonical_shuffle(rng, a, n):
    """Sort the first n entries, then shuffle them from rng's chance stream: the result depends
    on which cards are there, never on the order they really lie in."""
    sort_ints(a, n)
    shuffle(rng, CHANCE, a, n)


@jit(runtime=False)
def copy_state(W, T, K, players):
    """Copy into W every cell of T a game of `players` seats holds (state.py's layout): each row
    up to its last used column, the seats in play only. A rollout starts from W as it would from
    a whole copy of T, in about a sixth of the cells."""
    spaces, relics, monsters = K[META, S.N_SPACES], K[META, S.N_RELIC_CARDS], K[META, S.N_MONSTERS]
    copy_prefix(W, ST, T, ST, S.ST_SIZE)
    copy_prefix(W, S.BAG, T, S.BAG, S.N_COLOURS)
    copy_prefix(W, S.SLOT, T, S.SLOT, S.MAX_SLOTS * spaces)
    copy_prefix(W, ORDER, T, ORDER, S.POSITION + S.MAX_PLAYERS)
    copy_prefix(W, S.CONTROL, T, S.CONTROL, S.SLOOPS_AT + S.N_CTRL)
    copy_prefix(W, S.NAVY_HOLD, T, S.NAVY_HOLD, S.N_COLOURS)
    copy_prefix(W, S.RELIC_DECK, T, S.RELIC_DECK, relics)
    copy_prefix(W, S.DISPLAY, T, S.DISPLAY, relics)
    copy_prefix(W, S.RELIC_DISC, T, S.RELIC_DISC, relics)
    copy_prefix(W, S.MONSTER_DECK, T, S.MONSTER_DECK, monsters)
    copy_prefix(W, S.MONSTER_DISC, T, S.MONSTER_DISC, monsters)
    copy_prefix(W, S.NAVY_DECK, T, S.NAVY_DECK, K[META, S.N_NAVY])
    copy_prefix(W, S.BURIAL_DECK, T, S.BURIAL_DECK, K[META, S.N_BURIAL])
    copy_prefix(W, S.ENDGAME, T, S.ENDGAME, S.TOKEN_COL + 4)
    copy_prefix(W, S.SCRATCH, T, S.SCRATCH, T.shape[1])  # zero between calls, and read as such (redeal)
    copy_prefix(W, S.SCRATCH2, T, S.SCRATCH2, T.shape[1])
    for s in range(players):
        copy_prefix(W, SEAT0 + s, T, SEAT0 + s, S.SEAT_COLS)
        copy_prefix(W, S.HOLD0 + s, T, S.HOLD0 + s, S.HOLD_COLS)
        copy_prefix(W, DICE0 + s, T, DICE0 + s, S.READY + S.DIE_SLOTS)
        copy_prefix(W, S.RELICS0 + s, T, S.RELICS0 + s, S.MAX_RELICS)
        copy_prefix(W, S.PRIVATE0 + s, T, S.PRIVATE0 + s, S.MAX_PRIVATE)
        copy_prefix(W, S.PLAN0 + s, T, S.PLAN0 + s, len(S.TRACKS))


@jit(runtime=False)
def redeal(P, T, K, rng, me, players):
    """Replace in the copy T everything seat `me` cannot see by a draw from what it may know
    (A64, A66): rivals' crew dice faces are rolled again; rivals' gold and rum are taken to be
    its own; rivals' points lose what private bonuses scored; the private bonuses they hold and
    the Burial Bonus deck are dealt again from the cards unseen by `me`, keeping every count; the
    relic, Explore and Navy decks are shuffled; the locked endgame bonuses are dealt again from
    the cards not face up."""
    n_faces = K[META, S.N_CREW_FACES]
    for s in range(players):
        if s == me:
            continue
        row = SEAT0 + s
        for i in range(S.DIE_SLOTS):
            T[DICE0 + s, FACE + i] = randint(rng, CHANCE, n_faces)
        T[row, S.GOLD] = T[SEAT0 + me, S.GOLD]
        T[row, S.RUM] = T[SEAT0 + me, S.RUM]
        T[row, S.POINTS] -= T[row, S.SECRET_POINTS]
        T[row, S.BONUS_POINTS] -= T[row, S.SECRET_POINTS]
        T[row, S.SECRET_POINTS] = 0
    canonical_shuffle(rng, T[S.RELIC_DECK], T[ST, S.RELIC_DECK_N])
    canonical_shuffle(rng, T[S.MONSTER_DECK], T[ST, S.MONSTER_DECK_N])
    canonical_shuffle(rng, T[S.NAVY_DECK], T[ST, S.NAVY_DECK_N])
    pool = T[S.SCRATCH]  # burial bonuses unseen by me: the deck and the rivals' private hands
    n = 0
    for i in range(T[ST, S.BURIAL_DECK_N]):
        pool[n] = T[S.BURIAL_DECK, i]
        n += 1
    for s in range(players):
        if s != me:
            for i in range(T[SEAT0 + s, S.PRIVATE_N]):
                pool[n] = T[S.PRIVATE0 + s, i]
                n += 1
    canonical_shuffle(rng, pool, n)
    k = 0
    for s in range(players):
        if s != me:
            for i in range(T[SEAT0 + s, S.PRIVATE_N]):
                T[S.PRIVATE0 + s, i] = pool[k]
                k += 1
    for i in range(T[ST, S.BURIAL_DECK_N]):
        T[S.BURIAL_DECK, i] = pool[k]
        k += 1
    # locked endgame bonuses lie face down (flipped by Unlock): any card not face up may be there
    n = 0
    for card in range(K[META, S.N_ENDGAME]):
        if not S.endgame_face_up(T, card):
            pool[n] = card
            n += 1
    shuffle(rng, CHANCE, pool, n)
    k = 0
    for j in range(4):
        if T[S.ENDGAME, S.TOKEN_COL + j] == 0:
            T[S.ENDGAME, j] = pool[k]
            k += 1
    T[S.SCRATCH, :] = 0  # scratch rows are zero between calls (Recycle marks dice there)


@jit(runtime=False)
def rollout(P, W, K, F2, rng2, log0, seat, phase, i, players, dest, horizon):
    """From the turn of `seat` at turn-order position i of `phase`, its destination `dest`: the
    rest of the Day, the Night, then whole Days, until the game ends or `horizon` Nights have
    passed (horizon <= 0: the end)."""
    E.finish_turn(P, W, K, F2, rng2, log0, seat, phase, players, dest)
    for j in range(i + 1, players):
        E.take_turn(P, W, K, F2, rng2, log0, W[ORDER, j], phase, players)
    if phase == 0:
        W[ST, S.ROUND_TURN] = 1
        for j in range(players):
            E.take_turn(P, W, K, F2, rng2, log0, W[ORDER, j], np.int64(1), players)
    over = E.night(P, W, K, F2, rng2, log0, players)
    nights = 1
    while not over and (horizon <= 0 or nights < horizon):
        over = E.play_day(P, W, K, F2, rng2, log0, players)
        nights += 1


@jit(runtime=False)
def outcome(W, seat, players, margin):
    """A scored table's worth to `seat`: 1 if it wins (more points, or as many and higher in
    turn order: the final tie-break), plus `margin` per point of lead over the best rival."""
    mine = W[SEAT0 + seat, S.POINTS]
    wins = True
    best_other = np.int64(-(1 << 40))
    for o in range(players):
        if o == seat:
            continue
        po = W[SEAT0 + o, S.POINTS]
        best_other = max(best_other, po)
        if po > mine or (po == mine and W[ORDER, S.POSITION + o] < W[ORDER, S.POSITION + seat]):
            wins = False
    return (1.0 if wins else 0.0) + margin * (mine - best_other)


@jit(runtime=False)
def choose_destination(P, T, K, F, rng, seat, phase, i, players, W, F2, rng2, D, rngD, log0, cand, value):
    """The lookahead seat's destination at its turn (position i of `phase`), as the module says.
    W, F2, rng2: scratch copies of T, F, rng; D, rngD: the round's re-dealt table and the streams
    as the deal left them; cand, value: MAX_CANDIDATES long. Reads of T are
    only through the re-dealt copy, besides what the heuristic itself reads."""
    if bot.plays_random(F, rng, seat):  # the skill knob: a uniformly random legal choice
        return bot.random_destination(T, K, rng, seat)
    h = bot.heuristic_destination(P, T, K, F, rng, seat, phase, players)
    n_cand = min(np.int64(F[1 + seat, bot.LA_CANDIDATES]), MAX_CANDIDATES)
    rollouts = min(np.int64(F[1 + seat, bot.LA_ROLLOUTS]), np.int64(bot.MAX_ROLLOUTS))
    if n_cand < 2 or rollouts < 1:
        return h
    scores = F[0]
    n_spaces = K[META, S.N_SPACES]
    cand[0] = h
    scores[h] = NO_BEST
    nc = 1
    while nc < n_cand:  # the next best destinations in reach, highest score first
        best = np.int64(-1)
        for b in range(n_spaces):
            if scores[b] > BARRED_BELOW and (best < 0 or scores[b] > scores[best]):
                best = np.int64(b)
        if best < 0:
            break
        cand[nc] = best
        scores[best] = NO_BEST
        nc += 1
    if nc < 2:
        return h
    for s in range(players):  # every seat of a rollout plays the heuristic with all of this row's judgement
        bot.copy_judgement(F2, 1 + s, F, 1 + seat)
    horizon = np.int64(F[1 + seat, bot.LA_HORIZON])
    margin = F[1 + seat, bot.LA_MARGIN]
    for c in range(nc):
        value[c, RACE_SUM] = 0.0
        value[c, RACE_ALIVE] = 1.0
    played = np.int64(0)
    running = nc
    while played < rollouts and running > 1:  # rollout r of every running candidate, then the race
        seed = next_u64(rng, 1 + seat)
        seed_streams(rngD, seed)  # the same re-deal and dice for every candidate: dealt once a round
        copy_state(D, T, K, players)
        redeal(P, D, K, rngD, seat, players)
        for c in range(nc):
            if value[c, RACE_ALIVE] != 1.0:
                continue
            copy_state(W, D, K, players)
            copy_rows(rng2, rngD, 0, rng2.shape[0])
            rollout(P, W, K, F2, rng2, log0, seat, phase, i, players, cand[c], horizon)
            E.end_now(P, W, K, log0, players)
            v = outcome(W, seat, players, margin)
            value[c, RACE_FIRST + played] = v
            value[c, RACE_SUM] += v
        played += 1
        running = race_prune(value, nc, played, F[1 + seat, bot.LA_RACE])
    # the best running destination; while the heuristic's runs, only by LA_KEEP a rollout
    return cand[race_pick(value, nc, F[1 + seat, bot.LA_KEEP] * played)]
