"""Layer and group normalisation (minigrad/nn/_functions/layer_norm.py, group_norm.py,
nn/normalization.py): F.layer_norm, nn.LayerNorm, F.group_norm and nn.GroupNorm against torch
2.13 (values in three dtypes, the node and its edges and saved values, gradients of input,
weight and bias to second order, parameters, reprs, errors), and numerical gradient checks."""

import pytest
from parity_expr import agree
from parity_programs import check, programs

import minigrad
from minigrad import nn
from minigrad.autograd import gradcheck, gradgradcheck

F = nn.functional


def _randn(torch, *shape, dtype=None, seed=0):
    torch.manual_seed(seed)
    return torch.randn(*shape, dtype=dtype or torch.float32)


def case_values_last_dim(torch):
    x = _randn(torch, 2, 3, 8) * 3 + 1
    return torch.nn.functional.layer_norm(x, (8,))


def case_values_two_dims_affine(torch):
    x = _randn(torch, 4, 3, 5)
    w, b = _randn(torch, 3, 5, seed=1), _randn(torch, 3, 5, seed=2)
    return torch.nn.functional.layer_norm(x, [3, 5], w, b, eps=1e-3)


def case_float64(torch):
    x = _randn(torch, 3, 6, dtype=torch.float64)
    return torch.nn.functional.layer_norm(x, (6,), torch.ones(6, dtype=torch.float64) * 2)


def case_float16(torch):
    x = torch.tensor([[1.0, 2.0, 4.0, -3.0], [0.5, 0.25, -1.0, 8.0]], dtype=torch.float16)
    return torch.nn.functional.layer_norm(x, (4,))


def case_constant_rows(torch):
    return torch.nn.functional.layer_norm(torch.ones(2, 3), (3,))


def case_node_and_saved_values(torch):
    x = _randn(torch, 2, 4).requires_grad_()
    w = torch.ones(4, requires_grad=True)
    y = torch.nn.functional.layer_norm(x, (4,), w)
    node = y.grad_fn
    return [y, [None if f is None else type(f).__name__ for f, _ in node.next_functions],
            node._saved_normalized_shape, node._saved_weight, node._saved_bias,
            node._saved_result1, node._saved_result2, node._saved_input]


def case_no_weight_node(torch):
    y = torch.nn.functional.layer_norm(torch.ones(2, 4, requires_grad=True), (4,))
    return [type(y.grad_fn).__name__, [f is None for f, _ in y.grad_fn.next_functions],
            y.grad_fn._saved_weight]


def case_gradients(torch):
    x = _randn(torch, 2, 3, 4, dtype=torch.float64).requires_grad_()
    w = _randn(torch, 3, 4, dtype=torch.float64, seed=1).requires_grad_()
    b = _randn(torch, 3, 4, dtype=torch.float64, seed=2).requires_grad_()
    y = torch.nn.functional.layer_norm(x, (3, 4), w, b)
    g = _randn(torch, 2, 3, 4, dtype=torch.float64, seed=3)
    return list(torch.autograd.grad(y, (x, w, b), g))


def case_second_order(torch):
    # NB: values only; PyTorch's second-order node is NativeLayerNormBackwardBackward0, minigrad's
    # backward is made of Tensor ops
    x = _randn(torch, 3, 5, dtype=torch.float64).requires_grad_()
    w = _randn(torch, 5, dtype=torch.float64, seed=1).requires_grad_()
    b = _randn(torch, 5, dtype=torch.float64, seed=2).requires_grad_()
    y = torch.nn.functional.layer_norm(x, (5,), w, b)
    grads = torch.autograd.grad((y * y.detach().exp()).sum(), (x, w, b), create_graph=True)
    total = sum((g * g).sum() for g in grads)
    return [g.detach() for g in torch.autograd.grad(total, (x, w))]


