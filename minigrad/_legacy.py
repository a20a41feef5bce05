"""PyTorch's legacy tensor types: ``FloatTensor([1, 2])``, ``LongTensor``, ``Tensor(2, 3)``.

Old tutorials build tensors with these constructors and compare types with
``isinstance(t, minigrad.FloatTensor)`` or ``t.type()``. Each legacy type is a class whose
instances are never made: calling it returns a plain ``minigrad.Tensor`` of its dtype, and
``isinstance`` checks the dtype, as in PyTorch.
"""

import numbers

import numpy as np

from minigrad import _device, _dtype

__all__ = ["FloatTensor", "DoubleTensor", "HalfTensor", "LongTensor", "IntTensor",
           "ShortTensor", "CharTensor", "ByteTensor", "BoolTensor", "legacy_array",
           "dtype_of_type", "set_default_tensor_type"]


def _is_shape(args):
    """``f(2, 3)`` or ``f(Size([2, 3]))`` name a shape; anything else is data."""
    from minigrad.tensor import Size
    if len(args) == 1 and isinstance(args[0], Size):
        return True
    return bool(args) and all(isinstance(a, numbers.Integral) and not isinstance(a, bool)
                              for a in args)


def legacy_array(args, dtype):
    """The ndarray a legacy constructor builds from ``args``: no args give an empty tensor,
    integers give that shape, anything else is data converted to ``dtype``.

    NB: PyTorch leaves a tensor made from a shape uninitialised (whatever the memory held);
    minigrad fills it with zeros.
    """
    from minigrad.factories import _size_arg, _to_array
    if not args:
        return np.zeros(0, dtype.numpy)
    if _is_shape(args):
        return np.zeros(_size_arg(args, None, "new"), dtype.numpy)
    if len(args) > 1:
        raise TypeError(f"new() received an invalid combination of arguments - got "
                        f"({', '.join(type(a).__name__ for a in args)}), but expected one of:")
    data = args[0]
    if isinstance(data, numbers.Number) and not isinstance(data, bool):
        raise TypeError(f"new(): data must be a sequence (got {type(data).__name__})")
    return _to_array(data, dtype)


def _options(dtype):
    """PyTorch's printed ``TensorOptions`` of a CPU tensor of ``dtype`` (its error names them)."""
    from minigrad.tensor import _CPP_TYPE_NAMES
    return (f"TensorOptions(dtype={_CPP_TYPE_NAMES[dtype.name][0]}, device=cpu, "
            "layout=Strided, requires_grad=false (default), pinned_memory=false (default), "
            "memory_format=(nullopt))")


def check_legacy_device(spec):
    """Legacy constructors make CPU tensors only; they name any other device in their error."""
    if spec is not None:
        target = _device.as_device(spec)
        if target.type != "cpu":
            raise RuntimeError(f"legacy constructor expects device type: cpu but device type: "
                               f"{target.type} was passed")


class _LegacyType(type):
    """The metaclass of the legacy types: calling one builds a tensor of its dtype."""

    def __call__(cls, *args, device=None):
        from minigrad.tensor import Tensor
        check_legacy_device(device)
        if len(args) == 1 and isinstance(args[0], Tensor):
            if args[0].dtype is not cls.dtype:
                raise TypeError(f"expected {_options(cls.dtype)} (got "
                                f"{_options(args[0].dtype)})")
            return args[0]
        return Tensor._make(legacy_array(args, cls.dtype))

    def __instancecheck__(cls, obj):
        from minigrad.tensor import Tensor
        return isinstance(obj, Tensor) and obj.dtype is cls.dtype

    def __repr__(cls):
        return f"<class 'minigrad.{cls.__name__}'>"


def _legacy_type(d):
    cls = _LegacyType(d.tensor_type, (), {"dtype": d, "__module__": "minigrad",
                                          "__doc__": f"Legacy constructor of {d.name} tensors."})
    return cls


FloatTensor = _legacy_type(_dtype.float32)
DoubleTensor = _legacy_type(_dtype.float64)
HalfTensor = _legacy_type(_dtype.float16)
LongTensor = _legacy_type(_dtype.int64)
IntTensor = _legacy_type(_dtype.int32)
ShortTensor = _legacy_type(_dtype.int16)
CharTensor = _legacy_type(_dtype.int8)
ByteTensor = _legacy_type(_dtype.uint8)
BoolTensor = _legacy_type(_dtype.bool)
_BY_NAME = {cls.__name__: cls for cls in (FloatTensor, DoubleTensor, HalfTensor, LongTensor,
                                           IntTensor, ShortTensor, CharTensor, ByteTensor,
                                           BoolTensor)}


def dtype_of_type(spec):
    """The dtype that ``Tensor.type(spec)`` converts to: a dtype, a legacy class or its name
    (``"torch.DoubleTensor"`` and ``"minigrad.DoubleTensor"`` both work)."""
    if isinstance(spec, _LegacyType):
        return spec.dtype
    if isinstance(spec, str):
        module, _, name = spec.rpartition(".")
        if module in ("torch", "minigrad") and name in _BY_NAME:
            return _BY_NAME[name].dtype
        if module in ("torch.cuda", "minigrad.cuda"):
            raise AssertionError(_device.NO_CUDA)
        raise ValueError(f"invalid type: '{spec}'")
    if isinstance(spec, _dtype.dtype):
        return spec
    name = spec.__name__ if isinstance(spec, type) else type(spec).__name__
    raise ValueError(f"invalid type: '{name}'")


def set_default_tensor_type(t):
    """The legacy ``set_default_dtype``: ``set_default_tensor_type(minigrad.DoubleTensor)`` or
    ``"torch.DoubleTensor"`` (deprecated in PyTorch, which warns; so does minigrad)."""
    import warnings
    warnings.warn("minigrad.set_default_tensor_type() is deprecated as of PyTorch 2.1, please "
                  "use minigrad.set_default_dtype() and minigrad.set_default_device() as "
                  "alternatives.", UserWarning, stacklevel=2)
    _dtype.set_default_dtype(dtype_of_type(t))
