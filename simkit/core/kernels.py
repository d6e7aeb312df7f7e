"""Numba helpers every engine shares (game-agnostic).

- Unowned views. An engine passes its few state tables down every call, and numba
  reference-counts each array argument with an atomic add and subtract: profiling the
  first engine put half of all time there. `play_chunk` therefore hands its game loop
  views without an owner (`unowned_int` etc.), keeping the owning arrays alive as
  arguments of that call. Plain Python (`NUMBA_DISABLE_JIT=1`) keeps the arrays as they are.
- No runtime where nothing is allocated. Even an unowned view is handed to `NRT_incref` /
  `NRT_decref` on every call; a function compiled with `jit(runtime=False)` (simkit.core.jit) has
  no such calls at all
  (`simkit bench GAME --profile` put 9-53% of four engines' time there). Every engine
  function that allocates nothing is compiled so; it cannot slice-copy one array into
  another or sort in place (both need the runtime), hence `copy_rows`, `copy_prefix` and
  `sort_ints` below. A function that allocates, and every function that calls it, keeps the
  runtime: a function without it cannot call one that allocates.
- Rule parameters as a record. numba passes a tuple to a compiled function field by field,
  one machine argument each (21-36 per call of every engine function), and a numpy record as
  one pointer: `params_record` turns the schema's NamedTuple into a record with the same
  fields, and `P.field` reads the same value either way.
- Typed arguments. numba types a constant argument (`0`, `True`, or a variable whose first value
  is one) as that literal value and compiles the callee once for it and again for the plain
  type: an engine passes `np.int64` values and the flags `TRUE` / `FALSE` below instead
  (docs/performance.md).
- Constant row widths. numba reads a 2-d array's row width from the array at run time, so every
  `T[r, c]` multiplies r by a width held in a register or, in a large function, reloaded from
  the stack. A game loop rebinds its tables as `fixed_width(T, T_WIDTH)`: the same cells, the
  width a compile-time constant (a table of another width is refused, ValueError). The loop then
  passes that constant to every function it calls with the table, and (with simkit.core.numba_patches
  on) after LLVM has optimised the loop's module, one more interprocedural constant propagation (IPSCCP, then instcombine and
  simplifycfg) carries it into those functions, where `r * 160` becomes a shift and an add:
  LLVM's own IPSCCP runs before the loop's calls show their constants. Sea of Thieves about
  1.1x the games/s, Sea of Plunder and Tide of Avaris 1.04x, Sea of Troubles and Set Sail
  unchanged; the same games bit for bit.
- Decisions. Seat s decides from rng stream 1 + s
  (docs/architecture.md, "Seeds and reproducibility"): `decide` is a uniform
  choice, `pick_best` the highest score with ties broken uniformly. A decision's legal
  alternatives are listed once, as a set of bits (`option`, `offers`, `pick_option`) or, where
  they are many, as a list in a scratch row: the random seat picks among them, a heuristic's
  choice is checked against them.
"""


import numpy as np
from numba import carray, config, types
from numba.core import cgutils
from numba.extending import intrinsic

from simkit.core.bots import RANDOM_POLICY
from simkit.core.game import END_REASON as GAME_END_REASON
from simkit.core.game import ROUNDS as GAME_ROUNDS
from simkit.core.game import TURNS as GAME_TURNS
from simkit.core.jit import jit
from simkit.core.rng import next_u64, randint

if config.DISABLE_JIT:  # plain Python (simkit bench's comparison run): numba's intrinsic cannot run there
    def trailing_zeros(word):
        """The index of the lowest set bit of a nonzero word."""
        word = int(word)
        return (word & -word).bit_length() - 1
else:
    from numba.cpython.unsafe.numbers import trailing_zeros

