"""``snapshot()``: the graph as plain data — kinds, names, edges, constants, saved, hooks, ids."""

import json
import re

import numpy as np
import pytest

import minigrad
from minigrad import nn
from minigrad.autograd.graph import Snapshot, snapshot


def _by_name(snap):
    return {t["name"]: t for t in snap.tensors}


def _nodes(snap, name):
    return [n for n in snap.nodes if n["name"] == name]


def test_minigrad_graph_is_the_public_module():
    import importlib

    import minigrad.autograd.graph as graph
    alias = importlib.import_module("minigrad.graph")  # `import minigrad.graph` works too
    assert alias is graph is minigrad.graph
    assert {"Node", "RemovableHandle", "snapshot", "Snapshot", "record",
            "Recording"} <= set(graph.__all__)


def test_kinds_and_names_from_locals():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    c = minigrad.tensor([5.0, 6.0])
    h = x * c
    h.retain_grad()
    z = h.exp()
    loss = z.sum()
    _hidden = x  # names starting with "_" are ignored
    snap = snapshot(loss, names=locals())
    tensors = _by_name(snap)
    assert set(tensors) == {"x", "c", "h", "z", "loss"}
    assert [tensors[n]["kind"] for n in ("x", "c", "h", "z", "loss")] == \
        ["leaf", "constant", "retained", "nonleaf", "root"]
    assert tensors["loss"]["is_root"] and not tensors["loss"]["is_leaf"]
    assert tensors["h"]["retains_grad"] and tensors["x"]["requires_grad"]
    assert not tensors["c"]["requires_grad"] and tensors["c"]["is_leaf"]
    assert snap.roots == (tensors["loss"]["id"],)
    assert tensors["x"]["value"] == {"shape": (2,), "dtype": "float32", "data": (1.0, 2.0)}
    assert tensors["loss"]["grad_fn"] == _nodes(snap, "SumBackward0")[0]["id"]
    assert tensors["x"]["accumulator"] == _nodes(snap, "AccumulateGrad")[0]["id"]
    del _hidden


def test_generated_names_are_short_and_never_addresses():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    w = minigrad.tensor([3.0, 4.0], requires_grad=True)
    y = (x * w).exp() * x
    snap = snapshot(y.sum())
    # exp's output is alive (MulBackward0 saved it), so is y (a local variable).
    assert sorted(t["name"] for t in snap.tensors) == ["exp", "leaf1", "leaf2", "mul", "sum"]
    p = x * w
    q = p * w
    snap = snapshot(q, names={"x": x})
    assert [t["name"] for t in snap.tensors] == ["mul2", "mul1", "x", "leaf"]
    del p
    text = snap.to_json()
    assert not re.search(r"0x[0-9a-f]{6,}", text)


def test_generated_names_never_read_like_ids_or_other_numbers():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    a, b = x * 2, x * 2   # two wrapped 2s, both saved: not "21" and "22"
    layer = minigrad.nn.Linear(2, 2)
    y = layer(layer(x.unsqueeze(0)))  # TBackward0 outputs, saved by AddmmBackward0
    snap = snapshot(a.sum() + b.sum() + y.sum(), names={})
    names = {t["name"] for t in snap.tensors}
    assert {"2 #1", "2 #2"} <= names and not names & {"21", "22"}
    assert not any(re.fullmatch(r"[tnce]\d+(_\d+)?", n) for n in names), names
    assert any(n.startswith("transposed") for n in names)


def test_edges_follow_next_functions_order_and_constants_get_stubs():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    c = minigrad.tensor([5.0, 6.0])
    w = minigrad.tensor([3.0, 4.0], requires_grad=True)
    out = c * x + w * 2
    snap = snapshot(out, names=locals())
    tensors = _by_name(snap)
    add = _nodes(snap, "AddBackward0")[0]
    muls = {n["id"]: n for n in _nodes(snap, "MulBackward0")}
    edges = [e for e in snap.edges if e["source"] == add["id"] and e["kind"] != "output"]
    assert [(e["kind"], e["position"]) for e in edges] == [("next", 0), ("next", 1)]
    first = muls[edges[0]["target"]]
    first_edges = [e for e in snap.edges if e["source"] == first["id"]
                   and e["kind"] in ("next", "constant")]
    assert [e["kind"] for e in first_edges] == ["constant", "next"]      # c * x
    stub = snap[first_edges[0]["target"]]
    assert stub == {"id": stub["id"], "node": first["id"], "position": 0,
                    "tensor": tensors["c"]["id"], "name": "c"}
    assert snap[first_edges[1]["target"]]["variable"] == tensors["x"]["id"]
    second = muls[edges[1]["target"]]
    const_two = next(c for c in snap.constants if c["node"] == second["id"])
    assert const_two["position"] == 1 and const_two["name"] == "2"
    variable = [e for e in snap.edges if e["kind"] == "variable"]
    assert {e["target"] for e in variable} == {tensors["x"]["id"], tensors["w"]["id"]}
    output = [e for e in snap.edges if e["kind"] == "output"]
    assert [(e["source"], e["target"], e["input_nr"]) for e in output] == \
        [(add["id"], tensors["out"]["id"], 0)]


