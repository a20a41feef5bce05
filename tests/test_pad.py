"""F.pad (minigrad/nn/_pad_functional.py, nn/_functions/padding.py) against torch 2.13: the
constant, reflect and replicate modes (values, dtypes, nodes, gradients to second order and the
nodes of the gradients), PyTorch's errors; numerical gradient checks."""

import pytest
from parity_expr import agree
from parity_programs import check

import minigrad
from minigrad.autograd import gradcheck, gradgradcheck

F = minigrad.nn.functional

X3 = "T.arange(24.0).reshape(2, 3, 4)"
CASES = {
    "constant": f"T.nn.functional.pad({X3}, (1, 2))",
    "constant-value": f"T.nn.functional.pad({X3}, (1, 0, 2, 1), value=-1.5)",
    "constant-crop": f"T.nn.functional.pad({X3}, (-1, 2, 0, -2))",
    "constant-all-dims": f"T.nn.functional.pad({X3}, [1, 1, 0, 1, 1, 0])",
    "constant-crop-to-empty": "T.nn.functional.pad(T.ones(2, 3), (-3, 0))",
    "constant-long": "T.nn.functional.pad(T.ones(2, 3, dtype=T.long), (1, 1), value=2.5)",
    "constant-bool": "T.nn.functional.pad(T.ones(2, 3, dtype=T.bool), (1, 2), value=2)",
    "constant-grad": f"T.nn.functional.pad({X3}.requires_grad_(), (1, 2)).grad_fn._saved_pad",
    "reflect-1d": f"T.nn.functional.pad({X3}, (3, 2), mode='reflect')",
    "reflect-1d-unbatched": "T.nn.functional.pad(T.arange(5.0).reshape(1, 5), (4, 4), "
                            "mode='reflect')",
    "reflect-2d": f"T.nn.functional.pad({X3}, (1, 3, 2, 1), mode='reflect')",
    "reflect-3d": "T.nn.functional.pad(T.arange(60.0).reshape(1, 3, 4, 5), (1, 2, 3, 0, 2, 1),"
                  " mode='reflect')",
    "reflect-crop": f"T.nn.functional.pad({X3}, (-1, 2), mode='reflect')",
    "reflect-long": "T.nn.functional.pad(T.arange(6).reshape(1, 2, 3), (1, 1), mode='reflect')",
    "replicate-1d": f"T.nn.functional.pad({X3}, (5, 2), mode='replicate')",
    "replicate-2d": f"T.nn.functional.pad({X3}, (1, 3, 2, 4), mode='replicate')",
    "replicate-3d": "T.nn.functional.pad(T.arange(24.0).reshape(1, 2, 3, 4), (2, 1, 0, 1, 3, 1),"
                    " mode='replicate')",
    "replicate-batch-empty": "T.nn.functional.pad(T.ones(0, 2, 3), (1, 1), mode='replicate')",
    "reflect-zero-value": f"T.nn.functional.pad({X3}, (1, 1), mode='reflect', value=0.0)",
    "odd-length": f"T.nn.functional.pad({X3}, (1,))",
    "too-long": "T.nn.functional.pad(T.ones(2, 3), (1, 1, 1, 1, 1, 1))",
    "float-pad": f"T.nn.functional.pad({X3}, (1.5, 1))",
    "crop-too-much": "T.nn.functional.pad(T.ones(2, 3), (-4, 0))",
    "unknown-mode": f"T.nn.functional.pad({X3}, (1, 1), mode='foo')",
    "reflect-value": f"T.nn.functional.pad({X3}, (1, 1), mode='reflect', value=1.0)",
    "reflect-too-wide": f"T.nn.functional.pad({X3}, (4, 4), mode='reflect')",
    "reflect-2d-too-high": "T.nn.functional.pad(T.ones(1, 3, 3), (1, 1, 3, 1), mode='reflect')",
    "reflect-3d-too-deep": "T.nn.functional.pad(T.ones(1, 1, 3, 3, 3), (1, 1, 1, 1, 3, 1),"
                           " mode='reflect')",
    "reflect-1d-input": "T.nn.functional.pad(T.ones(3), (1, 1), mode='reflect')",
    "reflect-4d-input-1d-pad": "T.nn.functional.pad(T.ones(1, 1, 1, 3), (1, 1), mode='reflect')",
    "replicate-2d-pad-of-2d": "T.nn.functional.pad(T.ones(2, 3), (1, 1, 1, 1), mode='replicate')",
    "reflect-empty-plane": "T.nn.functional.pad(T.ones(1, 0, 3), (1, 1), mode='reflect')",
    "reflect-too-small": "T.nn.functional.pad(T.ones(1, 3, 3), (-3, 0), mode='reflect')",
    "not-a-tensor": "T.nn.functional.pad([1.0], (1, 1))",
}


@pytest.mark.parametrize("src", CASES.values(), ids=CASES.keys())
def test_pad_matches_torch(oracle, src):
    agree(oracle, src)


def _gradients(torch, pad, mode):
    """The gradient of a weighted sum of the padded tensor, its node, and a second-order
    gradient through the gradient's own node."""
    shape = {1: (3, 3, 4), 2: (1, 3, 3, 4), 3: (1, 1, 3, 3, 4)}[len(pad) // 2]
    x = torch.arange(36.0, dtype=torch.float64).reshape(shape).sin().requires_grad_()
    y = torch.nn.functional.pad(x, pad, mode=mode)
    w = torch.arange(float(y.numel()), dtype=torch.float64).reshape(y.shape).cos()
    w.requires_grad_()
    (g,) = torch.autograd.grad(y, x, w, create_graph=True)
    (gw,) = torch.autograd.grad((g * g * x).sum(), w)
    return [type(y.grad_fn).__name__, g, type(g.grad_fn).__name__, gw]


GRADIENTS = [((1, 2), "constant"), ((-1, 2, 1, -1), "constant"), ((2, 1), "reflect"),
             ((1, 2, 2, 1), "reflect"), ((1, 1, 0, 2, 1, 0), "reflect"), ((3, 1), "replicate"),
             ((1, 2, 3, 1), "replicate"), ((1, 0, 1, 2, 0, 1), "replicate")]


@pytest.mark.parametrize("pad,mode", GRADIENTS, ids=[f"{m}-{p}" for p, m in GRADIENTS])
def test_pad_gradients_match_torch(oracle, pad, mode):
    check(lambda torch: _gradients(torch, pad, mode), oracle, rtol=1e-12)


@pytest.mark.parametrize("pad,mode", GRADIENTS, ids=[f"{m}-{p}" for p, m in GRADIENTS])
def test_pad_passes_gradcheck_and_gradgradcheck(pad, mode):
    minigrad.manual_seed(0)
    shape = {1: (2, 3, 4), 2: (1, 2, 3, 4), 3: (1, 1, 2, 3, 4)}[len(pad) // 2]
    x = minigrad.randn(*shape, dtype=minigrad.float64, requires_grad=True)
    assert gradcheck(lambda t: F.pad(t, pad, mode=mode), (x,))
    assert gradgradcheck(lambda t: F.pad(t, pad, mode=mode), (x,))
