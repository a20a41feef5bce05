"""GELU (minigrad/nn/_functions/gelu.py, erf in _erf.py): F.gelu and nn.GELU against torch 2.13
(values in three dtypes, node names and saved values to second order, reprs, errors), and
gradients of both forms checked numerically to second order."""

import math

import numpy as np
import pytest
from parity_expr import agree
from parity_programs import check

import minigrad
from minigrad import nn
from minigrad.autograd import gradcheck, gradgradcheck
from minigrad.ops._erf import erf

F = nn.functional

CASES = {
    "values": "T.nn.functional.gelu((T.arange(-60, 61, 3) / 10))",
    "values-tanh": "T.nn.functional.gelu((T.arange(-60, 61, 3) / 10), approximate='tanh')",
    "float64": "T.nn.functional.gelu((T.arange(-90, 91, 5, dtype=T.float64) / 10))",
    "float64-tanh": "T.nn.functional.gelu((T.arange(-90, 91, 5, dtype=T.float64) / 10), "
                    "approximate='tanh')",
    "float16": "T.nn.functional.gelu(T.tensor([-2.0, -0.5, 0.0, 1.0, 3.0], dtype=T.float16))",
    "far-negative": "T.nn.functional.gelu(T.tensor([-30.0, -12.0, -8.0]))",
    "node": "T.nn.functional.gelu(T.ones(2, requires_grad=True))",
    "saved": "(lambda n: (n._saved_approximate, n._saved_self))"
             "(T.nn.functional.gelu(T.ones(2, requires_grad=True), approximate='tanh').grad_fn)",
    "long": "T.nn.functional.gelu(T.tensor([1, 2]))",
    "bool": "T.nn.functional.gelu(T.tensor([True]))",
    "bad-approximate": "T.nn.functional.gelu(T.ones(2), approximate='exact')",
    "approximate-none-object": "T.nn.functional.gelu(T.ones(2), approximate=None)",
    "positional-approximate": "T.nn.functional.gelu(T.ones(2), 'tanh')",
    "not-a-tensor": "T.nn.functional.gelu([1.0])",
    "repr": "repr(T.nn.GELU()) + repr(T.nn.GELU('tanh')) + repr(T.nn.GELU(approximate='tanh'))",
    "module": "T.nn.GELU('tanh')(T.tensor([-3.0, -1.0, 0.0, 0.5, 2.0], requires_grad=True))",
    "module-bad": "T.nn.GELU('exact')(T.ones(1))",
}


@pytest.mark.parametrize("src", CASES.values(), ids=CASES.keys())
def test_gelu_matches_torch(oracle, src):
    # NB: PyTorch's float32 kernel uses an erf of its own, accurate to about 1e-7
    agree(oracle, src, rtol=1e-6, atol=1e-6)


def _gradients(torch, approximate):
    """First and second derivatives, their nodes, and the saved values of the gradient's node."""
    x = torch.linspace(-4, 4, 17, dtype=torch.float64, requires_grad=True)
    y = torch.nn.functional.gelu(x, approximate=approximate)
    (g,) = torch.autograd.grad(y, x, torch.linspace(-1, 2, 17, dtype=torch.float64),
                               create_graph=True)
    (h,) = torch.autograd.grad((g * g).sum(), x, create_graph=True)
    node = g.grad_fn
    return [g, h, type(node).__name__, node._saved_approximate, node._saved_grad_output,
            node._saved_self]


@pytest.mark.parametrize("approximate", ["none", "tanh"])
def test_gelu_gradients_match_torch(oracle, approximate):
    check(lambda torch: _gradients(torch, approximate), oracle, rtol=1e-10)


@pytest.mark.parametrize("approximate", ["none", "tanh"])
def test_gelu_passes_gradcheck_and_gradgradcheck(approximate):
    x = minigrad.tensor(np.random.default_rng(0).standard_normal(12) * 3,
                        dtype=minigrad.float64, requires_grad=True)
    def fn(t):
        return F.gelu(t, approximate=approximate)
    assert gradcheck(fn, (x,))
    assert gradgradcheck(fn, (x,))
    # the third derivative goes through the Tensor ops of GeluBackward's backward
    assert gradgradcheck(lambda t: minigrad.autograd.grad(fn(t).sum(), t, create_graph=True)[0],
                         (x,))


def test_gelu_module_is_a_thin_layer_over_the_function():
    x = minigrad.linspace(-2, 2, 9)
    assert minigrad.equal(nn.GELU()(x), F.gelu(x))
    assert minigrad.equal(nn.GELU("tanh")(x), F.gelu(x, approximate="tanh"))
    assert nn.GELU().approximate == "none"


def test_erf_is_accurate_in_every_interval():
    x = np.concatenate([np.linspace(-30, 30, 20001), [0.46875, -0.46875, 4.0, -4.0, 1e-300]])
    expected = np.array([math.erf(v) for v in x])
    np.testing.assert_allclose(erf(x), expected, rtol=2e-15, atol=0)
    specials = erf(np.array([np.inf, -np.inf, np.nan, -0.0]))
    assert specials[0] == 1 and specials[1] == -1 and np.isnan(specials[2])
    assert np.signbit(specials[3])
