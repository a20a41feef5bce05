"""``out=`` on the function forms (minigrad.ops.out) against torch 2.13."""

import pytest
from parity_expr import agree

CASES = {
    "add": "(lambda o: (T.add(T.ones(3), 1, out=o), o))(T.zeros(3))",
    "returns-out": "(lambda o: T.mul(T.ones(3), 2, out=o) is o)(T.zeros(3))",
    "casts-into-out": "T.mul(T.ones(3), 2, out=T.zeros(3, dtype=T.float64))",
    "resizes": "T.add(T.ones(3), 1, out=T.zeros(2))",
    "resizes-empty": "T.add(T.ones(3), 1, out=T.zeros(0))",
    "cannot-cast": "T.add(T.ones(3), 1, out=T.zeros(3, dtype=T.int64))",
    "input-requires-grad": "T.add(T.ones(2, requires_grad=True), 1, out=T.zeros(2))",
    "out-requires-grad": "T.add(T.ones(2), 1, out=T.zeros(2, requires_grad=True))",
    "list-input-requires-grad": "T.cat([T.ones(2, requires_grad=True)], out=T.zeros(2))",
    "under-no-grad": "T.no_grad()(lambda: T.exp(T.zeros(2, requires_grad=True), "
                     "out=T.zeros(2)))()",
    "sum-dim": "T.sum(T.ones(2, 2), 0, out=T.zeros(2))",
    "matmul": "T.matmul(T.ones(2, 3), T.ones(3), out=T.zeros(2))",
    "cat": "T.cat([T.ones(2), T.zeros(1)], out=T.zeros(3))",
    "bumps-version": "(lambda o: (T.add(T.ones(2), 1, out=o), o._version)[1])(T.zeros(2))",
}


@pytest.mark.parametrize("src", CASES.values(), ids=CASES.keys())
def test_matches_torch(oracle, src):
    agree(oracle, src)
