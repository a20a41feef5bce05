"""Sorting along a dimension: ``sort``, ``argsort`` and ``topk`` (values and their int64
indices, as the named tuples ``return_types.sort`` and ``return_types.topk``)."""

import numbers

import numpy as np

from minigrad.autograd.function import _Op
from minigrad.ops._util import normalize_dim, type_name
from minigrad.ops.indexing import Scatter
from minigrad.ops.reduction import _values_indices
from minigrad.tensor import Tensor

__all__ = ["Sort", "SortStable", "Topk", "sort", "argsort", "topk"]

_SortResult, _TopkResult = _values_indices("sort"), _values_indices("topk")


def _order(data, axis, descending):
    """The stable order of ``data`` along ``axis``: equal values keep their order, NaN counts
    as the largest value (last ascending, first descending), as in PyTorch."""
    if not descending:
        return np.argsort(data, axis=axis, kind="stable")
    # Reversed twice: a stable ascending order of the reversed data, read backwards.
    n = data.shape[axis]
    backwards = np.argsort(np.flip(data, axis), axis=axis, kind="stable")
    return n - 1 - np.flip(backwards, axis)


def _picked_gradient(ctx, grad):
    """∂values/∂x of a selection along ``ctx.dim``: zeros with grad scattered back at the
    indices (PyTorch's value_selecting_reduction_backward)."""
    (indices,) = ctx.saved_tensors
    if not ctx.self_sym_sizes:  # a 0-d x: its one place
        return Scatter.apply(grad, (), ())
    grid = list(np.indices(indices.shape, sparse=True))
    grid[ctx.dim] = indices._data
    return Scatter.apply(grad, ctx.self_sym_sizes, tuple(grid))


class Sort(_Op):
    """values = x sorted along ``dim`` (indices: where each came from);
    ∂values/∂x = grad put back at the indices."""

    node_name = "SortBackward0"
    saved_names = ("indices",)
    formula = ("scatter(grad, dim, indices, self_sym_sizes)",)

    @staticmethod
    def forward(ctx, x, dim, descending):
        # NB: ``_saved_dim`` is the dim made non-negative (PyTorch keeps it as given)
        data = x._data
        ctx.self_sym_sizes, ctx.dim = tuple(x.shape), dim
        if data.ndim == 0:
            order = np.zeros((), np.int64)
        else:
            order = _order(data, dim, descending).astype(np.int64)
        return ctx._forward_cls._outputs(ctx, data, order)

    @staticmethod
    def _outputs(ctx, data, indices):
        values = np.take_along_axis(data, indices, ctx.dim) if data.ndim else data.copy()
        indices = Tensor._make(indices)
        ctx.mark_non_differentiable(indices)
        ctx.save_for_backward(Tensor._make(indices._data))
        return values, indices

    @staticmethod
    def backward(ctx, grad, grad_indices):
        return _picked_gradient(ctx, grad), None, None


class SortStable(Sort):
    """``sort`` called with ``stable=`` (PyTorch's other overload, its other node):
    values = x sorted along ``dim``;  ∂values/∂x = grad put back at the indices."""

    node_name = "SortBackward1"


class Topk(Sort):
    """values = the k largest (or smallest) elements of x along ``dim``;
    ∂values/∂x = grad put back at their indices, zeros elsewhere."""

    node_name = "TopkBackward0"

    @staticmethod
    def forward(ctx, x, k, dim, largest):
        data = x._data
        ctx.self_sym_sizes, ctx.dim = tuple(x.shape), dim
        if data.ndim == 0:
            return Sort._outputs(ctx, data, np.zeros((), np.int64))
        # NB: ties go to the lower index first; PyTorch leaves their order unspecified.
        order = _order(data, dim, descending=largest)
        indices = np.take(order, np.arange(k), axis=dim).astype(np.int64)
        return Sort._outputs(ctx, data, indices)

    @staticmethod
    def backward(ctx, grad, grad_indices):
        return _picked_gradient(ctx, grad), None, None, None


