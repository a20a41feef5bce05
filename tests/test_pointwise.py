"""Elementwise ops (minigrad.ops.pointwise) at their edges, against torch 2.13: cases the
differential fuzzer found (clamp's bounds are cast to the result's integer dtype)."""

import pytest
from parity_expr import agree

CASES = {
    "clamp-uint8-negative-min": "T.tensor([1, 0, 5], dtype=T.uint8).clamp(-1)",
    "clamp-uint8-negative-max": "T.tensor([1, 0, 5], dtype=T.uint8).clamp(None, -1)",
    "clamp_-uint8-negative-min": "T.tensor([1, 0, 5], dtype=T.uint8).clamp_(-1, None)",
    "clamp-uint8-overflow": "T.tensor([1, 1], dtype=T.uint8).clamp(-1, 300)",
    "clamp-uint8-float-bound": "T.tensor([1, 1], dtype=T.uint8).clamp(0.5)",
    "clamp-int8-overflow": "T.tensor([1, 1], dtype=T.int8).clamp_(300)",
    "clamp-int64": "T.tensor([-3, 0, 7]).clamp(-1, 2)",
}


@pytest.mark.parametrize("src", CASES.values(), ids=CASES.keys())
def test_matches_torch(oracle, src):
    agree(oracle, src)
