"""Replaying a recording's events into the state of the graph after each event.

The engine does not report every gradient it moves: after a node has run (and its post-hooks
have had their say) it walks the node's edges in ``next_functions`` order, decrements each
receiver's dependency count and puts the gradient into the receiver's input buffer, and only
the remarkable steps are events (``grad_summed`` when a buffer already held a gradient,
``node_ready`` when a count reaches zero). The replay walks the same edges in the same order,
so between two events it knows exactly which gradients have been delivered.

``Replayer`` keeps checkpoints of the state every few events, so that any frame is reached by
copying one checkpoint and applying a few events.
"""

import math

__all__ = ["Replayer"]

_HOOK_KINDS = ("tensor_hook", "node_pre_hook", "node_post_hook", "post_accumulate_hook")


class _Pass:
    """The state of one backward pass."""

    __slots__ = ("number", "api", "roots", "node", "inputs", "ran", "skipped", "pending",
                 "ready", "buffers", "captured", "finished", "error", "outputs", "sends",
                 "start_grads", "journal")

    def __init__(self, number, api=None, roots=()):
        self.number, self.api, self.roots = number, api, list(roots)
        self.node = None          # the node running now
        self.inputs = None        # the gradients it received (after hooks so far)
        self.ran, self.skipped = [], []
        self.pending = {}         # node id -> gradients it still waits for
        self.ready = []
        self.buffers = {}         # node id -> [value ref or None] per node input
        self.captured = {}        # position in ``inputs`` -> value ref (autograd.grad)
        self.finished = False
        self.error = None
        self.outputs = None       # (node, value refs) the running node will send
        self.sends = None         # [(target, input_nr, ref)] not delivered yet
        self.start_grads = {}     # tensor id -> .grad when the pass started
        self.journal = {}         # tensor id -> .grad before this pass first wrote it

    def copy(self):
        other = _Pass(self.number, self.api, self.roots)
        other.node, other.finished, other.error = self.node, self.finished, self.error
        other.inputs = None if self.inputs is None else list(self.inputs)
        other.ran, other.skipped, other.ready = list(self.ran), list(self.skipped), \
            list(self.ready)
        other.pending, other.captured = dict(self.pending), dict(self.captured)
        other.buffers = {k: list(v) for k, v in self.buffers.items()}
        other.outputs = self.outputs
        other.sends = None if self.sends is None else list(self.sends)
        other.start_grads = self.start_grads  # never changed after the pass started
        other.journal = dict(self.journal)
        return other


class _State:
    __slots__ = ("i", "created", "grads", "retained", "released", "passes", "truncated",
                 "exported")

    def __init__(self):
        self.i = -1
        self.created = []
        self.grads = {}           # tensor id -> value ref of its .grad (None: no grad)
        self.retained = []
        self.released = {}        # node id -> names of released saved tensors
        self.passes = {}          # pass number -> _Pass (passes still relevant)
        self.truncated = False
        self.exported = None      # (grads, released) as exported, until either changes

    def copy(self):
        other = _State()
        other.i, other.truncated = self.i, self.truncated
        other.created, other.retained = list(self.created), list(self.retained)
        other.grads, other.released = dict(self.grads), dict(self.released)
        other.passes = {k: p.copy() for k, p in self.passes.items()}
        return other


