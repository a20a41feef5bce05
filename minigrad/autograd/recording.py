"""``record()``: the events of forward construction and of every backward pass, as plain data.

Inside ``with record() as rec:`` an observer converts each event the engine emits into plain
data on the spot (ids, hook names, gradient values stored once per change). When the block
ends, ``rec.snapshot`` describes everything the events mention, and ``rec.state_at(i)`` tells
what the graph looked like after event ``i``: the stepper's frames. The event kinds and the
frame fields are described in ``docs/recording.md``.
"""

import json
import sys

from minigrad.autograd._captions import Captioner
from minigrad.autograd._events import (
    EventCollector,
    RecordingTruncated,
    plain_events,
    structure_edges,
    structure_info,
    structure_saved_names,
    structure_saved_tensors,
)
from minigrad.autograd._replay import Replayer
from minigrad.autograd._values import FULL_LIMIT, ValueTable, canonical, freeze, thaw
from minigrad.autograd.snapshot import GraphBuilder, Snapshot, collector_paused

__all__ = ["record", "Recording", "RecordingTruncated", "FORMAT"]

FORMAT = "minigrad.recording/1"


def record(names=None, full_limit=FULL_LIMIT, max_events=1_000_000, max_bytes=256 * 2**20):
    """Record forward construction and every backward pass inside a ``with`` block.

    It collects the events of the thread that opened it: ops and backward passes that other
    threads run meanwhile are not recorded (observers are per thread, like grad mode).

    Args:
        names: a dict name → tensor (or ``nn.Module``) for display names. By default the local
            variables of the code running the ``with`` block are used, so the tensors get
            the names the student gave them. The dict is read when the block ends, so it may
            be filled inside the block. (Before Python 3.13, reading a function's local
            variables leaves the frame holding them, as ``locals()`` does, until the function
            returns; pass ``names={}`` to avoid it.)
        full_limit: tensors with at most this many elements are stored in full, larger ones
            as a summary.
        max_events, max_bytes: caps. When one is reached, recording stops with a
            ``RecordingTruncated`` warning and a final ``truncated`` event; the program goes on.

    Example:
        >>> x = minigrad.tensor([1.0, 2.0], requires_grad=True)
        >>> with record() as rec:
        ...     y = (x * x).sum()
        ...     y.backward()
        >>> [e["kind"] for e in rec.events][:3]
        ['node_created', 'node_created', 'backward_started']
        >>> rec.state_at(-1)["caption"]
        'backward() is finished.'
    """
    return Recording(_collector=EventCollector(full_limit, max_events, max_bytes),
                     _names=names)


