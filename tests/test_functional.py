"""``autograd.functional``: values, return structures, flags and errors, against torch.

Each function is called the same way in both libraries and the results are compared as trees:
the same nesting of tuples (or lists, where PyTorch returns lists), the same shapes and values,
the same ``requires_grad`` on every leaf.
"""

import numpy as np
import pytest
from oracle import assert_matches, plain, to_plain

import minigrad

RNG = np.random.default_rng(0)
A, B = RNG.normal(size=(2, 3)), RNG.normal(size=3)
VA, VB = RNG.normal(size=(2, 3)), RNG.normal(size=3)


def _tree(result):
    """A result as plain data that keeps tuples apart from lists (torch returns both)."""
    if isinstance(result, (tuple, list)):
        return {type(result).__name__: [_tree(r) for r in result]}
    return to_plain(result)


def _same(mine, ref, path="result"):
    """Two ``_tree``s have the same structure, shapes, values and requires_grad."""
    if "tensor" not in ref:
        assert mine.keys() == ref.keys(), f"{path}: {list(mine)} != {list(ref)}"
        (kind,) = ref
        assert len(mine[kind]) == len(ref[kind]), path
        for i, (m, r) in enumerate(zip(mine[kind], ref[kind])):
            _same(m, r, f"{path}[{i}]")
        return
    assert "tensor" in mine, path
    assert mine["shape"] == ref["shape"], path
    np.testing.assert_allclose(mine["tensor"], ref["tensor"], rtol=1e-10, atol=1e-12,
                               err_msg=path)
    assert mine["requires_grad"] == ref["requires_grad"], f"{path}: requires_grad"


def _against_torch(oracle, run):
    """``run(lib)`` in both libraries, compared as trees."""
    _same(_tree(run(minigrad)), oracle(lambda torch: _tree(run(torch))))


def _tensors(lib, *arrays, requires_grad=True):
    return tuple(lib.tensor(a, dtype=lib.float64, requires_grad=requires_grad) for a in arrays)


FUNCS = {
    "one-to-one": (lambda lib: lambda x: (x.exp() * x).sin(), "a"),
    "one-to-many": (lambda lib: lambda x: (x.tanh(), (x * x).sum()), "a"),
    "many-to-one": (lambda lib: lambda x, y: (x * y).cos() + y, "ab"),
    "many-to-many": (lambda lib: lambda x, y: ((x * y).sin(), (x.exp() @ y).sum()), "ab"),
    "ignores-an-input": (lambda lib: lambda x, y: x.exp(), "ab"),
}
SCALAR_FUNCS = {
    "one": (lambda lib: lambda x: (x.sin() * x.exp()).sum(), "a"),
    "two": (lambda lib: lambda x, y: ((x * y).tanh() * y).sum(), "ab"),
    "linear-in-y": (lambda lib: lambda x, y: (x.sin() * x).sum() + y.sum(), "ab"),
}


def _args(lib, which, requires_grad=True):
    arrays = {"a": A, "b": B}
    tensors = _tensors(lib, *[arrays[k] for k in which], requires_grad=requires_grad)
    return tensors if len(which) > 1 else tensors[0]


def _v_like_inputs(lib, which):
    arrays = {"a": VA, "b": VB}
    tensors = _tensors(lib, *[arrays[k] for k in which], requires_grad=False)
    return tensors if len(which) > 1 else tensors[0]


def _v_like_outputs(lib, func, which):
    out = func(*(_args(lib, which, False) if len(which) > 1 else (_args(lib, which, False),)))
    rng = np.random.default_rng(1)
    if isinstance(out, tuple):
        return tuple(lib.tensor(rng.normal(size=tuple(o.shape)), dtype=lib.float64)
                     for o in out)
    return lib.tensor(rng.normal(size=tuple(out.shape)), dtype=lib.float64)


@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize("name", list(FUNCS))
def test_jacobian_vjp_jvp_match_torch(name, create_graph, oracle):
    make, which = FUNCS[name]
    def run(lib):
        F, func = lib.autograd.functional, make(lib)
        return (
            F.jacobian(func, _args(lib, which), create_graph=create_graph),
            F.vjp(func, _args(lib, which), _v_like_outputs(lib, func, which),
                  create_graph=create_graph),
            F.jvp(func, _args(lib, which), _v_like_inputs(lib, which),
                  create_graph=create_graph),
        )
    _against_torch(oracle, run)


@pytest.mark.parametrize("name", list(FUNCS))
def test_forward_mode_jacobian_matches_torch(name, oracle):
    make, which = FUNCS[name]
    _against_torch(oracle, lambda lib: lib.autograd.functional.jacobian(
        make(lib), _args(lib, which), vectorize=True, strategy="forward-mode"))


