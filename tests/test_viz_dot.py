"""DOT-level tests of viz: kinds → shapes, classes and ids; edge order; constants; hooks; saved
tensors; views; collapse and max_nodes; recording states. No Graphviz binary is needed."""

import re

import pytest

import minigrad
import viz
from viz.examples import GraphBuilder, chain, exp_add, mul_sum, two_layer_mlp

_QUOTED = r'"(?:[^"\\]|\\.)*"'
_STMT = re.compile(rf"^\s*({_QUOTED})(?:\s*->\s*({_QUOTED}))?\s*\[(.*)\];$")
_ATTR = re.compile(rf"(\w+)=({_QUOTED}|<.*>)")


def parse(dot):
    """Node and edge statements of ``dot`` as dicts: name, tail/head, attrs (unquoted)."""
    nodes, edges = {}, []
    for line in dot.splitlines():
        match = _STMT.match(line)
        if not match:
            continue
        attrs = {k: v[1:-1] if v.startswith('"') else v for k, v in _ATTR.findall(match[3])}
        if match[2]:
            edges.append({"tail": match[1], "head": match[2], **attrs})
        else:
            nodes[attrs["id"]] = {"name": match[1], **attrs}
    return nodes, edges


def dot_of(obj, **options):
    options.setdefault("id_prefix", "p")
    return parse(viz.to_dot(obj, names={}, **options))


def test_every_kind_has_its_shape_class_and_id():
    nodes, _ = dot_of(exp_add())
    expected = {
        "p-t1": ("box", "mg-tensor mg-leaf mg-hooked"),
        "p-t3": ("box", "mg-tensor mg-nonleaf"),
        "p-t4": ("box", "mg-tensor mg-retained"),
        "p-t6": ("box", "mg-tensor mg-nonleaf mg-root"),
        "p-c1": ("box", "mg-tensor mg-constant mg-stub"),
        "p-n1": ("ellipse", "mg-node mg-fn"),
        "p-n4": ("ellipse", "mg-node mg-acc"),
    }
    for element_id, (shape, classes) in expected.items():
        assert nodes[element_id]["shape"] == shape
        assert nodes[element_id]["class"] == classes
    assert nodes["p-n4"]["peripheries"] == "2"
    assert "dashed" in nodes["p-c1"]["style"]
    assert "rounded" in nodes["p-t3"]["style"] and "rounded" not in nodes["p-t1"]["style"]
    assert float(nodes["p-t6"]["penwidth"]) > float(nodes["p-t3"]["penwidth"])


def test_kind_is_written_in_words_too():
    nodes, _ = dot_of(exp_add())
    assert "leaf, requires grad" in nodes["p-t1"]["label"]
    assert "non-leaf, retains grad" in nodes["p-t4"]["label"]
    assert "output, non-leaf" in nodes["p-t6"]["label"]
    assert "(None, 0)" in nodes["p-c1"]["label"]
    assert "MulBackward0" in nodes["p-n1"]["label"]
    assert "into A.grad" in nodes["p-n4"]["label"]


def test_titles_say_what_each_element_is_and_end_with_the_id():
    nodes, _ = dot_of(exp_add())
    assert nodes["p-t1"]["name"] == '"A: leaf, requires grad tensor (2,) [t1]"'
    assert nodes["p-n1"]["name"] == '"MulBackward0 (Function node n1) [n1]"'
    assert "AccumulateGrad" in nodes["p-n4"]["name"]


def test_edges_follow_next_functions_order_with_positions():
    snap = mul_sum()
    mul_edges = [e for e in snap["edges"] if e["source"] == "n1" and e["kind"] == "next"]
    snap["edges"] = [e for e in snap["edges"] if e not in mul_edges] + mul_edges[::-1]
    _, edges = dot_of(snap)
    from_mul = [e for e in edges if e["class"] == "mg-edge mg-next" and "[n1]" in e["tail"]]
    in_order = sorted(mul_edges, key=lambda e: e["position"])
    assert [e["id"] for e in from_mul] == ["p-" + e["id"] for e in in_order]
    assert [e["label"].strip() for e in from_mul] == ["0", "1"]


