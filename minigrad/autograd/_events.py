"""The observer behind ``record()``: turns each live event into plain data at once.

Tensors and nodes become ids, hooks their names, exceptions their type and message, gradient
tensors references into a ``ValueTable``. Each node seen is remembered by what never changes
about it (its structure), so that the final snapshot can describe nodes that died before the
recording ended. Nothing here keeps a tensor or a node alive.
"""

import bisect
import operator
import os
import sys
import warnings
import weakref

from numpy import ndarray

from minigrad.autograd import observe
from minigrad.autograd._formulas import recorded_operands
from minigrad.autograd._ids import constant_id, edge_id, node_id, tensor_id
from minigrad.autograd._values import _WHOLE_BYTES, ValueTable, callable_name, canonical, thaw
from minigrad.autograd.node import AccumulateGrad, GraphRoot, Node
from minigrad.autograd.snapshot import STRUCTURE_KEYS
from minigrad.grad_mode import state

__all__ = ["EventCollector", "RecordingTruncated", "VALUE_FIELDS", "COMPACT", "plain_events",
           "structure_of", "structure_info", "structure_saved_names", "structure_saved_tensors",
           "structure_edges"]

# Fields whose tensors are gradient values (stored in the value table), not graph tensors.
VALUE_FIELDS = frozenset({"grads", "grad", "grad_in", "grad_out", "grads_in", "grads_out",
                          "grad_inputs", "grad_outputs", "result", "before", "after", "total"})
_NODE_FIELDS = frozenset({"node", "sender", "graph_root"})

# The keys of the events stored as tuples (see EventCollector.node_ready).
COMPACT = {
    "node_created": ("kind", "i", "pass", "node", "outputs", "values"),
    "grad_accumulated": ("kind", "i", "pass", "node", "tensor", "before", "after"),
    "node_ready": ("kind", "i", "pass", "node", "at"),
    "node_started": ("kind", "i", "pass", "node", "grads"),
    "node_ran": ("kind", "i", "pass", "node", "grads_in", "grads_out"),
    "grad_summed": ("kind", "i", "pass", "node", "index", "sender", "grad", "total", "pending"),
    "saved_released": ("kind", "i", "pass", "node", "names"),
}


class RecordingTruncated(UserWarning):
    """``record()`` reached its ``max_events`` or ``max_bytes`` cap and stopped recording."""


