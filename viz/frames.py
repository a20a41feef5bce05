"""A recording → the stepper's frame data: what each picture element looks like after each event.

The stepper lays a graph out once and then only restyles it. This module computes, once per
recording, everything the restyling needs, as compact JSON-ready data:

* ``classes``: for each element id (a snapshot id: ``n4``, ``t3``, ``e7``, ``n4-s0``), the
  events where its state classes change (``[[event, "waiting"], [9, "running"], …]``). The
  classes are ``mgs-<word>`` in the SVG: ``future waiting ready running done skipped error
  hookfire summing gradnew hasgrad flow sent in sum released freed`` (see docs/stepper.md).
* ``notes``: the same for the short texts drawn next to an element (pending counts, queue
  positions, ``.grad`` before → after, the grad carried by an edge, a hook's in → out, an
  error message). A note is ``"kind\\ttext\\nkind\\ttext"`` or ``""``.
* per event: ``captions``, ``kinds``, ``panels`` (rows of the side panel, deduplicated in
  ``panel_table``), ``focus`` (the element to keep in view).
* ``sequences``: which events are frames at each granularity (``event``, ``node``, ``hooks``).

Everything comes from the public recording API: ``Recording.state_at(i)``, ``events``,
``values`` and ``snapshot`` (docs/graph-data.md). Nothing here re-runs backward.

Example:
    >>> import minigrad as torch
    >>> from minigrad.autograd.graph import record
    >>> x = torch.tensor([1.0, 2.0], requires_grad=True)
    >>> with record() as rec:
    ...     (x * x).sum().backward()
    >>> data = build_frames(rec)
    >>> data["count"] == len(rec.events)
    True
"""

import itertools
import math

from viz.arithmetic import accumulate_text, chain_rule

__all__ = ["FORMAT", "GRANULARITIES", "build_frames", "value_text", "event_at", "label_notes"]

FORMAT = "minigrad.frames/1"
GRANULARITIES = {"event": "every event", "node": "one frame per node", "hooks": "hooks only"}

_NODE_KINDS = {"node_created", "backward_started", "node_ran", "error", "backward_finished",
               "truncated"}
_HOOK_KINDS = {"tensor_hook", "node_pre_hook", "node_post_hook", "post_accumulate_hook",
               "backward_started", "error", "backward_finished", "truncated"}
_FLASH_END = {"node_started", "backward_started", "backward_finished", "error", "node_created"}
NOTE_LIMIT = 44        # characters of a value shown on the picture (the panel shows more)
PANEL_LIMIT = 8        # items listed per panel row before "… and N more"
ARITH_WIDTH = 34       # characters per line of a chain rule on the picture


# ----------------------------------------------------------------- values as text
def _number(x, style):
    if isinstance(x, str):           # "nan", "inf", "-inf"
        return x
    if isinstance(x, bool) or style == "int":
        return str(x)
    if style == "whole":
        return f"{x:.0f}."
    if style == "sci":
        return f"{x:.4e}"
    return f"{x:.4f}"


def _style(flat, dtype):
    if dtype.startswith(("int", "uint", "bool")):
        return "int"
    finite = [abs(v) for v in flat if isinstance(v, (int, float)) and math.isfinite(v)]
    if all(float(v).is_integer() for v in finite) and (not finite or max(finite) < 1e8):
        return "whole"
    nonzero = [v for v in finite if v]
    if nonzero and (max(nonzero) >= 1e8 or min(nonzero) < 1e-4):
        return "sci"
    return "fixed"


def _nested(data, style):
    if isinstance(data, (list, tuple)):
        return "[" + ", ".join(_nested(d, style) for d in data) + "]"
    return _number(data, style)


def _flatten(data):
    if isinstance(data, (list, tuple)):
        for d in data:
            yield from _flatten(d)
    else:
        yield data


def value_text(value, max_elements=8):
    """A gradient or tensor Value as short text, the way PyTorch prints it.

    Example:
        >>> value_text({"shape": [2], "dtype": "float32", "data": [6.0, 8.0]})
        '[6., 8.]'
        >>> value_text({"shape": [], "dtype": "float32", "data": 0.5})
        '0.5000'
        >>> value_text(None)
        'None'
    """
    if value is None:
        return "None"
    shape = list(value.get("shape") or [])
    size = math.prod(shape) if shape else 1
    dims = "×".join(str(s) for s in shape)
    if "data" in value and size <= max_elements:
        data = value["data"]
        return _nested(data, _style(list(_flatten(data)), str(value.get("dtype", ""))))
    if "data" in value:
        flat = [float(v) for v in _flatten(value["data"])]
        mean = sum(flat) / len(flat) if flat else 0.0
        norm = math.sqrt(sum(v * v for v in flat))
    else:
        summary = value.get("summary") or {}
        mean, norm = summary.get("mean", "?"), summary.get("norm", "?")
    return f"({dims}) mean {_short(mean)}, norm {_short(norm)}"


