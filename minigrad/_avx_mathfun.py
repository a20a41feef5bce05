"""Exactly rounded fused multiply-add, and PyTorch's AVX2 float32 log and sin/cos, in NumPy.

PyTorch's CPU kernels are compiled with fused multiply-add: ``x * (to - from) + from`` in
``uniform_`` and ``val * std + mean`` in ``normal_`` are rounded once, not twice. ``fma32`` and
``fma64`` compute ``a * b + c`` with a single rounding, using error-free transformations
(TwoSum, Dekker's TwoProduct) and rounding to odd, which makes the final rounding exact.

``randn`` of 16 or more float32 values runs Box–Muller on 8 lanes at a time with the Cephes
polynomials of ``avx_mathfun`` (log, sin and cos). ``log_ps`` and ``sincos_ps`` repeat those
float32 steps one NumPy operation per instruction, with the multiply-adds the compiler fuses.
"""

import numpy as np

__all__ = ["fma32", "fma64", "log_ps", "sincos_ps"]

_F = np.float32


# ---------------------------------------------------------------------------- fused multiply-add
def _two_sum(a, b):
    """s + e == a + b exactly, with s = fl(a + b)."""
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def _split(a):
    t = a * 134217729.0  # 2**27 + 1: Veltkamp's split into two 26-bit halves
    high = t - (t - a)
    return high, a - high


def _two_product(a, b):
    """p + e == a * b exactly, with p = fl(a * b)."""
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def _add_round_to_odd(a, b):
    """a + b rounded to the neighbour with an odd last bit when it is not exact."""
    s, e = _two_sum(a, b)
    s = np.array(s, dtype=np.float64, copy=True, ndmin=1)
    e = np.broadcast_to(e, s.shape)
    fix = np.flatnonzero((e != 0) & ((s.view(np.uint64) & np.uint64(1)) == 0))
    if fix.size:
        flat = s.reshape(-1)
        flat[fix] = np.nextafter(flat[fix], np.copysign(np.inf, e.reshape(-1)[fix]))
    return s


def fma64(a, b, c):
    """float64 ``a * b + c`` rounded once (Boldo and Melquiond's emulation)."""
    a, b, c = (np.asarray(v, np.float64) for v in (a, b, c))
    high, low = _two_product(a, b)
    sum_high, sum_low = _two_sum(c, high)
    return sum_high + _add_round_to_odd(sum_low, low).reshape(np.shape(sum_low))


_F32_MIDPOINT = np.uint64(1 << 28)  # a float64 halfway between two float32s ends like this
_F32_DROPPED = np.uint64((1 << 29) - 1)


def fma32(a, b, c):
    """float32 ``a * b + c`` rounded once.

    The product of two float32s is exact in float64; the float64 sum rounds once more, which
    can only mislead the final rounding when it lands exactly halfway between two float32s:
    there the sum's rounding error says which way the exact value lies.
    """
    a, b, c = (np.asarray(v, _F) for v in (a, b, c))  # no copy of a float32 array
    s = np.atleast_1d(np.add(np.multiply(a, b, dtype=np.float64), c, dtype=np.float64))
    result = s.astype(_F)
    ties = np.flatnonzero((s.view(np.uint64) & _F32_DROPPED) == _F32_MIDPOINT)
    if ties.size:
        a, b, c = (np.broadcast_to(np.asarray(v, np.float64), s.shape).reshape(-1)[ties]
                   for v in (a, b, c))
        tie_sum, error = _two_sum(a * b, c)
        away = np.nextafter(tie_sum, np.copysign(np.inf, error)).astype(_F)
        result.reshape(-1)[ties] = np.where(error != 0, away, tie_sum.astype(_F))
    return result


# ---------------------------------------------------------------------------- avx_mathfun
_LOG_POLY = (7.0376836292E-2, -1.1514610310E-1, 1.1676998740E-1, -1.2420140846E-1,
             1.4249322787E-1, -1.6668057665E-1, 2.0000714765E-1, -2.4999993993E-1,
             3.3333331174E-1)
_SMALLEST_NORMAL = np.array(0x00800000, np.int32).view(_F)


def log_ps(x):
    """Cephes logf on float32 lanes: exponent and mantissa, then a degree-9 polynomial."""
    invalid = x <= 0
    bits = np.maximum(x, _SMALLEST_NORMAL).view(np.int32)
    e = ((bits >> 23) - 0x7F).astype(_F) + _F(1)
    m = ((bits & ~0x7F800000) | np.array(0.5, _F).view(np.int32)).view(_F)  # in [0.5, 1)
    small = m < _F(0.707106781186547524)
    m = (m - _F(1)) + np.where(small, m, _F(0))
    e = e - np.where(small, _F(1), _F(0))
    z = m * m
    y = np.full_like(m, _F(_LOG_POLY[0]))
    for coefficient in _LOG_POLY[1:]:
        y = fma32(y, m, coefficient)
    y = fma32(y * m, z, e * _F(-2.12194440e-4))
    y = fma32(-z, _F(0.5), y)
    result = fma32(e, _F(0.693359375), m + y)
    return np.where(invalid, _F(np.nan), result)


def sincos_ps(x):
    """Cephes sinf and cosf on float32 lanes: reduce by π/4 in three parts, two polynomials."""
    sign_sin = x.view(np.int32) & np.int32(-2**31)
    x = np.abs(x)
    j = (x * _F(1.27323954473516)).astype(np.int32)  # 4/π, truncated
    j = (j + 1) & ~1
    y = j.astype(_F)
    for part in (-0.78515625, -2.4187564849853515625e-4, -3.77489497744594108e-8):
        x = fma32(y, _F(part), x)
    sign_sin = sign_sin ^ ((j & 4) << 29)
    sign_cos = (~(j - 2) & 4) << 29
    use_sin_poly = (j & 2) == 0
    z = x * x
    c = fma32(_F(2.443315711809948E-005), z, _F(-1.388731625493765E-003))
    c = fma32(c, z, _F(4.166664568298827E-002))
    c = fma32(c * z, z, -(z * _F(0.5))) + _F(1)
    s = fma32(_F(-1.9515295891E-4), z, _F(8.3321608736E-3))
    s = fma32(s, z, _F(-1.6666654611E-1))
    s = fma32(s * z, x, x)
    sin_part = np.where(use_sin_poly, s, _F(0))
    cos_part = np.where(use_sin_poly, _F(0), c)
    sine = (cos_part + sin_part).view(np.int32) ^ sign_sin
    cosine = ((c - cos_part) + (s - sin_part)).view(np.int32) ^ sign_cos
    return sine.view(_F), cosine.view(_F)
