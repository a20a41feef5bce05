"""Pooling as PyTorch's nodes: ``MaxPool2DWithIndicesBackward0`` (the maximum of each window,
and where it was), ``AvgPool2DBackward0`` (the mean of each window), and their backwards as ops
of their own (``…BackwardBackward0``), so that gradients can be differentiated again.

The windows are strided views of the padded input (``_im2col.windows``), one array op each.
"""

import itertools
import math
from typing import NamedTuple

import numpy as np

from minigrad.autograd.function import _Op
from minigrad.nn._functions._im2col import pad, windows
from minigrad.tensor import Tensor

__all__ = ["PoolParams", "pool_output_size", "MaxPool2DWithIndices",
           "MaxPool2DWithIndicesBackward", "AvgPool2D", "AvgPool2DBackward",
           "AdaptiveAvgPool2D", "AdaptiveAvgPool2DBackward"]


class PoolParams(NamedTuple):
    """A pooling's geometry (per spatial dim) and options."""

    kernel: tuple
    stride: tuple
    padding: tuple
    dilation: tuple
    ceil_mode: bool
    count_include_pad: bool = True
    divisor_override: int = None


def pool_output_size(size, p):
    """⌊ or ⌈(S + 2·padding - dilation·(K-1) - 1)/stride⌉ + 1; with ``ceil_mode`` a last
    window that would start inside the right padding is dropped, as PyTorch does."""
    out = []
    for s, k, st, pd, d in zip(size, p.kernel, p.stride, p.padding, p.dilation):
        span = s + 2 * pd - d * (k - 1) - 1
        n = (span + (st - 1 if p.ceil_mode else 0)) // st + 1
        if p.ceil_mode and (n - 1) * st >= s + pd:
            n -= 1
        out.append(n)
    return tuple(out)


def _save_options(ctx, params, *names):
    """What PyTorch's node shows as ``_saved_kernel_size``, ``_saved_stride``, …"""
    for name in names:
        setattr(ctx, "kernel_size" if name == "kernel" else name, getattr(params, name))


def _batched(data):
    """A (C, H, W) array as (1, C, H, W); a batch as it is."""
    return data if data.ndim == 4 else data[None]


def _padded_windows(data, p, out, value):
    """The view (N, C, *K, *L) of the windows, padded with ``value`` as far as they reach."""
    pairs = tuple((pd, max(0, (n - 1) * st + d * (k - 1) + 1 - s - pd))
                  for s, k, st, pd, d, n in zip(data.shape[2:], p.kernel, p.stride, p.padding,
                                                p.dilation, out))
    return windows(pad(data, pairs, value), p.kernel, p.stride, p.dilation, out)


class MaxPool2DWithIndices(_Op):
    """y = max over each window; ∂ℓ/∂x gets each window's gradient at its argmax."""

    node_name = "MaxPool2DWithIndicesBackward0"
    saved_names = ("self", "result1")
    formula = ("max_unpool(grad, self.shape, result1)",)

    @staticmethod
    def forward(ctx, x, params):
        data, p = _batched(x._data), params
        n, c = data.shape[:2]
        out = pool_output_size(data.shape[2:], p)
        view = _padded_windows(data, p, out, -np.inf)
        flat = view.reshape(n, c, math.prod(p.kernel), math.prod(out))
        where = flat.argmax(axis=2)[:, :, None]
        shape = x.shape[:-2] + out
        values = np.take_along_axis(flat, where, axis=2).reshape(shape)
        index = _flat_index(where[:, :, 0], data.shape[2:], out, p)
        indices = Tensor._make(index.reshape(shape))
        ctx.mark_non_differentiable(indices)
        ctx.save_for_backward(x, indices)
        _save_options(ctx, p, "kernel", "stride", "padding", "dilation", "ceil_mode")
        return values, indices

    @staticmethod
    def backward(ctx, grad, _):
        x, indices = ctx.saved_tensors
        return MaxPool2DWithIndicesBackward.apply(grad, tuple(x.shape), indices), None


def _flat_index(offset, size, out, p):
    """The index into the flattened (H·W) input plane of each window's maximum, from the
    window's position and the offset of the maximum inside the window."""
    kernel_pos = np.unravel_index(offset, p.kernel)
    grid = np.indices(out).reshape(len(out), -1)
    index = np.zeros(offset.shape, dtype=np.int64)
    for axis, (s, st, pd, d) in enumerate(zip(size, p.stride, p.padding, p.dilation)):
        index = index * s + grid[axis] * st - pd + kernel_pos[axis] * d
    return index.reshape(offset.shape[:2] + tuple(out))


class MaxPool2DWithIndicesBackward(_Op):
    """∂ℓ/∂x = the gradients scattered to the argmax positions; its own gradient gathers."""

    node_name = "MaxPool2DWithIndicesBackwardBackward0"
    formula = ("max_pool_pick(grad, indices)",)

    @staticmethod
    def forward(ctx, grad, shape, indices):
        ctx.indices = indices
        g, idx = grad._data, indices._data
        rows, plane = math.prod(shape[:-2]), math.prod(shape[-2:])
        windows_per_row = math.prod(idx.shape[-2:])
        flat = idx.reshape(rows, windows_per_row) + (np.arange(rows) * plane)[:, None]
        summed = np.bincount(flat.ravel(), weights=g.reshape(-1), minlength=rows * plane)
        return summed.astype(g.dtype).reshape(shape)

    @staticmethod
    def backward(ctx, grad_grad):
        idx = ctx.indices._data
        rows = math.prod(idx.shape[:-2])
        flat = grad_grad.reshape(rows, math.prod(grad_grad.shape[-2:]))
        picked = flat[np.arange(rows)[:, None], idx.reshape(rows, math.prod(idx.shape[-2:]))]
        return picked.view(*idx.shape), None, None