def _short(x):
    return f"{x:.4g}" if isinstance(x, (int, float)) else str(x)


def _cut(text, limit=NOTE_LIMIT):
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _listing(items, total, limit=PANEL_LIMIT):
    """The first ``limit`` of ``items`` (an iterable of ``total`` texts), then "… and N more"."""
    shown = ", ".join(itertools.islice(items, limit))
    return shown + (f", … and {total - limit} more" if total > limit else "")


def _plural(n, word):
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


# ----------------------------------------------------------------- the graph around an element
class _Graph:
    """Lookups over the recording's snapshot: labels, edges per node, saved slots."""

    def __init__(self, snapshot, drawn):
        self.tensors = {t["id"]: t for t in snapshot["tensors"]}
        self.nodes = {n["id"]: n for n in snapshot["nodes"]}
        self.drawn = drawn
        self.out_edges, self.in_edges, self.variable = {}, {}, {}
        self.grad_fn_link = {}
        for edge in snapshot["edges"]:
            kind, source, target = edge["kind"], edge["source"], edge["target"]
            if kind in ("next", "constant"):
                self.out_edges.setdefault(source, []).append(edge)
                if kind == "next":
                    self.in_edges.setdefault(target, []).append(edge)
            elif kind == "variable":
                self.variable[source] = edge
            elif kind == "output":
                self.grad_fn_link[target] = edge
        self.constants = {c["id"]: c["node"] for c in snapshot.get("constants") or ()}
        self.edges = {e["id"]: e for e in snapshot["edges"]
                      if e["kind"] in ("next", "constant", "variable", "output")}
        for edges in self.out_edges.values():
            edges.sort(key=lambda e: e["position"] if e["position"] is not None else 0)
        self.saved = {nid: {slot["name"]: f"{nid}-s{k}" for k, slot in
                            enumerate(node.get("saved") or [])}
                      for nid, node in self.nodes.items()}

    def shown(self, item_id):
        return item_id is not None and (self.drawn is None or item_id in self.drawn)

    def name(self, tid):
        info = self.tensors.get(tid)
        return str(info["name"]) if info else "a tensor"

    def label(self, nid):
        info = self.nodes.get(nid)
        if info is None:
            return "a node"
        if info["kind"] == "accumulate" and info.get("variable") in self.tensors:
            return f"{self.name(info['variable'])}'s AccumulateGrad"
        return str(info.get("label") or info["name"])

    def input_name(self, nid, position):
        """The name of the tensor whose gradient ``nid`` sends through input ``position``."""
        edges = self.out_edges.get(nid, ())
        edge = next((e for e in edges if e["position"] == position), None)
        if edge is None or edge["kind"] != "next":
            return f"input {position}"
        target = self.nodes.get(edge["target"]) or {}
        if target.get("kind") == "accumulate":
            variable = target.get("variable")
            return self.name(variable) if variable in self.tensors else "leaf"
        for tid in target.get("outputs") or ():
            if self.tensors.get(tid, {}).get("output_nr") == edge["input_nr"]:
                return self.name(tid)
        stem = str(target.get("name") or "").split("Backward")[0].lower()
        return {"t": "transposed"}.get(stem, stem) or f"input {position}"

    def operand_names(self, nid, inputs):
        """Formula name → the student's name: ``self`` → ``a``, ``result`` → ``c``."""
        node = self.nodes[nid]
        names = {k: self.name(t) for k, t in (node.get("operand_tensors") or {}).items()
                 if t in self.tensors}
        for slot in node.get("saved") or ():
            if slot.get("tensor") in self.tensors:
                names[slot["name"]] = self.name(slot["tensor"])
        outputs = node.get("outputs") or ()
        fallback = {"self": inputs[0] if inputs else None,
                    "other": inputs[1] if len(inputs) > 1 else None,
                    "result": self.name(outputs[0]) if outputs else None}
        for key, value in fallback.items():
            if key not in names and value and not value.startswith("input "):
                names[key] = value
        return names

    def hook_target(self, event):
        """The drawn element whose badge flashes when the hook of ``event`` fires."""
        tensor = event.get("tensor")
        if event["kind"] in ("tensor_hook", "post_accumulate_hook") and self.shown(tensor):
            return tensor
        return event.get("node")


