"""Nested containers of tensors ("pytrees"): tuples, lists and dicts, flattened to a list of
leaves and rebuilt in the same shape (what ``minigrad.func``'s transforms accept)."""

__all__ = ["flatten"]


def flatten(tree):
    """``(leaves, rebuild)``: the tensors of a tensor / tuple / list / dict tree, and the
    function that puts new leaves back in the same structure."""
    if isinstance(tree, (tuple, list)):
        parts = [flatten(item) for item in tree]
        if hasattr(tree, "_fields"):  # a named tuple
            return _join(parts, lambda items: type(tree)(*items))
        return _join(parts, lambda items: type(tree)(items))
    if isinstance(tree, dict):
        keys = list(tree)
        parts = [flatten(tree[k]) for k in keys]
        return _join(parts, lambda items: type(tree)(zip(keys, items)))
    return [tree], lambda leaves: leaves[0]


def _join(parts, build):
    counts = [len(leaves) for leaves, _ in parts]

    def rebuild(leaves):
        items, start = [], 0
        for (_, part_rebuild), n in zip(parts, counts):
            items.append(part_rebuild(leaves[start:start + n]))
            start += n
        return build(items)
    return [leaf for leaves, _ in parts for leaf in leaves], rebuild
