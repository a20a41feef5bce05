"""Property tests: random expression graphs, differentiated once and twice.

Hypothesis draws a small program — a few input tensors whose shapes broadcast against each
other, then a chain of unary and binary ops, each reading any earlier value (so values fan out
and meet again). For every program, in float64:

* the gradient of ``Σ w·out`` equals PyTorch's and the central finite differences;
* the Hessian-vector product (the gradient of ``Σ u·grad``, built with ``create_graph=True``)
  equals PyTorch's and the finite difference of the gradient along ``u``.

Ops are taken on domains where they are smooth (``log(x² + 1)`` rather than ``log x``), so
every derivative exists and finite differences are accurate.
"""

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import minigrad


def _last_dim(reduce):
    return lambda lib, x: reduce(x) if x.ndim else x


UNARY = {
    "neg": lambda lib, x: -x,
    "affine": lambda lib, x: 0.5 * x - 1,
    "exp": lambda lib, x: x.exp(),
    "sin": lambda lib, x: x.sin(),
    "cos": lambda lib, x: x.cos(),
    "tanh": lambda lib, x: x.tanh(),
    "sigmoid": lambda lib, x: x.sigmoid(),
    "square": lambda lib, x: x * x,
    "cube": lambda lib, x: x ** 3,
    "log": lambda lib, x: (x * x + 1).log(),
    "sqrt": lambda lib, x: (x * x + 1).sqrt(),
    "reciprocal": lambda lib, x: 1 / (x * x + 1),
    "sum": _last_dim(lambda x: x.sum(-1, keepdim=True)),
    "mean": _last_dim(lambda x: x.mean(-1, keepdim=True)),
    "softmax": _last_dim(lambda x: x.softmax(-1)),
    "logsumexp": _last_dim(lambda x: x.logsumexp(-1, keepdim=True)),
}
BINARY = {
    "add": lambda lib, a, b: a + b,
    "sub": lambda lib, a, b: a - b,
    "mul": lambda lib, a, b: a * b,
    "div": lambda lib, a, b: a / (b * b + 1),
    "pow": lambda lib, a, b: (a * a + 1) ** b.tanh(),
}


@st.composite
def programs(draw):
    """``(leaf shapes, steps)``; a step is ``(op, i)`` or ``(op, i, j)`` over earlier values."""
    base = draw(st.lists(st.integers(1, 3), min_size=0, max_size=3))
    leaves = []
    for _ in range(draw(st.integers(1, 3))):
        kept = draw(st.integers(0, len(base)))
        trailing = base[len(base) - kept:]
        leaves.append(tuple(n if draw(st.booleans()) else 1 for n in trailing))
    steps = []
    for _ in range(draw(st.integers(1, 6))):
        available = len(leaves) + len(steps)
        if draw(st.booleans()):
            steps.append((draw(st.sampled_from(sorted(UNARY))),
                          draw(st.integers(0, available - 1))))
        else:
            steps.append((draw(st.sampled_from(sorted(BINARY))),
                          draw(st.integers(0, available - 1)),
                          draw(st.integers(0, available - 1))))
    return leaves, steps


def _run(lib, program, arrays):
    """The output of the program on ``arrays`` (leaves that require grad) and the leaves."""
    leaves = [lib.tensor(a, dtype=lib.float64, requires_grad=True) for a in arrays]
    values = list(leaves)
    for op, *operands in program[1]:
        table = UNARY if len(operands) == 1 else BINARY
        values.append(table[op](lib, *(values[i] for i in operands)))
    return values[-1], leaves


def _data(program, seed=0):
    rng = np.random.default_rng(seed)
    arrays = [rng.uniform(-1, 1, shape) for shape in program[0]]
    directions = [rng.uniform(-1, 1, shape) for shape in program[0]]
    return arrays, directions


def _weights(shape):
    """The weights w of ``Σ w·out``: fixed for a given output shape."""
    return np.random.default_rng(99).uniform(0.5, 1.5, tuple(shape))


