"""In-place ops: values, version counters, history rebasing and PyTorch's errors."""

import functools

import numpy as np
import pytest
from oracle import plain
from parity_expr import agree

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
def test_inplace_on_non_leaf_matches_torch(name, op, oracle):
    def run(lib):
        x = lib.tensor([-1.0, 0.25, 2.0], dtype=lib.float64, requires_grad=True)
        y = x * 1.5
        returned = op(y)
        node = y.grad_fn
        y.backward(lib.tensor([1.0, 2.0, 3.0], dtype=lib.float64))
        return (returned is y, y._version, node.name(),
                        [n is None for n, _ in node.next_functions],
                        np.round(y.detach().numpy(), 10).tolist(),
                        np.round(x.grad.numpy(), 10).tolist())
    results = [plain(run(minigrad)), oracle(run)]
    assert results[0] == results[1]


def test_copy_into_constant_makes_it_a_non_leaf(oracle):
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        c = lib.zeros(2)
        c.copy_(x * 5)
        c.sum().backward()
        return (type(c.grad_fn).__name__, c.is_leaf, c.requires_grad, x.grad.tolist())
    results = [plain(run(minigrad)), oracle(run)]
    assert results[0] == results[1]


def _assert_same_errors(cases, torch):
    """Each of ``cases(lib)`` raises the same RuntimeError text under minigrad and torch."""
    for mine, ref in zip(cases(minigrad), cases(torch), strict=True):
        with pytest.raises(RuntimeError) as ref_info:
            ref()
        with pytest.raises(RuntimeError) as my_info:
            mine()
        assert str(my_info.value) == str(ref_info.value)


def test_errors_match_torch(torch):
    def cases(lib):
        leaf = lib.tensor([1.0, 2.0], requires_grad=True)
        yield lambda: leaf.add_(1)
        yield lambda: leaf[0:1].add_(1)
        yield lambda: lib.tensor([1, 2]).add_(1.5)
        yield lambda: lib.zeros(3).add_(lib.ones(2, 3))
        yield lambda: lib.zeros(1).expand(3).add_(1)

    _assert_same_errors(cases, torch)


def test_modified_saved_tensor_error(oracle):
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        b = x * 2
        c = b * b
        b.mul_(3)
        with pytest.raises(RuntimeError) as info:
            c.sum().backward()
        return (str(info.value).replace("torch.", "minigrad."))
    messages = [plain(run(minigrad)), oracle(run)]
    assert messages[0] == messages[1]


def test_inplace_allowed_under_no_grad_and_versions_shared(oracle):
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        with lib.no_grad():
            x.add_(1)
        d = x.detach()
        d.zero_()
        x.data.add_(5)
        return (x._version, d._version, x.tolist(), x.is_leaf, x.grad_fn is None)
    results = [plain(run(minigrad)), oracle(run)]
    assert results[0] == results[1]


def _log_rounded(log, grad):
    log.append(np.round(grad.numpy(), 4).tolist())


def test_hooks_stay_on_the_old_node(oracle):
    def run(lib):
        seen = []
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        z = y.exp()
        y.register_hook(functools.partial(_log_rounded, seen))
        y.add_(1)
        (z.sum() + y.sum()).backward()
        return (seen, np.round(x.grad.numpy(), 4).tolist())
    results = [plain(run(minigrad)), oracle(run)]
    assert results[0] == results[1]


def test_optimizer_style_update_keeps_identity():
    p = minigrad.ones(2, requires_grad=True)
    alias = p
    with minigrad.no_grad():
        p -= 0.5
    assert alias is p and p.tolist() == [0.5, 0.5] and p.is_leaf


