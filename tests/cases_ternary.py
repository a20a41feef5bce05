"""Op cases for ``minigrad.ops.ternary`` (lerp, addcmul, addcdiv)."""

import numpy as np
from op_registry import OpCase, shapes


def _lerp(a, b, w):
    return a + w * (b - a)


def _positive_last(*shape_list):
    """``make`` whose last input stays away from zero (a divisor)."""
    def make(rng):
        arrays = shapes(*shape_list)(rng)
        arrays[-1] = np.sign(arrays[-1] + 1e-3) * (np.abs(arrays[-1]) + 0.5)
        return arrays
    return make


CASES = [
    OpCase("lerp", lambda lib, a, b: lib.lerp(a, b, 0.3), shapes((3, 4), (3, 4)),
           "LerpBackward0", lambda a, b: _lerp(a, b, 0.3)),
    OpCase("lerp/large-weight-broadcast", lambda lib, a, b: a.lerp(b, 0.8), shapes((2, 3), (3,)),
           "LerpBackward0", lambda a, b: _lerp(a, b, 0.8)),
    OpCase("lerp/tensor-weight", lambda lib, a, b, w: lib.lerp(a, b, w),
           shapes((3, 4), (3, 4), (3, 4)), "LerpBackward1", _lerp),
    OpCase("lerp/tensor-weight-broadcast", lambda lib, a, b, w: a.lerp(b, w),
           shapes((2, 3), (1, 3), (2, 1)), "LerpBackward1", _lerp),
    OpCase("addcmul", lambda lib, x, a, b: lib.addcmul(x, a, b), shapes((3,), (3,), (3,)),
           "AddcmulBackward0", lambda x, a, b: x + a * b),
    OpCase("addcmul/value-broadcast", lambda lib, x, a, b: x.addcmul(a, b, value=-0.5),
           shapes((2, 3), (3,), (2, 1)), "AddcmulBackward0", lambda x, a, b: x - 0.5 * a * b),
    OpCase("addcdiv", lambda lib, x, a, b: lib.addcdiv(x, a, b, value=2),
           _positive_last((3, 4), (3, 4), (3, 4)), "AddcdivBackward0",
           lambda x, a, b: x + 2 * a / b),
    OpCase("addcdiv/broadcast", lambda lib, x, a, b: x.addcdiv(a, b),
           _positive_last((3,), (2, 3), (1, 3)), "AddcdivBackward0",
           lambda x, a, b: x + a / b),
    OpCase("addcdiv/divisor-only", lambda lib, x, a, b: lib.addcdiv(x, a, b, value=0.5),
           _positive_last((3,), (3,), (3,)), "AddcdivBackward0", grad_args=(2,)),
]
