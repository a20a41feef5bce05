"""Shared small values: one tuple for all the nodes that hold an equal one.

Every node of a graph keeps a few small tuples: its output's shape and dtype, the shapes of its
inputs, the versions of what it saved. Most graphs repeat the same few, so each node can keep
the one already made instead of a new one. Besides memory, this spares the garbage collector:
a new tuple is tracked, counts towards the next collection and is visited until a collection
finds that it holds no object, so a graph of many small ops paid for several collections per
hundred ops only for such tuples (see ``benchmarks/bench_instructions.py``).

A table is a plain dict from a value to its shared object; the hot paths look up
``table.get(key)`` themselves and call ``shared`` only for a value not seen yet. A table is
emptied when it reaches ``LIMIT`` entries, so a program with ever new shapes does not grow it
without bound (the values already handed out stay valid: they are immutable).

Keys must be tuples whose parts compare as themselves: ints, None, NumPy dtypes, and tuples
of those (``True == 1`` would make ``(True,)`` and ``(1,)`` one key).
"""

__all__ = ["LIMIT", "shared"]

LIMIT = 4096


def shared(table, key, value=None):
    """Remember ``value`` (default: ``key`` itself) as the shared object for ``key`` in
    ``table`` and return it.

    >>> table = {}
    >>> a = shared(table, (3, 4))
    >>> table.get((3, 4)) is a
    True
    """
    if len(table) >= LIMIT:
        table.clear()
    table[key] = key if value is None else value
    return table[key]
