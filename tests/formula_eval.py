"""The meaning of the formula language (minigrad/autograd/_formulas.py): its helper functions
written out in plain NumPy, independently of the ops' own backward code, so that evaluating an
op's ``formula`` on the numbers a recording kept checks the gradient the node really sent.

The convolution and pooling helpers loop over kernel offsets and windows, the slow way a
textbook writes them; they run on the registry's small tensors only.
"""

import itertools

import numpy as np

from minigrad.autograd._values import value_to_array

__all__ = ["HELPERS", "evaluate", "operand"]


def _dims(dim, ndim):
    if dim is None:
        return tuple(range(ndim))
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    return tuple(sorted(d % ndim for d in dims)) if ndim else ()


def spread(g, shape, dim, keepdim):
    shape, g = tuple(shape), np.asarray(g)
    if not shape:
        return g
    dims = _dims(dim, len(shape)) or tuple(range(len(shape)))
    if not keepdim:
        for d in dims:
            g = np.expand_dims(g, d)
    return np.broadcast_to(g, shape)


def mean(x, dim):
    x = np.asarray(x)
    return x if x.ndim == 0 else np.mean(x, axis=_dims(dim, x.ndim), keepdims=True)


def ties(x, m, dim, keepdim):
    if x.ndim == 0:
        return np.ones_like(x)
    m = spread(m, x.shape, dim, keepdim)
    mask = x == m  # (as PyTorch's amax: a NaN equals nothing)
    return mask / mask.sum(axis=_dims(dim, x.ndim) or None, keepdims=True)


def put(g, index, shape):
    out = np.zeros(tuple(shape), dtype=np.asarray(g).dtype)
    index = tuple(index)
    if any(isinstance(i, np.ndarray) for i in index):
        np.add.at(out, index, g)
    else:
        out[index] = g
    return out


def scatter(g, dim, indices, shape):
    shape, g, indices = tuple(shape), np.asarray(g), np.asarray(indices)
    if not shape:
        return g
    if g.ndim < len(shape):
        g, indices = np.expand_dims(g, dim), np.expand_dims(indices, dim)
    out = np.zeros(shape, dtype=g.dtype)
    np.put_along_axis(out, indices, g, axis=dim)
    return out


def split(g, pieces, dim):
    parts, start = [], 0
    for used, shape, _ in pieces:
        if not used:
            parts.append(np.zeros(tuple(shape)))
            continue
        stop = start + shape[dim]
        parts.append(np.take(g, np.arange(start, stop), axis=dim))
        start = stop
    return parts


def sum_tiles(g, repeats, shape):
    if not repeats:
        return g
    padded = (1,) * (len(repeats) - len(shape)) + tuple(shape)
    out = np.zeros(padded, dtype=g.dtype)
    for tile in np.ndindex(*repeats):
        out += g[tuple(slice(t * n, (t + 1) * n) for t, n in zip(tile, padded))]
    return out.reshape(tuple(shape))


def prod_others(x, dim=None):
    if x.ndim == 0:
        return np.ones_like(x)
    if dim is None:
        flat = x.reshape(-1)
        return np.array([np.prod(np.delete(flat, k)) for k in range(flat.size)]).reshape(x.shape)
    return np.stack([np.prod(np.delete(x, k, axis=dim), axis=dim)
                     for k in range(x.shape[dim])], axis=dim)


def cumprod_grad(g, x, dim):
    """Σ_{k≥i} g_k · Π_{j≤k, j≠i} x_j along ``dim``, element by element."""
    if x.ndim == 0:
        return g
    g, x = np.moveaxis(g, dim, -1), np.moveaxis(x, dim, -1)
    out = np.zeros_like(g)
    n = x.shape[-1]
    for i in range(n):
        for k in range(i, n):
            others = np.prod(np.delete(x[..., :k + 1], i, axis=-1), axis=-1)
            out[..., i] += g[..., k] * others
    return np.moveaxis(out, -1, dim)


def diagonal_of(g, args):
    offset, dim1, dim2 = args
    return np.diagonal(g, offset, dim1, dim2)


def diagonal_scatter(g, shape, args):
    out = np.zeros(tuple(shape), dtype=np.asarray(g).dtype)
    where = diagonal_of(np.arange(out.size).reshape(out.shape), args)
    np.put(out, where, g)
    return out


def norm_slope(x, norm, p, dim, keepdim):
    n = spread(norm, x.shape, dim, keepdim)
    with np.errstate(all="ignore"):
        if p == 2:
            return np.where(n == 0, 0, x / n)
        if p == 1:
            return np.sign(x)
        if np.isinf(p):
            mask = (np.abs(x) == n) | np.isnan(x)
            return np.sign(x) * mask / mask.sum(axis=_dims(dim, x.ndim) or None, keepdims=True)
        return np.where(n == 0, 0, np.sign(x) * np.abs(x) ** (p - 1) / n ** (p - 1))


