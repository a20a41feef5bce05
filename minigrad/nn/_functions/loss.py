"""Fused loss nodes: ``MseLossBackward0``, ``NllLossBackward0`` (and ``NllLoss2DBackward0``),
``BinaryCrossEntropyBackward0``, ``BinaryCrossEntropyWithLogitsBackward0``,
``SmoothL1LossBackward0``, ``HuberLossBackward0``, and ``XlogyBackward0`` (for ``kl_div``).

Class weights, ``pos_weight`` and class-index targets are not differentiable in PyTorch, so
they are passed as arrays: they get no edge in ``next_functions``, exactly as in PyTorch.
"""

import numpy as np

from minigrad import _dtype
from minigrad.autograd.function import _Op
from minigrad.nn._functions._reduce import reduce_array, reduction_code, scale_for_reduction
from minigrad.ops._util import result_dtype, sum_to, unsqueeze_to
from minigrad.ops.arithmetic import broadcast_error
from minigrad.tensor import Tensor

__all__ = ["MseLoss", "NllLoss", "NllLoss2d", "BinaryCrossEntropy",
           "BinaryCrossEntropyWithLogits", "SmoothL1Loss", "HuberLoss", "Xlogy"]


def _grads_for(ctx, grad_x, grad_t, x, t):
    """Undo broadcasting between input and target; skip what nobody needs."""
    needs = ctx.needs_input_grad
    gx = sum_to(grad_x, x.shape) if needs[0] else None
    gt = sum_to(grad_t(), t.shape) if needs[1] else None
    return gx, gt


class MseLoss(_Op):
    """ℓ = reduce((x - t)²);  ∂ℓ/∂x = 2(x - t)·g (/n for 'mean'), ∂ℓ/∂t = -∂ℓ/∂x."""

    node_name = "MseLossBackward0"
    array_backward = True  # its backward also runs on arrays (no create_graph)
    saved_names = ("self", "target")
    formula = (
        "2 * (self - target) * grad / divisor(mode, numel)",
        "-2 * (self - target) * grad / divisor(mode, numel)",
    )

    @staticmethod
    def forward(ctx, x, target, reduction):
        ctx.reduction = reduction_code(reduction)
        ctx.mode = reduction
        ctx.save_for_backward(x, target)
        try:
            shape = np.broadcast_shapes(x._data.shape, target._data.shape)
        except ValueError:
            raise broadcast_error(x, target) from None
        dtype = result_dtype(x, target)  # int64 and float32 compute in float32, as in PyTorch
        if dtype.kind != "f":
            raise _dtype.not_implemented("mse_cpu", _dtype.from_numpy_dtype(dtype))
        diff = x._data.astype(dtype, copy=False) - target._data.astype(dtype, copy=False)
        ctx.numel = int(np.prod(shape))
        return reduce_array(diff * diff, reduction)

    @staticmethod
    def backward(ctx, grad):
        x, t = ctx.saved_tensors
        grad_x = scale_for_reduction(2 * (x - t) * grad, ctx.mode, ctx.numel)
        return (*_grads_for(ctx, grad_x, lambda: -grad_x, x, t), None)


