"""``x[index]`` and ``x[index] = value``: values, node chains, gradients and errors vs torch."""

import warnings

import numpy as np
import pytest
from oracle import plain
from parity_expr import agree
from parity_programs import check, programs

import minigrad

ARRAY = np.random.default_rng(0).standard_normal((2, 3, 4))

# Index expressions over x of shape (2, 3, 4); ``lib`` is minigrad or torch.
GETITEMS = [
    "x[0]", "x[-1]", "x[1:]", "x[:]", "x[::1]", "x[0:5]", "x[-3:-1]", "x[5:]", "x[:, 2:1]",
    "x[:, ::2]", "x[0, 1:]", "x[1:, 0]", "x[:, 0]", "x[:, :]", "x[0, 0, 0]", "x[0][1]",
    "x[None]", "x[:, None]", "x[None, 0]", "x[0, None]", "x[..., None]", "x[...]", "x[()]",
    "x[..., 0]", "x[..., :]", "x[lib.tensor(1)]", "x[True]", "x[False]",
    "x[[0, 1, 0]]", "x[lib.tensor([0, 1])]", "x[lib.tensor([[0, 1]])]", "x[[]]",
    "x[x > 0]", "x[[True, False]]", "x[:, lib.tensor([True, False, True])]",
    "x[lib.tensor([[True, False, True], [False, False, True]])]",
    "x[0, [0, 1]]", "x[:, [0, 2]]", "x[0, :, [0, 1]]", "x[[0, 1], 0]", "x[[0, 1], :, [0, 1]]",
    "x[:, [0, 1], [1, 2]]", "x[[[0], [1]], [0, 2]]", "x[None, [0, 1]]", "x[[0, 1], None]",
    "x[[0, 1], ..., None]", "x[1:2, [0, 1]]", "x[:, [-1, 0, -1]]",
]

GETITEM_ERRORS = [
    "x[5]", "x[-3]", "x[0, 5]", "x[0, 0, 0, 0]", "x[[0, 5]]", "x[[0, -3]]", "x[:, [0, 3]]",
    "x[:, :, [0, 9]]", "x[[0, 1], [0, 5]]", "x[[0, 1], :, [0, 9]]", "x[[0, 1], [0, 1, 2]]",
    "x[::-1]", "x[::0]", "x[lib.tensor([True, False, True])]", "x[1.5]", "x[lib.tensor([1.0])]",
    "lib.tensor(1.0)[0]",
]


def _chain(out):
    """Node names from ``out.grad_fn`` down the first edges, without the leaf's accumulator."""
    names, fn = [], out.grad_fn
    while fn is not None and "AccumulateGrad" not in fn.name():
        names.append(fn.name().replace("torch::", "minigrad::"))
        fn = fn.next_functions[0][0] if fn.next_functions else None
    return names


def _leaf(lib, array=ARRAY):
    return lib.tensor(array, dtype=lib.float64, requires_grad=True)


def _weights(shape):
    return np.random.default_rng(1).uniform(0.5, 1.5, tuple(shape))


@pytest.mark.parametrize("expr", GETITEMS)
def test_getitem_matches_torch(expr, oracle):
    def run(lib):
        x = _leaf(lib)
        out = eval(expr, {"lib": lib, "x": x})
        weights = lib.tensor(_weights(out.shape), dtype=lib.float64, requires_grad=True)
        (grad,) = lib.autograd.grad(out, x, weights, create_graph=True)
        (second,) = lib.autograd.grad((grad * grad).sum(), weights)
        return (list(out.shape), _chain(out), out.detach().numpy(),
                        grad.detach().numpy(), second.numpy())
    results = [plain(run(minigrad)), oracle(run)]
    mine, ref = results
    assert mine[:2] == ref[:2]
    for a, b in zip(mine[2:], ref[2:]):
        np.testing.assert_allclose(a, b, rtol=1e-12)


@pytest.mark.parametrize("expr", GETITEM_ERRORS)
def test_getitem_errors_match_torch(expr, oracle):
    def run(lib):
        namespace = {"lib": lib, "x": _leaf(lib)}
        with pytest.raises(Exception) as info, warnings.catch_warnings():
            warnings.simplefilter("ignore")
            eval(expr, namespace)
        return (info.type, str(info.value).replace("torch.", "minigrad."))
    errors = [plain(run(minigrad)), oracle(run)]
    assert errors[0] == errors[1]


