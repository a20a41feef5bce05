"""Pointwise ops of three tensors: ``lerp`` (a linear interpolation), ``addcmul`` and
``addcdiv`` (x + value·a·b and x + value·a/b, the steps of Adam-like optimizers). Their
operands broadcast together; each backward sums its gradients back to the operands' shapes."""

import numbers

import numpy as np

from minigrad import _dtype
from minigrad.autograd.function import _Op
from minigrad.ops._util import check_tensor_arg, result_dtype, sum_to, type_name
from minigrad.ops.arithmetic import MulScalar, broadcast_error, div, sub
from minigrad.tensor import Tensor

__all__ = ["Lerp", "LerpTensor", "Addcmul", "Addcdiv", "lerp", "addcmul", "addcdiv"]


def _shapes(*tensors):
    """The operands' shapes, after checking that they broadcast (PyTorch's error for the
    first pair that does not)."""
    for i, a in enumerate(tensors):
        for b in tensors[i + 1:]:
            try:
                np.broadcast_shapes(a.shape, b.shape)
            except ValueError:
                raise broadcast_error(a, b) from None
    return tuple(tuple(t.shape) for t in tensors)


def _interpolate(start, end, weight):
    """start + weight·(end - start), from the nearer end (PyTorch's rounding)."""
    small = np.abs(weight) < 0.5
    return np.where(small, start + weight * (end - start), end - (end - start) * (1 - weight))


class Lerp(_Op):
    """z = a + w·(b - a) for a number w;  ∂z/∂a = 1 - w,  ∂z/∂b = w."""

    node_name = "LerpBackward0"
    formula = ("grad * (1 - weight)", "grad * weight")

    @staticmethod
    def forward(ctx, start, end, weight):
        ctx.weight, ctx.shapes = weight, _shapes(start, end)
        data = start._data
        return np.asarray(_interpolate(data, end._data, np.asarray(weight, data.dtype)))

    @staticmethod
    def backward(ctx, grad):
        w = ctx.weight
        shape_start, shape_end = ctx.shapes
        return (sum_to(MulScalar.apply(grad, 1 - w), shape_start),
                sum_to(MulScalar.apply(grad, w), shape_end), None)


class LerpTensor(_Op):
    """z = a + w·(b - a) for a tensor w;  ∂z/∂a = 1 - w,  ∂z/∂b = w,  ∂z/∂w = b - a."""

    node_name = "LerpBackward1"
    saved_names = ("self", "end", "weight")
    formula = ("grad * (1 - weight)", "grad * weight", "grad * (end - self)")

    @staticmethod
    def forward(ctx, start, end, weight):
        ctx.save_for_backward(start, end, weight)
        ctx.shapes = _shapes(start, end, weight)
        data = start._data
        return np.asarray(_interpolate(data, end._data, weight._data.astype(data.dtype)))

    @staticmethod
    def backward(ctx, grad):
        start, end, weight = ctx.saved_tensors
        need_start, need_end, need_weight = ctx.needs_input_grad
        shape_start, shape_end, shape_weight = ctx.shapes
        return (sum_to(grad * sub(1, weight), shape_start) if need_start else None,
                sum_to(grad * weight, shape_end) if need_end else None,
                sum_to(grad * (end - start), shape_weight) if need_weight else None)


def _with_value(x, a, b, value):
    """The three arrays in their promoted dtype, and ``value`` as a number of it."""
    dtype = result_dtype(x, a, b)
    value = np.asarray(value).astype(dtype) if dtype.kind != "b" else np.asarray(bool(value))
    return x._data.astype(dtype), a._data.astype(dtype), b._data.astype(dtype), value


class Addcmul(_Op):
    """z = x + v·a·b;  ∂z/∂x = 1,  ∂z/∂a = v·b,  ∂z/∂b = v·a."""

    node_name = "AddcmulBackward0"
    saved_names = ("tensor1", "tensor2")
    formula = ("grad", "grad * (tensor2 * value)", "grad * (tensor1 * value)")

    @staticmethod
    def forward(ctx, x, a, b, value):
        need_a, need_b = ctx.needs_input_grad[1:3]
        ctx.save_for_backward(a if need_b else None, b if need_a else None)
        ctx.value, ctx.shapes = value, _shapes(x, a, b)
        x, a, b, value = _with_value(x, a, b, value)
        return np.asarray(x + value * a * b)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        shape_x, shape_a, shape_b = ctx.shapes
        return (sum_to(grad, shape_x),
                None if b is None else sum_to(grad * MulScalar.apply(b, ctx.value), shape_a),
                None if a is None else sum_to(grad * MulScalar.apply(a, ctx.value), shape_b),
                None)


