"""``tile`` and ``repeat_interleave``, composed as PyTorch composes them: ``tile`` is one
``repeat``; ``repeat_interleave`` by an int is unsqueeze, expand, a contiguous copy and a view
(ViewBackward0 over CloneBackward0, ExpandBackward0, UnsqueezeBackward0), by a tensor one
``index_select``."""

import numbers

import numpy as np

from minigrad import _dtype
from minigrad.ops._util import normalize_dim, type_name
from minigrad.ops.indexing import index_select
from minigrad.tensor import Tensor

__all__ = ["tile", "repeat_interleave"]


def tile(input, dims, *, position=2):  # noqa: A002 - PyTorch's name
    """``input`` repeated ``dims[i]`` times along each dimension; ``dims`` shorter than the
    tensor's rank is padded with leading ones (``repeat`` pads the tensor instead).

    Example:
        >>> minigrad.tile(minigrad.tensor([1, 2]), (2,))
        tensor([1, 2, 1, 2])
    """
    if not isinstance(dims, (tuple, list)) or not all(
            isinstance(d, numbers.Integral) and not isinstance(d, bool) for d in dims):
        raise TypeError(f"tile(): argument 'dims' (position {position}) must be tuple of ints, "
                        f"not {type_name(dims)}")
    dims = tuple(int(d) for d in dims)
    return input.repeat(*((1,) * (input.ndim - len(dims)) + dims))


def _indices(repeats, output_size):
    """The positions ``i`` repeated ``repeats[i]`` times: ``[0, 0, 1, 2, 2]`` for [2, 1, 2]."""
    counts = repeats._data
    if counts.dtype.kind not in "iu":
        raise _dtype.not_implemented("repeat_interleave_cpu", repeats.dtype)
    if (counts < 0).any():
        raise RuntimeError("repeats can not be negative")
    if output_size is not None and output_size != int(counts.sum()):
        raise RuntimeError("allocated size does not match required size")
    return Tensor._make(np.repeat(np.arange(counts.size, dtype=counts.dtype), counts))


def repeat_interleave(input, repeats=None, dim=None, *, output_size=None):  # noqa: A002
    """Each element of ``input`` repeated ``repeats`` times (an int, or one count per element
    along ``dim``) in place, over the flattened tensor when ``dim`` is None. With a tensor only,
    ``repeat_interleave(r)`` gives index ``i`` repeated ``r[i]`` times.

    Example:
        >>> minigrad.repeat_interleave(minigrad.tensor([1, 2]), 2)
        tensor([1, 1, 2, 2])
        >>> minigrad.repeat_interleave(minigrad.tensor([2, 0, 1]))
        tensor([0, 0, 2])
    """
    if repeats is None:
        if input.ndim != 1:
            raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
        return _indices(input, output_size)
    if isinstance(repeats, bool) or not isinstance(repeats, (Tensor, numbers.Integral)):
        raise TypeError(
            f"repeat_interleave() received an invalid combination of arguments - got "
            f"({type_name(repeats)}), but expected one of:\n"
            " * (Tensor repeats, int dim = None, *, int output_size = None)\n"
            " * (int repeats, int dim = None, *, int output_size = None)\n")
    if isinstance(repeats, Tensor):
        if repeats.ndim > 1:
            raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
    if dim is None:
        input, dim = input.flatten(), 0
    dim = normalize_dim(dim, input.ndim)
    if isinstance(repeats, Tensor):
        size = input.shape[dim] if input.ndim else 1
        if repeats.numel() == 1:
            repeats = repeats.reshape(1).expand(size)
        elif repeats.shape[0] != size:
            raise RuntimeError(f"repeats must have the same size as input along dim, but got "
                               f"repeats.size(0) = {repeats.shape[0]} and input.size({dim}) = "
                               f"{size}")
        return index_select(input, dim, _indices(repeats, output_size))
    repeats = int(repeats)
    if repeats < 0:
        raise RuntimeError("Repeats must be non-negative")
    expanded = input.unsqueeze(dim + 1)
    if output_size is not None and output_size != input.shape[dim] * repeats:
        raise RuntimeError(f"repeat_interleave: Invalid output_size, expected "
                           f"{input.shape[dim] * repeats} but got {output_size}")
    sizes = list(expanded.shape)
    sizes[dim + 1] = repeats
    return expanded.expand(sizes).contiguous().flatten(dim, dim + 1)
