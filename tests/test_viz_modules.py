"""``collapse="modules"`` on real ``nn`` models: one box per module call, named after the layer
and its class, expandable by name, the same from a tensor, a snapshot and a recording."""

import re

import pytest

import minigrad as torch
import viz
from minigrad import nn
from minigrad.autograd.graph import record, snapshot
from tests.test_viz_dot import parse
from tests.test_viz_render import groups
from viz import engines


def boxes(obj, **options):
    """``{box id: title}`` of the module boxes of ``viz.draw(obj, collapse=..., ...)``."""
    options.setdefault("collapse", "modules")
    nodes, _ = parse(viz.to_dot(obj, id_prefix="p", **options))
    return {i[len("p-"):]: re.search(r"<B>(.*?)</B>", n["label"])[1]
            for i, n in nodes.items() if "mg-module" in n["class"]}


def clusters(obj, **options):
    """The labels of the frames drawn around expanded modules."""
    text = viz.to_dot(obj, id_prefix="p", **options)
    return re.findall(r'subgraph cluster_\d+ \{\n\s*graph \[[^\]]*label="([^"]*)"', text)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(2, 4)
        self.act = nn.ReLU()
        self.fc2 = nn.Linear(4, 1)

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x))) * 2


SEQUENTIAL = {"m-0": "0: Linear", "m-1": "1: ReLU", "m-2": "2: Linear"}
NET = {"m-fc1": "fc1 (Linear)", "m-act": "act (ReLU)", "m-fc2": "fc2 (Linear)"}


@pytest.fixture
def x():
    torch.manual_seed(0)
    return torch.randn(3, 2)


def test_sequential_model_whose_outputs_are_gone(x):
    model = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 1))
    loss = model(x).sum()
    assert boxes(loss, names={"model": model, "loss": loss}) == SEQUENTIAL
    d = viz.draw(loss, collapse="modules")  # names from this function's variables
    assert {k for k in SEQUENTIAL} == {i.id for i in d.scene.items.values()
                                       if i.kind == "module"}
    assert "<B></B>" not in d.source


def test_sequential_box_holds_its_ops_and_parameters(x):
    model = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 1))
    loss = model(x).sum()
    nodes, edges = parse(viz.to_dot(loss, collapse="modules", id_prefix="p",
                                     names={"model": model}))
    first = nodes["p-m-0"]["label"]
    assert "2 ops" in first and "params: bias, weight" in first
    assert not any("AddmmBackward0" in n["label"] or "model.0.weight" in n["label"]
                   for n in nodes.values())
    chain = [(e["tail"], e["head"]) for e in edges if "[m-" in e["tail"] + e["head"]]
    assert any("[m-2]" in t and "[m-1]" in h for t, h in chain)
    assert any("[m-1]" in t and "[m-0]" in h for t, h in chain)


def test_custom_module_with_named_submodules(x):
    net = Net()
    loss = net(x).sum()
    assert boxes(loss, names={"net": net}) == NET
    kept = net(x)  # its own op (the "* 2") stays drawn, as with a recording
    nodes, _ = parse(viz.to_dot(kept.sum(), collapse="modules", id_prefix="p",
                                names={"net": net, "kept": kept}))
    assert any("MulBackward0" in n["label"] for n in nodes.values())
    assert "p-m-Net" not in nodes and "p-m-" not in nodes


def test_snapshot_recording_and_tensor_agree(x):
    model = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 1))
    with record(names={}) as rec:
        loss = model(x).sum()
        loss.backward()
    names = {"model": model}
    assert boxes(rec, names=names) == SEQUENTIAL
    assert boxes(rec, event=len(rec) - 1, names=names) == SEQUENTIAL
    assert boxes(snapshot(loss, names=names), names=names) == SEQUENTIAL
    assert boxes(loss, names=names) == SEQUENTIAL


def test_without_the_model_at_hand_boxes_keep_their_paths_and_classes(x):
    model = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 1))
    text = snapshot(model(x).sum()).to_json()  # the snapshot's module calls know the classes
    assert boxes(text, names={}) == SEQUENTIAL


