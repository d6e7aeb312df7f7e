"""simkit/core/kernels.py: the loops the engines use instead of what needs numba's runtime."""

import typing

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simkit.core.jit import engine_loop, jit
from simkit.core.kernels import (
    BARRED,
    BARRED_BELOW,
    NO_BEST,
    NO_LEAST,
    RACE_ALIVE,
    RACE_FIRST,
    RACE_FROM,
    RACE_SUM,
    copy_block,
    copy_prefix,
    copy_rows,
    count_options,
    decide,
    fixed_width,
    join_best,
    nth_option,
    offers,
    option,
    params_record,
    pick_best,
    pick_option,
    pick_tied,
    pick_weighted,
    race_pick,
    race_prune,
    rank_by,
    same_block,
    sort_ints,
)
from simkit.core.numba_patches import WHOLE_LOOPS


def test_pick_best_takes_the_highest_and_breaks_ties_uniformly_with_one_draw():
    """pick_best: a lone highest score wins wherever it is listed; scores within 1e-9 of the
    highest tie and are picked uniformly; every call draws exactly once from the seat's stream
    (a lone best too), so what follows a decision does not depend on how many tied."""
    from simkit.core.rng import next_u64, seed_streams

    def streams(seed):
        rng = np.zeros((3, 4), dtype=np.uint64)
        seed_streams(rng, np.uint64(seed))
        return rng

    lone = np.array([0.5, -1.0, 2.0, 1.999, 2.0 - 1e-8, 0.0])
    for seed in range(20):
        rng = streams(seed)
        assert pick_best(lone, rng, 1, 6) == 2
        after = streams(seed)
        next_u64(after, 2)
        assert (rng == after).all()  # one draw from stream 1 + seat, none elsewhere
    assert pick_best(np.array([3.0, 1.0]), streams(0), 0, 2) == 0
    assert pick_best(np.array([1.0, 1.0, 3.0]), streams(0), 0, 2) in (0, 1)  # only the first n count
    tied = np.array([1.0, 2.0, 0.0, 2.0 + 5e-10, 2.0 - 5e-10, -3.0])
    picks = [pick_best(tied, streams(seed), 1, 6) for seed in range(3000)]
    counts = np.bincount(picks, minlength=6)
    assert counts[[0, 2, 5]].sum() == 0
    assert all(900 < c < 1100 for c in counts[[1, 3, 4]]), counts


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.lists(st.integers(-50, 50), max_size=40),  # repeats and negatives: by insertion
                 st.lists(st.integers(0, 255), max_size=80, unique=True),  # distinct card ids: by the bit set
                 st.lists(st.integers(0, 300), max_size=40, unique=True)),  # past 255: by insertion
       st.integers(0, 80))
def test_sort_ints_sorts_the_prefix_only(values, n):
    a = np.array(values + [99, -99], dtype=np.int64)  # two sentinels past any prefix
    n = min(n, len(values))
    want = np.concatenate([np.sort(a[:n]), a[n:]])
    sort_ints(a, np.int64(n))
    assert np.array_equal(a, want)


def test_copy_rows_copies_the_rows_asked_for_and_no_other():
    src = np.arange(20, dtype=np.int64).reshape(4, 5)
    dst = np.full((4, 5), -1, dtype=np.int64)
    copy_rows(dst, src, np.int64(1), np.int64(3))
    assert np.array_equal(dst[1:3], src[1:3])
    assert (dst[0] == -1).all() and (dst[3] == -1).all()


def test_copy_block_moves_rows_between_slots_and_same_block_compares_them():
    src = np.arange(12, dtype=np.int64).reshape(3, 4)
    dst = np.full((9, 4), -1, dtype=np.int64)
    copy_block(dst, np.int64(3), src, np.int64(1), np.int64(2))  # src rows 1, 2 into dst rows 3, 4
    assert (dst[3:5] == src[1:3]).all() and (dst[:3] == -1).all() and (dst[5:] == -1).all()
    assert same_block(dst, np.int64(3), src, np.int64(1), np.int64(2))
    assert not same_block(dst, np.int64(2), src, np.int64(1), np.int64(2))
    dst[4, 3] += 1  # one cell off, in the last row compared
    assert not same_block(dst, np.int64(3), src, np.int64(1), np.int64(2))
    assert same_block(dst, np.int64(3), src, np.int64(1), np.int64(1))


