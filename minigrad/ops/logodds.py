"""``logit`` (the log-odds, the inverse of ``sigmoid``), ``xlogy`` (x·log y, 0 where x is 0)
and ``hypot`` (√(a² + b²)), each one node as in PyTorch."""

import numbers

import numpy as np

from minigrad import _dtype
from minigrad.autograd.function import _Op
from minigrad.ops._util import (
    as_tensor_operand,
    check_overloads,
    check_tensor_arg,
    floating_result,
    result_dtype,
    shapes_of,
    sum_to,
    type_name,
)
from minigrad.ops.arithmetic import broadcast_error
from minigrad.ops.combine import where
from minigrad.tensor import Tensor

__all__ = ["Logit", "Xlogy", "XlogyScalarSelf", "XlogyScalarOther", "Hypot", "logit", "xlogy",
           "hypot", "logit_", "xlogy_", "hypot_"]


def _floating(data):
    return data if data.dtype.kind == "f" else data.astype(_dtype.default_float.numpy)


class Logit(_Op):
    """y = log(x / (1 - x)), x first clamped to [eps, 1 - eps] when eps is given;
    ∂y/∂x = 1 / (x(1 - x)) inside the range, 0 outside it with eps, NaN outside [0, 1] without."""

    node_name = "LogitBackward0"
    saved_names = ("self",)
    formula = ("where((self < low) | (self > high), outside, grad / (self * (1 - self)))",)

    @staticmethod
    def forward(ctx, x, eps):
        ctx.save_for_backward(x)
        ctx.eps = eps
        ctx.low, ctx.high = (0.0, 1.0) if eps is None else (eps, 1 - eps)
        ctx.outside = np.nan if eps is None else 0.0
        data = _floating(x._data)
        if eps is not None:
            low, high = data.dtype.type(eps), data.dtype.type(1 - eps)
            data = np.where(data < low, low, np.where(data > high, high, data))
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.log(data / (1 - data)).astype(data.dtype, copy=False)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        inside = grad / (x * (x.new_ones(x.shape) - x))  # (a SubBackward0, as in PyTorch)
        return where((x < ctx.low) | (x > ctx.high), ctx.outside, inside), None


def _xlogy_array(x, y):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where((x == 0) & ~np.isnan(y), 0, x * np.log(y)).astype(x.dtype, copy=False)


def _float_arrays(a, b):
    """The arrays of ``a`` and ``b`` (tensors or numbers) in their promoted floating dtype."""
    a, b = as_tensor_operand(a, b), as_tensor_operand(b, a)
    dtype = result_dtype(a, b)
    if dtype.kind != "f":
        dtype = _dtype.default_float.numpy
    try:
        np.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        raise broadcast_error(a, b) from None
    return a._data.astype(dtype, copy=False), b._data.astype(dtype, copy=False)


def _grad_self(grad, x, y):
    """grad · log y, but 0 where x = 0 and y ≤ 0 (there x·log y is 0 whatever x's step)."""
    return xlogy(grad, y).masked_fill((x == 0) & (y <= 0), 0)


class Xlogy(_Op):
    """z = x·log y (0 where x = 0, unless y is NaN);  ∂z/∂x = log y (0 where x = 0 and
    y ≤ 0),  ∂z/∂y = x/y."""

    node_name = "XlogyBackward0"
    saved_names = ("self", "other")
    formula = ("where((self == 0) & (other <= 0), 0, grad * log(other))", "grad * self / other")

    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, y)
        ctx.shapes = shapes_of(x, y)
        return _xlogy_array(*_float_arrays(x, y))

    @staticmethod
    def backward(ctx, grad):
        x, y = ctx.saved_tensors
        shape_x, shape_y = ctx.shapes
        need_x, need_y = ctx.needs_input_grad
        return (sum_to(_grad_self(grad, x, y), shape_x) if need_x else None,
                sum_to(grad * x / y, shape_y) if need_y else None)


class XlogyScalarSelf(_Op):
    """z = s·log y for a number s;  ∂z/∂y = s/y."""

    node_name = "XlogyBackward1"
    saved_names = ("other",)
    formula = ("grad * self / other",)

    @staticmethod
    def forward(ctx, y, s):
        ctx.save_for_backward(y)
        ctx.self = s
        return _xlogy_array(*_float_arrays(s, y))

    @staticmethod
    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        return grad * ctx.self / y, None


