"""Op cases for ``minigrad.ops.statistics`` (median, var_mean, std_mean), ``diagonal``,
``clamp_min``/``clamp_max`` and ``split_with_sizes``."""

import numpy as np
from op_registry import OpCase, shapes


def _first(pair):
    return pair[0]


CASES = [
    OpCase("median", lambda lib, a: a.median(), shapes((3, 5)), "MedianBackward0",
           lambda a: np.sort(a.ravel())[(a.size - 1) // 2]),
    OpCase("median/dim", lambda lib, a: a.median(1).values, shapes((3, 5)), "MedianBackward1",
           lambda a: np.sort(a, axis=1)[:, 2]),
    OpCase("median/dim-keepdim", lambda lib, a: a.median(0, keepdim=True)[0], shapes((4, 3)),
           "MedianBackward1"),
    OpCase("median/0d", lambda lib, a: a.median(0)[0], shapes(()), "MedianBackward1"),
    OpCase("var_mean/var", lambda lib, a: lib.var_mean(a)[0], shapes((3, 4)),
           "VarMeanBackward0", lambda a: a.var(ddof=1)),
    OpCase("var_mean/mean", lambda lib, a: lib.var_mean(a, 1)[1], shapes((3, 4)),
           "VarMeanBackward0", lambda a: a.mean(1)),
    OpCase("var_mean/both", lambda lib, a: sum(lib.var_mean(a, 0, keepdim=True)),
           shapes((3, 4)), "AddBackward0"),
    OpCase("var_mean/correction", lambda lib, a: lib.var_mean(a, 1, correction=0)[0],
           shapes((3, 4)), "VarMeanBackward0", lambda a: a.var(1)),
    OpCase("std_mean/std", lambda lib, a: lib.std_mean(a, 0)[0], shapes((3, 4)),
           "StdMeanBackward0", lambda a: a.std(0, ddof=1)),
    OpCase("std_mean/both", lambda lib, a: sum(lib.std_mean(a)), shapes((3, 4)),
           "AddBackward0"),
    OpCase("diagonal", lambda lib, a: a.diagonal(), shapes((3, 4)), "DiagonalBackward0",
           np.diagonal),
    OpCase("diagonal/offset", lambda lib, a: a.diagonal(1), shapes((3, 4)), "DiagonalBackward0",
           lambda a: np.diagonal(a, 1)),
    OpCase("diagonal/negative", lambda lib, a: lib.diagonal(a, -1), shapes((3, 4)),
           "DiagonalBackward0", lambda a: np.diagonal(a, -1)),
    OpCase("diagonal/dims", lambda lib, a: a.diagonal(0, 2, 0), shapes((3, 2, 4)),
           "DiagonalBackward0", lambda a: np.diagonal(a, 0, 2, 0)),
    OpCase("clamp_min", lambda lib, a: a.clamp_min(0.1), shapes((3, 4)), "ClampMinBackward0",
           lambda a: np.maximum(a, 0.1)),
    OpCase("clamp_max", lambda lib, a: a.clamp_max(0.1), shapes((3, 4)), "ClampMaxBackward0",
           lambda a: np.minimum(a, 0.1)),
    OpCase("split_with_sizes", lambda lib, a: a.split_with_sizes([1, 3], 1)[1],
           shapes((2, 4)), "SplitWithSizesBackward0", lambda a: a[:, 1:]),
]

CASES += [
    OpCase("clamp_min/tensor", lambda lib, a, m: a.clamp_min(m), shapes((3, 4), (4,)),
           "ClampMinBackward1", lambda a, m: np.maximum(a, m)),
    OpCase("clamp_max/tensor", lambda lib, a, m: a.clamp_max(m), shapes((3, 4), (3, 1)),
           "ClampMaxBackward1", lambda a, m: np.minimum(a, m)),
]
