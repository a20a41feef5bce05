"""``snapshot()``: the graph reachable from some tensors, now, as immutable plain data.

The snapshot walks ``grad_fn`` and ``next_functions`` from the roots and writes down every
tensor it can still reach (the roots, leaves through their AccumulateGrad node, constants
through the nodes that used them, intermediate results that are still alive), every node with
its saved tensors and hooks, the ``(None, 0)`` stubs of constants, and the edges between them.
Nothing in a ``Snapshot`` is a live object: ``viz`` draws from it alone. The format is
described in ``docs/graph-data.md``.
"""

import json

from minigrad.autograd._formulas import formula_of, operand_tensors, operands_of
from minigrad.autograd._ids import constant_id, edge_id, node_id, tensor_id
from minigrad.autograd._values import (
    FULL_LIMIT,
    callable_name,
    format_value,
    freeze,
    thaw,
    value_of,
)
from minigrad.autograd.node import AccumulateGrad, GraphRoot

__all__ = ["snapshot", "snapshot_data", "Snapshot", "FORMAT", "GraphBuilder", "node_structure",
           "STRUCTURE_KEYS", "plain_copy", "module_calls"]

FORMAT = "minigrad.snapshot/1"


def snapshot(*roots, names=None, full_limit=FULL_LIMIT):
    """The graph reachable from ``roots`` as a ``Snapshot`` (immutable plain data).

    Args:
        *roots: tensors (usually the loss).
        names: a dict name → tensor for display names; ``names=locals()`` works (other values
            and names starting with ``_`` are ignored; an ``nn.Module`` value names its
            parameters ``<name>.<parameter>``).
        full_limit: tensors with at most this many elements keep all their values; larger
            ones are summarised (shape, min, max, mean, norm).

    Example:
        >>> x = minigrad.tensor([1.0, 2.0], requires_grad=True)
        >>> y = (x * 3).sum()
        >>> snap = snapshot(y, names=locals())
        >>> [t["name"] for t in snap.tensors]  # 3 is the constant MulBackward0 saved
        ['y', '3', 'x']
        >>> [n["name"] for n in snap.nodes]
        ['SumBackward0', 'MulBackward0', 'AccumulateGrad']
    """
    builder = GraphBuilder(full_limit)
    for root in roots:
        builder.add_root(root)
    return Snapshot(builder.finish(names))


def snapshot_data(*roots, names=None, full_limit=FULL_LIMIT):
    """``snapshot(*roots, ...).to_dict()`` without the copy: the plain dict, new and the
    caller's own (a viewer that draws a 20,000-node graph saves seconds).

    Example:
        >>> x = minigrad.tensor([1.0, 2.0], requires_grad=True)
        >>> snapshot_data((x * 3).sum())["format"]
        'minigrad.snapshot/1'
    """
    builder = GraphBuilder(full_limit)
    for root in roots:
        builder.add_root(root)
    return builder.finish(names)


