"""``tile``, ``repeat_interleave``, ``tensordot``, ``bincount``, ``count_nonzero``,
``tril_indices``/``triu_indices``, ``logit`` (and ``minigrad.special.logit``/``expit``),
``xlogy`` and ``hypot`` against torch 2.13: values, dtypes, node names, graphs, gradients and
PyTorch's errors."""

import numpy as np
import pytest
from cases_ops_more import CASES as LOGODDS_CASES
from oracle import assert_matches
from parity_expr import agree

import minigrad
from minigrad.autograd import gradcheck, gradgradcheck

M = "T.arange(6.0).reshape(2, 3)"
G = f"{M}.requires_grad_()"
P = "T.tensor([0.1, 0.25, 0.5, 0.9])"

CASES = {
    # tile
    "tile": f"T.tile({M}, (2,))",
    "tile-more-dims": f"T.tile({G}, (2, 1, 2))",
    "tile-method": f"{M}.tile(2, 2)",
    "tile-method-tuple": f"{M}.tile((1, 3))",
    "tile-empty": f"T.tile({G}, ())",
    "tile-int": "T.tile(T.tensor([1, 2]), (3,))",
    "tile-list": f"{M}.tile([2])",
    "tile-no-dims": f"{M}.tile()",
    "tile-int-dims": f"T.tile({M}, 2)",
    "tile-str": f"T.tile({M}, 'a')",
    "tile-method-str": f"{M}.tile('a')",
    "tile-method-bool": f"{M}.tile(True)",
    # repeat_interleave
    "ri-int": f"T.repeat_interleave({G}, 2)",
    "ri-int-dim": f"{G}.repeat_interleave(2, 0)",
    "ri-int-dim1": f"{M}.repeat_interleave(3, dim=-1)",
    "ri-zero": f"{M}.repeat_interleave(0)",
    "ri-output-size": f"{M}.repeat_interleave(2, output_size=12)",
    "ri-1d": "T.tensor([1, 2, 3]).repeat_interleave(2)",
    "ri-0d": "T.tensor(5).repeat_interleave(3)",
    "ri-tensor": f"{G}.repeat_interleave(T.tensor([1, 2]), 0)",
    "ri-tensor-one": f"{G}.repeat_interleave(T.tensor([2]), 1)",
    "ri-tensor-0d": f"{M}.repeat_interleave(T.tensor(2), 1)",
    "ri-tensor-flat": f"{M}.repeat_interleave(T.tensor([1, 0, 2, 1, 0, 1]))",
    "ri-tensor-output-size": f"{M}.repeat_interleave(T.tensor([1, 2, 0]), dim=1, "
                             "output_size=3)",
    "ri-index": "T.repeat_interleave(T.tensor([2, 0, 1]))",
    "ri-index-int32": "T.repeat_interleave(T.tensor([1, 2], dtype=T.int32))",
    "ri-index-output-size": "T.repeat_interleave(T.tensor([2, 0, 1]), output_size=3)",
    "ri-empty": "T.ones(0, requires_grad=True).repeat_interleave(2)",
    "ri-negative": f"{M}.repeat_interleave(-1)",
    "ri-tensor-negative": f"{M}.repeat_interleave(T.tensor([-1, 2]), 0)",
    "ri-tensor-size": f"{M}.repeat_interleave(T.tensor([1, 2, 3]), 0)",
    "ri-tensor-size-flat": f"{M}.repeat_interleave(T.tensor([1, 2]))",
    "ri-tensor-float": f"{M}.repeat_interleave(T.tensor([1.0, 2.0]), 0)",
    "ri-tensor-2d": f"{M}.repeat_interleave(T.tensor([[1, 2]]), 0)",
    "ri-dim-range": f"{M}.repeat_interleave(2, 5)",
    "ri-float": f"{M}.repeat_interleave(2.5)",
    "ri-bad-output-size": f"{M}.repeat_interleave(2, output_size=5)",
    "ri-tensor-bad-output-size": f"{M}.repeat_interleave(T.tensor([1, 2]), 0, output_size=4)",
    "ri-index-2d": "T.repeat_interleave(T.tensor([[2, 0, 1]]))",
    "ri-index-bad-output-size": "T.repeat_interleave(T.tensor([2, 0, 1]), output_size=4)",
    # tensordot
    "td-default": "T.tensordot(T.arange(24.0).reshape(2, 3, 4), T.arange(12.0).reshape(3, 4))",
    "td-int": f"T.tensordot({G}, T.arange(12.0).reshape(3, 4), 1)",
    "td-zero": "T.tensordot(T.arange(3.0), T.arange(2.0), 0)",
    "td-lists": "T.tensordot(T.arange(24.0).reshape(2, 3, 4), T.arange(60.0).reshape(4, 3, 5), "
                "([1, 2], [1, 0]))",
    "td-lists-negative": f"T.tensordot({M}, {M}, ([-1], [-1]))",
    "td-tuple-of-tuples": f"T.tensordot({M}, {M}, ((0, 1), (0, 1)))",
    "td-full": f"T.tensordot({G}, {M}, 2)",
    "td-vectors": "T.tensordot(T.arange(3.0), T.arange(3.0), 1)",
    "td-broadcast-one": "T.tensordot(T.ones(3, 1), T.ones(2, 4), ([1], [0]))",
    "td-int-dtype": "T.tensordot(T.arange(3), T.arange(3), 1)",
    "td-tensor-dims": f"T.tensordot({M}, {M}, dims=T.tensor([[0], [0]]))",
    "td-empty": "T.tensordot(T.ones(0, 3), T.ones(3), 1)",
    "td-dtype": "T.tensordot(T.ones(3), T.ones(3).double(), 1)",
    "td-too-many": "T.tensordot(T.ones(3), T.ones(3), 2)",
    "td-negative": "T.tensordot(T.ones(3), T.ones(3), -1)",
    "td-size": "T.tensordot(T.ones(3), T.ones(4), 1)",
    "td-lengths": "T.tensordot(T.ones(3), T.ones(3), ([0], [0, 0]))",
    "td-repeated": "T.tensordot(T.ones(1, 3), T.ones(1, 3), ([1, 1], [1, 1]))",
    "td-float-dims": "T.tensordot(T.ones(3), T.ones(3), 1.5)",
    "td-dim-range": "T.tensordot(T.ones(3), T.ones(3), ([5], [0]))",
    "td-pair-of-ints": "T.tensordot(T.ones(3), T.ones(3), (0, 0))",
    # bincount
    "bincount": "T.bincount(T.tensor([1, 1, 3]))",
    "bincount-minlength": "T.tensor([0, 2]).bincount(minlength=4)",
    "bincount-weights": "T.bincount(T.tensor([1, 1, 3]), T.tensor([0.5, 1.0, 2.0]), minlength=6)",
    "bincount-weights-double": "T.bincount(T.tensor([1, 1]), T.tensor([0.5, 1.0]).double())",
    "bincount-weights-int": "T.bincount(T.tensor([1, 2]), T.tensor([5, 1]))",
    "bincount-weights-bool": "T.bincount(T.tensor([1, 2]), T.tensor([True, False]))",
    "bincount-int32": "T.bincount(T.tensor([1, 2], dtype=T.int32))",
    "bincount-empty": "T.bincount(T.tensor([], dtype=T.long))",
    "bincount-2d": "T.bincount(T.tensor([[1]]))",
    "bincount-negative": "T.bincount(T.tensor([-1]))",
    "bincount-float": "T.bincount(T.tensor([1.0]))",
    "bincount-bool": "T.bincount(T.tensor([True]))",
    "bincount-weights-size": "T.bincount(T.tensor([1, 2]), T.tensor([1.0]))",
    "bincount-minlength-negative": "T.bincount(T.tensor([1]), minlength=-1)",
    # count_nonzero
    "cnz": "T.count_nonzero(T.tensor([[0, 1], [2, 0.0]]))",
    "cnz-dim": "T.count_nonzero(T.tensor([[0, 1], [2, 3.0]]), 1)",
    "cnz-dims": "T.count_nonzero(T.tensor([[0, 1], [2, 0.0]]), (0, 1))",
    "cnz-dim-list": "T.count_nonzero(T.ones(2, 2), dim=[0])",
    "cnz-bool": "T.tensor([True, False]).count_nonzero()",
    "cnz-0d": "T.count_nonzero(T.tensor(3.0), 0)",
    "cnz-grad": "T.count_nonzero(T.ones(2, requires_grad=True))",
    "cnz-dim-range": "T.count_nonzero(T.ones(2), 1)",
    "cnz-repeated": "T.count_nonzero(T.ones(2, 2), (0, 0))",
    # tril_indices / triu_indices
    "tril": "T.tril_indices(3, 3)",
    "tril-offset": "T.tril_indices(3, 2, -1)",
    "tril-far": "T.tril_indices(3, 3, 10)",
    "tril-int32": "T.tril_indices(3, 3, dtype=T.int32)",
    "tril-empty": "T.tril_indices(0, 3)",
    "triu": "T.triu_indices(3, 4, 1)",
    "triu-offset": "T.triu_indices(2, 3, -1)",
    "triu-far": "T.triu_indices(3, 3, 10)",
    "tril-negative": "T.tril_indices(-1, 3)",
    "triu-float": "T.triu_indices(3, 3, dtype=T.float32)",
    "tril-bool": "T.tril_indices(3, 3, dtype=T.bool)",
    # logit / expit
    "logit": f"T.logit({P})",
    "logit-method": f"{P}.logit()",
    "logit-edges": "T.logit(T.tensor([0.0, 1.0, 2.0, -1.0]))",
    "logit-eps": "T.logit(T.tensor([0.0, 0.25, 1.0, 2.0]), eps=0.1)",
    "logit-eps-negative": "T.logit(T.tensor([0.0, 0.25, 1.0]), eps=-1.0)",
    "logit-eps-large": "T.logit(T.tensor([0.2], dtype=T.float64), 1)",
    "logit-int": "T.logit(T.tensor([0, 1]))",
    "logit-double": f"T.logit({P}.double())",
    "logit-node": f"T.logit({P}.requires_grad_(), 0.2)",
    "logit-saved": f"(lambda f: (f._saved_eps, f._saved_self))(T.logit({P}.requires_grad_(), "
                   "0.2).grad_fn)",
    "logit-saved-none": f"T.logit({P}.requires_grad_()).grad_fn._saved_eps",
    "logit-grad": "(lambda x: T.logit(x).sum().backward() or x.grad)"
                  "(T.tensor([0.25, 0.5, 0.0, 1.5], requires_grad=True))",
    "logit-grad-eps": "(lambda x: T.logit(x, 0.2).sum().backward() or x.grad)"
                      "(T.tensor([0.1, 0.5, 0.2, 0.9], requires_grad=True))",
    "logit-eps-str": f"T.logit({P}, 'a')",
    "special-logit": f"T.special.logit({P})",
    "special-expit": "T.special.expit(T.tensor([0.0, 1.0, -2.0], requires_grad=True))",
    "special-expit-int": "T.special.expit(T.tensor([0, 1]))",
    "special-xlogy": "T.special.xlogy(T.tensor([0.0, 2.0]), 3.0)",
    # xlogy
    "xlogy": "T.xlogy(T.tensor([0.0, 1.0, 2.0, 0.0]), T.tensor([0.0, 3.0, 0.5, float('nan')]))",
    "xlogy-int": "T.xlogy(T.tensor([0, 1, 2]), T.tensor([0, 3, 4]))",
    "xlogy-number-other": "T.xlogy(T.tensor([0, 1]), 2)",
    "xlogy-number-self": "T.xlogy(2, T.tensor([1, 4]))",
    "xlogy-broadcast": f"T.xlogy({M}, T.tensor([1.0, 2.0, 3.0]))",
    "xlogy-double": "T.xlogy(T.tensor([1.0]), T.tensor([2.0], dtype=T.float64))",
    "xlogy-bool": "T.xlogy(T.tensor([True]), T.tensor([2]))",
    "xlogy-method": "T.tensor([2.0]).xlogy(3)",
    "xlogy-node0": f"T.xlogy({G}, T.tensor([1.0, 2.0, 3.0], requires_grad=True))",
    "xlogy-node1": f"T.xlogy(2.0, {G})",
    "xlogy-node2": f"T.xlogy({G}, 2.0)",
    "xlogy-grad": "(lambda x, y: T.xlogy(x, y).sum().backward() or (x.grad, y.grad))("
                  "T.tensor([[0.0, 1.0], [2.0, 3.0]], requires_grad=True), "
                  "T.tensor([0.5, 2.0], requires_grad=True))",
    "xlogy-numbers": "T.xlogy(2.0, 3.0)",
    "xlogy-shapes": "T.xlogy(T.ones(2), T.ones(3))",
    "xlogy-list": "T.tensor([1.0]).xlogy([2.0])",
    # hypot
    "hypot": "T.hypot(T.tensor([3.0, 5.0]), T.tensor([4.0, 12.0]))",
    "hypot-broadcast": f"T.hypot({G}, T.tensor([1.0, 2.0, 3.0]))",
    "hypot-double": "T.hypot(T.tensor([3.0]), T.tensor([4.0], dtype=T.float64))",
    "hypot-method": "T.tensor([3.0]).hypot(T.tensor([4.0]))",
    "hypot-grad": "(lambda a, b: T.hypot(a, b).sum().backward() or (a.grad, b.grad))("
                  "T.tensor([3.0, 1.0], requires_grad=True), "
                  "T.tensor([[4.0, 1.0], [0.0, 2.0]], requires_grad=True))",
    "hypot-saved": "(lambda f: (f._saved_self, f._saved_other, f._saved_result))(T.hypot("
                   "T.tensor([3.0], requires_grad=True), T.tensor([4.0])).grad_fn)",
    "hypot-int": "T.hypot(T.tensor([3, 4]), T.tensor([4, 3]))",
    "hypot-number": "T.hypot(T.tensor([3.0]), 4.0)",
    "hypot-method-number": "T.tensor([3.0]).hypot(4.0)",
    "hypot-shapes": "T.hypot(T.ones(2), T.ones(3))",
    # in place
    "logit_": "T.tensor([0.25, 0.9]).logit_()",
    "logit_-eps": "T.tensor([3.0], requires_grad=True).clone().logit_(0.1)",
    "logit_-int": "T.tensor([1, 2]).logit_()",
    "xlogy_": "T.tensor([1.0, 2.0]).xlogy_(2)",
    "xlogy_-tensor": "T.tensor([3.0], requires_grad=True).clone().xlogy_(T.tensor([2.0]))",
    "xlogy_-int": "T.tensor([1, 2]).xlogy_(2)",
    "hypot_": "T.tensor([3.0, 2.0]).hypot_(T.tensor([4.0, 1.0]))",
    "hypot_-graph": "T.tensor([3.0], requires_grad=True).clone().hypot_(T.tensor([2.0]))",
    "hypot_-grad": "(lambda x: x.clone().hypot_(T.tensor([4.0])).sum().backward() or x.grad)"
                   "(T.tensor([3.0], requires_grad=True))",
}


