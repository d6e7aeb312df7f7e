"""The lookahead tier: flat Monte Carlo over the turn's plan.

At the start of its turn a lookahead-kind seat (the `lookahead` and `expert` presets) chooses
which heuristic plan to follow this turn: its own weights first, then the preset rows its plan
slots name (`strategies.sea_of_thieves` W_PLAN1..W_PLAN3: the lookahead's own weights are the
merchant's and its other plans the hunter's and the legend chaser's; the expert's own are
tuned's). Each plan is scored by rollouts: the game is copied into scratch tables, what the
seat cannot see is dealt again (`redeal`), the seat plays its turn with that plan, and every
seat then plays on for `horizon` rounds (or to the end) with the deciding seat's own weights
(`rollout_weights`: the seat does not know its rivals' styles); a rollout scores the seat's
lead over the best rival in reputation-if-the-game-ended-now, and a win as a large lead. The
k-th rollout of every plan uses the same seed (common random numbers), so plans are compared
on the same dice and deal; a tie keeps the own plan.

Every random draw of a rollout, the re-deal included, comes from the lookahead seat's own
decision stream: the real game's chance stream and the other seats' streams are untouched, and
rollouts never log.
"""

import numpy as np

from simkit.core.game import LOG_WIDTH
from simkit.core.jit import jit
from simkit.core.kernels import (
    NO_BEST,
    RACE_ALIVE,
    RACE_FIRST,
    RACE_SUM,
    copy_block,
    copy_prefix,
    copy_rows,
    fixed_width,
    race_pick,
    race_prune,
    same_block,
    sort_ints,
    unowned_float,
    unowned_int,
    unowned_uint,
)
from simkit.core.rng import CHANCE, derive, next_u64, randint, seed_streams
from simkit.games.sea_of_thieves import state as S
from simkit.games.sea_of_thieves.engine.round import F_WIDTH, end_round, take_turn
from simkit.games.sea_of_thieves.engine.scoring import final_score
from simkit.games.sea_of_thieves.state import SEAT0, SHIP0, ST, T_WIDTH
from strategies import sea_of_thieves as bot

WIN_VALUE = 100.0  # a rollout that ends in a win scores as a lead this large


@jit(runtime=False)
def _shuffle_list(T, rng, row, n):
    for i in range(n - 1, 0, -1):
        j = randint(rng, CHANCE, i + 1)
        x = T[row, i]
        T[row, i] = T[row, j]
        T[row, j] = x


@jit(runtime=False)
def _redeal_ring(T, rng, deck_row, head_col, n_col, size, hand_row0, hand_n_col, me, players, tier, K):
    """Shuffle a ring deck together with the rivals' hands of the same cards (tier >= 0: only
    voyage cards of that tier), keeping every hand's size; uses row SCRATCH."""
    m = 0
    h = T[ST, head_col]
    for i in range(T[ST, n_col]):
        T[S.SCRATCH, m] = T[deck_row, (h + i) % size]
        m += 1
    for s in range(players):
        if s == me:
            continue
        for i in range(T[SEAT0 + s, hand_n_col]):
            c = T[hand_row0 + s, i]
            if tier < 0 or K[S.V_TIER, c] == tier:
                T[S.SCRATCH, m] = c
                m += 1
    sort_ints(T[S.SCRATCH], m)  # re-dealt from an order that does not depend on where the cards really are
    _shuffle_list(T, rng, S.SCRATCH, m)
    m = 0
    for i in range(T[ST, n_col]):
        T[deck_row, (h + i) % size] = T[S.SCRATCH, m]
        m += 1
    for s in range(players):
        if s == me:
            continue
        for i in range(T[SEAT0 + s, hand_n_col]):
            if tier < 0 or K[S.V_TIER, T[hand_row0 + s, i]] == tier:
                T[hand_row0 + s, i] = T[S.SCRATCH, m]
                m += 1