class Recording:
    """The events of a ``record()`` block, its snapshot and the state after each event.

    Attributes:
        snapshot: a ``Snapshot`` of every tensor and node the events mention (nodes that died
            before the block ended are kept with ``"alive": false``).
        truncated: whether a cap stopped the recording early.
        limits: the ``full_limit``, ``max_events`` and ``max_bytes`` it was recorded with.
    """

    def __init__(self, data=None, *, _collector=None, _names=None):
        self._collector, self._names = _collector, _names
        self._replayer = None
        self.snapshot = None
        self._stored, self._values = [], []   # plain data (or compact tuples), never handed out
        self._compact = False                 # whether _stored may still hold tuples
        self._frozen_events = self._frozen_values = None
        self.truncated = False
        self.limits = {}
        if data is not None:
            self._load(data)

    @property
    def _events(self):
        """The events as plain dicts (those stored as compact tuples converted on first use)."""
        if self._compact:
            plain_events(self._stored)
            self._compact = False
        return self._stored

    @property
    def events(self):
        """The events, in the order the engine emitted them (read-only plain data)."""
        if self._frozen_events is None:
            self._frozen_events = freeze(self._events)
        return self._frozen_events

    @property
    def values(self):
        """The Value table that events refer to by index (read-only)."""
        if self._frozen_values is None:
            self._frozen_values = freeze(self._plain_values())
        return self._frozen_values

    def _plain_values(self):
        if isinstance(self._values, ValueTable):  # recorded as bytes: made Values on first use
            self._values = self._values.values
        return self._values

    # ----------------------------------------------------------------- recording
    def __enter__(self):
        if self._collector is None:
            raise RuntimeError("this recording is finished; start a new one with record()")
        self._collector.attach()
        return self

    def __exit__(self, *exc_info):
        collector, self._collector = self._collector, None
        collector.detach()
        names = self._names
        if names is None:
            names = sys._getframe(1).f_locals
        with collector_paused():
            snap = Snapshot(_final_snapshot(collector, names))
        self._load({"format": FORMAT, "snapshot": snap, "events": collector.events,
                    "values": collector.values, "truncated": collector.truncated,
                    "limits": {"full_limit": collector.values.full_limit,
                               "max_events": collector.max_events,
                               "max_bytes": collector.max_bytes}}, compact=True)
        return False

    def _load(self, data, compact=False):
        snapshot = data["snapshot"]
        self.snapshot = snapshot if isinstance(snapshot, Snapshot) else \
            Snapshot.from_dict(snapshot)
        values = data["values"]
        self._stored = data["events"] if compact else list(data["events"])
        self._compact = compact
        self._values = values if isinstance(values, ValueTable) else list(values)
        self._frozen_events = self._frozen_values = None
        self.truncated = bool(data.get("truncated", False))
        self.limits = dict(data.get("limits", {}))
        self._replayer = None

    def _finished(self):
        if self._collector is not None:
            raise RuntimeError("the recording is still running: read it after the "
                               "`with record()` block")

    def _ready(self):
        if self._replayer is None:
            self._finished()
            plain = self.snapshot._plain
            edges = _edges_by_node(plain)
            values = self._plain_values()  # frames share these plain Values: read-only
            captioner = Captioner(self._events, values, self.snapshot._index(), edges)
            structure = {n["id"]: (n["num_inputs"], edges.get(n["id"], []))
                         for n in plain["nodes"]}
            self._replayer = Replayer(
                self._events, structure, lambda ref: None if ref is None else values[ref],
                captioner)
        return self._replayer

    # ----------------------------------------------------------------- reading
    def __len__(self):
        return len(self._stored)

    def state_at(self, i):
        """The state of the graph after event ``i`` (negative ``i`` counts from the end).

        Returns a dict (see ``docs/recording.md``): ``pass``, ``node`` (running now),
        ``inputs`` (its gradients), ``ran``, ``pending``, ``ready`` (queue order),
        ``buffers`` (gradients so far per node input), ``grads`` (``.grad`` per tensor),
        ``retained``, ``released``, ``hooks_fired``, ``error``, ``caption``, …

        Example:
            >>> x = minigrad.tensor([1.0, 2.0], requires_grad=True)
            >>> with record() as rec:
            ...     y = (x * x).sum()
            ...     y.backward()
            >>> rec.state_at(5)["caption"]
            'SumBackward0 is taken from the queue with gradient 1.'
            >>> rec.snapshot[rec.state_at(5)["node"]]["name"]
            'SumBackward0'
        """
        return self._ready().state_at(i)

    def caption(self, i):
        """The one-sentence description of event ``i``."""
        return self.state_at(i)["caption"]

    def frames(self):
        """Every state, in order (``state_at(0)``, ``state_at(1)``, …)."""
        return (self.state_at(i) for i in range(len(self._events)))

    @property
    def passes(self):
        """One entry per backward pass: ``{"pass", "api", "start", "end", "error"}``."""
        result = {}
        for event in self._events:
            number = event["pass"]
            if event["kind"] == "backward_started":
                result[number] = {"pass": number, "api": event["api"], "start": event["i"],
                                  "end": None, "error": None}
            elif number in result and event["kind"] in ("backward_finished", "error"):
                result[number]["end"] = event["i"]
                if event["kind"] == "error":
                    result[number]["error"] = event["message"]
        return list(result.values())

    # ----------------------------------------------------------------- plain data
    def to_dict(self):
        self._finished()
        return {"format": FORMAT, "snapshot": self.snapshot.to_dict(),
                "events": thaw(self._events), "values": thaw(self._plain_values()),
                "truncated": self.truncated, "limits": dict(self.limits)}

    def to_json(self, indent=None):
        # The same text as json.dumps(self.to_dict()), written straight from the recording's
        # own read-only data (JSON writes tuples as lists): no copy first.
        self._finished()
        return json.dumps({"format": FORMAT, "snapshot": self.snapshot._plain,
                           "events": self._events, "values": self._plain_values(),
                           "truncated": self.truncated, "limits": dict(self.limits)},
                          indent=indent, check_circular=False)

    @classmethod
    def from_dict(cls, data):
        if data.get("format") != FORMAT:
            raise ValueError(f"not a minigrad recording (format {data.get('format')!r})")
        return cls(canonical(data))

    @classmethod
    def from_json(cls, text):
        return cls.from_dict(json.loads(text))

    def __eq__(self, other):
        return isinstance(other, Recording) and self.to_dict() == other.to_dict()

    __hash__ = None

    def __repr__(self):
        if self._collector is not None:
            return f"<Recording: running, {len(self._collector.events)} events so far>"
        return f"<Recording: {len(self._stored)} events, {len(self.passes)} backward passes" \
               f"{', truncated' if self.truncated else ''}>"


