"""``EmbeddingBackward0``: looking rows up in a weight matrix, and its backward (a scatter-add
of the gradient rows into a zero matrix), itself differentiable."""

import numpy as np

from minigrad.autograd.function import _Op
from minigrad.tensor import Tensor

__all__ = ["Embedding", "EmbeddingDenseBackward"]


class Embedding(_Op):
    """y = W[indices];  ∂ℓ/∂W[k] = Σ of the gradient rows whose index is k (0 for padding)."""

    node_name = "EmbeddingBackward0"
    formula = ("embedding_add(grad, indices, weight_sym_argsize_0, padding_idx)",)

    @staticmethod
    def forward(ctx, weight, indices, padding_idx):
        ctx.indices = Tensor._make(indices)
        ctx.padding_idx = -1 if padding_idx is None else padding_idx
        ctx.weight_sym_argsize_0 = weight.shape[0]
        return weight._data[indices]

    @staticmethod
    def backward(ctx, grad):
        grad_weight = EmbeddingDenseBackward.apply(
            grad, ctx.indices._data, ctx.weight_sym_argsize_0, ctx.padding_idx)
        return grad_weight, None, None


class EmbeddingDenseBackward(_Op):
    """G = scatter-add of the gradient rows;  its own gradient gathers rows back."""

    node_name = "EmbeddingDenseBackwardBackward0"
    formula = ("rows_of(grad, indices, padding_idx)",)

    @staticmethod
    def forward(ctx, grad, indices, num_weights, padding_idx):
        ctx.indices, ctx.padding_idx = indices, padding_idx
        rows = grad._data.reshape(-1, grad.shape[-1])
        out = np.zeros((num_weights, rows.shape[1]), dtype=rows.dtype)
        np.add.at(out, indices.reshape(-1), rows)
        if padding_idx >= 0:
            out[padding_idx] = 0
        return out

    @staticmethod
    def backward(ctx, grad_grad):
        rows = Embedding.apply(grad_grad, ctx.indices, None)
        if ctx.padding_idx >= 0:
            keep = (ctx.indices != ctx.padding_idx)[..., None].astype(rows._data.dtype)
            rows = rows * Tensor._make(keep)
        return rows, None, None, None
