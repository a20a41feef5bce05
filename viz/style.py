"""The visual language: how each kind of tensor, node and arrow looks, and its CSS classes.

Colour is never the only cue. Every kind differs from the others by shape, border style or
text as well, so a picture reads in greyscale, in print and for colour-blind students:

========================  ===========================  ==================================
kind                      shape and border             text on it
========================  ===========================  ==================================
leaf (requires grad)      box, thick solid border      "leaf, requires grad"
constant stub             box, dashed border           "constant: (None, 0)"
non-leaf tensor           rounded box, thin border     "non-leaf"
non-leaf, retains grad    rounded box, bold border     "non-leaf, retains grad"
root / output             any of the above, very thick "output, ..."
Function node             ellipse                      class name (``MulBackward0``)
AccumulateGrad            double ellipse               "AccumulateGrad / into x.grad"
saved tensor              note (folded corner)         "saved self"; "released", dashed
hooks                     dark badge inside the box    "2 hooks: f, g"
highlighted               very thick border            (the element's own text)
========================  ===========================  ==================================

Classes: every element gets ``mg-<family> mg-<kind>`` plus one ``mg-<flag>`` per state flag;
docs/visual-language.md lists them all (the stepper restyles elements by these).
"""

import re

__all__ = ["PALETTES", "palette", "item_attrs", "link_attrs", "item_classes", "link_classes",
           "FONT", "MONO_FONT"]

_COLOUR = re.compile(r"#[0-9a-fA-F]{6}|[a-z]{3,20}")
FONT = "Helvetica,Arial,sans-serif"
MONO_FONT = "Courier New,Courier,monospace"

PALETTES = {
    "default": {
        "ink": "#222222", "muted": "#666666", "faint": "#aaaaaa", "paper": "#ffffff",
        "leaf": "#cfe2ff", "leaf_line": "#1f4e99", "constant": "#f2f2f2",
        "nonleaf": "#ffffff", "retained": "#fff1c1", "retained_line": "#8a6d00",
        "root": "#d3f2dc", "root_line": "#1e6b34", "fn": "#e4e4e4", "acc": "#cfe2ff",
        "saved": "#ffe6c7", "saved_line": "#a35200", "badge": "#4a3500", "badge_text": "#ffffff",
        "highlight": "#d62728", "module": "#e9e4f7", "ran": "#f4f4f4",
    },
    "mono": {
        "ink": "#000000", "muted": "#555555", "faint": "#999999", "paper": "#ffffff",
        "leaf": "#e0e0e0", "leaf_line": "#000000", "constant": "#ffffff",
        "nonleaf": "#ffffff", "retained": "#f0f0f0", "retained_line": "#000000",
        "root": "#d0d0d0", "root_line": "#000000", "fn": "#ffffff", "acc": "#e0e0e0",
        "saved": "#ffffff", "saved_line": "#555555", "badge": "#000000", "badge_text": "#ffffff",
        "highlight": "#000000", "module": "#f0f0f0", "ran": "#ffffff",
    },
}
PALETTES["light"] = PALETTES["default"]
PALETTES["print"] = PALETTES["mono"]

_FAMILY = {"leaf": "tensor", "constant": "tensor", "nonleaf": "tensor", "retained": "tensor",
           "stub": "tensor", "temp": "tensor", "fn": "node", "acc": "node", "graphroot": "node",
           "op": "node", "ref": "node", "saved": "saved", "more": "more", "module": "module",
           "legend": "legend"}
_KIND_CLASS = {"fn": "fn", "acc": "acc", "graphroot": "graphroot", "stub": "constant mg-stub",
               "op": "op mg-fn"}


def palette(theme=None):
    """The colours of ``theme``: a name (``default``, ``mono``) or a dict of overrides.

    Example:
        >>> palette("mono")["leaf_line"]
        '#000000'
        >>> palette({"leaf": "#ddeeff"})["leaf"]
        '#ddeeff'
    """
    if theme is None:
        return dict(PALETTES["default"])
    if isinstance(theme, dict):
        for key, colour in theme.items():
            if key not in PALETTES["default"] or not _COLOUR.fullmatch(str(colour)):
                raise ValueError(f"theme entry {key!r}: {colour!r} is not a known key with a "
                                 "colour like '#1f4e99' or 'navy'")
        return {**PALETTES["default"], **theme}
    if theme not in PALETTES:
        raise ValueError(f"unknown theme {theme!r}; choose one of {sorted(PALETTES)} "
                         "or pass a dict of colours")
    return dict(PALETTES[theme])


