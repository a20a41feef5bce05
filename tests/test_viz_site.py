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
