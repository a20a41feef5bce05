"""The engine's execution order, recorded with a Node pre-hook on every node, against torch.

PyTorch runs the ready node created most recently first and an AccumulateGrad as soon as it is
ready. When several AccumulateGrads are ready at once PyTorch's order depends on its heap, so
those runs are compared as sets; minigrad's own rule (ties in the order they became ready, i.e.
in the order of the edges that made them ready) is tested on its own.
"""

import random
import sys
import time
import warnings

import numpy as np
import pytest
from oracle import assert_matches, plain

import minigrad


def graph_nodes(roots):
    """Every node reachable from the roots' grad_fns (each once)."""
    seen, stack = [], [r.grad_fn for r in roots]
    while stack:
        node = stack.pop()
        if node is None or any(node is s for s in seen):
            continue
        seen.append(node)
        stack.extend(child for child, _ in node.next_functions)
    return seen


def run_order(lib, build, multi_root=False):
    """Build a graph, put a pre-hook on every node, run backward; return the labels in order.

    ``build(lib)`` returns ``(leaves, roots)``; leaves is a dict name -> tensor. A node is
    labelled by its class name and the position at which it was created (so two MulBackward0
    can be told apart); an AccumulateGrad by the leaf it writes.
    """
    leaves, roots = build(lib)
    names = {id(t): name for name, t in leaves.items()}
    nodes = graph_nodes(roots)
    by_creation = sorted((n for n in nodes if type(n).__name__ != "AccumulateGrad"),
                         key=lambda n: n._sequence_nr())
    log = []
    for node in nodes:
        kind = type(node).__name__
        if kind == "AccumulateGrad":
            label = f"AccumulateGrad({names[id(node.variable)]})"
        else:
            label = f"{kind}#{next(i for i, n in enumerate(by_creation) if n is node)}"
        node.register_prehook(lambda grads, label=label: log.append(label))
    if multi_root:
        lib.autograd.backward(roots)
    else:
        roots[0].backward()
    return log


def canonical(order):
    """Sort each run of consecutive AccumulateGrads: PyTorch does not fix their order."""
    out, run = [], []
    for label in order + [None]:
        if label is not None and label.startswith("AccumulateGrad"):
            run.append(label)
            continue
        out.extend(sorted(run))
        run = []
        if label is not None:
            out.append(label)
    return out


def _scalar(lib, value):
    return lib.tensor(value, dtype=lib.float64, requires_grad=True)


def fan_out_exp_first(lib):
    x = _scalar(lib, 0.3)
    y = x * 2
    a, b = y.exp(), y.sin()
    return {"x": x}, [a + b]


def fan_out_sin_first(lib):
    x = _scalar(lib, 0.3)
    y = x * 2
    b = y.sin()
    a = y.exp()
    return {"x": x}, [a + b]


def leaf_used_twice(lib):
    x = _scalar(lib, 2.0)
    return {"x": x}, [x * x + x]


def diamond(lib):
    x, w = _scalar(lib, 0.5), _scalar(lib, 1.5)
    h = x * w
    top = h.exp() * h.tanh()
    return {"x": x, "w": w}, [(top + h).sum()]


