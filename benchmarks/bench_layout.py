"""Real networks in viz: ``python -m benchmarks.bench_layout`` (issue 16).

Workloads: an 8-layer MLP (``nn.Sequential`` of ``Linear``/``Tanh``) applied to 80 inputs, its
losses summed (about 2,000 backward nodes); a ``Linear`` cell reused over 12 steps; chains of
5,000 and 20,000 nodes (``tanh(h @ W + b)``).

Rows:

* (L1) ``viz.draw(loss).svg()`` with the defaults (auto-collapse) on the MLP, goal < 5 s;
  (L2) the same with ``collapse="modules"``;
* (L3) Graphviz settings on the *uncollapsed* MLP graph cut to ``--layout-nodes`` boxes
  (``max_nodes``): each setting's layout time (cut at ``--dot-timeout``), to pick the defaults;
* (L4) ``draw(...).svg()`` of the 5,000- and 20,000-node chains, goal < 10 s each;
* (L5) the MLP's Stepper: build (goal < 15 s), page size (goal < 3 MB), one step and a jump to
  the last frame in Chromium (goals < 16 ms and < 100 ms);
* (L6) the insides of the MLP's 80 call boxes (a click opens one in the stepper): laid out
  once per structure and shared, against one layout per call;
* (L7) ``draw(loss).svg()`` of the same graph again: the layout kept by structure
  (``viz.layouts``) against a fresh layout;
* (R1) ``record()`` of 10,000 ops (goal < 2 s) and its ``to_json`` (goal < 1 s);
* (R2) ``snapshot()`` of a 100,000-node chain (goal < 5 s) and its peak memory (< 500 MiB).

``rows()`` feeds ``python -m benchmarks``. Times are wall-clock medians on whatever the machine
is doing: on a shared 2-core machine they vary with its load.
"""

import argparse
import os
import pathlib
import subprocess
import tempfile
import time
import tracemalloc

import minigrad as torch
from minigrad import nn
from minigrad.autograd.graph import record, snapshot

__all__ = ["mlp_loss", "rnn_loss", "chain_loss", "rows", "main", "DOT_SETTINGS"]

DOT_SETTINGS = {
    "as written": "",
    "splines=line": "-Gsplines=line",
    "nslimit=2 mclimit=0.3": "-Gnslimit=2 -Gmclimit=0.3",
    "newrank": "-Gnewrank=true",
    "ordering off": "-Gordering=",
    "all of the above": "-Gsplines=line -Gnslimit=2 -Gmclimit=0.3 -Gnewrank=true",
}


def mlp_loss(calls=80, layers=8, width=4):
    """``(loss, model)``: an MLP of ``layers`` Linear layers applied to ``calls`` inputs."""
    torch.manual_seed(0)
    parts = []
    for _ in range(layers):
        parts += [nn.Linear(width, width), nn.Tanh()]
    model = nn.Sequential(*parts[:-1])
    loss = None
    for _ in range(calls):
        out = model(torch.randn(2, width)).sum()
        loss = out if loss is None else loss + out
    return loss, model


def rnn_loss(steps=12, width=3):
    """``(loss, cell)``: ``h = tanh(cell(h) + x_t)`` over ``steps`` steps."""
    torch.manual_seed(0)
    cell = nn.Linear(width, width)
    h = torch.zeros(1, width)
    for _ in range(steps):
        h = torch.tanh(cell(h) + torch.randn(1, width))
    return h.sum(), cell