class Snapshot:
    """A graph as immutable plain data: ``roots``, ``tensors``, ``nodes``, ``constants``,
    ``edges`` (see ``docs/graph-data.md``).

    Each item is a read-only mapping; ``to_dict()`` gives a plain, JSON-ready copy.

    Example:
        >>> loss = (minigrad.tensor([1.0, 2.0], requires_grad=True) ** 2).sum()
        >>> snap = snapshot(loss)
        >>> snap.tensor(snap.roots[0])["kind"]
        'root'
        >>> Snapshot.from_json(snap.to_json()) == snap
        True
    """

    __slots__ = ("_plain", "_frozen", "_by_id", "_plain_by_id")

    def __init__(self, data):
        self._plain = data            # private plain data, never handed out
        self._frozen = self._by_id = self._plain_by_id = None

    @property
    def _data(self):
        if self._frozen is None:
            self._frozen = freeze(self._plain)
            self._by_id = {item["id"]: item
                           for key in ("tensors", "nodes", "constants", "edges")
                           for item in self._frozen[key]}
        return self._frozen

    def _index(self):
        """id -> plain item (for minigrad's own readers, which do not modify it)."""
        if self._plain_by_id is None:
            self._plain_by_id = {item["id"]: item
                                 for key in ("tensors", "nodes", "constants", "edges")
                                 for item in self._plain[key]}
        return self._plain_by_id

    format = property(lambda self: self._data["format"])
    roots = property(lambda self: self._data["roots"])
    tensors = property(lambda self: self._data["tensors"])
    nodes = property(lambda self: self._data["nodes"])
    constants = property(lambda self: self._data["constants"])
    edges = property(lambda self: self._data["edges"])

    def __getitem__(self, id_):
        """The tensor, node, constant or edge with this id."""
        if self._by_id is None:
            self._data  # noqa: B018 - freezes and indexes
        return self._by_id[id_]

    def __contains__(self, id_):
        return id_ in self._index()

    def tensor(self, id_):
        return self[id_]

    def node(self, id_):
        return self[id_]

    def named(self, name):
        """The TensorInfo whose display name is ``name``."""
        for info in self.tensors:
            if info["name"] == name:
                return info
        raise KeyError(name)

    def to_dict(self):
        """A plain (JSON-ready) copy."""
        return plain_copy(self._plain)

    def to_json(self, indent=None):
        return json.dumps(self._plain, indent=indent)

    @classmethod
    def from_dict(cls, data):
        if data.get("format") != FORMAT:
            raise ValueError(f"not a minigrad snapshot (format {data.get('format')!r})")
        return cls(thaw(data))

    @classmethod
    def from_json(cls, text):
        return cls.from_dict(json.loads(text))

    def __eq__(self, other):
        return isinstance(other, Snapshot) and self._plain == other._plain

    __hash__ = None

    def __repr__(self):
        counts = ", ".join(f"{len(self._plain[k])} {k}" for k in ("tensors", "nodes", "constants"))
        return f"<Snapshot: {counts}>"


def plain_copy(data):
    """A deep copy of JSON-ready ``data`` (tuples become lists), made by the C JSON codec:
    ten times faster than copying item by item (a 20,000-node snapshot: 0.4 s, not 4 s)."""
    try:
        return json.loads(json.dumps(data, check_circular=False))
    except (TypeError, ValueError):  # not JSON-ready after all: copy item by item
        return thaw(data)


def node_kind(node):
    if isinstance(node, AccumulateGrad):
        return "accumulate"
    return "root" if isinstance(node, GraphRoot) else "function"


def _hooks(table):
    return [callable_name(h) for h in table.values()] if table else []


