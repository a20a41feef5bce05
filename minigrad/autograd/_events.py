"""The observer behind ``record()``: turns each live event into plain data at once.

Tensors and nodes become ids, hooks their names, exceptions their type and message, gradient
tensors references into a ``ValueTable``. Each node seen is remembered by what never changes
about it (its structure), so that the final snapshot can describe nodes that died before the
recording ended. Nothing here keeps a tensor or a node alive.
"""

import os
import sys
import warnings
import weakref

from minigrad.autograd import observe
from minigrad.autograd._ids import constant_id, edge_id, node_id, tensor_id
from minigrad.autograd._values import ValueTable, callable_name, canonical
from minigrad.autograd.node import AccumulateGrad, GraphRoot, Node
from minigrad.autograd.snapshot import STRUCTURE_KEYS

__all__ = ["EventCollector", "RecordingTruncated", "VALUE_FIELDS", "structure_of",
           "structure_info", "structure_edges"]

# Fields whose tensors are gradient values (stored in the value table), not graph tensors.
VALUE_FIELDS = frozenset({"grads", "grad", "grad_in", "grad_out", "grads_in", "grads_out",
                          "grad_inputs", "grad_outputs", "result", "before", "after", "total"})
_NODE_FIELDS = frozenset({"node", "sender", "graph_root"})

# The keys of the events stored as tuples (see EventCollector._node_ready).
COMPACT = {
    "node_ready": ("kind", "i", "pass", "node", "queue"),
    "node_started": ("kind", "i", "pass", "node", "grads", "queue"),
    "node_ran": ("kind", "i", "pass", "node", "grads_in", "grads_out"),
    "grad_summed": ("kind", "i", "pass", "node", "index", "sender", "grad", "total", "pending"),
    "saved_released": ("kind", "i", "pass", "node", "names"),
}


class RecordingTruncated(UserWarning):
    """``record()`` reached its ``max_events`` or ``max_bytes`` cap and stopped recording."""


