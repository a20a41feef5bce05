"""Reductions: sum, mean, prod, var/std, max/min (values, or values and indices), amax/amin,
argmax/argmin, all/any, over the whole tensor or over dimensions."""

import builtins
import collections
import warnings

import numpy as np

from minigrad._dtype import from_numpy_dtype as _dtype_of
from minigrad._dtype import scalar_name
from minigrad.autograd.function import _Op
from minigrad.ops._util import expand_to, normalize_dim, type_name, unsqueeze_to
from minigrad.ops.arithmetic import MulScalar, divided
from minigrad.ops.combine import cat, masked_fill, where
from minigrad.ops.compare import eq, isnan, logical_and, logical_or, maximum, minimum
from minigrad.ops.cumulative import cumprod
from minigrad.ops.indexing import Scatter
from minigrad.ops.shape import Flip
from minigrad.tensor import Tensor

__all__ = ["Sum", "SumDim", "Mean", "MeanDim", "Max", "Min", "MaxDim", "MinDim", "Amax", "Amin",
           "Prod", "ProdDim", "Var", "Std", "sum", "mean", "max", "min", "amax", "amin", "argmax",
           "argmin", "prod", "var", "std", "all", "any"]


def _dims(dim, ndim):
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    dims = tuple(normalize_dim(d, ndim) for d in dims)
    for d in dims:
        if dims.count(d) > 1:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    return tuple(sorted(dims))


def _all_dims(dim, ndim):
    """The dims to reduce: all of them for None or an empty tuple."""
    if dim is None or (isinstance(dim, (tuple, list)) and len(dim) == 0):
        return tuple(range(ndim))
    return _dims(dim, ndim)


def _unsqueeze_to(grad, dims, keepdim):
    """Put back the reduced dimensions as size 1, so that grad broadcasts over the input."""
    return grad if keepdim else unsqueeze_to(grad, dims)


def _sum_dtype(data):
    return np.int64 if data.dtype.kind in "biu" else data.dtype


def _check_differentiable(ctx, x):
    """PyTorch's error when autograd would record an integer result: only an integer tensor
    that requires grad (written into by a float that does) gets here."""
    if x._requires_grad and ctx.needs_input_grad[0] and x._data.dtype.kind in "biu":
        raise RuntimeError(f"Autograd not support dtype: {scalar_name(_dtype_of(np.int64))}")


class Sum(_Op):
    """y = Σ x;  ∂y/∂x = 1 for every element."""

    node_name = "SumBackward0"
    array_backward = True  # its backward also runs on arrays (no create_graph)
    formula = ("expand(grad, self_sym_sizes)",)

    @staticmethod
    def forward(ctx, x):
        _check_differentiable(ctx, x)
        ctx.self_sym_sizes = x._data.shape
        # (np.add.reduce is what ndarray.sum calls, through a Python function)
        return np.asarray(np.add.reduce(x._data, axis=None, dtype=_sum_dtype(x._data)))

    @staticmethod
    def backward(ctx, grad):
        return expand_to(grad, ctx.self_sym_sizes)


class SumDim(_Op):
    """y = Σ over ``dim`` of x;  ∂y/∂x = 1, broadcast back over ``dim``."""

    node_name = "SumBackward1"
    array_backward = True  # its backward also runs on arrays (no create_graph)
    formula = (
        "spread(grad, self_sym_sizes, dim, keepdim)",
    )

    @staticmethod
    def forward(ctx, x, dim, keepdim):
        _check_differentiable(ctx, x)
        ctx.self_sym_sizes = x._data.shape
        ctx.dim, ctx.keepdim = _dims(dim, x.ndim), keepdim
        data = x._data
        if data.ndim == 0:
            return data.astype(_sum_dtype(data))
        return np.asarray(data.sum(axis=ctx.dim, keepdims=keepdim, dtype=_sum_dtype(data)))

    @staticmethod
    def backward(ctx, grad):
        if not ctx.self_sym_sizes:
            return grad, None, None
        return expand_to(_unsqueeze_to(grad, ctx.dim, ctx.keepdim), ctx.self_sym_sizes), None, None


