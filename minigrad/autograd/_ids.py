"""Stable ids for the objects of a graph: ``t3`` (tensor), ``n4`` (node), ``c2``, ``e5``.

An object gets its id the first time a snapshot or a recording sees it and keeps it for life:
the number is stored on the object itself (a tensor's ``_uid`` slot, attributes on a node), so
two snapshots of the same graph taken at different moments agree. Ids never contain ``id()``.
"""

import itertools

__all__ = ["tensor_id", "node_id", "constant_id", "edge_id"]

_counter = itertools.count(1)


def tensor_id(tensor):
    """``"t<k>"``, the same every time for the same tensor."""
    uid = tensor._uid
    if uid is None:
        uid = tensor._uid = next(_counter)
    return f"t{uid}"


def node_id(node):
    """``"n<k>"``, the same every time for the same node."""
    uid = node.__dict__.get("_uid")
    if uid is None:
        uid = node.__dict__["_uid"] = next(_counter)
    return f"n{uid}"


def _keyed(node, attribute, key, prefix):
    table = node.__dict__.get(attribute)
    if table is None:
        table = node.__dict__[attribute] = {}
    uid = table.get(key)
    if uid is None:
        uid = table[key] = next(_counter)
    return f"{prefix}{uid}"


def constant_id(node, position):
    """``"c<k>"``: the stub for the ``(None, 0)`` entry ``position`` of ``node.next_functions``."""
    return _keyed(node, "_constant_uids", position, "c")


def edge_id(node, kind, number):
    """``"e<k>"``: the edge of ``kind`` leaving ``node`` at ``number`` (position or output)."""
    return _keyed(node, "_edge_uids", (kind, number), "e")