def with_constants(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    c = lib.tensor([3.0, 4.0])
    return {"x": x}, [(x * c + c * x - 2 * c + (c * c) * x).sum()]


def exp_log_plus_w(lib):
    x, w = _scalar(lib, 1.0), _scalar(lib, 2.0)
    return {"x": x, "w": w}, [x.exp().log() + w]


def tanh_chain_plus_w(lib):
    x, w = _scalar(lib, 1.0), _scalar(lib, 2.0)
    u = (x * w).exp().log().tanh()
    return {"x": x, "w": w}, [u + w]


def chunks(lib):
    x = lib.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    w = _scalar(lib, 3.0)
    a, b = (x * w).chunk(2)
    return {"x": x, "w": w}, [(a.exp() * b + b.sin()).sum()]


def two_roots(lib):
    x, w = _scalar(lib, 1.0), _scalar(lib, 2.0)
    a = (x * w).exp()
    b = (w + 1).sin() * x
    return {"x": x, "w": w}, [a, b]


GRAPHS = [fan_out_exp_first, fan_out_sin_first, leaf_used_twice, diamond, with_constants,
          exp_log_plus_w, tanh_chain_plus_w, chunks]


@pytest.mark.parametrize("build", GRAPHS, ids=[g.__name__ for g in GRAPHS])
def test_order_matches_torch(oracle, build):
    expected = oracle(lambda torch: canonical(run_order(torch, build)))
    assert plain(canonical(run_order(minigrad, build))) == expected


def test_multi_root_order_matches_torch(torch):
    expected = canonical(run_order(torch, two_roots, multi_root=True))
    assert canonical(run_order(minigrad, two_roots, multi_root=True)) == expected


def test_most_recently_created_runs_first():
    assert run_order(minigrad, fan_out_exp_first) == [
        "AddBackward0#3", "SinBackward0#2", "ExpBackward0#1", "MulBackward0#0",
        "AccumulateGrad(x)"]
    assert run_order(minigrad, fan_out_sin_first) == [
        "AddBackward0#3", "ExpBackward0#2", "SinBackward0#1", "MulBackward0#0",
        "AccumulateGrad(x)"]


def test_accumulate_grad_runs_as_soon_as_ready():
    # w's accumulator is ready right after the add and jumps ahead of log and exp ...
    assert run_order(minigrad, exp_log_plus_w) == [
        "AddBackward0#2", "AccumulateGrad(w)", "LogBackward0#1", "ExpBackward0#0",
        "AccumulateGrad(x)"]
    # ... but here it waits for its second gradient, from the MulBackward0.
    assert run_order(minigrad, tanh_chain_plus_w)[-3:] == [
        "MulBackward0#0", "AccumulateGrad(x)", "AccumulateGrad(w)"]


def test_ties_run_in_the_order_they_became_ready():
    def product(first, second):
        def build(lib):
            leaves = {"x": _scalar(lib, 2.0), "w": _scalar(lib, 3.0)}
            return leaves, [leaves[first] * leaves[second]]
        return build

    assert run_order(minigrad, product("x", "w"))[1:] == ["AccumulateGrad(x)",
                                                          "AccumulateGrad(w)"]
    assert run_order(minigrad, product("w", "x"))[1:] == ["AccumulateGrad(w)",
                                                          "AccumulateGrad(x)"]


# ---------------------------------------------------------------- random DAGs

UNARY = [lambda t: t.exp(), lambda t: t.sin(), lambda t: t.tanh(), lambda t: -t,
         lambda t: t * 2, lambda t: t ** 2, lambda t: 1 - t, lambda t: t.sigmoid()]
BINARY = [lambda a, b: a + b, lambda a, b: a * b, lambda a, b: a - b, lambda a, b: a / (b * b + 1)]


def random_dag(seed):
    """A random graph: leaves, constants, unary/binary ops and chunks, summed into one root."""
    def build(lib):
        rng = random.Random(seed)
        values = np.random.default_rng(seed).uniform(0.5, 1.5, size=(8, 2))
        n_leaves = rng.randint(1, 4)
        leaves = {f"x{i}": lib.tensor(values[i], dtype=lib.float64, requires_grad=True)
                  for i in range(n_leaves)}
        pool = list(leaves.values()) + [lib.tensor(values[7], dtype=lib.float64)]
        used = set()
        for _ in range(rng.randint(3, 14)):
            kind = rng.random()
            i = rng.randrange(len(pool))
            if kind < 0.45:
                new = [rng.choice(UNARY)(pool[i])]
                used.add(i)
            elif kind < 0.9:
                j = rng.randrange(len(pool))
                new = [rng.choice(BINARY)(pool[i], pool[j])]
                used.update((i, j))
            else:
                new = list(pool[i].chunk(2))
                used.add(i)
            pool.extend(new)
        sinks = [t for k, t in enumerate(pool) if k not in used and t.requires_grad]
        root = sinks[0].sum()
        for t in sinks[1:]:
            root = root + t.sum()
        return leaves, [root]
    return build


@pytest.mark.parametrize("seed", range(30))
def test_random_dag_order_matches_torch(oracle, seed):
    build = random_dag(seed)
    expected = oracle(lambda torch: canonical(run_order(torch, build)))
    assert plain(canonical(run_order(minigrad, build))) == expected


# ---------------------------------------------------------------- long chains

def test_100k_chain_forward_and_backward_at_default_recursion_limit():
    previous = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)   # CPython's default
    try:
        x = minigrad.tensor(1.0, requires_grad=True)
        start = time.perf_counter()
        y = x
        for _ in range(100_000):
            y = y * 1.0
        y.backward()
        elapsed = time.perf_counter() - start
        assert x.grad.item() == 1.0
        del y  # tearing the graph down must not recurse either
    finally:
        sys.setrecursionlimit(previous)
    assert elapsed < 90, f"100k-op chain took {elapsed:.1f}s"   # a loose bound for busy CI


