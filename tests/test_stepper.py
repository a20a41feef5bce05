"""viz.Stepper without a browser: moving the frame changes the widget's state as the recording
says, on the graphs of the reference tutorials (tests/test_seeds.py) and a few of our own."""

import html
import json

import pytest

pytest.importorskip("anywidget")
pytest.importorskip("ipywidgets")

import test_seeds as seeds  # noqa: E402
from traitlets import TraitError  # noqa: E402

import minigrad  # noqa: E402
from minigrad.autograd.graph import record  # noqa: E402
from viz.live import LiveStepper, graph_roots, watch  # noqa: E402
from viz.stepper import Stepper  # noqa: E402

SEED_GRAPHS = [seeds.concepts_module, seeds.concepts_retain_grad, seeds.scalar_backward,
               seeds.vector_backward, seeds.graph_walk, seeds.hooks_on_tensor_and_node,
               seeds.second_backward, seeds.accumulation, seeds.custom_relu, seeds.node_api,
               seeds.basic_gradients, seeds.tips]


def running(stepper):
    return {k for k, t in stepper.playback.data["classes"].items()
            if "running" in stepper.element_state(k).split()}


@pytest.mark.parametrize("example", SEED_GRAPHS, ids=lambda f: f.__name__)
def test_every_frame_matches_the_recording(example, capsys):
    stepper = Stepper(lambda: example(minigrad), granularity="node")
    rec = stepper.recording
    assert stepper.frame_count == len(stepper.playback.data["sequences"]["node"])
    for frame in range(stepper.frame_count):
        stepper.frame = frame
        assert stepper.canvas.frame == stepper.slider.value == stepper.play.value == frame
        state = rec.state_at(stepper.event)
        assert stepper.state == state
        assert stepper.caption == rec.caption(stepper.event)
        now = running(stepper)
        assert now == ({state["node"]} if state["node"] and not state["finished"] else set())
    capsys.readouterr()


def test_buttons_move_and_stop_at_the_ends(capsys):
    stepper = Stepper(lambda: seeds.graph_walk(minigrad))
    buttons = {b.description: b for b in stepper._buttons}
    buttons["next ▶"].click()
    buttons["next ▶"].click()
    assert stepper.frame == 2
    buttons["◀ prev"].click()
    assert stepper.frame == 1
    buttons["last »"].click()
    assert stepper.frame == stepper.frame_count - 1 == stepper.slider.max
    buttons["next ▶"].click()
    assert stepper.frame == stepper.frame_count - 1
    assert stepper.state["kind"] == "backward_finished"
    buttons["« first"].click()
    assert stepper.frame == 0
    capsys.readouterr()


def test_a_frame_from_the_browser_is_seen_by_python():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    loss = (x * x).sum()
    stepper = Stepper(loss)
    seen = []
    stepper.canvas.observe(lambda change: seen.append(stepper.state["kind"]), "frame")
    stepper.canvas.set_state({"frame": 3})      # what a jslinked slider move sends
    assert stepper.frame == 3 and seen == [stepper.recording.events[3]["kind"]]


def test_granularity_switch_keeps_the_moment():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    w = minigrad.tensor([3.0, 4.0], requires_grad=True)
    loss = (x * w).sum()
    stepper = Stepper(loss)
    stepper.frame = 6
    event = stepper.event
    stepper.granularity = "node"
    assert stepper.canvas.granularity == "node"
    assert stepper.slider.max == stepper.frame_count - 1
    assert stepper.event <= event
    sequence = stepper.playback.data["sequences"]["node"]
    assert all(e > event for e in sequence[stepper.frame + 1:])
    stepper.granularity = "hooks"
    assert stepper.frame_count == 2          # start and finish: no hook in this graph


def test_tensor_target_uses_gradient_and_retain_graph():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    stepper = Stepper(y, gradient=minigrad.tensor([1.0, 0.5]), retain_graph=True)
    started = stepper.recording.events[0]
    assert started["kind"] == "backward_started" and started["retain_graph"] is True
    assert x.grad.tolist() == [3.0, 1.5]
    names = {t["name"] for t in stepper.recording.snapshot.tensors}
    assert {"x", "y"} <= names


