"""More activations (minigrad/nn/activation.py, minigrad/nn/_functions/activation.py): elu,
selu, celu, hardtanh, relu6, threshold, hardsigmoid, hardswish, logsigmoid, prelu, softsign,
tanhshrink, softmin and glu, as functions and modules, against torch 2.13 (values in float32
and float64, gradients, node names and saved values, in-place forms, reprs, errors), and
their gradients checked numerically."""

import numpy as np
import pytest
from parity_expr import agree

import minigrad
from minigrad import nn
from minigrad.autograd import gradcheck, gradgradcheck

F = nn.functional

def _functional(src):
    """``F.name`` written out as ``T.nn.functional.name``."""
    return src.replace("F.", "T.nn.functional.")


X = "(T.arange(-45, 46, 5, dtype=T.{dt}) / 10)"  # -4.5 … 4.5, with -3, -1, 0, 1, 3 in it
CALLS = {
    "elu": "F.elu({x})", "elu-alpha": "F.elu({x}, 0.5)", "selu": "F.selu({x})",
    "celu": "F.celu({x}, 2.0)", "hardtanh": "F.hardtanh({x}, -2.0, 3.0)", "relu6": "F.relu6({x})",
    "threshold": "F.threshold({x}, 1.0, -7.0)", "hardsigmoid": "F.hardsigmoid({x})",
    "hardswish": "F.hardswish({x})", "logsigmoid": "F.logsigmoid({x})",
    "softsign": "F.softsign({x})", "tanhshrink": "F.tanhshrink({x})",
    "softmin": "F.softmin({x}.view(2, 9), 1)", "glu": "F.glu({x}[1:])",
    "glu-dim0": "F.glu({x}[1:].view(6, 3), 0)",
    "prelu": "F.prelu({x}[1:].view(3, 6), T.tensor([0.25, -0.5, 2.0], dtype=T.{dt}))",
}


def _value_and_grad(call, dt):
    """The value, x's gradient (of y·w) and y's node name of one call on float x."""
    x = X.format(dt=dt)
    return (f"(lambda x: (lambda y: [y, T.autograd.grad(y, x, T.linspace(-1, 2, y.numel(), "
            f"dtype=T.{dt}).view(y.shape))[0], type(y.grad_fn).__name__])("
            f"{call.format(x='x', dt=dt)}))({x}.requires_grad_())")


VALUES = {f"{name}-{dt}": _value_and_grad(call, dt)
          for name, call in CALLS.items() for dt in ("float32", "float64")}


@pytest.mark.parametrize("src", VALUES.values(), ids=VALUES.keys())
def test_values_and_gradients_match_torch(oracle, src):
    agree(oracle, _functional(src), rtol=1e-6, atol=1e-7)


