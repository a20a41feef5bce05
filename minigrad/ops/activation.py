"""Normalising exponentials: ``softmax``, ``log_softmax`` and ``logsumexp``, computed stably
(the maximum is subtracted before ``exp``) with backward formulas in Tensor ops."""

import warnings

import numpy as np

from minigrad.autograd.function import _Op
from minigrad.ops._util import normalize_dim
from minigrad.ops.reduction import _dims, _unsqueeze_to

__all__ = ["Softmax", "SoftmaxBackwardData", "LogSoftmax", "LogSoftmaxBackwardData", "Logsumexp",
           "softmax", "log_softmax", "logsumexp"]


def _shifted(data, axis):
    """``data - max(data, axis)``: every exponent ≤ 0, so ``exp`` cannot overflow."""
    return data - np.max(data, axis=axis, keepdims=True)


def _check_kernel(x, dim, op):
    """PyTorch's error for an integer or bool input; an empty one never reaches the kernel."""
    if x._data.dtype.kind != "f" and x._data.size:
        kernel = "lastdim_kernel_impl" if dim == max(x.ndim, 1) - 1 else "kernel_impl"
        raise NotImplementedError(
            f"\"{op}_{kernel}\" not implemented for '{x.dtype.tensor_type[:-6]}'")


class Softmax(_Op):
    """y_i = exp(x_i) / Σ_j exp(x_j) over ``dim``;  ∂L/∂x = y · (g - Σ_j g_j y_j)."""

    node_name = "SoftmaxBackward0"
    saved_names = ("result",)
    formula = (
        "result * (grad - rowsum(grad * result, dim))",
    )

    @staticmethod
    def forward(ctx, x, dim):
        ctx.dim = normalize_dim(dim, x.ndim)
        _check_kernel(x, ctx.dim, "softmax")
        axis = ctx.dim if x.ndim else None
        e = np.exp(_shifted(x._data, axis)) if x._data.size else x._data.copy()
        result = e / e.sum(axis=axis, keepdims=True) if x._data.size else e
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        return SoftmaxBackwardData.apply(grad, y, ctx.dim), None


def _rowsum(data, axis):
    return data.sum(axis=axis, keepdims=True)


class SoftmaxBackwardData(_Op):
    """The gradient of softmax as an op of its own, as in PyTorch (``_softmax_backward_data``):
    z = y · (g - Σ_j g_j y_j) over ``dim``;  ∂z/∂g = softmax's backward of the incoming grad,
    ∂z/∂y = g·G - Σ(y g)·G - g·Σ(y G) for the incoming G."""

    node_name = "SoftmaxBackwardDataBackward0"
    saved_names = ("grad_output", "output")
    formula = (
        "output * (grad - rowsum(grad * output, dim))",
        "grad_output * grad - rowsum(output * grad_output, dim) * grad - grad_output * "
        "rowsum(output * grad, dim)",
    )

    @staticmethod
    def forward(ctx, grad_output, output, dim):
        ctx.dim = dim
        ctx.save_for_backward(grad_output if ctx.needs_input_grad[1] else None, output)
        g, y = grad_output._data, output._data
        axis = dim if y.ndim else None
        return np.asarray(y * (g - _rowsum(g * y, axis)))

    @staticmethod
    def backward(ctx, grad):
        g, y = ctx.saved_tensors
        need_g, need_y = ctx.needs_input_grad[:2]
        dim = ctx.dim
        grad_g = SoftmaxBackwardData.apply(grad, y, dim) if need_g else None
        grad_y = (g * grad - (y * g).sum(dim, keepdim=True) * grad
                  - g * (y * grad).sum(dim, keepdim=True)) if need_y else None
        return grad_g, grad_y, None


class LogSoftmax(_Op):
    """y_i = x_i - log Σ_j exp(x_j) over ``dim``;  ∂L/∂x = g - exp(y) · Σ_j g_j."""

    node_name = "LogSoftmaxBackward0"
    saved_names = ("result",)
    formula = (
        "grad - exp(result) * rowsum(grad, dim)",
    )

    @staticmethod
    def forward(ctx, x, dim):
        ctx.dim = normalize_dim(dim, x.ndim)
        _check_kernel(x, ctx.dim, "log_softmax")
        axis = ctx.dim if x.ndim else None
        shifted = _shifted(x._data, axis) if x._data.size else x._data.copy()
        result = (shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True))
                  if x._data.size else shifted)
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        return LogSoftmaxBackwardData.apply(grad, y, ctx.dim), None