# Index expressions whose result is 0-d, or that index a 0-d x: NumPy's ascontiguousarray
# would turn a 0-d result into shape [1].
ZERO_DIM_GETITEMS = [
    "x0[...]", "x0[None]", "x0[()]", "x0[..., None]", "x0[None, ...]", "x0[True]",
    "x0[lib.tensor(True)]", "x0[None, True]", "x0.index_select(0, lib.tensor([0]))",
    "x0.index_select(-1, lib.tensor(0))", "lib.index_select(x0, 0, lib.tensor([0]))",
    "x.index_select(2, lib.tensor(1))", "x[0, 1, [2]][0]",
]

ZERO_DIM_ERRORS = [
    "x0.index_select(0, lib.tensor([0, 0]))", "x0.index_select(0, lib.tensor([], dtype=lib.long))",
    "x0.index_select(0, lib.tensor([1]))", "x0.index_select(0, lib.tensor([-1]))",
    "x0.index_select(1, lib.tensor([0]))", "x0.index_select(0, lib.tensor([[0]]))",
    "x.index_select(2, lib.tensor([-1]))",
]


@pytest.mark.parametrize("expr", ZERO_DIM_GETITEMS)
def test_zero_dim_indexing_matches_torch(expr, oracle):
    def run(lib):
        x, x0 = _leaf(lib), lib.tensor(1.5, dtype=lib.float64, requires_grad=True)
        out = eval(expr, {"lib": lib, "x": x, "x0": x0})
        source = x0 if "x0" in expr else x
        weights = lib.tensor(_weights(out.shape), dtype=lib.float64, requires_grad=True)
        (grad,) = lib.autograd.grad(out, source, weights, create_graph=True)
        (second,) = lib.autograd.grad((grad * grad).sum(), weights)
        return (list(out.shape), _chain(out), list(grad.shape), list(second.shape),
                        out.tolist(), grad.tolist(), second.tolist())
    results = [plain(run(minigrad)), oracle(run)]
    assert results[0] == results[1]


@pytest.mark.parametrize("expr", ZERO_DIM_ERRORS)
def test_zero_dim_index_select_errors_match_torch(expr, oracle):
    def run(lib):
        namespace = {"lib": lib, "x": _leaf(lib), "x0": lib.tensor(1.5)}
        with pytest.raises(Exception) as info:
            eval(expr, namespace)
        return (info.type, str(info.value))
    errors = [plain(run(minigrad)), oracle(run)]
    assert errors[0] == errors[1]


def test_integer_array_index_with_a_zero_dim_result_stays_zero_dim():
    """No public index reaches ``Index`` with a 0-d result but ``index_select`` of a 0-d
    tensor; the gradient of a 0-d view's gradient (``IndexPutImplBackward0``'s backward) does."""
    from minigrad.ops.indexing import Index
    x = minigrad.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
    out = Index.apply(x, (np.array(0), np.array(2)))
    assert out.shape == () and out.item() == 3.0


def test_repeated_indices_accumulate():
    x = minigrad.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x[[0, 0, 2, 0]].sum().backward()
    assert x.grad.tolist() == [3.0, 0.0, 1.0]


def test_basic_indexing_is_a_view_of_the_same_memory():
    x = minigrad.zeros(2, 3)
    row = x[1]
    row.add_(5.0)
    assert x.tolist() == [[0.0, 0.0, 0.0], [5.0, 5.0, 5.0]]
    assert row._version == x._version == 1


def test_advanced_indexing_copies():
    x = minigrad.zeros(2, 3)
    picked = x[[1]]
    picked.add_(5.0)
    assert x.tolist() == [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]


# ---------------------------------------------------------------- x[index] = value
# (index expression, value: a number or a shape; does value require grad)
SETITEMS = [
    ("0", (3, 4), True), ("0", (4,), True), ("0", (1, 3, 4), True), ("0", (1, 1, 4), True),
    ("0", (), True), ("0", (1,), True), ("0", 5.0, False), ("(0, 1)", (4,), True),
    ("(slice(None), 1)", (2, 1), True), ("slice(1, None)", (4,), True),
    ("Ellipsis", (2, 3, 4), True), ("Ellipsis", (4,), True), ("Ellipsis", (), True),
    ("Ellipsis", 2.0, False), ("None", 2.0, False), ("slice(None)", (), True),
    ("(slice(None), slice(None))", 1.0, False),
    ("[0, 1]", (2, 3, 4), True), ("[0, 1]", (4,), True), ("[0, 1]", (), True),
    ("[0, 1]", (1, 2, 3, 4), True), ("[1, 0, 1]", (3, 3, 4), True), ("[0, 1]", 1.0, False),
    ("(0, [0, 1])", (4,), True), ("(0, [0, 0, 1], 2)", (3,), True), ("(0, [0, 1])", (), True),
    ("(slice(None), [2, 0])", (2, 2, 4), True), ("x.detach() > 0", 0.0, False),
    ("x.detach() > 0", (), True),
]