@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize("name", list(SCALAR_FUNCS))
def test_hessian_vhp_hvp_match_torch(name, create_graph, oracle):
    make, which = SCALAR_FUNCS[name]
    def run(lib):
        F, func = lib.autograd.functional, make(lib)
        v = _v_like_inputs(lib, which)
        return (F.hessian(func, _args(lib, which), create_graph=create_graph),
                        F.vhp(func, _args(lib, which), v, create_graph=create_graph),
                        F.hvp(func, _args(lib, which), v, create_graph=create_graph))
    _against_torch(oracle, run)


def test_inputs_that_do_not_require_grad(oracle):
    """The inputs are copied: the caller's tensors never get gradients, results are detached."""
    def run(lib):
        F = lib.autograd.functional
        x = lib.tensor(A, dtype=lib.float64)
        result = (F.jacobian(lambda t: t ** 3, x), F.vjp(lambda t: (t ** 3).sum(), x),
                  F.hessian(lambda t: (t ** 3).sum(), x))
        assert x.grad is None
        return result
    _against_torch(oracle, run)


def test_single_element_inputs_need_no_v(oracle):
    def run(lib):
        F = lib.autograd.functional
        x = lib.tensor([0.7], dtype=lib.float64)
        return (F.jvp(lambda t: t.exp() * 2, x), F.vjp(lambda t: t.exp().sum(), x),
                        F.hvp(lambda t: t.exp().sum(), x), F.vhp(lambda t: t.exp().sum(), x))
    _against_torch(oracle, run)


def test_classic_closed_forms():
    F = minigrad.autograd.functional
    x = minigrad.tensor([1.0, 2.0, 3.0], dtype=minigrad.float64)
    np.testing.assert_allclose(F.jacobian(lambda t: t ** 2, x).numpy(), np.diag([2.0, 4, 6]))
    np.testing.assert_allclose(F.hessian(lambda t: (t ** 3).sum(), x).numpy(),
                               np.diag([6.0, 12, 18]))
    _, hv = F.hvp(lambda t: (t[0] * t[1] * t[2]), x, minigrad.ones(3, dtype=minigrad.float64))
    np.testing.assert_allclose(hv.numpy(), [5.0, 4.0, 3.0])   # rows of [[0,z,y],[z,0,x],[y,x,0]]


# ---------------------------------------------------------------------------- errors
def _error(fn):
    try:
        fn()
    except Exception as error:  # noqa: BLE001 - the type is part of what is compared
        return type(error).__name__, str(error).replace("torch.", "minigrad.")
    return None


