"""``diff`` (minigrad.ops.diff) against torch 2.13: orders, dimensions, prepend and append,
dtypes (booleans differ by xor), empty results, its graph, and PyTorch's errors. Forward,
gradients and node names of the plain cases are in tests/cases_diff.py."""

import pytest
from parity_expr import agree

import minigrad

X = "T.tensor([1.0, 4.0, 9.0, 16.0, 25.0])"
M = "T.arange(12.0).reshape(3, 4) ** 2"

CASES = {
    "first": f"T.diff({X})",
    "second": f"T.diff({X}, n=2)",
    "method": f"{X}.diff(2)",
    "dim0": f"T.diff({M}, dim=0)",
    "dim-negative": f"T.diff({M}, 1, -2)",
    "order-zero-copies": f"T.diff({X}, n=0)",
    "order-zero-ignores-prepend": f"T.diff({X}, n=0, prepend=T.ones(2))",
    "order-zero-graph": f"T.diff({X}.requires_grad_(), n=0)",
    "order-past-length": f"T.diff({X}, n=7)",
    "order-past-length-graph": f"T.diff({X}.requires_grad_(), n=6)",
    "int": "T.diff(T.tensor([1, 3, 6, 10]))",
    "int32": "T.diff(T.tensor([1, 3, 6], dtype=T.int32))",
    "bool-is-xor": "T.diff(T.tensor([True, False, False, True]))",
    "bool-second": "T.diff(T.tensor([True, False, False, True]), n=2)",
    "prepend": f"T.diff({X}, prepend=T.tensor([0.0]))",
    "append": f"T.diff({X}, append=T.tensor([36.0, 49.0]))",
    "both": f"T.diff({M}, dim=1, prepend=T.zeros(3, 1), append=T.ones(3, 2))",
    "both-graph": f"T.diff({M}.requires_grad_(), dim=0, prepend=T.zeros(1, 4), "
                  "append=T.ones(1, 4))",
    "prepend-promotes": "T.diff(T.tensor([1, 3, 6]), prepend=T.tensor([0.5]))",
    "grad": f"(lambda x: T.diff(x, 2, prepend=T.ones(1)).pow(2).sum().backward() or x.grad)"
            f"({X}.requires_grad_())",
    "empty-dim": "T.diff(T.ones(2, 0), dim=1)",
    "length-one": "T.diff(T.ones(1))",
    # errors
    "scalar": "T.diff(T.tensor(1.0))",
    "negative-order": f"T.diff({X}, n=-1)",
    "float-order": f"T.diff({X}, 1.5)",
    "dim-range": f"T.diff({X}, dim=1)",
    "prepend-rank": f"T.diff({M}, prepend=T.ones(4))",
    "append-scalar": f"T.diff({X}, append=T.tensor(1.0))",
    "prepend-size": f"T.diff({M}, dim=1, prepend=T.ones(2, 1))",
    "append-size": f"T.diff({M}, dim=0, append=T.ones(1, 3))",
    "prepend-number": f"T.diff({X}, prepend=1.0)",
    "not-a-tensor": "T.diff([1.0, 2.0])",
}


@pytest.mark.parametrize("src", CASES.values(), ids=CASES.keys())
def test_matches_torch(oracle, src):
    agree(oracle, src)


def _nodes(t):
    out, stack = [], [t.grad_fn]
    while stack:
        node = stack.pop()
        if node is not None:
            out.append(type(node).__name__)
            stack.extend(child for child, _ in node.next_functions)
    return sorted(out)


@pytest.mark.parametrize("n, pad", [(1, False), (2, False), (2, True)])
def test_graph_is_torchs(oracle, n, pad):
    def run(lib):
        x = lib.arange(5.0, requires_grad=True)
        extra = {"prepend": lib.zeros(1), "append": lib.ones(2)} if pad else {}
        return _nodes(lib.diff(x, n, **extra))
    assert run(minigrad) == oracle(run)
