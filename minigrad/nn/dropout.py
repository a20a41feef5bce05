"""``Dropout`` and the channel-wise ``Dropout1d/2d/3d``: random zeroing in training, the
identity in eval mode."""

from minigrad.nn import functional as F
from minigrad.nn.module import Module

__all__ = ["Dropout", "Dropout1d", "Dropout2d", "Dropout3d"]


class _DropoutNd(Module):
    """The probability ``p`` (checked) and ``inplace`` shared by the dropout modules."""

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p, self.inplace = p, inplace

    def extra_repr(self):
        return f"p={self.p}, inplace={self.inplace}"


class Dropout(_DropoutNd):
    """In training, zero each element with probability ``p`` and scale the others by
    1/(1-p), so that the expected value is unchanged; after ``eval()`` return the input as is.

    Example:
        >>> drop = nn.Dropout(p=0.5)
        >>> x = minigrad.ones(4)
        >>> drop.eval()(x) is x
        True
    """

    def forward(self, input):  # noqa: A002 - PyTorch's argument name
        return F.dropout(input, self.p, self.training, self.inplace)


class Dropout1d(_DropoutNd):
    """In training, zero whole channels of an (N, C, L) or (C, L) input with probability ``p``
    and scale the others by 1/(1-p) (``F.dropout1d``)."""

    def forward(self, input):  # noqa: A002 - PyTorch's argument name
        return F.dropout1d(input, self.p, self.training, self.inplace)


class Dropout2d(_DropoutNd):
    """In training, zero whole channels of an (N, C, H, W) input with probability ``p`` and
    scale the others by 1/(1-p) (``F.dropout2d``; a 3D input is taken as (N, C, L))."""

    def forward(self, input):  # noqa: A002 - PyTorch's argument name
        return F.dropout2d(input, self.p, self.training, self.inplace)


class Dropout3d(_DropoutNd):
    """In training, zero whole channels of an (N, C, D, H, W) or (C, D, H, W) input with
    probability ``p`` and scale the others by 1/(1-p) (``F.dropout3d``)."""

    def forward(self, input):  # noqa: A002 - PyTorch's argument name
        return F.dropout3d(input, self.p, self.training, self.inplace)
