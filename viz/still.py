"""Where the stepper's notes go, and one frame of the stepper as a standalone SVG.

The stepper lays a graph out once. This module reads that SVG once (:func:`geometry`: the box of
every element, the midpoint of every arrow), decides once where each element's notes are drawn
(:func:`place_notes`: beside the element, on the side where its widest note covers no other
box), and widens the picture so that every note fits (:func:`widen`). The browser canvas
(``viz/static/stepper.js``) and :func:`frame_svg` draw notes with the same rules and sizes, so
a frame looks the same live, in an exported page and in a saved SVG.

Example:
    >>> svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="100pt" height="50pt" '
    ...        'viewBox="0.00 0.00 100.00 50.00">'
    ...        '<g id="p" class="graph" transform="scale(1 1) rotate(0) translate(4 46)">'
    ...        '<g id="p&#45;n1" class="node"><ellipse cx="40" cy="-20" rx="30" ry="18"/></g>'
    ...        '</g></svg>')
    >>> geometry(svg, "p")["n1"]
    [10.0, -38.0, 60.0, 36.0, 'ellipse']
"""

import html
import re
import xml.etree.ElementTree as ET

from viz.text import xml_safe

__all__ = ["FONT_SIZE", "LINE", "CHAR", "PAD", "geometry", "note_size", "place_notes", "leader",
           "widen", "frame_svg", "value_at", "covering", "STEPPER_CSS"]

FONT_SIZE, LINE, CHAR, PAD, GAP = 10, 12, 6.0, 3, 5
CAPTION_CHAR = 13 * 0.62  # room per character of a still's 13px caption, in a wide font
DOT = 2  # radius of the dot where a leader line leaves its element
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:e-?\d+)?")
_SVG_NS = "{http://www.w3.org/2000/svg}"
STEPPER_CSS = None  # filled lazily from viz/static/stepper.css by frame_svg


def _points(element):
    tag = element.tag.replace(_SVG_NS, "")
    if tag == "ellipse":
        cx, cy = float(element.get("cx")), float(element.get("cy"))
        rx, ry = float(element.get("rx")), float(element.get("ry"))
        return [(cx - rx, cy - ry), (cx + rx, cy + ry)]
    text = element.get("points") or element.get("d") or ""
    numbers = [float(n) for n in _NUMBER.findall(text)]
    return list(zip(numbers[0::2], numbers[1::2]))


def _polyline(d):
    """Points along a Graphviz edge path (``M x,y C x,y x,y x,y …``) with their distances."""
    numbers = [float(n) for n in _NUMBER.findall(d)]
    points = list(zip(numbers[0::2], numbers[1::2])) or [(0.0, 0.0)]
    samples = [points[0]]
    for k in range(1, len(points) - 2, 3):
        p0, p1, p2, p3 = points[k - 1], points[k], points[k + 1], points[k + 2]
        for step in range(1, 9):
            t = step / 8
            a, b, c, e = (1 - t) ** 3, 3 * t * (1 - t) ** 2, 3 * t * t * (1 - t), t ** 3
            samples.append((a * p0[0] + b * p1[0] + c * p2[0] + e * p3[0],
                            a * p0[1] + b * p1[1] + c * p2[1] + e * p3[1]))
    if len(samples) == 1:
        samples = points
    lengths = [0.0]
    for (x0, y0), (x1, y1) in zip(samples, samples[1:]):
        lengths.append(lengths[-1] + ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5)
    return samples, lengths


def _point_at(samples, lengths, fraction):
    """The point ``fraction`` of the way along a sampled path."""
    target = lengths[-1] * fraction
    for k in range(1, len(samples)):
        if lengths[k] >= target:
            span = (lengths[k] - lengths[k - 1]) or 1.0
            t = (target - lengths[k - 1]) / span
            (x0, y0), (x1, y1) = samples[k - 1], samples[k]
            return (round(x0 + t * (x1 - x0), 2), round(y0 + t * (y1 - y0), 2))
    return samples[-1]


FRACTIONS = (0.5, 0.35, 0.65, 0.22, 0.78)  # where along an arrow its note may sit
# What a note's spot costs per unit of area it covers: a box, a label or a note; an arrow;
# room out of the picture (the picture is widened for it); and, per unit of the note's own
# area, a spot at a box's corner (a note there is less clearly the box's own).
COVER, CROSS, OUTSIDE, CORNER = 40.0, 40.0, 0.1, 0.3
NOTE = 2000.0  # covering another note: two notes shown at once must never overlap
DIAGONAL, LEAD = 0.7071, 4.0  # cos 45°; how far a corner note stands off its element
FAR = (8.0, 18.0, 32.0, 50.0)  # how much further out a note may stand, tied by a leader line


