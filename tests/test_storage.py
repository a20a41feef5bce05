"""as_strided_, resize_ and set_ (minigrad.ops.storage) against torch 2.13; then the storages
themselves (minigrad.storage): ``Tensor.storage()``, ``untyped_storage()``, ``data_ptr()`` and
``storage_offset()`` (views share one storage and differ by their offset)."""

import sys
import warnings

import pytest
from oracle import plain
from parity_expr import agree
from parity_programs import check, programs

import minigrad

CASES = {
    "as_strided_": "T.arange(6.0).as_strided_((2, 2), (1, 2), 1)",
    "as_strided_-shape": "(lambda a: (a.as_strided_((2, 2), (1, 2), 1), a.shape, a.stride())[1:])"
                         "(T.arange(6.0))",
    "as_strided_-out-of-bounds": "T.ones(2).as_strided_((2,), (1,), 5)",
    "as_strided_-mismatch": "T.ones(2).as_strided_((2,), (1, 2))",
    "as_strided_-leaf": "T.ones(2, requires_grad=True).as_strided_((1,), (1,))",
    "as_strided_-grad": "(lambda x: (lambda y: (y.as_strided_((2,), (2,), 1).sum().backward(), "
                        "x.grad, type(y.grad_fn).__name__)[1:])(x * 1))"
                        "(T.ones(4, requires_grad=True))",
    "resize_-smaller": "T.tensor([1.0, 2.0, 3.0, 4.0]).resize_(2, 1)",
    "resize_-same": "T.tensor([1, 2, 3, 4]).resize_((2, 2))",
    "resize_-larger-keeps-prefix": "T.tensor([1.0, 2.0]).resize_(3)[:2]",
    "resize_-larger-shape": "T.tensor([1.0, 2.0]).resize_(2, 3).shape",
    "resize_-requires-grad": "T.ones(2, requires_grad=True).resize_(2)",
    "resize_-nonleaf": "(T.ones(2, requires_grad=True) * 1).resize_(2)",
    "resize_as_": "T.ones(4).resize_as_(T.ones(2, 2)).shape",
    "set_": "T.zeros(2).set_(T.tensor([1.0, 2.0, 3.0]))",
    "set_-shares": "(lambda a, b: (b.set_(a), b.__setitem__(0, 9.0), a)[2])"
                   "(T.tensor([1.0, 2.0]), T.zeros(1))",
    "set_-empty": "T.zeros(3).set_().shape",
    "set_-dtype": "T.tensor([1.0, 2.0]).set_(T.tensor([1, 2]))",
    "set_-leaf": "T.ones(2, requires_grad=True).set_(T.zeros(2))",
}


@pytest.mark.parametrize("src", CASES.values(), ids=CASES.keys())
def test_matches_torch(oracle, src):
    agree(oracle, src)


# ------------------------------------------------- as_strided and the in-place view ops
def case_as_strided_view_and_grad(torch):
    x = torch.arange(6.0, requires_grad=True)
    y = torch.as_strided(x, (2, 2), (1, 2), 1)
    overlapping = x.as_strided((3, 2), (1, 1))
    ((y * torch.tensor([[1.0, 2.0], [3.0, 4.0]])).sum() + overlapping.sum()).backward()
    t = torch.arange(12.0).view(3, 4).t()
    return y, y._base is x, x.grad, t.as_strided((2, 3), (4, 1), 1)


def case_as_strided_inplace_on_view(torch):
    leaf = torch.arange(6.0, requires_grad=True)
    base = leaf * 1
    view = base[1:5]
    view.as_strided_((2, 2), (1, 2), 1)
    (view * torch.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
    return view, leaf.grad


def case_inplace_view_ops(torch):
    leaf = torch.ones(2, 3, requires_grad=True)
    a = leaf.clone()
    names = []
    for step in (lambda: a.transpose_(0, 1), lambda: a.t_(), lambda: a.unsqueeze_(0),
                 lambda: a.squeeze_(), lambda: a.unsqueeze_(2), lambda: a.squeeze_(2),
                 lambda: a.swapdims_(0, 1), lambda: a.swapaxes_(0, 1)):
        assert step() is a
        names.append((type(a.grad_fn).__name__, list(a.shape), a._version))
    (a * torch.arange(6.0).view(2, 3)).sum().backward()
    plain = torch.ones(2, 3)
    plain.transpose_(0, 1)
    return names, leaf.grad, plain.shape, plain._version, plain.is_contiguous()


def case_inplace_view_op_on_leaf(torch):
    return torch.ones(2, 3, requires_grad=True).transpose_(0, 1)


def case_inplace_view_op_on_a_view(torch):
    leaf = torch.ones(2, 3, requires_grad=True)
    view = leaf.clone()[0:2]
    view.transpose_(0, 1)
    (view * torch.arange(6.0).view(3, 2)).sum().backward()
    return view, leaf.grad


def case_resize_bumps_the_version_only_when_the_shape_changes(torch):
    x, y = torch.rand(1), torch.randn(3)
    versions = []
    for change in (lambda: x.resize_((1, 2)), lambda: x.resize_as_(y), lambda: x.resize_((3,)),
                   lambda: x.resize_as_(y)):
        change()
        versions.append(x._version)
    return versions


def case_view_of_a_multi_output_view_refuses_inplace(torch):
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True).clone()
    piece = a.unbind(0)[0]
    errors = []
    for view in (piece.view_as(piece), piece.view_as(piece).view_as(piece)):
        try:
            view.mul_(2)
        except RuntimeError as error:
            errors.append(str(error))
    return errors


