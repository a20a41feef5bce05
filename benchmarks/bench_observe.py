"""What observation costs: backward of a 10,000-node graph, four ways.

1. ``stripped``  — the engine with every observer site removed (its source, minus the
   ``if notify ...:`` statements, compiled at start-up): the cost of backward alone.
2. ``idle``      — the real engine, no observer attached: what every user pays for the
   observer machinery being there (goal: at most 1.03 × stripped).
3. ``no-op``     — an observer that ignores events: the cost of building the events.
4. ``recording`` — inside ``record()`` (goal: at most 2 × idle); also with the final
   snapshot that ``record()`` takes when its block ends.

Then the stepper's side: ``Recording.state_at`` at random frames of a 1,000-node graph.

Times are CPU seconds of this process (``time.process_time``), so that other work on the
machine disturbs them less. The modes take turns in rounds; each round keeps the fastest of
``INNER`` runs per mode and gives its ratios, and the medians of the per-round ratios are
reported (on a shared machine the speed drifts within minutes: a ratio taken within one round
is far steadier than a ratio of two medians).

Run: ``python benchmarks/bench_observe.py`` (plain script, not a test; takes a minute or two).
"""

import ast
import gc
import inspect
import statistics
import sys
import time
import types
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

import minigrad  # noqa: E402
from minigrad.autograd import engine, observe  # noqa: E402
from minigrad.autograd.graph import record  # noqa: E402
from minigrad.grad_mode import state  # noqa: E402

clock = time.process_time
NODES = 10_000
REPEATS = 7   # rounds
INNER = 3     # runs per mode in a round (the fastest counts)