class EventCollector(observe.Emitter):
    """An observer (``collector(kind, **fields)``, and an ``observe.Emitter`` for the engine's
    per-node events) that stores converted events.

    Events hold tuples, never lists (see ``canonical``): a dict of numbers, strings and
    tuples of them is dropped from the garbage collector's watch, which matters when a
    recording holds a hundred thousand events.
    """

    takes_arrays = True  # the engine's gradients may come as arrays: only their values count

    def __init__(self, full_limit, max_events, max_bytes):
        self.values = ValueTable(full_limit)
        self.events = []
        self.max_events, self.max_bytes = max_events, max_bytes
        self.nbytes = 0
        self._check_from = -1  # the index of the event after which the caps are checked next
        self.truncated = False
        self.passes = {}          # engine pass id -> number of the pass in this recording
        self.structures = {}      # node id -> structure_of(node) for every node seen
        self.released = {}        # node id -> names of its saved tensors released
        self.operands = {}        # node id -> recorded_operands() the first time it ran
        self.tensor_refs = {}     # tensor id -> weak reference, for tensors seen
        self.root_refs = {}       # tensor id -> weak reference, for the roots of passes
        self._recent = {}         # id(grad) -> (grad, version, value ref), see _grad_value
        self._full_limit, self._add_small = full_limit, self.values.add_small
        self._new_small = self.values.new_small
        self._index = self.values._index  # (dtype, shape, bytes) -> reference
        self._queues = {}         # engine pass id -> the ready queue's sort keys, head last
        self._ready_order = 0     # counts the node_ready events down: ties run in their order
        self.values.alarm = self._alarm  # a burst of new values: check the caps at once
        # the grads node_started saw (the engine's list or tuple), and their references
        self._started_grads = self._started_refs = None

    # ----------------------------------------------------------------- observer
    def __call__(self, kind, **fields):
        if self.truncated:
            return
        per_node = _FROM_KEYWORDS.get(kind)
        if per_node is not None:  # another observer shares the pass (see observe.notifier)
            per_node(self, fields)
        elif kind == "dependencies":
            self._store(self._dependencies(fields))
        else:
            self._store(self._convert_event(kind, fields))

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
        self._check_from = min(count + max(1, min(256, room)), self.max_events) - 1
        self.values.alarm_bytes = self.max_bytes - self.nbytes

    def _alarm(self):
        self._check_from = -1

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

    # The frequent events, converted without the generic machinery. The engine sends them
    # positionally through the methods below (see ``observe.Emitter``); when another observer
    # shares the pass they come through ``__call__`` as keywords (``_FROM_KEYWORDS``). They are
    # stored as tuples ``(kind, i, pass, *fields in COMPACT[kind] order)``: a tuple of plain
    # values soon leaves the garbage collector's watch, a dict only at a full collection, and
    # a hundred thousand watched dicts make those collections frequent. ``plain_events()``
    # turns them into dicts. A sequence field of one item (a node's one output or gradient)
    # holds that item alone, without a tuple (``_ONE``): one object fewer for the collector.
    #
    # ``nid`` names the nodes: the collector walked the whole graph of a pass it saw start
    # (``backward_started``), so there a node's id is simply its ``_uid``.
    #
    # The ready queue is stored as its changes, so that recording stays linear in the number
    # of events however long the queue grows: ``node_ready`` keeps the position ``at`` which
    # the node joins the queue (the collector keeps the queue's sort keys, the engine's
    # ``(-sequence number, order)`` negated, in reverse, to find it), and ``node_started``
    # always takes the head.
    #
    # These methods run for every node, so they are written for speed: no ``truncated`` test
    # (``stop`` replaces them with ``_ignore``), the store of the event inlined.
    def node_created(self, node, outputs):
        if len(outputs) == 1:  # (self.tensor and ValueTable.add, inlined)
            tensor = outputs[0]
            try:
                tid = tensor._uid
            except AttributeError:  # a user's Function returned something else than a tensor
                return self._odd_node_created(node, outputs)
            if tid is None:
                tid = tensor_id(tensor)
                self.tensor_refs[tid] = weakref.ref(tensor)
            elif tid not in self.tensor_refs:
                self.tensor_refs[tid] = weakref.ref(tensor)
            tids = tid  # (one output: its id and value stand alone, see _ONE)
            array = tensor._data
            if array.nbytes <= _WHOLE_BYTES:  # (values.add_small, inlined)
                key = (array.dtype, array.shape, array.tobytes())
                ref = self._index.get(key)
                values = self._new_small(key, array) if ref is None else ref
            else:
                values = self.values.add_large(array)
        else:
            try:
                tids = tuple([self.tensor(t) for t in outputs])
            except AttributeError:
                return self._odd_node_created(node, outputs)
            add = self.values.add
            values = tuple([add(t) for t in outputs])
        nid = node._uid
        structures = self.structures
        if nid is None and type(node) is not AccumulateGrad:  # a new node: self.node, inlined
            nid = node_id(node)
            structures[nid] = structure_of(node, nid)
            for child in node._edges[-2::-2]:  # (in the order self.node's stack takes)
                if child is not None and child._uid not in structures:
                    self.node(child)
        elif nid is None or nid not in structures:
            nid = self.node(node)
        pass_id = state.backward_pass
        events = self.events
        i = len(events)
        events.append(("node_created", i,
                       None if pass_id is None else self.passes.get(pass_id), nid, tids, values))
        if i >= self._check_from:
            self._check_caps()

    def _odd_node_created(self, node, outputs):
        """``node_created`` of a user's Function that returned something else than tensors."""
        self._store(self._convert_event("node_created", {"node": node, "outputs": outputs}))

    def node_ready(self, pass_id, node, ready):
        number = self.passes.get(pass_id)
        keys = self._queues.get(pass_id)
        if keys is None:
            keys = self._queues[pass_id] = []
        order = self._ready_order = self._ready_order - 1
        # Kept in reverse run order, the head last: a node joins, and the head leaves, at
        # the end of the list in the common cases (no shifting of a long queue). A key is
        # one int (sequence number, then the order of readiness, later ones first): no
        # tuple per node for the garbage collector to watch.
        key = (node._seq << 64) + _ORDER_BASE + order
        at = _bisect(keys, key)
        keys.insert(at, key)
        events = self.events
        i = len(events)
        events.append(("node_ready", i, number,
                       node._uid if number is not None else self._nid(node),
                       len(keys) - 1 - at))
        if i >= self._check_from:
            self._check_caps()

    def node_started(self, pass_id, node, grads, ready):
        number = self.passes.get(pass_id)
        nid = node._uid if number is not None else self._nid(node)
        keys = self._queues.get(pass_id)
        if keys:
            keys.pop()  # the engine runs the head of its queue
        refs = self._started_refs = self._refs(grads)
        self._started_grads = grads
        events = self.events
        i = len(events)
        events.append(("node_started", i, number, nid, refs))
        if i >= self._check_from:
            self._check_caps()

    def node_ran(self, pass_id, node, grads_in, grads_out):
        number = self.passes.get(pass_id)
        # The gradients it was started with, unless hooks replaced them (a new list) or a
        # node pre-hook or a user's backward may have changed them in place.
        refs_in = self._started_refs if self._started_grads is grads_in and node._trusted \
            and not node._pre_hooks else self._refs(grads_in)
        self._started_grads = None
        key = node._uid if number is not None else self._nid(node)
        operands = self.operands
        if key not in operands:  # the numbers of its chain rule, before release
            operands[key] = recorded_operands(node, self._full_limit, self.values,
                                              self.tensor) or _NO_OPERANDS
        if self._recent:
            self._recent.clear()  # keep what this node sends, for the events that follow
        events = self.events
        i = len(events)
        events.append(("node_ran", i, number, key, refs_in, self._refs(grads_out)))
        if i >= self._check_from:
            self._check_caps()

    def grad_summed(self, pass_id, node, index, sender, grad, total, pending):
        number = self.passes.get(pass_id)
        if number is not None:
            nid, sid = node._uid, sender._uid
        else:
            nid, sid = self._nid(node), self._nid(sender)
        add = self._grad_value
        events = self.events
        i = len(events)
        events.append(("grad_summed", i, number, nid, index, sid, add(grad),
                       add(total), pending))
        if i >= self._check_from:
            self._check_caps()

    def saved_released(self, pass_id, node, names=None):
        number = self.passes.get(pass_id)
        nid = node._uid if number is not None else self._nid(node)
        names = node._saved_as if names is None else names
        saved = node._saved or ()   # only the slots that held a tensor (x ** 2: self)
        if None in saved:
            names = tuple([n for k, n in enumerate(names) if k >= len(saved) or
                           saved[k] is not None])
        elif type(names) is not tuple:
            names = tuple(names)
        self.released[nid] = names
        events = self.events
        i = len(events)
        events.append(("saved_released", i, number, nid, names))
        if i >= self._check_from:
            self._check_caps()

    def _store(self, event):
        events = self.events
        events.append(event)
        if len(events) > self._check_from:
            self._check_caps()

    def _refs(self, grads):
        """The value references of a node's gradients (``_grad_value``, the lookup of a small
        array inlined: most gradients are small, and most were seen before)."""
        if len(grads) == 1:  # (the reference alone, see _ONE)
            grad = grads[0]
            if grad is None:
                return None
            array = grad if type(grad) is ndarray else grad._data
            if array.nbytes <= _WHOLE_BYTES:  # (values.add_small, inlined)
                key = (array.dtype, array.shape, array.tobytes())
                ref = self._index.get(key)
                return self._new_small(key, array) if ref is None else ref
            return self._grad_value(grad)
        index, refs = self._index, []
        for grad in grads:
            if grad is None:
                refs.append(None)
                continue
            array = grad if type(grad) is ndarray else grad._data
            if array.nbytes <= _WHOLE_BYTES:
                key = (array.dtype, array.shape, array.tobytes())
                ref = index.get(key)
                refs.append(self._new_small(key, array) if ref is None else ref)
            else:
                refs.append(self._grad_value(grad))
        return tuple(refs)

    def _grad_accumulated(self, f):
        """``grad_accumulated``, stored as a tuple (see ``COMPACT``)."""
        pass_id, add = f["pass_id"], self.values.add
        self._store(("grad_accumulated", len(self.events),
                     None if pass_id is None else self.passes.get(pass_id), self._nid(f["node"]),
                     self.tensor(f["tensor"]), add(f["before"]), add(f["after"])))

    def plain_operands(self):
        """node id -> (formula, operands as plain data, operand tensor ids): the value
        references kept while recording become Values."""
        values, resolved = self.values, {}

        def plain(value):
            if type(value) is tuple:  # (reference,): see operands_of
                ref = value[0]
                if ref not in resolved:
                    resolved[ref] = thaw(values.value(ref))
                return resolved[ref]
            if type(value) is list:
                return [plain(v) for v in value]
            return value
        return {nid: (formula, {name: plain(v) for name, v in operands}, dict(tensors))
                for nid, (formula, operands, tensors) in self.operands.items()}

    def _dependencies(self, f):
        counts, needed, grads = {}, None, {}
        nid, add, tensor = self._nid, self.values.add, self.tensor
        structures = self.structures
        for node, count in f["counts"].items():
            key = node._uid
            counts[key if key is not None and key in structures else nid(node)] = count
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

    def _grad_value(self, grad):
        """``values.add(grad)``. A small array is cheap to look up by its bytes; a large one is
        summarised, so the summary is reused while the same tensor comes again unchanged (the
        tensors a node sends come again in ``grad_summed`` and as the next node's inputs in
        ``node_started`` and ``node_ran``; a change in place bumps the version)."""
        if grad is None:
            return None
        array = grad if type(grad) is ndarray else grad._data
        if array.size <= self._full_limit:
            return self._add_small(array)
        seen = self._recent.get(id(grad))
        # (the version read without making a counter: a tensor with none was never changed)
        version = (getattr(grad, "_vc", None) or _NO_VERSION)[0]
        if seen is not None and seen[0] is grad and seen[1] == version:
            return seen[2]
        ref = self.values.add_large(array)
        self._recent[id(grad)] = (grad, version, ref)
        return ref

    def _nid(self, node):
        nid = node._uid
        return nid if nid is not None and nid in self.structures else self.node(node)

    def stop(self, reason):
        """Stop recording for good: detach, warn, and end the events with ``truncated``."""
        self.detach()
        self.truncated = True
        for name in _PER_NODE:  # (the engine may still call them in the pass that runs)
            setattr(self, name, _ignore)
        self.events.append({"i": len(self.events), "kind": "truncated", "pass": None,
                            "reason": reason})
        warnings.warn(f"minigrad.graph.record() stopped recording: {reason}. The events so "
                      "far are kept and the program runs on; record a smaller graph, or pass "
                      "a larger cap to record(max_events=..., max_bytes=...).",
                      RecordingTruncated, stacklevel=_user_stacklevel())

    def attach(self):
        observe.add_observer(self)

    def detach(self):
        if self in state.observers:
            observe.remove_observer(self)

    # ----------------------------------------------------------------- conversion
    def _pass(self, kind, fields):
        pass_id = fields.get("pass_id", state.backward_pass)
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
        tid = tensor._uid
        if tid is None:
            tid = tensor_id(tensor)
            self.tensor_refs[tid] = weakref.ref(tensor)
        elif tid not in self.tensor_refs:
            self.tensor_refs[tid] = weakref.ref(tensor)
        return tid

    def node(self, node):
        """The id of ``node``; the first time, remember it and the nodes it leads to."""
        nid = node_id(node)
        structures = self.structures
        if nid in structures:
            return nid
        stack = [node]
        while stack:
            current = stack.pop()
            cid = current._uid  # given by node_id above or by its parent's structure_of
            if cid in structures:
                continue
            structures[cid] = structure_of(current, cid)
            if type(current) is AccumulateGrad:
                self.tensor(current.variable)
            edges = current._edges
            for k in range(0, len(edges), 2):
                child = edges[k]
                if child is not None and child._uid not in structures:
                    stack.append(child)
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


