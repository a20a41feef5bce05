"""as_strided_, resize_ and set_ (minigrad.ops.storage) against torch 2.13."""

import pytest
from parity_expr import agree

CASES = {
    "as_strided_": "T.arange(6.0).as_strided_((2, 2), (1, 2), 1)",
    "as_strided_-shape": "(lambda a: (a.as_strided_((2, 2), (1, 2), 1), a.shape, a.stride())[1:])"
                         "(T.arange(6.0))",
    "as_strided_-out-of-bounds": "T.ones(2).as_strided_((2,), (1,), 5)",
    "as_strided_-mismatch": "T.ones(2).as_strided_((2,), (1, 2))",
    "as_strided_-leaf": "T.ones(2, requires_grad=True).as_strided_((1,), (1,))",
    "as_strided_-grad": "(lambda x: (lambda y: (y.as_strided_((2,), (2,), 1).sum().backward(), "
                        "x.grad, type(y.grad_fn).__name__)[1:])(x * 1))"
                        "(T.ones(4, requires_grad=True))",
    "resize_-smaller": "T.tensor([1.0, 2.0, 3.0, 4.0]).resize_(2, 1)",
    "resize_-same": "T.tensor([1, 2, 3, 4]).resize_((2, 2))",
    "resize_-larger-keeps-prefix": "T.tensor([1.0, 2.0]).resize_(3)[:2]",
    "resize_-larger-shape": "T.tensor([1.0, 2.0]).resize_(2, 3).shape",
    "resize_-requires-grad": "T.ones(2, requires_grad=True).resize_(2)",
    "resize_-nonleaf": "(T.ones(2, requires_grad=True) * 1).resize_(2)",
    "resize_as_": "T.ones(4).resize_as_(T.ones(2, 2)).shape",
    "set_": "T.zeros(2).set_(T.tensor([1.0, 2.0, 3.0]))",
    "set_-shares": "(lambda a, b: (b.set_(a), b.__setitem__(0, 9.0), a)[2])"
                   "(T.tensor([1.0, 2.0]), T.zeros(1))",
    "set_-empty": "T.zeros(3).set_().shape",
    "set_-dtype": "T.tensor([1.0, 2.0]).set_(T.tensor([1, 2]))",
    "set_-leaf": "T.ones(2, requires_grad=True).set_(T.zeros(2))",
}


@pytest.mark.parametrize("src", CASES.values(), ids=CASES.keys())
def test_matches_torch(oracle, src):
    agree(oracle, src)
