"""``MultiheadAttention``: project queries, keys and values, attend in ``num_heads`` heads at
once, join the heads and project again (PyTorch has it in ``torch/nn/modules/activation.py``).

Its parameters and their initialisation are PyTorch's: ``in_proj_weight`` (3E, E) (or
``q_proj_weight``, ``k_proj_weight``, ``v_proj_weight`` when ``kdim``/``vdim`` differ from E)
Xavier-uniform, ``in_proj_bias`` zeros, and ``out_proj`` a ``Linear`` whose weight keeps its
own initialisation (drawn first) and whose bias is zeroed.

NB: composed of differentiable ops (``F.linear``, ``bmm``, ``add``, ``softmax``,
``F.scaled_dot_product_attention``), as PyTorch's ``F.multi_head_attention_forward`` is in
training; PyTorch's inference fast path (one fused node) is not reproduced, only its values.
``add_bias_kv`` and ``add_zero_attn`` are not supported.
"""

import math

import numpy as np

import minigrad
from minigrad import _device, _dtype
from minigrad.nn import functional as F
from minigrad.nn import init
from minigrad.nn.linear import NonDynamicallyQuantizableLinear
from minigrad.nn.module import Module
from minigrad.nn.parameter import Parameter
from minigrad.tensor import Tensor

__all__ = ["MultiheadAttention"]


def _empty(shape, dtype):
    np_dtype = _dtype.to_dtype(dtype).numpy if dtype is not None else _dtype.default_float.numpy
    return Parameter(Tensor._make(np.empty(shape, np_dtype)))


def _as_additive(mask, name, dtype):
    """A boolean mask (True: may not attend) as scores to add (-inf there, 0 elsewhere); a
    float mask as it is."""
    if mask is None:
        return None
    if mask.dtype == _dtype.bool:
        return Tensor._make(np.where(mask._data, -np.inf, 0.0).astype(dtype.numpy))
    if not mask.dtype.is_floating_point:
        raise AssertionError(f"only bool and floating types of {name} are supported")
    return mask


