"""Helpers shared by the ops: scalars as constant tensors, dtype promotion, undoing broadcasts."""

import functools
import numbers
import sys

import numpy as np
from numpy import ndarray

from minigrad import _dtype
from minigrad._errstate import quiet_call
from minigrad._shared import shared
from minigrad.autograd import function as _function
from minigrad.autograd.observe import watching as _watching
from minigrad.grad_mode import inference_blocks as _inference_blocks
from minigrad.tensor import Size, Tensor

__all__ = ["ARRAY", "quiet", "WrappedNumber", "as_tensor_operand", "as_input", "cast_numbers",
           "result_dtype", "check_tensor_arg", "floating_result", "check_operand",
           "check_overloads", "type_name",
           "sum_to", "shapes_of", "zero_grad", "zero_of", "zeroed", "apply_op", "expand_to",
           "unsqueeze_to", "swap_dims", "transposed", "permute_to", "normalize_dim", "shape_error",
           "qualified_node_name"]

# ``ufunc(..., out=ARRAY)`` gives a 0-d result as an array, not as a NumPy scalar that the op
# would have to wrap again (NumPy >= 2.3; before, ARRAY is None, the default ``out``).
ARRAY = ... if np.lib.NumpyVersion(np.__version__) >= "2.3.0" else None



def quiet(fn):
    """``@quiet``: ``fn`` runs with NumPy's warnings for 1/0 = inf, 0/0 = nan and overflow off,
    as PyTorch computes them silently. (Every op's ``forward`` already runs so: see
    ``minigrad._errstate``; this is for helpers called outside one.)"""
    @functools.wraps(fn)
    def quietly(*args, **kwargs):
        return quiet_call(fn, *args, **kwargs)
    return quietly

_NUMBERS = (float, int, bool, np.number, np.bool_)
_new = object.__new__
_KIND_RANK = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}
_CATEGORY = {"b": 0, "u": 1, "i": 1, "f": 2}
_DEFAULT = {0: np.dtype(np.bool_), 1: np.dtype(np.int64), 2: None}  # 2: the default dtype


class WrappedNumber(Tensor):
    """A Python number used as an operand, as PyTorch wraps it: a constant 0-d tensor of the
    number's own dtype (int64, float64 or bool: ``x * 2`` saves ``tensor(2)``) that promotes
    like a number (``float32 tensor * 2.5`` stays float32) and is cast to the result's dtype
    before an op computes with it. It prints as a plain tensor."""

    __slots__ = ()
    _wrapped_number = True  # saved_tensors_hooks leave it alone, as PyTorch's do
    # A float operand's WrappedNumber is made once and shared by the ops that use the float
    # (``_FLOAT_OPERANDS``), while no observer watches: nothing keeps or changes it (a saved
    # number is kept as its array; an unpacked one is a new tensor).
    _shared = False
    _cast_memo = (None, None)  # (dtype, the array cast to it) of its last use, when shared

    def _array_for(self, dtype):
        return number_array_for(self._data, dtype)


def number_array_for(data, dtype):
    """A number's array ``data`` cast to the gradient's dtype, as the forward cast it
    (``x * 0.999`` multiplies a float32 ``x`` by float32(0.999)), unless the number is of a
    higher kind."""
    if data.dtype is dtype:
        return data
    entry = _CASTS.get(id(data))  # (_cast, inlined: the cast of a cached number, kept)
    cast = entry[1].get(dtype) if entry is not None else None
    if cast is not None:
        return cast
    if data.dtype == dtype or _KIND_RANK.get(dtype.kind, 3) < _KIND_RANK.get(
            data.dtype.kind, 3):
        return data
    return _cast(data, dtype)


def wrapped_number(data):
    """A new WrappedNumber of the 0-d array ``data``; a cached number's (read-only) shares
    the version counter that never moves."""
    t = WrappedNumber._make(data)
    t._vc = _NUMBER_VERSION if not data.flags.writeable else [0]
    return t


# The 0-d arrays of the numbers used as operands, and their casts, made once per number:
# ``y * 0.999`` in a loop makes neither an array nor a cast per op. The arrays are read-only (a
# WrappedNumber is never changed in place). At _CACHE_SIZE numbers the tables start again
# (a learning-rate schedule makes a new number every step): what was handed out stays valid.
_NUMBER_ARRAYS = {}   # (type, value): the number's array
_FLOAT_OPERANDS = {}  # the floats among them by value alone: their shared WrappedNumbers
_CASTS = {}           # id(array): (the array, {dtype: its cast}); the entry keeps the array
#                       alive, so that no other array can come to have its id
# The version counter of the cached numbers' tensors: their arrays are read-only, so it never
# moves, and sharing it spares a counter per number saved for backward.
_NUMBER_VERSION = [0]
_CACHE_SIZE = 1024


