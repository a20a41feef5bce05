"""``record()``: the recorded events match what PyTorch's hooks observe, frames replay exactly.

Each program below runs twice: in PyTorch and in minigrad, with a logging hook of every kind
on every node and tensor (Node pre-hook, Node post-hook, tensor hook, post-accumulate-grad
hook). The PyTorch log is the truth; the trace rebuilt from minigrad's *recording* must equal
it, order and values.
"""

import json
import warnings

import numpy as np
import pytest
from oracle import plain
from seed_functions import clamp_at_zero

import minigrad
from minigrad.autograd import observe
from minigrad.autograd._ids import node_id, tensor_id
from minigrad.autograd._values import thaw
from minigrad.autograd.graph import Recording, RecordingTruncated, record

# --------------------------------------------------------------------------- the programs
# A program builds a graph with ``t`` (minigrad or torch) and returns its named tensors;
# ``roots`` are the tensors whose graph gets logging hooks; ``run`` does the backward calls.


def fan_out_order(t):
    x = t.tensor(0.5, requires_grad=True)
    y = x * 2
    a = y.exp()
    b = y.sin()
    out = a + b
    return dict(x=x, y=y, a=a, b=b, out=out), [out], lambda: out.backward()


def notes_trace(t):
    x = t.tensor([1.0, 2.0], requires_grad=True)
    w = t.tensor([3.0, 4.0], requires_grad=True)
    h = x * w
    h.retain_grad()
    out = (h * 2).sum()
    return dict(x=x, w=w, h=h, out=out), [out], lambda: out.backward()


def leaf_jumps_queue(t):
    x = t.tensor(0.7, requires_grad=True)
    w = t.tensor(0.2, requires_grad=True)
    out = x.exp().log() + w
    return dict(x=x, w=w, out=out), [out], lambda: out.backward()


def accumulate_waits(t):
    x = t.tensor(0.3, requires_grad=True)
    w = t.tensor(1.5, requires_grad=True)
    u = (x * w).exp().log().tanh()
    out = u + w
    return dict(x=x, w=w, u=u, out=out), [out], lambda: out.backward()


def every_hook_modifies(t):
    x = t.tensor([1.0, 2.0], requires_grad=True)
    w = t.tensor([3.0, 4.0], requires_grad=True)

    def double(g):
        return g * 2

    def plus_one(g):
        return g + 1

    def triple(g):
        return g * 3

    def scale_pre(grad_outputs):
        return tuple(g * 10 for g in grad_outputs)

    def bump_post(grad_inputs, grad_outputs):
        return (grad_inputs[0] + 1, grad_inputs[1])

    def note(param):
        return None

    x.register_hook(double)
    x.register_hook(plus_one)
    h = x * w
    h.register_hook(triple)
    h.retain_grad()
    h.grad_fn.register_prehook(scale_pre)
    h.grad_fn.register_hook(bump_post)
    w.register_post_accumulate_grad_hook(note)
    out = (h * h).sum()
    return dict(x=x, w=w, h=h, out=out), [out], lambda: out.backward()


def leaf_used_twice(t):
    x = t.tensor(2.0, requires_grad=True)
    y = x * x + x
    return dict(x=x, y=y), [y], lambda: y.backward()


def constants(t):
    x = t.tensor([1.0, 2.0], requires_grad=True)
    c = t.tensor([5.0, 6.0])
    out = (x * c + c).sum() * 3
    return dict(x=x, c=c, out=out), [out], lambda: out.backward()


def seed_exp_graph(t):
    A = t.tensor(2.0, requires_grad=True)
    B = t.tensor(0.5, requires_grad=True)
    E = t.tensor(1.0, requires_grad=True)
    C = A * B
    D = C.exp()
    F = D + E
    return dict(A=A, B=B, E=E, C=C, D=D, F=F), [F], lambda: F.backward(retain_graph=True)


def seed_parameter_hook(t):
    w = t.tensor([[0.5, -1.0], [2.0, 0.25]], requires_grad=True)

    def halve(grad):
        return grad / 2

    w.register_hook(halve)
    loss = (w - 1) ** 2
    out = loss.mean()
    return dict(w=w, loss=loss, out=out), [out], lambda: out.backward()


