"""viz/inside.py: a stepper's module-call boxes open in place (issue 16).

The pictures of the boxes' insides are laid out once per structure and shared by the calls
with that structure; the ops inside take their states from ``data["inner"]``. In Chromium, a
click on a box opens it over the box, its ops follow the frames, and a second click closes it.
"""

import pytest

import minigrad as torch
from minigrad import nn
from minigrad.autograd.graph import record


def rnn_recording(steps=12):
    torch.manual_seed(0)
    cell = nn.Linear(3, 3)
    with record() as rec:
        h = torch.zeros(1, 3)
        for _ in range(steps):
            h = torch.tanh(cell(h) + torch.randn(1, 3))
        h.sum().backward()
    return rec, cell


def playback(steps=12):
    from viz.playback import Playback
    rec, cell = rnn_recording(steps)
    return Playback(rec, names={"cell": cell}, collapse="modules")


def test_the_calls_of_one_module_share_one_layout():
    data = playback().data
    calls = {box: call for box, call in data["inside"]["calls"].items() if "call" in box}
    assert len(calls) == 12
    assert {call[0] for call in calls.values()} == {0}
    assert len(data["inside"]["pictures"]) == len(data["inside"]["orders"]) <= 2
    for index, ids, title in calls.values():
        assert len(ids) == len(data["inside"]["orders"][index])
        assert title.startswith("cell")


def test_each_call_lists_its_own_ops():
    play = playback(3)
    members = play.drawing.scene.members
    seen = set()
    for box, (_index, ids, _title) in play.data["inside"]["calls"].items():
        items = {i for i in ids if not i.startswith("e")}     # and the arrows between them
        assert items and items <= set(members[box])
        assert not seen & set(ids)
        seen |= set(ids)


def test_the_ops_inside_keep_their_timelines():
    data = playback(3).data
    nodes = [i for box, call in data["inside"]["calls"].items() if "call" in box
             for i in call[1] if i in data["inner"] and i.startswith("n")]
    assert nodes
    last = data["count"] - 1
    for nid in nodes:
        timeline = data["inner"][nid]
        assert timeline[-1][0] <= last
        assert "done" in timeline[-1][1].split()
        assert nid not in data["classes"]    # the box shows them, not the page


def test_expandable_false_leaves_the_boxes_closed():
    from viz.playback import Playback
    rec, cell = rnn_recording(3)
    data = Playback(rec, names={"cell": cell}, collapse="modules", expandable=False).data
    assert "inside" not in data and "inner" not in data


@pytest.mark.browser
def test_a_click_opens_a_box_in_place_and_its_ops_follow_the_frames(browser, tmp_path):
    from viz.export import save_html
    rec, cell = rnn_recording(4)
    path = save_html(rec, tmp_path / "rnn.html", names={"cell": cell}, collapse="modules")
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path.as_uri())
    page.wait_for_selector("body[data-frame='0']", state="attached")
    box = page.locator(".mgs-stage g.node:not(.mgs-room)[id$='-m-cell-call2']")
    box.dispatch_event("click")
    page.wait_for_selector(".mgs-inside", state="attached")
    inside = ".mgs-inside[data-for='m-cell-call2']"
    ops = page.locator(f"{inside} g.node").count()
    done_first = page.locator(f"{inside} g.node.mgs-done").count()
    page.keyboard.press("End")
    page.wait_for_function("document.body.dataset.frame !== '0'")
    done_last = page.locator(f"{inside} g.node.mgs-done").count()
    title = page.locator(f"{inside} .mgs-inside-title").text_content()
    page.locator(inside).dispatch_event("click")
    closed = page.locator(".mgs-inside").count()
    page.close()
    assert errors == []
    assert ops == 2 and done_first == 0  # AddmmBackward0 and TBackward0, not run yet
    assert done_last == ops
    assert title.startswith("cell (call 2")
    assert closed == 0
