"""Elementwise functions of statistics and geometry: ``erf``, ``erfc``, ``erfinv``, ``atan2``
(``arctan2``), ``logaddexp`` and ``nan_to_num``.

NumPy has no error function: ``erf`` and ``erfc`` are Cody's rational approximations on arrays
(``minigrad.ops._erf``, within a few ulps of a float64), and ``erfinv`` refines a closed-form
guess by Halley's method on them. Their backward formulas build the nodes PyTorch's
derivatives build.
"""

import math

import numpy as np

from minigrad import _dtype
from minigrad.autograd.function import _Op
from minigrad.ops._erf import erf as _erf
from minigrad.ops._erf import erfc as _erfc
from minigrad.ops._util import (
    check_tensor_arg,
    floating_result,
    result_dtype,
    shapes_of,
    sum_to,
    type_name,
)
from minigrad.ops.arithmetic import MulScalar, broadcast_error, div, plus, sub
from minigrad.ops.compare import eq, isfinite
from minigrad.ops.pointwise import exp

__all__ = ["Erf", "Erfc", "Erfinv", "Atan2", "Logaddexp", "NanToNum", "erf", "erfc", "erfinv",
           "atan2", "arctan2", "logaddexp", "nan_to_num"]

_TWO_OVER_SQRT_PI = 2 / math.sqrt(math.pi)


def _floating(data):
    """``data`` as floats: integers and bools in the default dtype, as PyTorch promotes."""
    return data if data.dtype.kind == "f" else data.astype(_dtype.default_float.numpy)


def _elementwise(fn, data):
    """``fn`` (float64 in, float64 out) of every element, in the dtype of ``data``."""
    return fn(data).astype(data.dtype, copy=False)


def erf_array(data):
    """erf(x) of a float array."""
    return _elementwise(_erf, data)


def erfinv_array(data):
    """erf⁻¹(y) of a float array: ±inf at ±1, NaN outside [-1, 1]."""
    y = data.astype(np.float64)
    a = np.abs(y)
    with np.errstate(all="ignore"):
        # Winitzki's closed form (relative error below 2e-3), then three Halley steps; for
        # |y| > 0.5 on erfc(x) = 1 - |y|, which keeps its digits near 1.
        log_term = np.log((1 - a) * (1 + a))
        b = 2 / (math.pi * 0.147) + log_term / 2
        x = np.sqrt(np.sqrt(b * b - log_term / 0.147) - b)
        finite = a < 1
        for _ in range(3):
            x = np.where(finite, x, 0.0)
            residual = np.where(a <= 0.5, _erf(x) - a,
                                (1 - a) - _erfc(x))
            step = residual / (_TWO_OVER_SQRT_PI * np.exp(-x * x))
            x = x - step / (1 + x * step)
        x = np.where(a == 1, np.inf, np.where(a > 1, np.nan, x))
        return (np.copysign(x, y)).astype(data.dtype)


class Erf(_Op):
    """y = erf x = 2/√π ∫₀ˣ e^(-t²) dt;  ∂y/∂x = 2/√π · e^(-x²)."""

    node_name = "ErfBackward0"
    saved_names = ("self",)
    formula = ("1.1283791670955126 * exp(-self ** 2) * grad",)
    _scale, _compute = _TWO_OVER_SQRT_PI, staticmethod(erf_array)

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return ctx._forward_cls._compute(_floating(x._data))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return MulScalar.apply(exp(-(x ** 2)), ctx._forward_cls._scale) * grad


class Erfc(Erf):
    """y = erfc x = 1 - erf x;  ∂y/∂x = -2/√π · e^(-x²)."""

    node_name = "ErfcBackward0"
    formula = ("-1.1283791670955126 * exp(-self ** 2) * grad",)
    _scale, _compute = -_TWO_OVER_SQRT_PI, staticmethod(lambda data: _elementwise(_erfc, data))


class Erfinv(_Op):
    """y = erf⁻¹ x;  ∂y/∂x = √π/2 · e^(y²)."""

    node_name = "ErfinvBackward0"
    # NB: PyTorch saves x and computes erfinv(x) again in backward; minigrad saves the result
    # (the same nodes in the gradient's graph, one erfinv less)
    saved_names = ("result",)
    formula = ("0.886226925452758 * exp(result ** 2) * grad",)

    @staticmethod
    def forward(ctx, x):
        result = erfinv_array(_floating(x._data))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return MulScalar.apply(exp(result ** 2), math.sqrt(math.pi) / 2) * grad


def _float_pair(a, b):
    """The arrays of two tensors in their promoted floating dtype (integers: the default)."""
    dtype = result_dtype(a, b)
    if dtype.kind != "f":
        dtype = _dtype.default_float.numpy
    try:
        np.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        raise broadcast_error(a, b) from None
    return a._data.astype(dtype, copy=False), b._data.astype(dtype, copy=False)


class Atan2(_Op):
    """z = atan2(a, b), the angle of the point (b, a);  ∂z/∂a = b/(a² + b²),
    ∂z/∂b = -a/(a² + b²) (0 at the origin)."""

    node_name = "Atan2Backward0"
    saved_names = ("self", "other")
    formula = (
        "where(self ** 2 + other ** 2 == 0, 0, grad * other / (self ** 2 + other ** 2))",
        "where(self ** 2 + other ** 2 == 0, 0, -grad * self / (self ** 2 + other ** 2))",
    )

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        ctx.shapes = shapes_of(a, b)
        return np.arctan2(*_float_pair(a, b))

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        shape_a, shape_b = ctx.shapes
        denominator = a * a + b * b
        reciprocal = denominator.reciprocal().masked_fill(eq(denominator, 0), 0)
        need_a, need_b = ctx.needs_input_grad
        return (sum_to(grad * b * reciprocal, shape_a) if need_a else None,
                sum_to(grad * -a * reciprocal, shape_b) if need_b else None)