def seed_retain_graph_passes(t):
    a = t.tensor([3.0], requires_grad=True)
    b = a * a
    b.retain_grad()

    def run():
        b.backward(retain_graph=True)
        b.backward(retain_graph=True)
        b.backward(retain_graph=False)
    return dict(a=a, b=b), [b], run


def backward_twice(t):
    a = t.tensor([3.0], requires_grad=True)
    b = a * a

    def run():
        b.backward()
        b.backward()
    return dict(a=a, b=b), [b], run


def hook_raises(t):
    x = t.tensor([1.0, 2.0], requires_grad=True)
    w = t.tensor([3.0, 4.0], requires_grad=True)
    h = x * w

    def explode(grad):
        raise ValueError("boom")

    h.register_hook(explode)
    out = (h + x).sum()
    return dict(x=x, w=w, h=h, out=out), [out], lambda: out.backward()


def several_roots(t):
    x = t.tensor([1.0, 2.0], requires_grad=True)
    a = (x * 3).sum()
    b = (x.exp() * 2).sum()
    return dict(x=x, a=a, b=b), [a, b], lambda: t.autograd.backward([a, b])


def grad_api(t):
    x = t.tensor([1.0, 2.0], requires_grad=True)
    w = t.tensor([3.0, 4.0], requires_grad=True)
    out = (x * w).sin().sum()
    return dict(x=x, w=w, out=out), [out], lambda: t.autograd.grad(out, [x])


def backward_inputs(t):
    x = t.tensor([1.0, 2.0], requires_grad=True)
    w = t.tensor([3.0, 4.0], requires_grad=True)
    out = (x * w).sum()
    return dict(x=x, w=w, out=out), [out], lambda: out.backward(inputs=[w])


# The seeds' other graphs (/work/shared/seeds: the guided tour and the reference pages).
def seed_powers(t):
    a = t.tensor(2.0, requires_grad=True)
    b = t.tensor(3.0, requires_grad=True)
    c = a ** 2 + b ** 3
    return dict(a=a, b=b, c=c), [c], lambda: c.backward()


def seed_accumulation_two_roots(t):
    a = t.tensor(1.0, requires_grad=True)
    twice, thrice = a * 2, a * 3

    def run():
        twice.backward(retain_graph=True)
        thrice.backward()
    return dict(a=a, twice=twice, thrice=thrice), [twice, thrice], run


def seed_vector_jacobian(t):
    a = t.tensor([0.3, -1.2, 2.0], requires_grad=True)
    b = a * 2
    weights = t.tensor([0.1, 1.0, 0.001])
    return dict(a=a, b=b), [b], lambda: b.backward(gradient=weights)


def seed_second_derivative(t):
    a = t.tensor(2.0, requires_grad=True)
    b = a ** 3

    def run():
        (first,) = t.autograd.grad(outputs=b, inputs=a, create_graph=True)
        t.autograd.grad(outputs=first, inputs=a)
    return dict(a=a, b=b), [b], run


def seed_custom_function(t):
    ClampAtZero = clamp_at_zero(t)
    a = t.tensor([-1.0, 2.0, -0.5], requires_grad=True)
    out = ClampAtZero.apply(a)
    return dict(a=a, out=out), [out], lambda: out.backward(t.tensor([1.0, 1.0, 1.0]))


def seed_linear_l1(t):
    t.manual_seed(0)
    layer = t.nn.Linear(3, 5)
    with t.no_grad():  # the same numbers in both libraries
        layer.weight.copy_(t.tensor([[0.1 * (i - j) for j in range(3)] for i in range(5)]))
        layer.bias.copy_(t.tensor([0.5, -0.5, 0.25, 0.0, 1.0]))
    inputs = t.tensor([[0.2, -0.4, 0.9]])
    out = layer(inputs)
    out.retain_grad()
    loss = t.nn.L1Loss()(out, t.tensor([[0.0, 1.0, -1.0, 0.5, 0.3]]))
    return (dict(weight=layer.weight, bias=layer.bias, out=out, loss=loss), [loss],
            lambda: loss.backward())