def _number_array(value):
    key = (type(value), value)
    try:
        array = _NUMBER_ARRAYS.get(key)
    except TypeError:  # an unhashable NumPy number: no cache
        return np.asarray(value)
    if array is None:
        array = np.asarray(value)
        # Not cached: NaN (NaN != NaN: never found again) and a float zero (0.0 == -0.0,
        # one key); an int or bool zero is (``sum()`` of tensors starts from 0)
        if value == value and (value != 0 or type(value) is int or type(value) is bool):
            if len(_NUMBER_ARRAYS) >= _CACHE_SIZE:
                _NUMBER_ARRAYS.clear()
                _CASTS.clear()
                _FLOAT_OPERANDS.clear()
            array.flags.writeable = False
            _NUMBER_ARRAYS[key] = array
            _CASTS[id(array)] = (array, {})
    return array


def _cast(data, dtype):
    """``data.astype(dtype)``, kept for the arrays of cached numbers."""
    entry = _CASTS.get(id(data))
    if entry is None:
        return data.astype(dtype)
    casts = entry[1]
    cast = casts.get(dtype)
    if cast is None:
        cast = casts[dtype] = data.astype(dtype)
        cast.flags.writeable = False
    return cast


def as_tensor_operand(value, like):
    """Turn a Python number into a WrappedNumber; pass tensors through; ``like`` is the other
    operand (kept for the signature: a number's dtype does not depend on it)."""
    if type(value) is float and not _inference_blocks[0] and not _watching[0]:
        operand = _FLOAT_OPERANDS.get(value)  # the commonest: a float used before
        if operand is not None:
            return operand
    elif isinstance(value, Tensor):
        return value
    if isinstance(value, _NUMBERS):
        array = _number_array(value)  # (cached: found there)
        operand = wrapped_number(array)
        if not array.flags.writeable:  # a cached number: shared while nothing watches
            if type(value) is float and not _inference_blocks[0] and not _watching[0]:
                operand._shared = True
                _FLOAT_OPERANDS[value] = operand
        return operand
    if isinstance(value, (list, tuple, np.ndarray)):
        from minigrad.factories import tensor
        return tensor(value)
    raise TypeError(f"unsupported operand type: '{type(value).__name__}'")


def as_input(op, value):
    """The first operand of a functional form: ``minigrad.add(3, x)`` wraps the number, as
    PyTorch does; anything else but a tensor is PyTorch's TypeError."""
    if isinstance(value, (Tensor, *_NUMBERS)):
        return as_tensor_operand(value, None)
    raise TypeError(f"{op}(): argument 'input' (position 1) must be Tensor, not "
                    f"{type_name(value)}")


def cast_numbers(a, b):
    """The arrays of ``a`` and ``b`` to compute with: a WrappedNumber is cast to the dtype of
    the result (None when the dtypes already agree), as PyTorch casts a wrapped number."""
    data_a, data_b = a._data, b._data
    dtype_a = data_a.dtype
    if dtype_a is data_b.dtype:
        return data_a, data_b, None
    if type(b) is WrappedNumber and type(a) is not WrappedNumber:
        # x * 0.5 again: the number's cast to x's dtype is kept (a number is cast only to
        # the dtype of a result): on the shared operand itself for the last dtype, else here
        memo = b._cast_memo
        if memo[0] is dtype_a:
            return data_a, memo[1], dtype_a
        entry = _CASTS.get(id(data_b))
        cast = entry[1].get(dtype_a) if entry is not None else None
        if cast is not None:
            if b._shared:
                b._cast_memo = (dtype_a, cast)
            return data_a, cast, dtype_a
    if dtype_a == data_b.dtype:
        return data_a, data_b, None
    if (type(b) is WrappedNumber and type(a) is not WrappedNumber
            and _CATEGORY[data_a.dtype.kind] >= _CATEGORY[data_b.dtype.kind]):
        entry = _CASTS.get(id(data_b))  # (_cast, inlined)
        cast = entry[1].get(data_a.dtype) if entry is not None else None
        if cast is None:
            cast = _cast(data_b, data_a.dtype)
        return data_a, cast, data_a.dtype  # x * 2: x's dtype wins
    if (type(a) is WrappedNumber and type(b) is not WrappedNumber
            and _CATEGORY[data_b.dtype.kind] >= _CATEGORY[dtype_a.kind]):
        return _cast(data_a, data_b.dtype), data_b, data_b.dtype  # 1 - x: x's dtype wins
    dtype = result_dtype(a, b)
    if type(a) is WrappedNumber:
        data_a = _cast(data_a, dtype)
    if type(b) is WrappedNumber:
        data_b = _cast(data_b, dtype)
    return data_a, data_b, dtype


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
                return _DEFAULT[top] or _dtype.default_float.numpy
            return np.result_type(*pool)
    return np.result_type(*dtypes)