# In-place changes through views: the base and every view of it see the new history.
VIEW_CASES = {
    "slice of non-leaf": lambda lib, x: _then(x * 2, lambda a: a[:2].mul_(3)),
    "row relu_": lambda lib, x: _then(x * 1, lambda a: a[0].relu_()),
    "column zero_": lambda lib, x: _then(x.sin(), lambda a: a[:, 1].zero_()),
    "saved output changed": lambda lib, x: _then(x.exp(), lambda a: a[:, 1].zero_()),
    "transpose": lambda lib, x: _then(x * 1, lambda a: a.t().mul_(lib.arange(2.0))),
    "view of a view": lambda lib, x: _then(x * 2, lambda a: a.view(3, 2)[1].mul_(5)),
    "setitem on a view": lambda lib, x: _then(x * 2, lambda a: a[1].__setitem__(0, 7.0)),
    "copy_ into a constant's view": lambda lib, x: _then(
        lib.zeros(3, 3), lambda a: a[1:].copy_(x * 2)),
    "base changed, old view used": lambda lib, x: _stale_view(x * 2),
    "view times itself": lambda lib, x: _then(x * x, lambda a: a[1].mul_(x[1])),
    "0-d view changed": lambda lib, x: _then(x * 2, lambda a: a[1, 2].mul_(3)),
    "base changed, old 0-d view used": lambda lib, x: _stale_view(x * 2, (0, 1)),
    "fill_ with a tensor": lambda lib, x: _then(x * 2, lambda a: a[0].fill_(x[1, 1])),
}


def _then(tensor, change):
    change(tensor)
    return tensor


def _stale_view(a, index=0):
    view = a[index]
    a.mul_(3)
    return view


@pytest.mark.parametrize("case", VIEW_CASES, ids=list(VIEW_CASES))
def test_inplace_through_a_view_matches_torch(oracle, case):
    def run(lib):
        x = lib.tensor([[1.0, -2.0, 3.0], [-4.0, 5.0, 0.5]], dtype=lib.float64,
                       requires_grad=True)
        out = VIEW_CASES[case](lib, x)
        weights = lib.arange(out.numel(), dtype=lib.float64).reshape(out.shape)
        try:
            (grad,) = lib.autograd.grad((out * weights).sum(), x, create_graph=True)
        except RuntimeError as error:
            return str(error).replace("torch.", "minigrad.")
        grad2 = None
        if grad.requires_grad:
            (grad2,) = lib.autograd.grad((grad * x).sum(), x, allow_unused=True)
        return (type(out.grad_fn).__name__, out.tolist(), grad.tolist(),
                None if grad2 is None else grad2.tolist())
    assert plain(run(minigrad)) == oracle(run)


def test_inplace_through_a_view_renames_base_and_view(oracle):
    def run(lib):
        x = lib.ones(3, requires_grad=True)
        a = x * 2
        view = a[:2]
        other = a[1:]
        view.mul_(3)
        return (type(a.grad_fn).__name__, view.grad_fn.name(), other.grad_fn.name(),
                        a._version, view._version, other._version)
    results = [plain(run(minigrad)), oracle(run)]
    assert results[0] == results[1]


def test_outputs_of_multi_output_views_cannot_change_in_place_like_torch(torch):
    def cases(lib):
        x = lib.ones(4, 3, requires_grad=True)
        yield lambda: x.clone().unbind(0)[1].mul_(2)
        yield lambda: x.clone().split(2, 0)[1].add_(1)
        yield lambda: x.clone().split([1, 3], 0)[0].zero_()
        yield lambda: x.clone().chunk(2, 1)[1].relu_()
        yield lambda: x.clone().split(4, 0)[0].mul_(2)  # one output: still a multi-output op

    _assert_same_errors(cases, torch)


def test_multi_output_views_change_in_place_where_autograd_does_not_record(torch):
    for lib in (minigrad, torch):
        constant = lib.ones(2, 3)
        constant.unbind(0)[1].mul_(2)  # nothing requires grad
        x = lib.ones(2, 3, requires_grad=True)
        with lib.no_grad():
            x.clone().unbind(0)[1].mul_(2)
        assert constant.tolist() == [[1.0] * 3, [2.0] * 3]


def test_copy_shape_errors_match_torch(torch):
    for target, source in [((2, 3), (2,)), ((3,), (2, 3)), ((2, 3), (4, 1, 3))]:
        messages = []
        for lib in (minigrad, torch):
            with pytest.raises(RuntimeError) as info:
                lib.zeros(target).copy_(lib.ones(source))
            messages.append(str(info.value))
        assert messages[0] == messages[1]


