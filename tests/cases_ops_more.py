"""Registry cases for the ops of minigrad/ops/logodds.py (logit, xlogy, hypot): the op
registry runs them through gradcheck, the formula checks, forward mode and torch."""

from op_registry import OpCase, shapes

__all__ = ["CASES"]

CASES = [
    OpCase("logit", lambda T, x: T.logit(x), shapes((2, 3), low=0.2, high=0.8),
           node="LogitBackward0"),
    OpCase("logit/eps", lambda T, x: T.logit(x, 0.3), shapes((2, 3), low=0.0, high=1.0),
           node="LogitBackward0"),
    OpCase("xlogy", lambda T, x, y: T.xlogy(x, y.abs() + 0.5), shapes((2, 3), (3,)),
           node="XlogyBackward0"),
    OpCase("xlogy/number-self", lambda T, y: T.xlogy(2.5, y), shapes((3,), positive=True),
           node="XlogyBackward1"),
    OpCase("xlogy/number-other", lambda T, x: T.xlogy(x, 2.5), shapes((3,)),
           node="XlogyBackward2"),
    OpCase("hypot", lambda T, a, b: T.hypot(a, b), shapes((2, 3), (3,)),
           node="HypotBackward0"),
]