def test_edge_kinds_and_directions():
    _, edges = dot_of(exp_add())
    by_id = {e["id"]: e for e in edges}
    assert by_id["p-e5"]["class"] == "mg-edge mg-constant"
    assert by_id["p-e5"]["arrowhead"] == "tee" and by_id["p-e5"]["style"] == "dotted"
    assert by_id["p-e7"]["class"] == "mg-edge mg-variable"
    assert "[n4]" in by_id["p-e7"]["tail"] and "[t1]" in by_id["p-e7"]["head"]
    grad_fn = by_id["p-e3"]
    assert grad_fn["class"] == "mg-edge mg-gradfn" and "[t6]" in grad_fn["tail"]


def test_constant_stub_without_its_tensor():
    b = GraphBuilder()
    node = b.node("MulBackward0")
    b.next(node, [("const", None)])
    out = b.tensor("y", [2], "nonleaf", grad_fn=node)
    b.root(out)
    nodes, edges = dot_of(b.to_dict())
    assert nodes["p-c1"]["class"] == "mg-tensor mg-constant mg-stub"
    assert "constant" in nodes["p-c1"]["label"]
    assert any(e["class"] == "mg-edge mg-constant" for e in edges)
    # said once, in words a student reads: not "constant / constant: (None, 0)"
    assert nodes["p-c1"]["label"].count("constant") == 1
    assert "(None, 0): no gradient" in nodes["p-c1"]["label"]
    nodes, _ = dot_of(b.to_dict(), view="forward")
    assert "constant, no grad" in nodes["p-c1"]["label"] and "None, 0" not in nodes["p-c1"]["label"]


def test_a_tensor_hook_is_drawn_once_on_its_tensor_or_on_the_node_when_it_is_gone():
    b = GraphBuilder()
    x = b.tensor("x", [2])
    node = b.node("MulBackward0")
    b.next(node, [b.accumulate(x)])
    b.nodes[0]["tensor_hooks"] = [{"index": 0, "name": "double"}]
    h = b.tensor("h", [2], "nonleaf", grad_fn=node, hooks=["double"])
    b.root(h)
    nodes, _ = dot_of(b.to_dict())
    assert "1 hook: double" in nodes["p-t2"]["label"]
    assert "double" not in nodes["p-n1"]["label"] and "mg-hooked" not in nodes["p-n1"]["class"]
    gone = b.to_dict()
    gone["tensors"] = [t for t in gone["tensors"] if t["id"] != h]
    gone["edges"] = [e for e in gone["edges"] if e["kind"] != "output"]
    gone["roots"] = []
    nodes, _ = dot_of(gone)
    assert "1 tensor hook: double" in nodes["p-n1"]["label"]


def test_nodes_of_one_class_without_outputs_show_their_label_number():
    b = GraphBuilder()
    first, second = b.node("SumBackward0"), b.node("SumBackward0")
    b.nodes[0]["label"], b.nodes[1]["label"] = "SumBackward0 #1", "SumBackward0 #2"
    third = b.node("MulBackward0")
    b.nodes[2]["label"] = "MulBackward0 (h)"
    b.next(first, [third])
    b.next(second, [third])
    nodes, _ = dot_of(b.to_dict())
    assert ">#1<" in nodes["p-n1"]["label"] and ">#2<" in nodes["p-n2"]["label"]
    assert "(h)" not in nodes["p-n3"]["label"]  # the arrow from h marks that one


