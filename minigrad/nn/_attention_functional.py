"""``F.scaled_dot_product_attention``: softmax(q·kᵀ·scale + mask)·v, composed of matmul, softmax
and (in training) dropout, as PyTorch's reference ("math") implementation computes it.

NB: PyTorch may pick a fused kernel, so its graph can end in other nodes
(``UnsafeViewBackward0``, ``ScaledDotProductFlashAttentionForCpuBackward0``); minigrad's
graph shows the steps: ``MulBackward0`` (scaling), ``UnsafeViewBackward0``/``BmmBackward0``
(the products), ``SoftmaxBackward0``.
"""

import math

import numpy as np

from minigrad import _dtype
from minigrad.ops._util import check_tensor_arg
from minigrad.tensor import Tensor

__all__ = ["scaled_dot_product_attention"]


def _check(query, key, value, attn_mask, dropout_p):
    for name, t in (("query", query), ("key", key), ("value", value)):
        check_tensor_arg("scaled_dot_product_attention", name, t, 1 + ("query", "key",
                                                                       "value").index(name))
    if not query.dtype == key.dtype == value.dtype:
        raise RuntimeError(
            "Expected query, key, and value to have the same dtype, but got query.dtype: "
            f"{_dtype.cpp_name(query.dtype)} key.dtype: {_dtype.cpp_name(key.dtype)} and "
            f"value.dtype: {_dtype.cpp_name(value.dtype)} instead.")
    if min(query.ndim, key.ndim, value.ndim) < 2:
        raise RuntimeError(
            "Expected query, key, and value to all be  at least 2 dimensional, but got "
            f"query.dim: {query.ndim} key.dim: {key.ndim} and value.dim: {value.ndim} instead.")
    if not query.dtype.is_floating_point:
        raise RuntimeError(f"expected scalar type Float but found "
                           f"{_dtype.scalar_name(query.dtype)}")
    if attn_mask is not None and attn_mask.dtype not in (_dtype.bool, query.dtype):
        raise RuntimeError(
            "Expected attn_mask dtype to be bool or float or to match query dtype, but got "
            f"attn_mask.dtype: {_dtype.cpp_name(attn_mask.dtype)} and  query.dtype: "
            f"{_dtype.cpp_name(query.dtype)} instead.")
    if not 0.0 <= dropout_p <= 1.0:
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {dropout_p}")


def _additive(mask, dtype):
    """A boolean mask (True: may attend) as the numbers added to the scores: 0 or -inf."""
    if mask.dtype != _dtype.bool:
        return mask
    return Tensor._make(np.where(mask._data, 0.0, -np.inf).astype(dtype.numpy))


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0,
                                 is_causal=False, *, scale=None, enable_gqa=False):
    """Attention of each query over the keys: softmax(q·kᵀ·scale + mask)·v, with q of shape
    (…, L, E), k (…, S, E), v (…, S, Ev). ``scale`` defaults to 1/√E; ``attn_mask`` is a
    boolean mask (True: may attend) or scores to add; ``is_causal`` lets position i attend to
    positions ≤ i only; ``dropout_p`` drops attention weights (as ``F.dropout`` does, so the
    same after ``manual_seed``). A query that may attend to nothing gets zeros, as in PyTorch.

    Example:
        >>> q = k = v = minigrad.eye(2).reshape(1, 2, 2)
        >>> F.scaled_dot_product_attention(q, k, v, is_causal=True)
        tensor([[[1.0000, 0.0000],
                 [0.3302, 0.6698]]])
    """
    _check(query, key, value, attn_mask, dropout_p)
    if is_causal and attn_mask is not None:
        raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be set "
                           "when is_causal=True")
    if enable_gqa and key.ndim >= 3 and key.shape[-3] != query.shape[-3]:
        # NB: grouped-query attention (fewer key/value heads) is not in minigrad
        raise NotImplementedError("minigrad: enable_gqa with fewer key/value heads is not "
                                  "supported")
    root = math.sqrt(1 / math.sqrt(query.shape[-1]) if scale is None else scale)
    scores = (query * root) @ (key.transpose(-2, -1) * root)  # each side scaled by √scale
    if is_causal:
        length, source = query.shape[-2], key.shape[-2]
        attn_mask = Tensor._make(np.tril(np.ones((length, source), dtype=bool)))
    if attn_mask is not None:
        scores = scores + _additive(attn_mask, query.dtype)
    nowhere = None
    if attn_mask is not None:  # a row with nowhere to attend gets zeros, not 0/0, no gradient
        rows = np.isneginf(scores._data).all(-1, keepdims=True)
        if rows.any():
            nowhere = Tensor._make(rows)
            scores = scores.masked_fill(nowhere, 0.0)
    weights = scores.softmax(-1)
    if nowhere is not None:
        weights = weights.masked_fill(nowhere, 0.0)
    if dropout_p > 0:
        from minigrad.nn.functional import dropout  # (functional imports this module)
        weights = dropout(weights, dropout_p)
    return weights @ value