class XlogyScalarOther(_Op):
    """z = x·log s for a number s;  ∂z/∂x = log s (0 where x = 0 and s ≤ 0)."""

    node_name = "XlogyBackward2"
    saved_names = ("self",)
    formula = ("where((self == 0) & (other <= 0), 0, grad * log(other))",)

    @staticmethod
    def forward(ctx, x, s):
        ctx.save_for_backward(x)
        ctx.other = s
        return _xlogy_array(*_float_arrays(x, s))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return _grad_self(grad, x, ctx.other), None


class Hypot(_Op):
    """z = √(a² + b²);  ∂z/∂a = a/z,  ∂z/∂b = b/z."""

    node_name = "HypotBackward0"
    saved_names = ("self", "other", "result")
    formula = ("grad * self / result", "grad * other / result")

    @staticmethod
    def forward(ctx, a, b):
        ctx.shapes = shapes_of(a, b)
        data_a, data_b = _float_arrays(a, b)
        result = np.hypot(data_a, data_b)
        need_a, need_b = ctx.needs_input_grad  # (each gradient needs only its own input)
        ctx.save_for_backward(a if need_a else None, b if need_b else None, result)
        return result

    @staticmethod
    def backward(ctx, grad):
        a, b, result = ctx.saved_tensors
        shape_a, shape_b = ctx.shapes
        need_a, need_b = ctx.needs_input_grad
        return (sum_to(grad * a / result, shape_a) if need_a else None,
                sum_to(grad * b / result, shape_b) if need_b else None)


def logit(input, eps=None):  # noqa: A002 - PyTorch's name
    """log(x / (1 - x)), the inverse of ``sigmoid``, elementwise; with ``eps``, x is first
    clamped to [eps, 1 - eps].

    Example:
        >>> minigrad.logit(minigrad.tensor([0.25, 0.5]))
        tensor([-1.0986,  0.0000])
    """
    check_tensor_arg("logit", "input", input, 1)
    if eps is not None and (isinstance(eps, bool) or not isinstance(eps, numbers.Real)):
        raise TypeError(f"logit(): argument 'eps' (position 2) must be float, not "
                        f"{type_name(eps)}")
    return Logit.apply(input, None if eps is None else float(eps))


_XLOGY_FORMS = ("Tensor input, Tensor other, *, Tensor out = None",
                "Number self, Tensor other, *, Tensor out = None",
                "Tensor input, Number other, *, Tensor out = None")


def xlogy(input, other):  # noqa: A002 - PyTorch's name
    """x · log y elementwise, 0 where x is 0 (even where y is 0), NaN where y is NaN.

    Example:
        >>> minigrad.xlogy(minigrad.tensor([0.0, 2.0]), minigrad.tensor([0.0, 1.0]))
        tensor([0., 0.])
    """
    if not isinstance(input, Tensor) and not isinstance(other, Tensor):
        check_overloads("xlogy", (input, other), _XLOGY_FORMS, tensor_first=True)
    check_overloads("xlogy", (input, other), _XLOGY_FORMS)
    if not isinstance(input, Tensor):
        return XlogyScalarSelf.apply(other, input)
    if not isinstance(other, Tensor):
        return XlogyScalarOther.apply(input, other)
    return Xlogy.apply(input, other)


def hypot(input, other):  # noqa: A002 - PyTorch's name
    """√(a² + b²) elementwise, the length of the hypotenuse, without overflow (floats only).

    Example:
        >>> minigrad.hypot(minigrad.tensor([3.0]), minigrad.tensor([4.0]))
        tensor([5.])
    """
    floating_result("hypot", input, other)
    return Hypot.apply(input, other)


def logit_(x, eps=None):
    """``logit`` in x's memory."""
    from minigrad.ops.inplace import inplace  # (inplace imports special, which imports us)
    return inplace(x, lambda t: logit(t, eps))


def xlogy_(x, other):
    """``xlogy`` in x's memory."""
    from minigrad.ops.inplace import inplace
    return inplace(x, xlogy, other)


def hypot_(x, other):
    """``hypot`` in x's memory."""
    from minigrad.ops.inplace import inplace
    check_tensor_arg("hypot_", "other", other, 1)
    return inplace(x, hypot, other)
