"""Reductions: sum, mean, prod, var/std, max/min (values, or values and indices), amax/amin,
argmax/argmin, all/any, over the whole tensor or over dimensions."""

import collections
import warnings

import numpy as np

from minigrad.autograd.function import _Op
from minigrad.ops._util import normalize_dim
from minigrad.ops.compare import eq, isnan, logical_and, logical_or, maximum, minimum, ne
from minigrad.tensor import Tensor

__all__ = ["Sum", "SumDim", "Mean", "MeanDim", "Max", "Min", "MaxDim", "MinDim", "Amax", "Amin",
           "Prod", "ProdDim", "Var", "Std", "sum", "mean", "max", "min", "amax", "amin", "argmax",
           "argmin", "prod", "var", "std", "all", "any"]


def _dims(dim, ndim):
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    dims = tuple(normalize_dim(d, ndim) for d in dims)
    for d in dims:
        if dims.count(d) > 1:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    return tuple(sorted(dims))


def _all_dims(dim, ndim):
    """The dims to reduce: all of them for None or an empty tuple."""
    if dim is None or (isinstance(dim, (tuple, list)) and len(dim) == 0):
        return tuple(range(ndim))
    return _dims(dim, ndim)


def _unsqueeze_to(grad, dims, keepdim):
    """Put back the reduced dimensions as size 1, so that grad broadcasts over the input."""
    if keepdim:
        return grad
    for d in dims:
        grad = grad.unsqueeze(d)
    return grad


def _sum_dtype(data):
    return np.int64 if data.dtype.kind in "biu" else data.dtype


class Sum(_Op):
    """y = Σ x;  ∂y/∂x = 1 for every element."""

    node_name = "SumBackward0"

    @staticmethod
    def forward(ctx, x):
        ctx.self_sym_sizes = x.shape
        return np.asarray(x._data.sum(dtype=_sum_dtype(x._data)))

    @staticmethod
    def backward(ctx, grad):
        return grad.expand(ctx.self_sym_sizes)


class SumDim(_Op):
    """y = Σ over ``dim`` of x;  ∂y/∂x = 1, broadcast back over ``dim``."""

    node_name = "SumBackward1"

    @staticmethod
    def forward(ctx, x, dim, keepdim):
        ctx.self_sym_sizes = x.shape
        ctx.dim, ctx.keepdim = _dims(dim, x.ndim), keepdim
        data = x._data
        if data.ndim == 0:
            return data.astype(_sum_dtype(data))
        return np.asarray(data.sum(axis=ctx.dim, keepdims=keepdim, dtype=_sum_dtype(data)))

    @staticmethod
    def backward(ctx, grad):
        if not ctx.self_sym_sizes:
            return grad, None, None
        return _unsqueeze_to(grad, ctx.dim, ctx.keepdim).expand(ctx.self_sym_sizes), None, None


class Mean(_Op):
    """y = mean(x);  ∂y/∂x = 1/n."""

    node_name = "MeanBackward0"

    @staticmethod
    def forward(ctx, x):
        if x._data.dtype.kind != "f":
            raise RuntimeError(
                "mean(): could not infer output dtype. Input dtype must be either a floating "
                f"point or complex dtype. Got: {x.dtype.tensor_type[:-6]}")
        ctx.self_sym_sizes, ctx.numel = x.shape, x.numel()
        return np.asarray(x._data.mean(dtype=x._data.dtype))

    @staticmethod
    def backward(ctx, grad):
        return grad.expand(ctx.self_sym_sizes) / ctx.numel


class MeanDim(_Op):
    """y = mean over ``dim`` of x;  ∂y/∂x = 1/n, broadcast back over ``dim``."""

    node_name = "MeanBackward1"

    @staticmethod
    def forward(ctx, x, dim, keepdim):
        if x._data.dtype.kind != "f":
            raise RuntimeError(
                "mean(): could not infer output dtype. Input dtype must be either a floating "
                f"point or complex dtype. Got: {x.dtype.tensor_type[:-6]}")
        ctx.self_sym_sizes = x.shape
        ctx.dim, ctx.keepdim = _dims(dim, x.ndim), keepdim
        data = x._data
        if data.ndim == 0:
            ctx.count = 1
            return data.copy()
        ctx.count = int(np.prod([data.shape[d] for d in ctx.dim]))
        return np.asarray(data.mean(axis=ctx.dim, keepdims=keepdim, dtype=data.dtype))

    @staticmethod
    def backward(ctx, grad):
        if not ctx.self_sym_sizes:
            return grad, None, None
        grad = _unsqueeze_to(grad, ctx.dim, ctx.keepdim).expand(ctx.self_sym_sizes)
        return grad / ctx.count, None, None


def sum(x, dim=None, keepdim=False, dtype=None):  # noqa: A001 - PyTorch's name
    if dtype is not None:
        x = x.to(dtype)
    if dim is None or (isinstance(dim, (tuple, list)) and len(dim) == 0 and not keepdim):
        return Sum.apply(x)
    return SumDim.apply(x, dim, keepdim)


def mean(x, dim=None, keepdim=False, dtype=None):
    if dtype is not None:
        x = x.to(dtype)
    if dim is None:
        return Mean.apply(x)
    return MeanDim.apply(x, dim, keepdim)
