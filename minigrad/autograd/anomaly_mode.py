"""Anomaly detection: ``detect_anomaly()`` / ``set_detect_anomaly(True)``.

While it is on, as in PyTorch:

- every node created in the forward pass keeps the stack that created it, in
  ``node.metadata["traceback_"]`` (a list of ``traceback.format_stack()`` lines); a node created
  by a backward pass (``create_graph=True``) also keeps the node that was running, in
  ``metadata["parent_"]``;
- when a node's backward fails, a ``UserWarning`` shows that stack ("Error detected in
  DivBackward0. Traceback of forward call that caused the error: ..."), then the error
  propagates;
- with ``check_nan`` (the default) a node that returns a gradient containing NaN raises
  ``RuntimeError: Function 'DivBackward0' returned nan values in its 0th output.``

With anomaly mode off the engine pays one test of a local flag per node. Anomaly mode is per
thread, like grad mode (``minigrad.grad_mode.state``).

NB: PyTorch's warnings end with " (Triggered internally at .../python_anomaly_mode.cpp:122.)";
minigrad's do not, and they point at the line that started the backward pass.
"""

import os
import sys
import threading
import traceback
import warnings

import numpy as np

from minigrad.grad_mode import state

__all__ = ["detect_anomaly", "set_detect_anomaly", "is_anomaly_enabled",
           "is_anomaly_check_nan_enabled", "set_anomaly_enabled"]


def __getattr__(name):
    """``anomaly_mode.enabled``, ``.check_nan``, ``.current_node``: the calling thread's (read
    only; set them with ``set_anomaly_enabled``)."""
    fields = {"enabled": "anomaly", "check_nan": "check_nan", "current_node": "anomaly_parent"}
    if name in fields:
        return getattr(state, fields[name])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # .../minigrad


def is_anomaly_enabled():
    """Whether anomaly mode is on (in this thread)."""
    return state.anomaly


def is_anomaly_check_nan_enabled():
    """Whether anomaly mode checks the gradients of every node for NaN."""
    return state.check_nan


# How many threads have anomaly mode on: while none has, creating a node tests this number
# instead of reading the thread's switch (a ``threading.local`` read costs more).
enabled_threads = [0]
_enabled_lock = threading.Lock()


def set_anomaly_enabled(mode, check_nan=True):
    """Turn anomaly mode on or off in this thread (no context manager, no warning)."""
    mode = bool(mode)
    with _enabled_lock:
        if mode != state.anomaly:
            enabled_threads[0] += 1 if mode else -1
        state.anomaly, state.check_nan = mode, bool(check_nan)


class detect_anomaly:
    """Within this block, a failing backward names its node and shows the node's forward trace.

    Example:
        >>> with minigrad.autograd.detect_anomaly():
        ...     x = minigrad.tensor([0.0, 1.0], requires_grad=True)
        ...     (x / x).sum().backward()
        Traceback (most recent call last):
        RuntimeError: Function 'DivBackward0' returned nan values in its 1th output.
    """

    def __init__(self, check_nan=True):
        self.prev = (state.anomaly, state.check_nan)
        self.check_nan = check_nan
        warnings.warn("Anomaly Detection has been enabled. This mode will increase the runtime "
                      "and should only be enabled for debugging.", UserWarning, stacklevel=2)

    def __enter__(self):
        set_anomaly_enabled(True, self.check_nan)
        return self

    def __exit__(self, *exc):
        set_anomaly_enabled(*self.prev)
        return False


class set_detect_anomaly:
    """Turn anomaly mode on or off: at once when called, restored after a ``with`` block.

    Example:
        >>> with minigrad.autograd.set_detect_anomaly(True, check_nan=False):
        ...     minigrad.autograd.anomaly_mode.is_anomaly_enabled()
        True
    """

    def __init__(self, mode, check_nan=True):
        self.prev = (state.anomaly, state.check_nan)
        set_anomaly_enabled(mode, check_nan)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        set_anomaly_enabled(*self.prev)
        return False


def store_stack(node):
    """Called by ``Node.__init__`` in anomaly mode: remember where (and by whom) it was made."""
    stack = traceback.format_stack()
    # NB: PyTorch's ops are C++, so its traces end at the user's line; minigrad's are Python,
    # so the frames inside minigrad at the end of the stack are dropped.
    end = len(stack)
    while end > 1 and _in_minigrad(stack[end - 1]):
        end -= 1
    metadata = node.metadata
    metadata["traceback_"] = stack[:end]
    if state.anomaly_parent is not None:
        metadata["parent_"] = state.anomaly_parent


def _in_minigrad(line):
    path = line.split('"', 2)[1] if line.startswith('  File "') else ""
    return path.startswith(_PACKAGE + os.sep)


def raise_if_nan(node, grads):
    """PyTorch's NaN check on the gradients a node returned (``check_nan=True``)."""
    for i, grad in enumerate(grads):
        if grad is not None and grad._data.dtype.kind in "fc" and np.isnan(grad._data).any():
            raise RuntimeError(f"Function '{node.name()}' returned nan values in its {i}th "
                               "output.")


def warn_error(node):
    """The warnings PyTorch emits when a node fails in anomaly mode: the node's forward trace,
    then that of each parent (the node whose backward created it)."""
    level = _user_stacklevel()
    _warn_stack(node, "Error detected in {}. Traceback of forward call that caused the error:\n",
                level)
    parent = node.metadata.get("parent_")
    while parent is not None:
        _warn_stack(parent, "\n\nPrevious calculation was induced by {}. Traceback of forward "
                    "call that induced the previous calculation:\n", level)
        parent = parent.metadata.get("parent_")


def _warn_stack(node, header, level):
    stack = node.metadata.get("traceback_")
    if stack is None:
        message = (f"Error detected in {node.name()}. No forward pass information available. "
                   "Enable detect anomaly during forward pass for more information.")
    else:
        message = header.format(node.name()) + "".join(stack)
    warnings.warn(message, UserWarning, stacklevel=level + 1)


def _user_stacklevel():
    """The ``stacklevel`` that makes a warning point at the first frame outside minigrad."""
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE + os.sep):
        frame, level = frame.f_back, level + 1
    return level