def test_hooks_are_badges_with_counts():
    snap = exp_add()
    snap["nodes"][0]["pre_hooks"] = ["check"]
    snap["nodes"][0]["post_hooks"] = ["log", "scale"]
    nodes, _ = dot_of(snap)
    assert "1 hook: print_grad" in nodes["p-t1"]["label"]
    assert "1 pre-hook: check" in nodes["p-n1"]["label"]
    assert "2 hooks: log, scale" in nodes["p-n1"]["label"]
    assert "mg-hooked" in nodes["p-n1"]["class"]


def test_saved_tensors_only_on_request_and_released_ones_marked():
    nodes, _ = dot_of(mul_sum())
    assert not any("mg-saved" in n["class"] for n in nodes.values())
    nodes, edges = dot_of(mul_sum(backward_done=True), show_saved=True)
    saved = nodes["p-n1-s0"]
    assert saved["shape"] == "note" and saved["class"] == "mg-saved mg-released"
    assert "released" in saved["label"] and "dashed" in saved["style"]
    assert any(e["id"] == "p-n1-s0-e" and e["class"] == "mg-edge mg-saved" for e in edges)
    nodes, _ = dot_of(exp_add(), show_saved=True)
    assert nodes["p-n1-s0"]["class"] == "mg-saved"


def test_values_and_grads_on_request():
    nodes, _ = dot_of(mul_sum(backward_done=True))
    assert "data" not in nodes["p-t1"]["label"]
    nodes, _ = dot_of(mul_sum(backward_done=True), values=True, grads=True)
    assert "data [1, 2, 3]" in nodes["p-t1"]["label"]
    assert "grad [4, 5, 6]" in nodes["p-t1"]["label"]


def test_big_values_are_summarised():
    snap = mul_sum()
    snap["tensors"][0]["value"] = {"shape": [256, 1024], "dtype": "float32",
                                   "summary": {"min": -3.1, "max": 2.9, "mean": 0.01,
                                               "norm": 511.7}}
    nodes, _ = dot_of(snap, values=True)
    assert "min -3.1" in nodes["p-t1"]["label"] and "norm 511.7" in nodes["p-t1"]["label"]


def test_forward_view_has_tensors_ops_and_values():
    nodes, edges = dot_of(exp_add(), view="forward")
    assert nodes["p-n1"]["class"] == "mg-node mg-op mg-fn"
    assert "<B>*</B>" in nodes["p-n1"]["label"]
    assert "data [0.5, 1]" in nodes["p-t1"]["label"]
    assert not any("mg-acc" in n["class"] for n in nodes.values())
    assert any(e["class"] == "mg-edge mg-input" and "[t1]" in e["tail"] for e in edges)
    assert any(e["class"] == "mg-edge mg-output" and "[t6]" in e["head"] for e in edges)
    assert "rankdir=LR" in viz.to_dot(exp_add(), view="forward", names={})
    # a non-leaf keeps no grad (micrograd would show one): said, not left out silently
    assert "grad not kept" in nodes["p-t3"]["label"]
    assert "grad not kept" not in nodes["p-t4"]["label"]  # D retains its grad
    assert "grad not kept" not in dot_of(exp_add())[0]["p-t3"]["label"]


def test_forward_view_stands_in_for_outputs_no_variable_holds():
    nodes, _ = dot_of(two_layer_mlp(), view="forward")
    temps = [n for n in nodes.values() if "mg-temp" in n["class"]]
    assert temps and all("not kept" in t["label"] for t in temps)


def test_ids_are_prefixed_and_prefixes_differ_between_drawings():
    text = viz.to_dot(exp_add(), names={}, id_prefix="abc")
    ids = re.findall(r'\bid="([^"]+)"', text)
    assert ids and all(i == "abc" or i.startswith("abc-") for i in ids)
    first, second = viz.draw(exp_add()), viz.draw(exp_add())
    assert first.prefix != second.prefix
    with pytest.raises(ValueError):
        viz.to_dot(exp_add(), id_prefix='x" onload="')


