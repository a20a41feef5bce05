"""Reading minigrad's graph data: what the user passed → a snapshot dict and an optional state.

This is the only module of ``viz`` that imports ``minigrad``, and it uses only the public graph
API (``minigrad.autograd.graph.snapshot`` / ``snapshot_data`` and the ``to_dict()`` /
``state_at()`` of snapshots and recordings) plus ``minigrad.Tensor`` as a type, and the
public ``named_modules()`` of the models among the caller's variables (for the class names of
module boxes). Everything after this module works on the plain data described in
docs/graph-data.md, so it can be tested with hand-written dicts.
"""

import inspect
import json

__all__ = ["GraphData", "load", "caller_names", "ids_of", "is_tensor", "modules_of",
           "models_in", "frame_of_caller"]


def is_tensor(obj):
    """Whether ``obj`` is a ``minigrad.Tensor``."""
    try:
        from minigrad import Tensor
    except ImportError:  # pragma: no cover - viz always ships with minigrad
        return False
    return isinstance(obj, Tensor)


def caller_names(frame):
    """Tensors and modules visible in ``frame`` by variable name, its locals first.

    This is what ``names=locals()`` would give, so that ``draw(loss)`` labels ``x`` as ``x``.
    """
    if frame is None:
        return {}
    names = {}
    for scope in (frame.f_locals, frame.f_globals):
        for key, value in scope.items():
            if key.startswith("_") or key in names:
                continue
            if is_tensor(value) or (not isinstance(value, type) and
                                    callable(getattr(type(value), "named_parameters", None))):
                names[key] = value
    return names


def _snapshot_of(tensors, names):
    from minigrad.autograd import graph
    if not hasattr(graph, "snapshot"):
        raise RuntimeError("minigrad.autograd.graph.snapshot() is not available in this "
                           "version of minigrad; pass a snapshot dict instead")
    kwargs = {"names": names} if names else {}
    if hasattr(graph, "snapshot_data"):  # the same dict, without a defensive copy
        return graph.snapshot_data(*tensors, **kwargs)
    return graph.snapshot(*tensors, **kwargs).to_dict()


def _state_of(recording, event):
    if event is None:
        return None
    if not hasattr(recording, "state_at"):
        raise TypeError("event= needs a Recording (with state_at()), not a plain dict")
    return _as_dict(recording.state_at(event))


def _as_dict(obj):
    return obj if isinstance(obj, dict) else obj.to_dict()


def load(obj, names=None, event=None):
    """Turn ``obj`` into ``(snapshot dict, state dict or None)``.

    ``obj`` is a tensor, a list or tuple of tensors, a ``Snapshot``, a ``Recording`` (with
    ``event=`` for its state after that event), or the ``to_dict()`` of either, or its JSON.

    Example:
        >>> from viz.examples import mul_sum
        >>> snap, state = load(mul_sum())
        >>> snap["roots"], state
        (['t4'], None)
    """
    if isinstance(obj, str):
        obj = json.loads(obj)
    if is_tensor(obj) or (isinstance(obj, (list, tuple)) and obj
                           and all(is_tensor(t) for t in obj)):
        tensors = (obj,) if is_tensor(obj) else tuple(obj)
        return _snapshot_of(tensors, names), None
    if isinstance(obj, dict):
        fmt = str(obj.get("format", ""))
        if fmt.startswith("minigrad.recording"):
            if event is not None:
                raise TypeError("event= needs a Recording object, not its to_dict()")
            return obj["snapshot"], None
        return obj, None
    if hasattr(obj, "state_at") and hasattr(obj, "snapshot"):
        return _as_dict(obj.snapshot), _state_of(obj, event)
    if hasattr(obj, "to_dict"):
        return obj.to_dict(), None
    raise TypeError(f"cannot draw a {type(obj).__name__}: pass a minigrad tensor, a list of "
                    "tensors, a Snapshot or a Recording")


