"""The shared rank kernels (cubelab.tables.ranks) against plain Python definitions."""

import itertools
import math

import numpy as np
from hypothesis import given, strategies as st

from cubelab.tables import ranks
from cubelab.cube.coords import rank_permutation


@given(st.integers(1, 12), st.data())
def test_placement_rank_round_trips(n, data):
    k = data.draw(st.integers(1, n))
    r = data.draw(st.integers(0, int(np.prod(range(n - k + 1, n + 1))) - 1))
    pos = np.empty(k, np.int64)
    ranks.unrank_placement(r, k, n, pos)
    assert len(set(pos.tolist())) == k and all(0 <= p < n for p in pos)
    assert ranks.rank_placement(pos, k, n) == r


@given(st.permutations(list(range(8))), st.integers(0, 8))
def test_permutation_rank_is_the_lehmer_rank_whatever_the_values(perm, base):
    p = np.array(perm, np.int64) + base
    r = ranks.rank_perm(p, 0, 8)
    assert r == rank_permutation(perm)
    out = np.empty(10, np.int64)
    ranks.unrank_perm(r, out, 1, 8, base)
    assert (out[1:9] == p).all()


def test_permutation_ranks_count_in_lexicographic_order():
    for r, perm in enumerate(itertools.permutations(range(5))):
        assert ranks.rank_perm(np.array(perm), 0, 5) == r
    assert math.factorial(5) == r + 1


def test_sorted_slice_is_zero_when_solved_and_round_trips():
    binom = ranks.BINOM
    assert ranks.slice_sorted_of(np.arange(12), binom) == 0
    ep = np.empty(12, np.int64)
    for v in range(0, 11880, 37):
        ranks.set_slice_sorted(v, ep, binom)
        assert sorted(ep.tolist()) == list(range(12))
        assert ranks.slice_sorted_of(ep, binom) == v


@given(st.lists(st.integers(0, 2), min_size=8, max_size=8))
def test_twist_round_trips(co):
    co[7] = -sum(co[:7]) % 3
    t = ranks.twist_of(np.array(co))
    out = np.empty(8, np.int64)
    ranks.set_twist(t, out)
    assert out.tolist() == co and 0 <= t < ranks.N_TWIST