def _value(lib, spec, requires_grad):
    if isinstance(spec, float):
        return spec
    data = np.random.default_rng(2).standard_normal(spec)
    return lib.tensor(data, dtype=lib.float64, requires_grad=requires_grad)


@pytest.mark.parametrize("index, spec, value_grad", SETITEMS, ids=[
    f"{i}={s}" for i, s, _ in SETITEMS])
def test_setitem_matches_torch(index, spec, value_grad, oracle):
    def run(lib):
        x = _leaf(lib)
        value = _value(lib, spec, value_grad)
        y = x * 1
        before = y._version
        y[eval(index, {"x": x})] = value
        inputs = [x] + ([value] if value_grad else [])
        grads = lib.autograd.grad(y, inputs, lib.tensor(_weights(y.shape), dtype=lib.float64))
        edges = [None if fn is None else fn.name().replace("torch::", "minigrad::")
                 for fn, _ in y.grad_fn.next_functions]
        return (y.grad_fn.name().replace("torch::", "minigrad::"), edges,
                        y._version - before, y.detach().numpy(),
                        [g.numpy() for g in grads])
    results = [plain(run(minigrad)), oracle(run)]
    mine, ref = results
    assert mine[:3] == ref[:3]
    np.testing.assert_allclose(mine[3], ref[3], rtol=1e-12)
    for a, b in zip(mine[4], ref[4]):
        np.testing.assert_allclose(a, b, rtol=1e-12)


def test_setitem_node_is_copy_slices():
    y = minigrad.zeros(3)
    v = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y[1:] = v
    assert type(y.grad_fn).__name__ == "CopySlices"
    assert y.grad_fn.name() == "minigrad::autograd::CopySlices"
    assert repr(y) == "tensor([0., 1., 2.], grad_fn=<CopySlices>)"
    assert not y.is_leaf and y.requires_grad


def test_setitem_repeated_indices_last_write_wins_and_every_value_gets_grad():
    y = minigrad.zeros(3)
    v = minigrad.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y[[0, 0, 1]] = v
    assert y.tolist() in ([2.0, 3.0, 0.0],)
    y.sum().backward()
    assert v.grad.tolist() == [1.0, 1.0, 1.0]


def test_setitem_second_order(oracle):
    def run(lib):
        x = _leaf(lib)
        v = lib.tensor([1.0, 2.0, 3.0, 4.0], dtype=lib.float64, requires_grad=True)
        y = x * x
        y[0, 1] = v * v
        gx, gv = lib.autograd.grad((y * y).sum(), (x, v), create_graph=True)
        second = lib.autograd.grad((gx * gx).sum() + (gv * gv).sum(), (x, v))
        return ([g.numpy() for g in (gx.detach(), gv.detach()) + second])
    results = [plain(run(minigrad)), oracle(run)]
    for a, b in zip(*results):
        np.testing.assert_allclose(a, b, rtol=1e-12)


@pytest.mark.parametrize("index, message", [
    (0, "a view of a leaf Variable that requires grad is being used in an in-place operation."),
    (slice(1, None), "a view of a leaf Variable that requires grad is being used in an "
                     "in-place operation."),
    ([0, 1], "a leaf Variable that requires grad is being used in an in-place operation."),
    (Ellipsis, "a leaf Variable that requires grad is being used in an in-place operation."),
])
def test_setitem_on_a_leaf_that_requires_grad_raises(index, message, torch):
    for lib in (minigrad, torch):
        x = _leaf(lib)
        with pytest.raises(RuntimeError) as info:
            x[index] = 1.0
        assert str(info.value) == message
        assert x._version == 0


def test_setitem_on_a_leaf_under_no_grad_writes_and_bumps_the_version():
    x = minigrad.zeros(2, 3, requires_grad=True)
    with minigrad.no_grad():
        x[0, 1] = 7.0
    assert x._version == 1 and x.is_leaf and x.grad_fn is None
    assert x.detach().tolist() == [[0.0, 7.0, 0.0], [0.0, 0.0, 0.0]]


