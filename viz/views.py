"""The two views students meet, built from a snapshot as a :class:`~viz.scene.Scene`.

* **backward** — PyTorch's Node graph, as ``grad_fn`` and ``next_functions`` link it: Function
  nodes, AccumulateGrad nodes and the tensors around them (the output at the top, leaves at the
  bottom, constants where ``next_functions`` holds ``(None, 0)``). Every arrow points the way
  gradients flow during ``backward()``.
* **forward** — the value graph, as micrograd's ``draw_dot`` draws it: tensors with their data
  and grad, and the op that made each one. Arrows point the way values flow.

Example:
    >>> from viz.examples import mul_sum
    >>> from viz.data import GraphData
    >>> scene = backward_scene(GraphData(mul_sum()), Options())
    >>> [item.title for item in scene.items.values()][:2]
    ['s: output, non-leaf tensor () [t4]', 'MulBackward0 (Function node n1)']
"""

import re
from dataclasses import dataclass

from viz.scene import Item, Line, Link, Scene
from viz.text import clean, plural, shape_text, value_lines

__all__ = ["Options", "backward_scene", "forward_scene", "op_symbol"]

_OPS = {"Add": "+", "Sub": "-", "Rsub": "-", "Mul": "*", "Div": "/", "Neg": "neg",
        "Pow": "**", "Mm": "@", "Matmul": "@", "MatMul": "@", "Addmm": "addmm", "T": ".T"}


@dataclass
class Options:
    """What to draw; :func:`viz.draw` documents each field."""

    view: str = "backward"
    values: bool | None = None
    grads: bool | None = None
    show_saved: bool = False

    def __post_init__(self):
        if self.view not in ("backward", "forward"):
            raise ValueError(f"view must be 'backward' or 'forward', not {self.view!r}")
        forward = self.view == "forward"
        self.values = forward if self.values is None else bool(self.values)
        self.grads = forward if self.grads is None else bool(self.grads)


def op_symbol(node_name):
    """``"MulBackward0"`` → ``"*"``, ``"ExpBackward0"`` → ``"exp"``, ``"MyFn"`` → ``"MyFn"``."""
    base = re.sub(r"Backward\d*$", "", node_name)
    return _OPS.get(base, base.lower() if base != node_name else node_name)


def _kind_text(g, tid, kind):
    text = {"leaf": "leaf, requires grad", "constant": "constant, no grad",
            "nonleaf": "non-leaf", "retained": "non-leaf, retains grad"}[kind]
    return "output, " + text if g.is_root(tid) else text


def _tensor_item(g, tid, opts):
    tensor = g.tensors[tid]
    kind = g.tensor_kind(tensor)
    name = clean(g.name_of(tid))
    shape = shape_text(tensor.get("shape"))
    dtype = str(tensor.get("dtype") or "")
    sub = shape if dtype in ("", "float32") else f"{shape} {clean(dtype, 12)}"
    lines = [Line(name, "title"), Line(sub), Line(_kind_text(g, tid, kind))]
    if opts.values:
        lines += [Line(s, "value") for s in value_lines(tensor.get("value"), "data ")]
    if opts.grads and (kind in ("leaf", "retained") or tensor.get("grad") is not None):
        lines += [Line(s, "value") for s in value_lines(tensor.get("grad"), "grad ")]
    elif opts.grads and opts.view == "forward" and kind == "nonleaf":
        # micrograd shows a grad on every value; PyTorch keeps none for a non-leaf
        lines.append(Line("grad not kept", "value"))
    item = Item(tid, kind, f"{name}: {_kind_text(g, tid, kind)} tensor {shape} [{tid}]", lines,
                group=tensor.get("module"), name=str(tensor.get("name") or tid))
    _add_badges(item, [("hook", tensor.get("hooks")),
                       ("post-accumulate hook", tensor.get("post_accumulate_hooks"))])
    if g.is_root(tid):
        item.flags.add("root")
    return item


def _add_badges(item, hook_lists):
    for word, names in hook_lists:
        names = list(names or [])
        if names:
            shown = ", ".join(clean(n, 20) for n in names[:3])
            item.lines.append(Line(f"{plural(len(names), word)}: {shown}", "badge"))
            item.flags.add("hooked")


