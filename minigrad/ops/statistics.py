"""Statistics that return more than one thing: ``median`` (value, or values and indices over a
dim) and ``var_mean`` / ``std_mean`` (two results of one node, as in PyTorch)."""

import numpy as np

from minigrad import _dtype
from minigrad.autograd.function import _Op
from minigrad.ops._util import normalize_dim
from minigrad.ops.arithmetic import divided
from minigrad.ops.reduction import (
    Max,
    MaxDim,
    _correction,
    _empty_error,
    _std_grad,
    _unsqueeze_to,
    _values_indices,
    _var_backward,
    _variance,
)

__all__ = ["Median", "NanMedian", "MedianDim", "VarMean", "StdMean", "median", "nanmedian",
           "var_mean", "std_mean"]

_MedianResult = _values_indices("median")


def _check_median(x, kernel):
    if x._data.dtype == np.bool_:
        raise _dtype.not_implemented(kernel, x.dtype)


def _nan_as(dtype):
    """NaN, the median of no numbers, converted to ``dtype`` as PyTorch's CPU converts it
    (NB: that conversion is undefined in C++; these are x86's answers, which torch 2.13 gives)."""
    if dtype.kind == "f":
        return np.asarray(np.nan, dtype)
    if dtype.kind == "b":
        return np.asarray(True)
    return np.asarray(np.iinfo(dtype).min if dtype.itemsize >= 4 else 0, dtype)


def _lower_median_index(data, axis):
    """The position of the lower median along ``axis`` (of the first NaN, when there is one:
    NaN propagates, as in PyTorch)."""
    order = np.argsort(data, axis=axis, kind="stable")  # NaNs sort last
    n = data.shape[axis]
    picked = np.take(order, [(n - 1) // 2], axis=axis)
    nan = np.isnan(data) if data.dtype.kind == "f" else np.zeros(data.shape, bool)
    has_nan = nan.any(axis=axis, keepdims=True)
    first_nan = np.argmax(nan, axis=axis, keepdims=True)
    return np.where(has_nan, first_nan, picked)


class Median(Max):
    """y = the lower median of all elements;  ∂y/∂x = grad shared by the elements equal to y
    (the gradient of max, with the median as the element picked)."""

    node_name = "MedianBackward0"

    @staticmethod
    def _kept(flat):
        """The elements the median is taken of."""
        return flat

    @staticmethod
    def forward(ctx, x):
        flat = x._data.reshape(-1)
        if flat.size:
            _check_median(x, "median_cpu")
        kept = ctx._forward_cls._kept(flat)
        if kept.size == 0:
            result = _nan_as(flat.dtype)
        else:
            result = np.asarray(kept[_lower_median_index(kept, 0)[0]])
        ctx.save_for_backward(x, result)
        return result


class NanMedian(Median):
    """y = the lower median of the elements that are not NaN (NaN when all are);  ∂y/∂x = grad
    shared by the elements equal to y."""

    node_name = "NanmedianBackward0"

    @staticmethod
    def _kept(flat):
        return flat[~np.isnan(flat)] if flat.dtype.kind == "f" else flat


class MedianDim(MaxDim):
    """values, indices = the lower median over ``dim`` and where it is;
    ∂values/∂x = grad at the index, 0 elsewhere."""

    node_name = "MedianBackward1"
    _op = "median"

    @staticmethod
    def _pick(data, axis):
        return np.squeeze(_lower_median_index(data, axis), axis)

    @staticmethod
    def forward(ctx, x, dim, keepdim):
        d = normalize_dim(dim, x.ndim)  # PyTorch checks the dim and its size first
        if x.ndim and x.shape[d] == 0:
            raise _empty_error("median", d)
        _check_median(x, "median_out")
        return MaxDim.forward(ctx, x, dim, keepdim)


class VarMean(_Op):
    """v, m = var(x), mean(x) over ``dim``;  ∂/∂x = ∂var/∂x · grad_v + grad_m / n."""

    node_name = "VarMeanBackward0"
    saved_names = ("self",)
    formula = (
        "spread(grads[0], self.shape, dim, keepdim) * 2 * (self - mean(self, dim)) / dof + "
        "spread(grads[1], self.shape, dim, keepdim) / n",
    )
    _op = "var_mean"

    @staticmethod
    def forward(ctx, x, dim, correction, keepdim):
        ctx.set_materialize_grads(False)  # an unused output passes None, as in PyTorch
        variance = _variance(ctx, x, dim, correction, keepdim, ctx._forward_cls._op)
        axis = ctx.dim if x.ndim else None
        mean = np.asarray(x._data.mean(axis=axis, keepdims=keepdim))
        ctx.n = x._data.size // max(mean.size, 1) if x._data.size else 0
        if ctx._forward_cls is StdMean:
            variance = np.sqrt(variance)
            ctx.save_for_backward(x, variance)  # the output: its use in backward is recorded
        else:
            ctx.save_for_backward(x)
        return variance, mean

    @staticmethod
    def backward(ctx, grad_var, grad_mean):
        x, *result = ctx.saved_tensors
        grad = None
        if grad_var is not None:
            if ctx._forward_cls is StdMean:
                grad_var = _std_grad(grad_var, result[0])
            grad = _var_backward(ctx, x, grad_var)
        if grad_mean is not None:  # (PyTorch's mean_backward)
            spread = grad_mean
            if x.ndim and ctx.dims_given and not ctx.keepdim:
                spread = _unsqueeze_to(grad_mean, ctx.dims_given, False)
            spread = divided(spread.expand(x.shape), ctx.n)
            grad = spread if grad is None else grad + spread
        return grad, None, None, None


class StdMean(VarMean):
    """s, m = std(x), mean(x) over ``dim``;  ∂/∂x = ∂std/∂x · grad_s + grad_m / n."""

    node_name = "StdMeanBackward0"
    saved_names = ("self", "result")
    formula = (
        "spread(grads[0] / result, self.shape, dim, keepdim) * (self - mean(self, dim)) / dof "
        "+ spread(grads[1], self.shape, dim, keepdim) / n",
    )
    _op = "std_mean"


def median(x, dim=None, keepdim=False):
    """The lower median of all elements; or, with ``dim``, the named tuple
    ``(values, indices)`` over ``dim``.

    Example:
        >>> minigrad.tensor([1.0, 4.0, 2.0, 3.0]).median()
        tensor(2.)
    """
    if dim is None:
        return Median.apply(x)
    return _MedianResult(*MedianDim.apply(x, dim, keepdim))


def nanmedian(x):
    """The lower median of the elements that are not NaN.

    Example:
        >>> minigrad.tensor([1.0, float("nan"), 3.0, 2.0]).nanmedian()
        tensor(2.)
    """
    return NanMedian.apply(x)


def var_mean(x, dim=None, unbiased=True, keepdim=False, *, correction=None):
    """``(var(x, dim), mean(x, dim))``, computed by one node.

    Example:
        >>> minigrad.var_mean(minigrad.tensor([1.0, 2.0, 3.0]))
        (tensor(1.), tensor(2.))
    """
    dim, correction = _correction(dim, unbiased, correction)
    return VarMean.apply(x, dim, correction, keepdim)


def std_mean(x, dim=None, unbiased=True, keepdim=False, *, correction=None):
    """``(std(x, dim), mean(x, dim))``, computed by one node."""
    dim, correction = _correction(dim, unbiased, correction)
    return StdMean.apply(x, dim, correction, keepdim)