def race_table(rollouts):
    """race_prune's table for candidates whose rollout i scored rollouts[c][i], all running."""
    X = np.zeros((len(rollouts), RACE_FIRST + 8))
    for c, values in enumerate(rollouts):
        X[c, RACE_ALIVE] = 1.0
        X[c, RACE_FIRST:RACE_FIRST + len(values)] = values
        X[c, RACE_SUM] = sum(values)
    return X


def test_race_prune_drops_a_candidate_only_when_it_trails_the_leader_by_z_standard_errors():
    # candidate 1 trails the leader 0 by 1 a rollout, give or take 0.5 (paired differences -0.5,
    # -1.5, -1): mean -1, standard error 0.289, so it is out at z = 3 (-1 + 0.87 < 0) but not at z = 4
    leader, behind = [5.0, 3.0, 4.0], [4.5, 1.5, 3.0]
    assert race_prune(race_table([leader, behind]), np.int64(2), np.int64(3), 4.0) == 2
    X = race_table([leader, behind])
    assert race_prune(X, np.int64(2), np.int64(3), 3.0) == 1
    assert X[0, RACE_ALIVE] == 1.0 and X[1, RACE_ALIVE] == 0.0
    # the leader is whoever has the best sum, wherever it is listed; a tie on the sum is no drop
    X = race_table([behind, leader, leader])
    assert race_prune(X, np.int64(3), np.int64(3), 3.0) == 2
    assert list(X[:, RACE_ALIVE]) == [0.0, 1.0, 1.0]
    # behind by the same amount in every rollout: no spread, so out at any z
    X = race_table([[2.0, 2.0, 2.0], [1.0, 1.0, 1.0]])
    assert race_prune(X, np.int64(2), np.int64(3), 5.0) == 1
    # a candidate already out stays out and is not counted; it is not the leader either
    X = race_table([leader, [9.0, 9.0, 9.0], behind])
    X[1, RACE_ALIVE] = 0.0
    assert race_prune(X, np.int64(3), np.int64(3), 3.0) == 1 and X[0, RACE_ALIVE] == 1.0


def test_race_prune_drops_nothing_before_its_first_rollouts_or_when_off():
    far = [[10.0] * 8, [0.0] * 8]
    assert race_prune(race_table(far), np.int64(2), np.int64(RACE_FROM - 1), 1.0) == 2
    assert race_prune(race_table(far), np.int64(2), np.int64(8), 0.0) == 2
    assert race_prune(race_table(far), np.int64(2), np.int64(RACE_FROM), 1.0) == 1


def test_race_pick_plays_the_best_running_candidate_and_the_heuristics_unless_beaten_by_the_lead():
    X = race_table([[1.0], [3.0], [2.0], [3.0]])
    assert race_pick(X, np.int64(4), 0.0) == 1  # best sum, the first of a tie
    assert race_pick(X, np.int64(4), 2.0) == 0  # nobody beats candidate 0 by more than 2
    assert race_pick(X, np.int64(4), 1.5) == 1
    X[1, RACE_ALIVE] = 0.0  # out: the tie's second takes it
    assert race_pick(X, np.int64(4), 0.0) == 3
    X[0, RACE_ALIVE] = 0.0  # candidate 0 out: no lead is asked of the others
    assert race_pick(X, np.int64(4), 5.0) == 3
    assert race_pick(X, np.int64(3), 5.0) == 2


def test_copy_prefix_copies_the_first_n_cells_of_one_row_into_another():
    src = np.arange(12, dtype=np.float64).reshape(2, 6)
    dst = np.zeros((3, 6), dtype=np.float64)
    copy_prefix(dst, np.int64(2), src, np.int64(1), np.int64(4))
    assert np.array_equal(dst[2, :4], src[1, :4])
    assert (dst[2, 4:] == 0).all() and (dst[:2] == 0).all()
    copy_prefix(src, np.int64(0), src, np.int64(1), np.int64(3))  # rows of one array, as the decks use it
    assert np.array_equal(src[0, :3], src[1, :3]) and src[0, 3] == 3.0


