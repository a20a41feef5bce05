"""indexing ops (being written)."""

__all__ = []
