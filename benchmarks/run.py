"""The benchmark runner: every workload side by side in one process, medians and ratios.

Results go to stdout and to ``benchmarks/results/latest.md`` (plus ``latest.json``).
"""

import argparse
import importlib
import json
import pathlib
import platform

import numpy as np

from benchmarks import workloads
from benchmarks.timing import interleaved_times, paired_ratio, peak_memory

RESULTS = pathlib.Path(__file__).parent / "results"


def _optional(name):
    try:
        module = importlib.import_module(name)
    except ImportError:
        return None
    if name == "torch":
        module.set_num_threads(1)
    return module


def _row(name, times, target, goals, rounds=None):
    """A table row: each library's median, minigrad's ratio to each other system (the median of
    the ratios within each round when the systems were timed in turns), and whether every goal
    ``{system: highest ratio}`` is met."""
    ratios = {}
    for other in times:
        if other != "minigrad" and times.get("minigrad") and times.get(other):
            ratios[other] = (paired_ratio(rounds, "minigrad", other) if rounds is not None
                             else times["minigrad"] / times[other])
    met = None
    if goals and all(g in ratios for g in goals):
        met = all(ratios[g] <= limit for g, limit in goals.items())
    return {"workload": name, "times": times, "ratios": ratios, "target": target, "met": met}


def run_all(quick=False, only=None):
    import minigrad
    torch = _optional("torch")
    micrograd = _optional("micrograd")
    hips = _optional("autograd")
    mygrad = _optional("mygrad")
    repeats = 3 if quick else 7
    libs = [lib for lib in (minigrad, torch, micrograd, hips, mygrad) if lib is not None]
    tensor_libs = [lib for lib in libs if lib is not micrograd]
    rows = []

    def want(name):
        return only is None or any(o in name for o in only)

    name = "(1) scalar chain, 2,000 ops on a 0-d float32, fwd + bwd"
    if want(name):
        times, rounds = interleaved_times(
            {lib.__name__: workloads.scalar_chain(lib, 2000) for lib in libs}, repeats)
        rows.append(_row(name, times, "≤ 0.8× torch, < 1× autograd, mygrad; ≤ 2× micrograd",
                         {"torch": 0.8, "autograd": 1.0, "mygrad": 1.0, "micrograd": 2.0},
                         rounds))

    name = "(2) 2-16-16-1 MLP, batch 100, 20 SGD steps"
    if want(name):
        times, rounds = interleaved_times(
            {lib.__name__: workloads.micrograd_mlp_steps(lib) for lib in tensor_libs}, repeats)
        rows.append(_row(name, times, "≤ 1.0× torch, < 1× autograd, mygrad",
                         {"torch": 1.0, "autograd": 1.0, "mygrad": 1.0}, rounds))

    name = "(3) 256×1024 two-layer MLP, float32, fwd + bwd"
    if want(name):
        fns = {lib.__name__: workloads.wide_mlp(lib) for lib in tensor_libs}
        fns["numpy floor"] = workloads.numpy_wide_mlp()
        times, rounds = interleaved_times(fns, repeats)
        rows.append(_row(name, times, "≤ 1.10× NumPy floor, < 1× mygrad",
                         {"numpy floor": 1.10, "mygrad": 1.0}, rounds))

    name = "(4) deep chain, 100,000 ops, fwd + bwd"
    if want(name):
        n = 20_000 if quick else 100_000
        times, rounds = interleaved_times(
            {lib.__name__: workloads.scalar_chain(lib, n) for lib in tensor_libs}, 3)
        rows.append(_row(name, times, "≤ 0.6× torch, < 1× autograd, mygrad",
                         {"torch": 0.6, "autograd": 1.0, "mygrad": 1.0}, rounds))

    name = "(7) peak memory of (3), bytes"
    if want(name):
        mem = {"minigrad": peak_memory(workloads.wide_mlp(minigrad)),
               "numpy floor": peak_memory(workloads.numpy_wide_mlp())}
        rows.append(_row(name, mem, "≤ 1.3× NumPy floor", {"numpy floor": 1.3}))

    for extra in ("benchmarks.bench_observe", "benchmarks.bench_render",
                  "benchmarks.bench_stepper", "benchmarks.bench_conv",
                  "benchmarks.bench_layout"):
        module = _optional(extra)
        if module is not None and hasattr(module, "rows") and want(extra):
            rows.extend(module.rows(quick=quick))
    return rows


def _fmt(value, workload):
    if value is None:
        return "—"
    if "memory" in workload:
        return f"{value / 2**20:.1f} MiB"
    return f"{value * 1e3:.3f} ms" if value < 1 else f"{value:.2f} s"


def to_markdown(rows):
    libs = []
    for row in rows:
        libs += [k for k in row["times"] if k not in libs]
    head = ["workload", *libs, "minigrad ÷ each", "target", "met"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        ratios = row.get("ratios")
        if ratios is None:  # rows of bench_observe/render/stepper: one ratio to their baseline
            ratios = {} if row.get("ratio") is None else {row["baseline"]: row["ratio"]}
        cells = [row["workload"], *(_fmt(row["times"].get(k), row["workload"]) for k in libs),
                 ", ".join(f"{k} {r:.2f}×" for k, r in ratios.items()) or "—", row["target"],
                 {True: "yes", False: "**no**", None: "—"}[row["met"]]]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _version(name):
    from importlib import metadata
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "absent"


def environment():
    import minigrad
    torch = _optional("torch")
    versions = ", ".join(f"{name} {_version(name)}" for name in ("autograd", "mygrad"))
    return (f"Python {platform.python_version()}, NumPy {np.__version__}, minigrad "
            f"{minigrad.__version__}, torch {torch.__version__ if torch else 'absent'}, "
            f"{versions} "
            f"(1 thread), {platform.machine()}; medians of repeated runs, the libraries timed in "
            "turns; a ratio is the median of the ratios within each round")


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer repeats, shorter chains")
    parser.add_argument("--only", nargs="*", help="run workloads whose name contains these")
    args = parser.parse_args(argv)
    rows = run_all(quick=args.quick, only=args.only)
    table = to_markdown(rows)
    text = f"{environment()}\n\n{table}\n"
    print(text)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "latest.md").write_text(text)
    (RESULTS / "latest.json").write_text(json.dumps(rows, indent=1, default=str))
