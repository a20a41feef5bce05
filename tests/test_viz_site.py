"""python -m viz.site: the tutorials' steppers as standalone pages, with an index."""

import pathlib
import re

import pytest

from viz import site

ROOT = pathlib.Path(__file__).resolve().parents[1]


def test_inline_markdown_keeps_code_literal():
    assert site._inline("is `c * c` a *leaf*? **yes** & <b>") == \
        "is <code>c * c</code> a <em>leaf</em>? <strong>yes</strong> &amp; &lt;b&gt;"


def test_intro_of_a_tutorial():
    nbformat = pytest.importorskip("nbformat")
    nb = nbformat.read(ROOT / "tutorials" / "05_hooks.ipynb", as_version=4)
    title, question = site.notebook_intro(nb)
    assert title.startswith("5 · Hooks")
    assert question.startswith("can you watch") and "\n" not in question


def test_no_tutorials_is_a_clear_error(tmp_path, capsys):
    assert site.main([str(tmp_path), str(tmp_path / "out")]) == 2
    assert "no tutorials" in capsys.readouterr().err


def test_export_of_one_tutorial(tmp_path, monkeypatch):
    for module in ("nbclient", "ipykernel", "anywidget"):
        pytest.importorskip(module)
    import viz
    try:
        viz.get_engine()
    except viz.EngineNotFound:
        pytest.skip("no Graphviz engine installed")
    assert site.main([str(ROOT / "tutorials"), str(tmp_path), "--only", "05"]) == 0
    page = (tmp_path / "05_hooks.html").read_text(encoding="utf-8")
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert "<h1>5 · Hooks: your code inside backward()</h1>" in page
    assert "The question:" in page and 'href="index.html"' in page
    assert re.search(r"""(src|href)=["']https?:""", page) is None     # nothing to fetch
    assert "Content-Security-Policy" in page
    assert 'href="05_hooks.html"' in index and "<code>backward()</code>" in index


def test_code_is_highlighted_and_escaped():
    out = site.highlight('x = "<script>" # & done')
    assert "<script>" not in out and "&lt;script&gt;" in out and "&amp;" in out


@pytest.fixture(scope="module")
def two_pages(tmp_path_factory):
    """Tutorials 1 and 2 exported into one site."""
    for module in ("nbclient", "ipykernel", "anywidget"):
        pytest.importorskip(module)
    import viz
    try:
        viz.get_engine()
    except viz.EngineNotFound:
        pytest.skip("no Graphviz engine installed")
    out = tmp_path_factory.mktemp("site")
    assert site.main([str(ROOT / "tutorials"), str(out), "--only", "01", "02"]) == 0
    return out


def test_pages_show_their_code_and_link_their_neighbours(two_pages):
    first = (two_pages / "01_tensors_and_leaves.html").read_text(encoding="utf-8")
    second = (two_pages / "02_grad_fn_and_nodes.html").read_text(encoding="utf-8")
    assert 'rel="next" href="02_grad_fn_and_nodes.html"' in first and 'rel="prev"' not in first
    assert 'rel="prev" href="01_tensors_and_leaves.html"' in second
    assert 'rel="next"' not in second and 'href="index.html"' in second
    assert first.count('class="mg-site-code"') == 1 and "requires_grad" in first.split(
        'class="mg-site-code"')[1].split("</details>")[0]


@pytest.mark.browser
def test_site_from_file_plays_with_keys_and_no_network(two_pages, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, offline=True)
    requests = []
    context.on("request", lambda r: requests.append(r.url))
    page = context.new_page()
    page.goto((two_pages / "index.html").as_uri())
    page.click("a[href='01_tensors_and_leaves.html']")
    page.wait_for_function("document.body.dataset.frame === '0'")
    page.keyboard.press("ArrowRight")          # no click on the stepper first
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.body.dataset.frame") == "2"
    page.keyboard.press("End")
    assert int(page.evaluate("document.body.dataset.frame")) > 2
    page.keyboard.press("Home")
    assert page.evaluate("document.body.dataset.frame") == "0"
    page.click("a[rel='next']")
    page.wait_for_url("**/02_grad_fn_and_nodes.html")
    assert page.locator(".mg-site-code").count() == 1
    context.close()
    assert all(url.startswith("file://") for url in requests), requests