TRUE = np.bool_(True)  # typed flags for arguments (see the module doc)
FALSE = np.bool_(False)
# The sentinels of the choice loops: a running best never starts from a bare number
NO_BEST = -1e18  # a running maximum before its first candidate: every real value lies above it
NO_LEAST = 1e18  # a running minimum before its first candidate: every real value lies below it
BARRED = -1e9  # the score of a choice the rules or the seat rule out; pick loops pass it over
BARRED_BELOW = -1e8  # a score at or below it is barred (a real score always lies above it)


def params_record(params):
    """The rule parameters (a schema's NamedTuple, `RuleSchema.engine_tuple`) as one numpy
    record with the same fields: int64 for integers and flags, float64 for reals."""
    fields = []
    for name, value in zip(params._fields, params):
        kind = np.asarray(value).dtype.kind
        if kind not in "iubf":
            raise TypeError(f"rule parameter {name} = {value!r}: an engine parameter is a number")
        fields.append((name, np.float64 if kind == "f" else np.int64))
    return np.rec.array([tuple(params)], dtype=fields)[0]


@intrinsic
def _address_as_pointer(typingctx, address):
    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], cgutils.voidptr_t)

    return types.voidptr(address), codegen


@jit(inline="always")
def unowned_int(a):
    """A view of an int64 array that numba does not reference-count; the caller keeps `a` alive."""
    return carray(_address_as_pointer(a.ctypes.data), a.shape, np.int64)


@jit(inline="always")
def unowned_float(a):
    """As unowned_int, for float64 arrays."""
    return carray(_address_as_pointer(a.ctypes.data), a.shape, np.float64)


@jit(inline="always")
def unowned_uint(a):
    """As unowned_int, for uint64 arrays (rng state)."""
    return carray(_address_as_pointer(a.ctypes.data), a.shape, np.uint64)


@intrinsic(prefer_literal=True)
def fixed_width(typingctx, a, width):
    """The 2-d C-contiguous array `a` with its row width the compile-time constant `width` (a
    module constant or literal), which must be its real width (a mismatch raises ValueError):
    every `a[i, j]` then addresses with a constant stride (module doc: Constant row widths).
    None stays None (a lookahead's absent scratch)."""
    if isinstance(a, types.NoneType):
        return a(a, width), lambda context, builder, signature, args: context.get_dummy_value()
    if not (isinstance(a, types.Array) and a.ndim == 2 and a.layout == "C"
            and isinstance(width, types.IntegerLiteral)):
        return None
    cols = width.literal_value

    def codegen(context, builder, signature, args):
        from numba.np.arrayobj import make_array, populate_array

        aryty = signature.args[0]
        src = make_array(aryty)(context, builder, value=args[0])
        rows, real = cgutils.unpack_tuple(builder, src.shape)
        intp = context.get_value_type(types.intp)
        with cgutils.if_unlikely(builder, builder.icmp_signed("!=", real, intp(cols))):
            context.call_conv.return_user_exc(builder, ValueError, ("an engine table is not as wide as its layout",))
        itemsize = context.get_abi_sizeof(context.get_data_type(aryty.dtype))
        out = make_array(aryty)(context, builder)
        populate_array(out, data=src.data, shape=[rows, intp(cols)], strides=[intp(cols * itemsize), intp(itemsize)],
                       itemsize=intp(itemsize), meminfo=None)
        return out._getvalue()

    return a(a, width), codegen


if config.DISABLE_JIT:  # plain Python has no reference counts to avoid (and no pointers)

    def unowned_int(a):
        return a

    unowned_float = unowned_uint = unowned_int

    def fixed_width(a, width):
        if a is not None and a.shape[1] != width:
            raise ValueError("an engine table is not as wide as its layout")
        return a


@jit(inline="always")
def decide(rng, seat, n):
    """A uniform choice in 0..n-1 from the seat's own decision stream."""
    return randint(rng, 1 + seat, n)


