"""Every op of the registry: forward values, numerical gradients, node names, torch parity."""

import numpy as np
import pytest
from op_registry import all_cases

import minigrad

CASES = all_cases()
IDS = [c.name for c in CASES]


def _inputs(case, lib, arrays, dtype):
    grad_args = case.grad_args if case.grad_args is not None else range(len(arrays))
    out = []
    for i, a in enumerate(arrays):
        t = lib.tensor(a, dtype=dtype)
        if case.check_grad and i in grad_args and t.is_floating_point():
            t.requires_grad_(True)
        out.append(t)
    return out


def _arrays(case, seed=0):
    return case.make(np.random.default_rng(seed))


def _value(x):
    if isinstance(x, (tuple, list)):
        x = x[0]
    return x


WITH_NUMPY = [c for c in CASES if c.numpy is not None]  # the others: torch parity below


@pytest.mark.parametrize("case", WITH_NUMPY, ids=[c.name for c in WITH_NUMPY])
def test_forward_matches_numpy(case):
    arrays = _arrays(case)
    out = _value(case.fn(minigrad, *_inputs(case, minigrad, arrays, minigrad.float64)))
    np.testing.assert_allclose(out.detach().numpy(), case.numpy(*arrays), rtol=1e-12)


def _numerical_grads(case, arrays, eps=1e-6):
    """Central differences of sum(out * weights) with respect to each grad input."""
    weights = None

    def f(arrs):
        nonlocal weights
        with minigrad.no_grad():
            out = _value(case.fn(minigrad, *[minigrad.tensor(a, dtype=minigrad.float64)
                                               for a in arrs])).numpy().astype(np.float64)
        if weights is None:
            weights = np.random.default_rng(1).uniform(0.5, 1.5, out.shape)
        return float((out * weights).sum())

    f(arrays)
    grads = []
    for i, a in enumerate(arrays):
        g = np.zeros_like(a)
        for idx in np.ndindex(a.shape):
            plus = [x.copy() for x in arrays]
            minus = [x.copy() for x in arrays]
            plus[i][idx] += eps
            minus[i][idx] -= eps
            g[idx] = (f(plus) - f(minus)) / (2 * eps)
        grads.append(g)
    return grads, weights


@pytest.mark.parametrize("case", [c for c in CASES if c.check_grad], ids=[
    c.name for c in CASES if c.check_grad])
def test_gradient_matches_finite_differences(case):
    arrays = _arrays(case)
    expected, weights = _numerical_grads(case, arrays)
    inputs = _inputs(case, minigrad, arrays, minigrad.float64)
    out = _value(case.fn(minigrad, *inputs))
    out.backward(minigrad.tensor(weights, dtype=minigrad.float64))
    for t, g in zip(inputs, expected):
        if t.requires_grad:
            np.testing.assert_allclose(t.grad.numpy(), g, rtol=1e-5, atol=1e-6)


def _array(t):
    """Values of a tensor of either library (torch's ZeroTensors refuse ``.numpy()``)."""
    return np.asarray((t.detach() + 0).tolist(), dtype=np.float64)


def _run(lib, case, arrays, weights=None):
    """What parity compares for one case: the output, its node, first and second gradients."""
    inputs = _inputs(case, lib, arrays, lib.float64)
    out = _value(case.fn(lib, *inputs))
    result = {"shape": list(out.shape), "values": _array(out).tolist(),
              "requires_grad": out.requires_grad, "node": None, "next_is_none": None}
    if out.grad_fn is not None:
        result["node"] = out.grad_fn.name()
        result["next_is_none"] = [n is None for n, _ in out.grad_fn.next_functions]
    if not case.check_grad or not out.requires_grad:
        return result
    weights = np.random.default_rng(1).uniform(0.5, 1.5, tuple(out.shape))
    wanted = [t for t in inputs if t.requires_grad]
    grads = lib.autograd.grad(out, wanted, lib.tensor(weights, dtype=lib.float64),
                              create_graph=case.second_order, allow_unused=True)
    result["grads"] = [None if g is None else _array(g).tolist() for g in grads]
    if not case.second_order:
        return result
    # Second order: differentiate the weighted sum of the first gradients again.
    pairs = [g for g in grads if g is not None and g.requires_grad]
    if pairs:
        total = sum((g * g).sum() for g in pairs)
        second = lib.autograd.grad(total, wanted, allow_unused=True)
        result["second"] = [None if g is None else _array(g).tolist() for g in second]
    return result


def _close(got, expected, rtol, atol):
    """Lists of gradients that may hold None; a None on one side means zeros on the other."""
    assert len(got) == len(expected)
    for g, rg in zip(got, expected):
        if g is None or rg is None:
            assert np.allclose(g if g is not None else (rg if rg is not None else 0), 0)
        else:
            np.testing.assert_allclose(g, rg, rtol=rtol, atol=atol)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_matches_torch(case, oracle):
    arrays = _arrays(case)
    ref = oracle(lambda torch: _run(torch, case, arrays))
    mine = _run(minigrad, case, arrays)
    assert mine["shape"] == ref["shape"]
    np.testing.assert_allclose(mine["values"], ref["values"], rtol=1e-6, atol=1e-12)
    assert mine["requires_grad"] == ref["requires_grad"]
    if ref["node"] is not None:
        assert mine["node"] == ref["node"]
        if case.node is not None:
            assert ref["node"] == case.node
        assert mine["next_is_none"] == ref["next_is_none"]
    if "grads" in ref:
        assert [g is None for g in mine["grads"]] == [g is None for g in ref["grads"]]
        _close(mine["grads"], ref["grads"], rtol=1e-6, atol=1e-10)
    if "second" in ref:
        _close(mine["second"], ref["second"], rtol=1e-6, atol=1e-10)