ERRORS = {
    "strict-output-independent": lambda lib, F: F.vjp(
        lambda x, y: x * 2, _tensors(lib, A, B), _tensors(lib, VA)[0], strict=True),
    "strict-output-no-grad": lambda lib, F: F.jacobian(
        lambda x: x.detach() * 2, _tensors(lib, A)[0], strict=True),
    "strict-jacobian-independent": lambda lib, F: F.jacobian(
        lambda x, y: x.exp(), _tensors(lib, A, B), strict=True),
    "strict-jacobian-create-graph": lambda lib, F: F.jacobian(
        lambda x: x * 2, _tensors(lib, A)[0], create_graph=True, strict=True),
    "strict-jvp-independent": lambda lib, F: F.jvp(
        lambda x, y: x * 2, _tensors(lib, A, B), _tensors(lib, VA, VB), strict=True),
    "strict-hessian-linear": lambda lib, F: F.hessian(
        lambda x: x.sum() * 2, _tensors(lib, B)[0], strict=True),
    "strict-vhp-linear": lambda lib, F: F.vhp(
        lambda x: x.sum() * 2, _tensors(lib, B)[0], _tensors(lib, VB)[0], strict=True),
    "strict-hvp-linear": lambda lib, F: F.hvp(
        lambda x, y: (x * x).sum() + y.sum(), _tensors(lib, A, B), _tensors(lib, VA, VB),
        strict=True),
    "v-missing": lambda lib, F: F.vjp(lambda x: x * 2, _tensors(lib, A)[0]),
    "v-missing-jvp": lambda lib, F: F.jvp(lambda x: x * 2, _tensors(lib, A)[0]),
    "v-wrong-length": lambda lib, F: F.vjp(
        lambda x: (x, x), _tensors(lib, A)[0], _tensors(lib, VA)),
    "v-single-expected": lambda lib, F: F.jvp(
        lambda x: x, _tensors(lib, A)[0], _tensors(lib, VA, VA)),
    "v-wrong-size": lambda lib, F: F.jvp(
        lambda x, y: x, _tensors(lib, A, B), _tensors(lib, VA, VA)),
    "v-wrong-size-single": lambda lib, F: F.vhp(
        lambda x: x.sum(), _tensors(lib, A)[0], _tensors(lib, VB)[0]),
    "inputs-not-tensors": lambda lib, F: F.jacobian(lambda x: x, [1.0, 2.0]),
    "tuple-with-number": lambda lib, F: F.jacobian(lambda x, y: x, (_tensors(lib, A)[0], 2)),
    "output-not-tensor": lambda lib, F: F.vjp(lambda x: 3.0, _tensors(lib, A)[0]),
    "hessian-tuple-output": lambda lib, F: F.hessian(
        lambda x: (x.sum(), x.sum()), _tensors(lib, A)[0]),
    "hessian-not-scalar": lambda lib, F: F.hessian(lambda x: x * 2, _tensors(lib, A)[0]),
    "hvp-not-scalar": lambda lib, F: F.hvp(
        lambda x: x * 2, _tensors(lib, A)[0], _tensors(lib, VA)[0]),
    "vhp-tuple-output": lambda lib, F: F.vhp(
        lambda x: (x.sum(),), _tensors(lib, A)[0], _tensors(lib, VA)[0]),
    "bad-strategy": lambda lib, F: F.jacobian(lambda x: x, _tensors(lib, A)[0],
                                              strategy="sideways"),
    "forward-mode-create-graph": lambda lib, F: F.jacobian(
        lambda x: x, _tensors(lib, A)[0], create_graph=True, strategy="forward-mode"),
    "forward-mode-strict": lambda lib, F: F.jacobian(
        lambda x: x, _tensors(lib, A)[0], strict=True, vectorize=True,
        strategy="forward-mode"),
    "forward-mode-not-vectorized": lambda lib, F: F.jacobian(
        lambda x: x, _tensors(lib, A)[0], strategy="forward-mode"),
    "vectorize-strict": lambda lib, F: F.jacobian(
        lambda x: x * 2, _tensors(lib, A)[0], strict=True, vectorize=True),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_match_torch(name, oracle):
    mine = _error(lambda: ERRORS[name](minigrad, minigrad.autograd.functional))
    ref = oracle(lambda torch: _error(lambda: ERRORS[name](torch, torch.autograd.functional)))
    assert ref is not None and plain(mine) == ref


# ---------------------------------------------------------------- forward-over-reverse, basis
def _hessian_strategies(lib):
    """The Hessian by reverse-over-reverse and by forward-over-reverse agree (and equal
    torch's), also with several inputs and with an input the output does not use."""
    F = lib.autograd.functional
    x = lib.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], dtype=lib.float64)
    y = lib.tensor([[1.0, 2.0], [-1.0, 0.5], [0.25, 3.0]], dtype=lib.float64)
    unused = lib.tensor([1.0, 2.0], dtype=lib.float64)
    cases = {
        "one": (lambda a: (a ** 3).sum(), x),
        "two": (lambda a, b: ((a.sin() * a) @ b.cos()).sum(), (x, y)),
        "unused": (lambda a, b: (a ** 2).sum(), (x, unused)),
    }
    def values(h):  # (the history of the forward-mode result is vmap's, in torch)
        return [values(t) for t in h] if isinstance(h, (tuple, list)) else h.detach()

    out = {}
    for name, (func, inputs) in cases.items():
        for strategy in ("reverse-mode", "forward-mode"):
            out[f"{name} {strategy}"] = values(F.hessian(func, inputs, vectorize=True,
                                                         outer_jacobian_strategy=strategy))
    return out


def test_hessian_forward_over_reverse(oracle):
    assert_matches(_hessian_strategies(minigrad), oracle(_hessian_strategies), rtol=1e-12)


@pytest.mark.parametrize("shapes", [[(2, 3)], [()], [(1,), (), ()], [(2,), (3,), ()],
                                    [(2, 3), (3,), (3, 4, 2)]])
def test_construct_standard_basis_for(oracle, shapes):
    def run(lib):
        dtypes = [lib.float64 if i % 2 else lib.float32 for i in range(len(shapes))]
        tensors = [lib.zeros(s, dtype=d) for s, d in zip(shapes, dtypes)]
        numels = tuple(t.numel() for t in tensors)
        return lib.autograd.functional._construct_standard_basis_for(tensors, numels)
    assert_matches(run(minigrad), oracle(run))
