"""``minigrad.autograd.graph``: the graph's public types, as ``torch.autograd.graph``."""

from minigrad.autograd.node import Node, RemovableHandle

__all__ = ["Node", "RemovableHandle"]
