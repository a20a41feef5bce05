"""Higher-order derivatives: ``create_graph=True`` through every op, three levels deep, vs torch.

Every backward formula of minigrad is written with Tensor ops, so a gradient computed with
``create_graph=True`` has a graph of its own and can be differentiated again. These tests take
each op of the registry and each op family of ``op_families`` through three rounds of
``autograd.grad`` and compare every round with PyTorch's, and check that the graph of each
gradient has the node names of torch's (the backward formulas build what PyTorch's
derivatives build, also on an upstream gradient that requires grad); then a physics-informed
loss that needs ``u_xx`` and ``u_t`` of a small network, and the ``.grad`` of a leaf after
``backward(create_graph=True)``.
"""

import warnings

import numpy as np
import pytest
from op_families import FAMILIES
from op_registry import all_cases
from oracle import plain

import minigrad

CASES = [c for c in all_cases() + FAMILIES if c.check_grad and c.second_order]


def _inputs(lib, case, arrays):
    grad_args = case.grad_args if case.grad_args is not None else range(len(arrays))
    return [lib.tensor(a, dtype=lib.float64, requires_grad=i in grad_args)
            for i, a in enumerate(arrays)]


def _outputs(out):
    if isinstance(out, (tuple, list)):
        return [o for o in out if o.is_floating_point()]
    return [out]


def _array(t):
    """Values of a tensor of either library (torch's ZeroTensors refuse ``.numpy()``)."""
    return np.asarray((t.detach() + 0).tolist(), dtype=np.float64)


def _three_levels(lib, case, arrays):
    """Gradients of order 1, 2 and 3 of a weighted sum, as NumPy arrays (None → zeros).

    Level k+1 differentiates ``Σ wₖ · gradₖ`` (fixed random weights ``wₖ``, the same for both
    libraries), so every element of every gradient takes part.
    """
    inputs = _inputs(lib, case, arrays)
    wanted = [t for t in inputs if t.requires_grad]
    rng = np.random.default_rng(7)
    outs = _outputs(case.fn(lib, *inputs))
    scalar = sum((o * lib.tensor(rng.uniform(0.5, 1.5, tuple(o.shape)), dtype=lib.float64))
                 .sum() for o in outs)
    levels = []
    for _ in range(3):
        weights = [rng.uniform(0.5, 1.5, tuple(t.shape)) for t in wanted]
        if not scalar.requires_grad:
            levels.append([np.zeros(tuple(t.shape)) for t in wanted])
            continue
        grads = lib.autograd.grad(scalar, wanted, create_graph=True, allow_unused=True)
        levels.append([np.zeros(tuple(t.shape)) if g is None else _array(g)
                       for g, t in zip(grads, wanted)])
        terms = [(g * lib.tensor(w, dtype=lib.float64)).sum()
                 for g, w in zip(grads, weights) if g is not None]
        scalar = sum(terms) if terms else lib.tensor(0.0, dtype=lib.float64)
    return levels


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_three_levels_of_gradients_match_torch(case, oracle):
    arrays = case.make(np.random.default_rng(0))
    mine = _three_levels(minigrad, case, arrays)
    ref = oracle(lambda torch: _three_levels(torch, case, arrays))
    for order, (level, ref_level) in enumerate(zip(mine, ref), start=1):
        for i, (g, rg) in enumerate(zip(level, ref_level)):
            np.testing.assert_allclose(g, rg, rtol=1e-6, atol=1e-9,
                                       err_msg=f"order {order}, input {i}")


# ---------------------------------------------------------------------------- PINN
def _pinn_loss(lib, params, x, t, nu=0.1):
    """The residual of the heat equation u_t = ν u_xx for u(x, t) a tanh network."""
    a, b, c, w, d = params
    hidden = (x * a + t * b + c).tanh()            # (N, 1) * (H,) → (N, H)
    u = hidden @ w + d                              # (N, 1)
    ones = lib.ones_like(u)
    u_x, u_t = lib.autograd.grad(u, (x, t), ones, create_graph=True)
    (u_xx,) = lib.autograd.grad(u_x, x, lib.ones_like(u_x), create_graph=True)
    residual = u_t - nu * u_xx
    return (residual ** 2).mean(), u_x, u_t, u_xx


def _pinn(lib, seed=0, n=5, hidden=4):
    rng = np.random.default_rng(seed)
    shapes = [(hidden,), (hidden,), (hidden,), (hidden, 1), (1,)]
    params = [lib.tensor(rng.normal(0, 1, s), dtype=lib.float64, requires_grad=True)
              for s in shapes]
    x = lib.tensor(rng.uniform(-1, 1, (n, 1)), dtype=lib.float64, requires_grad=True)
    t = lib.tensor(rng.uniform(0, 1, (n, 1)), dtype=lib.float64, requires_grad=True)
    loss, u_x, u_t, u_xx = _pinn_loss(lib, params, x, t)
    loss.backward()
    return loss, u_x, u_t, u_xx, params


