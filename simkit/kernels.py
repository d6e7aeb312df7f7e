"""Numba helpers every engine shares (game-agnostic).

- Unowned views. An engine passes its few state tables down every call, and numba
  reference-counts each array argument with an atomic add and subtract: profiling the
  first engine put half of all time there. `play_chunk` therefore hands its game loop
  views without an owner (`unowned_int` etc.), keeping the owning arrays alive as
  arguments of that call. Plain Python (`NUMBA_DISABLE_JIT=1`) keeps the arrays as they are.
- No runtime where nothing is allocated. Even an unowned view is handed to `NRT_incref` /
  `NRT_decref` on every call; a function compiled with `_nrt=False` has no such calls at all
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
- Plain indices. numba lets a signed index count from the end (`a[-1]`), so every subscript with
  one becomes a compare, an add and a select, inside every inner loop of every engine: the
  address of `T[SHIP0 + k, HEX]` took more work than the load. No engine or policy counts from
  the end, so their functions (the modules `simkit.*` and `strategies.*`) index as they are:
  1.04-1.18x the games/s of the engines, the same games bit for bit. That "no
  index from the end, none past an axis" holds is tested, not assumed: with
  `SIMKIT_INDEX_CHECK=1` the same functions are compiled with every such index checked, an
  IndexError where one strays, and tests/test_indices.py plays every preset of every game so.
  numba's cache keeps the two kinds of code apart (a mark in its key for how code is made),
  and apart from code cached before. Anyone else's functions keep numba's indexing.
- Constant row widths. numba reads a 2-d array's row width from the array at run time, so every
  `T[r, c]` multiplies r by a width held in a register or, in a large function, reloaded from
  the stack. A game loop rebinds its tables as `fixed_width(T, T_WIDTH)`: the same cells, the
  width a compile-time constant (a table of another width is refused, ValueError). The loop then
  passes that constant to every function it calls with the table, and after LLVM has optimised
  the loop's module, one more interprocedural constant propagation (IPSCCP, then instcombine and
  simplifycfg) carries it into those functions, where `r * 160` becomes a shift and an add:
  LLVM's own IPSCCP runs before the loop's calls show their constants. Sea of Thieves about
  1.1x the games/s, Sea of Plunder and Tide of Avaris 1.04x, Sea of Troubles and Set Sail
  unchanged; the same games bit for bit.
- Decisions. Seat s decides from rng stream 1 + s
  (docs/architecture.md, "Seeds and reproducibility"): `decide` is a uniform
  choice, `pick_best` the highest score with ties broken uniformly.
- The game loop optimised whole. numba compiles each jitted function into a module of its own
  and links into it the functions it calls as `linkonce_odr` definitions (each may be defined
  again elsewhere, so LLVM must keep it as it is): every call not inlined passes each array as
  its nine fields, unused ones included, and a callee inlined at every call stays compiled too.
  A game's loop (`play_games`) is called only from Python, so in its module nothing but its
  own functions (the loop and numba's wrappers of it) is used from outside: `engine_loop`
  marks it, and the functions linked into its module become internal to that module, and
  renamed, before LLVM optimises it, which lets LLVM drop unused arguments, carry constants
  into callees and inline a function called once. The renaming matters: numba finds each
  function's machine code by name in its JIT, and a same-named copy in a loop's module, its
  arguments rewritten, made calls from Python crash. The same games bit for bit (no
  fast-math: every result is kept), 1.15-1.28x the games/s of four engines.
  No other module is optimised beyond its functions one by one (numba's function passes): its
  machine code only runs when a test or a tool calls that function from Python, and what a
  loop links in is optimised there, once, with the whole loop. numba would otherwise optimise
  every module with all its callees linked in again, once per layer of calls; skipping that cut
  the cold compiles by 2-10 s (12-27%) at the same games/s. Nor does anyone else's module go
  to machine code with its callees linked in: numba would emit every callee again, unoptimised,
  in each module above it; its own functions only, each call resolving in the JIT to the
  callee's own machine code, while what a caller links in (and numba's cache keeps for that)
  is still the whole. Loaded from numba's cache before its callees are, such a function is
  built from that cached whole instead, so no call finds its callee missing. Nor does numba
  build simkit's functions (and the policies') the C wrapper that only a first-class function
  value calls: no engine passes functions as values (any other function keeps its own). It
  subclasses numba's JIT code library (`WHOLE_LOOPS` is False where a numba release no longer
  has the methods it extends: the engines then run, and compile, as before).
- Python entries on demand. numba gives every function it compiles, at once, an entry for
  Python (the CPython wrapper, which unboxes the arguments and boxes the result) and machine
  code; of an engine's functions Python calls only the loop and a few helpers (the tests call
  more). A function of simkit's or the policies' other than a loop gets neither when it is
  compiled: its library keeps the IR after numba's function passes, which a loop links in and
  compiles with the whole, and numba's cache keeps that IR for a later loop to link (no
  machine code: `entry_on_demand`). Jitted callers find it as numba finds any function, by its
  entry, which stands in until Python calls it (`_EntryOnDemand`). That first call builds the
  entry: the wrapper in a library of its own, which links the function and its callees in
  whole and goes to machine code, in the context the function was compiled in (with numba's
  runtime where it allocates, to box an array it returns); from then on the overload is one
  as numba makes it, and cached whole. The loops' machine code is the same byte for byte (so
  are the games); Sea of Thieves' cold compile took 21.3-21.5 s instead of 26.1 s side by side
 , as the wrappers' IR, their passes and every other function's machine code
  went.
"""

