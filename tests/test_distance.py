"""F.normalize, F.cosine_similarity and nn.CosineSimilarity (minigrad/nn/functional.py,
nn/distance.py) against torch 2.13: values, the graphs PyTorch builds (node for node),
gradients, zero vectors, broadcasting and errors."""

import pytest
from parity_expr import agree

import minigrad
from minigrad.autograd import gradcheck, gradgradcheck

F = minigrad.nn.functional


def graph(fn):
    """The graph below ``fn`` as nested (class name, children)."""
    if fn is None:
        return None
    return [type(fn).__name__, [graph(f) for f, _ in fn.next_functions]]


def grads(y, *xs):
    """The gradients of y's elements weighted 1, 2, 3, … with respect to xs."""
    T = type(y).__module__.split(".")[0]
    lib = __import__(T)
    w = lib.arange(1.0, y.numel() + 1, dtype=y.dtype).reshape(y.shape)
    return list(lib.autograd.grad(y, xs, w))


A = "T.tensor([[3.0, -4.0, 0.5], [0.0, 0.0, 0.0], [1e-7, 2e-7, 0.0]], requires_grad=True)"
B = "T.tensor([[1.0, 2.0, -2.0], [1.0, 1.0, 1.0], [-3.0, 0.5, 4.0]], requires_grad=True)"
CASES = {
    "normalize": f"T.nn.functional.normalize({A})",
    "normalize-graph": f"graph(T.nn.functional.normalize({A}).grad_fn)",
    "normalize-p1-dim0": f"T.nn.functional.normalize({A}, p=1, dim=0)",
    "normalize-grad": f"(lambda a: grads(T.nn.functional.normalize(a, eps=1e-3), a))({A})",
    "normalize-vector": "T.nn.functional.normalize(T.tensor([3.0, 4.0]), dim=0)",
    "normalize-long": "T.nn.functional.normalize(T.ones(3, dtype=T.long))",
    "normalize-bad-dim": f"T.nn.functional.normalize({A}, dim=3)",
    "cosine": f"T.nn.functional.cosine_similarity({A}, {B})",
    "cosine-graph": f"graph(T.nn.functional.cosine_similarity({A}, {B}).grad_fn)",
    "cosine-dim0": f"T.nn.functional.cosine_similarity({A}, {B}, dim=0)",
    "cosine-grad": f"(lambda a, b: grads(T.nn.functional.cosine_similarity(a, b), a, b))({A}, {B})",
    "cosine-broadcast": f"T.nn.functional.cosine_similarity({A}, {B}[:1])",
    "cosine-broadcast-graph": f"graph(T.nn.functional.cosine_similarity({A}, {B}[:1]).grad_fn)",
    "cosine-broadcast-grad": f"(lambda a, b: grads(T.nn.functional.cosine_similarity(a, b[1:2]),"
                             f" a, b))({A}, {B})",
    "cosine-zero": "T.nn.functional.cosine_similarity(T.zeros(2, 3), T.ones(2, 3))",
    "cosine-mixed": f"T.nn.functional.cosine_similarity({A}, {B}.double())",
    "cosine-vectors": "T.nn.functional.cosine_similarity(T.ones(4), T.ones(4), dim=0)",
    "cosine-vectors-default-dim": "T.nn.functional.cosine_similarity(T.ones(4), T.ones(4))",
    "cosine-long": "T.nn.functional.cosine_similarity(T.ones(3, 4, dtype=T.long), "
                   "T.ones(3, 4, dtype=T.long))",
    "cosine-sizes": "T.nn.functional.cosine_similarity(T.ones(3, 4), T.ones(3, 5))",
    "cosine-module": f"T.nn.CosineSimilarity(dim=0, eps=1e-3)({A}, {B})",
    "cosine-module-repr": "repr(T.nn.CosineSimilarity())",
}


@pytest.mark.parametrize("src", CASES.values(), ids=CASES.keys())
def test_matches_torch(oracle, src):
    agree(oracle, src, rtol=1e-6, names={"graph": graph, "grads": grads})


def test_gradcheck_and_gradgradcheck():
    minigrad.manual_seed(0)
    a = minigrad.randn(3, 4, dtype=minigrad.float64, requires_grad=True)
    b = minigrad.randn(3, 4, dtype=minigrad.float64, requires_grad=True)
    for fn, args in ((lambda a: F.normalize(a), (a,)), (F.cosine_similarity, (a, b))):
        assert gradcheck(fn, args)
        assert gradgradcheck(fn, args)
