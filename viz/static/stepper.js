// The stepper canvas: an anywidget front end (no build step) that replays a recorded backward
// pass on a graph laid out once. Also run, unchanged, by exported pages with a small fake model.
//
// Model traits: svg (the laid-out picture, trusted Graphviz output whose user text is escaped),
// frames (viz/frames.py data plus "places" from viz/still.py: where each element's notes go,
// and for a note at a corner where its leader line starts), frame (slider position),
// granularity ("event" | "node" | "hooks"), theme ("default" | "mono" | "classroom").
// A frame change only restyles elements whose state differs between the two events: every user
// string is written with textContent, never parsed as HTML. The layout (panel beside or under
// the picture, the picture's scale) changes only when the canvas is loaded or resized.

const SVG_NS = "http://www.w3.org/2000/svg";
const LINE = 12, CHAR = 6, PAD = 3, DOT = 2;
const JUMP = 48; // beyond this many events, rescan every element instead of the changes
// Picture scales (CSS pixels per pixel of Graphviz's picture): the first frame shows the whole
// picture, fitted to the stage, unless that would draw it smaller than WHOLE (its type under
// about 6 px); then it is fitted to the stage's width (never below TINY) and scrolls down,
// following the running node (the output, at first). The classroom draws it CLASSROOM times
// as large as that, following the running node: its type is 1.5 times the default's, and its
// picture up to 1.5 times as large, with a taller caption above, so at 1.6 times its type
// stays at least 1.5 times the default's on screen. The side panel goes under the picture when beside it the picture would be
// drawn smaller than COMFORTABLE, or when the canvas is narrower than NARROW.
const WHOLE = 0.45, TINY = 0.15, CLASSROOM = 1.6, COMFORTABLE = 0.8, NARROW = 560;
const SCROLLBAR = 16; // room kept for the stage's own vertical scrollbar

function make(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

function svgNode(tag, attrs) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  return node;
}

// The value of a timeline ([[event, value], ...], sorted) at `event`: "" before its first entry.
function valueAt(timeline, event) {
  if (!timeline || timeline.length === 0 || timeline[0][0] > event) return "";
  let lo = 0, hi = timeline.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (timeline[mid][0] <= event) lo = mid; else hi = mid - 1;
  }
  return timeline[lo][1];
}

function eventAt(data, granularity, frame) {
  const seq = data.sequences[granularity];
  const count = seq ? seq.length : data.count;
  if (!count) return 0;
  const f = Math.min(Math.max(frame | 0, 0), count - 1);
  return seq ? seq[f] : f;
}

function frameCount(data, granularity) {
  const seq = data.sequences[granularity];
  return seq ? seq.length : data.count;
}

// A note's box; its type `scale` times the default (1.5 in the classroom theme: frames'
// "note_scale", the same sizes as viz/still.py's note_size).
function noteBox(note, place, scale) {
  const lines = note.split("\n").map((l) => {
    const tab = l.indexOf("\t");
    return tab < 0 ? ["state", l] : [l.slice(0, tab), l.slice(tab + 1)];
  });
  const width = (Math.max(...lines.map((l) => l[1].length)) * CHAR + 2 * PAD) * scale;
  const height = (lines.length * LINE + 2 * PAD) * scale;
  const [x, y, side] = place;
  const at = {
    r: [x, y - height / 2], l: [x - width, y - height / 2], b: [x - width / 2, y],
    t: [x - width / 2, y - height], c: [x - width / 2, y - height / 2],
    ne: [x, y - height], nw: [x - width, y - height], se: [x, y], sw: [x - width, y],
  }[side] || [x, y];
  return { lines, x: at[0], y: at[1], width, height, scale };
}

// A note at a corner of its element (place = [x, y, side, px, py]) is tied to it by a leader
// line from (px, py) on the element's outline to the nearest point of the note (viz/still.py).
function drawLeader(group, box, place) {
  if (place.length < 5) return;
  const [px, py] = [place[3], place[4]];
  const qx = Math.min(Math.max(px, box.x), box.x + box.width);
  const qy = Math.min(Math.max(py, box.y), box.y + box.height);
  group.append(svgNode("line", {
    class: "mgs-leader", x1: px.toFixed(1), y1: py.toFixed(1), x2: qx.toFixed(1),
    y2: qy.toFixed(1),
  }), svgNode("circle", { class: "mgs-leader", cx: px.toFixed(1), cy: py.toFixed(1), r: DOT }));
}