class GraphData:
    """An index over one snapshot dict: look things up by id, follow edges in order.

    Example:
        >>> from viz.examples import mul_sum
        >>> g = GraphData(mul_sum())
        >>> [g.nodes[e["target"]]["name"] for e in g.next_edges("n1")]
        ['AccumulateGrad', 'AccumulateGrad']
    """

    def __init__(self, snapshot):
        self.snapshot = snapshot
        self.roots = list(snapshot.get("roots") or [])
        self.tensors = {t["id"]: t for t in snapshot.get("tensors") or []}
        self.nodes = {n["id"]: n for n in snapshot.get("nodes") or []}
        self.constants = {c["id"]: c for c in snapshot.get("constants") or []}
        self.edges = list(snapshot.get("edges") or [])
        self._by_source = {}
        for edge in self.edges:
            self._by_source.setdefault(edge.get("source"), []).append(edge)
        if not self.roots:
            self.roots = self._outputs()

    def _outputs(self):
        """Without roots (a recording before any backward): the non-leaf tensors whose node
        no other node points to, i.e. the results nothing was computed from."""
        used = {e.get("target") for e in self.edges if e.get("kind") == "next"}
        return [tid for tid, t in self.tensors.items()
                if t.get("grad_fn") in self.nodes and t["grad_fn"] not in used]

    def edges_from(self, source, *kinds):
        """Edges leaving ``source``, of the given kinds, in the snapshot's order."""
        return [e for e in self._by_source.get(source, ()) if not kinds or e.get("kind") in kinds]

    def next_edges(self, node_id):
        """The ``next`` and ``constant`` edges of a node, in ``next_functions`` order."""
        edges = self.edges_from(node_id, "next", "constant")
        return sorted(edges, key=lambda e: (e.get("position") is None, e.get("position") or 0))

    def output_of(self, node_id, output_nr):
        """The tensor id that is output ``output_nr`` of ``node_id``, if the snapshot has it."""
        for edge in self.edges_from(node_id, "output"):
            if (edge.get("input_nr") or 0) == output_nr and edge.get("target") in self.tensors:
                return edge["target"]
        for tid, tensor in self.tensors.items():
            if tensor.get("grad_fn") == node_id and (tensor.get("output_nr") or 0) == output_nr:
                return tid
        return None

    def leaf_of(self, node_id):
        """The leaf tensor id an AccumulateGrad node writes to, if known."""
        variable = self.nodes.get(node_id, {}).get("variable")
        if variable:
            return variable
        for edge in self.edges_from(node_id, "variable"):
            return edge.get("target")
        return None

    def tensor_kind(self, tensor):
        """``leaf``, ``constant``, ``nonleaf`` or ``retained``, from the tensor's flags."""
        kind = tensor.get("kind")
        if tensor.get("is_leaf", kind in ("leaf", "constant")):
            return "leaf" if tensor.get("requires_grad", kind == "leaf") else "constant"
        if tensor.get("retains_grad", kind == "retained"):
            return "retained"
        return "nonleaf"

    def is_root(self, tensor_id):
        tensor = self.tensors.get(tensor_id, {})
        return bool(tensor.get("is_root") or tensor.get("kind") == "root"
                    or tensor_id in self.roots)

    def name_of(self, tensor_id):
        tensor = self.tensors.get(tensor_id)
        return str(tensor.get("name") or tensor_id) if tensor else str(tensor_id)


def modules_of(obj):
    """``({node id: module name}, {module name: class name})`` from a recording's events.

    A node belongs to the innermost ``nn.Module`` whose ``forward`` was running when it was
    created (``module_call`` enter/exit events). The outermost module is skipped when it calls
    other modules, so that a model's layers, not the model, become the boxes.
    """
    events = getattr(obj, "events", None)
    if events is None and isinstance(obj, dict):
        events = obj.get("events")
    paths, classes, stack = {}, {}, []
    for event in events or ():
        kind = event.get("kind")
        if kind == "module_call":
            name = str(event.get("name"))
            if event.get("phase") == "enter":
                stack.append(name)
                classes[name] = str(event.get("module") or "")
            elif stack:
                stack.pop()
        elif kind == "node_created" and stack and event.get("node"):
            paths[event["node"]] = tuple(stack)
    parents = {path[0] for path in paths.values() if len(path) > 1}
    owner = {}
    for node, path in paths.items():
        if path[0] not in parents:
            owner[node] = path[-1]
        elif len(path) > 1:
            owner[node] = path[-1]
    return owner, classes


def _is_module(value):
    return not isinstance(value, type) and callable(getattr(type(value), "named_modules", None))


def models_in(names):
    """``({module path: class name}, [variable names])`` for the ``nn.Module`` values of
    ``names`` (the caller's variables), through the public ``named_modules()``.

    Paths are relative to each module, as minigrad writes them when that module is the model
    (``"fc1"``, ``"0.1"``, ``""`` for the model itself); the biggest model wins a clash. The
    variable names come longest first: they are the prefixes of parameter names
    (``model.0.weight``).

    Example:
        >>> from minigrad import nn
        >>> models_in({"model": nn.Sequential(nn.Linear(2, 2), nn.ReLU()), "n": 3})
        ({'': 'Sequential', '0': 'Linear', '1': 'ReLU'}, ['model'])
    """
    found = [(key, value) for key, value in (names or {}).items()
             if isinstance(key, str) and _is_module(value)]
    listed = sorted(((key, list(value.named_modules())) for key, value in found),
                    key=lambda kv: -len(kv[1]))
    classes = {}
    for _, modules in listed:
        for path, module in modules:
            classes.setdefault(str(path), type(module).__name__)
    return classes, sorted((key for key, _ in found), key=len, reverse=True)


def ids_of(tensor):
    """The snapshot id of a live tensor (ids are stable across snapshots)."""
    return _snapshot_of((tensor,), None)["roots"][0]


def frame_of_caller(depth=2):
    """The frame ``depth`` calls up from the caller of this function."""
    frame = inspect.currentframe()
    for _ in range(depth):
        frame = frame.f_back if frame is not None else None
    return frame
