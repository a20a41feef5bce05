"""``NativeLayerNormBackward0``: layer normalisation as one node with edges to the input, the
weight and the bias, normalising each sample over its last dimensions (``normalized_shape``).

A missing weight or bias is an edge to nothing, ``(None, 0)``, and is saved as None, as in
PyTorch: ``layer_norm`` passes ``ABSENT`` in its place."""

import numpy as np

from minigrad.autograd.function import _Op
from minigrad.tensor import Tensor

__all__ = ["NativeLayerNorm", "ABSENT", "present", "standardise"]

ABSENT = Tensor._make(np.zeros(0, np.float32))  # a constant: the (None, 0) edge of no weight


def present(t):
    """A weight or bias argument, None when it is ``ABSENT``."""
    return None if t is ABSENT else t


def standardise(values, axis, eps):
    """x̂ = (x - μ)·r with μ the mean and r = 1/√(σ² + ε) over ``axis`` (kept as size-1
    dimensions): ``(x̂, μ, r)``, computed in float32 for float16 as PyTorch does."""
    compute = np.float32 if values.dtype == np.float16 else values.dtype.type
    values = values.astype(compute, copy=False)
    mean = values.mean(axis=axis, keepdims=True, dtype=compute)
    centred = values - mean
    var = (centred * centred).mean(axis=axis, keepdims=True, dtype=compute)
    rstd = (1 / np.sqrt(var + compute(eps))).astype(compute)
    return centred * rstd, mean, rstd


class NativeLayerNorm(_Op):
    """y = (x - μ)·r·γ + β, with μ and r = 1/√(σ² + ε) the mean and reciprocal standard
    deviation over the last k dimensions;  with x̂ = (x - μ)·r and ĝ = g·γ:
    ∂ℓ/∂x = r·(ĝ - mean(ĝ) - x̂·mean(ĝ·x̂)),  ∂ℓ/∂γ = Σ g·x̂,  ∂ℓ/∂β = Σ g (over the batch)."""

    node_name = "NativeLayerNormBackward0"
    saved_names = ("input", "weight", "bias", "result1", "result2")
    formula = (
        "result2 * (grad * or_one(weight) - mean(grad * or_one(weight), dims) - (input - result1)"
        " * result2 * mean(grad * or_one(weight) * (input - result1) * result2, dims))",
        "grad * (input - result1) * result2",
        "grad",
    )

    @staticmethod
    def forward(ctx, x, normalized_shape, weight, bias, eps):
        weight, bias, data = present(weight), present(bias), x._data
        ctx.normalized_shape = normalized_shape  # node._saved_normalized_shape, as in PyTorch
        ctx.dims = tuple(range(-len(normalized_shape), 0))  # the axes normalised over
        ctx.eps = eps
        out, mean, rstd = standardise(data, ctx.dims, eps)
        if weight is not None:
            out = out * weight._data
        if bias is not None:
            out = out + bias._data
        ctx.save_for_backward(x, weight, bias, Tensor._make(mean.astype(data.dtype)),
                              Tensor._make(rstd.astype(data.dtype)))
        return out.astype(data.dtype, copy=False)

    @staticmethod
    def backward(ctx, grad):
        x, weight, _bias, _mean, _rstd = ctx.saved_tensors
        dims = ctx.dims
        # the statistics again, from x, so that a second derivative flows through them too
        centred = x - x.mean(dims, keepdim=True)
        rstd = ((centred * centred).mean(dims, keepdim=True) + ctx.eps) ** -0.5
        x_hat = centred * rstd
        needs = ctx.needs_input_grad
        grad_x = grad_w = grad_b = None
        if needs[0]:
            g_hat = grad if weight is None else grad * weight
            grad_x = rstd * (g_hat - g_hat.mean(dims, keepdim=True)
                             - x_hat * (g_hat * x_hat).mean(dims, keepdim=True))
        batch = tuple(range(x.ndim - len(dims)))
        if needs[2]:
            grad_w = (grad * x_hat).sum(batch) if batch else grad * x_hat
        if needs[3]:
            grad_b = grad.sum(batch) if batch else grad
        return grad_x, None, grad_w, grad_b, None
