"""minigrad._distributions: the loop-free Fisher–Yates equals the loop it replaces."""

import numpy as np
import pytest

from minigrad._distributions import _apply_swaps


@pytest.mark.parametrize("n", [1, 2, 3, 5, 17, 100, 2000])
def test_apply_swaps_equals_swapping_one_by_one(n):
    rng = np.random.default_rng(n)
    for _ in range(20):
        targets = np.arange(n) + rng.integers(0, 2**32, n) % (n - np.arange(n))
        perm = list(range(n))
        for i, j in enumerate(targets.tolist()):
            perm[i], perm[j] = perm[j], perm[i]
        assert _apply_swaps(targets).tolist() == perm


def test_apply_swaps_of_long_chains():
    n = 1000  # every step swaps with the last position: one chain through all of them
    targets = np.full(n, n - 1)
    perm = list(range(n))
    for i, j in enumerate(targets.tolist()):
        perm[i], perm[j] = perm[j], perm[i]
    assert _apply_swaps(targets).tolist() == perm
