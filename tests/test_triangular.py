"""``tril`` and ``triu`` (minigrad.ops.triangular) against torch 2.13: values and dtypes,
offsets past the matrix, batches, the in-place forms and their gradients, and PyTorch's
errors. Forward, gradients and node names of the plain cases are in tests/cases_shape.py."""

import pytest
from parity_expr import agree

CASES = {
    "causal-mask": "T.tril(T.ones(4, 4)) == 0",
    "bool": "T.ones(3, 3, dtype=T.bool).triu(1)",
    "int": "T.arange(12).reshape(3, 4).tril(-1)",
    "past-the-matrix": "T.arange(6.0).reshape(2, 3).tril(5)",
    "before-the-matrix": "T.arange(6.0).reshape(2, 3).triu(-5)",
    "empty": "T.zeros(0, 3).tril()",
    "batched": "T.arange(18.0).reshape(2, 3, 3).triu()",
    "masked-fill-attention": "T.zeros(3, 3).masked_fill(T.tril(T.ones(3, 3)) == 0, "
                             "float('-inf')).softmax(-1)",
    "grad": "(lambda x: ((x.tril(1) * T.arange(9.0).reshape(3, 3)).sum().backward(), x.grad)[1])"
            "(T.ones(3, 3, requires_grad=True))",
    "in-place": "(T.ones(3, 3, requires_grad=True) * 2).triu_(1)",
    "in-place-grad": "(lambda x: ((x * 1).tril_().sum().backward(), x.grad)[1])"
                     "(T.ones(2, 2, requires_grad=True))",
    "in-place-leaf": "T.ones(2, 2, requires_grad=True).tril_()",
    "one-dimension": "T.ones(3).tril()",
    "zero-dimensions": "T.triu(T.tensor(1.0))",
    "float-diagonal-method": "T.ones(2, 2).tril(1.5)",
    "float-diagonal-function": "T.triu(T.ones(2, 2), 1.5)",
    "bool-diagonal": "T.ones(2, 2).tril(True)",
    "saved-diagonal": "T.ones(2, 2, requires_grad=True).tril(1).grad_fn._saved_diagonal",
}


@pytest.mark.parametrize("src", CASES.values(), ids=CASES.keys())
def test_matches_torch(oracle, src):
    agree(oracle, src)
