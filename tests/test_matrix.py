"""``outer``/``ger``, ``trace``, ``cross``/``linalg.cross``, ``kron`` (minigrad.ops.matrix),
``roll`` (minigrad.ops.roll) and ``meshgrid`` (minigrad.ops.grids) against torch 2.13: dtypes,
shapes, trace's gradient graph, cross's default dim and warning, kron's graph, meshgrid's
indexing and warning, and PyTorch's errors. Forward, gradients and node names of the
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
    "cross": "T.cross(T.tensor([[1.0, 0, 0], [0, 1, 0]]), T.tensor([[0.0, 1, 0], [0, 0, 1]]), 1)",
    "cross-default-dim": "T.cross(T.arange(6.0).reshape(3, 2), T.ones(3, 2))",
    "cross-default-first-of-input": "T.cross(T.ones(1, 3), T.arange(9.0).reshape(3, 3))",
    "cross-default-after-broadcast": "T.cross(T.ones(3, 1), T.arange(9.0).reshape(3, 3))",
    "cross-saved-default-dim": "T.cross(T.ones(3, 4, 3, requires_grad=True), "
                               "T.ones(3, 4, 3)).grad_fn._saved_dim",
    "cross-method": "T.tensor([1, 2, 3]).cross(T.tensor([4, 5, 6]))",
    "cross-no-size-3": "T.cross(T.ones(2, 4), T.ones(2, 4))",
    "cross-default-wrong-other": "T.cross(T.ones(3, 3), T.ones(1, 3))",
    "cross-ranks": "T.cross(T.ones(3, 4), T.ones(3))",
    "cross-explicit-none": "T.cross(T.ones(3), T.ones(3), dim=None)",
    "cross-number": "T.cross(T.ones(3), 2)",
    "linalg-cross": "T.linalg.cross(T.tensor([1.0, 2, 3]), T.tensor([4.0, 5, 6]))",
    "linalg-cross-int": "T.linalg.cross(T.tensor([1, 2, 3]), T.tensor([4, 5, 6]))",
    "linalg-cross-half": "T.linalg.cross(T.ones(3).half(), T.arange(3.0).half())",
    "linalg-cross-broadcast": "T.linalg.cross(T.ones(1, 3), T.arange(12.0).reshape(4, 3))",
    "linalg-cross-dim": "T.linalg.cross(T.arange(6.0).reshape(3, 2), T.ones(3, 2), dim=0)",
    "linalg-cross-grad": "(lambda a, b: T.linalg.cross(a, b).pow(2).sum().backward() or "
                         "(a.grad, b.grad))(T.arange(6.0).reshape(2, 3).requires_grad_(), "
                         "T.tensor([[1.0, -1.0, 2.0]], requires_grad=True))",
    "linalg-cross-grad-graph": "(lambda a: T.autograd.grad(T.linalg.cross(a, T.ones(3)).sum(), "
                               "a, create_graph=True)[0])(T.ones(3, requires_grad=True))",
    "linalg-cross-broadcast-grad-graph": "(lambda b: T.autograd.grad(T.linalg.cross(T.ones(2, 3)"
                                         ", b).sum(), b, create_graph=True)[0])(T.ones(1, 3, "
                                         "requires_grad=True))",
    "linalg-cross-length": "T.linalg.cross(T.ones(3, 2), T.ones(3, 2))",
    "linalg-cross-ranks": "T.linalg.cross(T.ones(3), T.ones(2, 3))",
    "linalg-cross-broadcast-error": "T.linalg.cross(T.ones(2, 3), T.ones(4, 3))",
    "linalg-cross-dtypes": "T.linalg.cross(T.ones(3), T.ones(3).double())",
    "linalg-cross-float-long": "T.linalg.cross(T.ones(3), T.ones(3, dtype=T.long))",
    "linalg-cross-bool": "T.linalg.cross(T.ones(3, dtype=T.bool), T.ones(3, dtype=T.bool))",
    "linalg-cross-dim-range": "T.linalg.cross(T.ones(3), T.ones(3), dim=1)",
    "linalg-cross-positional-dim": "T.linalg.cross(T.ones(3), T.ones(3), -1)",
    "linalg-cross-number": "T.linalg.cross(T.ones(3), 3)",
    "kron": "T.kron(T.tensor([1, 2]), T.tensor([[1, 10], [100, 1000]]))",
    "kron-matrices": "T.kron(T.arange(4.0).reshape(2, 2), T.eye(2))",
    "kron-promotes": "T.kron(T.tensor([1, 2]), T.tensor([1.5]))",
    "kron-0d": "T.kron(T.tensor(2.0), T.tensor([1.0, 2.0]))",
    "kron-both-0d": "T.kron(T.tensor(2.0), T.tensor(3.0))",
    "kron-bool": "T.kron(T.tensor([True, False]), T.tensor([True, True]))",
    "kron-empty": "T.kron(T.ones(2, 0), T.ones(2, 2))",
    "kron-method": "T.ones(2).kron(T.arange(3.0))",
    "kron-grad": "(lambda a, b: T.kron(a, b).pow(2).sum().backward() or (a.grad, b.grad))("
                 "T.arange(6.0).reshape(2, 3).requires_grad_(), T.tensor([1.0, -2.0], "
                 "requires_grad=True))",
    "kron-number": "T.kron(T.ones(2, 3), 2)",
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


def _cross_warnings(lib, calls=1):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(calls):
            lib.cross(lib.ones(2, 3), lib.ones(2, 3))
        lib.cross(lib.ones(2, 3), lib.ones(2, 3), dim=1)
    return [str(w.message).replace("minigrad.", "torch.").split(" (Triggered")[0]
            for w in caught]


def test_cross_without_dim_warns_as_torch_does(oracle):
    def run(lib):
        lib.set_warn_always(True)  # (torch's warning is once per process: its first may be gone)
        try:
            return _cross_warnings(lib)
        finally:
            lib.set_warn_always(False)
    expected = oracle(run)
    assert len(expected) == 1
    assert run(minigrad) == expected


def test_cross_without_dim_warns_once_per_process(monkeypatch):
    monkeypatch.setitem(minigrad.ops.matrix._warned, "cross_dim", False)
    assert len(_cross_warnings(minigrad, calls=3)) == 1
    assert _cross_warnings(minigrad) == []


def _nodes(t):
    out, stack = [], [t.grad_fn]
    while stack:
        node = stack.pop()
        if node is not None:
            out.append(type(node).__name__)
            stack.extend(child for child, _ in node.next_functions)
    return sorted(out)


def test_kron_graph_is_torchs(oracle):
    def run(lib):
        return _nodes(lib.kron(lib.ones(2, 3, requires_grad=True),
                               lib.ones(2, requires_grad=True)))
    assert run(minigrad) == oracle(run)
