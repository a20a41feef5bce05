"""Activation nodes that ``minigrad.ops`` does not have: ``LeakyReluBackward0``."""

import numpy as np

from minigrad.autograd.function import _Op
from minigrad.tensor import Tensor

__all__ = ["LeakyRelu"]


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
        return np.where(data > 0, data, data * negative_slope).astype(data.dtype, copy=False)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        data = x._data
        slope = np.where(data > 0, 1, ctx.negative_slope).astype(data.dtype)
        return grad * Tensor._make(slope), None