class Replayer:
    """Computes ``state_at(i)`` for a list of converted events.

    Args:
        events: the events (plain data, as in ``Recording.events``).
        structure: node id -> (number of inputs, [(target node id, input_nr)] per edge with a
            node at the end) for every node the events mention.
        resolve: value reference -> Value.
        caption: event index -> caption text.
    """

    def __init__(self, events, structure, resolve, caption):
        self.events, self.structure = events, structure
        self.resolve, self.caption = resolve, caption
        size = max(1, len(structure))
        budget = 400_000  # state entries kept in all checkpoints together
        self.every = max(16, math.ceil(len(events) * 3 * size / budget))
        self.checkpoints = None
        self.cursor = None

    def state_at(self, i):
        if not -len(self.events) <= i < len(self.events):
            raise IndexError(f"event {i} out of range (the recording has {len(self.events)} "
                             "events)")
        i %= len(self.events)
        if self.checkpoints is None:
            self._build_checkpoints()
        cursor = self.cursor
        if cursor is not None and cursor.i <= i < cursor.i + self.every:
            state = cursor
        else:
            k = (i + 1) // self.every
            state = self.checkpoints[k - 1].copy() if k else _State()
        for j in range(state.i + 1, i + 1):
            self._apply(state, self.events[j])
        self.cursor = state
        return self._export(state)

    def _set_grad(self, state, tensor, ref):
        state.grads[tensor] = ref
        if state.exported is not None:  # kept up to date: exporting a frame stays cheap
            state.exported[0][tensor] = self.resolve(ref) if ref is not None else None

    def _build_checkpoints(self):
        self.checkpoints = []
        state = _State()
        for event in self.events:
            self._apply(state, event)
            if (state.i + 1) % self.every == 0:
                self.checkpoints.append(state.copy())

    # ----------------------------------------------------------------- applying one event
    def _apply(self, state, event):
        state.i = event["i"]
        kind = event["kind"]
        p = state.passes.get(event["pass"]) if event["pass"] is not None else None
        if kind == "node_created":
            state.created.append(event["node"])
        elif kind == "backward_started":
            for number in [n for n, q in state.passes.items() if q.finished]:
                del state.passes[number]
            p = state.passes[event["pass"]] = _Pass(event["pass"], event["api"], event["roots"])
            p.buffers[event["graph_root"]] = list(event["buffer"])
        elif kind == "truncated":
            state.truncated = True
        elif kind == "grad_accumulated":
            _remember(state, p, event["tensor"])
            self._set_grad(state, event["tensor"], event["after"])
        elif kind == "grad_retained":
            _remember(state, p, event["tensor"])
            self._set_grad(state, event["tensor"], event["grad"])
            if event["tensor"] not in state.retained:
                state.retained.append(event["tensor"])
        elif kind == "saved_released":
            state.released[event["node"]] = list(event["names"])
            if state.exported is not None:
                state.exported[1][event["node"]] = list(event["names"])
        if p is None:
            return
        handler = getattr(self, "_on_" + kind, None)
        if handler is not None:
            handler(state, p, event)

    def _on_dependencies(self, state, p, event):
        p.pending = {n: c for n, c in event["counts"].items() if c > 0}  # only waiting ones
        p.start_grads = dict(event.get("tensor_grads") or {})
        state.grads.update(p.start_grads)
        state.exported = None

    def _on_node_ready(self, state, p, event):
        node = event["node"]
        self._start_sending(p)
        while p.sends and p.pending.get(node, 0) > 0:
            self._deliver(p, p.sends.pop(0))
        p.pending.pop(node, None)
        if "queue" in event:  # recordings made before the queue was stored as its changes
            p.ready = list(event["queue"])
        else:
            p.ready.insert(event["at"], node)

    def _on_node_started(self, state, p, event):
        self._deliver_all(p)
        p.node = event["node"]
        p.inputs = list(event["grads"])
        p.buffers.pop(p.node, None)
        if "queue" in event:
            p.ready = list(event["queue"])
        elif p.ready and p.ready[0] == p.node:  # the engine runs the head of its queue
            del p.ready[0]
        elif p.node in p.ready:
            p.ready.remove(p.node)

    def _on_tensor_hook(self, state, p, event):
        if p.inputs is not None and event["index"] < len(p.inputs):
            p.inputs[event["index"]] = event["grad_out"]

    def _on_node_pre_hook(self, state, p, event):
        p.inputs = list(event["grads_out"])

    def _on_node_ran(self, state, p, event):
        p.ran.append(event["node"])
        p.outputs = (event["node"], list(event["grads_out"]))
        p.sends = None

    def _on_node_post_hook(self, state, p, event):
        if event["result"] is not None:
            p.outputs = (event["node"], list(event["result"]))

    def _on_grad_summed(self, state, p, event):
        target, index = event["node"], event["index"]
        self._start_sending(p)
        while p.sends:
            send = p.sends.pop(0)
            if send[0] == target and send[1] == index and send[2] is not None \
                    and p.buffers.get(target, [None] * (index + 1))[index] is not None:
                if event["pending"] > 0:
                    p.pending[target] = event["pending"]
                else:
                    p.pending.pop(target, None)
                p.buffers[target][index] = event["total"]
                return
            self._deliver(p, send)

    def _on_grad_captured(self, state, p, event):
        p.captured[event["position"]] = event["grad"]

    def _on_node_skipped(self, state, p, event):
        # Reported when the node's count reaches zero, in place of node_ready (older engines
        # reported it when the node was taken from the queue: then there is nothing to send).
        node = event["node"]
        self._start_sending(p)
        while p.sends and p.pending.get(node, 0) > 0:
            self._deliver(p, p.sends.pop(0))
        p.pending.pop(node, None)
        p.buffers.pop(node, None)
        p.skipped.append(node)

    def _on_error(self, state, p, event):
        p.error = {"node": event["node"], "type": event["error"], "message": event["message"]}
        p.finished, p.sends, p.outputs = True, None, None
        # NB: minigrad undoes a failed pass: every .grad it wrote is restored, as the engine's
        # rollback does (a .grad that a nested pass wrote in a hook stays).
        state.grads.update(p.journal)
        state.exported = None

    def _on_backward_finished(self, state, p, event):
        self._deliver_all(p)
        p.finished, p.node, p.inputs = True, None, None

    # ----------------------------------------------------------------- moving gradients
    def _start_sending(self, p):
        if p.sends is None and p.outputs is not None:
            node, grads = p.outputs
            edges = self.structure.get(node, (0, []))[1]
            p.sends = [(target, input_nr, grad)
                       for (target, input_nr), grad in zip(edges, grads) if target is not None]
            p.outputs = None

    def _deliver(self, p, send):
        target, input_nr, grad = send
        if target in p.pending:
            p.pending[target] -= 1
            if p.pending[target] <= 0:
                del p.pending[target]
        buffer = p.buffers.get(target)
        if buffer is None:
            buffer = p.buffers[target] = [None] * self.structure.get(target, (1, []))[0]
        if grad is not None and input_nr < len(buffer) and buffer[input_nr] is None:
            buffer[input_nr] = grad

    def _deliver_all(self, p):
        self._start_sending(p)
        while p.sends:
            self._deliver(p, p.sends.pop(0))

    # ----------------------------------------------------------------- the frame as plain data
    def _export(self, state):
        event = self.events[state.i]
        p = state.passes.get(event["pass"]) if event["pass"] is not None else None
        values = self.resolve

        def refs(seq):
            return None if seq is None else [values(r) for r in seq]
        if state.exported is None:  # a frame's cost grows with what changed, not the graph
            state.exported = ({t: values(r) for t, r in state.grads.items()},
                              {n: list(names) for n, names in state.released.items()})
        grads, released = state.exported
        caption = self.caption(state.i, p.ready if p is not None else None)
        frame = {
            "i": state.i, "kind": event["kind"], "caption": caption,
            "pass": event["pass"], "api": None, "node": None, "inputs": None, "ran": [],
            "skipped": [], "pending": {}, "ready": [], "buffers": {}, "captured": {},
            "finished": False, "error": None,
            "grads": dict(grads),
            "retained": list(state.retained),
            "released": dict(released),
            "hooks_fired": _hooks_fired(event), "created": list(state.created),
            "truncated": state.truncated,
        }
        if p is not None:
            frame.update({
                "api": p.api, "node": p.node, "inputs": refs(p.inputs), "ran": list(p.ran),
                "skipped": list(p.skipped),
                "pending": dict(p.pending),
                "ready": list(p.ready),
                "buffers": {n: refs(b) for n, b in p.buffers.items()},
                "captured": {str(k): values(r) for k, r in sorted(p.captured.items())},
                "finished": p.finished, "error": p.error,
            })
        return frame


def _remember(state, p, tensor):
    """Before pass ``p`` changes a ``.grad``: keep the value to restore if the pass fails."""
    if p is not None and tensor not in p.journal:
        p.journal[tensor] = state.grads.get(tensor)


def _hooks_fired(event):
    if event["kind"] not in _HOOK_KINDS:
        return []
    return [{"kind": event["kind"], "hook": event["hook"], "node": event["node"],
             "tensor": event.get("tensor")}]
