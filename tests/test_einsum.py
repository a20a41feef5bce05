"""``einsum`` (minigrad.ops.einsum) against torch 2.13: values, dtypes and shapes of many
equations (implicit output, ellipsis, diagonals, broadcasting, list and sublist operands), the
whole graph it builds, gradients to second order, and PyTorch's errors. Forward, numerical
gradients and node names of the plain cases are in tests/cases_einsum.py."""

import numpy as np
import pytest
from oracle import assert_matches
from parity_expr import agree

import minigrad

A = "T.arange(6.0).reshape(2, 3)"
B = "T.arange(12.0).reshape(3, 4)"
S = "T.arange(9.0).reshape(3, 3)"

CASES = {
    "matmul": f"T.einsum('ij,jk->ik', {A}, {B})",
    "implicit-matmul": f"T.einsum('ij,jk', {A}, {B})",
    "implicit-transpose": f"T.einsum('ji', {A})",
    "implicit-alphabetical": f"T.einsum('ba,cb', {A}, T.ones(4, 2))",
    "implicit-capitals-first": "T.einsum('aB', T.arange(6.0).reshape(2, 3))",
    "implicit-repeated-is-summed": f"T.einsum('Ab,bA', {A}, {A}.T)",
    "explicit-identity": f"T.einsum('ij->ij', {A})",
    "transpose": f"T.einsum('ij->ji', {A})",
    "trace": f"T.einsum('ii->', {S})",
    "implicit-trace": f"T.einsum('ii', {S})",
    "diagonal": f"T.einsum('ii->i', {S})",
    "diagonal-of-3d": "T.einsum('iji->j', T.arange(18.0).reshape(3, 2, 3))",
    "diagonal-kept-in-order": "T.einsum('iij->ji', T.arange(18.0).reshape(3, 3, 2))",
    "triple-repeat": "T.einsum('iii->i', T.arange(27.0).reshape(3, 3, 3))",
    "sum-all": f"T.einsum('ij->', {A})",
    "sum-rows": f"T.einsum('ij->i', {A})",
    "outer": "T.einsum('i,j->ij', T.tensor([1.0, 2.0]), T.tensor([3.0, 4.0, 5.0]))",
    "dot": "T.einsum('i,i->', T.tensor([1.0, 2.0, 3.0]), T.tensor([4.0, 5.0, 6.0]))",
    "dot-broadcast-one": "T.einsum('i,i->', T.tensor([1.0, 2.0, 3.0]), T.tensor([2.0]))",
    "hadamard": f"T.einsum('ij,ij->ij', {A}, {A})",
    "frobenius": f"T.einsum('ij,ij->', {A}, {A})",
    "row-dots": f"T.einsum('ij,ij->i', {A}, {A})",
    "matrix-vector": f"T.einsum('ij,j->i', {A}, T.ones(3))",
    "vector-matrix": f"T.einsum('i,ij->j', T.ones(2), {A})",
    "batch-matmul": "T.einsum('bij,bjk->bik', T.arange(24.0).reshape(2, 3, 4), "
                    "T.arange(16.0).reshape(2, 4, 2))",
    "bilinear": "T.einsum('bn,anm,bm->ba', T.arange(6.0).reshape(2, 3), "
                "T.arange(60.0).reshape(5, 3, 4), T.arange(8.0).reshape(2, 4))",
    "three-chain": f"T.einsum('ij,jk,kl->il', {A}, {B}, T.ones(4, 2))",
    "four-outer": "T.einsum('i,j,k,l->ijkl', T.ones(2), T.arange(3.0), T.ones(1), T.ones(2))",
    "swapped-output": f"T.einsum('ij,jk->ki', {A}, {B})",
    "attention": "T.einsum('bhqd,bhkd->bhqk', T.arange(48.0).reshape(2, 2, 3, 4), "
                 "T.arange(32.0).reshape(2, 2, 2, 4))",
    "attention-values": "T.einsum('bhqk,bkhd->bqhd', T.arange(24.0).reshape(2, 2, 3, 2), "
                        "T.arange(16.0).reshape(2, 2, 2, 2))",
    "conv-1x1": "T.einsum('nchw,oc->nohw', T.arange(24.0).reshape(2, 3, 2, 2), "
                "T.arange(12.0).reshape(4, 3))",
    "ellipsis-batch": "T.einsum('...ij,...jk->...ik', T.arange(24.0).reshape(2, 3, 4), "
                      "T.arange(8.0).reshape(4, 2))",
    "ellipsis-implicit": "T.einsum('...ij,...jk', T.ones(2, 1, 3, 4), T.ones(5, 4, 2))",
    "ellipsis-middle": "T.einsum('a...b,b...c->a...c', T.arange(24.0).reshape(2, 3, 4), "
                       "T.arange(60.0).reshape(4, 3, 5))",
    "ellipsis-broadcast": "T.einsum('...i,...i->...', T.arange(6.0).reshape(2, 1, 3), "
                          "T.arange(12.0).reshape(4, 3))",
    "ellipsis-summed": "T.einsum('i...->...', T.arange(24.0).reshape(2, 3, 4))",
    "ellipsis-dropped": "T.einsum('...ij->ij', T.arange(24.0).reshape(2, 3, 4))",
    "ellipsis-empty": "T.einsum('...ij->...ji', T.arange(6.0).reshape(2, 3))",
    "ellipsis-output-only": f"T.einsum('ij->...', {A})",
    "ellipsis-diagonal": "T.einsum('...ii->...i', T.arange(18.0).reshape(2, 3, 3))",
    "ellipsis-everything": "T.einsum('...,...->...', T.ones(2, 3), T.arange(3.0))",
    "spaces": f"T.einsum(' i j , j k -> i k ', {A}, {B})",
    "list": f"T.einsum('ij,jk->ik', [{A}, {B}])",
    "tuple": f"T.einsum('ij->j', ({A},))",
    "sublist": f"T.einsum({A}, [0, 1], {B}, [1, 2], [0, 2])",
    "sublist-implicit": f"T.einsum({A}, [1, 0])",
    "sublist-ellipsis": "T.einsum(T.ones(2, 3, 4), [..., 0], T.ones(4), [0], [...])",
    "size-one-broadcasts": f"T.einsum('ij,jk->ik', {A}, T.ones(1, 4))",
    "int": "T.einsum('ij,jk->ik', T.arange(6).reshape(2, 3), T.arange(12).reshape(3, 4))",
    "int-sum-is-long": "T.einsum('ij->', T.arange(6, dtype=T.int32).reshape(2, 3))",
    "bool-sum-is-long": "T.einsum('i->', T.tensor([True, False, True]))",
    "bool-product": "T.einsum('i,i->i', T.tensor([True, False]), T.tensor([True, True]))",
    "mixed-mul-promotes": f"T.einsum('ij,ij->ij', T.ones(2, 3, dtype=T.int32), {A})",
    "half": f"T.einsum('ij,jk->ik', {A}.half(), {B}.half())",
    "double": f"T.einsum('ij,jk->ik', {A}.double(), {B}.double())",
    "empty-contraction": "T.einsum('ij,jk->ik', T.ones(2, 0), T.ones(0, 3))",
    "empty-output": "T.einsum('ij->j', T.ones(2, 0))",
    "requires-grad": f"T.einsum('ij,jk->ik', {A}.requires_grad_(), {B})",
    "scalar-operand": "T.einsum(',i->i', T.tensor(2.0), T.ones(3))",
    # errors
    "no-operands": "T.einsum('ij')",
    "empty-list": "T.einsum('ij', [])",
    "fewer-operands": f"T.einsum('ij,jk', {A})",
    "fewer-in-list": f"T.einsum('ij,jk', [{A}])",
    "more-operands": f"T.einsum('ij', {A}, {B})",
    "invalid-subscript": f"T.einsum('i1', {A})",
    "invalid-output-subscript": f"T.einsum('ij->i->j', {A})",
    "lone-dash": f"T.einsum('ij-', {A})",
    "too-few-subscripts": f"T.einsum('i', {A})",
    "too-many-subscripts": f"T.einsum('ijk', {A})",
    "too-many-with-ellipsis": f"T.einsum('ijk...', {A})",
    "scalar-with-subscripts": f"T.einsum('ij,jk->ik', T.tensor(1.0), {B})",
    "broken-ellipsis": f"T.einsum('i.j', {A})",
    "short-ellipsis": f"T.einsum('ij..', {A})",
    "two-ellipses": f"T.einsum('...i...', {A})",
    "output-two-ellipses": f"T.einsum('...->......', {A})",
    "output-broken-ellipsis": f"T.einsum('...->.', {A})",
    "output-repeated": f"T.einsum('ij->ii', {A})",
    "output-unknown": f"T.einsum('ij->k', {A})",
    "size-mismatch": f"T.einsum('ij,jk', {A}, T.ones(4, 4))",
    "ellipsis-size-mismatch": "T.einsum('...i,...i', T.ones(2, 3), T.ones(4, 3))",
    "diagonal-size-mismatch": f"T.einsum('ii', {A})",
    "dtype-mismatch": f"T.einsum('ij,jk', {A}, {B}.double())",
    "int-float-mismatch": f"T.einsum('ij,jk->ik', {A}.int(), {B})",
    "bool-bmm": f"T.einsum('ij,jk->ik', {A}.bool(), {B}.bool())",
    "not-a-tensor": f"T.einsum('ij,jk', {A}, 3)",
    "equation-not-str": f"T.einsum(3, {A})",
    "sublist-out-of-range": f"T.einsum({A}, [0, 55])",
}


