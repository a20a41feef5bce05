"""``viz.draw(recording, event=i)`` on the frames students meet when backward fails: the error
text pinned to the node that raised it, and saved tensors that were released or changed in
place."""

import html
import re

import pytest

import minigrad as torch
import viz
from minigrad.autograd.graph import record
from tests.test_viz_dot import parse
from tests.test_viz_render import groups
from viz import engines


def error_event(rec):
    return next(e for e in rec.events if e["kind"] == "error")


def backward_twice():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([3.0, 4.0], requires_grad=True)
    with record(names={"x": x, "w": w}) as rec:
        y = (x * w).sum()
        y.backward()
        with pytest.raises(RuntimeError, match="second time"):
            y.backward()
    return rec


def modified_in_place():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    with record(names={}) as rec:
        c = (a * 2).exp()
        out = c.sum()
        c.add_(1)
        with pytest.raises(RuntimeError, match="modified by an inplace operation"):
            out.backward()
    return rec


def label_text(node):
    """The words of an HTML-like label, tags dropped and entities decoded."""
    return html.unescape(re.sub(r"<[^>]*>", " ", node["label"]))


@pytest.mark.parametrize("make, words", [
    (backward_twice, "Trying to backward through the graph a second time"),
    (modified_in_place, "one of the variables needed for gradient computation has been"),
])
def test_the_error_text_is_pinned_to_the_node_that_raised(make, words):
    rec = make()
    event = error_event(rec)
    nodes, _ = parse(viz.to_dot(rec, event=event["i"], names={}, id_prefix="p"))
    node = nodes[f"p-{event['node']}"]
    text = " ".join(label_text(node).split())
    assert "error: RuntimeError" in text
    assert words in text
    assert "{" not in text and "'message'" not in text  # the message, not a dict
    assert "mg-error" in node["class"] and node["color"] == "#d62728"
    others = [n for i, n in nodes.items() if i != f"p-{event['node']}"]
    assert not any("error:" in n["label"] for n in others)


def test_a_long_message_is_wrapped_and_cut():
    rec = backward_twice()
    event = error_event(rec)
    nodes, _ = parse(viz.to_dot(rec, event=event["i"], names={}, id_prefix="p"))
    rows = re.findall(r'<FONT COLOR="#d62728" POINT-SIZE="9">(.*?)</FONT>',
                      nodes[f"p-{event['node']}"]["label"])
    assert 2 <= len(rows) <= 6 and all(len(html.unescape(r)) <= 44 for r in rows)
    assert rows[-1].endswith("\N{HORIZONTAL ELLIPSIS}")


def test_a_saved_tensor_changed_in_place_is_marked():
    rec = modified_in_place()
    event = error_event(rec)
    nodes, _ = parse(viz.to_dot(rec, event=event["i"], show_saved=True, names={},
                                id_prefix="p"))
    saved = nodes[f"p-{event['node']}-s0"]
    assert "changed in place since saved" in saved["label"]
    assert "mg-modified" in saved["class"]


def test_released_saved_tensors_still_name_their_tensor():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([3.0, 4.0], requires_grad=True)
    loss = (x * w).sum()
    loss.backward()
    nodes, _ = parse(viz.to_dot(loss, show_saved=True, names={"x": x, "w": w},
                                id_prefix="p"))
    saved = [n for n in nodes.values() if "mg-saved" in n["class"]]
    assert len(saved) == 2 and all("mg-released" in n["class"] for n in saved)
    assert sorted(label_text(n).split()[2] for n in saved) == ["w", "x"]


def test_an_error_given_as_text_still_reads():
    from viz.compose import apply_state
    from viz.scene import Item, Scene

    scene = Scene()
    scene.add(Item("n1", "fn", "MulBackward0", []))
    apply_state(scene, {"node": "n1", "error": "RuntimeError: boom"})
    assert [line.text for line in scene.items["n1"].lines][-2:] == [
        "error", "RuntimeError: boom"]


@pytest.mark.skipif(not engines.available_engines(), reason="no Graphviz engine is installed")
@pytest.mark.parametrize("make", [backward_twice, modified_in_place])
def test_error_frames_render(make):
    rec = make()
    event = error_event(rec)
    svg = viz.draw(rec, event=event["i"], show_saved=True, names={}, id_prefix="p").svg()
    assert "mg-error" in groups(svg)[f"p-{event['node']}"][0].split()
    assert "RuntimeError" in svg


def test_an_error_inside_a_collapsed_module_marks_its_box():
    from minigrad import nn

    layer = nn.Linear(2, 1)
    x = torch.ones(1, 2)
    with record(names={}) as rec:
        out = layer(x).sum()
        out.backward()
        with pytest.raises(RuntimeError, match="second time"):
            out.backward()
    event = error_event(rec)
    nodes, _ = parse(viz.to_dot(rec, event=event["i"], collapse="modules",
                                names={"layer": layer}, id_prefix="p"))
    box = nodes["p-m-Linear"]
    assert "mg-error" in box["class"] and box["color"] == "#d62728"


def test_the_hook_that_fires_at_an_event_is_marked_on_its_tensor_or_node():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([3.0, 4.0], requires_grad=True)

    def double(grad):
        return grad * 2

    def check(grad_outputs):
        return None

    with record() as rec:
        h = x * w
        h.register_hook(double)
        h.grad_fn.register_prehook(check)
        (h + x).sum().backward()
    tensor_hook = next(e for e in rec.events if e["kind"] == "tensor_hook")
    nodes, _ = parse(viz.to_dot(rec, event=tensor_hook["i"], id_prefix="p"))
    fired = {k: n for k, n in nodes.items() if "mg-fired" in n["class"]}
    assert list(fired) == [f"p-{tensor_hook['tensor']}"]
    assert "hook double fires" in fired[f"p-{tensor_hook['tensor']}"]["label"]
    pre_hook = next(e for e in rec.events if e["kind"] == "node_pre_hook")
    nodes, _ = parse(viz.to_dot(rec, event=pre_hook["i"], id_prefix="p"))
    node = nodes[f"p-{pre_hook['node']}"]
    assert "mg-fired" in node["class"] and "pre-hook check fires" in node["label"]
    assert not any("mg-fired" in n["class"] for n in
                   parse(viz.to_dot(rec, event=pre_hook["i"] + 1, id_prefix="p"))[0].values())
