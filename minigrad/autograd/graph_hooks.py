"""Hooks on the graph as a whole, as in ``torch.autograd.graph``.

- ``saved_tensors_hooks(pack_hook, unpack_hook)``: decide how tensors saved for backward are
  stored (``pack_hook(tensor) -> anything``) and brought back (``unpack_hook(packed) ->
  tensor``), e.g. to log them, compress them or keep them on disk.
- ``disable_saved_tensors_hooks(error_message)``: a region where such hooks are an error.
- ``register_multi_grad_hook(tensors, fn, mode="all")``: one call per backward pass once the
  gradients of several tensors are known (or, with ``mode="any"``, as soon as the first one is).
"""

import contextlib
import functools

from minigrad.autograd import engine
from minigrad.autograd.node import RemovableHandle, run_pack_hook
from minigrad import grad_mode
from minigrad.grad_mode import state

__all__ = ["saved_tensors_hooks", "disable_saved_tensors_hooks", "register_multi_grad_hook",
           "save_on_cpu", "register_saved_tensor_hooks"]

class saved_tensors_hooks:
    """Within this block, every tensor saved for backward goes through ``pack_hook`` when the
    node is created, and through ``unpack_hook`` whenever backward (or ``node._saved_*``)
    reads it back. The innermost block wins. ``pack_hook`` runs under ``no_grad``. As in
    PyTorch the block holds for the thread that opens it only.

    Example:
        >>> x = minigrad.tensor([1.0, 2.0], requires_grad=True)
        >>> with minigrad.autograd.graph.saved_tensors_hooks(
        ...         lambda t: t.tolist(), lambda packed: minigrad.tensor(packed)):
        ...     y = x * x                     # x is saved twice, as a Python list
        >>> y.sum().backward()
        >>> x.grad
        tensor([2., 4.])
    """

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self):
        if state.saved_hooks_disabled is not None:
            raise RuntimeError(state.saved_hooks_disabled)
        state.saved_hooks.append((self.pack_hook, self.unpack_hook))
        with grad_mode._count_lock:
            grad_mode.saved_hooks_open[0] += 1
        return self

    def __exit__(self, *exc):
        with grad_mode._count_lock:
            grad_mode.saved_hooks_open[0] -= 1
        if state.saved_hooks:  # (an unpack hook may have left it already: no crash)
            state.saved_hooks.pop()
        return False


class save_on_cpu(saved_tensors_hooks):
    """Tensors saved for backward are kept in CPU memory. minigrad has no other memory, so
    this block keeps them as they are (it is there so that PyTorch code runs unchanged).

    Example:
        >>> x = minigrad.tensor([1.0, 2.0], requires_grad=True)
        >>> with minigrad.autograd.graph.save_on_cpu():
        ...     y = x * x
        >>> y.sum().backward()
        >>> x.grad
        tensor([2., 4.])
    """

    def __init__(self, pin_memory=False, device_type="cuda"):
        super().__init__(_pack_to_cpu, _unpack_from_cpu)


def _pack_to_cpu(tensor):
    return tensor.device, tensor.cpu()


def _unpack_from_cpu(packed):
    device, tensor = packed
    return tensor.to(device)


REGISTER_TWICE = ("Calling register_hooks on a saved tensor whose hooks have already been set. "
                  "Hint: only one pair of hooks is allowed at a time.")
REGISTER_FREED = (
    "Calling register_hooks on a saved tensor after it has been freed. Saved intermediate values "
    "of the graph are freed when you call .backward() or autograd.grad(). Specify "
    "retain_graph=True if you need to backward through the graph a second time or if you need to "
    "access saved variables after calling backward.")


def register_saved_tensor_hooks(saved, *hooks):
    """``SavedTensor.register_hooks(pack_hook, unpack_hook)``: pack the saved tensor now with
    ``pack_hook``, and bring it back with ``unpack_hook`` whenever backward reads it."""
    if len(hooks) != 2 or not all(callable(hook) for hook in hooks):
        raise TypeError("register_hooks(): incompatible function arguments. The following "
                        "argument types are supported:")
    pack_hook, unpack_hook = hooks
    if saved.released:
        raise RuntimeError(REGISTER_FREED)
    if saved.unpack_hook is not None:
        raise RuntimeError(REGISTER_TWICE)
    from minigrad.tensor import Tensor
    if saved.is_output:
        tensor = Tensor._make(saved.data)
        tensor._version_counter = saved.version_counter
    else:
        tensor = saved.tensor
        saved.origin = None if not tensor._requires_grad else (
            tensor.grad_fn or tensor._grad_accumulator())
    saved.packed = run_pack_hook(pack_hook, tensor)
    saved.unpack_hook = unpack_hook
    saved.tensor = saved.data = saved.weak = None


