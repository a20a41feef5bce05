"""Issue 15's measurements in Chromium: on five teaching programs, the stepper's frames keep
every note clear of every other note, of every label and of every arrow; the first frame at
1280×800 shows the whole graph or a readable view with the output in it; the classroom theme's
graph text is at least 1.5 times the default's; the keys work from any control; the states stay
apart without colour (simulated deuteranopia and protanopia).

Skipped where Chromium or Playwright is missing (see tests/test_stepper_browser.py).
"""

import pytest

pytestmark = pytest.mark.browser


# ----------------------------------------------------------------- the programs
def scalar_graph():
    import minigrad as torch
    a = torch.tensor(2.0, requires_grad=True)
    b = torch.tensor(-3.0, requires_grad=True)
    c = a * b
    c.retain_grad()
    c.register_hook(lambda g: g)
    d = c + 10.0
    return d * d


def neuron():
    import minigrad as torch
    x1, x2 = torch.tensor(2.0, requires_grad=True), torch.tensor(0.0, requires_grad=True)
    w1, w2 = torch.tensor(-3.0, requires_grad=True), torch.tensor(1.0, requires_grad=True)
    b = torch.tensor(6.8813735870195432, requires_grad=True)
    n = x1 * w1 + x2 * w2 + b
    return n.tanh()


def mlp():
    import minigrad as torch
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(2, 16), torch.nn.Tanh(), torch.nn.Linear(16, 16),
                              torch.nn.Tanh(), torch.nn.Linear(16, 1))
    x, y = torch.randn(8, 2), torch.randn(8, 1)
    return torch.nn.functional.mse_loss(net(x), y)


def second_order():
    import minigrad as torch
    x = torch.tensor(1.5, requires_grad=True)
    y = x ** 3
    (g,) = torch.autograd.grad(y, x, create_graph=True)
    return g * x


def rnn():
    import minigrad as torch
    torch.manual_seed(0)
    cell = torch.nn.Linear(4, 3)
    h = torch.zeros(1, 3)
    for _ in range(12):
        h = cell(torch.cat([h, torch.ones(1, 1)], dim=1)).tanh()
    return h.sum()


PROGRAMS = [scalar_graph, neuron, mlp, second_order, rnn]

MEASURE = """(frames) => {
  const hit = (a, b, m) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > m &&
      Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > m;
  // Everything in pixels from the picture's corner, so that scrolling (following the running
  // node) between frames moves nothing.
  const svg = document.querySelector('.mgs-stage svg');
  const corner = () => svg.getBoundingClientRect();
  const at = (r, c) => ({left: r.left - c.left, right: r.right - c.left, top: r.top - c.top,
                         bottom: r.bottom - c.top, width: r.width});
  const c0 = corner();
  const paths = [...document.querySelectorAll('.mgs-stage g.edge')].map((g) => {
    const p = g.querySelector('path');
    if (!p) return { id: g.id, pts: [] };
    const m = p.getScreenCTM(), n = p.getTotalLength(), pts = [];
    for (let s = 0; s <= n; s += 4) {
      const q = p.getPointAtLength(s);
      pts.push([m.a * q.x + m.c * q.y + m.e - c0.left, m.b * q.x + m.d * q.y + m.f - c0.top]);
    }
    return { id: g.id, pts };
  });
  const out = {notes: 0, labels: 0, crossed: 0, frames: 0};
  for (const f of frames) {
    window.mgsStepper.go(f);
    out.frames += 1;
    const c = corner();
    const notes = [...document.querySelectorAll('.mgs-notes .mgs-note')].map((g) => ({
      own: g.dataset.for, r: at(g.querySelector('rect').getBoundingClientRect(), c) }));
    const labels = [...document.querySelectorAll('.mgs-stage g.node text, .mgs-stage g.edge text')]
      .map((e) => at(e.getBoundingClientRect(), c)).filter((r) => r.width > 0);
    for (let i = 0; i < notes.length; i++) {
      const r = notes[i].r;
      for (let j = i + 1; j < notes.length; j++) if (hit(r, notes[j].r, 1)) out.notes++;
      for (const l of labels) if (hit(r, l, 1)) out.labels++;
      for (const path of paths) {
        if (path.id.endsWith('-' + notes[i].own)) continue;   // a note on its own arrow
        if (path.pts.some(([x, y]) => x > r.left + 1 && x < r.right - 1 && y > r.top + 1 &&
                                      y < r.bottom - 1)) { out.crossed++; }
      }
    }
  }
  return out;
}"""