def _channel(v, ndim):
    return np.reshape(v, (1, -1) + (1,) * (ndim - 2))


def x_hat(x, mu, invstd):
    return (x - _channel(mu, x.ndim)) * _channel(invstd, x.ndim)


def channels(g):
    return g.sum(axis=(0,) + tuple(range(2, g.ndim)))


def batch_norm_input(g, x, weight, mu, invstd, training):
    scale = _channel(weight * invstd, x.ndim)
    if not training:
        return g * scale
    axes = (0,) + tuple(range(2, x.ndim))
    xh = x_hat(x, mu, invstd)
    return scale * (g - g.mean(axes, keepdims=True) - xh * (g * xh).mean(axes, keepdims=True))


# ---------------------------------------------------------------- convolution, the slow way
def _geometry(params):
    stride, padding, dilation, transposed, output_padding, groups = params
    return tuple(stride), tuple(tuple(p) for p in padding), tuple(dilation), transposed, groups


def _windows(size, kernel, stride, padding, dilation, out):
    """For each kernel offset: the input slice (in padded coordinates) each output reads."""
    for offset in itertools.product(*(range(k) for k in kernel)):
        yield offset, tuple(slice(o * d, o * d + st * (n - 1) + 1, st) for o, d, st, n
                            in zip(offset, dilation, stride, out))


def _padded(x, padding):
    return np.pad(x, [(0, 0), (0, 0)] + [tuple(p) for p in padding])


def _direct(x, w, stride, padding, dilation, groups, out=None):
    """y[n, o, p] = Σ_c,k w[o, c, k] · x_padded[n, c, p·stride + k·dilation]."""
    xp, kernel = _padded(x, padding), w.shape[2:]
    if out is None:
        out = tuple((s - d * (k - 1) - 1) // st + 1 for s, k, st, d
                    in zip(xp.shape[2:], kernel, stride, dilation))
    cg, og = x.shape[1] // groups, w.shape[0] // groups
    y = np.zeros((x.shape[0], w.shape[0]) + tuple(out))
    for offset, window in _windows(xp.shape[2:], kernel, stride, padding, dilation, out):
        for gr in range(groups):
            part = xp[(slice(None), slice(gr * cg, (gr + 1) * cg)) + window]
            wk = w[(slice(gr * og, (gr + 1) * og), slice(None)) + offset]
            y[:, gr * og:(gr + 1) * og] += np.einsum("nc...,oc->no...", part, wk)
    return y


def _adjoint_x(g, w, stride, padding, dilation, groups, size):
    """The adjoint in x of ``_direct``: ∂/∂x of Σ g·_direct(x, w), for x of spatial ``size``."""
    padded_size = tuple(s + lo + hi for s, (lo, hi) in zip(size, padding))
    cg, og = w.shape[1], w.shape[0] // groups
    xp = np.zeros((g.shape[0], cg * groups) + padded_size)
    for offset, window in _windows(padded_size, w.shape[2:], stride, padding, dilation,
                                   g.shape[2:]):
        for gr in range(groups):
            wk = w[(slice(gr * og, (gr + 1) * og), slice(None)) + offset]
            xp[(slice(None), slice(gr * cg, (gr + 1) * cg)) + window] += np.einsum(
                "no...,oc->nc...", g[:, gr * og:(gr + 1) * og], wk)
    return xp[(slice(None), slice(None)) + tuple(slice(lo, lo + s) for s, (lo, _)
                                                 in zip(size, padding))]


def _adjoint_w(x, g, kernel, stride, padding, dilation, groups):
    """The adjoint in w of ``_direct``: ∂/∂w of Σ g·_direct(x, w)."""
    xp = _padded(x, padding)
    cg, og = x.shape[1] // groups, g.shape[1] // groups
    gw = np.zeros((g.shape[1], cg) + tuple(kernel))
    for offset, window in _windows(xp.shape[2:], kernel, stride, padding, dilation,
                                   g.shape[2:]):
        for gr in range(groups):
            part = xp[(slice(None), slice(gr * cg, (gr + 1) * cg)) + window]
            here = g[:, gr * og:(gr + 1) * og]
            gw[(slice(gr * og, (gr + 1) * og), slice(None)) + offset] = np.einsum(
                "ncp,nop->oc", part.reshape(part.shape[:2] + (-1,)),
                here.reshape(here.shape[:2] + (-1,)))
    return gw


def _fit(y, shape):
    y = y[tuple(slice(0, s) for s in shape)]
    return np.pad(y, [(0, s - n) for s, n in zip(shape, y.shape)])


