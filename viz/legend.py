"""The legend: one small graph that shows every element of the visual language, explained.

``viz.legend()`` draws it alone; ``viz.draw(..., legend=True)`` adds it beside a picture as a
cluster whose elements carry the class ``mg-legend`` (the stepper leaves them alone).

Example:
    >>> d = legend(id_prefix="lg")
    >>> "AccumulateGrad" in d.source and 'class="mg-node mg-acc mg-legend"' in d.source
    True
"""

from viz.scene import Item, Line, Link, Scene

__all__ = ["legend", "add_legend", "legend_scene", "GROUP"]

GROUP = "legend: arrows point the way gradients flow in backward()"

# (id, kind, flags, lines as (text, role)): what each element means, in words.
_ITEMS = [
    ("loss", "nonleaf", {"root"}, [("loss", "title"), ("output, non-leaf", "sub"),
                                   ("backward() starts here", "sub")]),
    ("mul", "fn", set(), [("MulBackward0", "title"), ("Function node (grad_fn)", "sub")]),
    ("h", "retained", set(), [("h", "title"), ("non-leaf, retains grad", "sub"),
                              ("h.retain_grad() keeps h.grad", "sub")]),
    ("exp", "fn", {"highlight"}, [("ExpBackward0", "title"), ("highlighted (highlight=)", "sub")]),
    ("E", "stub", set(), [("E", "title"), ("constant: (None, 0)", "sub"),
                          ("no gradient flows here", "sub")]),
    ("acc", "acc", set(), [("AccumulateGrad", "title"), ("into x.grad", "sub")]),
    ("x", "leaf", {"hooked"}, [("x", "title"), ("leaf, requires grad", "sub"),
                               ("1 hook: print_grad", "badge")]),
    ("c", "nonleaf", set(), [("c", "title"), ("non-leaf: .grad stays None", "sub")]),
    ("s0", "saved", set(), [("saved self", "title"), ("h, kept for backward", "sub")]),
    ("s1", "saved", {"released"}, [("saved other", "title"), ("E, freed by backward()", "sub"),
                                   ("released", "badge")]),
]
_LINKS = [
    ("l1", "grad_fn", "loss", "mul", "grad_fn"), ("l2", "next", "mul", "exp", "next_functions[0]"),
    ("l3", "constant", "mul", "E", "[1]"), ("l4", "grad_fn", "h", "exp", "grad_fn"),
    ("l5", "next", "exp", "acc", ""), ("l6", "variable", "acc", "x", ".grad"),
    ("l7", "saved", "mul", "s0", ""), ("l8", "saved", "mul", "s1", ""),
]


def legend_scene():
    """The legend as a :class:`~viz.scene.Scene` (ids ``legend-<name>``)."""
    scene = Scene(view="backward", rankdir="TB")
    add_legend(scene)
    return scene


def add_legend(scene):
    """Add the legend's elements to ``scene`` as the cluster ``legend``."""
    for key, kind, flags, lines in _ITEMS:
        title = f"legend: {' '.join(text for text, _ in lines)}"
        scene.add(Item(f"legend-{key}", kind, title, [Line(t, r) for t, r in lines],
                       flags=set(flags) | {"legend"}, group=GROUP, name=key))
    for key, kind, source, target, label in _LINKS:
        scene.link(Link(f"legend-{key}", kind, f"legend-{source}", f"legend-{target}", label,
                        {"legend"}))
    return scene


def legend(theme=None, engine=None, id_prefix=None):
    """A :class:`~viz.drawing.Drawing` of the legend alone.

    Example:
        >>> legend().scene.items["legend-acc"].kind
        'acc'
    """
    from viz.drawing import Drawing
    return Drawing(legend_scene(), theme=theme, engine=engine, id_prefix=id_prefix)
