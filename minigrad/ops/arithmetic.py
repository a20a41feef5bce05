"""Arithmetic: ``+ - * / // % **`` and negation, with broadcasting and PyTorch's node names."""

import numbers

import numpy as np

from minigrad import _dtype
from minigrad.autograd.function import _Op
from minigrad.ops._util import (
    ARRAY,
    WrappedNumber,
    apply_op,
    as_input,
    as_tensor_operand,
    cast_numbers,
    check_overloads,
    check_tensor_arg,
    qualified_node_name,
    quiet,
    result_dtype,
    shapes_of,
    sum_to,
    type_name,
    zero_grad,
)
from minigrad.tensor import Tensor

__all__ = ["Add", "AddScalar", "Sub", "SubScalar", "Rsub", "Mul", "MulScalar", "Div", "DivScalar",
           "Neg", "Reciprocal",
           "Pow", "PowTensor", "PowScalarBase", "add", "sub", "rsub", "mul", "div", "neg", "pow",
           "rpow", "reciprocal", "Remainder", "RemainderScalar", "remainder", "DivRounding",
           "FloorDivide", "FloorDivideInplace", "floor_divide", "rfloor_divide"]


def broadcast_error(a, b):
    """PyTorch's message for shapes that do not broadcast."""
    sa, sb = a.shape[::-1], b.shape[::-1]
    for i in range(min(len(sa), len(sb))):
        if sa[i] != sb[i] and 1 not in (sa[i], sb[i]):
            dim = max(len(sa), len(sb)) - 1 - i
            return RuntimeError(f"The size of tensor a ({sa[i]}) must match the size of tensor b "
                                f"({sb[i]}) at non-singleton dimension {dim}")
    return RuntimeError(f"shapes {list(a.shape)} and {list(b.shape)} do not broadcast")


def _check_sub(a, b):
    """PyTorch refuses ``-`` on bool tensors (a bool number counts as a bool tensor)."""
    bool_a, bool_b = a._data.dtype.kind == "b", b._data.dtype.kind == "b"
    if bool_a and bool_b:
        raise RuntimeError(_dtype.SUB_BOOLS)
    if bool_a or bool_b:
        raise RuntimeError(_dtype.SUB_BOOL)


_OPERAND_TYPES = (Tensor, float, int, numbers.Number, np.bool_)  # (float, int: no ABC check)


def _operand(b, a, op):
    """``b`` as the operand ``other`` of ``minigrad.<op>(a, b)``: a tensor or a number; anything
    else is PyTorch's TypeError (``remainder`` has a Tensor and a Number form)."""
    if type(b) is not float and not isinstance(b, _OPERAND_TYPES):
        if op == "remainder":
            check_overloads(op, (a, b), ("Tensor input, Tensor other, *, Tensor out = None",
                                         "Scalar self, Tensor other",
                                         "Tensor input, Number other, *, Tensor out = None"))
        check_tensor_arg(op, "other", b, 2)
    return as_tensor_operand(b, a)


def _check_remainder(a, b):
    """PyTorch's errors for ``%``: no bool kernel, and an integer division by zero."""
    data_a, data_b, dtype = cast_numbers(a, b)
    kind = (dtype or data_a.dtype).kind
    if kind == "b":
        raise _dtype.not_implemented("remainder_cpu", _dtype.bool)
    _check_zero_division(a, b, data_b, kind)


def _check_zero_division(a, b, data_b, kind):
    """PyTorch's error for an integer division by zero; shapes are checked first, and a
    division with no elements divides nothing."""
    try:
        shape = np.broadcast_shapes(a._data.shape, data_b.shape)
    except ValueError:
        raise broadcast_error(a, b) from None
    if kind in "iu" and 0 not in shape and not np.all(data_b):
        raise RuntimeError("ZeroDivisionError")


