"""Machine instructions per op of the scalar chain, counted by Valgrind's callgrind.

``python -m benchmarks.bench_instructions [--libs minigrad torch] [--gc] [--layouts 5]``

Wall-clock ratios on a shared machine move by ±30 % with its load; an instruction count does
not move with the load, so it shows what one change to the per-op path is worth. Each library
runs the chain (``workloads.scalar_chain``, 2,000 ops) once to warm up and then 0 or 2 more
times under callgrind; the difference, divided by 4,000, is the count per op (interpreter
start-up and imports cancel out). The cyclic collector is off unless ``--gc``: its share
depends on how much else the process holds.

One process's count still depends on where its objects land in memory (dicts keyed by
objects probe differently): the same code measured from two directories, or after an unrelated
edit, differs by up to 4 %. So each count is taken in ``--layouts`` processes, each with its
own hash seed and a different amount of memory taken before the chain runs, and the median is
reported with the range. Needs ``valgrind`` (Debian: ``apt-get install valgrind``); about a
minute per library and layout, two at a time.
"""

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

__all__ = ["instructions_per_op", "counts_over_layouts"]

N_OPS = 2000
_CHILD = """
import gc, sys
_taken = [[0] * ({layout} % 7) for _ in range({layout} * 53)], "x" * ({layout} * 4099)
sys.path.insert(0, {root!r})
import importlib
from benchmarks import workloads
lib = importlib.import_module({lib!r})
if {lib!r} == "torch":
    lib.set_num_threads(1)
run = workloads.scalar_chain(lib, {n_ops})
if not {gc}:
    gc.disable()
run()
for _ in range({reps}):
    run()
"""


def _collected(lib, reps, keep_gc, layout=0):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    code = _CHILD.format(root=root, lib=lib, n_ops=N_OPS, gc=keep_gc, reps=reps, layout=layout)
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.out",
             sys.executable, "-c", code],
            capture_output=True, text=True, check=True,
            env={**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1",
                 "PYTHONHASHSEED": str(layout)})
    match = re.search(r"Collected : (\d+)", out.stderr)
    if match is None:
        raise RuntimeError(f"callgrind printed no count:\n{out.stderr[-2000:]}")
    return int(match.group(1))


def instructions_per_op(lib, keep_gc=False, layout=0):
    """Instructions per op (forward + backward) of the scalar chain for library ``lib``, in
    one memory layout (``layout``: the hash seed, and how much memory is taken first)."""
    return (_collected(lib, 2, keep_gc, layout) - _collected(lib, 0, keep_gc, layout)) / (
        2 * N_OPS)


def counts_over_layouts(lib, keep_gc=False, layouts=5):
    """The counts per op of ``lib`` in ``layouts`` memory layouts, sorted."""
    with ThreadPoolExecutor(2) as pool:
        return sorted(pool.map(lambda k: instructions_per_op(lib, keep_gc, k), range(layouts)))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--libs", nargs="+", default=["minigrad", "torch"])
    parser.add_argument("--gc", action="store_true", help="keep the cyclic collector on")
    parser.add_argument("--layouts", type=int, default=5, help="memory layouts per library")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (apt-get install valgrind)")
    counts = {}
    for lib in args.libs:
        values = counts_over_layouts(lib, args.gc, args.layouts)
        counts[lib] = statistics.median(values)
        print(f"{lib:10s} {counts[lib]:10,.0f} instructions per op (median of {len(values)} "
              f"layouts, {values[0]:,.0f} to {values[-1]:,.0f})")
    if "minigrad" in counts and len(counts) > 1:
        for lib, count in counts.items():
            if lib != "minigrad":
                print(f"minigrad / {lib}: {counts['minigrad'] / count:.2f}")


if __name__ == "__main__":
    main()