CASES = {
    # nodes and what they save
    "elu-saved": "(lambda n: [type(n).__name__, n._saved_alpha, n._saved_scale, "
                 "n._saved_input_scale, n._saved_self])(F.elu(T.tensor([-1.0, 2.0], "
                 "requires_grad=True), 0.5).grad_fn)",
    "selu-saved": "(lambda n: [type(n).__name__, n._saved_alpha, n._saved_scale, "
                  "n._saved_input_scale])(F.selu(T.tensor([-1.0, 2.0], "
                  "requires_grad=True)).grad_fn)",
    "celu-saved": "(lambda n: [type(n).__name__, n._saved_alpha, n._saved_self])"
                  "(F.celu(T.tensor([-1.0, 2.0], requires_grad=True), 3.0).grad_fn)",
    "hardtanh-saved": "(lambda n: [type(n).__name__, n._saved_min_val, n._saved_max_val])"
                      "(F.hardtanh(T.tensor([-1.0, 2.0], requires_grad=True), -2, 3).grad_fn)",
    "relu6-saved": "(lambda n: [type(n).__name__, n._saved_min_val, n._saved_max_val])"
                   "(F.relu6(T.tensor([-1.0, 2.0], requires_grad=True)).grad_fn)",
    "threshold-saved": "(lambda n: [type(n).__name__, n._saved_threshold, n._saved_self])"
                       "(F.threshold(T.tensor([-1.0, 2.0], requires_grad=True), 1, 5).grad_fn)",
    "logsigmoid-saved": "(lambda n: [type(n).__name__, n._saved_self, n._saved_buffer])"
                        "(F.logsigmoid(T.tensor([-1.0, 2.0], requires_grad=True)).grad_fn)",
    "glu-saved": "(lambda n: [type(n).__name__, n._saved_dim, n._saved_self])"
                 "(F.glu(T.tensor([[-1.0, 2.0]], requires_grad=True)).grad_fn)",
    "glu-saved-dim0": "F.glu(T.ones(2, 1, requires_grad=True), 0).grad_fn._saved_dim",
    "softsign-graph": "(lambda n: [type(n).__name__, type(n.next_functions[1][0]).__name__, "
                      "type(n.next_functions[1][0].next_functions[0][0]).__name__])"
                      "(F.softsign(T.ones(2, requires_grad=True)).grad_fn)",
    "tanhshrink-graph": "(lambda n: [type(n).__name__, type(n.next_functions[0][0]).__name__, "
                        "type(n.next_functions[1][0]).__name__])"
                        "(F.tanhshrink(T.ones(2, requires_grad=True)).grad_fn)",
    "softmin-graph": "(lambda n: [type(n).__name__, type(n.next_functions[0][0]).__name__])"
                     "(F.softmin(T.ones(2, requires_grad=True), 0).grad_fn)",
    "softmin-dtype": "F.softmin(T.tensor([1.0, 2.0]), 0, dtype=T.float64)",
    "softmin-implicit": "F.softmin(T.tensor([[1.0, 2.0]]))",
    # prelu's weight: viewed to the channels, as PyTorch
    "prelu-graph": "(lambda y: [y, type(y.grad_fn).__name__, [type(f).__name__ for f, _ in "
                   "y.grad_fn.next_functions], y.grad_fn._saved_weight.shape])(F.prelu("
                   "T.tensor([[[-1.0], [2.0]]]), T.tensor([0.5, 3.0], requires_grad=True)))",
    "prelu-1d": "(lambda y: [y, [type(f).__name__ if f else None for f, _ in "
                "y.grad_fn.next_functions]])(F.prelu(T.tensor([-1.0, 2.0]), "
                "T.tensor([0.5], requires_grad=True)))",
    "prelu-0d": "(lambda y: [y, y.grad_fn._saved_weight.shape])(F.prelu(T.tensor(-2.0), "
                "T.tensor([0.5], requires_grad=True)))",
    "prelu-weight-grad": "(lambda w: T.autograd.grad(F.prelu(T.tensor([[-1.0, 2.0], "
                         "[-3.0, 4.0]]), w).sum(), w))(T.tensor([0.5, 1.5], requires_grad=True))",
    "prelu-scalar-weight-grad": "(lambda w: T.autograd.grad(F.prelu(T.tensor([[-1.0, 2.0], "
                                "[-3.0, 4.0]]), w).sum(), w))(T.tensor(0.5, requires_grad=True))",
    "prelu-bad-count": "F.prelu(T.ones(2, 3), T.ones(2))",
    "prelu-bad-ndim": "F.prelu(T.ones(2, 3), T.ones(1, 3))",
    "prelu-promote": "F.prelu(T.ones(2, dtype=T.float64), T.ones(1))",
    "prelu-long": "F.prelu(T.tensor([1, 2]), T.ones(1))",
    # integer, bool and other inputs
    "hardtanh-long": "F.hardtanh(T.tensor([1, 5, -3]), -2.5, 2.5)",
    "relu6-long": "F.relu6(T.tensor([1, 7, -3]))",
    "threshold-long": "F.threshold(T.tensor([1, 5, -3]), 1.5, 2.5)",
    "softsign-long": "F.softsign(T.tensor([1, 2]))",
    "tanhshrink-long": "F.tanhshrink(T.tensor([1, 2]))",
    "hardtanh-bool": "F.hardtanh(T.tensor([True]))",
    "threshold-bool": "F.threshold(T.tensor([True]), 0, 1)",
    "elu-long": "F.elu(T.tensor([1, 2]))",
    "selu-long": "F.selu(T.tensor([1, 2]))",
    "celu-long": "F.celu(T.tensor([1, 2]))",
    "logsigmoid-long": "F.logsigmoid(T.tensor([1, 2]))",
    "hardswish-long": "F.hardswish(T.tensor([1, 2]))",
    "hardsigmoid-long": "F.hardsigmoid(T.tensor([1, 2]))",
    "elu-not-a-tensor": "F.elu(1.0)",
    "elu-float16": "F.elu(T.tensor([-1.0, 0.5], dtype=T.float16))",
    "logsigmoid-far": "F.logsigmoid(T.tensor([-200.0, -30.0, 30.0, 200.0]))",
    # errors
    "hardtanh-bad-range": "F.hardtanh(T.ones(2), 2.0, 1.0)",
    "celu-alpha-0": "F.celu(T.ones(2), 0.0)",
    "glu-odd": "F.glu(T.ones(2, 3))",
    "glu-odd-dim0": "F.glu(T.ones(3, 2), 0)",
    "glu-scalar": "F.glu(T.tensor(1.0))",
    "glu-bad-dim": "F.glu(T.ones(2, 2), 3)",
    "hardsigmoid-double-backward": "(lambda x: T.autograd.grad(T.autograd.grad(F.hardsigmoid(x)"
                                   ".sum(), x, create_graph=True)[0].sum(), x))"
                                   "(T.ones(2, requires_grad=True))",
    # in place
    "elu-inplace": "(lambda x: (lambda y: [y is x, y, type(y.grad_fn).__name__, "
                   "y.grad_fn._saved_result, T.autograd.grad(y.sum(), x0)])(F.elu(x, 0.5, True))"
                   ")(x0 := T.tensor([-1.0, 0.0, 2.0], requires_grad=True) * 1)",
    "selu-inplace": "(lambda x: [F.selu_(x) is x, x, type(x.grad_fn).__name__])"
                    "(T.tensor([-1.0, 2.0], requires_grad=True) * 1)",
    "celu-inplace": "(lambda x: [F.celu(x, 2.0, inplace=True), type(x.grad_fn).__name__, "
                    "T.autograd.grad(x.sum(), x0)])(x0 := T.tensor([-1.0, 0.0, 2.0], "
                    "requires_grad=True) * 1)",
    "elu-inplace-negative-alpha": "(lambda x: T.autograd.grad(F.elu_(x, -1.0).sum(), x0))"
                                  "(x0 := T.tensor([-1.0, 2.0], requires_grad=True) * 1)",
    "hardtanh-inplace": "(lambda x: [F.hardtanh_(x), type(x.grad_fn).__name__, "
                        "T.autograd.grad(x.sum(), x0)])(x0 := T.tensor([-2.0, 0.5], "
                        "requires_grad=True) * 1)",
    "relu6-inplace": "(lambda x: [F.relu6(x, True) is x, x])(T.tensor([-2.0, 7.0]))",
    "threshold-inplace": "(lambda x: [F.threshold_(x, 0.0, 9.0), type(x.grad_fn).__name__, "
                         "T.autograd.grad(x.sum(), x0)])(x0 := T.tensor([-2.0, 0.5], "
                         "requires_grad=True) * 1)",
    "hardswish-inplace": "(lambda x: [F.hardswish(x, True), type(x.grad_fn).__name__])"
                         "(T.tensor([-2.0, 0.5], requires_grad=True) * 1)",
    "hardsigmoid-inplace": "(lambda x: [F.hardsigmoid(x, True), type(x.grad_fn).__name__])"
                           "(T.tensor([-2.0, 0.5], requires_grad=True) * 1)",
    "inplace-leaf": "F.elu(T.ones(2, requires_grad=True), inplace=True)",
    # modules
    "reprs": "[repr(m) for m in [T.nn.ELU(), T.nn.ELU(0.5, True), T.nn.Hardtanh(), "
             "T.nn.Hardtanh(-2, 3, True), T.nn.ReLU6(), T.nn.ReLU6(True), T.nn.LogSigmoid(), "
             "T.nn.PReLU(), T.nn.PReLU(3, 0.1), T.nn.SELU(), T.nn.SELU(True), T.nn.CELU(), "
             "T.nn.CELU(2.0, True), T.nn.Softsign(), T.nn.Hardswish(True), "
             "T.nn.Hardsigmoid(True), T.nn.Softmin(), T.nn.Softmin(1), T.nn.GLU(), T.nn.GLU(0), "
             "T.nn.Tanhshrink(), T.nn.Threshold(0.1, 20), T.nn.Threshold(0.1, 20.0, True)]]",
    "hardtanh-module-bad": "T.nn.Hardtanh(2, 1)",
    "modules": "(lambda x: [m(x) for m in [T.nn.ELU(), T.nn.Hardtanh(-0.5, 0.5), T.nn.ReLU6(), "
               "T.nn.LogSigmoid(), T.nn.PReLU(), T.nn.SELU(), T.nn.CELU(0.5), T.nn.Softsign(), "
               "T.nn.Hardswish(), T.nn.Hardsigmoid(), T.nn.Softmin(1), T.nn.GLU(), "
               "T.nn.Tanhshrink(), T.nn.Threshold(0.5, -1.0)]])(T.tensor([[-4.0, -1.0, 0.25, "
               "7.0]], requires_grad=True))",
    "modules-inplace": "(lambda x: [m(x.clone()) for m in [T.nn.ELU(inplace=True), "
                       "T.nn.Hardtanh(inplace=True), T.nn.ReLU6(True), T.nn.SELU(True), "
                       "T.nn.CELU(inplace=True), T.nn.Hardswish(True), T.nn.Hardsigmoid(True), "
                       "T.nn.Threshold(0.5, -1.0, True)]])(T.tensor([[-4.0, -1.0, 0.25, 7.0]]))",
    "prelu-module": "(lambda m: [m.weight, m.num_parameters, m.init, [n for n, _ in "
                    "m.named_parameters()], m(T.tensor([[-1.0, -2.0], [3.0, -4.0]])), "
                    "type(m.weight).__name__])(T.nn.PReLU(2, 0.1))",
    "prelu-module-grad": "(lambda m: T.autograd.grad(m(T.tensor([[-1.0, -2.0, 5.0]])).sum(), "
                         "m.weight))(T.nn.PReLU(3))",
    "prelu-module-dtype": "T.nn.PReLU(dtype=T.float64).weight",
}