def seed_lambda_hooks_two_passes(t):
    w = t.tensor([[0.5, -1.0], [2.0, 0.25]], requires_grad=True)
    w.register_hook(lambda grad: grad * 2)
    y = w + 1
    y.grad_fn.register_hook(lambda *grads: None)
    z = w + 1

    def run():
        y.sum().backward()
        z.sum().backward()
    return dict(w=w, y=y, z=z), [y, z], run


PROGRAMS = [fan_out_order, notes_trace, leaf_jumps_queue, accumulate_waits,
            every_hook_modifies, leaf_used_twice, constants, seed_exp_graph,
            seed_parameter_hook, seed_retain_graph_passes, backward_twice, hook_raises,
            several_roots, grad_api, backward_inputs, seed_powers, seed_accumulation_two_roots,
            seed_vector_jacobian, seed_second_derivative, seed_custom_function, seed_linear_l1,
            seed_lambda_hooks_two_passes]


# --------------------------------------------------------------------------- instrumenting
def _values(grads):
    return [None if g is None else np.round(np.asarray(g.tolist(), dtype=np.float64), 5).tolist()
            for g in grads]


def _walk(roots):
    seen, order, stack = set(), [], [r.grad_fn for r in roots if r.grad_fn is not None]
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        order.append(node)
        stack.extend(n for n, _ in node.next_functions)
    return order


def instrument(named, roots):
    """Register a logging hook of every kind everywhere; return (log, node keys by object)."""
    log = []
    names = {id(v): k for k, v in named.items()}
    nodes = _walk(roots)
    functions = sorted((n for n in nodes if type(n).__name__ != "AccumulateGrad"),
                       key=lambda n: n._sequence_nr())
    keys = {id(n): f"{type(n).__name__}#{i}" for i, n in enumerate(functions)}
    for node in nodes:
        if type(node).__name__ == "AccumulateGrad":
            keys[id(node)] = f"AccumulateGrad({names[id(node.variable)]})"
        key = keys[id(node)]

        def log_pre(grad_outputs, key=key):
            log.append(("pre", key, _values(grad_outputs)))

        def log_post(grad_inputs, grad_outputs, key=key):
            log.append(("post", key, _values(grad_inputs), _values(grad_outputs)))

        node.register_prehook(log_pre)
        node.register_hook(log_post)
        if type(node).__name__ == "AccumulateGrad":
            name = names[id(node.variable)]

            def log_acc(param, name=name):
                log.append(("acc", name, _values([param.grad])[0]))

            node.variable.register_post_accumulate_grad_hook(log_acc)
    for name, tensor in named.items():
        if tensor.requires_grad:
            def log_tensor(grad, name=name):
                log.append(("tensor", name, _values([grad])[0]))

            tensor.register_hook(log_tensor)
    return log, keys, nodes


def run_logged(program, t):
    named, roots, run = program(t)
    log, keys, nodes = instrument(named, roots)
    try:
        run()
    except Exception as error:  # noqa: BLE001 - the error is part of what is compared
        log.append(("error", type(error).__name__))
    return log, named, keys, nodes


def _event_values(rec, refs):
    result = []
    for ref in refs:
        if ref is None:
            result.append(None)
            continue
        value = rec.values[ref]
        result.append(np.round(np.asarray(value["data"], dtype=np.float64), 5).tolist())
    return result


def trace_from_recording(rec, named, keys, nodes):
    """The hook log, rebuilt from the recording's events alone."""
    key_of = {node_id(n): keys[id(n)] for n in nodes}
    name_of = {tensor_id(v): k for k, v in named.items()}
    trace = []
    for event in rec.events:
        kind, hook = event["kind"], event.get("hook")
        if kind == "node_pre_hook" and hook == "log_pre":
            trace.append(("pre", key_of[event["node"]], _event_values(rec, event["grads_in"])))
        elif kind == "node_post_hook" and hook == "log_post":
            trace.append(("post", key_of[event["node"]],
                          _event_values(rec, event["grad_inputs"]),
                          _event_values(rec, event["grad_outputs"])))
        elif kind == "tensor_hook" and hook == "log_tensor":
            trace.append(("tensor", name_of[event["tensor"]],
                          _event_values(rec, [event["grad_in"]])[0]))
        elif kind == "post_accumulate_hook" and hook == "log_acc":
            grad = rec.state_at(event["i"])["grads"][event["tensor"]]
            trace.append(("acc", name_of[event["tensor"]],
                          np.round(np.asarray(grad["data"], dtype=np.float64), 5).tolist()))
        elif kind == "error":
            trace.append(("error", event["error"]))
    return trace


