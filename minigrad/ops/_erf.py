"""erf(x) and erfc(x) on NumPy arrays, elementwise: W. J. Cody's rational Chebyshev
approximations ("Rational Chebyshev approximations for the error function", Math. Comp. 23,
1969), accurate to about one unit in the last place of a float64 (NumPy has no erf of its own).
``minigrad.erf``/``erfc`` and GELU compute with them."""

import numpy as np

__all__ = ["erf", "erfc"]

_INV_SQRT_PI = 0.56418958354775628695

# |x| ≤ 0.46875: erf(x) = x·P(x²)/Q(x²)
_SMALL_P = (1.85777706184603153e-1, 3.16112374387056560e0, 1.13864154151050156e2,
            3.77485237685302021e2, 3.20937758913846947e3)
_SMALL_Q = (1.0, 2.36012909523441209e1, 2.44024637934444173e2, 1.28261652607737228e3,
            2.84423683343917062e3)
# 0.46875 < |x| ≤ 4: erfc(x) = exp(-x²)·P(|x|)/Q(|x|)
_MIDDLE_P = (2.15311535474403846e-8, 5.64188496988670089e-1, 8.88314979438837594e0,
             6.61191906371416295e1, 2.98635138197400131e2, 8.81952221241769090e2,
             1.71204761263407058e3, 2.05107837782607147e3, 1.23033935479799725e3)
_MIDDLE_Q = (1.0, 1.57449261107098347e1, 1.17693950891312499e2, 5.37181101862009858e2,
             1.62138957456669019e3, 3.29079923573345963e3, 4.36261909014324716e3,
             3.43936767414372164e3, 1.23033935480374942e3)
# |x| > 4: erfc(x) = exp(-x²)/|x|·(1/√π - z·P(z)/Q(z)) with z = 1/x²
_LARGE_P = (1.63153871373020978e-2, 3.05326634961232344e-1, 3.60344899949804439e-1,
            1.25781726111229246e-1, 1.60837851487422766e-2, 6.58749161529837803e-4)
_LARGE_Q = (1.0, 2.56852019228982242e0, 1.87295284992346047e0, 5.27905102951428412e-1,
            6.05183413124413191e-2, 2.33520497626869185e-3)


def _ratio(p, q, t):
    """P(t)/Q(t) by Horner's rule (coefficients from the highest power down)."""
    return np.polyval(p, t) / np.polyval(q, t)


def _erfc_of_magnitude(a):
    """erfc(a) for a > 0.46875 (the middle and large ranges), in float64."""
    # exp(-a²) as exp(-r²)·exp(-(a - r)(a + r)) with r = a rounded down to 1/16 (exact in
    # float64), as Cody does: a² itself would round, and exp magnifies that error by a².
    a = np.minimum(a, 30.0)  # (erfc is 0 in float64 from 27.3 on; inf - inf would be NaN)
    r = np.floor(a * 16) / 16
    gauss = np.exp(-r * r) * np.exp(-(a - r) * (a + r))
    out = np.empty_like(a)
    large = a > 4
    middle = ~large
    out[middle] = gauss[middle] * _ratio(_MIDDLE_P, _MIDDLE_Q, a[middle])
    al = a[large]
    z = 1 / (al * al)
    out[large] = gauss[large] / al * (_INV_SQRT_PI - z * _ratio(_LARGE_P, _LARGE_Q, z))
    return out


def _split(x):
    """``x`` as float64 with its two ranges: erf(x) on |x| ≤ 0.46875 (``near``, where erf is
    small) and erfc(|x|) elsewhere (``tail``; NaN in neither, set afterwards)."""
    x = np.asarray(x, dtype=np.float64)
    a = np.abs(x)
    small = a <= 0.46875
    rest = ~small & ~np.isnan(x)
    with np.errstate(all="ignore"):
        xs = x[small]
        near = xs * _ratio(_SMALL_P, _SMALL_Q, xs * xs)
        tail = _erfc_of_magnitude(a[rest])
    return x, small, rest, near, tail


def erf(x):
    """The error function 2/√π ∫₀ˣ exp(-t²) dt of each element, in float64.

    Example:
        >>> erf(np.array([0.0, 1.0, -3.0]))
        array([ 0.        ,  0.84270079, -0.99997791])
    """
    x, small, rest, near, tail = _split(x)
    out = np.full_like(x, np.nan)
    out[small] = near
    out[rest] = np.copysign(1 - tail, x[rest])
    return out


def erfc(x):
    """The complementary error function 1 - erf(x) of each element, in float64, computed
    directly where erf(x) is near ±1 (erfc(10) is 2.1e-45, not 0).

    Example:
        >>> erfc(np.array([0.0, 1.0, 10.0]))
        array([1.00000000e+00, 1.57299207e-01, 2.08848758e-45])
    """
    x, small, rest, near, tail = _split(x)
    out = np.full_like(x, np.nan)
    out[small] = 1 - near
    out[rest] = np.where(x[rest] > 0, tail, 2 - tail)
    return out
