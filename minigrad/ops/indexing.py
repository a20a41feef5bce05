"""Indexing: ``x[index]`` and ``x[index] = value`` with PyTorch's nodes and errors.

``x[index]`` is taken apart as PyTorch does: each integer is a ``select`` (SelectBackward0), each
slice a ``slice`` (SliceBackward0), each None an ``unsqueeze``, all in order from the left; the
integer arrays, lists, integer tensors and boolean masks that remain are then applied at once
(IndexBackward0). So ``x[0, 1:]`` is a SliceBackward0 on a SelectBackward0, and
``x[0, :, [0, 1]]`` has shape ``(3, 2)`` for ``x`` of shape ``(2, 3, 4)`` — NB: NumPy would give
``(2, 3)``, because it treats the integer as an array index.

A gather (select, slice, index) and the scatter that is its backward are a pair of ops, each the
other's derivative, so that gradients of gradients work. Repeated indices accumulate.
"""

import math
import numbers

import numpy as np

from minigrad._dtype import check_scalar, scalar_name
from minigrad.autograd.function import _Op
from minigrad.ops import shape as shape_ops
from minigrad.ops._util import (
    as_tensor_operand,
    normalize_dim,
    qualified_node_name,
    sum_to,
    type_name,
    zero_grad,
)
from minigrad.tensor import MISSING, Tensor

__all__ = ["Select", "Slice", "Index", "IndexSelect", "Alias", "SelectBackward", "SliceBackward",
           "IndexBackward", "IndexAdd", "ScatterAdd", "Scatter", "IndexPut", "CopySlices",
           "CopyWhole", "FillWhole", "getitem", "setitem", "select", "narrow", "index_select",
           "Gather", "gather", "MaskedSelect", "MaskedScatter", "masked_select"]

BAD_INDEX = ("only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are "
             "valid indices (got {})")
BAD_INDEX_TENSOR = "tensors used as indices must be long, int, byte or bool tensors"
PARTIAL_OVERLAP = ("unsupported operation: some elements of the input tensor and the written-to "
                   "tensor refer to a single memory location. Please clone() the tensor before "
                   "performing the operation.")
OVERLAPPING = ("unsupported operation: more than one element of the written-to tensor refers to "
               "a single memory location. Please clone() the tensor before performing the "
               "operation.")
ZERO_DIM = ("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
            "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")


# ---------------------------------------------------------------- gathers and scatters
class _Gather(_Op):
    """y = x[index] for a NumPy ``index``;  ∂y/∂x = grad scattered back (``scatter``)."""

    formula = ("put(grad, index, self_sym_sizes)",)
    scatter = None  # the op that puts a gradient back in place

    @staticmethod
    def forward(ctx, x, index):
        ctx.self_sym_sizes, ctx.index = tuple(x.shape), index
        out = x._data[index]
        return out if isinstance(out, np.ndarray) else np.asarray(out)

    @staticmethod
    def backward(ctx, grad):
        return ctx._forward_cls.scatter.apply(grad, ctx.self_sym_sizes, ctx.index), None


class _Scatter(_Op):
    """y = zeros(shape) with g added at ``index`` (repeats accumulate);  ∂y/∂g = grad[index]."""

    formula = ("grad[index]",)
    gather = None

    @staticmethod
    def forward(ctx, g, shape, index):
        ctx.index = index
        out = np.zeros(shape, dtype=g._data.dtype)
        if any(isinstance(i, np.ndarray) for i in index):
            np.add.at(out, index, g._data)
        else:
            out[index] = g._data
        return out

    @staticmethod
    def backward(ctx, grad):
        return ctx._forward_cls.gather.apply(grad, ctx.index), None, None


class Select(_Gather):
    """y = x[..., i, ...] at one dimension;  ∂y/∂x = grad put back at i, zeros elsewhere."""

    node_name = "SelectBackward0"
    is_view = True


class Slice(_Gather):
    """y = x[..., a:b:s, ...] at one dimension;  ∂y/∂x = grad put back in the slice."""

    node_name = "SliceBackward0"
    is_view = True


