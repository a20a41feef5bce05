"""viz.frames: a recording → per-element timelines, captions, panels and granularities."""

import json

import pytest

import minigrad as torch
from minigrad.autograd.graph import record
from viz.frames import build_frames, event_at, value_text
from viz.still import value_at


def looks(data, event):
    """{element id: classes} at ``event``, without the empty ones."""
    found = {k: value_at(t, event) for k, t in data["classes"].items()}
    return {k: v for k, v in found.items() if v}


def notes(data, event):
    found = {k: value_at(t, event) for k, t in data["notes"].items()}
    return {k: v for k, v in found.items() if v}


def mul_sum():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([3.0, 4.0], requires_grad=True)
    loss = (x * w).sum()
    with record() as rec:
        loss.backward()
    return rec, rec.snapshot


def panel(data, event):
    """The side panel at ``event`` as {label: text}."""
    return dict(data["panel_rows"][k] for k in data["panels"][event])


def first(rec, kind, **fields):
    for event in rec.events:
        if event["kind"] == kind and all(event.get(k) == v for k, v in fields.items()):
            return event["i"]
    raise LookupError(kind)


def test_value_text_prints_like_pytorch():
    assert value_text({"shape": [2], "dtype": "float32", "data": [6.0, 8.0]}) == "[6., 8.]"
    assert value_text({"shape": [], "dtype": "float32", "data": 1.0}) == "1."
    assert value_text({"shape": [2], "dtype": "float32", "data": [0.5, 1.25]}) == \
        "[0.5000, 1.2500]"
    assert value_text({"shape": [2], "dtype": "int64", "data": [1, 2]}) == "[1, 2]"
    assert value_text({"shape": [1], "dtype": "float32", "data": ["nan"]}) == "[nan]"
    assert value_text({"shape": [2, 2], "dtype": "float32", "data": [[1.0, 2.0], [3.0, 4.0]]}) \
        == "[[1., 2.], [3., 4.]]"
    big = {"shape": [100, 100], "dtype": "float32",
           "summary": {"min": 0, "max": 1, "mean": 0.5, "norm": 57.7}}
    assert value_text(big) == "(100×100) mean 0.5, norm 57.7"


def test_one_entry_per_event_and_json_ready():
    rec, _ = mul_sum()
    data = build_frames(rec)
    assert data["count"] == len(rec.events) == len(data["captions"]) == len(data["panels"])
    assert data["captions"] == [rec.caption(i) for i in range(len(rec.events))]
    assert json.loads(json.dumps(data)) == data


def test_running_node_waiting_counts_and_done_nodes_follow_the_states():
    rec, _ = mul_sum()
    data = build_frames(rec)
    for i in range(len(rec.events)):
        state, now = rec.state_at(i), looks(data, i)
        running = {k for k, v in now.items() if "running" in v.split()}
        assert running == ({state["node"]} if state["node"] and not state["finished"] else set())
        done = {k for k, v in now.items() if "done" in v.split()}
        assert done == set(state["ran"]) - running
        waiting = {k for k, v in now.items() if "waiting" in v.split()}
        assert waiting == {n for n, c in state["pending"].items()
                           if c and n not in state["ready"]} - running - done
        for k, nid in enumerate(state["ready"], 1):
            if nid not in running:
                assert f"#{k} in queue" in notes(data, i)[nid]


def test_edges_carry_the_gradient_sent_along_them():
    rec, snap = mul_sum()
    data = build_frames(rec)
    mul = next(n["id"] for n in snap.nodes if n["name"] == "MulBackward0")
    ran = first(rec, "node_ran", node=mul)
    out = [e for e in snap.edges if e["source"] == mul and e["kind"] == "next"]
    texts = notes(data, ran)
    assert [texts[e["id"]] for e in out] == ["flow\t[3., 4.]", "flow\t[1., 2.]"]
    assert all("flow" in looks(data, ran)[e["id"]] for e in out)
    assert all("sent" in looks(data, len(rec.events) - 1)[e["id"]] for e in out)