function drawNote(note, place, id, scale) {
  const box = noteBox(note, place, scale || 1);
  const group = svgNode("g", { class: `mgs-note mgs-note-${box.lines[0][0]}`, "data-for": id });
  drawLeader(group, box, place);
  group.append(svgNode("rect", {
    x: box.x.toFixed(1), y: box.y.toFixed(1), width: box.width.toFixed(1),
    height: box.height.toFixed(1), rx: 3,
  }));
  box.lines.forEach(([kind, text], k) => {
    const line = svgNode("text", {
      class: `mgs-line-${kind}`, x: (box.x + PAD * box.scale).toFixed(1),
      y: (box.y + (PAD + (k + 1) * LINE - 3) * box.scale).toFixed(1),
    });
    if (box.scale !== 1) line.style.fontSize = `${10 * box.scale}px`;
    line.textContent = text;
    group.append(line);
  });
  return group;
}

// Everything that belongs to one laid-out recording. With the same picture as `old` (a training
// loop recording the same graph again), the SVG stays in place: only its states are reset.
function buildView(stage, svg, data, old) {
  if (old && old.svg === svg) {
    for (const box of [...old.opened.keys()]) closeInside(old, box);
    for (const [id, cls] of old.classes) {
      for (const c of cls.split(" ")) if (c) old.elements.get(id).classList.remove("mgs-" + c);
    }
    old.layer.replaceChildren();
    return indexView(old.svg, old.elements, old.layer, data);
  }
  stage.innerHTML = svg;
  const svgEl = stage.querySelector("svg");
  const prefix = svgEl ? svgEl.getAttribute("data-mg") || "" : "";
  const graph = svgEl ? svgEl.querySelector("g.graph") : null;
  const elements = new Map();
  if (svgEl) {
    const start = prefix + "-";
    for (const g of svgEl.querySelectorAll("g.node, g.edge")) {
      if (g.id.startsWith(start)) elements.set(g.id.slice(start.length), g);
    }
  }
  const layer = svgNode("g", { class: "mgs-notes" });
  if (graph) graph.append(layer);
  return indexView(svg, elements, layer, data);
}

// ---------------------------------------------------------------- opening a module-call box
// data.inside (viz/inside.py): pictures[k] is the laid-out inside of a call, shared by every
// call with that structure; calls[box] = [k, member ids in the order of the picture's ids,
// title]; orders[k] the ids the picture was drawn with. A click on a box opens it in place:
// the picture goes over the box, its ops restyled from data.inner like any element.
const INSIDE_TITLE = 16;

function openInside(view, box) {
  const inside = view.data.inside, call = inside && inside.calls[box];
  const el = view.elements.get(box), graph = el && el.closest("g.graph");
  if (!call || !graph || view.opened.has(box)) return false;
  const [index, ids, title] = call;
  const position = new Map(inside.orders[index].map((id, k) => [id, k]));
  const source = new DOMParser().parseFromString(inside.pictures[index], "image/svg+xml");
  const picture = document.importNode(source.documentElement, true);
  const inner = (picture.querySelector("g.graph") || picture).id;   // "<prefix>-in"
  const opened = [];
  for (const g of picture.querySelectorAll("g.node, g.edge")) {
    const k = position.get(g.id.slice(inner.length + 1));
    g.removeAttribute("id");
    if (k === undefined || ids[k] === undefined) continue;
    g.dataset.member = ids[k];
    view.elements.set(ids[k], g);
    opened.push(ids[k]);
  }
  const at = el.getBBox();
  const width = parseFloat(picture.getAttribute("width")) || 100;
  const height = parseFloat(picture.getAttribute("height")) || 100;
  for (const [k, v] of Object.entries({ x: at.x, y: at.y + INSIDE_TITLE, width, height })) {
    picture.setAttribute(k, v.toFixed(1));
  }
  const holder = svgNode("g", { class: "mgs-inside", "data-for": box, role: "button" });
  const label = svgNode("text", { class: "mgs-inside-title", x: (at.x + 4).toFixed(1),
                                  y: (at.y + INSIDE_TITLE - 4).toFixed(1) });
  label.textContent = `${title}: ${opened.length ? "its ops" : "empty"} (click to close)`;
  holder.append(svgNode("rect", {
    class: "mgs-inside-frame", x: (at.x - 4).toFixed(1), y: (at.y - 4).toFixed(1),
    width: (Math.max(width, label.textContent.length * CHAR) + 8).toFixed(1),
    height: (height + INSIDE_TITLE + 8).toFixed(1), rx: 4,
  }), label, picture);
  graph.append(holder);
  view.opened.set(box, { holder, ids: opened });
  el.classList.add("mgs-opened");
  for (const id of opened) {
    view.ids.add(id);
    if (!view.indexed.has(id)) {
      view.indexed.add(id);
      for (const [e] of view.data.inner[id] || []) (view.changes[e] || (view.changes[e] = [])).push(id);
    }
    restyle(view, id, view.event);
  }
  return true;
}