# ----------------------------------------------------------------- the frames
def build_frames(recording, drawn=None):
    """Compute the frame data of ``recording`` (see the module docstring for its fields).

    Args:
        recording: a finished ``minigrad.autograd.graph.Recording``.
        drawn: the ids of the elements in the picture (items and links of the scene); only
            these get timelines. ``None``: every id of the snapshot.

    Returns:
        dict: JSON-ready frame data; ``event_at(data, granularity, frame)`` maps a slider
        position to an event index.
    """
    return _Builder(recording, drawn).run()


def label_notes(data, labels):
    """Put each arrow's label (its slot number) at the head of the arrow's notes, in place:
    while a note is shown the label itself is hidden (class ``noted``), so slot and value are
    read together and never collide (``labels``: arrow id → label text)."""
    for eid, label in labels.items():
        timeline = data["notes"].get(eid)
        if not label or not timeline:
            continue
        for entry in timeline:
            if entry[1]:
                kind, _, text = entry[1].partition("\t")
                entry[1] = f"{kind}\t[{label.strip()}] {text}"


def event_at(data, granularity, frame):
    """The event index shown at position ``frame`` of the slider at ``granularity``."""
    sequence = data["sequences"].get(granularity)
    count = data["count"] if sequence is None else len(sequence)
    if count == 0:
        return 0
    frame = min(max(int(frame), 0), count - 1)
    return frame if sequence is None else sequence[frame]


