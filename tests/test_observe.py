"""Observers: the events the engine reports, their order and fields, and their cost when unused."""

import time

import pytest
from test_hooks import full_trace, mul_chain, values

import minigrad
from minigrad.autograd import observe

STEP_ORDER = ["node_started", "grad_captured", "tensor_hook", "grad_retained", "node_pre_hook",
              "grad_accumulated", "post_accumulate_hook", "node_ran", "node_post_hook",
              "saved_released"]
HAND_OVER = {"grad_summed", "node_ready", "node_skipped"}


class Recorder:
    def __init__(self):
        self.events = []

    def __call__(self, kind, **fields):
        self.events.append((kind, fields))

    def kinds(self):
        return [kind for kind, _ in self.events]

    def of(self, kind):
        return [fields for k, fields in self.events if k == kind]


@pytest.fixture
def recorder():
    rec = Recorder()
    observe.add_observer(rec)
    yield rec
    observe.remove_observer(rec)


def _steps(kinds):
    """Split a pass's events into per-node steps (each starting at node_started)."""
    steps, current = [], None
    for kind in kinds:
        if kind == "node_started":
            current = [kind]
            steps.append(current)
        elif current is not None:
            current.append(kind)
    return steps


def test_events_follow_the_table_order(recorder):
    tensors, root = mul_chain(minigrad)
    h, x = tensors["h"], tensors["x"]
    h.retain_grad()
    h.register_hook(lambda g: g)
    x.register_post_accumulate_grad_hook(lambda p: None)
    h.grad_fn.register_prehook(lambda go: None)
    h.grad_fn.register_hook(lambda gi, go: None)
    recorder.events.clear()
    root.backward()
    kinds = recorder.kinds()
    assert kinds[:3] == ["backward_started", "dependencies", "node_ready"]
    assert kinds[-1] == "backward_finished"
    for step in _steps(kinds[:-1]):
        body = [k for k in step if k not in HAND_OVER]
        assert body == sorted(body, key=STEP_ORDER.index), step
        tail = step[len(body):]
        assert set(tail) <= HAND_OVER and len(body) + len(tail) == len(step), step
    for kind in STEP_ORDER:
        documented = f"``{kind}``"
        assert documented in observe.__doc__
    doc_order = [k for k in STEP_ORDER if f"``{k}``" in observe.__doc__]
    positions = [observe.__doc__.index(f"\n``{k}``") for k in doc_order]
    assert positions == sorted(positions)


def test_no_observer_means_no_emit(monkeypatch):
    def forbidden(kind, **fields):
        raise AssertionError(f"emit called for {kind}")

    monkeypatch.setattr(observe, "emit", forbidden)
    assert observe.observers == []
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    h = x.exp()
    h.retain_grad()
    h.register_hook(lambda g: g)
    x.register_post_accumulate_grad_hook(lambda p: None)
    h.grad_fn.register_prehook(lambda go: None)
    h.grad_fn.register_hook(lambda gi, go: None)
    (h * h + h).sum().backward()
    minigrad.autograd.grad((x * x).sum(), x)
    assert x.grad is not None


def test_cost_without_observers_is_small():
    """The ``if notify`` tests cost little next to the work itself (a loose bound, not a bench)."""
    def run():
        x = minigrad.tensor(1.0, requires_grad=True)
        y = x
        for _ in range(2000):
            y = y * 1.0
        start = time.perf_counter()
        y.backward()
        return time.perf_counter() - start

    quiet = min(run() for _ in range(3))
    rec = Recorder()
    observe.add_observer(rec)
    try:
        observed = min(run() for _ in range(3))
    finally:
        observe.remove_observer(rec)
    assert quiet <= observed * 2


def _hook_events_as_trace(events, label_of):
    trace = []
    for kind, f in events:
        if kind == "tensor_hook":
            trace.append(("tensor", label_of[id(f["tensor"])], values(f["grad_in"])))
        elif kind == "node_pre_hook":
            trace.append(("node_pre", _node_tag(f["node"], label_of),
                          [values(g) for g in f["grads_in"]]))
        elif kind == "post_accumulate_hook":
            trace.append(("post_acc", label_of[id(f["tensor"])], values(f["tensor"].grad)))
        elif kind == "node_post_hook":
            trace.append(("node_post", _node_tag(f["node"], label_of),
                          [values(g) for g in f["grad_inputs"]],
                          [values(g) for g in f["grad_outputs"]]))
    return trace


def _node_tag(node, label_of):
    owner = node.variable if hasattr(node, "variable") else node._output_refs[0]()
    return f"{type(node).__name__}:{label_of[id(owner)]}"


def test_hook_events_match_the_hook_trace(recorder):
    kept = {}

    def build(lib):
        tensors, root = mul_chain(lib)
        kept.update(tensors)
        return tensors, root

    trace, _ = full_trace(minigrad, build, retain=("h",))
    label_of = {id(t): name for name, t in kept.items()}
    assert _hook_events_as_trace(recorder.events, label_of) == trace


