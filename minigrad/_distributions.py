"""PyTorch's CPU sampling kernels on NumPy arrays: the same draws, the same arithmetic.

Every function fills an ndarray in place (or returns one) from a ``minigrad.Generator``:

- uniform: a float32 takes the low 24 bits of one 32-bit word, a float64 the low 53 bits of a
  64-bit word; ``x * (to - from) + from`` is one fused multiply-add.
- normal, 16 or more contiguous values: all uniforms first, then Box–Muller on blocks of 16
  (the first 8 give radii, the next 8 angles); a last partial block is redrawn as the last 16
  values. float32 uses the AVX2 Cephes log/sin/cos, float64 the C library's (``_libm``).
- normal, fewer values (or a strided tensor): one Box–Muller pair per two values in float64,
  the second value kept in the generator for the next draw.
- bernoulli(p): uniform float64 < p; random_: word modulo a range; randperm: Fisher–Yates.

Values are written in the order of memory, as PyTorch's TensorIterator visits them.
"""

import math

import numpy as np

from minigrad._avx_mathfun import fma32, fma64, log_ps, sincos_ps

__all__ = ["uniform_", "normal_", "bernoulli_", "random_", "random_from_to_", "exponential_",
           "cauchy_", "log_normal_", "geometric_", "randperm", "multinomial"]

_MANTISSA_BITS = {np.dtype(np.float16): 11, np.dtype(np.float32): 24, np.dtype(np.float64): 53}


# ---------------------------------------------------------------------------- the C library's math
class _CLibrary:
    """float64 ``log``, ``log1p``, ``sin``, ``cos``, ``tan`` and ``exp`` with the C library's
    results, which PyTorch's sampling kernels get (``std::log``...).

    NumPy's own loops give them where they call the C library; on a CPU with AVX-512 NumPy
    has SIMD loops of its own, which differ in the last bit for some inputs (log1p for one in
    thirteen, exp one in twenty). Each function is checked once, on first use, against
    Python's ``math`` (the C library) over a sample of its inputs; where they differ, the C
    library is called for each element.
    """

    _SAMPLES = {  # inputs like those the kernels pass (u: uniform in [0, 1))
        "log": lambda u: 1 - u, "log1p": lambda u: -u, "sin": lambda u: 2 * math.pi * u,
        "cos": lambda u: 2 * math.pi * u, "tan": lambda u: math.pi * (u - 0.5),
        "exp": lambda u: 20 * u - 10}

    def __getattr__(self, name):
        if name not in self._SAMPLES:
            raise AttributeError(name)
        ufunc, scalar = getattr(np, name), getattr(math, name)
        sample = self._SAMPLES[name](np.random.default_rng(0).random(8192))
        if np.array_equal(ufunc(sample), np.array([scalar(v) for v in sample.tolist()])):
            function = ufunc
        else:
            def function(x):
                x = np.asarray(x, np.float64)
                values = map(_edge_safe(scalar, ufunc), x.reshape(-1).tolist())
                return np.fromiter(values, np.float64, x.size).reshape(x.shape)
        setattr(self, name, function)  # (found as an attribute from now on)
        return function


def _edge_safe(scalar, ufunc):
    """``scalar`` (a ``math`` function), with NumPy's answer where it raises instead: log(0)
    is -inf, exp(1000) is inf, tan(inf) is nan."""
    def call(v):
        try:
            return scalar(v)
        except (ValueError, OverflowError):
            with np.errstate(all="ignore"):
                return float(ufunc(v))
    return call


_libm = _CLibrary()


def _fill(out, values):
    """Write the flat ``values`` into ``out`` in memory order (outermost stride first)."""
    if out.flags.c_contiguous:
        out.reshape(-1)[...] = values
        return
    order = sorted(range(out.ndim), key=lambda d: -abs(out.strides[d]))
    view = out.transpose(order)
    view[...] = np.asarray(values).reshape(view.shape)


