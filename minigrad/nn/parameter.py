"""``Parameter``: a tensor that a ``Module`` registers as one of its learnable weights."""

import numpy as np

from minigrad.tensor import Tensor

__all__ = ["Parameter"]


class Parameter(Tensor):
    """A leaf tensor that requires grad and that a Module lists in ``parameters()``.

    Assigning a Parameter to a Module attribute registers it; a plain Tensor is not registered.
    The Parameter shares its data with the tensor it wraps.

    Args:
        data: the initial values (a Tensor); an empty tensor when omitted.
        requires_grad: whether the parameter requires gradient (default True).

    Example:
        >>> w = nn.Parameter(minigrad.ones(2))
        >>> w
        Parameter containing:
        tensor([1., 1.], requires_grad=True)
        >>> w.is_leaf, w.requires_grad
        (True, True)
    """

    __slots__ = ()

    def __init__(self, data=None, requires_grad=True):
        array = np.zeros(0, np.float32) if data is None else _array_of(data)
        self._init(array, False, None, 0)
        self._display_name = None  # set to the qualified name ("fc1.weight") by Module
        if isinstance(data, Tensor):
            self._version_counter = data._version_counter
        if requires_grad:
            if array.dtype.kind not in "fc":  # PyTorch's text here starts with a capital
                raise RuntimeError("Only Tensors of floating point and complex dtype can "
                                   "require gradients")
            self.requires_grad = True

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()

    def __reduce_ex__(self, protocol):
        from minigrad.serialization import tensor_reduce
        return tensor_reduce(self)

    def __deepcopy__(self, memo):
        # NB: like PyTorch, a deep copy keeps the values and the flag, not ``.grad``.
        copy = _rebuild(self._data.copy(), self._requires_grad,
                        self.__dict__.get("_display_name"))
        memo[id(self)] = copy
        return copy


def _array_of(data):
    if isinstance(data, Tensor):
        return data._data
    from minigrad.factories import _to_array
    return _to_array(data)


def _rebuild(array, requires_grad, display_name=None):
    param = Parameter(Tensor._make(array), requires_grad)
    param._display_name = display_name
    return param
