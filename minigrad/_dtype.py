"""Data types: named wrappers around NumPy dtypes that print the way PyTorch's do.

``minigrad.float32`` is a ``dtype``; ``repr`` gives ``minigrad.float32``. The default floating
point type (used by ``tensor([1., 2.])``, ``zeros``, ``rand``, ...) is ``float32`` and can be
changed with ``set_default_dtype``.
"""

import builtins

import numpy as np

__all__ = ["dtype", "float16", "float32", "float64", "uint8", "uint16", "uint32", "uint64",
           "int8", "int16", "int32", "int64", "bool", "half", "float", "double", "short", "int",
           "long", "to_dtype", "from_numpy_dtype", "check_dtype", "default_float",
           "get_default_dtype", "set_default_dtype"]


class dtype:
    """A tensor element type, e.g. ``minigrad.float32``.

    Example:
        >>> minigrad.float64
        minigrad.float64
        >>> minigrad.tensor([1, 2]).dtype.is_floating_point
        False
    """

    __slots__ = ("name", "numpy", "tensor_type")

    def __init__(self, name, np_dtype, tensor_type):
        self.name = name
        self.numpy = np.dtype(np_dtype)   # NB: minigrad only: the NumPy dtype that stores it
        self.tensor_type = tensor_type    # the legacy name ``Tensor.type()`` returns

    @property
    def is_floating_point(self):
        return self.numpy.kind == "f"

    @property
    def is_complex(self):
        return False

    @property
    def is_signed(self):
        return self.numpy.kind in "fi"

    @property
    def itemsize(self):
        return self.numpy.itemsize

    def __repr__(self):
        return f"minigrad.{self.name}"

    def __reduce__(self):
        return (_by_name, (self.name,))


float16 = dtype("float16", np.float16, "HalfTensor")
float32 = dtype("float32", np.float32, "FloatTensor")
float64 = dtype("float64", np.float64, "DoubleTensor")
uint8 = dtype("uint8", np.uint8, "ByteTensor")
uint16 = dtype("uint16", np.uint16, "UInt16Tensor")
uint32 = dtype("uint32", np.uint32, "UInt32Tensor")
uint64 = dtype("uint64", np.uint64, "UInt64Tensor")
int8 = dtype("int8", np.int8, "CharTensor")
int16 = dtype("int16", np.int16, "ShortTensor")
int32 = dtype("int32", np.int32, "IntTensor")
int64 = dtype("int64", np.int64, "LongTensor")
bool = dtype("bool", np.bool_, "BoolTensor")  # noqa: A001 - PyTorch's name
half, float, double = float16, float32, float64  # noqa: A001
short, int, long = int16, int32, int64  # noqa: A001

_ALL = (float16, float32, float64, uint8, uint16, uint32, uint64, int8, int16, int32, int64, bool)
_BY_NUMPY = {d.numpy: d for d in _ALL}
_BY_NAME = {d.name: d for d in _ALL}
# PyTorch maps the Python types to these (note: ``float`` is float64 here, unlike minigrad.float)
_PYTHON_TYPES = {builtins.float: float64, builtins.int: int64, builtins.bool: bool}

default_float = float32


def _by_name(name):
    return _BY_NAME[name]


def get_default_dtype():
    """The floating point dtype that factories use when none is given (float32 at start)."""
    return default_float


def set_default_dtype(d):
    """Change the default floating point dtype (``float32`` or ``float64``; also ``float16``).

    Example:
        >>> minigrad.set_default_dtype(minigrad.float64)
        >>> minigrad.tensor([1.5]).dtype
        minigrad.float64
        >>> minigrad.set_default_dtype(minigrad.float32)
    """
    global default_float
    if not isinstance(d, dtype) or not d.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    default_float = d


def from_numpy_dtype(np_dtype):
    """The minigrad dtype that stores values as ``np_dtype``."""
    try:
        return _BY_NUMPY[np.dtype(np_dtype)]
    except (TypeError, KeyError):
        raise TypeError(f"minigrad has no dtype for NumPy's {np_dtype!r}") from None


def check_dtype(spec, func="tensor"):
    """A ``dtype=`` argument as a minigrad dtype: a ``dtype`` or ``float``/``int``/``bool``.

    Anything else raises PyTorch's ``TypeError`` naming the function.
    """
    if isinstance(spec, dtype):
        return spec
    if isinstance(spec, type) and spec in _PYTHON_TYPES:
        return _PYTHON_TYPES[spec]
    raise TypeError(f"{func}(): argument 'dtype' must be minigrad.dtype, not "
                    f"{type(spec).__name__}")


def to_dtype(spec):
    """A lenient conversion for minigrad's own code: a minigrad dtype, a Python type, a NumPy
    dtype or a name such as ``"float32"``."""
    if isinstance(spec, dtype):
        return spec
    if isinstance(spec, type) and spec in _PYTHON_TYPES:
        return _PYTHON_TYPES[spec]
    if isinstance(spec, str) and spec in _BY_NAME:
        return _BY_NAME[spec]
    return from_numpy_dtype(spec)
