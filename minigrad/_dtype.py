"""Data types: named wrappers around NumPy dtypes that print the way PyTorch's do.

``minigrad.float32`` is a ``dtype``; ``repr`` gives ``minigrad.float32``. The default floating
point type (used by ``tensor([1., 2.])``, ``zeros``, ``rand``, ...) is ``float32`` and can be
changed with ``set_default_dtype``.
"""

import builtins

import numpy as np

__all__ = ["dtype", "float16", "float32", "float64", "uint8", "uint16", "uint32", "uint64",
           "int8", "int16", "int32", "int64", "bool", "half", "float", "double", "short", "int",
           "long", "layout", "strided", "to_dtype", "from_numpy_dtype", "check_dtype",
           "default_float", "get_default_dtype", "set_default_dtype", "scalar_name", "cpp_name",
           "overflows",
           "check_scalar", "can_cast", "cast_error", "not_implemented", "SUB_BOOL", "SUB_BOOLS",
           "NEG_BOOL"]


class dtype:  # noqa: N801 - PyTorch's name
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
# Python's own messages name the type as PyTorch's do ("'torch.dtype' object is not iterable").
dtype.__name__ = "minigrad.dtype"

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


# The names PyTorch's messages give a dtype: its ScalarType name (``Long``), the C++ type of an
# element (``long int``), and the type a Python number is converted to (``int64_t``).
_CPP = {"int8": "signed char", "int16": "short int", "int32": "int", "int64": "long int",
        "uint8": "unsigned char", "bool": "bool", "float16": "c10::Half", "float32": "float",
        "float64": "double"}
_SCALAR_TO = {"int8": "int8_t", "int16": "int16_t", "int32": "int", "int64": "int64_t",
              "uint8": "uint8_t", "float16": "c10::Half", "float32": "float",
              "float64": "double"}
_KIND = {"b": 0, "u": 1, "i": 1, "f": 2}


def scalar_name(d):
    """PyTorch's ScalarType name of ``d``: ``Long`` for int64, ``Float`` for float32."""
    return d.tensor_type[:-6]


def cpp_name(d):
    """The C++ element type PyTorch names in some messages: ``long int`` for int64."""
    return _CPP.get(d.name, d.name)


def overflows(value, d):
    """Whether the Python number ``value`` does not fit ``d`` (PyTorch's rule: NaN, infinity
    and out-of-range values overflow an integer type; a negative integer may wrap around an
    unsigned type; every number fits bool and the floating types)."""
    if d is bool or d.is_floating_point or isinstance(value, builtins.bool):
        return False
    info = np.iinfo(d.numpy)
    if isinstance(value, builtins.float) or (isinstance(value, np.floating)):
        return not (info.min <= value <= info.max)  # NaN compares False: overflows
    value = builtins.int(value)
    if info.min == 0 and value < 0:
        return -value > info.max
    return not info.min <= value <= info.max


def check_scalar(value, d, name=None):
    """``value`` unchanged, or PyTorch's overflow error when it does not fit ``d``; the error
    names the type as ``name`` (default: the C++ type a number is converted to)."""
    if overflows(value, d):
        name = name or _SCALAR_TO.get(d.name, d.name)
        raise RuntimeError(f"value cannot be converted to type {name} without overflow")
    return value


def can_cast(source, target):
    """PyTorch's ``canCast``: an in-place result of dtype ``source`` may be written into a
    tensor of dtype ``target`` unless it would go from floating to integral or bool, or from
    integral to bool."""
    return _KIND[source.numpy.kind] <= _KIND[target.numpy.kind]


def cast_error(source, target, cpp=False):
    """PyTorch's error for an in-place result that cannot be cast to the tensor's dtype."""
    name = cpp_name(target) if cpp else scalar_name(target)
    return RuntimeError(f"result type {scalar_name(source)} can't be cast to the desired output "
                        f"type {name}")


def not_implemented(kernel, d):
    """PyTorch's error for a kernel that has no version for dtype ``d``."""
    return NotImplementedError(f'"{kernel}" not implemented for \'{scalar_name(d)}\'')


_INVERT = "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead."
SUB_BOOL = f"Subtraction, the `-` operator, with a bool tensor is not supported. {_INVERT}"
SUB_BOOLS = ("Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` "
             "or `logical_xor()` operator instead.")
NEG_BOOL = f"Negation, the `-` operator, on a bool tensor is not supported. {_INVERT}"


class layout:
    """A tensor's memory layout. minigrad has one: ``minigrad.strided`` (dense memory)."""

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"minigrad.{self.name}"


strided = layout("strided")
