"""``Variable``: the name tensors had before PyTorch 0.4, kept so that old tutorials run.

``Variable(t)`` is a new tensor sharing ``t``'s data, cut from its graph, that requires grad
only if asked (``Variable(t, requires_grad=True)``), as in PyTorch; every tensor is an instance
of ``Variable``.
"""

import warnings

from minigrad.autograd.engine import execution_engine

__all__ = ["Variable"]


class _VariableMeta(type):
    def __instancecheck__(cls, obj):
        from minigrad.tensor import Tensor
        return isinstance(obj, Tensor)

    def __call__(cls, data=None, requires_grad=False, volatile=False):
        from minigrad.tensor import Tensor
        if volatile:
            warnings.warn("volatile was removed and now has no effect. Use `with "
                          "minigrad.no_grad():` instead.", UserWarning, stacklevel=2)
        if data is None:
            return Tensor()
        if not isinstance(data, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got "
                            f"{type(data).__name__}")
        if requires_grad and not data.is_floating_point():
            raise RuntimeError("Only Tensors of floating point and complex dtype can require "
                               "gradients")
        return data.detach().requires_grad_(requires_grad)


class Variable(metaclass=_VariableMeta):
    """A tensor (the legacy wrapper's constructor).

    Example:
        >>> from minigrad.autograd import Variable
        >>> Variable(minigrad.tensor([1.0, 2.0]), requires_grad=True)
        tensor([1., 2.], requires_grad=True)
    """

    _execution_engine = execution_engine  # PyTorch's engine object: ``queue_callback``
