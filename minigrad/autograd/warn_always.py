"""``set_warn_always``: repeat the warnings that minigrad, like PyTorch, gives once per process.

Example:
    >>> minigrad.set_warn_always(True)
    >>> minigrad.is_warn_always_enabled()
    True
    >>> minigrad.set_warn_always(False)
"""

__all__ = ["set_warn_always", "is_warn_always_enabled", "enabled"]

enabled = False


def set_warn_always(b):
    """With ``True``, warnings given once per process are given every time."""
    global enabled
    enabled = bool(b)


def is_warn_always_enabled():
    """Whether ``set_warn_always(True)`` is in effect."""
    return enabled
