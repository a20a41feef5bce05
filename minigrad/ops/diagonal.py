"""``diagonal``: a view of the diagonal of two dimensions, and its backward as an op of its own
(so that gradients of gradients work)."""

import numpy as np

from minigrad.autograd.function import _Op
from minigrad.ops._util import normalize_dim
from minigrad.tensor import Tensor

__all__ = ["Diagonal", "DiagonalBackward", "diagonal"]


def _diagonal_view(data, offset, dim1, dim2):
    """The diagonal of ``data`` as a writable NumPy view (np.diagonal's is read-only), with the
    diagonal as the last dimension, as in PyTorch."""
    n1, n2 = data.shape[dim1], data.shape[dim2]
    length = max(0, min(n1, n2 - offset) if offset >= 0 else min(n1 + offset, n2))
    if length:  # start at the diagonal's first element
        index = [slice(None)] * data.ndim
        index[dim2 if offset >= 0 else dim1] = slice(abs(offset), None)
        data = data[tuple(index)]
    rest = [i for i in range(data.ndim) if i not in (dim1, dim2)]
    shape = [data.shape[i] for i in rest] + [length]
    strides = [data.strides[i] for i in rest] + [data.strides[dim1] + data.strides[dim2]]
    return np.lib.stride_tricks.as_strided(data, shape, strides,
                                           writeable=data.flags.writeable)


def _dims(x, offset, dim1, dim2):
    d1, d2 = normalize_dim(dim1, x.ndim), normalize_dim(dim2, x.ndim)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return d1, d2


class Diagonal(_Op):
    """y = the diagonal of dims ``dim1``/``dim2`` at ``offset`` (a view);  ∂y/∂x = grad put on
    that diagonal, zeros elsewhere."""

    node_name = "DiagonalBackward0"
    formula = ("diagonal_scatter(grad, self_sym_sizes, args)",)
    is_view = True

    @staticmethod
    def forward(ctx, x, offset, dim1, dim2):
        ctx.self_sym_sizes, ctx.args = tuple(x.shape), (offset, dim1, dim2)
        return _diagonal_view(x._data, offset, dim1, dim2)

    @staticmethod
    def backward(ctx, grad):
        return DiagonalBackward.apply(grad, ctx.self_sym_sizes, *ctx.args), None, None, None


class DiagonalBackward(_Op):
    """z = zeros of the input's shape with g on the diagonal;  ∂z/∂g = the diagonal of grad."""

    node_name = "DiagonalBackwardBackward0"
    formula = ("diagonal_of(grad, args)",)

    @staticmethod
    def forward(ctx, g, shape, offset, dim1, dim2):
        ctx.args = (offset, dim1, dim2)
        out = np.zeros(shape, g._data.dtype)
        _diagonal_view(out, offset, dim1, dim2)[...] = g._data
        return out

    @staticmethod
    def backward(ctx, grad):
        return Diagonal.apply(grad, *ctx.args), None, None, None, None


def diagonal(x, offset=0, dim1=0, dim2=1):
    """The diagonal of the dimensions ``dim1`` and ``dim2`` (above it for ``offset`` > 0),
    as a view whose last dimension runs along the diagonal.

    Example:
        >>> minigrad.tensor([[1, 2], [3, 4]]).diagonal()
        tensor([1, 4])
    """
    if not isinstance(x, Tensor):
        raise TypeError(f"diagonal(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(x).__name__}")
    d1, d2 = _dims(x, offset, dim1, dim2)
    return Diagonal.apply(x, offset, d1, d2)