class GraphBuilder:
    """Collects the tensors, nodes, constants and edges of a graph, then names them."""

    def __init__(self, full_limit=FULL_LIMIT):
        self.full_limit = full_limit
        self.roots = []
        self.tensors = {}      # id -> [tensor, info]
        self.nodes = {}        # id -> [node or None (a node no longer alive), info]
        self.constants = []
        self.edges = []
        self.operands = {}     # node id -> (operands, their tensor ids) when it ran (record())
        self._stack = []

    # ----------------------------------------------------------------- collecting
    def add_root(self, tensor):
        tid = self.add_tensor(tensor)
        if tid not in self.roots:
            self.roots.append(tid)
        self.walk()
        return tid

    def add_tensor(self, tensor):
        """Add ``tensor`` (and, after ``walk``, everything reachable from it); return its id."""
        tid = tensor_id(tensor)
        if tid in self.tensors:
            return tid
        self.tensors[tid] = [tensor, None]
        if tensor.grad_fn is not None:
            self._stack.append(tensor.grad_fn)
        accumulator = tensor._accumulator() if tensor._accumulator is not None else None
        if accumulator is not None:
            self._stack.append(accumulator)
        return tid

    def add_node(self, node):
        self._stack.append(node)
        self.walk()
        return node_id(node)

    def walk(self):
        """Add everything reachable from the tensors and nodes added so far."""
        stack = self._stack
        while stack:
            node = stack.pop()
            nid = node_id(node)
            if nid in self.nodes:
                continue
            self.nodes[nid] = [node, None]
            for nr, ref in enumerate(node._output_refs):
                tensor = ref() if ref is not None else None
                if tensor is not None and tensor.grad_fn is node:
                    self._edge(node, "output", nr, nid, self.add_tensor(tensor), None, nr)
            if isinstance(node, AccumulateGrad):
                self._edge(node, "variable", 0, nid, self.add_tensor(node.variable), None, None)
            inputs = node._input_refs
            for position, (child, input_nr) in enumerate(node.next_functions):
                if child is None:
                    ref = inputs[position] if position < len(inputs) else None
                    tensor = ref() if ref is not None else None
                    cid = constant_id(nid, position)
                    self.constants.append({
                        "id": cid, "node": nid, "position": position,
                        "tensor": None if tensor is None else self.add_tensor(tensor)})
                    self._edge(node, "constant", position, nid, cid, position, None)
                else:
                    self._edge(node, "next", position, nid, node_id(child), position, input_nr)
            # Children are pushed in reverse so that they are visited in next_functions order.
            stack.extend(child for child, _ in reversed(node.next_functions) if child is not None)

    def _edge(self, node, kind, number, source, target, position, input_nr):
        self.edges.append({"id": edge_id(source, kind, number), "kind": kind, "source": source,
                           "target": target, "position": position, "input_nr": input_nr})

    # ----------------------------------------------------------------- describing
    def finish(self, names=None):
        """The snapshot as a plain dict, with display names and labels."""
        for entry in self.tensors.values():
            entry[1] = self._tensor_info(entry[0])
        for entry in self.nodes.values():
            if entry[1] is None:
                entry[1] = self._node_info(entry[0])
        numbers = _class_numbers(self.nodes)
        _name_tensors(self.tensors, self.nodes, names, numbers)
        _label_nodes(self.nodes, self.tensors, numbers)
        for constant in self.constants:
            tid = constant["tensor"]
            constant["name"] = self.tensors[tid][1]["name"] if tid else None
        return {"format": FORMAT, "roots": list(self.roots),
                "tensors": [info for _, info in self.tensors.values()],
                "nodes": [info for _, info in self.nodes.values()],
                "constants": self.constants, "edges": self.edges,
                "module_calls": module_calls(self.nodes.values(), names)}

    def _tensor_info(self, t):
        tid = tensor_id(t)
        accumulator = t._accumulator() if t._accumulator is not None else None
        if t.grad_fn is not None:
            table = t.grad_fn._tensor_pre_hooks
            hooks = [callable_name(h) for i, h in table.values() if i == t._output_nr] \
                if table else []
        else:
            hooks = _hooks(t._hooks)
        retains = t.retains_grad
        is_root = tid in self.roots
        if is_root:
            kind = "root"
        elif t.grad_fn is None:
            kind = "leaf" if t._requires_grad else "constant"
        else:
            kind = "retained" if retains else "nonleaf"
        value = value_of(t._data, self.full_limit)
        return {
            "id": tid, "name": None, "shape": list(t._data.shape), "dtype": value["dtype"],
            "kind": kind, "requires_grad": t._requires_grad, "is_leaf": t.grad_fn is None,
            "retains_grad": retains, "is_root": is_root, "version": t._version,
            "value": value,
            "grad": None if t._grad is None else value_of(t._grad._data, self.full_limit),
            "grad_fn": None if t.grad_fn is None else node_id(t.grad_fn),
            "output_nr": t._output_nr,
            "accumulator": None if accumulator is None else node_id(accumulator),
            "hooks": hooks, "post_accumulate_hooks": _hooks(t._post_acc_hooks),
            "module": getattr(t, "_module_path", None),
        }

    def _node_info(self, node):
        info = node_structure(node)
        outputs = list(_alive_outputs(node))
        info.update({
            "label": None, "alive": True,
            "outputs": [tensor_id(t) for t in outputs],
            "module": next((t._module_path for t in outputs
                            if getattr(t, "_module_path", None) is not None),
                           getattr(node, "_module_path", None)),
            "saved": self._saved_info(node),
            "pre_hooks": _hooks(node._pre_hooks), "post_hooks": _hooks(node._post_hooks),
            "tensor_hooks": [{"index": i, "name": callable_name(h)}
                             for i, h in (node._tensor_pre_hooks or {}).values()],
            "retained": sorted(i for i, ref in node._retained.items() if ref() is not None)
            if node._retained else [],
            "metadata": {str(k): str(v) for k, v in node._metadata.items()}
            if node._metadata else {},
        })
        formula = formula_of(node)
        info["formula"] = None if formula is None else list(formula)
        recorded = self.operands.get(info["id"])
        if recorded is None:
            recorded = operands_of(node, self.full_limit), {
                name: tensor_id(t) for name, t in operand_tensors(node).items()}
        info["operands"] = recorded[0]
        info["operand_tensors"] = {k: t for k, t in recorded[1].items() if t in self.tensors}
        return info

    def _saved_info(self, node):
        if not node._saved:
            return []
        names = node._saved_names()
        result = []
        for i, saved in enumerate(node._saved):
            name = names[i] if i < len(names) else f"saved_tensors[{i}]"
            if saved is None:
                continue
            tensor = saved.tensor if not saved.is_output else (
                saved.weak() if saved.weak is not None else None)
            if tensor is None and saved.released:
                tensor = _released_tensor(node, saved)
            tid = tensor._uid if tensor is not None and tensor._uid in self.tensors else None
            data = saved.tensor._data if saved.tensor is not None else saved.data
            result.append({
                "name": name, "tensor": tid, "version": saved.version,
                "released": saved.released,
                "modified": not saved.released and saved.version_counter[0] != saved.version,
                "is_output": saved.is_output, "packed": saved.packed is not None,
                "value": None if data is None else value_of(data, self.full_limit)})
        return result