def case_module_parameters_and_repr(torch):
    torch.manual_seed(0)
    layers = [torch.nn.LayerNorm(8), torch.nn.LayerNorm([2, 3], eps=1e-6),
              torch.nn.LayerNorm(4, elementwise_affine=False), torch.nn.LayerNorm(4, bias=False),
              torch.nn.LayerNorm((4,), dtype=torch.float64)]
    return [[repr(m), [(n, p) for n, p in m.named_parameters()], list(m.state_dict()),
             m.normalized_shape] for m in layers]


def case_module_training_step(torch):
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(4, 6), torch.nn.LayerNorm(6), torch.nn.Tanh(),
                              torch.nn.Linear(6, 1))
    x = torch.randn(5, 4)
    loss = net(x).pow(2).mean()
    loss.backward()
    return [loss, [p.grad for p in net.parameters()]]


@pytest.mark.parametrize("prog", programs(globals()), ids=lambda p: p.__name__)
def test_layer_norm_matches_torch(prog, oracle):
    check(prog, oracle, rtol=1e-5)


ERRORS = {
    "wrong-last-dim": "T.nn.functional.layer_norm(T.ones(2, 3, 4), (3,))",
    "too-many-dims": "T.nn.functional.layer_norm(T.ones(2, 3, 4), [2, 3, 4, 5])",
    "wrong-inner-dims": "T.nn.functional.layer_norm(T.ones(2, 3, 4), (5, 4))",
    "weight-shape": "T.nn.functional.layer_norm(T.ones(2, 4), (4,), T.ones(3))",
    "bias-shape": "T.nn.functional.layer_norm(T.ones(2, 4), (4,), T.ones(4), T.ones(2))",
    "int-shape": "T.nn.functional.layer_norm(T.ones(2, 4), 4)",
    "empty-shape": "T.nn.functional.layer_norm(T.ones(2, 4), ())",
    "long": "T.nn.functional.layer_norm(T.ones(2, 4, dtype=T.long), (4,))",
    "mixed-dtype": "T.nn.functional.layer_norm(T.ones(3, 4, dtype=T.float64), (4,), T.ones(4))",
    "module-wrong-size": "T.nn.LayerNorm(4)(T.ones(3, 5))",
    "not-a-tensor": "T.nn.functional.layer_norm([1.0, 2.0], (2,))",
    "no-grad": "T.nn.functional.layer_norm(T.ones(2, 4), (4,)).grad_fn",
}


@pytest.mark.parametrize("src", ERRORS.values(), ids=ERRORS.keys())
def test_layer_norm_edges_match_torch(oracle, src):
    agree(oracle, src)


def _double(*shape, seed=0):
    minigrad.manual_seed(seed)
    return minigrad.randn(*shape, dtype=minigrad.float64, requires_grad=True)


@pytest.mark.parametrize("shape,normalized", [((3, 4), (4,)), ((2, 3, 4), (3, 4)), ((5,), (5,))])
def test_layer_norm_passes_gradcheck_and_gradgradcheck(shape, normalized):
    x, w, b = _double(*shape), _double(*normalized, seed=1), _double(*normalized, seed=2)
    def fn(x, w, b):
        return F.layer_norm(x, normalized, w, b)
    assert gradcheck(fn, (x, w, b))
    assert gradgradcheck(fn, (x, w, b))
    assert gradgradcheck(lambda x: F.layer_norm(x, normalized), (x,))


def test_layer_norm_normalises_each_sample():
    x = _double(4, 6) * 5 + 3
    y = nn.LayerNorm(6, dtype=minigrad.float64)(x).detach()
    assert minigrad.allclose(y.mean(-1), minigrad.zeros(4, dtype=minigrad.float64), atol=1e-12)
    assert minigrad.allclose(y.var(-1, unbiased=False),
                             minigrad.ones(4, dtype=minigrad.float64) - 1e-5 / x.var(
                                 -1, unbiased=False).detach(), rtol=1e-6)


