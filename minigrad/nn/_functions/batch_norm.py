"""``NativeBatchNormBackward0``: batch normalisation as one node with edges to the input,
the weight and the bias (the running statistics are state, not inputs)."""

import numpy as np

from minigrad.autograd.function import _Op
from minigrad.tensor import Tensor

__all__ = ["NativeBatchNorm"]


def _layout(ndim):
    """The axes to reduce over and the shape that broadcasts a per-channel vector."""
    axes = (0,) + tuple(range(2, ndim))
    return axes, (1, -1) + (1,) * (ndim - 2)


class NativeBatchNorm(_Op):
    """y = (x - μ)/√(σ² + ε)·γ + β, with μ, σ² of the batch (training) or the running
    statistics (eval). In training the gradient also flows through μ and σ²:
    ∂ℓ/∂x = γ/√(σ²+ε)·(g - mean(g) - x̂·mean(g·x̂)); ∂ℓ/∂γ = Σ g·x̂; ∂ℓ/∂β = Σ g."""

    node_name = "NativeBatchNormBackward0"
    saved_names = ("input", "weight", "result1", "result2")
    formula = (
        "batch_norm_input(grad, input, weight, result1, result2, training)",
        "channels(grad * x_hat(input, result1, result2))",
        "channels(grad)",
    )

    @staticmethod
    def forward(ctx, x, weight, bias, running, training, momentum, eps):
        data = x._data
        axes, shape = _layout(data.ndim)
        ctx.training, ctx.eps = training, eps
        if training:
            mean = data.mean(axis=axes, dtype=data.dtype)
            var = data.var(axis=axes, dtype=data.dtype)
            if running is not None:
                _update_running(running, mean, var, data.size // data.shape[1], momentum)
        else:
            mean, var = running[0]._data, running[1]._data
        invstd = (1 / np.sqrt(var + eps)).astype(data.dtype)
        ctx.save_for_backward(x, weight, Tensor._make(mean), Tensor._make(invstd))
        out = (data - mean.reshape(shape)) * invstd.reshape(shape)
        return out * weight._data.reshape(shape) + bias._data.reshape(shape)

    @staticmethod
    def backward(ctx, grad):
        x, weight, mean, invstd = ctx.saved_tensors
        axes, shape = _layout(x.ndim)
        if ctx.training:  # recompute the statistics from x, so that they are differentiated too
            centred = x - x.mean(axes, keepdim=True)
            invstd = ((centred * centred).mean(axes, keepdim=True) + ctx.eps) ** -0.5
            x_hat = centred * invstd
            g_hat = grad * weight.view(shape)
            grad_x = invstd * (g_hat - g_hat.mean(axes, keepdim=True)
                               - x_hat * (g_hat * x_hat).mean(axes, keepdim=True))
        else:
            x_hat = (x - mean.view(shape)) * invstd.view(shape)
            grad_x = grad * (weight * invstd).view(shape)
        needs = ctx.needs_input_grad
        grad_w = (grad * x_hat).sum(axes) if needs[1] else None
        grad_b = grad.sum(axes) if needs[2] else None
        return grad_x, grad_w, grad_b, None, None, None, None


def _update_running(running, mean, var, n, momentum):
    """running ← (1 - m)·running + m·batch, with the unbiased variance, in place."""
    running_mean, running_var = running
    unbiased = var * (n / max(n - 1, 1))
    for buffer, value in ((running_mean, mean), (running_var, unbiased)):
        buffer._data[...] = (1 - momentum) * buffer._data + momentum * value
        buffer._bump_version()
