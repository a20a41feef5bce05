"""``minigrad._C``: the few names of PyTorch's C extension that autograd code reaches for.

PyTorch's own tests and some tutorials call ``torch._C.<name>`` directly; under
``import minigrad as torch`` these names answer with minigrad's pieces: the node classes, the
engine's questions (``_will_engine_execute_node``, ``_current_graph_task_id``), the forward-AD
switch, weak tensor references, and two helper Functions (``UndefinedGrad``, ``DelayedError``).

Example:
    >>> x = minigrad.ones(2, requires_grad=True)
    >>> isinstance(x.clone().grad_fn.next_functions[0][0], minigrad._C._functions.AccumulateGrad)
    True
"""

import types
import weakref

from minigrad.autograd import engine, forward_ad
from minigrad.autograd.function import Function
from minigrad.autograd.node import AccumulateGrad, Node, SavedTensor
from minigrad.grad_mode import is_grad_enabled, state

__all__ = ["is_grad_enabled", "_set_fwd_grad_enabled", "_will_engine_execute_node",
           "_current_graph_task_id", "_WeakTensorRef", "_functions", "_autograd"]


def _set_fwd_grad_enabled(mode):
    """Switch forward-mode AD's propagation of tangents on or off (PyTorch's private switch)."""
    forward_ad._set_fwd_grad_enabled(mode)


def _will_engine_execute_node(node):
    """Whether the running backward pass will run ``node`` (only during a backward pass)."""
    if not isinstance(node, Node):
        raise RuntimeError("_will_engine_execute_node expects an grad_fn, but got "
                           f"{type(node).__name__}")
    if state.engine_task is None:
        raise RuntimeError("_get_should_execute_nodes should only be called during the backward "
                           "pass")
    return engine.will_execute(node)


def _current_graph_task_id():
    """The id of the backward pass running in this thread, or -1 outside one."""
    return -1 if state.backward_pass is None else state.backward_pass


class _WeakTensorRef:
    """A weak reference to a tensor that tells whether the tensor is gone."""

    def __init__(self, tensor):
        self._ref = weakref.ref(tensor)

    def expired(self):
        return self._ref() is None


class _UndefinedGradFunction(Function):
    """Identity forward; backward sends an undefined (None) gradient on."""

    node_name = "UndefinedGradBackward"

    @staticmethod
    def forward(ctx, x):
        return x.clone()

    @staticmethod
    def backward(ctx, grad_output):
        return None


class UndefinedGrad:
    """``UndefinedGrad()(t)``: ``t`` again, whose gradient reaches ``t``'s history as None."""

    def __call__(self, *tensors):
        outs = tuple(_UndefinedGradFunction.apply(t) for t in tensors)
        return outs[0] if len(outs) == 1 else outs


class _DelayedErrorFunction(Function):
    """Identity forward; backward raises the message given at creation."""

    node_name = "Error"  # PyTorch's name for this node (NB: minigrad's forward copies)

    @staticmethod
    def forward(ctx, message, x):
        ctx.message = message
        return x.clone()

    @staticmethod
    def backward(ctx, grad_output):
        raise RuntimeError(ctx.message)


class DelayedError:
    """``DelayedError(message, n)(t)``: ``t`` again; backward through it raises ``message``."""

    def __init__(self, message, num_inputs=1):
        self.message = message

    def __call__(self, *tensors):
        outs = tuple(_DelayedErrorFunction.apply(self.message, t) for t in tensors)
        return outs[0] if len(outs) == 1 else outs


_functions = types.SimpleNamespace(AccumulateGrad=AccumulateGrad, UndefinedGrad=UndefinedGrad,
                                   DelayedError=DelayedError)


def _saved_tensors_hooks_is_enabled():
    """False inside ``disable_saved_tensors_hooks``."""
    return state.saved_hooks_disabled is None


def _unsafe_set_version_counter(tensors, versions):
    """Set the version counters of ``tensors`` (hiding changes from autograd's checks)."""
    for tensor, version in zip(tensors, versions):
        if version < 0:
            raise RuntimeError(f"Cannot set a version_counter to a value below 0: {version}")
        tensor._version_counter[0] = version


def _get_current_graph_task_keep_graph():
    """The ``retain_graph`` of the backward pass running in this thread."""
    return state.keep_graph


_autograd = types.SimpleNamespace(SavedTensor=SavedTensor,
                                  _get_current_graph_task_keep_graph=(
                                      _get_current_graph_task_keep_graph),
                                  _saved_tensors_hooks_is_enabled=_saved_tensors_hooks_is_enabled,
                                  _unsafe_set_version_counter=_unsafe_set_version_counter)
