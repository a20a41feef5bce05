"""``cumsum`` and ``cumprod`` (minigrad/ops/cumulative.py) against torch: dtypes, and the
gradients of ``cumprod`` at zeros, three orders deep (its gradient there is built without a
division; the registry's cases cover inputs without zeros)."""

import numpy as np
import pytest
from oracle import assert_matches

import minigrad


def _three_orders(lib, values):
    """First, second and third derivatives of Σ w · cumprod(x, 1), each weighted again."""
    x = lib.tensor(values, dtype=lib.float64, requires_grad=True)
    rng = np.random.default_rng(3)
    weights = [lib.tensor(rng.uniform(0.5, 1.5, x.shape), dtype=lib.float64) for _ in range(3)]
    scalar = (lib.cumprod(x, 1) * weights[0]).sum()
    grads = []
    for w in weights[1:] + [None]:
        (g,) = lib.autograd.grad(scalar, x, create_graph=True)
        grads.append(g)
        if w is not None:
            scalar = (g * g * w).sum()
    return grads


@pytest.mark.parametrize("values", [
    [[1.5, 0.0, -2.0, 0.5], [0.0, 0.0, 3.0, 1.0]],   # one zero, two zeros in a row
    [[0.0, 2.0, 0.7, -1.2], [1.1, -0.4, 0.9, 0.0]],  # a zero first, a zero last
], ids=["inner-zeros", "end-zeros"])
def test_cumprod_gradients_at_zeros_match_torch(values, oracle):
    expected = oracle(lambda torch: [g.detach() for g in _three_orders(torch, values)])
    got = [g.detach() for g in _three_orders(minigrad, values)]
    assert_matches(got, expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("op", ["cumsum", "cumprod"])
@pytest.mark.parametrize("values, dtype", [([True, True, False], "bool"), ([2, -3, 4], "int32"),
                                           ([1.5, 2.0, -1.0], "float32"), (2.5, "float64")],
                         ids=["bool", "int32", "float32", "0d"])
def test_running_results_and_dtypes_match_torch(op, values, dtype, oracle):
    def run(lib):
        return getattr(lib, op)(lib.tensor(values, dtype=getattr(lib, dtype)), 0)
    assert_matches(run(minigrad), oracle(run))


def test_cumsum_dtype_argument_matches_torch(oracle):
    def run(lib):
        return lib.cumsum(lib.tensor([1, 2, 3]), 0, dtype=lib.float64)
    assert_matches(run(minigrad), oracle(run))


def test_method_forms_match_torch(oracle):
    def run(lib):
        x = lib.tensor([[1.0, 2.0], [3.0, 4.0]])
        return x.cumsum(0), x.cumprod(1), x.cumsum(-1, dtype=lib.float64)
    assert_matches(run(minigrad), oracle(run))
