"""Tensor factories: ``tensor``, ``zeros``, ``ones``, ``rand``, ... with PyTorch's signatures,
dtype rules and error messages.

Dtype inference follows PyTorch: Python floats give the default dtype (float32), ints give int64,
bools give bool, and a list mixing them takes the "highest" kind; NumPy arrays and NumPy scalars
keep their own dtype (``tensor(np.array([1.]))`` is float64).

``tensor()`` copies its data; ``from_numpy()`` and ``as_tensor()`` of an ndarray share memory.

Random tensors (``rand``, ``randn``, ``randint``, ``randperm``, ``normal``, ...) draw from
``minigrad.random``'s generator with PyTorch's CPU algorithms: after ``manual_seed(0)`` they
hold PyTorch's values, bit for bit.
"""

import itertools
import math
import numbers
import warnings

import numpy as np

from minigrad import _distributions, _dtype
from minigrad.ops.sampling import generator_arg
from minigrad.tensor import Tensor

__all__ = ["tensor", "as_tensor", "from_numpy", "zeros", "ones", "full", "empty", "eye",
           "arange", "linspace", "rand", "randn", "randint", "zeros_like", "ones_like",
           "full_like", "empty_like", "rand_like", "randn_like", "randint_like", "randperm",
           "normal", "empty_strided"]

ONLY_FLOAT_FACTORY = "Only Tensors of floating point and complex dtype can require gradients"
COPY_CONSTRUCT_WARNING = (
    "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or "
    "sourceTensor.detach().clone().requires_grad_(True), rather than "
    "minigrad.tensor(sourceTensor).")
_NUMPY_KINDS = "float64, float32, float16, int64, int32, int16, int8, uint64, uint32, uint16, " \
               "uint8, and bool"


# ---------------------------------------------------------------------------- data → ndarray
def _short_type(dtype):
    return dtype.tensor_type[:-len("Tensor")]  # LongTensor -> Long, as in PyTorch's messages


def _numpy_dtype(array):
    try:
        return _dtype.from_numpy_dtype(array.dtype)
    except TypeError:
        raise TypeError(f"can't convert np.ndarray of type numpy.{array.dtype.type.__name__}. "
                        f"The only supported types are: {_NUMPY_KINDS}.") from None


def _scalar_dtype(obj):
    """The dtype PyTorch infers for one element, or None when ``obj`` is a sequence."""
    if isinstance(obj, (np.ndarray, np.generic)):  # first: np.float64 is a Python float too
        return _numpy_dtype(np.asarray(obj))
    if isinstance(obj, float):
        return _dtype.default_float
    if isinstance(obj, bool):
        return _dtype.bool
    if isinstance(obj, int):
        return _dtype.int64
    if isinstance(obj, Tensor):
        return obj.dtype
    if isinstance(obj, (str, bytes)):
        raise TypeError(f"new(): invalid data type '{type(obj).__name__}'")
    if isinstance(obj, (list, tuple, range)):
        return None
    raise RuntimeError(f"Could not infer dtype of {type(obj).__name__}")


def _promote(a, b):
    """PyTorch's promotion: the higher kind (bool < integer < floating) wins outright."""
    rank = {"b": 0, "u": 1, "i": 1, "f": 2}
    ra, rb = rank[a.numpy.kind], rank[b.numpy.kind]
    if ra != rb:
        return a if ra > rb else b
    return _dtype.from_numpy_dtype(np.promote_types(a.numpy, b.numpy))


def _infer_dtype(obj):
    """PyTorch's ``infer_scalar_type``: the promoted dtype of all the elements of ``obj``."""
    found = _scalar_dtype(obj)
    if found is not None:
        return found
    if len(obj) == 0:
        return _dtype.default_float
    result = None
    for item in obj:
        item_dtype = _infer_dtype(item)
        result = item_dtype if result is None else _promote(result, item_dtype)
    return result


