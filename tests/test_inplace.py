"""In-place ops: values, version counters, history rebasing and PyTorch's errors."""

import functools

import numpy as np
import pytest

import minigrad

INPLACE = [
    ("add_", lambda t: t.add_(2)), ("sub_", lambda t: t.sub_(1)), ("mul_", lambda t: t.mul_(3)),
    ("div_", lambda t: t.div_(2)), ("pow_", lambda t: t.pow_(2)), ("zero_", lambda t: t.zero_()),
    ("fill_", lambda t: t.fill_(3)), ("clamp_", lambda t: t.clamp_(-0.5, 0.5)),
    ("relu_", lambda t: t.relu_()), ("exp_", lambda t: t.exp_()), ("neg_", lambda t: t.neg_()),
    ("iadd", lambda t: t.__iadd__(1)), ("isub", lambda t: t.__isub__(1)),
    ("imul", lambda t: t.__imul__(2)), ("idiv", lambda t: t.__itruediv__(2)),
    ("add_/alpha", lambda t: t.add_(2, alpha=0.5)), ("sub_/alpha", lambda t: t.sub_(1, alpha=3)),
    ("sin_", lambda t: t.sin_()), ("cos_", lambda t: t.cos_()),
    ("log1p_", lambda t: t.abs_().log1p_()),
    ("sign_", lambda t: t.sign_()), ("reciprocal_", lambda t: t.reciprocal_()),
    ("square_", lambda t: t.square_()), ("round_", lambda t: t.round_()),
    ("round_/decimals", lambda t: t.round_(decimals=1)), ("floor_", lambda t: t.floor_()),
    ("ceil_", lambda t: t.ceil_()), ("trunc_", lambda t: t.trunc_()),
    ("abs_", lambda t: t.abs_()), ("tanh_", lambda t: t.tanh_()),
    ("sigmoid_", lambda t: t.sigmoid_()), ("sqrt_", lambda t: t.abs_().sqrt_()),
]


@pytest.mark.parametrize("name,op", INPLACE, ids=[n for n, _ in INPLACE])
def test_inplace_on_non_leaf_matches_torch(name, op, torch):
    results = []
    for lib in (minigrad, torch):
        x = lib.tensor([-1.0, 0.25, 2.0], dtype=lib.float64, requires_grad=True)
        y = x * 1.5
        returned = op(y)
        node = y.grad_fn
        y.backward(lib.tensor([1.0, 2.0, 3.0], dtype=lib.float64))
        results.append((returned is y, y._version, node.name(),
                        [n is None for n, _ in node.next_functions],
                        np.round(y.detach().numpy(), 10).tolist(),
                        np.round(x.grad.numpy(), 10).tolist()))
    assert results[0] == results[1]


def test_copy_into_constant_makes_it_a_non_leaf(torch):
    results = []
    for lib in (minigrad, torch):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        c = lib.zeros(2)
        c.copy_(x * 5)
        c.sum().backward()
        results.append((type(c.grad_fn).__name__, c.is_leaf, c.requires_grad, x.grad.tolist()))
    assert results[0] == results[1]


def test_errors_match_torch(torch):
    def cases(lib):
        leaf = lib.tensor([1.0, 2.0], requires_grad=True)
        yield lambda: leaf.add_(1)
        yield lambda: leaf[0:1].add_(1)
        yield lambda: lib.tensor([1, 2]).add_(1.5)
        yield lambda: lib.zeros(3).add_(lib.ones(2, 3))
        yield lambda: lib.zeros(1).expand(3).add_(1)

    for mine, ref in zip(cases(minigrad), cases(torch)):
        with pytest.raises(RuntimeError) as ref_info:
            ref()
        with pytest.raises(RuntimeError) as my_info:
            mine()
        assert str(my_info.value) == str(ref_info.value)


def test_modified_saved_tensor_error(torch):
    messages = []
    for lib in (minigrad, torch):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        b = x * 2
        c = b * b
        b.mul_(3)
        with pytest.raises(RuntimeError) as info:
            c.sum().backward()
        messages.append(str(info.value).replace("torch.", "minigrad."))
    assert messages[0] == messages[1]


def test_inplace_allowed_under_no_grad_and_versions_shared(torch):
    results = []
    for lib in (minigrad, torch):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        with lib.no_grad():
            x.add_(1)
        d = x.detach()
        d.zero_()
        x.data.add_(5)
        results.append((x._version, d._version, x.tolist(), x.is_leaf, x.grad_fn is None))
    assert results[0] == results[1]


def _log_rounded(log, grad):
    log.append(np.round(grad.numpy(), 4).tolist())


def test_hooks_stay_on_the_old_node(torch):
    results = []
    for lib in (minigrad, torch):
        seen = []
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        z = y.exp()
        y.register_hook(functools.partial(_log_rounded, seen))
        y.add_(1)
        (z.sum() + y.sum()).backward()
        results.append((seen, np.round(x.grad.numpy(), 4).tolist()))
    assert results[0] == results[1]


def test_optimizer_style_update_keeps_identity():
    p = minigrad.ones(2, requires_grad=True)
    alias = p
    with minigrad.no_grad():
        p -= 0.5
    assert alias is p and p.tolist() == [0.5, 0.5] and p.is_leaf