# ---------------------------------------------------------------------- group norm
def _group_norm_program(torch, shape, groups, affine):
    x = _randn(torch, *shape, dtype=torch.float64).requires_grad_()
    channels = shape[1]
    w = _randn(torch, channels, dtype=torch.float64, seed=1).requires_grad_() if affine else None
    b = _randn(torch, channels, dtype=torch.float64, seed=2).requires_grad_() if affine else None
    y = torch.nn.functional.group_norm(x, groups, w, b, eps=1e-3)
    node = y.grad_fn
    saved = [[f is None for f, _ in node.next_functions], node._saved_N, node._saved_C,
             node._saved_HxW, node._saved_group,
             # NB: PyTorch saves them as outputs of the node (grad_fn set); minigrad as constants
             node._saved_result1.detach(), node._saved_result2.detach()]
    inputs = [t for t in (x, w, b) if t is not None]
    grads = torch.autograd.grad((y * y.detach().exp()).sum(), inputs, create_graph=True)
    second = torch.autograd.grad(sum((g * g).sum() for g in grads), x)
    return [y, saved, [g.detach() for g in grads], list(second)]


GROUPS = {"2d": ((3, 4), 2, True), "3d": ((2, 6, 5), 3, True), "4d-no-affine": ((2, 4, 3, 2), 4,
                                                                               False),
          "one-group": ((2, 4, 3), 1, True)}


@pytest.mark.parametrize("case", GROUPS.values(), ids=GROUPS.keys())
def test_group_norm_matches_torch(oracle, case):
    check(lambda torch: _group_norm_program(torch, *case), oracle, rtol=1e-8)


def case_group_norm_module(torch):
    layers = [torch.nn.GroupNorm(2, 4), torch.nn.GroupNorm(3, 6, eps=1e-3, affine=False),
              torch.nn.GroupNorm(2, 4, bias=False)]
    x = _randn(torch, 2, 6, 3)
    return [[repr(m), [(n, p) for n, p in m.named_parameters()]] for m in layers] + [
        layers[1](x), layers[0](x[:, :4])]


def test_group_norm_module_matches_torch(oracle):
    check(case_group_norm_module, oracle, rtol=1e-5)


GROUP_ERRORS = {
    "indivisible": "T.nn.functional.group_norm(T.ones(2, 3), 2)",
    "module-indivisible": "T.nn.GroupNorm(2, 3)",
    "weight-size": "T.nn.functional.group_norm(T.ones(2, 4), 2, T.ones(3))",
    "bias-size": "T.nn.functional.group_norm(T.ones(2, 4), 2, T.ones(4), T.ones(3))",
    "bias-size-no-weight": "T.nn.functional.group_norm(T.ones(2, 4), 2, None, T.ones(3))",
    "1d": "T.nn.functional.group_norm(T.ones(4), 2)",
    "long": "T.nn.functional.group_norm(T.ones(2, 4, dtype=T.long), 2)",
    "mixed": "T.nn.functional.group_norm(T.ones(2, 4), 2, T.ones(4, dtype=T.float64))",
    "module-channels": "T.nn.GroupNorm(2, 4)(T.ones(2, 6))",
    "empty-batch": "T.nn.functional.group_norm(T.ones(0, 4, requires_grad=True), 2)",
}


@pytest.mark.parametrize("src", GROUP_ERRORS.values(), ids=GROUP_ERRORS.keys())
def test_group_norm_edges_match_torch(oracle, src):
    agree(oracle, src)


def test_group_norm_passes_gradcheck_and_gradgradcheck():
    x, w, b = _double(2, 6, 3), _double(6, seed=1), _double(6, seed=2)
    assert gradcheck(lambda x, w, b: F.group_norm(x, 3, w, b), (x, w, b))
    assert gradgradcheck(lambda x, w, b: F.group_norm(x, 3, w, b), (x, w, b))
    assert gradgradcheck(lambda x: F.group_norm(x, 2), (x,))