def _binary(ufunc, a, b, float_result=False):
    data_a, data_b = a._data, b._data
    if data_a.dtype is data_b.dtype:  # (cast_numbers' first two cases, inlined)
        dtype = None
    elif type(b) is WrappedNumber and b._cast_memo[0] is data_a.dtype:  # x * 0.5 again
        data_b, dtype = b._cast_memo[1], None
    else:
        data_a, data_b, dtype = cast_numbers(a, b)
    if float_result and (dtype or data_a.dtype).kind != "f":  # 1 / 2 is the default dtype
        dtype = _dtype.default_float.numpy  # from the operands as given: uint8 / -1 is -x
        data_a, data_b = a._data.astype(dtype), b._data.astype(dtype)
    try:
        out = ufunc(data_a, data_b, out=ARRAY)
    except ValueError:
        raise broadcast_error(a, b) from None
    if dtype is None:
        if not float_result:
            return out
        dtype = out.dtype
    if float_result and dtype.kind != "f":
        dtype = np.dtype(np.float32)
    if out.dtype != dtype:
        out = out.astype(dtype)
    return out


def _scaled(b, alpha, a):
    """``alpha * b`` (alpha not 1) for the forward of ``a + alpha * b`` (b keeps its kind:
    number or tensor)."""
    kind = WrappedNumber if type(b) is WrappedNumber else Tensor
    if b._data.dtype == a._data.dtype == np.bool_:  # alpha takes no part in the dtype: bool
        return kind._make(b._data & bool(alpha))
    if kind is Tensor and b._data.dtype != a._data.dtype:  # b in the result's dtype first
        b = Tensor._make(b._data.astype(result_dtype(a, b)))
    return kind._make(_binary(np.multiply, b, as_tensor_operand(alpha, b)))


class Add(_Op):
    """z = a + α·b;  ∂z/∂a = 1,  ∂z/∂b = α (summed over broadcast dimensions)."""

    node_name = "AddBackward0"
    formula = ("grad", "grad * alpha")
    array_backward = True  # its backward also runs on arrays (no create_graph)

    @staticmethod
    def forward(ctx, a, b, alpha=1):
        ctx.shapes, ctx.alpha = shapes_of(a, b), alpha  # ._saved_alpha
        return _binary(np.add, a, b if alpha == 1 else _scaled(b, alpha, a))

    @staticmethod
    def backward(ctx, grad):
        need_a, need_b = ctx.needs_input_grad[:2]
        shape_a, shape_b = ctx.shapes
        return (sum_to(grad, shape_a) if need_a else None,
                sum_to(times(grad, ctx.alpha), shape_b) if need_b else None,
                None)


class Sub(_Op):
    """z = a - α·b;  ∂z/∂a = 1,  ∂z/∂b = -α."""

    node_name = "SubBackward0"
    formula = ("grad", "-grad * alpha")
    array_backward = True  # its backward also runs on arrays (no create_graph)

    @staticmethod
    def forward(ctx, a, b, alpha=1):
        _check_sub(a, b)
        ctx.shapes, ctx.alpha = shapes_of(a, b), alpha  # ._saved_alpha
        return _binary(np.subtract, a, b if alpha == 1 else _scaled(b, alpha, a))

    @staticmethod
    def backward(ctx, grad):
        need_a, need_b = ctx.needs_input_grad[:2]
        shape_a, shape_b = ctx.shapes
        return (sum_to(grad, shape_a) if need_a else None,
                sum_to(times(-grad, ctx.alpha), shape_b) if need_b else None,
                None)


class Rsub(_Op):
    """z = c - a for a number c;  ∂z/∂a = -1."""

    node_name = "RsubBackward1"
    formula = ("-grad",)
    array_backward = True  # its backward also runs on arrays (no create_graph)

    @staticmethod
    def forward(ctx, a, c):
        ctx.alpha = 1  # node._saved_alpha, as in PyTorch
        c = as_tensor_operand(c, a)
        _check_sub(c, a)
        return _binary(np.subtract, c, a)

    @staticmethod
    def backward(ctx, grad):
        return -grad, None