def test_pinn_second_derivatives_match_torch(torch):
    mine, ref = _pinn(minigrad), _pinn(torch)
    for m, r in zip(mine[:4], ref[:4]):
        np.testing.assert_allclose(m.detach().numpy(), r.detach().numpy(), rtol=1e-10)
        assert m.requires_grad == r.requires_grad
    for p, rp in zip(mine[4], ref[4]):
        assert (p.grad is None) == (rp.grad is None)  # the output bias d drops out of u_x
        if rp.grad is not None:
            np.testing.assert_allclose(p.grad.numpy(), rp.grad.numpy(), rtol=1e-9, atol=1e-12)


def test_pinn_u_xx_matches_the_closed_form():
    """For u = Σ wⱼ tanh(aⱼx + bⱼt + cⱼ): u_xx = Σ wⱼ aⱼ² · (-2 tanh · (1 - tanh²))."""
    _, _, _, u_xx, params = _pinn(minigrad)
    a, b, c, w, _ = (p.detach().numpy() for p in params)
    rng = np.random.default_rng(0)
    for s in [(4,), (4,), (4,), (4, 1), (1,)]:
        rng.normal(0, 1, s)
    x = rng.uniform(-1, 1, (5, 1))
    t = rng.uniform(0, 1, (5, 1))
    h = np.tanh(x * a + t * b + c)
    expected = (-2 * h * (1 - h ** 2) * a ** 2) @ w
    np.testing.assert_allclose(u_xx.detach().numpy(), expected, rtol=1e-10)


# ---------------------------------------------------------------------------- small classics
def test_third_derivative_of_a_cubic():
    x = minigrad.tensor([3.0], requires_grad=True)
    y = x * x * x
    (d1,) = minigrad.autograd.grad(y, x, create_graph=True)
    (d2,) = minigrad.autograd.grad(d1, x, create_graph=True)
    (d3,) = minigrad.autograd.grad(d2, x)
    assert d1.item() == 27 and d2.item() == 18 and d3.item() == 6
    assert d1.requires_grad and d2.requires_grad and not d3.requires_grad


def test_grad_of_leaf_after_backward_with_create_graph(torch, monkeypatch):
    from minigrad.autograd import api
    monkeypatch.setattr(api, "_warned_create_graph", False)
    results = []
    for lib in (minigrad, torch):
        a = lib.tensor([5.0], requires_grad=True)
        b = a * a
        b.retain_grad()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            b.backward(create_graph=True)
        messages = [str(w.message) for w in caught]
        if lib is minigrad:  # torch warns once per process: earlier tests may have used it up
            assert any(m.startswith("Using backward() with create_graph=True will create a "
                                    "reference cycle") for m in messages)
        results.append((a.grad.requires_grad, a.grad.is_leaf, type(a.grad.grad_fn).__name__,
                        b.grad.requires_grad, b.grad.is_leaf, a.grad.tolist()))
        # the gradient is itself differentiable: d(2a)/da = 2
        (second,) = lib.autograd.grad(a.grad.sum(), a)
        results.append(second.tolist())
    assert results[0] == results[2]
    assert results[1] == results[3] == [2.0]
    assert results[0][:2] == (True, False)


def test_create_graph_keeps_graph_for_repeated_backward():
    x = minigrad.tensor(2.0, requires_grad=True)
    y = x.exp() * x
    (g,) = minigrad.autograd.grad(y, x, create_graph=True)
    (h1,) = minigrad.autograd.grad(g, x, retain_graph=True)
    (h2,) = minigrad.autograd.grad(g, x)
    expected = np.exp(2.0) * (2.0 + 2)
    assert h1.item() == pytest.approx(expected) and h2.item() == pytest.approx(expected)


def test_second_order_through_a_shared_subexpression(torch):
    """A node used twice (fan-out) sums its gradients before backward continues, at order 2."""
    def f(lib):
        x = lib.tensor([0.3, -0.7, 1.1], dtype=lib.float64, requires_grad=True)
        h = x.tanh()
        y = (h * h + h.exp() * x).sum()
        (g,) = lib.autograd.grad(y, x, create_graph=True)
        (hess_diag,) = lib.autograd.grad(g.sum(), x)
        return g.detach().numpy(), hess_diag.numpy()
    for m, r in zip(f(minigrad), f(torch)):
        np.testing.assert_allclose(m, r, rtol=1e-12)


def _first_order_flags(lib, case, arrays):
    """Which gradients of ``create_graph=True`` are None, and which require grad (PyTorch's
    graph decides: relu's gradient depends on its result, so it requires grad)."""
    inputs = _inputs(lib, case, arrays)
    wanted = [t for t in inputs if t.requires_grad]
    scalar = sum(o.sum() for o in _outputs(case.fn(lib, *inputs)))
    if not scalar.requires_grad:
        return None
    grads = lib.autograd.grad(scalar, wanted, create_graph=True, allow_unused=True)
    return [None if g is None else g.requires_grad for g in grads]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_first_order_gradients_require_grad_like_torch(case, oracle):
    arrays = case.make(np.random.default_rng(0))
    expected = oracle(lambda torch: _first_order_flags(torch, case, arrays))
    assert _first_order_flags(minigrad, case, arrays) == expected