def test_next_edges_carry_input_nr_of_multi_output_nodes():
    x = minigrad.tensor([1.0, 2.0, 3.0], requires_grad=True)
    a, b, c = x.unbind()
    out = b * 2 + c
    snap = snapshot(out, names=locals())
    unbind = _nodes(snap, "UnbindBackward0")[0]
    incoming = sorted(e["input_nr"] for e in snap.edges
                      if e["kind"] == "next" and e["target"] == unbind["id"])
    assert incoming == [1, 2] and unbind["num_inputs"] == 3
    outputs = {e["input_nr"]: snap[e["target"]]["name"] for e in snap.edges
               if e["kind"] == "output" and e["source"] == unbind["id"]}
    assert outputs == {0: "a", 1: "b", 2: "c"}
    assert unbind["outputs"] == tuple(_by_name(snap)[n]["id"] for n in "abc")


def test_ids_are_stable_across_snapshots_and_backward():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    h = x * x
    loss = h.sum()
    first = snapshot(loss, names=locals())
    loss.backward(retain_graph=True)
    second = snapshot(loss)
    ids = lambda snap: [t["id"] for t in snap.tensors] + [n["id"] for n in snap.nodes] + \
        [e["id"] for e in snap.edges]  # noqa: E731
    assert ids(first) == ids(second)
    assert first[first.named("x")["id"]]["grad"] is None
    assert second[first.named("x")["id"]]["grad"]["data"] == (2.0, 4.0)
    third = snapshot(loss * 2)
    assert first.named("x")["id"] in third and first.roots[0] in third


def test_saved_tensors_values_versions_and_release():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    loss = (y * x).sum()
    snap = snapshot(loss, names=locals())
    exp = _nodes(snap, "ExpBackward0")[0]
    assert [s["name"] for s in exp["saved"]] == ["result"]
    saved = exp["saved"][0]
    assert saved["is_output"] and saved["tensor"] == snap.named("y")["id"]
    assert saved["version"] == 0 and not saved["released"] and not saved["modified"]
    np.testing.assert_allclose(saved["value"]["data"], np.exp([1.0, 2.0]), rtol=1e-6)
    mul = _nodes(snap, "MulBackward0")[0]
    assert {s["name"]: s["tensor"] for s in mul["saved"]} == {
        "self": snap.named("y")["id"], "other": snap.named("x")["id"]}
    loss.backward()
    after = snapshot(loss)
    for node in _nodes(after, "MulBackward0") + _nodes(after, "ExpBackward0"):
        assert all(s["released"] and s["value"] is None for s in node["saved"])
    z = x.exp()
    w = z.sum()
    with minigrad.no_grad():
        z.add_(1)
    saved = _nodes(snapshot(w), "ExpBackward0")[0]["saved"][0]
    assert saved["modified"] and saved["version"] == 0


def test_hooks_of_every_kind_are_named():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    h = x * 3

    def double(grad):
        return grad * 2

    def log_step(param):
        pass

    def before(grad_outputs):
        return None

    def after(grad_inputs, grad_outputs):
        return None

    x.register_hook(double)
    x.register_post_accumulate_grad_hook(log_step)
    h.register_hook(lambda g: g)
    h.grad_fn.register_prehook(before)
    h.grad_fn.register_hook(after)
    snap = snapshot(h, names=locals())
    assert snap.named("x")["hooks"] == ("double",)
    assert snap.named("x")["post_accumulate_hooks"] == ("log_step",)
    assert snap.named("h")["hooks"] == ("<lambda>",)
    mul = _nodes(snap, "MulBackward0")[0]
    assert mul["pre_hooks"] == ("before",) and mul["post_hooks"] == ("after",)
    assert mul["tensor_hooks"] == ({"index": 0, "name": "<lambda>"},)


def test_metadata_and_labels():
    x = minigrad.tensor(1.0, requires_grad=True)
    a = x * 2
    b = a * 3
    b.grad_fn.metadata["note"] = 42
    snap = snapshot(b, names={"a": a})
    labels = sorted(n["label"] for n in snap.nodes)
    # two MulBackward0: numbered in creation order, each with its output's name
    assert labels == ["AccumulateGrad (leaf)", "MulBackward0 #1 (a)", "MulBackward0 #2 (mul)"]
    assert _nodes(snap, "MulBackward0")[0]["metadata"] == {"note": "42"}
    assert [n["sequence_nr"] for n in _nodes(snap, "AccumulateGrad")] == [2**64 - 1]
    assert [n["kind"] for n in snap.nodes] == ["function", "function", "accumulate"]


def test_dead_intermediates_are_not_tensors_but_their_nodes_remain():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    loss = (x * 2).exp().sum()
    snap = snapshot(loss, names=locals())
    assert {t["name"] for t in snap.tensors} == {"x", "loss", "2"}  # MulBackward0 saved 2
    assert [n["name"] for n in snap.nodes] == \
        ["SumBackward0", "ExpBackward0", "MulBackward0", "AccumulateGrad"]
    assert all(n["outputs"] == () for n in snap.nodes[1:])