def record_program(program):
    names = {}  # read when the block ends
    with record(names=names) as rec:
        log, named, keys, nodes = run_logged(program, minigrad)
        names.update(named)
    return rec, log, named, keys, nodes


# --------------------------------------------------------------------------- against torch
def torch_run(torch, program):
    """What PyTorch's hooks log for a program, and the final grads of its named tensors:
    ``None`` for a tensor that neither is a leaf nor retains its grad, or whose grad no pass
    reached and that does not retain it."""
    log, named, _, _ = run_logged(program, torch)
    grads = {}
    for name, tensor in named.items():
        kept = (tensor.is_leaf or tensor.retains_grad) and (
            tensor.grad is not None or tensor.retains_grad)
        grads[name] = {"kept": kept, "grad": None if tensor.grad is None else
                       tensor.grad.tolist()}
    return {"log": log, "grads": grads}


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.__name__)
def test_recorded_hook_trace_matches_torch(oracle, program):
    expected = oracle(lambda torch: torch_run(torch, program))
    rec, log, named, keys, nodes = record_program(program)
    log = plain(log)
    assert plain(trace_from_recording(rec, named, keys, nodes)) == log  # the truth
    assert log == expected["log"]                                       # which is PyTorch's
    if expected["log"][-1][0] != "error":
        final = rec.state_at(-1)["grads"]
        for name, theirs in expected["grads"].items():
            if not theirs["kept"]:
                continue
            if theirs["grad"] is None:  # a retained grad that no pass reached
                assert named[name].grad is None
                continue
            np.testing.assert_allclose(named[name].grad.tolist(), theirs["grad"], rtol=1e-6)
            # ... and the recording's last frame agrees (leaves and retained grads)
            recorded = final.get(tensor_id(named[name]))
            if recorded is not None:
                np.testing.assert_allclose(recorded["data"], theirs["grad"], rtol=1e-6)


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.__name__)
def test_node_order_matches_torch(oracle, program):
    expected = oracle(lambda torch: torch_run(torch, program))["log"]
    rec, _, named, keys, nodes = record_program(program)
    key_of = {node_id(n): keys[id(n)] for n in nodes}
    ran = [key_of[e["node"]] for e in rec.events if e["kind"] == "node_ran" and
           e["node"] in key_of]
    assert ran == [entry[1] for entry in expected if entry[0] == "post"]


# --------------------------------------------------------------------------- the frames
@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.__name__)
def test_frames_agree_with_the_engine(program):
    """What the replay says is in a node's buffer is what the engine hands the node."""
    rec, *_ = record_program(program)
    started = 0
    for event in rec.events:
        if event["kind"] != "node_started":
            continue
        before = rec.state_at(event["i"] - 1)
        assert event["node"] in before["ready"]
        expected = [None if r is None else rec.values[r] for r in event["grads"]]
        assert before["buffers"].get(event["node"]) == expected
        started += 1
    assert started


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.__name__)
def test_json_round_trip_reproduces_every_frame(program):
    rec, *_ = record_program(program)
    text = rec.to_json()
    again = Recording.from_json(text)
    assert again == rec
    assert json.loads(again.to_json()) == json.loads(text)
    for i in range(len(rec)):
        assert again.state_at(i) == rec.state_at(i)
    json.dumps(rec.state_at(len(rec) - 1))  # frames are plain data


