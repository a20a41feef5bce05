"""``erf``, ``erfc``, ``erfinv``, ``atan2``, ``logaddexp`` and ``nan_to_num``
(minigrad.ops.special) against torch 2.13: values at the edges, dtypes (integers give floats),
the gradient at atan2's origin and PyTorch's errors. Forward, gradients and node names of the
plain cases are in tests/cases_special.py."""

import numpy as np
import pytest
from parity_expr import agree

import minigrad

CASES = {
    "erf-int": "T.erf(T.tensor([0, 1, -2]))",
    "erf-float64": "T.tensor([0.5, -3.0, 6.0], dtype=T.float64).erf()",
    "erf-edges": "T.tensor([float('inf'), float('-inf'), float('nan'), -0.0]).erf()",
    "erfc-large": "T.tensor([10.0, 27.0, -5.0], dtype=T.float64).erfc()",
    "erfinv-edges": "T.tensor([1.0, -1.0, 1.5, 0.0, -0.0], dtype=T.float64).erfinv()",
    "erfinv-near-one": "T.tensor([0.9999999, -0.99999, 1e-10], dtype=T.float64).erfinv()",
    "erfinv-int": "T.tensor([0, 1]).erfinv()",
    "erf-grad": "(lambda x: x.erf().sum().backward() or x.grad)"
                "(T.tensor([0.0, 1.0, -2.0], requires_grad=True))",
    "erfinv-grad": "(lambda x: x.erfinv().sum().backward() or x.grad)"
                   "(T.tensor([0.0, 0.5, -0.9], dtype=T.float64, requires_grad=True))",
    "erf-list": "T.erf([1.0])",
    "atan2-quadrants": "T.atan2(T.tensor([1.0, 1.0, -1.0, -1.0, 0.0, -0.0]), "
                       "T.tensor([1.0, -1.0, 1.0, -1.0, -1.0, -1.0]))",
    "atan2-int": "T.atan2(T.tensor([1, 2]), T.tensor([1, 0]))",
    "atan2-mixed": "T.atan2(T.tensor([1.0], dtype=T.float64), T.tensor([2.0]))",
    "atan2-origin-grad": "(lambda y, x: T.atan2(y, x).sum().backward() or (y.grad, x.grad))"
                         "(T.zeros(2, requires_grad=True), T.tensor([0.0, 1.0], "
                         "requires_grad=True))",
    "arctan2-method": "T.tensor([1.0]).arctan2(T.tensor([1.0]))",
    "atan2-number": "T.atan2(T.tensor([1.0]), 2)",
    "atan2-method-number": "T.tensor([1.0]).atan2(2.0)",
    "atan2-shapes": "T.atan2(T.ones(2), T.ones(3))",
    "logaddexp-large": "T.logaddexp(T.tensor([1000.0, -1000.0]), T.tensor([1000.0, -1000.0]))",
    "logaddexp-inf": "T.logaddexp(T.tensor([float('-inf'), float('inf'), float('-inf')]), "
                     "T.tensor([float('-inf'), float('inf'), 1.0]))",
    "logaddexp-mixed": "T.logaddexp(T.tensor([1.0]), T.tensor([2.0], dtype=T.float64))",
    "logaddexp-int": "T.logaddexp(T.tensor([1]), T.tensor([2]))",
    "logaddexp-number": "T.logaddexp(T.tensor([1.0]), 2)",
    "nan_to_num-defaults": "T.tensor([float('nan'), float('inf'), float('-inf'), 1.0])"
                           ".nan_to_num()",
    "nan_to_num-float64": "T.nan_to_num(T.tensor([float('inf'), float('-inf')], "
                          "dtype=T.float64))",
    "nan_to_num-given": "T.nan_to_num(T.tensor([float('nan'), float('inf'), float('-inf')]), "
                        "nan=1.0, posinf=2.0, neginf=-2.0)",
    "nan_to_num-int": "T.tensor([1, 2]).nan_to_num()",
    "nan_to_num-grad": "(lambda x: x.nan_to_num().sum().backward() or x.grad)"
                       "(T.tensor([float('nan'), 2.0, float('inf')], requires_grad=True))",
    "nan_to_num-str": "T.nan_to_num(T.ones(2), 'a')",
}


@pytest.mark.parametrize("src", CASES.values(), ids=CASES.keys())
def test_matches_torch(oracle, src):
    agree(oracle, src, rtol=1e-6)


def test_float32_erf_is_correctly_rounded_from_float64():
    x = np.linspace(-5, 5, 201).astype(np.float32)
    got = minigrad.erf(minigrad.tensor(x, dtype=minigrad.float32)).numpy()
    expected = minigrad.erf(minigrad.tensor(x, dtype=minigrad.float64)).numpy()
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, expected.astype(np.float32))


def test_erfinv_inverts_erf():
    y = np.linspace(-0.999999, 0.999999, 2001)
    x = minigrad.erfinv(minigrad.tensor(y, dtype=minigrad.float64))
    np.testing.assert_allclose(minigrad.erf(x).numpy(), y, rtol=1e-15, atol=1e-16)
