"""Op cases for ``minigrad.ops.sorting`` (sort, argsort, topk)."""

import numpy as np
from cases_math import distinct
from op_registry import OpCase, shapes

CASES = [
    OpCase("sort", lambda lib, a: a.sort().values, distinct((3, 4)), "SortBackward0",
           lambda a: np.sort(a, -1)),
    OpCase("sort/dim-descending", lambda lib, a: lib.sort(a, 0, True)[0], distinct((3, 4)),
           "SortBackward0", lambda a: -np.sort(-a, 0)),
    OpCase("sort/stable", lambda lib, a: lib.sort(a, dim=1, stable=True).values,
           distinct((2, 3, 4)), "SortBackward1", lambda a: np.sort(a, 1)),
    OpCase("sort/0d", lambda lib, a: a.sort().values, shapes(()), "SortBackward0"),
    OpCase("sort/indices", lambda lib, a: a.sort(descending=True).indices, distinct((3, 4)),
           check_grad=False, numpy=lambda a: np.argsort(-a, -1)),
    OpCase("argsort", lambda lib, a: lib.argsort(a, 0), distinct((3, 4)), check_grad=False,
           numpy=lambda a: np.argsort(a, 0)),
    OpCase("topk", lambda lib, a: a.topk(2).values, distinct((3, 4)), "TopkBackward0",
           lambda a: -np.sort(-a, -1)[:, :2]),
    OpCase("topk/smallest-dim", lambda lib, a: lib.topk(a, 3, 0, largest=False)[0],
           distinct((4, 2)), "TopkBackward0", lambda a: np.sort(a, 0)[:3]),
    OpCase("topk/indices", lambda lib, a: a.topk(2, 1).indices, distinct((3, 4)),
           check_grad=False, numpy=lambda a: np.argsort(-a, 1)[:, :2]),
]