def _is_sequence(obj):
    return isinstance(obj, (list, tuple, range, str)) or (
        isinstance(obj, np.ndarray) and obj.ndim > 0)


def _sizes(obj):
    """The shape, read along the first element of every level (as PyTorch does)."""
    shape = []
    while _is_sequence(obj):
        if isinstance(obj, str):
            raise ValueError("too many dimensions 'str'")
        shape.append(len(obj))
        if len(obj) == 0:
            break
        obj = obj[0]
    return shape


def _store(obj, shape, dim, out, dtype):
    """Append the elements of ``obj`` to ``out``, checking that it is rectangular."""
    if dim == len(shape):
        if _is_sequence(obj):
            name = type(obj).__name__
            raise TypeError(f"must be real number, not {name}" if dtype.is_floating_point
                            else f"'{name}' object cannot be interpreted as an integer")
        if isinstance(obj, Tensor):
            if obj.numel() != 1:
                raise ValueError("only one element tensors can be converted to Python scalars")
            obj = obj.item()
        elif isinstance(obj, int) and not -2**63 <= obj < 2**63:
            raise ValueError("Overflow when unpacking long long")
        out.append(obj)
        return
    if not _is_sequence(obj):
        raise TypeError("not a sequence")
    if len(obj) != shape[dim]:
        raise ValueError(f"expected sequence of length {shape[dim]} at dim {dim} "
                         f"(got {len(obj)})")
    for item in obj:
        _store(item, shape, dim + 1, out, dtype)


def _cast(array, dtype):
    """``array.astype(dtype)`` with PyTorch's error for a value that does not fit an integer
    type (NaN, infinity, out of range; a negative integer wraps around an unsigned type)."""
    if dtype.numpy.kind in "iu" and array.dtype.kind in "fiu" and array.size:
        info = np.iinfo(dtype.numpy)
        low = -info.max if info.min == 0 and array.dtype.kind != "f" else info.min
        if not (np.all(array >= low) and np.all(array <= info.max)):  # NaN fails too
            raise RuntimeError(f"value cannot be converted to type {dtype.name} without "
                               "overflow")
    return array.astype(dtype.numpy)


def _from_python_numbers(data, dtype):
    """Fast path for nested lists of Python numbers; None sends other input down the slow,
    checking path (which also words the errors)."""
    level, kinds = [data], {type(data)}
    while kinds and kinds <= {list, tuple}:
        level = list(itertools.chain.from_iterable(level))
        kinds = set(map(type, level))
    if not kinds or not kinds <= {float, int, bool}:
        return None
    if dtype is None:
        dtype = (_dtype.default_float if float in kinds else
                 _dtype.int64 if int in kinds else _dtype.bool)
    try:
        array = np.array(data)
    except (ValueError, OverflowError):
        return None
    if array.dtype.kind not in "bif":  # object, or uint64 for ints past int64
        return None
    with np.errstate(all="ignore"):
        return _cast(array, _dtype.to_dtype(dtype))


def _to_array(data, dtype=None):
    """A new ndarray holding ``data`` (numbers, nested sequences, arrays, tensors)."""
    if isinstance(data, Tensor):
        data = data._data
    if isinstance(data, (np.ndarray, np.generic)):
        dtype = dtype or _numpy_dtype(np.asarray(data))
        return np.array(data, dtype=dtype.numpy)
    if isinstance(data, (str, bytes)):
        raise TypeError(f"new(): invalid data type '{type(data).__name__}'")
    if isinstance(data, complex):
        raise TypeError("minigrad does not support complex numbers")  # NB: PyTorch does
    fast = _from_python_numbers(data, dtype)
    if fast is not None:
        return fast
    shape = _sizes(data)
    dtype = _dtype.to_dtype(dtype) if dtype is not None else _infer_dtype(data)
    values = []
    if math.prod(shape) > 0:
        _store(data, shape, 0, values, dtype)
    with np.errstate(all="ignore"):
        return _cast(np.array(values), dtype).reshape(shape)


