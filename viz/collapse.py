"""Big graphs stay readable: one box per ``nn.Module`` call, and a cut after ``max_nodes``.

Which module made a node comes from the snapshot's ``module`` field on nodes and tensors
(the qualified name of the innermost module whose ``forward`` created it). When a snapshot
has none, :func:`guess_modules` infers it from parameter names (``fc1.weight``): a node
belongs to ``fc1`` when it reads one of ``fc1``'s parameters directly or through nodes that
depend on nothing but ``fc1``'s parameters (``TBackward0`` of ``fc1.weight``).

Example:
    >>> from viz.compose import build_scene
    >>> from viz.examples import two_layer_mlp
    >>> scene = build_scene(two_layer_mlp(), collapse="modules")
    >>> sorted(i.name for i in scene.items.values() if i.kind == "module")
    ['fc1', 'fc2']
"""

from collections import deque

from viz.scene import Item, Line, Link
from viz.text import clean, plural

__all__ = ["guess_modules", "align_modules", "collapse_modules", "limit_nodes", "split_shared",
           "module_title", "relative_module", "box_id", "reroute", "nearest_part"]

SHARED_USES = 3  # an AccumulateGrad fed by this many nodes counts as a shared parameter


def module_title(name, class_name=""):
    """A module box's title: ``fc1 (Linear)``; ``0: Linear`` for a ``Sequential`` entry;
    the class name alone for a model (``Sequential``).

    Example:
        >>> module_title("fc1", "Linear"), module_title("0.1", "ReLU"), module_title("MLP", "MLP")
        ('fc1 (Linear)', '0.1: ReLU', 'MLP')
    """
    numbered = name.rsplit(".", 1)[-1].isdigit()
    if not class_name or class_name == name:
        return name
    if numbered:
        return f"{name}: {class_name}"
    return f"{name} ({class_name})"


def box_id(name):
    """The scene id of a module's box: ``m-fc1``; ``m-encoder-fc1`` for ``encoder.fc1`` (no
    dot, so that the SVG id is also a plain CSS selector; module names never hold a ``-``)."""
    return "m-" + str(name).replace(".", "-")


def relative_module(name, models=()):
    """A module name relative to its model: ``model.fc1`` → ``fc1`` when ``model`` is one of
    ``models`` (variable names of models, longest first), ``model`` → ``""`` (the model).

    Example:
        >>> relative_module("model.0", ["model"]), relative_module("model", ["model"])
        ('0', '')
    """
    if name is None:
        return None
    for var in models:
        if name == var:
            return ""
        if name.startswith(var + "."):
            return name[len(var) + 1:]
    return name


def align_modules(guessed, known=(), models=()):
    """Module names guessed from parameter names, made relative to the model like ``known``.

    ``model.fc1`` → ``fc1`` when ``model`` is one of ``models``, or when the snapshot itself
    knows a module ``fc1`` (then every guess under the same ``model.`` prefix is cut the same
    way), so that one module never becomes two boxes.

    Example:
        >>> align_modules({"n1": "model.0", "n2": "model.2"}, known={"0"})
        {'n1': '0', 'n2': '2'}
    """
    names = {item: relative_module(name, models) for item, name in guessed.items()}
    known = set(known) - {""}
    prefixes = set()
    for name in set(names.values()) - known:
        match = max((k for k in known if name.endswith("." + k)), key=len, default=None)
        if match is not None:
            prefixes.add(name[: -len(match) - 1])
    return {item: relative_module(name, sorted(prefixes, key=len, reverse=True))
            for item, name in names.items()}


def _param_module(name):
    return name.rsplit(".", 1)[0] if name and "." in name else None


def guess_modules(g):
    """``{node or tensor id: module name}`` inferred from parameter names in ``g``."""
    owner = {}
    for tid, tensor in g.tensors.items():
        module = _param_module(str(tensor.get("name") or ""))
        if module and tensor.get("is_leaf") and tensor.get("requires_grad"):
            owner[tid] = module
    reach = {}  # node id -> set of modules its parameter leaves belong to, None for data

    def reaches(nid):
        if nid in reach:
            return reach[nid]
        reach[nid] = found = set()
        node = g.nodes[nid]
        if node.get("kind") == "accumulate":
            found.add(owner.get(g.leaf_of(nid)))
            return found
        for edge in g.next_edges(nid):
            if edge.get("kind") == "constant" or edge.get("target") not in g.nodes:
                found.add(None)
            else:
                found |= reaches(edge["target"])
        return found

    for nid in _postorder(g):
        reaches(nid)
        only = reach[nid]
        if len(only) == 1 and None not in only:
            owner[nid] = next(iter(only))
            continue
        for edge in g.next_edges(nid):
            target = edge.get("target")
            mods = reach.get(target) if target in g.nodes else None
            if mods and len(mods) == 1 and None not in mods:
                owner[nid] = next(iter(mods))
                break
    for tid, tensor in g.tensors.items():
        if tensor.get("grad_fn") in owner and tid not in owner:
            owner[tid] = owner[tensor["grad_fn"]]
    return owner


