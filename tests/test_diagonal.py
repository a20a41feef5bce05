"""diagonal (minigrad.ops.diagonal) against torch 2.13: values, views, gradients."""

import pytest
from parity_expr import agree

X = "T.tensor([[1.0, 3.0, 2.0], [4.0, 0.0, 5.0]], requires_grad=True)"
CASES = {
    "main": f"{X}.diagonal()",
    "offset": f"{X}.diagonal(1)",
    "negative-offset": f"{X}.diagonal(-1)",
    "past-the-end": f"{X}.diagonal(5)",
    "swapped-dims": f"{X}.diagonal(0, 1, 0)",
    "3d": "T.arange(24.0).reshape(2, 3, 4).diagonal(0, 0, 2)",
    "3d-negative-dims": "T.arange(24.0).reshape(2, 3, 4).diagonal(1, -1, -2)",
    "function": "T.diagonal(T.ones(2, 2), 0)",
    "same-dims": "T.ones(2, 2).diagonal(0, 1, 1)",
    "1d": "T.ones(2).diagonal()",
    "is-a-view": "(lambda x: x.diagonal()._base is x)(T.ones(2, 2))",
    "writes-through": "(lambda x: (x.diagonal().fill_(7.0), x)[1])(T.zeros(2, 3))",
    "grad": f"(lambda x: (x.diagonal(1).sum().backward(), x.grad)[1])({X})",
    "double-backward": "(lambda x: T.autograd.grad((T.autograd.grad((x.diagonal() ** 2).sum(), "
                       "x, create_graph=True)[0] ** 2).sum(), x))"
                       "(T.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True))",
}


@pytest.mark.parametrize("src", CASES.values(), ids=CASES.keys())
def test_matches_torch(oracle, src):
    agree(oracle, src)
