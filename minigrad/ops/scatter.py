"""Scatters along a dimension: ``scatter`` (write) and ``scatter_add`` (accumulate), the
inverse of ``gather``, with PyTorch's nodes (ScatterBackward0 for a tensor ``src``,
ScatterBackward1 for a number ``value``, ScatterAddBackward0) and its argument checks.

For a 2-d ``x`` and ``dim=1``: ``out[i][index[i][j]] = src[i][j]`` (``+=`` for scatter_add).
Only the first ``index.shape`` elements of ``src`` are read. Where an index repeats, scatter
keeps the last write (as PyTorch's CPU kernel), scatter_add adds them all.
"""

import numbers

import numpy as np

from minigrad._dtype import check_scalar
from minigrad.autograd.function import _Op
from minigrad.ops._util import check_tensor_arg, normalize_dim, type_name
from minigrad.ops.indexing import OVERLAPPING, PARTIAL_OVERLAP
from minigrad.ops.inplace import check_leaf, inplace
from minigrad.tensor import MISSING, Tensor

__all__ = ["Scatter", "ScatterValue", "ScatterAdd", "scatter", "scatter_", "scatter_add",
           "scatter_add_"]


class Scatter(_Op):
    """y = x with y[…index…] = src along ``dim``;  ∂y/∂x = grad, 0 where written;
    ∂y/∂src = grad at the written places."""

    node_name = "ScatterBackward0"
    formula = ("where(written, 0, grad)", "grad[places]")

    @staticmethod
    def forward(ctx, x, dim, index, src):
        _remember(ctx, x, dim, index)
        ctx.src_shape = src.shape
        out = x._data.copy()
        out.reshape(ctx.shape)[ctx.places] = _read(src, index)
        return out

    @staticmethod
    def backward(ctx, grad):
        return (ScatterValue.apply(grad, ctx.dim, ctx.index._data, 0), None, None,
                _src_grad(ctx, grad, "ScatterBackward0") if ctx.needs_input_grad[3] else None)


class ScatterValue(_Op):
    """y = x with y[…index…] = v along ``dim``;  ∂y/∂x = grad, 0 where written."""

    node_name = "ScatterBackward1"
    formula = ("where(written, 0, grad)",)

    @staticmethod
    def forward(ctx, x, dim, index, value):
        _remember(ctx, x, dim, index)
        check_scalar(value, x.dtype)
        out = x._data.copy()
        out.reshape(ctx.shape)[ctx.places] = np.asarray(value).astype(out.dtype)  # -1 wraps
        return out

    @staticmethod
    def backward(ctx, grad):
        return ScatterValue.apply(grad, ctx.dim, ctx.index._data, 0), None, None, None


class ScatterAdd(_Op):
    """y = x with y[…index…] += src along ``dim``;  ∂y/∂x = grad;  ∂y/∂src = grad at the
    places added to."""

    node_name = "ScatterAddBackward0"
    formula = ("grad", "grad[places]")

    @staticmethod
    def forward(ctx, x, dim, index, src):
        _remember(ctx, x, dim, index)
        ctx.src_shape = src.shape
        out = x._data.copy()
        np.add.at(out.reshape(ctx.shape), ctx.places, _read(src, index))
        return out

    @staticmethod
    def backward(ctx, grad):
        src_grad = _src_grad(ctx, grad, "ScatterAddBackward0") if ctx.needs_input_grad[3] else None
        return grad, None, None, src_grad


def _remember(ctx, x, dim, index):
    """Keep what backward and the formula need: dim, the index (a copy, as PyTorch saves it),
    the places written as a NumPy index (``places``) and as a mask of x's shape (``written``)."""
    ctx.dim, ctx.index = dim, Tensor._make(index.copy())
    ctx.shape = x.shape if x.ndim else (1,)
    picks = index.reshape(-1) if index.ndim == 0 else index
    grid = list(np.indices(picks.shape, sparse=True))
    grid[dim] = picks
    ctx.places = tuple(grid)
    written = np.zeros(ctx.shape, dtype=bool)
    written[ctx.places] = True
    ctx.written = written.reshape(x.shape)


def _src_grad(ctx, grad, node):
    """∂ℓ/∂src = grad at the places src was written to: ``grad.gather(dim, index)``, of the
    index's shape (PyTorch's engine refuses it when src is larger: its shape check, here)."""
    out = grad.gather(ctx.dim, ctx.index)
    if out.shape != ctx.src_shape:
        raise RuntimeError(f"Function {node} returned an invalid gradient at index 1 - got "
                           f"{list(out.shape)} but expected shape compatible with "
                           f"{list(ctx.src_shape)}")
    return out


def _read(src, index):
    """The elements of ``src`` that a scatter reads: its first ``index.shape`` ones (``index``:
    an array, not an input of the node)."""
    if index.size == 0:
        return np.zeros(index.shape, dtype=src._data.dtype)
    data = src._data.reshape(-1) if src.ndim == 0 else src._data
    shape = index.shape if index.ndim else (1,)
    return data[tuple(slice(0, n) for n in shape)]