def _uniform01_words(gen, n, dtype):
    """``n`` uniform floats in [0, 1) with ``dtype``'s mantissa bits, as PyTorch makes them."""
    bits = _MANTISSA_BITS[np.dtype(dtype)]
    if bits == 53:
        words = gen._random64(n) & np.uint64(2**53 - 1)
        return words.astype(np.float64) * 2.0**-53
    words = gen._random(n) & np.uint32(2**bits - 1)
    return words.astype(np.float32) * np.float32(2.0**-bits)


def uniform_(out, low, high, gen):
    """U(low, high): the bounds rounded to the dtype, then ``x * (high - low) + low``."""
    dtype = out.dtype
    x = _uniform01_words(gen, out.size, dtype)
    low, high = dtype.type(low), dtype.type(high)
    if low == 0 and high == 1:  # x * 1 + 0 is x: no rounding to repeat
        values = x
    elif dtype == np.float64:
        values = fma64(x, high - low, low)
    else:
        values = fma32(x, np.float32(high) - np.float32(low), np.float32(low))
    _fill(out, values.astype(dtype))


# ---------------------------------------------------------------------------- normal
def _scale(values, std, mean, fma):
    """``values * std + mean`` rounded once (exact already for the standard normal)."""
    return values if std == 1 and mean == 0 else fma(values, std, mean)


def _box_muller_blocks(u, mean, std, dtype):
    """Box–Muller on rows of 16 uniforms: (1 - u[:8], u[8:]) -> (r cos θ, r sin θ)."""
    u = u.reshape(-1, 16)
    u1, u2 = 1 - u[:, :8], u[:, 8:]
    if dtype == np.float32:
        radius = np.sqrt(np.float32(-2) * log_ps(u1))
        sine, cosine = sincos_ps(np.float32(2.0 * math.pi) * u2)
        fma = fma32
    else:
        radius = np.sqrt(-2 * _libm.log(u1))
        theta = 2.0 * math.pi * u2
        sine, cosine = _libm.sin(theta), _libm.cos(theta)
        fma = fma64
    out = np.empty_like(u)
    out[:, :8] = _scale(radius * cosine, std, mean, fma)
    out[:, 8:] = _scale(radius * sine, std, mean, fma)
    return out.reshape(-1)


def _normal_fill(flat, mean, std, gen):
    """PyTorch's ``normal_fill``: vectorised Box–Muller for 16 or more contiguous values."""
    dtype, n = flat.dtype, flat.size
    mean, std = dtype.type(mean), dtype.type(std)
    u = _uniform01_words(gen, n, dtype)
    whole = n - n % 16
    flat[:whole] = _box_muller_blocks(u[:whole], mean, std, dtype)
    flat[whole:] = u[whole:]
    if n % 16:  # the last 16 values are drawn again and transformed together
        flat[n - 16:] = _box_muller_blocks(_uniform01_words(gen, 16, dtype), mean, std, dtype)


def _normal_scalar(n, mean, std, gen):
    """PyTorch's ``normal_distribution<double>``: one pair per two values, the odd one kept."""
    values = np.empty(n)
    start = 0
    if n and gen._next_double_normal is not None:
        values[0], gen._next_double_normal = gen._next_double_normal, None
        start = 1
    pairs = (n - start + 1) // 2
    if pairs:
        u = _uniform01_words(gen, 2 * pairs, np.float64)
        radius = np.sqrt(-2.0 * _libm.log1p(-u[1::2]))
        theta = 2.0 * math.pi * u[0::2]
        drawn = np.empty(2 * pairs)
        drawn[0::2], drawn[1::2] = radius * _libm.cos(theta), radius * _libm.sin(theta)
        values[start:] = drawn[:n - start]
        if (n - start) % 2:
            gen._next_double_normal = float(drawn[-1])
    return _scale(values, float(std), float(mean), fma64)