class Index(_Gather):
    """y = x[i₀, i₁, …] with integer arrays;  ∂y/∂x = grad added back at the indices."""

    node_name = "IndexBackward0"

    @staticmethod
    def forward(ctx, x, index):
        ctx.self_sym_sizes, ctx.index = tuple(x.shape), index
        # a fresh row-major tensor, like PyTorch's (NB: not np.ascontiguousarray, which turns
        # a 0-d result into shape [1])
        return np.asarray(x._data[index], order="C")


class IndexSelect(Index):
    """y = x[..., i, ...] for a vector i at one dimension;  ∂y/∂x = grad added back at i."""

    node_name = "IndexSelectBackward0"


class SelectBackward(_Scatter):
    """y = zeros with g at one index;  ∂y/∂g = grad at that index."""

    node_name = "SelectBackwardBackward0"


class SliceBackward(_Scatter):
    """y = zeros with g in a slice;  ∂y/∂g = grad's slice."""

    node_name = "SliceBackwardBackward0"


class IndexBackward(_Scatter):
    """y = zeros with g added at integer indices;  ∂y/∂g = grad at the indices."""

    node_name = "IndexPutImplBackward0"


class IndexAdd(_Scatter):
    """y = zeros with g added at a vector of indices along one dimension (PyTorch's
    ``index_add``, the backward of ``index_select``);  ∂y/∂g = grad at those indices."""

    node_name = "IndexAddBackward0"


class ScatterAdd(_Scatter):
    """y = zeros with g added at ``index`` along one dimension (PyTorch's ``scatter_add``, the
    backward of ``gather``);  ∂y/∂g = grad gathered there."""

    node_name = "ScatterAddBackward0"


class Scatter(_Scatter):
    """y = zeros with g written at ``index`` along one dimension, one element per place
    (PyTorch's ``scatter``, the backward of ``max(dim)``);  ∂y/∂g = grad gathered there."""

    node_name = "ScatterBackward0"


class MaskedSelect(_Gather):
    """y = the elements of x where a mask is True, as a vector;  ∂y/∂x = grad put back there
    (zeros elsewhere)."""

    node_name = "MaskedSelectBackward0"


class MaskedScatter(_Scatter):
    """y = zeros with g written where a mask is True (PyTorch's ``masked_scatter``, the backward
    of ``masked_select``);  ∂y/∂g = grad where the mask is True."""

    node_name = "MaskedScatterBackward0"


class Gather(Index):
    """y[i][j] = x[i][index[i][j]] (along ``dim``);  ∂y/∂x = grad added back at those places."""

    node_name = "GatherBackward0"


class GatherRepeat(Gather):
    """``gather`` from a 0-d x (its one element, repeated) or with an empty index (nothing):
    y = x at every place;  ∂y/∂x = Σ grad (zeros of x's shape when nothing was picked)."""

    node_name = "GatherBackward0"
    formula = ("expand(sum(grad), self_sym_sizes)",)

    @staticmethod
    def forward(ctx, x, shape):
        ctx.self_sym_sizes = tuple(x.shape)
        if x._data.size == 0 or math.prod(shape) == 0:
            return np.zeros(shape, dtype=x._data.dtype)
        return np.full(shape, x._data.reshape(-1)[0])

    @staticmethod
    def backward(ctx, grad):
        return grad.sum().expand(ctx.self_sym_sizes), None


Select.scatter, SelectBackward.gather = SelectBackward, Select
Slice.scatter, SliceBackward.gather = SliceBackward, Slice
Index.scatter, IndexBackward.gather = IndexBackward, Index
Gather.scatter, ScatterAdd.gather, Scatter.gather = ScatterAdd, Gather, Gather
IndexSelect.scatter, IndexAdd.gather = IndexAdd, IndexSelect
MaskedSelect.scatter, MaskedScatter.gather = MaskedScatter, MaskedSelect


class Alias(_Op):
    """y = x, a new tensor on the same memory (``x[...]``);  ∂y/∂x = grad."""

    node_name = "AliasBackward0"
    formula = ("grad",)
    is_view = True

    @staticmethod
    def forward(ctx, x):
        return x._data[...]

    @staticmethod
    def backward(ctx, grad):
        return grad


