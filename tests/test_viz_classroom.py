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
