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
LONG = 24          # a setting (geometry, pieces) longer than this is shown by its name
_NAME = re.compile(r"(\[)?(?<![.\w])([A-Za-z_]\w*)(\])?")
_SHAPE = re.compile(r"(?<![.\w])([A-Za-z_]\w*)\.shape")
_GRADS = re.compile(r"(?<![.\w])grads\[(\d+)\]")
_ALL_GRADS = re.compile(r"(?<![.\w])grads(?![\w\[])")
_OR_ONE = re.compile(r"or_one\((\w+)\)")
_DIVISOR = re.compile(r"divisor\((\w+), (\w+)\)")
_TIMES_ONE = re.compile(r" [*/] 1(?![\w.])")


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


def _index_part(x):
    if hasattr(x, "get") and "slice" in x:
        start, stop, step = (("" if v is None else str(v)) for v in x["slice"])
        return f"{start}:{stop}" + (f":{step}" if step not in ("", "1") else "")
    if hasattr(x, "get") and "ellipsis" in x:
        return "..."
    if _is_value(x):
        return _text(x) if _size(x) <= SMALL and "data" in x else f"<{_dims(x)} indices>"
    return _plain_text(x)


def _index_text(index):
    """An index as Python writes it: ``[1]``, ``[:, 1:3]``, ``[[0, 2]]``."""
    parts = [_index_part(x) for x in (index if isinstance(index, (list, tuple)) else [index])]
    while len(parts) > 1 and parts[-1] == "...":
        parts.pop()
    return "[" + ", ".join(parts) + "]"


def _plain_text(x):
    """A ctx attribute (a number, a tuple of ints, a string) as short text."""
    if isinstance(x, (list, tuple)):
        if any(hasattr(v, "get") and ("slice" in v or "ellipsis" in v) for v in x):
            return _index_text(x)
        inner = ", ".join(_plain_text(v) for v in x)
        return f"({inner},)" if len(x) == 1 else f"({inner})"
    if _is_value(x):
        return _text(x) if _size(x) <= SMALL and "data" in x else f"({_dims(x)})"
    if isinstance(x, float) and x.is_integer():
        return f"{x:.0f}."
    return str(x)


def pretty(expression):
    """A formula expression as a student reads it: ``·`` for ``*``, ``^`` for ``**``, ``ᵀ``."""
    text = expression.replace("**", "^").replace(" * ", " · ").replace(".T", "ᵀ")
    return text.replace("(1 - ", "(1 − ").replace(" - ", " − ")


def _substitute(expression, words):
    """``expression`` with each operand name replaced by ``words[name]`` (others kept); an
    index word ``[…]`` written as ``g[index]`` keeps one pair of brackets."""
    def word(m):
        opening, name, closing = m.group(1) or "", m.group(2), m.group(3) or ""
        text = words.get(name, name)
        if opening and closing and text.startswith("[") and text.endswith("]"):
            return text
        return opening + text + closing
    return _NAME.sub(word, expression)


def _simplify(expression, operands):
    """Settings read as numbers: ``or_one(w)`` is w (1 without a weight), ``divisor(mode, n)``
    is n for a mean (1 for a sum), and a factor 1 is left out (as it is once numbers are in:
    ``grad · alpha`` with alpha = 1 reads ``grad``)."""
    expression = _OR_ONE.sub(lambda m: m.group(1) if operands.get(m.group(1)) is not None
                             else "1", expression)
    expression = _DIVISOR.sub(lambda m: m.group(2) if operands.get(m.group(1)) == "mean"
                              else "1", expression)
    return _TIMES_ONE.sub("", expression)


def _grads_as(expression, grads, text):
    """``grads[k]`` replaced by ``text`` of the k-th received gradient (0 for an unused one),
    ``grads`` by all of them."""
    def one(value):
        return "0" if value is None else text(value)
    expression = _GRADS.sub(lambda m: one(grads[int(m.group(1))] if int(m.group(1)) < len(
        grads) else None), expression)
    return _ALL_GRADS.sub("(" + ", ".join(one(g) for g in grads) + ")", expression)