# ---------------------------------------------------------------- parsing an index
class _Plan:
    """An index taken apart: basic steps applied left to right, then the array indices."""

    def __init__(self):
        self.steps = []      # ("select", dim, i) | ("slice", dim, slice) | ("unsqueeze", dim)
        self.arrays = {}     # dim of the stepped tensor -> int64 array (masks become several)
        self.checks = []     # the array indices' checks, when the caller makes them later

    def check_arrays(self, bounds=True):
        """Check the array indices (mask shapes, broadcasting; then bounds unless ``bounds`` is
        False): ``x[index] = v`` makes these checks late, as PyTorch's ``index_put_``."""
        now = [c for c in self.checks if bounds or c[0] is not _check_bounds]
        self.checks = [c for c in self.checks if c not in now]
        for check, args in now:
            check(*args)

    def indexed_shape(self):
        """The shape of the region the array indices pick (NumPy's rule: the indices'
        broadcast shape in place of their dims when those are adjacent, else in front)."""
        dims = sorted(self.arrays)
        picked = np.broadcast_shapes(*(self.arrays[d].shape for d in dims))
        shape = self.shape
        if dims == list(range(dims[0], dims[-1] + 1)):
            return tuple(shape[:dims[0]]) + picked + tuple(shape[dims[-1] + 1:])
        return picked + tuple(n for d, n in enumerate(shape) if d not in self.arrays)

    def array_index(self):
        last = max(self.arrays)
        return tuple(self.arrays.get(d, slice(None)) for d in range(last + 1))


def _is_int(item):
    """Python and NumPy integers and 0-d integer tensors select one position."""
    if isinstance(item, (bool, np.bool_)):
        return False
    if isinstance(item, (int, np.integer)):
        return True
    data = item._data if isinstance(item, Tensor) else item
    return isinstance(data, np.ndarray) and data.ndim == 0 and data.dtype.kind in "iu"


def _is_scalar_bool(item):
    data = item._data if isinstance(item, Tensor) else item
    return isinstance(data, (bool, np.bool_)) or (
        isinstance(data, np.ndarray) and data.ndim == 0 and data.dtype == bool)


def _as_index_array(item):
    """Lists, arrays and tensors as an int64 or bool array; anything else is an IndexError."""
    if not isinstance(item, (Tensor, np.ndarray, list, tuple)):
        raise IndexError(BAD_INDEX.format(type(item).__name__))
    data = item._data if isinstance(item, Tensor) else item
    try:
        array = np.asarray(data)
    except (ValueError, TypeError):
        raise IndexError(BAD_INDEX.format(type(item).__name__)) from None
    if isinstance(item, list) and array.size == 0:
        return array.astype(np.int64)
    if array.dtype.kind == "b" or (array.dtype == np.uint8 and isinstance(item, Tensor)):
        return array.astype(bool)
    if array.dtype.kind in "iu":
        return array.astype(np.int64)
    if isinstance(item, list):
        raise IndexError(BAD_INDEX.format(array.dtype.name))
    raise IndexError(BAD_INDEX_TENSOR)


def _consumed(item):
    """How many dimensions of x an index item uses up."""
    if item is None or item is Ellipsis or _is_scalar_bool(item):
        return 0
    if isinstance(item, slice) or _is_int(item):
        return 1
    array = _as_index_array(item)
    return array.ndim if array.dtype == bool else 1


def _zero_dim_message(items):
    """PyTorch's message for an index that a 0-d tensor cannot take."""
    used = [item for item in items if _consumed(item)]
    first = used[0]
    if len(used) == 1 and isinstance(first, int) and not isinstance(first, bool):
        return ZERO_DIM if first == 0 else (f"index {first} is out of bounds for dimension 0 "
                                            "with size 0")
    if len(used) == 1 and isinstance(first, slice):
        return "slice() cannot be applied to a 0-dim tensor."
    return "too many indices for tensor of dimension 0"


def _items(index):
    """The items of an index. As NumPy once did and PyTorch still does, a short list holding a
    sequence, tensor, slice, None or Ellipsis counts as a tuple: ``x[[[0, 1], [1, 0]]]`` is
    ``x[[0, 1], [1, 0]]``."""
    if isinstance(index, tuple):
        return index
    if isinstance(index, list) and len(index) < 32 and any(
            item is None or item is Ellipsis or isinstance(item, (slice, Tensor, list, tuple))
            for item in index):
        return tuple(index)
    return (index,)


