"""Hostile names and values: valid DOT, and an SVG with no injected element or attribute.

Every user string (tensor, node, hook and module names, metadata, values, ids from a JSON
snapshot) is attacked with quotes, ``<script>``, ``&`` entities, braces, backslashes, newlines,
control characters and a 100 kB name; the SVG is parsed with ``xml.etree`` and checked
element by element against what Graphviz itself writes.
"""

import json
import re
import xml.etree.ElementTree as ET

import pytest

import viz
from viz import engines
from viz.examples import GraphBuilder

HOSTILE = [
    '"; x [label="pwned"]; "',
    "<script>alert(1)</script>",
    "</TD></TR></TABLE>><B>",
    "&amp; &lt; &#0; &#x1; &nbsp; &",
    "{ } [ ] ; -> -- digraph",
    "back\\slash \\N \\G \\L \\",
    "new\nline\r\ttab \x00 \x1b[31m \u202e",
    "]]> <!-- --> <?xml ?>",
    "x" * 100_000,
]

ALLOWED = {"svg", "g", "title", "polygon", "ellipse", "path", "polyline", "text", "a", "defs"}
ALLOWED_ATTRS = {"id", "class", "width", "height", "viewBox", "transform", "fill", "stroke",
                 "points", "cx", "cy", "rx", "ry", "d", "x", "y", "text-anchor", "font-family",
                 "font-size", "font-weight", "font-style", "stroke-width", "stroke-dasharray",
                 "stroke-opacity", "fill-opacity", "{http://www.w3.org/1999/xlink}title",
                 "{http://www.w3.org/XML/1998/namespace}space", "text-decoration"}


def hostile_snapshot(evil):
    """A graph in which every user-controlled string is ``evil``."""
    b = GraphBuilder()
    leaf = b.tensor(evil, [2], data=[evil, float("nan")], hooks=[evil, evil])
    const = b.tensor(evil + "c", [2], "constant", data=["inf", "-inf"])
    node = b.node(evil, saved=[(evil, leaf, True)], pre_hooks=[evil], post_hooks=[evil],
                  module=evil)
    b.nodes[-1]["metadata"] = {evil: evil}
    b.nodes[-1]["label"] = evil
    b.nodes[-1]["tensor_hooks"] = [{"index": 1, "name": evil}, {"index": evil, "name": evil}]
    b.next(node, [b.accumulate(leaf), ("const", const)])
    b.constants[-1]["name"] = evil
    twin = b.node(evil)  # a second node of that class, its output gone: a "#2" tag
    b.nodes[-1]["label"] = evil + " #" + evil
    b.next(twin, [node])
    out = b.tensor(evil + "o", [], "retained", data=1.0, grad_fn=node, module=evil)
    b.by_id(out)["dtype"] = evil
    b.by_id(out)["shape"] = [evil, 2]
    b.root(out)
    return b.to_dict()


def hostile_ids(evil):
    """The same graph whose ids, too, are hostile (a snapshot read from untrusted JSON)."""
    text = json.dumps(hostile_snapshot(evil))
    return json.loads(re.sub(r'"([tnce]\d+)"', lambda m: json.dumps(m[1] + evil[:50]), text))


OPTIONS = [
    {"show_saved": True, "values": True, "grads": True, "legend": True},
    {"view": "forward"},
    {"collapse": "modules", "highlight": [HOSTILE[0]]},
    {"max_nodes": 2},
]


def check_svg(svg):
    """Parse ``svg`` and check that it holds only Graphviz's own elements and attributes."""
    root = ET.fromstring(svg)
    for element in root.iter():
        tag = element.tag.split("}")[-1]
        assert tag in ALLOWED, f"unexpected element <{tag}>"
        for name, value in element.attrib.items():
            assert name in ALLOWED_ATTRS, f"unexpected attribute {name}={value!r} on <{tag}>"
            assert not name.lower().startswith("on")
            if name in ("id", "class"):
                assert re.fullmatch(r"[A-Za-z0-9_ -]*", value), value
    assert not any(e.tag.endswith("script") for e in root.iter())
    return root


