"""Room for the stepper's notes, made by Graphviz itself: no note is placed after the fact.

Before the stepper's graph is laid out, every element that will ever show a note gets room of
its largest note's size in the layout (:func:`reserve`):

* an arrow gets an edge label of that size (a cell of a fixed size, with the arrow's slot
  number in it while no note is shown): ``dot`` ranks a label like a box and routes every other
  arrow around it, so the note drawn there crosses no arrow and covers no label;
* a box (a node, a tensor) gets an empty companion box of that size, joined to it by an
  invisible arrow, so that ``dot`` keeps it beside its element (in its rank) or, for a box no
  arrow leaves (a leaf, a constant: the bottom of the picture), under it, and routes around it.

:func:`rooms` reads the laid-out SVG back: ``{element id: [x, y, w, h]}``, the room of each
element, where :func:`viz.still.place_notes` puts its notes. An element whose room is missing
(a Graphviz without HTML-like labels) is placed by the older search of :mod:`viz.still`.

Example:
    >>> src = ('digraph g {\\n  "a" [id="p-n1" label="a"];\\n  "b" [id="p-n2" label="b"];\\n'
    ...        '  "a" -> "b" [id="p-e1" label=" 0 "];\\n}\\n')
    >>> text = reserve(src, "p", {"n1": [[0, "state\\twaits"]], "e1": [[0, "flow\\t[0] 1."]]})
    >>> 'id="p-room-n1"' in text and 'ID="p-room-e1"' in text
    True
"""

import re
import xml.etree.ElementTree as ET

from viz.dot import html_escape
from viz.still import note_size

__all__ = ["reserve", "rooms", "unmarked", "ROOM"]

_SVG = "{http://www.w3.org/2000/svg}"
ROOM = "room-"   # a room's id: the drawing's prefix, "room-", the element's scene id
_STATEMENT = re.compile(r'^(\s*)("(?:[^"\\]|\\.)*")( -> "(?:[^"\\]|\\.)*")? \[(.*)\];$')
_LABEL = re.compile(r' label="((?:[^"\\]|\\.)*)"')


MARGIN = 6   # points of room around a note: Graphviz's splines may clip a label's corner


def _largest(timeline, scale):
    sizes = [note_size(note, scale) for _, note in timeline if note]
    if not sizes:
        return None
    return (max(w for w, _ in sizes) + 2 * MARGIN * scale,
            max(h for _, h in sizes) + 2 * MARGIN * scale)


def _edge_label(prefix, key, text, size):
    """An HTML-like edge label: one cell of ``size`` points holding ``text`` (the slot)."""
    w, h = size
    return (f'label=<<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="0"><TR>'
            f'<TD ID="{prefix}-{ROOM}{key}" WIDTH="{w:.0f}" HEIGHT="{h:.0f}" FIXEDSIZE="TRUE" '
            f'BGCOLOR="transparent">{html_escape(text)}</TD></TR></TABLE>>')


def reserve(source, prefix, notes, scale=1.0):
    """``source`` (the stepper's DOT text) with room for every element's notes.

    Args:
        source: DOT text written by :func:`viz.dot.write_dot` (one statement a line).
        prefix: the drawing's id prefix.
        notes: ``{element id: [[event, note], …]}`` (the frame data's ``notes``).
        scale: the notes' size (1.5 in the classroom theme).
    """
    out, joins = [], []
    lines = source.split("\n")
    tails = {m[2] for m in map(_STATEMENT.match, lines) if m and m[3]}
    for line in lines:
        match = _STATEMENT.match(line)
        key = None
        if match:
            found = re.search(rf'\bid="{re.escape(prefix)}-([^"]+)"', match[4])
            key = found[1] if found else None
        size = _largest(notes.get(key) or (), scale) if key else None
        if size is None:
            out.append(line)
            continue
        indent, name, arrow, attrs = match.groups()
        if arrow:                                   # an arrow: a label of the note's size
            label = _LABEL.search(" " + attrs)
            text = label[1].strip().replace('\\"', '"') if label else ""
            attrs = _LABEL.sub("", " " + attrs).strip()
            out.append(f"{indent}{name}{arrow} [{attrs} "
                       f"{_edge_label(prefix, key, text, size)}];")
            continue
        room = f'"{ROOM}{key}"'
        out.append(line)
        out.append(f'{indent}{room} [id="{prefix}-{ROOM}{key}" class="mgs-room" shape=box '
                   f'fixedsize=true width={size[0] / 72:.3f} height={size[1] / 72:.3f} '
                   'label="" color="transparent" fillcolor="transparent" style=filled];')
        if name in tails:       # beside its box, in its rank
            out.append(f"{indent}{{rank=same; {name}; {room}}}")
        weight = 8 if name in tails else 100                           # else: under it
        joins.append(f"  {name} -> {room} [style=invis weight={weight}];")
    at = len(out) - 1 - out[::-1].index("}") if "}" in out else len(out)
    return "\n".join(out[:at] + joins + out[at:])


def rooms(boxes, svg, prefix):
    """``{element id: [x, y, w, h]}``: the room made for each element's notes in the laid-out
    ``svg`` (companion boxes from ``boxes``, the geometry of :func:`viz.still.geometry`;
    arrows' label cells read from the SVG: the transparent rectangle in the arrow's group)."""
    found = {key[len(ROOM):]: box[:4] for key, box in boxes.items() if key.startswith(ROOM)}
    root = ET.fromstring(svg[svg.index("<svg"):])
    start = prefix + "-"
    for group in root.iter(_SVG + "g"):
        gid = group.get("id") or ""
        if not gid.startswith(start) or "edge" not in (group.get("class") or "").split():
            continue
        for poly in group.iter(_SVG + "polygon"):
            if poly.get("fill") == "transparent":
                numbers = [float(v) for v in re.split(r"[ ,]+", poly.get("points").strip())]
                xs, ys = numbers[0::2], numbers[1::2]
                found[gid[len(start):]] = [min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)]
    return found


_MARK = re.compile(r'<polygon fill="transparent" stroke="transparent" points="[^"]*"/>\n?')


def unmarked(svg):
    """``svg`` without the rectangles that mark the rooms (read by :func:`rooms` first): an
    arrow's styles (``.edge.mgs-flow > polygon``, its head) must not paint them."""
    return _MARK.sub("", svg)