def test_highlight_by_name_id_and_node_name():
    nodes, _ = dot_of(exp_add(), highlight=["A", "n3", "ExpBackward0"])
    for element_id in ("p-t1", "p-n3", "p-n2"):
        assert "mg-highlight" in nodes[element_id]["class"]
        assert float(nodes[element_id]["penwidth"]) >= 4
    assert "mg-highlight" not in nodes["p-t2"]["class"]


def test_mono_theme_uses_no_colour():
    text = viz.to_dot(exp_add(), theme="mono", show_saved=True, highlight=["A"], names={})
    for colour in re.findall(r"#([0-9a-fA-F]{6})", text):
        assert colour[0:2] == colour[2:4] == colour[4:6], colour


def test_collapse_modules_draws_one_box_per_module():
    nodes, edges = dot_of(two_layer_mlp(), collapse="modules")
    boxes = {i: n for i, n in nodes.items() if "mg-module" in n["class"]}
    assert sorted(boxes) == ["p-m-fc1", "p-m-fc2"]
    assert all(n["shape"] == "box3d" for n in boxes.values())
    assert "params: weight, bias" in boxes["p-m-fc1"]["label"]
    assert not any("fc1.weight" in n["label"] for n in nodes.values())
    assert any("[m-fc1]" in e["head"] for e in edges)


def test_collapse_expands_by_name_and_guesses_modules_from_parameter_names():
    nodes, _ = dot_of(two_layer_mlp(), collapse="modules", expand=["fc2"])
    assert "p-m-fc1" in nodes and "p-m-fc2" not in nodes
    text = viz.to_dot(two_layer_mlp(), collapse="modules", expand=["fc2"], names={})
    assert "subgraph cluster_" in text
    snap = two_layer_mlp()
    for item in snap["nodes"] + snap["tensors"]:
        item.pop("module", None)
    nodes, _ = dot_of(snap, collapse="modules")
    assert {"p-m-fc1", "p-m-fc2"} <= set(nodes)


def test_max_nodes_leaves_a_visible_marker():
    snap = chain(60)
    nodes, edges = dot_of(snap, max_nodes=20)
    marker = nodes.pop("p-more")
    assert len(nodes) == 20
    hidden = int(re.search(r"(\d+) more nodes", marker["label"])[1])
    assert hidden == len(dot_of(snap)[0]) - 20
    assert marker["class"] == "mg-more" and "dashed" in marker["style"]
    assert any("[more]" in (e["head"] + e["tail"]) for e in edges)


def test_legend_is_added_as_its_own_cluster():
    text = viz.to_dot(mul_sum(), legend=True, names={}, id_prefix="p")
    nodes, _ = parse(text)
    legend = [n for n in nodes.values() if "mg-legend" in n["class"]]
    picture = [n for n in nodes.values() if "mg-legend" not in n["class"]]
    kinds = {n["class"].split()[1] for n in legend}
    # the legend explains what the picture holds, and nothing else
    assert kinds == {n["class"].split()[1] for n in picture}
    assert "gradients flow" in text


def test_legend_follows_the_view():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    h = x * 2
    h.retain_grad()
    y = (h + 1).sum()
    names = {"x": x, "h": h, "y": y}
    for view, banned in (("forward", {"mg-fn", "mg-acc", "mg-saved", "mg-stub"}),
                         ("backward", {"mg-op", "mg-temp"})):
        text = viz.to_dot(y, legend=True, names=names, id_prefix="p", view=view)
        nodes, edges = parse(text)
        legend = [n for n in nodes.values() if "mg-legend" in n["class"]]
        classes = {n["class"].split()[1] for n in legend}
        assert legend and not classes & banned, (view, classes)
        # sample names never collide with the student's names
        labels = " ".join(n.get("label", "") for n in legend)
        assert not re.search(r"\b(x|h|y|loss|c)\b", re.sub(r"<[^>]*>", " ", labels)), labels
    forward = viz.to_dot(y, legend=True, names=names, id_prefix="p", view="forward")
    assert "grad_fn" not in " ".join(e.get("label", "") for e in parse(forward)[1]
                                     if "legend" in (e["head"] + e["tail"]))


