"""The differentiable operations of minigrad, one ``Function`` subclass each.

Modules group ops by kind; this package re-exports every op's function form
(``add``, ``exp``, ``sum``, ``matmul``, …), which ``Tensor`` methods and ``minigrad.*`` call.
"""

from minigrad.ops._util import (  # noqa: F401 - Tensor methods use them
    as_tensor_operand,
    check_operand,
    check_overloads,
    check_tensor_arg,
)
from minigrad.ops.activation import *  # noqa: F403
from minigrad.ops.arithmetic import *  # noqa: F403
from minigrad.ops.combine import *  # noqa: F403
from minigrad.ops.compare import *  # noqa: F403
from minigrad.ops.contraction import *  # noqa: F403
from minigrad.ops.counting import *  # noqa: F403
from minigrad.ops.cumulative import *  # noqa: F403
from minigrad.ops.diagonal import *  # noqa: F403
from minigrad.ops.diff import *  # noqa: F403
from minigrad.ops.einsum import *  # noqa: F403
from minigrad.ops.grids import *  # noqa: F403
from minigrad.ops.indexing import *  # noqa: F403
from minigrad.ops.inplace import *  # noqa: F403
from minigrad.ops.interleave import *  # noqa: F403
from minigrad.ops.linalg import *  # noqa: F403
from minigrad.ops.logodds import *  # noqa: F403
from minigrad.ops.matrix import *  # noqa: F403
from minigrad.ops.norm import *  # noqa: F403
from minigrad.ops.pointwise import *  # noqa: F403
from minigrad.ops.reduction import *  # noqa: F403
from minigrad.ops.roll import *  # noqa: F403
from minigrad.ops.sampling import *  # noqa: F403
from minigrad.ops.scatter import *  # noqa: F403
from minigrad.ops.shape import *  # noqa: F403
from minigrad.ops.sorting import *  # noqa: F403
from minigrad.ops.special import *  # noqa: F403
from minigrad.ops.statistics import *  # noqa: F403
from minigrad.ops.storage import *  # noqa: F403
from minigrad.ops.ternary import *  # noqa: F403
from minigrad.ops.triangular import *  # noqa: F403