class Mul(_Op):
    """z = a * b;  ∂z/∂a = b,  ∂z/∂b = a."""

    node_name = "MulBackward0"
    array_backward = True  # its backward also runs on arrays (no create_graph)
    saved_names = ("self", "other")
    formula = ("grad * other", "grad * self")
    pack_order = (1, 0)  # the order PyTorch packs them in (saved_tensors_hooks)

    @staticmethod
    def forward(ctx, a, b):
        need_a, need_b = ctx.needs_input_grad
        ctx.save_for_backward(a if need_b else None, b if need_a else None)
        ctx.shapes = shapes_of(a, b)
        return _binary(np.multiply, a, b)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        shape_a, shape_b = ctx.shapes
        return (sum_to(grad * b, shape_a) if b is not None else None,
                sum_to(grad * a, shape_b) if a is not None else None)


class Div(_Op):
    """z = a / b;  ∂z/∂a = 1/b,  ∂z/∂b = -a/b²."""

    node_name = "DivBackward0"
    array_backward = True  # its backward also runs on arrays (no create_graph)
    saved_names = ("self", "other")
    formula = (
        "grad / other",
        "-grad * self / other ** 2",
    )
    pack_order = (1, 0)  # the order PyTorch packs them in (saved_tensors_hooks)

    @staticmethod
    def forward(ctx, a, b):
        need_a, need_b = ctx.needs_input_grad
        ctx.save_for_backward(a if need_b else None, b)
        ctx.shapes = shapes_of(a, b)
        return _binary(np.true_divide, a, b, float_result=True)

    @staticmethod
    def backward(ctx, grad):
        need_a, need_b = ctx.needs_input_grad
        a, b = ctx.saved_tensors
        shape_a, shape_b = ctx.shapes
        return (sum_to(grad / b, shape_a) if need_a else None,
                sum_to(-grad * (a / b / b), shape_b) if need_b else None)


class DivScalar(_Op):
    """z = a / s for a Python number s (PyTorch's C++ code divides so, e.g. in
    ``cross_entropy``);  ∂z/∂a = 1/s."""

    node_name = "DivBackward1"
    array_backward = True  # its backward also runs on arrays (no create_graph)
    formula = ("grad / other",)

    @staticmethod
    def forward(ctx, a, s):
        ctx.other = s
        return (a._data / s).astype(a._data.dtype, copy=False)  # a floating tensor

    @staticmethod
    def backward(ctx, grad):
        return grad / ctx.other, None


class Neg(_Op):
    """z = -a;  ∂z/∂a = -1."""

    node_name = "NegBackward0"
    formula = ("-grad",)
    array_backward = True  # its backward also runs on arrays (no create_graph)

    @staticmethod
    def forward(ctx, a):
        if a._data.dtype == np.bool_:
            raise RuntimeError(_dtype.NEG_BOOL)
        return np.negative(a._data)

    @staticmethod
    def backward(ctx, grad):
        return -grad


class Reciprocal(_Op):
    """z = 1/a;  ∂z/∂a = -z²."""

    node_name = "ReciprocalBackward0"
    array_backward = True  # its backward also runs on arrays (no create_graph)
    saved_names = ("result",)
    formula = ("-grad * result ** 2",)

    @staticmethod
    def forward(ctx, a):
        data = a._data if a._data.dtype.kind == "f" else a._data.astype(np.float32)
        result = np.reciprocal(data)
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return -grad * result * result


