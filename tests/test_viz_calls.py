"""One box per module *call* (viz/calls.py), the stepper's combined box states (viz/boxes.py),
and big graphs cut down automatically with a note (viz/compose.py)."""

import pytest

import minigrad as torch
import viz
from benchmarks.bench_layout import chain_loss, mlp_loss, rnn_loss
from minigrad import nn
from minigrad.autograd.graph import record, snapshot
from viz import engines
from viz.calls import call_title
from viz.compose import AUTO_LIMIT, build_scene


def module_boxes(scene):
    return {i.id: i.lines[0].text for i in scene.items.values() if i.kind == "module"}


def test_the_snapshot_lists_each_call_and_the_call_of_each_node():
    loss, cell = rnn_loss(steps=3)
    snap = snapshot(loss, names={"cell": cell}).to_dict()
    calls = snap["module_calls"]
    assert [(c["module"], c["class"], c["index"], c["count"]) for c in calls] == \
        [("cell", "Linear", k, 3) for k in (1, 2, 3)]
    made = {}
    for node in snap["nodes"]:
        made.setdefault(node["call"], []).append(node["name"])
    assert set(made) == {"c0", "c1", "c2", None}
    for call in ("c0", "c1", "c2"):  # Linear: addmm and the weight's transpose
        assert sorted(made[call]) == ["AddmmBackward0", "TBackward0"]
    assert "AccumulateGrad" in made[None] and "TanhBackward0" in made[None]


def test_nested_calls_know_their_parent_and_depth():
    model = nn.Sequential(nn.Sequential(nn.Linear(2, 2), nn.Tanh()), nn.Linear(2, 1))
    loss = model(torch.ones(1, 2)).sum() + model(torch.ones(1, 2)).sum()
    calls = snapshot(loss, names={"model": model}).to_dict()["module_calls"]
    by_id = {c["id"]: c for c in calls}
    assert [(c["module"], c["depth"]) for c in calls[:4]] == \
        [("model", 0), ("0", 1), ("0.0", 2), ("0.1", 2)]
    assert all(by_id[c["parent"]]["depth"] == c["depth"] - 1 for c in calls if c["parent"])
    assert {c["count"] for c in calls} == {2}


def test_a_module_returning_its_input_does_not_claim_it():
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    out = nn.Identity()(y)
    snap = snapshot(out.sum()).to_dict()
    assert snap["module_calls"] == [] and all(n["call"] is None for n in snap["nodes"])


def test_a_reused_cell_is_one_box_per_call_and_its_parameters_once():
    loss, cell = rnn_loss(steps=12)
    scene = build_scene(loss, collapse="modules", names={"cell": cell})
    boxes = module_boxes(scene)
    calls = {k: v for k, v in boxes.items() if "call" in v}
    assert sorted(calls.values()) == sorted(f"cell (call {k} of 12)" for k in range(1, 13))
    assert boxes["m-cell-params"] == "cell parameters"
    params = [i for i in scene.items.values() if i.kind in ("leaf", "acc")]
    assert params == []  # inside the one parameters box, not once per call
    into = [k for k in scene.links if k.target == "m-cell-params"]
    assert sorted(k.source for k in into) == sorted(calls)
    inside = scene.members["m-cell-params"]  # two AccumulateGrad nodes and two leaves
    assert len(inside) == 4 and len(set(inside)) == 4


def test_calls_are_titled_like_the_layers_they_are():
    assert call_title({"module": "4", "class": "Linear", "index": 1, "count": 1}) == "4: Linear"
    assert call_title({"module": "4", "class": "Linear", "index": 3, "count": 80}) == \
        "4: Linear (call 3 of 80)"
    assert call_title({"module": "fc1", "class": "Linear", "index": 1, "count": 1}) == \
        "fc1 (Linear)"


def test_the_big_mlp_collapses_by_default_with_a_note_and_one_box_per_call():
    loss, model = mlp_loss()
    nodes = len(snapshot(loss).nodes)
    assert nodes > AUTO_LIMIT
    scene = build_scene(loss, names={"model": model})
    boxes = module_boxes(scene)
    assert sorted(v for v in boxes.values() if "call" in v) == \
        sorted(f"model (call {k} of 80)" for k in range(1, 81))
    assert scene.note == f"{nodes:,} nodes: showing module calls; pass collapse=None for " \
        "every node"
    assert len(scene.items) <= AUTO_LIMIT
    explicit = build_scene(loss, names={"model": model}, collapse="modules")
    assert module_boxes(explicit) == boxes and explicit.note == ""
    every = build_scene(loss, names={"model": model}, collapse=None)
    assert not module_boxes(every) and len(every.items) > 4000 and every.note == ""


