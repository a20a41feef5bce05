"""Products and traces of vectors and matrices: ``outer`` (``ger``) and ``trace``, with the
``index_fill`` that trace's backward uses (PyTorch's ``IndexFillBackward1``)."""

import numpy as np

from minigrad.autograd.function import _Op
from minigrad.ops._util import check_tensor_arg
from minigrad.ops.indexing import index_select
from minigrad.tensor import Tensor

__all__ = ["Trace", "IndexFill", "outer", "ger", "trace"]


class IndexFill(_Op):
    """y = x with the 0-d tensor v written at ``index`` of a vector x (PyTorch's
    ``index_fill(0, index, v)``);  ∂y/∂x = grad with zeros at index,  ∂y/∂v = Σ grad[index]."""

    node_name = "IndexFillBackward1"
    formula = ("grad - put(grad[index], (index,), grad.shape)", "sum(grad[index])")

    @staticmethod
    def forward(ctx, x, value, index):
        ctx.dim, ctx.index = 0, index
        out = x._data.copy()
        out[index] = value._data
        return out

    @staticmethod
    def backward(ctx, grad):
        index = Tensor._make(ctx.index)
        kept = IndexFill.apply(grad, Tensor._make(np.zeros((), grad.dtype.numpy)), ctx.index)
        return kept, index_select(grad, 0, index).sum(), None


class Trace(_Op):
    """y = Σᵢ xᵢᵢ;  ∂y/∂x = grad on the diagonal, 0 elsewhere."""

    node_name = "TraceBackward0"
    formula = ("diagonal_scatter(grad, self_sym_sizes, (0, 0, 1))",)

    @staticmethod
    def forward(ctx, x):
        ctx.self_sym_sizes = tuple(x.shape)
        data = x._data
        dtype = np.int64 if data.dtype.kind in "iu" else data.dtype
        return np.asarray(np.trace(data, dtype=dtype))

    @staticmethod
    def backward(ctx, grad):
        # As PyTorch: zeros of x's size, flattened, with grad at the diagonal's places
        rows, columns = ctx.self_sym_sizes
        zeros = Tensor._make(np.zeros(rows * columns, grad.dtype.numpy))
        diagonal = np.arange(0, min(rows, columns) * (columns + 1), columns + 1)
        return IndexFill.apply(zeros, grad, diagonal).view(rows, columns)


def outer(x, vec2):
    """The outer product x ⊗ vec2 of two vectors: ``x[i] * vec2[j]`` (a MulBackward0, as in
    PyTorch, which multiplies a column by a row).

    Example:
        >>> minigrad.outer(minigrad.tensor([1, 2]), minigrad.tensor([1, 10, 100]))
        tensor([[  1,  10, 100],
                [  2,  20, 200]])
    """
    check_tensor_arg("outer", "input", x, 1)
    check_tensor_arg("outer", "vec2", vec2, 2)
    for name, t in (("self", x), ("vec2", vec2)):
        if t.ndim != 1:
            raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {t.ndim}-D")
    return x.reshape(-1, 1) * vec2


ger = outer  # PyTorch's older name


def trace(x):
    """The sum of the main diagonal of a matrix (integers sum as int64).

    Example:
        >>> minigrad.trace(minigrad.tensor([[1.0, 2.0], [3.0, 4.0]]))
        tensor(5.)
    """
    check_tensor_arg("trace", "input", x, 1)
    if x.ndim != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {x.ndim}")
    if x._data.dtype == np.bool_:
        raise NotImplementedError("\"trace\" not implemented for 'Bool'")
    return Trace.apply(x)
