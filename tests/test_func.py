"""``minigrad.func``: grad, grad_and_value, vjp, jvp, jacrev, jacfwd, hessian, vmap and
functional_call, against ``torch.func`` (values, structure of results, errors)."""

import pytest
from parity_check import check

import minigrad


def F(m):
    return m.func


def x3(m):
    return m.tensor([1.0, 2.0, 3.0])


def linear(m):
    net = m.nn.Linear(2, 1)
    with m.no_grad():
        net.weight.copy_(m.tensor([[0.5, -1.5]]))
        net.bias.fill_(0.25)
    return net


PARAMS = lambda m: {"weight": m.tensor([[1.0, 2.0]]), "bias": m.tensor([0.5])}  # noqa: E731
X = lambda m: m.tensor([[1.0, 2.0], [3.0, -1.0]])  # noqa: E731

CASES = {
    # grad / grad_and_value
    "grad": lambda m: F(m).grad(lambda x: (x ** 2).sum())(x3(m)),
    "grad-nonscalar": lambda m: F(m).grad(lambda x: x ** 2)(x3(m)),
    "grad-not-tensor": lambda m: F(m).grad(lambda x: 3.0)(x3(m)),
    "grad-argnums-tuple": lambda m: F(m).grad(lambda x, y: (x * y).sum(), argnums=(0, 1))(
        x3(m), x3(m) + 1),
    "grad-argnums-int": lambda m: F(m).grad(lambda x, y: (x * y).sum(), argnums=1)(
        x3(m), x3(m) + 1),
    "grad-argnums-range": lambda m: F(m).grad(lambda x: (x ** 2).sum(), argnums=2)(x3(m)),
    "grad-has-aux": lambda m: F(m).grad(lambda x: ((x ** 2).sum(), x.mean()), has_aux=True)(
        x3(m)),
    "grad-aux-not-tensor": lambda m: F(m).grad(lambda x: ((x ** 2).sum(), 5), has_aux=True)(
        x3(m)),
    "grad-aux-not-pair": lambda m: F(m).grad(lambda x: (x ** 2).sum(), has_aux=True)(x3(m)),
    "grad-of-grad": lambda m: F(m).grad(F(m).grad(lambda x: x.sin()))(m.tensor(1.0)),
    "grad-third-order": lambda m: F(m).grad(F(m).grad(F(m).grad(lambda x: x ** 4)))(
        m.tensor(2.0)),
    "grad-dict": lambda m: F(m).grad(lambda d: (d["a"] * d["b"]).sum())(
        {"a": x3(m), "b": x3(m) * 2}),
    "grad-int-input": lambda m: F(m).grad(lambda x: x.sum())(m.tensor([1, 2])),
    "grad-constant": lambda m: F(m).grad(lambda x: m.tensor(2.0))(x3(m)),
    "grad-kwargs": lambda m: F(m).grad(lambda x, scale: (scale * x ** 2).sum())(x3(m),
                                                                               scale=3.0),
    "grad-outer-requires-grad": lambda m: (lambda w: [
        F(m).grad(lambda x: (w * x ** 2).sum())(x3(m)).requires_grad])(
        m.tensor(2.0, requires_grad=True)),
    "grad-and-value": lambda m: F(m).grad_and_value(lambda x: (x ** 2).sum())(x3(m)),
    "grad-and-value-aux": lambda m: F(m).grad_and_value(
        lambda x: ((x ** 2).sum(), x * 2), has_aux=True)(x3(m)),
    # vjp / jvp
    "vjp": lambda m: (lambda r: [r[0], r[1](m.ones(3))])(F(m).vjp(lambda x: x.sin(), x3(m))),
    "vjp-two-outputs": lambda m: (lambda r: [r[0], r[1]((m.ones(3), m.ones(3)))])(
        F(m).vjp(lambda x, y: (x * y, x + y), x3(m), x3(m) * 2)),
    "vjp-has-aux": lambda m: (lambda r: [r[0], r[1](m.ones(3)), r[2]])(
        F(m).vjp(lambda x: (x.exp(), x.sum()), x3(m), has_aux=True)),
    "jvp": lambda m: F(m).jvp(lambda x: x.sin(), (x3(m),), (m.ones(3),)),
    "jvp-two-inputs": lambda m: F(m).jvp(lambda x, y: x * y, (x3(m), x3(m) + 1),
                                         (m.ones(3), m.zeros(3))),
    "jvp-primals-not-tuple": lambda m: F(m).jvp(lambda x: x.sin(), x3(m), m.ones(3)),
    # Jacobians
    "jacrev": lambda m: F(m).jacrev(lambda x: x.sin())(x3(m)),
    "jacrev-matrix": lambda m: F(m).jacrev(lambda x: x @ x.t())(X(m)),
    "jacrev-argnums": lambda m: F(m).jacrev(lambda x, y: x * y, argnums=(0, 1))(x3(m), x3(m)),
    "jacrev-tuple-output": lambda m: F(m).jacrev(lambda x: (x.sin(), x.sum()))(x3(m)),
    "jacrev-has-aux": lambda m: F(m).jacrev(lambda x: (x.exp(), x.sum()), has_aux=True)(x3(m)),
    "jacfwd": lambda m: F(m).jacfwd(lambda x: x.sin())(x3(m)),
    "jacfwd-matrix": lambda m: F(m).jacfwd(lambda x: x @ x.t())(X(m)),
    "jacfwd-argnums": lambda m: F(m).jacfwd(lambda x, y: x * y, argnums=1)(x3(m), x3(m) + 2),
    "hessian": lambda m: F(m).hessian(lambda x: (x ** 3).sum())(x3(m)),
    "hessian-mixed": lambda m: F(m).hessian(lambda x: (x[0] * x[1] ** 2).sin())(
        m.tensor([0.5, -1.0])),
    "hessian-of-loss": lambda m: F(m).hessian(lambda w: ((X(m) @ w - 1.0) ** 2).mean())(
        m.tensor([0.3, -0.2])),
    # vmap
    "vmap-sum": lambda m: F(m).vmap(lambda x: x.sum())(m.arange(6.0).reshape(2, 3)),
    "vmap-in-dims-none": lambda m: F(m).vmap(lambda x, y: x * y, in_dims=(0, None))(
        m.arange(6.0).reshape(2, 3), m.ones(3)),
    "vmap-in-dim-1": lambda m: F(m).vmap(lambda x: x.sum(0), in_dims=1)(
        m.arange(6.0).reshape(2, 3)),
    "vmap-out-dims": lambda m: F(m).vmap(lambda x: x * 2, out_dims=1)(
        m.arange(6.0).reshape(2, 3)),
    "vmap-tuple-output": lambda m: F(m).vmap(lambda x: (x, x.sum()))(m.ones(2, 3)),
    "vmap-dot": lambda m: F(m).vmap(m.dot)(m.arange(6.0).reshape(2, 3), m.ones(2, 3)),
    "vmap-of-grad": lambda m: F(m).vmap(F(m).grad(lambda x: (x ** 3).sum()))(
        m.arange(6.0).reshape(2, 3)),
    "vmap-of-jacrev": lambda m: F(m).vmap(F(m).jacrev(lambda x: x.sin()))(
        m.arange(4.0).reshape(2, 2)),
    "vmap-top-level": lambda m: m.vmap is m.func.vmap,
    "vmap-size-mismatch": lambda m: F(m).vmap(lambda x, y: x + y)(m.ones(2, 3), m.ones(3, 3)),
    "vmap-number": lambda m: F(m).vmap(lambda x: x)(3.0),
    "vmap-in-dims-none-all": lambda m: F(m).vmap(lambda x: x, in_dims=None)(m.ones(2)),
    "vmap-in-dims-structure": lambda m: F(m).vmap(lambda x: x, in_dims=(0, 0))(m.ones(2)),
    "vmap-in-dim-range": lambda m: F(m).vmap(lambda x: x, in_dims=2)(m.ones(2)),
    # functional_call
    "functional-call": lambda m: F(m).functional_call(linear(m), PARAMS(m), (X(m),)),
    "functional-call-single-arg": lambda m: F(m).functional_call(linear(m), PARAMS(m), X(m)),
    "functional-call-partial": lambda m: F(m).functional_call(
        linear(m), {"weight": m.ones(1, 2)}, X(m)),
    "functional-call-leaves-module": lambda m: (lambda net: [
        F(m).functional_call(net, PARAMS(m), X(m)), net.weight, net.bias])(linear(m)),
    "functional-call-strict-missing": lambda m: F(m).functional_call(
        linear(m), {"weight": m.ones(1, 2)}, X(m), strict=True),
    "functional-call-nested": lambda m: F(m).functional_call(
        m.nn.Sequential(linear(m), m.nn.Tanh()), {"0.weight": m.ones(1, 2)}, X(m)),
    "functional-call-tuple-of-dicts": lambda m: F(m).functional_call(
        linear(m), ({"weight": m.ones(1, 2)}, {"bias": m.zeros(1)}), X(m)),
    "grad-through-functional-call": lambda m: F(m).grad(
        lambda p: F(m).functional_call(linear(m), p, (X(m),)).pow(2).sum())(PARAMS(m)),
    "per-sample-grads": lambda m: (lambda net: F(m).vmap(
        F(m).grad(lambda p, x: F(m).functional_call(net, p, (x.unsqueeze(0),)).sum()),
        in_dims=(None, 0))(PARAMS(m), X(m)))(linear(m)),
}


@pytest.mark.parametrize("name", list(CASES))
def test_matches_torch(oracle, name):
    check(oracle, CASES[name], rtol=1e-5, atol=1e-6)


def test_results_do_not_require_grad_at_the_top():
    g = minigrad.func.grad(lambda x: (x ** 2).sum())(minigrad.tensor([1.0, 2.0]))
    h = minigrad.func.hessian(lambda x: (x ** 3).sum())(minigrad.tensor([1.0, 2.0]))
    assert not g.requires_grad and not h.requires_grad


def test_inputs_are_untouched():
    x = minigrad.tensor([1.0, 2.0])
    minigrad.func.grad(lambda x: (x ** 2).sum())(x)
    assert not x.requires_grad and x.grad is None