@jit(runtime=False)
def pick_best(scores, rng, seat, n):
    """Index of the highest of scores[0..n-1], ties broken uniformly from the seat's stream."""
    best = scores[0]
    first = np.int64(0)
    for i in range(1, n):
        if scores[i] > best:
            best = scores[i]
            first = i
    ties = 0
    for i in range(n):
        if scores[i] >= best - 1e-9:
            ties += 1
    k = randint(rng, 1 + seat, ties)  # drawn even for a lone best: the stream advances the same
    if ties == 1:
        return first  # the lone score within 1e-9 of the highest is the highest, first listed
    for i in range(n):
        if scores[i] >= best - 1e-9:
            if k == 0:
                return np.int64(i)
            k -= 1
    return np.int64(0)


# --------------------------------------------------------------------------- legal options
# A decision with fewer than 63 alternatives offers its legal ones as a set of bits: the
# engine builds the set once (bit i: alternative i is allowed), the random seat draws one
# member with `pick_option`, and a heuristic's choice is taken only if `offers` says it is in
# the set. The members count in increasing order, so the k-th member is the k-th legal
# alternative of a loop over them.
@jit(inline="always")
def option(i):
    """The set holding alternative i alone."""
    return np.int64(1) << np.int64(i)


@jit(inline="always")
def offers(options, i):
    """Whether alternative i is in the set."""
    return (options >> np.int64(i)) & np.int64(1) == np.int64(1)


@jit(inline="always")
def count_options(options):
    n = np.int64(0)
    while options != 0:
        options &= options - np.int64(1)
        n += 1
    return n


@jit(inline="always")
def nth_option(options, k):
    """The k-th member of the set, from 0 in increasing order (-1 past its last)."""
    for _ in range(k):
        options &= options - np.int64(1)
    return np.int64(trailing_zeros(options)) if options != 0 else np.int64(-1)


@jit(inline="always")
def pick_option(options, rng, seat):
    """A uniform member of the set, from the seat's own decision stream; an empty set draws
    all the same and gives -1 (nothing legal: the decision is passed)."""
    return nth_option(options, decide(rng, seat, count_options(options)))


@jit(inline="always")
def pick_tied(options, rng, seat):
    """A uniform member of a set of equally good alternatives (a heuristic's best), drawn from
    the seat's stream only when there are two or more; -1, with no draw, for an empty set."""
    n = count_options(options)
    return nth_option(options, decide(rng, seat, n) if n > 1 else np.int64(0))


@jit(inline="always")
def join_best(best, best_s, i, s):
    """One step of a scan for the set of top-scoring alternatives: alternative i scoring s joins
    the set `best` of those scoring best_s, or replaces it when s is higher. Returns the new
    (best, best_s); start from (0, NO_BEST)."""
    if s > best_s:
        return option(i), s
    if s == best_s:
        return best | option(i), best_s
    return best, best_s


@jit(inline="always")
def pick_weighted(counts, rng, seat):
    """Alternative i with chance counts[i] / sum (one draw per unit held: a card of the hand,
    uniformly); the sum must be above 0."""
    total = np.int64(0)
    for i in range(counts.shape[0]):
        total += counts[i]
    k = decide(rng, seat, total)
    i = np.int64(0)
    while k >= counts[i]:
        k -= counts[i]
        i += 1
    return i


@jit(inline="always")
def noisy(rng, seat, noise):
    """The skill knob: True with probability `noise` (the strategy row's last
    column), drawn from the seat's own decision stream. Nothing is drawn when noise is 0 or 1,
    so a noiseless preset plays exactly as it always did, and a preset at noise 1 draws its
    choices exactly as `random` does."""
    return noise >= 1.0 or (noise > 0.0 and (next_u64(rng, 1 + seat) >> np.uint64(11))
                            * (1.0 / 9007199254740992.0) < noise)