def _plan(shape, index, whole_slice_is_step, defer_array_checks=False):
    """Take ``index`` apart for a tensor of ``shape``; check bounds with PyTorch's messages
    (those of array indices on ``plan.check_arrays()`` when ``defer_array_checks``)."""
    items = _items(index)
    used = sum(_consumed(item) for item in items)
    if used > len(shape):
        if not shape:
            raise IndexError(_zero_dim_message(items))
        raise IndexError(f"too many indices for tensor of dimension {len(shape)}")
    ellipsis_dims = len(shape) - used
    plan, shape = _Plan(), list(shape)
    dim = real = 0            # dim in the stepped tensor, dim in x (for messages)
    for item in items:
        if item is Ellipsis:
            dim, real, ellipsis_dims = dim + ellipsis_dims, real + ellipsis_dims, 0
        elif item is None or _is_scalar_bool(item):
            plan.steps.append(("unsqueeze", dim))
            shape.insert(dim, 1)
            if item is not None:   # x[True] is x[None][[0]], x[False] is x[None][[]]
                plan.arrays[dim] = np.arange(int(bool(item)), dtype=np.int64)
            dim += 1
        elif _is_int(item):
            i, size = int(item), shape[dim]
            if not -size <= i < size:
                raise IndexError(f"index {i} is out of bounds for dimension {real} with size "
                                 f"{size}")
            plan.steps.append(("select", dim, i % size))
            del shape[dim]
            real += 1
        elif isinstance(item, slice):
            _add_slice(plan, shape, dim, item, whole_slice_is_step)
            dim, real = dim + 1, real + 1
        else:
            array = _as_index_array(item)
            if array.dtype == bool:
                plan.checks.append((_check_mask, (array, list(shape), dim)))
                for k, indices in enumerate(np.nonzero(array)):
                    plan.arrays[dim + k] = indices
            else:
                plan.arrays[dim] = array
            n = array.ndim if array.dtype == bool else 1
            dim, real = dim + n, real + n
    plan.shape = shape
    if plan.arrays:
        plan.checks += [(_check_arrays, (plan, shape)), (_check_empty_dims, (plan, shape)),
                        (_check_bounds, (plan, shape))]
    if not defer_array_checks:
        plan.check_arrays()
    return plan


def _add_slice(plan, shape, dim, item, whole_slice_is_step):
    step = 1 if item.step is None else int(item.step)
    if step == 0:
        raise ValueError("slice step cannot be zero")
    if step < 0:
        raise ValueError("step must be greater than zero")
    # PyTorch skips a slice that keeps all: start 0 as given (not -n), stop at least the size
    whole = item.start in (None, 0) and (item.stop is None or item.stop >= shape[dim]) \
        and step == 1
    start, stop, step = item.indices(shape[dim])
    stop = max(stop, start)
    if whole_slice_is_step or not whole:  # as PyTorch: x[1:] of an empty x is still a slice
        plan.steps.append(("slice", dim, slice(start, stop, step)))
        shape[dim] = len(range(start, stop, step))


def _check_mask(mask, shape, dim):
    for k, n in enumerate(mask.shape):
        if n != shape[dim + k]:
            raise IndexError(f"The shape of the mask {list(mask.shape)} at index {k} does not "
                             f"match the shape of the indexed tensor {list(shape)} at index "
                             f"{dim + k}")


def _check_arrays(plan, shape):
    dims = sorted(plan.arrays)
    try:
        np.broadcast_shapes(*(plan.arrays[d].shape for d in dims))
    except ValueError:
        shapes = ", ".join(str(list(plan.arrays[d].shape)) for d in dims)
        raise IndexError("shape mismatch: indexing tensors could not be broadcast together "
                         f"with shapes {shapes}") from None


def _check_empty_dims(plan, shape):
    """An index into a dimension of size 0 (PyTorch finds it before the value's shape)."""
    for d, a in plan.arrays.items():
        if shape[d] == 0 and a.size:
            raise IndexError("index is out of bounds for dimension with size 0")