function closeInside(view, box) {
  const open = view.opened.get(box);
  if (!open) return;
  open.holder.remove();
  for (const id of open.ids) {
    view.elements.delete(id);
    view.ids.delete(id);
    view.classes.delete(id);
  }
  view.opened.delete(box);
  const el = view.elements.get(box);
  if (el) el.classList.remove("mgs-opened");
}

// The box (or opened box) a click landed on, if it can be opened or closed.
function insideTarget(view, target) {
  const holder = target.closest && target.closest("g.mgs-inside");
  if (holder) return holder.getAttribute("data-for");
  const g = target.closest && target.closest("g.node");
  if (!g || !view.data.inside) return null;
  for (const [id, el] of view.elements) if (el === g && view.data.inside.calls[id]) return id;
  return null;
}

function indexView(svg, elements, layer, data) {
  const changes = new Array(data.count + 1);
  const ids = new Set();
  for (const table of [data.classes, data.notes]) {
    for (const [id, timeline] of Object.entries(table)) {
      if (!elements.has(id)) continue;
      ids.add(id);
      for (const [e] of timeline) (changes[e] || (changes[e] = [])).push(id);
    }
  }
  return {
    svg, data, elements, layer, changes, ids, event: -1,
    classes: new Map(), notes: new Map(), noteNodes: new Map(),
    opened: new Map(), indexed: new Set(), deferred: new Set(), seen: null,
  };
}

function restyle(view, id, event) {
  const d = view.data;
  const el = view.elements.get(id);
  if (!el) return;   // the op of a box that was opened and closed again
  const cls = valueAt(d.classes[id] || (d.inner && d.inner[id]), event);
  if ((view.classes.get(id) || "") !== cls) {
    for (const old of (view.classes.get(id) || "").split(" ")) {
      if (old) el.classList.remove("mgs-" + old);
    }
    for (const add of cls.split(" ")) if (add) el.classList.add("mgs-" + add);
    view.classes.set(id, cls);
  }
  let note = valueAt(d.notes[id], event);
  if (view.hideArith && note) {   // the chain-rule lines are hidden: drop them from the note
    note = note.split("\n").filter((l) => !l.startsWith("arith\t")).join("\n");
  }
  if ((view.notes.get(id) || "") !== note) {
    const old = view.noteNodes.get(id);
    if (old) old.remove();
    view.noteNodes.delete(id);
    const place = d.places && d.places[id];
    view.deferred.delete(id);
    if (note && place) {
      if (near(view, place)) {
        const node = drawNote(note, place, id, d.note_scale);
        view.layer.append(node);
        view.noteNodes.set(id, node);
      } else {
        view.deferred.add(id);
      }
    }
    view.notes.set(id, note);
  }
}

// Notes are drawn only near the part of the picture in view (a screen's width and height
// around it): a jump across a big pass then costs what is in view, not the whole graph. The
// others are drawn as the student scrolls or zooms to them (see reveal).
function near(view, place) {
  const s = view.seen;
  return !s || (place[0] >= s[0] && place[0] <= s[2] && place[1] >= s[1] && place[1] <= s[3]);
}

