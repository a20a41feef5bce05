"""Parameters as one flat vector and back (``torch.nn.utils.convert_parameters``)."""

import minigrad
from minigrad.tensor import Tensor, typename

__all__ = ["parameters_to_vector", "vector_to_parameters"]


def parameters_to_vector(parameters):
    """All parameters flattened and concatenated: ``cat([p.view(-1) for p in parameters])``."""
    return minigrad.cat([param.view(-1) for param in parameters])


def vector_to_parameters(vec, parameters):
    """Give each parameter, in order, the next ``p.numel()`` values of ``vec`` as its ``.data``
    (a view of ``vec``: no copy, no autograd)."""
    if not isinstance(vec, Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {typename(vec)}")
    start = 0
    for param in parameters:
        count = param.numel()
        param.data = vec[start:start + count].view_as(param).data
        start += count