@pytest.mark.parametrize("src", CASES.values(), ids=CASES.keys())
def test_matches_torch(oracle, src):
    agree(oracle, _functional(src), rtol=1e-6, atol=1e-7)


def _second_order(call, detach=False):
    """x's first and second derivatives (of y·w, then of the first's square) and the
    first's node, for ``call`` on float64 x."""
    x = X.format(dt="float64")
    first = "g.detach()" if detach else "g"
    return (f"(lambda x: (lambda y: (lambda g: [{first}, T.autograd.grad((g * g).sum(), x)[0]])("
            f"T.autograd.grad(y, x, T.linspace(-1, 2, y.numel(), dtype=T.float64)"
            f".view(y.shape), create_graph=True)[0]))({call.format(x='x', dt='float64')}))"
            f"({x}.requires_grad_())")


SECOND = {name: _second_order(call) for name, call in CALLS.items() if name != "hardsigmoid"}
# minigrad builds these two gradients from plain ops (MulBackward0 …), not one node of its own
OWN_NODE = ("hardswish", "logsigmoid")
SECOND.update({f"{name}-values": _second_order(CALLS[name], True) for name in OWN_NODE})
SECOND_PARAMS = [pytest.param(src, id=name, marks=pytest.mark.xfail(
    strict=True, reason="gradient node name differs")) if name in OWN_NODE else
    pytest.param(src, id=name) for name, src in SECOND.items()]


