"""NumPy computes quietly where PyTorch does: 1/0 = inf, 0/0 = nan and overflow, no warning.

Every built-in op's ``forward`` and every array ``backward`` runs inside::

    token = quiet_var.set(QUIET)
    try:
        ...
    finally:
        quiet_var.reset(token)

which does what ``with np.errstate(divide="ignore", invalid="ignore", over="ignore")`` does at a
fraction of its cost (that cost is most of an op on a 0-d tensor). NumPy >= 2 keeps its error
state in a context variable, so this is one ``ContextVar.set``; on older NumPy, ``quiet_var``
enters and leaves ``np.errstate`` through the same two calls. The user's own error state is
untouched outside minigrad's ops.
"""

import numpy as np

__all__ = ["quiet_var", "QUIET"]


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


try:
    from numpy._core._ufunc_config import _extobj_contextvar, _make_extobj
    quiet_var, QUIET = _extobj_contextvar, _make_extobj(
        divide="ignore", invalid="ignore", over="ignore")
except (ImportError, TypeError):  # NumPy < 2
    quiet_var, QUIET = _Errstate, {"divide": "ignore", "invalid": "ignore", "over": "ignore"}
