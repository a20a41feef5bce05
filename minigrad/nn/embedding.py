"""``Embedding``: a lookup table of learnable vectors, indexed by integers."""

import numpy as np

from minigrad import _device, _dtype
from minigrad.grad_mode import no_grad
from minigrad.nn import functional as F
from minigrad.nn import init
from minigrad.nn.module import Module
from minigrad.nn.parameter import Parameter
from minigrad.tensor import Tensor

__all__ = ["Embedding"]


class Embedding(Module):
    """Row ``i`` of ``weight`` (shape (num_embeddings, embedding_dim), initialised N(0, 1)) is
    the vector of index ``i``. The row ``padding_idx`` starts at zero and gets no gradient.

    Example:
        >>> emb = nn.Embedding(10, 3)
        >>> emb(minigrad.tensor([[1, 2], [4, 5]])).shape
        minigrad.Size([2, 2, 3])
    """

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None,
                 norm_type=2.0, scale_grad_by_freq=False, sparse=False, _weight=None,
                 _freeze=False, device=None, dtype=None):
        super().__init__()
        _device.check_device(device)  # the CPU only: CUDA raises PyTorch's error
        if max_norm is not None or scale_grad_by_freq or sparse:
            raise NotImplementedError(
                "minigrad's Embedding supports neither max_norm, scale_grad_by_freq nor sparse")
        if padding_idx is not None:
            if not -num_embeddings <= padding_idx < num_embeddings:
                raise AssertionError("Padding_idx must be within num_embeddings")
            padding_idx %= num_embeddings
        self.num_embeddings, self.embedding_dim = num_embeddings, embedding_dim
        self.padding_idx = padding_idx
        if _weight is None:
            np_dtype = _dtype.to_dtype(dtype).numpy if dtype is not None else np.float32
            weight = Tensor._make(np.empty((num_embeddings, embedding_dim), np_dtype))
            self.weight = Parameter(weight, requires_grad=not _freeze)
            self.reset_parameters()
        else:
            self.weight = Parameter(_weight, requires_grad=not _freeze)

    @classmethod
    def from_pretrained(cls, embeddings, freeze=True, padding_idx=None):
        """An Embedding whose weight is ``embeddings`` (frozen unless ``freeze=False``)."""
        rows, cols = embeddings.shape
        return cls(rows, cols, padding_idx=padding_idx, _weight=embeddings, _freeze=freeze)

    def reset_parameters(self):
        init.normal_(self.weight)
        if self.padding_idx is not None:
            with no_grad():
                self.weight._data[self.padding_idx] = 0

    def forward(self, input):  # noqa: A002 - PyTorch's argument name
        return F.embedding(input, self.weight, self.padding_idx)

    def extra_repr(self):
        text = f"{self.num_embeddings}, {self.embedding_dim}"
        return text + (f", padding_idx={self.padding_idx}" if self.padding_idx is not None else "")