def test_frames_of_the_notes_example():
    rec, _, named, _, _ = record_program(notes_trace)
    snap = rec.snapshot
    x, w, h, out = (tensor_id(named[k]) for k in ("x", "w", "h", "out"))
    final = rec.state_at(-1)
    assert final["finished"] and final["pending"] == {} and final["ready"] == []
    assert final["grads"][x]["data"] == (6.0, 8.0) and final["grads"][w]["data"] == (2.0, 4.0)
    assert final["retained"] == [h] and final["grads"][h]["data"] == (2.0, 2.0)
    assert [snap[n]["name"] for n in final["ran"]] == [
        "SumBackward0", "MulBackward0", "MulBackward0", "AccumulateGrad", "AccumulateGrad"]
    assert sorted(final["released"]) == sorted(
        n["id"] for n in snap.nodes if n["name"] == "MulBackward0")
    ran = [e for e in rec.events if e["kind"] == "node_ran"]
    mul = next(e for e in ran if e["node"] == snap[h]["grad_fn"])
    assert rec.caption(mul["i"]) == ("MulBackward0 #1 (h) runs: it receives [2., 2.] and sends "
                                     "[6., 8.] to x's AccumulateGrad and [2., 4.] to w's "
                                     "AccumulateGrad.")
    accumulated = [e for e in rec.events if e["kind"] == "grad_accumulated"]
    assert rec.caption(accumulated[0]["i"]) == "x.grad was None, so it becomes [6., 8.]."
    state = rec.state_at(accumulated[0]["i"])
    assert state["node"] == snap[x]["accumulator"] and state["grads"][x]["data"] == (6.0, 8.0)
    assert state["buffers"][snap[w]["accumulator"]][0]["data"] == (2.0, 4.0)
    assert snap[out]["kind"] == "root"


def test_passes_and_accumulation():
    rec, _, named, _, _ = record_program(seed_retain_graph_passes)
    assert [p["pass"] for p in rec.passes] == [1, 2, 3]
    a = tensor_id(named["a"])
    grads = [rec.state_at(p["end"])["grads"][a]["data"] for p in rec.passes]
    assert grads == [(6.0,), (12.0,), (18.0,)]
    accumulated = [e for e in rec.events if e["kind"] == "grad_accumulated"]
    assert rec.caption(accumulated[1]["i"]) == \
        "a.grad accumulates: [6.] plus the new gradient gives [12.]."
    assert rec.state_at(rec.passes[1]["start"])["ran"] == []
    assert [e["kind"] for e in rec.events].count("saved_released") == 1


def test_backward_twice_is_a_second_pass_with_an_error():
    rec, *_ = record_program(backward_twice)
    first, second = rec.passes
    assert first["error"] is None and "second time" in second["error"]
    error = rec.events[second["end"]]
    state = rec.state_at(error["i"])
    assert state["error"]["node"] == error["node"] and state["error"]["type"] == "RuntimeError"
    assert rec.snapshot[error["node"]]["name"] == "MulBackward0"
    assert rec.caption(error["i"]).startswith("Error in MulBackward0: RuntimeError: Trying")
    assert state["released"][error["node"]] == ["self", "other"]


def test_error_mid_backward_is_recorded_with_its_node():
    rec, _, named, _, _ = record_program(hook_raises)
    error = rec.events[-1]
    assert error["kind"] == "error" and error["message"] == "boom"
    assert error["node"] == rec.snapshot[tensor_id(named["h"])]["grad_fn"]
    assert rec.state_at(-1)["error"]["message"] == "boom"


def test_a_failed_pass_is_undone_in_the_frames():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    b = minigrad.tensor([0.5, 0.5], requires_grad=True)

    def explode(grad):
        raise ValueError("boom")

    with record() as rec:
        h = x * 2
        h.register_hook(explode)
        with pytest.raises(ValueError):
            (h + b).sum().backward()  # b's AccumulateGrad runs before h's hook fails
    accumulated = next(e for e in rec.events if e["kind"] == "grad_accumulated")
    assert accumulated["tensor"] == tensor_id(b)
    assert rec.state_at(accumulated["i"])["grads"][tensor_id(b)]["data"] == (1.0, 1.0)
    # NB: minigrad restores the .grad a failed pass wrote (PyTorch keeps it)
    assert rec.state_at(-1)["grads"][tensor_id(b)] is None and b.grad is None