class NllLoss(_Op):
    """ℓᵢ = -w[tᵢ]·x[i, tᵢ] ('mean' divides the sum by Σ w[tᵢ]);  ∂ℓ/∂x puts -w[tᵢ]·g at
    the target positions and 0 elsewhere (the loss is linear in x)."""

    node_name = "NllLossBackward0"
    array_backward = True  # its backward also runs on arrays (no create_graph)
    saved_names = ("self", "target", "weight", "total_weight")  # as PyTorch saves them
    formula = ("per_class(grad) * coef",)
    class_dim = 1

    @staticmethod
    def forward(ctx, x, target, weight, reduction, ignore_index):
        data = x._data
        ctx.reduction, ctx.ignore_index = reduction_code(reduction), ignore_index
        target_t = Tensor._make(target)
        weight_t = None if weight is None else Tensor._make(weight)
        scores = np.moveaxis(data, 1, -1) if data.ndim > 1 else data
        n_classes = scores.shape[-1]
        flat_target = target.reshape(-1)
        flat_scores = scores.reshape(len(flat_target), n_classes)  # (no -1: there may be no class)
        valid = flat_target != ignore_index
        safe = np.where(valid, flat_target, 0)
        bad = flat_target[valid & ((flat_target < 0) | (flat_target >= n_classes))]
        if bad.size:
            raise IndexError(f"Target {bad[0]} is out of bounds.")
        w = np.ones(n_classes, data.dtype) if weight is None else weight.astype(data.dtype)
        wt = w[safe] * valid
        losses = -wt * flat_scores[np.arange(len(safe)), safe]
        total = np.asarray(wt.sum(dtype=data.dtype))
        ctx.save_for_backward(x, target_t, weight_t, Tensor._make(total))
        coef = np.zeros_like(flat_scores)
        coef[np.arange(len(safe)), safe] = -wt
        if reduction == "mean":
            with np.errstate(all="ignore"):
                coef = coef / total
                out = np.asarray(losses.sum(dtype=data.dtype) / total)
        elif reduction == "sum":
            out = np.asarray(losses.sum(dtype=data.dtype))
        else:
            out = losses.reshape(target.shape)
        coef = coef.reshape(scores.shape)
        ctx.coef = np.moveaxis(coef, -1, 1) if data.ndim > 1 else coef
        return out

    @staticmethod
    def backward(ctx, grad):
        coef = ctx.coef if type(grad) is np.ndarray else Tensor._make(ctx.coef)
        if ctx.reduction == 0 and coef.ndim > 1:
            grad = unsqueeze_to(grad, (1,))
        return grad * coef, None, None, None, None


class NllLoss2d(NllLoss):
    """The same loss over extra dimensions ``(N, C, d1, …)``, as PyTorch names it."""

    node_name = "NllLoss2DBackward0"


def _check_probabilities(x, target):
    """PyTorch's kernel checks element by element, the input before the target."""
    bad_x = ~((x._data >= 0) & (x._data <= 1))
    bad_t = ~((target._data >= 0) & (target._data <= 1))
    bad = np.flatnonzero((bad_x | bad_t).reshape(-1))
    if bad.size:
        name = "input" if bad_x.reshape(-1)[bad[0]] else "target"
        raise RuntimeError(f"all elements of {name} should be between 0 and 1")


class BinaryCrossEntropy(_Op):
    """ℓ = -w·(t·log x + (1-t)·log(1-x)), logs clamped at -100;
    ∂ℓ/∂x = w·(x - t)/max(x(1-x), 1e-12)·g, ∂ℓ/∂t = w·(log(1-x) - log x)·g."""

    node_name = "BinaryCrossEntropyBackward0"
    saved_names = ("self", "target")
    formula = (
        "grad * or_one(weight) * (self - target) / maximum(self * (1 - self), 1e-12) / "
        "divisor(mode, numel)",
        "grad * or_one(weight) * (maximum(log(1 - self), -100) - maximum(log(self), -100)) / "
        "divisor(mode, numel)",
    )

    @staticmethod
    def forward(ctx, x, target, weight, reduction):
        _check_probabilities(x, target)
        ctx.reduction, ctx.mode = reduction_code(reduction), reduction
        ctx.weight = None if weight is None else Tensor._make(weight)
        ctx.save_for_backward(x, target)
        p, t = x._data, target._data
        with np.errstate(divide="ignore"):
            log_p = np.maximum(np.log(p), -100)
            log_q = np.maximum(np.log(1 - p), -100)
        losses = -(t * log_p + (1 - t) * log_q)
        if weight is not None:
            losses = losses * weight
        ctx.numel = losses.size
        return reduce_array(losses.astype(p.dtype, copy=False), reduction)

    @staticmethod
    def backward(ctx, grad):
        x, t = ctx.saved_tensors
        w = ctx.weight
        scaled = scale_for_reduction(grad if w is None else grad * w, ctx.mode, ctx.numel)
        grad_x = (x - t) / ((1 - x) * x).clamp(min=1e-12) * scaled

        def grad_t():
            return ((1 - x).log().clamp(min=-100) - x.log().clamp(min=-100)) * scaled

        return (*_grads_for(ctx, grad_x, grad_t, x, t), None, None)


