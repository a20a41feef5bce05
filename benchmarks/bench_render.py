"""How long a big graph takes from snapshot to SVG: ``python -m benchmarks.bench_render``.

Builds a real minigrad graph of about 1,000 drawn elements (Function nodes, AccumulateGrad
nodes, tensors), then times each stage with every available engine (median of ``--repeats``):
``snapshot()``, building the scene and the DOT text, and the Graphviz layout to SVG.
The goal (issue 5): at most 2 s in total with the system ``dot``.
"""

import argparse
import os
import resource
import statistics
import time

import minigrad as torch
import viz
from minigrad.autograd.graph import snapshot
from viz.compose import build_scene
from viz.dot import write_dot
from viz.engines import available_engines, get_engine

__all__ = ["big_graph", "measure", "rows", "main"]


def big_graph(layers=140, width=4):
    """A deep MLP: ``h = tanh(h @ W_i + b_i)`` for ``layers`` layers, then ``loss = h.sum()``.

    Each layer adds MmBackward0, AddBackward0 and TanhBackward0, two AccumulateGrad nodes and
    two parameters: about ``7 * layers`` drawn elements (1,000 for 140 layers).
    """
    torch.manual_seed(0)
    names = {}
    h = torch.randn(2, width)
    names["x"] = h
    for i in range(layers):
        w = torch.randn(width, width, requires_grad=True)
        b = torch.randn(width, requires_grad=True)
        names[f"layer{i}.weight"], names[f"layer{i}.bias"] = w, b
        h = torch.tanh(h @ w + b)
    loss = h.sum()
    names["loss"] = loss
    return loss, names


def shared_weights_graph(steps=30, width=4):
    """An unrolled recurrence that reuses ``width`` weights: long edges back to few leaves."""
    torch.manual_seed(0)
    ws = [torch.randn(8, requires_grad=True) for _ in range(width)]
    names = {f"w{i}": w for i, w in enumerate(ws)}
    h = torch.randn(8)
    for i in range(steps):
        h = torch.tanh(h * ws[i % width])
    loss = h.sum()
    names["loss"] = loss
    return loss, names


def _median(fn, repeats):
    times, result = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def _cpu_of_children(fn, repeats):
    """Median CPU seconds (user + system) that subprocesses started by ``fn`` used."""
    times = []
    for _ in range(repeats):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        fn()
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        times.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(times)


def measure(layers=140, repeats=3, shared=False):
    """``{engine: {stage: seconds}}`` plus the element count, for one big graph."""
    loss, names = shared_weights_graph(layers) if shared else big_graph(layers)
    t_snap, snap = _median(lambda: snapshot(loss, names=names).to_dict(), repeats)
    t_scene, scene = _median(lambda: build_scene(snap), repeats)
    t_dot, source = _median(lambda: write_dot(scene, "bench"), repeats)
    results = {"elements": len(scene.items), "arrows": len(scene.links), "engines": {}}
    for name in available_engines():
        engine = get_engine(name)
        text = source if engine.html_labels else write_dot(scene, "bench", html=False)
        engine.render(text)  # warm-up (wasi compiles its module once per process)
        t_layout, _ = _median(lambda e=engine, s=text: e.render(s), repeats)
        cpu = _cpu_of_children(lambda e=engine, s=text: e.render(s), repeats) \
            if name != "wasi" else None
        results["engines"][name] = {"snapshot": t_snap, "scene": t_scene, "dot": t_dot,
                                    "layout": t_layout, "layout_cpu": cpu,
                                    "total": t_snap + t_scene + t_dot + t_layout}
    return results


def rows(quick=False, sizes=((100, 14), (1000, 140))):
    """Rows for ``python -m benchmarks`` (workload 6): snapshot to SVG, per Graphviz engine.

    ``sizes`` holds ``(label, layers)``: about ``7 * layers`` drawn elements.
    """
    result = []
    for label, layers in sizes:
        measured = measure(layers, 1 if quick else 3)
        for name, stages in measured["engines"].items():
            total = stages["total"]
            goal = label >= 1000  # the goal is for 1,000 nodes
            result.append({
                "workload": f"(6) snapshot + render to SVG, {measured['elements']:,} drawn "
                            f"elements, {name}",
                "times": {"minigrad": total}, "baseline": None, "ratio": None,
                "target": "≤ 2 s" if goal else "—", "met": total <= 2.0 if goal else None})
    return result


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", type=int, default=140)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--shared", action="store_true",
                        help="an unrolled recurrence with shared weights instead of an MLP")
    args = parser.parse_args(argv)
    results = measure(args.layers, args.repeats, args.shared)
    print(f"graph: {results['elements']} drawn elements, {results['arrows']} arrows "
          f"(viz {viz.__name__}, minigrad {torch.__version__})")
    print(f"{'engine':<15}{'snapshot':>10}{'scene':>10}{'dot':>10}{'layout':>10}{'total':>10}"
          f"{'layout CPU':>12}")
    for name, row in results["engines"].items():
        cells = "".join(f"{row[k] * 1000:>8.0f}ms" for k in
                        ("snapshot", "scene", "dot", "layout", "total"))
        cpu = f"{row['layout_cpu'] * 1000:>10.0f}ms" if row["layout_cpu"] is not None else ""
        print(f"{name:<15}{cells}{cpu}")
    print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    return results


if __name__ == "__main__":
    main()