def case_unsafe_split_pieces_may_change_in_place(torch):
    out = []
    for cut in (lambda t: t.unsafe_split(1), lambda t: t.unsafe_split_with_sizes((1, 2)),
                lambda t: t.unsafe_chunk(2)):
        a = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], requires_grad=True)
        pieces = cut(a * 1)
        pieces[0].mul_(pieces[1][:1])
        pieces[0].sum().backward()
        out.append((type(pieces[0].grad_fn.next_functions[0][0]).__name__, pieces[0]._base,
                    a.grad))
    return out


def case_empty_strided(torch):
    c = torch.empty_strided((2, 2), (4, 2)).copy_(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
    c.requires_grad_()
    (c * c).sum().backward()
    return c.stride(), c, c.grad, c.grad.stride()


@pytest.mark.parametrize("prog", programs(globals()), ids=lambda p: p.__name__[5:])
def test_parity(prog, oracle):
    check(prog, oracle)


# ---------------------------------------------------------------- storages (minigrad.storage)
def _layout(lib):
    """Sizes of storages, offsets and pointer distances of a tensor and some of its views."""
    base = lib.arange(12.0).view(3, 4)
    views = [base, base[1:], base[:, 2], base.t()[1:], base.view(-1)[5:9], base[2, 3]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        typed = [len(v.storage()) for v in views]
    return {
        "typed": typed,
        "untyped": [len(v.untyped_storage()) for v in views],
        "offset": [v.storage_offset() for v in views],
        "ptr_step": [v.data_ptr() - base.data_ptr() for v in views],
        "storage_ptr": [v.untyped_storage().data_ptr() == base.data_ptr() for v in views],
        "copy_is_new": base.clone().data_ptr() != base.data_ptr(),
        "empty_ptr": lib.empty(0).data_ptr(),
        "int_storage": len(lib.tensor([1, 2, 3], dtype=lib.int16).untyped_storage()),
        "values": lib.tensor([1.5, 2.5])[1:].storage().tolist(),
    }


def test_views_share_one_storage(oracle):
    assert plain(_layout(minigrad)) == oracle(_layout)


def test_typed_storage_warns_once_as_torch(oracle):
    def run(lib):
        if lib is minigrad:  # the warning is given once per process: start afresh
            sys.modules["minigrad.tensor"]._TYPED_STORAGE_WARNED.clear()
        else:
            lib.storage._reset_warn_typed_storage_removal()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            lib.ones(2).storage()
            lib.ones(3).storage()
        return [str(w.message) for w in caught if "TypedStorage" in str(w.message)]
    assert run(minigrad) == oracle(run)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "bool"])
def test_storage_reads_elements_and_bytes(oracle, dtype):
    def run(lib):
        t = lib.tensor([[0, 1, 2], [3, 4, 5]]).to(getattr(lib, dtype))[:, 1:]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            typed = t.storage()
        return [typed.size(), typed[4], typed.tolist(), str(typed.dtype).split(".")[-1],
                t.untyped_storage().nbytes(), t.untyped_storage()[0]]
    assert plain(run(minigrad)) == oracle(run)


# ------------------------------------- in-place view ops (t_, transpose_, ...) on view kinds
_INPLACE_VIEW_OPS = {
    "as_strided_": lambda v: v.as_strided_((1, 0), (2, 2)),
    "transpose_": lambda v: v.transpose_(0, 0),
    "t_": lambda v: v.t_(),
    "squeeze_": lambda v: v.squeeze_(0),
    "unsqueeze_": lambda v: v.unsqueeze_(0),
}


def _inplace_view_story(lib, op):
    """An in-place view op on a view (plain, one of several, or a custom Function's) made with
    or without grad mode, done with or without grad mode; then an in-place add on the result."""
    class Same(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.view_as(x)

        @staticmethod
        def backward(ctx, grad):
            return grad

    makers = {"plain": lambda b: b.view_as(b), "several": lambda b: b.unbind()[0],
              "custom": lambda b: Same.apply(b)}
    story = {}
    for kind, make in makers.items():
        for made_with_grad in (True, False):
            for op_with_grad in (True, False):
                base = lib.rand(2, 3, requires_grad=True).clone()
                with lib.set_grad_enabled(made_with_grad):
                    view = make(base)
                key = f"{kind} made-grad={made_with_grad} op-grad={op_with_grad}"
                try:
                    with lib.set_grad_enabled(op_with_grad):
                        _INPLACE_VIEW_OPS[op](view)
                    view.add_(1)
                    story[key] = [list(view.shape), view.requires_grad]
                except RuntimeError as error:
                    story[key] = str(error).split(".")[0]
    return story


@pytest.mark.parametrize("op", sorted(_INPLACE_VIEW_OPS))
def test_inplace_view_ops_respect_view_kinds(oracle, op):
    assert plain(_inplace_view_story(minigrad, op)) == oracle(
        lambda torch: _inplace_view_story(torch, op))
