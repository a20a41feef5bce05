"""``snapshot()``: the graph reachable from some tensors, now, as immutable plain data.

The snapshot walks ``grad_fn`` and ``next_functions`` from the roots and writes down every
tensor it can still reach (the roots, leaves through their AccumulateGrad node, constants
through the nodes that used them, intermediate results that are still alive), every node with
its saved tensors and hooks, the ``(None, 0)`` stubs of constants, and the edges between them.
Nothing in a ``Snapshot`` is a live object: ``viz`` draws from it alone. The format is
described in ``docs/graph-data.md``.
"""

import contextlib
import gc
import json

from minigrad.autograd._formulas import formula_of, operand_tensors, operands_of
from minigrad.autograd._ids import node_id, tensor_id
from minigrad.autograd._values import (
    FULL_LIMIT,
    callable_name,
    format_value,
    freeze,
    thaw,
    value_of,
)
from minigrad.autograd.node import AccumulateGrad, GraphRoot
from minigrad.tensor import Tensor

__all__ = ["snapshot", "snapshot_data", "Snapshot", "FORMAT", "GraphBuilder", "node_structure",
           "STRUCTURE_KEYS", "plain_copy", "module_calls", "collector_paused"]

FORMAT = "minigrad.snapshot/1"
_VERSION_SLOT = Tensor._vc  # the slot itself: reading it makes no counter


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
    return Snapshot(snapshot_data(*roots, names=names, full_limit=full_limit))


def snapshot_data(*roots, names=None, full_limit=FULL_LIMIT):
    """``snapshot(*roots, ...).to_dict()`` without the copy: the plain dict, new and the
    caller's own (a viewer that draws a 20,000-node graph saves seconds).

    Example:
        >>> x = minigrad.tensor([1.0, 2.0], requires_grad=True)
        >>> snapshot_data((x * 3).sum())["format"]
        'minigrad.snapshot/1'
    """
    with collector_paused():
        builder = GraphBuilder(full_limit)
        for root in roots:
            builder.add_root(root)
        return builder.finish(names)