@pytest.mark.parametrize("make", [
    lambda lib, x: (x * 1).fill_(2), lambda lib, x: x.sum(0, keepdim=True),
    lambda lib, x: x.pow(x), lambda lib, x: x.mean(0, keepdim=True),
    lambda lib, x: (x * 1).zero_()], ids=["fill", "sum", "pow", "mean", "zero"])
def test_modified_output_names_the_forward_op_like_torch(oracle, make):
    def run(lib):
        x = lib.ones(3, requires_grad=True)
        a = make(lib, x)
        y = a.sin()
        with lib.no_grad():
            a.add_(1)
        with pytest.raises(RuntimeError) as info:
            y.sum().backward()
        return (str(info.value).replace("torch.", "minigrad."))
    messages = [plain(run(minigrad)), oracle(run)]
    assert messages[0] == messages[1]


def test_fill_with_a_tensor_value_matches_torch(oracle):
    """``fill_(tensor)`` is differentiable in its value (FillBackward3), and wants a 0-d one."""
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        value = lib.tensor(3.0, dtype=lib.float64, requires_grad=True)
        y = (x * 1).fill_(value)
        (y * lib.tensor([1.0, 2.0])).sum().backward()
        with pytest.raises(RuntimeError) as info:
            lib.zeros(3).fill_(lib.ones(1))
        return (y.grad_fn.name(), len(y.grad_fn.next_functions), y.tolist(),
                        x.grad.tolist(), value.grad.item(), str(info.value))
    results = [plain(run(minigrad)), oracle(run)]
    assert results[0] == results[1]


# Views that did not require grad: an in-place change to their base (or to another view of it)
# that autograd records makes them require grad, with an AsStridedBackward0 history.
def _constant_views(lib, x, p):
    a = lib.arange(1.0, 7.0, dtype=lib.float64).reshape(2, 3)
    return a, {"row": a[0], "column": a[:, 1], "0-d": a[1, 2], "t": a.t(),
               "view of a view": a.view(3, 2)[1:], "flat": a.view(-1)}


CONSTANT_VIEW_CASES = {
    "mul_ on a slice": lambda lib, a, x, p: a[1:].mul_(p),
    "mul_ on the base": lambda lib, a, x, p: a.mul_(p),
    "add_ on the base": lambda lib, a, x, p: a.add_(x.sum()),
    "copy_ into a row": lambda lib, a, x, p: a[0].copy_(x * 2),
    "setitem": lambda lib, a, x, p: a.__setitem__((1, slice(0, 2)), p),
    "setitem with a tensor index": lambda lib, a, x, p: a.__setitem__(
        (0, lib.tensor([0, 2])), x[:2]),
    "mul_ on a view of a view": lambda lib, a, x, p: a.view(3, 2)[2].mul_(p),
    "two changes": lambda lib, a, x, p: (a[0].mul_(p), a[:, 2].add_(x[1:])),
}


def _describe_views(lib, change):
    x = lib.tensor([0.5, -1.5, 2.0], dtype=lib.float64, requires_grad=True)
    p = lib.tensor(3.0, dtype=lib.float64, requires_grad=True)
    a, views = _constant_views(lib, x, p)
    change(lib, a, x, p)
    views["made after"] = a[:, :2]
    views["view of a view, after"] = a.view(3, 2)[1:].t()
    rows = [a.requires_grad, type(a.grad_fn).__name__]
    for name, v in views.items():
        row = [name, v.tolist(), v.requires_grad, None if v.grad_fn is None else v.grad_fn.name()]
        if v.requires_grad:
            weights = lib.arange(1.0, v.numel() + 1, dtype=lib.float64).reshape(v.shape)
            grads = lib.autograd.grad((v * weights).sum(), (x, p), create_graph=True,
                                      allow_unused=True)
            row += [None if g is None else g.tolist() for g in grads]
        rows.append(row)
    return rows


