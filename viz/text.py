"""Text that goes into a picture: made safe, kept short, and numbers written compactly.

Every user string (a tensor's name, a hook's name, a module path, a value) passes through
:func:`clean` before it reaches DOT: control and format characters would make the SVG invalid
XML or reorder the text, and a 100 kB name would make a 100 kB wide node. The escaping for DOT
itself lives in :mod:`viz.dot`.

Values arrive as the snapshot's ``Value`` dicts (see docs/graph-data.md): ``data`` for small
tensors, ``summary`` for big ones. :func:`value_lines` turns one into at most a few short lines.
"""

import math
import re
import unicodedata

__all__ = ["clean", "xml_safe", "shorten", "wrap", "number", "value_lines", "shape_text", "plural"]

NAME_LIMIT = 40
ROW_LIMIT = 4
ROWS_SHOWN = 3

_REPLACEMENT = "\N{REPLACEMENT CHARACTER}"
_VISIBLE = {"\n": "\N{DOWNWARDS ARROW WITH CORNER LEFTWARDS}", "\r": "", "\t": " "}


def clean(text, limit=NAME_LIMIT):
    """``text`` as one safe, short line: control characters replaced, long text cut with "…".

    Example:
        >>> clean("a\\nb")
        'a↵b'
        >>> clean("x" * 100, limit=8)
        'xxxxxxx…'
    """
    text = str(text)
    if len(text) > limit * 4:
        text = text[: limit * 4]  # never scan a huge string character by character
    out = []
    for ch in text:
        if ch in _VISIBLE:
            out.append(_VISIBLE[ch])
        elif unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn"):
            out.append(_REPLACEMENT)
        else:
            out.append(ch)
    return shorten("".join(out), limit)


_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_safe(text):
    """``text`` with the characters XML 1.0 forbids (U+0000, U+001B, …) replaced by "�".

    Example:
        >>> xml_safe("a\\x00b")
        'a�b'
    """
    return _NOT_XML.sub(_REPLACEMENT, str(text))


def shorten(text, limit):
    """Cut ``text`` to ``limit`` characters, marking the cut with "…"."""
    return text if len(text) <= limit else text[: limit - 1] + "\N{HORIZONTAL ELLIPSIS}"


def wrap(text, width, max_lines):
    """``text`` in lines of at most ``width`` characters, at most ``max_lines`` of them (the
    last one ends with "…" when text was left out).

    Example:
        >>> wrap("one two three four five", 9, 2)
        ['one two', 'three …']
    """
    lines, line = [], ""
    for word in str(text).split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = ""
            if len(lines) == max_lines:
                lines[-1] = shorten(lines[-1] + " \N{HORIZONTAL ELLIPSIS}", width)
                return [shorten(x, width) for x in lines]
        line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return [shorten(x, width) for x in lines]


def plural(count, word):
    """``"1 hook"``, ``"2 hooks"``."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def number(x):
    """One number, short: ``2.0`` → ``"2"``, ``0.333333`` → ``"0.3333"``, ``"nan"`` stays."""
    if isinstance(x, str):
        return clean(x, 12)
    if isinstance(x, bool):
        return str(x)
    if isinstance(x, int):
        return str(x) if abs(x) < 10**9 else f"{x:.3g}"
    if isinstance(x, float):
        if math.isnan(x) or math.isinf(x):
            return str(x)
        return f"{x:.4g}"
    return clean(x, 12)


def shape_text(shape):
    """``[2, 3]`` → ``"(2, 3)"``, ``[]`` → ``"()"``, as ``tuple(tensor.shape)`` prints."""
    if shape is None:
        return "?"
    dims = [number(d) for d in shape]
    return "(" + dims[0] + ",)" if len(dims) == 1 else "(" + ", ".join(dims) + ")"


def _row(values):
    """A (possibly nested) list as ``[1, 2, …, 9]``: at most ``ROW_LIMIT`` items per level."""
    if not isinstance(values, list):
        return number(values)
    if len(values) > ROW_LIMIT:
        items = [_row(v) for v in values[: ROW_LIMIT - 1]]
        items += ["\N{HORIZONTAL ELLIPSIS}", _row(values[-1])]
    else:
        items = [_row(v) for v in values]
    return "[" + ", ".join(items) + "]"


def value_lines(value, label=""):
    """A ``Value`` dict as at most four short lines, each starting with ``label``.

    Example:
        >>> value_lines({"shape": [3], "dtype": "float32", "data": [1.0, 2.5, 3.0]}, "data ")
        ['data [1, 2.5, 3]']
        >>> value_lines({"shape": [], "dtype": "float32", "data": 6.0}, "grad ")
        ['grad 6']
        >>> value_lines(None, "grad ")
        ['grad None']
    """
    if value is None:
        return [f"{label}None"]
    if not isinstance(value, dict):
        return [clean(f"{label}{value}", 60)]
    if "summary" in value:
        return _summary_lines(value.get("summary") or {}, label)
    data = value.get("data")
    if isinstance(data, list) and data and isinstance(data[0], list):
        rows = [_row(r) for r in data[:ROWS_SHOWN]]
        if len(data) > ROWS_SHOWN:
            rows.append(f"\N{HORIZONTAL ELLIPSIS} {len(data)} rows")
        pad = " " * len(label)
        return [clean((label if i == 0 else pad) + r, 60) for i, r in enumerate(rows)]
    return [clean(label + _row(data), 60)]


def _summary_lines(summary, label):
    parts = [f"{key} {number(summary[key])}" for key in ("min", "max", "mean", "norm")
             if key in summary]
    first = "  ".join(parts[:2]) or "(summary)"
    lines = [clean(label + first, 60)]
    if parts[2:]:
        lines.append(clean(" " * len(label) + "  ".join(parts[2:]), 60))
    return lines