def test_relu_gradient_is_threshold_backward_like_torch(oracle):
    def run(lib):
        x = lib.tensor([1.5, -2.0, 0.5], dtype=lib.float64, requires_grad=True)
        (g,) = lib.autograd.grad(x.relu().sum(), x, create_graph=True)
        (gg,) = lib.autograd.grad(g.sum(), x)
        return (g.grad_fn.name(), g.tolist(), gg.tolist())
    results = [plain(run(minigrad)), oracle(run)]
    assert results[0] == results[1]


def test_remainder_gradient_of_the_divisor_is_differentiable_like_torch(oracle):
    """∂(a mod b)/∂b = -floor(a / b), where floor(a / b) is ``div(rounding_mode="floor")``: a
    node with a zero gradient, so the gradient requires grad and its own gradient is zero."""
    def run(lib):
        a = lib.tensor([5.5, -3.2, 0.7], dtype=lib.float64, requires_grad=True)
        b = lib.tensor([2.0, 1.5, -0.5], dtype=lib.float64, requires_grad=True)
        ga, gb = lib.autograd.grad(lib.remainder(a, b).sum(), (a, b), create_graph=True)
        second = lib.autograd.grad(gb.sum(), (a, b), allow_unused=True)
        return (ga.requires_grad, gb.requires_grad, gb.grad_fn.name(), gb.tolist(),
                        [None if g is None else g.tolist() for g in second])
    results = [plain(run(minigrad)), oracle(run)]
    assert results[0] == results[1]


def _gradient_graph_nodes(lib, case, arrays):
    """For each first-order gradient of ``create_graph=True``: the class names of the nodes
    of its graph (sorted; None for a gradient without one)."""
    inputs = _inputs(lib, case, arrays)
    wanted = [t for t in inputs if t.requires_grad]
    scalar = sum(o.sum() for o in _outputs(case.fn(lib, *inputs)))
    if not scalar.requires_grad:
        return None
    grads = lib.autograd.grad(scalar, wanted, create_graph=True, allow_unused=True)
    return [_node_names(grad) for grad in grads]


def _node_names(grad):
    """The class names of the nodes of a gradient's graph, sorted (None without a graph)."""
    names, seen = [], set()
    stack = [None if grad is None else grad.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        names.append(type(node).__name__)
        stack.extend(child for child, _ in node.next_functions)
    return sorted(names) or None


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_gradient_graphs_have_torch_nodes(case, oracle):
    """Each backward formula builds the nodes PyTorch's derivative formula builds, so the graph
    of a ``create_graph=True`` gradient reads as torch's does."""
    arrays = case.make(np.random.default_rng(0))
    expected = oracle(lambda torch: _gradient_graph_nodes(torch, case, arrays))
    assert _gradient_graph_nodes(minigrad, case, arrays) == expected


def _upstream_graph_nodes(lib, case, arrays):
    """As ``_gradient_graph_nodes``, with an upstream gradient that itself requires grad: the
    graph then also shows the ops each backward formula applies to the gradient it receives
    (a product by a number is ``MulBackward1``, a transposed product has its ``TBackward0``)."""
    inputs = _inputs(lib, case, arrays)
    wanted = [t for t in inputs if t.requires_grad]
    outs = [o for o in _outputs(case.fn(lib, *inputs)) if o.requires_grad]
    if not outs:
        return None
    rng = np.random.default_rng(1)
    upstream = [lib.tensor(rng.uniform(0.5, 1.5, tuple(o.shape)), dtype=o.dtype,
                           requires_grad=True) for o in outs]
    grads = lib.autograd.grad(outs, wanted, upstream, create_graph=True, allow_unused=True)
    return [_node_names(grad) for grad in grads]


# NB: one known difference. ``mm`` of a column-major matrix (a transposed one): PyTorch's
# mm_mat1/mm_mat2_backward compute its gradient as a transposed product (one TBackward0 more);
# minigrad's Addmm does, its Mm does not yet.
# And xlogy with a number: PyTorch's gradient graph has a MaskedFillBackward0 more (its
# formula masks where self is 0); minigrad's values are the same.
UPSTREAM_DIFFERENCES = {"matmul/2d-3d", "matmul/batch-of-one", "linalg/mm",
                        "xlogy/number-self", "xlogy/number-other"}


@pytest.mark.parametrize("case", [
    pytest.param(c, marks=pytest.mark.xfail(strict=True, reason="see UPSTREAM_DIFFERENCES"))
    if c.name in UPSTREAM_DIFFERENCES else c for c in CASES], ids=[c.name for c in CASES])
def test_gradient_graphs_of_a_differentiable_upstream_gradient_have_torch_nodes(case, oracle):
    arrays = case.make(np.random.default_rng(0))
    expected = oracle(lambda torch: _upstream_graph_nodes(torch, case, arrays))
    assert _upstream_graph_nodes(minigrad, case, arrays) == expected