def _edges_by_node(snapshot):
    """node id -> [(target node id or None for a constant, input_nr)] in next_functions order."""
    edges = {}
    for edge in snapshot["edges"]:
        if edge["kind"] in ("next", "constant"):
            target = edge["target"] if edge["kind"] == "next" else None
            edges.setdefault(edge["source"], []).append((edge["position"], target,
                                                         edge["input_nr"]))
    return {n: [(t, nr) for _, t, nr in sorted(e, key=lambda x: x[0])] for n, e in edges.items()}


def _final_snapshot(collector, names):
    builder = GraphBuilder(collector.values.full_limit)
    operands = collector.plain_operands()
    for nid, (_, values, tensors) in operands.items():  # the values when it ran, not after
        builder.operands[nid] = values, tensors
    for ref in collector.root_refs.values():
        tensor = ref()
        if tensor is not None:
            builder.add_root(tensor)
    for ref in collector.tensor_refs.values():
        tensor = ref()
        if tensor is not None:
            builder.add_tensor(tensor)
    builder.walk()
    # A node the tensors alive now do not lead to is described from what was seen of it.
    for nid, structure in collector.structures.items():
        if nid not in builder.nodes:
            _add_ghost(builder, structure, collector.released.get(nid, ()), operands)
    return builder.finish(names)


def _add_ghost(builder, structure, released, collector_operands):
    """Describe a node that died before the recording ended, from what was seen of it."""
    info = structure_info(structure)
    formula, operands, tensors = collector_operands.get(info["id"], (None, {}, {}))
    info.update({
        "label": None, "alive": False, "outputs": [], "module": None,
        "formula": None if formula is None else list(formula), "operands": operands,
        "operand_tensors": {k: t for k, t in tensors.items() if t in builder.tensors},
        "saved": [{"name": name, "tensor": tid if tid in builder.tensors else None,
                   "version": None, "released": name in released, "modified": False,
                   "is_output": False, "packed": False, "value": None}
                  for name, tid in zip(structure_saved_names(structure),
                                       structure_saved_tensors(structure))],
        "pre_hooks": [], "post_hooks": [], "tensor_hooks": [], "retained": [], "metadata": {},
    })
    builder.nodes[info["id"]] = [None, info]
    edges, constants = structure_edges(structure)
    builder.edges.extend(edges)
    builder.constants.extend(constants)