def test_node_ready_queue_is_the_later_pop_order(recorder):
    x = minigrad.tensor(0.5, requires_grad=True)
    w = minigrad.tensor(1.5, requires_grad=True)
    h = x * w
    y = h.exp() * h.sin() + h.tanh() * w
    recorder.events.clear()
    y.backward()
    popped = [f["node"] for f in recorder.of("node_started")]
    for snapshot in [f["queue"] for f in recorder.of("node_ready")]:
        positions = [next(i for i, n in enumerate(popped) if n is node) for node in snapshot]
        assert positions == sorted(positions)
    for f in recorder.of("node_started"):
        rest = popped[popped.index(f["node"]) + 1:]
        positions = [next(i for i, n in enumerate(rest) if n is node) for node in f["queue"]]
        assert positions == sorted(positions)


def test_fields_of_a_small_pass(recorder):
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    h = x * 3
    out = (h * h + h).sum()
    recorder.events.clear()
    out.backward()
    (started,) = recorder.of("backward_started")
    assert started["api"] == "backward" and started["roots"] == (out,)
    assert started["grads"][0].item() == 1.0 and started["graph_root"] is out.grad_fn
    assert started["retain_graph"] is False and started["create_graph"] is False
    (deps,) = recorder.of("dependencies")
    assert deps["counts"][h.grad_fn] == 3 and deps["needed"] is None   # h*h and +h
    summed = recorder.of("grad_summed")   # h's three uses meet in MulBackward0(x*3)'s buffer
    assert [f["node"] for f in summed] == [h.grad_fn, h.grad_fn]
    assert [f["pending"] for f in summed] == [1, 0] and summed[0]["index"] == 0
    assert summed[-1]["total"].tolist() == [7.0, 13.0]   # 2h + 1
    ran = {f["node"].name(): f for f in recorder.of("node_ran")}
    assert ran["MulBackward0"]["grads_in"][0].tolist() in ([1.0, 1.0], [7.0, 13.0])
    (accumulated,) = recorder.of("grad_accumulated")
    assert accumulated["tensor"] is x and accumulated["before"] is None
    assert accumulated["after"].tolist() == [21.0, 39.0]
    released = [f["node"].name() for f in recorder.of("saved_released")]
    assert "MulBackward0" in released
    assert recorder.kinds()[-1] == "backward_finished"


def test_saved_released_only_without_retain_graph(recorder):
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    out = (x * x).sum()
    out.backward(retain_graph=True)
    assert recorder.of("saved_released") == []
    out.backward()
    (released,) = recorder.of("saved_released")
    assert released["names"] == ("self", "other")
    kinds = recorder.kinds()
    assert kinds.index("saved_released") > kinds.index("node_ran", kinds.index("node_ran") + 1)


def test_error_event_names_the_node_that_raised(recorder):
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    y.grad_fn.register_prehook(lambda go: (_ for _ in ()).throw(ValueError("no")))
    with pytest.raises(ValueError):
        y.sum().backward()
    (error,) = recorder.of("error")
    assert error["node"] is y.grad_fn
    assert isinstance(error["error"], ValueError) and error["message"] == "no"
    assert recorder.kinds()[-1] == "error"
    assert "backward_finished" not in recorder.kinds()
    assert observe.current_pass is None


def test_grad_api_events(recorder):
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    w = minigrad.tensor([3.0, 4.0], requires_grad=True)
    h = x * w
    out = (h * h).sum()
    recorder.events.clear()
    minigrad.autograd.grad(out, h)
    (started,) = recorder.of("backward_started")
    assert started["api"] == "grad" and started["inputs"] == (h,)
    (captured,) = recorder.of("grad_captured")
    assert captured["node"] is h.grad_fn and captured["position"] == 0
    assert captured["grad"].tolist() == [6.0, 16.0]
    skipped = recorder.of("node_skipped")
    assert skipped == []   # h's node only captures: it is started but its edges never fire
    started_nodes = [f["node"] for f in recorder.of("node_started")]
    assert started_nodes[-1] is h.grad_fn
    assert not recorder.of("grad_accumulated")


def test_backward_inputs_skips_nodes_that_lead_nowhere(recorder):
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    w = minigrad.tensor([3.0, 4.0], requires_grad=True)
    out = (x * w).sum()
    recorder.events.clear()
    out.backward(inputs=[x])
    (skipped,) = recorder.of("node_skipped")
    assert skipped["node"].variable is w
    assert [f["tensor"] for f in recorder.of("grad_accumulated")] == [x]


def test_node_created_events(recorder):
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    (created,) = recorder.of("node_created")
    assert created["node"] is y.grad_fn and created["outputs"] == (y,)


def test_tensor_hook_event_names_the_tensor(recorder):
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    h = x * 2
    h.register_hook(lambda g: g * 3)
    x.register_hook(lambda g: None)
    h.sum().backward()
    hooks = recorder.of("tensor_hook")
    assert [f["tensor"] for f in hooks] == [h, x]
    assert hooks[0]["grad_in"].tolist() == [1.0, 1.0]
    assert hooks[0]["grad_out"].tolist() == [3.0, 3.0]
    assert hooks[1]["grad_out"] is hooks[1]["grad_in"]