def test_setitem_without_grad_records_nothing():
    y = minigrad.zeros(3)
    y[0] = 1.0
    assert y.grad_fn is None and y.is_leaf and y._version == 1


def test_setitem_writes_through_views():
    base = minigrad.zeros(2, 3)
    row = base[1]
    row[[0, 2]] = 4.0
    assert base.tolist() == [[0.0, 0.0, 0.0], [4.0, 0.0, 4.0]]


def test_setitem_invalidates_saved_tensors(oracle):
    def run(lib):
        x = _leaf(lib)
        y = x * 1
        z = y * y
        y[0] = 0.0
        with pytest.raises(RuntimeError) as info:
            z.sum().backward()
        return (str(info.value))
    messages = [plain(run(minigrad)), oracle(run)]
    assert messages[0].startswith("one of the variables needed for gradient computation has "
                                  "been modified by an inplace operation: "
                                  "[minigrad.DoubleTensor [2, 3, 4]], which is output 0 of "
                                  "minigrad::autograd::CopySlices, is at version 1; expected "
                                  "version 0 instead.")
    assert messages[1].split(" Hint")[0].replace("torch", "minigrad") == messages[0].split(
        " Hint")[0]


@pytest.mark.parametrize("expr", [
    "lib.zeros(3, 3).__setitem__(0, lib.ones(2))",
    "lib.zeros(3, 3).__setitem__([0, 1], lib.ones(2))",
    "lib.zeros(3).__setitem__(5, 1.0)",
    "lib.zeros(3).__setitem__([0, 3], 1.0)",
])
def test_setitem_errors_match_torch(expr, oracle):
    def run(lib):
        with pytest.raises(Exception) as info:
            eval(expr, {"lib": lib})
        return (info.type, str(info.value))
    errors = [plain(run(minigrad)), oracle(run)]
    assert errors[0] == errors[1]


@pytest.mark.parametrize("make", [
    lambda x: x.view(6), lambda x: x.reshape(3, 2), lambda x: x.transpose(0, 1), lambda x: x.t(),
    lambda x: x.T, lambda x: x.permute(1, 0), lambda x: x.unsqueeze(0),
    lambda x: x[None].squeeze(0), lambda x: x[:1].expand(4, 3), lambda x: x.chunk(2)[1],
    lambda x: x.split([1, 1])[0], lambda x: x.unbind(1)[2], lambda x: x[...], lambda x: x[:, 1:],
    lambda x: minigrad.narrow(x, 1, 0, 2), lambda x: x.flatten(),
])
def test_views_share_memory_and_version_with_their_base(make):
    x = minigrad.zeros(2, 3)
    view = make(x)
    x.add_(1.0)
    assert view.tolist() == np.ones(tuple(view.shape)).tolist()
    assert view._version == x._version == 1


@pytest.mark.parametrize("make", [
    lambda x: x.t().reshape(6), lambda x: x[[0, 1]], lambda x: minigrad.cat([x, x]),
    lambda x: x.clone(), lambda x: minigrad.where(x > 0, x, 1.0), lambda x: x.repeat(1, 1),
])
def test_copies_do_not_share_memory(make):
    x = minigrad.zeros(2, 3)
    out = make(x)
    before = out.tolist()
    x.add_(1.0)
    assert out.tolist() == before
    assert out._version == 0


def _setitem(x, index, value):
    x[index] = value
    return x


