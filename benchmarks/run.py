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
from benchmarks.timing import interleaved_times, median_time, paired_ratio, peak_memory

RESULTS = pathlib.Path(__file__).parent / "results"


def _optional(name):
    try:
        module = importlib.import_module(name)
    except ImportError:
        return None
    if name == "torch":
        module.set_num_threads(1)
    return module


def _row(name, times, target, baseline, goal, rounds=None):
    """A table row: each library's median and minigrad's ratio to ``baseline`` (the median of
    the ratios within each round when the libraries were timed in turns)."""
    mine, ref = times.get("minigrad"), times.get(baseline)
    if rounds is not None and ref is not None:
        ratio = paired_ratio(rounds, "minigrad", baseline)
    else:
        ratio = mine / ref if mine and ref else None
    met = None if ratio is None or goal is None else goal(ratio)
    return {"workload": name, "times": times, "baseline": baseline, "ratio": ratio,
            "target": target, "met": met}


def run_all(quick=False, only=None):
    import minigrad
    torch = _optional("torch")
    micrograd = _optional("micrograd")
    repeats = 3 if quick else 7
    libs = [lib for lib in (minigrad, torch, micrograd) if lib is not None]
    rows = []

    def want(name):
        return only is None or any(o in name for o in only)

    name = "(1) scalar chain, 2,000 ops on 0-d tensors"
    if want(name):
        times, rounds = interleaved_times(
            {lib.__name__: workloads.scalar_chain(lib, 2000) for lib in libs}, repeats)
        rows.append(_row(name, times, "≤ 1.0× torch", "torch", lambda r: r <= 1.0, rounds))

    name = "(2) micrograd demo: 2-16-16-1 MLP, batch 100, one SGD step"
    if want(name):
        times, rounds = interleaved_times(
            {lib.__name__: workloads.micrograd_mlp(lib) for lib in libs if lib is not micrograd},
            repeats, min_time=0.05)
        if micrograd:  # 0.6-0.8 s per step: a few repeats on its own
            times["micrograd"] = median_time(workloads.micrograd_mlp(micrograd), 3 if quick
                                             else 5)
        rows.append(_row(name, times, "≤ 1.5× torch", "torch", lambda r: r <= 1.5, rounds))
        if micrograd:
            speedup = times["micrograd"] / times["minigrad"]
            rows.append({"workload": "(2b) same, micrograd / minigrad", "times": {},
                         "baseline": "micrograd", "ratio": speedup, "target": "≥ 1,000×",
                         "met": speedup >= 1000})

    name = "(3) 256×1024 two-layer MLP, float32, forward + backward"
    if want(name):
        fns = {lib.__name__: workloads.wide_mlp(lib) for lib in libs if lib is not micrograd}
        fns["numpy floor"] = workloads.numpy_wide_mlp()
        times, rounds = interleaved_times(fns, repeats)
        rows.append(_row(name, times, "≤ 1.15× NumPy floor", "numpy floor",
                         lambda r: r <= 1.15, rounds))

    name = "(4) deep chain, 100,000 ops"
    if want(name):
        n = 20_000 if quick else 100_000
        times, rounds = interleaved_times(
            {lib.__name__: workloads.scalar_chain(lib, n) for lib in libs if lib is not micrograd},
            3)
        rows.append(_row(name, times, "≤ 0.5× torch", "torch", lambda r: r <= 0.5, rounds))

    name = "(7) peak memory of (3), bytes"
    if want(name):
        mem = {"minigrad": peak_memory(workloads.wide_mlp(minigrad)),
               "numpy floor": peak_memory(workloads.numpy_wide_mlp())}
        rows.append(_row(name, mem, "≤ 1.3× NumPy floor", "numpy floor", lambda r: r <= 1.3))

    for extra in ("benchmarks.bench_observe", "benchmarks.bench_render",
                  "benchmarks.bench_stepper", "benchmarks.bench_conv"):
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
    head = ["workload", *libs, "ratio", "target", "met"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        cells = [row["workload"], *(_fmt(row["times"].get(k), row["workload"]) for k in libs),
                 "—" if row["ratio"] is None else f"{row['ratio']:.2f}×", row["target"],
                 {True: "yes", False: "**no**", None: "—"}[row["met"]]]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def environment():
    import minigrad
    torch = _optional("torch")
    return (f"Python {platform.python_version()}, NumPy {np.__version__}, minigrad "
            f"{minigrad.__version__}, torch {torch.__version__ if torch else 'absent'} "
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
