"""``save`` and ``load``: tensors, Parameters, ``state_dict``s and whole modules in a file.

The file is a pickle. A tensor is stored as its dtype, shape, bytes and ``requires_grad`` (not its
graph or ``.grad``: a non-leaf is saved as a new leaf, as in PyTorch). ``load`` uses
``weights_only=True`` by default, as PyTorch 2.6 and later do: it rebuilds only tensors, numbers,
strings, containers and a few of minigrad's plain types, and refuses any other class (a whole
module, say) with PyTorch's "Weights only load failed" error, because unpickling an arbitrary
class can run arbitrary code. Pass ``weights_only=False`` for files you trust.

NB: PyTorch writes a zip archive, and keeps views of one storage sharing it after a reload;
minigrad writes a plain pickle stream, each tensor with its own copy of its values. The two
formats cannot read each other's files.
"""

import codecs
import collections
import contextlib
import os
import pickle

import numpy as np

from minigrad import _device, _dtype

__all__ = ["save", "load", "add_safe_globals", "get_safe_globals", "clear_safe_globals",
           "safe_globals", "rebuild_tensor", "tensor_reduce", "tensor_deepcopy"]

DEFAULT_PROTOCOL = 2  # the pickle protocol PyTorch uses
_user_safe_globals = []

DEEPCOPY_NON_LEAF = (
    "Only Tensors created explicitly by the user (graph leaves) support the deepcopy protocol "
    "at the moment.  If you were attempting to deepcopy a module, this may be because of a "
    "minigrad.nn.utils.weight_norm usage, see https://github.com/pytorch/pytorch/pull/103001")


# ---------------------------------------------------------------------------- tensors as pickles
def rebuild_tensor(dtype_name, shape, values, requires_grad, cls_name="Tensor",
                   display_name=None):
    """A leaf tensor from what ``tensor_reduce`` stored (called by the unpickler)."""
    from minigrad.tensor import Tensor
    array = np.frombuffer(values, dtype=_dtype.to_dtype(dtype_name).numpy).reshape(shape).copy()
    if cls_name == "Parameter":
        from minigrad.nn.parameter import Parameter
        param = Parameter(Tensor._make(array), requires_grad)
        param._display_name = display_name
        return param
    t = Tensor._make(array)
    t._requires_grad = requires_grad
    return t


def tensor_reduce(t):
    """How ``pickle`` (and ``copy.copy``) store a tensor: dtype, shape, bytes, requires_grad."""
    cls_name = "Parameter" if type(t).__name__ == "Parameter" else "Tensor"
    return (rebuild_tensor, (t.dtype.name, tuple(t.shape),
                             np.ascontiguousarray(t._data).tobytes(), t.requires_grad, cls_name,
                             t.__dict__.get("_display_name")))


def tensor_deepcopy(t, memo):
    """``copy.deepcopy`` of a leaf: values, ``requires_grad`` and a copy of ``.grad``."""
    if t.grad_fn is not None:
        raise RuntimeError(DEEPCOPY_NON_LEAF)
    from minigrad.tensor import Tensor
    copy = Tensor._make(t._data.copy())
    copy._requires_grad = t._requires_grad
    memo[id(t)] = copy
    if t._grad is not None:
        copy._grad = tensor_deepcopy(t._grad, memo)
    return copy


# ---------------------------------------------------------------------------- save
def save(obj, f, pickle_module=pickle, pickle_protocol=DEFAULT_PROTOCOL,
         _use_new_zipfile_serialization=True):
    """Write ``obj`` (a tensor, a ``state_dict``, a module, any picklable object) to ``f``.

    Args:
        obj: what to save.
        f: a path (str or ``os.PathLike``) or a binary file object.

    Example:
        >>> import io
        >>> buffer = io.BytesIO()
        >>> minigrad.save({"w": minigrad.tensor([1.0, 2.0])}, buffer)
        >>> _ = buffer.seek(0)
        >>> minigrad.load(buffer)
        {'w': tensor([1., 2.])}
    """
    with _opened(f, "wb") as file:
        pickle_module.dump(obj, file, protocol=pickle_protocol)


