"""``minigrad.device``: where a tensor lives. minigrad computes on the CPU only.

``device('cpu')`` and the ``device=`` argument of factories and ``.to()`` are accepted, so that
PyTorch programs written for "GPU if available, else CPU" run unchanged: such programs ask
``minigrad.cuda.is_available()`` (False) and pick ``'cpu'``. Asking for CUDA anyway raises
PyTorch's error on a CPU-only build, ``AssertionError: Torch not compiled with CUDA enabled``.
"""

import functools
import re

__all__ = ["device", "as_device", "check_device", "CPU", "set_default_device",
           "get_default_device", "NO_CUDA", "checks_device"]

NO_CUDA = "Torch not compiled with CUDA enabled"  # PyTorch's text on a CPU-only build
NO_ACCELERATOR = "Cannot access accelerator device when none is available."
# The device types PyTorch's parser knows, in the order its error message lists them.
_KNOWN_TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve",
                "fpga", "maia", "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia",
                "privateuseone")


def _bad_index():
    return RuntimeError("Device index must not be negative")


class device:
    """A device type and optional index: ``device('cpu')``, ``device('cuda', 0)``, ``'cpu:0'``.

    Only ``'cpu'`` can hold tensors; other devices can be named (PyTorch programs name
    ``'cuda'`` in a branch that is not taken) but not used.

    Example:
        >>> minigrad.device('cpu')
        device(type='cpu')
        >>> minigrad.tensor([1.0]).device
        device(type='cpu')
        >>> str(minigrad.device('cpu', 0))
        'cpu:0'
    """

    __slots__ = ("type", "index")

    def __init__(self, type=None, index=None):  # noqa: A002 - PyTorch's names
        if isinstance(type, device) and index is None:
            type, index = type.type, type.index
        elif isinstance(type, int) and not isinstance(type, bool) and index is None:
            if type < 0:
                raise _bad_index()
            raise RuntimeError(NO_ACCELERATOR)  # an int names an accelerator device
        elif not isinstance(type, str):
            name = "NoneType" if type is None else _type_name(type)
            raise TypeError(f"device() received an invalid combination of arguments - got "
                            f"({name}), but expected one of:")
        else:
            type, parsed = _parse(type)
            if parsed is not None and index is not None:
                raise RuntimeError("type (string) must not include an index because index "
                                   f"was passed explicitly: {type}:{parsed}")
            index = parsed if index is None else index
        if index is not None and index < 0:
            raise _bad_index()
        object.__setattr__(self, "type", type)
        object.__setattr__(self, "index", index)

    def __setattr__(self, name, value):
        raise AttributeError(f"attribute '{name}' of 'minigrad.device' objects is not "
                             "writable")

    def __repr__(self):
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __str__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other):
        # As in PyTorch: a device never equals a string, and 'cpu' differs from 'cpu:0'.
        if not isinstance(other, device):
            return False
        return (self.type, self.index) == (other.type, other.index)

    def __hash__(self):
        return hash((self.type, self.index))

    def __reduce__(self):
        return (device, (str(self),))

    def __enter__(self):
        """``with device("cpu"):`` makes it the default device inside the block."""
        global _default
        _entered.append(_default)
        _default = self
        return self

    def __exit__(self, *exc):
        global _default
        _default = _entered.pop()
        return False


def _type_name(value):
    return type(value).__name__


def _parse(text):
    """``'cuda:1'`` -> ``('cuda', 1)``, with PyTorch's errors for malformed strings."""
    if not text:
        raise RuntimeError("Device string must not be empty")
    match = _DEVICE_STRING.match(text)
    if match is None:
        raise RuntimeError(f"Invalid device string: '{text}'")
    kind, index = match.groups()
    if kind not in _KNOWN_TYPES:
        raise RuntimeError(f"Expected one of {', '.join(_KNOWN_TYPES)} device type at start "
                           f"of device string: {kind}")
    return kind, None if index is None else int(index)


_DEVICE_STRING = re.compile(r"([a-zA-Z_]+)(?::([1-9][0-9]*|0))?\Z")
CPU = device("cpu")
_default = None  # set_default_device's choice (None: the CPU)
_entered = []  # the defaults that ``with device(...):`` blocks replaced


def as_device(spec, func=None):
    """A ``device`` from a device, a string or an int (PyTorch's forms of ``device=``)."""
    if isinstance(spec, device):
        return spec
    if isinstance(spec, (str, int)) and not isinstance(spec, bool):
        return device(spec)
    if func is not None:
        raise TypeError(f"{func}(): argument 'device' must be minigrad.device, not "
                        f"{type(spec).__name__}")
    return device(spec)


def check_device(spec, func=None):
    """Make sure a tensor can live on ``spec`` (None: the default device); return the CPU.

    Raises PyTorch's errors: CUDA is not compiled in, MPS is not linked.
    NB: PyTorch can put tensors on the ``meta`` device (shapes without data); minigrad cannot.
    """
    target = _default if spec is None else as_device(spec, func)
    if target is None or target.type == "cpu":
        return CPU
    if target.type == "cuda":
        raise AssertionError(NO_CUDA)
    if target.type == "mps":
        raise RuntimeError("PyTorch is not linked with support for mps devices")
    raise RuntimeError(f"minigrad runs on the CPU only: cannot use device '{target}'")


def checks_device(factory):
    """Wrap a factory so that its ``device=`` argument (or the default device) is checked."""
    @functools.wraps(factory)
    def wrapper(*args, **kwargs):
        if kwargs or _default is not None:  # the common call, f(2, 3), checks nothing
            check_device(kwargs.get("device"), factory.__name__)
        return factory(*args, **kwargs)
    return wrapper


def set_default_device(spec):
    """Set the device that factories use when no ``device=`` is given (None: the CPU).

    As in PyTorch, a CUDA default is accepted here and fails at the next factory call.

    Example:
        >>> minigrad.set_default_device('cpu')
        >>> minigrad.get_default_device()
        device(type='cpu')
        >>> minigrad.set_default_device(None)
    """
    global _default
    _default = None if spec is None else as_device(spec)


def get_default_device():
    """The device factories use by default (the CPU unless ``set_default_device`` chose one)."""
    if _default is None or _default.type == "cpu":
        return CPU
    return check_device(_default)