FUZZ_CASES = {  # found by the differential fuzzer
    "narrow-start-past-empty": "T.zeros(0).narrow(0, 2, 5)",
    "narrow-negative-start-empty": "T.zeros(0).narrow(0, -1, 1)",
    "narrow-start-below-range": "T.zeros(3).narrow(0, -4, 1)",
    "narrow-length-too-long": "T.zeros(2, 3).narrow(0, 2, 5)",
    "index_select-empty-dim": "T.zeros(0, 3).index_select(0, T.tensor([1, 0]))",
    "index_select-empty-dim-empty-index": "T.zeros(0, 3).index_select(0, T.tensor([], "
                                          "dtype=T.long))",
    "getitem-index-into-empty": "T.zeros(0, 3)[T.tensor([0, 0])]",
    "getitem-index-into-empty-dim1": "T.zeros(3, 0)[:, T.tensor([0, 0])]",
    "getitem-index-out-of-bounds-dim1": "T.zeros(3, 2)[:, T.tensor([5])]",
    # x[index] = value checks as PyTorch: index_put_ (array indices) makes the in-place checks,
    # then the source's overlap, then the indices, the value's shape, its dtype and the bounds;
    # a copy into a view (basic indices) expands the value before the in-place checks
    "setitem-leaf-before-bounds": "S(T.zeros(0, requires_grad=True), T.tensor([0, 0]), 1)",
    "setitem-leaf-before-mask": "S(T.zeros(1, 3, requires_grad=True), "
                                "T.tensor([True, False, True]), 1)",
    "setitem-expand-before-leaf": "S(T.zeros(2, 1, requires_grad=True), 1, "
                                  "T.zeros(0, dtype=T.int32))",
    "setitem-expand-self-before-leaf": "(lambda x: S(x, -1, x))(T.zeros(2, 3, requires_grad=True))",
    "setitem-slice-expand-before-leaf": "S(T.zeros(0, 3, requires_grad=True), slice(0, 2), "
                                        "T.zeros(2, 1))",
    "setitem-int-bounds-before-leaf": "S(T.zeros(2, 3, requires_grad=True), 5, 1)",
    "setitem-ellipsis-expand-before-leaf": "S(T.zeros(2, 3, requires_grad=True), ..., T.zeros(2))",
    "setitem-value-shape-before-bounds": "S(T.zeros(3), T.tensor([5]), T.zeros(3))",
    "setitem-dtype-before-bounds": "S(T.zeros(3), T.tensor([5]), T.zeros(1, dtype=T.int64))",
    "setitem-value-shape-two-indices": "S(T.zeros(3, 3), (T.tensor([5]), T.tensor([1, 2])), "
                                       "T.zeros(3))",
    "setitem-overlap-before-mask": "(lambda x: S(x, T.tensor([True]), x))(T.zeros(3))",
    "setitem-value-broadcasts-to-region": "S(T.zeros(3), T.tensor([0, 1]), T.tensor([1.0]))",
    # a copy into a view from a value that must be expanded: its overlap is not judged
    "setitem-expanded-value-overlaps": "(lambda x: (S(x.mT, 0, x[::2]), x)[1])"
                                       "(T.tensor([[-1], [-2]]))",
    "setitem-expanded-element-overlaps": "(lambda x: (S(x, (slice(None), 0), x[0, 1]), x)[1])"
                                         "(T.tensor([[1, 2], [3, 4]]))",
    "setitem-same-size-overlaps": "(lambda x: (S(x, slice(1, None), x[:-1]), x)[1])"
                                  "(T.tensor([1, 2, 3, 4]))",
    "setitem-split-indices": "S(T.zeros(2, 3, 2), (T.tensor([[0]]), slice(None), "
                             "T.tensor([0, 1])), T.ones(2, 3))",
    "setitem-negative-index": "S(T.zeros(2, 3), (1, T.tensor([[-1, 0]])), T.tensor([1.0, 2.0]))",
    "getitem-list-of-lists-is-a-tuple": "T.arange(6).reshape(2, 3)[[[0, 1], [1, 0]]]",
    "getitem-list-with-list": "T.arange(6).reshape(2, 3)[[0, [1]]]",
    "getitem-list-with-none": "T.arange(6).reshape(2, 3)[[0, None]]",
    "getitem-list-with-slice": "T.arange(6).reshape(2, 3)[[0, slice(None)]]",
    "getitem-list-with-0d-tensor": "T.arange(6).reshape(2, 3)[[T.tensor(0), 1]]",
    "getitem-list-of-lists-too-many": "T.arange(6)[[[0, 1], [1, 0]]]",
    "getitem-list-of-one-list": "T.arange(6).reshape(2, 3)[[[0, 1]]]",
    "getitem-list-of-ints": "T.arange(6).reshape(2, 3)[[0, 1]]",
    "setitem-list-of-lists": "S(T.arange(6).reshape(2, 3), [[0, 1], [1, 0]], 7)",
    "index_select-empty-1d": "T.zeros(0).index_select(0, T.tensor([1, 0]))",
    "index_select-empty-other-dim": "T.zeros(2, 0).index_select(0, T.tensor([1, 0]))",
    "setitem-value-converted-first": "S(T.tensor(5, dtype=T.int32), [-1], float('inf'))",
    "setitem-value-converted-before-bounds": "S(T.zeros(0, 3, dtype=T.int64), (0, 0), "
                                             "float('inf'))",
    "setitem-empty-dim-before-dtype": "S(T.zeros(0, 3, dtype=T.int32), [[0, 1], [1, 0]], "
                                      "T.tensor(0))",
    "setitem-empty-dim-before-shape": "S(T.zeros(2, 0), (slice(None), [0, -1]), "
                                      "T.zeros(2, 0, dtype=T.int64))",
    "setitem-slice-past-empty-is-a-view": "S(T.zeros(0, 3, requires_grad=True), slice(1, None), 1)",
    "setitem-slice-past-empty-node": "S(T.zeros(0, 3), slice(1, None), T.tensor(0.5, "
                                     "requires_grad=True))",
    "setitem-slice-beyond-end-is-whole": "S(T.zeros(2, 3, requires_grad=True) * 1, slice(0, 5), "
                                         "1.0)",
    "setitem-negative-start-is-a-slice": "S(T.zeros(2, 3, requires_grad=True) * 1, "
                                         "slice(-2, None), 1.0)",
    "setitem-self-row": "S(T.ones(1, 3, dtype=T.float64), -1, T.ones(1, 3, dtype=T.float64))",
    "setitem-mask-of-itself-tensor-value": "(lambda x: S(x, x, T.zeros(2, 1, dtype=T.int64)))"
                                           "(T.zeros(0, dtype=T.bool))",
    "setitem-mask-of-itself-number": "(lambda x: S(x, x, False))(T.tensor([True, False]))",
    "sum-of-int-that-requires-grad": "S(T.zeros(2, 1, dtype=T.int64), 0, T.tensor(0.0, "
                                     "requires_grad=True)).sum()",
    "sum-dim-of-int-that-requires-grad": "S(T.zeros(2, 1, dtype=T.int32), 0, T.tensor(0.0, "
                                         "requires_grad=True)).sum(0)",
    "setitem-list-value": "S(T.zeros(2, 2), 0, [1, 2])",
    "setitem-tuple-value": "S(T.zeros(2, 2), T.tensor([True, False]), (T.ones(2),))",
    "setitem-none-value": "S(T.zeros(2, 2, dtype=T.bool), 0, None)",
}