def module_calls(entries, names=None):
    """The ``nn.Module`` calls that made the nodes of ``entries`` (``[node, info]`` pairs).

    Each call is ``{"id": "c3", "module", "class", "parent", "depth", "index", "count"}``:
    ``module`` is the module's qualified name (``"0"``, ``"fc1"``), or for a module that is no
    child of another its variable name in ``names`` (``"cell"``), else its class name;
    ``index`` of ``count`` numbers the calls of one module object in the order they were made;
    ``parent`` is the call it ran inside. Each node info gets ``"call"``: the innermost call
    whose sequence range holds the node's sequence number (``None``: made outside any call).
    """
    found = {}
    for node, _ in entries:
        for call in getattr(node, "_module_calls", ()) if node is not None else ():
            found.setdefault((id(call[0]), call[1]), call)
    calls = sorted(found.values(), key=lambda c: (c[1], -c[2]))
    variables = {id(v): k for k, v in (names or {}).items()
                 if isinstance(k, str) and not k.startswith("_")
                 and callable(getattr(v, "named_modules", None)) and not isinstance(v, type)}
    per_module, result, stack = {}, [], []
    for number, (module, start, _) in enumerate(calls):
        per_module.setdefault(id(module), []).append(number)
        while stack and calls[stack[-1]][2] < start:
            stack.pop()
        parent = stack[-1] if stack else None
        result.append({"id": f"c{number}", "module": module._path or variables.get(
                           id(module), type(module).__name__),
                       "class": type(module).__name__,
                       "parent": None if parent is None else f"c{parent}",
                       "depth": len(stack), "index": 0, "count": 0})
        stack.append(number)
    for numbers in per_module.values():
        for k, number in enumerate(numbers, 1):
            result[number].update(index=k, count=len(numbers))
    _place_nodes(entries, calls)
    return result


def _place_nodes(entries, calls):
    """Set each node info's ``call``: the innermost call whose range holds its number."""
    infos = sorted((info for _, info in entries), key=lambda i: i["sequence_nr"])
    stack, k = [], 0
    for info in infos:
        seq = info["sequence_nr"]
        while k < len(calls) and calls[k][1] < seq:
            while stack and calls[stack[-1]][2] < calls[k][1]:
                stack.pop()
            stack.append(k)
            k += 1
        while stack and calls[stack[-1]][2] < seq:
            stack.pop()
        info["call"] = f"c{stack[-1]}" if stack else None


STRUCTURE_KEYS = ("id", "name", "kind", "sequence_nr", "variable", "num_inputs")


def node_structure(node):
    """What never changes about a node: the ``STRUCTURE_KEYS`` of its NodeInfo."""
    return {
        "id": node_id(node), "name": type(node).__name__, "kind": node_kind(node),
        "sequence_nr": node._seq,
        "variable": tensor_id(node.variable) if isinstance(node, AccumulateGrad) else None,
        "num_inputs": len(node._output_meta),
    }


def _released_tensor(node, saved):
    """The tensor a released slot held, if it is still alive: release drops the reference, but
    the slot keeps the tensor's version counter, which the tensor (an input or an output of the
    node) shares. Then a released saved tensor keeps its id, and a viewer can draw it faded."""
    refs = node._output_refs if saved.is_output else node._input_refs
    for ref in refs:
        tensor = ref() if ref is not None else None
        if tensor is not None and tensor._version_counter is saved.version_counter and (
                not saved.is_output or tensor.grad_fn is node):
            return tensor
    return None


def _alive_outputs(node):
    for ref in node._output_refs:
        tensor = ref() if ref is not None else None
        if tensor is not None and tensor.grad_fn is node:
            yield tensor


