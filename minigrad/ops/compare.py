"""Comparisons and logic: ``== != < <= > >=``, logical and bitwise ops, NaN tests, ``allclose``,
``equal``, and the differentiable elementwise ``maximum``/``minimum``.

Comparison results are bool tensors outside the graph: they never require grad, as in PyTorch.
"""

import numpy as np

from minigrad import _dtype
from minigrad.autograd.function import _Op
from minigrad.ops._util import (
    ARRAY,
    WrappedNumber,
    as_tensor_operand,
    cast_numbers,
    check_tensor_arg,
    quiet,
    result_dtype,
    sum_to,
)
from minigrad.ops.arithmetic import broadcast_error, divided
from minigrad.ops.combine import masked_fill, where
from minigrad.tensor import Tensor

__all__ = ["Maximum", "Minimum", "eq", "ne", "lt", "le", "gt", "ge", "greater", "greater_equal",
           "less", "less_equal", "not_equal", "logical_and", "logical_or", "logical_xor",
           "logical_not", "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not", "isnan",
           "isinf", "isfinite", "signbit", "allclose", "isclose", "equal", "maximum", "minimum",
           "isin"]


def _operand(op, a, b):
    """``b`` as a tensor; PyTorch's TypeError for an operand that is neither tensor nor number."""
    try:
        return as_tensor_operand(b, a)
    except TypeError:
        raise TypeError(
            f"{op}() received an invalid combination of arguments - got (Tensor, "
            f"{type(b).__name__}), but expected one of:\n"
            " * (Tensor input, Tensor other, *, Tensor out = None)\n"
            " * (Tensor input, Number other, *, Tensor out = None)\n") from None


@quiet  # comparisons with NaN are False, silently
def _broadcast(ufunc, a, b):
    data_a, data_b, _ = cast_numbers(a, b)  # x == 0.1 compares in x's dtype, as in PyTorch
    try:
        return ufunc(data_a, data_b, out=ARRAY)
    except ValueError:
        raise broadcast_error(a, b) from None


def _bool_result(data):
    return Tensor._make(np.asarray(data, dtype=np.bool_))


def _comparison(op, ufunc):
    def compare(a, b):
        return _bool_result(_broadcast(ufunc, a, _operand(op, a, b)))
    compare.__name__ = compare.__qualname__ = op
    compare.__doc__ = f"Elementwise ``{op}``, broadcasting: a bool tensor that never requires grad."
    return compare


eq = _comparison("eq", np.equal)
ne = _comparison("ne", np.not_equal)
lt = _comparison("lt", np.less)
le = _comparison("le", np.less_equal)
gt = _comparison("gt", np.greater)
ge = _comparison("ge", np.greater_equal)
greater, greater_equal, less, less_equal, not_equal = gt, ge, lt, le, ne


def _logical(op, ufunc):
    def logical(a, b):
        check_tensor_arg(op, "other", b, 2)
        return _bool_result(_broadcast(ufunc, a, _operand(op, a, b)))
    logical.__name__ = logical.__qualname__ = op
    logical.__doc__ = f"Elementwise ``{op}`` on truth values (non-zero is True): a bool tensor."
    return logical


logical_and = _logical("logical_and", np.logical_and)
logical_or = _logical("logical_or", np.logical_or)
logical_xor = _logical("logical_xor", np.logical_xor)


def logical_not(a):
    """Elementwise NOT on truth values (non-zero is True): a bool tensor."""
    return _bool_result(np.logical_not(a._data))


def _check_integral(op, *tensors):
    for t in tensors:
        if t._data.dtype.kind not in "biu":
            raise NotImplementedError(
                f"\"{op}_cpu\" not implemented for '{t.dtype.tensor_type[:-6]}'")


def _bitwise(op, ufunc):
    def bitwise(a, b):
        b = _operand(op, a, b)
        try:  # the shapes first
            np.broadcast_shapes(a._data.shape, b._data.shape)
        except ValueError:
            raise broadcast_error(a, b) from None
        dtype = result_dtype(a, b)  # x & 0.5 names Float, the dtype the number would take
        if dtype.kind not in "biu":
            raise _dtype.not_implemented(f"{op}_cpu", _dtype.from_numpy_dtype(dtype))
        out = _broadcast(ufunc, a, b)
        return Tensor._make(np.asarray(out, dtype=dtype))
    bitwise.__name__ = bitwise.__qualname__ = op
    bitwise.__doc__ = f"Elementwise ``{op}`` of integer or bool tensors (``&``, ``|``, ``^``)."
    return bitwise


bitwise_and = _bitwise("bitwise_and", np.bitwise_and)
bitwise_or = _bitwise("bitwise_or", np.bitwise_or)
bitwise_xor = _bitwise("bitwise_xor", np.bitwise_xor)


def bitwise_not(a):
    """Elementwise NOT of the bits of an integer tensor; logical NOT of a bool tensor (``~``)."""
    _check_integral("bitwise_not", a)
    return Tensor._make(np.invert(a._data))


def isnan(a):
    """True where ``a`` is NaN."""
    return _bool_result(np.isnan(a._data) if a._data.dtype.kind == "f"
                        else np.zeros(a.shape, np.bool_))


def isinf(a):
    """True where ``a`` is +inf or -inf."""
    return _bool_result(np.isinf(a._data) if a._data.dtype.kind == "f"
                        else np.zeros(a.shape, np.bool_))