@pytest.mark.parametrize("src", CASES.values(), ids=CASES.keys())
def test_matches_torch(oracle, src):
    agree(oracle, src)


def _graph(t):
    """The names of a result's nodes, depth first, with their depth (leaves left out)."""
    out, stack = [], [(t.grad_fn, 0)]
    while stack:
        node, depth = stack.pop()
        if node is None or "AccumulateGrad" in node.name():
            continue
        out.append((depth, node.name()))
        stack.extend((child, depth + 1) for child, _ in reversed(node.next_functions))
    return out


GRAPHS = {
    "matmul": ("ij,jk->ik", [(2, 3), (3, 4)]),
    "swapped-sides": ("ij,jk->ki", [(2, 3), (3, 4)]),
    "swapped-3d": ("ijl,jk->kil", [(2, 3, 5), (3, 4)]),
    "not-swapped": ("ij,jkl->kil", [(2, 3), (3, 4, 5)]),
    "bilinear": ("bn,anm,bm->ba", [(2, 3), (5, 3, 4), (2, 4)]),
    "outer": ("i,j->ij", [(3,), (4,)]),
    "trace": ("ii->", [(3, 3)]),
    "diagonal-product": ("ijj,jk->ik", [(2, 3, 3), (3, 4)]),
    "one-sided-sums": ("ij,k->", [(2, 3), (4,)]),
    "broadcast-one": ("i,i->", [(3,), (1,)]),
    "attention": ("bqhd,bkhd->bhqk", [(2, 3, 2, 4), (2, 5, 2, 4)]),
    "ellipsis-broadcast": ("...i,...i->...", [(2, 1, 3), (4, 3)]),
    "chain-of-four": ("ij,jk,kl,lm->mi", [(2, 3), (3, 4), (4, 2), (2, 3)]),
}