def normal_(out, mean, std, gen, contiguous=None):
    """N(mean, std²) into ``out``, along PyTorch's two paths (see the module docstring).

    ``contiguous`` tells whether the tensor being filled is (default: whether ``out`` is).
    """
    if contiguous is None:
        contiguous = out.flags.c_contiguous
    if out.size >= 16 and contiguous and out.dtype != np.float16:
        _normal_fill(out.reshape(-1), mean, std, gen)
    else:  # NB: PyTorch's float16 path differs in the last bits for 16 or more values
        _fill(out, _normal_scalar(out.size, mean, std, gen).astype(out.dtype))


# ---------------------------------------------------------------------------- discrete
def bernoulli_(out, p, gen):
    """1 where a uniform float64 (or float32, for a float32 tensor ``p``) is below ``p``."""
    if isinstance(p, np.ndarray):
        p = _in_memory_order(np.broadcast_to(p, out.shape), out)
        u = _uniform01_words(gen, out.size, np.float64 if p.dtype == np.float64 else np.float32)
        _fill(out, (u < p).astype(out.dtype))
        return
    u = _uniform01_words(gen, out.size, np.float64)
    _fill(out, (u < p).astype(out.dtype))


def _in_memory_order(values, out):
    """``values`` (shaped like ``out``) flattened in the order ``_fill`` writes ``out``."""
    if out.flags.c_contiguous:
        return values.reshape(-1)
    order = sorted(range(out.ndim), key=lambda d: -abs(out.strides[d]))
    return values.transpose(order).reshape(-1)


def _integer_limit(dtype):
    """The modulus of a bare ``random_()``: 2**mantissa + 1 for floats, max + 1 for integers."""
    if dtype == np.bool_:
        return 2
    if dtype.kind == "f":
        return 2**_MANTISSA_BITS[dtype] + 1
    return int(np.iinfo(dtype).max) + 1


def random_(out, gen):
    """Integers in [0, limit): 64-bit words for int64 and float64, 32-bit words otherwise."""
    dtype = out.dtype
    wide = dtype in (np.dtype(np.int64), np.dtype(np.float64), np.dtype(np.uint64))
    words = gen._random64(out.size) if wide else gen._random(out.size).astype(np.uint64)
    if dtype == np.bool_:
        values = (words & np.uint64(1)).astype(bool)
    else:
        limit = _integer_limit(dtype)
        values = words % np.uint64(limit) if limit < 2**64 else words
    _fill(out, values.astype(dtype))


def random_from_to_(out, low, high, gen):
    """Integers in [low, high): a word modulo the range plus ``low``; ranges of 2**28 or
    more use 64-bit words (and ``high=None`` with int64's lowest ``low``, all 64 bits)."""
    span = (high - low) % 2**64 if high is not None else 0
    if span == 0:
        values = gen._random64(out.size).view(np.int64)
    else:
        words = gen._random64(out.size) if span >= 2**28 else gen._random(out.size).astype(
            np.uint64)
        values = ((words % np.uint64(span)) + np.uint64(low % 2**64)).view(np.int64)
    _fill(out, values.astype(out.dtype))


def exponential_(out, lambd, gen):
    """Exp(λ): ``-1/λ · log1p(-u)`` for a uniform float64 ``u``."""
    u = _uniform01_words(gen, out.size, np.float64)
    _fill(out, ((-1.0 / lambd) * _libm.log1p(-u)).astype(out.dtype))


def cauchy_(out, median, sigma, gen):
    """Cauchy(median, σ): ``median + σ · tan(π (u - 1/2))`` for a uniform float64 ``u``."""
    u = _uniform01_words(gen, out.size, np.float64)
    _fill(out, fma64(sigma, _libm.tan(math.pi * (u - 0.5)), median).astype(out.dtype))


def log_normal_(out, mean, std, gen):
    """exp of N(mean, std²) samples drawn one by one (pairs, the odd one kept)."""
    _fill(out, _libm.exp(_normal_scalar(out.size, mean, std, gen)).astype(out.dtype))