def _postorder(g):
    """Node ids, every node after the nodes it points to (iterative: deep graphs are fine)."""
    seen, order = set(), []
    for start in g.nodes:
        stack = [(start, False)]
        while stack:
            nid, done = stack.pop()
            if done:
                order.append(nid)
                continue
            if nid in seen:
                continue
            seen.add(nid)
            stack.append((nid, True))
            stack.extend((e["target"], False) for e in reversed(g.next_edges(nid))
                         if e.get("target") in g.nodes and e["target"] not in seen)
    return order


def _selected(group, which, expand):
    if group is None or any(group == e or group.startswith(e + ".") for e in expand):
        return None
    if which == "modules":
        return group
    for name in which:
        if group == name or group.startswith(name + "."):
            return name
    return None


def _module_box(name, members, class_name=""):
    ops = [m.name for m in members if m.kind in ("fn", "op")]
    params = [m.name.rsplit(".", 1)[-1] for m in members if m.kind == "leaf"]
    title = module_title(name, class_name) or "module"
    lines = [Line(clean(title), "title"), Line(plural(len(ops), "op"))]
    if params:
        lines.append(Line("params: " + clean(", ".join(params), 40)))
    title = f"module {clean(name)}: {plural(len(members), 'element')} drawn as one box"
    return Item(box_id(name), "module", title, lines, name=name)


def collapse_modules(scene, which="modules", expand=(), classes=None, rename=None):
    """Replace each selected module's items by one box; expanded ones stay as clusters.

    ``which`` is ``"modules"`` (all) or module names; ``expand`` names stay drawn in full;
    ``classes`` maps module names to class names for the titles of boxes and clusters;
    ``rename`` turns a name the user gave (``model.fc1``) into a group name (``fc1``).
    """
    rename = rename or str
    if isinstance(expand, str):
        expand = (expand,)
    expand = tuple(rename(e) for e in expand)
    if isinstance(which, str) and which != "modules":
        which = (which,)
    if which != "modules":
        which = tuple(rename(w) for w in which)
    classes = classes or {}
    _absorb(scene)
    scene.groups = {group: clean(module_title(group, classes.get(group, "")), 80)
                    for group in {i.group for i in scene.items.values()} if group is not None}
    boxes, where = {}, {}
    for item in list(scene.items.values()):
        name = _selected(item.group, which, tuple(expand))
        if name is not None:
            boxes.setdefault(name, []).append(item)
            where[item.id] = box_id(name)
    for name, members in boxes.items():
        box = _module_box(name, members, classes.get(name, ""))
        for flag in ("highlight", "current", "error"):  # what happens inside shows outside
            if any(flag in m.flags for m in members):
                box.flags.add(flag)
        scene.items[box.id] = box
        scene.members[box.id] = [m.id for m in members]
    links = scene.links
    scene.remove(where)
    scene.links = []
    reroute(scene, links, where)


def _absorb(scene):
    """Put a module's parameters (``fc1.weight`` or ``model.fc1.weight`` belong to ``fc1``),
    their AccumulateGrad nodes, and its nodes' outputs and saved tensors inside the module."""
    modules = sorted({i.group for i in scene.items.values() if i.group}, key=len, reverse=True)
    items = scene.items
    for item in items.values():
        if item.group is None and item.kind == "leaf":
            item.group = next((m for m in modules if ("." + item.name).startswith("." + m + ".")
                               or f".{m}." in "." + item.name), None)
    for link in scene.links:
        source, target = items[link.source], items[link.target]
        if link.kind == "variable" and source.group is None:
            source.group = target.group
        elif link.kind == "grad_fn" and source.group is None and "root" not in source.flags:
            source.group = target.group
    for item in items.values():
        owner = items.get(item.id.split("-")[0])
        if item.group is None and item.kind in ("saved", "temp") and owner is not None:
            item.group = owner.group


def reroute(scene, links, where):
    """Point links that leave a collapsed module at its box; drop duplicates and inner links."""
    seen = set()
    for link in links:
        source = where.get(link.source, link.source)
        target = where.get(link.target, link.target)
        key = (source, target, link.kind)
        if source == target or key in seen:
            continue
        seen.add(key)
        moved = (source, target) != (link.source, link.target)
        scene.link(Link(link.id, link.kind, source, target, "" if moved else link.label,
                        set(link.flags)))


