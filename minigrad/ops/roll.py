"""``roll``: the elements shifted along dimensions, those pushed past the end coming back at
the start (over the flattened tensor when no dimension is given)."""

import numbers

import numpy as np

from minigrad.autograd.function import _Op
from minigrad.ops._util import normalize_dim, type_name

__all__ = ["Roll", "roll"]


def _rolled(data, shifts, dims):
    if not dims:
        return np.roll(data.reshape(-1), shifts[0]).reshape(data.shape)
    return np.roll(data, shifts, dims)


class Roll(_Op):
    """y = x shifted cyclically by ``shifts`` along ``dims``;  ∂y/∂x = grad shifted back."""

    node_name = "RollBackward0"
    # (``positions``: where each element of x went, flattened; for the formula only)
    formula = ("reshape(grad, (-1,))[positions]",)

    @staticmethod
    def forward(ctx, x, shifts, dims):
        # NB: ``_saved_dims`` are made non-negative (PyTorch keeps them as given)
        ctx.shifts, ctx.dims = shifts, dims
        data = x._data
        ctx.positions = _rolled(np.arange(data.size).reshape(data.shape), shifts, dims)
        ctx.positions = np.argsort(ctx.positions.reshape(-1)).reshape(data.shape)
        return _rolled(data, shifts, dims)

    @staticmethod
    def backward(ctx, grad):
        back = tuple(-s for s in reversed(ctx.shifts))
        return Roll.apply(grad, back, tuple(reversed(ctx.dims))), None, None


def _ints(value, name, position):
    items = (value,) if isinstance(value, numbers.Integral) else value
    if isinstance(value, bool) or not isinstance(items, (tuple, list)) or not all(
            isinstance(i, numbers.Integral) and not isinstance(i, bool) for i in items):
        raise TypeError(f"roll(): argument '{name}' (position {position}) must be tuple of "
                        f"ints, not {type_name(value)}")
    return tuple(int(i) for i in items)


def roll(x, shifts, dims=None, *, position=2):
    """``x`` with its elements shifted by ``shifts`` along ``dims`` (one shift per dim), those
    pushed past the end coming back at the start; without ``dims``, over the flattened tensor.

    Example:
        >>> minigrad.roll(minigrad.tensor([1, 2, 3, 4]), 1)
        tensor([4, 1, 2, 3])
    """
    shifts = _ints(shifts, "shifts", position)
    dims = () if dims is None else _ints(dims, "dims", position + 1)
    if len(shifts) != len(dims) and (dims or len(shifts) != 1):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:"
                           f"{len(dims)}")
    dims = tuple(normalize_dim(d, x.ndim) for d in dims)
    return Roll.apply(x, shifts, dims)