def _shapes_as_numbers(expression, values):
    """``x.shape`` replaced by the shape of the tensor x, e.g. ``(2, 3)``."""
    def one(m):
        value = values.get(m.group(1))
        return _plain_text(list(value["shape"])) if _is_value(value) else m.group(0)
    return _SHAPE.sub(one, expression)


def chain_rule(node, grad, sent, inputs, names, compact=False):
    """One line per input that got a gradient: ``∂/∂<input> = formula = numbers = result``.

    Args:
        node: the snapshot's NodeInfo (with ``formula`` and ``operands``).
        grad: the Value the node received, or the list of them for a node with several
            outputs (``None`` for an output that received nothing).
        sent: the Values it sent (``None``: nothing).
        inputs: a display name per input (the tensor the gradient is for).
        names: operand name → the student's name of that tensor (``self`` → ``a``).
        compact: for the picture: a big tensor's line gives only the result's shape.
    """
    formula, operands = node.get("formula"), node.get("operands") or {}
    grads = list(grad) if isinstance(grad, (list, tuple)) else [grad]
    if not formula or all(g is None for g in grads):
        return []
    lines = []
    for position, expression in enumerate(formula):
        result = sent[position] if position < len(sent) else None
        if result is None or not expression:
            continue
        target = inputs[position] if position < len(inputs) else f"input {position}"
        lines.append(_line(_simplify(expression, operands), grads, operands, names, target,
                           result, compact))
    return lines


def _line(expression, grads, operands, names, target, result, compact):
    used = [n for _, n, _ in _NAME.findall(expression) if n in operands or n == "grad"]
    values = {n: grads[0] if n == "grad" else operands.get(n) for n in used}
    symbols = {n: names.get(n, n) for n in used}
    for n in used:                     # numbers (exponent, alpha) are shown as numbers
        if n == "index" and values[n] is not None:
            symbols[n] = _index_text(values[n])
        elif not _is_value(values[n]) and values[n] is not None:
            text = _plain_text(values[n])
            symbols[n] = text if len(text) <= LONG else n
    head = f"∂/∂{target} = {pretty(_TIMES_ONE.sub('', _substitute(expression, symbols)))}"
    received = [g for g in grads if g is not None] if "grads" in expression else []
    tensors = [v for v in values.values() if _is_value(v)] + received + [result]
    plain = _shapes_as_numbers(expression, values)
    if all(_size(v) <= SMALL and "data" in v for v in tensors):
        words = {n: _text(v) if _is_value(v) else symbols[n]
                 for n, v in values.items() if v is not None}
        numbers = pretty(_TIMES_ONE.sub("", _substitute(_grads_as(plain, grads, _text), words)))
        if numbers == _text(result):
            return f"{head} = {numbers}"
        return f"{head} = {numbers} = {_text(result)}"
    if compact:
        return f"{head} → {_dims(result)}"
    shapes = {n: (f"({_dims(v)})" if _is_value(v) else symbols[n]) for n, v in values.items()}
    shaped = _grads_as(plain, grads, lambda v: f"({_dims(v)})")
    return f"{head}: {pretty(_substitute(shaped, shapes))} → {_dims(result)}"


def accumulate_text(name, before, added, after):
    """``x.grad = None + 3. = 3.`` (or ``2. + 3. = 5.`` when it was not zeroed)."""
    if all(v is None or (_size(v) <= SMALL and "data" in v) for v in (before, added, after)):
        old = "None" if before is None else _text(before)
        return f"{name}.grad = {old} + {_text(added)} = {_text(after)}" if added is not None \
            else f"{name}.grad = {_text(after)}"
    return f"{name}.grad = {'None' if before is None else '.grad'} + grad → {_dims(after)}"