function reveal(view, stage) {
  const m = view.layer.getScreenCTM && view.layer.getScreenCTM();
  const r = stage.getBoundingClientRect();
  if (!m || !r.width || !r.height) {
    view.seen = null;
  } else {
    const inv = m.inverse();
    const a = new DOMPoint(r.left, r.top).matrixTransform(inv);
    const b = new DOMPoint(r.right, r.bottom).matrixTransform(inv);
    const [x0, x1] = [Math.min(a.x, b.x), Math.max(a.x, b.x)];
    const [y0, y1] = [Math.min(a.y, b.y), Math.max(a.y, b.y)];
    view.seen = [x0 - (x1 - x0), y0 - (y1 - y0), x1 + (x1 - x0), y1 + (y1 - y0)];
  }
  for (const id of [...view.deferred]) {
    const place = view.data.places[id];
    if (!near(view, place)) continue;
    view.deferred.delete(id);
    const node = drawNote(view.notes.get(id), place, id, view.data.note_scale);
    view.layer.append(node);
    view.noteNodes.set(id, node);
  }
}

function showEvent(view, event) {
  const from = view.event;
  let ids = view.ids;
  if (from >= 0 && Math.abs(event - from) <= JUMP) {
    ids = new Set();
    const [a, b] = from < event ? [from + 1, event] : [event + 1, from];
    for (let e = a; e <= b; e++) for (const id of view.changes[e] || []) ids.add(id);
  }
  for (const id of ids) restyle(view, id, event);
  view.event = event;
}

// The picture's size in CSS pixels at 100 % (Graphviz writes points).
function natural(stage) {
  const svgEl = stage.querySelector("svg");
  if (!svgEl) return null;
  const width = parseFloat(svgEl.getAttribute("width")) * 4 / 3;
  const height = parseFloat(svgEl.getAttribute("height")) * 4 / 3;
  return width > 0 && height > 0 ? { svgEl, width, height } : null;
}

// How tall the stage may grow: its max-height, and no further than the window's bottom when
// the stage starts in the window's upper half (a page opened at its top), so that a graph
// fitted whole is seen whole.
function tallest(stage) {
  const most = parseFloat(getComputedStyle(stage).maxHeight);
  let tall = most > 0 ? most - 6 : (window.innerHeight || 800) * 0.72;
  const top = stage.getBoundingClientRect().top, bottom = window.innerHeight || 800;
  if (top > 0 && top < bottom / 2) tall = Math.min(tall, bottom - top - 12);
  return Math.max(tall, 300);
}

// The scale a picture gets in `room` pixels of width and `tall` of height: the whole picture
// (never enlarged beyond `big`); a picture too big for that, fitted to the width (less the
// scrollbar it then has), scrolling down.
function scaleFor(size, room, tall, big) {
  const whole = Math.min(room / size.width, tall / size.height, big);
  if (whole >= WHOLE) return whole;
  return Math.max(Math.min((room - SCROLLBAR) / size.width, big), TINY);
}

// The picture's scale: `zoom` when the student zoomed (buttons, ctrl + wheel, + - keys; "whole":
// the fit button and the 0 key), else fitted to the stage (see scaleFor; the classroom's
// CLASSROOM times as large).
const ZOOM_STEP = 1.25;
function fit(stage, root, zoom) {
  const size = natural(stage);
  if (!size) return 1;
  const classroom = root.classList.contains("mgs-theme-classroom");
  const fitted = scaleFor(size, stage.offsetWidth || size.width, tallest(stage), 1.25);
  const scale = zoom === "whole" ? fitted : zoom || (classroom ? Math.min(fitted * CLASSROOM, 2)
                                                              : fitted);
  size.svgEl.style.width = `${(size.width * scale).toFixed(0)}px`;
  size.svgEl.style.height = `${(size.height * scale).toFixed(0)}px`;
  root.dataset.scale = scale.toFixed(3);
  root.classList.toggle("mgs-zoomed", Boolean(zoom));
  return scale;
}

