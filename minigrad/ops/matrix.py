"""Products and traces of vectors and matrices: ``outer`` (``ger``), ``trace``, with the
``index_fill`` that trace's backward uses (PyTorch's ``IndexFillBackward1``), the cross product
(``cross``, ``linalg.cross``) and the Kronecker product ``kron``."""

import warnings

import numpy as np

from minigrad import _dtype
from minigrad.autograd import warn_always
from minigrad.autograd.function import _Op
from minigrad.ops._util import check_tensor_arg, normalize_dim, sum_to
from minigrad.ops.indexing import index_select
from minigrad.ops.linalg import _broadcast_shapes
from minigrad.ops.shape import UnsafeView
from minigrad.tensor import Tensor

__all__ = ["Trace", "IndexFill", "LinalgCross", "outer", "ger", "trace", "cross", "linalg_cross",
           "kron"]

CROSS_DIM_WARNING = (
    "Using minigrad.cross without specifying the dim arg is deprecated.\nPlease either pass the "
    "dim explicitly or simply use minigrad.linalg.cross.\nThe default value of dim will change "
    "to agree with that of linalg.cross in a future release.")
_warned = {"cross_dim": False}  # PyTorch gives it once per process (unless warn_always)


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


class LinalgCross(_Op):
    """z = a × b along ``dim`` (a and b broadcast);  ∂z/∂a = b × grad,  ∂z/∂b = grad × a."""

    node_name = "LinalgCrossBackward0"
    saved_names = ("self", "other")
    formula = ("cross(other, grad, dim)", "cross(grad, self, dim)")

    @staticmethod
    def forward(ctx, a, b, dim):
        # NB: a negative ``_saved_dim`` reads as itself (PyTorch shows -1 as 2**64 - 1)
        need_a, need_b = ctx.needs_input_grad[:2]
        ctx.save_for_backward(a if need_b else None, b if need_a else None)
        ctx.dim, ctx.shapes = dim, (tuple(a.shape), tuple(b.shape))
        return np.cross(a._data, b._data, axis=normalize_dim(dim, a.ndim))

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        shape_a, shape_b = ctx.shapes
        return (sum_to(LinalgCross.apply(b, grad, ctx.dim), shape_a) if b is not None else None,
                sum_to(LinalgCross.apply(grad, a, ctx.dim), shape_b) if a is not None else None,
                None)


def linalg_cross(input, other, *, dim=-1):  # noqa: A002 - PyTorch's name
    """The cross product of 3-vectors along ``dim`` (``minigrad.linalg.cross``); the other
    dimensions broadcast, the dtypes must be the same.

    Example:
        >>> x, y = minigrad.tensor([1.0, 0.0, 0.0]), minigrad.tensor([0.0, 1.0, 0.0])
        >>> minigrad.linalg.cross(x, y)
        tensor([0., 0., 1.])
    """
    check_tensor_arg("linalg_cross", "input", input, 1)
    check_tensor_arg("linalg_cross", "other", other, 2)
    if input.ndim != other.ndim:
        raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
    at = normalize_dim(dim, input.ndim)
    if input.shape[at] != 3 or other.shape[at] != 3:
        raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got "
                           f"{input.shape[at]} and {other.shape[at]}")
    _broadcast_shapes(tuple(input.shape), tuple(other.shape))
    if input.dtype != other.dtype:
        raise RuntimeError(f"expected scalar type {_dtype.scalar_name(input.dtype)} but found "
                           f"{_dtype.scalar_name(other.dtype)}")
    if input.dtype == _dtype.bool:
        raise _dtype.not_implemented("cross", _dtype.bool)
    return LinalgCross.apply(input, other, dim)


def cross(input, other, dim=None):  # noqa: A002 - PyTorch's name
    """The cross product of 3-vectors along ``dim``; without it, along the first dimension of
    ``input`` of size 3, with PyTorch's deprecation warning, once per process unless
    ``set_warn_always(True)`` (``linalg.cross`` takes the last dimension).

    Example:
        >>> minigrad.cross(minigrad.tensor([[1, 0, 0]]), minigrad.tensor([[0, 1, 0]]), dim=1)
        tensor([[0, 0, 1]])
    """
    check_tensor_arg("cross", "input", input, 1)
    check_tensor_arg("cross", "other", other, 2)
    if dim is None:
        if not _warned["cross_dim"] or warn_always.enabled:
            _warned["cross_dim"] = True
            warnings.warn(CROSS_DIM_WARNING, UserWarning, stacklevel=2)
        if input.ndim != other.ndim:
            raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
        dim = next((d for d, size in enumerate(input.shape) if size == 3), None)
        if dim is None:
            raise RuntimeError("no dimension of size 3 in input")
    return linalg_cross(input, other, dim=dim)


def kron(input, other):  # noqa: A002 - PyTorch's name
    """The Kronecker product: every element of ``input`` times the whole of ``other``, tiled
    (the smaller rank padded with leading 1s). As in PyTorch, a product of views of the two
    (UnsafeViewBackward0 over MulBackward0).

    Example:
        >>> minigrad.kron(minigrad.tensor([1, 2]), minigrad.tensor([1, 10]))
        tensor([ 1, 10,  2, 20])
    """
    check_tensor_arg("kron", "input", input, 1)
    check_tensor_arg("kron", "other", other, 2)
    ndim = max(input.ndim, other.ndim)
    sizes_a = (1,) * (ndim - input.ndim) + tuple(input.shape)
    sizes_b = (1,) * (ndim - other.ndim) + tuple(other.shape)
    a = UnsafeView.apply(input, tuple(s for size in sizes_a for s in (size, 1)))
    b = UnsafeView.apply(other, tuple(s for size in sizes_b for s in (1, size)))
    return UnsafeView.apply(a * b, tuple(x * y for x, y in zip(sizes_a, sizes_b)))
