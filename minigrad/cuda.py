"""``minigrad.cuda``: the answers of PyTorch's ``torch.cuda`` on a machine without a GPU.

Programs start with ``device = "cuda" if torch.cuda.is_available() else "cpu"``; here the
answer is always the CPU. Functions that need a GPU raise PyTorch's error for a CPU-only build.

Example:
    >>> minigrad.cuda.is_available(), minigrad.cuda.device_count()
    (False, 0)
"""

from minigrad._device import NO_CUDA

__all__ = ["is_available", "device_count", "is_initialized", "manual_seed", "manual_seed_all",
           "synchronize", "empty_cache", "current_device", "get_device_name", "init"]


def is_available():
    """False: minigrad computes on the CPU only."""
    return False


def device_count():
    return 0


def is_initialized():
    return False


def manual_seed(seed):
    """Does nothing, as PyTorch does when there is no GPU to seed."""


def manual_seed_all(seed):
    """Does nothing, as PyTorch does when there is no GPU to seed."""


def empty_cache():
    """Does nothing: there is no GPU memory to release."""


def _no_cuda(*args, **kwargs):
    raise AssertionError(NO_CUDA)


synchronize = current_device = get_device_name = init = _no_cuda