class FakeRecording:
    """A stand-in with the Recording API that draw() uses: ``snapshot`` and ``state_at``."""

    def __init__(self, snap, state):
        self.snapshot, self.state = snap, state

    def state_at(self, i):
        return dict(self.state, i=i)


def test_recording_state_marks_ran_current_pending_ready_and_released():
    state = {"node": "n1", "ran": ["n2"], "pending": {"n3": 1}, "ready": ["n4"],
             "grads": {"t1": {"shape": [3], "dtype": "float32", "data": [4.0, 5.0, 6.0]}},
             "released": {"n1": ["self"]}, "caption": "MulBackward0 runs", "error": None}
    rec = FakeRecording(mul_sum(), state)
    text = viz.to_dot(rec, event=3, show_saved=True, grads=True, names={}, id_prefix="p")
    nodes, _ = parse(text)
    assert "mg-current" in nodes["p-n1"]["class"] and "running" in nodes["p-n1"]["label"]
    assert "mg-ran" in nodes["p-n2"]["class"]
    assert "waits for 1 grad" in nodes["p-n3"]["label"]
    assert "ready #1" in nodes["p-n4"]["label"]
    assert "mg-released" in nodes["p-n1-s0"]["class"]
    assert "mg-released" not in nodes["p-n1-s1"]["class"]
    assert "grad [4, 5, 6]" in nodes["p-t1"]["label"]
    # the caption: left-aligned lines in a cell wide enough for a wide font (issue 15 item 13)
    assert re.search(r'graph \[label=<<TABLE[^\n]*<TD ALIGN="LEFT" BALIGN="LEFT" WIDTH="\d+">'
                     r'MulBackward0 runs</TD>[^\n]*labelloc=b labeljust=l\]', text)


def test_plain_labels_for_engines_without_html_labels():
    from viz.compose import build_scene
    from viz.dot import write_dot
    text = write_dot(build_scene(exp_add()), "p", html=False)
    nodes, _ = parse(text)
    assert nodes["p-t1"]["label"] == "A\\n(2,)\\nleaf, requires grad\\n[1 hook: print_grad]"


def test_bad_arguments_say_what_is_wrong():
    with pytest.raises(ValueError, match="view"):
        viz.draw(exp_add(), view="sideways")
    with pytest.raises(ValueError, match="theme"):
        viz.to_dot(exp_add(), theme="neon")
    with pytest.raises(TypeError, match="cannot draw"):
        viz.draw(42)
    for prefix in ('"><script>', "x" * 100_000):
        with pytest.raises(ValueError, match="id_prefix must be") as caught:
            viz.to_dot(exp_add(), id_prefix=prefix, names={})
        assert len(str(caught.value)) < 200


def test_real_snapshot_of_the_classic_graph():
    torch = pytest.importorskip("minigrad")
    a = torch.tensor([0.5, 1.0], requires_grad=True)
    b = torch.tensor([2.0, -1.0], requires_grad=True)
    e = torch.tensor([1.0, 1.0])
    d = (a * b).exp()
    d.retain_grad()
    f = d + e
    nodes, edges = parse(viz.to_dot(f, id_prefix="p"))
    names = {n["class"]: n for n in nodes.values()}
    assert "mg-tensor mg-retained" in names and "mg-tensor mg-constant mg-stub" in names
    labels = " ".join(n["label"] for n in nodes.values())
    for word in ("AddBackward0", "ExpBackward0", "MulBackward0", "AccumulateGrad", ">a<",
                 ">b<", ">d<", ">e<", ">f<"):
        assert word in labels
    assert len([e for e in edges if e["class"] == "mg-edge mg-variable"]) == 2