def test_the_frames_undo_only_what_the_failed_pass_wrote():
    """A nested backward (in a hook) that succeeds keeps its .grad when the outer pass fails:
    the frames restore what the engine's rollback restores, no more."""
    x = minigrad.tensor(1.0, requires_grad=True)
    w = minigrad.tensor(2.0, requires_grad=True)
    r = minigrad.tensor(0.0, requires_grad=True)

    def nested_then_explode(grad):
        with minigrad.enable_grad():
            (w * 3).backward()      # a pass of its own: w.grad = 3
        raise ValueError("boom")

    with record() as rec:
        h = x * w
        h.register_hook(nested_then_explode)
        k = r * 1
        k.retain_grad()
        with pytest.raises(ValueError):
            (h + k.exp()).backward()  # k's grad is retained and r's accumulated, then h fails
    assert w.grad.item() == 3 and r.grad is None and k.grad is None
    grads = rec.state_at(-1)["grads"]
    assert grads[tensor_id(w)]["data"] == 3.0
    assert grads[tensor_id(r)] is None and grads[tensor_id(k)] is None
    assert rec.state_at(-1)["error"]["message"] == "boom"


def test_forward_events_and_names():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    with record() as rec:
        hidden = x * 3
        loss = hidden.sum()
    kinds = [e["kind"] for e in rec.events]
    assert kinds == ["node_created", "node_created"]
    assert rec.caption(0) == ("Forward: hidden is computed and autograd records MulBackward0, "
                              "which will send gradients to x's AccumulateGrad (a constant "
                              "input gets no gradient).")
    assert rec.state_at(1)["created"] == [e["node"] for e in rec.events]
    assert {t["name"] for t in rec.snapshot.tensors} == {"x", "hidden", "loss", "3"}
    assert rec.values[rec.events[0]["values"][0]]["data"] == (3.0, 6.0)
    del loss


def test_dead_nodes_are_kept_in_the_snapshot():
    x = minigrad.tensor(1.0, requires_grad=True)
    with record(names={}) as rec:
        (x * 2).exp().backward()
    nodes = {n["name"]: n for n in rec.snapshot.nodes}
    assert not nodes["ExpBackward0"]["alive"] and not nodes["MulBackward0"]["alive"]
    assert not nodes["AccumulateGrad"]["alive"]  # x holds its AccumulateGrad weakly
    variable = next(e for e in rec.snapshot.edges if e["kind"] == "variable")
    assert variable["target"] == tensor_id(x) and rec.snapshot[tensor_id(x)]["kind"] == "leaf"
    assert nodes["MulBackward0"]["saved"][0]["released"]
    assert {(e["source"], e["target"]) for e in rec.snapshot.edges if e["kind"] == "next"} == {
        (nodes["ExpBackward0"]["id"], nodes["MulBackward0"]["id"]),
        (nodes["MulBackward0"]["id"], nodes["AccumulateGrad"]["id"])}
    assert rec.state_at(-1)["finished"]


def test_create_graph_pass_records_new_nodes_in_the_pass():
    a = minigrad.tensor([3.0], requires_grad=True)
    with record() as rec:
        b = a * a * a
        (db_da,) = minigrad.autograd.grad(b, a, create_graph=True)
    created = [e for e in rec.events if e["kind"] == "node_created"]
    assert [e["pass"] for e in created][:2] == [None, None]
    assert all(e["pass"] == 1 for e in created[2:]) and len(created) > 2
    captured = [e for e in rec.events if e["kind"] == "grad_captured"]
    assert len(captured) == 1 and rec.values[captured[0]["grad"]]["data"] == (27.0,)
    assert rec.state_at(-1)["captured"]["0"]["data"] == (27.0,)
    assert rec.caption(captured[0]["i"]) == \
        "autograd.grad() takes [27.] as the gradient of a."
    del db_da


def test_skipped_nodes_with_autograd_grad():
    rec, *_ = record_program(grad_api)
    skipped = [e for e in rec.events if e["kind"] == "node_skipped"]
    assert rec.state_at(-1)["skipped"] == [e["node"] for e in skipped]


def test_large_values_are_summaries_and_stored_once():
    x = minigrad.ones(1000, requires_grad=True)
    with record() as rec:
        (x * 2).sum().backward()
    big = [v for v in rec.values if "summary" in v]
    assert big and all(v["shape"] == (1000,) for v in big)
    assert {"min", "max", "mean", "norm"} <= set(big[0]["summary"])
    data = [v for v in rec.values if "data" in v]
    assert len({json.dumps(thaw(v), sort_keys=True) for v in data}) == len(data)


