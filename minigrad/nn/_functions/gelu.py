"""``GeluBackward0`` and the node of its gradient, ``GeluBackwardBackward0``: y = x·Φ(x), with
Φ the standard normal's CDF (``approximate="none"``) or its tanh approximation
0.5·(1 + tanh(√(2/π)·(x + 0.044715·x³))) (``approximate="tanh"``).

Each node keeps Φ(x) and Φ'(x) as ``cdf`` and ``density`` (NumPy arrays; the gradient's node
also y''(x) as ``curvature``): the formulas the stepper shows name them, as the formula
language has no erf.
"""

import math

import numpy as np

from minigrad import _dtype
from minigrad.autograd.function import _Op
from minigrad.ops._erf import erf
from minigrad.tensor import Tensor

__all__ = ["Gelu", "GeluBackward", "check_approximate"]

_SQRT_2_OVER_PI = math.sqrt(2 / math.pi)
_CUBIC = 0.044715
_INV_SQRT_2PI = 1 / math.sqrt(2 * math.pi)


def check_approximate(approximate):
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")


def _floats(x, kernel):
    """x's data for a float-only kernel (PyTorch's error for other dtypes), in the dtype
    PyTorch computes it in: float64 stays, float16 and float32 are computed in float32."""
    data = x._data
    if data.dtype.kind != "f":
        raise _dtype.not_implemented(kernel, x.dtype)
    return data if data.dtype == np.float64 else data.astype(np.float32)


def _cdf(x, approximate):
    """Φ(x), or its tanh approximation, in x's dtype, one rounding per step as PyTorch."""
    kind = x.dtype.type
    if approximate == "tanh":
        inner = kind(_SQRT_2_OVER_PI) * (x + kind(_CUBIC) * (x * x * x))
        return kind(0.5) * (kind(1) + np.tanh(inner))
    return kind(0.5) * (kind(1) + erf(x * kind(math.sqrt(0.5))).astype(kind))


def _density(x, cdf, approximate):
    """Φ'(x), on arrays: the normal density, or the derivative of the tanh form."""
    kind = x.dtype.type
    if approximate == "tanh":
        t = kind(2) * cdf - kind(1)
        return (kind(0.5) * (kind(1) - t * t)
                * (kind(_SQRT_2_OVER_PI) * (kind(1) + kind(3 * _CUBIC) * (x * x))))
    return kind(_INV_SQRT_2PI) * np.exp(x * x * kind(-0.5))


def _curvature(x, approximate):
    """d²y/dx², in Tensor ops (so that it can be differentiated again):
    φ(x)·(2 - x²) exactly; (1 - t²)·(u' - x·t·u'² + 3·0.044715·√(2/π)·x²) for the tanh form,
    with u = √(2/π)·(x + 0.044715·x³) and t = tanh(u)."""
    if approximate == "tanh":
        du = (x * x * 3 * _CUBIC + 1) * _SQRT_2_OVER_PI
        t = ((x * x * x * _CUBIC + x) * _SQRT_2_OVER_PI).tanh()
        return (1 - t * t) * (du - x * t * du * du + x * x * 3 * _CUBIC * _SQRT_2_OVER_PI)
    return (x * x * -0.5).exp() * _INV_SQRT_2PI * (2 - x * x)


class Gelu(_Op):
    """y = x·Φ(x);  ∂y/∂x = Φ(x) + x·Φ'(x)."""

    node_name = "GeluBackward0"
    saved_names = ("self",)
    formula = ("grad * (cdf + self * density)",)

    @staticmethod
    def forward(ctx, x, approximate):
        ctx.approximate = approximate  # node._saved_approximate, as in PyTorch
        ctx.save_for_backward(x)
        data = _floats(x, "GeluKernelImpl")
        ctx.cdf = _cdf(data, approximate)
        ctx.density = _density(data, ctx.cdf, approximate)
        return (data * ctx.cdf).astype(x._data.dtype, copy=False)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return GeluBackward.apply(grad, x, ctx.approximate), None


class GeluBackward(_Op):
    """gelu's backward as an op of its own, as in PyTorch (``gelu_backward``): z = g·y'(x);
    ∂z/∂g = y'(x),  ∂z/∂x = g·y''(x)."""

    node_name = "GeluBackwardBackward0"
    saved_names = ("grad_output", "self")
    formula = (
        "grad * (cdf + self * density)",
        "grad * grad_output * curvature",
    )

    @staticmethod
    def forward(ctx, g, x, approximate):
        ctx.approximate = approximate
        ctx.save_for_backward(g, x)
        data = _floats(x, "GeluBackwardKernelImpl")
        ctx.cdf = _cdf(data, approximate)
        ctx.density = _density(data, ctx.cdf, approximate)
        ctx.curvature = _curvature(Tensor._make(data), approximate)._data
        slope = ctx.cdf + data * ctx.density
        return (g._data.astype(data.dtype, copy=False) * slope).astype(g._data.dtype, copy=False)

    @staticmethod
    def backward(ctx, grad):
        g, x = ctx.saved_tensors
        need_g, need_x = ctx.needs_input_grad[:2]
        grad_g = GeluBackward.apply(grad, x, ctx.approximate) if need_g else None
        grad_x = grad * g * _curvature(x, ctx.approximate) if need_x else None
        return grad_g, grad_x, None
