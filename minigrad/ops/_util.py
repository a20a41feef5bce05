"""Helpers shared by the ops: scalars as constant tensors, dtype promotion, undoing broadcasts."""

import numpy as np

from minigrad.tensor import Tensor

__all__ = ["WrappedNumber", "as_tensor_operand", "result_dtype", "sum_to", "normalize_dim",
           "shape_error"]

_CATEGORY = {"b": 0, "u": 1, "i": 1, "f": 2}
_DEFAULT = {0: np.dtype(np.bool_), 1: np.dtype(np.int64), 2: np.dtype(np.float32)}


class WrappedNumber(Tensor):
    """A Python number used as an operand: a constant 0-d tensor that takes the other operand's
    dtype where PyTorch's promotion rules say so (``float32 tensor * 2.0`` stays float32)."""

    __slots__ = ()


def as_tensor_operand(value, like):
    """Turn a Python number into a WrappedNumber; pass tensors through."""
    if isinstance(value, Tensor):
        return value
    if isinstance(value, (bool, int, float, np.number, np.bool_)):
        data = np.asarray(value)
        kind = _CATEGORY[data.dtype.kind]
        like_dtype = like._data.dtype
        dtype = like_dtype if _CATEGORY[like_dtype.kind] >= kind else _DEFAULT[kind]
        return WrappedNumber._make(data.astype(dtype))
    if isinstance(value, (list, tuple, np.ndarray)):
        from minigrad.factories import tensor
        return tensor(value)
    raise TypeError(f"unsupported operand type: '{type(value).__name__}'")


def result_dtype(*tensors):
    """PyTorch's type promotion: the highest category wins; within it, dimensioned tensors
    outrank 0-d tensors, which outrank Python numbers."""
    dtypes = [t._data.dtype for t in tensors]
    if all(d == dtypes[0] for d in dtypes):
        return dtypes[0]
    top = max(_CATEGORY[d.kind] for d in dtypes)
    for rank in (2, 1, 0):
        pool = [d for t, d in zip(tensors, dtypes) if _CATEGORY[d.kind] == top
                and _rank(t) == rank]
        if pool:
            if rank == 0:
                return _DEFAULT[top]
            return np.result_type(*pool)
    return np.result_type(*dtypes)


def _rank(t):
    if isinstance(t, WrappedNumber):
        return 0
    return 1 if t._data.ndim == 0 else 2


def sum_to(grad, shape):
    """Sum ``grad`` down to ``shape``: the backward of an implicit broadcast."""
    if grad.shape == shape:
        return grad
    lead = grad.ndim - len(shape)
    dims = tuple(range(lead)) + tuple(
        lead + i for i, n in enumerate(shape) if n == 1 and grad.shape[lead + i] != 1)
    if dims:
        grad = grad.sum(dims, keepdim=True)
    return grad.view(shape) if grad.shape != shape else grad


def normalize_dim(dim, ndim, op=None):
    """Wrap a negative dim and check its range as PyTorch does."""
    n = max(ndim, 1)
    if not -n <= dim < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], "
                         f"but got {dim})")
    return dim % n


def shape_error(op, *shapes, detail=""):
    """The error for operands whose shapes do not fit, naming the op and the shapes."""
    parts = " and ".join(str(list(s)) for s in shapes)
    return RuntimeError(f"{op}: shapes {parts} cannot be used together{detail}")