def test_cap_stops_with_a_warning_and_a_truncated_event():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    with pytest.warns(RecordingTruncated, match="it reached max_events=10 ") as caught:
        with record(max_events=10) as rec:
            y = x
            for _ in range(20):
                y = y * 1.5
            y.sum().backward()
    assert caught[0].filename == __file__  # points at the user's line, not at minigrad
    assert "pass a larger cap" in str(caught[0].message)
    assert len(rec) == 11 and rec.truncated
    assert rec.events[-1]["kind"] == "truncated" and rec.state_at(-1)["truncated"]
    assert "stops here" in rec.caption(-1)
    assert observe.observers == []
    assert x.grad is not None  # the program went on


@pytest.mark.parametrize("shared", [False, True], ids=["alone", "shared with an observer"])
def test_a_cap_reached_mid_backward_ends_the_events_there(shared):
    """The engine goes on calling the collector for the rest of the pass: nothing more is kept
    (the per-node events come as method calls when the collector is alone, as keyword
    events when another observer shares the pass)."""
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    seen = []
    other = lambda kind, **fields: seen.append(kind)  # noqa: E731
    with pytest.warns(RecordingTruncated, match="max_events=8 "):
        with record(max_events=8) as rec:
            if shared:
                observe.add_observer(other)
            try:
                ((x * 2).exp() * 3).sum().backward()
            finally:
                if shared:
                    observe.remove_observer(other)
    kinds = [e["kind"] for e in rec.events]
    assert kinds[:4] == ["node_created"] * 4 and kinds[4:6] == ["backward_started",
                                                               "dependencies"]
    assert len(rec) == 9 and kinds[-1] == "truncated" and "truncated" not in kinds[:-1]
    assert rec.state_at(-1)["truncated"]
    if shared:
        assert seen.count("node_ran") == 5  # the other observer saw the whole pass
    np.testing.assert_allclose(x.grad.tolist(), (6 * np.exp(2 * np.array([1.0, 2.0]))).tolist(),
                               rtol=1e-6)


def test_a_pass_records_the_same_alone_and_shared_with_an_observer():
    """Alone, the collector may get the engine's gradients as arrays; shared, it gets them as
    tensors through keyword events, and the other observer gets tensors: the events and the
    values are the same either way (fan-in, a broadcast, a float64 input, a gradient large
    enough to be summarised)."""
    x = minigrad.randn(80, 80, requires_grad=True)          # 6,400 elements: a summary
    b = minigrad.tensor([0.5, -1.0, 2.0, 0.25], dtype=minigrad.float64, requires_grad=True)
    w = minigrad.randn(4, requires_grad=True)
    h = x.sum(0)[:4] * w
    out = ((h + b) * (h * 3).exp() + x.mean()).sum()
    seen = []

    def other(kind, **fields):
        for name in ("grads", "grads_in", "grads_out"):
            seen.extend(type(g) for g in fields.get(name, ()) if g is not None)

    recordings = []
    for shared in (False, True):
        for leaf in (x, b, w):
            leaf.grad = None
        with record(names={}) as rec:
            if shared:
                observe.add_observer(other)
            try:
                out.backward(retain_graph=True)
            finally:
                if shared:
                    observe.remove_observer(other)
        recordings.append(rec)
    alone, together = recordings
    assert len(alone) > 20 and alone.events == together.events
    assert alone.values == together.values
    assert len(seen) > 20 and set(seen) == {minigrad.Tensor}


