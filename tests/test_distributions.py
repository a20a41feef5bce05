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


def test_float64_math_is_the_c_librarys():
    """The sampling kernels' float64 log, log1p, tan, exp, sin and cos give what Python's
    ``math`` (the C library, as in PyTorch's kernels) gives, element for element, whether
    NumPy's own loops agree with it on this CPU or not (AVX-512: they do not)."""
    import math

    from minigrad._distributions import _CLibrary
    u = np.random.default_rng(7).random(20_000)
    inputs = {"log": 1 - u, "log1p": -u, "tan": math.pi * (u - 0.5), "exp": 30 * u - 15,
              "sin": 2 * math.pi * u, "cos": 2 * math.pi * u}
    libm = _CLibrary()
    for name, x in inputs.items():
        expected = np.array([getattr(math, name)(v) for v in x.tolist()])
        np.testing.assert_array_equal(getattr(libm, name)(x), expected, err_msg=name)


def test_the_c_librarys_math_elementwise_keeps_numpys_edges(monkeypatch):
    """Where NumPy's loop differs, each element goes to ``math``; where ``math`` raises
    (log(0), log of a negative, exp(1000)) the answer is NumPy's."""
    from minigrad import _distributions

    def off_by_one_bit(ufunc):  # a loop that differs from the C library but at its edges
        def loop(x):
            with np.errstate(all="ignore"):
                exact = ufunc(x)
            return np.where(np.isfinite(exact), np.nextafter(exact, np.inf), exact)
        return loop

    for name in ("log", "exp"):
        monkeypatch.setattr(_distributions.np, name, off_by_one_bit(getattr(np, name)))
    libm = _distributions._CLibrary()
    np.testing.assert_array_equal(libm.exp(np.array([0.0, 1.0, 1000.0])), [1.0, np.e, np.inf])
    got = libm.log(np.array([[1.0, 0.0, -1.0]]))
    assert got.shape == (1, 3) and got[0, 0] == 0.0 and got[0, 1] == -np.inf
    assert np.isnan(got[0, 2])