class Mean(_Op):
    """y = mean(x);  ∂y/∂x = 1/n."""

    node_name = "MeanBackward0"
    array_backward = True  # its backward also runs on arrays (no create_graph)
    formula = (
        "expand(grad, self_sym_sizes) / numel",
    )

    @staticmethod
    def forward(ctx, x):
        if x._data.dtype.kind != "f":
            raise RuntimeError(
                "mean(): could not infer output dtype. Input dtype must be either a floating "
                f"point or complex dtype. Got: {x.dtype.tensor_type[:-6]}")
        data = x._data
        ctx.self_sym_sizes, ctx.numel = data.shape, data.size
        # The sum (float16 summed in float32, as PyTorch accumulates it), divided in float64
        # and rounded to x's dtype; of nothing: 0 / 0 = nan, quietly
        total = np.add.reduce(data, axis=None, dtype=_ACCUMULATE.get(data.dtype, data.dtype))
        return np.asarray(data.dtype.type(total / np.intp(data.size)))

    @staticmethod
    def backward(ctx, grad):
        return divided(expand_to(grad, ctx.self_sym_sizes), ctx.numel)


_ACCUMULATE = {np.dtype(np.float16): np.dtype(np.float32)}  # a mean's sum, when not in x's dtype


class MeanDim(_Op):
    """y = mean over ``dim`` of x;  ∂y/∂x = 1/n, broadcast back over ``dim``."""

    node_name = "MeanBackward1"
    array_backward = True  # its backward also runs on arrays (no create_graph)
    formula = (
        "spread(grad, self_sym_sizes, dim, keepdim) / count",
    )

    @staticmethod
    def forward(ctx, x, dim, keepdim):
        if x._data.dtype.kind != "f":
            raise RuntimeError(
                "mean(): could not infer output dtype. Input dtype must be either a floating "
                f"point or complex dtype. Got: {x.dtype.tensor_type[:-6]}")
        ctx.self_sym_sizes = x._data.shape
        ctx.dim, ctx.keepdim = _dims(dim, x.ndim), keepdim
        data = x._data
        if data.ndim == 0:
            ctx.count = 1
            return data.copy()
        ctx.count = int(np.prod([data.shape[d] for d in ctx.dim]))
        return np.asarray(data.mean(axis=ctx.dim, keepdims=keepdim, dtype=data.dtype))

    @staticmethod
    def backward(ctx, grad):
        if not ctx.self_sym_sizes:
            return grad, None, None
        grad = expand_to(_unsqueeze_to(grad, ctx.dim, ctx.keepdim), ctx.self_sym_sizes)
        return divided(grad, ctx.count), None, None


def sum(x, dim=None, keepdim=False, dtype=None):  # noqa: A001 - PyTorch's name
    if dtype is not None:
        x = x.to(dtype)
    if dim is None or (isinstance(dim, (tuple, list)) and len(dim) == 0 and not keepdim):
        return Sum.apply(x)
    return SumDim.apply(x, dim, keepdim)


def mean(x, dim=None, keepdim=False, dtype=None):
    if dtype is not None:
        x = x.to(dtype)
    if dim is None:
        return Mean.apply(x)
    return MeanDim.apply(x, dim, keepdim)


# ---------------------------------------------------------------- max and min
def _empty_error(op, dim=None):
    if dim is None:
        return RuntimeError(f"{op}(): Expected reduction dim to be specified for input.numel() == "
                            "0. Specify the reduction dim with the 'dim' argument.")
    return IndexError(f"{op}(): Expected reduction dim {dim} to have non-zero size.")


def _ties(x, value):
    """Where ``x`` equals ``value`` (NaN counts as equal to NaN): a constant bool tensor."""
    return logical_or(eq(x, value), logical_and(isnan(x), isnan(value)))


class Max(_Op):
    """y = max(x);  ∂y/∂x = 1/k on each of the k elements equal to y, 0 elsewhere."""

    node_name = "MaxBackward1"
    saved_names = ("self", "result")
    formula = (
        "grad * (self == result) / count_equal(self, result)",
    )
    _reduce, _op = staticmethod(np.max), "max"

    @staticmethod
    def forward(ctx, x):
        if x._data.size == 0:
            raise _empty_error(ctx._forward_cls._op)
        result = np.asarray(ctx._forward_cls._reduce(x._data))
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx, grad):
        # PyTorch's evenly_distribute_backward: zeros, filled with grad / k where x ties
        x, result = ctx.saved_tensors
        mask = _ties(x, result)
        zeros = Tensor._make(np.zeros(x.shape, grad._data.dtype))
        return masked_fill(zeros, mask, grad / mask.sum())