def _page(browser, tmp_path, program, theme="default", width=1280, height=800):
    from viz.export import save_html
    path = save_html(program(), tmp_path / f"{program.__name__}-{theme}.html", theme=theme)
    page = browser.new_page(viewport={"width": width, "height": height})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path.as_uri())
    page.wait_for_selector("body[data-frame]", state="attached")
    page.wait_for_timeout(400)        # the layout settles (ResizeObserver rounds)
    return page, errors


@pytest.mark.parametrize("theme", ["default", "classroom"])
@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.__name__)
def test_notes_never_cover_notes_labels_or_arrows(browser, tmp_path, program, theme):
    """Every frame: no note over another note or a label, no arrow through a note (but its own).
    Measured 0, 0, 0 on all five programs, every frame, both themes (the layout makes room for
    the notes: viz/room.py)."""
    page, errors = _page(browser, tmp_path, program, theme=theme)
    count = page.evaluate("window.mgsStepper.count()")
    result = page.evaluate(MEASURE, list(range(count)))
    page.close()
    assert not errors
    assert result["frames"] == count > 0
    assert result["notes"] == 0 and result["labels"] == 0, result
    assert result["crossed"] == 0, result


LABELS = """(root) => {
  // The picture's own text: pairs of overlapping labels (of different elements) and labels
  // that an arrow (not their own) runs through.
  const svg = document.querySelector(root);
  const owner = (e) => e.closest('g.node, g.edge, g.cluster, g.mgs-note');
  const texts = [...svg.querySelectorAll('g.node text, g.edge text, g.cluster text')]
    .map((e) => ({own: owner(e), r: e.getBoundingClientRect(), t: e.textContent}))
    .filter((x) => x.r.width > 0 && x.t.trim());
  const paths = [...svg.querySelectorAll('g.edge')].map((g) => {
    const p = g.querySelector('path');
    if (!p) return {g, pts: []};
    const m = p.getScreenCTM(), n = p.getTotalLength(), pts = [];
    for (let s = 0; s <= n; s += 2) {
      const q = p.getPointAtLength(s);
      pts.push([m.a * q.x + m.c * q.y + m.e, m.b * q.x + m.d * q.y + m.f]);
    }
    return {g, pts};
  });
  const hit = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 &&
      Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
  const out = {labels: texts.length, pairs: [], crossed: []};
  for (let i = 0; i < texts.length; i++) {
    for (let j = i + 1; j < texts.length; j++) {
      if (texts[i].own !== texts[j].own && hit(texts[i].r, texts[j].r)) {
        out.pairs.push([texts[i].t, texts[j].t]);
      }
    }
    const r = texts[i].r;
    for (const p of paths) {
      if (p.g !== texts[i].own && p.pts.some(([x, y]) => x > r.left + 1 && x < r.right - 1 &&
                                                         y > r.top + 1 && y < r.bottom - 1)) {
        out.crossed.push([texts[i].t, p.g.id]);
      }
    }
  }
  return out;
}"""