class _Builder:
    def __init__(self, recording, drawn):
        self.rec = recording
        self.events = recording.events
        self.values = recording.values
        self.graph = _Graph(recording.snapshot.to_dict(), None if drawn is None else set(drawn))
        self.texts, self.state_texts = {}, {}
        self.passes = [dict(p) for p in recording.passes]
        self.starts = {p["pass"]: self.events[p["start"]] for p in self.passes}
        self.looks = {}               # element id -> (classes, note) shown now
        self.classes, self.notes = {}, {}
        self.panel_index, self.panel_table = {}, []
        self.sent = {}                # node id -> grads it sent in the current pass (value refs)
        self.roots = {}               # root tensor id -> initial grad ref, current pass
        self.flash = {}               # element id -> (class, note lines) until the run ends
        self.created = None           # node ids created so far (None: no forward events)
        self.arith = {}               # event index -> chain-rule lines (the panel shows them)
        self.accumulated = {}         # event index -> "x.grad = None + 3. = 3."
        if any(e["kind"] == "node_created" for e in self.events):
            self.created = set()
            self.future_nodes = {e["node"] for e in self.events if e["kind"] == "node_created"}

    # ------------------------------------------------------------- values
    def text(self, ref, limit=NOTE_LIMIT):
        if ref is None:
            return "None"
        key = (ref, limit)
        if key not in self.texts:
            self.texts[key] = _cut(value_text(self.values[ref]), limit)
        return self.texts[key]

    def value(self, value, limit=NOTE_LIMIT):
        """Text of a Value dict from a state (the same dict object for the same value)."""
        if value is None:
            return "None"
        key = (id(value), limit)
        hit = self.state_texts.get(key)
        if hit is None or hit[0] is not value:
            hit = self.state_texts[key] = (value, _cut(value_text(value), limit))
        return hit[1]

    # ------------------------------------------------------------- the loop
    def run(self):
        count = len(self.events)
        captions, kinds, panels, focus = [], [], [], []
        previous = None
        for i in range(count):
            event = self.events[i]
            state = self.rec.state_at(i)
            dirty = self.advance(event, state, previous)
            for item_id in dirty:
                if self.graph.shown(item_id):
                    self.update(item_id, i, state)
            captions.append(state["caption"])
            kinds.append(event["kind"])
            panels.append(self.panel(self.panel_rows(event, state, previous)))
            focus.append(self.focus_of(event, state))
            previous = state
        sequences = {"event": None,
                     "node": [i for i, k in enumerate(kinds) if k in _NODE_KINDS],
                     "hooks": [i for i, k in enumerate(kinds) if k in _HOOK_KINDS]}
        passes = self.passes
        return {"format": FORMAT, "count": count, "captions": captions, "kinds": kinds,
                "panels": panels, "panel_rows": self.panel_table, "focus": focus,
                "classes": self.classes, "notes": self.notes, "sequences": sequences,
                "passes": passes, "labels": GRANULARITIES}

    def update(self, item_id, i, state):
        look = self.look(item_id, state)
        old = self.looks.get(item_id, ("", ""))
        if old == look:
            return
        self.looks[item_id] = look
        for table, before, value in ((self.classes, old[0], look[0]),
                                     (self.notes, old[1], look[1])):
            if before != value:
                timeline = table.setdefault(item_id, [])
                if timeline and timeline[-1][0] == i:
                    timeline[-1][1] = value
                else:
                    timeline.append([i, value])

    # ------------------------------------------------------------- what changed
    def advance(self, event, state, previous):
        """Update the running context for ``event``; return the element ids to re-look at."""
        g, kind = self.graph, event["kind"]
        dirty = set()
        if kind in _FLASH_END and self.flash:
            dirty.update(self.flash)
            self.flash = {}
        if kind == "node_created" and self.created is not None:
            self.created.add(event["node"])
            dirty.update(self._around(event["node"]))
            self.mark(event["node"], "born")
        if previous is None:
            dirty.update(self._everything())
        if kind == "backward_started":
            dirty.update(self._pass_elements())
            self.sent = {}
            self.roots = dict(zip(event["roots"], event["grads"]))
            dirty.update(self._pass_elements())
            start = event.get("graph_root")
            if start in g.nodes and not any(g.shown(t) and t in g.tensors for t in self.roots):
                grads = ", ".join(self.text(r) for r in event["grads"])
                self.mark(start, "start", [("flow", f"backward() starts here: grad {grads}")])
        elif kind == "node_ran":
            self.sent[event["node"]] = list(event["grads_out"])
            dirty.update(self._around(event["node"]))
            self.arithmetic(event)
        elif kind == "node_post_hook" and event["result"] is not None:
            self.sent[event["node"]] = list(event["result"])
            dirty.update(self._around(event["node"]))
        elif kind == "grad_summed":
            self.summed(event, previous)
        elif kind == "grad_accumulated":
            inputs = state["inputs"] or [None]
            added = _difference(self.values[event["after"]], self.values[event["before"]]) \
                if event["before"] is not None else self.values[event["after"]]
            added = inputs[0] if inputs[0] is not None else added
            text = accumulate_text(g.name(event["tensor"]), self.ref_value(event["before"]),
                                   added, self.ref_value(event["after"]))
            self.accumulated[event["i"]] = text
            lines = [("gradnew", _cut(text, 60))]
            if event["before"] is not None:     # the "forgot zero_grad" moment
                lines.append(("gradnew", "added to the old .grad (not zeroed)"))
            self.mark(event["tensor"], "gradnew", lines)
            edge = g.variable.get(event["node"])
            self.mark(edge and edge["id"], "flow")
        elif kind == "grad_retained":
            self.mark(event["tensor"], "gradnew",
                      [("gradnew", f".grad = {self.text(event['grad'])} (retain_grad)")])
        elif kind in ("tensor_hook", "node_pre_hook", "node_post_hook", "post_accumulate_hook"):
            self.mark(g.hook_target(event), "hookfire", self.hook_lines(event))
        elif kind == "saved_released":
            slots = [g.saved.get(event["node"], {}).get(name) for name in event["names"]]
            for slot in slots:
                self.mark(slot, "justreleased")
            if not any(g.shown(slot) for slot in slots):   # saved tensors not drawn
                names = ", ".join(event["names"]) or "its saved tensors"
                self.mark(event["node"], "freed", [("released", f"frees saved {names}")])
        dirty.update(self.flash)
        if previous is not None:
            dirty.update(self._state_diff(previous, state))
        else:
            dirty.update(self._state_ids(state))
        return dirty

    def summed(self, event, previous):
        """Fan-in: show the receiver's buffer before + the new gradient = the sum."""
        before = ((previous or {}).get("buffers") or {}).get(event["node"]) or []
        old = before[event["index"]] if event["index"] < len(before) else None
        if old is None:    # the first gradient was delivered in the same step: total - new
            old = _difference(self.values[event["total"]], self.values[event["grad"]])
        added = f"{self.value(old, 20)} + {self.text(event['grad'], 20)}" \
            if old is not None else self.text(event["grad"], 20)
        self.flash.pop(event["node"], None)
        self.mark(event["node"], "summing",
                  [("sum", f"fan-in: {added} = {self.text(event['total'], 24)}")])
        for edge in self.graph.in_edges.get(event["node"], ()):
            if edge["source"] == event["sender"] and edge["input_nr"] == event["index"]:
                self.mark(edge["id"], "sum")

    def ref_value(self, ref):
        return None if ref is None else self.values[ref]

    def arithmetic(self, event):
        """The chain rule with its numbers, on the node that just ran (see viz/arithmetic.py)."""
        g, nid = self.graph, event["node"]
        node = g.nodes.get(nid)
        if not node or not node.get("formula") or not event["grads_in"]:
            return
        inputs = [g.input_name(nid, k) for k in range(len(event["grads_out"]))]
        args = (node, [self.ref_value(r) for r in event["grads_in"]],
                [self.ref_value(r) for r in event["grads_out"]], inputs,
                g.operand_names(nid, inputs))
        lines = chain_rule(*args)
        if lines:
            self.arith[event["i"]] = lines
            self.mark(nid, "arith", [("arith", part) for line in chain_rule(*args, compact=True)
                                     for part in _fold(line, ARITH_WIDTH)])

    def mark(self, item_id, flag, lines=()):
        """Flash ``flag`` (and note ``lines``) on an element until the running node changes."""
        if item_id is None:
            return
        flags, old = self.flash.get(item_id, (frozenset(), []))
        self.flash[item_id] = (flags | {flag}, old + list(lines))

    def hook_lines(self, event):
        kind, name = event["kind"], event["hook"]
        if kind == "tensor_hook":
            change = self.text(event["grad_in"], 18)
            if event["grad_out"] != event["grad_in"]:
                change += " → " + self.text(event["grad_out"], 18)
            return [("hook", f"hook {name}: {change}")]
        if kind == "node_pre_hook":
            change = ", ".join(self.text(r, 18) for r in event["grads_in"])
            if list(event["grads_out"]) != list(event["grads_in"]):
                change += " → " + ", ".join(self.text(r, 18) for r in event["grads_out"])
            return [("hook", f"pre-hook {name}: {change}")]
        if kind == "node_post_hook":
            change = "" if event["result"] is None else " → " + ", ".join(
                self.text(r, 18) for r in event["result"])
            return [("hook", f"post-hook {name}{change}")]
        return [("hook", f"post-accumulate hook {name}")]

    def _around(self, nid):
        g = self.graph
        ids = {nid}
        ids.update(e["id"] for e in g.out_edges.get(nid, ()))
        ids.update(e["target"] for e in g.out_edges.get(nid, ()) if e["kind"] == "constant")
        ids.update(e["id"] for e in g.in_edges.get(nid, ()))
        node = g.nodes.get(nid, {})
        ids.update(node.get("outputs") or ())
        ids.update(g.saved.get(nid, {}).values())
        ids.update(e["id"] for t in node.get("outputs") or ()
                   for e in [g.grad_fn_link.get(t)] if e)
        if nid in g.variable:
            ids.update({g.variable[nid]["id"], g.variable[nid]["target"]})
        for edge in g.out_edges.get(nid, ()):
            target = g.nodes.get(edge["target"])
            if target and target["kind"] == "accumulate" and edge["target"] in g.variable:
                ids.update({edge["target"], g.variable[edge["target"]]["id"],
                            g.variable[edge["target"]]["target"]})
        return ids

    def _everything(self):
        g = self.graph
        return set(g.nodes) | set(g.tensors) | set(g.constants) | set(g.edges) | {
            s for slots in g.saved.values() for s in slots.values()}

    def _pass_elements(self):
        ids = set(self.sent)
        for nid in list(self.sent):
            ids.update(self._around(nid))
        for tid in self.roots:
            ids.add(tid)
            edge = self.graph.grad_fn_link.get(tid)
            if edge:
                ids.update({edge["id"], edge["source"]})
        return ids

    @staticmethod
    def _state_ids(state):
        ids = set(state["ran"]) | set(state["skipped"]) | set(state["pending"])
        ids |= set(state["ready"]) | set(state["grads"]) | set(state["buffers"])
        ids |= {state["node"]} - {None}
        if state["error"]:
            ids.add(state["error"]["node"])
        return ids

    def _state_diff(self, old, new):
        """Ids whose state entries differ between two consecutive states."""
        ids = set()
        if old["node"] != new["node"]:
            for nid in (old["node"], new["node"]):
                if nid:
                    ids.add(nid)
                    ids.update(e["id"] for e in self.graph.in_edges.get(nid, ()))
                    ids.update(e["id"] for e in self.graph.out_edges.get(nid, ()))
        if old["inputs"] != new["inputs"] and new["node"]:
            ids.add(new["node"])
        for key in ("pending", "buffers", "grads"):
            a, b = old[key], new[key]
            if a != b:
                ids.update(k for k in b if k not in a or a[k] != b[k])
                ids.update(k for k in a if k not in b)
        for key in ("ran", "skipped", "ready"):
            a, b = old[key], new[key]
            if a == b:
                continue
            if key != "ready" and len(b) >= len(a) and b[:len(a)] == a:
                ids.update(b[len(a):])
            else:
                ids.update(a)
                ids.update(b)
        if old["error"] != new["error"]:
            ids.update(e["node"] for e in (old["error"], new["error"]) if e and e["node"])
        if old["captured"] != new["captured"] or old["pass"] != new["pass"]:
            ids.update(self._captured_targets(new) | self._captured_targets(old))
        a, b = old["released"], new["released"]
        if len(a) != len(b) or new.get("kind") == "saved_released":
            for nid in set(b) - set(a) if len(a) != len(b) else b:
                if a.get(nid) != b[nid]:
                    ids.update(self.graph.saved.get(nid, {}).values())
        return ids

    def _captured_targets(self, state):
        start = self._start_of(state)
        inputs = (start or {}).get("inputs") or ()
        return {inputs[int(k)] for k in state["captured"] if int(k) < len(inputs)}

    def _start_of(self, state):
        return self.starts.get(state["pass"])

    # ------------------------------------------------------------- looks
    def look(self, item_id, state):
        g = self.graph
        if item_id in g.nodes:
            classes, lines = self.node_look(item_id, state)
        elif item_id in g.tensors:
            classes, lines = self.tensor_look(item_id, state)
        elif "-s" in item_id and item_id.split("-s")[0] in g.nodes:
            classes, lines = self.saved_look(item_id, state)
        elif item_id in g.constants:
            classes, lines = (["future"] if self.is_future(g.constants[item_id]) else []), []
        else:
            classes, lines = self.edge_look(item_id, state)
        flash = self.flash.get(item_id)
        if flash is not None:
            classes = classes + sorted(flash[0])
            lines = lines + flash[1]
        if lines and item_id in g.edges:   # the note carries the arrow's label (slot) itself
            classes = classes + ["noted"]
        return (" ".join(classes), "\n".join(f"{k}\t{t}" for k, t in lines))

    def is_future(self, nid):
        return self.created is not None and nid in self.future_nodes and nid not in self.created

    def node_look(self, nid, state):
        node = self.graph.nodes[nid]
        if self.is_future(nid) or (node["kind"] == "accumulate" and self._acc_future(nid)):
            return ["future"], []
        error = state["error"]
        if error and error["node"] == nid:
            return ["error"], [("error", line) for line in _wrap(
                f"{error['type']}: {error['message']}", 46, 5)]
        if state["node"] == nid and not state["finished"] and node["kind"] == "accumulate" \
                and state["api"] == "grad":   # torch only captures the gradient here
            return ["captured"], [("grad", "autograd.grad() takes the gradient here;"),
                                  ("grad", "AccumulateGrad does not run")]
        if state["node"] == nid and not state["finished"]:
            inputs = state["inputs"] or []
            got = ", ".join(self.value(v, 30) for v in inputs) or "nothing"
            return ["running"], [("run", f"running, got {got}")]
        if nid in state["ran"]:
            return ["done"], []
        if nid in state["skipped"]:
            return ["skipped"], [("state", "skipped: not needed")]
        if nid in state["ready"]:
            position = state["ready"].index(nid) + 1
            return ["ready"], [("state", f"ready, #{position} in queue")]
        pending = state["pending"].get(nid)
        if pending:
            lines = [("state", f"waits for {_plural(pending, 'grad')}")]
            have = [v for v in state["buffers"].get(nid) or () if v is not None]
            if have:
                lines.append(("state", "so far " + ", ".join(self.value(v, 30) for v in have)))
            return ["waiting"], lines
        return [], []

    def _acc_future(self, nid):
        if self.created is None:
            return False
        users = [e["source"] for e in self.graph.in_edges.get(nid, ())]
        return bool(users) and all(self.is_future(u) for u in users)

    def tensor_look(self, tid, state):
        g = self.graph
        info = g.tensors[tid]
        owner = info.get("grad_fn") or info.get("accumulator")
        if owner and (self.is_future(owner) or (info.get("accumulator") == owner
                                                and self._acc_future(owner))):
            return ["future"], []
        classes, lines = [], []
        if tid in self.roots and not (owner and owner in state["ran"]):
            classes.append("start")
            lines.append(("flow", f"start: grad {self.text(self.roots[tid])}"))
        if tid in state["grads"] and "gradnew" not in self.flash.get(tid, ((),))[0]:
            grad = state["grads"][tid]
            if grad is not None:
                classes.append("hasgrad")
            lines.append(("grad", f".grad = {self.value(grad)}"))
        for position, tensor in self._captured(state):
            if tensor == tid:
                classes.append("hasgrad")
                lines.append(("gradnew", "autograd.grad gives "
                              f"{self.value(state['captured'][position])}"))
        return classes, lines

    def _captured(self, state):
        if not state["captured"]:
            return []
        inputs = (self._start_of(state) or {}).get("inputs") or ()
        return [(k, inputs[int(k)]) for k in state["captured"] if int(k) < len(inputs)]

    def saved_look(self, slot_id, state):
        nid = slot_id.split("-s")[0]
        if self.is_future(nid):
            return ["future"], []
        names = state["released"].get(nid) or ()
        for name in names:
            if self.graph.saved.get(nid, {}).get(name) == slot_id:
                return ["released"], [("released", "released")]
        return [], []

    def edge_look(self, eid, state):
        edge = self._edge(eid)
        if edge is None:
            return [], []
        kind, source, target = edge["kind"], edge["source"], edge["target"]
        if self.is_future(source) or (kind == "next" and self.is_future(target)):
            return ["future"], []
        if kind == "output":       # drawn as root tensor -> its grad_fn
            if target in self.roots:
                ran = source in state["ran"]
                return ["sent" if ran else "flow"], [("flow", self.text(self.roots[target]))]
            return [], []
        if kind == "variable":
            return (["sent"] if source in state["ran"] else []), []
        if kind == "constant":     # (None, 0): nothing is ever sent there
            return [], []
        grads = self.sent.get(source)
        if grads is None:
            return [], []
        position = edge["position"] or 0
        classes = ["flow" if state["node"] == source else "sent"]
        if kind == "next" and state["node"] == target and not state["finished"]:
            classes.append("in")
        ref = grads[position] if position < len(grads) else None
        if ref is None:
            return ["nograd"], [("flow", "no grad")]
        return classes, [("flow", self.arrow_text(ref))]

    def arrow_text(self, ref):
        """A gradient on an arrow, short: its values up to 4 elements, else its shape and
        norm (``8×16 ‖g‖ 0.49``); the panel and the node's notes give more."""
        key = (ref, "arrow")
        if key not in self.texts:
            value = self.values[ref]
            shape = list(value.get("shape") or [])
            if math.prod(shape) <= 4 and "data" in value:
                text = value_text(value)
            else:
                flat = [float(v) for v in _flatten(value["data"])] if "data" in value else None
                norm = math.sqrt(sum(v * v for v in flat)) if flat is not None else \
                    (value.get("summary") or {}).get("norm", "?")
                text = f"{'×'.join(str(n) for n in shape)} ‖g‖ {_short(norm)}"
            self.texts[key] = _cut(text, 28)
        return self.texts[key]

    def _edge(self, eid):
        return self.graph.edges.get(eid)

    def focus_of(self, event, state):
        if state["error"]:
            return state["error"]["node"]
        if event["kind"] == "backward_started":
            return next((t for t in event["roots"] if t in self.graph.tensors),
                        event.get("graph_root"))
        return state["node"] or event.get("node") or event.get("tensor")

    # ------------------------------------------------------------- the side panel
    def panel(self, rows):
        """The panel as indexes into ``panel_rows`` (each distinct row is stored once)."""
        indexes = []
        for label, text in rows:
            index = self.panel_index.get((label, text))
            if index is None:
                index = self.panel_index[(label, text)] = len(self.panel_table)
                self.panel_table.append([label, text])
            indexes.append(index)
        return indexes

    def panel_rows(self, event, state, previous):
        g, rows = self.graph, []
        passes = self.passes
        if state["pass"] is not None and len(passes) > 1:
            api = "autograd.grad" if state["api"] == "grad" else "backward"
            rows.append(["pass", f"pass {state['pass']} of {len(passes)}: {api}()"])
        if state["error"]:
            error = state["error"]
            rows.append(["error", f"{error['type']} in {g.label(error['node'])}: "
                                  f"{error['message']}"])
            hint = _error_hint(error["message"], g.label(error["node"]))
            if hint:
                rows.append(["why", hint])
        if state["node"] and not state["finished"]:
            rows.append(["running", g.label(state["node"])])
            rows.append(["receives", ", ".join(self.value(v, 200) for v in
                                               state["inputs"] or ()) or "nothing"])
            sends = self.sends_text(state["node"])
            if sends:
                rows.append(["sends", sends])
        rows.extend(["chain rule", line] for line in self.arith.get(event["i"], ()))
        rows.extend(self.event_rows(event, previous))
        ready, pending, grads = state["ready"], state["pending"], state["grads"]
        if ready:
            rows.append(["ready queue", _listing((f"{k}. {g.label(n)}" for k, n in
                                                  enumerate(ready, 1)), len(ready))])
        if pending:
            rows.append(["waiting", _listing((f"{g.label(n)} ({c} more)" for n, c in
                                              pending.items()), len(pending))])
        if grads:
            rows.append([".grad", _listing((f"{g.name(t)}: {self.value(v, 40)}" for t, v in
                                            grads.items()), len(grads))])
        if state["ran"] and state["pass"] is not None:
            rows.append(["done", f"{_plural(len(state['ran']), 'node')} ran so far"])
        return rows

    def sends_text(self, nid):
        grads = self.sent.get(nid)
        if grads is None:
            return ""
        parts = []
        for edge, ref in zip(self.graph.out_edges.get(nid, ()), grads):
            where = "a constant" if edge["kind"] == "constant" else self.graph.label(edge["target"])
            parts.append(f"{self.text(ref, 200) if ref is not None else 'no grad'} → {where}")
        return "; ".join(parts)

    def event_rows(self, event, previous):
        g, kind = self.graph, event["kind"]
        if kind == "grad_accumulated":
            name = g.name(event["tensor"])
            rows = [["accumulates", self.accumulated.get(event["i"]) or
                     f"{name}.grad: {self.text(event['before'], 200)} → "
                     f"{self.text(event['after'], 200)}"]]
            if event["before"] is not None:
                rows.append(["note", f"backward() adds into {name}.grad, it never replaces "
                                     "it: the old value came from an earlier backward. "
                                     f"Reset it between steps ({name}.grad = None, or "
                                     "optimizer.zero_grad()) unless you want the sum."])
            return rows
        if kind == "grad_retained":
            return [["retains", f"{g.name(event['tensor'])}.grad = "
                                f"{self.text(event['grad'], 200)}"]]
        if kind in ("tensor_hook", "node_pre_hook", "node_post_hook", "post_accumulate_hook"):
            return [["hook", text] for _, text in self.hook_lines(event)]
        if kind == "grad_summed":
            return [["fan-in", f"{g.label(event['node'])} input {event['index']}: + "
                               f"{self.text(event['grad'], 200)} from "
                               f"{g.label(event['sender'])} = {self.text(event['total'], 200)}"]]
        if kind == "saved_released":
            return [["released", f"{g.label(event['node'])} frees "
                                 f"{', '.join(event['names']) or 'its saved tensors'}"]]
        if kind == "backward_started":
            roots = ", ".join(f"{g.name(t)} (grad {self.text(r, 60)})"
                              for t, r in zip(event["roots"], event["grads"]))
            return [["starts at", roots]]
        if kind == "node_created":
            return [["created", g.label(event["node"])]]
        return []