class _Rules(typing.NamedTuple):
    round_cap: np.int64
    combo_port: np.int64
    bribe_share: np.float64


@jit(cache=False)
def _read(P):
    return P.round_cap * 10 + P.combo_port, P.bribe_share * 2.0


_WIDTH = 5


@jit(cache=False, runtime=False)
def _through_fixed_width(a, b):
    """Doubles a's cells through its fixed-width view, adds b's first row's (None: nothing)."""
    v = fixed_width(a, _WIDTH)
    w = fixed_width(b, _WIDTH)
    for i in range(v.shape[0]):
        for j in range(v.shape[1]):
            v[i, j] *= 2
            if b is not None:  # pruned while typing when b is None
                v[i, j] += w[0, j]
    return v.shape[0], v.shape[1]


def test_fixed_width_is_the_same_table_with_a_constant_width_and_refuses_another_width():
    """fixed_width: the view reads and writes the table's own cells (its rows as they are, its
    width the constant); None stays None; a table of another width is refused (ValueError),
    never read with the wrong stride."""
    a = np.arange(15, dtype=np.int64).reshape(3, _WIDTH)
    b = np.full((2, _WIDTH), 100, dtype=np.int64)
    assert _through_fixed_width(a, None) == (3, _WIDTH)
    assert (a == 2 * np.arange(15).reshape(3, _WIDTH)).all()
    _through_fixed_width(a, b)
    assert (a == 4 * np.arange(15).reshape(3, _WIDTH) + 100).all()
    with pytest.raises(ValueError, match="not as wide"):
        _through_fixed_width(np.zeros((3, _WIDTH + 1), dtype=np.int64), None)
    with pytest.raises(ValueError, match="not as wide"):
        _through_fixed_width(a, np.zeros((2, _WIDTH - 1), dtype=np.int64))
    assert (a == 4 * np.arange(15).reshape(3, _WIDTH) + 100).all()  # the refused call wrote nothing


def test_params_record_reads_every_field_as_the_tuple_does():
    """The engines take the rules as a record (one pointer per call instead of one argument per
    field); a compiled function reads each field's value and type as from the tuple."""
    rules = _Rules(np.int64(300), np.int64(1), np.float64(0.25))
    P = params_record(rules)
    assert P.dtype.names == rules._fields
    assert (P.round_cap, P.combo_port, P.bribe_share) == tuple(rules)
    assert P.dtype["bribe_share"] == np.float64 and P.dtype["round_cap"] == np.int64
    assert _read(P) == _read(rules) == (3001, 0.5)


def test_params_record_refuses_what_is_not_a_number():
    with pytest.raises(TypeError, match="round_cap"):
        params_record(_Rules("300", np.int64(1), np.float64(0.25)))


# ------------------------------------------------------------------ the game loop optimised whole
@jit(cache=False)
def _weighted_prefix(a, i):
    s = 0
    for j in range(i):
        s += a[j] * j
    return s


@jit(cache=False)
def _sum_prefixes(a, n):
    t = 0
    for i in range(n):
        t += _weighted_prefix(a, i)
    return t


@engine_loop
@jit(cache=False)
def _a_loop(a, n):
    return _sum_prefixes(a, n) + _sum_prefixes(a, n - 1)


@jit(cache=False)
def _not_a_loop(a, n):
    return _sum_prefixes(a, n) + _sum_prefixes(a, n - 1)


