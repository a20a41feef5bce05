"""``tril`` and ``triu``: the lower or upper triangle of the last two dimensions (a causal
attention mask is ``tril`` of ones), the rest set to zero."""

import numbers

import numpy as np

from minigrad.autograd.function import _Op
from minigrad.ops._util import apply_op, type_name

__all__ = ["Tril", "Triu", "tril", "triu"]


class _Triangle(_Op):
    """A triangle of the last two dimensions, the rest zeros; its gradient is the same triangle
    of ``grad`` (``compute``: NumPy's tril or triu)."""

    array_backward = True  # its backward also runs on arrays (no create_graph)

    @staticmethod
    def forward(ctx, x, diagonal):
        ctx.diagonal = diagonal  # node._saved_diagonal
        return ctx._forward_cls.compute(x._data, diagonal)

    @staticmethod
    def backward(ctx, grad):
        return apply_op(ctx._forward_cls, grad, ctx.diagonal), None


class Tril(_Triangle):
    """y[i, j] = x[i, j] where j - i <= diagonal, else 0;  ∂y/∂x = tril(grad)."""

    node_name = "TrilBackward0"
    formula = ("tril(grad, diagonal)",)
    compute = staticmethod(np.tril)  # on arrays (see apply_op)


class Triu(_Triangle):
    """y[i, j] = x[i, j] where j - i >= diagonal, else 0;  ∂y/∂x = triu(grad)."""

    node_name = "TriuBackward0"
    formula = ("triu(grad, diagonal)",)
    compute = staticmethod(np.triu)  # on arrays (see apply_op)


def _checked(name, x, diagonal, position):
    """PyTorch's checks (``position``: where ``diagonal`` was passed, 1 for a method)."""
    if not isinstance(diagonal, numbers.Integral) or isinstance(diagonal, bool):
        raise TypeError(f"{name}(): argument 'diagonal' (position {position}) must be int, not "
                        f"{type_name(diagonal)}")
    if x.ndim < 2:
        raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")
    return int(diagonal)


def tril(x, diagonal=0, *, position=2):
    """``x`` with the elements above the ``diagonal``-th diagonal set to zero.

    Example:
        >>> minigrad.tril(minigrad.ones(3, 3))
        tensor([[1., 0., 0.],
                [1., 1., 0.],
                [1., 1., 1.]])
    """
    return Tril.apply(x, _checked("tril", x, diagonal, position))


def triu(x, diagonal=0, *, position=2):
    """``x`` with the elements below the ``diagonal``-th diagonal set to zero.

    Example:
        >>> minigrad.triu(minigrad.ones(2, 3), 1)
        tensor([[0., 1., 1.],
                [0., 0., 1.]])
    """
    return Triu.apply(x, _checked("triu", x, diagonal, position))
