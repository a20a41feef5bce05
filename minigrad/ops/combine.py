"""Ops that combine tensors: ``cat``, ``stack``, ``where`` and ``masked_fill``."""

import numpy as np

from minigrad._dtype import check_scalar, cpp_name, to_dtype
from minigrad.autograd.function import _Op
from minigrad.ops._util import (
    as_tensor_operand,
    check_overloads,
    normalize_dim,
    result_dtype,
    sum_to,
)
from minigrad.ops.indexing import Select, Slice, masked_select
from minigrad.tensor import Tensor

__all__ = ["Cat", "Stack", "Where", "MaskedFill", "MaskedFillTensor", "cat", "concat",
           "concatenate", "stack", "where", "masked_fill", "check_mask"]

def _tensors(tensors, op):
    if isinstance(tensors, Tensor) or not isinstance(tensors, (list, tuple)):
        raise TypeError(f"{op}(): argument 'tensors' (position 1) must be tuple of Tensors, "
                        f"not {type(tensors).__name__}")
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got "
                            f"{type(t).__name__}")
    return tuple(tensors)


def _grad_as(grad, dtype):
    """A gradient in its input's dtype (the op may have promoted the inputs)."""
    return grad if grad._data.dtype == dtype else grad.to(to_dtype(dtype))


class Cat(_Op):
    """y = [x₀, x₁, …] joined along ``dim``;  ∂y/∂xᵢ = the slice of grad where xᵢ went."""

    node_name = "CatBackward0"
    formula = ("split(grad, pieces, dim)[i]",)

    @staticmethod
    def forward(ctx, dim, *tensors):
        for i, t in enumerate(tensors):
            if t.ndim == 0:
                raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be "
                                   "concatenated")
        dtype = result_dtype(*tensors)
        # NB: like PyTorch, 1-D empty tensors are skipped whatever the others' shapes are.
        parts = [t for t in tensors if t.shape != (0,)]
        if not parts:  # only legacy empty tensors: no dim to check
            ctx.dim, ctx.pieces = 0, [(True, t.shape, t._data.dtype) for t in tensors]
            return np.zeros((0,), dtype)
        ctx.dim = dim = normalize_dim(dim, parts[0].ndim)
        _check_cat(parts, dim)
        ctx.pieces = [(t.shape != (0,) or len(parts) == 1 and t is parts[0], t.shape,
                       t._data.dtype) for t in tensors]
        return np.concatenate([t._data.astype(dtype, copy=False) for t in parts], axis=dim)

    @staticmethod
    def backward(ctx, grad):
        grads, start, lead = [None], 0, (slice(None),) * ctx.dim
        for need, (used, shape, dtype) in zip(ctx.needs_input_grad[1:], ctx.pieces):
            if not used:
                piece = None
            else:
                stop = start + shape[ctx.dim]
                piece = Slice.apply(grad, lead + (slice(start, stop), Ellipsis)) if need else None
                start = stop
            if need and piece is None:
                from minigrad.factories import zeros
                piece = zeros(shape, dtype=to_dtype(dtype))
            grads.append(_grad_as(piece, dtype) if need else None)
        return tuple(grads)


def _check_cat(parts, dim):
    first = parts[0]
    for i, t in enumerate(parts):
        if t.ndim == 0:
            raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be "
                               "concatenated")
        if t.ndim != first.ndim:
            raise RuntimeError(f"Tensors must have same number of dimensions: got {first.ndim} "
                               f"and {t.ndim}")
        for d, (a, b) in enumerate(zip(first.shape, t.shape)):
            if d != dim and a != b:
                raise RuntimeError(f"Sizes of tensors must match except in dimension {dim}. "
                                   f"Expected size {a} but got size {b} for tensor number {i} "
                                   "in the list.")


