"""minigrad._avx_mathfun: fused multiply-add rounded once, checked with exact fractions."""

from fractions import Fraction

import numpy as np
import pytest

from minigrad._avx_mathfun import fma32, fma64, log_ps, sincos_ps


def _nearest(exact, dtype):
    """The ``dtype`` value nearest to the Fraction ``exact`` (ties to even), found by search."""
    guess = dtype(float(exact))
    candidates = [np.nextafter(guess, dtype(-np.inf)), guess, np.nextafter(guess, dtype(np.inf))]
    best = min(candidates, key=lambda c: (abs(Fraction(float(c)) - exact),
                                          int(np.array(c).view(f"u{np.dtype(dtype).itemsize}"))
                                          & 1))
    return best


@pytest.mark.parametrize("dtype,fma", [(np.float32, fma32), (np.float64, fma64)])
def test_fma_is_the_exact_result_rounded_once(dtype, fma):
    rng = np.random.default_rng(0)
    a, b, c = ((rng.standard_normal(300) * 10.0 ** rng.integers(-3, 4, 300)).astype(dtype)
               for _ in range(3))
    got = fma(a, b, c)
    for x, y, z, r in zip(a, b, c, got):
        exact = Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z))
        assert r == _nearest(exact, dtype)


def test_fma32_breaks_a_double_rounding_tie_by_the_exact_value():
    # (1 + 2**-12)**2 lies exactly halfway between two float32s; ± 2**-60 decides the way
    a = np.array([1 + 2**-12] * 2 + [-(1 + 2**-12)], np.float32)
    c = np.array([2.0**-60, -2.0**-60, 2.0**-60], np.float32)
    got = fma32(a, np.float32(1 + 2**-12), c)
    expected = [_nearest(Fraction(float(x)) * Fraction(1 + 2**-12) + Fraction(float(z)),
                         np.float32) for x, z in zip(a, c)]
    assert got.tolist() == [float(e) for e in expected]
    assert got[0] != np.float32((1 + 2**-12) ** 2)  # rounding twice would give the other one


def test_cephes_log_sin_cos_are_accurate_float32_functions():
    x = np.linspace(1e-6, 1, 10001, dtype=np.float32)
    assert np.abs(log_ps(x) - np.log(x.astype(np.float64))).max() < 3e-7 * 20
    theta = np.linspace(0, 2 * np.pi, 10001, dtype=np.float32)
    sine, cosine = sincos_ps(theta)
    assert np.abs(sine - np.sin(theta.astype(np.float64))).max() < 3e-7
    assert np.abs(cosine - np.cos(theta.astype(np.float64))).max() < 3e-7
    assert np.isnan(log_ps(np.array([0.0, -1.0], np.float32))).all()