def isfinite(a):
    """True where ``a`` is neither NaN nor infinite."""
    return _bool_result(np.isfinite(a._data) if a._data.dtype.kind == "f"
                        else np.ones(a.shape, np.bool_))


def signbit(a):
    """True where the sign bit of ``a`` is set (negative numbers, -0.0 and -nan)."""
    return _bool_result(np.signbit(a._data) if a._data.dtype.kind != "b"
                        else np.zeros(a.shape, np.bool_))


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """True where ``|a - b| <= atol + rtol * |b|`` (elementwise)."""
    b = _operand("isclose", a, b)
    if type(b) is WrappedNumber:  # NB: PyTorch wants a tensor here; a number takes a's dtype
        b = WrappedNumber._make(b._data.astype(a._data.dtype))
    if a._data.dtype != b._data.dtype:
        raise RuntimeError(f"{a.dtype.tensor_type[:-6]} did not match {b.dtype.tensor_type[:-6]}")
    _broadcast(np.add, a, b)  # PyTorch's message when the shapes do not broadcast
    return _bool_result(np.isclose(a._data, b._data, rtol=rtol, atol=atol, equal_nan=equal_nan))


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether ``|a - b| <= atol + rtol * |b|`` holds everywhere: a Python bool.

    Example:
        >>> minigrad.allclose(minigrad.tensor([1.0, 2.0]), minigrad.tensor([1.0, 2.0 + 1e-9]))
        True
    """
    return bool(isclose(a, b, rtol, atol, equal_nan)._data.all())


def isin(elements, test_elements, *, assume_unique=False, invert=False):
    """True where an element of ``elements`` is one of ``test_elements`` (either may be a
    number): a bool tensor of the shape of ``elements``.

    Example:
        >>> minigrad.isin(minigrad.tensor([1, 2, 3]), minigrad.tensor([2, 5]))
        tensor([False,  True, False])
    """
    if not isinstance(elements, Tensor) and not isinstance(test_elements, Tensor):
        raise TypeError("isin() received an invalid combination of arguments - got "
                        f"({type(elements).__name__}, {type(test_elements).__name__}), but "
                        "expected one of:")
    for t in (elements, test_elements):
        if isinstance(t, Tensor) and t._data.dtype == np.bool_:
            raise RuntimeError("Unsupported input type encountered for isin(): Bool")
    values = np.asarray(elements._data if isinstance(elements, Tensor) else elements)
    tests = np.asarray(test_elements._data if isinstance(test_elements, Tensor)
                       else test_elements)
    return _bool_result(np.isin(values, tests, invert=invert))


def equal(a, b):
    """Whether ``a`` and ``b`` have the same shape and the same values: a Python bool."""
    return a.shape == b.shape and bool(np.array_equal(a._data, b._data))


def _check_tensor(op, other):
    if not isinstance(other, Tensor):
        raise TypeError(f"{op}(): argument 'other' (position 2) must be Tensor, not "
                        f"{type(other).__name__}")


class Maximum(_Op):
    """z = max(a, b) elementwise;  ∂z/∂a = 1 where a > b, ½ where a = b, else 0 (b likewise)."""

    node_name = "MaximumBackward0"
    saved_names = ("self", "other")
    formula = (
        "grad * ((self > other) + (self == other) / 2)",
        "grad * ((other > self) + (self == other) / 2)",
    )
    pack_order = (1, 0)  # the order PyTorch packs them in (saved_tensors_hooks)

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        ctx.shapes = (a.shape, b.shape)
        out = _broadcast(np.maximum, a, b)
        return out.astype(result_dtype(a, b), copy=False)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return _split(ctx, grad, gt(a, b), lt(a, b), eq(a, b))


class Minimum(_Op):
    """z = min(a, b) elementwise;  ∂z/∂a = 1 where a < b, ½ where a = b, else 0 (b likewise)."""

    node_name = "MinimumBackward0"
    saved_names = ("self", "other")
    formula = (
        "grad * ((self < other) + (self == other) / 2)",
        "grad * ((other < self) + (self == other) / 2)",
    )
    pack_order = (1, 0)  # the order PyTorch packs them in (saved_tensors_hooks)

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        ctx.shapes = (a.shape, b.shape)
        out = _broadcast(np.minimum, a, b)
        return out.astype(result_dtype(a, b), copy=False)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return _split(ctx, grad, lt(a, b), gt(a, b), eq(a, b))


def _split(ctx, grad, a_wins, b_wins, tie):
    """The gradient to each side, as PyTorch's formula writes it: half of it to each side of a
    tie (``where(tie, grad / 2, grad)``), none to the loser (``masked_fill``), all of it
    otherwise (so both sides of a NaN get it)."""
    need_a, need_b = ctx.needs_input_grad
    shape_a, shape_b = ctx.shapes
    share = where(tie, divided(grad, 2), grad)  # (PyTorch computes it once for each side)
    return (sum_to(masked_fill(share, b_wins, 0), shape_a) if need_a else None,
            sum_to(masked_fill(share, a_wins, 0), shape_b) if need_b else None)


def maximum(a, b):
    """The elementwise maximum of two tensors (NaN wins), with broadcasting."""
    check_tensor_arg("maximum", "input", a, 1)
    _check_tensor("maximum", b)
    return Maximum.apply(a, b)


def minimum(a, b):
    """The elementwise minimum of two tensors (NaN wins), with broadcasting."""
    check_tensor_arg("minimum", "input", a, 1)
    _check_tensor("minimum", b)
    return Minimum.apply(a, b)
