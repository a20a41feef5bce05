"""``outer``/``ger``, ``trace`` (minigrad.ops.matrix), ``roll`` (minigrad.ops.roll) and
``meshgrid`` (minigrad.ops.grids) against torch 2.13: dtypes, shapes, trace's gradient graph,
meshgrid's indexing and warning, and PyTorch's errors. Forward, gradients and node names of the
plain cases are in tests/cases_matrix.py."""

import warnings

import pytest
from parity_expr import agree

import minigrad

CASES = {
    "outer-int": "T.outer(T.tensor([1, 2]), T.tensor([3, 4, 5]))",
    "outer-promotes": "T.outer(T.ones(2), T.ones(3, dtype=T.float64))",
    "outer-2d": "T.outer(T.ones(2, 2), T.ones(2))",
    "outer-0d": "T.outer(T.ones(2), T.tensor(1.0))",
    "ger-method": "T.tensor([1.0, 2.0]).ger(T.tensor([3.0]))",
    "trace-int32": "T.trace(T.ones(3, 3, dtype=T.int32))",
    "trace-wide": "T.arange(8.0).reshape(2, 4).trace()",
    "trace-empty": "T.zeros(0, 3).trace()",
    "trace-vector": "T.trace(T.ones(3))",
    "trace-bool": "T.trace(T.ones(2, 2, dtype=T.bool))",
    "trace-grad-graph": "(lambda x: T.autograd.grad(x.trace(), x, T.tensor(2.0, "
                        "requires_grad=True), create_graph=True)[0])(T.ones(2, 3, "
                        "requires_grad=True))",
    "trace-grad-graph-next": "(lambda x: T.autograd.grad(x.trace(), x, T.tensor(2.0, "
                             "requires_grad=True), create_graph=True)[0].grad_fn"
                             ".next_functions[0][0].name())(T.ones(2, 3, requires_grad=True))",
    "trace-saved": "T.ones(2, 3, requires_grad=True).trace().grad_fn._saved_self_sym_sizes",
    "roll-flat": "T.arange(6).reshape(2, 3).roll(1)",
    "roll-dims": "T.roll(T.arange(6).reshape(2, 3), (1, -1), (0, 1))",
    "roll-list-dims": "T.roll(T.arange(6).reshape(2, 3), [4], [1])",
    "roll-0d": "T.roll(T.tensor(3.0), 1)",
    "roll-empty": "T.roll(T.zeros(0), 1)",
    "roll-saved": "(lambda f: (f._saved_shifts, f._saved_dims))(T.roll(T.ones(2, 3, "
                  "requires_grad=True), (1, 2), (0, 1)).grad_fn)",
    "roll-grad": "(lambda x: (T.roll(x, 1, 0) * T.arange(6.0).reshape(3, 2)).sum().backward() "
                 "or x.grad)(T.ones(3, 2, requires_grad=True))",
    "roll-misaligned": "T.roll(T.ones(2, 3), (1, 2), 0)",
    "roll-misaligned-dims": "T.roll(T.ones(2, 3), [1], [0, 1])",
    "roll-dim-range": "T.roll(T.ones(2, 3), 1, 5)",
    "roll-float": "T.roll(T.ones(2), 1.5)",
    "meshgrid-ij": "T.meshgrid(T.tensor([1, 2]), T.tensor([3, 4, 5]), indexing='ij')",
    "meshgrid-xy": "T.meshgrid(T.tensor([1, 2]), T.tensor([3, 4, 5]), T.tensor([6]), "
                   "indexing='xy')",
    "meshgrid-list": "T.meshgrid([T.tensor([1.0]), T.tensor([2.0, 3.0])], indexing='ij')",
    "meshgrid-one": "T.meshgrid(T.tensor([1.0, 2.0]), indexing='xy')",
    "meshgrid-0d": "T.meshgrid(T.tensor(1.0), T.tensor([2.0, 3.0]), indexing='ij')",
    "meshgrid-grad": "(lambda a: T.meshgrid(a, T.ones(3), indexing='xy')[0].sum().backward() "
                     "or a.grad)(T.ones(2, requires_grad=True))",
    "meshgrid-empty": "T.meshgrid(indexing='ij')",
    "meshgrid-dtypes": "T.meshgrid(T.ones(2), T.ones(2, dtype=T.float64), indexing='ij')",
    "meshgrid-indexing": "T.meshgrid(T.ones(2), T.ones(2), indexing='x')",
}


@pytest.mark.parametrize("src", CASES.values(), ids=CASES.keys())
def test_matches_torch(oracle, src):
    agree(oracle, src)


def test_meshgrid_warns_without_indexing_and_then_indexes_ij(oracle):
    def run(lib):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            grids = lib.meshgrid(lib.tensor([1, 2]), lib.tensor([3, 4, 5]))
        messages = [str(w.message).replace("minigrad.", "torch.") for w in caught]
        return [g.tolist() for g in grids], [m.split(" (Triggered")[0] for m in messages]
    expected = oracle(run)
    assert [list(g) for g in run(minigrad)[0]] == expected[0]
    assert run(minigrad)[1] == expected[1]


def test_meshgrid_refuses_a_matrix():
    # NB: PyTorch's message goes on with the tensor as its C++ printer writes it
    with pytest.raises(RuntimeError, match="meshgrid: Expected 0D or 1D tensor in the tensor "
                                           "list but got: "):
        minigrad.meshgrid(minigrad.ones(2, 2), minigrad.ones(2), indexing="ij")