def test_an_error_becomes_the_last_frame():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    loss = (x * x).sum()
    loss.backward()
    stepper = Stepper(loss, granularity="node")
    stepper.last()
    assert stepper.state["kind"] == "error"
    assert "second time" in stepper.caption
    node = stepper.state["error"]["node"]
    assert stepper.element_state(node) == "error"


def test_canvas_traits_are_json_and_svg_has_the_ids():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    loss = (x * x).sum()
    stepper = Stepper(loss, show_saved=True)
    state = stepper.canvas.get_state()
    json.dumps(state["frames"])
    prefix = stepper.playback.prefix
    svg = html.unescape(state["svg"])
    for item in stepper.playback.data["classes"]:
        assert f'id="{prefix}-{item}"' in svg


def test_without_widgets_the_display_is_a_picture_and_the_events():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    loss = (x * x).sum()
    stepper = Stepper(loss)
    stepper.frame = 4
    bundle = stepper._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert "<svg" in bundle["text/html"] and "mgs-running" in bundle["text/html"]
    assert stepper.recording.caption(0) in bundle["text/plain"]
    assert bundle["text/plain"].startswith("<viz.Stepper: ")


def test_live_stepper_updates_in_place_and_keeps_the_picture():
    live = LiveStepper()
    assert live.frame_count == 0 and repr(live) == "<viz.Stepper: nothing recorded yet>"
    w = minigrad.tensor([1.0, 2.0], requires_grad=True)
    x = minigrad.tensor([3.0, 4.0])
    svgs, grads = [], []
    for _ in range(3):
        with live.record():
            loss = ((w * x).sum() - 1) ** 2
            loss.backward()
        svgs.append(live.canvas.svg)
        grads.append(live.playback.data["captions"][-1])
        with minigrad.no_grad():
            w -= 0.01 * w.grad
        w.grad = None
    assert live.shown == 3 and live.frame == live.frame_count - 1
    body = [svg[svg.index(">"):] for svg in svgs]
    assert body[0] == body[1] == body[2]          # the same graph: laid out once
    assert "loss" in {t["name"] for t in live.recording.snapshot.tensors}


def test_live_stepper_every_skips_blocks():
    live = LiveStepper(every=2)
    w = minigrad.tensor([1.0], requires_grad=True)
    for _ in range(4):
        with live.record():
            (w * 2).sum().backward()
    assert live.blocks == 4 and live.shown == 2


def test_live_stepper_shows_an_error_and_lets_it_through():
    live = LiveStepper()
    x = minigrad.tensor([1.0], requires_grad=True)
    loss = (x * x).sum()
    loss.backward()
    with pytest.raises(RuntimeError), live.record():
        loss.backward()
    live.last()
    assert live.state["kind"] == "error"


def test_watch_draws_the_outputs_of_a_namespace():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    namespace = {"x": x, "y": y}
    assert list(graph_roots(namespace)) == ["y"]
    watcher = watch(namespace)
    first = watcher.update()
    assert first is not None and first.scene.view == "forward"
    namespace["z"] = (y * y).sum()
    second = watcher.update()
    assert second is not first and list(graph_roots(namespace)) == ["z"]
    assert watcher.update() is second              # nothing new: no redraw


def test_bad_targets_and_options_are_refused():
    with pytest.raises(TypeError, match="cannot step through"):
        Stepper(42)
    x = minigrad.tensor([1.0], requires_grad=True)
    with pytest.raises(ValueError, match="theme"):
        Stepper((x * 2).sum(), theme="neon")
    with record() as rec:
        (x * 2).sum().backward()
    stepper = Stepper(rec)
    with pytest.raises(TraitError):
        stepper.granularity = "sometimes"


def _note_rects(playback, event):
    from viz.still import _box, note_size, value_at
    data, rects = playback.data, []
    for key, timeline in data["notes"].items():
        note = value_at(timeline, event)
        if note and key in data["places"]:
            x, y, side = data["places"][key][:3]
            rects.append((key, _box((x, y), side, *note_size(note))))
    return rects