class Addcdiv(_Op):
    """z = x + v·a/b;  ∂z/∂x = 1,  ∂z/∂a = v/b,  ∂z/∂b = -v·a/b²."""

    node_name = "AddcdivBackward0"
    saved_names = ("tensor1", "tensor2")
    formula = ("grad", "grad * (value / tensor2)",
               "-grad * (value * tensor1 / (tensor2 * tensor2))")

    @staticmethod
    def forward(ctx, x, a, b, value):
        need_a, need_b = ctx.needs_input_grad[1:3]
        ctx.save_for_backward(a if need_b else None, b)
        ctx.value, ctx.shapes = value, _shapes(x, a, b)
        x, a, b, value = _with_value(x, a, b, value)
        return np.asarray(x + value * a / b)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad[1:3]
        shape_x, shape_a, shape_b = ctx.shapes
        value = ctx.value
        grad_b = None
        if need_b:
            grad_b = sum_to(-grad * (MulScalar.apply(a, value) / (b * b)), shape_b)
        return (sum_to(grad, shape_x),
                sum_to(grad * div(value, b), shape_a) if need_a else None, grad_b, None)


def _check_same_dtype(x, other, name):
    if other._data.dtype != x._data.dtype:
        raise RuntimeError(f"expected dtype {_dtype.cpp_name(x.dtype)} for `{name}` but got "
                           f"dtype {_dtype.cpp_name(other.dtype)}")


def lerp(x, end, weight):
    """x + weight·(end - x): ``weight`` a number or a tensor (broadcast with both).

    Example:
        >>> minigrad.lerp(minigrad.tensor([0.0, 10.0]), minigrad.tensor([1.0, 20.0]), 0.25)
        tensor([ 0.2500, 12.5000])
    """
    if not isinstance(x, Tensor) or not isinstance(end, Tensor) or not isinstance(
            weight, (Tensor, numbers.Number)):
        got = ", ".join("Tensor" if isinstance(a, Tensor) else type_name(a)
                        for a in (x, end, weight))
        raise TypeError(f"lerp() received an invalid combination of arguments - got ({got}), "
                        "but expected one of:\n"
                        " * (Tensor input, Tensor end, Tensor weight, *, Tensor out = None)\n"
                        " * (Tensor input, Tensor end, Number weight, *, Tensor out = None)\n")
    _check_same_dtype(x, end, "end")
    tensor_weight = isinstance(weight, Tensor)
    if tensor_weight and weight.ndim:
        _check_same_dtype(x, weight, "weight")
    if x._data.dtype.kind != "f":
        kernel = "lerp_kernel_tensor" if tensor_weight else "lerp_kernel_scalar"
        raise _dtype.not_implemented(kernel, x.dtype)
    if tensor_weight:
        return LerpTensor.apply(x, end, weight)
    return Lerp.apply(x, end, float(weight))


def _check_operands(op, x, a, b):
    for name, value, position in (("input", x, 1), ("tensor1", a, 2), ("tensor2", b, 3)):
        check_tensor_arg(op, name, value, position)


def addcmul(x, tensor1, tensor2, *, value=1):
    """x + value·tensor1·tensor2, elementwise (the three broadcast together).

    Example:
        >>> minigrad.addcmul(minigrad.ones(2), minigrad.tensor([1.0, 2.0]),
        ...                  minigrad.tensor([3.0, 4.0]), value=0.5)
        tensor([2.5000, 5.0000])
    """
    _check_operands("addcmul", x, tensor1, tensor2)
    return Addcmul.apply(x, tensor1, tensor2, value)


def addcdiv(x, tensor1, tensor2, *, value=1):
    """x + value·tensor1/tensor2, elementwise (the three broadcast together; floats only).

    Example:
        >>> minigrad.addcdiv(minigrad.zeros(2), minigrad.tensor([1.0, 2.0]),
        ...                  minigrad.tensor([4.0, 4.0]), value=2)
        tensor([0.5000, 1.0000])
    """
    _check_operands("addcdiv", x, tensor1, tensor2)
    if tensor1._data.dtype.kind in "biu" and tensor2._data.dtype.kind in "biu":
        raise RuntimeError(
            "Integer division with addcdiv is no longer supported, and in a future  release "
            "addcdiv will perform a true division of tensor1 and tensor2. The historic addcdiv "
            "behavior can be implemented as (input + value * torch.trunc(tensor1 / tensor2))"
            ".to(input.dtype) for integer inputs and as (input + value * tensor1 / tensor2) "
            "for float inputs. The future addcdiv behavior is just the latter implementation: "
            "(input + value * tensor1 / tensor2), for all dtypes.")
    return Addcdiv.apply(x, tensor1, tensor2, value)