class EventCollector:
    """An observer (``collector(kind, **fields)``) that stores converted events.

    Events hold tuples, never lists (see ``canonical``): a dict of numbers, strings and
    tuples of them is dropped from the garbage collector's watch, which matters when a
    recording holds a hundred thousand events.
    """

    def __init__(self, full_limit, max_events, max_bytes):
        self.values = ValueTable(full_limit)
        self.events = []
        self.max_events, self.max_bytes = max_events, max_bytes
        self.nbytes = 0
        self._next_check = 0  # the caps are checked at the first event
        self.truncated = False
        self.passes = {}          # engine pass id -> number of the pass in this recording
        self.structures = {}      # node id -> structure_of(node) for every node seen
        self.released = {}        # node id -> names of its saved tensors released
        self.tensor_refs = {}     # tensor id -> weak reference, for tensors seen
        self.root_refs = {}       # tensor id -> weak reference, for the roots of passes
        self._recent = {}         # id(grad) -> (grad, version, value ref), for one node's run

    # ----------------------------------------------------------------- observer
    def __call__(self, kind, **fields):
        if self.truncated:
            return
        fast = self._fast.get(kind)
        events = self.events
        events.append(fast(self, fields) if fast is not None else
                      self._convert_event(kind, fields))
        if len(events) >= self._next_check:
            self._check_caps()

    def _check_caps(self):
        """Every few hundred events: stop when a cap is reached."""
        count = len(self.events)
        self.nbytes = 240 * count  # an event with its small tuples, roughly
        size = self.nbytes + self.values.nbytes
        if count >= self.max_events:
            self.stop(f"it reached max_events={self.max_events} ({count} events, "
                      f"about {_size(size)})")
        elif size >= self.max_bytes:
            self.stop(f"it reached max_bytes={self.max_bytes} (about {_size(size)} "
                      f"in {count} events)")
        # An event adds at most about 1.5 kB (with new small values): look again before the
        # byte cap can be passed, and at least every 256 events.
        room = (self.max_bytes - self.nbytes - self.values.nbytes) // 1500
        self._next_check = min(count + max(1, min(256, room)), self.max_events)

    def _convert_event(self, kind, fields):
        """Any event: each field converted by its name (see ``_convert``)."""
        event = {"i": len(self.events), "kind": kind, "pass": self._pass(kind, fields)}
        for name, value in fields.items():
            if name != "pass_id":
                event[name] = self._convert(name, value)
        extra = getattr(self, "_extra_" + kind, None)
        if extra is not None:
            extra(event, fields)
        return canonical(event)

    # The frequent events, converted without the generic machinery. They are stored as
    # tuples ``(kind, i, pass, *fields in COMPACT[kind] order)``: a tuple of plain values
    # soon leaves the garbage collector's watch, a dict only at a full collection, and a
    # hundred thousand watched dicts make those collections frequent. ``events()`` turns
    # them into dicts.
    def _node_ready(self, f):
        nid = self._nid
        return ("node_ready", len(self.events), self.passes.get(f["pass_id"]), nid(f["node"]),
                tuple(map(nid, f["queue"])))

    def _node_started(self, f):
        nid, add = self._nid, self._grad_value
        self._recent.clear()
        return ("node_started", len(self.events), self.passes.get(f["pass_id"]),
                nid(f["node"]), tuple(map(add, f["grads"])), tuple(map(nid, f["queue"])))

    def _node_ran(self, f):
        add = self._grad_value
        return ("node_ran", len(self.events), self.passes.get(f["pass_id"]),
                self._nid(f["node"]), tuple(map(add, f["grads_in"])),
                tuple(map(add, f["grads_out"])))

    def _grad_summed(self, f):
        add, nid = self._grad_value, self._nid
        return ("grad_summed", len(self.events), self.passes.get(f["pass_id"]), nid(f["node"]),
                f["index"], nid(f["sender"]), add(f["grad"]), add(f["total"]), f["pending"])

    def _saved_released(self, f):
        nid = self._nid(f["node"])
        names = self.released[nid] = tuple(f["names"])
        return ("saved_released", len(self.events), self.passes.get(f["pass_id"]), nid, names)

    def plain_events(self):
        """The events as dicts (each tuple-stored event becomes one, once)."""
        events = self.events
        for i, event in enumerate(events):
            if type(event) is tuple:
                keys = COMPACT[event[0]]
                plain = {"i": event[1], "kind": event[0], "pass": event[2]}
                for k in range(3, len(keys)):
                    plain[keys[k]] = event[k]
                events[i] = plain
        return events

    def _dependencies(self, f):
        counts, needed, grads = {}, None, {}
        nid, add, tensor = self._nid, self.values.add, self.tensor
        for node, count in f["counts"].items():
            counts[nid(node)] = count
            if type(node) is AccumulateGrad:
                grads[tensor(node.variable)] = add(node.variable._grad)
            if node._retained:
                for ref in node._retained.values():
                    t = ref()
                    if t is not None:
                        grads[tensor(t)] = add(t._grad)
        if f["needed"] is not None:
            needed = {nid(n): bool(v) for n, v in f["needed"].items()}
        return {"i": len(self.events), "kind": "dependencies",
                "pass": self.passes.get(f["pass_id"]), "counts": counts, "needed": needed,
                "tensor_grads": grads}

    _fast = {"node_ready": _node_ready, "node_started": _node_started, "node_ran": _node_ran,
             "grad_summed": _grad_summed, "saved_released": _saved_released,
             "dependencies": _dependencies}

    def _grad_value(self, grad):
        """``values.add(grad)``, once per gradient tensor while a node runs: the same tensor
        comes in ``node_started``, ``node_ran`` and ``grad_summed`` (unless a hook or the node
        changed it in place, which bumps its version)."""
        if grad is None:
            return None
        seen = self._recent.get(id(grad))
        version = grad._version_counter[0]
        if seen is not None and seen[0] is grad and seen[1] == version:
            return seen[2]
        ref = self.values.add(grad)
        self._recent[id(grad)] = (grad, version, ref)
        return ref

    def _nid(self, node):
        nid = node._uid
        return nid if nid is not None and nid in self.structures else self.node(node)

    def stop(self, reason):
        """Stop recording for good: detach, warn, and end the events with ``truncated``."""
        self.detach()
        self.truncated = True
        self.events.append({"i": len(self.events), "kind": "truncated", "pass": None,
                            "reason": reason})
        warnings.warn(f"minigrad.graph.record() stopped recording: {reason}. The events so "
                      "far are kept and the program runs on; record a smaller graph, or pass "
                      "a larger cap to record(max_events=..., max_bytes=...).",
                      RecordingTruncated, stacklevel=_user_stacklevel())

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
            self.structures[cid] = structure_of(current, cid)
            if type(current) is AccumulateGrad:
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

    def _extra_tensor_hook(self, event, fields):
        if event["tensor"] is None:
            refs = fields["node"]._output_refs
            ref = refs[fields["index"]] if fields["index"] < len(refs) else None
            tensor = ref() if ref is not None else None
            event["tensor"] = None if tensor is None else self.tensor(tensor)

    def _extra_error(self, event, fields):
        event["message"] = str(fields["message"])