@pytest.mark.parametrize("src", CASES.values(), ids=CASES.keys())
def test_matches_torch(oracle, src):
    agree(oracle, src, rtol=1e-6)


def _graph(t):
    """The node names of ``t``'s graph, depth first, with their depth."""
    out, stack = [], [(t.grad_fn, 0)]
    while stack:
        node, depth = stack.pop()
        if node is not None:
            out.append(f"{depth}:{type(node).__name__}")
            stack.extend((child, depth + 1) for child, _ in node.next_functions)
    return out


GRAPHS = {
    "tile": lambda T, x, v: T.tile(x, (2,)),
    "ri-int": lambda T, x, v: T.repeat_interleave(x, 2),
    "ri-int-dim": lambda T, x, v: x.repeat_interleave(2, 1),
    "ri-1d": lambda T, x, v: v.repeat_interleave(3),
    "ri-tensor": lambda T, x, v: x.repeat_interleave(T.tensor([1, 2]), 0),
    "td-mm": lambda T, x, v: T.tensordot(x, x.T, 1),
    "td-matrix-vector": lambda T, x, v: T.tensordot(x, v, 1),
    "td-vector-matrix": lambda T, x, v: T.tensordot(v, x.T, 1),
    "td-dot": lambda T, x, v: T.tensordot(v, v, 1),
    "td-full": lambda T, x, v: T.tensordot(x, x, ([0, 1], [0, 1])),
    "td-outer": lambda T, x, v: T.tensordot(v, v, 0),
    "td-permuted": lambda T, x, v: T.tensordot(x.reshape(2, 3, 1) * T.ones(2, 3, 4),
                                               T.ones(4, 3, 5), ([1, 2], [1, 0])),
    "td-sums": lambda T, x, v: T.tensordot(x[:1], x[:1], 2),
    "td-scalars": lambda T, x, v: T.tensordot(v[0], v[1], 0),
    "logit": lambda T, x, v: T.logit(v / 4),
    "expit": lambda T, x, v: T.special.expit(v),
    "xlogy": lambda T, x, v: T.xlogy(x, v),
    "hypot": lambda T, x, v: T.hypot(x, v),
}


