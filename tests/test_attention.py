"""F.scaled_dot_product_attention (minigrad/nn/_attention_functional.py) against torch 2.13:
outputs and the gradients of query, key and value with no mask, boolean and additive masks,
is_causal, scale=, batched heads, rows with nowhere to attend, dropout after manual_seed, and
PyTorch's errors; gradcheck/gradgradcheck."""

import pytest
from parity_programs import check, programs

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