def conv(x, w, params, like):
    """The convolution (or the transposed one) of x with w, cut or padded to ``like``'s shape."""
    stride, padding, dilation, transposed, groups = _geometry(params)
    unbatched = like.ndim == w.ndim - 1
    x = x[None] if unbatched and x.ndim == like.ndim else x
    if transposed:
        y = _adjoint_x(x, w, stride, padding, dilation, groups,
                       (like.shape if unbatched else like.shape[1:])[1:])
    else:
        y = _direct(x, w, stride, padding, dilation, groups)
    y = _fit(y, ((1,) if unbatched else ()) + like.shape)
    return y[0] if unbatched else y


def conv_input(g, w, params, x):
    """∂ℓ/∂x: the adjoint of the convolution in x (for a transposed one: the convolution)."""
    stride, padding, dilation, transposed, groups = _geometry(params)
    unbatched = x.ndim == w.ndim - 1
    g = g[None] if unbatched else g
    size = x.shape[1:] if unbatched else x.shape[2:]
    if transposed:
        y = _fit(_direct(g, w, stride, padding, dilation, groups), g.shape[:1] + x.shape[-len(
            size) - 1:])
    else:
        y = _adjoint_x(g, w, stride, padding, dilation, groups, size)
    return y[0] if unbatched else y


def conv_weight(x, g, params, w):
    """∂ℓ/∂w: the adjoint of the convolution in w."""
    stride, padding, dilation, transposed, groups = _geometry(params)
    if x.ndim == w.ndim - 1:
        x, g = x[None], g[None]
    if transposed:
        return _adjoint_w(g, x, w.shape[2:], stride, padding, dilation, groups)
    return _adjoint_w(x, g, w.shape[2:], stride, padding, dilation, groups)


def channel_bias(b, like):
    """A per-channel vector broadcast over a (N, C, …) tensor (for a bias's gradient)."""
    return np.broadcast_to(np.reshape(b, (-1,) + (1,) * (like.ndim - 2)), like.shape)


# ---------------------------------------------------------------- pooling, window by window
def _pool_windows(size, params, out):
    kernel, stride, padding, dilation, _, include_pad, override = params
    for o in np.ndindex(*out):
        starts = [i * st - pd for i, st, pd in zip(o, stride, padding)]
        ends = [min(s0 + k, s + pd) for s0, k, s, pd in zip(starts, kernel, size, padding)]
        inner = tuple(slice(max(s0, 0), min(e, s)) for s0, e, s in zip(starts, ends, size))
        if override:
            divisor = override
        elif include_pad:
            divisor = np.prod([e - s0 for s0, e in zip(starts, ends)])
        else:
            divisor = np.prod([sl.stop - sl.start for sl in inner])
        yield o, inner, divisor


def avg_pool(x, params):
    lead, size = x.shape[:-2], x.shape[-2:]
    kernel, stride, padding, dilation, ceil = params[:5]
    out = []
    for s, k, st, pd in zip(size, kernel, stride, padding):
        n = (s + 2 * pd - k + (st - 1 if ceil else 0)) // st + 1
        out.append(n - 1 if ceil and (n - 1) * st >= s + pd else n)
    y = np.zeros(lead + tuple(out))
    for o, inner, divisor in _pool_windows(size, params, out):
        y[(...,) + o] = x[(...,) + inner].sum(axis=(-2, -1)) / divisor
    return y


def avg_unpool(g, shape, params):
    out = np.zeros(tuple(shape))
    for o, inner, divisor in _pool_windows(tuple(shape)[-2:], params, g.shape[-2:]):
        out[(...,) + inner] += g[(...,) + o][..., None, None] / divisor
    return out