class Min(Max):
    """y = min(x);  ∂y/∂x = 1/k on each of the k elements equal to y, 0 elsewhere."""

    node_name = "MinBackward1"
    _reduce, _op = staticmethod(np.min), "min"


class MaxDim(_Op):
    """values = max of x over ``dim`` (indices: where, first one on ties);
    ∂values/∂x = 1 at the index, 0 elsewhere."""

    node_name = "MaxBackward0"
    saved_names = ("indices",)
    formula = ("scatter(grad, dim, indices, self_sym_sizes)",)
    _pick, _op = staticmethod(np.argmax), "max"

    @staticmethod
    def forward(ctx, x, dim, keepdim):
        d = normalize_dim(dim, x.ndim)
        data = x._data
        ctx.self_sym_sizes, ctx.dim, ctx.keepdim = tuple(x.shape), d, keepdim
        if data.ndim == 0:
            values, indices = data.copy(), np.zeros((), np.int64)
        else:
            if data.shape[d] == 0:
                raise _empty_error(ctx._forward_cls._op, d)
            indices = np.expand_dims(ctx._forward_cls._pick(data, axis=d), d).astype(np.int64)
            values = np.take_along_axis(data, indices, axis=d)
            if not keepdim:
                values, indices = values.squeeze(d), indices.squeeze(d)
        indices = Tensor._make(indices)
        ctx.mark_non_differentiable(indices)
        ctx.save_for_backward(Tensor._make(indices._data))
        return values, indices

    @staticmethod
    def backward(ctx, grad, grad_indices):
        (indices,) = ctx.saved_tensors
        if not ctx.self_sym_sizes:  # (a 0-d x: grad scattered at its one place)
            return Scatter.apply(grad, (), ()), None, None
        d = ctx.dim
        if not ctx.keepdim:
            grad, indices = grad.unsqueeze(d), indices.unsqueeze(d)
        # PyTorch's value_selecting_reduction_backward: zeros with grad scattered at indices
        grid = list(np.indices(indices.shape, sparse=True))
        grid[d] = indices._data
        return Scatter.apply(grad, ctx.self_sym_sizes, tuple(grid)), None, None


class MinDim(MaxDim):
    """values = min of x over ``dim`` (indices: where, first one on ties);
    ∂values/∂x = 1 at the index, 0 elsewhere."""

    node_name = "MinBackward0"
    _pick, _op = staticmethod(np.argmin), "min"


def _as_given(dim, d, ndim):
    """The dim as the caller wrote it (``-2`` rather than ``0``) that normalises to ``d``;
    None when no dim was given."""
    if dim is None or (isinstance(dim, (tuple, list)) and not dim):
        return None
    given = (dim,) if isinstance(dim, int) else tuple(dim)
    return next(g for g in given if normalize_dim(g, ndim) == d)


class Amax(_Op):
    """y = max of x over ``dim``;  ∂y/∂x = 1/k on each of the k elements equal to the max."""

    node_name = "AmaxBackward0"
    saved_names = ("self", "result")
    formula = ("spread(grad, self.shape, dim, keepdim) * ties(self, result, dim, keepdim)",)
    _reduce, _op = staticmethod(np.max), "amax"

    @staticmethod
    def forward(ctx, x, dim, keepdim):
        data = x._data
        dims = _all_dims(dim, x.ndim)
        ctx.dim, ctx.keepdim = dims, keepdim
        empty = [d for d in dims if data.shape[d] == 0] if data.ndim else []
        if empty:  # an empty tensor reduces fine over its other dims
            raise _empty_error(ctx._forward_cls._op, _as_given(dim, empty[0], x.ndim))
        result = np.asarray(ctx._forward_cls._reduce(data, axis=dims if data.ndim else None,
                                                     keepdims=keepdim))
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx, grad):
        x, result = ctx.saved_tensors
        if x.ndim == 0:
            return grad, None, None
        # PyTorch's scale_grad_by_count(restore_reduced_dims(grad), ...): (grad / k) · ties
        kept = tuple(1 if d in ctx.dim else n for d, n in enumerate(x.shape))
        if not ctx.keepdim:
            grad, result = grad.reshape(kept), result.reshape(kept)
        mask = eq(x, result)  # NB: as PyTorch, a NaN equals nothing: its gradient is nan
        count = Tensor._make(mask._data.sum(axis=ctx.dim, keepdims=True))
        return grad / count * mask, None, None


class Amin(Amax):
    """y = min of x over ``dim``;  ∂y/∂x = 1/k on each of the k elements equal to the min."""

    node_name = "AminBackward0"
    _reduce, _op = staticmethod(np.min), "amin"