def _check_bounds(plan, shape):
    for k, d in enumerate(sorted(plan.arrays)):
        a, size = plan.arrays[d], shape[d]
        bad = (a < -size) | (a >= size)
        if bad.any() and size == 0:
            raise IndexError("index is out of bounds for dimension with size 0")
        if bad.any():
            raise IndexError(f"index {int(a[bad].flat[0])} is out of bounds for dimension {k} "
                             f"with size {size}")
        plan.arrays[d] = np.where(a < 0, a + size, a)


def _step_index(step):
    """The NumPy index of one select or slice step (a view, even of one element)."""
    return (slice(None),) * step[1] + (step[2], Ellipsis)


# ---------------------------------------------------------------- x[index]
def getitem(x, index):
    """``x[index]``: the chain of nodes PyTorch records for the same index."""
    plan = _plan(x.shape, index, whole_slice_is_step=isinstance(index, slice))
    out = x
    for step in plan.steps:
        if step[0] == "unsqueeze":
            out = shape_ops.unsqueeze(out, step[1])
        elif step[0] == "select":
            out = Select.apply(out, _step_index(step))
        else:
            out = Slice.apply(out, _step_index(step))
    if plan.arrays:
        out = Index.apply(out, plan.array_index())
    if out is x:
        out = Alias.apply(x)
    return out


def select(x, dim, index):
    """``x[..., index, ...]`` with ``index`` at dimension ``dim``."""
    if x.ndim == 0:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    dim = normalize_dim(dim, x.ndim)
    size = x.shape[dim]
    if not -size <= index < size:
        raise IndexError(f"select(): index {index} out of range for tensor of size "
                         f"{list(x.shape)} at dimension {dim}")
    return getitem(x, (slice(None),) * dim + (index,))


def narrow(x, dim, start, length):
    """``length`` elements from ``start`` along ``dim`` (a view)."""
    if x.ndim == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    dim = normalize_dim(dim, x.ndim)
    size = x.shape[dim]
    if not -size <= start <= size:
        raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], "
                         f"but got {start})")
    start = start + size if start < 0 else start
    if not 0 <= start <= start + length <= size:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size "
                           f"({x.shape[dim]}).")
    return Slice.apply(x, (slice(None),) * dim + (slice(start, start + length), Ellipsis))


def masked_select(x, mask):
    """The elements of ``x`` where the bool ``mask`` is True (the two broadcast), as a 1-D
    tensor in row-major order.

    Example:
        >>> x = minigrad.tensor([[1.0, -2.0], [-3.0, 4.0]])
        >>> minigrad.masked_select(x, x > 0)
        tensor([1., 4.])
    """
    if not isinstance(mask, Tensor) or mask._data.dtype != np.bool_:
        raise RuntimeError("masked_select: expected BoolTensor for mask")
    from minigrad.ops.combine import _broadcast_shape
    shape = tuple(_broadcast_shape(mask, x))
    if x.shape != shape:  # NB: PyTorch's node reads x unexpanded; here an expand comes first
        x = shape_ops.expand(x, shape)
    if not shape:  # a 0-d x and mask: one element or none
        x = shape_ops.reshape(x, (1,))
    return MaskedSelect.apply(x, np.nonzero(np.broadcast_to(mask._data, shape).reshape(x.shape)))


def index_select(x, dim, index):
    """The entries of the vector ``index`` along ``dim``; a 0-d ``x`` takes one index (0)."""
    dim = normalize_dim(dim, x.ndim)
    if isinstance(index, Tensor) and index._data.dtype.kind not in "iub":
        raise RuntimeError("index_select(): Expected dtype int32 or int64 for index")
    array = _as_index_array(index)
    if array.ndim > 1 or array.dtype == bool:
        raise IndexError("index_select(): Index is supposed to be a vector")
    array = array.reshape(-1)
    if x.ndim == 0 and array.size != 1:
        raise RuntimeError(f"index_select(): Index to scalar can have only 1 value, got "
                           f"{array.size} value(s)")
    if x.ndim > 1 and x.shape[dim] == 0 and array.size:
        raise RuntimeError("index_select(): self indexing axis dim should be positive")
    if ((array < 0) | (array >= (x.shape[dim] if x.ndim else 1))).any():
        raise IndexError("index out of range in self")  # NB: no negative indices either
    if x.ndim == 0:
        return IndexSelect.apply(x, ())  # a 0-d result
    return IndexSelect.apply(x, (slice(None),) * dim + (array,))