def test_module_parameters_are_named():
    minigrad.manual_seed(0)

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Linear(3, 2)

        def forward(self, x):
            return self.fc1(x).relu()

    net = Net()
    inputs = minigrad.ones(1, 3)
    loss = net(inputs).sum()
    auto = _by_name(snapshot(loss))
    assert {"fc1.weight", "fc1.bias"} <= set(auto)
    assert auto["fc1.weight"]["kind"] == "leaf"
    named = _by_name(snapshot(loss, names={"model": net, "inputs": inputs}))
    assert {"model.fc1.weight", "model.fc1.bias", "inputs"} <= set(named)
    hidden = net.fc1(inputs)
    snap = snapshot(hidden, names=locals())
    assert snap.named("hidden")["module"] == "fc1"
    assert snap[snap.named("hidden")["grad_fn"]]["module"] == "fc1"


def test_large_and_non_finite_values():
    big = minigrad.arange(100.0).requires_grad_()
    odd = minigrad.tensor([float("nan"), float("inf"), -float("inf"), 1.0])
    out = (big * 2).sum() + (odd * big[:4]).sum()
    snap = snapshot(out, names=locals(), full_limit=10)
    value = snap.named("big")["value"]
    assert "data" not in value and value["shape"] == (100,)
    assert value["summary"] == {"min": 0.0, "max": 99.0, "mean": 49.5,
                                "norm": pytest.approx(float(np.linalg.norm(np.arange(100.0))))}
    assert snap.named("odd")["value"]["data"] == ("nan", "inf", "-inf", 1.0)
    json.loads(snap.to_json())


def test_snapshot_is_immutable_plain_data_and_round_trips():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    loss = (x * x).sum()
    snap = snapshot(loss, names=locals())
    with pytest.raises(TypeError):
        snap.tensors[0]["name"] = "other"
    with pytest.raises((TypeError, AttributeError)):
        snap.tensors.append({})
    plain = snap.to_dict()
    assert plain["format"] == "minigrad.snapshot/1"
    plain["tensors"][0]["name"] = "changed"  # a copy
    assert snap.tensors[0]["name"] != "changed"
    again = Snapshot.from_json(snap.to_json())
    assert again == snap and again.to_dict() == snap.to_dict()
    with pytest.raises(ValueError):
        Snapshot.from_dict({"format": "something else"})
    assert "2 tensors" in repr(snap)


def test_custom_function_node_and_unnamed_saved_tensors():
    class Cube(minigrad.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x * x

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return 3 * x * x * grad

    x = minigrad.tensor(2.0, requires_grad=True)
    y = Cube.apply(x)
    snap = snapshot(y, names=locals())
    node = snap[snap.named("y")["grad_fn"]]
    assert node["name"] == "CubeBackward" and node["kind"] == "function"
    assert node["saved"][0]["name"] == "saved_tensors[0]"
    assert node["saved"][0]["tensor"] == snap.named("x")["id"]


def test_several_roots_and_a_leaf_root():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    a = x.sum()
    b = (x * x).sum()
    snap = snapshot(a, b, x, names=locals())
    assert [snap[r]["name"] for r in snap.roots] == ["a", "b", "x"]
    assert snap.named("x")["kind"] == "root" and snap.named("x")["is_leaf"]
    assert len(_nodes(snap, "AccumulateGrad")) == 1


def test_released_saved_tensors_keep_their_ids():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    w = minigrad.tensor([3.0, 4.0], requires_grad=True)
    e = (x * w).exp()
    loss = e.sum()
    names = {"x": x, "w": w, "e": e}  # not locals(): it would keep e alive below
    before = snapshot(loss, names=names)
    loss.backward()
    after = snapshot(loss, names=names)
    for name in ("MulBackward0", "ExpBackward0"):
        old, new = _nodes(before, name)[0]["saved"], _nodes(after, name)[0]["saved"]
        assert [s["tensor"] for s in new] == [s["tensor"] for s in old]
        assert all(s["tensor"] and s["released"] and s["value"] is None for s in new)
    assert {s["tensor"] for s in _nodes(after, "MulBackward0")[0]["saved"]} == {
        after.named("x")["id"], after.named("w")["id"]}
    assert _nodes(after, "ExpBackward0")[0]["saved"][0]["tensor"] == after.named("e")["id"]
    del e, names
    gone = _nodes(snapshot(loss), "ExpBackward0")[0]["saved"][0]
    assert gone["released"] and gone["tensor"] is None


def test_a_node_keeps_its_module_after_its_output_died():
    model = nn.Sequential(nn.Linear(2, 3), nn.LeakyReLU(), nn.Linear(3, 1))
    loss = model(minigrad.ones(4, 2)).sum()
    snap = snapshot(loss)
    modules = {n["name"]: n["module"] for n in snap.nodes if n["name"] != "AccumulateGrad"}
    assert modules["LeakyReluBackward0"] == "1"
    assert sorted(n["module"] for n in _nodes(snap, "AddmmBackward0")) == ["0", "2"]
    assert modules["SumBackward0"] is None  # made after the model returned