def _is_int(value):
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _check_int(op, name, value, position):
    """PyTorch's TypeError for an int argument. NB: given by keyword, PyTorch's message has no
    position."""
    if not _is_int(value):
        raise TypeError(f"{op}(): argument '{name}' (position {position}) must be int, not "
                        f"{type_name(value)}")


_SORT_FORMS = {  # the overloads PyTorch lists when sort's or argsort's dim is not an int
    ("sort", True): (" * (*, bool stable, int dim = -1, bool descending = False)\n"
                     " * (int dim = -1, bool descending = False)\n"),
    ("sort", False): (" * (Tensor input, *, bool stable, int dim = -1, bool descending = False,"
                      " tuple of Tensors out = None)\n * (Tensor input, int dim = -1, bool "
                      "descending = False, *, tuple of Tensors out = None)\n"),
    ("argsort", False): (" * (Tensor input, *, bool stable, int dim = -1, bool descending = "
                         "False, Tensor out = None)\n * (Tensor input, int dim = -1, bool "
                         "descending = False)\n"),
}


def _check_sort_dim(op, dim, method):
    if not _is_int(dim):
        got = type_name(dim) if method else f"Tensor, {type_name(dim)}"
        forms = _SORT_FORMS[("sort", True) if method else (op, False)]
        raise TypeError(f"{op}() received an invalid combination of arguments - got ({got}), "
                        f"but expected one of:\n{forms}")


def _check_input(op, x):
    if not isinstance(x, Tensor):
        raise TypeError(f"{op}(): argument 'input' (position 1) must be Tensor, not "
                        f"{type_name(x)}")


_NO_STABLE = object()  # ``stable`` not given: PyTorch's first overload (SortBackward0)


def sort(x, dim=-1, descending=False, *, stable=_NO_STABLE, method=False):
    """``x`` sorted along ``dim``, as the named tuple ``(values, indices)`` (int64 indices).

    Equal values keep their order (minigrad's sort is always stable, as PyTorch's is on the
    CPU); NaN sorts as the largest value.

    Example:
        >>> minigrad.sort(minigrad.tensor([3.0, 1.0, 2.0]), descending=True)
        minigrad.return_types.sort(
        values=tensor([3., 2., 1.]),
        indices=tensor([0, 2, 1]))
    """
    _check_input("sort", x)
    _check_sort_dim("sort", dim, method)
    d = normalize_dim(dim, x.ndim)
    op = Sort if stable is _NO_STABLE else SortStable
    return _SortResult(*op.apply(x, d, bool(descending)))


def argsort(x, dim=-1, descending=False, *, stable=False, method=False):
    """The int64 indices that sort ``x`` along ``dim`` (``sort(...).indices``).

    Example:
        >>> minigrad.tensor([[3, 1, 2]]).argsort()
        tensor([[1, 2, 0]])
    """
    _check_input("argsort", x)
    _check_sort_dim("argsort", dim, method)
    d = normalize_dim(dim, x.ndim)
    data = x._data
    if data.ndim == 0:
        return Tensor._make(np.zeros((), np.int64))
    return Tensor._make(_order(data, d, bool(descending)).astype(np.int64))


def topk(x, k, dim=-1, largest=True, sorted=True, *, position=2):  # noqa: A002 - PyTorch's
    """The ``k`` largest elements of ``x`` along ``dim`` (the smallest with ``largest=False``),
    as the named tuple ``(values, indices)``, largest first.

    NB: with ``sorted=False`` the values still come in order (PyTorch leaves it open), and of
    equal values the first ones are taken.

    Example:
        >>> minigrad.topk(minigrad.tensor([1.0, 4.0, 2.0, 3.0]), 2)
        minigrad.return_types.topk(
        values=tensor([4., 3.]),
        indices=tensor([1, 3]))
    """
    _check_input("topk", x)
    _check_int("topk", "k", k, position)
    _check_int("topk", "dim", dim, position + 1)
    d = normalize_dim(dim, x.ndim)
    size = x.shape[d] if x.ndim else 1
    if not 0 <= k <= size:
        raise RuntimeError("selected index k out of range")
    if x._data.dtype == np.bool_:
        raise RuntimeError("topk does not support bool dtypes on CPU")
    return _TopkResult(*Topk.apply(x, int(k), d, bool(largest)))
