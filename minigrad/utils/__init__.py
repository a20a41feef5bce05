"""``minigrad.utils``: helpers around the core, as in ``torch.utils`` (``data``)."""

from minigrad.utils import data

__all__ = ["data"]