def test_shared_parameters_in_big_graphs_get_a_reference_per_use():
    snap = chain(150, width=2)
    nodes, edges = dot_of(snap)
    refs = [i for i, n in nodes.items() if n["class"] == "mg-node mg-ref"]
    assert refs and all(re.fullmatch(r"p-n\d+-r\d+", i) for i in refs)
    assert all("shared: use" in nodes[i]["label"] for i in refs)
    accs = [n for n in nodes.values() if n["class"] == "mg-node mg-acc"]
    assert len(accs) == 2  # each AccumulateGrad is still drawn once
    small, _ = dot_of(chain(12, width=2))
    assert not any("mg-ref" in n["class"] for n in small.values())


def test_shared_parameter_counters_agree_within_one_layer_call():
    # Issue 15 item 9: "bias use 1 of 30" beside "weight use 30 of 30" for the same call.
    from minigrad import nn
    from viz.compose import build_scene
    minigrad.manual_seed(0)
    cell = nn.Linear(3, 3)
    h = minigrad.zeros(1, 3)
    for _ in range(30):
        h = minigrad.tanh(cell(h))
    scene = build_scene(h.sum(), collapse=None, names={"cell": cell})
    targets = {}
    for link in scene.links:
        targets.setdefault(link.source, []).append(link.target)

    def uses(item_id):  # the "use k of n" numbers reached from a node, through TBackward0
        found = []
        for target in targets.get(item_id, ()):
            item = scene.items[target]
            if item.kind == "ref":
                found.append(re.match(r"use (\d+) of (\d+) of (\S+):", item.title).groups())
            elif item.name == "TBackward0":
                found += uses(target)
        return sorted(found, key=lambda use: use[2])

    calls = [uses(i) for i, item in scene.items.items() if item.name == "AddmmBackward0"]
    assert len(calls) == 30
    for (k_bias, n_bias, bias), (k_weight, n_weight, weight) in calls:
        assert (bias, weight) == ("cell.bias", "cell.weight")
        assert (k_bias, n_bias) == (k_weight, n_weight)
    # numbered in the order the calls were made: the last call (next to the output) is 30
    assert calls[0][0][:2] == ("30", "30")


def _mlp_loss():
    from minigrad import nn
    minigrad.manual_seed(0)
    model = nn.Sequential(nn.Linear(2, 4), nn.Tanh(), nn.Linear(4, 4), nn.Tanh(),
                          nn.Linear(4, 1))
    x, y = minigrad.randn(5, 2), minigrad.randn(5, 1)
    loss = ((model(x) - y) ** 2).mean() + (model[0].weight ** 2).sum()
    return model, loss


def _numbers(scene):
    """{node id: "#k"} for every node or op box that carries a number."""
    found = {}
    for item_id, item in scene.items.items():
        if item.kind in ("fn", "op"):
            tags = [m for line in item.lines for m in re.findall(r"#\d+", line.text)]
            assert len(tags) <= 1, item.lines
            found[item_id] = tags[0] if tags else None
    return found


def test_nodes_are_numbered_once_in_creation_order_in_every_view():
    # Issue 15 item 8: AddmmBackward0 unnumbered, then #3 after backward; PowBackward0, #2, #3
    # with no #1; transposed1 attached to the unnumbered TBackward0.
    from viz.data import load
    from viz.playback import Playback, record_target
    model, loss = _mlp_loss()
    names = {"model": model, "loss": loss}
    snap, _ = load(loss, names=names)
    nodes = {n["id"]: n for n in snap["nodes"] if n["kind"] == "function"}
    by_class = {}
    for nid, node in sorted(nodes.items(), key=lambda kv: kv[1]["sequence_nr"]):
        by_class.setdefault(node["name"], []).append(nid)
    expected = {nid: (f"#{k}" if len(ids) > 1 else None)
                for ids in by_class.values() for k, nid in enumerate(ids, 1)}
    assert {len(by_class[c]) for c in ("AddmmBackward0", "TBackward0", "PowBackward0")} == {3, 2}
    views = {"still": viz.draw(loss, names=names).scene,
             "forward": viz.draw(loss, view="forward", names=names).scene}
    playback = Playback(record_target(loss, retain_graph=True, names=names))
    views["stepper"] = playback.drawing.scene
    views["still after backward"] = viz.draw(loss, names=names).scene
    for view, scene in views.items():
        assert _numbers(scene) == {k: v for k, v in expected.items() if k in scene.items}, view
    # the captions call each node by the same number
    for nid, tag in expected.items():
        said = [c for c in playback.data["captions"] if f"{nodes[nid]['name']} #" in c
                and f"{nodes[nid]['name']} {tag}" in c]
        assert tag is None or said, (nid, tag)
    # an unnamed output numbered k is the output of its class's node #k
    for tensor in load(loss, names=names)[0]["tensors"]:
        number = re.fullmatch(r"transposed(\d+)", tensor["name"])
        if number:
            assert expected[tensor["grad_fn"]] == f"#{number.group(1)}"


