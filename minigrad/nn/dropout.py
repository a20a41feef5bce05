"""``Dropout``: random zeroing in training, the identity in eval mode."""

from minigrad.nn import functional as F
from minigrad.nn.module import Module

__all__ = ["Dropout"]


class Dropout(Module):
    """In training, zero each element with probability ``p`` and scale the others by
    1/(1-p), so that the expected value is unchanged; after ``eval()`` return the input as is.

    Example:
        >>> drop = nn.Dropout(p=0.5)
        >>> x = minigrad.ones(4)
        >>> drop.eval()(x) is x
        True
    """

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p, self.inplace = p, inplace

    def forward(self, input):  # noqa: A002 - PyTorch's argument name
        return F.dropout(input, self.p, self.training, self.inplace)

    def extra_repr(self):
        return f"p={self.p}, inplace={self.inplace}"
