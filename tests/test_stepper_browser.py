"""The stepper in a real browser: Debian's Chromium driven by Playwright.

(a) JupyterLab, started here on 127.0.0.1, runs a notebook with a stepper; clicking "next"
    moves the highlight to the next node (a screenshot goes to test-artifacts/).
(b) The exported page, opened from file://, plays to its last frame with no network request;
    on a narrow page the side panel goes under the picture, which keeps a readable scale; a
    note at a node's corner is tied to it by the same leader line as in a saved frame.

Skipped, with the reason, where Chromium or Playwright (or JupyterLab, for (a)) is missing.
``.ci/run`` installs them (``apt install chromium``, ``pip install playwright``).
"""

import importlib.util
import json
import os
import pathlib
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

pytestmark = pytest.mark.browser

ROOT = pathlib.Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]


def _missing(*modules):
    if not os.path.exists(CHROMIUM):
        return "Debian's chromium is not installed (apt install chromium)"
    for module in ("playwright", *modules):
        if importlib.util.find_spec(module) is None:
            return f"the Python package {module} is not installed (pip install {module})"
    return None


def _recording():
    """A backward pass with a fan-in and a tensor hook (the forward pass is not recorded)."""
    import minigrad as torch
    from minigrad.autograd.graph import record
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([3.0, 4.0], requires_grad=True)
    y = x * w
    y.register_hook(lambda g: g * 2)
    loss = (y * y).sum()
    with record() as rec:
        loss.backward()
    return rec


# ----------------------------------------------------------------- (b) the exported page
def test_exported_page_plays_to_the_end_offline(browser, tmp_path):
    from viz.export import save_html
    path = save_html(_recording(), tmp_path / "backward.html", show_saved=True)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    requests, errors = [], []
    page.on("request", lambda r: requests.append(r.url))
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(path.as_uri())
    page.wait_for_selector("body[data-frame='0']", state="attached")
    count = int(page.locator(".mgs-slider").get_attribute("max")) + 1
    page.select_option(".mgs-speed", label="fastest")
    page.click(".mgs-play")
    page.wait_for_selector(f"body[data-frame='{count - 1}'][data-playing='false']",
                           state="attached", timeout=20_000)
    caption = page.locator(".mgs-caption").inner_text()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "stepper-export-last-frame.png"))
    page.close()
    assert "finished" in caption
    assert [url for url in requests if not url.startswith("file://")] == []
    assert errors == []


def test_exported_page_restyles_the_running_node(browser, tmp_path):
    from viz.export import save_html
    path = save_html(_recording(), tmp_path / "backward.html", granularity="node")
    page = browser.new_page()
    page.goto(path.as_uri())
    page.wait_for_selector("body[data-frame]", state="attached")
    page.click("#mgs-mode-node + label")
    running = []
    for _ in range(3):
        page.click(".mgs-next")
        running.append(page.locator(".mgs-root .node.mgs-running").first.get_attribute("id"))
    page.keyboard.press("Home")
    page.close()
    assert len(set(running)) == 3


def _mlp_loss():
    """A small MLP's loss: a graph much wider than tall (with show_saved=True)."""
    import minigrad as torch
    from minigrad import nn
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
    data = torch.tensor([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]])
    return nn.MSELoss()(model(data), torch.tensor([[1.0], [0.0]]))


def _xwx_loss():
    import minigrad as torch
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([3.0, 4.0], requires_grad=True)
    return ((x * w) * x).sum()


LAYOUT = """() => {
  const box = (s) => document.querySelector(s).getBoundingClientRect();
  const svg = document.querySelector('.mgs-stage svg');
  return {stacked: document.querySelector('.mgs-root').classList.contains('mgs-stacked'),
          stage: box('.mgs-stage').toJSON(), panel: box('.mgs-panel').toJSON(),
          svg: svg.getBoundingClientRect().toJSON(),
          fitted: Number(document.querySelector('.mgs-root').dataset.scale),
          scale: svg.getBoundingClientRect().width / svg.viewBox.baseVal.width};
}"""


def _layout(page):
    page.wait_for_timeout(100)            # one ResizeObserver round
    return page.evaluate(LAYOUT)


