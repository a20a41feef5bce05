"""Activation nodes that ``minigrad.ops`` does not have: ``LeakyReluBackward0`` and its
gradient's own node, ``LeakyReluBackwardBackward0``."""

import numpy as np

from minigrad.autograd.function import _Op
from minigrad.ops._util import zero_grad

__all__ = ["LeakyRelu", "LeakyReluBackward"]


def _scaled(data, slope):
    """``slope · data`` in data's dtype, as PyTorch computes it: a float16 tensor in float32
    (its kernels' arithmetic type for half), then rounded."""
    if data.dtype == np.float16:
        return (data.astype(np.float32) * np.float32(slope)).astype(np.float16)
    return (data * slope).astype(data.dtype, copy=False)


class LeakyRelu(_Op):
    """y = x if x > 0 else s·x;  ∂y/∂x = 1 where x > 0, s elsewhere."""

    node_name = "LeakyReluBackward0"
    saved_names = ("self",)
    formula = (
        "grad * where(self > 0, 1, negative_slope)",
    )

    @staticmethod
    def forward(ctx, x, negative_slope):
        ctx.negative_slope = negative_slope
        ctx.save_for_backward(x)
        data = x._data
        return np.where(data > 0, data, _scaled(data, negative_slope))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return LeakyReluBackward.apply(grad, x, ctx.negative_slope), None


class LeakyReluBackward(_Op):
    """leaky_relu's backward as an op of its own, as in PyTorch (``leaky_relu_backward``):
    z = g where x > 0, else s·g;  ∂z/∂g = 1 where x > 0, else s;  ∂z/∂x = 0."""

    node_name = "LeakyReluBackwardBackward0"
    saved_names = ("self",)
    formula = ("grad * where(self > 0, 1, negative_slope)", "0 * grad")

    @staticmethod
    def forward(ctx, g, x, negative_slope):
        ctx.negative_slope = negative_slope
        ctx.save_for_backward(x)
        data = g._data
        return np.where(x._data > 0, data, _scaled(data, negative_slope))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        need_g, need_x = ctx.needs_input_grad[:2]
        return (LeakyReluBackward.apply(grad, x, ctx.negative_slope) if need_g else None,
                zero_grad(grad) if need_x else None, None)
