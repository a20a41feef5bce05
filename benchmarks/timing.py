"""Timing helpers: medians over repeats, and peak memory with tracemalloc."""

import gc
import statistics
import time
import tracemalloc

__all__ = ["median_time", "interleaved_times", "paired_ratio", "peak_memory"]


def _one_repeat(fn, min_time):
    """Seconds per call of ``fn()``, calling it until ``min_time`` has passed (at least once)."""
    gc.collect()
    n, start = 0, time.perf_counter()
    while True:
        fn()
        n += 1
        elapsed = time.perf_counter() - start
        if elapsed >= min_time:
            return elapsed / n


def median_time(fn, repeats=7, warmup=1, min_time=0.0):
    """Median wall time of ``fn()`` in seconds (each repeat may loop until ``min_time``)."""
    for _ in range(warmup):
        fn()
    return statistics.median(_one_repeat(fn, min_time) for _ in range(repeats))


def interleaved_times(fns, repeats=7, warmup=1, min_time=0.0):
    """Time several callables in turns (one repeat of each per round), so that the machine's
    drift during the run hits them all alike.

    Returns ``(medians, rounds)``: the median seconds per name, and each round's times, from
    which a ratio can be taken round by round (``paired_ratio``).
    """
    for fn in fns.values():
        for _ in range(warmup):
            fn()
    rounds = [{name: _one_repeat(fn, min_time) for name, fn in fns.items()}
              for _ in range(repeats)]
    medians = {name: statistics.median(r[name] for r in rounds) for name in fns}
    return medians, rounds


def paired_ratio(rounds, mine, reference):
    """The median over rounds of ``mine / reference`` measured in the same round."""
    return statistics.median(r[mine] / r[reference] for r in rounds)


def peak_memory(fn):
    """Peak bytes allocated (Python and NumPy, which reports to tracemalloc) while ``fn()`` runs."""
    gc.collect()
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
