"""``minigrad.backends.mps``: Apple's GPU backend, which minigrad does not have."""

__all__ = ["is_available", "is_built"]


def is_available():
    """False: minigrad computes on the CPU only."""
    return False


def is_built():
    return False