def test_expand_by_path_or_by_the_name_in_the_script(x):
    model = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 1))
    loss = model(x).sum()
    names = {"model": model}
    for name in ("0", "model.0"):
        assert boxes(loss, names=names, expand=[name]) == {"m-1": "1: ReLU", "m-2": "2: Linear"}
        assert clusters(loss, names=names, collapse="modules", expand=[name]) == ["0: Linear"]
    assert boxes(loss, names=names, collapse=["model.2"]) == {"m-2": "2: Linear"}


def test_nested_sequential_boxes_the_leaves_and_expands_the_parent(x):
    model = nn.Sequential(nn.Sequential(nn.Linear(2, 3), nn.Tanh()), nn.Linear(3, 1))
    loss = model(x).sum()
    names = {"model": model}
    expected = {"m-0-0": "0.0: Linear", "m-0-1": "0.1: Tanh", "m-1": "1: Linear"}
    assert boxes(loss, names=names) == expected
    with record(names={}) as rec:
        model(x).sum()
    assert boxes(rec, names=names) == expected
    assert boxes(rec, names=names, expand="0") == {"m-1": "1: Linear"}


def test_a_model_without_submodules_is_one_box_named_by_its_variable_or_class(x):
    lin = nn.Linear(2, 1)
    loss = lin(x).sum()
    assert boxes(loss, names={"lin": lin}) == {"m-lin": "lin (Linear)"}
    with record(names={}) as rec:  # the recording was not told the variable's name
        lin(x).sum()
    assert boxes(rec, names={"lin": lin}) == {"m-Linear": "Linear"}
    assert boxes(rec, names={"lin": lin}, expand="lin") == {}
    for name in ("lin", "Linear"):
        assert boxes(loss, names={"lin": lin}, expand=name) == {}
        assert clusters(loss, names={"lin": lin}, collapse="modules", expand=name) == \
            ["lin (Linear)"]


def test_an_empty_module_name_never_reaches_graphviz():
    snap = {"format": "minigrad.snapshot/1", "roots": ["t1"],
            "tensors": [{"id": "t1", "name": "y", "shape": [], "kind": "root", "is_root": True,
                         "requires_grad": True, "is_leaf": False, "grad_fn": "n1",
                         "module": ""}],
            "nodes": [{"id": "n1", "name": "ExpBackward0", "kind": "function", "module": ""},
                      {"id": "n2", "name": "SumBackward0", "kind": "function"}],
            "constants": [], "edges": [{"id": "e1_o0", "kind": "output", "source": "n1",
                                        "target": "t1", "position": None, "input_nr": 0}]}
    assert boxes(snap, names={}) == {"m-model": "model"}
    text = viz.to_dot(snap, names={}, collapse="modules", expand="model")
    assert "<B></B>" not in text and 'label=""' not in text


@pytest.mark.skipif(not engines.available_engines(), reason="no Graphviz engine is installed")
def test_collapsed_models_render(x):
    model = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 1))
    net = Net()
    for loss in (model(x).sum(), net(x).sum()):
        for options in ({}, {"expand": ["0"]}, {"expand": ["fc1"]}, {"show_saved": True}):
            drawing = viz.draw(loss, collapse="modules", id_prefix="p", **options)
            found = groups(drawing.svg())
            ids = {i.id for i in drawing.scene.items.values() if i.kind == "module"}
            assert ids and all(found[f"p-{i}"][0] == "node mg-module" for i in ids)


def test_parameter_names_with_the_models_variable_make_no_second_box(x):
    model = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 1))
    loss = model(x).sum()
    snap = snapshot(loss, names={"model": model})  # model.0.weight, ...
    assert boxes(snap, names={}) == SEQUENTIAL


@pytest.mark.skipif(not engines.available_engines(), reason="no Graphviz engine is installed")
def test_the_stepper_names_module_boxes_from_the_recording(x):
    from viz.playback import Playback

    model = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 1))
    with record() as rec:
        loss = model(x).sum()
        loss.backward()
    scene = Playback(rec, collapse="modules").drawing.scene
    assert {i.id: i.lines[0].text for i in scene.items.values() if i.kind == "module"} == \
        SEQUENTIAL
