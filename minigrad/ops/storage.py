"""Ops that change what memory a tensor looks at: ``as_strided_``, ``resize_`` and ``set_``.

A minigrad tensor's storage is the NumPy array of its base (itself when it is not a view),
read as a flat run of elements.
"""

import weakref

import numpy as np

from minigrad._dtype import cpp_name
from minigrad.grad_mode import state
from minigrad.ops.inplace import AsStrided, check_leaf
from minigrad.tensor import Tensor

__all__ = ["AsStridedInplace", "as_strided_", "resize_", "set_"]


class AsStridedInplace(AsStrided):
    """y = the elements of x that ``as_strided_`` makes it look at;  ∂y/∂x = grad put back."""

    node_name = "AsStridedBackward1"


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
    check_leaf(x)
    size, stride = tuple(size), tuple(stride)
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
    view = np.lib.stride_tricks.as_strided(storage[offset:], size, [s * item for s in stride])
    if state.grad_enabled and x._requires_grad:
        if x._base is not None or not x._data.flags.c_contiguous:
            raise NotImplementedError("minigrad: as_strided_ on a view that requires grad")
        positions = offset + sum(np.arange(n).reshape([-1 if i == d else 1 for i in
                                                      range(len(size))]) * s
                                 for d, (n, s) in enumerate(zip(size, stride)))
        before = Tensor._make(x._data.copy(), True, x.grad_fn, x._output_nr)
        out = AsStridedInplace.apply(before, np.unravel_index(np.asarray(positions, np.int64)
                                                       + np.zeros(size, np.int64), x.shape))
        x._grad_fn, x._output_nr = out.grad_fn, 0
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
    if x._requires_grad:
        raise RuntimeError("cannot resize variables that require grad")
    sizes = _sizes(sizes, "resize_")
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
    x._base = source._base if source._base is not None else source
    x._version_counter = source._version_counter
    return x
