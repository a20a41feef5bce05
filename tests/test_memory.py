"""Saved tensors are really freed after a backward without ``retain_graph`` (and kept with it)."""

import gc
import sys
import weakref
from collections import Counter

import numpy as np
import pytest
from op_registry import all_cases

import minigrad
from minigrad.autograd.snapshot import snapshot

ERR_TWICE = "Trying to backward through the graph a second time"


def _big_graph():
    """A graph whose saved values are big intermediate arrays the user no longer holds."""
    x = minigrad.randn(500, 400, dtype=minigrad.float64, requires_grad=True)
    h = x.exp()                      # ExpBackward0 saves h (its result)
    t = h.tanh()                     # TanhBackward0 saves t, MulBackward0 below saves h and t
    out = (h * t).sum()
    refs = [weakref.ref(h._data), weakref.ref(t._data)]
    return x, out, refs


def test_saved_arrays_are_released_after_backward():
    x, out, refs = _big_graph()   # the user dropped h and t: only the graph holds them
    assert all(r() is not None for r in refs)
    out.backward()
    assert [r() for r in refs] == [None, None]   # freed at once, no gc needed
    node = out.grad_fn.next_functions[0][0]
    with pytest.raises(RuntimeError, match=ERR_TWICE):
        getattr(node, "_saved_self")  # noqa: B009
    assert x.grad.shape == x.shape


def test_saved_arrays_stay_with_retain_graph():
    x, out, refs = _big_graph()
    out.backward(retain_graph=True)
    gc.collect()
    assert all(r() is not None for r in refs)
    node = out.grad_fn.next_functions[0][0]
    assert node._saved_self.shape == (500, 400)
    out.backward()
    assert [r() for r in refs] == [None, None]


def test_autograd_grad_releases_too():
    x, out, refs = _big_graph()
    minigrad.autograd.grad(out, x)
    assert [r() for r in refs] == [None, None]


def test_whole_graph_is_freed_when_the_user_drops_it():
    x, out, refs = _big_graph()
    node_ref = weakref.ref(out.grad_fn)
    del out
    assert node_ref() is None and all(r() is None for r in refs)


def test_refcount_of_a_saved_input_drops_after_backward():
    x = minigrad.randn(100, dtype=minigrad.float64, requires_grad=True)
    h = x * 1.0
    before = sys.getrefcount(h)
    out = (h * h).sum()          # MulBackward0 saves h twice
    assert sys.getrefcount(h) == before + 2
    out.backward()
    assert sys.getrefcount(h) == before


def _grad_cases():
    return [c for c in all_cases() if c.check_grad]


@pytest.mark.parametrize("case", _grad_cases(), ids=lambda c: c.name)
def test_every_op_releases_what_it_saved(case):
    """Inputs are intermediates the user drops; after backward only views may keep them."""
    arrays = case.make(np.random.default_rng(0))
    grad_args = case.grad_args if case.grad_args is not None else range(len(arrays))
    inputs, refs = [], []
    for i, a in enumerate(arrays):
        t = minigrad.tensor(a, dtype=minigrad.float64)
        if i in grad_args and t.is_floating_point():
            t = minigrad.tensor(a, dtype=minigrad.float64, requires_grad=True) * 1.0
            refs.append(weakref.ref(t._data))
        inputs.append(t)
    try:
        out = case.fn(minigrad, *inputs)
    except Exception as error:  # noqa: BLE001 - an op still being written
        pytest.skip(f"op not available: {error}")
    if isinstance(out, (tuple, list)):
        out = out[0]
    if not out.requires_grad:
        pytest.skip("output does not require grad")
    shared = [r for r in refs if r() is not None and np.shares_memory(r(), out._data)]
    del inputs, t
    out.backward(minigrad.ones_like(out))
    alive = [r for r in refs if r() is not None and r not in shared]
    assert alive == [], f"{out.grad_fn.name()} keeps an input array alive after backward"


def test_a_scalar_chain_keeps_few_objects_for_the_collector():
    """Issue 14: each op of ``y * 0.999 + 0.001`` keeps at most two objects the cyclic collector
    tracks, its node and its flat edge tuple: no weak reference to its output (a snapshot finds
    it), the saved number as its array, and the float's operand shared (13-18 objects per op in
    the first version, 4.5 with the flat edges)."""
    def tracked_after(n_pairs):
        x = minigrad.tensor(0.5, requires_grad=True)
        gc.collect()
        before = Counter(type(o).__name__ for o in gc.get_objects())
        y = x
        for _ in range(n_pairs):
            y = y * 0.999 + 0.001
        gc.collect()
        return Counter(type(o).__name__ for o in gc.get_objects()) - before, y, x

    tracked_after(10)  # (the tuples nodes share exist from here on: see minigrad._shared)
    short, _, _ = tracked_after(100)
    long, y, x = tracked_after(300)
    assert (long.total() - short.total()) / 400 <= 2, (long - short).most_common(5)
    y.backward()
    assert x.grad is not None