def _rank(t):
    if isinstance(t, WrappedNumber):
        return 0
    return 1 if t._data.ndim == 0 else 2


def type_name(value):
    """A value's type as PyTorch's argument errors name it: ``list``, ``numpy.ndarray``,
    ``torch.return_types.max`` (minigrad's return types carry that dotted name)."""
    cls = type(value)
    if cls.__module__ == "numpy":
        return f"numpy.{cls.__name__}"
    return "minigrad.Size" if cls is Size else cls.__name__


def check_tensor_arg(op, name, value, position):
    """PyTorch's TypeError for an argument that must be a tensor (``position`` counts from 1
    after ``self`` for a method, from 1 for a function)."""
    if not isinstance(value, Tensor):
        raise TypeError(f"{op}(): argument '{name}' (position {position}) must be Tensor, not "
                        f"{type_name(value)}")


def floating_result(name, a, b):
    """The dtype two tensor arguments of ``name`` promote to, which must be floating (else
    PyTorch's "``name``_cpu" not implemented for that dtype)."""
    check_tensor_arg(name, "input", a, 1)
    check_tensor_arg(name, "other", b, 2)
    dtype = result_dtype(a, b)
    if dtype.kind != "f":
        raise _dtype.not_implemented(f"{name}_cpu", _dtype.from_numpy_dtype(dtype))
    return dtype


_OPERANDS = (Tensor, numbers.Number, np.bool_)


def check_operand(op, name, value):
    """A method's operand that PyTorch reads as a tensor (a number is wrapped): anything else,
    a list or a tuple included, is its TypeError."""
    if not isinstance(value, _OPERANDS):
        check_tensor_arg(op, name, value, 1)


def check_overloads(op, args, forms=("Tensor other", "Number other"), tensor_first=False):
    """A method with a Tensor and a Number form (``x.ge(other)``): PyTorch's TypeError when one
    of ``args`` (the arguments after ``self``) is neither (or, with ``tensor_first``, when the
    first is not a tensor); ``forms`` are the signatures it lists."""
    if all(isinstance(a, _OPERANDS) for a in args) and (
            not tensor_first or isinstance(args[0], Tensor)):
        return
    got = ", ".join("Tensor" if isinstance(a, Tensor) else type_name(a) for a in args)
    listed = "".join(f" * ({form})\n" for form in forms)
    raise TypeError(f"{op}() received an invalid combination of arguments - got ({got}), but "
                    f"expected one of:\n{listed}")


def shapes_of(a, b):
    """``(a.shape, b.shape)`` of two tensors as a tuple shared with the nodes that saved the
    same pair (see minigrad._shared), for the ``backward`` of a broadcasting op."""
    shapes = a._data.shape, b._data.shape
    return _SHAPES.get(shapes) or shared(_SHAPES, shapes)


_SHAPES = {}


def sum_to(grad, shape):
    """Sum ``grad`` (a tensor, or an array in a backward on arrays) down to ``shape``: the
    backward of an implicit broadcast."""
    if type(grad) is ndarray:  # (first: a backward on arrays, the common case)
        return grad if grad.shape == shape else _sum_array_to(grad, shape)
    if not isinstance(grad, Tensor):  # the NumPy scalar of a 0-d result
        grad = np.asarray(grad)
        return grad if grad.shape == shape else _sum_array_to(grad, shape)
    if grad._data.shape == shape:
        return grad
    if shape == ():
        return grad.sum()  # as PyTorch's sum_to: one SumBackward0
    lead = grad.ndim - len(shape)
    dims = tuple(range(lead)) + tuple(
        lead + i for i, n in enumerate(shape) if n == 1 and grad.shape[lead + i] != 1)
    if dims:
        grad = grad.sum(dims, keepdim=True)
    return grad.view(shape) if grad.shape != shape else grad


def zero_grad(grad, shape=None):
    """A derivative that is 0 as PyTorch writes it (``zeros_like(grad)``): constant zeros of
    grad's dtype (and of ``shape``, else grad's), not ``grad * 0``, which would be recorded
    under ``create_graph`` and turn an infinite grad into nan."""
    data = grad._data if isinstance(grad, Tensor) else np.asarray(grad)
    return Tensor._make(np.zeros(data.shape if shape is None else shape, data.dtype))