def test_byte_cap():
    x = minigrad.randn(100, requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with record(max_bytes=5_000) as rec:
            for _ in range(50):
                (x * 2).sum().backward()
    assert rec.truncated and any(issubclass(w.category, RecordingTruncated) for w in caught)
    assert rec.events[-1]["reason"].startswith("it reached max_bytes=5000 (about ")
    assert len(rec) < 200


def test_no_observer_means_emit_is_never_called(monkeypatch):
    def forbidden(*args, **kwargs):
        raise AssertionError("emit called without observers")

    monkeypatch.setattr(observe, "emit", forbidden)
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    h = x * 3
    h.retain_grad()
    h.register_hook(lambda g: g)
    (h.exp() + x).sum().backward()
    minigrad.autograd.grad((x * x).sum(), x)
    assert observe.observers == []


def test_observer_is_detached_even_after_an_error():
    with pytest.raises(ValueError):
        with record():
            raise ValueError("inside")
    assert observe.observers == []


def test_state_at_is_checked_and_the_recording_must_be_finished():
    x = minigrad.tensor(1.0, requires_grad=True)
    with record() as rec:
        with pytest.raises(RuntimeError, match="still running"):
            rec.state_at(0)
        (x * 2).backward()
    with pytest.raises(IndexError):
        rec.state_at(len(rec))
    assert rec.state_at(-1) == rec.state_at(len(rec) - 1)
    assert [f["i"] for f in rec.frames()] == list(range(len(rec)))


def test_random_access_on_a_large_graph_uses_checkpoints():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = x
    for _ in range(500):
        y = y * 1.001 + x
    with record() as rec:
        y.sum().backward()
    replayer = rec._ready()
    rng = np.random.default_rng(0)
    frames = [int(i) for i in rng.integers(0, len(rec), 20)]
    expected = {i: rec.state_at(i) for i in sorted(frames)}
    for i in frames:
        assert rec.state_at(i) == expected[i]
    assert len(replayer.checkpoints) >= len(rec) // replayer.every - 1


def test_module_calls_are_recorded():
    minigrad.manual_seed(0)
    fc1 = minigrad.nn.Linear(2, 1)
    x = minigrad.tensor([[1.0, 2.0]])
    with record() as rec:
        y = fc1(x)  # noqa: F841 - named by the block's local variables
    calls = [e for e in rec.events if e["kind"] == "module_call"]
    assert [c["phase"] for c in calls] == ["enter", "exit"]
    assert calls[0]["module"] == "Linear" and calls[0]["inputs"] == (tensor_id(x),)
    assert rec.caption(calls[0]["i"]) == "Forward: a Linear module is called."
    assert rec.caption(calls[1]["i"]) == "Forward: a Linear module returns y."
    created = [e["i"] for e in rec.events if e["kind"] == "node_created"]
    assert calls[0]["i"] < min(created) and max(created) < calls[1]["i"]
    # fc1 is a local variable of the block: its parameters are named after it
    assert {"fc1.weight", "fc1.bias", "x", "y"} <= {t["name"] for t in rec.snapshot.tensors}


def test_a_recording_keeps_nothing_alive():
    import gc
    import weakref
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    # names={}: reading the caller's locals (the default) keeps them referenced by the frame
    # until the function returns, on Python < 3.13
    with record(names={}) as rec:
        h = x * 2
        loss = h.exp().sum()
        loss.backward()
    refs = [weakref.ref(t) for t in (h, loss)] + [weakref.ref(loss.grad_fn)]
    del h, loss
    gc.collect()
    assert all(r() is None for r in refs)
    assert len(rec.state_at(-1)["ran"]) == 4


@pytest.mark.parametrize("make, count", [
    (lambda x, w: (x * 2).sum(), "1 of them is not needed"),
    (lambda x, w: (x * 2).sum() + (w * 3).sum(), "4 of them are not needed")])
def test_dependencies_caption_counts_the_nodes_grad_skips(make, count):
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    w = minigrad.tensor([3.0, 4.0], requires_grad=True)
    with record(names={}) as rec:
        minigrad.autograd.grad(make(x, w), x)
    (index,) = [e["i"] for e in rec.events if e["kind"] == "dependencies"]
    assert f" {count} for the requested inputs." in rec.state_at(index)["caption"]


def test_a_node_gone_before_the_block_ends_still_names_its_saved_tensors():
    # Issue 15 item 6: the temporaries of (x * w ** 2).sum() die inside the block; their nodes
    # are described from what was seen of them, and that includes the tensors they saved.
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    w = minigrad.tensor([3.0, 4.0], requires_grad=True)
    with record(names={"x": x, "w": w}) as rec:
        (x * w ** 2).sum().backward()
    snap = rec.snapshot.to_dict()
    ids = {t["name"]: t["id"] for t in snap["tensors"]}
    saved = {n["name"]: [(s["name"], s["tensor"]) for s in n["saved"]] for n in snap["nodes"]
             if not n["alive"]}
    assert saved["MulBackward0"] == [("self", ids["x"]), ("other", None)]  # w ** 2 is gone
    assert saved["PowBackward0"] == [("self", ids["w"])]
