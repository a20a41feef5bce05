"""What is inside each module-call box of a stepper: a small picture of its ops, laid out once
per structure.

A stepper that draws module calls as boxes (:mod:`viz.calls`) can open a box in place: a click
shows the ops of that call over the box, taking their states frame by frame. This module makes
the pictures. The calls of one module usually have the same ops in the same order (the 80
calls of an MLP, the 12 steps of an RNN cell), so each picture is laid out once per
*structure* — its boxes and arrows with the element ids replaced by their positions — and reused by
every call with that structure: the page stores one SVG per structure and, per call, its
element ids in the order of the picture's ids.

Example:
    >>> import minigrad as torch
    >>> from minigrad import nn
    >>> from minigrad.autograd.graph import record
    >>> from viz.playback import Playback
    >>> cell = nn.Linear(2, 2)
    >>> with record() as rec:
    ...     h = torch.zeros(1, 2)
    ...     for _ in range(3):
    ...         h = torch.tanh(cell(h))
    ...     h.sum().backward()
    >>> play = Playback(rec, names={"cell": cell}, collapse="modules")
    >>> calls = play.data["inside"]["calls"]
    >>> sorted(calls)
    ['m-cell-call1', 'm-cell-call2', 'm-cell-call3', 'm-cell-params']
    >>> {calls[f"m-cell-call{k}"][0] for k in (1, 2, 3)}   # three calls, one layout
    {0}
"""

import re
from dataclasses import replace

from viz import engines, layouts
from viz.dot import write_dot
from viz.scene import Scene

__all__ = ["inside_pictures", "LIMIT"]

LIMIT = 300   # the most elements a box may hold to get a picture of its inside


def _element_ids(source, prefix):
    return re.findall(rf'id="{re.escape(prefix)}-([A-Za-z0-9_-]+)"', source)


def _canonical(source, prefix, ids):
    """``source`` with every element id replaced by its position: equal for the same
    structure (the same ops, labels and arrows in the same order)."""
    position = {item: f"#{k}" for k, item in enumerate(ids)}
    source = source.replace(f"{prefix}-", f"{prefix} ")
    pattern = re.compile(r"(?<![\w-])[A-Za-z]\w*(?:-[A-Za-z]\w*)*(?![\w-])")
    return pattern.sub(lambda m: position.get(m.group(0), m.group(0)), source)


_NUMBER = re.compile(r"#\d+")
_ID = re.compile(r"(?<![\w-])[a-z]\d+(?:[-_]\w+)?(?![\w-])")   # n12, t7, e3_1, n4-s0


def _unnumbered(item):
    """``item`` without the ``#3`` that tells apart same-named nodes of the whole graph (inside
    one call it is not needed, and without it the calls of one module share one layout), and
    outside any cluster (the box is the call's frame)."""
    lines = [line for line in item.lines if not _NUMBER.fullmatch(line.text.strip())]
    if len(lines) == len(item.lines):
        return replace(item, group=None)
    return replace(item, lines=lines, group=None,
                   title=_NUMBER.sub("", item.title).replace("  ", " "))


def _structure(scene):
    """What a layout depends on, with the ids left out: equal for two calls of one module
    that made the same ops (boxes, their text and look, arrows between the same positions)."""
    position = {item_id: k for k, item_id in enumerate(scene.items)}
    items = tuple((i.kind, _ID.sub("#", i.title), tuple(sorted(i.flags)),
                   tuple((line.text, line.role) for line in i.lines))
                  for i in scene.items.values())
    links = tuple((position[k.source], position[k.target], k.kind, k.label,
                   tuple(sorted(k.flags))) for k in scene.links)
    return items, links


def _sub_scene(full, members, links_from):
    inside = set(members)
    scene = Scene(view=full.view, rankdir=full.rankdir)
    for item_id in members:
        if item_id in full.items:
            scene.items[item_id] = _unnumbered(full.items[item_id])
    scene.links = [link for m in members for link in links_from.get(m, ())
                   if link.target in inside and link.target in full.items]
    return scene


def inside_pictures(full, members, titles, prefix, theme=None, engine=None):
    """The pictures of the insides of the boxes ``members`` (box id → member ids).

    Args:
        full: the uncollapsed scene of the same graph (every item of every box).
        members: box id → the ids of the items the box stands for (``scene.members``).
        titles: box id → the title shown above the opened box.
        prefix: the stepper's SVG id prefix (the pictures' ids start with ``prefix-in``).

    Returns:
        dict: ``{"pictures": [svg, …], "orders": [the ids each picture was drawn with, …],
        "calls": {box: [picture index, [its ids, in the order of the picture's], title]}}``:
        one layout per picture.
    """
    links_from = {}
    for link in full.links:
        links_from.setdefault(link.source, []).append(link)
    inner = f"{prefix}-in"
    pictures, orders, templates, calls = [], [], {}, {}
    for box, ids in members.items():
        scene = _sub_scene(full, [i for i in ids if i in full.items], links_from)
        if not scene.items or len(scene.items) + len(scene.links) > LIMIT:
            continue
        order = list(scene.items) + [link.id for link in scene.links]   # as write_dot writes
        key = _structure(scene)
        if key not in templates:
            source = write_dot(scene, prefix=inner, theme=theme)
            if _element_ids(source, inner) != order:   # pragma: no cover - write_dot changed
                order = _element_ids(source, inner)
                key = _canonical(source, inner, order)
            svg = layouts.render(engines.get_engine(engine), source, "svg",
                                 inner).decode("utf-8")
            templates[key] = (len(pictures), order)
            pictures.append(_bare(svg))
            orders.append(order)
        calls[box] = [templates[key][0], order, titles.get(box, box)]
    return {"pictures": pictures, "orders": orders, "calls": calls}


def _bare(svg):
    """The ``<svg>`` element of a rendered picture, without the XML prologue and comments."""
    start = svg.find("<svg")
    return re.sub(r"<!--.*?-->", "", svg[start:], flags=re.S) if start >= 0 else svg
