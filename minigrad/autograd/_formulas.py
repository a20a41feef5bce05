"""The chain-rule formula of each built-in op, and the numbers it needs, as plain data.

Each built-in ``Function`` subclass carries ``formula``: one expression per tensor input
(in ``next_functions`` order), next to its ``backward``, e.g. ``Mul.formula = ("grad * other",
"grad * self")``. The names in an expression are ``grad`` (the gradient the node receives),
the names of its saved tensors (``self``, ``other``, ``result`` …), the attributes its
``forward`` kept on ``ctx`` (``exponent``, ``alpha``, ``self_sym_sizes`` …) and the helper
functions of ``FUNCTIONS``. An expression reads as NumPy (``@`` is a matrix product, ``x.T`` a
transpose); its value, summed back to the input's shape where the op broadcast, is the gradient
the node sends to that input (tests/test_formulas.py checks every formula so).

``operands_of(node)`` collects the values the formula names, so that a recording can show the
arithmetic of each step ("∂/∂a = grad · b = 1 · 3 = 3") without keeping the tensors alive.

Example:
    >>> formula_names(("grad * other", "grad * self"))
    ('other', 'self')
"""

import re

import numpy as np

from minigrad.autograd._values import value_of

__all__ = ["FUNCTIONS", "formula_of", "formula_names", "operands_of", "operand_tensors",
           "ValueRef"]

# The helpers an expression may call (besides NumPy's operators and ``.T``).
FUNCTIONS = frozenset({
    "exp", "log", "sin", "cos", "sign", "sqrt", "floor", "where", "sigmoid",
    "expand",    # expand(g, shape): g broadcast to shape
    "spread",    # spread(g, shape, dim, keepdim): a reduction's g put back over dim, broadcast
    "reshape",   # reshape(g, shape)
    "squeeze",   # squeeze(g, dim)
    "unsqueeze",  # unsqueeze(g, dim)
    "permute_back",  # permute_back(g, dims): g with the permutation dims undone
    "swap",      # swap(g, dim0, dim1): two dimensions exchanged
    "mT",        # mT(x): the last two dimensions exchanged
    "outer",     # outer(u, v)
    "rowsum",    # rowsum(x, dim): sum over dim, kept as a size-1 dimension
    "divisor",   # divisor(mode, numel): numel for reduction="mean", else 1
    "between",   # between(x, bounds): 1 where lo <= x <= hi, else 0
    "count_equal",  # count_equal(x, y): how many elements of x equal y
})
_NAME = re.compile(r"(?<![.\w])[A-Za-z_]\w*")
_KEYWORDS = frozenset({"grad", "and", "or", "not", "if", "else", "True", "False", "None"})
_CACHE = {}


def formula_of(node):
    """The ``formula`` of the op that made ``node`` (``None`` for AccumulateGrad, custom ops)."""
    forward_cls = getattr(type(node), "_forward_cls", None)
    formula = getattr(forward_cls, "formula", None)
    return tuple(formula) if formula else None


def formula_names(formula):
    """The operand names of a formula (everything but ``grad``, keywords and helpers)."""
    names = _CACHE.get(formula)
    if names is None:
        seen = []
        for expression in formula:
            for name in _NAME.findall(expression or ""):
                if name not in FUNCTIONS and name not in _KEYWORDS and name not in seen:
                    seen.append(name)
        names = _CACHE[formula] = tuple(seen)
    return names


class ValueRef:
    """An operand kept as a reference into a ``ValueTable`` (``operands_of(..., table)``):
    ``record()`` stores the bytes now and makes the Value when the recording is read."""

    __slots__ = ("ref",)

    def __init__(self, ref):
        self.ref = ref

    def __repr__(self):
        return f"ValueRef({self.ref})"


def _plain(value, full_limit, table=None):
    """A ctx attribute as plain data: numbers and strings as they are, tuples as lists,
    tensors and arrays as Values (shape and dtype only above ``full_limit`` elements), or as
    a ``ValueRef`` into ``table``."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (tuple, list)):
        return [_plain(v, full_limit, table) for v in value]
    array = getattr(value, "_data", value)
    if hasattr(array, "dtype") and hasattr(array, "shape"):
        if array.size <= full_limit:
            if table is not None:
                return ValueRef(table.add_small(array))
            return value_of(array, full_limit)
        return {"shape": list(array.shape), "dtype": array.dtype.name}
    if hasattr(value, "name") and not callable(value.name):   # a minigrad dtype
        return str(value.name)
    return str(value)


def _plan(node):
    """``(saved names, formula, ((operand name, its saved slot or -1), ...))`` of ``node``'s
    class, worked out once per class (the saved names of built-in nodes are the class's)."""
    names = node._saved_names()
    plan = _PLANS.get(type(node))
    if plan is None or plan[0] is not names:
        formula = formula_of(node)
        plan = (names, formula, None if formula is None else tuple(
            (name, names.index(name) if name in names else -1)
            for name in formula_names(formula)))
        _PLANS[type(node)] = plan
    return plan


_PLANS = {}


def operands_of(node, full_limit, table=None, values=None):
    """``{name: plain value}`` of the operands ``node``'s formula names (``{}`` without one).

    Saved tensors are read without unpacking (no version check, no hooks); a slot that holds
    nothing (released, or not saved because no gradient needs it) gives ``None``. With a
    ``ValueTable``, small arrays are added to it and given as ``ValueRef``s; with ``values``
    (a function), their Values are ``values(array)``.
    """
    steps = _plan(node)[2]
    if steps is None:
        return {}
    saved = node._saved or ()
    result = {}
    for name, k in steps:
        if k >= 0:
            slot = saved[k] if k < len(saved) else None
            if slot is None:
                result[name] = None
                continue
            data = slot.tensor._data if slot.tensor is not None else slot.data
            if data is None:
                result[name] = None
            elif type(data) is np.ndarray and data.size <= full_limit and (
                    table is not None or values is not None):
                result[name] = ValueRef(table.add_small(data)) if table is not None else \
                    values(data)
            else:
                result[name] = _plain(data, full_limit, table)
        elif name in node.__dict__:
            result[name] = _plain(node.__dict__[name], full_limit, table)
    return result


def operand_tensors(node):
    """``{saved name: tensor}`` for the saved inputs of ``node`` that are still held (a saved
    output is the node's own result and needs no link)."""
    saved = node._saved
    if not saved or _plan(node)[1] is None:
        return {}
    return {name: slot.tensor for name, slot in zip(node._saved_names(), saved)
            if slot is not None and slot.tensor is not None}