class Pow(_Op):
    """z = a ** p for a number p;  ∂z/∂a = p·a^(p-1)."""

    node_name = "PowBackward0"
    saved_names = ("self",)
    formula = (
        "grad * exponent * self ** (exponent - 1)",
    )

    @staticmethod
    def forward(ctx, a, exponent):
        ctx.save_for_backward(a)
        ctx.exponent = exponent
        dtype = result_dtype(a, as_tensor_operand(exponent, a))  # bool ** 2 is int64
        data = a._data.astype(dtype, copy=False)
        if data.dtype.kind in "iu" and exponent < 0:
            raise RuntimeError("Integers to negative integer powers are not allowed.")
        if dtype == np.bool_:  # b ** True
            return data.copy() if exponent else np.ones_like(data)
        return np.power(data, np.asarray(exponent, dtype=data.dtype))

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        p = ctx.exponent
        if p == 0:  # (PyTorch's zeros_like(self): a constant)
            return zero_grad(grad), None
        return grad * MulScalar.apply(a ** (p - 1), p), None


class MulScalar(_Op):
    """z = a·s for a Python number s, the product PyTorch's own derivative formulas use (its
    node is ``MulBackward1``; ``a * 2`` in user code wraps the 2 and is ``MulBackward0``);
    ∂z/∂a = s."""

    node_name = "MulBackward1"
    array_backward = True  # its backward also runs on arrays (no create_graph)
    formula = ("grad * other",)

    @staticmethod
    def forward(ctx, a, s):
        ctx.other = s  # node._saved_other
        return _binary(np.multiply, a, as_tensor_operand(s, a))

    @staticmethod
    def compute(a, s):  # on the floating arrays of a backward (see apply_op): a's dtype stays
        return np.multiply(a, s, out=ARRAY)

    @staticmethod
    def backward(ctx, grad):
        return apply_op(MulScalar, grad, ctx.other), None


class AddScalar(_Op):
    """z = a + s for a Python number s, the sum PyTorch's own derivative formulas use (its
    node is ``AddBackward1``; ``a + 1`` in user code wraps the 1 and is ``AddBackward0``);
    ∂z/∂a = 1."""

    node_name = "AddBackward1"
    formula = ("grad",)

    @staticmethod
    def forward(ctx, a, s):
        return _binary(np.add, a, as_tensor_operand(s, a))

    @staticmethod
    def backward(ctx, grad):
        return grad, None


class SubScalar(_Op):
    """z = a - s for a Python number s (PyTorch's ``SubBackward1``, as in its formulas);
    ∂z/∂a = 1."""

    node_name = "SubBackward1"
    formula = ("grad",)

    @staticmethod
    def forward(ctx, a, s):
        _check_sub(a, as_tensor_operand(s, a))
        return _binary(np.subtract, a, as_tensor_operand(s, a))

    @staticmethod
    def backward(ctx, grad):
        return grad, None


def times(grad, s):
    """``grad · s`` for a number ``s`` as PyTorch's formulas scale (``maybe_multiply``): no
    product when s is 1, else a ``MulBackward1``; plain NumPy in a backward on arrays."""
    if s == 1:
        return grad
    if isinstance(grad, Tensor):
        return MulScalar.apply(grad, s)
    return grad * s


def plus(x, s):
    """``x + s`` for a number ``s`` as PyTorch's formulas add (an ``AddBackward1``); plain
    NumPy in a backward on arrays."""
    if isinstance(x, Tensor):
        return AddScalar.apply(x, s)
    return x + s


def divided(grad, s):
    """``grad / s`` for a number ``s`` as PyTorch's formulas divide (a ``DivBackward1``);
    plain NumPy in a backward on arrays."""
    if isinstance(grad, Tensor):
        return DivScalar.apply(grad, s)
    return grad / s


def _power(x, y, out=None):
    """``np.power``, with PyTorch's integer powers with negative exponents: 1 ** -n = 1,
    (-1) ** -n = ±1, otherwise 0 (NumPy refuses them)."""
    if x.dtype.kind not in "iu" or y.dtype.kind not in "iu" or not (y < 0).any():
        return np.power(x, y, out=out)
    negative = y < 0
    result = np.power(x, np.where(negative, 0, y))
    one_over = np.where(x == 1, 1, np.where(x == -1, np.where(y % 2 == 0, 1, -1), 0))
    return np.where(negative, one_over, result).astype(result.dtype)


