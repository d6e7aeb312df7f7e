"""simkit's changes to how numba compiles simkit's own functions, fenced off in one module.

They reach into numba's private internals (its code library, its CPU context, its dispatcher,
its codegen's cache key, its array indexing), so they are on only where they are tested:
numba `TESTED` (the range pyproject.toml pins), and unless `SIMKIT_NUMBA_PATCHES=0`. Off, every
engine is compiled as numba compiles any function (simkit.core.jit also drops `runtime=False`,
numba's private `_nrt` option): the same games bit for bit (tests/test_numba_patches.py
plays games both ways), slower and longer to compile (docs/performance.md, "numba's
internals"). Each change is one of these; `ENABLED` says whether they were applied, and
`WHOLE_LOOPS` / `PLAIN_INDICES` whether each took.

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

from numba import types
from numba.core import cgutils

TESTED = ((0, 67), (0, 68))  # numba releases (major, minor) the patches are tested on
SWITCH = "SIMKIT_NUMBA_PATCHES"  # 0: leave numba as it is


def _release() -> tuple[int, int]:
    import numba

    major, minor = numba.__version__.split(".")[:2]
    return int(major), int(minor)


def wanted(release: tuple[int, int] | None = None, environ=os.environ) -> bool:
    """Whether the patches apply: a tested numba release and the switch not set to 0."""
    return environ.get(SWITCH, "1") != "0" and (release or _release()) in TESTED


ENABLED = wanted()

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
                # simplified enough to show them (simkit.core.kernels, module doc: Constant row widths)
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
                                   "demand (simkit.core.numba_patches, module doc: Python entries on demand)")
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


WHOLE_LOOPS = ENABLED and _whole_loop_library()

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


PLAIN_INDICES = ENABLED and _plain_indices(INDEX_CHECK)