def _derivatives(lib, program, arrays, directions):
    """(gradient, Hessian·u) of ``Σ w·out`` with respect to every leaf, as NumPy arrays."""
    out, leaves = _run(lib, program, arrays)
    scalar = (out * lib.tensor(_weights(out.shape), dtype=lib.float64)).sum()
    grads = lib.autograd.grad(scalar, leaves, create_graph=True, allow_unused=True)
    grads = [lib.zeros_like(x) if g is None else g for g, x in zip(grads, leaves)]
    dot = sum((g * lib.tensor(u, dtype=lib.float64)).sum() for g, u in zip(grads, directions))
    if dot.requires_grad:
        hvp = lib.autograd.grad(dot, leaves, allow_unused=True)
    else:
        hvp = [None] * len(leaves)
    return ([_as_array(g, x) for g, x in zip(grads, leaves)],
            [_as_array(h, x) for h, x in zip(hvp, leaves)])


def _as_array(t, like):
    """Values of a tensor of either library; None (no dependence) is zeros."""
    if t is None:
        return np.zeros(tuple(like.shape))
    return np.asarray((t.detach() + 0).tolist(), dtype=np.float64)


def _scalar(program, arrays):
    with minigrad.no_grad():
        out, _ = _run(minigrad, program, arrays)
    return float((out.detach().numpy() * _weights(out.shape)).sum())


def _close(actual, expected, rtol):
    scale = max(1.0, float(np.max(np.abs(expected))) if expected.size else 1.0)
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=rtol * scale)


SETTINGS = settings(max_examples=40, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


@SETTINGS
@given(program=programs())
def test_first_and_second_order_match_torch(program, torch):
    data = _data(program)
    mine = _derivatives(minigrad, program, *data)
    ref = _derivatives(torch, program, *data)
    for order, (level, ref_level) in enumerate(zip(mine, ref), start=1):
        for g, rg in zip(level, ref_level):
            assert g.shape == rg.shape, f"order {order}"
            _close(g, rg, rtol=1e-6)


@SETTINGS
@given(program=programs())
def test_first_and_second_order_match_finite_differences(program):
    arrays, directions = _data(program)
    grads, hvp = _derivatives(minigrad, program, arrays, directions)
    eps = 1e-6
    for k, a in enumerate(arrays):          # gradient: one central difference per element
        numerical = np.zeros_like(a)
        for index in np.ndindex(a.shape):
            shifted = [x.copy() for x in arrays]
            shifted[k][index] += eps
            above = _scalar(program, shifted)
            shifted[k][index] -= 2 * eps
            below = _scalar(program, shifted)
            numerical[index] = (above - below) / (2 * eps)
        _close(grads[k], numerical, rtol=1e-5)
    # Hessian·u: the central difference of the gradient along u
    step = 1e-5
    plus = [x + step * u for x, u in zip(arrays, directions)]
    minus = [x - step * u for x, u in zip(arrays, directions)]
    g_plus = _derivatives(minigrad, program, plus, directions)[0]
    g_minus = _derivatives(minigrad, program, minus, directions)[0]
    for h, gp, gm in zip(hvp, g_plus, g_minus):
        _close(h, (gp - gm) / (2 * step), rtol=1e-4)


def test_programs_cover_broadcasting_and_fan_out():
    """A fixed program, as a readable example of what the strategy draws."""
    program = ([(2, 3), (3,), (1, 1)], [("mul", 0, 1), ("tanh", 3), ("pow", 4, 2),
                                        ("add", 5, 3), ("softmax", 6), ("div", 7, 0)])
    arrays, directions = _data(program)
    out, _ = _run(minigrad, program, arrays)
    assert tuple(out.shape) == (2, 3)
    grads, hvp = _derivatives(minigrad, program, arrays, directions)
    assert [g.shape for g in grads] == [(2, 3), (3,), (1, 1)]
    assert all(np.all(np.isfinite(h)) for h in hvp)