# ---------------------------------------------------------------- x[index] = value
def _region(data, plan):
    """The NumPy view of ``data`` that the basic steps of ``plan`` select."""
    for step in plan.steps:
        if step[0] == "unsqueeze":
            data = np.expand_dims(data, step[1])
        else:
            data = data[_step_index(step)]
    return data


class _SetItem(_Op):
    """y = x with ``value`` written at the index;  ∂y/∂x = grad zeroed there,
    ∂y/∂value = grad at the index (summed to value's shape)."""

    formula = ("where(mask, 0, grad)", "grad[index]")

    @staticmethod
    def forward(ctx, x, value, index, plan):
        ctx.index, ctx.value_shape, ctx.value_dtype = index, value.shape, value.dtype
        ctx.plan = plan
        out = x._data.copy()
        mask = np.zeros(x.shape, dtype=bool)
        target, hit = _region(out, plan), _region(mask, plan)
        where = plan.array_index() if plan.arrays else Ellipsis
        target[where] = value._data
        hit[where] = True
        ctx.mask = Tensor._make(mask)
        return out

    @staticmethod
    def backward(ctx, grad):
        from minigrad.ops.combine import masked_fill
        need_x, need_value = ctx.needs_input_grad[:2]
        whole = ctx._forward_cls in (CopyWhole, FillWhole)  # PyTorch's copy_ / fill_
        grad_value = None
        if need_value:
            part = grad if whole else getitem(grad, ctx.index)
            grad_value = sum_to(part, ctx.value_shape)
            if grad_value.dtype != ctx.value_dtype:
                grad_value = grad_value.to(ctx.value_dtype)
        grad_x = None
        if need_x and ctx._forward_cls is IndexPut:  # PyTorch: grad.index_put(i, zeros)
            zeros = Tensor._make(np.zeros(ctx.value_shape, grad._data.dtype))
            grad_x = IndexPut.apply(grad, zeros, ctx.index, ctx.plan)
        elif need_x:
            grad_x = zero_grad(grad) if whole else masked_fill(grad, ctx.mask, 0.0)
        return grad_x, grad_value, None, None


class CopySlices(_SetItem):
    """y = x with ``value`` copied into a view of x;  ∂y/∂x = grad zeroed in the view,
    ∂y/∂value = grad in the view."""

    node_name = "CopySlices"

    @staticmethod
    def forward(ctx, x, value, index, plan):
        ctx.overlapping = getattr(plan, "overlapping", False)
        return _SetItem.forward(ctx, x, value, index, plan)

    @staticmethod
    def backward(ctx, grad):
        if ctx.overlapping:  # the view written was expanded: its gradient cannot be put back
            raise RuntimeError(OVERLAPPING)
        plan = ctx.plan
        if plan.arrays:  # an index put, or an op changing a view in place
            return _SetItem.backward(ctx, grad)
        # As PyTorch's CopySlices runs a copy into a view: the gradient is copied
        # (CopyBackwards), the value's part is a clone of its view, and the part is zeroed by
        # a copy into the view of the copy (CopySlices).
        from minigrad.ops.inplace import AsStrided, Copy
        need_x, need_value = ctx.needs_input_grad[:2]
        data = grad._data
        result = Copy.apply(Tensor._make(np.zeros(data.shape, data.dtype)), grad)
        grad_x = grad_value = None
        if need_value:
            places = _region(np.arange(data.size).reshape(data.shape), plan)
            part = AsStrided.apply(result, np.unravel_index(places, data.shape))
            grad_value = sum_to(shape_ops.clone(part), ctx.value_shape)
            if grad_value.dtype != ctx.value_dtype:
                grad_value = grad_value.to(ctx.value_dtype)
        if need_x:
            zeros = Tensor._make(np.zeros(_region(data, plan).shape, data.dtype))
            grad_x = CopySlices.apply(result, zeros, ctx.index, plan)
        return grad_x, grad_value, None, None


class IndexPut(_SetItem):
    """y = x with ``value`` put at integer indices;  ∂y/∂x = grad zeroed there,
    ∂y/∂value = grad at the indices."""

    node_name = "IndexPutBackward0"