@pytest.mark.parametrize("example", SEED_GRAPHS, ids=lambda f: f.__name__)
def test_notes_shown_together_do_not_cover_each_other_or_labels(example, capsys):
    """The "running, got …" note must not sit on an arrow's label ("grad_fn" cut to "rad_fn")
    or on another note: at every event, visible notes are clear of each other, and at most one
    note in a graph touches a box or an arrow label. (A note lies in the room the layout made
    for it, ``room-<id>``, and an arrow's note over its own slot label, which is hidden while the
    note is shown.)"""
    from viz.still import _overlap
    stepper = Stepper(lambda: example(minigrad))
    playback = stepper.playback
    covered = set()
    for event in range(playback.count):
        rects = _note_rects(playback, event)
        for k, (a, box_a) in enumerate(rects):
            for b, box_b in rects[k + 1:]:
                assert _overlap(box_a, box_b) <= 4, (event, a, b)
            covered.update((a, key) for key, box in playback.boxes.items()
                           if box[2] > 0 and key not in (a, "room-" + a, a + ":label")
                           and _overlap(box_a, box) > 4)
    assert len(covered) <= 1, covered
    capsys.readouterr()


def _ellipse_hemmed_in():
    """An ellipse whose four sides are taken by other boxes: its note must go to a corner."""
    boxes = {"n1": [0.0, 0.0, 100.0, 40.0, "ellipse"],
             "r": [105.0, 10.0, 60.0, 20.0], "l": [-65.0, 10.0, 60.0, 20.0],
             "t": [30.0, -25.0, 40.0, 20.0], "b": [30.0, 45.0, 40.0, 20.0]}
    return boxes, {"n1": [[0, "state\twaits for 1 grad"]]}


def test_a_corner_note_hugs_the_ellipse_and_has_a_leader():
    from viz.still import _box, _overlap, leader, note_size, place_notes
    boxes, notes = _ellipse_hemmed_in()
    place = place_notes(boxes, notes)["n1"]
    assert place[2] in ("ne", "se", "nw", "sw") and len(place) == 5
    px, py = place[3], place[4]
    assert abs(((px - 50) / 50) ** 2 + ((py - 20) / 20) ** 2 - 1) < 0.02   # on the curve
    width, height = note_size(notes["n1"][0][1])
    rect = _box(place[:2], place[2], width, height)
    assert all(_overlap(rect, boxes[k]) == 0 for k in "rltb")
    x1, y1, x2, y2 = leader(place, width, height)
    assert (x1, y1) == (px, py)
    assert rect[0] <= x2 <= rect[0] + rect[2] and rect[1] <= y2 <= rect[1] + rect[3]
    assert 2 < ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5 < 10   # adjacent: a short leader


def test_a_note_beside_its_box_has_no_leader():
    from viz.still import leader, place_notes
    place = place_notes({"n1": [0.0, 0.0, 100.0, 40.0, "ellipse"]},
                        {"n1": [[0, "state\twaits for 1 grad"]]})["n1"]
    assert place[2] == "r" and len(place) == 3 and leader(place, 50, 18) is None


def test_a_saved_frame_draws_the_leader_of_a_corner_note():
    from viz.still import frame_svg, note_svg
    boxes, notes = _ellipse_hemmed_in()
    from viz.still import place_notes
    place = place_notes(boxes, notes)["n1"]
    note = note_svg("state\twaits for <1> grad", place)
    assert note.count('class="mgs-leader"') == 2 and "waits for &lt;1&gt; grad" in note
    assert note.index("mgs-leader") < note.index("<rect")         # under the note's box
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="100pt" height="50pt" '
           'viewBox="0.00 0.00 100.00 50.00"><g id="p" class="graph" '
           'transform="scale(1 1) rotate(0) translate(4 46)"><g id="p&#45;n1" class="node">'
           '<ellipse cx="50" cy="20" rx="50" ry="20"/></g></g></svg>')
    data = {"classes": {}, "notes": notes, "captions": ["c"], "count": 1}
    assert "mgs-leader" in frame_svg(svg, "p", data, 0, {"n1": place})


