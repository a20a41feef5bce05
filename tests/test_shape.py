"""Shape ops (minigrad.ops.shape) at their edges, against torch 2.13: cases the differential
fuzzer found (0-d transpose, negative sizes in expand, unbind's dim check), and ``flip``."""

import pytest
from parity_expr import agree

CASES = {
    "transpose-0d": "T.tensor(5.0, requires_grad=True).transpose(0, -1)",
    "transpose-0d-out-of-range": "T.tensor(5.0).transpose(0, 1)",
    "transpose-0d-grad": "(lambda x: (x.transpose(0, -1).backward(), x.grad)[1])"
                         "(T.tensor(2.0, requires_grad=True))",
    "expand-0d-minus-one": "T.tensor(1.0).expand(3, -1)",
    "expand-0d-minus-one-alone": "T.tensor(1.0).expand(-1)",
    "expand-0d-zero-first": "T.tensor(1.0).expand(0, -1)",
    "expand-leading-minus-one": "T.tensor([1.0]).expand(2, -1, 1)",
    "expand-leading-minus-two": "T.zeros(1, 2).expand(-2, 3, 2)",
    "expand-last-dim-checked-first": "T.zeros(1, 2).expand(-1, 3, 5)",
    "expand-negative-on-size-one": "T.tensor([1.0]).expand(3, -2)",
    "expand-zero-then-negative": "T.zeros(1).expand(0, -2)",
    "expand-keeps-size": "T.zeros(1, 2).expand(2, -1, -1)",
    "unbind-0d-out-of-range": "T.tensor(1).unbind(1)",
    "unbind-0d": "T.tensor(1).unbind(0)",
    "flip-two-dims": "T.flip(T.arange(6.0).reshape(2, 3), (0, -1))",
    "flip-int-dim": "T.flip(T.arange(6).reshape(2, 3), 1)",
    "flip-no-dims": "T.flip(T.arange(6.0).reshape(2, 3), [])",
    "flip-duplicate-dims": "T.flip(T.arange(6.0).reshape(2, 3), (1, -2, 1))",
    "flip-0d": "T.flip(T.tensor(2.0), (0,))",
    "flip-method-int": "T.arange(6).reshape(2, 3).flip(1)",
    "flip-method-dims": "T.arange(6).reshape(2, 3).flip(0, 1)",
    "flip-method-tuple": "T.arange(6).reshape(2, 3).flip((0, -1))",
    "flip-grad": "(lambda x: (T.flip(x, (0,)) * T.arange(3.0)).sum().backward() or x.grad)"
                 "(T.ones(3, requires_grad=True))",
}


@pytest.mark.parametrize("src", CASES.values(), ids=CASES.keys())
def test_matches_torch(oracle, src):
    agree(oracle, src)


UNFLATTEN = [  # PyTorch's size inference, its errors passed on as "unexpected" ones
    "T.zeros(2, 0).unflatten(-1, (0, -1))", "T.zeros(2, 0).unflatten(-1, (-1, 0))",
    "T.zeros(2, 0).unflatten(-1, (-1, -1))", "T.zeros(2, 0).unflatten(-1, (0, 0))",
    "T.zeros(2, 0).unflatten(-1, (-1, 5))", "T.zeros(2, 0).unflatten(-1, (5, -1))",
    "T.zeros(2, 0).unflatten(-1, ())", "T.zeros(2, 3).unflatten(-1, (-1, -1))",
    "T.zeros(2, 3).unflatten(-1, (2, -1))", "T.zeros(2, 3).unflatten(-1, (-2, -1))",
    "T.zeros(2, 3).unflatten(-1, (0, -1))", "T.zeros(0).unflatten(0, (2, -1, 3))",
    "T.zeros(6).unflatten(0, (2, -1))",
    "T.tensor(0.0).unflatten(0, (1, -1))", "T.tensor(0.0).unflatten(-1, (1,))",
    # a 0-d tensor's flatten checks its dims as those of one dimension
    "T.tensor(5).flatten(start_dim=1)", "T.tensor(5).flatten(0, -1)", "T.tensor(5).flatten(-1, 0)",
    "T.tensor([5]).flatten(start_dim=1)",
]


MOVEDIM_AND_DETACH = [  # found by the differential fuzzer
    "T.tensor(1).movedim(0, -1)", "T.movedim(T.tensor(1.0, requires_grad=True), (0,), (0,))",
    "T.tensor(1.0).moveaxis(0, -1)", "T.tensor(1.0).movedim(1, 0)",
    "T.zeros(3)[1:].detach_()", "T.zeros(2, 0, dtype=T.uint8)[None].detach_()",
    "(T.zeros(3, requires_grad=True) * 1)[1:].detach_()", "(T.zeros(3) * 1).detach_()",
]


@pytest.mark.parametrize("src", MOVEDIM_AND_DETACH)
def test_movedim_of_a_number_and_detach_of_a_view_match_torch(oracle, src):
    agree(oracle, src)


@pytest.mark.parametrize("src", UNFLATTEN)
def test_unflatten_matches_torch(oracle, src):
    agree(oracle, src)
