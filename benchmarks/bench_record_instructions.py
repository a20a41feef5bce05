"""Machine instructions that ``record()`` costs, counted by Valgrind's callgrind.

``python -m benchmarks.bench_record_instructions [--only chain mlp] [--jobs 1]``

Wall-clock ratios on a shared machine move with its load; an instruction count does not. Each
count is the difference of two processes that differ only in the work measured, so that
interpreter start-up and imports cancel out:

* ``chain``: ``record()`` of a 2,000-op chain ``y = y * 0.999 + 0.001`` with its backward
  (the workload of ``bench_layout --only record``, 10,000 ops there), and the same followed by
  its ``to_json()``: the first call in a process (one run against none) and a later call (three
  runs against one, halved);
* ``mlp``: one SGD step of the small MLP (``workloads.micrograd_mlp``) unrecorded, inside
  ``record()`` without the block's end (what ``bench_observe`` times), and the whole block with
  its final snapshot: per step (five runs against one, divided by four), and the ratios.

Needs ``valgrind`` (Debian: ``apt-get install valgrind``); a few minutes. The cyclic collector
stays on, as a user has it; ``PYTHONHASHSEED=0`` and one BLAS thread keep the counts steady
(a count still moves by a percent or two with where objects land in memory).
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

__all__ = ["collected", "measure", "main"]

_CHILD = r"""
import sys
sys.path.insert(0, {root!r})
import minigrad
from minigrad.autograd.graph import record
from benchmarks.workloads import micrograd_mlp
work = {work!r}
if work == "chain":
    x = minigrad.tensor(0.5, requires_grad=True)

    def run():
        with record(names={{}}) as rec:
            y = x
            for _ in range(1000):
                y = y * 0.999 + 0.001
            y.backward()
        if {to_json}:
            rec.to_json()
else:
    step = micrograd_mlp(minigrad)
    step()
    if work == "mlp_plain":
        run = step
    elif work == "mlp_recorded":
        def run():
            rec = record(names={{}})
            rec.__enter__()
            step()
            rec._collector.detach()
    else:
        def run():
            with record(names={{}}):
                step()
for _ in range({runs}):
    run()
"""


def collected(work, runs, to_json=False):
    """Instructions of one process that imports minigrad, sets ``work`` up and runs it ``runs``
    times."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    code = _CHILD.format(root=root, work=work, runs=runs, to_json=to_json)
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.out",
             sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp,
            env={**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1",
                 "PYTHONHASHSEED": "0"})
    match = re.search(r"Collected : (\d+)", out.stderr)
    if match is None:
        raise RuntimeError(f"callgrind printed no count:\n{out.stderr[-2000:]}")
    return int(match.group(1))


def measure(groups=("chain", "mlp"), jobs=1):
    """``{row name: instructions}`` for the groups asked (see the module docstring)."""
    runs = []
    if "chain" in groups:
        runs += [("chain", n, j) for n in (0, 1, 3) for j in (False, True)]
    if "mlp" in groups:
        runs += [(work, n, False) for work in ("mlp_plain", "mlp_recorded", "mlp_block")
                 for n in (1, 5)]
    with ThreadPoolExecutor(jobs) as pool:
        count = dict(zip(runs, pool.map(lambda r: collected(*r), runs)))
    rows = {}
    if "chain" in groups:
        for j, name in ((False, "record()"), (True, "record() + to_json()")):
            rows[f"chain of 2,000 ops, {name}, first call"] = \
                count[("chain", 1, j)] - count[("chain", 0, j)]
            rows[f"chain of 2,000 ops, {name}, later call"] = \
                (count[("chain", 3, j)] - count[("chain", 1, j)]) / 2
    if "mlp" in groups:
        for work, name in (("mlp_plain", "unrecorded"), ("mlp_recorded", "inside record()"),
                           ("mlp_block", "whole record() block")):
            rows[f"small MLP step, {name}"] = (count[(work, 5, False)] -
                                               count[(work, 1, False)]) / 4
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", default=["chain", "mlp"], choices=["chain", "mlp"])
    parser.add_argument("--jobs", type=int, default=1, help="callgrind processes at a time")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (apt-get install valgrind)")
    rows = measure(args.only, args.jobs)
    for name, value in rows.items():
        print(f"{name:52s} {value:14,.0f}")
    plain = rows.get("small MLP step, unrecorded")
    if plain:
        print(f"small MLP step inside record() / unrecorded: "
              f"{rows['small MLP step, inside record()'] / plain:.2f}; whole block: "
              f"{rows['small MLP step, whole record() block'] / plain:.2f}")


if __name__ == "__main__":
    main()