@jit(runtime=False)
def _unseen(T, K, t, me, bag):
    """Token t is one of `bag`'s that `me` cannot see: in the bag, or face down in a rival's hold."""
    if K[S.TOK_BAG, t] != bag or K[S.TOK_KIND, t] == S.SKELETON:
        return False
    loc = T[S.TOK_LOC, t]
    return loc == (S.IN_LOOT_BAG if bag == S.LOOT_BAG else S.IN_TREASURE_BAG) or (
        loc >= S.HOLD and (loc - S.HOLD) // 2 != me)


@jit(runtime=False)
def _redeal_tokens(T, K, rng, me, players, bag):
    """The unseen tokens of one bag change places at random; each rival hold keeps its size
    (`_recount_holds` then sets the holds' values). Rows SCRATCH (the tokens) and DICE (their
    places) are free at the start of a turn."""
    m = 0
    for t in range(K[S.META, S.N_TOKENS]):
        if _unseen(T, K, t, me, bag):
            T[S.SCRATCH, m] = t
            T[S.DICE, m] = T[S.TOK_LOC, t]
            m += 1
    sort_ints(T[S.DICE], m)  # the places, in an order that does not depend on which token was where
    _shuffle_list(T, rng, S.SCRATCH, m)
    row = S.LOOT_BAG_ROW if bag == S.LOOT_BAG else S.TREASURE_BAG_ROW
    n_col = S.LOOT_N if bag == S.LOOT_BAG else S.TREASURE_N
    in_bag = 0
    for i in range(T[ST, n_col]):  # skeletons in the bag stay there (no hold takes one)
        if K[S.TOK_KIND, T[row, i]] == S.SKELETON:
            T[row, in_bag] = T[row, i]
            in_bag += 1
    for i in range(m):
        u = T[S.SCRATCH, i]
        loc = T[S.DICE, i]
        T[S.TOK_LOC, u] = loc
        if loc < S.HOLD:
            T[row, in_bag] = u
            in_bag += 1
    T[ST, n_col] = in_bag


@jit(runtime=False)
def _recount_holds(T, K, me, players):
    """The rivals' hold values and resource counts, from the tokens now in their holds."""
    for k in range(2 * players):
        if k // 2 != me:
            T[SHIP0 + k, S.HOLD_VALUE] = 0
            T[SHIP0 + k, S.RES_N] = 0
    for t in range(K[S.META, S.N_TOKENS]):
        loc = T[S.TOK_LOC, t]
        if loc >= S.HOLD and (loc - S.HOLD) // 2 != me:
            T[SHIP0 + loc - S.HOLD, S.HOLD_VALUE] += K[S.TOK_VALUE, t]
            if K[S.TOK_KIND, t] == S.RESOURCE:
                T[SHIP0 + loc - S.HOLD, S.RES_N] += 1


@jit(runtime=False)
def redeal(T, K, rng, me, players):
    """Deal again what seat `me` cannot see (A50): the order of every deck (events included), the rivals'
    fortune and voyage hands (voyages within their tier), and which tokens lie in the bags or
    face down in the rivals' holds. Public facts keep: hand and hold sizes, the Outpost's cards,
    everything on the board, every seat's own cards and cargo."""
    _redeal_ring(T, rng, S.FORTUNE_DECK, S.FORTUNE_HEAD, S.FORTUNE_N, np.int64(S.MAX_FORTUNE), S.FHAND0,
                 S.FORT_N, me, players, np.int64(-1), K)
    for tier in range(3):
        _redeal_ring(T, rng, S.VOY_DECK0 + tier, S.VOY_HEAD0 + 2 * tier, S.VOY_N0 + 2 * tier,
                     np.int64(S.MAX_VOYAGES), S.VHAND0, S.VOY_N, me, players, np.int64(tier), K)
    _redeal_ring(T, rng, S.CREW_DECK, S.CREW_HEAD, S.CREW_N, np.int64(S.MAX_CREW_CARDS), S.FHAND0,
                 S.FORT_N, me, np.int64(0), np.int64(-1), K)  # no hands: the deck alone
    _redeal_ring(T, rng, S.EVENT_DECK, S.EVENT_HEAD, S.EVENT_N, np.int64(S.MAX_EVENTS), S.FHAND0,
                 S.FORT_N, me, np.int64(0), np.int64(-1), K)
    _redeal_tokens(T, K, rng, me, players, np.int64(S.LOOT_BAG))
    _redeal_tokens(T, K, rng, me, players, np.int64(S.TREASURE_BAG))
    _recount_holds(T, K, me, players)


@jit(runtime=False)
def worth(P, T, K, seat):
    """The seat's score if the game ended now, plus what it has under way: the gold its score does
    not count yet and its holds' cargo at their gold value, as a fraction of a reputation point,
    and the penalties of its voyages under way back (they may still be completed)."""
    score = 1.0 * final_score(P, T, K, seat)
    gold = T[SEAT0 + seat, S.GOLD] % P.gold_per_reputation
    for k in range(2 * seat, 2 * seat + 2):
        gold += T[SHIP0 + k, S.HOLD_VALUE]
        v = T[SHIP0 + k, S.VOYAGE]
        if v >= 0:
            score += K[S.V_PENALTY, v]
    return score + gold / P.gold_per_reputation


@jit(runtime=False)
def rollout_value(P, T, K, me, players, cargo):
    """The seat's lead over the best rival if the game ended now (cargo: by `worth`, which counts
    what is under way); a finished game scores its result: WIN_VALUE for a win (shared: split),
    -WIN_VALUE for a loss."""
    mine = final_score(P, T, K, me)
    best = -(1 << 40)
    for s in range(players):
        if s != me:
            best = max(best, final_score(P, T, K, s))
    if T[ST, S.END_REASON] == S.END_REPUTATION:
        if mine > best:
            return WIN_VALUE
        if mine < best:
            return -WIN_VALUE
        return 0.0
    if cargo:
        lead = NO_BEST
        for s in range(players):
            if s != me:
                lead = max(lead, worth(P, T, K, s))
        return worth(P, T, K, me) - lead
    return float(mine - best)


@jit(runtime=False)
def n_plans(F, seat):
    """The seat's plans: its own weights, then one per plan slot up to the first empty one."""
    n = np.int64(1)
    for slot in bot.PLAN_SLOTS:
        if F[1 + seat, slot] < 1.0:
            break
        n += 1
    return n


@jit(runtime=False)
def plan_row(F, seat, plan):
    """What plan `plan` plays (0: the seat's own weights; else its plan slot: a preset row, or
    from bot.VARIANT on the own weights with one changed, see set_plan)."""
    if plan == 0:
        return 0.0
    return F[1 + seat, bot.PLAN_SLOTS[plan - 1]]


@jit(runtime=False)
def set_plan(F, seat, row, presets):
    """Seat plays the heuristic weights of preset row `row` (0: keeps its own; from bot.VARIANT
    on, VARIANT * w + x: its own with weight w set to x); its own weights wait in F's scratch
    row 0 (the noise and the lookahead knobs, past the plan's weights, stay)."""
    for c in range(F.shape[1]):
        F[0, c] = F[1 + seat, c]
    if row >= bot.VARIANT:
        w = np.int64(row // bot.VARIANT)
        if w < bot.N_PLAN_WEIGHTS:
            F[1 + seat, w] = row - bot.VARIANT * w
    elif row > 0:
        r = np.int64(row)
        for w in range(bot.N_PLAN_WEIGHTS):
            F[1 + seat, w] = presets[r, w]


@jit(runtime=False)
def restore_weights(F, seat):
    for c in range(F.shape[1]):
        F[1 + seat, c] = F[0, c]


@jit(runtime=False)
def rollout_weights(F2, F, seat, players):
    """The weights of a rollout: the seat's own; every rival the seat's own heuristic weights
    without noise or lookahead knobs (the seat does not know its rivals' styles, and plays them
    as it plays itself)."""
    copy_rows(F2, F, 0, F.shape[0])
    for s in range(players):
        if s != seat:
            for c in range(F2.shape[1]):
                F2[1 + s, c] = 0.0
            for w in range(bot.N_PLAN_WEIGHTS):
                F2[1 + s, w] = F[1 + seat, w]


# ------------------------------------------------------------------ rollouts kept (round.choose_plan)
# The memo: TS and RS hold slot i's game table and streams at rows i * rows; FS slot i's weights;
# V row p plan p's race (simkit.core.kernels.race_prune: its summed values, 1.0 while it runs, rollout
# k's value), and in column KEPT 1.0 when the plan's state after its turn is in slot 1 + p for
# this rollout. Slot 0 is rollout k's re-dealt game.
KEPT = RACE_FIRST + bot.MAX_ROLLOUTS
V_WIDTH = KEPT + 1  # the memo's V: columns


def memo_tables(T2, F2, rng2):
    """The memo's tables (numpy, owned): slot 0 and a slot per plan but the last."""
    slots = bot.MAX_PLANS
    return (np.zeros((slots * T2.shape[0], T2.shape[1]), dtype=np.int64),
            np.zeros((slots * rng2.shape[0], rng2.shape[1]), dtype=np.uint64),
            np.zeros((slots * F2.shape[0], F2.shape[1]), dtype=np.float64),
            np.zeros((bot.MAX_PLANS, V_WIDTH), dtype=np.float64))


def unowned_memo(memo):
    """The memo's tables as views numba does not reference-count (simkit.core.kernels.unowned_int)."""
    TS, RS, FS, V = memo
    return unowned_int(TS), unowned_uint(RS), unowned_float(FS), unowned_float(V)


@jit(runtime=False)
def copy_state(dst, d0, src, s0, widths):
    """Rows dst[d0:d0 + T_ROWS] := src[s0:s0 + T_ROWS], row r only `widths[r]` cells wide:
    state.ROW_WIDTH, as wide as a game can use each row (the cells past those widths stay zero in
    every table, so a copy of the rest is a copy of the whole, in about a third of the cells), or
    state.PLAY_WIDTH, the same without the board's rows (for copies of one game's positions)."""
    for r in range(S.T_ROWS):
        copy_prefix(dst, d0 + r, src, s0 + r, widths[r])


@jit(runtime=False)
def same_state(a, a0, b, b0, widths):
    """True when the game tables at rows a0 of a and b0 of b agree (as copy_state reads them)."""
    for r in range(S.T_ROWS):
        for c in range(widths[r]):
            if a[a0 + r, c] != b[b0 + r, c]:
                return False
    return True


# The memo holds positions of the game being played: its board rows, the same in every one of
# them, are neither kept, restored nor compared (state.PLAY_WIDTH; choose_plan's copy of the
# game into T2 is whole).
@jit(runtime=False)
def keep(TS, RS, FS, slot, T, rng, F):
    """Slot `slot` of the memo := the game table, streams and weights."""
    copy_state(TS, slot * T.shape[0], T, 0, S.PLAY_WIDTH)
    copy_block(RS, slot * rng.shape[0], rng, 0, rng.shape[0])
    copy_block(FS, slot * F.shape[0], F, 0, F.shape[0])


@jit(runtime=False)
def restore(TS, RS, slot, T, rng):
    """The game table and streams := slot `slot` of the memo (the weights are built anew)."""
    copy_state(T, 0, TS, slot * T.shape[0], S.PLAY_WIDTH)
    copy_block(rng, 0, RS, slot * rng.shape[0], rng.shape[0])


@jit(runtime=False)
def same(TS, RS, FS, slot, T, rng, F):
    """True when slot `slot` holds this game table, these streams and these weights."""
    return (same_state(TS, slot * T.shape[0], T, 0, S.PLAY_WIDTH)
            and same_block(RS, slot * rng.shape[0], rng, 0, rng.shape[0])
            and same_block(FS, slot * F.shape[0], F, 0, F.shape[0]))


# ------------------------------------------------------------------ the choice of plan
@jit(runtime=False)
def rollout_turn(P, T, K, F, rng, seat, row, presets, log0):
    """A rollout's first turn: the seat plays this turn by preset row `row` (0: its own weights)."""
    set_plan(F, seat, row, presets)
    take_turn(P, T, K, F, rng, log0, seat)
    restore_weights(F, seat)


@jit(runtime=False)
def rollout_rest(P, T, K, F, rng, seat, players, horizon, log0):
    """After the seat's turn: the others finish the round, then `horizon` more rounds."""
    for s in range(seat + 1, players):
        take_turn(P, T, K, F, rng, log0, s)
    end_round(P, T, K, F, rng, log0, players)
    for _ in range(horizon):
        if T[ST, S.END_REASON] >= 0 or T[ST, S.ROUND] >= P.round_cap:
            break
        for s in range(players):
            take_turn(P, T, K, F, rng, log0, s)
        end_round(P, T, K, F, rng, log0, players)
    return rollout_value(P, T, K, seat, players, F[1 + seat, bot.W_WORTH] > 0.0)


@jit(runtime=False)
def plans_agree(P, K, F, seat, players, T2, F2, rng2, log0, TS, RS, FS, presets, plans):
    """True when every plan's turn, from the rollout dealt in memo slot 0, ends in the game, the
    streams and the weights the own plan's turn ends in (kept in slot 1): the plans agree on
    this turn. Leaves T2 and rng2 anywhere."""
    for plan in range(plans):
        if plan > 0:
            restore(TS, RS, 0, T2, rng2)
        rollout_weights(F2, F, seat, players)
        rollout_turn(P, T2, K, F2, rng2, seat, plan_row(F, seat, plan), presets, log0)
        if plan == 0:
            keep(TS, RS, FS, 1, T2, rng2, F2)
        elif not same(TS, RS, FS, 1, T2, rng2, F2):
            return False
    return True


@jit(runtime=False)
def choose_plan(P, T, K, F, rng, seat, players, T2, F2, rng2, log0, memo, presets):
    """The plan (0: the seat's own weights, p: the preset row of plan slot p, plan_row)
    whose rollouts score best (the module doc). The k-th rollout of every plan starts from the same
    re-deal and dice; a tie keeps the first (the own plan), and with W_MARGIN another plan must
    beat the own plan's mean value by that margin.

    Rollout k is dealt once and kept in slot 0 of `memo` (memo_tables); each plan's
    turn starts from that copy. When a plan's turn leaves the game, the weights and the streams
    as an earlier plan's turn left them (both plans did the same things), the rest of the rollout
    would be the same too: the earlier plan's value is taken instead of playing it again. With
    W_RACE > 0 a plan that trails the best one by that many standard errors plays no more
    rollouts (simkit.core.kernels.race_prune); the best of the plans still running is played. With
    W_AGREE, when every plan's turn of the first rollout ends as the own plan's does, the plans
    agree on this turn: the own plan is played without further rollouts."""
    TS, RS, FS, V = memo
    # constant row widths in the rollouts too (simkit.core.kernels: Constant row widths)
    T2, F2, rng2 = fixed_width(T2, T_WIDTH), fixed_width(F2, F_WIDTH), fixed_width(rng2, 4)
    log0 = fixed_width(log0, LOG_WIDTH)
    TS, RS, FS, V = fixed_width(TS, T_WIDTH), fixed_width(RS, 4), fixed_width(FS, F_WIDTH), fixed_width(V, V_WIDTH)
    plans = n_plans(F, seat)
    agree = F[1 + seat, bot.W_AGREE] > 0.0
    rollouts = min(np.int64(F[1 + seat, bot.W_ROLLOUTS]), np.int64(bot.MAX_ROLLOUTS))
    horizon = np.int64(F[1 + seat, bot.W_HORIZON])
    base = next_u64(rng, 1 + seat)  # rollout k of every plan is seeded derive(base, k)
    for plan in range(plans):
        V[plan, RACE_SUM] = 0.0
        V[plan, RACE_ALIVE] = 1.0
    k = np.int64(0)
    running = np.int64(plans)
    while k < rollouts and running > 1:
        copy_state(T2, 0, T, 0, S.ROW_WIDTH)  # whole: the memo's copies leave the board's rows out
        seed_streams(rng2, derive(base, k))
        redeal(T2, K, rng2, seat, players)
        keep(TS, RS, FS, 0, T2, rng2, F2)
        dealt = True  # T2 and rng2 hold rollout k as dealt
        if agree and k == 0:
            if plans_agree(P, K, F, seat, players, T2, F2, rng2, log0, TS, RS, FS, presets, plans):
                return np.int64(0)
            dealt = False
        for plan in range(plans):
            V[plan, KEPT] = 0.0
            if V[plan, RACE_ALIVE] != 1.0:
                continue
            if not dealt:
                restore(TS, RS, 0, T2, rng2)
            dealt = False
            rollout_weights(F2, F, seat, players)
            rollout_turn(P, T2, K, F2, rng2, seat, plan_row(F, seat, plan), presets, log0)
            repeat = -1
            for q in range(plan):
                if V[q, KEPT] == 1.0 and same(TS, RS, FS, 1 + q, T2, rng2, F2):
                    repeat = q
                    break
            if repeat >= 0:
                value = V[repeat, RACE_FIRST + k]
            else:
                if plan < plans - 1:
                    keep(TS, RS, FS, 1 + plan, T2, rng2, F2)
                    V[plan, KEPT] = 1.0
                value = rollout_rest(P, T2, K, F2, rng2, seat, players, horizon, log0)
            V[plan, RACE_FIRST + k] = value
            V[plan, RACE_SUM] += value
        k += 1
        running = race_prune(V, plans, k, F[1 + seat, bot.W_RACE])
    # the best plan still running; a tie keeps the first (W_MARGIN: compared as sums over k rollouts)
    return race_pick(V, plans, F[1 + seat, bot.W_MARGIN] * k)
