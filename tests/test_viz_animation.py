"""``viz.save_animation`` and ``minigrad-viz step``: an image per frame, following the run."""

import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import minigrad
from viz import animation
from viz.cli import main
from viz.export import _playback, frame_svgs

pytest.importorskip("resvg_py", reason="animations need resvg-py (the anim extra)")
Image = pytest.importorskip("PIL.Image", reason="animations need Pillow (the anim extra)")

SVG = "{http://www.w3.org/2000/svg}"


def _loss():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    w = minigrad.tensor([3.0, 4.0], requires_grad=True)
    return ((x * w) * x).sum()


def _frames(path):
    with Image.open(path) as im:
        frames = []
        for k in range(im.n_frames):
            im.seek(k)
            frames.append(np.asarray(im.convert("RGB"), dtype=np.int16))
    return frames


@pytest.mark.parametrize("granularity", ["node", "event"])
def test_gif_has_one_image_per_frame_of_the_granularity(tmp_path, granularity):
    loss = _loss()
    expected = _playback(_loss(), "default", {}, {}).frame_count(granularity)
    path = minigrad_path = tmp_path / "backward.gif"
    assert animation.save_animation(loss, path, granularity=granularity) == minigrad_path
    with Image.open(path) as im:
        assert im.format == "GIF" and im.n_frames == expected


def test_apng_is_animated_and_every_frame_has_one_size(tmp_path):
    path = animation.save_animation(_loss(), tmp_path / "backward.png", granularity="node")
    with Image.open(path) as im:
        assert im.format == "PNG" and im.n_frames > 3
    sizes = {f.shape for f in _frames(path)}
    assert len(sizes) == 1


def _running_centre(svg, scale):
    """Pixel position of the centre of the node drawn as running in a still frame."""
    root = ET.fromstring(svg)
    vb_x, vb_y, _, _ = (float(v) for v in root.get("viewBox").split())
    graph = next(g for g in root.iter(f"{SVG}g") if "graph" in (g.get("class") or "").split())
    tx, ty = (float(v) for v in re.search(r"translate\(([-\d.]+) ([-\d.]+)\)",
                                          graph.get("transform")).groups())
    for group in root.iter(f"{SVG}g"):
        if "mgs-running" in (group.get("class") or "").split():
            shape = group.find(f"{SVG}ellipse")
            if shape is None:
                continue
            cx, cy = float(shape.get("cx")) + tx, float(shape.get("cy")) + ty
            px_per_unit = 4 / 3 * scale  # 1 pt = 4/3 CSS px, then the zoom
            return int((cx - vb_x) * px_per_unit), int((cy - vb_y) * px_per_unit)
    return None


def test_pixels_change_where_the_running_node_is(tmp_path):
    scale = 1.0
    path = animation.save_animation(_loss(), tmp_path / "b.gif", granularity="node",
                                    scale=scale)
    frames = _frames(path)
    stills = list(frame_svgs(_playback(_loss(), "default", {}, {}), "node"))
    checked = 0
    for k in range(1, len(frames)):
        centre = _running_centre(stills[k], scale)
        if centre is None:
            continue
        x, y = centre
        window = (slice(y - 30, y + 30), slice(x - 100, x + 100))  # the node and its border
        changed = np.abs(frames[k - 1][window] - frames[k][window]).sum(axis=-1) > 60
        assert changed.mean() > 0.03, f"frame {k}: nothing changed at the running node"
        far = (slice(0, 40), slice(0, 40))  # the blank top-left corner stays blank
        assert not np.abs(frames[k - 1][far] - frames[k][far]).any()
        checked += 1
    assert checked >= 2
    assert any(np.abs(frames[0] - f).sum() > 0 for f in frames[1:])


def test_bad_suffix_and_durations_are_clear_errors(tmp_path):
    with pytest.raises(ValueError, match="cannot write an animation as '.bmp'"):
        animation.save_animation(_loss(), tmp_path / "b.bmp")
    with pytest.raises(ValueError, match="must be positive"):
        animation.save_animation(_loss(), tmp_path / "b.gif", duration_ms=0)


def test_css_variables_are_resolved_for_the_rasteriser():
    css = ".r { --a: #123456; --b: var(--a); } .n { stroke: var(--b); fill: var(--c, red); }"
    out = animation._resolve_css_variables(css)
    assert "stroke: #123456" in out and "fill: red" in out and "var(" not in out


SCRIPT = """
import minigrad as torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
loss = (x * x).sum()
"""


@pytest.mark.parametrize("output, kind", [("b.gif", "GIF"), ("b.html", "html"),
                                          ("frames", "dir")])
def test_cli_step_writes_each_kind(tmp_path, capsys, output, kind):
    script = tmp_path / "s.py"
    script.write_text(SCRIPT)
    target = tmp_path / output
    assert main(["step", str(script), "--var", "loss", "-o", str(target)]) == 0
    if kind == "GIF":
        with Image.open(target) as im:
            assert im.n_frames > 2
    elif kind == "html":
        assert target.read_text().lstrip().lower().startswith("<!doctype html")
    else:
        files = sorted(target.glob("frame-*.svg"))
        assert files and all(ET.parse(f).getroot().tag == f"{SVG}svg" for f in files)


def test_cli_step_refuses_an_unknown_suffix(tmp_path, capsys):
    script = tmp_path / "s.py"
    script.write_text(SCRIPT)
    assert main(["step", str(script), "--var", "loss", "-o", str(tmp_path / "b.txt")]) == 2
    assert "cannot write '.txt'" in capsys.readouterr().err