def _values_indices(name):
    """A tuple type like ``torch.return_types.max``: ``(values, indices)`` with field names."""
    base = collections.namedtuple(name, ["values", "indices"])

    def __repr__(self):
        return f"minigrad.return_types.{name}(\nvalues={self.values!r},\nindices={self.indices!r})"

    # The dotted name is the one Python's own errors print (as for torch.return_types.max).
    return type(f"minigrad.return_types.{name}", (base,), {
        "__slots__": (), "__repr__": __repr__, "__module__": "minigrad.return_types",
        "__qualname__": name})


_MaxResult, _MinResult = _values_indices("max"), _values_indices("min")


def _check_dim_arg(op, dim):
    """``minigrad.max(x, 0.5)``: neither a dim nor a tensor, PyTorch's TypeError."""
    if dim is not None and (isinstance(dim, (float, builtins.bool)) or not isinstance(
            dim, (int, np.integer, tuple, list)) or type(dim).__name__.startswith("minigrad.")):
        raise TypeError(f"{op}() received an invalid combination of arguments - got (Tensor, "
                        f"{type_name(dim)}), but expected one of:\n * (Tensor input)\n"
                        f" * (Tensor input, Tensor other, *, Tensor out = None)\n"
                        f" * (Tensor input, int dim, bool keepdim = False, *, tuple of Tensors "
                        f"out = None)\n")


def _check_input(op, x, dim):
    """PyTorch's TypeErrors for ``max``/``min`` with something else than a tensor."""
    if dim is not None and not isinstance(x, Tensor):
        got = ", ".join("Tensor" if isinstance(a, Tensor) else type_name(a) for a in (x, dim))
        raise TypeError(f"{op}() received an invalid combination of arguments - got ({got}), "
                        "but expected one of:\n * (Tensor input, *, Tensor out = None)\n")
    if not isinstance(x, Tensor):
        raise TypeError(f"{op}(): argument 'input' (position 1) must be Tensor, not "
                        f"{type_name(x)}")


def max(x, dim=None, keepdim=False):  # noqa: A001 - PyTorch's name
    """The largest element; or, with ``dim``, the named tuple ``(values, indices)`` over ``dim``;
    or, with a tensor, the elementwise ``maximum``.

    Example:
        >>> minigrad.tensor([[1.0, 5.0], [4.0, 2.0]]).max(1)
        minigrad.return_types.max(
        values=tensor([5., 4.]),
        indices=tensor([1, 0]))
    """
    _check_input("max", x, dim)
    if isinstance(dim, Tensor):
        return maximum(x, dim)
    _check_dim_arg("max", dim)
    if dim is None:
        return Max.apply(x)
    return _MaxResult(*MaxDim.apply(x, dim, keepdim))


def min(x, dim=None, keepdim=False):  # noqa: A001 - PyTorch's name
    """The smallest element; or, with ``dim``, the named tuple ``(values, indices)`` over ``dim``;
    or, with a tensor, the elementwise ``minimum``."""
    _check_input("min", x, dim)
    if isinstance(dim, Tensor):
        return minimum(x, dim)
    _check_dim_arg("min", dim)
    if dim is None:
        return Min.apply(x)
    return _MinResult(*MinDim.apply(x, dim, keepdim))


def amax(x, dim=(), keepdim=False):
    """The largest values over ``dim`` (all dims by default); ties share the gradient."""
    return Amax.apply(x, dim, keepdim)


def amin(x, dim=(), keepdim=False):
    """The smallest values over ``dim`` (all dims by default); ties share the gradient."""
    return Amin.apply(x, dim, keepdim)


def _arg(op, pick, x, dim, keepdim):
    data = x._data
    if data.dtype == np.bool_:
        raise RuntimeError(f"{op}(): does not support bool input")
    if dim is None:
        if data.size == 0:
            raise IndexError(f"{op}(): Expected reduction dim to be specified for "
                             "input.numel() == 0.")
        index = np.asarray(pick(data), dtype=np.int64)
        return Tensor._make(index.reshape((1,) * data.ndim) if keepdim else index)
    d = normalize_dim(dim, data.ndim)
    if data.ndim == 0:
        return Tensor._make(np.zeros((), np.int64))
    if data.shape[d] == 0:
        raise _empty_error(op, d)
    return Tensor._make(np.asarray(pick(data, axis=d, keepdims=keepdim), dtype=np.int64))


