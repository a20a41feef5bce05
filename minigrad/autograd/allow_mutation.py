"""``allow_mutation_on_saved_tensors()``: change tensors in place although backward needs them.

Inside the block every tensor saved for backward is registered; just before an in-place op
writes to memory that a saved tensor uses, that saved tensor is cloned, and backward reads the
clone. So the gradient is that of the values the forward pass saw, as in PyTorch.
"""

import contextlib
import threading
import weakref

import numpy as np

from minigrad.autograd.graph_hooks import saved_tensors_hooks

__all__ = ["allow_mutation_on_saved_tensors", "before_mutation", "active"]

# The open block's _Context. One at a time in the whole process, as in PyTorch (a second block
# in another thread raises too), but it clones only before in-place ops of the thread that
# opened it (the saved tensors hooks it uses are that thread's alone).
active = None

OUTSIDE = ("Trying to backward outside of the 'allow_mutation_on_saved_tensors' context"
           "in which the graph was originally recorded.")  # NB: PyTorch's words, space missing


def _memory(array):
    """The array that owns the memory of ``array`` (views share it)."""
    while isinstance(array.base, np.ndarray):
        array = array.base
    return id(array)


class _Saved:
    """What the pack hook returns: a handle on one saved tensor (weakly referenceable, so that
    the context forgets it when the graph frees it)."""

    __slots__ = ("context", "__weakref__")

    def __init__(self, context):
        self.context = context


class _Context:
    """The state of one block: ``original`` and ``cloned`` map each live saved-tensor handle to
    the tensor saved and to its clone (made before the first change in place)."""

    def __init__(self):
        self.original = weakref.WeakKeyDictionary()
        self.cloned = weakref.WeakKeyDictionary()
        self.by_memory = {}  # memory id -> WeakSet of handles
        self.by_tensor = {}  # (tensor id, version counter id, version) -> weakref to handle
        self.closed = False
        self.thread = threading.get_ident()

    @property
    def tid_to_weakhandle(self):
        """PyTorch's name for the live entries: (tensor, version) -> handle of what is saved."""
        live = {key: ref() for key, ref in self.by_tensor.items()}
        return {key: handle for key, handle in live.items() if handle is not None}

    def pack(self, tensor):
        key = (id(tensor), id(tensor._version_counter), tensor._version_counter[0])
        known = self.by_tensor.get(key)
        handle = known() if known is not None else None
        if handle is not None:  # the same tensor saved again: one handle, one clone
            return handle
        handle = _Saved(self)
        self.by_tensor[key] = weakref.ref(handle)
        self.original[handle] = tensor
        self.by_memory.setdefault(_memory(tensor._data), weakref.WeakSet()).add(handle)
        return handle

    @staticmethod
    def unpack(handle):
        context = handle.context
        if context.closed:
            raise AssertionError(OUTSIDE)
        clone = context.cloned.get(handle)
        return context.original[handle] if clone is None else clone

    def clear(self):
        self.closed = True
        self.original.clear()
        self.cloned.clear()
        self.by_memory.clear()
        self.by_tensor.clear()


def before_mutation(tensor):
    """Called by in-place ops: clone the saved tensors that share ``tensor``'s memory."""
    context = active
    if context is None or context.thread != threading.get_ident():
        return
    for handle in list(context.by_memory.get(_memory(tensor._data), ())):
        if handle not in context.cloned:
            context.cloned[handle] = context.original[handle].detach().clone()


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
            context.clear()