class Stack(_Op):
    """y = [x₀, x₁, …] stacked along a new dimension ``dim``;  ∂y/∂xᵢ = grad selected at i."""

    node_name = "StackBackward0"
    formula = ("unbind(grad, dim)[i]",)

    @staticmethod
    def forward(ctx, dim, *tensors):
        first = tensors[0]
        ctx.dim = dim = normalize_dim(dim, first.ndim + 1)  # PyTorch checks dim before shapes
        for i, t in enumerate(tensors):
            if t.shape != first.shape:
                raise RuntimeError(f"stack expects each tensor to be equal size, but got "
                                   f"{list(first.shape)} at entry 0 and {list(t.shape)} at "
                                   f"entry {i}")
        ctx.dtypes = [t._data.dtype for t in tensors]
        dtype = result_dtype(*tensors)
        return np.stack([t._data.astype(dtype, copy=False) for t in tensors], axis=dim)

    @staticmethod
    def backward(ctx, grad):
        lead = (slice(None),) * ctx.dim
        return (None,) + tuple(
            _grad_as(Select.apply(grad, lead + (i, Ellipsis)), dtype) if need else None
            for i, (need, dtype) in enumerate(zip(ctx.needs_input_grad[1:], ctx.dtypes)))


class Where(_Op):
    """y = a where cond else b;  ∂y/∂a = grad where cond (else 0),  ∂y/∂b = grad where not."""

    node_name = "WhereBackward0"
    saved_names = ("condition",)
    formula = (
        "where(condition, grad, 0)",
        "where(condition, 0, grad)",
    )

    @staticmethod
    def forward(ctx, a, b, condition):
        cond = Tensor._make(condition)
        ctx.shapes = (a.shape, b.shape)
        ctx.dtypes = (a._data.dtype, b._data.dtype)
        dtype = result_dtype(a, b)
        _broadcast_shape(cond, a, b)
        ctx.save_for_backward(cond)
        return np.where(condition, a._data, b._data).astype(dtype, copy=False)

    @staticmethod
    def backward(ctx, grad):
        need_a, need_b = ctx.needs_input_grad[:2]
        (cond,) = ctx.saved_tensors
        grad_a = grad_b = None
        if need_a:
            grad_a = _grad_as(sum_to(where(cond, grad, 0.0), ctx.shapes[0]), ctx.dtypes[0])
        if need_b:
            grad_b = _grad_as(sum_to(where(cond, 0.0, grad), ctx.shapes[1]), ctx.dtypes[1])
        return grad_a, grad_b, None


def _broadcast_shape(*tensors):
    from minigrad.ops.arithmetic import broadcast_error
    shape = ()
    for i, t in enumerate(tensors):
        own = t._data.shape
        if own == shape or not own:  # (the common cases, without NumPy's slower check)
            continue
        if not shape:
            shape = own
            continue
        try:
            shape = np.broadcast_shapes(shape, own)
        except ValueError:
            other = next(u for u in tensors[:i] if _clash(u.shape, t.shape))
            raise broadcast_error(other, t) from None
    return shape


def _clash(a, b):
    try:
        np.broadcast_shapes(a, b)
        return False
    except ValueError:
        return True


class MaskedFill(_Op):
    """y = value where mask else x;  ∂y/∂x = grad where not mask (else 0)."""

    node_name = "MaskedFillBackward0"
    formula = ("where(mask, 0, grad)",)

    @staticmethod
    def forward(ctx, x, mask, value):
        ctx.mask, ctx.self_sym_sizes = Tensor._make(mask), tuple(x.shape)
        _broadcast_shape(ctx.mask, x)  # PyTorch names the mask a
        value = np.asarray(value).astype(x._data.dtype)
        return np.where(mask, value, x._data)  # (np.where broadcasts them)

    @staticmethod
    def backward(ctx, grad):
        return sum_to(masked_fill(grad, ctx.mask, 0.0), ctx.self_sym_sizes), None, None