import os

import numpy as np
from numba import carray, config, njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from simkit.rng import next_u64, randint

if config.DISABLE_JIT:  # plain Python (simkit bench's comparison run): numba's intrinsic cannot run there
    def trailing_zeros(word):
        """The index of the lowest set bit of a nonzero word."""
        word = int(word)
        return (word & -word).bit_length() - 1
else:
    from numba.cpython.unsafe.numbers import trailing_zeros

TRUE = np.bool_(True)  # typed flags for arguments (see the module doc)
FALSE = np.bool_(False)


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


@njit(cache=True, inline="always")
def unowned_int(a):
    """A view of an int64 array that numba does not reference-count; the caller keeps `a` alive."""
    return carray(_address_as_pointer(a.ctypes.data), a.shape, np.int64)


@njit(cache=True, inline="always")
def unowned_float(a):
    """As unowned_int, for float64 arrays."""
    return carray(_address_as_pointer(a.ctypes.data), a.shape, np.float64)


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
def decide(rng, seat, n):
    """A uniform choice in 0..n-1 from the seat's own decision stream."""
    return randint(rng, 1 + seat, n)


@njit(cache=True, _nrt=False)
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


@njit(cache=True, inline="always")
def noisy(rng, seat, noise):
    """The skill knob: True with probability `noise` (the strategy row's last
    column), drawn from the seat's own decision stream. Nothing is drawn when noise is 0 or 1,
    so a noiseless preset plays exactly as it always did, and a preset at noise 1 draws its
    choices exactly as `random` does."""
    return noise >= 1.0 or (noise > 0.0 and (next_u64(rng, 1 + seat) >> np.uint64(11))
                            * (1.0 / 9007199254740992.0) < noise)


@njit(cache=True, _nrt=False)
def copy_block(dst, d0, src, s0, n):
    """dst[d0:d0 + n] = src[s0:s0 + n] (rows) by loops: a slice copy would need numba's runtime,
    which the engines compile without (`_nrt=False`: no reference counts on their array
    arguments). With d0 != s0 it keeps a table in, or takes it from, one slot of a taller one."""
    for r in range(n):
        for c in range(src.shape[1]):
            dst[d0 + r, c] = src[s0 + r, c]


@njit(cache=True, _nrt=False)
def copy_rows(dst, src, r0, r1):
    """dst[r0:r1] = src[r0:r1] (copy_block at the same rows)."""
    copy_block(dst, r0, src, r0, r1 - r0)


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
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


