"""activation ops (being written)."""

__all__ = []
