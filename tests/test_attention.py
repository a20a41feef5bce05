"""F.scaled_dot_product_attention (minigrad/nn/_attention_functional.py) and
nn.MultiheadAttention (nn/attention.py) against torch 2.13: outputs and the gradients of query,
key, value (and every parameter) with no mask, boolean and additive masks, key padding,
is_causal, scale=, batched heads, rows with nowhere to attend, dropout after manual_seed;
seeded parameters, reprs and PyTorch's errors; gradcheck/gradgradcheck."""

import pytest
from oracle import assert_matches
from parity_programs import check, programs, run

import minigrad
from minigrad.autograd import gradcheck, gradgradcheck

F = minigrad.nn.functional


def _qkv(torch, *lead, length=3, source=5, embed=4, dtype=None):
    torch.manual_seed(0)
    dtype = dtype or torch.float64
    q = torch.randn(*lead, length, embed, dtype=dtype, requires_grad=True)
    k = torch.randn(*lead, source, embed, dtype=dtype, requires_grad=True)
    v = torch.randn(*lead, source, 6, dtype=dtype, requires_grad=True)
    return q, k, v


def _with_grads(torch, out, inputs):
    w = torch.arange(1.0, out.numel() + 1, dtype=out.dtype).reshape(out.shape).sin()
    return [out.detach(), list(torch.autograd.grad(out, inputs, w))]


def case_plain(torch):
    q, k, v = _qkv(torch, 2)
    return _with_grads(torch, torch.nn.functional.scaled_dot_product_attention(q, k, v), (q, k, v))


def case_float32_heads(torch):
    q, k, v = _qkv(torch, 2, 3, dtype=torch.float32)
    return _with_grads(torch, torch.nn.functional.scaled_dot_product_attention(q, k, v), (q, k, v))


def case_unbatched(torch):
    q, k, v = _qkv(torch)
    return _with_grads(torch, torch.nn.functional.scaled_dot_product_attention(q, k, v), (q, k, v))


def case_bool_mask_with_empty_row(torch):
    q, k, v = _qkv(torch, 2)
    mask = torch.tensor([[True, False, True, False, False], [False] * 5, [True] * 5])
    out = torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=mask)
    return _with_grads(torch, out, (q, k, v))


def case_additive_mask(torch):
    q, k, v = _qkv(torch, 2)
    mask = torch.linspace(-2, 2, 15, dtype=torch.float64).reshape(3, 5)
    out = torch.nn.functional.scaled_dot_product_attention(q, k, v, mask)
    return _with_grads(torch, out, (q, k, v))


def case_causal_with_scale(torch):
    q, k, v = _qkv(torch, 2, 2, length=4, source=4)
    out = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True, scale=0.3)
    return _with_grads(torch, out, (q, k, v))


def case_causal_rectangular(torch):
    q, k, v = _qkv(torch, 1, length=5, source=3)
    out = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
    return _with_grads(torch, out, (q, k, v))


def case_dropout_after_seed(torch):
    q, k, v = _qkv(torch, 2, dtype=torch.float32)
    torch.manual_seed(3)
    return torch.nn.functional.scaled_dot_product_attention(q, k, v, dropout_p=0.4)


def case_errors(torch):
    q, k, v = _qkv(torch, 2, dtype=torch.float32)
    sdpa = torch.nn.functional.scaled_dot_product_attention
    attempts = [
        lambda: sdpa(q, k, v, torch.zeros(3, 5, dtype=torch.long)),
        lambda: sdpa(q, k, v, torch.zeros(3, 5, dtype=torch.float64)),
        lambda: sdpa(q, k, v, torch.zeros(3, 5, dtype=torch.bool), is_causal=True),
        lambda: sdpa(q, k.double(), v),
        lambda: sdpa(q[0, 0], k[0, 0], v[0, 0]),
        lambda: sdpa(q, k, v, dropout_p=1.5),
        lambda: sdpa(q.long(), k.long(), v.long()),
        lambda: sdpa(q, k, v, None, 0.0, False, 0.3),
    ]
    out = []
    for attempt in attempts:
        try:
            attempt()
            out.append(None)
        except (RuntimeError, TypeError) as error:
            out.append([type(error).__name__, str(error).split("\n")[0]])
    return out


@pytest.mark.parametrize("prog", programs(globals()), ids=lambda p: p.__name__)
def test_matches_torch(prog, oracle):
    check(prog, oracle, rtol=1e-5)


def test_gradcheck_and_gradgradcheck():
    q, k, v = _qkv(minigrad, 2)
    mask = minigrad.tensor([[True, False, True, True, False], [False] * 5, [True] * 5])
    for kwargs in ({}, {"attn_mask": mask}, {"is_causal": True, "scale": 0.5}):
        def fn(q, k, v, kwargs=kwargs):
            return F.scaled_dot_product_attention(q, k, v, **kwargs)
        assert gradcheck(fn, (q, k, v))
        assert gradgradcheck(fn, (q, k, v))


# ---------------------------------------------------------------------- nn.MultiheadAttention
def _mha_program(torch, kwargs, shapes, call, train=True):
    torch.manual_seed(0)
    layer = torch.nn.MultiheadAttention(**kwargs)
    if not train:
        layer.eval()
    q, k, v = (torch.randn(*s).requires_grad_() for s in shapes)
    out, weights = layer(q, k, v, **call(torch))
    loss = (out * out.sin()).sum() + (0 if weights is None else (weights * weights).sum())
    grads = torch.autograd.grad(loss, [q, k, v, *layer.parameters()])
    return [repr(layer), [(n, p) for n, p in layer.named_parameters()], out.detach(),
            None if weights is None else weights.detach(), list(grads)]