def test_100k_chain_with_retain_graph_and_autograd_grad():
    x = minigrad.tensor(2.0, requires_grad=True)
    y = x
    for _ in range(100_000):
        y = y + 0.0
    (g,) = minigrad.autograd.grad(y, x, retain_graph=True)
    assert g.item() == 1.0
    y.backward()
    assert x.grad.item() == 1.0


def test_graph_root_node_for_several_roots():
    x = minigrad.tensor(1.0, requires_grad=True)
    seen = []
    from minigrad.autograd import observe

    def observer(kind, **fields):
        if kind == "backward_started":
            seen.append(fields["graph_root"].name())

    observe.add_observer(observer)
    try:
        minigrad.autograd.backward([x * 2, x * 3])
    finally:
        observe.remove_observer(observer)
    assert seen == ["minigrad::autograd::GraphRoot"]
    assert x.grad.item() == 5.0


# ----------------------------------------------------------------------------- inputs=
def unneeded_edges(lib):
    """What post-hooks see on edges that lead to none of ``inputs``: None from a built-in node,
    the computed gradient from a custom Function (whose backward is not told), as in PyTorch."""

    class Scale(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x, w):
            return x * w

        @staticmethod
        def backward(ctx, grad):
            return grad * 3, grad * 5

    x = lib.tensor([1.0, 2.0], requires_grad=True)
    w = lib.tensor([3.0, 4.0], requires_grad=True)
    log = []

    def post_hook(grad_inputs, grad_outputs):
        log.append([None if g is None else g.tolist() for g in grad_inputs])

    for out in ((x * w).sum(), Scale.apply(x, w).sum()):
        out.grad_fn.next_functions[0][0].register_hook(post_hook)
        out.backward(inputs=[w], retain_graph=True)
        lib.autograd.grad(out, [x])
    return log, x.grad, w.grad.tolist()


@pytest.mark.torch
def test_built_in_nodes_send_none_where_inputs_are_not_reached(torch):
    log, x_grad, w_grad = unneeded_edges(minigrad)
    assert (log, x_grad, w_grad) == unneeded_edges(torch)
    assert log == [[None, [1.0, 2.0]], [[3.0, 4.0], None],  # MulBackward0
                   [[3.0, 3.0], [5.0, 5.0]], [[3.0, 3.0], [5.0, 5.0]]]  # ScaleBackward


# ---------------------------------------------------------------------------- threads
def _pause_in_backward(x, started, resume):
    """A tensor hook that stops ``x``'s backward halfway until ``resume`` is set."""
    def hook(grad):
        started.set()
        resume.wait(10)
        return grad
    x.register_hook(hook)


def test_forward_in_one_thread_while_another_runs_backward():
    import threading
    started, resume = threading.Event(), threading.Event()
    a = minigrad.tensor([1.0, 2.0], requires_grad=True)
    h = a * 3
    _pause_in_backward(h, started, resume)
    worker = threading.Thread(target=lambda: (h * h).sum().backward())
    worker.start()
    started.wait(10)
    x = minigrad.tensor([1.0], requires_grad=True)
    y = x * 2   # the other thread's backward runs with grad mode off: not this thread
    seen = minigrad.is_grad_enabled(), y.requires_grad, y.grad_fn is not None
    resume.set()
    worker.join(10)
    assert seen == (True, True, True)
    np.testing.assert_allclose(a.grad.numpy(), 18 * np.array([1.0, 2.0]))


@pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph")
def test_two_threads_run_backward_on_separate_graphs_at_once():
    import threading
    started = [threading.Event(), threading.Event()]
    resume = threading.Event()
    leaves = [minigrad.tensor([1.0, 2.0], requires_grad=True) for _ in range(2)]
    results, errors = [None, None], []

    def run(i):
        try:
            h = leaves[i] * (i + 2)
            _pause_in_backward(h, started[i], resume)
            (h * h).sum().backward(create_graph=(i == 0))
            results[i] = leaves[i].grad
        except BaseException as error:
            errors.append(error)
    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for event in started:   # both passes are halfway at the same time
        assert event.wait(10)
    resume.set()
    for t in threads:
        t.join(10)
    assert not errors
    # 2·k²·x for k = 2, 3; only the pass with create_graph gives a grad with a history
    np.testing.assert_allclose(results[0].detach().numpy(), 8 * np.array([1.0, 2.0]))
    np.testing.assert_allclose(results[1].numpy(), 18 * np.array([1.0, 2.0]))
    assert results[0].requires_grad and not results[1].requires_grad


def test_record_collects_only_the_events_of_its_own_thread():
    import threading

    from minigrad.autograd.graph import record
    started, resume = threading.Event(), threading.Event()
    b = minigrad.tensor([3.0], requires_grad=True)
    g = b * 5
    _pause_in_backward(g, started, resume)
    worker = threading.Thread(target=lambda: (g * 2).sum().backward())
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    with record(names={}) as rec:
        worker.start()
        started.wait(10)
        (x * x).sum().backward()
        resume.set()
        worker.join(10)
    starts = [e for e in rec.events if e["kind"] == "backward_started"]
    created = [e for e in rec.events if e["kind"] == "node_created"]
    assert len(starts) == 1 and len(created) == 2   # MulBackward0, SumBackward0 of this thread
    assert b.grad.item() == 10.0


# ---------------------------------------------------------------------------- backward on arrays
def _arithmetic_grads(lib, create_graph):
    """Gradients through the ops whose backward also runs on arrays (mul, div, sub, rsub,
    neg), with numbers, mixed dtypes and a division by zero."""
    x = lib.tensor([0.3, -1.7, 0.0], requires_grad=True)
    w = lib.tensor([1.1, 0.25, 3.0], dtype=lib.float64, requires_grad=True)
    y = ((x * 0.999 - 0.001) / 3 * w - (2.5 - x) / x).sum() + (-x * 7).sum()
    grads = lib.autograd.grad(y, (x, w), create_graph=create_graph)
    return [g.detach() for g in grads] + [g.requires_grad for g in grads]


@pytest.mark.parametrize("create_graph", [False, True])
def test_backward_on_arrays_gives_torch_values_and_dtypes(oracle, create_graph):
    from oracle import assert_matches
    expected = oracle(lambda torch: _arithmetic_grads(torch, create_graph))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # 1/0 = inf silently, as in torch
        got = _arithmetic_grads(minigrad, create_graph)
    assert_matches(got, expected)