@jit(inline="always", runtime=False)
def random_decision(F, rng, seat, policy, noise):
    """This decision of `seat` is a uniformly random legal choice: always when its row's `policy`
    column says random (RANDOM_POLICY), else with the chance of its `noise` column (the skill knob, noisy:
    the coin drawn from the seat's own stream only when the noise is above 0)."""
    if F[1 + seat, policy] == RANDOM_POLICY:
        return True
    return noisy(rng, seat, F[1 + seat, noise])


@jit(inline="always", runtime=False)
def append_event(T, log, st, count, when, seat, code, a, b, c):
    """Append the row (when, seat, code, a, b, c) to the event log while it has room, the rows
    written so far counted at T[st, count] (a sweep passes a log of no rows: nothing is written)."""
    i = T[st, count]
    if i < log.shape[0]:
        log[i, 0] = when
        log[i, 1] = seat
        log[i, 2] = code
        log[i, 3] = a
        log[i, 4] = b
        log[i, 5] = c
        T[st, count] = i + 1


# The game loop's steps every engine shares (each game's chunk.play_games): the state slots are
# the game's, passed in; the fixed columns of out_games are simkit.core.game's.
@jit(inline="always", runtime=False)
def game_over(T, st, end, rounds, round_cap, capped):
    """After a round: True when the game is over, its end triggered (T[st, end] >= 0, the round
    it was triggered in played out) or the round cap reached, which becomes its end reason."""
    if T[st, end] >= 0:
        return True
    if T[st, rounds] >= round_cap:
        T[st, end] = capped
        return True
    return False


@jit(inline="always", runtime=False)
def record_game(out_games, g, T, st, rounds, turns, end):
    """Game g's fixed result columns (simkit.core.game: ROUNDS, TURNS, END_REASON) from its state."""
    out_games[g, GAME_ROUNDS] = T[st, rounds]
    out_games[g, GAME_TURNS] = T[st, turns]
    out_games[g, GAME_END_REASON] = T[st, end]


@jit(inline="always", runtime=False)
def rank_by(keys, players, s):
    """Seat s's rank by its keys (keys[k, s]: seat s's k-th key, the tie-breakers in the rulebook's
    order, higher is better): 1 + the seats whose keys are above its own, compared key by key, so
    seats with equal keys share a rank. Comparing the keys in turn rather than packed into one
    number leaves no field to overflow into the next."""
    rank = 1
    for t in range(players):
        for k in range(keys.shape[0]):
            if keys[k, t] != keys[k, s]:
                if keys[k, t] > keys[k, s]:
                    rank += 1
                break
    return rank


@jit(runtime=False)
def copy_block(dst, d0, src, s0, n):
    """dst[d0:d0 + n] = src[s0:s0 + n] (rows) by loops: a slice copy would need numba's runtime,
    which the engines compile without (`jit(runtime=False)`: no reference counts on their array
    arguments). With d0 != s0 it keeps a table in, or takes it from, one slot of a taller one."""
    for r in range(n):
        for c in range(src.shape[1]):
            dst[d0 + r, c] = src[s0 + r, c]


@jit(runtime=False)
def copy_rows(dst, src, r0, r1):
    """dst[r0:r1] = src[r0:r1] (copy_block at the same rows)."""
    copy_block(dst, r0, src, r0, r1 - r0)


@jit(runtime=False)
def same_block(a, a0, b, b0, n):
    """True when rows a[a0:a0 + n] and b[b0:b0 + n] hold the same values."""
    for r in range(n):
        for c in range(b.shape[1]):
            if a[a0 + r, c] != b[b0 + r, c]:
                return False
    return True


# A lookahead's race between its candidates (race_prune): row c of the table X holds candidate
# c's summed rollout values, 1.0 while it runs (0.0 once dropped), then rollout i's value.
RACE_SUM, RACE_ALIVE, RACE_FIRST = 0, 1, 2
RACE_FROM = 3  # rollouts every candidate plays before any is dropped


