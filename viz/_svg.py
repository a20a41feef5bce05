"""Small SVG helpers: make Graphviz's SVG fit inside an HTML page.

Graphviz writes a standalone document (XML declaration, DOCTYPE, a generator comment). Inside
HTML only the ``<svg>`` element may appear, so :func:`inline` keeps just that and tags it with
classes the page can style.
"""

import re

__all__ = ["inline", "html_block"]

_SVG_START = re.compile(r"<svg\b")


def inline(svg, prefix):
    """The ``<svg>`` element of ``svg`` alone, with ``class="mg-svg"`` and ``data-mg="prefix"``.

    Example:
        >>> inline('<?xml version="1.0"?>\\n<!-- x -->\\n<svg width="1pt"></svg>\\n', "mg1")
        '<svg class="mg-svg" data-mg="mg1" width="1pt"></svg>'
    """
    match = _SVG_START.search(svg)
    if match is None:
        raise ValueError("not an SVG document")
    body = svg[match.start():].strip()
    return body.replace("<svg", f'<svg class="mg-svg" data-mg="{prefix}"', 1)


def html_block(svg, prefix):
    """``svg`` inline in a scrollable ``<div>``, ready for a notebook's ``text/html`` output."""
    return (f'<div class="mg-drawing" id="{prefix}-wrap" style="max-width:100%;overflow:auto">'
            f"{inline(svg, prefix)}</div>")