@contextlib.contextmanager
def collector_paused():
    """The cyclic garbage collector paused while a snapshot is built, as it was afterwards.

    NB: a snapshot of a big graph makes a million small dicts and lists and no cycle; each
    of them brings the collector's next pass nearer, and its full passes walk the whole heap,
    the graph included: they took half the time of a 100,000-node snapshot. Nothing else is
    changed, and a collector that the program switched off stays off.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


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
    """Collects the tensors, nodes, constants and edges of a graph, then names them.

    One walk over the graph describes each node as it is reached (its edges, outputs, saved
    tensors, hooks and operands); ``finish`` describes the tensors (a root is known only once
    every root was added) and names everything. An array's Value is made once per build, however
    many places show it (a tensor's value, a saved tensor, an operand): those places share it.
    """

    def __init__(self, full_limit=FULL_LIMIT):
        self.full_limit = full_limit
        self.roots = []
        self.tensors = {}      # id -> [tensor, info]
        self.nodes = {}        # id -> [node or None (a node no longer alive), info]
        self.constants = []
        self.edges = []
        # node id -> (operands, their tensor ids) when it ran (record()); set before the walk
        self.operands = {}
        self._stack = []
        self._values = {}      # id(array) -> (array, its Value), for this build
        self._formulas = {}    # formula -> the list the infos share
        self._links = []       # (saved info, tensor): its id is known once the walk is done
        self._operand_links = []  # (node info, {name: tensor}), likewise
        self._outputs = None      # {node: its output tensor}, found once when first needed

    def _find_output(self, node):
        """Give ``node`` the weak reference to its output that it did not keep: a built-in op
        that nothing watched keeps none (``_link_array``). Its output, if still alive, is
        among the objects the cyclic collector tracks: they are searched once per build."""
        if isinstance(node, AccumulateGrad) or not node._output_untracked():
            return
        if self._outputs is None:
            self._outputs = {}
            for obj in gc.get_objects():  # (type(): a module's __class__ may warn when read)
                if issubclass(type(obj), Tensor) and obj._creator is not None:
                    self._outputs.setdefault(obj._creator, obj)
        tensor = self._outputs.get(node)
        if tensor is not None:
            node._keep_output(tensor)

    # ----------------------------------------------------------------- collecting
    def add_root(self, tensor):
        tid = self.add_tensor(tensor)
        if tid not in self.roots:
            self.roots.append(tid)
        self.walk()
        return tid

    def add_tensor(self, tensor):
        """Add ``tensor`` (and, after ``walk``, everything reachable from it); return its id."""
        tid = tensor._uid
        if tid is None:
            tid = tensor_id(tensor)
        elif tid in self.tensors:
            return tid
        self.tensors[tid] = [tensor, None]
        if tensor._creator is not None:
            self._stack.append(tensor._creator)
        accumulator = tensor._accumulator() if tensor._accumulator is not None else None
        if accumulator is not None:
            self._stack.append(accumulator)
        return tid

    def add_node(self, node):
        self._stack.append(node)
        self.walk()
        return node_id(node)

    def walk(self):
        """Add and describe everything reachable from the tensors and nodes added so far."""
        stack, nodes, edges, constants = self._stack, self.nodes, self.edges, self.constants
        add_tensor = self.add_tensor
        while stack:
            node = stack.pop()
            nid = node._uid
            if nid is None:
                nid = node_id(node)
            elif nid in nodes:
                continue
            entry = nodes[nid] = [node, None]
            k = nid[1:]  # edge and constant ids as _ids.edge_id and constant_id write them
            outputs = []
            self._find_output(node)
            for nr, ref in enumerate(node._output_refs):
                tensor = ref() if ref is not None else None
                if tensor is not None and tensor._creator is node:
                    tid = add_tensor(tensor)
                    outputs.append(tensor)
                    edges.append({"id": f"e{k}_o{nr}", "kind": "output", "source": nid,
                                  "target": tid, "position": None, "input_nr": nr})
            if isinstance(node, AccumulateGrad):
                edges.append({"id": f"e{k}_v", "kind": "variable", "source": nid,
                              "target": add_tensor(node.variable), "position": None,
                              "input_nr": None})
            next_functions = node.next_functions
            for child, _ in next_functions:  # (the inputs are found through them)
                if child is not None:
                    self._find_output(child)
            inputs = node._input_refs
            for position, (child, input_nr) in enumerate(next_functions):
                if child is None:
                    ref = inputs[position] if position < len(inputs) else None
                    tensor = ref() if ref is not None else None
                    cid = f"c{k}_{position}"
                    constants.append({
                        "id": cid, "node": nid, "position": position,
                        "tensor": None if tensor is None else add_tensor(tensor)})
                    edges.append({"id": f"e{k}_{position}", "kind": "constant", "source": nid,
                                  "target": cid, "position": position, "input_nr": None})
                else:
                    edges.append({"id": f"e{k}_{position}", "kind": "next", "source": nid,
                                  "target": child._uid or node_id(child),
                                  "position": position, "input_nr": input_nr})
            entry[1] = self._node_info(node, nid, outputs)
            # Children are pushed in reverse so that they are visited in next_functions order.
            for child, _ in reversed(next_functions):
                if child is not None:
                    stack.append(child)

    # ----------------------------------------------------------------- describing
    def finish(self, names=None):
        """The snapshot as a plain dict, with display names and labels."""
        for entry in self.tensors.values():
            entry[1] = self._tensor_info(entry[0])
        tensors = self.tensors
        for item, tensor in self._links:  # saved tensors, by id if the snapshot has them
            item["tensor"] = tensor._uid if tensor._uid in tensors else None
        for info, linked in self._operand_links:
            linked = {name: tensor_id(t) for name, t in linked.items()}
            info["operand_tensors"] = linked if all(t in tensors for t in linked.values()) \
                else {k: t for k, t in linked.items() if t in tensors}
        for _, info in self.nodes.values():  # recorded operands whose tensors are gone
            linked = info["operand_tensors"]
            if linked and not all(t in tensors for t in linked.values()):
                info["operand_tensors"] = {k: t for k, t in linked.items() if t in tensors}
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

    def _value(self, array):
        """``value_of(array)``, made once per array in a build."""
        seen = self._values.get(id(array))
        if seen is None:  # (the array is kept with its Value, so that its id stays its own)
            seen = self._values[id(array)] = (array, value_of(array, self.full_limit))
        return seen[1]

    def _tensor_info(self, t):
        tid = t._uid
        fn = t._creator
        accumulator = t._accumulator() if t._accumulator is not None else None
        if fn is not None:
            table = fn._tensor_pre_hooks
            hooks = [callable_name(h) for i, h in table.values() if i == t._output_nr] \
                if table else []
            retains = fn._retained is not None and t.retains_grad
        else:
            hooks = [callable_name(h) for h in t._hooks.values()] if t._hooks else []
            retains = False
        is_root = tid in self.roots
        if is_root:
            kind = "root"
        elif fn is None:
            kind = "leaf" if t._requires_grad else "constant"
        else:
            kind = "retained" if retains else "nonleaf"
        data = t._data
        value = self._value(data)
        post = t._post_acc_hooks
        return {
            "id": tid, "name": None, "shape": list(data.shape), "dtype": value["dtype"],
            "kind": kind, "requires_grad": t._requires_grad, "is_leaf": fn is None,
            "retains_grad": retains, "is_root": is_root,
            "version": t._version if t._inference else _version_of(t),
            "value": value,
            "grad": None if t._grad is None else self._value(t._grad._data),
            "grad_fn": None if fn is None else fn._uid or node_id(fn),
            "output_nr": t._output_nr,
            "accumulator": None if accumulator is None else node_id(accumulator),
            "hooks": hooks,
            "post_accumulate_hooks": [callable_name(h) for h in post.values()] if post else [],
            "module": getattr(t, "_module_path", None),
        }

    def _node_info(self, node, nid, outputs):
        cls = type(node)
        kind = "accumulate" if cls is AccumulateGrad else (
            "root" if cls is GraphRoot else node_kind(node))
        module = None
        for t in outputs:
            module = getattr(t, "_module_path", None)
            if module is not None:
                break
        else:
            module = getattr(node, "_module_path", None)
        tensor_hooks, retained, metadata = node._tensor_pre_hooks, node._retained, node._metadata
        info = {
            "id": nid, "name": cls.__name__, "kind": kind, "sequence_nr": node._seq,
            "variable": tensor_id(node.variable) if kind == "accumulate" else None,
            "num_inputs": len(node._output_meta),
            "label": None, "alive": True,
            "outputs": [t._uid for t in outputs],
            "module": module,
            "saved": self._saved_info(node) if node._saved else [],
            "pre_hooks": _hooks(node._pre_hooks), "post_hooks": _hooks(node._post_hooks),
            "tensor_hooks": [{"index": i, "name": callable_name(h)}
                             for i, h in tensor_hooks.values()] if tensor_hooks else [],
            "retained": sorted(i for i, ref in retained.items() if ref() is not None)
            if retained else [],
            "metadata": {str(k): str(v) for k, v in metadata.items()} if metadata else {},
        }
        formula = formula_of(node)
        if formula is None:
            info.update(formula=None, operands={}, operand_tensors={})
            return info
        shared = self._formulas.get(formula)
        if shared is None:
            shared = self._formulas[formula] = list(formula)
        info["formula"] = shared
        recorded = self.operands.get(nid)
        if recorded is None:
            info["operands"] = operands_of(node, self.full_limit, values=self._value)
            info["operand_tensors"] = {}
            linked = operand_tensors(node)
            if linked:
                self._operand_links.append((info, linked))
        else:
            info["operands"], info["operand_tensors"] = recorded
        return info

    def _saved_info(self, node):
        names = node._saved_names()
        result = []
        for i, saved in enumerate(node._saved):
            if saved is None:
                continue
            name = names[i] if i < len(names) else f"saved_tensors[{i}]"
            tensor = saved.tensor if not saved.is_output else (
                saved.weak() if saved.weak is not None else None)
            if tensor is None and saved.released:
                tensor = _released_tensor(node, saved)
            data = saved.tensor._data if saved.tensor is not None else saved.data
            item = {
                "name": name, "tensor": None, "version": saved.version,
                "released": saved.released,
                "modified": not saved.released and saved.version_counter[0] != saved.version,
                "is_output": saved.is_output, "packed": saved.packed is not None,
                "value": None if data is None else self._value(data)}
            if tensor is not None:
                self._links.append((item, tensor))
            result.append(item)
        return result


def _version_of(tensor):
    """``tensor._version`` without making the version counter of a tensor that has none yet
    (it is made on first use: such a tensor was never changed in place)."""
    try:
        counter = _VERSION_SLOT.__get__(tensor)
    except AttributeError:
        return 0
    return counter[0] if counter is not None else 0


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
    if not calls:
        for _, info in entries:
            info["call"] = None
        return
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
    bases, numbers, stems = {}, set(), {}
    for info in pending:
        suffix = ""
        if info["grad_fn"] is not None:
            node = nodes[info["grad_fn"]][1]
            stem = stems.get(node["name"])
            if stem is None:
                stem = stems[node["name"]] = _op_name(node["name"])
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
            name = _numbered(stem, k, number) + suffix
            while name in used:
                k += 1
                name = _numbered(stem, k, number) + suffix
            info["name"] = name
            used.add(name)


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
