"""Reductions (minigrad.ops.reduction) at their edges, against torch 2.13: cases the
differential fuzzer found."""

import pytest
from parity_expr import agree

CASES = {
    "amax-empty-dim-as-given": "T.zeros(0, 3).amax(-2)",
    "amin-empty-dim-as-given": "T.zeros(0, 3).amin(-2, True)",
    "amax-empty-dims-tuple": "T.zeros(0, 3).amax((1, -2))",
    "amax-empty-no-dim": "T.zeros(3, 0).amax()",
    "amax-empty-empty-list": "T.zeros(3, 0).amax([])",
    "max-empty-dim-normalised": "T.zeros(0, 3).max(-2)",
}


@pytest.mark.parametrize("src", CASES.values(), ids=CASES.keys())
def test_matches_torch(oracle, src):
    agree(oracle, src)