def chain_loss(nodes):
    """A loss whose backward graph has about ``nodes`` nodes: ``tanh(h @ W + b)`` layers."""
    torch.manual_seed(0)
    h = torch.randn(2, 4)
    for _ in range(max(1, nodes // 5)):
        w = torch.randn(4, 4, requires_grad=True)
        b = torch.randn(4, requires_grad=True)
        h = torch.tanh(h @ w + b)
    return h.sum()


def _timed(fn):
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def _row(name, seconds, target, goal, unit="s"):
    met = None if goal is None or seconds is None else seconds <= goal
    key = "minigrad" if unit == "s" else "minigrad (bytes)"
    return {"workload": name, "times": {key: seconds}, "baseline": None, "ratio": None,
            "target": target, "met": met}


def draw_rows():
    import viz
    loss, model = mlp_loss()
    names = {"loss": loss, "model": model}
    result = []
    seconds, drawing = _timed(lambda: (d := viz.draw(loss, names=names), d.svg())[0])
    boxes = sum(1 for i in drawing.scene.items.values() if i.kind == "module")
    result.append(_row(f"(L1) draw(loss).svg(), 80-call 8-layer MLP, defaults ({boxes} call "
                       "boxes)", seconds, "< 5 s", 5.0))
    seconds, _ = _timed(lambda: viz.draw(loss, names=names, collapse="modules").svg())
    result.append(_row("(L2) the same, collapse=\"modules\"", seconds, "< 5 s", 5.0))
    for nodes in (5000, 20000):
        chain = chain_loss(nodes)
        seconds, _ = _timed(lambda: viz.draw(chain, names={}).svg())  # noqa: B023
        result.append(_row(f"(L4) draw().svg(), {nodes:,}-node chain (summary note)", seconds,
                           "< 10 s", 10.0))
    return result


def dot_rows(nodes=600, timeout=60):
    """Layout time of each Graphviz setting on the uncollapsed MLP cut to ``nodes`` boxes."""
    import viz
    loss, model = mlp_loss()
    source = viz.draw(loss, names={"model": model}, collapse=None, max_nodes=nodes).source
    result = []
    for label, flags in DOT_SETTINGS.items():
        start = time.perf_counter()
        try:
            subprocess.run(["dot", "-Tsvg", *flags.split()], input=source.encode(),
                           capture_output=True, timeout=timeout, check=True)
            seconds = time.perf_counter() - start
        except subprocess.TimeoutExpired:
            seconds = None
        result.append(_row(f"(L3) dot, {nodes} boxes of the uncollapsed MLP, {label}"
                           + ("" if seconds is not None else f" (over {timeout} s)"),
                           seconds, "pick the fastest", None))
    return result


STEP_SCRIPT = """async () => {
  const model = window.mgsStepper.model, count = window.mgsStepper.count();
  const stage = document.querySelector('.mgs-stage');
  const step = () => { const t0 = performance.now();
    model.set('frame', (model.get('frame') + 1) % count);
    stage.getBoundingClientRect(); document.body.offsetHeight;
    return performance.now() - t0; };
  const times = []; for (let k = 0; k < 200; k++) times.push(step());
  times.sort((a, b) => a - b);
  const jumps = [];
  for (let k = 0; k < 5; k++) {
    model.set('frame', 0); document.body.offsetHeight;
    const t0 = performance.now(); model.set('frame', count - 1); document.body.offsetHeight;
    jumps.push(performance.now() - t0);
  }
  jumps.sort((a, b) => a - b);
  return [times[times.length >> 1], jumps[2]];
}"""


def stepper_rows(browser=True):
    import viz
    loss, model = mlp_loss()
    cpu = time.process_time()
    seconds, stepper = _timed(lambda: viz.Stepper(loss, names={"model": model}))
    cpu = time.process_time() - cpu   # what the machine's load does not inflate as much
    result = [_row(f"(L5) Stepper(loss) build, 80-call MLP, {stepper.playback.count:,} events "
                   f"({cpu:.1f} s of CPU)", seconds, "< 15 s", 15.0)]
    with tempfile.TemporaryDirectory() as tmp:
        path = pathlib.Path(tmp) / "stepper.html"
        stepper.save_html(path)
        size = path.stat().st_size
        result.append(_row("(L5) its page, bytes", size, "< 3 MB", 3_000_000, unit="bytes"))
        if browser and os.path.exists("/usr/bin/chromium"):
            step, last = _browser(path)
            result.append(_row("(L5) one step in Chromium (restyle + layout)", step / 1000,
                               "< 16 ms", 0.016))
            result.append(_row("(L5) jump to the last frame in Chromium (median of 5)",
                               last / 1000,
                               "< 100 ms", 0.100))
    return result


def _browser(path):
    from playwright.sync_api import sync_playwright
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", headless=True,
            args=["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"])
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(path.as_uri())
        page.wait_for_selector("body[data-frame]", state="attached", timeout=120_000)
        step, last = page.evaluate(STEP_SCRIPT)
        browser.close()
    return step, last


def reuse_rows():
    """(L6) per-call layout reuse and (L7) the layout cache across re-draws."""
    import viz
    from viz import engines, layouts
    from viz.compose import build_scene
    from viz.dot import write_dot
    from viz.inside import _sub_scene, inside_pictures
    from viz.playback import Playback, _before_recording, record_target
    loss, model = mlp_loss()
    names = {"model": model}
    rec = record_target(loss, names=names)
    play = Playback(rec, names=names, expandable=False)   # the stepper's own boxes
    scene = play.drawing.scene
    boxes = {b: ids for b, ids in scene.members.items() if scene.items[b].kind == "module"}
    full = build_scene(_before_recording(rec), grads=False, collapse=None, max_nodes=None,
                       names=names)
    layouts.clear()
    seconds, inside = _timed(lambda: inside_pictures(full, boxes, {}, "bench"))
    result = [_row(f"(L6) stepper: insides of {len(inside['calls'])} call boxes, laid out once "
                   f"per structure ({len(inside['pictures'])} layouts)", seconds, "-", None)]
    engine = engines.get_engine()
    links = {}
    for link in full.links:
        links.setdefault(link.source, []).append(link)

    def every_call():
        for k, ids in enumerate(boxes.values()):
            sub = _sub_scene(full, [i for i in ids if i in full.items], links)
            engine.render(write_dot(sub, prefix=f"b{k}"), "svg")
    seconds, _ = _timed(every_call)
    result.append(_row(f"(L6) the same, one layout per call ({len(boxes)} layouts)", seconds,
                       "-", None))
    layouts.clear()
    again = [_timed(lambda: viz.draw(loss, names=names, collapse=None, max_nodes=600).svg())[0]
             for _ in range(2)]
    result.append(_row("(L7) draw(loss, collapse=None, max_nodes=600).svg(), first time",
                       again[0], "-", None))
    result.append(_row("(L7) the same graph drawn again (layout kept by structure)", again[1],
                       "-", None))
    return result


def record_rows():
    x = torch.tensor(0.5, requires_grad=True)

    def run():
        with record(names={}) as rec:
            y = x
            for _ in range(5000):
                y = y * 0.999 + 0.001
            y.backward()
        return rec
    cpu = time.process_time()
    seconds, rec = _timed(run)
    cpu = time.process_time() - cpu
    result = [_row(f"(R1) record() of 10,000 ops ({len(rec):,} events)", seconds,
                   "< 2 s", 2.0),
              _row("(R1) the same, CPU time of this process", cpu, "< 2 s", 2.0)]
    cpu = time.process_time()
    seconds, _ = _timed(rec.to_json)
    cpu = time.process_time() - cpu
    result.append(_row("(R1) its to_json()", seconds, "< 1 s", 1.0))
    result.append(_row("(R1) its to_json(), CPU time", cpu, "< 1 s", 1.0))
    loss = chain_loss(100_000)
    cpu = time.process_time()
    seconds, _ = _timed(lambda: snapshot(loss))  # timed without tracemalloc: it slows 10×
    cpu = time.process_time() - cpu
    result.append(_row("(R2) snapshot() of a 100,000-node graph, CPU time", cpu, "< 5 s", 5.0))
    tracemalloc.start()
    snapshot(loss)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    result.append(_row("(R2) snapshot() of a 100,000-node graph", seconds, "< 5 s", 5.0))
    result.append(_row("(R2) its peak memory (tracemalloc), bytes", peak, "< 500 MiB",
                       500 * 2**20, unit="bytes"))
    return result


def rows(quick=False):
    """Benchmark rows for ``python -m benchmarks`` (see ``benchmarks/run.py``)."""
    result = draw_rows() + reuse_rows() + record_rows() + stepper_rows()
    if not quick:
        result += dot_rows()
    return result


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_layout",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*",
                        default=["draw", "reuse", "record", "stepper", "dot"],
                        help="which groups: draw reuse record stepper dot")
    parser.add_argument("--layout-nodes", type=int, default=600)
    parser.add_argument("--dot-timeout", type=float, default=60)
    args = parser.parse_args(argv)
    groups = {"draw": draw_rows, "reuse": reuse_rows, "record": record_rows,
              "stepper": stepper_rows,
              "dot": lambda: dot_rows(args.layout_nodes, args.dot_timeout)}
    for name in args.only:
        for row in groups[name]():
            value = next(iter(row["times"].values()))
            if value is None:
                shown = "—"
            elif "bytes" in next(iter(row["times"])):
                shown = f"{value / 2**20:.2f} MiB"
            else:
                shown = f"{value * 1e3:.1f} ms" if value < 1 else f"{value:.2f} s"
            met = {True: "yes", False: "NO", None: "-"}[row["met"]]
            print(f"{row['workload']}: {shown} (target {row['target']}, met: {met})",
                  flush=True)


if __name__ == "__main__":
    main()