def test_a_game_loop_s_module_keeps_its_linked_functions_to_itself():
    """engine_loop: in the marked loop's module every function linked in from elsewhere is
    internal (LLVM may then rewrite or drop it) and renamed, so that numba's lookup of a
    function's machine code by name cannot find such a copy (without the renaming the Sea of
    Plunder tests crashed); any other module goes to machine code with its own functions only,
    not optimised beyond them one by one, and calls its callees' own machine code, while what a
    caller links in from it is still the whole, as linkonce_odr. Both give the same result.
    WHOLE_LOOPS is False only where numba's code library changed."""
    import llvmlite.binding as ll

    assert WHOLE_LOOPS
    a = np.arange(12, dtype=np.int64)
    assert _a_loop(a, 9) == _not_a_loop(a, 9) == 2 * sum(sum(a[j] * j for j in range(i)) for i in range(9)) \
        - sum(a[j] * j for j in range(8))

    def library(dispatcher):
        return next(iter(dispatcher.overloads.values())).library

    def linked(dispatcher, module=None):
        module = module or library(dispatcher)._final_module
        return {f.name: f.linkage for f in module.functions
                if not f.is_declaration and f.name not in library(dispatcher)._own}

    assert linked(_a_loop) and set(linked(_a_loop).values()) == {ll.Linkage.internal}
    assert all("$loop" in name for name in linked(_a_loop))  # renamed (simkit.core.kernels: the name lookup)
    assert not linked(_not_a_loop)  # its machine code: its own functions only
    shared = linked(_not_a_loop, library(_not_a_loop)._get_module_for_linking())
    assert all(any(callee in name for name in shared) for callee in ("_sum_prefixes", "_weighted_prefix"))
    assert set(shared.values()) == {ll.Linkage.linkonce_odr}

    def callees(dispatcher):
        """The functions of this file, not its own, that the library's own functions still call."""
        names = library(dispatcher)._own
        own = [f for f in library(dispatcher)._final_module.functions if f.name in names]
        called = {list(ins.operands)[-1].name for f in own for block in f.blocks for ins in block.instructions
                  if ins.opcode == "call"}
        return {name for name in called - names if "test_kernels" in name}

    # optimised once, where it runs: the loop's module inlined its callees; any other module went
    # to machine code with its function passes only (module passes inline), so the call stays
    assert not callees(_a_loop)
    assert any("_sum_prefixes" in name for name in callees(_not_a_loop))


_CACHED = """
import sys
import numpy as np
from simkit.core.jit import jit
import simkit.core.kernels  # installs the code library

@jit
def inner(a, i):
    return a[i] * (i + 1)

@jit
def outer(a):
    t = 0
    for i in range(a.shape[0]):
        t += inner(a, i)
    return t

a = np.arange(5, dtype=np.int64)
if sys.argv[1] == "inner-first":
    print(inner(a, 4), end=" ")
print(outer(a), end=" ")
lib = next(iter(outer.overloads.values())).library
print("whole" if any(not f.is_declaration and "inner" in f.name for f in lib._final_module.functions) else "own")
"""


def test_a_cached_function_finds_its_callees_loaded_or_not(tmp_path):
    """A function's cached machine code holds its own functions only (WholeLoopLibrary): loaded
    from numba's cache after its callee, it calls the callee's; loaded first, before anything it
    calls, it is built again from the cached whole (callees included), so a test or tool calling
    it from Python never meets a function missing from the JIT."""
    import os
    import subprocess
    import sys

    (tmp_path / "cached_pair.py").write_text(_CACHED)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": os.pathsep.join(sys.path)}

    def run(order):
        done = subprocess.run([sys.executable, "cached_pair.py", order], check=False, cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        return done.stdout.split()

    expected = str(sum(i * (i + 1) for i in range(5)))
    assert run("outer-only") == [expected, "own"]  # compiled: its own code, the callee's from its library
    assert any((tmp_path / "cache").iterdir())
    assert run("outer-only") == [expected, "whole"]  # from the cache, its callee not loaded yet
    assert run("inner-first") == ["20", expected, "own"]  # from the cache, its callee loaded before


def test_a_numba_cfunc_outside_the_engines_still_gets_its_c_wrapper():
    """simkit.core.kernels builds no C wrapper for the engines' functions (none is passed as a value),
    and leaves every other function's alone: a numba.cfunc defined elsewhere still works."""
    import ctypes

    from numba import cfunc

    def add(a, b):
        return a + b

    add.__module__ = "elsewhere"
    compiled = cfunc("int64(int64, int64)")(add)
    assert ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_int64, ctypes.c_int64)(compiled.address)(2, 3) == 5