# The per-node events when they come as keywords: ``observe.emit`` sends them so when another
# observer shares the pass (the collector keeps the queue itself).
_FROM_KEYWORDS = {
    "node_ready": lambda c, f: c.node_ready(f["pass_id"], f["node"], None),
    "node_started": lambda c, f: c.node_started(f["pass_id"], f["node"], f["grads"], None),
    "node_ran": lambda c, f: c.node_ran(f["pass_id"], f["node"], f["grads_in"], f["grads_out"]),
    "grad_summed": lambda c, f: c.grad_summed(f["pass_id"], f["node"], f["index"], f["sender"],
                                              f["grad"], f["total"], f["pending"]),
    "saved_released": lambda c, f: c.saved_released(f["pass_id"], f["node"], f["names"]),
    "node_created": lambda c, f: c.node_created(f["node"], f["outputs"]),
    "grad_accumulated": EventCollector._grad_accumulated,
}


_uid = operator.attrgetter("_uid")
_ORDER_BASE = 2 ** 63  # (a ready queue key stays positive whatever the count of events)
_NO_OPERANDS = (None, (), ())
_PER_NODE = ("node_created", "node_ready", "node_started", "node_ran", "grad_summed",
             "saved_released")


def _ignore(*args, **kwargs):
    """What the per-node events do once recording stopped (see ``EventCollector.stop``)."""


