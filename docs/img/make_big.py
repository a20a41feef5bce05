"""Pictures of a big network: ``python docs/img/make_big.py`` (``PYTHONPATH=.`` from the repo
root; needs Graphviz, Playwright and Debian's ``/usr/bin/chromium``).

The network is benchmarks/bench_layout.py's: an 8-layer MLP applied to 80 inputs (about 2,000
backward nodes). Writes

* ``big_mlp_stepper.png``: a screenshot of its stepper page half-way through backward, as it
  opens by default (one box per call of the model, the note saying so);
* ``big_mlp_expanded.png``: ``viz.draw`` with the last call expanded in place (a screenshot
  of the part around it: the whole picture is too big for a PNG one can look at);
* ``big_mlp_stepper_opened.png``: the same stepper page with the running call box opened by a
  click (its ops in place, taking their states from the frames).
"""

import pathlib
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import viz  # noqa: E402
from benchmarks.bench_layout import mlp_loss  # noqa: E402

OUT = pathlib.Path(__file__).resolve().parent
FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def stepper_screenshot(loss, model, path, opened=None):
    from playwright.sync_api import sync_playwright
    stepper = viz.Stepper(loss, names={"model": model}, granularity="node")
    stepper.frame = stepper.frame_count // 2
    with tempfile.TemporaryDirectory() as tmp:
        page_path = pathlib.Path(tmp) / "big.html"
        stepper.save_html(page_path)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium",
                                                 headless=True, args=FLAGS)
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(page_path.as_uri())
            page.wait_for_selector("body[data-frame]", state="attached", timeout=120_000)
            page.wait_for_timeout(500)
            page.screenshot(path=str(path))
            if opened:
                box = page.locator(".mgs-stage g.node.mgs-running[id*='-m-']").first
                box.dispatch_event("click")
                page.wait_for_selector(".mgs-inside", state="attached")
                page.evaluate("document.querySelector('.mgs-inside')"
                              ".scrollIntoView({block: 'start', inline: 'center'})")
                page.wait_for_timeout(300)
                page.screenshot(path=str(opened))
            browser.close()


def expanded_screenshot(loss, model, path):
    from playwright.sync_api import sync_playwright
    drawing = viz.draw(loss, names={"model": model}, collapse="modules", collapse_depth=1,
                       expand=["model#80"], id_prefix="big")
    with tempfile.TemporaryDirectory() as tmp:
        page_path = pathlib.Path(tmp) / "big.html"
        page_path.write_text("<!DOCTYPE html><html><body style='margin:0'>"
                             + drawing.svg()[drawing.svg().index("<svg"):] + "</body></html>")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium",
                                                 headless=True, args=FLAGS)
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(page_path.as_uri())
            page.evaluate("document.querySelector('g.cluster').scrollIntoView("
                          "{block: 'start', inline: 'center'})")
            page.screenshot(path=str(path))
            browser.close()


def main():
    loss, model = mlp_loss()
    stepper_screenshot(loss, model, OUT / "big_mlp_stepper.png",
                       opened=OUT / "big_mlp_stepper_opened.png")
    expanded_screenshot(loss, model, OUT / "big_mlp_expanded.png")


if __name__ == "__main__":
    main()
