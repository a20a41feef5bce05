"""combine ops (being written)."""

__all__ = []