class CopyWhole(_SetItem):
    """y = value (broadcast) everywhere;  ∂y/∂x = 0,  ∂y/∂value = grad."""

    node_name = "CopyBackwards"


class FillWhole(_SetItem):
    """y = a scalar value everywhere;  ∂y/∂x = 0,  ∂y/∂value = Σ grad."""

    node_name = "FillBackward3"


# PyTorch writes these two nodes by hand (not generated): their name() is qualified.
CopySlices._backward_cls.name = CopyWhole._backward_cls.name = qualified_node_name


def _strip_leading_ones(shape):
    shape = tuple(shape)
    while shape and shape[0] == 1:
        shape = shape[1:]
    return shape


def setitem(x, index, value):
    """``x[index] = value``, in x's memory; x's history moves onto the node of the write.

    The node is PyTorch's: ``CopySlices`` when the write goes through a view of x (an integer
    or a slice in the index), ``IndexPutBackward0`` for array indices on x itself,
    ``CopyBackwards`` / ``FillBackward3`` when the index is x as a whole (``x[...]``).
    """
    from minigrad.ops.inplace import OVERLAPPING, check_leaf, inplace

    if isinstance(value, (int, float)):  # the value is converted before the index is read
        check_scalar(value, x.dtype)
    elif not isinstance(value, (Tensor, numbers.Number, np.bool_)):
        raise TypeError(f"can't assign a {type_name(value)} to a minigrad."
                        f"{x.dtype.tensor_type}")
    plan = _plan(x.shape, index, whole_slice_is_step=False, defer_array_checks=True)
    through_view = bool(plan.steps)
    source = value if isinstance(value, Tensor) else None
    value = as_tensor_operand(value, x)
    if plan.arrays:  # PyTorch's index_put_: the in-place checks, then its source, then indices
        check_leaf(x, through_view)
        if source is not None:  # (a number is written by masked_fill_, without these checks)
            _check_source(x, source, plan)
            for item in _items(index):  # nor may an index be x (a mask of itself) or overlap it
                if isinstance(item, Tensor) and (item is x or _overlap(item._data, x._data)):
                    raise RuntimeError(PARTIAL_OVERLAP)
        plan.check_arrays(bounds=False)
        region_shape = plan.indexed_shape()
    else:
        region_shape = _region(np.broadcast_to(np.empty((), bool), x.shape), plan).shape
    if plan.arrays:
        op = CopySlices if through_view else IndexPut
        stripped = _strip_leading_ones(value.shape)
        if stripped != value.shape:
            value = shape_ops.view(value, stripped)
        try:  # the value broadcasts to the region, not the other way round
            assert np.broadcast_shapes(value.shape, region_shape) == tuple(region_shape)
        except (ValueError, AssertionError):
            raise RuntimeError(f"shape mismatch: value tensor of shape {list(value.shape)} "
                               "cannot be broadcast to indexing result of shape "
                               f"{list(region_shape)}") from None
        if source is not None:
            _check_index_put_dtype(x, source)
        plan.check_arrays()  # the bounds, last (PyTorch's kernel checks them as it writes)
    else:
        op = CopySlices if through_view else (FillWhole if value.ndim == 0 else CopyWhole)
        if value.shape != region_shape and value.ndim > 0:
            value = shape_ops.view(value, _strip_leading_ones(value.shape))
            if value.shape != region_shape:
                value = shape_ops.expand(value, region_shape)
        check_leaf(x, through_view)  # a copy into the region expands its source first
    if source is not None and not plan.arrays:  # a copy checks the shapes first
        _check_source(x, source, plan)
    if not plan.arrays and not x._data.flags.writeable:  # an expanded x: the region written
        region = _region(x._data, plan)  # may not repeat a memory location (index_put may)
        if region.size > 1 and 0 in [st for st, n in zip(region.strides, region.shape) if n > 1]:
            raise RuntimeError(OVERLAPPING)
    fills = source is not None and source.ndim == 0 and len(region_shape) > 0  # PyTorch: fill_
    return inplace(x, op.apply, value, _frozen(index), plan, int_history=fills and not plan.arrays)


