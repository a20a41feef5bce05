"""``sort``, ``argsort`` and ``topk`` (minigrad.ops.sorting) against torch 2.13: int64 indices,
ties kept in order (stable), NaN as the largest value, descending, the named tuples, dtypes,
0-d and empty tensors, the nodes' saved values and PyTorch's errors. Forward, gradients and
node names of the plain cases are in tests/cases_sorting.py."""

import pytest
from parity_expr import agree

import minigrad

CASES = {
    "ties-stay-in-order": "T.tensor([2, 1, 2, 1, 2]).sort()",
    "ties-descending": "T.tensor([2, 1, 2, 1, 2]).sort(descending=True)",
    "ties-stable-descending": "T.sort(T.tensor([1.0, 3.0, 1.0, 3.0]), stable=True, "
                              "descending=True)",
    "nan-is-largest": "T.tensor([1.0, float('nan'), -1.0, float('inf')]).sort()",
    "nan-first-descending": "T.tensor([1.0, float('nan'), -1.0]).sort(descending=True)",
    "signed-zeros": "T.tensor([0.0, -0.0, 0.0]).sort().indices",
    "dim-0": "T.tensor([[3, 1], [1, 2], [2, 0]]).sort(0)",
    "keyword-dim": "T.sort(T.tensor([[3.0, 1.0], [0.0, 2.0]]), dim=0, descending=True)",
    "int32": "T.tensor([3, 1, 2], dtype=T.int32).sort()",
    "bool": "T.tensor([True, False, True]).sort()",
    "0d": "T.tensor(5.0).sort()",
    "empty": "T.zeros(0, 3).sort(0)",
    "fields": "(lambda r: (r.values, r.indices, r[0], len(r)))(T.tensor([2.0, 1.0]).sort())",
    "type-name": "type(T.tensor([2.0]).sort()).__qualname__",
    "repr": "repr(T.tensor([2, 1]).sort()).replace('torch.', '').replace('minigrad.', '')",
    "requires-grad": "(lambda r: (r.values, r.indices.requires_grad))"
                     "(T.tensor([2.0, 1.0], requires_grad=True).sort())",
    "saved": "(lambda f: (f._saved_dim, f._saved_indices, f._saved_self_sym_sizes))"
             "(T.tensor([[2.0, 1.0]], requires_grad=True).sort(0).values.grad_fn)",
    "stable-node": "T.ones(2, requires_grad=True).sort(stable=False).values",
    "grad": "(lambda x: (x.sort(descending=True).values * T.tensor([1.0, 2.0, 3.0])).sum()"
            ".backward() or x.grad)(T.tensor([2.0, 3.0, 1.0], requires_grad=True))",
    "argsort": "T.tensor([[3, 1, 2], [0, 5, 4]]).argsort(1, True)",
    "argsort-ties": "T.argsort(T.tensor([1, 0, 1, 0]), stable=True)",
    "argsort-0d": "T.tensor(1.0).argsort()",
    "topk": "T.tensor([1.0, 4.0, 2.0, 3.0]).topk(2)",
    "topk-smallest": "T.topk(T.tensor([[1, 4], [2, 3], [0, 5]]), 2, 0, largest=False)",
    "topk-k0": "T.tensor([1.0, 2.0]).topk(0)",
    "topk-nan": "T.tensor([1.0, float('nan'), 3.0]).topk(2)",
    "topk-int": "T.tensor([1, 4, 2]).topk(1)",
    "topk-0d": "T.tensor(2.0).topk(1)",
    "topk-grad": "(lambda x: x.topk(2).values.sum().backward() or x.grad)"
                 "(T.tensor([1.0, 4.0, 2.0, 3.0], requires_grad=True))",
    "topk-saved": "(lambda f: (f._saved_dim, f._saved_indices, f._saved_self_sym_sizes))"
                  "(T.tensor([1.0, 4.0, 2.0], requires_grad=True).topk(2, 0).values.grad_fn)",
    "topk-type-name": "type(T.tensor([2.0]).topk(1)).__qualname__",
    # errors
    "sort-dim-range": "T.ones(2, 3).sort(2)",
    "sort-0d-dim-range": "T.tensor(1.0).sort(1)",
    "sort-float-dim-method": "T.ones(2).sort(1.5)",
    "sort-float-dim": "T.sort(T.ones(2), 1.5)",
    "sort-list": "T.sort([2, 1])",
    "argsort-float-dim": "T.argsort(T.ones(2), 0.5)",
    "argsort-float-dim-method": "T.ones(2).argsort(0.5)",
    "topk-k-too-large": "T.ones(2, 3).topk(4)",
    "topk-k-negative": "T.ones(3).topk(-1)",
    "topk-0d-k2": "T.tensor(1.0).topk(2)",
    "topk-float-k-method": "T.ones(3).topk(1.5)",
    "topk-float-k": "T.topk(T.ones(3), 1.5)",
    "topk-dim-range": "T.topk(T.ones(2, 3), 2, 5)",
    "topk-float-dim": "T.topk(T.ones(2, 3), 2, 1.0)",
    "topk-bool": "T.tensor([True, False]).topk(1)",
    "topk-empty-k1": "T.zeros(0, 3).topk(1, 0)",
}


@pytest.mark.parametrize("src", CASES.values(), ids=CASES.keys())
def test_matches_torch(oracle, src):
    agree(oracle, src)


def test_indices_are_int64_and_not_differentiable():
    x = minigrad.tensor([[0.5, -1.0, 2.0]], requires_grad=True)
    for result in (x.sort(1), x.topk(2), minigrad.sort(x, stable=True)):
        assert result.indices.dtype == minigrad.int64
        assert not result.indices.requires_grad
        assert result.values.requires_grad
    assert x.argsort().dtype == minigrad.int64


def test_a_long_row_of_ties_keeps_its_order():
    x = minigrad.tensor([1, 0] * 50)
    indices = x.sort(descending=True).indices.tolist()
    assert indices == list(range(0, 100, 2)) + list(range(1, 100, 2))
    assert x.argsort().tolist() == list(range(1, 100, 2)) + list(range(0, 100, 2))


def test_gradient_of_gradient_goes_through_scatter():
    x = minigrad.tensor([3.0, 1.0, 2.0], requires_grad=True)
    v = minigrad.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (g,) = minigrad.autograd.grad(x.sort().values, x, v, create_graph=True)
    assert g.tolist() == [3.0, 1.0, 2.0] and g.grad_fn.name() == "ScatterBackward0"
    (gv,) = minigrad.autograd.grad((g * minigrad.tensor([1.0, 10.0, 100.0])).sum(), v)
    assert gv.tolist() == [10.0, 100.0, 1.0]
