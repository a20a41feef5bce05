"""One box per ``nn.Module`` *call*: the same layer called 12 times is 12 boxes.

A snapshot lists the module calls that made its nodes (``module_calls``: module name, class,
parent call, ``index`` of ``count``) and each node's innermost call (``call``), see
docs/graph-data.md. This module turns them into boxes:

* nested calls collapse to any depth: ``collapse_depth=1`` boxes the outermost calls (80 calls
  of a model: 80 boxes), ``2`` their children, and so on; by default the deepest level that
  stays under :data:`AUTO_BOXES` boxes (a model called once: its layers);
* a box is titled ``4: Linear`` (a single call), ``cell (call 3 of 12)`` (a reused module);
* parameters stay outside the boxes, drawn once; the parameters of one module that several of
  its calls read become one ``<module> parameters`` box, so 80 calls send 80 arrows, not 1,280;
* ``expand`` names a module (all its calls), ``name#3`` (its third call), a call id (``c7``) or
  a box id: that call is drawn in full inside a dashed frame.

``scene.members`` records which elements each box stands for, so that the stepper can give a
box the combined state of its ops.

Example:
    >>> import minigrad as torch
    >>> from minigrad import nn
    >>> from viz.compose import build_scene
    >>> cell = nn.Linear(2, 2)
    >>> h = torch.zeros(1, 2)
    >>> for _ in range(3):
    ...     h = torch.tanh(cell(h))
    >>> scene = build_scene(h.sum(), collapse="modules", names={"cell": cell})
    >>> [i.lines[0].text for i in scene.items.values() if i.kind == "module"]
    ['cell (call 3 of 3)', 'cell (call 2 of 3)', 'cell (call 1 of 3)', 'cell parameters']
"""

from viz.collapse import box_id, module_title, relative_module, reroute
from viz.scene import Item, Line
from viz.text import clean, plural

__all__ = ["has_calls", "collapse_calls", "call_title", "pick_depth", "AUTO_BOXES"]

AUTO_BOXES = 120  # the default depth is the deepest one with at most this many boxes
# A parameters box read by more calls than this gets no arrows (each call box says it reads
# it): dozens of long arrows into one box make Graphviz's layout 50 times slower
# (benchmarks/bench_layout.py) and read as a hairball.
SHARED_ARROWS = 16


def has_calls(g):
    """Whether the snapshot behind ``g`` (a GraphData) tells which call made each node."""
    return bool(g.snapshot.get("module_calls")) and any(
        n.get("call") for n in g.nodes.values())


def call_title(call):
    """``0: Linear``, ``fc1 (Linear)``; ``cell (call 3 of 12)`` when the module ran more
    than once.

    Example:
        >>> call_title({"module": "cell", "class": "Linear", "index": 3, "count": 12})
        'cell (call 3 of 12)'
        >>> call_title({"module": "4", "class": "Linear", "index": 1, "count": 1})
        '4: Linear'
    """
    name, cls = str(call.get("module") or "module"), str(call.get("class") or "")
    if (call.get("count") or 1) <= 1:
        return module_title(name, cls)
    base = f"{name}: {cls}" if name.rsplit(".", 1)[-1].isdigit() and cls else name
    return f"{base} (call {call['index']} of {call['count']})"


def pick_depth(calls, depth=None):
    """The depth (0 = outermost calls) whose calls become boxes: ``depth - 1`` when given
    (``collapse_depth=1`` is the outermost), else the deepest with at most AUTO_BOXES boxes."""
    if not calls:
        return 0
    deepest = max(c["depth"] for c in calls.values())
    if depth is not None:
        return min(max(int(depth) - 1, 0), deepest)
    parents = {c["parent"] for c in calls.values()}
    for d in range(deepest, -1, -1):
        count = sum(1 for c in calls.values()
                    if c["depth"] == d or (c["depth"] < d and c["id"] not in parents))
        if count <= AUTO_BOXES:
            return d
    return 0


