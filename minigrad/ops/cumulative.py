"""Running sums and products along a dimension (``cumsum``, ``cumprod``) and ``flip``, the
reversal their gradients are written with: ∂ of a running sum is a running sum taken from the
other end, ``grad.flip(d).cumsum(d).flip(d)``.
"""

import numbers

import numpy as np

from minigrad._dtype import bool as dtype_bool
from minigrad._dtype import cpp_name, not_implemented
from minigrad.autograd.function import _Op
from minigrad.ops._util import normalize_dim, type_name
from minigrad.ops.inplace import inplace
from minigrad.tensor import MISSING, Tensor

__all__ = ["Cumsum", "Cumprod", "Flip", "cumsum", "cumprod", "cumsum_", "cumprod_", "flip",
           "flip_dims", "scan", "scan_"]


def _scan(ufunc, x, dim):
    """ufunc.accumulate along ``dim``: integers and bools in int64, as PyTorch's scans."""
    data = x._data
    dtype = np.int64 if data.dtype.kind in "biu" else data.dtype
    if data.ndim == 0:
        return data.astype(dtype)
    return ufunc.accumulate(data, axis=dim, dtype=dtype)


class Cumsum(_Op):
    """y_j = Σ_{i≤j} x_i along ``dim``;  ∂ℓ/∂x_i = Σ_{j≥i} grad_j."""

    node_name = "CumsumBackward0"
    formula = ("flip(cumsum(flip(grad, dim), dim), dim)",)

    @staticmethod
    def forward(ctx, x, dim):
        ctx.dim = dim
        return _scan(np.add, x, dim)

    @staticmethod
    def backward(ctx, grad):
        if grad.ndim == 0:
            return grad, None
        return grad.flip(ctx.dim).cumsum(ctx.dim).flip(ctx.dim), None


class Cumprod(_Op):
    """y_j = Π_{i≤j} x_i along ``dim``;  ∂ℓ/∂x_k = Σ_{j≥k} grad_j Π_{i≤j, i≠k} x_i."""

    node_name = "CumprodBackward0"
    saved_names = ("self", "result")
    formula = ("cumprod_slope(grad, self, dim)",)

    @staticmethod
    def forward(ctx, x, dim):
        ctx.dim = dim
        result = _scan(np.multiply, x, dim)
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx, grad):
        x, result = ctx.saved_tensors
        d = ctx.dim
        if x.ndim == 0:
            return grad, None
        if x._data.all():  # no zero: Σ_{j≥k} grad_j y_j / x_k
            return (grad * result).flip(d).cumsum(d).flip(d) / x, None
        return _with_zeros(x, grad, d), None


def _with_zeros(x, grad, d):
    """Σ_{j≥k} grad_j Π_{i≤j, i≠k} x_i for inputs with zeros: for each k, the running product
    of x with x_k replaced by 1 (an n×n table along ``d``), weighted by grad and summed."""
    n = x.shape[d]
    shape = [1] * (x.ndim + 1)
    shape[d], shape[d + 1] = n, n
    eye = np.eye(n, dtype=x._data.dtype).reshape(shape)
    later = np.triu(np.ones((n, n), dtype=x._data.dtype)).reshape(shape)  # j ≥ k
    table = x.unsqueeze(d) * Tensor._make(1 - eye) + Tensor._make(eye)
    products = Cumprod.apply(table, d + 1)
    return (products * grad.unsqueeze(d) * Tensor._make(later)).sum(d + 1)


def _check_dim(op, dim, position):
    if dim is MISSING:
        raise TypeError(f'{op}() missing 1 required positional arguments: "dim"')
    if not isinstance(dim, numbers.Integral) or isinstance(dim, bool):
        raise TypeError(f"{op}(): argument 'dim' (position {position}) must be int, not "
                        f"{type_name(dim)}")


def scan(op, x, dim, dtype=None, position=2):
    """``cumsum``/``cumprod`` (``op``) with PyTorch's checks (``position``: where ``dim`` was
    passed, 1 for a method); a bool result has no kernel."""
    _check_dim(op, dim, position)
    dim = normalize_dim(dim, x.ndim)
    if dtype == dtype_bool:  # no bool kernel (without a dtype, bools give int64)
        if x.numel():
            raise not_implemented(f"{op}_out_cpu", dtype_bool)
        return x.to(dtype_bool, copy=True)  # nothing to scan
    if dtype is not None:
        x = x.to(dtype)
    return (Cumsum if op == "cumsum" else Cumprod).apply(x, dim)


def cumsum(x, dim=MISSING, *, dtype=None):
    """The running sum along ``dim`` (integers and bools give int64).

    Example:
        >>> minigrad.tensor([1.0, 2.0, 3.0]).cumsum(0)
        tensor([1., 3., 6.])
    """
    return scan("cumsum", x, dim, dtype)


def cumprod(x, dim=MISSING, *, dtype=None):
    """The running product along ``dim`` (integers and bools give int64).

    Example:
        >>> minigrad.tensor([1.0, 2.0, 3.0]).cumprod(0)
        tensor([1., 2., 6.])
    """
    return scan("cumprod", x, dim, dtype)


def scan_(op, x, dim, dtype=None):
    """``x.cumsum_(dim)``/``x.cumprod_(dim)``: the scan in x's own dtype, in place."""
    if dtype is not None and dtype != x.dtype:
        raise RuntimeError(f"Bad in-place call: input tensor dtype {cpp_name(x.dtype)} and "
                           f"output tensor dtype {cpp_name(dtype)} should match")
    _check_dim(op + "_", dim, 1)
    return inplace(x, lambda t: scan(op, t, dim, x.dtype, 1))


def cumsum_(x, dim=MISSING, *, dtype=None):
    """``cumsum`` in place."""
    return scan_("cumsum", x, dim, dtype)


def cumprod_(x, dim=MISSING, *, dtype=None):
    """``cumprod`` in place."""
    return scan_("cumprod", x, dim, dtype)


class Flip(_Op):
    """y = x reversed along ``dims``;  ∂ℓ/∂x = grad reversed along ``dims``."""

    node_name = "FlipBackward0"
    formula = ("flip(grad, dims)",)

    @staticmethod
    def forward(ctx, x, dims):
        ctx.dims = dims
        return np.flip(x._data, dims).copy() if x.ndim else x._data.copy()

    @staticmethod
    def backward(ctx, grad):
        return Flip.apply(grad, ctx.dims), None


def flip(x, dims):
    """``x`` reversed along each of ``dims`` (a new tensor, not a view).

    Example:
        >>> minigrad.flip(minigrad.tensor([[1, 2], [3, 4]]), (0,))
        tensor([[3, 4],
                [1, 2]])
    """
    if not isinstance(dims, (tuple, list)):
        raise TypeError(f"flip(): argument 'dims' (position 2) must be tuple of ints, not "
                        f"{type_name(dims)}")
    return flip_dims(x, tuple(dims), 2)


def flip_dims(x, dims, position=1):
    """``flip`` with PyTorch's checks of ``dims`` (``position``: where they were passed)."""
    for d in dims:
        if not isinstance(d, numbers.Integral) or isinstance(d, bool):
            raise TypeError(f"flip(): argument 'dims' (position {position}) must be tuple of "
                            f"ints, not {type_name(d)}")
    dims = tuple(normalize_dim(d, x.ndim) for d in dims)
    for d in dims:
        if dims.count(d) > 1:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    return Flip.apply(x, dims)
