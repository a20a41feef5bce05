"""The legend: one small graph that shows every element of the visual language, explained.

``viz.legend()`` draws it alone; ``viz.draw(..., legend=True)`` adds it beside a picture as a
cluster whose elements carry the class ``mg-legend`` (the stepper leaves them alone). The
stepper's key strip (:func:`stepper_key`) explains the states its frames show.

Example:
    >>> d = legend(id_prefix="lg")
    >>> "AccumulateGrad" in d.source and 'mg-acc mg-legend' in d.source
    True
"""

from viz.scene import Item, Line, Link, Scene

__all__ = ["legend", "add_legend", "legend_scene", "stepper_key", "GROUP"]

GROUP = "legend: arrows point the way gradients flow in backward()"

# (id, kind, flags, lines as (text, role), the scene kind it explains, the flag it explains).
# Sample names are descriptions in brackets, never names a student could have used.
_ITEMS = [
    ("root", "nonleaf", {"root"}, [("⟨output⟩", "title"), ("backward() starts here", "sub")],
     None, "root"),
    ("fn", "fn", set(), [("MulBackward0", "title"), ("Function node (grad_fn)", "sub")],
     "fn", None),
    ("retained", "retained", set(), [("⟨retains grad⟩", "title"),
                                     ("non-leaf with retain_grad()", "sub")], "retained", None),
    ("hl", "fn", {"highlight"}, [("ExpBackward0", "title"), ("highlighted (highlight=)", "sub")],
     None, "highlight"),
    ("stub", "stub", set(), [("⟨constant⟩", "title"), ("(None, 0): no gradient", "sub")],
     "stub", None),
    ("constant", "constant", set(), [("⟨constant⟩", "title"), ("no gradient flows here", "sub")],
     "constant", None),
    ("acc", "acc", set(), [("AccumulateGrad", "title"), ("adds into the leaf's .grad", "sub")],
     "acc", None),
    ("leaf", "leaf", set(), [("⟨leaf⟩", "title"), ("requires grad", "sub")], "leaf", None),
    ("hooked", "leaf", {"hooked"}, [("⟨hooked⟩", "title"), ("1 hook: its name", "badge")],
     None, "hooked"),
    ("nonleaf", "nonleaf", set(), [("⟨non-leaf⟩", "title"), (".grad stays None", "sub")],
     "nonleaf", None),
    ("saved", "saved", set(), [("saved tensor", "title"), ("kept for backward;", "sub"),
                               ("faded once freed", "sub")], "saved", None),
    ("op", "op", set(), [("×", "title"), ("the op (MulBackward0)", "sub")], "op", None),
    ("temp", "temp", set(), [("(not kept)", "title"), ("intermediate tensor", "sub")],
     "temp", None),
    ("module", "module", set(), [("⟨module call⟩", "title"), ("its ops, collapsed", "sub")],
     "module", None),
]
# (id, kind, source, target, label): drawn when both ends are drawn and the kind is in the scene.
_LINKS = [
    ("l1", "grad_fn", "root", "fn", "grad_fn"), ("l2", "next", "fn", "acc", "next_functions"),
    ("l3", "constant", "fn", "stub", "(None, 0)"), ("l4", "variable", "acc", "leaf", ".grad"),
    ("l5", "saved", "fn", "saved", ""), ("l6", "grad_fn", "retained", "fn", "grad_fn"),
    ("l7", "input", "leaf", "op", "input"), ("l8", "output", "op", "nonleaf", "output"),
    ("l9", "input", "constant", "op", ""),
]


def legend_scene(view="backward"):
    """The legend as a :class:`~viz.scene.Scene` (ids ``legend-<name>``): every element of
    the view (``"backward"`` or ``"forward"``)."""
    kinds = ({"root", "fn", "retained", "stub", "acc", "leaf", "nonleaf", "saved"}
             if view == "backward" else {"op", "leaf", "nonleaf", "constant", "temp"})
    scene = Scene(view=view, rankdir="TB")
    add_legend(scene, kinds=kinds | {"root"}, links={"grad_fn", "next", "constant", "variable",
                                                      "saved", "input", "output"})
    return scene


def add_legend(scene, kinds=None, links=None):
    """Add to ``scene``, as the cluster ``legend``, the legend of what ``scene`` contains
    (its kinds of boxes and arrows, and the root, hook and highlight marks); ``kinds`` and
    ``links`` replace what is read from the scene."""
    items = [i for i in scene.items.values() if "legend" not in i.flags]
    if kinds is None:
        kinds = {i.kind for i in items} | {f for i in items for f in i.flags}
    if links is None:
        links = {link.kind for link in scene.links}
    shown = set()
    for key, kind, flags, lines, explains, flag in _ITEMS:
        if (explains or flag) not in kinds:
            continue
        if scene.view == "forward" and key in ("root", "stub"):
            continue
        title = f"legend: {' '.join(text for text, _ in lines)}"
        scene.add(Item(f"legend-{key}", kind, title, [Line(t, r) for t, r in lines],
                       flags=set(flags) | {"legend"}, group=GROUP, name=key))
        shown.add(key)
    for key, kind, source, target, label in _LINKS:
        if kind in links and source in shown and target in shown:
            scene.link(Link(f"legend-{key}", kind, f"legend-{source}", f"legend-{target}",
                            label, {"legend"}))
    return scene


def legend(theme=None, engine=None, id_prefix=None, view="backward"):
    """A :class:`~viz.drawing.Drawing` of the legend alone.

    Example:
        >>> legend().scene.items["legend-acc"].kind
        'acc'
    """
    from viz.drawing import Drawing
    return Drawing(legend_scene(view), theme=theme, engine=engine, id_prefix=id_prefix)


# The stepper's key: (the key entry's class, its words, the frame classes that show it, and
# the event kinds one of which must have happened). Each entry's swatch in stepper.css has its
# own border width, dash or shape, so that it reads without its colour.
_KEY = [
    ("running", "running node", {"running"}, None),
    ("waiting", "waiting for grads", {"waiting"}, None),
    ("ready", "in the ready queue", {"ready"}, None),
    ("done", "done", {"done"}, None),
    ("flow", "gradient sent", {"flow", "sent"}, None),
    ("summing", "fan-in: gradients summed", {"summing", "sum"}, None),
    ("gradnew", ".grad written", {"gradnew"}, {"grad_accumulated"}),
    ("retained", "grad kept (retain_grad)", {"gradnew"}, {"grad_retained"}),
    ("captured", "grad() takes it here", {"captured"}, None),
    ("released", "saved tensors released", {"released", "justreleased", "freed"}, None),
    ("hook", "hook fired", {"hookfire"}, None),
    ("error", "error", {"error"}, None),
]


def stepper_key(data):
    """``[[class, words], …]``: the key strip of a stepper whose frame data is ``data``
    (:func:`viz.frames.build_frames`), one entry per state its frames show, in a fixed order.

    Example:
        >>> stepper_key({"classes": {"n1": [[0, "running"], [2, "done"]]},
        ...              "kinds": ["node_started", "node_ran", "backward_finished"]})
        [['running', 'running node'], ['done', 'done']]
    """
    shown = {word for timeline in data.get("classes", {}).values()
             for _, classes in timeline for word in classes.split()}
    kinds = set(data.get("kinds") or ())
    return [[key, words] for key, words, classes, events in _KEY
            if shown & classes and (events is None or kinds & events)]
