"""Gradient edges: where a tensor's gradient enters the graph, as ``torch.autograd.graph``.

``get_gradient_edge(t)`` names the ``(node, output_nr)`` pair through which the gradient of
``t`` flows: it stays valid after ``t`` is changed in place (it then names the old value), and
``autograd.grad`` and ``backward(inputs=...)`` accept it in place of a tensor.
"""

from typing import NamedTuple

__all__ = ["GradientEdge", "get_gradient_edge", "increment_version"]


class GradientEdge(NamedTuple):
    """A node of the graph and the number of one of its inputs (an edge into the graph)."""

    node: object
    output_nr: int


def get_gradient_edge(tensor):
    """The edge through which the gradient of ``tensor`` is computed.

    Example:
        >>> x = minigrad.tensor([1.0, 2.0], requires_grad=True)
        >>> a = x * 2
        >>> edge = minigrad.autograd.graph.get_gradient_edge(a)
        >>> minigrad.autograd.grad((a * a).sum(), edge)
        (tensor([4., 8.]),)
    """
    if not tensor.requires_grad:
        raise RuntimeError("It is not possible to get the gradient edge for a Tensor that does "
                           "not require gradients")
    if tensor.grad_fn is not None:
        return GradientEdge(tensor.grad_fn, tensor._output_nr)
    return GradientEdge(tensor._grad_accumulator(), 0)


def increment_version(tensor):
    """Bump the version counter of ``tensor`` (or of each tensor of an iterable), as an
    in-place change would: saved copies of it then fail the check in backward.

    Example:
        >>> t = minigrad.zeros(2)
        >>> minigrad.autograd.graph.increment_version(t)
        >>> t._version
        1
    """
    from minigrad.tensor import Tensor
    for t in (tensor,) if isinstance(tensor, Tensor) else tensor:
        t._version_counter[0] += 1