def build(n_nodes=NODES):
    """A chain ``y = y * w + x`` (two nodes per step) whose leaves have a large fan-in."""
    x = minigrad.tensor([0.5, -1.0, 2.0, 0.25], requires_grad=True)
    w = minigrad.tensor([0.999, 1.001, 0.998, 1.0], requires_grad=True)
    y = x
    for _ in range(n_nodes // 2 - 1):
        y = y * w + x
    return y.sum(), (x, w)


class _StripObservers(ast.NodeTransformer):
    """Remove ``if notify...:`` statements (those without ``else``) from the engine."""

    def visit_If(self, node):
        self.generic_visit(node)
        mentions = any(isinstance(n, ast.Name) and n.id == "notify" for n in ast.walk(node.test))
        return None if mentions and not node.orelse else node

    def generic_visit(self, node):
        super().generic_visit(node)
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if isinstance(block, list) and field == "body" and not block:
                block.append(ast.Pass())
        return node


def stripped_execute():
    tree = _StripObservers().visit(ast.parse(inspect.getsource(engine)))
    ast.fix_missing_locations(tree)
    module = types.ModuleType("minigrad.autograd._engine_without_observers")
    exec(compile(tree, "<engine without observers>", "exec"), module.__dict__)
    return module.execute


MODES = ("stripped", "idle", "no-op", "recording", "recording+snapshot")


def time_backward(mode, stripped):
    """Seconds for one backward of a fresh graph in ``mode``."""
    loss, leaves = build()
    original = engine.execute
    noop = lambda kind, **fields: None  # noqa: E731
    if mode == "stripped":
        engine.execute = stripped
    elif mode == "no-op":
        observe.add_observer(noop)
    gc.collect()
    try:
        if mode.startswith("recording"):
            with record(names={}) as rec:
                start = clock()
                loss.backward()
                middle = clock()
            end = clock()
            assert rec.state_at(-1)["finished"]
            return (middle if mode == "recording" else end) - start
        start = clock()
        loss.backward()
        return clock() - start
    finally:
        engine.execute = original
        if noop in state.observers:
            observe.remove_observer(noop)


def time_modes(stripped):
    """``(median seconds per mode, median per-round ratio to stripped per mode)``; the modes
    take turns in each round, so that drift hits them all alike."""
    times = {mode: [] for mode in MODES}
    ratios = {mode: [] for mode in MODES}
    for _ in range(REPEATS):
        best = {mode: min(time_backward(mode, stripped) for _ in range(INNER)) for mode in MODES}
        for mode in MODES:
            times[mode].append(best[mode])
            ratios[mode].append(best[mode] / best["stripped"])
    return ({mode: statistics.median(t) for mode, t in times.items()},
            {mode: statistics.median(r) for mode, r in ratios.items()})


def time_frames(n_nodes=1_000, samples=200):
    loss, leaves = build(n_nodes)
    with record(names={}) as rec:
        loss.backward()
    start = clock()
    rec.state_at(0)  # builds the checkpoints
    first = clock() - start
    rng = np.random.default_rng(0)
    times = []
    for i in rng.integers(0, len(rec), samples):
        start = clock()
        rec.state_at(int(i))
        times.append(clock() - start)
    start = clock()
    for i in range(len(rec)):
        rec.state_at(i)
    sequential = (clock() - start) / len(rec)
    return len(rec), first, statistics.median(times), max(times), sequential


def fan_in(n):
    """A loss whose first node makes ``n`` nodes ready at once (a ready queue of ``n``)."""
    x = minigrad.tensor([0.5, -1.0], requires_grad=True)
    return minigrad.stack([x * (1.0 + i / n) for i in range(n)]).sum(), n


def recorded_seconds_per_node(n, repeats):
    """Median seconds per node of a backward inside ``record()`` over ``fan_in(n)``."""
    times = []
    for _ in range(repeats):
        loss, nodes = fan_in(n)
        gc.collect()
        with record(names={}):
            start = clock()
            loss.backward()
            times.append((clock() - start) / nodes)
    return statistics.median(times)


def mlp_recorded_vs_plain(repeats):
    """``(plain, recorded, ratio)``: seconds of one step of the small MLP, unrecorded and
    inside ``record()`` (the block's end, which builds the snapshot, not counted), and the
    median of the per-round ratios; in each round the fastest of ``INNER`` runs counts."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from benchmarks.workloads import micrograd_mlp
    step = micrograd_mlp(minigrad)
    step()

    def plain_step():
        start = clock()
        step()
        return clock() - start

    def recorded_step():
        with record(names={}):
            start = clock()
            step()
            return clock() - start
    plain, recorded, ratios = [], [], []
    for _ in range(repeats):
        gc.collect()
        plain.append(min(plain_step() for _ in range(INNER)))
        gc.collect()
        recorded.append(min(recorded_step() for _ in range(INNER)))
        ratios.append(recorded[-1] / plain[-1])
    return statistics.median(plain), statistics.median(recorded), statistics.median(ratios)


def rows(quick=False):
    """Rows for ``python -m benchmarks`` (see ``benchmarks/run.py``)."""
    global REPEATS
    REPEATS = 3 if quick else REPEATS
    results, ratios = time_modes(stripped_execute())
    base, idle = results["stripped"], results["idle"]

    def row(name, mine, ref, ref_name, target, limit, ratio=None):
        ratio = mine / ref if ratio is None else ratio
        return {"workload": name, "times": {"minigrad": mine, ref_name: ref},
                "baseline": ref_name, "ratio": ratio, "target": target, "met": ratio <= limit}
    plain, recorded, mlp_ratio = mlp_recorded_vs_plain(5 if quick else 15)
    small, large = (recorded_seconds_per_node(n, REPEATS) for n in (500, 8_000))
    return [
        row(f"(5) backward, {NODES:,} nodes, observers idle", idle, base,
            "engine without observers", "≤ 1.02×", 1.02, ratios["idle"]),
        row(f"(5) backward, {NODES:,} nodes, record()", results["recording"], idle,
            "observers idle", "≤ 2× idle", 2.0, ratios["recording"] / ratios["idle"]),
        row("(5) small MLP step, record()", recorded, plain, "unrecorded", "≤ 2× unrecorded",
            2.0, mlp_ratio),
        row("(5) record(), backward over 8,000 fan-in nodes, per node", large, small,
            "500 nodes, per node", "≤ 1.5× per node", 1.5),
    ]


def main():
    stripped = stripped_execute()
    print(f"backward of a {NODES:,}-node graph, {REPEATS} rounds of {INNER} runs per mode")
    results, ratios = time_modes(stripped)
    idle = ratios["idle"]
    for mode, seconds in results.items():
        print(f"  {mode:<20} {seconds * 1000:8.1f} ms   {ratios[mode]:6.3f} x stripped   "
              f"{ratios[mode] / idle:5.2f} x idle  (medians of per-round ratios)")
    print(f"goals: idle <= 1.02 x stripped: {idle:.3f}; "
          f"recording <= 2 x idle: {ratios['recording'] / idle:.2f} "
          f"(with the final snapshot {ratios['recording+snapshot'] / idle:.2f})")
    plain, recorded, ratio = mlp_recorded_vs_plain(15)
    print(f"small MLP step: {plain * 1000:.2f} ms, inside record() {recorded * 1000:.2f} ms: "
          f"{ratio:.2f} x (goal <= 2)")
    small, large = (recorded_seconds_per_node(n, REPEATS) for n in (500, 8_000))
    print(f"record(), backward over fan-in nodes: {small * 1e6:.0f} us per node at 500, "
          f"{large * 1e6:.0f} us at 8,000: {large / small:.2f} x (goal <= 1.5)")
    events, first, median, worst, sequential = time_frames()
    print(f"state_at on a 1,000-node graph ({events:,} events): first call {first * 1000:.0f} ms "
          f"(checkpoints), random frame median {median * 1000:.2f} ms, worst "
          f"{worst * 1000:.2f} ms, sequential {sequential * 1000:.3f} ms per frame")


if __name__ == "__main__":
    main()