def test_a_function_that_raises_still_names_its_tensors():
    def twice():
        x = minigrad.tensor([1.0, 2.0], requires_grad=True)
        loss = (x * x).sum()
        loss.backward()
        loss.backward()          # raises: the error frame still says "x", not "t47"
    stepper = Stepper(twice, granularity="node")
    stepper.last()
    assert stepper.state["kind"] == "error"
    names = {t["name"] for t in stepper.recording.snapshot.tensors}
    assert {"x", "loss"} <= names


def _leaf_and_saved_titles(stepper):
    """The leaf boxes, the ``.grad`` arrows into them and the saved slots' titles, by name."""
    scene = stepper.playback.drawing.scene
    leaves = sorted(i.name for i in scene.items.values() if i.kind == "leaf")
    grads = sorted(scene.items[k.target].name for k in scene.links if k.kind == "variable")
    saved = sorted(i.title for i in scene.items.values() if i.kind == "saved")
    return leaves, grads, saved


def test_a_recorded_block_draws_leaves_and_saved_names_as_the_loss_based_stepper():
    # Issue 15 item 6: in a record() block whose temporaries die before it ends, every node is
    # a ghost; the leaves and the tensors the nodes saved were dropped ("a tensor").
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    w = minigrad.tensor([3.0, 4.0], requires_grad=True)
    with record(names={"x": x, "w": w}) as rec:
        (x * w ** 2).sum().backward()
    recorded = Stepper(rec, show_saved=True)
    x.grad = w.grad = None
    loss = (x * w ** 2).sum()
    from_loss = Stepper(loss, show_saved=True, names={"x": x, "w": w, "loss": loss})
    leaves, grads, saved = _leaf_and_saved_titles(recorded)
    assert leaves == grads == ["w", "x"]
    assert (leaves, grads, saved) == _leaf_and_saved_titles(from_loss)
    assert "MulBackward0: saved self = x" in saved and "PowBackward0: saved self = w" in saved
    # and at the end of the pass the drawn leaves hold their .grad, sent along the arrows
    recorded.last()
    scene = recorded.playback.drawing.scene
    assert [recorded.element_state(i) for i, item in scene.items.items()
            if item.kind == "leaf"] == ["hasgrad", "hasgrad"]
    assert [recorded.element_state(k.id) for k in scene.links
            if k.kind == "variable"] == ["sent", "sent"]


def _fan_in_retained_released():
    """A fan-in (x is used twice), a retained non-leaf, saved tensors released, .grad written
    (the tensors outlive the program, so that the stepper draws them)."""
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    h = x * x
    h.retain_grad()

    def program():
        (h * x).sum().backward()
        return {"x": x, "h": h}
    return program


def test_the_key_lists_the_states_the_frames_show():
    # Issue 15 item 15: the key lacked fan-in, .grad written, retained and released; it now
    # lists what this stepper's frames contain, and only that.
    full = Stepper(_fan_in_retained_released(), show_saved=True).playback.data["key"]
    classes = [cls for cls, _ in full]
    for cls in ("running", "waiting", "done", "flow", "summing", "gradnew", "retained",
                "released"):
        assert cls in classes, cls
    assert "hook" not in classes and "error" not in classes   # none fires, nothing fails
    texts = dict(full)
    assert "fan-in" in texts["summing"] and ".grad" in texts["gradnew"]
    assert "retain_grad" in texts["retained"] and "released" in texts["released"]

    w = minigrad.tensor([1.0, 2.0], requires_grad=True)

    def plain():   # AddBackward0 and SumBackward0 save nothing
        (w + 1).sum().backward()
    simple = [cls for cls, _ in Stepper(plain).playback.data["key"]]
    assert "summing" not in simple and "retained" not in simple and "released" not in simple
    assert "gradnew" in simple and "running" in simple