@pytest.mark.parametrize("name", GRAPHS)
def test_graph_is_torchs(oracle, name):
    def run(lib):
        x = lib.arange(1.0, 7.0).reshape(2, 3).requires_grad_()
        v = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        return _graph(GRAPHS[name](lib, x, v))
    assert run(minigrad) == oracle(run)


def _double(*shape, low=-2.0, high=2.0, seed=0):
    data = np.random.default_rng(seed).uniform(low, high, shape)
    return minigrad.tensor(data, dtype=minigrad.float64, requires_grad=True)


GRADCHECKS = {
    "tile": (lambda x: x.tile(2, 1, 3), [(2, 3)]),
    "ri-int": (lambda x: x.repeat_interleave(3, 1), [(2, 3)]),
    "ri-flat": (lambda x: x.repeat_interleave(2), [(2, 3)]),
    "ri-tensor": (lambda x: x.repeat_interleave(minigrad.tensor([2, 0, 1]), 1), [(2, 3)]),
    "td": (lambda a, b: minigrad.tensordot(a, b, ([1, 2], [1, 0])), [(2, 3, 4), (4, 3, 2)]),
    "td-dot": (lambda a, b: minigrad.tensordot(a, b, 2), [(2, 3), (2, 3)]),
    "td-broadcast": (lambda a, b: minigrad.tensordot(a, b, ([1], [0])), [(3, 1), (2, 4)]),
    "xlogy": (lambda a, b: minigrad.xlogy(a, b.abs() + 0.5), [(2, 3), (3,)]),
    "xlogy-number-self": (lambda b: minigrad.xlogy(2.5, b.abs() + 0.5), [(3,)]),
    "xlogy-number-other": (lambda a: minigrad.xlogy(a, 2.5), [(3,)]),
    "hypot": (lambda a, b: minigrad.hypot(a, b), [(2, 3), (3,)]),
}


