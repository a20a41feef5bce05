"""Grad modes: whether operations are recorded into the autograd graph.

``no_grad``, ``enable_grad``, ``set_grad_enabled`` and ``inference_mode`` work as context
managers and as decorators, and restore the previous mode even when the block raises.
"""

import functools

__all__ = ["no_grad", "enable_grad", "set_grad_enabled", "inference_mode", "is_grad_enabled",
           "is_inference_mode_enabled"]


class _State:
    grad_enabled = True
    inference = False


state = _State()


def is_grad_enabled():
    """True when new operations are recorded for autograd."""
    return state.grad_enabled


def is_inference_mode_enabled():
    return state.inference


class _GradModeContext:
    """Base of the grad-mode managers: usable with ``with`` and as a decorator."""

    def __call__(self, func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with self.__class__(*self._args):
                return func(*args, **kwargs)
        return wrapper

    _args = ()

    def __enter__(self):
        self._prev = (state.grad_enabled, state.inference)
        self._apply()
        return self

    def __exit__(self, *exc):
        state.grad_enabled, state.inference = self._prev
        return False


class no_grad(_GradModeContext):
    """Do not record operations: results are leaves that do not require grad.

    Example:
        >>> x = minigrad.ones(2, requires_grad=True)
        >>> with minigrad.no_grad():
        ...     y = x * 2
        >>> y.requires_grad
        False
    """

    def _apply(self):
        state.grad_enabled = False


class enable_grad(_GradModeContext):
    """Record operations again, e.g. inside a ``no_grad`` block."""

    def _apply(self):
        state.grad_enabled = True


class set_grad_enabled(_GradModeContext):
    """Set grad mode on or off: a plain call takes effect at once, ``with`` restores it after."""

    def __init__(self, mode):
        self._args = (mode,)
        self._prev = (state.grad_enabled, state.inference)
        state.grad_enabled = bool(mode)

    def _apply(self):
        state.grad_enabled = bool(self._args[0])

    def __enter__(self):
        return self  # the mode was already set by __init__; __exit__ restores _prev


class inference_mode(_GradModeContext):
    """Like ``no_grad``, for code that will never need gradients of what it computes."""

    def __init__(self, mode=True):
        self._args = (mode,)

    def __call__(self, func=None):
        if func is None or not callable(func):
            return self
        return super().__call__(func)

    def _apply(self):
        if self._args[0]:
            state.grad_enabled = False
            state.inference = True