@pytest.mark.parametrize("case", CONSTANT_VIEW_CASES, ids=list(CONSTANT_VIEW_CASES))
def test_views_of_a_constant_follow_an_inplace_change_like_torch(oracle, case):
    change = CONSTANT_VIEW_CASES[case]
    expected = oracle(lambda torch: _describe_views(torch, change))
    assert plain(_describe_views(minigrad, change)) == expected


def test_view_of_a_constant_then_changed_in_place_like_torch(oracle):
    """A renewed view can itself be changed in place; gradients flow to both writes.

    NB: PyTorch renews the view's history lazily, when its grad_fn is read; had nothing read it
    before ``v.mul_``, PyTorch would take ``v`` for a leaf and raise. minigrad renews eagerly.
    """
    def run(lib):
        p = lib.tensor(2.0, dtype=lib.float64, requires_grad=True)
        a = lib.zeros(3, dtype=lib.float64)
        v = a[:2]
        a[1:].mul_(p).add_(p)
        renewed = v.grad_fn.name()
        v.mul_(p)
        out = (a * lib.tensor([1.0, 2.0, 3.0], dtype=lib.float64)).sum()
        (grad,) = lib.autograd.grad(out, p)
        return (renewed, a.tolist(), v.tolist(), type(a.grad_fn).__name__,
                        v.grad_fn.name(), a._version, v._version, grad.item())
    results = [plain(run(minigrad)), oracle(run)]
    assert results[0] == results[1]


def test_view_made_under_no_grad_stays_a_constant():
    """NB: PyTorch raises when such a view's grad_fn is read; minigrad leaves it alone."""
    p = minigrad.tensor(2.0, requires_grad=True)
    a = minigrad.ones(3)
    with minigrad.no_grad():
        v = a[:2]
    a[1:].mul_(p)
    assert v.tolist() == [1.0, 2.0] and not v.requires_grad and v.grad_fn is None


# ---------------------------------------------------------------- issue 12, vs the oracle
INPLACE = {
    "no-grad-view-flags": "(lambda a: [(v.requires_grad, v.is_leaf, v.grad_fn) for v in "
                          "[T.no_grad()(lambda: a[:2])()]])(T.ones(3, requires_grad=True))",
    "no-grad-view-of-nonleaf": "(lambda b: [(v.requires_grad, v.is_leaf) for v in "
                               "[T.no_grad()(lambda: b.view(3))()]])"
                               "(T.ones(3, requires_grad=True) * 2)",
    "no-grad-view-mul_": "(lambda a: T.no_grad()(lambda: a[:2])().mul_(2))"
                         "(T.ones(3, requires_grad=True))",
    "no-grad-view-of-nonleaf-mul_": "(lambda b: T.no_grad()(lambda: b[:2])().mul_(2))"
                                    "(T.ones(3, requires_grad=True) * 2)",
    "no-grad-view-then-requires_grad_": "T.no_grad()(lambda: T.ones(4).view(2, 2))()"
                                        ".requires_grad_().mul_(2)",
    "view-made-leaf": "T.ones(4).view(2, 2).requires_grad_().mul_(2)",
    "view-of-view-leaf": "(lambda x: x.reshape(4)[0:2].mul_(2))"
                         "(T.ones(4).view(2, 2).requires_grad_())",
    "eq_": "T.tensor([1.0, 2.0]).eq_(1.0)",
    "lt_-int": "T.tensor([1, 2, 3]).lt_(2.5)",
    "ge_-tensor": "T.tensor([1.0, 2.0]).ge_(T.tensor([2.0, 2.0]))",
    "ne_-bool": "T.tensor([True, False]).ne_(True)",
    "gt_-node": "(lambda y: y.gt_(1.0))(T.ones(3, requires_grad=True) * 2)",
    "le_-node-tensor": "(lambda y: y.le_(T.ones(3)))(T.ones(3, requires_grad=True) * 2)",
    "eq_-grad": "(lambda x: ((x * 2).eq_(2.0).sum().backward(), x.grad)[1])"
                "(T.ones(3, requires_grad=True))",
    "masked_fill_": "T.tensor([1.0, 2.0]).masked_fill_(T.tensor([True, False]), 5.0)",
    "masked_fill_-int-float": "T.tensor([1, 2]).masked_fill_(T.tensor([True, False]), 2.5)",
    "masked_fill_-node": "(lambda y: y.masked_fill_(T.tensor([True, False, True]), 0.0))"
                         "(T.ones(3, requires_grad=True) * 2)",
    "clamp_min_": "T.tensor([1.0, -2.0]).clamp_min_(0.0)",
    "clamp_max_-int": "T.tensor([1, 5]).clamp_max_(2)",
    "remainder_": "T.tensor([5.0, -5.0]).remainder_(3)",
}


