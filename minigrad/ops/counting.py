"""Counting and index grids: ``bincount``, ``count_nonzero``, ``tril_indices`` and
``triu_indices`` (none of them differentiable)."""

import numbers

import numpy as np

from minigrad import _dtype
from minigrad.ops._util import normalize_dim
from minigrad.tensor import Tensor

__all__ = ["bincount", "count_nonzero", "tril_indices", "triu_indices"]


def bincount(input, weights=None, minlength=0):  # noqa: A002 - PyTorch's name
    """out[k] = the number of times k occurs in ``input`` (1-d, non-negative integers), or the
    sum of ``weights`` where it occurs; at least ``minlength`` bins.

    Example:
        >>> minigrad.bincount(minigrad.tensor([1, 1, 3]))
        tensor([0, 2, 0, 1])
    """
    data = input._data
    if data.dtype.kind not in "iu":
        raise _dtype.not_implemented("bincount_cpu", input.dtype)
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    if data.ndim != 1 or (data < 0).any():
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if weights is None:
        return Tensor._make(np.bincount(data, minlength=minlength).astype(np.int64))
    if weights.ndim != 1 or weights.shape[0] != data.shape[0]:
        raise RuntimeError("weights should be 1-d and have the same length as input")
    dtype = np.float32 if weights._data.dtype == np.float32 else np.float64
    counts = np.bincount(data, weights._data.astype(np.float64), minlength=minlength)
    return Tensor._make(counts.astype(dtype))


def count_nonzero(input, dim=None):  # noqa: A002 - PyTorch's name
    """The number of non-zero elements of ``input`` (int64), along ``dim`` (an int or a tuple)
    or over all of it.

    Example:
        >>> minigrad.count_nonzero(minigrad.tensor([[0, 1], [2, 3]]), dim=0)
        tensor([1, 2])
    """
    if dim is None:
        dims = None
    else:
        dims = tuple(normalize_dim(d, input.ndim) for d in (
            (dim,) if isinstance(dim, numbers.Integral) else dim))
        for d in dims:
            if dims.count(d) > 1:
                raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    axis = dims if input.ndim else None
    return Tensor._make(np.asarray(np.count_nonzero(input._data, axis=axis), np.int64))


def _indices(name, which, row, col, offset, dtype):
    for label, value in (("row", row), ("col", col)):
        if value < 0:
            raise RuntimeError(f"{label} must be non-negative, got{value}")
    if dtype is None:
        dtype = _dtype.int64
    if dtype.numpy.kind not in "iu":
        raise _dtype.not_implemented(name, dtype)
    rows, cols = which(row, offset, col)
    return Tensor._make(np.stack([rows, cols]).astype(dtype.numpy).reshape(2, -1))


def tril_indices(row, col, offset=0, *, dtype=None, device=None, layout=None):
    """The (row, column) indices, as a 2 × N tensor in row-major order, of the lower triangle
    of a ``row`` × ``col`` matrix: column ≤ row + ``offset``.

    Example:
        >>> minigrad.tril_indices(2, 2)
        tensor([[0, 1, 1],
                [0, 0, 1]])
    """
    return _indices("tril_indices", np.tril_indices, row, col, offset, dtype)


def triu_indices(row, col, offset=0, *, dtype=None, device=None, layout=None):
    """The (row, column) indices, as a 2 × N tensor in row-major order, of the upper triangle
    of a ``row`` × ``col`` matrix: column ≥ row + ``offset``.

    Example:
        >>> minigrad.triu_indices(2, 2)
        tensor([[0, 0, 1],
                [0, 1, 1]])
    """
    return _indices("triu_indices", np.triu_indices, row, col, offset, dtype)