class PowTensor(_Op):
    """z = a ** b;  ∂z/∂a = b·a^(b-1),  ∂z/∂b = z·log(a) (0 where a = 0 and b ≥ 0)."""

    node_name = "PowBackward1"
    saved_names = ("self", "exponent", "result")
    formula = (
        "grad * exponent * self ** (exponent - 1)",
        "grad * result * log(self)",
    )
    pack_order = (1, 0, 2)  # the order PyTorch packs them in (saved_tensors_hooks)

    @staticmethod
    def forward(ctx, a, b):
        ctx.shapes = shapes_of(a, b)
        if a._data.dtype == np.bool_ and b._data.dtype == np.bool_:
            raise _dtype.not_implemented("pow", a.dtype)
        result = _binary(_power, a, b)
        ctx.save_for_backward(a, b, result)
        return result

    @staticmethod
    def backward(ctx, grad):
        from minigrad.ops.combine import where
        need_a, need_b = ctx.needs_input_grad
        a, b, result = ctx.saved_tensors
        shape_a, shape_b = ctx.shapes
        grad_a = grad_b = None
        if need_a:
            # x ** 0 has gradient 0 everywhere, even at x = 0 (where 0 · 0⁻¹ would be nan)
            grad_a = sum_to(where(b == 0, 0.0, grad * (b * a ** SubScalar.apply(b, 1))),
                            shape_a)
        if need_b:
            safe = where((a == 0) & (b >= 0), 0.0, result * a.log())
            grad_b = sum_to(grad * safe, shape_b)
        return grad_a, grad_b


class PowScalarBase(_Op):
    """z = c ** b for a number c;  ∂z/∂b = z·log(c)."""

    node_name = "PowBackward2"
    saved_names = ("exponent", "result")  # and the number as ``_saved_self``, as PyTorch
    formula = ("grad * result * log(base)",)

    @staticmethod
    def forward(ctx, c, b):
        ctx.base = ctx.self = c
        dtype = result_dtype(as_tensor_operand(c, b), b)  # 2 ** int_tensor is int64
        data = b._data.astype(np.uint8 if dtype == np.bool_ else dtype, copy=False)
        if c == 0:
            ctx.saved_b_nonneg = Tensor._make(b._data >= 0)
        result = _power(np.asarray(c, dtype=data.dtype), data).astype(dtype, copy=False)
        ctx.save_for_backward(b, result)
        return result

    @staticmethod
    def backward(ctx, grad):
        from minigrad.ops.combine import where
        _, result = ctx.saved_tensors
        if ctx.base == 0:  # 0 ** b: 0 for b ≥ 0, else inf · log 0 = -inf (as PyTorch)
            return None, where(ctx.saved_b_nonneg, 0.0, grad * (result * float("-inf")))
        return None, grad * MulScalar.apply(result, float(np.log(ctx.base)))


class RemainderScalar(_Op):
    """z = a mod c for a number c (sign of c, as Python's %);  ∂z/∂a = 1."""

    node_name = "RemainderBackward0"
    formula = ("grad",)

    @staticmethod
    def forward(ctx, a, c):
        c = as_tensor_operand(c, a)
        _check_remainder(a, c)
        return _binary(np.remainder, a, c)

    @staticmethod
    def backward(ctx, grad):
        return grad, None


class Remainder(_Op):
    """z = a mod b (sign of b, as Python's %);  ∂z/∂a = 1,  ∂z/∂b = -floor(a/b)."""

    node_name = "RemainderBackward1"
    saved_names = ("self", "other")
    formula = ("grad", "-grad * floor(self / other)")
    pack_order = (1, 0)  # the order PyTorch packs them in (saved_tensors_hooks)

    @staticmethod
    def forward(ctx, a, b):
        _check_remainder(a, b)
        ctx.save_for_backward(a, b)
        ctx.shapes = shapes_of(a, b)
        return _binary(np.remainder, a, b)

    @staticmethod
    def backward(ctx, grad):
        need_a, need_b = ctx.needs_input_grad
        a, b = ctx.saved_tensors
        shape_a, shape_b = ctx.shapes
        return (sum_to(grad, shape_a) if need_a else None,
                sum_to(-grad * _floor_quotient(a, b), shape_b) if need_b else None)


