"""Layouts kept by graph structure: the same picture is laid out once.

Graphviz is the expensive step of every picture (docs/big-networks.md). A DOT text that was
laid out before — the same graph drawn again, a stepper made again over the same loss, the
same module call opened twice — differs from the earlier one at most in its random SVG id
prefix, so its layout is looked up here instead of running Graphviz again: the key is the
text with the prefix taken out, the value the rendered bytes with the prefix taken out.

Example:
    >>> from viz.examples import mul_sum
    >>> from viz.drawing import draw
    >>> first = draw(mul_sum(), id_prefix="aa").svg()
    >>> second = draw(mul_sum(), id_prefix="bb").svg()     # laid out once
    >>> second == first.replace('id="aa', 'id="bb')
    True
"""

from collections import OrderedDict

__all__ = ["render", "clear", "SIZE", "stats"]

SIZE = 32          # pictures kept (the least recently used goes first)
_KEPT = OrderedDict()
stats = {"hits": 0, "misses": 0}


def _without(text, prefix):
    """``text`` with its ids' prefix taken out, or ``None`` when the prefix also appears
    elsewhere (a label that happens to contain it): such a picture is not kept."""
    mark = f'id="{prefix}'
    if text.count(prefix) != text.count(mark):
        return None
    return text.replace(mark, 'id="\0')


def render(engine, source, fmt, prefix):
    """``engine.render(source, fmt)``, from the kept layouts when ``source`` was laid out
    before by the same kind of engine (with any id ``prefix``)."""
    if fmt != "svg":
        return engine.render(source, fmt)
    key = _without(source, prefix)
    if key is not None:
        key = (type(engine).__name__, key)
        hit = _KEPT.get(key)
        if hit is not None:
            _KEPT.move_to_end(key)
            stats["hits"] += 1
            return hit.replace('id="\0', f'id="{prefix}').encode("utf-8")
    stats["misses"] += 1
    out = engine.render(source, fmt)
    if key is not None:
        value = _without(out.decode("utf-8"), prefix)
        if value is not None:
            _KEPT[key] = value
            while len(_KEPT) > SIZE:
                _KEPT.popitem(last=False)
    return out


def clear():
    """Forget every kept layout."""
    _KEPT.clear()
