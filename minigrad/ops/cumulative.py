"""Running sums and products along a dimension (``cumsum``, ``cumprod``) and ``flip``, the
reversal their gradients are written with: ∂ of a running sum is a running sum taken from the
other end, ``grad.flip(d).cumsum(d).flip(d)``. The gradient of ``prod`` at zeros is built from
``cumprod``, as in PyTorch, so ``cumprod``'s own gradient is right where its input holds zeros.
"""

import numbers

import numpy as np

from minigrad._dtype import bool as dtype_bool
from minigrad._dtype import cpp_name, not_implemented
from minigrad.autograd.function import _Op
from minigrad.ops._util import normalize_dim, type_name
from minigrad.ops.combine import cat, stack
from minigrad.ops.inplace import inplace
from minigrad.ops.shape import Flip
from minigrad.tensor import MISSING, Tensor

__all__ = ["Cumsum", "Cumprod", "cumsum", "cumprod", "cumsum_", "cumprod_", "flip",
           "flip_dims", "scan", "scan_"]


def _scan(ufunc, x, dim):
    """ufunc.accumulate along ``dim``: integers and bools in int64, as PyTorch's scans."""
    data = x._data
    dtype = np.int64 if data.dtype.kind in "biu" else data.dtype
    if data.ndim == 0:
        return data.astype(dtype)
    return ufunc.accumulate(data, axis=dim, dtype=dtype)


def _reversed_cumsum(t, d):
    """Σ_{k≥i} t_k along ``d``, as PyTorch writes it: flip, cumsum, flip."""
    return Flip.apply(Cumsum.apply(Flip.apply(t, (d,)), d), (d,))


class Cumsum(_Op):
    """y_k = Σ_{j≤k} x_j along ``dim``;  ∂L/∂x_i = Σ_{k≥i} g_k."""

    node_name = "CumsumBackward0"
    formula = ("flip(cumsum(flip(grad, dim), dim), dim)",)

    @staticmethod
    def forward(ctx, x, dim):
        ctx.dim = normalize_dim(dim, x.ndim)  # node._saved_dim
        return _scan(np.add, x, ctx.dim)

    @staticmethod
    def backward(ctx, grad):
        if grad.numel() <= 1 or grad.shape[ctx.dim] == 1:
            return grad, None
        return _reversed_cumsum(grad, ctx.dim), None


class Cumprod(_Op):
    """y_k = Π_{j≤k} x_j along ``dim``;  ∂L/∂x_i = (Π_{j<i} x_j) · R_i with
    R_i = Σ_{k≥i} g_k Π_{i<j≤k} x_j (no division: zeros are fine)."""

    node_name = "CumprodBackward0"
    saved_names = ("self", "result")
    formula = ("cumprod_grad(grad, self, dim)",)

    @staticmethod
    def forward(ctx, x, dim):
        ctx.dim = normalize_dim(dim, x.ndim)  # node._saved_dim
        result = _scan(np.multiply, x, ctx.dim)
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx, grad):
        x, result = ctx.saved_tensors
        d = ctx.dim
        n = x.shape[d] if x.ndim else 1
        if n <= 1 or x.numel() <= 1:
            return grad, None
        if x._data.all():  # PyTorch's formula without zeros: Σ_{k≥i} g_k y_k / x_i
            return _reversed_cumsum(result * grad, d) / x, None
        # NB: with zeros, PyTorch builds another graph; the values are the same.
        # R_i = g_i + x_{i+1} · R_{i+1}, from the end (a loop over the dim: n small steps)
        tail = [grad.select(d, n - 1)]
        for i in range(n - 2, -1, -1):
            tail.append(grad.select(d, i) + x.select(d, i + 1) * tail[-1])
        rest = stack(tail[::-1], d)
        ones = Tensor._make(np.ones(x.shape[:d] + (1,) + x.shape[d + 1:], x._data.dtype))
        before = Cumprod.apply(cat([ones, x.narrow(d, 0, n - 1)], d), d)  # Π_{j<i} x_j
        return before * rest, None


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
    return Flip.apply(x, dims if x.ndim else ())