@pytest.mark.parametrize("src", FUZZ_CASES.values(), ids=FUZZ_CASES.keys())
def test_fuzz_case_matches_torch(oracle, src):
    agree(oracle, src, names={"S": _setitem})


def case_gather(torch):
    x = torch.arange(6.0).view(2, 3).requires_grad_()
    y = torch.gather(x, 1, torch.tensor([[0, 0], [2, 1]]))
    y.sum().backward()
    ints = torch.tensor([[1, 2], [3, 4]])
    return y, x.grad, x.gather(0, torch.tensor([[1, 0, 1]])), \
        torch.gather(ints, -1, torch.tensor([[1, 1, 0]]))


def case_gather_errors(torch):
    x = torch.arange(6.0).view(2, 3)
    errors = []
    for index in (torch.tensor([[0.0, 0.0]]), torch.tensor([0, 0]), torch.tensor([[3, 0]])):
        try:
            torch.gather(x, 1, index)
        except RuntimeError as error:
            errors.append(str(error))
    return errors


@pytest.mark.parametrize("prog", programs(globals()), ids=lambda p: p.__name__[5:])
def test_parity(prog, oracle):
    check(prog, oracle)


MASKED_SELECT = {
    "same-shape": "T.masked_select(T.arange(6.0).reshape(2, 3), T.arange(6).reshape(2, 3) > 2)",
    "broadcast": "T.masked_select(T.tensor([1.0, 2.0]), T.tensor([[True, False], [True, True]]))",
    "0d": "T.masked_select(T.tensor(2.0), T.tensor(True))",
    "0d-none": "T.masked_select(T.tensor(2.0), T.tensor(False))",
    "method": "T.arange(4.0).masked_select(T.tensor([True, False, True, True]))",
    "not-bool": "T.arange(3.0).masked_select(T.tensor([1, 0, 1]))",
    "shapes-clash": "T.zeros(2, 3).masked_select(T.tensor([True, False]))",
    "grad-broadcast": "(lambda x: (T.masked_select(x, T.tensor([[True, False], [True, True]]))"
                      ".sum().backward(), x.grad)[1])(T.tensor([1.0, 2.0], requires_grad=True))",
}


@pytest.mark.parametrize("src", MASKED_SELECT.values(), ids=MASKED_SELECT.keys())
def test_masked_select_matches_torch(oracle, src):
    agree(oracle, src)