// Beside the picture, the side panel takes width from it. When that would shrink the picture
// below a comfortable scale and stacking gives it clearly more, or the canvas is narrow
// anyway, the panel goes under the picture ("mgs-stacked"). Depends only on the canvas's own
// width and the picture, so it cannot flip back and forth as the layout changes.
function arrange(root, body, stage, panel) {
  const size = natural(stage);
  const room = body.clientWidth;
  if (!room) return;
  let stacked = room < NARROW || root.classList.contains("mgs-theme-classroom");
  if (!stacked && size) {
    const gap = parseFloat(getComputedStyle(body).columnGap) || 0;
    const was = root.classList.contains("mgs-stacked");
    root.classList.remove("mgs-stacked");
    const side = panel.getBoundingClientRect().width || 0;
    const tall = tallest(stage);
    const big = root.classList.contains("mgs-theme-classroom") ? 1.6 : 1.25;
    const beside = scaleFor(size, room - side - gap, tall, big);
    const below = scaleFor(size, room, tall, big);
    // A margin either way around the threshold: a scrollbar coming and going must not flip it.
    // (Only while the width stays about the same: a wider canvas is judged afresh.)
    const near = Math.abs(room - (Number(root.dataset.stackedAt) || room)) < 40;
    const comfortable = was && near ? COMFORTABLE + 0.05 : COMFORTABLE;
    stacked = beside < comfortable && below > beside * 1.08;
  }
  if (stacked && !root.classList.contains("mgs-stacked")) root.dataset.stackedAt = String(room);
  root.classList.toggle("mgs-stacked", stacked);
}

function fillPanel(panel, data, event) {
  const list = make("dl");
  for (const index of data.panels[event] || []) {
    const [label, text] = data.panel_rows[index];
    const row = make("div", "mgs-row mgs-row-" + String(label).replace(/[^a-z-]/gi, "-"));
    row.append(make("dt", "", label), make("dd", "", text));
    list.append(row);
  }
  panel.replaceChildren(list);
}

function keepInView(stage, view, event) {
  const id = view.data.focus[event];
  const el = id && view.elements.get(id);
  if (!el || (stage.scrollHeight <= stage.clientHeight && stage.scrollWidth <= stage.clientWidth)) {
    return;
  }
  // the node and its note (the arithmetic beside it) together, as far as the stage holds them
  let box = el.getBoundingClientRect();
  const area = stage.getBoundingClientRect();
  const note = view.noteNodes.get(id);
  if (note) {
    const n = note.getBoundingClientRect();
    const left = Math.min(box.left, n.left), right = Math.max(box.right, n.right);
    const top = Math.min(box.top, n.top), bottom = Math.max(box.bottom, n.bottom);
    if (right - left <= area.width && bottom - top <= area.height) {
      box = { left, right, top, bottom, width: right - left, height: bottom - top };
    }
  }
  if (box.top < area.top || box.bottom > area.bottom || box.left < area.left ||
      box.right > area.right) {
    stage.scrollBy({
      left: box.left + box.width / 2 - (area.left + area.width / 2),
      top: box.top + box.height / 2 - (area.top + area.height / 2),
    });
  }
}

// The key strip when the frame data does not bring its own (data.key: the states its frames
// show, from viz.legend.stepper_key).
const KEY_TEXT = [
  ["running", "running node"], ["waiting", "waiting for grads"], ["ready", "in the ready queue"],
  ["done", "done"], ["flow", "gradient sent"], ["hook", "hook fired"],
];

function fillKey(key, entries, before) {
  for (const old of key.querySelectorAll(":scope > span")) old.remove();
  for (const [cls, text] of entries) key.insertBefore(make("span", "mgs-key-" + cls, text), before);
}

