"""One plain-English sentence per event, for the stepper to show under the picture.

Captions are computed from plain data only (the events, the values and the snapshot), so a
recording loaded from JSON tells the same story as the one that was recorded.

Example: ``MulBackward0 runs: it receives [2., 2.] and sends [6., 8.] to x's AccumulateGrad
and [2., 4.] to w's AccumulateGrad.``
"""

from minigrad.autograd._values import format_value

__all__ = ["Captioner"]


def _join(items):
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


class Captioner:
    """``captioner(i)`` is the caption of event ``i``.

    Args:
        events: the recording's events; values: its value table (list of Values);
        snapshot: id -> item of its snapshot; edges: node id -> [(target, input_nr)] per edge.
    """

    def __init__(self, events, values, snapshot, edges):
        self.events, self.values, self.snapshot, self.edges = events, values, snapshot, edges
        self.starts = {e["pass"]: e for e in events if e["kind"] == "backward_started"}
        self.cache = {}
        self.texts = {}   # value ref -> its text

    def __call__(self, i, ready=None):
        """The caption of event ``i``; ``ready``: the ready queue after it (for node_ready)."""
        text = self.cache.get(i)
        if text is None:
            event = self.events[i]
            method = getattr(self, "_" + event["kind"], None)
            if event["kind"] == "node_ready":
                text = self._node_ready(event, ready)
            else:
                text = method(event) if method else self._other(event)
            if text.endswith(".."):  # a value such as ``1.`` ends the sentence
                text = text[:-1]
            self.cache[i] = text
        return text

    # ----------------------------------------------------------------- words for things
    def tensor(self, tid):
        if tid is not None and tid in self.snapshot:
            return self.snapshot[tid]["name"]
        return "a tensor that no longer exists"

    def node(self, nid):
        if nid is None or nid not in self.snapshot:
            return "a node"
        info = self.snapshot[nid]
        if info["kind"] == "accumulate" and info["variable"] in self.snapshot:
            return f"{self.tensor(info['variable'])}'s AccumulateGrad"
        if info["kind"] == "root":
            return "the graph root"
        return info["label"] or info["name"]

    def value(self, ref):
        if ref is None:
            return "None"
        text = self.texts.get(ref)
        if text is None:   # a gradient is named by several events (sent, received, run)
            text = self.texts[ref] = format_value(self.values[ref])
        return text

    def grads(self, refs):
        refs = list(refs)
        if not refs:
            return "nothing"
        if len(refs) == 1:
            return self.value(refs[0])
        return "(" + ", ".join(self.value(r) for r in refs) + ")"

    @staticmethod
    def hook(owner, kind, name):
        """``"b's tensor hook on_b"``, or ``"b's tensor hook (a lambda)"``."""
        return f"{owner}'s {kind} " + ("(a lambda)" if name == "<lambda>" else name)

    def api(self, event):
        start = self.starts.get(event["pass"])
        api = "autograd.grad()" if start is not None and start["api"] == "grad" else "backward()"
        return api if event["pass"] in (1, None) else f"{api} (pass {event['pass']})"

    # ----------------------------------------------------------------- the event kinds
    def _node_created(self, event):
        outputs = [self.tensor(t) for t in event["outputs"]
                   if t is not None and t in self.snapshot]
        made = f"{_join(outputs)} {'is' if len(outputs) == 1 else 'are'} computed and " \
            if outputs else ""
        targets, constants = [], 0
        for target, _ in self.edges.get(event["node"], ()):
            if target is None:
                constants += 1
            else:
                targets.append(self.node(target))
        text = f"Forward: {made}autograd records {self.node(event['node'])}"
        if targets:
            text += f", which will send gradients to {_join(targets)}"
        if constants:
            text += (" (a constant input gets no gradient)" if constants == 1 else
                     f" ({constants} constant inputs get no gradient)")
        return text + "."

    def _backward_started(self, event):
        root_node = event.get("graph_root")
        roots = _join(self.tensor(t) if t in self.snapshot or root_node not in self.snapshot
                      else f"the result of {self.node(root_node)}" for t in event["roots"])
        grads = _join(self.value(g) for g in event["grads"])
        text = f"{self.api(event)} starts at {roots} with gradient {grads}"
        if event.get("inputs"):
            verb = "asking for" if event["api"] == "grad" else "only for"
            text += f", {verb} the gradients of {_join(self.tensor(t) for t in event['inputs'])}"
        if event.get("retain_graph"):
            text += " (retain_graph=True: saved tensors are kept)"
        return text + "."

    def _dependencies(self, event):
        counts = event["counts"]
        many = [f"{self.node(n)} waits for {c}" for n, c in counts.items() if c > 1]
        text = f"The engine counts how many gradients each of the {len(counts)} nodes waits for"
        text += f": {_join(many)} (fan-in)." if many else "; each waits for at most one."
        needed = event.get("needed")
        if needed:
            unneeded = sum(1 for v in needed.values() if not v)
            if unneeded:
                verb = "is" if unneeded == 1 else "are"
                text += f" {unneeded} of them {verb} not needed for the requested inputs."
        return text

    def _node_ready(self, event, ready):
        queue = _join(self.node(n) for n in event.get("queue", ready or ()))
        return f"{self.node(event['node'])} is ready: every gradient it waits for has " \
               f"arrived. Ready queue: {queue}."

    def _node_started(self, event):
        return f"{self.node(event['node'])} is taken from the queue with gradient " \
               f"{self.grads(event['grads'])}."

    def _tensor_hook(self, event):
        where = self.tensor(event["tensor"]) if event["tensor"] else \
            f"output {event['index']} of {self.node(event['node'])}"
        text = f"{self.hook(where, 'tensor hook', event['hook'])} sees " \
               f"{self.value(event['grad_in'])}"
        if event["grad_out"] != event["grad_in"]:
            return text + f" and replaces it with {self.value(event['grad_out'])}."
        return text + "."

    def _grad_retained(self, event):
        return f"{self.tensor(event['tensor'])}.grad becomes {self.value(event['grad'])} " \
               "(retain_grad)."

    def _node_pre_hook(self, event):
        text = f"{self.hook(self.node(event['node']), 'pre-hook', event['hook'])} sees " \
               f"{self.grads(event['grads_in'])}"
        if list(event["grads_out"]) != list(event["grads_in"]):
            return text + f" and replaces it with {self.grads(event['grads_out'])}."
        return text + "."

    def _node_ran(self, event):
        nid = event["node"]
        info = self.snapshot[nid] if nid in self.snapshot else None
        if info is not None and info["kind"] == "accumulate":
            return f"{self.node(nid)} has run: the gradient is now in " \
                   f"{self.tensor(info['variable'])}.grad."
        sends = []
        for (target, _), grad in zip(self.edges.get(nid, ()), event["grads_out"]):
            if target is None:
                sends.append("nothing to the constant")
            elif grad is None:
                sends.append(f"no gradient to {self.node(target)}")
            else:
                sends.append(f"{self.value(grad)} to {self.node(target)}")
        receives = "" if info is not None and info["kind"] == "root" else \
            f"it receives {self.grads(event['grads_in'])} and "
        return f"{self.node(nid)} runs: {receives}sends {_join(sends) or 'nothing'}."

    def _grad_accumulated(self, event):
        name = self.tensor(event["tensor"])
        if event["before"] is None:
            return f"{name}.grad was None, so it becomes {self.value(event['after'])}."
        return f"{name}.grad accumulates: {self.value(event['before'])} plus the new gradient " \
               f"gives {self.value(event['after'])}."

    def _post_accumulate_hook(self, event):
        name = self.tensor(event["tensor"])
        return f"{self.hook(name, 'post-accumulate-grad hook', event['hook'])} runs, after " \
               f"{name}.grad was updated."

    def _node_post_hook(self, event):
        text = f"{self.hook(self.node(event['node']), 'post-hook', event['hook'])} sees " \
               "grad_inputs " \
               f"{self.grads(event['grad_inputs'])} and grad_outputs " \
               f"{self.grads(event['grad_outputs'])}"
        if event["result"] is not None:
            return text + f"; it replaces grad_inputs with {self.grads(event['result'])}."
        return text + "."

    def _saved_released(self, event):
        names = _join(event["names"]) or "its saved tensors"
        return f"{self.node(event['node'])} frees its saved tensors ({names}): without " \
               "retain_graph=True, a second backward through it would fail."

    def _grad_summed(self, event):
        node = self.node(event["node"])
        info = self.snapshot[event["node"]] if event["node"] in self.snapshot else None
        slot = f" (input {event['index']})" if info and info["num_inputs"] > 1 else ""
        pending = event["pending"]
        wait = "it has all its gradients now" if pending == 0 else \
            f"it still waits for {pending} more"
        return f"{node}{slot} gets another gradient, {self.value(event['grad'])} from " \
               f"{self.node(event['sender'])}: the sum so far is {self.value(event['total'])}; " \
               f"{wait}."

    def _grad_captured(self, event):
        start = self.starts.get(event["pass"])
        inputs = start.get("inputs") if start else None
        who = self.tensor(inputs[event["position"]]) if inputs else f"input {event['position']}"
        return f"autograd.grad() takes {self.value(event['grad'])} as the gradient of {who}."

    def _node_skipped(self, event):
        return f"{self.node(event['node'])} is skipped: none of the requested inputs needs it."

    def _error(self, event):
        where = f" in {self.node(event['node'])}" if event["node"] else ""
        return f"Error{where}: {event['error']}: {event['message']}"

    def _backward_finished(self, event):
        return f"{self.api(event)} is finished."

    def _truncated(self, event):
        return f"The recording stops here: {event['reason']}."

    def _module_call(self, event):
        name, kind = event.get("name"), event.get("module")
        module = f"module {name} ({kind})" if name and name != kind else f"a {kind} module"
        if event.get("phase") != "exit":
            return f"Forward: {module} is called."
        outputs = event.get("outputs")
        outputs = [outputs] if isinstance(outputs, str) else list(outputs or ())
        named = [self.tensor(t) for t in outputs if isinstance(t, str) and t in self.snapshot]
        return f"Forward: {module} returns {_join(named)}." if named else \
            f"Forward: {module} has finished."

    def _other(self, event):
        return f"Event {event['kind'].replace('_', ' ')}."
