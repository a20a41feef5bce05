"""``minigrad.linalg``: PyTorch's ``torch.linalg`` names for the linear algebra minigrad has."""

from minigrad.ops.linalg import matmul
from minigrad.ops.matrix import linalg_cross as cross
from minigrad.ops.norm import linalg_vector_norm as vector_norm

__all__ = ["cross", "matmul", "vector_norm"]