function render({ model, el }) {
  const root = make("div", "mgs-root");
  root.tabIndex = 0;
  root.setAttribute("role", "group");
  root.setAttribute("aria-label",
    "backward stepper: arrow keys move between frames, + - 0 zoom, shift + arrow keys pan");
  const status = make("div", "mgs-status");
  const caption = make("div", "mgs-caption");
  caption.setAttribute("aria-live", "polite");
  const stage = make("div", "mgs-stage");
  const panel = make("div", "mgs-panel");
  const body = make("div", "mgs-body");
  const key = make("div", "mgs-key");
  // The arithmetic overlay (chain rule with numbers on the running node) can be hidden.
  const arithBox = make("input");
  arithBox.type = "checkbox";
  arithBox.className = "mgs-arith-toggle";
  const arithLabel = make("label", "mgs-arith-label");
  arithLabel.append(arithBox, document.createTextNode(" show the arithmetic"));
  key.append(arithLabel);
  fillKey(key, KEY_TEXT, arithLabel);
  const zoomBar = make("div", "mgs-zoom");
  const zoomButtons = {};
  for (const [name, text, title] of [["out", "−", "zoom out (-)"], ["fit", "fit", "fit the graph to the view (0)"],
                                     ["in", "+", "zoom in (+)"]]) {
    const b = make("button", "mgs-zoom-" + name, text);
    b.type = "button";
    b.title = title;
    zoomBar.append(b);
    zoomButtons[name] = b;
  }
  body.append(stage, panel);
  root.append(status, caption, zoomBar, body, key);
  el.append(root);
  let view = null, queued = false, following = false;

  function setArith() {
    const show = model.get("arithmetic") !== false;
    arithBox.checked = show;
    root.classList.toggle("mgs-no-arith", !show);
    if (view && view.hideArith !== !show) {
      view.hideArith = !show;
      for (const node of view.noteNodes.values()) node.remove();
      view.noteNodes.clear();
      view.notes.clear();
      view.deferred.clear();
      for (const id of view.ids) restyle(view, id, view.event);
    }
  }
  arithBox.addEventListener("change", () => {
    model.set("arithmetic", arithBox.checked);
    model.save_changes();
    setArith();
  });

  function update() {
    if (!view) return;
    const data = view.data;
    const granularity = model.get("granularity") || "event";
    const frame = model.get("frame") || 0;
    const event = eventAt(data, granularity, frame);
    if (!data.count) {
      caption.textContent = "This recording has no events.";
      return;
    }
    showEvent(view, event);
    const count = frameCount(data, granularity);
    status.textContent = `frame ${Math.min(frame, count - 1) + 1} of ${count}` +
      ` · event ${event + 1} of ${data.count}: ${data.kinds[event].replace(/_/g, " ")}`;
    caption.textContent = data.captions[event];
    caption.classList.toggle("mgs-is-error", data.kinds[event] === "error");
    fillPanel(panel, data, event);
    root.dataset.event = String(event);
    if (!following) {   // scroll at most once per animation frame, after the browser's layout
      following = true;
      requestAnimationFrame(() => {
        following = false;
        if (view) keepInView(stage, view, view.event);
      });
    }
  }

  function load() {
    queued = false;
    const data = model.get("frames");
    if (!data || !data.sequences) return;
    const top = stage.scrollTop, left = stage.scrollLeft;
    const svg = model.get("svg") || "";
    const same = view && view.svg === svg;
    view = buildView(stage, svg, data, view);
    fillKey(key, data.key || KEY_TEXT, arithLabel);
    view.hideArith = model.get("arithmetic") === false;
    if (!same) layout();
    else reveal(view, stage);
    stage.scrollTop = top;
    stage.scrollLeft = left;
    update();
  }

  function schedule() {
    if (!queued) {
      queued = true;
      queueMicrotask(load);
    }
  }

  function setTheme() {
    for (const c of [...root.classList]) if (c.startsWith("mgs-theme-")) root.classList.remove(c);
    root.classList.add("mgs-theme-" + String(model.get("theme") || "default").replace(/\W/g, ""));
    layout();
  }

  let zoom = null, scale = 1, revealing = false;
  function layout() {
    arrange(root, body, stage, panel);
    scale = fit(stage, root, zoom);
    if (view) reveal(view, stage);
  }
  // Scrolling (panning, following the running node) draws the notes that come into view.
  stage.addEventListener("scroll", () => {
    if (revealing) return;
    revealing = true;
    requestAnimationFrame(() => {
      revealing = false;
      if (view) reveal(view, stage);
    });
  });
  // Zoom about the middle of the stage (or a point of it), keeping that point in place.
  function zoomTo(next, cx, cy) {
    const area = stage.getBoundingClientRect();
    const px = cx === undefined ? stage.clientWidth / 2 : cx - area.left;
    const py = cy === undefined ? stage.clientHeight / 2 : cy - area.top;
    const before = scale;
    const x = (stage.scrollLeft + px) / before, y = (stage.scrollTop + py) / before;
    zoom = next;
    layout();
    stage.scrollLeft = x * scale - px;
    stage.scrollTop = y * scale - py;
    if (view) keepInView(stage, view, view.event);
  }
  const zoomIn = () => zoomTo(Math.min(scale * ZOOM_STEP, 6));
  const zoomOut = () => zoomTo(Math.max(scale / ZOOM_STEP, 0.05));
  zoomButtons.in.addEventListener("click", zoomIn);
  zoomButtons.out.addEventListener("click", zoomOut);
  zoomButtons.fit.addEventListener("click", () => zoomTo("whole"));
  stage.addEventListener("wheel", (event) => {
    if (!event.ctrlKey && !event.metaKey) return;   // a plain wheel scrolls (pans)
    event.preventDefault();
    const factor = event.deltaY < 0 ? ZOOM_STEP : 1 / ZOOM_STEP;
    zoomTo(Math.min(Math.max(scale * factor, 0.05), 6), event.clientX, event.clientY);
  }, { passive: false });
  // Pan by dragging the picture.
  let drag = null;
  stage.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    drag = { x: event.clientX, y: event.clientY, left: stage.scrollLeft, top: stage.scrollTop };
  });
  window.addEventListener("pointermove", (event) => {
    if (!drag) return;
    stage.scrollLeft = drag.left - (event.clientX - drag.x);
    stage.scrollTop = drag.top - (event.clientY - drag.y);
  });
  window.addEventListener("pointerup", (event) => {
    moved = drag !== null && Math.abs(event.clientX - drag.x) + Math.abs(event.clientY - drag.y) > 4;
    drag = null;
  });
  // A click (not a drag) on a module-call box opens it in place; on the opened box, closes it.
  let moved = false;
  stage.addEventListener("click", (event) => {
    if (!view || moved) return;
    const box = insideTarget(view, event.target);
    if (!box) return;
    if (view.opened.has(box)) closeInside(view, box);
    else openInside(view, box);
    root.dataset.opened = [...view.opened.keys()].join(" ");
  });

  function step(delta, absolute) {
    if (!view) return;
    const count = frameCount(view.data, model.get("granularity") || "event");
    const now = model.get("frame") || 0;
    const next = Math.min(Math.max(absolute === undefined ? now + delta : absolute, 0), count - 1);
    if (next !== now) {
      model.set("frame", next);
      model.save_changes();
    }
  }

  // Shift + an arrow key pans the picture by a fifth of the stage.
  const PAN = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };
  function onKey(event) {
    if (event.shiftKey && event.key in PAN) {
      const [dx, dy] = PAN[event.key];
      stage.scrollBy({ left: dx * stage.clientWidth / 5, top: dy * stage.clientHeight / 5 });
      event.preventDefault();
      return;
    }
    const moves = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1, PageDown: 10,
                    PageUp: -10 };
    if (event.key in moves) step(moves[event.key]);
    else if (event.key === "+" || event.key === "=") zoomIn();
    else if (event.key === "-") zoomOut();
    else if (event.key === "0") zoomTo("whole");
    else if (event.key === "Home") step(0, 0);
    else if (event.key === "End") step(0, Number.MAX_SAFE_INTEGER);
    else return;
    event.preventDefault();
  }

  // The keys work once the stepper has the focus anywhere: the picture, or any of its controls
  // (buttons, play, the granularity switch: the widget's box or the exported page). Inputs
  // that use the arrow keys themselves (a slider, a list) keep them.
  function ownsKey(event) {
    const target = event.target;
    if (!target || !target.closest) return false;
    if (root.contains(target)) return true;
    if (target.matches("input, select, textarea") || target.closest(".mgs-slider")) return false;
    const box = root.closest(".mgs-stepper, .mgs-page");
    return Boolean(box && box.contains(target));
  }
  const onAnyKey = (event) => { if (!event.defaultPrevented && ownsKey(event)) onKey(event); };
  document.addEventListener("keydown", onAnyKey);
  // Lay out again when the canvas's width changes (a narrower JupyterLab panel, a window
  // resized); only the canvas's own width is watched, which the layout does not change.
  let lastWidth = 0;
  const resize = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(() => {
    if (body.clientWidth !== lastWidth) {
      lastWidth = body.clientWidth;
      layout();
    }
  });
  if (resize) resize.observe(body);
  model.on("change:svg", schedule);
  model.on("change:frames", schedule);
  model.on("change:frame", update);
  model.on("change:granularity", update);
  model.on("change:theme", setTheme);
  model.on("change:arithmetic", setArith);
  setTheme();
  setArith();
  load();
  return () => {
    model.off("change:svg", schedule);
    model.off("change:frames", schedule);
    model.off("change:frame", update);
    model.off("change:granularity", update);
    model.off("change:theme", setTheme);
    model.off("change:arithmetic", setArith);
    document.removeEventListener("keydown", onAnyKey);
    if (resize) resize.disconnect();
  };
}

export default { render };
