"""Two tutorials in JupyterLab, in Debian's Chromium driven by Playwright: do they teach?

For each of two notebooks the test starts JupyterLab on 127.0.0.1 (on a copy of tutorials/, so
nothing is written into the repository), runs every cell, checks that no cell failed and that
the stepper drew its graph, steps the stepper forward, answers an exercise the right way, and
saves screenshots to test-artifacts/ (the top of the page, the stepper, the check cell). Look at
them: that is the point of this test.

Skipped, with the reason, where Chromium, Playwright or JupyterLab is missing.
"""

import importlib.util
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
TUTORIALS = ROOT / "tutorials"
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]

# notebook -> (exercise to answer in the browser, its right answer)
CASES = {
    "02_grad_fn_and_nodes": ("2b", "mul_node(sum_node(torch.tensor(1.0)))[0]"),
    "05_hooks": ("5b", "11"),
}


def _missing():
    if not os.path.exists(CHROMIUM):
        return "Debian's chromium is not installed (apt install chromium)"
    for module in ("playwright", "jupyterlab", "ipywidgets", "anywidget"):
        if importlib.util.find_spec(module) is None:
            return f"the Python package {module} is not installed (pip install {module})"
    return None


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """JupyterLab on loopback, serving a copy of tutorials/; yields (base url, token)."""
    reason = _missing()
    if reason:
        pytest.skip(reason)
    home = tmp_path_factory.mktemp("lab")
    root = home / "tutorials"
    shutil.copytree(TUTORIALS, root, ignore=shutil.ignore_patterns("__pycache__", "text"))
    config = home / "config"
    (config / "labconfig").mkdir(parents=True)
    (config / "labconfig" / "page_config.json").write_text(
        '{"disabledExtensions": {"@jupyterlab/apputils-extension:announcements": true}}')
    port, token = _free_port(), secrets.token_hex(16)
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(config),
               JUPYTER_RUNTIME_DIR=str(home / "runtime"), IPYTHONDIR=str(home / "ipython"),
               PYTHONPATH=os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH"))
                                          if p))
    server = subprocess.Popen(
        [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--allow-root",
         "--ip=127.0.0.1", f"--port={port}", f"--IdentityProvider.token={token}",
         f"--ServerApp.root_dir={root}", "--LabApp.extension_manager=readonly",
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
        yield base, token
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
  for (let i = 0; i < 300 && !(app.shell.currentWidget && app.shell.currentWidget.sessionContext);
       i++) await new Promise((r) => setTimeout(r, 100));
  const panel = app.shell.currentWidget;
  await panel.context.ready;
  await panel.sessionContext.ready;
  await app.commands.execute("notebook:run-all-cells");
}"""

# The outputs of every cell, as nbformat JSON, once no cell is queued or running.
OUTPUTS = """async () => {
  const panel = window.jupyterapp.shell.currentWidget;
  const cells = panel.content.widgets;
  for (let i = 0; i < 600; i++) {
    const busy = cells.some((c) => c.model.type === "code" &&
        (c.model.executionCount === null || c.node.classList.contains("jp-mod-pending") ||
         c.promptNode.textContent.includes("*")));
    if (!busy && panel.sessionContext.session.kernel.status === "idle") break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return cells.map((c) => c.model.type === "code" ? c.model.outputs.toJSON() : []);
}"""

TO_TOP = """() => {
  const notebook = window.jupyterapp.shell.currentWidget.content;
  notebook.activeCellIndex = 0;
  notebook.scrollToItem(0, "start");
}"""

ANSWER = """async ([key, answer]) => {
  const app = window.jupyterapp;
  const panel = app.shell.currentWidget;
  const cells = panel.content.widgets;
  const tagged = (tag) => cells.findIndex((c) => (c.model.getMetadata("tags") || []).includes(tag));
  const at = tagged("exercise-" + key), check = tagged("check-" + key);
  const cell = cells[at].model.sharedModel;
  cell.setSource(cell.getSource().replace("...", answer));
  for (const index of [at, check]) {
    panel.content.activeCellIndex = index;
    await app.commands.execute("notebook:run-cell");
  }
  return check;
}"""


def _open(browser, lab, stem):
    base, token = lab
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{base}/lab/tree/{stem}.ipynb?reset&token={token}")
    page.wait_for_function("() => window.jupyterapp !== undefined", timeout=60_000)
    page.evaluate(RUN_ALL)
    return page, errors


@pytest.mark.parametrize("stem", sorted(CASES))
def test_tutorial_runs_and_teaches_in_jupyterlab(browser, lab, stem):
    ARTIFACTS.mkdir(exist_ok=True)
    page, errors = _open(browser, lab, stem)
    outputs = page.evaluate(OUTPUTS)
    failed = [o for cell in outputs for o in cell if o.get("output_type") == "error"]
    assert failed == [], failed[0].get("evalue") if failed else ""
    page.evaluate(TO_TOP)
    page.wait_for_timeout(500)
    page.screenshot(path=str(ARTIFACTS / f"tutorial-{stem}-top.png"))

    stepper = page.locator(".jp-Notebook .mgs-root").first
    stepper.wait_for(state="visible", timeout=60_000)
    stepper.scroll_into_view_if_needed()
    assert page.locator(".jp-Notebook .mgs-root svg").count() >= 1
    caption = page.locator(".jp-Notebook .mgs-caption").first
    before = caption.inner_text()
    next_button = page.locator(".jp-Notebook button.mgs-next").first
    for _ in range(9):
        next_button.click()
    page.wait_for_function("(before) => document.querySelector('.jp-Notebook .mgs-caption')"
                           ".innerText !== before", arg=before, timeout=10_000)
    stepper.locator("xpath=ancestor::div[contains(@class,'jp-Cell')][1]").screenshot(
        path=str(ARTIFACTS / f"tutorial-{stem}-stepper.png"))

    key, answer = CASES[stem]
    check_at = page.evaluate(ANSWER, [key, answer])
    check_cell = page.locator(".jp-Notebook .jp-Cell").nth(check_at)
    check_cell.scroll_into_view_if_needed()
    check_cell.locator(".jp-OutputArea-output").first.wait_for(timeout=30_000)
    page.wait_for_function(
        "(i) => document.querySelectorAll('.jp-Notebook .jp-Cell')[i].innerText"
        ".includes('✓ Exercise')",
        arg=check_at, timeout=30_000)
    cells = page.locator(".jp-Notebook .jp-Cell")
    first, last = cells.nth(check_at - 1).bounding_box(), cells.nth(check_at).bounding_box()
    page.screenshot(path=str(ARTIFACTS / f"tutorial-{stem}-exercise.png"), clip={
        "x": first["x"], "y": first["y"], "width": max(first["width"], last["width"]),
        "height": last["y"] + last["height"] - first["y"]})
    page.close()
    assert errors == []