def structure_of(node, nid):
    """What never changes about node ``nid``, kept in case it dies before the recording ends.

    A tuple ``(info, next, saved_names)`` of plain values only (so that the garbage collector
    soon stops watching it): ``info`` holds the values of ``node_structure(node)`` in the
    order of ``STRUCTURE_KEYS``, ``next`` the ``(target id, input_nr)`` of each edge.
    """
    cls = type(node)
    variable = tensor_id(node.variable) if cls is AccumulateGrad else None
    kind = "accumulate" if cls is AccumulateGrad else ("root" if cls is GraphRoot else "function")
    return ((nid, cls.__name__, kind, node._seq, variable, len(node._output_meta)),
            tuple([(None if child is None else node_id(child), input_nr)
                   for child, input_nr in node.next_functions]),
            tuple(node._saved_names()) if node._saved else ())


def structure_info(structure):
    """The ``node_structure`` dict of a structure."""
    return dict(zip(STRUCTURE_KEYS, structure[0]))


def structure_edges(structure):
    """The edges and constant stubs of a node no longer alive, as in a snapshot."""
    info, next_ = structure_info(structure), structure[1]
    nid, variable = info["id"], info["variable"]
    edges, constants = [], []
    for position, (target, input_nr) in enumerate(next_):
        if target is None:
            cid = constant_id(nid, position)
            constants.append({"id": cid, "node": nid, "position": position, "tensor": None,
                              "name": None})
            edges.append({"id": edge_id(nid, "constant", position), "kind": "constant",
                          "source": nid, "target": cid, "position": position,
                          "input_nr": None})
        else:
            edges.append({"id": edge_id(nid, "next", position), "kind": "next", "source": nid,
                          "target": target, "position": position, "input_nr": input_nr})
    if variable is not None:
        edges.append({"id": edge_id(nid, "variable"), "kind": "variable", "source": nid,
                      "target": variable, "position": None, "input_nr": None})
    return edges, constants


def _size(nbytes):
    """``nbytes`` for a person: ``"12 kB"``, ``"3.4 MB"``."""
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if nbytes >= scale:
            return f"{nbytes / scale:.2g} {unit}" if nbytes < 10 * scale else \
                f"{nbytes / scale:.0f} {unit}"
    return f"{nbytes} bytes"


def _user_stacklevel():
    """The ``stacklevel`` that points a warning raised here at the user's line of code."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    frame, level = sys._getframe(1), 1
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(package):
        frame, level = frame.f_back, level + 1
    return level
