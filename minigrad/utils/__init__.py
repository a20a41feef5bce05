"""``minigrad.utils``: helpers around the core, as in ``torch.utils`` (``data``, ``checkpoint``)."""

from minigrad.utils import checkpoint, data

__all__ = ["checkpoint", "data"]
