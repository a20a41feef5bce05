"""Take the README's screenshots of the stepper (docs/img/): the offline page and JupyterLab 4,
default and classroom themes, at 1280×800, in Debian's Chromium.

    python docs/screenshots.py          # from the repository root
"""

import json
import os
import pathlib
import secrets
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
from test_stepper_browser import ARGS, CHROMIUM, RUN_ALL, _free_port  # noqa: E402

IMG = ROOT / "docs" / "img"
SIZE = {"width": 1280, "height": 800}

NOTEBOOK = """import minigrad as torch, viz
torch.manual_seed(0)
net = torch.nn.Sequential(torch.nn.Linear(2, 16), torch.nn.Tanh(), torch.nn.Linear(16, 16),
                          torch.nn.Tanh(), torch.nn.Linear(16, 1))
x, y = torch.randn(8, 2), torch.randn(8, 1)
a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(3.0, requires_grad=True)
c = a * b
loss = (c + 1) ** 2
viz.Stepper(loss, granularity="node", theme={theme!r})"""


def programs():
    import minigrad as torch
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(2, 16), torch.nn.Tanh(), torch.nn.Linear(16, 16),
                              torch.nn.Tanh(), torch.nn.Linear(16, 1))
    x, y = torch.randn(8, 2), torch.randn(8, 1)
    mlp = torch.nn.functional.mse_loss(net(x), y)
    cell = torch.nn.Linear(4, 3)
    h = torch.zeros(1, 3)
    for _ in range(6):
        h = cell(torch.cat([h, torch.ones(1, 1)], dim=1)).tanh()
    a = torch.tensor(2.0, requires_grad=True)
    b = torch.tensor(3.0, requires_grad=True)
    scalar = (a * b + 1) ** 2
    return {"mlp": mlp, "rnn": h.sum(), "scalar": scalar}


def page_shots(browser):
    from viz.export import save_html
    for theme in ("default", "classroom"):
        for name, loss in programs().items():   # a fresh graph: each page runs backward once
            path = save_html(loss, pathlib.Path(tempfile.mkdtemp()) / f"{name}.html",
                             theme=theme, granularity="node")
            page = browser.new_page(viewport=SIZE)
            page.goto(path.as_uri())
            page.wait_for_selector("body[data-frame]", state="attached")
            page.evaluate("window.mgsStepper.go(3)")
            page.wait_for_timeout(400)
            page.screenshot(path=str(IMG / f"stepper-page-{name}-{theme}.png"))
            page.close()


def lab_shots(browser):
    for theme in ("default", "classroom"):
        tmp = pathlib.Path(tempfile.mkdtemp())
        cell = {"cell_type": "code", "execution_count": None, "id": "s", "metadata": {},
                "outputs": [], "source": NOTEBOOK.format(theme=theme)}
        (tmp / "stepper.ipynb").write_text(json.dumps({
            "cells": [cell], "nbformat": 4, "nbformat_minor": 5, "metadata": {"kernelspec": {
                "name": "python3", "display_name": "Python 3", "language": "python"}}}))
        (tmp / "config" / "labconfig").mkdir(parents=True)
        (tmp / "config" / "labconfig" / "page_config.json").write_text(
            '{"disabledExtensions": {"@jupyterlab/apputils-extension:announcements": true}}')
        port, token = _free_port(), secrets.token_hex(16)
        env = dict(os.environ, PYTHONPATH=str(ROOT), JUPYTER_CONFIG_DIR=str(tmp / "config"),
                   JUPYTER_RUNTIME_DIR=str(tmp / "runtime"), IPYTHONDIR=str(tmp / "ipy"))
        server = subprocess.Popen(
            [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--allow-root",
             "--ip=127.0.0.1", f"--port={port}", f"--IdentityProvider.token={token}",
             f"--ServerApp.root_dir={tmp}", "--LabApp.extension_manager=readonly",
             "--LabApp.expose_app_in_browser=True"],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            base = f"http://127.0.0.1:{port}"
            for _ in range(300):
                try:
                    urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2)
                    break
                except OSError:
                    time.sleep(0.3)
            page = browser.new_page(viewport=SIZE)
            page.goto(f"{base}/lab/tree/stepper.ipynb?reset&token={token}")
            page.wait_for_function("() => window.jupyterapp !== undefined", timeout=60_000)
            page.evaluate(RUN_ALL)
            page.locator(".jp-Notebook .mgs-root .node").first.wait_for(state="attached",
                                                                          timeout=60_000)
            for _ in range(3):
                page.locator(".jp-Notebook button.mgs-next").first.click()
                page.wait_for_timeout(300)
            page.locator(".jp-Notebook .mgs-root").first.scroll_into_view_if_needed()
            page.wait_for_timeout(500)
            page.screenshot(path=str(IMG / f"stepper-jupyterlab-{theme}.png"))
            page.close()
        finally:
            server.terminate()
            server.wait(timeout=15)


def main():
    from playwright.sync_api import sync_playwright
    IMG.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=ARGS)
        page_shots(browser)
        if "--page-only" not in sys.argv:
            lab_shots(browser)
        browser.close()


if __name__ == "__main__":
    main()