def _check(op, x, dim, index, src, bounds=True):
    """PyTorch's argument checks of scatter/scatter_add: dim, dtypes, ranks, sizes, bounds."""
    dim = normalize_dim(dim, x.ndim)
    if src is not None and src.dtype != x.dtype:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    if index._data.size == 0:  # nothing to write: PyTorch checks nothing more
        return dim
    if index._data.dtype not in (np.int64, np.int32):
        raise RuntimeError("scatter(): Expected dtype int32/int64 for index")
    if max(index.ndim, 1) != max(x.ndim, 1):
        raise RuntimeError("Index tensor must have the same number of dimensions as self tensor")
    if src is not None and max(index.ndim, 1) != max(src.ndim, 1):
        raise RuntimeError("Index tensor must have the same number of dimensions as src tensor")
    sizes = [list(t.shape) or [1] for t in (index, x, src if src is not None else x)]
    if any(i > s for d, (i, s) in enumerate(zip(sizes[0], sizes[1])) if d != dim) or (
            src is not None and any(i > s for i, s in zip(sizes[0], sizes[2]))):
        detail = "" if src is None else f" and to be no larger size than src {list(src.shape)}"
        raise RuntimeError(f"Expected index {list(index.shape)} to be no larger than self "
                           f"{list(x.shape)} apart from dimension {dim}{detail}")
    if not bounds:  # (an in-place scatter checks them in its kernel, after the memory checks)
        return dim
    size = sizes[1][dim]
    picks = index._data
    bad = picks[(picks < 0) | (picks >= size)]
    if bad.size:
        raise RuntimeError(f"index {bad.flat[0]} is out of bounds for dimension {dim} with size "
                           f"{size}")
    return dim


def _check_types(op, dim, index, src):
    if not isinstance(dim, numbers.Integral) or isinstance(dim, bool) or \
            not isinstance(index, Tensor) or not isinstance(src, (Tensor, numbers.Number)):
        got = ", ".join("Tensor" if isinstance(a, Tensor) else type_name(a)
                        for a in (dim, index, src))
        raise TypeError(f"{op}() received an invalid combination of arguments - got ({got}), "
                        "but expected one of:\n * (int dim, Tensor index, Tensor src)\n"
                        " * (int dim, Tensor index, Number value)\n")


def _src_or_value(op, dim, index, src, value):
    """The third argument; PyTorch's TypeError when there is none (it lists those given)."""
    if src is MISSING and value is None:
        given = ", ".join("Tensor" if isinstance(a, Tensor) else type_name(a)
                          for a in (dim, index))
        raise TypeError(f"{op}() received an invalid combination of arguments - got ({given}), "
                        "but expected one of:\n * (int dim, Tensor index, Tensor src)\n"
                        " * (int dim, Tensor index, Number value)\n")
    return src if src is not MISSING else value


def _scatter_checked(op, x, dim, index, src):
    """The out-of-place op after the checks (an empty index: x unchanged, a copy)."""
    dim = _check(op, x, dim, index, src if isinstance(src, Tensor) else None)
    if index._data.size == 0:
        index = Tensor._make(np.zeros((0,) * max(x.ndim, 1), dtype=np.int64))
    if op.startswith("scatter_add"):
        return ScatterAdd.apply(x, dim, index._data, src)
    if isinstance(src, Tensor):
        return Scatter.apply(x, dim, index._data, src)
    return ScatterValue.apply(x, dim, index._data, src)


def _check_overlap(x, index, src):
    """PyTorch's memory checks of an in-place scatter, after its argument checks: x is no
    expanded view, and neither index nor src shares its memory (in part or in whole; x itself
    overlaps x even when empty, as PyTorch's check compares the tensors first)."""
    data = x._data
    if data.size > 1 and any(s == 0 and n > 1 for s, n in zip(data.strides, data.shape)):
        raise RuntimeError(OVERLAPPING)
    for t in (index, src):
        if isinstance(t, Tensor) and (t is x or t._data.size and np.shares_memory(t._data, data)):
            raise RuntimeError(PARTIAL_OVERLAP)


def scatter(x, dim, index, src=MISSING, *, value=None):
    """``x`` with ``src``'s elements (or the number ``value``) written at ``index`` along
    ``dim``: ``out[i][index[i][j]] = src[i][j]`` for ``dim=1``.

    Example:
        >>> x = minigrad.zeros(2, 3)
        >>> x.scatter(1, minigrad.tensor([[2], [0]]), minigrad.tensor([[1.0], [2.0]]))
        tensor([[0., 0., 1.],
                [2., 0., 0.]])
    """
    src = _src_or_value("scatter", dim, index, src, value)
    _check_types("scatter", dim, index, src)
    return _scatter_checked("scatter", x, dim, index, src)


def scatter_add(x, dim, index, src):
    """``x`` with ``src``'s elements added at ``index`` along ``dim`` (repeats add up).

    Example:
        >>> minigrad.zeros(3).scatter_add(0, minigrad.tensor([0, 0, 2]), minigrad.ones(3))
        tensor([2., 0., 1.])
    """
    check_tensor_arg("scatter_add", "src", src, 3)
    _check_types("scatter_add", dim, index, src)
    return _scatter_checked("scatter_add", x, dim, index, src)


def scatter_(x, dim, index, src=MISSING, *, value=None):
    """``scatter`` in place."""
    src = _src_or_value("scatter_", dim, index, src, value)
    _check_types("scatter_", dim, index, src)
    check_leaf(x)
    _check("scatter_", x, dim, index, src if isinstance(src, Tensor) else None, bounds=False)
    _check_overlap(x, index, src)
    return inplace(x, lambda t: _scatter_checked("scatter_", t, dim, index, src))


def scatter_add_(x, dim, index, src):
    """``scatter_add`` in place."""
    check_tensor_arg("scatter_add_", "src", src, 3)
    _check_types("scatter_add_", dim, index, src)
    check_leaf(x)
    _check("scatter_add_", x, dim, index, src, bounds=False)
    _check_overlap(x, index, src)
    return inplace(x, lambda t: _scatter_checked("scatter_add_", t, dim, index, src))
