"""Rendering with every available Graphviz engine: SVG structure (ids, classes, titles), never
bytes or coordinates, which differ between engines. Missing engines are skipped."""

import os
import re
import shutil
import xml.etree.ElementTree as ET

import pytest

import viz
from viz import engines
from viz.compose import build_scene
from viz.dot import dom_id
from viz.examples import exp_add, mul_sum, two_layer_mlp

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(params=engines.ENGINE_NAMES)
def engine(request):
    if not engines._ENGINES[request.param].available():
        pytest.skip(f"the {request.param} engine is not installed here")
    return request.param


def groups(svg):
    """``{id: (class, title)}`` of every ``<g>`` of an SVG document."""
    root = ET.fromstring(svg)
    found = {}
    for g in root.iter(f"{SVG}g"):
        title = g.find(f"{SVG}title")
        found[g.get("id")] = (g.get("class", ""), None if title is None else title.text)
    return found


def test_every_element_has_its_id_class_and_title(engine):
    scene = build_scene(exp_add(), show_saved=True)
    drawing = viz.draw(exp_add(), show_saved=True, engine=engine, id_prefix="r1")
    found = groups(drawing.svg())
    assert found["r1"][0].split()[:2] == ["graph", "mg-graph"]
    for item in scene.items.values():
        classes, title = found[dom_id("r1", item.id)]
        assert classes.startswith("node mg-")
        assert title.endswith(f"[{item.id}]")
    for link in scene.links:
        classes, title = found[dom_id("r1", link.id)]
        assert classes.startswith("edge mg-edge mg-")
        assert "->" in title


def test_titles_and_text_are_readable(engine):
    svg = viz.draw(exp_add(), engine=engine, id_prefix="r2").svg()
    found = groups(svg)
    assert found["r2-t1"][1] == "A: leaf, requires grad tensor (2,) [t1]"
    assert found["r2-n4"][0] == "node mg-node mg-acc"
    texts = [t.text for t in ET.fromstring(svg).iter(f"{SVG}text")]
    assert "AccumulateGrad" in texts and "MulBackward0" in texts


def test_two_drawings_on_one_page_share_no_id(engine):
    first = viz.draw(mul_sum(), engine=engine).svg()
    second = viz.draw(mul_sum(), engine=engine).svg()
    ids = [{e.get("id") for e in ET.fromstring(svg).iter() if e.get("id")}
           for svg in (first, second)]
    assert ids[0] and ids[1] and not ids[0] & ids[1]


def test_collapsed_modules_and_marker_render(engine):
    found = groups(viz.draw(two_layer_mlp(), collapse="modules", max_nodes=8,
                            engine=engine, id_prefix="r3").svg())
    assert "node mg-more" == found["r3-more"][0]
    assert any(c.startswith("node mg-module") for c, _ in found.values())


def test_legend_renders(engine):
    found = groups(viz.legend(engine=engine, id_prefix="lg").svg())
    assert found["lg-legend-acc"][0] == "node mg-node mg-acc mg-legend"