@pytest.mark.parametrize("src", INPLACE.values(), ids=INPLACE.keys())
def test_inplace_and_views_match_torch(oracle, src):
    agree(oracle, src)



def _through_view(x, view, op, *args):
    getattr(view(x), op)(*args)
    return x


OVERLAP_CASES = {  # found by the differential fuzzer: PyTorch checks memory before shapes/dtypes
    "expanded-view-written-twice": "V(T.tensor([True, False]), lambda x: x.expand(2, 2), 'exp_')",
    "expanded-view-clamp_": "V(T.ones(3), lambda x: x.expand(2, 3), 'clamp_', 0, 1)",
    "expanded-view-before-shapes": "V(T.ones(3), lambda x: x.expand(2, 3), 'sub_', T.ones(4))",
    "input-overlaps-in-part": "(lambda x: V(x, lambda x: x[0], 'sub_', x))(T.ones(2, 3))",
    "same-memory-other-strides": "(lambda x: V(x, lambda x: x.view(-1), 'add_', x))(T.tensor(5))",
    "transposed-self": "(lambda x: V(x, lambda x: x.t(), 'mul_', x))(T.ones(2, 2))",
    "row-of-self": "(lambda x: x.add_(x[0]))(T.ones(2, 2))",
    "self-is-fine": "(lambda x: x.add_(x))(T.ones(2, 2))",
    "disjoint-rows-are-fine": "(lambda x: x[0].add_(x[1]))(T.ones(2, 2))",
    "same-values-other-tensor": "V(T.tensor(5), lambda x: x.view(-1), 'add_', T.tensor(5))",
    "dtype-before-memory-clamp_": "V(T.tensor([True, False]), lambda x: x.expand(2, 2), "
                                  "'clamp_', 0, 1)",
    "fill_-value-checked-first": "V(T.tensor([True, False]), lambda x: x.view(-1), 'fill_', "
                                 "T.ones(1, 2, dtype=T.bool))",
    "bool-sub_-checked-first": "(lambda x: x[0].sub_(x))(T.tensor([[True, False]]))",
    "setitem-of-self-row": "(lambda x: (x.__setitem__(-1, x), x)[1])(T.ones(1, 3))",
    "multi-output-view-before-leaf": "V(T.ones(3, dtype=T.float64, requires_grad=True), "
                                     "lambda x: x.unbind(0)[0], 'relu_')",
}


@pytest.mark.parametrize("src", OVERLAP_CASES.values(), ids=OVERLAP_CASES.keys())
def test_overlap_checks_match_torch(oracle, src):
    agree(oracle, src, names={"V": _through_view})