def _check_source(x, value, plan):
    """PyTorch's checks on a tensor written by ``x[index] = value``: an index put takes the
    destination's dtype only and no value that shares memory with x; a copy into a view takes
    no value that overlaps the view in part."""
    if plan.arrays:  # the dtype is checked after the shapes: _check_index_put_dtype
        if value is x or _overlap(value._data, x._data):
            raise RuntimeError(PARTIAL_OVERLAP)
        return
    region = _region(x._data, plan)
    # (PyTorch copies from the value expanded to the region: one that must be expanded is not
    # dense any more, and its overlap too hard to tell)
    if value._data.size == region.size and _overlap(region, value._data) == "partial":
        raise RuntimeError(PARTIAL_OVERLAP)


def _check_index_put_dtype(x, value):
    if value._data.dtype != x._data.dtype:
        raise RuntimeError(f"Index put requires the source and destination dtypes match, "
                           f"got {scalar_name(x.dtype)} for the destination and "
                           f"{scalar_name(value.dtype)} for the source.")


def _overlap(a, b):
    """How the memory of two arrays overlaps, as PyTorch judges it: None (apart, empty, or too
    hard to tell: not both dense), "full" (the same range) or "partial"."""
    if not (a.size and b.size and _dense(a) and _dense(b)):
        return None
    start_a, start_b = a.ctypes.data, b.ctypes.data
    end_a, end_b = start_a + a.nbytes, start_b + b.nbytes
    if (start_a, end_a) == (start_b, end_b):
        return "full"
    return "partial" if start_a < end_b and start_b < end_a else None


def _dense(a):
    return a.flags.c_contiguous or a.flags.f_contiguous


def _check_gather_args(dim, index, position):
    """PyTorch's TypeErrors for gather's arguments (``position``: 1 for the method)."""
    if not isinstance(dim, numbers.Integral) or isinstance(dim, bool):
        if dim is MISSING:
            raise TypeError('gather() missing 1 required positional arguments: "dim"')
        raise TypeError(f"gather(): argument 'dim' (position {position}) must be int, not "
                        f"{type_name(dim)}")
    if not isinstance(index, Tensor):
        if index is MISSING:
            raise TypeError('gather() missing 1 required positional arguments: "index"')
        raise TypeError(f"gather(): argument 'index' (position {position + 1}) must be Tensor, "
                        f"not {type_name(index)}")


def _frozen(index):
    """The index with its tensors as NumPy copies: not an input of the node, and safe from
    later in-place changes."""
    if isinstance(index, tuple):
        return tuple(_frozen(i) for i in index)
    return index._data.copy() if isinstance(index, Tensor) else index


def gather(x, dim=MISSING, index=MISSING, *, sparse_grad=False, position=2):
    """The elements of ``x`` that ``index`` picks along ``dim`` (elsewhere, the position).

    Example:
        >>> minigrad.gather(minigrad.tensor([[1, 2], [3, 4]]), 1, minigrad.tensor([[1], [0]]))
        tensor([[2],
                [3]])
    """
    _check_gather_args(dim, index, position)
    dim = normalize_dim(dim, max(x.ndim, 1))
    if index._data.dtype not in (np.int64, np.int32):
        raise RuntimeError("gather(): Expected dtype int32/int64 for index")
    if index._data.size == 0:  # PyTorch checks nothing more: an empty result of index's shape
        return GatherRepeat.apply(x, index.shape)
    if max(index.ndim, 1) != max(x.ndim, 1):
        raise RuntimeError("Index tensor must have the same number of dimensions as input "
                           "tensor")
    bigger = [d for d in range(index.ndim) if d != dim and index.shape[d] > x.shape[d]]
    if bigger:
        raise RuntimeError(f"Size does not match at dimension {bigger[0]} expected index "
                           f"{list(index.shape)} to be no larger than self {list(x.shape)} apart "
                           f"from dimension {dim}")
    picks = index._data
    size = x.shape[dim] if x.ndim else 1
    bad = picks[(picks < 0) | (picks >= size)]
    if bad.size:
        raise RuntimeError(f"index {bad.flat[0]} is out of bounds for dimension {dim} with "
                           f"size {size}")
    if x.ndim == 0:
        return GatherRepeat.apply(x, index.shape)
    grid = list(np.indices(picks.shape, sparse=True))
    grid[dim] = picks
    return Gather.apply(x, tuple(grid))
