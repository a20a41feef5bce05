"""softmax, log_softmax and logsumexp (minigrad.ops.activation) at their edges, against torch
2.13: an empty integer or bool tensor never reaches the kernel that would refuse it."""

import pytest
from parity_expr import agree

CASES = {
    "softmax-empty-uint8": "T.zeros(2, 0, dtype=T.uint8).softmax(0)",
    "softmax-empty-int64-lastdim": "T.zeros(0, dtype=T.int64).softmax(0)",
    "softmax-empty-bool": "T.zeros(2, 0, dtype=T.bool).softmax(0)",
    "softmax-empty-bad-dim": "T.zeros(2, 0, dtype=T.bool).softmax(5)",
    "log_softmax-empty-int64": "T.zeros(2, 0, dtype=T.int64).log_softmax(0)",
    "log_softmax-int64": "T.zeros(2, 1, dtype=T.int64).log_softmax(0)",
    "softmax-empty-float-grad": "T.zeros(0, requires_grad=True).softmax(0)",
    "log_softmax-empty-float-grad": "T.zeros(2, 0, requires_grad=True).log_softmax(1)",
    "logsumexp-empty-int64": "T.zeros(2, 0, dtype=T.int64).logsumexp(0)",
}


@pytest.mark.parametrize("src", CASES.values(), ids=CASES.keys())
def test_matches_torch(oracle, src):
    agree(oracle, src)
