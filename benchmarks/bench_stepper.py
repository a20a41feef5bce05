"""How fast the stepper changes frames: ``python -m benchmarks.bench_stepper``.

Two latencies per graph size (300 and 1,000 autograd nodes, a deep MLP's backward pass):

* **kernel side** — ``stepper.frame = k`` in Python (what the first/prev/next/last buttons run):
  the three linked traits set and their messages serialised; and a frame move arriving from the
  browser (``canvas.set_state``) followed by reading ``stepper.state``. Goal: at most 30 ms.
* **in the browser** — the stepper's ``render()`` in Debian's Chromium (the exported page, the
  same code as the widget), stepping frame after frame: the restyling alone, and with the
  browser's style and layout pass forced after each step. Goal: at most 5 ms.

Also reported: the one-off cost of building the stepper (record, frames, layout). ``rows()``
feeds ``python -m benchmarks``; the browser rows are left out where Chromium is missing.
"""

import argparse
import json
import os
import pathlib
import random
import shutil
import statistics
import tempfile
import time

import minigrad as torch
from minigrad.autograd.graph import record

__all__ = ["deep_mlp", "kernel_latency", "browser_latency", "rows", "main"]

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
KERNEL_GOAL, BROWSER_GOAL = 0.030, 0.005


def deep_mlp(nodes):
    """The recorded backward pass of ``h = tanh(h @ W_i + b_i)``, about ``nodes`` nodes."""
    torch.manual_seed(0)
    h = torch.randn(2, 4)
    for _ in range(max(1, nodes // 5)):     # Mm, Add, Tanh and two AccumulateGrad per layer
        w = torch.randn(4, 4, requires_grad=True)
        b = torch.randn(4, requires_grad=True)
        h = torch.tanh(h @ w + b)
    loss = h.sum()
    with record() as rec:
        loss.backward()
    return rec


def _median_ms(samples):
    return statistics.median(samples)


def build(nodes):
    """(stepper, seconds to build it) for a graph of about ``nodes`` nodes."""
    from viz.stepper import Stepper
    rec = deep_mlp(nodes)
    start = time.perf_counter()
    stepper = Stepper(rec)
    return stepper, time.perf_counter() - start


class _Wire:
    """Counts the bytes of every message, serialised as a kernel would before sending it."""

    def __init__(self):
        self.sent = 0

    def send(self, data=None, metadata=None, buffers=None):
        self.sent += len(json.dumps(data, separators=(",", ":")))


def kernel_latency(stepper, moves=200):
    """Median seconds of (a) ``stepper.frame = k`` and (b) a browser move + ``.state``.

    The widgets' comms are replaced by one that serialises each message to JSON, as a kernel
    does before sending it, so the figures include the messages' cost but not the network.
    """
    wire = _Wire()
    for widget in (stepper, stepper.play, stepper.slider, stepper.canvas):
        widget.comm.send = wire.send
    rng = random.Random(0)
    count = stepper.frame_count
    frames = [rng.randrange(count) for _ in range(moves)]
    python_moves, browser_moves = [], []
    for k in frames:
        start = time.perf_counter()
        stepper.frame = k
        python_moves.append(time.perf_counter() - start)
    for k in frames:
        start = time.perf_counter()
        stepper.canvas.set_state({"frame": (k + 1) % count})
        stepper.state  # noqa: B018 - what a Python observer of the frame would read
        browser_moves.append(time.perf_counter() - start)
    return _median_ms(python_moves), _median_ms(browser_moves)


STEP_SCRIPT = """(steps) => {
  const model = window.mgsStepper.model, count = window.mgsStepper.count();
  const stage = document.querySelector('.mgs-stage');
  const run = (force) => {
    const times = [];
    for (let k = 0; k < steps; k++) {
      const frame = (model.get('frame') + 1) % count;
      const t0 = performance.now();
      model.set('frame', frame);
      if (force) stage.getBoundingClientRect() && document.body.offsetHeight;
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    return times[times.length >> 1];
  };
  run(false);
  return [run(false), run(true)];
}"""


def browser_latency(stepper, steps=300):
    """Median milliseconds per step in Chromium: (restyle only, restyle + style/layout)."""
    from playwright.sync_api import sync_playwright
    with tempfile.TemporaryDirectory() as tmp:
        path = pathlib.Path(tmp) / "stepper.html"
        stepper.save_html(path)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, headless=True,
                args=["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"])
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.goto(path.as_uri())
            page.wait_for_selector("body[data-frame]", state="attached", timeout=120_000)
            restyle, layout = page.evaluate(STEP_SCRIPT, steps)
            browser.close()
    return restyle / 1000, layout / 1000


def _browser_available():
    if not os.path.exists(CHROMIUM):
        return False
    try:
        import playwright  # noqa: F401
    except ImportError:
        return False
    return True


def _row(name, seconds, target, goal):
    met = None if goal is None or seconds is None else seconds <= goal
    return {"workload": name, "times": {"minigrad": seconds}, "baseline": None, "ratio": None,
            "target": target, "met": met}


def rows(quick=False, sizes=(300, 1000)):
    """Benchmark rows for ``python -m benchmarks`` (see ``benchmarks/run.py``)."""
    result = []
    browser = _browser_available()
    for nodes in sizes:
        stepper, built = build(nodes)
        python_move, browser_move = kernel_latency(stepper, 50 if quick else 200)
        label = f"{nodes:,} nodes, {stepper.playback.count:,} events"
        result.append(_row(f"(S1) stepper: build (record → frames → layout), {label}", built,
                           "one-off", None))
        result.append(_row(f"(S2) stepper frame change, kernel side (stepper.frame = k), {label}",
                           python_move, "≤ 30 ms", KERNEL_GOAL))
        result.append(_row(f"(S3) stepper frame change from the browser + .state, kernel side, "
                           f"{label}", browser_move, "≤ 30 ms", KERNEL_GOAL))
        if browser:
            restyle, layout = browser_latency(stepper, 100 if quick else 300)
            result.append(_row(f"(S4) stepper step in Chromium, restyle, {label}", restyle,
                               "≤ 5 ms", BROWSER_GOAL))
            result.append(_row(f"(S5) stepper step in Chromium, restyle + layout, {label}",
                               layout, "≤ 5 ms", BROWSER_GOAL))
    return result


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_stepper",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--sizes", nargs="*", type=int, default=[300, 1000])
    args = parser.parse_args(argv)
    for row in rows(args.quick, tuple(args.sizes)):
        seconds = row["times"]["minigrad"]
        shown = f"{seconds * 1e3:.3f} ms" if seconds < 1 else f"{seconds:.2f} s"
        met = {True: "yes", False: "NO", None: "-"}[row["met"]]
        print(f"{row['workload']}: {shown} (target {row['target']}, met: {met})")


if __name__ == "__main__":
    main()