def argmax(x, dim=None, keepdim=False):
    """The index of the largest element (of the flattened tensor, or along ``dim``): int64."""
    return _arg("argmax", np.argmax, x, dim, keepdim)


def argmin(x, dim=None, keepdim=False):
    """The index of the smallest element (of the flattened tensor, or along ``dim``): int64."""
    return _arg("argmin", np.argmin, x, dim, keepdim)


# ---------------------------------------------------------------- prod
class Prod(_Op):
    """y = Π x;  ∂y/∂x_i = Π_{j≠i} x_j."""

    node_name = "ProdBackward0"
    saved_names = ("self", "result")
    formula = ("grad * prod_others(self)",)

    @staticmethod
    def forward(ctx, x):
        result = np.asarray(x._data.prod(dtype=_sum_dtype(x._data)))
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx, grad):
        x, result = ctx.saved_tensors
        if x.ndim == 0:
            return grad
        if x._data.all():
            return grad * (result / x)
        return _prod_safe_zeros(grad, x.reshape(-1), 0).reshape(x.shape)


class ProdDim(_Op):
    """y = Π over ``dim`` of x;  ∂y/∂x_i = Π_{j≠i} x_j along ``dim``."""

    node_name = "ProdBackward1"
    saved_names = ("self", "result")
    formula = ("spread(grad, self.shape, dim, keepdim) * prod_others(self, dim)",)

    @staticmethod
    def forward(ctx, x, dim, keepdim):
        ctx.dim, ctx.keepdim = normalize_dim(dim, x.ndim), keepdim
        data = x._data
        result = np.asarray(data.prod(axis=ctx.dim if data.ndim else None, keepdims=keepdim,
                                      dtype=_sum_dtype(data)))
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx, grad):
        x, result = ctx.saved_tensors
        if x.ndim == 0:
            return grad, None, None
        grad = _unsqueeze_to(grad, (ctx.dim,), ctx.keepdim)
        if x._data.all():
            return grad * (_unsqueeze_to(result, (ctx.dim,), ctx.keepdim) / x), None, None
        return _prod_safe_zeros(grad, x, ctx.dim), None, None


def _prod_safe_zeros(grad, x, d):
    """grad · (the product of the other elements along ``d``), without dividing (zeros allowed),
    as PyTorch's ``prod_safe_zeros_backward``: the exclusive running products from the front
    and from the back, multiplied."""
    n = x.shape[d]
    if x.numel() == 0:
        return grad.expand(x.shape)
    if n == 1:
        return grad
    ones = Tensor._make(np.ones(x.shape[:d] + (1,) + x.shape[d + 1:], grad._data.dtype))
    front = cumprod(cat([ones, x.narrow(d, 0, n - 1)], d), d)
    back = Flip.apply(cumprod(cat([ones, Flip.apply(x.narrow(d, 1, n - 1), (d,))], d), d), (d,))
    return grad * (front * back)


def prod(x, dim=None, keepdim=False, dtype=None):
    """The product of all elements, or over one ``dim``."""
    if dtype is not None:
        x = x.to(dtype)
    if dim is None:
        return Prod.apply(x)
    return ProdDim.apply(x, dim, keepdim)


# ---------------------------------------------------------------- var and std
def _check_floating(x, op="var"):
    if x._data.dtype.kind != "f":
        names = op if op in ("var_mean", "std_mean") else "std and var"
        raise RuntimeError(f"{names} only support floating point and complex dtypes")


def _variance(ctx, x, dim, correction, keepdim, op):
    """Forward of var/std: the sum of squared deviations over ``dim`` / (n - correction)."""
    _check_floating(x, op)
    data = x._data
    dims = _all_dims(dim, x.ndim)
    axis = dims if data.ndim else None
    n = int(np.prod([data.shape[d] for d in dims])) if data.ndim else 1
    ctx.dim, ctx.keepdim, ctx.correction = dims, keepdim, correction
    ctx.dims_given = None if dim is None else _dims(dim, x.ndim) if x.ndim else ()
    ctx.dof = n - correction
    if ctx.dof <= 0:
        warnings.warn(f"{op}(): degrees of freedom is <= 0. Correction should be strictly less "
                      "than the reduction factor (input numel divided by output numel).",
                      UserWarning, stacklevel=5)
    deviation = data - data.mean(axis=axis, keepdims=True)
    squares = (deviation * deviation).sum(axis=axis, keepdims=keepdim)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.asarray(squares / np.asarray(builtins.max(ctx.dof, 0), dtype=data.dtype))