def test_accumulate_grad_shows_before_and_after_across_two_backward_calls():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    loss = (x * 3).sum()
    with record() as rec:
        loss.backward(retain_graph=True)
        loss.backward()
    data = build_frames(rec)
    tid = rec.snapshot.named("x")["id"]
    accumulated = [e["i"] for e in rec.events if e["kind"] == "grad_accumulated"]
    assert len(accumulated) == 2
    assert notes(data, accumulated[0])[tid] == "gradnew\tx.grad = None + [3., 3.] = [3., 3.]"
    assert notes(data, accumulated[1])[tid] == ("gradnew\tx.grad = [3., 3.] + [3., 3.] = [6., 6.]\n"
                                                "gradnew\tadded to the old .grad (not zeroed)")
    assert "gradnew" in looks(data, accumulated[1])[tid]
    assert notes(data, len(rec.events) - 1)[tid] == "grad\t.grad = [6., 6.]"
    # the panel says why, only where an old .grad was added to ("forgot zero_grad")
    assert "zero_grad" not in panel(data, accumulated[0]).get("note", "")
    assert "never replaces it" in panel(data, accumulated[1])["note"]
    assert "x.grad = None" in panel(data, accumulated[1])["note"]


def test_hooks_flash_with_grad_in_and_out():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2

    def double(grad):
        return grad * 2
    y.register_hook(double)
    loss = y.sum()
    with record() as rec:
        loss.backward()
    data = build_frames(rec)
    fired = first(rec, "tensor_hook")
    tid = rec.snapshot.named("y")["id"]
    assert "hookfire" in looks(data, fired)[tid]
    assert "hook double: [1., 1.] → [2., 2.]" in notes(data, fired)[tid]
    assert data["sequences"]["hooks"][1] == fired


def test_fan_in_shows_the_sum():
    a = torch.tensor([2.0, 3.0], requires_grad=True)
    d = (a * a + a).sum()
    with record() as rec:
        d.backward()
    data = build_frames(rec)
    summed = first(rec, "grad_summed")
    node = rec.events[summed]["node"]
    assert "summing" in looks(data, summed)[node]
    assert "fan-in:" in notes(data, summed)[node]
    assert any(row[0] == "fan-in" for row in (data["panel_rows"][k]
                                               for k in data["panels"][summed]))


def test_fan_in_of_one_node_names_both_gradients():
    # y * y: the two gradients come from the same node in one step; both summands are shown
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    z = (y * y).sum()
    with record() as rec:
        z.backward()
    data = build_frames(rec)
    summed = first(rec, "grad_summed")
    node = rec.events[summed]["node"]
    assert "fan-in: [2., 4.] + [2., 4.] = [4., 8.]" in notes(data, summed)[node]


def test_error_is_pinned_to_the_node_that_raised_it():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    loss = (x * x).sum()
    loss.backward()
    with pytest.raises(RuntimeError), record() as rec:
        loss.backward()
    data = build_frames(rec)
    error = first(rec, "error")
    node = rec.events[error]["node"]
    assert looks(data, error)[node] == "error"
    # one short line beside the node (issue 15 item 13); the whole message is in the caption
    assert notes(data, error)[node] == "error\tRuntimeError: saved tensors already freed"
    assert "Trying to backward through the graph a second time" in data["captions"][error]
    assert data["sequences"]["node"][-1] == error
    assert "retain_graph=True" in panel(data, error)["why"]


def test_in_place_error_says_why():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    s = (x * 2).sigmoid()
    s.mul_(2)
    with pytest.raises(RuntimeError), record() as rec:
        s.sum().backward()
    data = build_frames(rec)
    error = first(rec, "error")
    node = rec.events[error]["node"]
    assert looks(data, error)[node] == "error"
    assert notes(data, error)[node] == "error\tRuntimeError: saved tensor changed in place"
    assert "modified by an inplace operation" in data["captions"][error]
    assert "version counter" in panel(data, error)["why"]


def test_released_saved_tensors_and_forward_frames():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with record() as rec:
        y = (x * x).sum()
        y.backward()
    data = build_frames(rec)
    mul = next(n["id"] for n in rec.snapshot.nodes if n["name"] == "MulBackward0")
    assert looks(data, 0) .get(mul, "") == "born"
    sum_node = next(n["id"] for n in rec.snapshot.nodes if n["name"] == "SumBackward0")
    assert looks(data, 0)[sum_node] == "future"
    released = first(rec, "saved_released", node=mul)
    assert "released" in looks(data, released)[f"{mul}-s0"]
    assert looks(data, released - 1).get(f"{mul}-s0", "") == ""
    # saved tensors not drawn (the stepper's default): the node itself says what it frees
    hidden = build_frames(rec, drawn={n["id"] for n in rec.snapshot.nodes})
    assert "released\tfrees saved self, other" in notes(hidden, released)[mul]
    assert "frees saved" not in notes(hidden, released - 1).get(mul, "")


