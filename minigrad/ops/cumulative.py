"""Running sums and products: ``cumsum`` and ``cumprod`` (PyTorch's ``CumsumBackward0`` and
``CumprodBackward0``). The gradient of ``prod`` at zeros is built from ``cumprod``, as in
PyTorch, so ``cumprod``'s own gradient is right where its input holds zeros."""

import numpy as np

from minigrad.autograd.function import _Op
from minigrad.ops._util import normalize_dim
from minigrad.ops.combine import cat, stack
from minigrad.ops.shape import Flip
from minigrad.tensor import Tensor

__all__ = ["Cumsum", "Cumprod", "cumsum", "cumprod"]


def _scan(ufunc, x, dim):
    """``ufunc.accumulate`` along ``dim``; integers and bools accumulate as int64 (PyTorch)."""
    data = x._data
    dtype = np.int64 if data.dtype.kind in "biu" else data.dtype
    if data.ndim == 0:
        return data.astype(dtype)
    return ufunc.accumulate(data, axis=dim, dtype=dtype)


def _reversed_cumsum(t, d):
    """Σ_{k≥i} t_k along ``d``, as PyTorch writes it: flip, cumsum, flip."""
    return Flip.apply(Cumsum.apply(Flip.apply(t, (d,)), d), (d,))


class Cumsum(_Op):
    """y_k = Σ_{j≤k} x_j along ``dim``;  ∂L/∂x_i = Σ_{k≥i} g_k."""

    node_name = "CumsumBackward0"
    formula = ("flip(cumsum(flip(grad, dim), dim), dim)",)

    @staticmethod
    def forward(ctx, x, dim):
        ctx.dim = normalize_dim(dim, x.ndim)  # node._saved_dim
        return _scan(np.add, x, ctx.dim)

    @staticmethod
    def backward(ctx, grad):
        if grad.numel() <= 1 or grad.shape[ctx.dim] == 1:
            return grad, None
        return _reversed_cumsum(grad, ctx.dim), None


class Cumprod(_Op):
    """y_k = Π_{j≤k} x_j along ``dim``;  ∂L/∂x_i = (Π_{j<i} x_j) · R_i with
    R_i = Σ_{k≥i} g_k Π_{i<j≤k} x_j (no division: zeros are fine)."""

    node_name = "CumprodBackward0"
    saved_names = ("self", "result")
    formula = ("cumprod_grad(grad, self, dim)",)

    @staticmethod
    def forward(ctx, x, dim):
        ctx.dim = normalize_dim(dim, x.ndim)  # node._saved_dim
        result = _scan(np.multiply, x, ctx.dim)
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx, grad):
        x, result = ctx.saved_tensors
        d = ctx.dim
        n = x.shape[d] if x.ndim else 1
        if n <= 1 or x.numel() <= 1:
            return grad, None
        if x._data.all():  # PyTorch's formula without zeros: Σ_{k≥i} g_k y_k / x_i
            return _reversed_cumsum(result * grad, d) / x, None
        # NB: with zeros, PyTorch builds another graph; the values are the same.
        # R_i = g_i + x_{i+1} · R_{i+1}, from the end (a loop over the dim: n small steps)
        tail = [grad.select(d, n - 1)]
        for i in range(n - 2, -1, -1):
            tail.append(grad.select(d, i) + x.select(d, i + 1) * tail[-1])
        rest = stack(tail[::-1], d)
        ones = Tensor._make(np.ones(x.shape[:d] + (1,) + x.shape[d + 1:], x._data.dtype))
        before = Cumprod.apply(cat([ones, x.narrow(d, 0, n - 1)], d), d)  # Π_{j<i} x_j
        return before * rest, None


def cumprod(x, dim, *, dtype=None):
    """The running product of ``x`` along ``dim``.

    Example:
        >>> minigrad.cumprod(minigrad.tensor([1.0, 2.0, 3.0]), 0)
        tensor([1., 2., 6.])
    """
    if dtype is not None:
        x = x.to(dtype)
    return Cumprod.apply(x, dim)


def cumsum(x, dim, *, dtype=None):
    """The running sum of ``x`` along ``dim``.

    Example:
        >>> minigrad.cumsum(minigrad.tensor([1, 2, 3]), 0)
        tensor([1, 3, 6])
    """
    if dtype is not None:
        x = x.to(dtype)
    return Cumsum.apply(x, dim)