# The fields of COMPACT events that are sequences: one of a single item is stored as the item.
_ONE = frozenset({"outputs", "values", "grads", "grads_in", "grads_out"})
_bisect = bisect.bisect
_NO_VERSION = (0,)


def plain_events(events):
    """The events as dicts: each tuple-stored event (see ``COMPACT``) becomes one, in place."""
    for i, event in enumerate(events):
        if type(event) is tuple:
            plain = {"i": event[1], "kind": event[0], "pass": event[2]}
            for k, name, sequence in _FIELDS[event[0]]:
                value = event[k]
                if sequence and type(value) is not tuple:  # (one item, stored alone)
                    value = (value,)
                plain[name] = value
            events[i] = plain
    return events


# kind -> (position, name, whether it is a sequence) of each field of a COMPACT event after
# ``pass``
_FIELDS = {kind: tuple((k, key, key in _ONE) for k, key in enumerate(keys) if k >= 3)
           for kind, keys in COMPACT.items()}


def structure_of(node, nid):
    """What never changes about node ``nid``, kept in case it dies before the recording ends.

    A flat tuple: the values of ``node_structure(node)`` in the order of ``STRUCTURE_KEYS``,
    then the names of its saved tensors (a tuple), then ``target id, input_nr, target id,
    input_nr, ...`` for its edges, then the ids of the tensors its saved slots hold, one per
    name (read them with the ``structure_*`` functions). Only plain values and the names'
    tuple, which the node's class shares: one object for the garbage collector, which stops
    watching it at its first or second collection, so ten thousand of them do not make full
    collections come sooner.
    """
    cls = type(node)
    kind = _KINDS.get(cls)
    if kind is None:
        kind = _KINDS[cls] = (cls.__name__, "accumulate" if cls is AccumulateGrad else
                              "root" if cls is GraphRoot else "function")
    variable = tensor_id(node.variable) if cls is AccumulateGrad else None
    # (From the flat edges, ``(node, input_nr, node, input_nr, ...)``: reading
    # ``next_functions`` would leave a tuple of pairs on every node.)
    next_ = node._edges
    count = len(next_)
    if count == 2:  # (one or two inputs, the common cases, without a loop)
        child = next_[0]
        next_ = (child if child is None else child._uid or node_id(child), next_[1])
    elif count == 4:
        child, other = next_[0], next_[2]
        next_ = (child if child is None else child._uid or node_id(child), next_[1],
                 other if other is None else other._uid or node_id(other), next_[3])
    elif count:
        next_ = list(next_)
        next_[::2] = [child if child is None else child._uid or node_id(child)
                      for child in next_[::2]]
        next_ = tuple(next_)
    saved = node._saved
    if not saved:
        names = held = ()
    else:
        names = node._saved_as
        count = len(saved)
        if count != len(names) or None in saved:
            names, held = _held(names, saved)
        elif count == 1:  # (no comprehension: in CPython 3.11 each one is a function call)
            held = (_saved_id(saved[0]),)
        elif count == 2:
            held = (_saved_id(saved[0]), _saved_id(saved[1]))
        else:
            held = tuple(map(_saved_id, saved))
        if type(names) is not tuple:
            names = tuple(names)
    return (nid, kind[0], kind[1], node._seq, variable, len(node._output_meta), names, *next_,
            *held)