@njit(cache=True, inline="always", _nrt=False)
def copy_prefix(dst, i, src, j, n):
    """dst[i, :n] = src[j, :n] by a loop (see copy_rows). Inlined: callers pass row and width
    constants, and a call would compile once per constant value."""
    for c in range(n):
        dst[i, c] = src[j, c]


@njit(cache=True, inline="always", _nrt=False)
def _emit_bits(a, k, word, base):
    """Write base + the position of each set bit of `word`, lowest first, into a[k:]; return the
    next k."""
    while word != 0:
        a[k] = base + np.int64(trailing_zeros(word))
        word &= word - np.uint64(1)
        k += 1
    return k


@njit(cache=True, _nrt=False)
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


# ------------------------------------------------------------------ the game loop optimised whole
# simkit's and the policies' functions, by module name and by numba's mangled name: those the
# changes below apply to (anyone else's functions are compiled as numba compiles them)
_OURS = ("simkit", "strategies")
_OUR_MODULES = tuple(f"{m}." for m in _OURS)
_OUR_SYMBOLS = tuple(f"_ZN{len(m)}{m}" for m in _OURS)
_LOOPS: set[str] = set()  # the mangled-name prefixes of the game loops (engine_loop)
_LINKING_ONLY = "simkit-linking-only"  # numba's cache: a function kept only for callers to link in
# functions a game loop's module keeps out of line, so that a profile counts each on its own
# (`simkit bench GAME --profile --apart NAME,...`; numba's cache keeps such code apart)
APART = tuple(name for name in os.environ.get("SIMKIT_APART", "").split(",") if name)


def engine_loop(dispatcher):
    """Mark a game's jitted loop, called only from Python: its module is optimised as one
    program (module doc). Returns the dispatcher unchanged."""
    from numba.core.itanium_mangler import mangle_identifier

    fn = getattr(dispatcher, "py_func", dispatcher)  # a plain function under NUMBA_DISABLE_JIT
    name = f"{fn.__module__}.{fn.__qualname__}"
    _LOOPS.add("_ZN" + "".join(mangle_identifier(part) for part in name.split(".")))
    return dispatcher


_CACHE_MARKS: list[str] = []  # numba's cache key: how simkit's code is made (_mark_cache)


def _mark_cache(mark: str) -> None:
    """Add `mark` to numba's cache key for "how this code was generated" (its codegen's magic
    tuple): code made one way is never loaded where it is made another, nor code cached before."""
    from numba.core import codegen

    if not _CACHE_MARKS:
        describe = codegen.JITCPUCodegen.magic_tuple
        codegen.JITCPUCodegen.magic_tuple = lambda self: (*describe(self), *_CACHE_MARKS)
    _CACHE_MARKS.append(mark)