def _var_backward(ctx, x, grad):
    """∂var/∂x = 2 (x - mean) / (n - correction), broadcast back over ``dim``, with PyTorch's
    ops (``var_backward``): over all elements, ``(2 / dof) · grad · (x - x.mean())`` (nan where
    x is the mean and inf elsewhere when dof ≤ 0); over given dims, ``grad`` unsqueezed back
    and n the product of their sizes."""
    if x.ndim == 0 or ctx.dims_given is None:
        if ctx.dof <= 0:
            return grad * where(x == x.mean(), float("nan"), float("inf"))
        return MulScalar.apply(grad, 2.0 / ctx.dof) * (x - x.mean())
    if not ctx.keepdim and x.ndim > 1:
        grad = _unsqueeze_to(grad, ctx.dims_given, False)
    n = int(np.prod([x.shape[d] for d in ctx.dims_given]))
    with np.errstate(divide="ignore"):
        scale = float(np.divide(2.0, n - ctx.correction))
    return MulScalar.apply(grad, scale) * (x - x.mean(ctx.dim, keepdim=True))


def _std_grad(grad, result):
    """The gradient of the variance from that of the standard deviation, as PyTorch's
    ``std_backward`` writes it: ``grad / (2 · result)``, 0 where the result is 0."""
    return masked_fill(grad / MulScalar.apply(result, 2), result == 0, 0)


class Var(_Op):
    """y = Σ (x - mean)² / (n - correction);  ∂y/∂x = 2 (x - mean) / (n - correction)."""

    node_name = "VarBackward0"
    saved_names = ("self",)
    formula = ("spread(grad, self.shape, dim, keepdim) * 2 * (self - mean(self, dim)) / dof",)

    @staticmethod
    def forward(ctx, x, dim, correction, keepdim):
        ctx.save_for_backward(x)
        return _variance(ctx, x, dim, correction, keepdim, "var")

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return _var_backward(ctx, x, grad), None, None, None


class Std(_Op):
    """y = √var(x);  ∂y/∂x = ∂var/∂x / (2y) (0 where y = 0)."""

    node_name = "StdBackward0"
    saved_names = ("self", "result")
    formula = ("spread(grad / result, self.shape, dim, keepdim) * (self - mean(self, dim)) / dof",)

    @staticmethod
    def forward(ctx, x, dim, correction, keepdim):
        result = np.sqrt(_variance(ctx, x, dim, correction, keepdim, "std"))
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx, grad):
        x, result = ctx.saved_tensors
        return _var_backward(ctx, x, _std_grad(grad, result)), None, None, None


def _correction(dim, unbiased, correction):
    if isinstance(dim, bool):  # x.var(False): the first positional argument is ``unbiased``
        dim, unbiased = None, dim
    if correction is None:
        correction = 1 if unbiased else 0
    return dim, correction


def var(x, dim=None, unbiased=True, keepdim=False, *, correction=None):
    """The variance over ``dim`` (all dims by default), with Bessel's correction unless
    ``unbiased=False`` or another ``correction`` is given."""
    dim, correction = _correction(dim, unbiased, correction)
    return Var.apply(x, dim, correction, keepdim)


def std(x, dim=None, unbiased=True, keepdim=False, *, correction=None):
    """The standard deviation over ``dim`` (all dims by default); see ``var``."""
    dim, correction = _correction(dim, unbiased, correction)
    return Std.apply(x, dim, correction, keepdim)


# ---------------------------------------------------------------- all and any
def _truth(reduce, x, dim, keepdim):
    data = x._data
    dims = _all_dims(dim, x.ndim)
    out = np.asarray(reduce(data, axis=dims if data.ndim else None,
                            keepdims=keepdim and dim is not None))
    return Tensor._make(out.astype(np.uint8 if data.dtype == np.uint8 else np.bool_))


def all(x, dim=None, keepdim=False):  # noqa: A001 - PyTorch's name
    """Whether every element (over ``dim``, or all) is non-zero: a bool tensor."""
    return _truth(np.all, x, dim, keepdim)


def any(x, dim=None, keepdim=False):  # noqa: A001 - PyTorch's name
    """Whether some element (over ``dim``, or all) is non-zero: a bool tensor."""
    return _truth(np.any, x, dim, keepdim)
