"""Ops that change what memory a tensor looks at: ``as_strided``, ``as_strided_``, ``resize_``,
``set_``, and the in-place view ops ``transpose_``, ``t_``, ``squeeze_``, ``unsqueeze_``.

A minigrad tensor's storage is the NumPy array of its base (itself when it is not a view),
read as a flat run of elements.
"""

import weakref

import numpy as np

from minigrad._dtype import cpp_name
from minigrad.autograd import inference
from minigrad.grad_mode import state
from minigrad.ops import shape
from minigrad.ops.inplace import AsStrided, _check_inplace, _view_positions, check_leaf, set_history
from minigrad.tensor import Tensor

__all__ = ["AsStridedInplace", "AsStridedView", "as_strided", "as_strided_", "resize_", "set_",
           "transpose_", "t_", "squeeze_", "unsqueeze_"]


class AsStridedInplace(AsStrided):
    """y = the elements of x that ``as_strided_`` makes it look at;  ∂y/∂x = grad put back."""

    node_name = "AsStridedBackward1"


class AsStridedView(AsStrided):
    """y = a view of x's memory with other sizes and strides;  ∂y/∂x = grad added back at the
    elements of x each element of y reads."""

    node_name = "AsStridedBackward0"
    is_view = True

    @staticmethod
    def forward(ctx, x, index, view):
        ctx.self_sym_sizes, ctx.index = tuple(x.shape), index
        return view

    @staticmethod
    def backward(ctx, grad):
        return AsStrided.backward(ctx, grad)[0], None, None


# In-place view ops: the tensor itself takes the view's shape and strides, and its history
# gets the view op's node under PyTorch's name for the in-place form.
class TransposeInplace(shape.Transpose):
    node_name = "TransposeBackward1"


class TInplace(shape.T):
    node_name = "TBackward1"


class SqueezeInplace(shape.Squeeze):
    node_name = "SqueezeBackward3"


class SqueezeDimInplace(shape.SqueezeDim):
    node_name = "SqueezeBackward4"


class SqueezeDimsInplace(shape.SqueezeDims):
    node_name = "SqueezeBackward5"


class UnsqueezeInplace(shape.Unsqueeze):
    node_name = "UnsqueezeBackward1"


def _restride_(x, op, *args):
    """``x`` becomes ``op``'s view of itself, in place (a version bump, as PyTorch counts)."""
    _check_inplace(x)  # an in-place change: the view kinds that forbid one forbid this too
    old = Tensor._make(x._data, x._requires_grad, x.grad_fn, x._output_nr)
    accumulator = x._grad_accumulator() if x._requires_grad and x.grad_fn is None else None
    if accumulator is not None:  # (a view made under no_grad has none)
        old._accumulator = weakref.ref(accumulator)
    out = op.apply(old, *args)
    if out.grad_fn is not None:
        set_history(x, out.grad_fn, 0)
        out.grad_fn._output_refs = (weakref.ref(x),)
        if "_inference_views" in x.__dict__:  # as any recorded in-place change of a base
            inference.base_changed(x, ())
    x.__dict__.pop("_storage", None)
    x._data = out._data
    x._version_counter[0] += 1
    return x


def transpose_(x, dim0, dim1):
    """Swap two dimensions of ``x`` in place (its memory stays where it is).

    Example:
        >>> minigrad.tensor([[1, 2, 3]]).transpose_(0, 1).shape
        minigrad.Size([3, 1])
    """
    return _restride_(x, TransposeInplace, dim0, dim1)


def t_(x):
    """``transpose_(0, 1)`` for a tensor of at most 2 dimensions."""
    return _restride_(x, TInplace)


def squeeze_(x, dim=None):
    """Drop dimensions of size 1 from ``x`` in place (all of them, or those in ``dim``)."""
    if dim is None:
        return _restride_(x, SqueezeInplace, None)
    if isinstance(dim, (tuple, list)):
        return _restride_(x, SqueezeDimsInplace, tuple(dim))
    return _restride_(x, SqueezeDimInplace, (dim,))


def unsqueeze_(x, dim):
    """Insert a dimension of size 1 into ``x`` in place."""
    return _restride_(x, UnsqueezeInplace, dim)


def as_strided(x, size, stride, storage_offset=None):
    """A view of ``x``'s storage with the given sizes, strides (in elements) and offset.

    Example:
        >>> minigrad.as_strided(minigrad.arange(6.0), (2, 2), (1, 2), 1)
        tensor([[1., 3.],
                [2., 4.]])
    """
    storage, view = _strided(x, size, stride, storage_offset)
    return AsStridedView.apply(x, _index_in(x, storage, view), view)


def _index_in(x, storage, view):
    """For each element of ``view`` (of x's storage), the index of the element of ``x`` that
    lies at the same place in the storage."""
    own = _view_positions(storage, x._data).reshape(-1)  # storage position of x's elements
    wanted = _view_positions(storage, view).reshape(-1)
    order = np.argsort(own, kind="stable")
    found = np.minimum(np.searchsorted(own[order], wanted), max(own.size - 1, 0))
    if (own.size == 0 and wanted.size) or (own.size and (own[order][found] != wanted).any()):
        raise NotImplementedError("minigrad: as_strided over storage the input does not cover")
    flat = order[found].reshape(view.shape) if own.size else np.zeros(view.shape, np.int64)
    return np.unravel_index(flat, x.shape)