def adaptive_avg_pool(x, output_size):
    y = np.zeros(x.shape[:-2] + tuple(output_size))
    (h, w), (oh, ow) = x.shape[-2:], output_size
    for i, j in np.ndindex(oh, ow):
        rows = slice(i * h // oh, -(-(i + 1) * h // oh))
        cols = slice(j * w // ow, -(-(j + 1) * w // ow))
        y[..., i, j] = x[..., rows, cols].mean(axis=(-2, -1))
    return y


def max_unpool(g, shape, indices):
    out = np.zeros(tuple(shape)).reshape(tuple(shape)[:-2] + (-1,))
    flat_g, flat_i = g.reshape(out.shape[:-1] + (-1,)), indices.reshape(out.shape[:-1] + (-1,))
    for lead in np.ndindex(*out.shape[:-1]):
        np.add.at(out[lead], flat_i[lead], flat_g[lead])
    return out.reshape(tuple(shape))


def max_pool_pick(g, indices):
    flat = g.reshape(g.shape[:-2] + (-1,))
    return np.take_along_axis(flat, indices.reshape(indices.shape[:-2] + (-1,)),
                              axis=-1).reshape(indices.shape)


# ---------------------------------------------------------------- embedding
def embedding_add(g, indices, rows, padding_idx):
    out = np.zeros((rows, g.shape[-1]), dtype=g.dtype)
    np.add.at(out, np.asarray(indices).reshape(-1), g.reshape(-1, g.shape[-1]))
    if padding_idx >= 0:
        out[padding_idx] = 0
    return out


def rows_of(w, indices, padding_idx):
    rows = w[np.asarray(indices)]
    return rows * (np.asarray(indices) != padding_idx)[..., None] if padding_idx >= 0 else rows


def per_class(g):
    return np.expand_dims(g, 1) if np.ndim(g) else g


def _sum_result(x):
    return np.sum(x)


HELPERS = {
    "exp": np.exp, "log": np.log, "sin": np.sin, "cos": np.cos, "sign": np.sign,
    "sinh": np.sinh, "cosh": np.cosh, "tril": np.tril, "triu": np.triu,
    "sqrt": np.sqrt, "floor": np.floor, "where": np.where, "abs": np.abs, "sum": _sum_result,
    "maximum": np.maximum,
    "sigmoid": lambda x: 1 / (1 + np.exp(-x)),
    "log_sigmoid": lambda x: np.minimum(x, 0) - np.log1p(np.exp(-np.abs(x))),
    "expand": lambda g, shape: np.broadcast_to(g, shape),
    "spread": spread, "mean": mean, "ties": ties,
    "reshape": lambda g, shape: np.reshape(g, shape),
    "squeeze": lambda g, dim: np.squeeze(g, dim),
    "unsqueeze": lambda g, dim: np.expand_dims(g, dim),
    "permute_back": lambda g, dims: np.transpose(g, np.argsort(dims)),
    "swap": lambda g, a, b: np.swapaxes(g, a, b),
    "mT": lambda x: np.swapaxes(x, -1, -2),
    "outer": np.outer,
    "cross": lambda a, b, dim: np.cross(a, b, axis=dim),
    "rowsum": lambda x, dim: np.sum(x, axis=dim, keepdims=True),
    "divisor": lambda mode, numel: numel if mode == "mean" else 1,
    "between": lambda x, bounds: ((bounds[0] is None or x >= bounds[0])
                                  & (bounds[1] is None or x <= bounds[1])),
    "count_equal": lambda x, y: np.sum(x == y),
    "put": put, "scatter": scatter, "split": split,
    "cat": lambda gs, dim: np.concatenate(gs, axis=dim),
    "stack": lambda gs, dim: np.stack(gs, axis=dim),
    "unbind": lambda g, dim: list(np.moveaxis(g, dim, 0)),
    "sum_tiles": sum_tiles, "prod_others": prod_others, "cumprod_grad": cumprod_grad,
    "flip": lambda g, dims: np.flip(g, dims) if np.ndim(g) else g,
    "cumsum": lambda g, dim: np.cumsum(g, axis=dim) if np.ndim(g) else g,
    "diagonal_of": diagonal_of, "diagonal_scatter": diagonal_scatter,
    "norm_slope": norm_slope, "per_class": per_class,
    "or_one": lambda w: 1 if w is None else w,
    "batch_norm_input": batch_norm_input, "x_hat": x_hat, "channels": channels,
    "conv_input": conv_input, "conv_weight": conv_weight, "conv": conv,
    "channel_bias": channel_bias,
    "avg_pool": avg_pool, "avg_unpool": avg_unpool, "adaptive_avg_pool": adaptive_avg_pool,
    "max_unpool": max_unpool, "max_pool_pick": max_pool_pick,
    "embedding_add": embedding_add, "rows_of": rows_of,
}


def operand(value):
    """A recorded operand as NumPy: Values as arrays, lists as tuples, index parts as slices."""
    if isinstance(value, (tuple, list)):
        return tuple(operand(v) for v in value)
    if hasattr(value, "keys"):
        if "shape" in value:
            return value_to_array(value)   # None for a tensor stored as its shape only
        if "slice" in value:
            return slice(*value["slice"])
        if "ellipsis" in value:
            return Ellipsis
    return value


def evaluate(expression, grads, operands):
    """The value of a formula expression for the received ``grads`` (zeros in place of an
    unused output's None) and the recorded operands."""
    scope = dict(HELPERS, grad=grads[0], grads=list(grads))
    scope.update({k: operand(v) for k, v in operands.items()})
    with np.errstate(all="ignore"):
        return eval(expression, {"__builtins__": {}}, scope)  # noqa: S307 - our own formulas