def _causal(torch):
    return torch.triu(torch.ones(5, 5, dtype=torch.bool), 1)


MHA = {
    "self-attention": ({"embed_dim": 8, "num_heads": 2}, [(5, 3, 8)] * 3, lambda T: {}),
    "batch-first-per-head-weights": (
        {"embed_dim": 8, "num_heads": 2, "batch_first": True}, [(3, 5, 8), (3, 4, 8), (3, 4, 8)],
        lambda T: {"average_attn_weights": False}),
    "kdim-vdim-key-padding": (
        {"embed_dim": 8, "num_heads": 4, "kdim": 3, "vdim": 6}, [(5, 2, 8), (4, 2, 3), (4, 2, 6)],
        lambda T: {"key_padding_mask": T.tensor([[False, False, True, True],
                                                 [False, True, False, False]])}),
    "causal-mask-no-weights": ({"embed_dim": 8, "num_heads": 2}, [(5, 2, 8)] * 3,
                               lambda T: {"attn_mask": _causal(T), "need_weights": False}),
    "causal-hint": ({"embed_dim": 8, "num_heads": 2}, [(5, 2, 8)] * 3,
                    lambda T: {"attn_mask": _causal(T), "is_causal": True}),
    "unbatched-float-mask-no-bias": (
        {"embed_dim": 8, "num_heads": 2, "bias": False}, [(5, 8)] * 3,
        lambda T: {"attn_mask": T.linspace(-1, 1, 25).reshape(5, 5)}),
    "key-padding-no-weights": (
        {"embed_dim": 8, "num_heads": 2}, [(5, 2, 8)] * 3,
        lambda T: {"key_padding_mask": T.tensor([[False, False, True, True, False], [False] * 5]),
                   "need_weights": False}),
    "3d-mask-and-padding": (
        {"embed_dim": 4, "num_heads": 2}, [(3, 2, 4), (5, 2, 4), (5, 2, 4)],
        lambda T: {"attn_mask": T.linspace(-2, 2, 60).reshape(4, 3, 5),
                   "key_padding_mask": T.tensor([[False, True, False, False, False],
                                                 [False, False, False, True, True]])}),
    "dropout": ({"embed_dim": 8, "num_heads": 2, "dropout": 0.3}, [(5, 2, 8)] * 3,
                lambda T: {}),
}


@pytest.mark.parametrize("case", MHA.values(), ids=MHA.keys())
def test_multihead_attention_matches_torch(oracle, case):
    # float32: an absolute 1e-6 for gradients that are 0 but for rounding (a key bias's:
    # softmax ignores a shift of every score)
    def prog(torch):
        return _mha_program(torch, *case)
    assert_matches(run(prog), oracle(lambda torch: run(prog, torch)), rtol=1e-4, atol=1e-6)


def test_multihead_attention_in_eval_mode_matches_torch(oracle):
    # PyTorch's inference fast path (a fused kernel): the same values
    kwargs, shapes = {"embed_dim": 8, "num_heads": 2, "batch_first": True}, [(3, 5, 8)] * 3

    def prog(torch):
        torch.manual_seed(0)
        layer = torch.nn.MultiheadAttention(**kwargs).eval()
        x = torch.randn(*shapes[0])
        with torch.no_grad():
            return list(layer(x, x, x))

    check(prog, oracle, rtol=1e-4)


def _mha_errors(torch):
    layer = torch.nn.MultiheadAttention(8, 2, kdim=4, vdim=6)
    ones = torch.ones
    attempts = [
        lambda: torch.nn.MultiheadAttention(8, 3),
        lambda: torch.nn.MultiheadAttention(0, 2),
        lambda: layer(ones(3, 2, 8), ones(3, 2, 4), ones(3, 2, 6), attn_mask=ones(3, 4)),
        lambda: layer(ones(3, 2, 8), ones(5, 2, 4), ones(5, 2, 6), attn_mask=ones(5, 3, 5)),
        lambda: layer(ones(3, 2, 8), ones(5, 2, 4), ones(5, 2, 6), is_causal=True),
        lambda: layer(ones(3, 8), ones(5, 2, 4), ones(5, 2, 6)),
        lambda: layer(ones(3, 2, 8), ones(5, 2, 4), ones(5, 2, 6),
                      key_padding_mask=ones(2, 4, dtype=torch.bool)),
        lambda: layer(ones(3, 2, 8), ones(5, 2, 4), ones(5, 2, 6),
                      attn_mask=ones(3, 5, dtype=torch.long)),
        lambda: layer(ones(3, 2, 7), ones(5, 2, 4), ones(5, 2, 6)),
    ]
    out = []
    for attempt in attempts:
        try:
            attempt()
            out.append(None)
        except (RuntimeError, ValueError, AssertionError) as error:
            out.append([type(error).__name__, str(error).split("\n")[0]])
    return out


def test_multihead_attention_errors_match_torch(oracle):
    check(_mha_errors, oracle)


def test_multihead_attention_passes_gradcheck():
    minigrad.manual_seed(0)
    layer = minigrad.nn.MultiheadAttention(4, 2, dtype=minigrad.float64)
    q, k, v = (minigrad.randn(3, 2, 4, dtype=minigrad.float64, requires_grad=True)
               for _ in range(3))
    mask = minigrad.tensor([[False, True, False], [False, False, True], [True, False, False]])
    for need_weights in (True, False):
        def fn(q, k, v, need_weights=need_weights):
            return layer(q, k, v, attn_mask=mask, need_weights=need_weights)[0]
        assert gradcheck(fn, (q, k, v))
        assert gradgradcheck(fn, (q, k, v))