def geometric_(out, p, gen):
    """Geometric(p), the number of trials up to the first success: ⌈log u / log(1 - p)⌉."""
    u = _uniform01_words(gen, out.size, np.float64)
    with np.errstate(divide="ignore"):
        _fill(out, np.ceil(_libm.log(u) / _libm.log(np.float64(1.0 - p))).astype(out.dtype))


def randperm(n, gen):
    """PyTorch's Fisher–Yates: for i = 0 .. n-2, swap positions i and i + word % (n - i).

    For n of 2**32 / 20 or more, PyTorch's "inside-out" variant with 64-bit words.
    """
    if n < (2**32 - 1) // 20:
        steps = np.arange(max(n - 1, 0))
        targets = steps + gen._random(n - 1 if n else 0).astype(np.int64) % (n - steps)
        return _apply_swaps(np.append(targets, n - 1) if n else targets)
    perm = np.empty(n, dtype=np.int64)
    picks = gen._random64(n) % (np.arange(n, dtype=np.uint64) + np.uint64(1))
    for i, z in enumerate(picks.tolist()):
        perm[i] = perm[z]
        perm[z] = i
    return perm


def _apply_swaps(targets):
    """What ``perm = arange(n); for i: swap(perm[i], perm[targets[i]])`` leaves, without a
    Python loop (``targets[i] >= i``; ``targets[i] == i`` is no swap).

    Position i is final after step i and holds what position ``targets[i]`` held just before
    it. A position p holds, before step i, what the last earlier step k that wrote to p moved
    there (the value position k held before step k), or p itself if none did. Steps that
    write to p all come before p, so grouping the swaps by the position they write (one sort)
    gives both "the last writer of p" and "the writer before step i". The "value before step
    k" links form a forest whose roots are untouched positions: pointer jumping resolves every
    chain in a logarithmic number of vectorised rounds.
    """
    n = len(targets)
    everywhere = np.arange(n)
    movers = everywhere[targets != everywhere]
    order = np.argsort(targets[movers], kind="stable")  # by position written, then by step
    steps, written = movers[order], targets[movers][order]
    same_as_previous = np.zeros(len(steps), bool)
    same_as_previous[1:] = written[1:] == written[:-1]
    is_last = np.ones(len(steps), bool)
    is_last[:-1] = ~same_as_previous[1:]
    parent = np.full(n, -1)  # the last step that wrote to each position
    parent[written[is_last]] = steps[is_last]
    writer = parent.copy()  # the step that wrote targets[i] last before step i
    writer[steps] = np.where(same_as_previous, np.roll(steps, 1), -1)
    root = np.where(parent < 0, everywhere, parent)
    while True:  # pointer jumping: each chain ends at the untouched position it started from
        jumped = root[root]
        if np.array_equal(jumped, root):
            break
        root = jumped
    return np.where(writer < 0, targets, root[np.maximum(writer, 0)]).astype(np.int64)


def multinomial(probs, num_samples, replacement, gen):
    """Category indices: without replacement (or one sample) the largest p / Exp(1) values;
    with replacement a binary search of uniform float64s in the normalised cumulative sum."""
    rows = probs.reshape(-1, probs.shape[-1])
    if not replacement or num_samples == 1:
        q = np.empty_like(rows)
        exponential_(q, 1.0, gen)
        q = rows / q
        picked = np.argsort(-q, axis=-1, kind="stable")[:, :num_samples]
    else:
        picked = np.empty((rows.shape[0], num_samples), dtype=np.int64)
        for i, row in enumerate(rows):
            cumulative = np.cumsum(row)
            cumulative = cumulative / cumulative[-1]
            cumulative[-1] = 1
            u = _uniform01_words(gen, num_samples, np.float64)
            picked[i] = np.searchsorted(cumulative, u, side="left")
    return picked.reshape(probs.shape[:-1] + (num_samples,)).astype(np.int64)