def test_save_svg_png_and_dot(engine, tmp_path):
    drawing = viz.draw(mul_sum(), engine=engine)
    assert ET.parse(drawing.save(tmp_path / "g.svg")).getroot().tag == f"{SVG}svg"
    assert drawing.save(tmp_path / "g.dot").read_text().startswith("digraph")
    if "png" in engines._ENGINES[engine].formats:
        assert drawing.save(tmp_path / "g.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    else:
        with pytest.raises(ValueError, match="cannot write 'png'"):
            drawing.save(tmp_path / "g.png")
    with pytest.raises(ValueError, match="format"):
        drawing.save(tmp_path / "g.bmp")


def test_notebook_display_bundle(engine):
    drawing = viz.draw(mul_sum(), engine=engine, id_prefix="nb")
    bundle = drawing._repr_mimebundle_()
    assert set(bundle) == {"text/html", "image/svg+xml", "text/plain"}
    html = bundle["text/html"]
    assert html.startswith('<div class="mg-drawing" id="nb-wrap"') and "<?xml" not in html
    assert '<svg class="mg-svg" data-mg="nb"' in html
    ET.fromstring(html)  # the inline block is well-formed on its own
    assert drawing._repr_svg_() == bundle["image/svg+xml"]
    assert "backward view" in bundle["text/plain"]


def test_engine_can_be_chosen_by_name_and_environment(engine, monkeypatch):
    monkeypatch.setattr(engines, "_chosen", None)
    monkeypatch.setenv("MINIGRAD_VIZ_ENGINE", engine)
    assert engines.get_engine().name == engine
    viz.set_engine("auto")
    assert engines.get_engine().name == engines.available_engines()[0]
    viz.set_engine(None)
    assert engines.get_engine().name == engine


def test_unknown_engine_name():
    with pytest.raises(ValueError, match="unknown engine"):
        viz.set_engine("neato-turbo")


def test_no_engine_says_what_to_install(monkeypatch):
    monkeypatch.setattr(engines, "_chosen", None)
    monkeypatch.delenv("MINIGRAD_VIZ_ENGINE", raising=False)
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.setattr(engines.Wasi, "available", lambda self: False)
    drawing = viz.draw(mul_sum())
    with pytest.raises(viz.EngineNotFound, match="pip install") as info:
        drawing.svg()
    message = str(info.value)
    assert "graphviz-pure" in message and "apt install graphviz" in message
    assert "digraph" in drawing.source  # the DOT text needs no engine
    assert "pip install" in drawing._repr_mimebundle_()["text/plain"]
    with pytest.raises(viz.EngineNotFound, match="dot engine was asked for"):
        engines.get_engine("dot")


def test_render_errors_are_reported(engine):
    with pytest.raises(viz.RenderError):
        engines.get_engine(engine).render("digraph { a -> }")


def test_real_graph_renders_with_names_from_the_caller(engine):
    torch = pytest.importorskip("minigrad")
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = torch.tensor([4.0, 5.0, 6.0], requires_grad=True)
    s = (x * y).sum()
    svg = viz.draw(s, engine=engine, values=True).svg()
    titles = [t for _, t in groups(svg).values() if t]
    assert any(t.startswith("x: leaf") for t in titles)
    assert any(t.startswith("s: output") for t in titles)


def test_shows_inline_in_a_notebook_even_when_not_last():
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    if not engines.available_engines():
        pytest.skip("no Graphviz engine is installed here")
    code = ("import viz\nfrom viz.examples import mul_sum\n"
            "d = viz.draw(mul_sum())\ndisplay(d)\nx = 1\n")
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code),
                                               nbformat.v4.new_code_cell("d")])
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": root}}).execute()
    for cell in notebook.cells:
        (output,) = [o for o in cell.outputs if o["output_type"] in ("display_data",
                                                                      "execute_result")]
        assert {"text/html", "image/svg+xml"} <= set(output["data"])
        assert 'class="mg-svg"' in output["data"]["text/html"]


def _box_widths(svg):
    """``{id: width}`` of the outline of every tensor and node ``<g>``."""
    widths = {}
    for g in ET.fromstring(svg).iter(f"{SVG}g"):
        shape = g.find(f"{SVG}polygon")
        if shape is None or "node" not in g.get("class", "").split():
            continue
        xs = [float(p.split(",")[0]) for p in shape.get("points").split()]
        widths[g.get("id")] = max(xs) - min(xs)
    return widths


def test_graphviz_pure_leaves_room_for_the_text():
    """graphviz-pure guesses narrow widths for a font list it does not know; viz lays out for
    it in a font it measures, so the boxes are as wide as system dot's (never bytes: widths)."""
    if not all(engines._ENGINES[n].available() for n in ("dot", "graphviz-pure")):
        pytest.skip("needs both dot and graphviz-pure")
    snap = exp_add()
    snap["tensors"][0]["post_accumulate_hooks"] = ["a rather long hook name"]
    pure = viz.draw(snap, engine="graphviz-pure", id_prefix="w", values=True).svg()
    dot = viz.draw(snap, engine="dot", id_prefix="w", values=True).svg()
    assert "DejaVu Sans" not in pure and 'font-family="Helvetica,Arial,sans-serif"' in pure
    pure_w, dot_w = _box_widths(pure), _box_widths(dot)
    assert pure_w.keys() == dot_w.keys() and pure_w
    for key, width in dot_w.items():
        assert pure_w[key] >= 0.9 * width, key
    png = viz.draw(snap, engine="graphviz-pure").render("png")
    assert png.startswith(b"\x89PNG")


def test_the_pictures_the_docs_show_exist_and_are_svg():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for page in ("README.md", "docs/visual-language.md"):
        with open(os.path.join(root, page), encoding="utf-8") as f:
            shown = re.findall(r"!\[[^\]]*\]\(((?:docs/)?img/[^)]+\.svg)\)", f.read())
        assert shown, page
        for path in shown:
            full = os.path.join(root, path if path.startswith("docs/") else "docs/" + path)
            svg = ET.parse(full).getroot()
            assert svg.tag == f"{SVG}svg" and svg.find(f"{SVG}g").get("class").startswith(
                "graph mg-graph"), path
