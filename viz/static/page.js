// The exported page's controls: a small stand-in for the widget model, and stock-looking
// buttons, a play/pause with a speed, a slider and a granularity switch. viz/export.py appends
// this file to stepper.js inside one inline module, so `render` is in scope. No network.

function fakeModel(values) {
  const handlers = new Map();
  return {
    get: (name) => values[name],
    set(name, value) {
      if (values[name] === value) return;
      values[name] = value;
      for (const callback of [...(handlers.get("change:" + name) || [])]) callback();
    },
    on(name, callback) {
      if (!handlers.has(name)) handlers.set(name, []);
      handlers.get(name).push(callback);
    },
    off(name, callback) {
      const list = handlers.get(name) || [];
      const at = list.indexOf(callback);
      if (at >= 0) list.splice(at, 1);
    },
    save_changes() {},
  };
}

function control(tag, attrs, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

function startPage() {
  const state = JSON.parse(document.getElementById("mgs-state").textContent);
  const model = fakeModel({
    svg: state.svg, frames: state.frames, frame: state.frame || 0,
    granularity: state.granularity || "event", theme: state.theme || "default",
  });
  const data = state.frames;
  const count = () => frameCount(data, model.get("granularity"));
  const bar = document.getElementById("mgs-controls");
  const modes = document.getElementById("mgs-modes");
  const buttons = {};
  for (const [name, text, title] of [
    ["first", "« first", "first frame (Home)"], ["prev", "◀ prev", "previous frame (←)"],
    ["play", "▶ play", "play / pause (space)"], ["next", "next ▶", "next frame (→)"],
    ["last", "last »", "last frame (End)"]]) {
    buttons[name] = control("button", { type: "button", class: "mgs-" + name, title }, text);
    bar.append(buttons[name]);
  }
  const slider = control("input", { type: "range", min: 0, value: 0, class: "mgs-slider",
                                    "aria-label": "frame" });
  const readout = control("span", { class: "mgs-readout" });
  const speed = control("select", { class: "mgs-speed", "aria-label": "speed" });
  for (const [label, ms] of Object.entries(state.speeds)) {
    const option = control("option", { value: ms }, label);
    if (label === "normal") option.selected = true;
    speed.append(option);
  }
  bar.append(slider, readout, control("label", {}, "speed "), speed);
  for (const [key, label] of Object.entries(data.labels)) {
    const id = "mgs-mode-" + key;
    const radio = control("input", { type: "radio", name: "mgs-mode", id, value: key });
    radio.checked = key === model.get("granularity");
    radio.addEventListener("change", () => setGranularity(key));
    modes.append(radio, control("label", { for: id }, label));
  }

  let timer = null;
  const go = (frame) => model.set("frame", Math.min(Math.max(frame, 0), count() - 1));
  function sync() {
    slider.max = Math.max(count() - 1, 0);
    slider.value = model.get("frame");
    readout.textContent = `${model.get("frame") + 1} / ${count()}`;
    if (timer && model.get("frame") >= count() - 1) stop();
    document.body.dataset.frame = String(model.get("frame"));
  }
  function stop() {
    clearInterval(timer);
    timer = null;
    buttons.play.textContent = "▶ play";
    document.body.dataset.playing = "false";
  }
  function play() {
    if (timer) return stop();
    if (model.get("frame") >= count() - 1) go(0);
    buttons.play.textContent = "⏸ pause";
    document.body.dataset.playing = "true";
    timer = setInterval(() => go(model.get("frame") + 1), Number(speed.value));
  }
  function setGranularity(key) {
    const event = eventAt(data, model.get("granularity"), model.get("frame"));
    const seq = data.sequences[key];
    let frame = event;
    if (seq) {
      frame = 0;
      seq.forEach((e, k) => { if (e <= event) frame = k; });
    }
    model.set("granularity", key);
    model.set("frame", Math.min(frame, frameCount(data, key) - 1));
    sync();
  }
  buttons.first.addEventListener("click", () => go(0));
  buttons.prev.addEventListener("click", () => go(model.get("frame") - 1));
  buttons.next.addEventListener("click", () => go(model.get("frame") + 1));
  buttons.last.addEventListener("click", () => go(count() - 1));
  buttons.play.addEventListener("click", play);
  slider.addEventListener("input", () => go(Number(slider.value)));
  speed.addEventListener("change", () => { if (timer) { stop(); play(); } });
  // Keys work before any click: on the page itself (the stepper handles them inside).
  const pageKeys = { ArrowRight: () => model.get("frame") + 1,
                     ArrowLeft: () => model.get("frame") - 1,
                     Home: () => 0, End: () => count() - 1 };
  document.addEventListener("keydown", (event) => {
    const onPage = event.target === document.body || event.target === document.documentElement;
    if (event.key === " " && event.target.tagName !== "BUTTON") {
      play();
      event.preventDefault();
    } else if (onPage && pageKeys[event.key] && !event.altKey && !event.ctrlKey &&
               !event.shiftKey) {
      go(pageKeys[event.key]());
      event.preventDefault();
    }
  });
  model.on("change:frame", sync);
  render({ model, el: document.getElementById("mgs-canvas") });
  sync();
  window.mgsStepper = { model, count, play, stop, go, setGranularity };
}

startPage();
