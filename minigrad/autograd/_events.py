"""The observer behind ``record()``: turns each live event into plain data at once.

Tensors and nodes become ids, hooks their names, exceptions their type and message, gradient
tensors references into a ``ValueTable``. Each node seen is remembered by a weak reference and
by what never changes about it (its structure), so that the final snapshot can describe nodes
that died before the recording ended. Nothing here keeps a tensor or a node alive.
"""

import warnings
import weakref

from minigrad.autograd import observe
from minigrad.autograd._ids import constant_id, edge_id, node_id, tensor_id
from minigrad.autograd._values import ValueTable, callable_name
from minigrad.autograd.node import AccumulateGrad, GraphRoot, Node
from minigrad.autograd.snapshot import node_structure

__all__ = ["EventCollector", "RecordingTruncated", "VALUE_FIELDS"]

# Fields whose tensors are gradient values (stored in the value table), not graph tensors.
VALUE_FIELDS = frozenset({"grads", "grad", "grad_in", "grad_out", "grads_in", "grads_out",
                          "grad_inputs", "grad_outputs", "result", "before", "after", "total"})
_NODE_FIELDS = frozenset({"node", "sender", "graph_root"})


class RecordingTruncated(UserWarning):
    """``record()`` reached its ``max_events`` or ``max_bytes`` cap and stopped recording."""