@pytest.mark.parametrize("evil", HOSTILE, ids=lambda e: repr(e[:12]))
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(o))
def test_dot_stays_well_formed(evil, options):
    text = viz.to_dot(hostile_snapshot(evil), names={}, **options)
    assert len(text) < 60_000, "long names are cut"
    for line in text.splitlines()[1:-1]:
        # Every statement line either opens/closes a cluster or is `name [attrs];`.
        assert line.strip() in ("}",) or line.rstrip().endswith(("];", "{")), line[:80]
    assert "\x00" not in text and "\x1b" not in text and "\u202e" not in text
    for label in re.findall(r"label=(<<TABLE.*?</TABLE>>)", text):
        assert "<script" not in label.lower() and "<!--" not in label
    assert not re.search(r'[^\\]"; x \[label', text), "a name closed its quotes"


def available():
    return [n for n in engines.ENGINE_NAMES if engines._ENGINES[n].available()]


@pytest.mark.parametrize("engine", engines.ENGINE_NAMES)
@pytest.mark.parametrize("evil", HOSTILE, ids=lambda e: repr(e[:12]))
def test_svg_has_no_injected_element(engine, evil):
    if engine not in available():
        pytest.skip(f"the {engine} engine is not installed here")
    for options in OPTIONS[:2]:
        drawing = viz.draw(hostile_snapshot(evil), names={}, engine=engine, **options)
        root = check_svg(drawing.svg())
        texts = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
        if evil.startswith("<script>"):
            assert "<script>alert(1)</script>" in texts  # shown as text, not run
        ET.fromstring(drawing._repr_html_())


@pytest.mark.parametrize("engine", engines.ENGINE_NAMES)
def test_hostile_ids_are_replaced(engine):
    if engine not in available():
        pytest.skip(f"the {engine} engine is not installed here")
    for evil in HOSTILE[:3]:
        drawing = viz.draw(hostile_ids(evil), names={}, engine=engine, show_saved=True)
        check_svg(drawing.svg())


def test_long_names_are_cut_everywhere():
    text = viz.to_dot(hostile_snapshot("y" * 100_000), names={}, values=True)
    assert max(len(run) for run in re.findall(r"y+", text)) <= 80


def test_theme_colours_are_checked():
    with pytest.raises(ValueError, match="colour"):
        viz.to_dot(hostile_snapshot("x"), theme={"badge": '"><script>'}, names={})
    with pytest.raises(ValueError, match="colour"):
        viz.to_dot(hostile_snapshot("x"), theme={"nope": "#ffffff"}, names={})
    assert 'fillcolor="#ddeeff"' in viz.to_dot(hostile_snapshot("x"), theme={"leaf": "#ddeeff"},
                                                names={})


@pytest.mark.parametrize("evil", HOSTILE, ids=lambda e: repr(e[:12]))
def test_module_boxes_clusters_and_error_text_are_escaped(evil):
    from tests.test_viz_dot import FakeRecording

    snap = hostile_snapshot(evil)
    node = snap["nodes"][0]["id"]
    error = {"node": node, "type": evil, "message": evil}
    rec = FakeRecording(snap, {"node": node, "error": error, "caption": evil})
    model = type(evil[:200].replace("\x00", ""), (),  # a class named like the attack
                 {"named_modules": lambda self: [("", self), (evil, self)]})()
    for options in ({"collapse": "modules"}, {"collapse": "modules", "expand": [evil]},
                    {"event": 0, "show_saved": True}):
        text = viz.to_dot(rec, names={"model": model}, **options)
        assert "<B></B>" not in text and "\x00" not in text
        for label in re.findall(r"label=(<<TABLE.*?</TABLE>>)", text):
            assert "<script" not in label.lower() and "<!--" not in label
        if available():
            check_svg(viz.draw(rec, names={"model": model}, **options).svg())


def test_control_characters_in_names_keep_every_svg_well_formed(tmp_path):
    """U+0000 and U+001B in a name: saved frames, the still picture, the drawing and the
    fallback HTML stay well-formed (Chromium refuses "Invalid character U+0000")."""
    import xml.etree.ElementTree as ET

    import minigrad
    import viz
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    names = {"a\x00b\x1bc": x, "y\x00": y}
    stepper = viz.Stepper(y, names=names)
    paths = stepper.save_frames(tmp_path) or list(tmp_path.iterdir())
    files = sorted(tmp_path.glob("*.svg"))
    assert files and paths
    for path in files:
        ET.parse(path)
    ET.fromstring(stepper.still())
    ET.fromstring(viz.draw(y, names=names).svg())
    fallback = stepper._html()
    assert "\x00" not in fallback and "\x1b" not in fallback