@pytest.mark.parametrize("equation, shapes", GRAPHS.values(), ids=GRAPHS.keys())
def test_graph_is_torchs_node_for_node(oracle, equation, shapes):
    # NB: with minigrad's ReshapeAlias, a reshape records the node torch's reshape records
    def run(lib):
        rng = np.random.default_rng(0)
        ts = [lib.tensor(rng.standard_normal(s), requires_grad=True) for s in shapes]
        return _graph(lib.einsum(equation, *ts))
    assert [list(x) for x in run(minigrad)] == oracle(run)


@pytest.mark.parametrize("equation, shapes", [
    ("bn,anm,bm->ba", [(2, 3), (5, 3, 4), (2, 4)]),
    ("ijj,jk->ki", [(2, 3, 3), (3, 2)]),
    ("...i,...i->...", [(2, 1, 3), (4, 3)]),
    ("i,j->ij", [(3,), (2,)]),
], ids=["bilinear", "diagonal-product", "ellipsis-broadcast", "outer"])
def test_gradients_to_second_order_match_torch(oracle, equation, shapes):
    def run(lib):
        rng = np.random.default_rng(0)
        ts = [lib.tensor(rng.standard_normal(s), requires_grad=True) for s in shapes]
        out = lib.einsum(equation, *ts)
        weights = lib.tensor(rng.standard_normal(tuple(out.shape)))
        grads = lib.autograd.grad((out * weights).sum(), ts, create_graph=True)
        second = lib.autograd.grad(sum((g * g).sum() for g in grads), ts)
        return [g.tolist() for g in grads], [g.tolist() for g in second]
    expected = oracle(run)
    got = run(minigrad)
    for mine, theirs in zip(got, expected):
        for m, t in zip(mine, theirs):
            np.testing.assert_allclose(m, t, rtol=1e-10, atol=1e-12)


def test_gradcheck_and_gradgradcheck_pass():
    rng = np.random.default_rng(0)
    ts = [minigrad.tensor(rng.standard_normal(s), requires_grad=True)
          for s in [(2, 3, 3), (3, 4), (4,)]]

    def f(a, b, c):
        return minigrad.einsum("ijj,jk,k->ik", a, b, c)
    assert minigrad.autograd.gradcheck(f, ts)
    assert minigrad.autograd.gradgradcheck(f, ts)


def test_equals_numpy_on_random_equations():
    rng = np.random.default_rng(3)
    for equation, shapes in [("abc,cd,db->a", [(2, 3, 4), (4, 5), (5, 3)]),
                             ("aab,bc->ca", [(3, 3, 2), (2, 4)]),
                             ("ab,ab,ab->", [(2, 3)] * 3),
                             ("...a,a...->...", [(2, 3, 4), (4, 2, 3)])]:
        arrays = [rng.standard_normal(s) for s in shapes]
        got = minigrad.einsum(equation, *[minigrad.tensor(a) for a in arrays])
        np.testing.assert_allclose(got.numpy(), np.einsum(equation, *arrays), rtol=1e-12)


def test_no_einsum_node_but_views_of_its_operand(oracle):
    def run(lib):
        x = lib.ones(2, 3, requires_grad=True)
        y = lib.einsum("ij->ji", x)
        return y.grad_fn.name(), y.grad_fn._saved_dims, y._base is x
    assert_matches(run(minigrad), oracle(run))