def test_several_tensors_and_live_tensors_to_highlight():
    torch = pytest.importorskip("minigrad")
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    a, b = x * 2, x.exp()
    nodes, _ = parse(viz.to_dot([a, b], highlight=[x], id_prefix="p"))
    roots = [n for n in nodes.values() if "mg-root" in n["class"]]
    assert len(roots) == 2
    leaf = next(n for n in nodes.values() if "mg-leaf" in n["class"])
    assert "mg-highlight" in leaf["class"] and ">x<" in leaf["label"]


def test_names_come_from_the_calling_function():
    torch = pytest.importorskip("minigrad")

    def build():
        weight = torch.tensor([3.0], requires_grad=True)
        product = weight * 2
        return viz.to_dot(product)

    text = build()
    assert "<B>weight</B>" in text and "<B>product</B>" in text


def test_collapse_uses_the_module_calls_of_a_recording():
    snap = two_layer_mlp()
    for item in snap["nodes"] + snap["tensors"]:
        item.pop("module", None)
    by_name = {}
    for node in snap["nodes"]:
        by_name.setdefault(node["name"], []).append(node["id"])
    events = [{"kind": "module_call", "name": "Net", "module": "Net", "phase": "enter"}]
    for k, layer in enumerate(("fc1", "fc2")):
        events.append({"kind": "module_call", "name": layer, "module": "Linear",
                       "phase": "enter"})
        for op in ("TBackward0", "MmBackward0", "AddBackward0"):
            events.append({"kind": "node_created", "node": by_name[op][k]})
        events.append({"kind": "module_call", "name": layer, "module": "Linear",
                       "phase": "exit"})
    events.append({"kind": "node_created", "node": by_name["ReluBackward0"][0]})
    events.append({"kind": "module_call", "name": "Net", "module": "Net", "phase": "exit"})
    rec = FakeRecording(snap, {})
    rec.events = events
    nodes, _ = parse(viz.to_dot(rec, collapse="modules", names={}, id_prefix="p"))
    assert "fc1 (Linear)" in nodes["p-m-fc1"]["label"] and "p-m-Net" not in nodes
    assert "params: weight, bias" in nodes["p-m-fc2"]["label"]
    assert any("ReluBackward0" in n["label"] for n in nodes.values())


def test_scalar_operands_are_shown_on_their_nodes():
    """Every ``**`` showed the same node; now its exponent is on it (and on the forward
    view's op), as are MulBackward1's factor and an add's alpha other than 1."""
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    names = {"x": x}
    for view in ("backward", "forward"):
        assert "exponent 3" in viz.to_dot((x ** 3).sum(), names=names, view=view)
        assert "exponent 2" not in viz.to_dot((x ** 3).sum(), names=names, view=view)
    assert "alpha = 2" in viz.to_dot(minigrad.add(x, x, alpha=2).sum(), names=names)
    assert "alpha = 1" not in viz.to_dot((x + x).sum(), names=names)
