"""``minigrad.nn.utils``: helpers around modules (``stateless.functional_call``)."""

from minigrad.nn.utils import stateless

__all__ = ["stateless"]