def _floor_quotient(a, b):
    """floor(a / b), differentiable with a zero gradient, as PyTorch's formula writes it
    (``self.div(other, rounding_mode="floor")``): under ``create_graph=True`` the gradient of
    ``b`` requires grad as in PyTorch."""
    return DivRounding.apply(a, b, "floor")


@quiet  # x // 0. = ±inf and 0. // 0. = nan, silently, as in PyTorch
def _rounded_quotient(a, b, rounding_mode):
    """a / b rounded toward -∞ (``floor``) or toward 0 (``trunc``), in PyTorch's result dtype."""
    data_a, data_b, dtype = cast_numbers(a, b)
    kind = (dtype or data_a.dtype).kind
    if kind == "b":
        raise NotImplementedError(f'"div_{rounding_mode}_cpu" not implemented for \'Bool\'')
    _check_zero_division(a, b, data_b, kind)
    if rounding_mode == "floor":
        return _binary(np.floor_divide, a, b)
    if kind in "iu":  # |a| // |b| with the sign of a·b, exact for int64
        data_a, data_b = data_a.astype(dtype or data_a.dtype), data_b.astype(dtype or data_a.dtype)
        out = np.floor_divide(np.abs(data_a), np.abs(data_b)) * np.sign(data_a) * np.sign(data_b)
        return out.astype(dtype or data_a.dtype)
    return np.trunc(_binary(np.true_divide, a, b, float_result=True))


class DivRounding(_Op):
    """z = a / b rounded (``floor`` or ``trunc``);  ∂z/∂a = ∂z/∂b = 0 (PyTorch's zeros)."""

    node_name = "DivBackward2"
    formula = ("0 * grad", "0 * grad")

    @staticmethod
    def forward(ctx, a, b, rounding_mode):
        ctx.inputs = (a._data.shape, a._data.dtype), (b._data.shape, b._data.dtype)
        return _rounded_quotient(a, b, rounding_mode)

    @staticmethod
    def backward(ctx, grad):
        # NB: constant zeros (PyTorch's do not require grad under create_graph either)
        return tuple(Tensor._make(np.zeros(shape, dtype)) if need else None
                     for need, (shape, dtype) in zip(ctx.needs_input_grad, ctx.inputs)) + (None,)


class FloorDivide(_Op):
    """z = ⌊a / b⌋ (Python's ``//``). PyTorch defines no derivative: its node raises."""

    node_name = "NotImplemented"
    aten_name = "floor_divide"

    @staticmethod
    def forward(ctx, a, b):
        return _rounded_quotient(a, b, "floor")

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError(f"derivative for aten::{ctx._forward_cls.aten_name} is not "
                           "implemented")


class FloorDivideInplace(FloorDivide):
    """``a //= b``: as ``FloorDivide``, with the name of PyTorch's in-place op in the error."""

    node_name = "NotImplemented"
    aten_name = "floor_divide_"


# PyTorch's NotImplemented node is written by hand: its name() is qualified.
FloorDivide._backward_cls.name = FloorDivideInplace._backward_cls.name = qualified_node_name


def floor_divide(a, b):
    """``a // b``: the quotient rounded toward -∞ (in the dtype of ``a / b`` without the
    promotion of integers to float). Like PyTorch, not differentiable: a result of inputs that
    require grad has a ``NotImplemented`` node whose backward raises.

    Example:
        >>> minigrad.floor_divide(minigrad.tensor([7.0, -7.0]), 2)
        tensor([ 3., -4.])
    """
    return FloorDivide.apply(a, as_tensor_operand(b, a))