@pytest.mark.parametrize("theme", [None, "classroom"])
@pytest.mark.parametrize("view", ["backward", "forward"])
@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.__name__)
def test_labels_never_overlap_nor_are_crossed_in_pictures(browser, program, view, theme):
    """The still pictures (backward and forward views, default and classroom): no two labels
    overlap and no arrow runs through a label."""
    import viz
    from viz import classroom
    drawing = (classroom.draw if theme else viz.draw)(program(), view=view, names={})
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.set_content(f"<html><body style='margin:0'>{drawing.svg()}</body></html>")
    result = page.evaluate(LABELS, "svg")
    page.close()
    assert result["labels"] > 5
    assert result["pairs"] == [] and result["crossed"] == [], result


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.__name__)
def test_stepper_labels_never_overlap_nor_are_crossed(browser, tmp_path, program):
    """The stepper's own picture (laid out with room for the notes), before any note shows."""
    page, errors = _page(browser, tmp_path, program)
    page.evaluate("""() => { window.mgsStepper.go(0);
      document.querySelector('.mgs-notes').style.display = 'none'; }""")
    result = page.evaluate(LABELS, ".mgs-stage svg")
    page.close()
    assert not errors
    assert result["labels"] > 5
    assert result["pairs"] == [] and result["crossed"] == [], result


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.__name__)
@pytest.mark.parametrize("theme", ["default", "classroom"])
def test_the_first_frame_shows_the_graph_or_a_fitted_view_of_it(browser, tmp_path, program,
                                                                theme):
    """At 1280×800 the first frame shows the whole graph in the window, or (too big for that
    at a readable scale, or the classroom's large type) the graph fitted to the width with the
    output in view; no sideways scrolling either way."""
    page, _ = _page(browser, tmp_path, program, theme=theme)
    fit = page.evaluate("""() => {
      const stage = document.querySelector('.mgs-stage').getBoundingClientRect();
      const svg = document.querySelector('.mgs-stage svg').getBoundingClientRect();
      const root = document.querySelector('.mgs-root');
      const out = document.querySelector('.mgs-stage g.node.mg-root');
      const o = out.getBoundingClientRect();
      const seen = (r) => r.left >= stage.left - 1 && r.right <= stage.right + 1 &&
        r.top >= stage.top - 1 && r.bottom <= Math.min(stage.bottom, window.innerHeight) + 1;
      return {whole: seen(svg), width: svg.width <= stage.width + 1, output: seen(o),
              scale: Number(root.dataset.scale)};
    }""")
    page.close()
    assert fit["output"], fit
    if theme == "default":   # (the classroom is drawn 1.5 times as large: a fitted view)
        assert fit["whole"] or fit["width"], fit


def test_zoom_pan_and_follow_the_running_node(browser, tmp_path):
    """Buttons, keys and the wheel zoom; shift + arrows pan; zoomed in, each step brings the
    running node into view; the fit button returns to the fitted scale."""
    page, errors = _page(browser, tmp_path, mlp)
    scale = lambda: float(page.evaluate("document.querySelector('.mgs-root').dataset.scale"))  # noqa: E731
    fitted = scale()
    page.click(".mgs-zoom-in")
    assert scale() == pytest.approx(fitted * 1.25, rel=0.01)
    page.keyboard.press("+")
    page.keyboard.press("+")
    assert scale() == pytest.approx(fitted * 1.25 ** 3, rel=0.01)
    page.keyboard.press("-")
    assert scale() == pytest.approx(fitted * 1.25 ** 2, rel=0.01)
    box = page.locator(".mgs-stage").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.keyboard.down("Control")
    page.mouse.wheel(0, -100)
    page.keyboard.up("Control")
    page.wait_for_timeout(100)
    assert scale() == pytest.approx(fitted * 1.25 ** 3, rel=0.01)
    left = page.evaluate("document.querySelector('.mgs-stage').scrollLeft")
    page.keyboard.press("Shift+ArrowRight")
    assert page.evaluate("document.querySelector('.mgs-stage').scrollLeft") > left
    frame = page.evaluate("window.mgsStepper.model.get('frame')")
    page.keyboard.press("ArrowRight")             # shift+arrow panned, did not step
    assert page.evaluate("window.mgsStepper.model.get('frame')") == frame + 1
    seen = page.evaluate("""async (count) => {
      const stage = document.querySelector('.mgs-stage');
      const inside = (r, a) => r.left >= a.left - 1 && r.right <= a.right + 1 &&
                               r.top >= a.top - 1 && r.bottom <= a.bottom + 1;
      let ok = 0, all = 0;
      for (let f = 0; f < count; f += 3) {
        window.mgsStepper.go(f);
        await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
        const run = document.querySelector('.mgs-stage g.node.mgs-running');
        if (!run) continue;
        all++;
        if (inside(run.getBoundingClientRect(), stage.getBoundingClientRect())) ok++;
      }
      return [ok, all];
    }""", page.evaluate("window.mgsStepper.count()"))
    assert seen[1] > 5 and seen[0] == seen[1], seen
    page.click(".mgs-zoom-fit")
    assert scale() == pytest.approx(fitted, rel=0.01)
    page.close()
    assert not errors


