"""Op cases for ``minigrad.ops.special`` (erf, erfc, erfinv, atan2, logaddexp, nan_to_num)."""

import math

import numpy as np
from op_registry import OpCase, shapes

_erf = np.vectorize(math.erf)


def _away_from_zero(*shape_list):
    """``make`` for points not near the origin (atan2's gradient is 1/r there)."""
    def make(rng):
        return [rng.choice([-1, 1], s) * rng.uniform(0.5, 2.0, s) for s in shape_list]
    return make


def _with_specials(rng):
    x = rng.uniform(-2, 2, (2, 4))
    x[0, 1], x[1, 2], x[1, 3] = np.nan, np.inf, -np.inf
    return [x]


CASES = [
    OpCase("erf", lambda lib, a: a.erf(), shapes((3, 4)), "ErfBackward0", _erf),
    OpCase("erfc", lambda lib, a: lib.erfc(a), shapes((5,)), "ErfcBackward0",
           lambda a: 1 - _erf(a)),
    OpCase("erfinv", lambda lib, a: lib.erfinv(a), shapes((2, 3), low=-0.9, high=0.9),
           "ErfinvBackward0"),
    OpCase("atan2", lambda lib, a, b: lib.atan2(a, b), _away_from_zero((3, 4), (3, 4)),
           "Atan2Backward0", np.arctan2),
    OpCase("atan2/broadcast", lambda lib, a, b: a.arctan2(b), _away_from_zero((2, 3), (3,)),
           "Atan2Backward0", np.arctan2),
    OpCase("atan2/one-grad", lambda lib, a, b: lib.arctan2(a, b), _away_from_zero((4,), (4,)),
           "Atan2Backward0", np.arctan2, grad_args=(1,)),
    OpCase("logaddexp", lambda lib, a, b: lib.logaddexp(a, b), shapes((3, 4), (3, 4)),
           "LogaddexpBackward0", np.logaddexp),
    OpCase("logaddexp/broadcast", lambda lib, a, b: a.logaddexp(b), shapes((2, 1), (3,)),
           "LogaddexpBackward0", np.logaddexp),
    OpCase("nan_to_num", lambda lib, a: lib.nan_to_num(a), shapes((3, 4)), "NanToNumBackward0",
           np.nan_to_num),
    OpCase("nan_to_num/specials", lambda lib, a: a.nan_to_num(1.0, 2.0, -3.0), _with_specials,
           "NanToNumBackward0", lambda a: np.nan_to_num(a, nan=1.0, posinf=2.0, neginf=-3.0),
           check_grad=False),
]