def _node_item(g, nid):
    node = g.nodes[nid]
    name = clean(node.get("name") or nid)
    kind = {"accumulate": "acc", "root": "graphroot"}.get(node.get("kind"), "fn")
    lines = [Line(name, "title")]
    if kind == "acc":
        leaf = g.leaf_of(nid)
        lines.append(Line(f"into {clean(g.name_of(leaf))}.grad" if leaf else "into .grad"))
        title = f"AccumulateGrad: adds the gradient into {clean(g.name_of(leaf))}.grad [{nid}]"
    else:
        what = "graph root" if kind == "graphroot" else "Function node"
        title = f"{clean(node.get('label') or name, 60)} ({what} {nid})"
        tag = _label_tag(node)
        if tag:
            lines.append(Line(tag))
        scalars = scalar_text(node)
        if scalars:
            lines.append(Line(scalars))
    item = Item(nid, kind, title, lines, group=node.get("module"), name=name)
    # A tensor hook is drawn on its tensor; on the node only when that tensor is gone.
    tensor_hooks = [h.get("name") for h in node.get("tensor_hooks") or []
                    if isinstance(h, dict) and g.output_of(nid, h.get("index") or 0) is None]
    _add_badges(item, [("pre-hook", node.get("pre_hooks")), ("hook", node.get("post_hooks")),
                       ("tensor hook", tensor_hooks)])
    return item


# The numbers an op keeps that are not tensors, worth seeing on its node (``** 2``, ``× 0.5``).
_SCALARS = {"exponent": "exponent {}", "other": "other = {}", "base": "base {}",
            "alpha": "alpha = {}", "beta": "beta = {}", "negative_slope": "slope {}"}


def scalar_text(node):
    """``"exponent 2"`` for ``x ** 2``'s node, ``"other = 0.5"`` for MulBackward1: the scalar
    operands the snapshot keeps (``operands``), leaving out an ``alpha``/``beta`` of 1."""
    parts = []
    for key, value in (node.get("operands") or {}).items():
        if key not in _SCALARS or isinstance(value, bool) or not isinstance(value, (int, float)):
            continue
        if key in ("alpha", "beta") and value == 1:
            continue
        parts.append(_SCALARS[key].format(f"{value:g}"))
    return clean(", ".join(parts), 24)


def _label_tag(node):
    """``#2`` for the second (in creation order) of several nodes of one class, from the
    snapshot's unique ``label`` (``SumBackward0 #2``, ``MulBackward0 #2 (h)``), which the
    captions use too: every view numbers a node the same way."""
    name, label = str(node.get("name") or ""), str(node.get("label") or "")
    number = re.match(r" #(\d+)\b", label[len(name):]) if label.startswith(name) else None
    return f"#{number.group(1)}" if number else ""


def _stub_item(g, cid, opts):
    stub = g.constants[cid]
    tid = stub.get("tensor")
    tensor = g.tensors.get(tid) if tid else None
    given = tensor and g.name_of(tid) or stub.get("name")
    name = clean(given) if given else "constant"
    lines = [Line(name, "title")]
    if tensor:
        lines.append(Line(shape_text(tensor.get("shape"))))
    if opts.view == "forward":
        lines.append(Line("constant, no grad"))
    else:
        lines.append(Line("constant: (None, 0)" if given else "(None, 0): no gradient"))
    if tensor and opts.values:
        lines += [Line(s, "value") for s in value_lines(tensor.get("value"), "data ")]
    elif tensor and not tensor.get("shape") and name == "constant":  # a number: show it
        lines += [Line(s, "value") for s in value_lines(tensor.get("value"), "= ")]
    title = (f"{name}: constant input, no gradient flows to it "
             f"(next_functions[{stub.get('position')}] is (None, 0)) [{cid}]")
    return Item(cid, "stub", title, lines)


def _saved_items(g, scene, nid, opts):
    node = g.nodes[nid]
    for k, slot in enumerate(node.get("saved") or []):
        tid = slot.get("tensor")
        value = slot.get("value") if isinstance(slot.get("value"), dict) else {}
        what = (clean(g.name_of(tid)) if tid in g.tensors else
                "a tensor " + shape_text(value["shape"]) if "shape" in value else "a tensor")
        name = clean(slot.get("name") or f"saved{k}", 20)
        # ``self`` → "saved self"; a custom Function's ``saved_tensors[0]`` says it already
        heading = name if name.startswith("saved") else f"saved {name}"
        lines = [Line(heading, "title"), Line(what)]
        if opts.values and slot.get("value") is not None:
            lines += [Line(s, "value") for s in value_lines(slot.get("value"))]
        item = Item(f"{nid}-s{k}", "saved", f"{clean(node.get('name'))}: {heading} = {what}",
                    lines, group=node.get("module"))
        if slot.get("released"):
            item.flags.add("released")
            item.lines.append(Line("released", "badge"))
            item.title += " (released)"
        elif slot.get("modified"):
            item.flags.add("modified")
            item.lines.append(Line("changed in place since saved", "badge"))
            item.title += " (changed in place since it was saved: backward through it fails)"
        scene.add(item)
        scene.link(Link(f"{nid}-s{k}-e", "saved", nid, item.id))


