"""Elementwise ops (minigrad.ops.pointwise) against torch 2.13 where the op registry does not
reach: cases the differential fuzzer found (clamp's bounds are cast to the result's integer
dtype) and clamp with tensor bounds (ClampBackward0, with gradients for the bounds)."""

import pytest
from parity_expr import agree
from parity_programs import check, programs

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


HYPERBOLIC = {  # sinh, cosh and clip; PyTorch's float32 sinh and cosh are SLEEF's, not the
    # C library's, and differ from NumPy's in the last bit: compared to a relative 1e-6
    "sinh-int": "T.sinh(T.tensor([0, 1, -2]))", "cosh-bool": "T.cosh(T.tensor([True, False]))",
    "sinh-large": "T.tensor([100.0, -100.0]).sinh()", "cosh-inf": "T.tensor(float('inf')).cosh()",
    "cosh-in-place": "(lambda x: (x.cosh_(), x)[1])(T.tensor([0.5, -1.0]))",
    "sinh-in-place-int": "T.tensor([1, 2]).sinh_()",
    "clip-method": "T.tensor([-2.0, 0.5, 3.0]).clip(-1, 1)",
    "clip-in-place": "(lambda x: (x.clip_(max=0.0), x)[1])(T.tensor([-2.0, 0.5]))",
}


@pytest.mark.parametrize("src", HYPERBOLIC.values(), ids=HYPERBOLIC.keys())
def test_hyperbolic_and_clip_match_torch(oracle, src):
    agree(oracle, src, rtol=1e-6)



def case_clamp_with_tensor_bounds(torch):
    x = torch.tensor([-2.0, 0.5, 3.0, 1.0], requires_grad=True)
    lo = torch.tensor([0.0, 0.0, 0.0, 2.0], requires_grad=True)
    hi = torch.tensor([1.0, 1.0, 1.0, 1.5], requires_grad=True)
    out = []
    for bounds in ({"min": lo, "max": hi}, {"min": lo}, {"max": hi}):
        y = torch.clamp(x, **bounds)
        out.append([y, *torch.autograd.grad(y.sum(), [x, *bounds.values()])])
    z = (x * 1).clamp_(lo, hi)
    ints = torch.tensor([1, 5, 9]).clamp(torch.tensor([2, 2, 2]), torch.tensor([3.5, 3.5, 3.5]))
    return out, z, ints


def case_clamp_tensor_and_number_bounds(torch):
    return torch.clamp(torch.ones(2), min=torch.zeros(2), max=1.0)


def case_signbit(torch):
    x = torch.tensor([-1.0, -0.0, 0.0, 2.0, float("-inf"), float("nan")], requires_grad=True)
    return torch.signbit(x), x.signbit(), torch.tensor([-3, 0, 4]).signbit()


def case_relu_and_clamp_backward_large(torch):
    # 3,000 elements: the backward zeroes gradients with a bit mask, not where(); an inf or
    # NaN gradient where the input is cut off still gives 0, and a NaN input passes relu's
    # gradient through (clamp's: 0), in every float dtype.
    out = []
    for dtype in (torch.float16, torch.float32, torch.float64):
        x = torch.tensor([-1.5, 0.0, 2.0, 0.75, -0.25, 1.0] * 500, dtype=dtype)
        x[7] = float("nan")
        x.requires_grad_()
        g = torch.tensor([0.5, -2.0, 1.25, -0.0, 3.0] * 600, dtype=dtype)
        g[0], g[1], g[2], g[4], g[7] = float("inf"), float("nan"), float("-inf"), -float("inf"), 5
        for y in (x.relu(), x.clamp(-1, 1.5), x.clamp(min=0.5)):
            (grad,) = torch.autograd.grad(y, x, g)
            out.append([grad[:12], grad[-6:], grad[12:].sum(), (grad != 0).sum(),
                        grad.signbit().sum()])
    return out


@pytest.mark.parametrize("prog", programs(globals()), ids=lambda p: p.__name__[5:])
def test_parity(prog, oracle):
    check(prog, oracle)