def rfloor_divide(a, c):
    """``c // a`` for a number ``c``."""
    return FloorDivide.apply(as_tensor_operand(c, a), a)


class RemainderNumberSelf(FloorDivide):
    """z = c mod b for a number c (``minigrad.remainder(2, x)``). PyTorch defines no derivative
    for this form: its node raises."""

    node_name = "NotImplemented"
    aten_name = "remainder"

    @staticmethod
    def forward(ctx, c, b):
        _check_remainder(c, b)
        return _binary(np.remainder, c, b)


RemainderNumberSelf._backward_cls.name = qualified_node_name


def remainder(a, b):
    if not isinstance(a, Tensor):  # minigrad.remainder(2, x): PyTorch's Scalar-self form
        if not isinstance(b, Tensor):
            raise TypeError(f"remainder() received an invalid combination of arguments - got "
                            f"({type_name(a)}, {type_name(b)}), but expected one of:\n"
                            " * (Tensor input, Tensor other, *, Tensor out = None)\n"
                            " * (Number self, Tensor other)\n"
                            " * (Tensor input, Number other, *, Tensor out = None)\n")
        a = as_input("remainder", a)
        if isinstance(b, Tensor):
            return RemainderNumberSelf.apply(a, b)
    if isinstance(b, (bool, int, float, np.number, np.bool_)):
        return RemainderScalar.apply(a, b)
    return Remainder.apply(a, _operand(b, a, "remainder"))


def _check_alpha(a, b, alpha):
    if isinstance(alpha, float) and a._data.dtype.kind in "biu" and b._data.dtype.kind in "biu":
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating "
                           "point number.")


def add(a, b, alpha=1):
    if not isinstance(a, Tensor):
        a = as_input("add", a)
    b = _operand(b, a, "add")
    if alpha == 1:
        return Add.apply(a, b)
    _check_alpha(a, b, alpha)
    return Add.apply(a, b, alpha)


def sub(a, b, alpha=1):
    if not isinstance(a, Tensor):
        a = as_input("sub", a)
    b = _operand(b, a, "sub")
    if alpha == 1:
        return Sub.apply(a, b)
    _check_sub(a, b)  # (before alpha's check)
    _check_alpha(a, b, alpha)
    return Sub.apply(a, b, alpha)


def rsub(a, c):
    """``c - a`` for a number ``c``."""
    return Rsub.apply(a, c)


def mul(a, b):
    if not isinstance(a, Tensor):
        a = as_input("mul", a)
    return Mul.apply(a, _operand(b, a, "mul"))


def div(a, b, *, rounding_mode=None):
    if not isinstance(a, Tensor):
        a = as_input("div", a)
    if rounding_mode is None:
        return Div.apply(a, _operand(b, a, "div"))
    if rounding_mode not in ("floor", "trunc"):
        raise RuntimeError("div expected rounding_mode to be one of None, 'trunc', or 'floor' "
                           f"but found '{rounding_mode}'")
    return DivRounding.apply(a, as_tensor_operand(b, a), rounding_mode)


def neg(a):
    return Neg.apply(a)


def reciprocal(a):
    return Reciprocal.apply(a)


_POW_FORMS = ("Tensor input, Tensor exponent, *, Tensor out = None",
              "Scalar self, Tensor exponent, *, Tensor out = None",
              "Tensor input, Number exponent, *, Tensor out = None")


def pow(a, exponent):  # noqa: A001 - PyTorch's name
    check_overloads("pow", (a, exponent), _POW_FORMS)
    if not isinstance(a, Tensor) and isinstance(exponent, Tensor):  # minigrad.pow(2, x)
        return rpow(exponent, a)
    if isinstance(exponent, Tensor):
        return PowTensor.apply(a, exponent)
    return Pow.apply(a, exponent)


def rpow(a, base):
    """``base ** a`` for a number ``base``."""
    return PowScalarBase.apply(base, a)
