"""Stable ids for the objects of a graph: ``t3`` (tensor), ``n4`` (node), ``c4_1``, ``e4_0``.

A tensor or a node gets its id the first time a snapshot or a recording sees it and keeps it
for life: the id is stored on the object itself (its ``_uid`` attribute, None until then), so
two snapshots of the same graph taken at different moments agree. Constant stubs and edges are
named after the node they leave, so they are stable too. Ids never contain ``id()``.
"""

import itertools

__all__ = ["tensor_id", "node_id", "constant_id", "edge_id"]

_counter = itertools.count(1)


def tensor_id(tensor):
    """``"t<k>"``, the same every time for the same tensor."""
    uid = tensor._uid
    if uid is None:
        uid = tensor._uid = f"t{next(_counter)}"
    return uid


def node_id(node):
    """``"n<k>"``, the same every time for the same node."""
    uid = node._uid
    if uid is None:
        uid = node._uid = f"n{next(_counter)}"
    return uid


def constant_id(nid, position):
    """``"c<k>_<position>"``: the stub for the ``(None, 0)`` entry ``position`` of node
    ``n<k>``'s ``next_functions``."""
    return f"c{nid[1:]}_{position}"


def edge_id(nid, kind, number=0):
    """The id of an edge leaving node ``n<k>``: ``e<k>_<position>`` (``next`` and
    ``constant`` edges), ``e<k>_v`` (``variable``), ``e<k>_o<output_nr>`` (``output``)."""
    if kind == "variable":
        return f"e{nid[1:]}_v"
    if kind == "output":
        return f"e{nid[1:]}_o{number}"
    return f"e{nid[1:]}_{number}"
