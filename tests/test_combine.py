"""cat, stack and where (minigrad.ops.combine) at their edges, against torch 2.13: cases the
differential fuzzer found."""

import pytest
from parity_expr import agree

CASES = {
    "stack-dim-checked-before-shapes": "T.stack([T.zeros(3), T.zeros(2, 1)], 2)",
    "stack-negative-dim-checked-first": "T.stack([T.zeros(3), T.zeros(2, 1)], -3)",
    "stack-shapes": "T.stack([T.zeros(3), T.zeros(2, 1)], 1)",
    "where-return-types": "(lambda x: T.where(x > 0, x.max(0), x.max(0)))(T.tensor([1.0, 2.0]))",
    "where-tuple": "(lambda x: T.where(x > 0, x, (x, x)))(T.tensor([1.0, 2.0]))",
    "where-list-number": "(lambda x: T.where(x > 0, [1, 2], 1))(T.tensor([1.0, 2.0]))",
}


@pytest.mark.parametrize("src", CASES.values(), ids=CASES.keys())
def test_matches_torch(oracle, src):
    agree(oracle, src)