# ------------------------------------------- views that do not require grad, changed in place
def _untracked_view_story(lib):
    """Views of a tensor that does not require grad, changed in place by an op that autograd
    records (the other operand requires grad): allowed for plain views, refused for a view a
    custom Function returned and for one of several views (unbind, split, chunk)."""
    class Same(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.view_as(x)

        @staticmethod
        def backward(ctx, grad):
            return grad

    makers = {
        "custom": lambda a: Same.apply(a),
        "unbind": lambda a: a.unbind()[0],
        "split": lambda a: a.split(1)[1],
        "chunk-then-view": lambda a: a.chunk(2)[0].view(-1),
        "select": lambda a: a.select(0, 1),
        "slice": lambda a: a[1:],
    }
    story = {}
    for name, make in makers.items():
        for change in ("add_", "copy_", "mul_-no-grad-operand"):
            a = lib.zeros(2, 2)
            w = lib.ones(2, requires_grad=True)
            view = make(a)
            try:
                if change == "add_":
                    view.add_(w.sum())
                elif change == "copy_":
                    view.copy_(w[: view.shape[-1]])
                else:
                    view.mul_(2)
                story[f"{name} {change}"] = [view.requires_grad, a.requires_grad]
            except RuntimeError as error:
                story[f"{name} {change}"] = str(error)
    return story


def test_untracked_views_changed_in_place(oracle):
    assert plain(_untracked_view_story(minigrad)) == oracle(_untracked_view_story)


def _view_of_view_story(lib):
    """A view made in grad mode of a view made under no_grad (or in inference mode) of a
    constant, which was then told to require grad: changing it in place is refused."""
    story = {}
    blocks = {"no_grad": lib.no_grad, "inference_mode": lib.inference_mode}
    for name, block in blocks.items():
        for second in ("view", "slice", "transpose"):
            x = lib.zeros(2, 2)
            with block():
                y = x.view(2, 2)
            y.requires_grad_(True)
            z = {"view": lambda t: t.view(4), "slice": lambda t: t[1:],
                 "transpose": lambda t: t.t()}[second](y)
            try:
                z.div_(2)
                story[f"{name} {second}"] = [z.requires_grad, type(z.grad_fn).__name__]
            except RuntimeError as error:
                story[f"{name} {second}"] = str(error)
    return story


def test_view_of_a_no_grad_view_refuses_inplace(oracle):
    assert plain(_view_of_view_story(minigrad)) == oracle(_view_of_view_story)


# Fills write an expanded view (each memory location once per element that refers to it);
# other in-place ops refuse it, and so does backward through such a write.
EXPANDED_WRITES = [
    "T.zeros(3).expand(2, 3).fill_(1)", "T.ones(3).expand(2, 3).zero_()",
    "T.zeros(3, dtype=T.int64).expand(2, 3).fill_(7)", "T.zeros(()).expand(3).fill_(1)",
    "(lambda b: (b.expand(2, 3).fill_(4), b, b._version))(T.zeros(3))",
    "(lambda b: (b.expand(2, 3).masked_fill_(T.tensor([True, False, True]), 2.0), b))"
    "(T.ones(3))",
    "T.ones(3).expand(2, 3).masked_fill_(T.tensor([[True, False, True], [False, True, False]]),"
    " 2.0)",
    "T.ones(2, 1).expand(2, 3).masked_fill_(T.tensor([[True, False, False], [False, False, "
    "False]]), 2.0)",
    "T.zeros(3).expand(2, 3).masked_fill_(T.tensor([True, False, True]), T.tensor(2.0))",
    "(lambda b: (b.expand(2, 3)[0].fill_(1), b))(T.zeros(3))",
    "(lambda b: b.expand(2, 3).__setitem__(0, 1) or b)(T.zeros(3))",
    "(lambda a: a.__setitem__((slice(None), 1), 5.0) or a)(T.zeros(3).expand(2, 3))",
    "(lambda a: a.__setitem__(..., 5.0) or a)(T.zeros(3).expand(2, 3))",
    "(lambda a: a.__setitem__([0, 1], 5.0) or a)(T.zeros(3).expand(2, 3))",
    "(lambda a: a.__setitem__(T.tensor([[True, False, True], [False, False, False]]), "
    "T.tensor([5.0, 6.0])) or a)(T.zeros(3).expand(2, 3))",
    "T.zeros(3).expand(2, 3).fill_(T.tensor(1.0))", "T.zeros(3).expand(2, 3).mul_(2)",
    "T.zeros(3).expand(2, 3).copy_(T.ones(2, 3))",
    "(lambda b: (b.expand(2, 0).mul_(2), b.expand(2, 0).clamp_(0, 1), b))(T.ones(0))",
    "(lambda b: (b.expand(2, 3).fill_(2), b))(T.ones(3, requires_grad=True).clone())",
    "(lambda b: (b.expand(2, 3).fill_(2), b.sum().backward()))"
    "(T.ones(3, requires_grad=True).clone())",
    # an array that owns its memory and still repeats an element (a zero stride, no base)
    "T.from_numpy(__import__('numpy').ndarray((3,), 'float32', strides=(0,))).add_(1)",
]


@pytest.mark.parametrize("src", EXPANDED_WRITES)
def test_writes_to_an_expanded_view_match_torch(oracle, src):
    agree(oracle, src)


def _expanded_masked_fill_warning(lib):
    import warnings
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        lib.zeros(3).expand(2, 3).masked_fill_(lib.tensor([True, False, True]), 1.0)
    return [str(w.message).split(" (Triggered")[0] for w in caught]


def test_masked_fill_on_an_expanded_view_warns_as_torch(oracle):
    assert _expanded_masked_fill_warning(minigrad) == oracle(_expanded_masked_fill_warning)


# An integer tensor takes no history from an in-place op (a float that requires grad written
# into it), but from fill_ and masked_fill_ with a tensor value, as in PyTorch.
INT_TARGETS = [
    "(lambda i: (i.copy_(T.ones(2, requires_grad=True)), i.requires_grad, i.grad_fn))"
    "(T.zeros(2, dtype=T.int64))",
    "(lambda i: i.copy_(T.ones(2, requires_grad=True)).sum())(T.zeros(2, dtype=T.int32))",
    "T.zeros(2, dtype=T.bool).copy_(T.ones(2, requires_grad=True))",
    "(lambda i: (i.__setitem__(0, T.tensor(2.0, requires_grad=True)), i)[1])"
    "(T.zeros(2, dtype=T.int64))",
    "(lambda i: (i[0].copy_(T.tensor(2.0, requires_grad=True)), i)[1])(T.zeros(2, dtype=T.int64))",
    "T.zeros(2, dtype=T.int64).scatter_(0, T.tensor([0]), T.tensor([2.0], requires_grad=True))",
    "T.zeros(2, dtype=T.int64).fill_(T.tensor(2.0, requires_grad=True))",
    "T.zeros(2, dtype=T.int64).masked_fill_(T.tensor([True, False]), T.tensor(2.0, "
    "requires_grad=True))",
    "T.zeros(2, dtype=T.int64).fill_(T.tensor(2.0, requires_grad=True)).sum()",
    "T.zeros(2, 3, dtype=T.int64).ge_(T.zeros(3, requires_grad=True))",
    "T.zeros(2, 3, dtype=T.int64).eq_(T.zeros(3, requires_grad=True)).sum()",
    "(lambda i: (i.__setitem__(0, T.tensor(0.0, requires_grad=True)), i)[1])"
    "(T.zeros(2, 1, dtype=T.int64))",
]


@pytest.mark.parametrize("src", INT_TARGETS)
def test_an_integer_tensor_written_in_place_takes_history_as_in_torch(oracle, src):
    agree(oracle, src)


MEMORY_AND_SHAPES = [  # found by the differential fuzzer: which check PyTorch makes first
    "(lambda x: x.t().div_(x))(T.tensor([[1.0], [2.0]]))",
    "(lambda x: x[0].add_(x))(T.tensor([[1.0, 2.0], [3.0, 4.0]]))",
    "(lambda x: x.expand(2, 2).add_(T.ones(3, 3)))(T.ones(2))",
    "T.tensor(1, dtype=T.uint8).nextafter_(T.zeros(2, 3))",
    "(lambda b: (b[[0, 1]].unsqueeze(0).add_(T.tensor(1.0, requires_grad=True)), b))"
    "(T.zeros(2, 0))",
    "(lambda v: (v.unsqueeze(0).add_(T.tensor(1.0, requires_grad=True)), v))"
    "(T.zeros(2, 0)[[0, 1]])",
]


@pytest.mark.parametrize("src", MEMORY_AND_SHAPES)
def test_memory_and_shape_checks_match_torch(oracle, src):
    agree(oracle, src)