@pytest.mark.parametrize("src", SECOND_PARAMS)
def test_second_derivatives_match_torch(oracle, src):
    agree(oracle, _functional(src), rtol=1e-6, atol=1e-7)


SMOOTH = np.array([-4.1, -2.9, -1.3, -0.2, 0.35, 1.1, 2.2, 3.3, 4.4, 5.6])  # off the kinks
FUNCTIONS = {
    "elu": lambda x: F.elu(x, 0.7), "selu": F.selu, "celu": lambda x: F.celu(x, 1.5),
    "hardtanh": lambda x: F.hardtanh(x, -2.0, 3.0), "relu6": F.relu6,
    "threshold": lambda x: F.threshold(x, 0.5, -2.0), "hardswish": F.hardswish,
    "logsigmoid": F.logsigmoid, "softsign": F.softsign, "tanhshrink": F.tanhshrink,
    "softmin": lambda x: F.softmin(x.view(2, 5), 1), "glu": F.glu,
    "glu-dim0": lambda x: F.glu(x.view(2, 5), 0),
    "prelu": lambda x: F.prelu(x.view(2, 5), minigrad.tensor([0.3], dtype=minigrad.float64)),
    "elu-inplace": lambda x: F.elu(x * 1, 0.7, inplace=True),
    "celu-inplace": lambda x: F.celu(x * 1, 1.5, inplace=True),
    "selu-inplace": lambda x: F.selu(x * 1, inplace=True),
}


