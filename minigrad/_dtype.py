"""Data types: thin named wrappers around NumPy dtypes, printed the way PyTorch prints them."""

import builtins

import numpy as np

__all__ = ["dtype", "float32", "float64", "float16", "int64", "int32", "int16", "int8", "uint8",
           "bool", "float", "double", "half", "long", "int", "to_dtype", "default_float"]


class dtype:
    """A tensor element type, e.g. ``minigrad.float32``."""

    __slots__ = ("name", "numpy", "is_floating_point", "tensor_type")

    def __init__(self, name, np_dtype, tensor_type):
        self.name = name
        self.numpy = np.dtype(np_dtype)
        self.is_floating_point = self.numpy.kind == "f"
        self.tensor_type = tensor_type

    def __repr__(self):
        return f"minigrad.{self.name}"

    def __reduce__(self):
        return (to_dtype, (self.name,))


float16 = dtype("float16", np.float16, "HalfTensor")
float32 = dtype("float32", np.float32, "FloatTensor")
float64 = dtype("float64", np.float64, "DoubleTensor")
int8 = dtype("int8", np.int8, "CharTensor")
uint8 = dtype("uint8", np.uint8, "ByteTensor")
int16 = dtype("int16", np.int16, "ShortTensor")
int32 = dtype("int32", np.int32, "IntTensor")
int64 = dtype("int64", np.int64, "LongTensor")
bool = dtype("bool", np.bool_, "BoolTensor")  # noqa: A001 - PyTorch's name
half, float, double, long, int = float16, float32, float64, int64, int32  # noqa: A001

_BY_NUMPY = {d.numpy: d for d in (float16, float32, float64, int8, uint8, int16, int32, int64, bool)}
_BY_NAME = {d.name: d for d in _BY_NUMPY.values()}
default_float = float32


def to_dtype(spec):
    """Return the minigrad dtype for a minigrad dtype, a NumPy dtype, a Python type or a name."""
    if isinstance(spec, dtype):
        return spec
    python_types = {builtins.float: float32, builtins.int: int64, builtins.bool: bool}
    if spec in python_types:
        return python_types[spec]
    if isinstance(spec, str) and spec in _BY_NAME:
        return _BY_NAME[spec]
    try:
        return _BY_NUMPY[np.dtype(spec)]
    except (TypeError, KeyError):
        raise TypeError(f"unsupported dtype: {spec!r}") from None