def _finish(data, requires_grad):
    t = Tensor._make(data)
    if requires_grad:
        if data.dtype.kind != "f":
            raise RuntimeError(ONLY_FLOAT_FACTORY)
        t._requires_grad = True
    return t


def tensor(data, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """A new leaf tensor holding a copy of ``data``.

    ``data`` is a number, a (nested) list or tuple, a NumPy array or scalar, or a tensor.

    Example:
        >>> minigrad.tensor([1.0, 2.0], requires_grad=True)
        tensor([1., 2.], requires_grad=True)
        >>> minigrad.tensor([1, 2]).dtype
        minigrad.int64
    """
    if isinstance(data, Tensor):
        warnings.warn(COPY_CONSTRUCT_WARNING, UserWarning, stacklevel=2)
    dtype = None if dtype is None else _dtype.check_dtype(dtype, "tensor")
    return _finish(_to_array(data, dtype), requires_grad)


def as_tensor(data, dtype=None, device=None):
    """Like ``tensor``, but shares memory with a tensor or ndarray of the right dtype."""
    dtype = None if dtype is None else _dtype.check_dtype(dtype, "as_tensor")
    if isinstance(data, Tensor):
        return data if dtype in (None, data.dtype) else data.to(dtype)
    if isinstance(data, np.ndarray) and dtype in (None, _numpy_dtype(data)):
        return from_numpy(data)
    return _finish(_to_array(data, dtype), False)


def from_numpy(array):
    """A tensor that shares memory with ``array``: writes to one show in the other.

    Example:
        >>> a = np.zeros(2)
        >>> t = minigrad.from_numpy(a)
        >>> a[0] = 5
        >>> t
        tensor([5., 0.], dtype=minigrad.float64)
    """
    if not isinstance(array, np.ndarray):
        cls = type(array)
        name = cls.__name__ if cls.__module__ == "builtins" else f"{cls.__module__}.{cls.__name__}"
        raise TypeError(f"expected np.ndarray (got {name})")
    _numpy_dtype(array)
    return Tensor._make(array)


# ---------------------------------------------------------------------------- shapes, dtypes
def _size_arg(args, size, func):
    """The shape from ``f(2, 3)``, ``f((2, 3))``, ``f([2, 3])``, ``f(Size)`` or ``size=``."""
    if size is not None:
        args = (size,)
    if not args:
        raise TypeError(f'{func}() missing 1 required positional arguments: "size"')
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        items = args[0]
    elif len(args) == 1 and not _is_int(args[0]):
        raise TypeError(f"{func}(): argument 'size' (position 1) must be tuple of ints, not "
                        f"{type(args[0]).__name__}")
    else:
        items = args
    for pos, item in enumerate(items, 1):
        if not _is_int(item):
            raise TypeError(f"{func}(): argument 'size' failed to unpack the object at pos "
                            f'{pos} with error "type must be tuple of ints,but got '
                            f'{type(item).__name__}"')
    shape = tuple(int(s) for s in items)
    for s in shape:
        if s < 0:
            if func == "zeros":
                raise RuntimeError("zeros: Dimension size must be non-negative.")
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: "
                               f"{list(shape)}")
    return shape


def _is_int(value):
    if isinstance(value, Tensor):
        return value.ndim == 0 and value.dtype.numpy.kind in "iu"
    return isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))


def _dtype_arg(dtype, func, default=None):
    if dtype is None:
        return default or _dtype.default_float
    return _dtype.check_dtype(dtype, func)


def _check_number(value, func, arg, position):
    if isinstance(value, Tensor) and value.numel() == 1:
        return value.item()
    if not isinstance(value, numbers.Number) or isinstance(value, complex):
        raise TypeError(f"{func}(): argument '{arg}' (position {position}) must be Number, not "
                        f"{type(value).__name__}")
    return value


