"""``CosineSimilarity``: the cosine of the angle between two batches of vectors."""

from minigrad.nn import functional as F
from minigrad.nn.module import Module

__all__ = ["CosineSimilarity"]


class CosineSimilarity(Module):
    """x₁·x₂ / (‖x₁‖·‖x₂‖) along ``dim`` (each norm at least ``eps``).

    Example:
        >>> nn.CosineSimilarity(dim=0)(minigrad.tensor([1.0, 0.0]), minigrad.tensor([0.0, 2.0]))
        tensor(0.)
    """

    def __init__(self, dim=1, eps=1e-8):
        super().__init__()
        self.dim, self.eps = dim, eps

    def forward(self, x1, x2):
        return F.cosine_similarity(x1, x2, self.dim, self.eps)