def _matches(call, wanted, models):
    """Whether one of the names in ``wanted`` names ``call`` (see the module docstring)."""
    keys = {call["id"], f"{call['module']}#{call['index']}", _box_key(call), call["module"]}
    for want in map(str, wanted):
        relative = relative_module(want, models)
        if want in keys or relative == call["module"]:
            return True
        if call["depth"] == 0 and (relative == "" or want == call["class"]):
            return True
    return False


def _box_key(call):
    base = box_id(call["module"])
    return base if (call.get("count") or 1) <= 1 else f"{base}-call{call['index']}"


def _ancestry(calls, call_id):
    chain = []
    while call_id in calls:
        chain.append(calls[call_id])
        call_id = calls[call_id]["parent"]
    return chain[::-1]  # outermost first


def _place(calls, call_id, depth, which, expand, models, parents):
    """``("box", call)``, ``("frame", call)`` (drawn in full in a frame) or ``(None, None)``."""
    chain = _ancestry(calls, call_id)
    for call in chain:
        if expand and _matches(call, expand, models):
            return "frame", call
    if which != "modules":
        picked = next((c for c in chain if _matches(c, which, models)), None)
        return ("box", picked) if picked else (None, None)
    for call in chain:
        if call["depth"] == depth or call["id"] not in parents:
            return "box", call
    return None, None


def collapse_calls(scene, g, which="modules", expand=(), depth=None, models=()):
    """Replace the items made by each selected module call with one box (see the module
    docstring); ``models`` are the variable names of the caller's models (``model.fc1``)."""
    calls = {c["id"]: c for c in g.snapshot.get("module_calls") or ()}
    expand = (expand,) if isinstance(expand, str) else tuple(expand or ())
    if isinstance(which, str) and which != "modules":
        which = (which,)
    level = pick_depth(calls, depth)
    parents = {c["parent"] for c in calls.values()}
    boxes, frames, where = {}, {}, {}
    for item in scene.items.values():
        item.group = None
    for nid, node in g.nodes.items():
        if nid not in scene.items or not node.get("call") or node["call"] not in calls:
            continue
        how, call = _place(calls, node["call"], level, which, expand, models, parents)
        if how == "box":
            boxes.setdefault(call["id"], call)
            where[nid] = call["id"]
        elif how == "frame":
            frames[call["id"]] = call
            scene.items[nid].group = call["id"]
    _follow_nodes(scene, where)
    scene.groups = {cid: clean(call_title(call), 80) for cid, call in frames.items()}
    ids = _box_ids(boxes)
    where = {item: ids[cid] for item, cid in where.items()}
    shared, titles = _shared_parameters(scene, where, boxes, ids, frames)
    where.update(shared)
    members = {}
    for item_id, box in where.items():
        members.setdefault(box, []).append(item_id)
    for cid, call in boxes.items():
        scene.items[ids[cid]] = _call_box(ids[cid], call, [scene.items[m] for m in
                                                             members.get(ids[cid], ())])
    for box, member_ids in members.items():
        if box not in scene.items:  # a parameters box
            scene.items[box] = _params_box(box, titles[box],
                                           [scene.items[m] for m in member_ids])
        for flag in ("highlight", "current", "error"):  # what happens inside shows outside
            if any(flag in scene.items[m].flags for m in member_ids):
                scene.items[box].flags.add(flag)
    scene.members.update(members)
    links = scene.links
    scene.remove(where)
    scene.links = []
    reroute(scene, links, where)
    _thin_shared(scene, set(titles))


def _thin_shared(scene, params_boxes):
    """Drop the arrows into a parameters box read by more than SHARED_ARROWS calls."""
    for box in params_boxes:
        into = [k for k in scene.links if k.target == box]
        if len(into) <= SHARED_ARROWS:
            continue
        scene.links = [k for k in scene.links if k.target != box]
        name = scene.items[box].name
        scene.items[box].lines[-1] = Line("read by many calls (arrows left out)")
        for link in into:
            if link.source in scene.items and scene.items[link.source].kind == "module":
                scene.items[link.source].lines.append(Line(clean(f"reads {name}", 60)))