def test_collapse_depth_picks_the_level_of_nesting():
    loss, model = mlp_loss(calls=2, layers=2)
    names = {"model": model}
    outer = module_boxes(build_scene(loss, names=names, collapse="modules", collapse_depth=1))
    assert sorted(outer.values())[:2] == ["model (call 1 of 2)", "model (call 2 of 2)"]
    inner = module_boxes(build_scene(loss, names=names, collapse="modules"))  # few: the layers
    assert sorted(v for v in inner.values() if "call 1" in v) == \
        ["0: Linear (call 1 of 2)", "1: Tanh (call 1 of 2)", "2: Linear (call 1 of 2)"]


def test_expanding_one_call_draws_its_ops_in_a_frame():
    loss, model = mlp_loss(calls=3, layers=2)
    scene = build_scene(loss, names={"model": model}, collapse="modules", collapse_depth=1,
                        expand=["model#2"])
    boxes = module_boxes(scene)
    assert "model (call 2 of 3)" not in boxes.values()
    assert list(scene.groups.values()) == ["model (call 2 of 3)"]
    framed = [i for i in scene.items.values() if i.group is not None]
    assert {i.name for i in framed if i.kind == "fn"} >= {"AddmmBackward0", "TanhBackward0"}


@pytest.mark.parametrize("nodes", [5000, 20000])
def test_huge_graphs_are_cut_with_a_summary_note(nodes):
    loss = chain_loss(nodes)
    scene = build_scene(loss, names={})
    assert scene.note.startswith(f"{nodes + 1:,} nodes: showing the ")
    assert "max_nodes=None" in scene.note
    assert len(scene.items) <= AUTO_LIMIT
    more = scene.items["more"]
    assert more.lines[0].text.endswith("more nodes")


@pytest.mark.skipif(not engines.available_engines(), reason="no Graphviz engine is installed")
def test_the_note_is_in_the_picture():
    svg = viz.draw(chain_loss(5000), names={}).svg()
    assert "5,001 nodes: showing the" in svg


@pytest.mark.skipif(not engines.available_engines(), reason="no Graphviz engine is installed")
def test_collapsed_stepper_boxes_change_state_as_the_pass_goes_through():
    from viz.playback import Playback
    from viz.still import value_at

    loss, cell = rnn_loss(steps=12)
    with record(names={"cell": cell}) as rec:
        loss.backward()
    play = Playback(rec, collapse="modules")
    boxes = [i for i in play.drawing.scene.items.values() if i.kind == "module"]
    assert len(boxes) == 13
    data = play.data
    seen = {value_at(data["classes"].get(b.id, ()), rec.passes[0]["end"]) for b in boxes}
    assert seen == {"done"}
    for box in boxes:
        states = [v for _, v in data["classes"].get(box.id, ())]
        assert "running" in states or box.id.endswith("params"), box.id
    ids = list(data["classes"]) + list(data["notes"])
    sequence = data["sequences"]["node"]

    def look(event):
        return [(value_at(data["classes"].get(i, ()), event),
                 value_at(data["notes"].get(i, ()), event)) for i in ids]
    assert all(look(a) != look(b) for a, b in zip(sequence, sequence[1:]))
    members = {m for ms in play.drawing.scene.members.values() for m in ms}
    assert not members & set(data["classes"])  # only what is drawn has a timeline


def test_watching_a_training_loop_keeps_memory_flat_and_shows_module_boxes():
    import gc
    import tracemalloc

    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    x, y = torch.randn(16, 2), torch.randn(16, 1)
    cells = {"model": model, "x": x, "y": y}
    watcher = viz.watch(cells)
    used = []
    tracemalloc.start()
    try:
        for step in range(40):
            loss = ((model(x) - y) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            cells["loss"] = loss
            drawing = watcher.update()
            if step in (9, 39):
                gc.collect()
                used.append(tracemalloc.get_traced_memory()[0])
    finally:
        tracemalloc.stop()
    # A leak of each step's graph (tensors, nodes, scene) would add far more than this.
    assert used[1] - used[0] < 64 * 1024
    titles = sorted(i.lines[0].text for i in drawing.scene.items.values() if i.kind == "module")
    assert titles == ["0: Linear", "1: ReLU", "2: Linear"]


def test_a_failed_big_layout_says_how_to_draw_less(monkeypatch):
    monkeypatch.setattr(engines, "HUGE", 3)
    monkeypatch.setattr(engines, "HINT_FROM", 3)
    monkeypatch.setattr(engines, "PROGRESS_EVERY", 0.01)
    engine = engines.SystemDot()
    if not engine.available():
        pytest.skip("the system dot is not installed")
    source = viz.draw(chain_loss(10), names={}).source.replace("->", "-> -> ->", 1)
    with pytest.raises(engines.RenderError, match="max_nodes=300"):
        engine.render(source)
