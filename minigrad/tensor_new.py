"""``Tensor.new_*``: new tensors that take their dtype from an existing one (PyTorch's
``tensor_new``). They are leaves, never part of a graph, and copy their data."""

import importlib

from minigrad.tensor import Size, Tensor

__all__ = ["new", "new_tensor", "new_zeros", "new_ones", "new_empty", "new_full"]


class _Factories:
    """``minigrad.factories``, imported on first use (it imports the ops, which import
    Tensor: this module is loaded with Tensor)."""

    def __getattr__(self, name):
        return getattr(importlib.import_module("minigrad.factories"), name)


factories = _Factories()


def new(self, *args):
    """The legacy constructor: ``t.new()`` (empty), ``t.new(2, 3)`` or ``t.new(Size)`` (sizes),
    ``t.new([1, 2])`` (data), all in ``t``'s dtype.

    Example:
        >>> minigrad.tensor([1.0]).new([1, 2])
        tensor([1., 2.])
    """
    if not args:
        return factories.empty(0, dtype=self.dtype)
    if len(args) == 1 and isinstance(args[0], Tensor):
        return args[0].detach()
    if len(args) == 1 and not isinstance(args[0], (int, Size)):
        return factories.tensor(args[0], dtype=self.dtype)
    return factories.empty(*args, dtype=self.dtype)


def new_tensor(self, data, dtype=None, device=None, requires_grad=False):
    """A copy of ``data`` in ``t``'s dtype (or ``dtype``).

    Example:
        >>> minigrad.tensor([1], dtype=minigrad.int32).new_tensor([1.5])
        tensor([1], dtype=minigrad.int32)
    """
    if isinstance(data, Tensor):
        data = data.detach()
    return factories.tensor(data, dtype=dtype or self.dtype, requires_grad=requires_grad)


def _sized(name):
    def make(self, *size, dtype=None, device=None, requires_grad=False):
        return getattr(factories, name)(*size, dtype=dtype or self.dtype,
                                        requires_grad=requires_grad)
    make.__name__ = f"new_{name}"
    make.__doc__ = f"``{name}(size)`` in ``t``'s dtype (or ``dtype``)."
    return make


new_zeros = _sized("zeros")
new_ones = _sized("ones")
new_empty = _sized("empty")


def new_full(self, size, fill_value, dtype=None, device=None, requires_grad=False):
    """``full(size, fill_value)`` in ``t``'s dtype (or ``dtype``).

    Example:
        >>> minigrad.tensor([1.0]).new_full((2,), 7)
        tensor([7., 7.])
    """
    return factories.full(size, fill_value, dtype=dtype or self.dtype,
                          requires_grad=requires_grad)
