"""From what the user passed to a finished scene: load, pick a view, apply a recording's state,
highlight, collapse, cut, add the legend.

Example:
    >>> from viz.examples import exp_add
    >>> scene = build_scene(exp_add(), highlight=["D"])
    >>> sorted(scene.items["t4"].flags)
    ['highlight']
"""

import copy

from viz.calls import collapse_calls, has_calls
from viz.collapse import (
    align_modules,
    collapse_modules,
    guess_modules,
    limit_nodes,
    nearest_part,
    relative_module,
    split_shared,
)
from viz.data import GraphData, ids_of, is_tensor, load, models_in, modules_of
from viz.scene import Line
from viz.text import clean, plural, wrap
from viz.views import Options, backward_scene, forward_scene

__all__ = ["build_scene", "apply_state", "BIG", "AUTO_LIMIT", "AUTO_NODES"]

BIG = 120  # from this many elements on, shared parameters get one reference box per use
# Above AUTO_LIMIT elements the default picture shows module calls, else (or if still too
# big) the AUTO_NODES elements nearest the output: Graphviz's time explodes beyond it
# (benchmarks/bench_layout.py measures where).
AUTO_LIMIT, AUTO_NODES = 600, 400
ERROR_WIDTH, ERROR_LINES = 44, 6  # the error message pinned to a node: wrapped, then cut


def _patch_with_state(snap, state):
    """A copy of ``snap`` whose grads and released saved tensors are those of ``state``."""
    snap = copy.deepcopy(snap)
    grads = state.get("grads") or {}
    for tensor in snap.get("tensors") or []:
        tensor["grad"] = grads.get(tensor["id"])
    released = state.get("released") or {}
    for node in snap.get("nodes") or []:
        names = set(released.get(node["id"]) or ())
        for slot in node.get("saved") or []:
            slot["released"] = slot.get("name") in names
    return snap


def apply_state(scene, state):
    """Mark what ran, what runs now, what waits and what is ready, after one event."""
    for nid in state.get("ran") or ():
        scene.mark(nid, "ran")
    for nid, count in (state.get("pending") or {}).items():
        if scene.mark(nid, "pending"):
            scene.items[nid].lines.append(Line(f"waits for {plural(count, 'grad')}", "state"))
    for k, nid in enumerate(state.get("ready") or (), 1):
        if scene.mark(nid, "ready"):
            scene.items[nid].lines.append(Line(f"ready #{k}", "state"))
    current = state.get("node")
    if current and scene.mark(current, "current"):
        scene.items[current].lines.append(Line("running", "badge"))
    for fired in state.get("hooks_fired") or ():
        _mark_fired(scene, fired)
    error = state.get("error")
    if error:
        _pin_error(scene, error, current)
    if state.get("caption"):
        scene.caption = clean(state["caption"], 200)


_HOOK_WORDS = {"tensor_hook": "hook", "node_pre_hook": "pre-hook", "node_post_hook": "hook",
               "post_accumulate_hook": "post-accumulate hook"}


def _mark_fired(scene, fired):
    """A hook that fires at this event: on its tensor (tensor hooks, post-accumulate hooks)
    when that is drawn, else on its node."""
    if not isinstance(fired, dict):
        return
    where = fired.get("tensor") if fired.get("tensor") in scene.items else fired.get("node")
    if where in scene.items and scene.mark(where, "fired"):
        word = _HOOK_WORDS.get(fired.get("kind"), "hook")
        name = clean(fired.get("hook") or "", 20)
        scene.items[where].lines.append(Line(f"{word} {name} fires".replace("  ", " "),
                                             "state"))


def _pin_error(scene, error, current):
    """The error's type and message, on the node that raised it (else the running one)."""
    if not isinstance(error, dict):
        error = {"message": error}
    where = error.get("node") if error.get("node") in scene.items else current
    if where not in scene.items:
        return
    item = scene.items[where]
    item.flags.add("error")
    kind = error.get("type")
    item.lines.append(Line(f"error: {clean(kind, 40)}" if kind else "error", "badge"))
    item.lines += [Line(text, "error") for text in
                   wrap(clean(error.get("message") or "", 400), ERROR_WIDTH, ERROR_LINES)]