_KINDS = {}  # node class -> (its name, its kind in a snapshot)


def _held(names, saved):
    """``(names, tensor ids)`` of the saved slots that hold something (x ** 2 saves no
    exponent tensor, mm only what the gradients it will send need)."""
    kept, held = [], []
    for name, slot in zip(names, saved):
        if slot is not None:
            kept.append(name)
            held.append(_saved_id(slot))
    return tuple(kept), tuple(held)


def _saved_id(slot):
    """The id of the tensor a saved slot holds (``None`` when it is not at hand), so that a
    node that dies before the recording ends still names what it saved."""
    tensor = slot.tensor if not slot.is_output else (
        slot.weak() if slot.weak is not None else None)
    return None if tensor is None else tensor_id(tensor)


def structure_info(structure):
    """The ``node_structure`` dict of a structure."""
    return dict(zip(STRUCTURE_KEYS, structure))


def structure_saved_names(structure):
    """The names of the node's saved tensors."""
    return structure[6]


def structure_saved_tensors(structure):
    """The ids of the tensors the node's saved slots held (``None`` where unknown), in the
    order of :func:`structure_saved_names`."""
    return structure[len(structure) - len(structure[6]):]


def structure_edges(structure):
    """The edges and constant stubs of a node no longer alive, as in a snapshot."""
    info, next_ = structure_info(structure), structure[7:len(structure) - len(structure[6])]
    nid, variable = info["id"], info["variable"]
    edges, constants = [], []
    for position in range(len(next_) // 2):
        target, input_nr = next_[2 * position], next_[2 * position + 1]
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