def _tensor_look(kind, p):
    looks = {
        "leaf": {"shape": "box", "style": "filled", "fillcolor": p["leaf"],
                 "color": p["leaf_line"], "penwidth": "2"},
        "constant": {"shape": "box", "style": "filled,dashed", "fillcolor": p["constant"],
                     "color": p["muted"], "penwidth": "1.2"},
        "stub": {"shape": "box", "style": "filled,dashed", "fillcolor": p["constant"],
                 "color": p["muted"], "penwidth": "1.2"},
        "nonleaf": {"shape": "box", "style": "rounded,filled", "fillcolor": p["nonleaf"],
                    "color": p["ink"], "penwidth": "1"},
        "retained": {"shape": "box", "style": "rounded,filled,bold", "fillcolor": p["retained"],
                     "color": p["retained_line"], "penwidth": "2.5"},
        "temp": {"shape": "box", "style": "rounded,filled,dotted", "fillcolor": p["paper"],
                 "color": p["faint"], "penwidth": "1"},
    }
    return looks[kind]


def _other_look(kind, p):
    looks = {
        "fn": {"shape": "ellipse", "style": "filled", "fillcolor": p["fn"], "color": p["ink"]},
        "op": {"shape": "ellipse", "style": "filled", "fillcolor": p["fn"], "color": p["ink"]},
        "acc": {"shape": "ellipse", "style": "filled", "fillcolor": p["acc"],
                "color": p["leaf_line"], "peripheries": "2"},
        "graphroot": {"shape": "ellipse", "style": "filled,dotted", "fillcolor": p["paper"],
                      "color": p["ink"]},
        "ref": {"shape": "box", "style": "rounded,filled,dashed", "fillcolor": p["acc"],
                "color": p["leaf_line"], "fontsize": "9"},
        "saved": {"shape": "note", "style": "filled", "fillcolor": p["saved"],
                  "color": p["saved_line"]},
        "more": {"shape": "box", "style": "rounded,filled,dashed", "fillcolor": p["paper"],
                 "color": p["muted"]},
        "module": {"shape": "box3d", "style": "filled", "fillcolor": p["module"],
                   "color": p["ink"], "margin": "0.16,0.12"},  # room for the 3-D edge
        "legend": {"shape": "plaintext", "style": "", "fillcolor": p["paper"],
                   "color": p["paper"]},
    }
    return looks[kind]


def item_attrs(kind, flags, p):
    """DOT attributes of an item of ``kind`` with state ``flags`` (a set of strings)."""
    if _FAMILY.get(kind) == "tensor":
        attrs = dict(_tensor_look(kind, p))
    else:
        attrs = dict(_other_look(kind, p))
    if "root" in flags:
        attrs.update(fillcolor=p["root"], color=p["root_line"], penwidth="3.5")
    if "released" in flags:
        attrs.update(style="filled,dashed", fillcolor=p["paper"], color=p["faint"],
                     fontcolor=p["muted"])  # faded, yet readable
    if "ran" in flags and "current" not in flags:
        attrs.update(fillcolor=p["ran"], fontcolor=p["muted"], color=p["faint"])
    if "modified" in flags:
        attrs.update(color=p["highlight"], penwidth="2.5", style="filled,bold")
    if "highlight" in flags or "current" in flags or "error" in flags or "fired" in flags:
        attrs.update(color=p["highlight"], penwidth="4")
    return attrs


_LINKS = {
    "next": lambda p: {"color": p["ink"], "penwidth": "1.3"},
    "constant": lambda p: {"color": p["muted"], "style": "dotted", "arrowhead": "tee",
                           "penwidth": "1.3"},
    "variable": lambda p: {"color": p["leaf_line"], "penwidth": "1.8",
                           "fontcolor": p["leaf_line"]},
    "grad_fn": lambda p: {"color": p["root_line"], "penwidth": "1.5", "style": "dashed",
                          "fontcolor": p["root_line"]},
    "saved": lambda p: {"color": p["saved_line"], "style": "dashed", "dir": "none"},
    "input": lambda p: {"color": p["ink"]},
    "output": lambda p: {"color": p["ink"]},
    "more": lambda p: {"color": p["muted"], "style": "dashed"},
    "module": lambda p: {"color": p["ink"], "penwidth": "1.3"},
}


def link_attrs(kind, flags, p):
    """DOT attributes of a link of ``kind`` with state ``flags``."""
    attrs = dict(_LINKS.get(kind, _LINKS["next"])(p))
    attrs.setdefault("fontcolor", p["muted"])
    if "highlight" in flags:
        attrs.update(color=p["highlight"], penwidth="3.5")
    if "ran" in flags:
        attrs.update(color=p["faint"])
    return attrs


def item_classes(kind, flags):
    """``"mg-tensor mg-leaf mg-root"``: family, kind, then one class per flag (sorted).

    Example:
        >>> item_classes("acc", {"hooked"})
        'mg-node mg-acc mg-hooked'
    """
    family = _FAMILY.get(kind, kind)
    parts = [f"mg-{family}"]
    if kind != family:
        parts.append("mg-" + _KIND_CLASS.get(kind, kind))
    return " ".join(parts + [f"mg-{flag}" for flag in sorted(flags)])


def link_classes(kind, flags):
    """``"mg-edge mg-next"`` plus one class per flag."""
    return " ".join(["mg-edge", f"mg-{kind}".replace("_", "")] +
                    [f"mg-{flag}" for flag in sorted(flags)])