def test_granularities_pick_frames():
    rec, _ = mul_sum()
    data = build_frames(rec)
    kinds = [e["kind"] for e in rec.events]
    node = data["sequences"]["node"]
    assert [kinds[i] for i in node] == ["backward_started"] + ["node_ran"] * 4 + \
        ["backward_finished"]
    assert event_at(data, "node", 2) == node[2]
    assert event_at(data, "node", 99) == node[-1]
    assert event_at(data, "event", 3) == 3
    assert data["sequences"]["hooks"] == [0, len(kinds) - 1]


def test_drawn_limits_the_elements():
    rec, snap = mul_sum()
    data = build_frames(rec, drawn={n["id"] for n in snap.nodes})
    assert set(data["classes"]) <= {n["id"] for n in snap.nodes}


# ----------------------------------------------------------------- issue 15: frames that never lie
def _every_event(data):
    return range(data["count"])


def test_an_edge_into_a_constant_never_shows_a_gradient():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with record() as rec:
        y = (x * 3 + 1).sum()
        y.backward()
    data = build_frames(rec)
    constant_edges = [e["id"] for e in rec.snapshot.edges if e["kind"] == "constant"]
    assert constant_edges
    for event in _every_event(data):
        for eid in constant_edges:
            assert looks(data, event).get(eid, "") in ("", "future"), (event, eid)
            assert notes(data, event).get(eid, "") == ""


def test_the_output_is_the_start_only_until_its_node_has_run():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with record() as rec:
        y = (x * x).sum()
        y.backward()
    data = build_frames(rec)
    tid = rec.snapshot.named("y")["id"]
    started = first(rec, "backward_started")
    ran = first(rec, "node_ran", node=rec.snapshot.named("y")["grad_fn"])
    assert "start" in looks(data, started)[tid]
    for event in range(ran, data["count"]):
        assert "start" not in looks(data, event).get(tid, "")
        assert "start:" not in notes(data, event).get(tid, "")


def test_autograd_grad_captures_at_accumulate_grad_without_running_it():
    x = torch.tensor(2.0, requires_grad=True)
    with record() as rec:
        y = x * x
        torch.autograd.grad(y, [x], retain_graph=True)
        y.backward()
    data = build_frames(rec)
    acc = rec.snapshot.named("x")["accumulator"]
    first_pass = [e["i"] for e in rec.events if e["pass"] == 1]
    assert not any("running" in looks(data, i).get(acc, "") for i in first_pass)
    assert any("captured" in looks(data, i).get(acc, "") for i in first_pass)
    second = first(rec, "backward_started", api="backward")
    assert panel(data, second)["pass"] == "pass 2 of 2: backward()"
    assert panel(data, first_pass[0])["pass"] == "pass 1 of 2: autograd.grad()"


def test_only_the_slots_that_hold_a_tensor_are_named_as_freed():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with record() as rec:
        (x * 3).sum().backward()      # MulBackward0 saved only `other` (3)
    released = [e for e in rec.events if e["kind"] == "saved_released"]
    assert [tuple(e["names"]) for e in released] == [("other",)]
    assert "(other)" in rec.caption(released[0]["i"])
    assert "self" not in rec.caption(released[0]["i"])


def test_a_recording_that_starts_with_a_module_call_draws_the_future_as_ghosts():
    lin = torch.nn.Linear(2, 1)
    x = torch.ones(3, 2)
    with record() as rec:
        loss = lin(x).sum()
        loss.backward()
    assert rec.events[0]["kind"] == "module_call"
    data = build_frames(rec)
    nodes = [n["id"] for n in rec.snapshot.nodes if n["kind"] == "function"]
    assert all("future" in looks(data, 0).get(n, "") for n in nodes)


def test_a_root_no_variable_holds_is_named_by_its_node_and_highlighted():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with record() as rec:
        b = x * 2
        b.sum().backward()
    data = build_frames(rec)
    started = first(rec, "backward_started")
    assert "no longer exists" not in data["captions"][started]
    assert "the result of SumBackward0" in data["captions"][started]
    node = next(n["id"] for n in rec.snapshot.nodes if n["name"] == "SumBackward0")
    assert "start" in looks(data, started)[node]
    assert data["focus"][started] == node