def test_an_op_that_saves_its_output_keeps_four_objects_for_the_collector():
    """Issue 14: ``tanh`` (like relu, exp, sigmoid) saves its output. Unwatched, the node keeps
    the output's array, version counter and a weak reference to it, without a SavedTensor and
    its tuple (six tracked objects per op before: node, edges, SavedTensor, weak reference,
    counter, saved tuple); the backward still sees an in-place change of the output."""
    def tracked_after(n_ops):
        x = minigrad.tensor([0.5, -0.2], requires_grad=True)
        gc.collect()
        before = Counter(type(o).__name__ for o in gc.get_objects())
        y = x
        for _ in range(n_ops):
            y = y.tanh()
        gc.collect()
        return Counter(type(o).__name__ for o in gc.get_objects()) - before, y, x

    tracked_after(10)
    short, _, _ = tracked_after(100)
    long, y, x = tracked_after(300)
    assert (long.total() - short.total()) / 200 < 4.5, (long - short).most_common(5)
    y.sum().backward()
    expected = np.array([0.5, -0.2])
    slope = np.ones(2)
    for _ in range(300):
        expected = np.tanh(expected)
        slope *= 1 - expected ** 2
    np.testing.assert_allclose(x.grad.numpy(), slope, rtol=1e-5)
    z = x.tanh()
    z.add_(1)
    with pytest.raises(RuntimeError, match="output 0 of TanhBackward0|output 0 of Tanh"):
        z.sum().backward()


def _collector_count_per_op(step, n_ops):
    """How much the collector's young-generation count grows per op of ``step`` (collector
    paused): the objects it tracks that were made and are still alive (some of them until a
    collection untracks them), which is what brings the next collection on."""
    enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        before = gc.get_count()[0]
        kept = step()
        grown = gc.get_count()[0] - before
    finally:
        if enabled:
            gc.enable()
    return grown / n_ops, kept


@pytest.mark.parametrize("shape", [(), (3, 4)])
def test_a_chain_brings_the_collector_on_rarely(shape):
    """Issue 14: the small tuples a node keeps (its output's shape and dtype, its inputs'
    shapes, its saved versions, needs_input_grad) are shared between nodes (minigrad._shared),
    so an op of ``y * 0.999 + 0.001`` adds about its node and its edge tuple to the collector's
    count (7 per op before: a young collection every 100 ops of a chain)."""
    x = minigrad.full(shape, 0.5, requires_grad=True)
    (x * 0.999 + 0.001).sum().backward()  # (the shared tuples exist from here on)
    x.grad = None

    def chain():
        y = x
        for _ in range(200):
            y = y * 0.999 + 0.001
        return y
    per_op, y = _collector_count_per_op(chain, 400)
    assert per_op <= 3, per_op
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.full(shape, 0.999 ** 200), rtol=1e-4)


def test_shared_tables_are_emptied_at_their_limit():
    """A program with ever new shapes does not grow the shared tables without bound, and the
    tuples already handed out stay as they were."""
    from minigrad import _shared
    from minigrad.autograd import function
    table = function._OUTPUT_METAS
    first = minigrad.ones(1, requires_grad=True) * 2
    meta = first.grad_fn._output_meta
    for n in range(2, _shared.LIMIT + 10):
        minigrad.ones(n, requires_grad=True) * 2
    assert len(table) <= _shared.LIMIT
    assert meta == (((1,), np.dtype(np.float32)),)
    again = minigrad.ones(3, dtype=minigrad.float64, requires_grad=True) * 2
    assert again.grad_fn._output_meta == (((3,), np.dtype(np.float64)),)


def test_the_number_cache_starts_again_when_full(monkeypatch):
    """Numbers used as operands are cached (one array and one cast per number); a program
    that makes a new number every step (a learning-rate schedule) fills the cache, which then
    starts again instead of caching nothing more, and the values stay right across the
    restarts: float32 products, their gradients, and numbers saved before a restart."""
    from minigrad.ops import _util
    monkeypatch.setattr(_util, "_CACHE_SIZE", 8)
    x = minigrad.tensor([1.0, -2.0], requires_grad=True)
    early = x * 1.25  # saved 1.25 (for x's gradient) before the restarts below
    for i in range(30):
        factor = 0.5 + i / 7
        y = x * factor
        assert y.dtype == minigrad.float32
        assert y.tolist() == (np.float32([1.0, -2.0]) * np.float32(factor)).tolist()
        y.sum().backward()
        assert x.grad.tolist() == [np.float32(factor)] * 2
        x.grad = None
    early.sum().backward()
    assert x.grad.tolist() == [1.25, 1.25]
    assert len(_util._NUMBER_ARRAYS) <= 8
    first, second = _util._number_array(123.25), _util._number_array(123.25)
    assert first is second  # a number first seen after the cache filled up is cached
    assert all(id(array) == key for key, (array, _) in _util._CASTS.items())


def test_input_references_derived_from_the_edges_find_the_inputs():
    """A built-in node without a live constant keeps no references to its inputs; the ones it
    gives snapshots are its inputs all the same: the output an edge points at (found by the
    snapshot: a node that nothing watched keeps no reference to its output), the leaf, the
    number it saved (a number it did not save died with the call)."""
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    z = y + 2
    assert z.grad_fn._input_refs[0] is None  # not found yet
    snapshot(z)
    mul_refs, add_refs = y.grad_fn._input_refs, z.grad_fn._input_refs
    assert mul_refs[0]() is x
    assert mul_refs[1]() is y.grad_fn._raw_saved_other.tensor
    assert add_refs[0]() is y
    assert add_refs[1] is None or add_refs[1]() is None
    c = minigrad.tensor([5.0, 6.0])  # a constant tensor: kept by reference, as before
    w = x * c
    assert w.grad_fn._input_refs[1]() is c