@pytest.mark.parametrize("name", GRADCHECKS)
def test_gradcheck(name):
    fn, shapes = GRADCHECKS[name]
    inputs = tuple(_double(*s, seed=k) for k, s in enumerate(shapes))
    assert gradcheck(fn, inputs)
    assert gradgradcheck(fn, inputs)


@pytest.mark.parametrize("eps", [None, 0.2])
def test_logit_gradcheck(eps):
    x = _double(5, low=0.25, high=0.75)  # (away from eps, where the gradient jumps)
    assert gradcheck(lambda t: minigrad.logit(t, eps), (x,))
    assert gradgradcheck(lambda t: minigrad.logit(t, eps), (x,))


def test_double_backward_nodes_match(oracle):
    def run(lib):
        x = lib.tensor([0.5, 2.0], requires_grad=True)
        y = lib.tensor([1.5, 3.0], requires_grad=True)
        names = []
        for out in (lib.xlogy(x, y), lib.hypot(x, y), lib.logit(x / 4)):
            (g,) = lib.autograd.grad(out.sum(), x, create_graph=True)
            names.append(_graph(g))
        return names
    assert run(minigrad) == oracle(run)


# The registry form of the new single-node ops (for a tests/cases_*.py module): each node's
# ``formula`` is checked below with the recordings tests/test_formulas.py makes.
@pytest.mark.parametrize("case", LOGODDS_CASES, ids=lambda c: c.name)
def test_formula_is_the_gradient_sent(case):
    from test_formulas import _checks, _record
    checked = set()
    for name, position, value, sent in _checks(_record(case)):
        np.testing.assert_allclose(value, sent, rtol=1e-6, atol=1e-9,
                                   err_msg=f"{name} input {position}")
        checked.add(name)
    assert case.node in checked


@pytest.mark.parametrize("case", LOGODDS_CASES, ids=lambda c: c.name)
def test_registry_case_matches_torch(oracle, case):
    def run(lib):
        rng = np.random.default_rng(0)
        inputs = [lib.tensor(a, dtype=lib.float64, requires_grad=True) for a in case.make(rng)]
        out = case.fn(lib, *inputs)
        out.sum().backward()
        return out, type(out.grad_fn).__name__, [t.grad for t in inputs]
    got = run(minigrad)
    assert got[1] == case.node
    assert_matches(got, oracle(run), rtol=1e-9, atol=1e-12)