def _number_dtype(value):
    """``full``'s inference from its fill value: bool, int64 or the default float."""
    if isinstance(value, (bool, np.bool_)):
        return _dtype.bool
    if isinstance(value, numbers.Integral):
        return _dtype.int64
    return _dtype.default_float


# ---------------------------------------------------------------------------- filled tensors
def zeros(*args, size=None, dtype=None, device=None, requires_grad=False):
    """A tensor of zeros; ``size`` as ``zeros(2, 3)`` or ``zeros((2, 3))``."""
    shape = _size_arg(args, size, "zeros")
    return _finish(np.zeros(shape, _dtype_arg(dtype, "zeros").numpy), requires_grad)


def ones(*args, size=None, dtype=None, device=None, requires_grad=False):
    """A tensor of ones; ``size`` as ``ones(2, 3)`` or ``ones((2, 3))``."""
    shape = _size_arg(args, size, "ones")
    return _finish(np.ones(shape, _dtype_arg(dtype, "ones").numpy), requires_grad)


def empty(*args, size=None, dtype=None, device=None, requires_grad=False):
    """NB: minigrad fills "uninitialised" tensors with zeros."""
    shape = _size_arg(args, size, "empty")
    return _finish(np.zeros(shape, _dtype_arg(dtype, "empty").numpy), requires_grad)


def empty_strided(size, stride, dtype=None, device=None, requires_grad=False):
    """A tensor of shape ``size`` laid out in memory with the given strides (in elements).
    NB: filled with zeros, as ``empty``.

    Example:
        >>> minigrad.empty_strided((2, 2), (4, 2)).stride()
        (4, 2)
    """
    shape, stride = tuple(int(n) for n in size), tuple(int(n) for n in stride)
    np_dtype = _dtype_arg(dtype, "empty_strided").numpy
    span = sum((n - 1) * s for n, s in zip(shape, stride)) + 1 if all(shape) else 0
    memory = np.zeros(max(span, 0), np_dtype)
    values = np.lib.stride_tricks.as_strided(memory, shape, [s * memory.itemsize for s in stride])
    return _finish(values, requires_grad)


def full(size, fill_value, dtype=None, device=None, requires_grad=False):
    """A tensor filled with ``fill_value``; the dtype follows it (``full((2,), 3)`` is int64)."""
    if not isinstance(size, (tuple, list)):
        raise TypeError(f"full(): argument 'size' (position 1) must be tuple of ints, not "
                        f"{type(size).__name__}")
    shape = _size_arg((size,), None, "full")
    fill_value = _check_number(fill_value, "full", "fill_value", 2)
    dtype = _dtype_arg(dtype, "full", _number_dtype(fill_value))
    _dtype.check_scalar(fill_value, dtype)
    with np.errstate(all="ignore"):
        values = _cast(np.full(shape, fill_value), dtype)
    return _finish(values, requires_grad)


def eye(n, m=None, dtype=None, device=None, requires_grad=False):
    """The ``n`` x ``m`` identity matrix (``m`` defaults to ``n``)."""
    for name, value, pos in (("n", n, 1), ("m", m, 2)):
        if value is not None and not _is_int(value):
            raise TypeError(f"eye(): argument '{name}' (position {pos}) must be int, not "
                            f"{type(value).__name__}")
        if value is not None and value < 0:
            raise RuntimeError(f"{name} must be greater or equal to 0, got {value}")
    return _finish(np.eye(n, m, dtype=_dtype_arg(dtype, "eye").numpy), requires_grad)


