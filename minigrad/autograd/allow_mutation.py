"""``allow_mutation_on_saved_tensors()``: change tensors in place although backward needs them.

Inside the block every tensor saved for backward is registered; just before an in-place op
writes to memory that a saved tensor uses, that saved tensor is cloned, and backward reads the
clone. So the gradient is that of the values the forward pass saw, as in PyTorch.
"""

import contextlib

import numpy as np

from minigrad.autograd.graph_hooks import saved_tensors_hooks

__all__ = ["allow_mutation_on_saved_tensors", "before_mutation", "active"]

active = None  # the open block's _Context (one at a time, as in PyTorch)

OUTSIDE = ("Trying to backward outside of the 'allow_mutation_on_saved_tensors' context"
           "in which the graph was originally recorded.")  # NB: PyTorch's words, space missing


def _memory(array):
    """The array that owns the memory of ``array`` (views share it)."""
    while isinstance(array.base, np.ndarray):
        array = array.base
    return id(array)


class _Saved:
    __slots__ = ("tensor", "clone")

    def __init__(self, tensor):
        self.tensor, self.clone = tensor, None


class _Context:
    def __init__(self):
        self.saved = {}  # memory id -> [_Saved]
        self.closed = False

    def pack(self, tensor):
        entry = _Saved(tensor)
        self.saved.setdefault(_memory(tensor._data), []).append(entry)
        return self, entry

    @staticmethod
    def unpack(packed):
        context, entry = packed
        if context.closed:
            raise AssertionError(OUTSIDE)
        return entry.tensor if entry.clone is None else entry.clone


def before_mutation(tensor):
    """Called by in-place ops: clone the saved tensors that share ``tensor``'s memory."""
    for entry in active.saved.get(_memory(tensor._data), ()):
        if entry.clone is None:
            entry.clone = entry.tensor.detach().clone()


@contextlib.contextmanager
def allow_mutation_on_saved_tensors():
    """A block in which tensors saved for backward may be changed in place.

    Example:
        >>> with minigrad.autograd.graph.allow_mutation_on_saved_tensors():
        ...     x = minigrad.tensor([1.0, 2.0], requires_grad=True)
        ...     a = x.clone()
        ...     y = a * a
        ...     _ = a.mul_(2)             # a was saved by y: backward uses its old values
        ...     y.sum().backward()
        >>> x.grad
        tensor([2., 4.])
    """
    global active
    if active is not None:
        raise RuntimeError("allow_mutation_on_saved_tensors contexts cannot be nested")
    context = _Context()
    with saved_tensors_hooks(context.pack, _Context.unpack):
        active = context
        try:
            yield context
        finally:
            active = None
            context.closed = True
            context.saved.clear()