# ---------------------------------------------------------------------------- load
def _allowed():
    """The globals a weights-only load may rebuild, by (module, name)."""
    from minigrad.tensor import Size
    # _codecs.encode rebuilds ``bytes`` in protocol 2 (PyTorch's weights-only loader allows it)
    allowed = [collections.OrderedDict, rebuild_tensor, _dtype._by_name, _device.device, Size,
               set, frozenset, complex, slice, bytearray, range, codecs.encode]
    return {(g.__module__, g.__qualname__): g for g in allowed + list(_user_safe_globals)}


class _WeightsUnpickler(pickle.Unpickler):
    def find_class(self, module, name):
        allowed = _allowed()
        if (module, name) in allowed:
            return allowed[(module, name)]
        raise pickle.UnpicklingError(_weights_only_message(
            f"Unsupported global: GLOBAL {module}.{name} was not an allowed global by default. "
            f"Please use `minigrad.serialization.add_safe_globals([{module}.{name}])` or the "
            f"`minigrad.serialization.safe_globals([{module}.{name}])` context manager to "
            "allowlist this global if you trust this class/function."))


def _weights_only_message(reason):
    return ("Weights only load failed. This file can still be loaded, to do so you have two "
            "options, \x1b[1mdo those steps only if you trust the source of the "
            "checkpoint\x1b[0m. \n\t(1) `weights_only` is True by default in `minigrad.load` (as "
            "in PyTorch since 2.6). Loading with `weights_only=False` will likely succeed, but "
            "unpickling can run arbitrary code: do it only for a file from a trusted source.\n"
            "\t(2) Or keep `weights_only=True` and allow the class named below.\n"
            f"\tWeightsUnpickler error: {reason}")


def load(f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None,
         **pickle_load_args):
    """Read back what ``save`` wrote.

    Args:
        f: a path (str or ``os.PathLike``) or a binary file object.
        map_location: where to put the tensors: ``'cpu'``, a ``device``, a dict or a function
            are accepted (everything lands on the CPU); CUDA raises PyTorch's error.
        weights_only: True (the default) rebuilds only tensors, numbers, strings, containers,
            dtypes, devices and sizes; False unpickles anything (trusted files only).

    Example:
        >>> import io
        >>> buffer = io.BytesIO()
        >>> minigrad.save(nn.Linear(2, 1), buffer)
        >>> _ = buffer.seek(0)
        >>> minigrad.load(buffer, weights_only=False)
        Linear(in_features=2, out_features=1, bias=True)
    """
    _check_map_location(map_location)
    if weights_only is None:
        weights_only = os.environ.get("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD", "0") in ("0", "")
    if weights_only and pickle_module is not None:
        raise RuntimeError("Can not safely load weights when explicit pickle_module is "
                           "specified")
    with _opened(f, "rb") as file:
        if not weights_only:
            return (pickle_module or pickle).load(file, **pickle_load_args)
        try:
            return _WeightsUnpickler(file, **pickle_load_args).load()
        except pickle.UnpicklingError as error:
            if str(error).startswith("Weights only load failed"):
                raise
            raise pickle.UnpicklingError(_weights_only_message(str(error))) from None


def _check_map_location(map_location):
    targets = map_location.values() if isinstance(map_location, dict) else [map_location]
    for target in targets:
        if isinstance(target, (str, _device.device)):
            if _device.as_device(target).type == "cuda":
                raise RuntimeError(
                    "Attempting to deserialize object on a CUDA device but "
                    "minigrad.cuda.is_available() is False. If you are running on a CPU-only "
                    "machine, please use minigrad.load with "
                    "map_location=minigrad.device('cpu') to map your storages to the CPU.")
            _device.check_device(target)


@contextlib.contextmanager
def _opened(f, mode):
    if isinstance(f, (str, os.PathLike)):
        with open(f, mode) as file:
            yield file
    else:
        yield f


# ---------------------------------------------------------------------------- allowlist
def add_safe_globals(safe_globals):
    """Allow these classes or functions in weights-only loads."""
    _user_safe_globals.extend(safe_globals)


def get_safe_globals():
    return list(_user_safe_globals)


def clear_safe_globals():
    _user_safe_globals.clear()


@contextlib.contextmanager
def safe_globals(globals_):
    """Allow ``globals_`` in weights-only loads inside a ``with`` block."""
    before = list(_user_safe_globals)
    _user_safe_globals.extend(globals_)
    try:
        yield
    finally:
        _user_safe_globals[:] = before