def _assign_groups(scene, g, obj, names):
    """Which module each item belongs to, and the class name of each module.

    A recording's ``module_call`` events tell it exactly. A snapshot has ``module`` fields
    (``null`` where it cannot tell, e.g. a node inside ``nn.Linear`` whose output is gone); the
    rest is guessed from parameter names (``model.fc1.weight`` → ``fc1``, relative to the
    model as the snapshot's paths are). Class names come from the events, else from the models
    among ``names``. Returns ``(classes, rename)``: ``rename`` maps a module name the user gives
    (``model.fc1``, the model's variable or class name) to the group name.
    """
    owner, classes = modules_of(obj)
    model_classes, models = models_in(names)
    top = model_classes.get("") or "model"  # the events, too, name a model by its class

    def rename(name):
        name = relative_module(str(name), models)
        return top if name == "" else name

    if owner:
        for item in scene.items.values():
            item.group = owner.get(item.id) or owner.get(item.id.split("-")[0])
        return classes, rename
    known = {item.group for item in scene.items.values()} - {None}
    guessed = align_modules(guess_modules(g), known, models)
    for item in scene.items.values():
        if item.group is None:
            item.group = guessed.get(item.id) or guessed.get(item.id.split("-")[0])
    groups = {item.group for item in scene.items.values()} - {None}
    # Like the events do: the model's own ops stay drawn when its layers become boxes.
    whole = None if groups - {""} else top
    for item in scene.items.values():
        if item.group == "":
            item.group = whole
    classes = {name: cls for name, cls in model_classes.items() if name}
    classes[top] = model_classes.get("", "")
    return classes, rename


def _resolve(g, wanted):
    """Ids of the items ``wanted`` names: ids, tensor or node names, or live tensors."""
    if wanted is None:
        return set()
    if isinstance(wanted, str) or is_tensor(wanted):
        wanted = [wanted]
    ids = set()
    for want in wanted:
        if is_tensor(want):
            ids.add(ids_of(want))
            continue
        want = str(want)
        ids.update(tid for tid, t in g.tensors.items() if t.get("name") == want)
        ids.update(nid for nid, n in g.nodes.items()
                   if want in (n.get("name"), n.get("label")))
        if want in g.tensors or want in g.nodes or want in g.constants or any(
                e.get("id") == want for e in g.edges):
            ids.add(want)
    return ids


def _collapse(scene, g, obj, names, collapse, expand, depth):
    if has_calls(g):
        collapse_calls(scene, g, collapse, expand, depth, models_in(names)[1])
        return
    classes, rename = _assign_groups(scene, g, obj, names)
    collapse_modules(scene, collapse, expand, classes, rename)


def _elements(scene):
    return sum(1 for item in scene.items.values() if item.kind != "legend")


def _auto_collapse(scene, g, obj, names, expand, depth):
    """The default for a graph too big to lay out: its module calls, with a note."""
    total = len(g.nodes)
    if _elements(scene) > AUTO_LIMIT and has_calls(g):
        _collapse(scene, g, obj, names, "modules", expand, depth)
        scene.note = f"{total:,} nodes: showing module calls; pass collapse=None for every node"


def _auto_limit(scene, total):
    """The default for a graph still too big: its part nearest the output, with a note."""
    if _elements(scene) > AUTO_LIMIT:
        limit_nodes(scene, AUTO_NODES)
        scene.note = (f"{total:,} nodes: showing the {AUTO_NODES:,} elements nearest "
                      "the output; pass max_nodes=None for every node")
        more = scene.items.get("more")
        if more is not None:  # count what the cut before the scene left out, too
            hidden = total - sum(1 for i in scene.items.values() if i.kind in ("fn", "acc"))
            more.lines[0].text = f"\N{HORIZONTAL ELLIPSIS} {plural(hidden, 'more node')}"
            more.title = f"{plural(hidden, 'more node')} not drawn (max_nodes)"


def build_scene(obj, view="backward", values=None, grads=None, show_saved=False,
                legend=False, highlight=(), collapse="auto", expand=(), max_nodes="auto",
                names=None, event=None, collapse_depth=None):
    """The :class:`~viz.scene.Scene` that :func:`viz.draw` writes; see there for the options."""
    snap, state = load(obj, names=names, event=event)
    if state is not None:
        snap = _patch_with_state(snap, state)
    g = GraphData(snap)
    total = len(g.nodes)
    if collapse == "auto" and max_nodes == "auto" and total > 4 * AUTO_LIMIT and \
            not has_calls(g):  # most of it will not be drawn: do not build it
        g = GraphData(nearest_part(snap, 2 * AUTO_NODES))
    opts = Options(view, values, grads, show_saved)
    scene = backward_scene(g, opts) if view == "backward" else forward_scene(g, opts)
    if state is not None:
        apply_state(scene, state)
    for item_id in _resolve(g, highlight):
        scene.mark(item_id, "highlight")
    if collapse not in (None, "auto"):
        _collapse(scene, g, obj, names, collapse, expand, collapse_depth)
    else:
        for item in scene.items.values():
            item.group = None
    if collapse == "auto":
        _auto_collapse(scene, g, obj, names, expand, collapse_depth)
    if len(scene.items) > BIG and not scene.members:
        split_shared(scene, order={nid: n.get("sequence_nr") or 0 for nid, n in g.nodes.items()})
    if max_nodes == "auto" and collapse is not None:
        _auto_limit(scene, total)
    elif max_nodes not in (None, "auto"):
        limit_nodes(scene, max_nodes)
    if legend:
        from viz.legend import add_legend
        add_legend(scene)
    return scene
