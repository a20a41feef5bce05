"""Tensor.new, new_tensor, new_zeros, new_ones, new_empty, new_full against torch 2.13."""

import pytest
from parity_expr import agree

CASES = {
    "new-sizes": "T.tensor([1.0]).new(2, 3).shape",
    "new-dtype": "T.tensor([1], dtype=T.int32).new(2).dtype",
    "new-data": "T.tensor([1.0]).new([1, 2])",
    "new-empty": "T.tensor([1.0]).new()",
    "new-size-object": "T.tensor([1.0]).new(T.Size([2, 1])).shape",
    "new_tensor": "T.tensor([1.0]).new_tensor([1, 2])",
    "new_tensor-int32": "T.tensor([1], dtype=T.int32).new_tensor([1.5])",
    "new_tensor-dtype": "T.tensor([1.0]).new_tensor([1, 2], dtype=T.int64)",
    "new_tensor-requires_grad": "T.tensor([1.0]).new_tensor([1.0], requires_grad=True)",
    "new_tensor-from-graph": "T.tensor([1.0]).new_tensor(T.ones(2, requires_grad=True) * 2)",
    "new_zeros": "T.tensor([1.0], dtype=T.float64).new_zeros(2, 3)",
    "new_zeros-tuple": "T.tensor([1], dtype=T.int32).new_zeros((2,))",
    "new_ones": "T.tensor([1.0]).new_ones((2,), dtype=T.int64)",
    "new_empty": "T.tensor([1.0]).new_empty(1).dtype",
    "new_full": "T.tensor([1.0]).new_full((2,), 7)",
    "new_full-requires_grad": "T.tensor([1.0]).new_full((2,), 7.0, requires_grad=True)",
}


@pytest.mark.parametrize("src", CASES.values(), ids=CASES.keys())
def test_matches_torch(oracle, src):
    agree(oracle, src)