@pytest.mark.parametrize("width", [800, 1000])
def test_a_narrow_page_puts_the_panel_under_a_readable_picture(browser, tmp_path, width):
    """At 800–1000 px the MLP's picture (show_saved=True) would shrink beside the panel:
    the panel goes under it, and the picture is fitted to the full width (issue 15 item 12:
    whole, or fitted to the width; the zoom buttons for more)."""
    from viz.export import save_html
    path = save_html(_mlp_loss(), tmp_path / "mlp.html", show_saved=True)
    page = browser.new_page(viewport={"width": width, "height": 900})
    page.goto(path.as_uri())
    page.wait_for_selector("body[data-frame]", state="attached")
    for _ in range(4):
        page.click(".mgs-next")
    layout = _layout(page)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"stepper-narrow-{width}.png"), full_page=True)
    page.close()
    stage, panel = layout["stage"], layout["panel"]
    assert layout["stacked"]
    assert panel["top"] >= stage["bottom"] - 1                       # under the picture
    assert stage["width"] >= width - 80                               # the picture: full width
    assert layout["svg"]["width"] <= stage["width"] + 1, layout      # fitted: no sideways scroll


def test_a_wide_page_keeps_the_panel_beside_and_stacks_when_narrowed(browser, tmp_path):
    from viz.export import save_html
    # (1800 px: the notes of the arithmetic overlay keep clear of every arrow, which makes
    # this picture about 1,550 px wide)
    path = save_html(_xwx_loss(), tmp_path / "xwx.html", show_saved=True)
    page = browser.new_page(viewport={"width": 1800, "height": 900})
    page.goto(path.as_uri())
    page.wait_for_selector("body[data-frame]", state="attached")
    wide = _layout(page)
    page.set_viewport_size({"width": 800, "height": 900})    # a narrower JupyterLab panel
    page.wait_for_selector(".mgs-root.mgs-stacked", state="attached", timeout=5_000)
    narrow = _layout(page)
    page.set_viewport_size({"width": 1800, "height": 900})
    page.wait_for_selector(".mgs-root:not(.mgs-stacked)", state="attached", timeout=5_000)
    again = _layout(page)
    page.close()
    assert not wide["stacked"] and wide["panel"]["left"] >= wide["stage"]["right"] - 1
    assert wide["svg"]["width"] <= wide["stage"]["width"] + 1      # fitted: no sideways scroll
    assert narrow["stacked"] and narrow["panel"]["top"] >= narrow["stage"]["bottom"] - 1
    assert narrow["svg"]["width"] <= narrow["stage"]["width"] + 1
    assert again["scale"] == pytest.approx(wide["scale"], rel=0.02)


def test_corner_notes_have_the_same_leaders_as_saved_frames(browser, tmp_path):
    """A "waits for 1 grad" note at a node's corner is tied to the node by a leader line,
    drawn where Python's saved frames (viz/still.py) draw it; restyling a frame adds no
    other element to the picture than notes."""
    from minigrad.autograd.graph import record
    from viz.export import write_html
    from viz.playback import Playback
    from viz.still import leader, note_size, value_at
    loss = _mlp_loss()
    with record() as rec:
        loss.backward()
    playback = Playback(rec, show_saved=True)
    data, expected = playback.data, {}
    for event in range(playback.count):
        lines = set()
        for key, timeline in data["notes"].items():
            note = value_at(timeline, event)
            if note and len(data["places"].get(key, ())) == 5:
                lines.add(tuple(round(v, 1) for v in leader(data["places"][key],
                                                             *note_size(note))))
        if lines:
            expected[event] = lines
    assert expected, "no note of this graph is at a corner"
    path = write_html(playback, tmp_path / "mlp.html")
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    page.goto(path.as_uri())
    page.wait_for_selector("body[data-frame]", state="attached")
    count = """() => document.querySelectorAll('.mgs-stage svg *').length -
                     document.querySelectorAll('.mgs-notes *').length"""
    picture = page.evaluate(count)
    seen = {}
    for event in list(expected)[:6]:
        page.evaluate("(f) => window.mgsStepper.go(f)", event)
        seen[event] = {tuple(round(float(v), 1) for v in line) for line in page.evaluate(
            """() => [...document.querySelectorAll('.mgs-notes line.mgs-leader')].map(
                 (l) => ['x1', 'y1', 'x2', 'y2'].map((a) => l.getAttribute(a)))""")}
    after = page.evaluate(count)
    page.close()
    assert seen == {event: expected[event] for event in seen}
    assert after == picture             # no re-layout: only the notes layer changed