class EventCollector:
    """An observer (``collector(kind, **fields)``) that stores converted events."""

    def __init__(self, full_limit, max_events, max_bytes):
        self.values = ValueTable(full_limit)
        self.events = []
        self.max_events, self.max_bytes = max_events, max_bytes
        self.nbytes = 0
        self.truncated = False
        self.passes = {}          # engine pass id -> number of the pass in this recording
        self.structures = {}      # node id -> structure (plain data) of every node seen
        self.node_refs = {}       # node id -> weak reference to the node
        self.released = {}        # node id -> names of its saved tensors released
        self.tensor_refs = {}     # tensor id -> weak reference, for tensors seen
        self.root_refs = {}       # tensor id -> weak reference, for the roots of passes

    # ----------------------------------------------------------------- observer
    def __call__(self, kind, **fields):
        if self.truncated:
            return
        event = {"i": len(self.events), "kind": kind, "pass": self._pass(kind, fields)}
        for name, value in fields.items():
            if name != "pass_id":
                event[name] = self._convert(name, value)
        extra = getattr(self, "_extra_" + kind, None)
        if extra is not None:
            extra(event, fields)
        self.events.append(event)
        self.nbytes += 120 + 8 * len(event) + sum(
            8 * len(v) for v in event.values() if isinstance(v, (list, dict)))
        if len(self.events) >= self.max_events or self.nbytes + self.values.nbytes \
                >= self.max_bytes:
            self.stop(f"the recording reached its cap ({len(self.events)} events, about "
                      f"{(self.nbytes + self.values.nbytes) // 2**20} MiB; max_events="
                      f"{self.max_events}, max_bytes={self.max_bytes})")

    def stop(self, reason):
        """Stop recording for good: detach, warn, and end the events with ``truncated``."""
        self.detach()
        self.truncated = True
        self.events.append({"i": len(self.events), "kind": "truncated", "pass": None,
                            "reason": reason})
        warnings.warn(f"minigrad.graph.record() stopped: {reason}. The events so far are kept; "
                      "record a smaller graph, or raise the caps.", RecordingTruncated,
                      stacklevel=4)

    def attach(self):
        observe.add_observer(self)

    def detach(self):
        if self in observe.observers:
            observe.remove_observer(self)

    # ----------------------------------------------------------------- conversion
    def _pass(self, kind, fields):
        pass_id = fields.get("pass_id", observe.current_pass)
        if pass_id is None:
            return None
        number = self.passes.get(pass_id)
        if number is None and kind == "backward_started":
            number = self.passes[pass_id] = len(self.passes) + 1
        return number

    def _convert(self, name, value):
        if name in VALUE_FIELDS:
            if isinstance(value, (tuple, list)):
                return [self.values.add(v) for v in value]
            return self.values.add(value)
        if name in _NODE_FIELDS:
            return None if value is None else self.node(value)
        if name == "hook":
            return callable_name(value)
        if name in ("error", "module"):
            return type(value).__name__
        if name == "counts":
            return {self.node(n): c for n, c in value.items()}
        if name == "needed":
            return None if value is None else {self.node(n): bool(c) for n, c in value.items()}
        return self._generic(value)

    def _generic(self, value):
        from minigrad.tensor import Tensor
        if value is None or isinstance(value, (bool, int, float, str)):
            return value
        if isinstance(value, Tensor):
            return self.tensor(value)
        if isinstance(value, Node):
            return self.node(value)
        if isinstance(value, (tuple, list)):
            return [self._generic(v) for v in value]
        if isinstance(value, dict):
            return {str(k): self._generic(v) for k, v in value.items()}
        name = getattr(value, "_display_name", None)
        return {"type": type(value).__name__, "name": name}

    def tensor(self, tensor):
        tid = tensor_id(tensor)
        if tid not in self.tensor_refs:
            self.tensor_refs[tid] = weakref.ref(tensor)
        return tid

    def node(self, node):
        """The id of ``node``; the first time, remember it and the nodes it leads to."""
        nid = node_id(node)
        if nid in self.structures:
            return nid
        stack = [node]
        while stack:
            current = stack.pop()
            cid = node_id(current)
            if cid in self.structures:
                continue
            self.structures[cid] = _structure(current)
            self.node_refs[cid] = weakref.ref(current)
            if isinstance(current, AccumulateGrad):
                self.tensor(current.variable)
            stack.extend(n for n, _ in current.next_functions if n is not None)
        return nid

    # ----------------------------------------------------------------- extra fields
    def _extra_node_created(self, event, fields):
        event["values"] = [self.values.add(t) for t in fields["outputs"]]

    def _extra_backward_started(self, event, fields):
        for tid, tensor in zip(event["roots"], fields["roots"]):
            self.root_refs.setdefault(tid, weakref.ref(tensor))
        graph_root = fields["graph_root"]
        buffer = [None] * len(graph_root._output_meta)
        if not isinstance(graph_root, GraphRoot):
            root = fields["roots"][0]
            buffer[root._output_nr if root.grad_fn is not None else 0] = event["grads"][0]
        event["buffer"] = buffer

    def _extra_dependencies(self, event, fields):
        grads = {}
        for node in fields["counts"]:
            if isinstance(node, AccumulateGrad):
                grads[self.tensor(node.variable)] = self.values.add(node.variable._grad)
            for ref in (node._retained or {}).values():
                tensor = ref()
                if tensor is not None:
                    grads[self.tensor(tensor)] = self.values.add(tensor._grad)
        event["tensor_grads"] = grads

    def _extra_tensor_hook(self, event, fields):
        if event["tensor"] is None:
            refs = fields["node"]._output_refs
            ref = refs[fields["index"]] if fields["index"] < len(refs) else None
            tensor = ref() if ref is not None else None
            event["tensor"] = None if tensor is None else self.tensor(tensor)

    def _extra_saved_released(self, event, fields):
        self.released[event["node"]] = list(event["names"])

    def _extra_error(self, event, fields):
        event["message"] = str(fields["message"])


def _structure(node):
    """A node's structure as plain data: node_structure plus its outgoing edges."""
    info = node_structure(node)
    nid = info["id"]
    edges, constants = [], []
    for position, (child, input_nr) in enumerate(node.next_functions):
        if child is None:
            cid = constant_id(node, position)
            constants.append({"id": cid, "node": nid, "position": position, "tensor": None,
                              "name": None})
            edges.append({"id": edge_id(node, "constant", position), "kind": "constant",
                          "source": nid, "target": cid, "position": position,
                          "input_nr": None})
        else:
            edges.append({"id": edge_id(node, "next", position), "kind": "next",
                          "source": nid, "target": node_id(child), "position": position,
                          "input_nr": input_nr})
    if isinstance(node, AccumulateGrad):
        edges.append({"id": edge_id(node, "variable", 0), "kind": "variable", "source": nid,
                      "target": info["variable"], "position": None, "input_nr": None})
    info["edges"], info["constants"] = edges, constants
    info["saved_names"] = list(node._saved_names()) if node._saved else []
    return info
