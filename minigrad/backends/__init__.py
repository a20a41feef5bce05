"""``minigrad.backends``: the flags programs set on PyTorch's backends, as plain attributes.

``backends.cudnn.benchmark = True`` and ``backends.cudnn.deterministic = True`` are accepted
(and change nothing: minigrad has no cuDNN); ``backends.mps.is_available()`` is False.

Example:
    >>> minigrad.backends.mps.is_available()
    False
    >>> minigrad.backends.cudnn.enabled
    True
"""

from minigrad.backends import cudnn, mps

__all__ = ["cudnn", "mps"]