@jit(runtime=False)
def race_prune(X, k, n, z):
    """Drop each running candidate whose rollouts so far trail the leader's by more than `z`
    standard errors: the mean of its n paired differences to the leader (rollout i of every
    candidate runs on the same seed) plus z standard errors of that mean is below 0. The
    leader is the running candidate with the best sum (the first on a tie). Returns how many
    still run. Nothing is dropped before RACE_FROM rollouts, or when z <= 0."""
    lead = np.int64(-1)
    for c in range(k):
        if X[c, RACE_ALIVE] == 1.0 and (lead < 0 or X[c, RACE_SUM] > X[lead, RACE_SUM]):
            lead = c
    running = np.int64(0)
    for c in range(k):
        if X[c, RACE_ALIVE] != 1.0:
            continue
        if c != lead and z > 0.0 and n >= RACE_FROM:
            mean = 0.0
            for i in range(n):
                mean += X[c, RACE_FIRST + i] - X[lead, RACE_FIRST + i]
            mean /= n
            var = 0.0
            for i in range(n):
                d = X[c, RACE_FIRST + i] - X[lead, RACE_FIRST + i] - mean
                var += d * d
            var /= n - 1
            if mean + z * np.sqrt(var / n) < 0.0:
                X[c, RACE_ALIVE] = 0.0
                continue
        running += 1
    return running


@jit(runtime=False)
def race_pick(X, k, lead_by):
    """The running candidate with the best sum (the first on a tie); while candidate 0 (the
    heuristic's own choice) runs, another only when its sum beats 0's by more than `lead_by`."""
    first = np.int64(0)
    while X[first, RACE_ALIVE] != 1.0:
        first += 1
    pick = first
    for c in range(first + 1, k):
        if X[c, RACE_ALIVE] == 1.0 and X[c, RACE_SUM] > X[pick, RACE_SUM] and (
                first > 0 or X[c, RACE_SUM] > X[0, RACE_SUM] + lead_by):
            pick = c
    return pick


@jit(inline="always", runtime=False)
def copy_prefix(dst, i, src, j, n):
    """dst[i, :n] = src[j, :n] by a loop (see copy_rows). Inlined: callers pass row and width
    constants, and a call would compile once per constant value."""
    for c in range(n):
        dst[i, c] = src[j, c]


@jit(inline="always", runtime=False)
def _emit_bits(a, k, word, base):
    """Write base + the position of each set bit of `word`, lowest first, into a[k:]; return the
    next k."""
    while word != 0:
        a[k] = base + np.int64(trailing_zeros(word))
        word &= word - np.uint64(1)
        k += 1
    return k


@jit(runtime=False)
def sort_ints(a, n):
    """a[:n] in ascending order, in place (numba's array sort needs its runtime; integers have
    one sorted order, so the result is the same). Distinct values in 0..255 (card ids, the
    usual case) are sorted through a 256-bit set; anything else by insertion."""
    w0, w1, w2, w3 = np.uint64(0), np.uint64(0), np.uint64(0), np.uint64(0)
    small = True
    for i in range(n):
        x = a[i]
        if x < 0 or x > 255:
            small = False
            break
        bit = np.uint64(1) << np.uint64(x & 63)
        q = x >> 6
        if q == 0:
            seen, w0 = w0 & bit, w0 | bit
        elif q == 1:
            seen, w1 = w1 & bit, w1 | bit
        elif q == 2:
            seen, w2 = w2 & bit, w2 | bit
        else:
            seen, w3 = w3 & bit, w3 | bit
        if seen:
            small = False  # a repeated value: the set cannot count it
            break
    if small:
        k = _emit_bits(a, 0, w0, 0)
        k = _emit_bits(a, k, w1, 64)
        k = _emit_bits(a, k, w2, 128)
        _emit_bits(a, k, w3, 192)
        return
    for i in range(1, n):
        x = a[i]
        j = i - 1
        while j >= 0 and a[j] > x:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = x