class LogSoftmaxBackwardData(_Op):
    """The gradient of log_softmax as an op of its own, as in PyTorch
    (``_log_softmax_backward_data``): z = g - exp(y) · Σ_j g_j over ``dim``;
    ∂z/∂g = G - Σ(G·exp(y)),  ∂z/∂y = -Σ(g) · exp(y) · G for the incoming G."""

    node_name = "LogSoftmaxBackwardDataBackward0"
    saved_names = ("grad_output", "output")
    formula = (
        "grad - rowsum(grad * exp(output), dim)",
        "-rowsum(grad_output, dim) * exp(output) * grad",
    )

    @staticmethod
    def forward(ctx, grad_output, output, dim):
        ctx.dim = dim
        ctx.save_for_backward(grad_output if ctx.needs_input_grad[1] else None, output)
        g, y = grad_output._data, output._data
        axis = dim if y.ndim else None
        return np.asarray(g - np.exp(y) * _rowsum(g, axis))

    @staticmethod
    def backward(ctx, grad):
        g, y = ctx.saved_tensors
        need_g, need_y = ctx.needs_input_grad[:2]
        dim = ctx.dim
        grad_g = grad - (grad * y.exp()).sum(dim, keepdim=True) if need_g else None
        grad_y = -g.sum(dim, keepdim=True) * y.exp() * grad if need_y else None
        return grad_g, grad_y, None


class Logsumexp(_Op):
    """y = log Σ exp(x) over ``dim``;  ∂y/∂x = exp(x - y)."""

    node_name = "LogsumexpBackward0"
    saved_names = ("self", "result")
    formula = (
        "spread(grad, self.shape, dim, keepdim) * exp(self - spread(result, self.shape, dim, "
        "keepdim))",
    )

    @staticmethod
    def forward(ctx, x, dim, keepdim):
        ctx.dim, ctx.keepdim = _dims(dim, x.ndim), keepdim
        data = x._data if x._data.dtype.kind == "f" else x._data.astype(np.float32)
        axis = ctx.dim if data.ndim else None
        top = np.max(data, axis=axis, keepdims=True, initial=-np.inf)  # -inf when empty
        top = np.where(np.isfinite(top), top, 0)
        result = np.log(np.exp(data - top).sum(axis=axis, keepdims=True)) + top
        if not keepdim and data.ndim:
            result = result.squeeze(ctx.dim)
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx, grad):
        x, result = ctx.saved_tensors
        if x.ndim:
            grad = _unsqueeze_to(grad, ctx.dim, ctx.keepdim)
            result = _unsqueeze_to(result, ctx.dim, ctx.keepdim)
        return grad * (x - result).exp(), None, None


def _implicit_dim(x, op):
    dim = 0 if x.ndim in (0, 1, 3) else 1
    warnings.warn(f"Implicit dimension choice for {op} has been deprecated. Change the call to "
                  "include dim=X as an argument.", UserWarning, stacklevel=3)
    return dim


def softmax(x, dim=None, dtype=None):
    """Exponentials normalised to sum to 1 along ``dim``.

    Example:
        >>> minigrad.tensor([1.0, 1.0]).softmax(0)
        tensor([0.5000, 0.5000])
    """
    if dim is None:
        dim = _implicit_dim(x, "softmax")
    if dtype is not None:
        x = x.to(dtype)
    return Softmax.apply(x, dim)


def log_softmax(x, dim=None, dtype=None):
    """``log(softmax(x, dim))``, computed without overflow or ``log(0)``."""
    if dim is None:
        dim = _implicit_dim(x, "log_softmax")
    if dtype is not None:
        x = x.to(dtype)
    return LogSoftmax.apply(x, dim)


def logsumexp(x, dim, keepdim=False):
    """``log(sum(exp(x), dim))``, computed without overflow."""
    return Logsumexp.apply(x, dim, keepdim)