# ---------------------------------------------------------------- Variable._execution_engine
def _callback_story(lib, depths):
    """Callbacks queued from custom backward functions, at the outer pass (depth 0) and/or in
    a backward pass run from inside it (depth 1), some queueing further callbacks."""
    log = []
    queue = lib.autograd.Variable._execution_engine.queue_callback

    class Inner(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.clone()

        @staticmethod
        def backward(ctx, grad):
            log.append("inner backward")
            if 1 in depths:
                queue(lambda: log.append(f"inner callback, grad mode {lib.is_grad_enabled()}"))
            return grad

    class Outer(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.clone()

        @staticmethod
        def backward(ctx, grad):
            log.append("outer backward")
            if 0 in depths:
                queue(lambda: (log.append("outer callback"),
                               queue(lambda: log.append("queued by a callback"))))
            leaf = grad.detach().requires_grad_()
            with lib.enable_grad():
                Inner.apply(leaf).sum().backward()
            log.append("inner pass returned")
            return grad

    x = lib.ones(2, requires_grad=True)
    x.register_post_accumulate_grad_hook(lambda t: log.append("x accumulated"))
    Outer.apply(x).sum().backward(create_graph=2 in depths)
    x.grad = None
    return log


@pytest.mark.parametrize("depths", [(0,), (1,), (0, 1), (0, 1, 2)])
def test_queued_callbacks_run_when_their_pass_ends(oracle, depths):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # create_graph=True warns, in both libraries
        expected = oracle(lambda torch: _callback_story(torch, depths))
        assert _callback_story(minigrad, depths) == expected


def test_queue_callback_outside_backward_raises(oracle):
    def run(lib):
        try:
            lib.autograd.Variable._execution_engine.queue_callback(lambda: None)
        except RuntimeError as error:
            return error
    assert_matches(run(minigrad), oracle(run))


# ----------------------------------------------------------------- .grad takes a fresh gradient
# Without create_graph, a leaf's first .grad may be the very array a backward on arrays made
# for it (no copy, as PyTorch steals a gradient nobody else holds; only large ones, 64 kB and
# more): never one that something else can still see.

N = 128  # a 128 x 128 float32 gradient: 64 kB


def test_grad_taken_without_copy_accumulates_correctly():
    w = minigrad.ones(N, N, requires_grad=True)
    x = minigrad.ones(2, N)
    (x @ w).relu().sum().backward()
    first = w.grad
    (x @ w).relu().sum().backward()
    assert w.grad is first  # accumulated in place, as before
    np.testing.assert_array_equal(w.grad.numpy(), np.full((N, N), 4.0, np.float32))


@pytest.mark.parametrize("chain", ["matmul", "matmul, add, relu, mul"])
def test_first_grad_takes_the_fresh_gradient_without_a_copy(chain):
    """Backward's peak memory holds one gradient of w, not a gradient and its copy."""
    import tracemalloc
    w = minigrad.ones(4 * N, 4 * N, requires_grad=True)  # 1 MB
    b = minigrad.zeros(4 * N, requires_grad=True)
    x = minigrad.ones(2, 4 * N)
    out = x @ w if chain == "matmul" else ((x @ w + b).relu() * 2)
    loss = out.sum()
    tracemalloc.start()
    try:
        loss.backward()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert w.grad._data.nbytes <= peak < 1.5 * w.grad._data.nbytes


def test_grad_seen_by_a_hook_is_not_shared_with_dot_grad():
    w = minigrad.ones(N, N, requires_grad=True)
    x = minigrad.ones(2, N)
    seen = []
    w.register_hook(lambda g: seen.append(g))
    (x @ w).sum().backward()
    (x @ w).sum().backward()
    np.testing.assert_array_equal(seen[0].numpy(), np.full((N, N), 2.0, np.float32))
    assert not np.shares_memory(seen[0].numpy(), w.grad.numpy())


def test_retained_grad_passed_through_is_not_shared_with_the_leaf_grad():
    x = minigrad.ones(N, N, requires_grad=True)
    y = x.clone()
    y.retain_grad()
    (y * 3).sum().backward()
    (y * 3).sum().backward()
    np.testing.assert_array_equal(y.grad.numpy(), np.full((N, N), 6.0, np.float32))
    np.testing.assert_array_equal(x.grad.numpy(), np.full((N, N), 6.0, np.float32))
    assert not np.shares_memory(x.grad.numpy(), y.grad.numpy())


def test_grad_kept_by_a_post_hook_is_not_shared_with_dot_grad():
    w = minigrad.ones(N, N, requires_grad=True)
    x = minigrad.ones(2, N)
    accumulate = (x @ w).grad_fn.next_functions[1][0]  # w's AccumulateGrad (kept alive here)
    kept = []
    accumulate.register_hook(lambda grad_inputs, grad_outputs: kept.append(grad_outputs[0]))
    (x @ w).sum().backward()
    (x @ w).sum().backward()
    assert type(accumulate).__name__ == "AccumulateGrad" and len(kept) == 2
    np.testing.assert_array_equal(kept[0].numpy(), np.full((N, N), 2.0, np.float32))
    assert not np.shares_memory(kept[0].numpy(), w.grad.numpy())


def test_gradient_returned_by_autograd_grad_is_not_taken_by_a_later_backward():
    w = minigrad.ones(N, N, requires_grad=True)
    x = minigrad.ones(2, N)
    (g,) = minigrad.autograd.grad((x @ w).sum(), w)
    w.backward(g)  # the gradient arrives as it is: .grad must still be a copy
    w.backward(g)
    np.testing.assert_array_equal(g.numpy(), np.full((N, N), 2.0, np.float32))
    np.testing.assert_array_equal(w.grad.numpy(), np.full((N, N), 4.0, np.float32))