# ---------------------------------------------------------------------------- ranges
def _fma(a, b, c):
    """``a * b + c`` rounded once, like the CPU's fused multiply-add (error-free splitting)."""
    a, b, c = (np.asarray(v, dtype=np.float64) for v in (a, b, c))
    product = a * b
    a_hi = 134217729.0 * a - (134217729.0 * a - a)  # 2**27 + 1 splits a float64 in halves
    b_hi = 134217729.0 * b - (134217729.0 * b - b)
    a_lo, b_lo = a - a_hi, b - b_hi
    product_error = ((a_hi * b_hi - product) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo
    total = product + c
    shift = total - product
    sum_error = (product - (total - shift)) + (c - shift)
    return total + (sum_error + product_error)


def _arange_floats(start, step, n, np_dtype):
    """PyTorch's CPU kernel, so that values (and hence printing) match to the last bit: pairs
    of 32-byte (AVX2) blocks count from a base rounded to the dtype, the tail from ``start``."""
    values = _fma(step, np.arange(n, dtype=np.float64), start)
    width = 32 // np_dtype.itemsize
    firsts = np.arange(0, n - n % (2 * width), width, dtype=np.float64)
    bases = _fma(step, firsts, start).astype(np_dtype).astype(np.float64)
    lanes = _fma(step, np.arange(width, dtype=np.float64)[None, :], bases[:, None])
    values[:lanes.size] = lanes.reshape(-1)
    return values.astype(np_dtype)


def arange(start, end=None, step=1, *, dtype=None, device=None, requires_grad=False):
    """Values from ``start`` to ``end`` (excluded) by ``step``; int64 unless an argument is a
    float (then the default float dtype).

    Example:
        >>> minigrad.arange(4)
        tensor([0, 1, 2, 3])
        >>> minigrad.arange(0, 1, 0.25)
        tensor([0.0000, 0.2500, 0.5000, 0.7500])
    """
    arguments = (("start", start, 1), ("end", end, 2), ("step", step, 3))
    if end is None:  # arange(end)
        start, end = 0, start
        arguments = (("start", 0, 0), ("end", end, 1), ("step", step, 2))
    bounds = []
    for name, value, pos in arguments:
        if not (isinstance(value, Tensor) and value.numel() == 1) and (
                not isinstance(value, numbers.Real)):
            raise TypeError(f"arange(): argument '{name}' (position {pos}) must be Number, "
                            f"not {type(value).__name__}")
        bounds.append(value.item() if isinstance(value, Tensor) else value)
    start, end, step = bounds
    is_float = any(isinstance(v, (float, np.floating)) for v in bounds)
    dtype = _dtype_arg(dtype, "arange", None if is_float else _dtype.int64)
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if not (math.isfinite(start) and math.isfinite(end)):
        raise RuntimeError(f"unsupported range: {start} -> {end}")
    if (end - start) * step < 0:
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    n = math.ceil((end - start) / step)
    if dtype.is_floating_point:
        values = _arange_floats(float(start), float(step), n, dtype.numpy)
    else:
        values = np.arange(n, dtype=np.int64) * int(step) + int(start)
        values = values.astype(dtype.numpy)
    return _finish(values, requires_grad)


def linspace(start, end, steps, *, dtype=None, device=None, requires_grad=False):
    """``steps`` evenly spaced values from ``start`` to ``end`` (both included).

    NB: the last digit of float values can differ from PyTorch's SIMD kernel.
    """
    if not _is_int(steps):
        raise TypeError(f"linspace(): argument 'steps' (position 3) must be int, not "
                        f"{type(steps).__name__}")
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    start = _check_number(start, "linspace", "start", 1)
    end = _check_number(end, "linspace", "end", 2)
    dtype = _dtype_arg(dtype, "linspace")
    if dtype.is_floating_point:  # the ends are first rounded to the dtype
        start, end = float(dtype.numpy.type(start)), float(dtype.numpy.type(end))
    else:
        start, end = int(start), int(end)
    if steps == 1:
        return _finish(np.array([start], dtype=dtype.numpy), requires_grad)
    step = (end - start) / (steps - 1) if steps > 1 else 0.0
    index = np.arange(steps)
    halfway = steps // 2  # the second half counts back from ``end``, as PyTorch does
    values = np.where(index < halfway, start + step * index, end - step * (steps - index - 1))
    return _finish(values.astype(dtype.numpy), requires_grad)


# ---------------------------------------------------------------------------- random tensors
def _random_dtype(dtype, func, kernel):
    dtype = _dtype_arg(dtype, func)
    if not dtype.is_floating_point:
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_short_type(dtype)}\'')
    return dtype