def _difference(total, part):
    """The Value ``total - part`` (both with their data), or ``None``."""
    if not (total and part and "data" in total and "data" in part):
        return None

    def minus(a, b):
        if isinstance(a, (list, tuple)):
            return [minus(x, y) for x, y in zip(a, b)]
        if isinstance(a, str) or isinstance(b, str):
            return a
        return a - b
    try:
        return dict(total, data=minus(total["data"], part["data"]))
    except TypeError:
        return None


def _error_hint(message, node):
    """Plain words for the two errors students meet most (backward twice, in place)."""
    message = str(message)
    if "second time" in message:
        return (f"The first backward() freed the tensors {node} had saved for its formula. "
                "Pass retain_graph=True to the first backward() if you need to go through "
                "the graph again (or build the graph anew).")
    if "modified by an inplace operation" in message:
        return (f"{node} saved a tensor for its formula, and an in-place op (add_, mul_, "
                "x[...] = …) changed it afterwards: its version counter moved on, so the "
                "saved value is stale. Use the out-of-place op (y = y * 2) or clone() first.")
    return ""


def _fold(line, width):
    """A chain-rule line cut at its "=" and "→" signs into lines of at most ``width``
    characters; a longer formula goes on over more lines, cut between its words."""
    parts = line.replace(" → ", " = → ").split(" = ")
    lines = [parts[0]]
    for part in parts[1:]:
        sign = "" if part.startswith("→") else "= "
        if len(lines[-1]) + 1 + len(sign) + len(part) <= width:
            lines[-1] += " " + sign + part
        else:
            lines.append("  " + sign + part)
    return [piece for text in lines for piece in _between_words(text, width + 12)]


def _between_words(text, width):
    """``text`` in lines of at most ``width`` characters, cut at spaces (the next lines
    indented a little more); a word longer than a line is cut."""
    indent = len(text) - len(text.lstrip(" "))
    lines, line = [], text[:indent]
    for word in text[indent:].split(" "):
        if line.strip() and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = " " * (indent + 4)
        line += " " + word if line.strip() else word
    lines.append(line)
    return [_cut(piece, width) for piece in lines]


def _wrap(text, width, max_lines):
    words, lines, line = str(text).split(), [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
        if len(lines) == max_lines:
            break
    if line and len(lines) < max_lines:
        lines.append(line)
    if len(lines) == max_lines and " ".join(lines) != " ".join(words):
        lines[-1] = _cut(lines[-1] + " …", width)
    return [_cut(line, width) for line in lines]