class MultiheadAttention(Module):
    """softmax(Q Kᵀ/√d)·V in ``num_heads`` heads of size d = embed_dim/num_heads, with Q, K, V
    linear projections of ``query``, ``key`` and ``value`` and the heads joined by
    ``out_proj``.

    ``forward(query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
    average_attn_weights=True, is_causal=False)`` takes (L, N, E) queries and (S, N, ·) keys
    and values ((N, L, E) with ``batch_first``; (L, E) unbatched) and returns the output
    (L, N, E) and, with ``need_weights``, the attention weights (N, L, S), averaged over the
    heads unless ``average_attn_weights=False`` (N, heads, L, S). In ``attn_mask`` (L, S) or
    (N·heads, L, S) and ``key_padding_mask`` (N, S), True means *may not attend*; float masks
    are added to the scores.

    Example:
        >>> mha = nn.MultiheadAttention(8, 2, batch_first=True)
        >>> x = minigrad.randn(3, 5, 8)
        >>> out, weights = mha(x, x, x)
        >>> out.shape, weights.shape
        (minigrad.Size([3, 5, 8]), minigrad.Size([3, 5, 5]))
    """

    def __init__(self, embed_dim, num_heads, dropout=0.0, bias=True, add_bias_kv=False,
                 add_zero_attn=False, kdim=None, vdim=None, batch_first=False, device=None,
                 dtype=None):
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError(f"embed_dim and num_heads must be greater than 0, got "
                             f"embed_dim={embed_dim} and num_heads={num_heads} instead")
        super().__init__()
        _device.check_device(device)
        if add_bias_kv or add_zero_attn:  # NB: not in minigrad
            raise NotImplementedError("minigrad: MultiheadAttention does not support "
                                      "add_bias_kv or add_zero_attn")
        self.embed_dim, self.num_heads, self.dropout = embed_dim, num_heads, dropout
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != embed_dim:
            raise AssertionError("embed_dim must be divisible by num_heads")
        if self._qkv_same_embed_dim:
            self.in_proj_weight = _empty((3 * embed_dim, embed_dim), dtype)
            for name in ("q_proj_weight", "k_proj_weight", "v_proj_weight"):
                self.register_parameter(name, None)
        else:
            self.q_proj_weight = _empty((embed_dim, embed_dim), dtype)
            self.k_proj_weight = _empty((embed_dim, self.kdim), dtype)
            self.v_proj_weight = _empty((embed_dim, self.vdim), dtype)
            self.register_parameter("in_proj_weight", None)
        self.register_parameter("in_proj_bias", _empty((3 * embed_dim,), dtype) if bias
                                else None)
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias,
                                                        dtype=dtype)
        self.bias_k = self.bias_v = None
        self.add_zero_attn = False
        self._reset_parameters()

    def _reset_parameters(self):
        if self._qkv_same_embed_dim:
            init.xavier_uniform_(self.in_proj_weight)
        else:
            for weight in (self.q_proj_weight, self.k_proj_weight, self.v_proj_weight):
                init.xavier_uniform_(weight)
        if self.in_proj_bias is not None:
            init.constant_(self.in_proj_bias, 0.0)
            init.constant_(self.out_proj.bias, 0.0)

    def _projections(self, query, key, value):
        """Q, K, V: the three input projections."""
        e = self.embed_dim
        if self._qkv_same_embed_dim:
            w_q, w_k, w_v = self.in_proj_weight.chunk(3)
        else:
            w_q, w_k, w_v = self.q_proj_weight, self.k_proj_weight, self.v_proj_weight
        b = self.in_proj_bias
        b_q, b_k, b_v = (None, None, None) if b is None else (b[:e], b[e:2 * e], b[2 * e:])
        return F.linear(query, w_q, b_q), F.linear(key, w_k, b_k), F.linear(value, w_v, b_v)

    def forward(self, query, key, value, key_padding_mask=None, need_weights=True,
                attn_mask=None, average_attn_weights=True, is_causal=False):
        batched = self._check_ranks(query, key, value)
        if self.batch_first and batched:
            query, key, value = (t.transpose(1, 0) for t in (query, key, value))
        if not batched:
            query, key, value = (t.unsqueeze(1) for t in (query, key, value))
            if key_padding_mask is not None:
                key_padding_mask = key_padding_mask.unsqueeze(0)
        length, batch, embed = query.shape
        source = key.shape[0]
        if embed != self.embed_dim:
            raise AssertionError(f"was expecting embedding dimension of {self.embed_dim}, but "
                                 f"got {embed}")
        if is_causal and attn_mask is None:
            raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use "
                               "the Transformer module method `generate_square_subsequent_mask`"
                               " to create this mask.")
        mask = self._mask(attn_mask, key_padding_mask, query.dtype, length, source, batch)
        heads, d = self.num_heads, self.head_dim
        q, k, v = self._projections(query, key, value)
        q, k, v = (t.reshape(t.shape[0], batch * heads, d).transpose(0, 1) for t in (q, k, v))
        dropout = self.dropout if self.training else 0.0
        if need_weights:
            q = q * math.sqrt(1.0 / float(d))
            kt = k.transpose(-2, -1)
            scores = minigrad.bmm(q, kt)  # (PyTorch: one baddbmm with the mask)
            if mask is not None:
                scores = mask + scores
            weights = scores.softmax(-1)
            if dropout > 0.0:
                weights = F.dropout(weights, dropout)
            out = minigrad.bmm(weights, v).transpose(0, 1).reshape(length * batch, embed)
            weights = weights.view(batch, heads, length, source)
            if average_attn_weights:
                weights = weights.mean(1)
        else:
            weights = None
            if mask is not None:
                mask = mask.unsqueeze(0) if mask.shape[0] == 1 else mask.view(
                    batch, heads, -1, source)
            shaped = [t.view(batch, heads, t.shape[1], d) for t in (q, k, v)]
            out = F.scaled_dot_product_attention(*shaped, mask, dropout)
            out = out.permute(2, 0, 1, 3).reshape(length * batch, embed)
        out = F.linear(out, self.out_proj.weight, self.out_proj.bias).view(length, batch, embed)
        if not batched:
            out = out.squeeze(1)
            weights = None if weights is None else weights.squeeze(0)
        elif self.batch_first:
            out = out.transpose(1, 0)
        return out, weights

    def _check_ranks(self, query, key, value):
        """Whether the input is batched (3-D) or not (2-D), with PyTorch's errors."""
        if query.ndim == 3:
            if key.ndim != 3 or value.ndim != 3:
                raise AssertionError(f"For batched (3-D) `query`, expected `key` and `value` to "
                                     f"be 3-D but found {key.ndim}-D and {value.ndim}-D tensors "
                                     "respectively")
            return True
        if query.ndim == 2:
            if key.ndim != 2 or value.ndim != 2:
                raise AssertionError(f"For unbatched (2-D) `query`, expected `key` and `value` "
                                     f"to be 2-D but found {key.ndim}-D and {value.ndim}-D "
                                     "tensors respectively")
            return False
        raise AssertionError(f"query should be unbatched 2D or batched 3D tensor but received "
                             f"{query.ndim}-D query tensor")

    def _mask(self, attn_mask, key_padding_mask, dtype, length, source, batch):
        """``attn_mask`` and ``key_padding_mask`` as one additive mask of shape
        (1 or N·heads, L, S), or None."""
        attn_mask = _as_additive(attn_mask, "attn_mask", dtype)
        key_padding_mask = _as_additive(key_padding_mask, "key_padding_mask", dtype)
        heads = self.num_heads
        if attn_mask is not None:
            if attn_mask.ndim == 2:
                if tuple(attn_mask.shape) != (length, source):
                    raise RuntimeError(f"The shape of the 2D attn_mask is {attn_mask.shape}, but "
                                       f"should be {(length, source)}.")
                attn_mask = attn_mask.unsqueeze(0)
            elif attn_mask.ndim == 3:
                if tuple(attn_mask.shape) != (batch * heads, length, source):
                    raise RuntimeError(f"The shape of the 3D attn_mask is {attn_mask.shape}, but "
                                       f"should be {(batch * heads, length, source)}.")
            else:
                raise RuntimeError(f"attn_mask's dimension {attn_mask.ndim} is not supported")
        if key_padding_mask is not None:
            if key_padding_mask.ndim == 2 and key_padding_mask.shape[1] != source:
                raise AssertionError(f"Expected key_padded_mask.shape[1] to be {source}, but got "
                                     f"{key_padding_mask.shape[1]}")
            if tuple(key_padding_mask.shape) != (batch, source):
                raise AssertionError(f"expecting key_padding_mask shape of {(batch, source)}, "
                                     f"but got {key_padding_mask.shape}")
            padding = key_padding_mask.view(batch, 1, 1, source).expand(-1, heads, -1, -1)
            padding = padding.reshape(batch * heads, 1, source)
            attn_mask = padding if attn_mask is None else attn_mask + padding
        return attn_mask