class MaskedFillTensor(_Op):
    """y = v where mask else x, for a 0-d tensor v;  ∂y/∂x = grad where not mask,
    ∂y/∂v = Σ grad where mask."""

    node_name = "MaskedFillBackward1"
    formula = ("where(mask, 0, grad)", "sum(where(mask, grad, 0))")

    @staticmethod
    def forward(ctx, x, mask, value):
        ctx.mask, ctx.self_sym_sizes = Tensor._make(mask), tuple(x.shape)
        ctx.value_dtype = value._data.dtype
        shape = _broadcast_shape(ctx.mask, x)  # PyTorch names the mask a
        data = value._data.astype(x._data.dtype)
        return np.where(mask, data, np.broadcast_to(x._data, shape))

    @staticmethod
    def backward(ctx, grad):
        need_x, need_value = ctx.needs_input_grad[0], ctx.needs_input_grad[2]
        grad_x = grad_value = None
        if need_x:
            grad_x = sum_to(masked_fill(grad, ctx.mask, 0.0), ctx.self_sym_sizes)
        if need_value:  # (PyTorch's masked_fill_backward: grad.masked_select(mask).sum())
            grad_value = _grad_as(masked_select(grad, ctx.mask).sum(), ctx.value_dtype)
        return grad_x, None, grad_value


# ---------------------------------------------------------------- function forms
def cat(tensors, dim=0):
    """Join tensors along an existing dimension ``dim``."""
    tensors = _tensors(tensors, "cat")
    if not tensors:
        raise ValueError("minigrad.cat(): expected a non-empty list of Tensors")
    return Cat.apply(dim, *tensors)


concat = concatenate = cat


def stack(tensors, dim=0):
    """Join tensors of one shape along a new dimension ``dim``."""
    tensors = _tensors(tensors, "stack")
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    return Stack.apply(dim, *tensors)


_WHERE_FORMS = ("Tensor condition",
                "Tensor condition, Tensor input, Tensor other, *, Tensor out = None",
                "Tensor condition, Number self, Tensor other",
                "Tensor condition, Tensor input, Number other",
                "Tensor condition, Number self, Number other")


def where(condition, input=None, other=None):  # noqa: A002 - PyTorch's names
    """Elementwise ``input if condition else other``; ``where(condition)`` gives the indices
    of the True elements, one tensor per dimension."""
    if input is None and other is None:
        return tuple(Tensor._make(i.astype(np.int64)) for i in np.nonzero(condition._data))
    if not isinstance(condition, Tensor):
        if input is not None or other is not None:
            check_overloads("where", (condition, input, other), _WHERE_FORMS, tensor_first=True)
        raise TypeError(f"where(): argument 'condition' (position 1) must be Tensor, not "
                        f"{type(condition).__name__}")
    check_overloads("where", (condition, input, other), _WHERE_FORMS)
    if condition._data.dtype == np.uint8:  # NB: PyTorch also warns that this is deprecated
        condition = Tensor._make(condition._data.astype(bool))
    if condition._data.dtype != np.bool_:
        raise RuntimeError("where expected condition to be a boolean tensor, but got a tensor "
                           f"with dtype {condition.dtype.tensor_type[:-6]}")
    if isinstance(input, Tensor):
        other = as_tensor_operand(other, input)
    elif isinstance(other, Tensor):
        input = as_tensor_operand(input, other)
    else:
        input, other = as_tensor_operand(input, condition), as_tensor_operand(other, condition)
    return Where.apply(input, other, condition._data)


def check_mask(mask):
    """A mask of ``masked_fill`` must be a bool tensor."""
    if mask._data.dtype != np.bool_:
        raise RuntimeError("masked_fill_ only supports boolean masks, but got mask with dtype "
                           f"{cpp_name(mask.dtype)}")


def masked_fill(x, mask, value):
    """``value`` where ``mask`` is True, else x (``value`` a number or a 0-d tensor)."""
    _broadcast_shape(mask, x)  # PyTorch checks the shapes first
    check_mask(mask)
    if isinstance(value, Tensor):
        if value.ndim != 0:
            raise RuntimeError("masked_fill_ only supports a 0-dimensional value tensor, but "
                               f"got tensor with {value.ndim} dimension(s).")
        return MaskedFillTensor.apply(x, mask._data, value)
    return MaskedFill.apply(x, mask._data, check_scalar(value, x.dtype))
