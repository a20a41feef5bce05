"""NumPy computes quietly where PyTorch does: 1/0 = inf, 0/0 = nan and overflow, no warning.

Every built-in op's ``forward`` runs as ``quiet_run(forward, ctx, *args)``: inside a context
(``contextvars.Context``) of its own in which NumPy's error state says "ignore". Entering a
context is a fifth of the cost of setting NumPy's context variable and resetting it, and that
cost was most of an op on a 0-d tensor. A context can be entered by one caller at a time; when
it is in use (an op inside an op's forward, or another thread's op while NumPy let go of the
GIL), ``quiet_run`` raises RuntimeError before calling anything, and the op calls
``quiet_call`` instead, which sets and resets the variable::

    token = quiet_var.set(QUIET)
    try:
        ...
    finally:
        quiet_var.reset(token)

Array backward formulas run in the second form (the engine holds it over a run of nodes). On
NumPy < 2, which keeps no context variable, both forms enter and leave ``np.errstate``. The
user's own error state is untouched outside minigrad's ops.
"""

import contextvars

import numpy as np

__all__ = ["quiet_var", "QUIET", "quiet_run", "quiet_call", "context_in_use"]


class _Errstate:
    """``set``/``reset`` through ``np.errstate`` (NumPy < 2, which has no context variable)."""

    @staticmethod
    def set(settings):
        state = np.errstate(**settings)
        state.__enter__()
        return state

    @staticmethod
    def reset(state):
        state.__exit__(None, None, None)


def quiet_call(fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` with NumPy quiet, in the caller's context."""
    token = quiet_var.set(QUIET)
    try:
        return fn(*args, **kwargs)
    finally:
        quiet_var.reset(token)


def context_in_use(error):
    """Whether ``error``, caught from ``quiet_run(fn, ...)`` where ``fn`` is Python code, is
    the context's refusal to be entered twice (raised before ``fn`` ran: no frame of its own
    in the traceback) rather than an error of ``fn``."""
    return error.__traceback__.tb_next is None


try:
    from numpy._core._ufunc_config import _extobj_contextvar, _make_extobj
    quiet_var, QUIET = _extobj_contextvar, _make_extobj(
        divide="ignore", invalid="ignore", over="ignore")
    _quiet_context = contextvars.Context()
    _quiet_context.run(quiet_var.set, QUIET)
    quiet_run = _quiet_context.run
except (ImportError, TypeError):  # NumPy < 2
    quiet_var, QUIET = _Errstate, {"divide": "ignore", "invalid": "ignore", "over": "ignore"}
    quiet_run = quiet_call
