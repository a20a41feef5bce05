"""What PyTorch's random numbers cost in NumPy: 1,000,000 draws of each sampler.

minigrad reproduces PyTorch's CPU streams bit for bit (docs/random.md); this measures how long
that takes next to PyTorch itself (when installed). Medians of CPU time (``process_time``),
the libraries taking turns.

Run: ``python benchmarks/bench_random.py`` (plain script, not a test; about a minute).
"""

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import minigrad  # noqa: E402

N = 10**6
DRAWS = {
    "rand float32": lambda lib: lib.rand(N),
    "rand float64": lambda lib: lib.rand(N, dtype=lib.float64),
    "uniform_(-1, 1) float32": lambda lib: lib.empty(N).uniform_(-1, 1),
    "randn float32": lambda lib: lib.randn(N),
    "randn float64": lambda lib: lib.randn(N, dtype=lib.float64),
    "normal_(0, 0.02) float32": lambda lib: lib.empty(N).normal_(0, 0.02),
    "randint(0, 10)": lambda lib: lib.randint(0, 10, (N,)),
    "randperm": lambda lib: lib.randperm(N),
    "dropout(p=0.5)": lambda lib: lib.nn.functional.dropout(lib.ones(N)),
}


def _cpu_seconds(fn):
    start = time.process_time()
    fn()
    return time.process_time() - start


def main(repeats=5):
    libs = [minigrad]
    try:
        import torch
        torch.set_num_threads(1)
        libs.append(torch)
    except ImportError:
        pass
    print(f"{'1,000,000 values':26s}" + "".join(f"{lib.__name__:>12s}" for lib in libs))
    for name, draw in DRAWS.items():
        times = {lib.__name__: [] for lib in libs}
        for _ in range(repeats):
            for lib in libs:
                lib.manual_seed(0)
                times[lib.__name__].append(_cpu_seconds(lambda lib=lib, draw=draw: draw(lib)))
        print(f"{name:26s}" + "".join(f"{statistics.median(times[lib.__name__]) * 1e3:10.1f}ms"
                                      for lib in libs))


if __name__ == "__main__":
    main()