def _op_name(node_name):
    """``MulBackward0`` → ``mul``: the forward op a generated tensor name is built from."""
    base = node_name
    while base and base[-1].isdigit():
        base = base[:-1]
    if base.endswith("Backward"):
        base = base[:-len("Backward")]
    base = base.lower() or "out"
    # NB: ``t`` (TBackward0) numbered would read ``t1``, like a tensor id: spell it out
    return _STEMS.get(base, base)


_STEMS = {"t": "transposed"}


def _numbered(stem, k, number):
    """The ``k``-th tensor named ``stem``: ``mul2``; ``conv2d_2``; ``2. #2`` for a number."""
    if number:
        return f"{stem} #{k}"
    return f"{stem}_{k}" if stem[-1:].isdigit() else f"{stem}{k}"


def _given_names(names):
    """{id(tensor): name} from a ``names`` dict (tensors and nn.Module parameters)."""
    from minigrad.tensor import Tensor
    given = {}
    for name, value in (names or {}).items():
        if not isinstance(name, str) or name.startswith("_"):
            continue
        if isinstance(value, Tensor):
            given.setdefault(id(value), name)
        elif callable(getattr(value, "named_parameters", None)) and not isinstance(value, type):
            for pname, param in value.named_parameters():
                given.setdefault(id(param), f"{name}.{pname}")
    return given


def _class_numbers(nodes):
    """``{node id: k}`` for the nodes of a class that the graph has several of: the ``k``-th
    made (by sequence number). A node keeps its number in every snapshot of the same graph,
    before and after backward, whether or not its outputs are alive."""
    by_name = {}
    for _, info in nodes.values():
        by_name.setdefault(info["name"], []).append(info)
    numbers = {}
    for infos in by_name.values():
        if len(infos) > 1:
            infos.sort(key=lambda i: (i["sequence_nr"], int(i["id"][1:])))
            numbers.update((info["id"], k) for k, info in enumerate(infos, 1))
    return numbers


def _name_tensors(tensors, nodes, names, node_numbers=None):
    given = _given_names(names)
    used = set()
    pending = []
    for tensor, info in tensors.values():
        name = given.get(id(tensor)) or getattr(tensor, "_display_name", None)
        if name and name not in used:
            info["name"] = name
            used.add(name)
        else:
            pending.append(info)
    bases, numbers = {}, set()
    for info in pending:
        suffix = ""
        if info["grad_fn"] is not None:
            node = nodes[info["grad_fn"]][1]
            stem = _op_name(node["name"])
            if node["num_inputs"] > 1:
                suffix = f"[{info['output_nr']}]"
        elif not info["requires_grad"] and info["shape"] == [] and "data" in info["value"]:
            stem = format_value(info["value"])  # a Python number wrapped by an op: ``3``
            numbers.add(stem)
        else:
            stem = "leaf" if info["requires_grad"] else "const"
        bases.setdefault((stem, suffix), []).append(info)
    for (stem, suffix), infos in bases.items():
        number = stem in numbers and infos[0]["grad_fn"] is None
        if infos[0]["grad_fn"] is not None:  # number results in the order they were made
            infos.sort(key=lambda i: nodes[i["grad_fn"]][1]["sequence_nr"])
        if len(infos) == 1 and stem + suffix not in used:
            infos[0]["name"] = stem + suffix
            used.add(stem + suffix)
            continue
        k = 0
        for info in infos:
            k += 1
            own = (node_numbers or {}).get(info["grad_fn"])  # transposed2: TBackward0 #2's
            if own is not None and _numbered(stem, own, number) + suffix not in used:
                k = own
            while _numbered(stem, k, number) + suffix in used:
                k += 1
            info["name"] = _numbered(stem, k, number) + suffix
            used.add(info["name"])


def _label_nodes(nodes, tensors, numbers):
    """A unique, readable label per node: ``MulBackward0``, ``AccumulateGrad (x)``,
    ``MulBackward0 #2 (h)`` (the second of several, whose output is ``h``), ``MulBackward0 #3``."""
    for _, info in nodes.values():
        name = info["name"]
        if info["kind"] == "accumulate" and info["variable"] in tensors:
            info["label"] = f"{name} ({tensors[info['variable']][1]['name']})"
            continue
        number = numbers.get(info["id"])
        label = name if number is None else f"{name} #{number}"
        if info["outputs"] and number is not None:
            label += f" ({tensors[info['outputs'][0]][1]['name']})"
        info["label"] = label