def geometry(svg, prefix):
    """The boxes of a Graphviz SVG's elements: ``{id: [x, y, w, h]}``.

    Coordinates are those of the graph's ``<g>`` (where the notes are drawn); ids are scene ids
    (``n4``, ``e7``) without the drawing's prefix. An arrow gets the points where its note may
    sit (``[x, y, 0, 0, [[x, y], …], [[x, y], …]]``: middle first, then points every 6 pt
    along it, which other notes avoid) and, when Graphviz wrote a label on it, an entry
    ``"<id>:label"`` with the label's box, so that notes (its own included) keep clear of it.
    A node drawn as an ellipse has ``"ellipse"`` after its box (its notes' corner spots hug
    the curve, not the empty corner of the box).
    """
    root = ET.fromstring(svg[svg.index("<svg"):])
    start = prefix + "-"
    boxes = {}
    for group in root.iter(_SVG_NS + "g"):
        gid, classes = group.get("id") or "", (group.get("class") or "").split()
        if not gid.startswith(start):
            continue
        key = gid[len(start):]
        if "edge" in classes:
            path = group.find(_SVG_NS + "path")
            if path is not None:
                samples, lengths = _polyline(path.get("d", ""))
                spots = [list(_point_at(samples, lengths, f)) for f in FRACTIONS]
                steps = max(2, int(lengths[-1] // 6))      # the arrow itself, every 6 pt
                trail = [list(_point_at(samples, lengths, k / steps)) for k in range(steps + 1)]
                boxes[key] = [spots[0][0], spots[0][1], 0.0, 0.0, spots, trail]
            label = group.find(_SVG_NS + "text")
            if label is not None and (label.text or "").strip():
                width = len(label.text) * 5.0
                x, y = float(label.get("x")), float(label.get("y"))
                boxes[key + ":label"] = [round(x - width / 2, 2), round(y - 9, 2), width, 11.0]
        elif "node" in classes:
            points = [p for child in group for p in _points(child)
                      if child.tag.replace(_SVG_NS, "") in ("ellipse", "polygon", "path",
                                                           "polyline")]
            if points:
                xs, ys = [p[0] for p in points], [p[1] for p in points]
                boxes[key] = [round(min(xs), 2), round(min(ys), 2),
                              round(max(xs) - min(xs), 2), round(max(ys) - min(ys), 2)]
                outline = next((child.tag.replace(_SVG_NS, "") for child in group
                                if child.tag.replace(_SVG_NS, "") in ("ellipse", "polygon",
                                                                      "path", "polyline")), "")
                if outline == "ellipse":
                    boxes[key].append("ellipse")
    return boxes


def note_size(note, scale=1.0):
    """(width, height) of a note (``"kind\\ttext\\n…"``) as both renderers draw it, its type
    ``scale`` times the default (the classroom theme's notes are 1.5 times as large)."""
    lines = [line.split("\t", 1)[-1] for line in note.split("\n")] if note else []
    if not lines:
        return 0.0, 0.0
    return ((max(len(t) for t in lines) * CHAR + 2 * PAD) * scale,
            (len(lines) * LINE + 2 * PAD) * scale)


def _box(anchor, side, width, height):
    x, y = anchor
    return {"r": (x, y - height / 2), "l": (x - width, y - height / 2),
            "b": (x - width / 2, y), "t": (x - width / 2, y - height),
            "c": (x - width / 2, y - height / 2),
            "ne": (x, y - height), "nw": (x - width, y - height),
            "se": (x, y), "sw": (x - width, y)}[side] + (width, height)


def leader(place, width, height):
    """The leader line of a note placed at ``place`` (``[x, y, side, px, py]``): from the
    point ``(px, py)`` on its element's outline to the nearest point of the note's box;
    ``None`` for a note placed beside its element (``[x, y, side]``)."""
    if len(place) < 5:
        return None
    px, py = place[3], place[4]
    x, y, w, h = _box((place[0], place[1]), place[2], width, height)
    return (px, py, min(max(px, x), x + w), min(max(py, y), y + h))


class _Grid:
    """Boxes already taken, bucketed so that a query looks only at its neighbourhood."""

    CELL = 160.0

    def __init__(self):
        self.cells = {}

    def _keys(self, box):
        x, y, w, h = box[:4]
        for gx in range(int(x // self.CELL), int((x + w) // self.CELL) + 1):
            for gy in range(int(y // self.CELL), int((y + h) // self.CELL) + 1):
                yield gx, gy

    def add(self, owner, box, weight=1.0):
        entry = (owner, box, weight)
        for key in self._keys(box):
            self.cells.setdefault(key, []).append(entry)

    def cost(self, owner, box):
        """How much of ``box`` is covered by boxes of other owners, weighted (0: free)."""
        seen, total = set(), 0.0
        for key in self._keys(box):
            for entry in self.cells.get(key, ()):
                if entry[0] != owner and id(entry) not in seen:
                    seen.add(id(entry))
                    total += entry[2] * _overlap(box, entry[1])
        return total


def _crossed(boxes, key, start, end):
    """How many other boxes the horizontal leader line from ``start`` to ``end`` crosses."""
    (x0, y), x1 = start, end[0]
    lo, hi = min(x0, x1), max(x0, x1)
    return sum(1 for k, b in boxes.items() if k != key and b[2] > 0 and b[1] <= y <= b[1] + b[3]
               and b[0] < hi and b[0] + b[2] > lo)


def _overlap(a, b):
    w = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    h = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def _outside(rect, bounds):
    """The area of ``rect`` outside ``bounds`` (x0, y0, x1, y1): notes there widen the page."""
    x0, y0, x1, y1 = bounds
    inside = _overlap(rect, (x0, y0, x1 - x0, y1 - y0))
    return rect[2] * rect[3] - inside


def _candidates(box):
    """The spots where the notes of ``box`` may go: ``(anchor, side)`` or, for a spot at a
    corner, ``(anchor, side, point)`` where ``point`` on the outline is where its leader
    line starts."""
    x, y, w, h = box[:4]
    if w == 0 and len(box) > 4:
        spots = [((px, py), "c") for px, py in box[4]]
        return spots + [((x - 4, y), "l"), ((x + 4, y), "r")]
    if w == 0:
        return [((x, y), "c")]
    sides = [((x + w + GAP, y + h / 2), "r"), ((x - GAP, y + h / 2), "l"),
             ((x + w / 2, y + h + GAP), "b"), ((x + w / 2, y - GAP), "t")]
    # Further out, tied by a leader line: when every spot next to the box is taken.
    far = [((x + w / 2, y + h + GAP + d), "b", (x + w / 2, y + h)) for d in FAR] + \
        [((x + w / 2, y - GAP - d), "t", (x + w / 2, y)) for d in FAR] + \
        [((x + w + GAP + d, y + h / 2), "r", (x + w, y + h / 2)) for d in FAR] + \
        [((x - GAP - d, y + h / 2), "l", (x, y + h / 2)) for d in FAR]
    if box[4:5] == ["ellipse"]:
        # Diagonally out from the curve at 45°: the note's near corner just off the outline.
        cx, cy, rx, ry = x + w / 2, y + h / 2, w / 2 * DIAGONAL, h / 2 * DIAGONAL
        return sides + [((cx + sx * rx + sx * LEAD, cy + sy * ry + sy * LEAD), side,
                         (cx + sx * rx, cy + sy * ry))
                        for sx, sy, side in ((1, -1, "ne"), (1, 1, "se"), (-1, -1, "nw"),
                                             (-1, 1, "sw"))] + far
    inset = min(LEAD, h / 2)
    return sides + [((x + w + GAP, y), "r", (x + w, y + inset)),
                    ((x + w + GAP, y + h), "r", (x + w, y + h - inset)),
                    ((x - GAP, y), "l", (x, y + inset)),
                    ((x - GAP, y + h), "l", (x, y + h - inset))] + far


def _in_room(key, boxes, room, size):
    """The place of a note in the room Graphviz made for it (:mod:`viz.room`): centred in an
    arrow's label cell; beside a box, just off the box on the room's side when no arrow runs
    through the gap between box and room (``size``: the largest note), else at the room's
    near edge, tied to the box by a leader line. ``None`` when Graphviz put another box
    between the box and its room (the note is then searched for)."""
    x, y, w, h = room
    box = boxes[key]
    if box[2] == 0:
        return [round(x + w / 2, 2), round(y + h / 2, 2), "c"]
    cy = round(y + h / 2, 2)
    if y >= box[1] + box[3] - 1:      # the room is under its box (a box no arrow leaves)
        near, far, side = box[1] + box[3], y, "b"
        cx = round(x + w / 2, 2)
        snug = min(far, near + GAP)
        return [cx, round(snug, 2), side]
    if x >= box[0] + box[2] / 2:      # the room is right of its box
        near, far, side = box[0] + box[2], x, "r"
        snug = min(far, near + GAP)
    else:
        near, far, side = box[0], x + w, "l"
        snug = max(far, near - GAP)
    rect = _box((snug, cy), side, *size)
    crossed = any(rect[0] - GAP < px < rect[0] + rect[2] + GAP and
                  rect[1] - GAP < py < rect[1] + rect[3] + GAP
                  for k, b in boxes.items() if k != key and b[2] == 0 and len(b) > 5
                  for px, py in b[5])
    if _crossed(boxes, key, (near, cy), (far, cy)):   # another box between: not its room
        return None
    if not crossed:
        return [round(snug, 2), cy, side]
    return [round(far, 2), cy, side, round(near, 2), cy]


def place_notes(boxes, notes, rooms=None, scale=1.0):
    """Where each element's notes go: ``{id: [x, y, side]}``.

    An element with a room of its own in the layout (``rooms``: ``{id: [x, y, w, h]}``, made by
    :mod:`viz.room`) has its notes there. The others are placed by the search below.

    ``side`` is ``r`` (the note's left edge at x, centred vertically), ``l``, ``b`` (its top at
    y, centred), ``t``, ``c`` (centred on the point: arrows) or, off an ellipse's curve at 45°,
    ``ne se nw sw`` (the note's corner at the point, the note towards that compass point). A
    note at a corner gets two more numbers, ``[x, y, side, px, py]``: the point on its
    element's outline where a leader line to the note starts. Arrows are placed first, then
    boxes; each takes the first spot where its largest note covers no box, no arrow label
    (its own included), no note placed before it and no other arrow (or, failing that, the
    spot that costs least: covering a box, a label or a note costs most, crossing an arrow
    less, and reaching out of the picture, which only widens it, least).
    """
    grid = _Grid()
    solid = [b for b in boxes.values() if b[2] > 0]
    bounds = (min((b[0] for b in solid), default=0), min((b[1] for b in solid), default=0),
              max((b[0] + b[2] for b in solid), default=0),
              max((b[1] + b[3] for b in solid), default=0))
    for key, box in boxes.items():
        if box[2] > 0:
            grid.add(key, box, COVER)
        elif len(box) > 5:                       # an arrow: small squares along it
            for px, py in box[5]:
                grid.add(key, (px - 2.5, py - 2.5, 5.0, 5.0), CROSS)
    placed = {}
    for key, room in (rooms or {}).items():
        if key in boxes and key in notes:
            size = max((note_size(n, scale) for _, n in notes[key] if n), default=(0.0, 0.0))
            place = _in_room(key, boxes, room, size)
            if place is not None:
                placed[key] = place
                grid.add(key, tuple(room), NOTE)
    order = sorted((k for k in notes if k in boxes and k not in placed),
                   key=lambda k: boxes[k][2] > 0)
    for key in order:
        width, height = max((note_size(n, scale) for _, n in notes[key]), default=(0.0, 0.0))
        if width == 0:
            continue
        best = None
        spots = _candidates(boxes[key])
        box = boxes[key]
        if box[2] > 0:   # last resort: in the margin beside the picture, with a leader line
            cy = box[1] + box[3] / 2
            spots += [((bounds[2] + 2 * GAP, cy), "r", (box[0] + box[2], cy)),
                      ((bounds[0] - 2 * GAP, cy), "l", (box[0], cy))]
        for rank, (anchor, side, *point) in enumerate(spots):
            rect = _box(anchor, side, width, height)
            cost = grid.cost(key, rect) + OUTSIDE * _outside(rect, bounds)
            if point and abs(anchor[0] - point[0][0]) > 2 * LEAD + GAP:  # a long leader line:
                cost += 1e9 * _crossed(boxes, key, point[0], anchor)  # never across boxes
            if rank >= 4 and boxes[key][2] > 0:
                cost += CORNER * width * height
            if best is None or cost < best[0]:
                best = (cost, rank, anchor, side, rect, point)
            if cost == 0:
                break
        _, _, anchor, side, rect, point = best
        grid.add(key, rect, NOTE)
        placed[key] = [round(anchor[0], 2), round(anchor[1], 2), side]
        if point:
            placed[key] += [round(point[0][0], 2), round(point[0][1], 2)]
    return placed


_VIEWBOX = re.compile(r'viewBox="([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+)"')
_TRANSLATE = re.compile(r'<g id="[^"]*" class="graph[^"]*" transform="[^"]*translate\(([-\d.]+) '
                        r'([-\d.]+)\)"')
_SIZE = re.compile(r'<svg([^>]*?) width="([\d.]+)pt" height="([\d.]+)pt"')


def widen(svg, places, notes, scale=1.0):
    """``svg`` with its viewBox grown so that every note in ``notes`` fits."""
    view, shift = _VIEWBOX.search(svg), _TRANSLATE.search(svg)
    if view is None or shift is None:
        return svg
    vx, vy, vw, vh = (float(v) for v in view.groups())
    tx, ty = (float(v) for v in shift.groups())
    left, top, right, bottom = vx, vy, vx + vw, vy + vh
    for key, timeline in notes.items():
        if key not in places:
            continue
        x, y, side = places[key][:3]
        for _, note in timeline:
            if note:
                bx, by, bw, bh = _box((x, y), side, *note_size(note, scale))
                left, top = min(left, bx + tx - 2), min(top, by + ty - 2)
                right, bottom = max(right, bx + bw + tx + 2), max(bottom, by + bh + ty + 2)
    if (left, top, right, bottom) == (vx, vy, vx + vw, vy + vh):
        return svg
    width, height = right - left, bottom - top
    svg = svg.replace(view.group(0),
                      f'viewBox="{left:.2f} {top:.2f} {width:.2f} {height:.2f}"', 1)
    return _SIZE.sub(lambda m: f'<svg{m.group(1)} width="{width:.0f}pt" height="{height:.0f}pt"',
                     svg, count=1)


def covering(old, new):
    """``old`` if its viewBox already holds ``new``'s, else ``new`` grown to hold both: the same
    picture, widened only when the notes need more room (so a live view rarely changes)."""
    a, b = _VIEWBOX.search(old), _VIEWBOX.search(new)
    if a is None or b is None:
        return new
    ax, ay, aw, ah = (float(v) for v in a.groups())
    bx, by, bw, bh = (float(v) for v in b.groups())
    if ax <= bx and ay <= by and ax + aw >= bx + bw and ay + ah >= by + bh:
        return old
    x, y = min(ax, bx), min(ay, by)
    w, h = max(ax + aw, bx + bw) - x, max(ay + ah, by + bh) - y
    grown = new.replace(b.group(0), f'viewBox="{x:.2f} {y:.2f} {w:.2f} {h:.2f}"', 1)
    return _SIZE.sub(lambda m: f'<svg{m.group(1)} width="{w:.0f}pt" height="{h:.0f}pt"',
                     grown, count=1)


# ----------------------------------------------------------------- one frame as an SVG file
def value_at(timeline, event):
    """The value of a timeline (``[[event, value], …]``) at ``event``; ``""`` before it starts."""
    value = ""
    for start, item in timeline:
        if start > event:
            break
        value = item
    return value


def note_svg(note, place, scale=1.0):
    """The SVG of one note (a ``<g class="mgs-note">``), every text escaped; its type
    ``scale`` times the default."""
    width, height = note_size(note, scale)
    x, y, _, _ = _box((place[0], place[1]), place[2], width, height)
    lines = [line.split("\t", 1) for line in note.split("\n")]
    kind = html.escape(xml_safe(lines[0][0] if len(lines[0]) == 2 else "state"), quote=True)
    parts = [f'<g class="mgs-note mgs-note-{kind}">']
    lead = leader(place, width, height)
    if lead is not None:
        parts.append(f'<line class="mgs-leader" x1="{lead[0]:.1f}" y1="{lead[1]:.1f}" '
                     f'x2="{lead[2]:.1f}" y2="{lead[3]:.1f}"/><circle class="mgs-leader" '
                     f'cx="{lead[0]:.1f}" cy="{lead[1]:.1f}" r="{DOT:g}"/>')
    parts.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{width:.1f}" height="{height:.1f}" '
                 'rx="3"/>')
    size = f' style="font-size:{FONT_SIZE * scale:g}px"' if scale != 1 else ""
    for k, line in enumerate(lines):
        line_kind, text = (line if len(line) == 2 else ("state", line[0]))
        parts.append(f'<text class="mgs-line-{html.escape(line_kind, quote=True)}"{size} '
                     f'x="{x + PAD * scale:.1f}" '
                     f'y="{y + (PAD + (k + 1) * LINE - 3) * scale:.1f}">'
                     f"{html.escape(xml_safe(text), quote=False)}</text>")
    parts.append("</g>")
    return "".join(parts)


def frame_svg(svg, prefix, data, event, places=None):
    """One frame as a standalone SVG: classes, notes, caption and the stepper's CSS baked in.

    Args:
        svg: the prepared (widened) SVG of the stepper; prefix: its id prefix;
        data: the frame data (``viz.frames.build_frames``) with ``places``;
        event: the event index to show.
    """
    places = places if places is not None else data.get("places", {})
    start = prefix + "-"

    def restyle(match):
        raw_id, classes = match.group(1), match.group(2)
        key = html.unescape(raw_id)[len(start):] if html.unescape(raw_id).startswith(start) \
            else None
        extra = value_at(data["classes"].get(key, ()), event) if key is not None else ""
        if not extra:
            return match.group(0)
        added = " ".join(f"mgs-{c}" for c in extra.split())
        return f'<g id="{raw_id}" class="{classes} {added}"'
    body = re.sub(r'<g id="([^"]+)" class="([^"]+)"', restyle, svg)
    notes = []
    for key, timeline in data["notes"].items():
        note = value_at(timeline, event)
        if note and key in places:
            notes.append(note_svg(note, places[key], data.get("note_scale", 1.0)))
    overlay = '<g class="mgs-notes">' + "".join(notes) + "</g>"
    at = body.rfind("</g>")
    body = body[:at] + overlay + body[at:]
    return _with_caption(_with_style(body), data["captions"][event] if data["count"] else "")


def _stylesheet():
    global STEPPER_CSS
    if STEPPER_CSS is None:
        from importlib import resources
        STEPPER_CSS = resources.files("viz").joinpath("static/stepper.css").read_text("utf-8")
    return STEPPER_CSS


def _with_style(svg):
    css = _stylesheet().replace("]]>", "]] >")
    match = re.search(r"<svg\b[^>]*>", svg)
    end = match.end()
    opening = svg[match.start():end]
    if "mgs-root" not in opening:
        opening = opening.replace("<svg", '<svg class="mgs-root mgs-still"', 1) \
            if 'class="' not in opening else opening.replace('class="', 'class="mgs-root '
                                                               'mgs-still ', 1)
    return svg[:match.start()] + opening + f"<style><![CDATA[\n{css}]]></style>" + svg[end:]


def _with_caption(svg, caption):
    """Add ``caption`` under the picture (wrapped, escaped), growing the viewBox."""
    if not caption:
        return svg
    view = _VIEWBOX.search(svg)
    vx, vy, vw, vh = (float(v) for v in view.groups())
    per_line = max(30, int((vw - 12) / CAPTION_CHAR))
    words, lines, line = caption.split(), [], ""
    for word in words:
        if line and len(line) + len(word) + 1 > per_line:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    lines.append(line)
    lines = lines[:8]
    extra = 16 * len(lines) + 10
    # As wide as the longest line in a wide font (a narrow picture grows to hold it).
    width = max(vw, max(len(t) for t in lines) * CAPTION_CHAR + 12)
    svg = svg.replace(view.group(0),
                      f'viewBox="{vx:.2f} {vy:.2f} {width:.2f} {vh + extra:.2f}"', 1)
    svg = _SIZE.sub(lambda m: f'<svg{m.group(1)} '
                              f'width="{float(m.group(2)) * width / vw:.0f}pt" '
                              f'height="{float(m.group(3)) + extra:.0f}pt"', svg, count=1)
    texts = "".join(f'<text class="mgs-caption-line" x="{vx + 6:.1f}" '
                    f'y="{vy + vh + 16 * (k + 1):.1f}">{html.escape(xml_safe(t), quote=False)}'
                    '</text>' for k, t in enumerate(lines))
    at = svg.rfind("</svg>")
    return svg[:at] + f'<g class="mgs-caption">{texts}</g>' + svg[at:]