def _sample(shape, dtype, requires_grad, kernel, *params):
    """A new tensor of ``shape`` filled by ``kernel(array, *params)``."""
    values = np.empty(shape, dtype.numpy)
    kernel(values, *params)
    return _finish(values, requires_grad)


def rand(*args, size=None, generator=None, dtype=None, device=None, requires_grad=False):
    """Uniform samples from [0, 1), PyTorch's values for the same seed.

    Example:
        >>> _ = minigrad.manual_seed(0)
        >>> minigrad.rand(2, 2)
        tensor([[0.4963, 0.7682],
                [0.0885, 0.1320]])
    """
    shape = _size_arg(args, size, "rand")
    dtype = _random_dtype(dtype, "rand", "check_uniform_bounds")
    return _sample(shape, dtype, requires_grad, _distributions.uniform_, 0.0, 1.0,
                   generator_arg(generator, "rand"))


def randn(*args, size=None, generator=None, dtype=None, device=None, requires_grad=False):
    """Samples from the standard normal distribution, PyTorch's values for the same seed.

    Example:
        >>> _ = minigrad.manual_seed(0)
        >>> minigrad.randn(3)
        tensor([ 1.5410, -0.2934, -2.1788])
    """
    shape = _size_arg(args, size, "randn")
    dtype = _random_dtype(dtype, "randn", "normal_kernel_cpu")
    return _sample(shape, dtype, requires_grad, _distributions.normal_, 0.0, 1.0,
                   generator_arg(generator, "randn"))


def normal(mean, std, size=None, *, generator=None, dtype=None, device=None,
           requires_grad=False):
    """Samples from N(mean, std²): numbers with a ``size``, or tensors (one sample each).

    Example:
        >>> _ = minigrad.manual_seed(0)
        >>> minigrad.normal(2.0, 0.5, size=(2,))
        tensor([2.7705, 1.8533])
    """
    from minigrad.ops import sampling
    if isinstance(mean, Tensor) or isinstance(std, Tensor):
        return sampling.normal(mean, std, generator)
    if size is None:
        raise TypeError("normal() received an invalid combination of arguments - got (float, "
                        "float), but expected (float mean, float std, tuple of ints size)")
    if not std >= 0.0:
        raise RuntimeError(sampling.NORMAL_STD.format(std))
    shape = _size_arg((size,), None, "normal")
    dtype = _random_dtype(dtype, "normal", "normal_kernel_cpu")
    return _sample(shape, dtype, requires_grad, _distributions.normal_, mean, std,
                   generator_arg(generator, "normal"))


def randperm(n, *, generator=None, dtype=None, device=None, requires_grad=False):
    """A random permutation of 0 .. n-1 (PyTorch's Fisher–Yates and draws).

    Example:
        >>> _ = minigrad.manual_seed(0)
        >>> minigrad.randperm(5)
        tensor([4, 0, 1, 3, 2])
    """
    if not _is_int(n):
        raise TypeError(f"randperm(): argument 'n' (position 1) must be int, not "
                        f"{type(n).__name__}")
    if n < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
    dtype = _dtype_arg(dtype, "randperm", _dtype.int64)
    values = _distributions.randperm(int(n), generator_arg(generator, "randperm"))
    return _finish(values.astype(dtype.numpy), requires_grad)


