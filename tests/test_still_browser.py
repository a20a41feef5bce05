"""Still pictures in Chromium (issue 15 item 13): a caption stays inside its picture even when
the browser's font is wider than the one the layout measured, and an error note never covers
the node it explains.

Skipped where Chromium or Playwright is missing (see tests/test_stepper_browser.py).
"""

import pytest

import minigrad
import viz
from minigrad.autograd.graph import record
from viz.playback import Playback

pytestmark = pytest.mark.browser

# A font wider than the layout's Helvetica/DejaVu Sans (0.6 em per character): what a viewer
# whose sans-serif differs from the machine that laid the picture out may see, and more.
WIDE_FONT = "svg text { font-family: 'DejaVu Sans Mono', monospace !important; }"

_BOUNDS = """(selector) => {
    const svg = document.querySelector('svg').getBoundingClientRect();
    return [...document.querySelectorAll(selector)].filter(t => t.textContent.trim())
        .map(t => { const r = t.getBoundingClientRect();
                    return [t.textContent, r.left - svg.left, svg.right - r.right]; });
}"""


def _small_recording():
    x = minigrad.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with record(names={"x": x}) as rec:
        y = x.exp().sum()
        y.backward()
    return rec, x


def _outside(page, svg, selector):
    page.set_content("<html><head><style>" + WIDE_FONT + "</style></head><body style='margin:0'>"
                     + svg[svg.index("<svg"):] + "</body></html>")
    texts = page.evaluate(_BOUNDS, selector)
    assert texts, "the caption was drawn"
    return [(text, round(left, 1), round(right, 1)) for text, left, right in texts
            if left < -0.5 or right < -0.5]


def test_the_caption_of_a_drawn_event_stays_inside_the_picture(browser):
    rec, x = _small_recording()
    page = browser.new_page()
    for event in range(len(rec)):
        svg = viz.draw(rec, event=event, names={"x": x}).svg()
        # the graph label: the text drawn straight in the graph's group, not in a box
        assert _outside(page, svg, "svg > g > text") == [], rec.caption(event)


def test_the_caption_of_a_stepper_still_stays_inside_the_picture(browser):
    rec, _ = _small_recording()
    page = browser.new_page()
    playback = Playback(rec)
    for event in range(len(rec)):
        assert _outside(page, playback.still(event), ".mgs-caption-line") == [], \
            rec.caption(event)


def _changed_in_place():
    a = minigrad.tensor([1.0, 2.0], requires_grad=True)
    b = a.exp()
    c = b * 2
    b.add_(1)
    c.sum().backward()


def _backward_twice():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward()
    y.backward()


_COVERED = """() => {
    const note = document.querySelector('.mgs-note-error rect');
    if (!note) return null;
    const n = note.getBoundingClientRect();
    return [...document.querySelectorAll('g.node')].map(g => {
        const r = g.getBoundingClientRect();
        return [g.classList.contains('mgs-error'),
                Math.min(n.right, r.right) - Math.max(n.left, r.left),
                Math.min(n.bottom, r.bottom) - Math.max(n.top, r.top)];
    }).filter(([, w, h]) => w > 0 && h > 0);
}"""


@pytest.mark.parametrize("theme", ["default", "classroom"])
@pytest.mark.parametrize("program", [_changed_in_place, _backward_twice],
                         ids=["in place", "backward twice"])
def test_an_error_note_covers_no_node(browser, program, theme):
    from viz.playback import record_target
    playback = Playback(record_target(program), theme=theme)
    assert playback.data["kinds"][-1] == "error"
    page = browser.new_page()
    svg = playback.still(playback.count - 1)
    page.set_content("<html><body>" + svg[svg.index("<svg"):] + "</body></html>")
    covered = page.evaluate(_COVERED)
    assert covered is not None, "the error frame has its note"
    # a note off an ellipse's curve may touch the corner of its bounding box, nothing more
    assert [c for c in covered if not c[0] or min(c[1], c[2]) > 4] == []