@pytest.mark.parametrize("fn", FUNCTIONS.values(), ids=FUNCTIONS.keys())
def test_gradcheck(fn):
    x = minigrad.tensor(SMOOTH, dtype=minigrad.float64, requires_grad=True)
    assert gradcheck(fn, (x,))
    assert gradgradcheck(fn, (x,))


def test_gradcheck_hardsigmoid_and_prelu_weight():
    x = minigrad.tensor(SMOOTH, dtype=minigrad.float64, requires_grad=True)
    assert gradcheck(F.hardsigmoid, (x,))
    w = minigrad.tensor([0.25, -0.5], dtype=minigrad.float64, requires_grad=True)
    cube = minigrad.tensor(SMOOTH.reshape(1, 2, 5), dtype=minigrad.float64, requires_grad=True)
    assert gradcheck(F.prelu, (cube, w))
    assert gradgradcheck(F.prelu, (cube, w))


def test_gradcheck_catches_a_wrong_derivative():
    """The checks above can fail: a hardswish with the slope of its middle part off by 1/6."""
    def wrong(x):
        return F.hardswish(x) + (x * x).detach() * 0 + x / 6 - x.detach() / 6 * 0 - (
            x.detach() / 6)
    x = minigrad.tensor(SMOOTH, dtype=minigrad.float64, requires_grad=True)
    assert F.hardswish(x).allclose(wrong(x) - x / 6 + x.detach() / 6)
    with pytest.raises(Exception, match="Jacobian mismatch"):
        gradcheck(wrong, (x,))


def test_softmin_warns_without_dim():
    with pytest.warns(UserWarning, match="Implicit dimension choice for softmin"):
        F.softmin(minigrad.ones(2, 3))
    with pytest.warns(UserWarning, match="Implicit dimension choice for softmin"):
        nn.Softmin()(minigrad.ones(2, 3))


def test_prelu_module_is_learnable():
    m = nn.PReLU(2)
    assert [name for name, _ in m.named_parameters()] == ["weight"]
    assert m.weight.tolist() == [0.25, 0.25] and m.weight.requires_grad
    m(minigrad.tensor([[-1.0, -2.0]])).sum().backward()
    assert m.weight.grad.tolist() == [-1.0, -2.0]
