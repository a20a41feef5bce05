"""Op cases for ``minigrad.ops.matrix`` (outer, ger, trace, cross, linalg.cross, kron), ``roll``
and ``meshgrid``."""

import numpy as np
from op_registry import OpCase, shapes

CASES = [
    OpCase("outer", lambda lib, a, b: lib.outer(a, b), shapes((3,), (4,)), "MulBackward0",
           np.outer),
    OpCase("ger", lambda lib, a, b: a.ger(b), shapes((2,), (3,)), "MulBackward0", np.outer),
    OpCase("trace", lambda lib, a: lib.trace(a), shapes((3, 3)), "TraceBackward0", np.trace),
    OpCase("trace/wide", lambda lib, a: a.trace(), shapes((2, 4)), "TraceBackward0", np.trace),
    OpCase("cross", lambda lib, a, b: lib.cross(a, b, dim=1), shapes((4, 3), (4, 3)),
           "LinalgCrossBackward0", lambda a, b: np.cross(a, b, axis=1)),
    OpCase("linalg.cross/broadcast", lambda lib, a, b: lib.linalg.cross(a, b),
           shapes((2, 1, 3), (1, 4, 3)), "LinalgCrossBackward0", np.cross),
    OpCase("linalg.cross/dim0", lambda lib, a, b: a.cross(b, 0), shapes((3, 2), (3, 2)),
           "LinalgCrossBackward0", lambda a, b: np.cross(a, b, axis=0)),
    OpCase("kron", lambda lib, a, b: lib.kron(a, b), shapes((2, 3), (2, 2)),
           "UnsafeViewBackward0", np.kron),
    OpCase("kron/ranks", lambda lib, a, b: a.kron(b), shapes((3,), (2, 2)),
           "UnsafeViewBackward0", np.kron),
    OpCase("roll", lambda lib, a: lib.roll(a, 1), shapes((3, 4)), "RollBackward0",
           lambda a: np.roll(a, 1)),
    OpCase("roll/dims", lambda lib, a: a.roll((1, -2), (0, -1)), shapes((3, 4)),
           "RollBackward0", lambda a: np.roll(a, (1, -2), (0, 1))),
    OpCase("roll/dim", lambda lib, a: lib.roll(a, -1, 1), shapes((2, 3, 2)), "RollBackward0",
           lambda a: np.roll(a, -1, 1)),
    OpCase("meshgrid/ij", lambda lib, a, b: lib.meshgrid(a, b, indexing="ij")[1],
           shapes((3,), (4,)), "ExpandBackward0",
           lambda a, b: np.meshgrid(a, b, indexing="ij")[1], grad_args=(1,)),
    OpCase("meshgrid/xy", lambda lib, a, b, c: lib.meshgrid(a, b, c, indexing="xy")[0],
           shapes((3,), (2,), (2,)), "ExpandBackward0",
           lambda a, b, c: np.meshgrid(a, b, c, indexing="xy")[0], grad_args=(0,)),
]
