"""compare ops (being written)."""

__all__ = []
