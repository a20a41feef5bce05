"""viz.classroom: the large-type, high-contrast look for projectors."""

import pytest

import minigrad as torch
import viz
from viz import classroom


def _loss():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([3.0, 4.0], requires_grad=True)
    return (x * w).sum()


def test_scale_fonts_scales_sizes_and_thickens_lines():
    source = 'node [fontsize=10] <FONT POINT-SIZE="9">x</FONT> [penwidth="2"]'
    assert classroom.scale_fonts(source, 2) == \
        'node [fontsize=20] <FONT POINT-SIZE="18">x</FONT> [penwidth="3"]'


def test_classroom_drawing_has_large_type_and_the_classroom_palette():
    plain, big = viz.draw(_loss(), id_prefix="p"), classroom.draw(_loss(), id_prefix="p")
    assert "fontsize=11 " in plain.source and "fontsize=16 " in big.source
    assert classroom.PALETTE["highlight"] not in plain.source
    assert big.element_id("n1") == "p-n1"


def test_the_palette_is_a_renderer_theme():
    assert "MulBackward0" in viz.draw(_loss(), theme="classroom").source


def test_classroom_svg_renders():
    try:
        svg = classroom.draw(_loss(), legend=True).svg()
    except viz.EngineNotFound:
        pytest.skip("no Graphviz engine installed")
    assert "<svg" in svg and "AccumulateGrad" in svg


def test_classroom_stepper_and_page(tmp_path):
    pytest.importorskip("anywidget")
    from minigrad.autograd.graph import record
    with record() as rec:
        _loss().backward()
    try:
        stepper = classroom.Stepper(rec)
    except viz.EngineNotFound:
        pytest.skip("no Graphviz engine installed")
    assert stepper.canvas.theme == "classroom"
    page = classroom.save_html(stepper, tmp_path / "big.html").read_text(encoding="utf-8")
    assert '"theme":"classroom"' in page


def test_roomy_boxes_gives_boxes_a_margin_and_leaves_the_rest():
    source = ('  "a [t1]" [shape="box" label="a"];\n'
              '  "b [n2]" [shape="ellipse" label="b"];\n'
              '  "c [t3]" [shape="box" margin="0.3,0.3" label="c"];\n'
              '  "a [t1]" -> "b [n2]" [label="shape=\\"box\\""];')
    lines = classroom.roomy_boxes(source, "0.2,0.2").splitlines()
    assert lines[0] == '  "a [t1]" [margin="0.2,0.2" shape="box" label="a"];'
    assert lines[1:] == source.splitlines()[1:]


def test_a_constant_box_keeps_room_between_the_tee_and_its_title():
    """The "tee" arrow head ends on the constant's box; its title starts well below it."""
    import re
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    c = torch.tensor([3.0, 4.0])
    try:
        svg = classroom.draw((x * c).sum(), id_prefix="g").svg()
    except viz.EngineNotFound:
        pytest.skip("no Graphviz engine installed")
    node = re.search(r'<g id="[^"]*" class="node[^"]*mg&#45;constant.*?</g>', svg, re.S)[0]
    edge = re.search(r'<g id="[^"]*" class="edge[^"]*mg&#45;constant.*?</g>', svg, re.S)[0]
    title = re.search(r'<text[^>]*y="([-\d.]+)"[^>]*font-size="([\d.]+)"', node)
    cap_top = float(title[1]) - 0.75 * float(title[2])
    tee = re.search(r'<polygon[^>]*points="([^"]+)"', edge)[1]
    tee_bottom = max(float(point.split(",")[1]) for point in tee.split())
    assert cap_top - tee_bottom >= 6                 # points; was 3 with the default margin