def _follow_nodes(scene, where):
    """Outputs and saved tensors go where their node goes (box or frame)."""
    items = scene.items
    for link in scene.links:
        if link.kind == "grad_fn":  # backward view: tensor -> the node that made it
            tensor, node = link.source, link.target
        elif link.kind == "output":  # forward view: op -> the tensor it made
            node, tensor = link.source, link.target
        else:
            continue
        if "root" in items[tensor].flags:
            continue
        if node in where:
            where.setdefault(tensor, where[node])
        elif items[node].group:
            items[tensor].group = items[node].group
    for item in items.values():
        owner = item.id.split("-")[0]
        if item.kind in ("saved", "temp") and owner in items:
            if owner in where:
                where.setdefault(item.id, where[owner])
            elif items[owner].group:
                item.group = items[owner].group


def _box_ids(boxes):
    ids, used = {}, set()
    for cid, call in boxes.items():
        key = _box_key(call)
        if key in used:
            key = f"m-{cid}"
        used.add(key)
        ids[cid] = key
    return ids


def _shared_parameters(scene, where, boxes, ids, frames):
    """AccumulateGrad nodes (and their leaves) that calls of one module all read become one
    ``<module> parameters`` box when two or more calls (boxed or expanded) read them."""
    module_of = {ids[cid]: call["module"] for cid, call in boxes.items()}
    module_of.update({cid: call["module"] for cid, call in frames.items()})
    feeders = {}
    for link in scene.links:
        target = scene.items.get(link.target)
        if link.kind == "next" and target is not None and target.kind == "acc":
            source = where.get(link.source) or scene.items[link.source].group or link.source
            feeders.setdefault(link.target, set()).add(source)
    moved, titles = {}, {}
    for acc, sources in feeders.items():
        modules = {module_of.get(s) for s in sources}
        if len(modules) != 1 or None in modules:
            continue
        module = next(iter(modules))
        if len(sources) == 1:  # read by one call only: inside its box
            box = next(iter(sources))
            if box not in scene.items and box in where.values():
                moved[acc] = box
                moved.update({k.target: box for k in scene.links
                              if k.kind == "variable" and k.source == acc})
            continue
        box = box_id(module) + "-params"
        titles[box] = module
        moved[acc] = box
        for link in scene.links:
            if link.kind == "variable" and link.source == acc:
                moved[link.target] = box
    return moved, titles


def _call_box(item_id, call, members):
    ops = [m for m in members if m.kind in ("fn", "op")]
    title = call_title(call)
    sub = plural(len(ops), "op")
    if call.get("count", 1) > 1 and call.get("class"):
        sub = f"{call['class']}, {sub}"
    lines = [Line(clean(title, 60), "title"), Line(clean(sub, 60))]
    params = sorted(m.name.rsplit(".", 1)[-1] for m in members if m.kind == "leaf")
    if params:
        lines.append(Line("params: " + clean(", ".join(params), 40)))
    text = f"{clean(title, 80)}: {plural(len(members), 'element')} of one module call, " \
        "drawn as one box"
    return Item(item_id, "module", text, lines, name=str(call["module"]))


def _params_box(item_id, module, members):
    leaves = [m.name for m in members if m.kind == "leaf"]
    shown = ", ".join(leaves[:3]) + (", …" if len(leaves) > 3 else "")
    lines = [Line(clean(f"{module} parameters", 60), "title"),
             Line(clean(f"{plural(len(leaves), 'tensor')}: {shown}", 60)),
             Line("shared by its calls")]
    return Item(item_id, "module", f"the parameters of {clean(module, 60)}, drawn once: "
                f"{clean(', '.join(leaves), 200)}", lines, name=f"{module} parameters")
