"""viz.save_html and viz.save_frames: one offline page, one SVG per frame, hostile text escaped."""

import re
import xml.etree.ElementTree as ET

import pytest

import minigrad as torch
from minigrad.autograd.graph import record
from viz.export import save_frames, save_html
from viz.playback import Playback

HOSTILE = '</script><script>alert("x")</script><!--&{}\\'


def hostile_recording():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2

    def hook(grad):
        return grad
    hook.__name__ = HOSTILE
    y.register_hook(hook)
    loss = (y * y).sum()
    loss.backward(retain_graph=True)
    with record(names={HOSTILE: x, "y": y, "loss": loss}) as rec:
        loss.backward()
        y.grad_fn  # noqa: B018 - keep y alive
    return rec


def test_page_is_self_contained(tmp_path):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    loss = (x * x).sum()
    path = save_html(loss, tmp_path / "b.html", title="x² & friends", show_saved=True)
    text = path.read_text("utf-8")
    assert "Content-Security-Policy" in text and "default-src 'none'" in text
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", text)
    assert "<title>x² &amp; friends</title>" in text
    assert text.count("<script") == 2
    assert "export default { render }" in text and "startPage();" in text


def test_hostile_text_cannot_escape_the_page(tmp_path):
    rec = hostile_recording()
    text = save_html(rec, tmp_path / "h.html", title=HOSTILE).read_text("utf-8")
    assert text.count("<script") == 2 and text.count("</script>") == 2
    assert "<!--&{}" not in text.split("<body>")[1].split('<script type="module">')[0]
    assert 'alert("x")' not in text.replace("\\u003c", "<").split("</title>")[0].split(
        "<title>")[0]


def test_frames_are_standalone_svg_files(tmp_path):
    rec = hostile_recording()
    paths = save_frames(rec, tmp_path / "frames", granularity="node")
    playback = Playback(rec)
    assert len(paths) == playback.frame_count("node")
    assert paths[0].name == "frame-0001.svg"
    running = 0
    for path in paths:
        text = path.read_text("utf-8")
        root = ET.fromstring(text[text.index("<svg"):])           # well-formed XML
        assert not [e for e in root.iter() if e.tag.endswith("script")]
        assert root.find("{http://www.w3.org/2000/svg}style") is not None
        running += "mgs-running" in text
    assert running >= 3
    last = paths[-1].read_text("utf-8")
    assert "backward() is finished." in last


def test_error_frame_pins_the_escaped_message(tmp_path):
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    with record() as rec:
        c = (a * 2).exp()
        c.add_(1)
        with pytest.raises(RuntimeError):
            c.sum().backward()
    playback = Playback(rec)
    error = next(e["i"] for e in rec.events if e["kind"] == "error")
    svg = playback.still(error)
    assert "mgs-error" in svg and "mgs-note-error" in svg
    assert "RuntimeError: one of the variables needed" in svg and "inplace" in svg
    ET.fromstring(svg[svg.index("<svg"):])


def test_classroom_and_mono_themes(tmp_path):
    x = torch.tensor([1.0], requires_grad=True)
    for theme in ("classroom", "mono"):
        text = save_html((x * 3).sum(), tmp_path / f"{theme}.html", theme=theme).read_text()
        assert f'"theme":"{theme}"' in text