def _whole_loop_library() -> bool:
    """Have numba's JIT build every code library as `WholeLoopLibrary`; False if it cannot."""
    try:
        import hashlib

        import llvmlite.binding as ll
        from numba.core import codegen, cpu, dispatcher, lowering
        from numba.core.compiler_lock import global_compiler_lock

        base = codegen.JITCPUCodegen._library_class
        (base.finalize, base._optimize_final_module, base._optimize_functions,  # noqa: B018 (extended)
         base._verify_declare_only_symbols, base.serialize_using_object_code, base._unserialize,
         codegen.CPUCodegen._function_pass_manager, codegen.CPUCodegen._pass_builder, cpu.CPUContext.create_cfunc_wrapper,
         ll.create_new_module_pass_manager, base._finalize_final_module, base._finalize_dynamic_globals,
         codegen.JITCPUCodegen.set_env, cpu.CPUContext.get_executable, cpu.CPUContext.create_cpython_wrapper,
         lowering.Lower.create_cpython_wrapper, dispatcher.Dispatcher.add_overload,
         dispatcher.Dispatcher._compile_for_args, dispatcher.Dispatcher._insert, codegen.JITCPUCodegen.magic_tuple)
    except (ImportError, AttributeError):
        return False
    if getattr(base, "whole_loop", False):
        return True

    class WholeLoopLibrary(base):
        """numba's JIT code library: a game loop's module is optimised whole, with the linked functions
        internal to it; any other library goes to machine code with its own functions only, not
        optimised beyond its functions one by one."""

        whole_loop = True
        # no machine code: a function of simkit's or the policies' whose Python entry is not
        # built yet (`_EntryOnDemand`); a loop, or an entry, links its code in and compiles it there.
        # How to build that entry, as numba would have: (release the GIL, with numba's runtime)
        entry_on_demand = False
        entry_options = (False, False)

        def finalize(self):
            # the functions the library defines itself, before its callees are linked in
            self._own = {f.name for f in self._final_module.functions if not f.is_declaration}
            self._loop = any(name.startswith(prefix) for name in self._own for prefix in _LOOPS)
            if not (self._loop or self.entry_on_demand):
                self._own_code_only()
            super().finalize()

        def _own_code_only(self):
            """Machine code for the library's own functions only: each callee is in the JIT already,
            from its own library, and a call resolves to it there. What a caller links in, and what
            numba's cache keeps for linking, is still the whole: own functions and callees. A
            library calling a function that has no machine code of its own (`entry_on_demand`)
            goes to machine code whole, as numba has it."""
            callees = list(dict.fromkeys(self._linking_libraries))
            if not callees or any(getattr(library, "entry_on_demand", False) for library in callees):
                return
            shared = self._final_module.clone()
            for library in callees:
                self._reload_init.update(library._reload_init)
                shared.link_in(library._get_module_for_linking(), preserve=True)
            for f in shared.functions:  # as numba's _get_module_for_linking, which returns this now
                if not f.is_declaration and f.linkage == ll.Linkage.external:
                    f.linkage = ll.Linkage.linkonce_odr
            self._shared_module = shared
            self._needs = tuple(sorted({f.name for f in shared.functions if not f.is_declaration} - self._own))
            self._linking_libraries = []

        def _optimize_functions(self, ll_module):
            # numba's function passes, with one pass manager for the module's functions rather
            # than one built for each
            ll_module.data_layout = self._codegen._data_layout
            fpm, pb = self._codegen._function_pass_manager()
            for func in ll_module.functions:
                fpm.run(func, pb)

        def _verify_declare_only_symbols(self):
            needs = set(getattr(self, "_needs", ()))  # declared here, defined by their own libraries
            for f in self._final_module.functions:
                if f.is_declaration and f.name.startswith("_ZN5numba") and f.name not in needs:
                    raise AssertionError(f"Symbol {f.name} not linked properly")

        def _optimize_final_module(self):
            if getattr(self, "_loop", False):
                own = self._own
                for f in self._final_module.functions:  # simkit bench --profile --apart: counted on their own
                    if not f.is_declaration and any(f"{len(name)}{name}B" in f.name for name in APART):
                        f.add_function_attribute("noinline")
                # renamed too: numba finds a function's machine code by its name in the JIT, which
                # would also find a copy here, whose arguments LLVM may since have changed
                mark = "$loop" + hashlib.sha256("".join(sorted(own)).encode()).hexdigest()[:12]
                for f in self._final_module.functions:
                    if not f.is_declaration and f.name not in own and f.linkage == ll.Linkage.linkonce_odr:
                        f.linkage = ll.Linkage.internal
                        f.name = f.name + mark
                super()._optimize_final_module()
                # the constants a loop passes down (the row widths of fixed_width) reach the callees
                # it calls with them; LLVM's own pass for that ran before the loop's calls were
                # simplified enough to show them (module doc: Constant row widths)
                pm = ll.create_new_module_pass_manager()
                pm.add_ipsccp_pass()
                pm.add_instruction_combine_pass()
                pm.add_simplify_cfg_pass()
                pm.run(self._final_module, self._codegen._pass_builder())
            # any other library: its functions had their function passes, and its own functions go
            # to machine code as they are; a loop links them in and optimises them there, once

        def _finalize_final_module(self):
            if not self.entry_on_demand:
                super()._finalize_final_module()
                return
            # numba's bookkeeping, without handing the module to the JIT
            self._finalize_dynamic_globals()
            self._verify_declare_only_symbols()
            self._finalized = True

        def get_pointer_to_function(self, name):
            if self.entry_on_demand:
                raise RuntimeError(f"{name} has no machine code of its own: its Python entry is built on "
                                   "demand (simkit.kernels, module doc: Python entries on demand)")
            return super().get_pointer_to_function(name)

        def serialize_using_object_code(self):
            if self.entry_on_demand:  # numba's cache keeps what a caller links in: the whole
                return (self.name, _LINKING_ONLY, (self._get_module_for_linking().as_bitcode(), self.entry_options))
            name, kind, data = super().serialize_using_object_code()
            needs = getattr(self, "_needs", ())
            return (name, kind, (*data, needs)) if needs else (name, kind, data)

        @classmethod
        def _unserialize(cls, codegen, state):
            name, kind, data = state
            if kind == _LINKING_ONLY:
                self = codegen.create_library(name)
                self.entry_on_demand, self.entry_options = True, data[1]
                self._final_module = self._shared_module = ll.parse_bitcode(data[0])
                self._finalize_final_module()
                return self
            if kind != "object" or len(data) != 3:
                return super()._unserialize(codegen, state)
            object_code, shared_bitcode, needs = data
            if all(codegen._engine.is_symbol_defined(n) for n in needs):
                return super()._unserialize(codegen, (name, kind, (object_code, shared_bitcode)))
            # the cached code calls functions not in the JIT yet: machine code for the whole, the
            # callees included (as linked copies, the cached own functions defined again)
            self = codegen.create_library(name)
            module = ll.parse_bitcode(shared_bitcode)
            for f in module.functions:
                if not f.is_declaration and f.name not in needs:
                    f.linkage = ll.Linkage.external
            self._final_module = module
            self._finalize_final_module()
            return self

    codegen.JITCPUCodegen._library_class = WholeLoopLibrary
    # numba builds each function a C wrapper too, which only a first-class function value calls;
    # no engine passes functions as values (anyone else's functions, a numba.cfunc's included, keep it)
    build = cpu.CPUContext.create_cfunc_wrapper

    def create_cfunc_wrapper(context, library, fndesc, env, call_helper):
        if not fndesc.modname.startswith(_OUR_MODULES):
            build(context, library, fndesc, env, call_helper)

    cpu.CPUContext.create_cfunc_wrapper = create_cfunc_wrapper

    # Python entries on demand (module doc): no CPython wrapper and no machine code for simkit's
    # and the policies' functions until Python calls one
    build_wrapper = lowering.Lower.create_cpython_wrapper

    def create_cpython_wrapper(lower, release_gil=False):
        fndesc = lower.fndesc
        if lower.genlower is None and fndesc.modname.startswith(_OUR_MODULES) \
                and not fndesc.mangled_name.startswith(tuple(_LOOPS)):
            lower.library.entry_on_demand = True
            lower.library.entry_options = (release_gil, lower.context.enable_nrt)
        else:
            build_wrapper(lower, release_gil)

    executable = cpu.CPUContext.get_executable

    def get_executable(context, library, fndesc, env):
        if getattr(library, "entry_on_demand", False):  # numba's own class for a library made before
            return _EntryOnDemand(context, library, fndesc, env)
        return executable(context, library, fndesc, env)

    class _EntryOnDemand:
        """What numba takes for a compiled function's Python entry until Python calls it: the key
        under which jitted callers find the function (numba keys a function's lowering by its
        entry). `build` makes the real one: the CPython wrapper, in a library of its own that
        links the function and its callees in whole and goes to machine code."""

        __slots__ = ("cfunc", "context", "env", "fndesc", "library")

        def __init__(self, context, library, fndesc, env):
            self.context, self.library, self.fndesc, self.env = context, library, fndesc, env
            self.cfunc = None

        def build(self, owner):
            with global_compiler_lock:
                if self.cfunc is None:
                    release_gil, nrt = self.library.entry_options
                    # the context the function was compiled in (numba's cache loads it in another)
                    context = self.context if self.context.enable_nrt == nrt else self.context.subtarget(enable_nrt=nrt)
                    entry = context.codegen().create_library(f"{self.fndesc.qualname} (Python entry)")
                    entry.enable_object_caching()
                    context.create_cpython_wrapper(entry, self.fndesc, self.env, None, release_gil=release_gil)
                    entry.add_linking_library(self.library)
                    self.cfunc = executable(context, entry, self.fndesc, self.env)
                    for args, cres in list(owner.overloads.items()):
                        if cres.entry_point is self:  # from now on an overload as numba makes them
                            cres = cres._replace(entry_point=self.cfunc, library=entry)
                            owner.targetctx.insert_user_function(self.cfunc, cres.fndesc, [entry])
                            add_overload(owner, cres)
                            owner._cache.save_overload(args, cres)  # cached whole
            return self.cfunc

    add_overload = dispatcher.Dispatcher.add_overload

    def add_overload_on_demand(owner, cres):
        if isinstance(cres.entry_point, _EntryOnDemand):  # callable from jitted code; from Python once built
            owner.overloads[tuple(cres.signature.args)] = cres
        else:
            add_overload(owner, cres)

    compile_for_args = dispatcher.Dispatcher._compile_for_args

    def compile_for_args_on_demand(owner, *args, **kws):
        entry = compile_for_args(owner, *args, **kws)
        return entry.build(owner) if isinstance(entry, _EntryOnDemand) else entry

    set_env = codegen.JITCPUCodegen.set_env

    def set_env_if_defined(self, env_name, env):
        # numba sets the environments a cached function refers to when it loads it; one without
        # machine code has none in the JIT yet (its entry sets its own when it is built)
        if self._engine.get_global_value_address(env_name):
            set_env(self, env_name, env)

    lowering.Lower.create_cpython_wrapper = create_cpython_wrapper
    cpu.CPUContext.get_executable = get_executable
    dispatcher.Dispatcher.add_overload = add_overload_on_demand
    dispatcher.Dispatcher._compile_for_args = compile_for_args_on_demand
    codegen.JITCPUCodegen.set_env = set_env_if_defined
    _mark_cache("simkit-entries-on-demand")
    if APART:  # the functions a profile keeps apart
        _mark_cache(f"simkit-apart:{','.join(APART)}")
    return True


