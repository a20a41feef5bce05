"""``minigrad.accelerator``: PyTorch's device-agnostic questions, answered for the CPU.

Example:
    >>> minigrad.accelerator.is_available()
    False
    >>> minigrad.accelerator.current_accelerator() is None
    True
"""

__all__ = ["is_available", "device_count", "current_accelerator"]


def is_available():
    """False: minigrad has no accelerator (GPU, MPS, ...)."""
    return False


def device_count():
    return 0


def current_accelerator(check_available=False):
    """None: there is no accelerator."""
    return None
