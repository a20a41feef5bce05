"""One workload against PyTorch in several fresh processes: how far a ratio moves from one
process to the next.

``python -m benchmarks.bench_processes [--workload chain mlp deep] [--processes 6]``

On some virtual machines a whole process runs at one of two speeds (seen on an AMD EPYC:
``np.multiply`` of two 100×16 float32 arrays took 0.83 µs in some processes and 1.6 µs in
others), and a ratio taken within one run of ``python -m benchmarks`` may then be an outlier.
Here each process times minigrad and torch in turns (rounds of the fastest of ``--inner``
calls each) and prints the median and range of its per-round ratios; the summary is the
median over processes. Each process pins BLAS to one thread, as ``python -m benchmarks`` does.
"""

import argparse
import os
import statistics
import subprocess
import sys

__all__ = ["main"]

WORKLOADS = {  # name: (the call that makes a run, rounds, calls per round)
    "chain": ("scalar_chain(lib, 2000)", 9, 3),
    "mlp": ("micrograd_mlp_steps(lib, 20)", 9, 3),
    "deep": ("scalar_chain(lib, 100_000)", 3, 1),
}

_CHILD = r"""
import statistics, sys, time
sys.path.insert(0, {root!r})
import minigrad, torch
torch.set_num_threads(1)
from benchmarks.workloads import micrograd_mlp_steps, scalar_chain
runs = {{lib.__name__: {make} for lib in (minigrad, torch)}}
for run in runs.values():
    run()
ratios = []
for _ in range({rounds}):
    best = {{}}
    for name, run in runs.items():
        times = []
        for _ in range({inner}):
            start = time.perf_counter()
            run()
            times.append(time.perf_counter() - start)
        best[name] = min(times)
    ratios.append(best["minigrad"] / best["torch"])
print(statistics.median(ratios), min(ratios), max(ratios))
"""


def one_process(workload):
    """``(median, lowest, highest)`` per-round ratio minigrad ÷ torch in a new process."""
    make, rounds, inner = WORKLOADS[workload]
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    code = _CHILD.format(root=root, make=make, rounds=rounds, inner=inner)
    env = {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1",
           "MKL_NUM_THREADS": "1"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, check=True)
    return tuple(float(v) for v in out.stdout.split())


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workload", nargs="+", choices=sorted(WORKLOADS),
                        default=["chain", "mlp"])
    parser.add_argument("--processes", type=int, default=6)
    args = parser.parse_args(argv)
    for workload in args.workload:
        medians = []
        for k in range(args.processes):
            median, low, high = one_process(workload)
            medians.append(median)
            print(f"{workload:<6} process {k + 1}: minigrad ÷ torch {median:.2f} "
                  f"(rounds {low:.2f} to {high:.2f})", flush=True)
        print(f"{workload:<6} median over {args.processes} processes: "
              f"{statistics.median(medians):.2f} ({min(medians):.2f} to {max(medians):.2f})")


if __name__ == "__main__":
    main()
