"""``NativeGroupNormBackward0``: group normalisation as one node with edges to the input, the
weight and the bias; the channels (dim 1) are split into groups and each sample's group is
normalised over its channels and positions."""

import numpy as np

from minigrad.autograd.function import _Op
from minigrad.nn._functions.layer_norm import present, standardise
from minigrad.tensor import Tensor

__all__ = ["NativeGroupNorm"]


def _per_channel(v, ndim):
    """A per-channel vector shaped to broadcast over an (N, C, …) tensor."""
    return v.reshape((1, -1) + (1,) * (ndim - 2))


class NativeGroupNorm(_Op):
    """y = (x - μ)·r·γ_c + β_c, μ and r = 1/√(σ² + ε) per sample and group of channels;
    with x̂ = (x - μ)·r and ĝ = g·γ, per group: ∂ℓ/∂x = r·(ĝ - mean(ĝ) - x̂·mean(ĝ·x̂)),
    ∂ℓ/∂γ_c = Σ g·x̂,  ∂ℓ/∂β_c = Σ g (over everything but the channel)."""

    node_name = "NativeGroupNormBackward0"
    saved_names = ("input", "weight", "result1", "result2")
    formula = (
        "reshape(unsqueeze(result2, -1) * (reshape(grad * channel_bias(or_one(weight), grad), "
        "grouped) - mean(reshape(grad * channel_bias(or_one(weight), grad), grouped), -1) - "
        "(reshape(input, grouped) - unsqueeze(result1, -1)) * unsqueeze(result2, -1) * "
        "mean(reshape(grad * channel_bias(or_one(weight), grad), grouped) * "
        "(reshape(input, grouped) - unsqueeze(result1, -1)) * unsqueeze(result2, -1), -1)), "
        "self_sizes)",
        "channels(grad * reshape((reshape(input, grouped) - unsqueeze(result1, -1)) * "
        "unsqueeze(result2, -1), self_sizes))",
        "channels(grad)",
    )

    @staticmethod
    def forward(ctx, x, group, weight, bias, eps):
        weight, bias, data = present(weight), present(bias), x._data
        n, c = data.shape[:2]
        ctx.N, ctx.C, ctx.group, ctx.eps = n, c, group, eps  # PyTorch's saved values
        ctx.HxW = int(np.prod(data.shape[2:], dtype=np.int64))
        ctx.self_sizes, ctx.grouped = tuple(data.shape), (n, group, c // group * ctx.HxW)
        out, mean, rstd = standardise(data.reshape(ctx.grouped), -1, eps)
        out = out.reshape(data.shape)
        if weight is not None:
            out = out * _per_channel(weight._data, data.ndim)
        if bias is not None:
            out = out + _per_channel(bias._data, data.ndim)
        ctx.save_for_backward(x, weight, Tensor._make(mean[..., 0].astype(data.dtype)),
                              Tensor._make(rstd[..., 0].astype(data.dtype)))
        return out.astype(data.dtype, copy=False)

    @staticmethod
    def backward(ctx, grad):
        x, weight, _mean, _rstd = ctx.saved_tensors
        grouped = x.reshape(ctx.grouped)
        # the statistics again, from x, so that a second derivative flows through them too
        centred = grouped - grouped.mean(-1, keepdim=True)
        rstd = ((centred * centred).mean(-1, keepdim=True) + ctx.eps) ** -0.5
        x_hat = centred * rstd
        needs = ctx.needs_input_grad
        others = (0,) + tuple(range(2, x.ndim))
        grad_x = grad_w = grad_b = None
        if needs[0]:
            g_hat = (grad if weight is None else grad * _per_channel(weight, x.ndim))
            g_hat = g_hat.reshape(ctx.grouped)
            grad_x = (rstd * (g_hat - g_hat.mean(-1, keepdim=True)
                              - x_hat * (g_hat * x_hat).mean(-1, keepdim=True))).reshape(x.shape)
        if needs[2]:
            grad_w = (grad * x_hat.reshape(x.shape)).sum(others)
        if needs[3]:
            grad_b = grad.sum(others)
        return grad_x, None, grad_w, grad_b, None