class Logaddexp(_Op):
    """z = log(eᵃ + eᵇ);  ∂z/∂a = 1/(1 + e^(b-a)),  ∂z/∂b = 1/(1 + e^(a-b))."""

    node_name = "LogaddexpBackward0"
    saved_names = ("self", "other")
    formula = ("grad / (1 + exp(other - self))", "grad / (1 + exp(self - other))")

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        ctx.shapes = shapes_of(a, b)
        return np.logaddexp(a._data, b._data)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        shape_a, shape_b = ctx.shapes
        need_a, need_b = ctx.needs_input_grad
        return (sum_to(div(grad, plus(exp(sub(b, a)), 1)), shape_a) if need_a else None,
                sum_to(div(grad, plus(exp(sub(a, b)), 1)), shape_b) if need_b else None)


class NanToNum(_Op):
    """y = x with NaN, +inf and -inf replaced by numbers;  ∂y/∂x = 1 where x is finite,
    else 0."""

    node_name = "NanToNumBackward0"
    saved_names = ("self",)
    formula = ("grad * (abs(self) <= 1.7976931348623157e308)",)

    @staticmethod
    def forward(ctx, x, nan, posinf, neginf):
        ctx.save_for_backward(x)
        data = x._data
        if data.dtype.kind != "f":
            return data.copy()
        info = np.finfo(data.dtype)
        return np.nan_to_num(data, nan=nan, posinf=info.max if posinf is None else posinf,
                             neginf=info.min if neginf is None else neginf)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * isfinite(x), None, None, None


def erf(x):
    """The error function, 2/√π ∫₀ˣ e^(-t²) dt, elementwise (integers give floats).

    Example:
        >>> minigrad.erf(minigrad.tensor([0.0, 1.0]))
        tensor([0.0000, 0.8427])
    """
    check_tensor_arg("erf", "input", x, 1)
    return Erf.apply(x)


def erfc(x):
    """The complementary error function, 1 - erf(x), elementwise."""
    check_tensor_arg("erfc", "input", x, 1)
    return Erfc.apply(x)


def erfinv(x):
    """The inverse of ``erf`` on [-1, 1] (±inf at ±1, NaN outside).

    Example:
        >>> minigrad.erfinv(minigrad.tensor([0.0, 0.5]))
        tensor([0.0000, 0.4769])
    """
    check_tensor_arg("erfinv", "input", x, 1)
    return Erfinv.apply(x)


def atan2(a, b):
    """The angle of the point (b, a) from the positive x-axis, in (-π, π], elementwise
    (``a`` is y, ``b`` is x, as in ``math.atan2``).

    Example:
        >>> minigrad.atan2(minigrad.tensor([1.0, -1.0]), minigrad.tensor([0.0, -1.0]))
        tensor([ 1.5708, -2.3562])
    """
    check_tensor_arg("atan2", "input", a, 1)
    check_tensor_arg("atan2", "other", b, 2)
    return Atan2.apply(a, b)


arctan2 = atan2  # PyTorch's alias


def logaddexp(a, b):
    """log(eᵃ + eᵇ), elementwise, without overflow for large a or b.

    Example:
        >>> minigrad.logaddexp(minigrad.tensor([1000.0]), minigrad.tensor([1000.0]))
        tensor([1000.6932])
    """
    dtype = floating_result("logaddexp", a, b)
    _float_pair(a, b)
    if a._data.dtype != dtype:
        a = a.to(_dtype.from_numpy_dtype(dtype))
    if b._data.dtype != dtype:
        b = b.to(_dtype.from_numpy_dtype(dtype))
    return Logaddexp.apply(a, b)


def _check_float(op, name, value, position):
    if value is not None and not isinstance(value, (int, float)) or isinstance(value, bool):
        raise TypeError(f"{op}(): argument '{name}' (position {position}) must be float, not "
                        f"{type_name(value)}")


def nan_to_num(x, nan=0.0, posinf=None, neginf=None, *, position=2):
    """``x`` with NaN as ``nan``, +inf as ``posinf`` and -inf as ``neginf`` (by default the
    largest and the smallest finite number of x's dtype); integer tensors are copied.

    Example:
        >>> minigrad.nan_to_num(minigrad.tensor([float("nan"), 1.0, float("-inf")]), posinf=9.0)
        tensor([ 0.0000e+00,  1.0000e+00, -3.4028e+38])
    """
    check_tensor_arg("nan_to_num", "input", x, 1)
    for k, (name, value) in enumerate((("nan", nan), ("posinf", posinf), ("neginf", neginf))):
        _check_float("nan_to_num", name, value, position + k)
    return NanToNum.apply(x, 0.0 if nan is None else float(nan),
                          None if posinf is None else float(posinf),
                          None if neginf is None else float(neginf))



# ``minigrad.special`` is this module: PyTorch's torch.special names for ops kept elsewhere
from minigrad.ops.logodds import logit, xlogy  # noqa: E402, F401
from minigrad.ops.pointwise import sigmoid as expit  # noqa: E402, F401