# ----------------------------------------------------------------- (a) JupyterLab
NOTEBOOK_CODE = """\
import minigrad as torch
from viz.stepper import Stepper
x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, 4.0], requires_grad=True)
loss = ((x * w) * x).sum()
stepper = Stepper(loss, granularity="node", show_saved=True)
stepper.frame = 1
stepper
"""


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _notebook(path):
    cell = {"cell_type": "code", "execution_count": None, "id": "stepper", "metadata": {},
            "outputs": [], "source": NOTEBOOK_CODE}
    path.write_text(json.dumps({
        "cells": [cell], "nbformat": 4, "nbformat_minor": 5,
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                    "language": "python"}}}))


@pytest.fixture
def lab(tmp_path):
    reason = _missing("jupyterlab", "anywidget", "ipywidgets")
    if reason:
        pytest.skip(reason)
    port, token = _free_port(), secrets.token_hex(16)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT),
                                                        os.environ.get("PYTHONPATH", "")]),
               JUPYTER_CONFIG_DIR=str(tmp_path / "config"),
               JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"), IPYTHONDIR=str(tmp_path / "ipy"))
    _notebook(tmp_path / "stepper.ipynb")
    # No "get notified about Jupyter news?" toast over the screenshot.
    (tmp_path / "config" / "labconfig").mkdir(parents=True)
    (tmp_path / "config" / "labconfig" / "page_config.json").write_text(
        '{"disabledExtensions": {"@jupyterlab/apputils-extension:announcements": true}}')
    server = subprocess.Popen(
        [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--allow-root",
         "--ip=127.0.0.1", f"--port={port}", f"--IdentityProvider.token={token}",
         f"--ServerApp.root_dir={tmp_path}", "--LabApp.extension_manager=readonly",
         "--LabApp.expose_app_in_browser=True"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2)
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    pytest.fail("JupyterLab did not start")
                time.sleep(0.3)
        yield f"{base}/lab/tree/stepper.ipynb?reset&token={token}"
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()


RUN_ALL = """async () => {
  const app = window.jupyterapp;
  await app.started;
  await app.restored;
  for (let i = 0; i < 200 && !(app.shell.currentWidget && app.shell.currentWidget.sessionContext);
       i++) await new Promise((r) => setTimeout(r, 100));
  const panel = app.shell.currentWidget;
  await panel.context.ready;
  await panel.sessionContext.ready;
  await app.commands.execute("notebook:run-all-cells");
}"""


def test_jupyterlab_next_moves_the_highlight(browser, lab):
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(lab)
    page.wait_for_function("() => window.jupyterapp !== undefined", timeout=60_000)
    page.evaluate(RUN_ALL)
    running = page.locator(".jp-Notebook .mgs-root .node.mgs-running")
    running.first.wait_for(state="attached", timeout=60_000)
    before = running.first.get_attribute("id")
    page.locator(".jp-Notebook button.mgs-next").first.click()
    page.wait_for_function(
        """(before) => {
             const el = document.querySelector('.jp-Notebook .mgs-root .node.mgs-running');
             return el && el.id !== before;
           }""", arg=before, timeout=30_000)
    after = running.first.get_attribute("id")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "stepper-jupyterlab.png"))
    page.close()
    assert before and after and before != after
    assert not [e for e in errors if "mgs" in e or "stepper" in e]


def test_the_key_has_a_distinct_swatch_for_every_state_it_lists(browser, tmp_path):
    # Issue 15 item 15: fan-in, .grad written, retained and released are in the key, each
    # with a swatch that differs from the others by more than its colour.
    import minigrad as torch
    from viz.export import save_html

    def program():
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        h = x * x
        h.retain_grad()
        y = h * x
        y.register_hook(lambda g: g)
        y.sum().backward()
        return locals()   # named, and alive when the recording ends: drawn
    path = save_html(program, tmp_path / "key.html", show_saved=True)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(path.as_uri())
    page.wait_for_selector("body[data-frame='0']", state="attached")
    swatches = page.evaluate("""() => [...document.querySelectorAll('.mgs-key span')].map(s => {
        const b = getComputedStyle(s, '::before');
        return [s.className, s.textContent, b.borderTopWidth + ' ' + b.borderTopStyle + ' ' +
                b.borderLeftStyle + ' ' + b.borderRadius + ' ' + b.opacity + ' ' + b.height];
    })""")
    page.close()
    shown = {cls.removeprefix("mgs-key-"): look for cls, _, look in swatches}
    for cls in ("summing", "gradnew", "retained", "released", "hook", "running", "flow"):
        assert cls in shown, (cls, swatches)
    looks = list(shown.values())
    assert len(set(looks)) == len(looks), swatches   # no two alike without their colours