def _log_sigmoid(x):
    """log σ(x) = min(x, 0) - log(1 + e^{-|x|}), stable for large |x|."""
    return x.clamp(max=0) - (-x.abs()).exp().log1p()


class BinaryCrossEntropyWithLogits(_Op):
    """ℓ = w·((1-t)·x - (1 + (p-1)t)·log σ(x)) with p = pos_weight (1 when absent);
    ∂ℓ/∂x = w·((1-t) - (1 + (p-1)t)(1 - σ(x)))·g, ∂ℓ/∂t = w·(-x - (p-1)·log σ(x))·g."""

    node_name = "BinaryCrossEntropyWithLogitsBackward0"
    saved_names = ("self", "target")
    formula = (
        "grad * or_one(weight) * ((1 - target) - (1 + (or_one(pos_weight) - 1) * target) * (1 "
        "- sigmoid(self))) / divisor(mode, numel)",
        "grad * or_one(weight) * (-self - (or_one(pos_weight) - 1) * log_sigmoid(self)) / "
        "divisor(mode, numel)",
    )

    @staticmethod
    def forward(ctx, x, target, weight, pos_weight, reduction):
        ctx.reduction, ctx.mode = reduction_code(reduction), reduction
        ctx.weight = None if weight is None else Tensor._make(weight)
        ctx.pos_weight = None if pos_weight is None else Tensor._make(pos_weight)
        ctx.save_for_backward(x, target)
        z, t = x._data, target._data
        log_sig = np.minimum(z, 0) - np.log1p(np.exp(-np.abs(z)))
        log_weight = 1 if pos_weight is None else 1 + (pos_weight - 1) * t
        losses = (1 - t) * z - log_weight * log_sig
        if weight is not None:
            losses = losses * weight
        ctx.numel = losses.size
        return reduce_array(losses.astype(z.dtype, copy=False), reduction)

    @staticmethod
    def backward(ctx, grad):
        x, t = ctx.saved_tensors
        w, pw = ctx.weight, ctx.pos_weight
        scaled = scale_for_reduction(grad if w is None else grad * w, ctx.mode, ctx.numel)
        if pw is None:
            grad_x = (x.sigmoid() - t) * scaled
        else:
            grad_x = ((1 - t) - ((pw - 1) * t + 1) * (1 - x.sigmoid())) * scaled

        def grad_t():
            if pw is None:
                return -x * scaled
            return (-x - (pw - 1) * _log_sigmoid(x)) * scaled

        return (*_grads_for(ctx, grad_x, grad_t, x, t), None, None, None)


def _float_difference(x, target, kernel):
    """x - t as arrays, in the floating dtype both promote to (PyTorch's check otherwise)."""
    try:
        np.broadcast_shapes(x._data.shape, target._data.shape)
    except ValueError:
        raise broadcast_error(x, target) from None
    dtype = result_dtype(x, target)
    if dtype.kind != "f":
        raise _dtype.not_implemented(kernel, _dtype.from_numpy_dtype(dtype))
    return x._data.astype(dtype, copy=False) - target._data.astype(dtype, copy=False)