def _shown_in_backward(g, tid, written):
    """A root, a tensor made by a drawn node, or a leaf an AccumulateGrad writes into (its
    ``accumulator`` may be gone with a recording's temporaries: the ``variable`` edge stays)."""
    tensor = g.tensors[tid]
    if g.is_root(tid) or tid in written or g.edges_from(tensor.get("accumulator"), "variable"):
        return True
    return bool(tensor.get("grad_fn") in g.nodes)


def backward_scene(g, opts):
    """PyTorch's Node graph of ``g`` (a :class:`~viz.data.GraphData`), grads flowing down."""
    scene = Scene(view="backward", rankdir="TB")
    for tid in g.roots:
        if tid in g.tensors:
            scene.add(_tensor_item(g, tid, opts))
    for nid in g.nodes:
        scene.add(_node_item(g, nid))
    for cid in g.constants:
        scene.add(_stub_item(g, cid, opts))
    written = {e.get("target") for e in g.edges if e.get("kind") == "variable"}
    for tid in g.tensors:
        if _shown_in_backward(g, tid, written):
            scene.add(_tensor_item(g, tid, opts))
    fan_out = {nid: len(g.next_edges(nid)) for nid in g.nodes}
    for nid in g.nodes:
        for edge in g.next_edges(nid):
            _backward_link(scene, edge, fan_out)
    for edge in g.edges:
        if edge.get("kind") not in ("next", "constant"):
            _backward_link(scene, edge, fan_out)
    if opts.show_saved:
        for nid in g.nodes:
            _saved_items(g, scene, nid, opts)
    return scene


def _backward_link(scene, edge, fan_out):
    kind, source, target = edge.get("kind"), edge.get("source"), edge.get("target")
    position = edge.get("position")
    label = str(position) if fan_out.get(source, 0) > 1 and position is not None else ""
    if kind == "next":
        scene.link(Link(edge["id"], "next", source, target, label))
    elif kind == "constant":
        scene.link(Link(edge["id"], "constant", source, target, label))
    elif kind == "variable":
        scene.link(Link(edge["id"], "variable", source, target, ".grad"))
    elif kind == "output":
        scene.link(Link(edge["id"], "grad_fn", target, source, "grad_fn"))


def _op_item(g, nid):
    node = g.nodes[nid]
    name = clean(node.get("name") or nid)
    tag = _label_tag(node)
    lines = [Line(clean(op_symbol(node.get("name") or nid), 16), "title"),
             Line(f"{name} {tag}" if tag else name)]
    scalars = scalar_text(node)
    if scalars:
        lines.append(Line(scalars))
    item = Item(nid, "op", f"{name}: the op that made its output [{nid}]", lines,
                group=node.get("module"), name=name)
    _add_badges(item, [("pre-hook", node.get("pre_hooks")), ("hook", node.get("post_hooks"))])
    return item


def _temp_item(nid, output_nr, opts):
    lines = [Line("(not kept)", "title"), Line("intermediate tensor")]
    return Item(f"{nid}-o{output_nr}", "temp",
                f"output {output_nr} of {nid}: an intermediate tensor no variable holds", lines)


def _forward_input(g, scene, edge, opts):
    """The item whose value flows into the op along ``edge`` (a next or constant edge)."""
    target = edge.get("target")
    if edge.get("kind") == "constant":
        tid = g.constants.get(target, {}).get("tensor")
        if tid in g.tensors:
            return scene.add(_tensor_item(g, tid, opts)).id
        return scene.add(_stub_item(g, target, opts)).id if target in g.constants else None
    node = g.nodes.get(target)
    if node is None:
        return None
    if node.get("kind") == "accumulate":
        tid = g.leaf_of(target)
        return scene.add(_tensor_item(g, tid, opts)).id if tid in g.tensors else None
    nr = edge.get("input_nr") or 0
    tid = g.output_of(target, nr)
    return scene.add(_tensor_item(g, tid, opts) if tid else _temp_item(target, nr, opts)).id


def forward_scene(g, opts):
    """The value graph of ``g``: tensors and the ops between them, values flowing right."""
    scene = Scene(view="forward", rankdir="LR")
    for nid, node in g.nodes.items():
        if node.get("kind") in ("accumulate", "root"):
            continue
        scene.add(_op_item(g, nid))
        outputs = [e for e in g.edges_from(nid, "output") if e.get("target") in g.tensors]
        for edge in outputs:
            scene.add(_tensor_item(g, edge["target"], opts))
            scene.link(Link(edge["id"], "output", nid, edge["target"]))
        if not outputs:
            temp = scene.add(_temp_item(nid, 0, opts))
            scene.link(Link(f"{nid}-o0-e", "output", nid, temp.id))
        for edge in g.next_edges(nid):
            source = _forward_input(g, scene, edge, opts)
            if source:
                scene.link(Link(edge["id"], "input", source, nid))
    for tid in g.roots:
        if tid in g.tensors:
            scene.add(_tensor_item(g, tid, opts))
    return scene
