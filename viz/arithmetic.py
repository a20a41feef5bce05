"""The arithmetic of one backward step: the chain rule of a node with its numbers in it.

Each built-in op carries its formula (one expression per input, beside its ``backward``), and
a recording keeps the numbers it used (``node["formula"]`` and ``node["operands"]`` in the
snapshot, docs/graph-data.md). This module only writes them out for a student::

    ∂/∂a = grad · b = 1. · 3. = 3.
    ∂/∂W = grad @ xᵀ: (8×1) @ (1×2)ᵀ → 8×2

Tensors of at most ``SMALL`` elements show their values; bigger ones the formula with shapes.
The last number is always the gradient the node really sent (from the recording), never one
computed here.

Example:
    >>> node = {"formula": ["grad * other", "grad * self"], "saved": [],
    ...         "operands": {"self": {"shape": [], "dtype": "float32", "data": 2.0},
    ...                      "other": {"shape": [], "dtype": "float32", "data": 3.0}}}
    >>> one = {"shape": [], "dtype": "float32", "data": 1.0}
    >>> sent = [{"shape": [], "dtype": "float32", "data": 3.0},
    ...         {"shape": [], "dtype": "float32", "data": 2.0}]
    >>> chain_rule(node, one, sent, ["a", "b"], {"self": "a", "other": "b"})
    ['∂/∂a = grad · b = 1. · 3. = 3.', '∂/∂b = grad · a = 1. · 2. = 2.']
"""

import math
import re

__all__ = ["SMALL", "chain_rule", "pretty", "accumulate_text"]

SMALL = 4          # tensors with at most this many elements show their values
LIMIT = 60         # characters of one line on the picture
_NAME = re.compile(r"(?<![.\w])[A-Za-z_]\w*")


def _size(value):
    shape = list((value or {}).get("shape") or [])
    return math.prod(shape) if shape else 1


def _dims(value):
    shape = list((value or {}).get("shape") or [])
    return "×".join(str(s) for s in shape) or "scalar"


def _text(value):
    from viz.frames import value_text
    return value_text(value, SMALL)


def _is_value(x):
    return hasattr(x, "get") and "shape" in x


def _plain_text(x):
    """A ctx attribute (a number, a tuple of ints, a string) as short text."""
    if isinstance(x, (list, tuple)):
        return "(" + ", ".join(_plain_text(v) for v in x) + ")"
    if isinstance(x, float) and x.is_integer():
        return f"{x:.0f}."
    return str(x)


def pretty(expression):
    """A formula expression as a student reads it: ``·`` for ``*``, ``^`` for ``**``, ``ᵀ``."""
    text = expression.replace("**", "^").replace(" * ", " · ").replace(".T", "ᵀ")
    return text.replace("(1 - ", "(1 − ").replace(" - ", " − ")


def _substitute(expression, words):
    """``expression`` with each operand name replaced by ``words[name]`` (others kept)."""
    return _NAME.sub(lambda m: words.get(m.group(0), m.group(0)), expression)


def chain_rule(node, grad, sent, inputs, names, compact=False):
    """One line per input that got a gradient: ``∂/∂<input> = formula = numbers = result``.

    Args:
        node: the snapshot's NodeInfo (with ``formula`` and ``operands``).
        grad: the Value the node received; sent: the Values it sent (``None``: nothing).
        inputs: a display name per input (the tensor the gradient is for).
        names: operand name → the student's name of that tensor (``self`` → ``a``).
        compact: for the picture: a big tensor's line gives only the result's shape.
    """
    formula, operands = node.get("formula"), node.get("operands") or {}
    if not formula or grad is None:
        return []
    lines = []
    for position, expression in enumerate(formula):
        result = sent[position] if position < len(sent) else None
        if result is None or not expression:
            continue
        target = inputs[position] if position < len(inputs) else f"input {position}"
        used = [n for n in _NAME.findall(expression) if n in operands or n == "grad"]
        values = {n: grad if n == "grad" else operands.get(n) for n in used}
        symbols = {n: names.get(n, n) for n in used}
        for n in used:                     # numbers (exponent, alpha) are shown as numbers
            if not _is_value(values[n]) and values[n] is not None:
                symbols[n] = _plain_text(values[n])
        head = f"∂/∂{target} = {pretty(_substitute(expression, symbols))}"
        tensors = [v for v in values.values() if _is_value(v)] + [result]
        if all(_size(v) <= SMALL and "data" in v for v in tensors):
            words = {n: (_text(v) if _is_value(v) else _plain_text(v))
                     for n, v in values.items() if v is not None}
            numbers = pretty(_substitute(expression, words))
            line = f"{head} = {numbers} = {_text(result)}"
            if numbers == _text(result):
                line = f"{head} = {numbers}"
        elif compact:
            line = f"{head} → {_dims(result)}"
        else:
            shapes = {n: (f"({_dims(v)})" if _is_value(v) else symbols[n])
                      for n, v in values.items()}
            line = f"{head}: {pretty(_substitute(expression, shapes))} → {_dims(result)}"
        lines.append(line)
    return lines


def accumulate_text(name, before, added, after):
    """``x.grad = None + 3. = 3.`` (or ``2. + 3. = 5.`` when it was not zeroed)."""
    if all(v is None or (_size(v) <= SMALL and "data" in v) for v in (before, added, after)):
        old = "None" if before is None else _text(before)
        return f"{name}.grad = {old} + {_text(added)} = {_text(after)}" if added is not None \
            else f"{name}.grad = {_text(after)}"
    return f"{name}.grad = {'None' if before is None else '.grad'} + grad → {_dims(after)}"
