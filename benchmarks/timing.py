"""Timing helpers: medians over repeats, and peak memory with tracemalloc."""

import gc
import statistics
import time
import tracemalloc

__all__ = ["median_time", "peak_memory"]


def median_time(fn, repeats=7, warmup=1, min_time=0.0):
    """Median wall time of ``fn()`` in seconds (each repeat may loop until ``min_time``)."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeats):
        gc.collect()
        n, start = 0, time.perf_counter()
        while True:
            fn()
            n += 1
            elapsed = time.perf_counter() - start
            if elapsed >= min_time:
                break
        times.append(elapsed / n)
    return statistics.median(times)


def peak_memory(fn):
    """Peak bytes allocated (Python and NumPy, which reports to tracemalloc) while ``fn()`` runs."""
    gc.collect()
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
