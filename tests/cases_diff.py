"""Op cases for ``diff`` (minigrad.ops.diff): forward against ``np.diff``, numerical gradients
(prepend and append too) and torch's node name."""

import numpy as np
from op_registry import OpCase, shapes

CASES = [
    OpCase("diff", lambda lib, a: lib.diff(a), shapes((5,)), "SubBackward0", np.diff),
    OpCase("diff/n2-dim0", lambda lib, a: a.diff(2, 0), shapes((4, 3)), "SubBackward0",
           lambda a: np.diff(a, 2, 0)),
    OpCase("diff/prepend-append", lambda lib, a, p, q: lib.diff(a, dim=1, prepend=p, append=q),
           shapes((2, 3), (2, 1), (2, 2)), "SubBackward0",
           lambda a, p, q: np.diff(a, axis=1, prepend=p, append=q)),
    OpCase("diff/n3", lambda lib, a: lib.diff(a, n=3), shapes((2, 4)), "SubBackward0",
           lambda a: np.diff(a, 3)),
]
