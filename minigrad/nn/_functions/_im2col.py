"""The NumPy arithmetic of convolutions, on arrays, for any number of spatial dims.

A convolution is a matrix product once the input's windows are laid out as columns
("im2col"): ``_windows`` makes a strided *view* of every window (no copy), a reshape copies them
into a matrix, and one ``matmul`` does the rest. Its adjoint in the input (the gradient of the
input, and the forward of a transposed convolution) multiplies the other way round and adds the
columns back into the image ("col2im"), one kernel offset at a time.

Shapes: input ``(N, C, *S)``, weight ``(O, C/groups, *K)``, output ``(N, O, *L)``. Padding is
a tuple of ``(before, after)`` pairs, one per spatial dim.
"""

import itertools
import math

import numpy as np
from numpy.lib.stride_tricks import as_strided

__all__ = ["pad", "windows", "conv_output_size", "conv_forward", "conv_input_grad",
           "conv_weight_grad"]


def pad(x, padding, value=0.0):
    """``x`` with its spatial dims padded by ``padding`` (pairs) with ``value``."""
    if not any(lo or hi for lo, hi in padding):
        return x
    return np.pad(x, ((0, 0), (0, 0), *padding), constant_values=value)


def conv_output_size(size, kernel, stride, dilation, padding):
    """L = ⌊(S + before + after - dilation·(K-1) - 1) / stride⌋ + 1, per spatial dim."""
    return tuple((s + lo + hi - d * (k - 1) - 1) // st + 1 for s, k, st, d, (lo, hi)
                 in zip(size, kernel, stride, dilation, padding))


def windows(x, kernel, stride, dilation, out):
    """A read-only view ``(N, C, *K, *L)`` of the windows of the (padded) ``x``: element
    ``[n, c, *k, *l]`` is ``x[n, c, l·stride + k·dilation]``."""
    sn, sc, *spatial = x.strides
    strides = (sn, sc, *(s * d for s, d in zip(spatial, dilation)),
               *(s * st for s, st in zip(spatial, stride)))
    return as_strided(x, x.shape[:2] + tuple(kernel) + tuple(out), strides, writeable=False)


def _columns(x, kernel, stride, dilation, padding, out):
    """The im2col matrix, batched: ``(N, C·prod(K), prod(L))`` (a copy)."""
    view = windows(pad(x, padding), kernel, stride, dilation, out)
    n, c = x.shape[:2]
    return view.reshape(n, c * math.prod(kernel), math.prod(out))


def conv_forward(x, w, b, stride, padding, dilation, groups):
    """y[n, o, l] = Σ_{c,k} w[o, c, k]·x[n, c, l·stride + k·dilation - before] + b[o]."""
    kernel = w.shape[2:]
    out = conv_output_size(x.shape[2:], kernel, stride, dilation, padding)
    cols = _columns(x, kernel, stride, dilation, padding, out)
    n, o = x.shape[0], w.shape[0]
    if groups == 1:
        y = np.matmul(w.reshape(o, -1), cols)
    else:
        per_group = cols.reshape(n, groups, cols.shape[1] // groups, cols.shape[-1])
        y = np.matmul(w.reshape(groups, o // groups, -1), per_group)
    y = y.reshape(n, o, *out)
    if b is not None:
        y += b.reshape((o,) + (1,) * len(out))
    return y


def conv_input_grad(grad, w, stride, padding, dilation, groups, size):
    """The adjoint of ``conv_forward`` in ``x`` (col2im): each output position sends
    w[o, c, k]·grad[n, o, l] back to x[n, c, l·stride + k·dilation - before]. ``size`` is the
    spatial size of x (it may exceed what the windows touch). Also a transposed convolution."""
    kernel, out = w.shape[2:], grad.shape[2:]
    n, o = grad.shape[:2]
    c = w.shape[1] * groups
    g = grad.reshape(n, groups, o // groups, math.prod(out))
    w_t = w.reshape(groups, o // groups, -1).transpose(0, 2, 1)
    cols = np.matmul(w_t, g).reshape(n, c, *kernel, *out)
    padded = tuple(s + lo + hi for s, (lo, hi) in zip(size, padding))
    image = np.zeros((n, c, *padded), dtype=grad.dtype)
    for offset in itertools.product(*(range(k) for k in kernel)):
        where = tuple(slice(k * d, k * d + st * (m - 1) + 1, st)
                      for k, d, st, m in zip(offset, dilation, stride, out))
        image[(slice(None), slice(None)) + where] += cols[(slice(None), slice(None)) + offset]
    crop = tuple(slice(lo, lo + s) for s, (lo, _) in zip(size, padding))
    return image[(slice(None), slice(None)) + crop]


def conv_weight_grad(x, grad, kernel, stride, padding, dilation, groups):
    """The adjoint of ``conv_forward`` in ``w``:
    ∂ℓ/∂w[o, c, k] = Σ_{n,l} grad[n, o, l]·x[n, c, l·stride + k·dilation - before]."""
    out = grad.shape[2:]
    cols = _columns(x, kernel, stride, dilation, padding, out)
    n, o = grad.shape[:2]
    rows = cols.shape[1] // groups
    # one product per sample and group, then the sum over the batch: (O/g, L) @ (L, C/g·K)
    g = grad.reshape(n, groups, o // groups, math.prod(out))
    cols = cols.reshape(n, groups, rows, math.prod(out)).transpose(0, 1, 3, 2)
    return np.matmul(g, cols).sum(axis=0).reshape(o, rows // math.prod(kernel), *kernel)