def zero_of(dtype):
    """A read-only 0-d zero of ``dtype``, made once: ``np.maximum(x, zero_of(x.dtype))`` costs
    a third less than ``np.maximum(x, 0)``, which resolves the dtype of a Python number."""
    zero = _ZEROS.get(dtype)
    if zero is None:
        zero = np.zeros((), dtype)
        zero.flags.writeable = False
        _ZEROS[dtype] = zero
    return zero


_ZEROS = {}  # dtype: its zero (zero_of)


def zeroed(grad, drop):
    """``np.where(drop, 0, grad)`` for two arrays of one shape: ``grad`` with a zero wherever
    ``drop`` is True (an inf or NaN there as well).

    For a float ``grad`` of some size it ANDs ``grad``'s bits with a mask (all ones where kept,
    none where dropped), several times faster than where(): where() branches per element,
    which relu's random signs make a miss half of the time.
    """
    bits = _SAME_SIZE_INT.get(grad.dtype.itemsize) if grad.dtype.kind == "f" else None
    if bits is None or grad.size < 1024 or drop.shape != grad.shape:
        return np.where(drop, zero_of(grad.dtype), grad)
    keep = drop.astype(bits)  # 1 where dropped, 0 where kept
    keep -= 1                 # all bits clear where dropped, all set where kept
    keep &= grad.view(bits)
    return keep.view(grad.dtype)


_SAME_SIZE_INT = {2: np.dtype(np.int16), 4: np.dtype(np.int32), 8: np.dtype(np.int64)}


def _sum_array_to(grad, shape):
    if grad.shape == shape:
        return grad
    lead = grad.ndim - len(shape)
    if lead == 1 and shape and 1 not in shape:  # a bias's gradient (one leading dimension)
        return np.add.reduce(grad, axis=0)
    dims = tuple(range(lead)) + tuple(
        lead + i for i, n in enumerate(shape) if n == 1 and grad.shape[lead + i] != 1)
    return np.asarray(np.add.reduce(grad, axis=dims, keepdims=True)).reshape(shape)


# Formula helpers: a backward formula written with these runs on tensors (recorded, so that
# create_graph differentiates it again) and, in a backward on arrays (``array_backward``), on
# NumPy arrays: one formula for both.

def apply_op(op, *args):
    """``op.apply(*args)`` on tensors; on arrays, ``op.compute(*args)``: the math the op's
    forward does on its tensors' arrays."""
    if type(args[0]) is ndarray:
        return op.compute(*args)
    return op.apply(*args)


def expand_to(grad, shape):
    """``grad.expand(shape)`` (a read-only broadcast view on arrays)."""
    if type(grad) is not ndarray:
        return grad.expand(shape)
    if grad.ndim:
        return np.broadcast_to(grad, shape)
    # A number's gradient (sum, mean) everywhere: what np.broadcast_to makes, at a fifth of
    # its cost (every stride 0, read-only).
    view = np.ndarray(shape, grad.dtype, grad, 0, (0,) * len(shape))
    view.flags.writeable = False
    return view


def unsqueeze_to(grad, dims):
    """``grad`` with a dimension of size 1 put back at each of ``dims`` (ascending)."""
    if type(grad) is ndarray:
        return np.expand_dims(grad, dims) if dims else grad
    for d in dims:
        grad = grad.unsqueeze(d)
    return grad


def swap_dims(x, dim0, dim1):
    """``x.transpose(dim0, dim1)`` (``ndarray.transpose`` permutes: ``np.swapaxes`` swaps)."""
    if type(x) is ndarray:
        return np.swapaxes(x, dim0, dim1) if x.ndim else x
    return x.transpose(dim0, dim1)


def transposed(x):
    """``x.t()``: a matrix transposed (fewer dimensions: itself)."""
    return x.T if type(x) is ndarray else x.t()


def permute_to(x, dims):
    """``x.permute(dims)``."""
    return np.transpose(x, dims) if type(x) is ndarray else x.permute(dims)


def normalize_dim(dim, ndim, op=None):
    """Wrap a negative dim and check its range as PyTorch does."""
    n = max(ndim, 1)
    if not -n <= dim < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], "
                         f"but got {dim})")
    return dim % n


def qualified_node_name(node):
    """``name()`` of the nodes PyTorch writes by hand (CopyBackwards, CopySlices): qualified."""
    return f"minigrad::autograd::{type(node).__name__}"


def shape_error(op, *shapes, detail=""):
    """The error for operands whose shapes do not fit, naming the op and the shapes."""
    parts = " and ".join(str(list(s)) for s in shapes)
    return RuntimeError(f"{op}: shapes {parts} cannot be used together{detail}")


# The lean saved slots of a node (autograd/function.py) keep a number as its array; they
# unpack it through this module, which imports autograd and so cannot be imported by it.
_function._numbers = sys.modules[__name__]