def _strided(x, size, stride, storage_offset):
    """The storage of ``x`` and the NumPy view of it that ``size``/``stride``/offset describe."""
    size, stride = tuple(int(n) for n in size), tuple(int(n) for n in stride)
    if len(size) != len(stride):
        raise RuntimeError("mismatch in length of strides and shape")
    storage = _storage(x)
    offset = storage_offset if storage_offset is not None else 0
    needed = offset + sum((n - 1) * s for n, s in zip(size, stride)) + 1 if all(size) else 0
    if needed > storage.size:
        raise RuntimeError(
            f"setStorage: sizes {list(size)}, strides {list(stride)}, storage offset {offset}, "
            f"and itemsize {storage.itemsize} requiring a storage size of "
            f"{needed * storage.itemsize} are out of bounds for storage of size "
            f"{storage.size * storage.itemsize}")
    item = storage.itemsize
    return storage, np.lib.stride_tricks.as_strided(storage[offset:], size,
                                                    [s * item for s in stride])


def _storage(x):
    """The flat array of elements that ``x`` and its base share."""
    if "_storage" in x.__dict__:
        return x.__dict__["_storage"]
    root = x._base._data if x._base is not None else x._data
    while isinstance(root.base, np.ndarray) and root.base.size >= root.size:
        if not root.base.flags.c_contiguous:
            break
        root = root.base
    return root.reshape(-1) if root.flags.c_contiguous else np.ascontiguousarray(root).ravel()


def _sizes(sizes, op):
    if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)):
        sizes = tuple(sizes[0])
    sizes = tuple(int(s) for s in sizes)
    if any(s < 0 for s in sizes):
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(sizes)}: "
                           f"{list(sizes)}")
    return sizes


def as_strided_(x, size, stride, storage_offset=None):
    """Make ``x`` look at its storage with the given sizes, strides (in elements) and offset.

    Example:
        >>> x = minigrad.arange(6.0)
        >>> x.as_strided_((2, 2), (1, 2), 1)
        tensor([[1., 3.],
                [2., 4.]])
    """
    _check_inplace(x)
    storage, view = _strided(x, size, stride, storage_offset)
    if state.grad_enabled and x._requires_grad:
        index = _index_in(x, storage, view)
        before = Tensor._make(x._data.copy(), True, x.grad_fn, x._output_nr)
        out = AsStridedInplace.apply(before, index)
        set_history(x, out.grad_fn, 0)
        out.grad_fn._output_refs = (weakref.ref(x),)
    x.__dict__["_storage"] = storage
    x._data = view
    return x


def resize_(x, *sizes):
    """Give ``x`` the shape ``sizes``, keeping its first elements (new ones are zeros here;
    PyTorch leaves them uninitialised). A tensor that requires grad cannot be resized.

    Example:
        >>> minigrad.tensor([1, 2, 3, 4]).resize_(2, 2)
        tensor([[1, 2],
                [3, 4]])
    """
    if x._requires_grad and not state.inference:  # (inference mode skips autograd's check)
        raise RuntimeError("cannot resize variables that require grad")
    sizes = _sizes(sizes, "resize_")
    if sizes != tuple(x.shape):  # as PyTorch: a resize that changes nothing is no change
        x._version_counter[0] += 1
    count = int(np.prod(sizes))
    flat = x._data.reshape(-1)
    if count <= flat.size and x._data.flags.c_contiguous:
        x._data = flat[:count].reshape(sizes)
    else:
        data = np.zeros(count, x._data.dtype)
        data[:min(count, flat.size)] = flat[:count]
        x._data = data.reshape(sizes)
    x.__dict__.pop("_storage", None)
    return x


def set_(x, source=None):
    """Make ``x`` share ``source``'s memory, shape and version counter (no argument: an empty
    tensor).

    Example:
        >>> a, b = minigrad.tensor([1.0, 2.0, 3.0]), minigrad.zeros(1)
        >>> b.set_(a)
        tensor([1., 2., 3.])
    """
    check_leaf(x)
    if source is None:
        x._data = np.zeros((0,), x._data.dtype)
        return x
    if not isinstance(source, Tensor):
        raise TypeError(f"set_() received an invalid combination of arguments - got "
                        f"({type(source).__name__}, )")
    if source._data.dtype != x._data.dtype:
        raise RuntimeError(f"Could not set tensor of type {cpp_name(source.dtype)} to a tensor "
                           f"of type {cpp_name(x.dtype)}")
    x._data = source._data
    x.__dict__.pop("_storage", None)
    if x._requires_grad and x.grad_fn is None:  # as PyTorch: a leaf gets a new AccumulateGrad
        x._accumulator = None                    # (the old one still writes to x.grad)
    x._base = source._base if source._base is not None else source
    x._version_counter = source._version_counter
    return x