WHOLE_LOOPS = _whole_loop_library()

INDEX_CHECK = os.environ.get("SIMKIT_INDEX_CHECK", "") == "1"  # module doc: Plain indices


def _plain_indices(check: bool) -> bool:
    """Have numba index simkit's and the policies' arrays with a signed integer as it is, without
    the wrap of a negative index; with `check`, test every such index against its axis instead
    (IndexError). numba's cache keeps code of the two apart, and apart from code compiled
    before. False if this numba release lowers indices otherwise (its own indexing then stays)."""
    try:
        from numba.core import codegen
        from numba.np import arrayobj

        wrap = arrayobj.fix_integer_index
        codegen.JITCPUCodegen.magic_tuple  # noqa: B018 (extended: _mark_cache)
    except (ImportError, AttributeError):
        return False
    if getattr(wrap, "plain", False):
        return True

    def fix_integer_index(context, builder, idxty, idx, size):
        if not (idxty.signed and builder.function.name.startswith(_OUR_SYMBOLS)):
            return wrap(context, builder, idxty, idx, size)
        index = context.cast(builder, idx, idxty, types.intp)
        if check:
            cgutils.do_boundscheck(context, builder, index, size)
        return index

    fix_integer_index.plain = True
    arrayobj.fix_integer_index = fix_integer_index
    _mark_cache("simkit-index-check" if check else "simkit-plain-index")
    return True


PLAIN_INDICES = _plain_indices(INDEX_CHECK)