def randint(*args, size=None, generator=None, dtype=None, device=None, requires_grad=False):
    """Random integers in [low, high): ``randint(high, size)`` or ``randint(low, high, size)``.

    Example:
        >>> minigrad.randint(0, 10, (3,)).dtype
        minigrad.int64
    """
    if size is None and args:
        args, size = args[:-1], args[-1]
    if len(args) not in (1, 2) or size is None:
        raise TypeError("randint() expects (high, size) or (low, high, size), got "
                        f"{len(args) + (size is not None)} arguments")
    low, high = (0, args[0]) if len(args) == 1 else args
    for name, value, pos in (("low", low, 1), ("high", high, len(args))):
        if not _is_int(value):
            raise TypeError(f"randint(): argument '{name}' (position {pos}) must be int, not "
                            f"{type(value).__name__}")
    if not isinstance(size, (tuple, list)):
        raise TypeError(f"randint(): argument 'size' (position {len(args) + 1}) must be tuple "
                        f"of ints, not {type(size).__name__}")
    shape = _size_arg((size,), None, "randint")
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} "
                           f">= to={high}")
    dtype = _dtype_arg(dtype, "randint", _dtype.int64)
    return _sample(shape, dtype, requires_grad, _distributions.random_from_to_, int(low),
                   int(high), generator_arg(generator, "randint"))


# ---------------------------------------------------------------------------- *_like
def _like_input(t, func):
    if not isinstance(t, Tensor):
        raise TypeError(f"{func}(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(t).__name__}")
    return t.shape


def zeros_like(input, dtype=None, device=None, requires_grad=False):  # noqa: A002
    """Zeros with the shape and dtype of ``input`` (never tracked by autograd)."""
    return zeros(_like_input(input, "zeros_like"), dtype=dtype or input.dtype,
                 requires_grad=requires_grad)


def ones_like(input, dtype=None, device=None, requires_grad=False):  # noqa: A002
    return ones(_like_input(input, "ones_like"), dtype=dtype or input.dtype,
                requires_grad=requires_grad)


def empty_like(input, dtype=None, device=None, requires_grad=False):  # noqa: A002
    return empty(_like_input(input, "empty_like"), dtype=dtype or input.dtype,
                 requires_grad=requires_grad)


def full_like(input, fill_value, dtype=None, device=None, requires_grad=False):  # noqa: A002
    return full(_like_input(input, "full_like"), fill_value, dtype=dtype or input.dtype,
                requires_grad=requires_grad)


def rand_like(input, dtype=None, device=None, requires_grad=False, *,  # noqa: A002
              generator=None):
    return rand(_like_input(input, "rand_like"), dtype=dtype or input.dtype,
                requires_grad=requires_grad, generator=generator)


def randn_like(input, dtype=None, device=None, requires_grad=False, *,  # noqa: A002
               generator=None):
    return randn(_like_input(input, "randn_like"), dtype=dtype or input.dtype,
                 requires_grad=requires_grad, generator=generator)


def randint_like(input, low=0, high=None, dtype=None, device=None,  # noqa: A002
                 requires_grad=False, *, generator=None):
    """Random integers with the shape and dtype of ``input``: ``randint_like(t, high)``."""
    if high is None:
        low, high = 0, low
    return randint(low, high, _like_input(input, "randint_like"), dtype=dtype or input.dtype,
                   requires_grad=requires_grad, generator=generator)


# ---------------------------------------------------------------------------- device= arguments
def _check_devices():
    """Every factory checks its ``device=`` argument (or the default device): the CPU works,
    CUDA raises PyTorch's "not compiled" error (see ``minigrad._device``)."""
    from minigrad._device import checks_device
    for name in ("tensor", "as_tensor", "zeros", "ones", "full", "empty", "eye", "arange",
                 "linspace", "rand", "randn", "randint", "randperm", "normal", "zeros_like",
                 "ones_like", "full_like", "empty_like", "rand_like", "randn_like",
                 "randint_like"):
        if name in globals():
            globals()[name] = checks_device(globals()[name])


_check_devices()