class SavedNone:
    """What ``_raw_saved_tensors`` holds where a custom Function saved None."""

    def register_hooks(self, *hooks):
        raise RuntimeError("Calling register_hooks on a saved tensor with value None is "
                           "forbidden")


@contextlib.contextmanager
def disable_saved_tensors_hooks(error_message):
    """Within this block, entering ``saved_tensors_hooks`` raises ``RuntimeError(error_message)``
    (and so does entering this block while such hooks are active).

    Example:
        >>> with minigrad.autograd.graph.disable_saved_tensors_hooks("not here"):
        ...     minigrad.autograd.graph.saved_tensors_hooks(print, print).__enter__()
        Traceback (most recent call last):
        RuntimeError: not here
    """
    previous = state.saved_hooks_disabled
    try:
        state.saved_hooks_disabled = error_message
        if state.saved_hooks:
            raise RuntimeError(error_message)
        yield
    finally:
        state.saved_hooks_disabled = previous


class _MultiHandle(RemovableHandle):
    """Removes the hook that ``register_multi_grad_hook`` put on each tensor."""

    def __init__(self, handles):
        self.handles = tuple(handles)

    def remove(self):
        for handle in self.handles:
            handle.remove()


def register_multi_grad_hook(tensors, fn, *, mode="all"):
    """Call ``fn`` once per backward pass when the gradients of ``tensors`` are known.

    ``mode="all"``: ``fn(grads)`` runs when the last gradient the pass will compute for any of
    ``tensors`` arrives; ``grads`` has one entry per tensor, None for a tensor the pass does not
    reach (not in the graph, or not needed for ``inputs=``). ``mode="any"``: ``fn(grad)`` runs
    with the first gradient that arrives. Both are tensor hooks underneath (they run where a
    tensor hook runs, in registration order); ``fn`` must not modify its arguments.

    Example:
        >>> a = minigrad.tensor([1.0, 2.0], requires_grad=True)
        >>> b = minigrad.tensor([3.0, 4.0], requires_grad=True)
        >>> c = a * b
        >>> handle = minigrad.autograd.graph.register_multi_grad_hook(
        ...     (a, b, c), lambda grads: print([g is not None for g in grads]))
        >>> c.sum().backward(retain_graph=True)
        [True, True, True]
        >>> c.sum().backward(inputs=(a,))
        [True, False, True]
    """
    if mode not in ("all", "any"):
        raise ValueError(f"Expects mode to be one of ('all', 'any') but got {mode}")
    if mode == "any":
        ran = set()  # ids of the passes in which fn already ran

        @functools.wraps(fn)
        def any_hook(grad):
            if state.backward_pass not in ran:
                ran.add(state.backward_pass)
                fn(grad)

        return _MultiHandle(t.register_hook(any_hook) for t in tensors if t.requires_grad)

    nodes = [_node_of(t) for t in tensors]
    pending, buffers = {}, {}  # per pass: how many gradients are still to come, and the grads

    def all_hook(index):
        def hook(grad):
            pass_id = state.backward_pass
            if pass_id not in pending:  # the first of them in this pass: count the others
                pending[pass_id] = sum(map(engine.will_execute, nodes))
                buffers[pass_id] = [None] * len(nodes)
            buffers[pass_id][index] = grad
            pending[pass_id] -= 1
            if pending[pass_id] == 0:
                del pending[pass_id]
                fn(buffers.pop(pass_id))
        return hook

    return _MultiHandle([t.register_hook(all_hook(i)) for i, t in enumerate(tensors)])


def _node_of(tensor):
    """The node whose run computes ``tensor``'s gradient (AccumulateGrad for a leaf)."""
    if tensor.grad_fn is not None:
        return tensor.grad_fn
    if not tensor.requires_grad:
        raise AssertionError("Expected gradient function to be set")
    return tensor._grad_accumulator()
