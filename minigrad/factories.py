"""Tensor factories: ``tensor``, ``zeros``, ``ones``, ``rand``, … with PyTorch's signatures."""

import numpy as np

from minigrad import _dtype
from minigrad.tensor import Tensor

__all__ = ["tensor", "as_tensor", "from_numpy", "zeros", "ones", "full", "empty", "eye",
           "arange", "linspace", "rand", "randn", "randint", "zeros_like", "ones_like",
           "full_like", "empty_like", "rand_like", "randn_like", "manual_seed", "initial_seed",
           "seed", "get_rng"]

_rng = np.random.default_rng(0)
_seed = 0


def manual_seed(seed):
    """Seed the generator behind ``rand``/``randn``/``randint`` (and ``nn`` initialisation)."""
    global _rng, _seed
    _seed = int(seed)
    _rng = np.random.default_rng(_seed)
    return _seed


def initial_seed():
    return _seed


def seed():
    return manual_seed(np.random.SeedSequence().entropy % (2**63))


def get_rng():
    return _rng


def _infer_dtype(data):
    """PyTorch's inference: floats → float32, ints → int64, bools → bool."""
    array = np.asarray(data)
    if array.dtype.kind == "b":
        return np.dtype(np.bool_)
    if array.dtype.kind in "iu":
        return np.dtype(np.int64) if not isinstance(data, np.ndarray) else array.dtype
    if array.dtype.kind == "f":
        return array.dtype if isinstance(data, np.ndarray) else np.dtype(np.float32)
    raise TypeError(f"Could not infer dtype of {type(data).__name__}")


def _to_array(data, dtype=None):
    if isinstance(data, Tensor):
        data = data._data
    elif isinstance(data, (list, tuple)):
        data = [d._data if isinstance(d, Tensor) else d for d in data] if any(
            isinstance(d, Tensor) for d in data) else data
    try:
        np_dtype = _dtype.to_dtype(dtype).numpy if dtype is not None else _infer_dtype(data)
        return np.array(data, dtype=np_dtype)
    except ValueError as error:
        raise ValueError(f"expected a rectangular sequence of numbers: {error}") from None


def _shape(size):
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    return tuple(int(s) for s in size)


def _finish(data, requires_grad):
    t = Tensor._make(data)
    if requires_grad:
        t.requires_grad = True
    return t


def _float(dtype):
    return _dtype.to_dtype(dtype).numpy if dtype is not None else _dtype.default_float.numpy


def tensor(data, dtype=None, device=None, requires_grad=False):
    """A new tensor holding a copy of ``data`` (nested lists, numbers or an array).

    Example:
        >>> minigrad.tensor([1.0, 2.0], requires_grad=True)
        tensor([1., 2.], requires_grad=True)
    """
    return _finish(_to_array(data, dtype), requires_grad)


def as_tensor(data, dtype=None, device=None):
    if isinstance(data, Tensor) and (dtype is None or _dtype.to_dtype(dtype) == data.dtype):
        return data
    return tensor(data, dtype=dtype)


def from_numpy(array):
    """A tensor that shares memory with ``array``."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(array).__name__})")
    return Tensor._make(array)


def zeros(*size, dtype=None, device=None, requires_grad=False):
    return _finish(np.zeros(_shape(size), dtype=_float(dtype)), requires_grad)


def ones(*size, dtype=None, device=None, requires_grad=False):
    return _finish(np.ones(_shape(size), dtype=_float(dtype)), requires_grad)


def empty(*size, dtype=None, device=None, requires_grad=False):
    return zeros(*size, dtype=dtype, requires_grad=requires_grad)


def full(size, fill_value, dtype=None, device=None, requires_grad=False):
    if dtype is None:
        dtype = _infer_dtype(fill_value)
    return _finish(np.full(_shape((size,)), fill_value, dtype=_dtype.to_dtype(dtype).numpy),
                   requires_grad)


def eye(n, m=None, dtype=None, device=None, requires_grad=False):
    return _finish(np.eye(n, m, dtype=_float(dtype)), requires_grad)


def arange(start, end=None, step=1, dtype=None, device=None, requires_grad=False):
    """Values from ``start`` to ``end`` (excluded); integers unless an argument is a float."""
    if end is None:
        start, end = 0, start
    if dtype is None:
        is_float = any(isinstance(v, float) for v in (start, end, step))
        dtype = _dtype.default_float if is_float else _dtype.int64
    return _finish(np.arange(start, end, step, dtype=_dtype.to_dtype(dtype).numpy),
                   requires_grad)


def linspace(start, end, steps, dtype=None, device=None, requires_grad=False):
    return _finish(np.linspace(start, end, steps, dtype=_float(dtype)), requires_grad)


def rand(*size, dtype=None, device=None, requires_grad=False, generator=None):
    """Uniform samples from [0, 1)."""
    return _finish(_rng.random(_shape(size)).astype(_float(dtype)), requires_grad)


def randn(*size, dtype=None, device=None, requires_grad=False, generator=None):
    """Samples from the standard normal distribution."""
    return _finish(_rng.standard_normal(_shape(size)).astype(_float(dtype)), requires_grad)


def randint(low, high=None, size=(), dtype=None, device=None, requires_grad=False):
    if high is None:
        low, high = 0, low
    dtype = _dtype.to_dtype(dtype or _dtype.int64).numpy
    return _finish(_rng.integers(low, high, size=_shape((size,))).astype(dtype), requires_grad)


def _like(make, t, dtype, requires_grad, *args):
    dtype = dtype or t.dtype
    return make(*args, dtype=dtype, requires_grad=requires_grad)


def zeros_like(t, dtype=None, device=None, requires_grad=False):
    return _like(zeros, t, dtype, requires_grad, t.shape)


def ones_like(t, dtype=None, device=None, requires_grad=False):
    return _like(ones, t, dtype, requires_grad, t.shape)


def empty_like(t, dtype=None, device=None, requires_grad=False):
    return _like(zeros, t, dtype, requires_grad, t.shape)


def full_like(t, fill_value, dtype=None, device=None, requires_grad=False):
    return full(t.shape, fill_value, dtype=dtype or t.dtype, requires_grad=requires_grad)


def rand_like(t, dtype=None, device=None, requires_grad=False):
    return _like(rand, t, dtype, requires_grad, t.shape)


def randn_like(t, dtype=None, device=None, requires_grad=False):
    return _like(randn, t, dtype, requires_grad, t.shape)
