"""Op cases for ``einsum`` (minigrad.ops.einsum): products, contractions, diagonals, sums,
transposes and broadcasting, each checked against ``np.einsum``, numerical gradients, torch's
node name and (in the registry's whole-suite tests) torch's gradients to higher orders."""

import numpy as np
from op_registry import OpCase, shapes


def _case(equation, *shape_list, node, name=None):
    return OpCase(f"einsum/{name or equation}",
                  lambda lib, *ts: lib.einsum(equation, *ts), shapes(*shape_list), node,
                  lambda *arrays: np.einsum(equation, *arrays))


CASES = [
    _case("ij,jk->ik", (2, 3), (3, 4), node="ViewBackward0", name="matmul"),
    _case("ij,jk", (3, 2), (2, 2), node="ViewBackward0", name="matmul-implicit"),
    _case("bij,bjk->bik", (2, 3, 4), (2, 4, 2), node="ViewBackward0", name="bmm"),
    _case("bn,anm,bm->ba", (2, 3), (2, 3, 4), (2, 4), node="ViewBackward0", name="bilinear"),
    _case("i,j->ij", (3,), (4,), node="MulBackward0", name="outer"),
    _case("i,i->", (4,), (4,), node="ViewBackward0", name="dot"),
    _case("ij,ij->ij", (2, 3), (2, 3), node="MulBackward0", name="hadamard"),
    _case("ii->", (3, 3), node="SumBackward1", name="trace"),
    _case("ii->i", (3, 3), node="PermuteBackward0", name="diagonal"),
    _case("ij->ji", (2, 3), node="PermuteBackward0", name="transpose"),
    _case("ij->", (2, 3), node="SumBackward1", name="sum"),
    _case("ij->j", (2, 3), node="SumBackward1", name="sum-dim"),
    _case("...ij,...jk->...ik", (2, 1, 3, 4), (3, 4, 2), node="ViewBackward0",
          name="ellipsis-broadcast"),
    _case("bhqd,bhkd->bhqk", (2, 2, 3, 4), (2, 2, 2, 4), node="ViewBackward0",
          name="attention-scores"),
    _case("ijj,jk->ik", (2, 3, 3), (3, 2), node="ViewBackward0", name="diagonal-then-product"),
    _case("i,j,k->ijk", (2,), (3,), (2,), node="MulBackward0", name="three-outer"),
    OpCase("einsum/list", lambda lib, a, b: lib.einsum("ij,kj->ik", [a, b]),
           shapes((2, 3), (4, 3)), "ViewBackward0", lambda a, b: np.einsum("ij,kj->ik", a, b)),
    OpCase("einsum/sublist", lambda lib, a, b: lib.einsum(a, [0, 1], b, [1, 2], [2, 0]),
           shapes((2, 3), (3, 2)), "ViewBackward0", lambda a, b: (a @ b).T),
]