class SmoothL1Loss(_Op):
    """With d = x - t:  ℓ = reduce(d²/(2β) if |d| < β else |d| - β/2);
    ∂ℓ/∂x = clamp(d, -β, β)/β·g (/n for 'mean'), ∂ℓ/∂t = -∂ℓ/∂x."""

    node_name = "SmoothL1LossBackward0"
    saved_names = ("self", "target")
    formula = (
        "grad * where(abs(self - target) < beta, (self - target) / beta, sign(self - target)) / "
        "divisor(mode, numel)",
        "-grad * where(abs(self - target) < beta, (self - target) / beta, sign(self - target)) / "
        "divisor(mode, numel)",
    )

    @staticmethod
    def forward(ctx, x, target, reduction, beta):
        ctx.reduction, ctx.mode, ctx.beta = reduction_code(reduction), reduction, beta
        ctx.save_for_backward(x, target)
        d = _float_difference(x, target, "smooth_l1_cpu")
        a = np.abs(d)
        losses = np.where(a < beta, 0.5 * d * d / beta, a - 0.5 * beta).astype(d.dtype)
        ctx.numel = losses.size
        return reduce_array(losses, reduction)

    @staticmethod
    def backward(ctx, grad):
        x, t = ctx.saved_tensors
        beta = ctx.beta
        grad_x = scale_for_reduction((x - t).clamp(-beta, beta) / beta * grad, ctx.mode,
                                     ctx.numel)
        return (*_grads_for(ctx, grad_x, lambda: -grad_x, x, t), None, None)


class HuberLoss(_Op):
    """With d = x - t:  ℓ = reduce(d²/2 if |d| < δ else δ(|d| - δ/2)), δ·SmoothL1 with β = δ;
    ∂ℓ/∂x = clamp(d, -δ, δ)·g (/n for 'mean'), ∂ℓ/∂t = -∂ℓ/∂x."""

    node_name = "HuberLossBackward0"
    saved_names = ("self", "target")
    formula = (
        "grad * where(abs(self - target) < delta, self - target, delta * sign(self - target)) / "
        "divisor(mode, numel)",
        "-grad * where(abs(self - target) < delta, self - target, delta * sign(self - target)) "
        "/ divisor(mode, numel)",
    )

    @staticmethod
    def forward(ctx, x, target, reduction, delta):
        ctx.reduction, ctx.mode, ctx.delta = reduction_code(reduction), reduction, delta
        ctx.save_for_backward(x, target)
        d = _float_difference(x, target, "huber_cpu")
        if d.dtype != x._data.dtype:  # PyTorch writes the loss in the input's dtype
            if x._data.dtype.kind != "f":
                raise _dtype.cast_error(_dtype.from_numpy_dtype(d.dtype), x.dtype)
            d = d.astype(x._data.dtype)
        a = np.abs(d)
        losses = np.where(a < delta, 0.5 * d * d, delta * (a - 0.5 * delta)).astype(d.dtype)
        ctx.numel = losses.size
        return reduce_array(losses, reduction)

    @staticmethod
    def backward(ctx, grad):
        x, t = ctx.saved_tensors
        grad_x = scale_for_reduction((x - t).clamp(-ctx.delta, ctx.delta) * grad, ctx.mode,
                                     ctx.numel)
        return (*_grads_for(ctx, grad_x, lambda: -grad_x, x, t), None, None)


class Xlogy(_Op):
    """z = x·log y, with z = 0 where x = 0 (unless y is nan);
    ∂z/∂x = xlogy(x ≠ 0, y)·g, ∂z/∂y = x/y·g."""

    node_name = "XlogyBackward0"
    saved_names = ("self", "other")
    formula = ("grad * where(self == 0, 0, log(other))", "grad * self / other")

    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, y)
        try:
            np.broadcast_shapes(x._data.shape, y._data.shape)
        except ValueError:
            raise broadcast_error(x, y) from None
        dtype = result_dtype(x, y)
        dtype = dtype if dtype.kind == "f" else _dtype.get_default_dtype().numpy
        a, b = x._data.astype(dtype, copy=False), y._data.astype(dtype, copy=False)
        with np.errstate(all="ignore"):
            z = a * np.log(b)
        return np.where((a == 0) & ~np.isnan(b), 0, z).astype(dtype, copy=False)

    @staticmethod
    def backward(ctx, grad):
        x, y = ctx.saved_tensors
        needs = ctx.needs_input_grad
        gx = gy = None
        if needs[0]:
            nonzero = Tensor._make((x._data != 0).astype(np.result_type(x._data, y._data)))
            gx = sum_to(grad * Xlogy.apply(nonzero, y), x.shape)
        if needs[1]:
            gy = sum_to(grad * x / y, y.shape)
        return gx, gy