def split_shared(scene, min_uses=SHARED_USES, order=None):
    """Give each use of a shared parameter's AccumulateGrad its own small reference box.

    A weight reused across a deep graph (an unrolled RNN) pulls long arrows from every use to
    one box, and Graphviz's layout time explodes with them (minutes for 300 steps). Each use
    then points at a ``ref`` box ``<acc id>-r<k>`` next to it, which names the parameter; the
    AccumulateGrad itself stays drawn once, above its leaf.

    Uses are numbered in the order their nodes were made (``order``: item id → the node's
    ``sequence_nr``), so that the weight and the bias of one layer call have the same number.
    """
    uses = {}
    for link in scene.links:
        if link.kind == "next" and scene.items[link.target].kind == "acc":
            uses.setdefault(link.target, []).append(link)
    for acc_id, links in uses.items():
        if len({link.source for link in links}) < min_uses:
            continue
        if order is not None:
            links.sort(key=lambda link: order.get(link.source, float("inf")))
        acc = scene.items[acc_id]
        leaf = acc.lines[1].text.removeprefix("into ").removesuffix(".grad") \
            if len(acc.lines) > 1 else acc.name
        for k, link in enumerate(links):
            ref = Item(f"{acc_id}-r{k}", "ref",
                       f"use {k + 1} of {len(links)} of {leaf}: goes to its AccumulateGrad",
                       [Line(f"to {leaf}.grad", "title"),
                        Line(f"shared: use {k + 1} of {len(links)}")], name=leaf)
            scene.add(ref)
            link.target = ref.id


def limit_nodes(scene, max_nodes):
    """Keep the ``max_nodes`` items nearest the roots; the rest become one "N more" marker."""
    if max_nodes is None or len(scene.items) <= max_nodes:
        return
    keep = _nearest(scene, max(1, int(max_nodes)))
    hidden = [i for i in scene.items if i not in keep]
    marker = Item("more", "more", f"{plural(len(hidden), 'more node')} not drawn (max_nodes)",
                  [Line(f"\N{HORIZONTAL ELLIPSIS} {plural(len(hidden), 'more node')}", "title"),
                   Line("max_nodes=None draws all")])
    boundary = [k for k in scene.links if (k.source in keep) != (k.target in keep)]
    scene.remove(hidden)
    scene.add(marker)
    seen = set()
    for link in boundary:
        inside = link.source if link.source in keep else link.target
        if inside in seen:
            continue
        seen.add(inside)
        ends = (inside, "more") if link.source in keep else ("more", inside)
        scene.link(Link(f"more-{inside}", "more", *ends))


def _nearest(scene, count):
    neighbours = {}
    for link in scene.links:
        neighbours.setdefault(link.source, []).append(link.target)
        neighbours.setdefault(link.target, []).append(link.source)
    roots = [i for i, item in scene.items.items() if "root" in item.flags] or list(scene.items)[:1]
    keep, queue = [], deque(roots)
    seen = set(queue)
    while queue and len(keep) < count:
        item_id = queue.popleft()
        keep.append(item_id)
        for other in neighbours.get(item_id, ()):
            if other not in seen:
                seen.add(other)
                queue.append(other)
    return set(keep)


def nearest_part(snap, count):
    """A copy of the snapshot dict ``snap`` cut to the ``count`` nodes nearest its roots (in
    breadth-first order along ``next`` edges), with their tensors, constants and edges: a
    20,000-node graph is not turned into a scene of 40,000 items to draw 400 of them."""
    nodes = {n["id"]: n for n in snap.get("nodes") or ()}
    tensors = {t["id"]: t for t in snap.get("tensors") or ()}
    edges = snap.get("edges") or ()
    out = {}
    for edge in edges:
        if edge.get("kind") == "next":
            out.setdefault(edge["source"], []).append(edge["target"])
    queue = deque(tensors[r]["grad_fn"] for r in snap.get("roots") or ()
                  if r in tensors and tensors[r].get("grad_fn") in nodes)
    keep = set(queue)
    while queue and len(keep) < count:
        for target in out.get(queue.popleft(), ()):
            if target not in keep and target in nodes:
                keep.add(target)
                queue.append(target)
    kept_edges = [e for e in edges if e.get("source") in keep or e.get("target") in keep]
    ends = {e.get("source") for e in kept_edges} | {e.get("target") for e in kept_edges}
    kept_tensors = [t for t in tensors.values() if t["id"] in ends or t["id"] in
                    (snap.get("roots") or ()) or t.get("grad_fn") in keep]
    tids = {t["id"] for t in kept_tensors}
    nids = keep | {e.get("target") for e in kept_edges if e.get("target") in nodes}
    part = dict(snap, nodes=[n for n in nodes.values() if n["id"] in nids],
                tensors=kept_tensors, constants=[c for c in snap.get("constants") or ()
                                                 if c.get("node") in keep])
    ok = nids | tids | {c["id"] for c in part["constants"]}
    part["edges"] = [e for e in kept_edges if e.get("source") in ok and e.get("target") in ok]
    return part
