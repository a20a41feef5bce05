"""``diff``: the n-th forward difference along a dimension, ``x[i + 1] - x[i]`` taken n times,
composed of ``narrow`` and ``sub`` (``logical_xor`` for booleans) as PyTorch composes it: the
graph is SubBackward0 over two SliceBackward0 per step (and a CatBackward0 for prepend/append)."""

import numbers

from minigrad import _dtype
from minigrad.ops._util import normalize_dim, type_name
from minigrad.ops.combine import cat
from minigrad.ops.indexing import narrow
from minigrad.tensor import Tensor

__all__ = ["diff"]


def diff(input, n=1, dim=-1, prepend=None, append=None):  # noqa: A002 - PyTorch's name
    """The n-th forward difference along ``dim``: ``out[i] = x[i + 1] - x[i]``, applied ``n``
    times (booleans: ``x[i + 1] != x[i]``), after ``prepend`` and ``append`` are joined to
    ``input`` along ``dim``. With n = 0, a copy of ``input``.

    Example:
        >>> minigrad.diff(minigrad.tensor([1, 3, 6, 10]))
        tensor([2, 3, 4])
        >>> minigrad.diff(minigrad.tensor([1, 3, 6, 10]), n=2, prepend=minigrad.tensor([0]))
        tensor([1, 1, 1])
    """
    if not isinstance(input, Tensor):
        raise TypeError(f"diff(): argument 'input' (position 1) must be Tensor, not "
                        f"{type_name(input)}")
    if not isinstance(n, numbers.Integral) or isinstance(n, bool):
        raise TypeError(f"diff(): argument 'n' (position 2) must be int, not {type_name(n)}")
    for name, other in (("prepend", prepend), ("append", append)):
        if other is not None and not isinstance(other, Tensor):
            raise TypeError(f"diff(): argument '{name}' must be Tensor, not {type_name(other)}")
    if input.ndim < 1:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    for other in (prepend, append):
        if other is not None:
            _check_joinable(input, other, dim)
    if n == 0:
        return input.new_zeros(input.shape).copy_(input)
    dim = normalize_dim(dim, input.ndim)
    if prepend is not None or append is not None:
        input = cat([t for t in (prepend, input, append) if t is not None], dim)
    result, length = input, input.shape[dim] - 1
    for _ in range(min(n, input.shape[dim])):
        later, earlier = narrow(result, dim, 1, length), narrow(result, dim, 0, length)
        result = later.logical_xor(earlier) if input.dtype == _dtype.bool else later - earlier
        length -= 1
    return result


def _check_joinable(input, other, dim):  # noqa: A002 - PyTorch's name
    along = normalize_dim(dim, input.ndim)
    if other.ndim != input.ndim:
        raise RuntimeError("diff expects prepend or append to be the same dimension as input")
    for i, (have, got) in enumerate(zip(input.shape, other.shape)):
        if i != along and have != got:
            raise RuntimeError("diff expects the shape of tensor to prepend or append to match "
                               "that of input except along the differencing dimension; "
                               f"input.size({i}) = {have}, but got tensor.size({i}) = {got}")