_ON_DEMAND = """
import numpy as np
from simkit.core.jit import jit
import simkit.core.kernels  # installs the code library

@jit
def scale(x):
    return 3 * x + 1

@jit
def fill(n):  # allocates: compiled with numba's runtime, which its entry needs to return the array
    out = np.empty(n, dtype=np.int64)
    for i in range(n):
        out[i] = scale(i)
    return out

@jit
def total(n):
    return fill(n).sum() + scale(n)

def state(f):
    cres = next(iter(f.overloads.values()))
    # machine code of its own library, or only where a caller linked it in
    return ("entry" if callable(cres.entry_point) else "none") + ("" if cres.library.entry_on_demand else "+code")

def main(steps):
    out = []
    for step in steps:
        if step == "total":
            out += [str(total(4)), state(fill), state(scale)]
        elif step == "fill":
            out += [",".join(map(str, fill(4))), state(fill)]
        elif step == "scale":
            out += [str(scale(5)), state(scale)]
    print(" ".join(out))
"""


def test_a_function_gets_its_python_entry_and_machine_code_only_when_python_calls_it(tmp_path):
    """Python entries on demand (simkit.core.kernels): a function of simkit's or the policies' that
    only jitted code calls has no CPython wrapper and no machine code of its own; the first call
    from Python builds both, also for a function loaded from numba's cache, and also where the
    entry must return an array (numba's runtime, which the function was compiled with)."""
    import os
    import shutil
    import subprocess
    import sys

    package = tmp_path / "strategies"  # a module of the policies: the change applies to it
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "on_demand.py").write_text(_ON_DEMAND)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"),
           "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path])}

    def run(*steps):
        script = f"from strategies.on_demand import main; main({list(steps)!r})"
        done = subprocess.run([sys.executable, "-c", script], check=False, cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        return done.stdout.split()

    fill = ",".join(str(3 * i + 1) for i in range(4))
    total = str(sum(3 * i + 1 for i in range(4)) + 3 * 4 + 1)
    # compiled: the callees have neither entry nor machine code, until Python calls one
    assert run("total", "fill") == [total, "none", "none", fill, "entry+code"]
    # from the cache: scale, which Python never called, was kept for linking only; its entry is
    # built from that; fill, called from Python before, comes back whole, with machine code
    assert run("scale", "fill") == ["16", "entry+code", fill, "entry+code"]
    # from an empty cache: fill compiled as total's callee only, so cached for linking only, its
    # entry built from that in the next process returns the array
    shutil.rmtree(tmp_path / "cache")
    assert run("total") == [total, "none", "none"]
    assert run("fill") == [fill, "entry+code"]


def test_sort_ints_runs_as_plain_python_too():
    """simkit bench compares the engine with itself run as plain Python (NUMBA_DISABLE_JIT=1):
    the 256-bit sort, whose bit scan is a numba intrinsic when compiled, gives the same order."""
    import os
    import subprocess
    import sys

    code = ("import numpy as np; from simkit.core.kernels import sort_ints; a = np.array([200, 3, 77, 0, 64, 255, 9], "
            "dtype=np.int64); sort_ints(a, 6); print(a.tolist())")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False,
                          env={**os.environ, "NUMBA_DISABLE_JIT": "1"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str([0, 3, 64, 77, 200, 255, 9])


def test_rank_by_compares_the_tie_breakers_in_turn_and_tied_seats_share_a_rank():
    # keys[k, s]: seat s's k-th key; seats 0 and 2 tie on the first key, seat 2 wins the second;
    # seats 1 and 3 tie on every key and share third place
    keys = np.array([[5, 3, 5, 3], [1, 7, 2, 7]], dtype=np.int64)
    assert [rank_by(keys, 4, s) for s in range(4)] == [2, 3, 1, 3]
    # a later key never outweighs an earlier one, however large (a packed key would overflow)
    huge = np.array([[1, 0], [0, 2**62]], dtype=np.int64)
    assert [rank_by(huge, 2, s) for s in range(2)] == [1, 2]
    # only the first `players` seats take part
    assert rank_by(np.array([[1, 9]], dtype=np.int64), 1, 0) == 1


def test_the_choice_loops_sentinels_lie_beyond_every_real_value_and_barred_below_its_mark():
    assert NO_BEST < BARRED < BARRED_BELOW < 0 < NO_LEAST


@settings(max_examples=200, deadline=None)
@given(st.sets(st.integers(0, 61), max_size=62))
def test_an_option_set_holds_its_members_in_increasing_order(members):
    """A set of legal alternatives: built from option(i), it offers exactly its members, counts
    them, and its k-th member is the k-th of them in increasing order (the k-th legal
    alternative of a loop over them)."""
    options = np.int64(0)
    for i in members:
        options |= option(i)
    listed = sorted(members)
    assert count_options(options) == len(listed)
    assert [i for i in range(62) if offers(options, i)] == listed
    assert [nth_option(options, k) for k in range(len(listed))] == listed


def _streams(seed):
    from simkit.core.rng import seed_streams

    rng = np.zeros((4, 4), dtype=np.uint64)
    seed_streams(rng, np.uint64(seed))
    return rng


def test_pick_option_is_the_seats_uniform_draw_over_the_legal_alternatives():
    """pick_option takes member decide(n) of the set: one draw from the seat's own stream, the
    same as a count of the legal alternatives and a walk to the chosen one; each member as likely."""
    options = option(1) | option(4) | option(9) | option(30)
    for seed in range(50):
        for seat in (0, 2):
            a, b = _streams(seed), _streams(seed)
            assert pick_option(options, a, seat) == [1, 4, 9, 30][decide(b, seat, 4)]
            assert (a == b).all()
    for seed in range(5):  # nothing legal: one draw all the same, and -1
        a, b = _streams(seed), _streams(seed)
        decide(b, 1, 0)
        assert pick_option(np.int64(0), a, 1) == -1 and (a == b).all()
    assert nth_option(options, 4) == -1
    picks = [pick_option(options, _streams(seed), 1) for seed in range(4000)]
    counts = np.bincount(picks, minlength=31)
    assert counts.sum() == counts[[1, 4, 9, 30]].sum()
    assert all(880 < c < 1120 for c in counts[[1, 4, 9, 30]]), counts  # 1000 each, 4 sd


def test_pick_weighted_takes_each_unit_held_as_likely():
    """pick_weighted over counts (a hand of cards by kind): kind i with chance counts[i] / sum,
    never a kind of count 0, from one draw of the seat's stream."""
    counts = np.array([2, 0, 1, 0, 5], dtype=np.int64)
    for seed in range(50):
        a, b = _streams(seed), _streams(seed)
        k = decide(b, 1, 8)
        assert pick_weighted(counts, a, 1) == [0, 0, 2, 4, 4, 4, 4, 4][k]
        assert (a == b).all()
    picks = np.bincount([pick_weighted(counts, _streams(seed), 0) for seed in range(4000)], minlength=5)
    assert picks[1] == picks[3] == 0
    for i, share in ((0, 2 / 8), (2, 1 / 8), (4, 5 / 8)):
        sd = (4000 * share * (1 - share)) ** 0.5
        assert abs(picks[i] - 4000 * share) < 4 * sd, picks


def test_pick_tied_draws_only_between_two_or_more_equals():
    """pick_tied: a lone best is taken with no draw, nothing legal gives -1 with no draw, and two
    or more are drawn uniformly with one draw (decide over their number)."""
    for seed in range(20):
        a, b = _streams(seed), _streams(seed)
        assert pick_tied(option(5), a, 1) == 5 and pick_tied(np.int64(0), a, 1) == -1
        assert (a == b).all()
        assert pick_tied(option(2) | option(7), a, 1) == [2, 7][decide(b, 1, 2)]
        assert (a == b).all()
    picks = np.bincount([pick_tied(option(0) | option(3) | option(6), _streams(s), 0) for s in range(3000)], minlength=7)
    assert picks.sum() == picks[[0, 3, 6]].sum() and all(880 < c < 1120 for c in picks[[0, 3, 6]]), picks


def test_join_best_keeps_the_set_of_the_top_scores():
    """A scan with join_best ends with the set of the alternatives scoring the maximum, ties
    included, whatever order the scores come in."""
    for scores in ([1.0, 3.0, 3.0, 2.0], [3.0, 1.0, 2.0, 3.0], [-1.0], [0.5, 0.5, 0.5], [2.0, 1.0]):
        best, best_s = np.int64(0), NO_BEST
        for i, s in enumerate(scores):
            best, best_s = join_best(best, best_s, i, s)
        top = max(scores)
        assert best_s == top
        assert [i for i in range(len(scores)) if offers(best, i)] == [i for i, s in enumerate(scores) if s == top]
