"""simkit/kernels.py: the loops the engines use instead of what needs numba's runtime."""

import typing

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from simkit.kernels import copy_block, copy_prefix, copy_rows, params_record, same_block, sort_ints


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-50, 50), max_size=40), st.integers(0, 40))
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


@njit
def _read(P):
    return P.round_cap * 10 + P.combo_port, P.bribe_share * 2.0


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
