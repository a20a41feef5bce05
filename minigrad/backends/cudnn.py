"""``minigrad.backends.cudnn``: cuDNN's flags as plain attributes (minigrad has no cuDNN)."""

__all__ = ["enabled", "benchmark", "deterministic", "allow_tf32", "is_available", "version"]

enabled = True          # PyTorch's defaults
benchmark = False
deterministic = False
allow_tf32 = True


def is_available():
    """False: minigrad runs without cuDNN."""
    return False


def version():
    """None, as PyTorch answers without cuDNN."""
    return None