@pytest.mark.parametrize("program", [scalar_graph, neuron], ids=lambda p: p.__name__)
def test_classroom_graph_text_is_half_again_as_large(browser, tmp_path, program):
    """The boxes' text and the notes' text, on screen (median sizes, notes of frame 3)."""
    sizes = {}
    for theme in ("default", "classroom"):
        page, _ = _page(browser, tmp_path, program, theme=theme, width=1920, height=1080)
        sizes[theme] = page.evaluate("""() => {
          // the type's size on screen: its font size times the picture's scale there
          const median = (sel) => {
            const h = [...document.querySelectorAll(sel)]
              .map((e) => parseFloat(getComputedStyle(e).fontSize) * e.getScreenCTM().a)
              .sort((a, b) => a - b);
            return h[h.length >> 1];
          };
          window.mgsStepper.go(3);
          return {graph: median('.mgs-stage g.node text'), notes: median('.mgs-notes text')};
        }""")
        page.close()
    for part in ("graph", "notes"):
        assert sizes["classroom"][part] >= 1.5 * sizes["default"][part], sizes


def test_keys_step_once_any_control_has_the_focus(browser, tmp_path):
    page, _ = _page(browser, tmp_path, neuron)
    page.click(".mgs-next")                           # the focus is on the button now
    assert page.evaluate("window.mgsStepper.model.get('frame')") == 1
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("window.mgsStepper.model.get('frame')") == 3
    page.focus(".mgs-last")
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("window.mgsStepper.model.get('frame')") == 2
    page.focus(".mgs-zoom-in")
    page.keyboard.press("End")
    count = page.evaluate("window.mgsStepper.count()")
    assert page.evaluate("window.mgsStepper.model.get('frame')") == count - 1
    page.close()


def test_the_arithmetic_toggle_hides_the_chain_rule(browser, tmp_path):
    page, _ = _page(browser, tmp_path, scalar_graph)
    count = page.evaluate("window.mgsStepper.count()")
    shown = page.evaluate("""(n) => { let k = 0;
      for (let f = 0; f < n; f++) { window.mgsStepper.go(f);
        k += document.querySelectorAll('.mgs-notes .mgs-line-arith').length; } return k; }""",
                          count)
    page.click(".mgs-arith-toggle")
    hidden = page.evaluate("""(n) => { let k = 0;
      for (let f = 0; f < n; f++) { window.mgsStepper.go(f);
        k += document.querySelectorAll('.mgs-notes .mgs-line-arith').length; } return k; }""",
                           count)
    page.close()
    assert shown > 0 and hidden == 0


# Machado, Oliveira and Fernandes (2009), severity 1: linear RGB matrices.
CVD = {"deuteranopia": [[0.367, 0.861, -0.228], [0.280, 0.673, 0.047], [-0.012, 0.043, 0.969]],
       "protanopia": [[0.152, 1.053, -0.205], [0.115, 0.786, 0.099], [-0.004, -0.048, 1.052]]}
STATES = ["running", "waiting", "ready", "summing", "gradnew", "hookfire", "captured", "error"]


def test_states_stay_apart_without_colour(browser, tmp_path):
    """Each node state is told apart by its border's width and dash pattern alone, so that
    under simulated deuteranopia or protanopia (where red, green and olive merge) no two
    states look alike."""
    page, _ = _page(browser, tmp_path, neuron)
    looks = page.evaluate("""(states) => {
      const node = document.querySelector('.mgs-stage g.node');
      const out = {};
      for (const s of states) {
        node.setAttribute('class', 'node mgs-' + s);
        const shape = node.querySelector('title + *');
        const st = getComputedStyle(shape);
        out[s] = [st.strokeWidth, st.strokeDasharray, st.stroke, st.fill];
      }
      return out;
    }""", STATES)
    page.close()
    cues = {s: (v[0], v[1]) for s, v in looks.items()}
    assert len(set(cues.values())) == len(STATES), cues
    for matrix in CVD.values():       # and the simulated colours do not make two alike either
        seen = {(v[0], v[1], _simulate(v[2], matrix)) for v in looks.values()}
        assert len(seen) == len(STATES)


def _simulate(css, matrix):
    import re
    rgb = [int(v) / 255 for v in re.findall(r"\d+", css)[:3]] or [0, 0, 0]
    return tuple(round(sum(m * c for m, c in zip(row, rgb)), 1) for row in matrix)