def _divisors(size, out, p):
    """The divisor of each output position (PyTorch's rule, including its padding cases)."""
    if p.divisor_override:
        return np.full(out, p.divisor_override, dtype=np.float64)
    per_dim = []
    for s, k, st, pd, n in zip(size, p.kernel, p.stride, p.padding, out):
        start = np.arange(n) * st - pd
        end = np.minimum(start + k, s + pd)
        if p.count_include_pad:
            per_dim.append(end - start)
        else:
            per_dim.append(np.minimum(end, s) - np.maximum(start, 0))
    result = np.ones(out)
    for axis, counts in enumerate(per_dim):
        result = result * counts.reshape([-1 if a == axis else 1 for a in range(len(out))])
    return result


class AvgPool2D(_Op):
    """y = Σ window / divisor; ∂ℓ/∂x spreads each gradient / divisor over its window."""

    node_name = "AvgPool2DBackward0"
    saved_names = ("self",)
    formula = ("avg_unpool(grad, self.shape, params)",)

    @staticmethod
    def forward(ctx, x, params):
        data, p = _batched(x._data), params
        out = pool_output_size(data.shape[2:], p)
        view = _padded_windows(data, p, out, 0.0)
        sums = view.sum(axis=(2, 3))
        ctx.params = p
        ctx.save_for_backward(x)
        _save_options(ctx, p, "kernel", "stride", "padding", "ceil_mode", "count_include_pad",
                      "divisor_override")
        mean = (sums / _divisors(data.shape[2:], out, p)).astype(data.dtype)
        return mean.reshape(x.shape[:-2] + out)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return AvgPool2DBackward.apply(grad, tuple(x.shape), ctx.params), None


class AvgPool2DBackward(_Op):
    """∂ℓ/∂x[i] = Σ over the windows w that hold i of grad[w] / divisor[w]; being linear in
    the gradient, its own gradient is the average pooling again."""

    node_name = "AvgPool2DBackwardBackward0"
    formula = ("avg_pool(grad, params)",)

    @staticmethod
    def forward(ctx, grad, shape, params):
        ctx.params = p = params
        g = _batched(grad._data)
        size, out = shape[-2:], g.shape[2:]
        share = g / _divisors(size, out, p)
        padded = [max(s + 2 * pd, (n - 1) * st + k) for s, k, st, pd, n
                  in zip(size, p.kernel, p.stride, p.padding, out)]
        image = np.zeros(g.shape[:2] + tuple(padded))
        for offset in itertools.product(*(range(k) for k in p.kernel)):
            where = tuple(slice(k, k + st * (n - 1) + 1, st)
                          for k, st, n in zip(offset, p.stride, out))
            image[(slice(None), slice(None)) + where] += share
        crop = tuple(slice(pd, pd + s) for s, pd in zip(size, p.padding))
        return image[(slice(None), slice(None)) + crop].astype(g.dtype).reshape(shape)

    @staticmethod
    def backward(ctx, grad_grad):
        return AvgPool2D.apply(grad_grad, ctx.params), None, None


def _adaptive_matrix(size, out, dtype):
    """The (out, size) matrix whose row i averages input positions ⌊i·size/out⌋ …
    ⌈(i+1)·size/out⌉ - 1: adaptive average pooling is A_h · x · A_wᵀ."""
    matrix = np.zeros((out, size), dtype=dtype)
    for i in range(out):
        start, end = (i * size) // out, -((-(i + 1) * size) // out)
        matrix[i, start:end] = 1 / (end - start)
    return matrix


class AdaptiveAvgPool2D(_Op):
    """y = A_h · x · A_wᵀ, each row of A averaging one window; ∂ℓ/∂x = A_hᵀ · g · A_w."""

    node_name = "AdaptiveAvgPool2DBackward0"
    saved_names = ("self",)
    formula = ("matrices[0].T @ grad @ matrices[1]",)

    @staticmethod
    def forward(ctx, x, output_size):
        data = x._data
        rows = _adaptive_matrix(data.shape[-2], output_size[0], data.dtype)
        cols = _adaptive_matrix(data.shape[-1], output_size[1], data.dtype)
        ctx.matrices = rows, cols
        ctx.save_for_backward(x)
        return np.ascontiguousarray(rows @ data @ cols.T)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return AdaptiveAvgPool2DBackward.apply(grad, ctx.matrices, tuple(x.shape[-2:])), None


class AdaptiveAvgPool2DBackward(_Op):
    """∂ℓ/∂x = A_hᵀ · g · A_w; linear in g, so its own gradient is the pooling again."""

    node_name = "AdaptiveAvgPool2DBackwardBackward0"
    formula = ("adaptive_avg_pool(grad, output_size)",)

    @staticmethod
    def forward(ctx, grad, matrices, size):
        ctx.output_size = grad.shape[-2:]
        rows, cols = matrices
        return np.ascontiguousarray(rows.T @ grad._data @ cols)

    @staticmethod
    def backward(ctx, grad_grad):
        return AdaptiveAvgPool2D.apply(grad_grad, tuple(ctx.output_size)), None, None
