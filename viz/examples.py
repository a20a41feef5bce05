"""Hand-written snapshots of classic graphs, in the shape of docs/graph-data.md.

They let ``viz`` be documented and tested without running minigrad, and they are what
``viz.legend()`` and the docs' pictures start from. Each function returns a fresh dict.

Example:
    >>> import viz
    >>> from viz.examples import mul_sum
    >>> "MulBackward0" in viz.to_dot(mul_sum())
    True
"""

__all__ = ["GraphBuilder", "mul_sum", "exp_add", "two_layer_mlp", "chain"]


def _value(shape, data):
    return None if data is None else {"shape": list(shape), "dtype": "float32", "data": data}


class GraphBuilder:
    """Builds a snapshot dict step by step, numbering ids as minigrad does (``t1``, ``n1``…)."""

    def __init__(self):
        self.tensors, self.nodes, self.constants, self.edges, self.roots = [], [], [], [], []

    def _id(self, prefix, items):
        return f"{prefix}{len(items) + 1}"

    def tensor(self, name, shape=(), kind="leaf", data=None, grad=None, grad_fn=None,
               output_nr=0, hooks=(), module=None):
        """Add a tensor; ``kind`` is leaf, constant, nonleaf, retained; returns its id."""
        tid = self._id("t", self.tensors)
        self.tensors.append({
            "id": tid, "name": name, "shape": list(shape), "dtype": "float32", "kind": kind,
            "requires_grad": kind != "constant", "is_leaf": kind in ("leaf", "constant"),
            "retains_grad": kind == "retained", "is_root": False, "version": 0,
            "value": _value(shape, data), "grad": _value(shape, grad), "grad_fn": grad_fn,
            "output_nr": output_nr, "accumulator": None, "hooks": list(hooks),
            "post_accumulate_hooks": [], "module": module})
        if grad_fn:
            self.edge("output", grad_fn, tid, input_nr=output_nr)
        return tid

    def node(self, name, saved=(), kind="function", pre_hooks=(), post_hooks=(), module=None):
        """Add a Function node; ``saved`` is ``[(name, tensor id, released)]``."""
        nid = self._id("n", self.nodes)
        self.nodes.append({
            "id": nid, "name": name, "kind": kind, "sequence_nr": len(self.nodes),
            "variable": None, "outputs": [], "pre_hooks": list(pre_hooks),
            "post_hooks": list(post_hooks), "tensor_hooks": [], "metadata": {},
            "module": module,
            "saved": [{"name": s, "tensor": t, "version": 0, "released": r, "value": None}
                      for s, t, r in saved]})
        return nid

    def accumulate(self, leaf):
        """Add the AccumulateGrad node of ``leaf`` and its ``variable`` edge."""
        nid = self.node("AccumulateGrad", kind="accumulate")
        node = self.nodes[-1]
        node["sequence_nr"], node["variable"] = 2**64 - 1, leaf
        self.by_id(leaf)["accumulator"] = nid
        self.edge("variable", nid, leaf)
        return nid

    def by_id(self, item_id):
        for item in self.tensors + self.nodes:
            if item["id"] == item_id:
                return item
        raise KeyError(item_id)

    def edge(self, kind, source, target, position=None, input_nr=None):
        eid = self._id("e", self.edges)
        self.edges.append({"id": eid, "kind": kind, "source": source, "target": target,
                           "position": position, "input_nr": input_nr})
        return eid

    def next(self, node, targets):
        """``node.next_functions``: a list of node ids, or ``("const", tensor id or None)``."""
        for position, target in enumerate(targets):
            if isinstance(target, tuple):
                cid = self._id("c", self.constants)
                self.constants.append({"id": cid, "node": node, "position": position,
                                       "tensor": target[1]})
                self.edge("constant", node, cid, position=position, input_nr=0)
            else:
                self.edge("next", node, target, position=position, input_nr=0)

    def root(self, tid):
        tensor = self.by_id(tid)
        tensor["is_root"] = True
        self.roots.append(tid)

    def to_dict(self):
        for node in self.nodes:
            node["outputs"] = [t["id"] for t in self.tensors if t["grad_fn"] == node["id"]]
        return {"format": "minigrad.snapshot/1", "roots": list(self.roots),
                "tensors": self.tensors, "nodes": self.nodes, "constants": self.constants,
                "edges": self.edges}


def mul_sum(backward_done=False):
    """``x = [1, 2, 3]``, ``y = [4, 5, 6]`` (leaves), ``z = x * y``, ``s = z.sum()``."""
    b = GraphBuilder()
    done = backward_done
    x = b.tensor("x", [3], data=[1.0, 2.0, 3.0], grad=[4.0, 5.0, 6.0] if done else None)
    y = b.tensor("y", [3], data=[4.0, 5.0, 6.0], grad=[1.0, 2.0, 3.0] if done else None)
    mul = b.node("MulBackward0", saved=[("self", x, done), ("other", y, done)])
    b.tensor("z", [3], "nonleaf", [4.0, 10.0, 18.0], grad_fn=mul)
    total = b.node("SumBackward0")
    s = b.tensor("s", [], "nonleaf", 32.0, grad_fn=total)
    b.next(total, [mul])
    b.next(mul, [b.accumulate(x), b.accumulate(y)])
    b.root(s)
    return b.to_dict()


def exp_add():
    """``C = A * B``, ``D = C.exp()`` (retains grad, one hook on ``A``), ``F = D + E``."""
    b = GraphBuilder()
    a = b.tensor("A", [2], data=[0.5, 1.0], hooks=["print_grad"])
    bb = b.tensor("B", [2], data=[2.0, -1.0])
    mul = b.node("MulBackward0", saved=[("self", a, False), ("other", bb, False)])
    b.tensor("C", [2], "nonleaf", [1.0, -1.0], grad_fn=mul)
    exp = b.node("ExpBackward0", saved=[("result", None, False)])
    d = b.tensor("D", [2], "retained", [2.718, 0.3679], grad_fn=exp)
    b.by_id(exp)["saved"][0]["tensor"] = d
    e = b.tensor("E", [2], "constant", [1.0, 1.0])
    add = b.node("AddBackward0")
    f = b.tensor("F", [2], "nonleaf", [3.718, 1.368], grad_fn=add)
    b.next(add, [exp, ("const", e)])
    b.next(exp, [mul])
    b.next(mul, [b.accumulate(a), b.accumulate(bb)])
    b.root(f)
    return b.to_dict()


def two_layer_mlp():
    """``loss = (fc2(relu(fc1(x))) - target).pow(2).mean()`` with ``nn.Linear`` layers."""
    b = GraphBuilder()
    x = b.tensor("x", [4, 2], "constant")
    target = b.tensor("target", [4, 1], "constant")
    previous = ("const", x)
    for name, shape in (("fc1", (3, 2)), ("fc2", (1, 3))):
        w = b.tensor(f"{name}.weight", shape)
        bias = b.tensor(f"{name}.bias", shape[:1])
        t = b.node("TBackward0", module=name)
        b.next(t, [b.accumulate(w)])
        mm = b.node("MmBackward0", saved=[("self", None, False), ("mat2", None, False)],
                    module=name)
        b.next(mm, [previous, t])
        add = b.node("AddBackward0", module=name)
        b.next(add, [mm, b.accumulate(bias)])
        b.tensor(f"{name}_out", [4, shape[0]], "nonleaf", grad_fn=add, module=name)
        previous = add
        if name == "fc1":
            relu = b.node("ReluBackward0", saved=[("result", None, False)])
            b.next(relu, [add])
            previous = relu
    sub = b.node("SubBackward0")
    b.next(sub, [previous, ("const", target)])
    power = b.node("PowBackward0", saved=[("self", None, False)])
    b.next(power, [sub])
    mean = b.node("MeanBackward0")
    b.next(mean, [power])
    loss = b.tensor("loss", [], "nonleaf", 0.731, grad_fn=mean)
    b.root(loss)
    return b.to_dict()


def chain(length, width=1):
    """A long graph for benchmarks: ``width`` leaves, then ``length`` alternating ops."""
    b = GraphBuilder()
    leaves = [b.tensor(f"w{i}", [8]) for i in range(width)]
    previous = None
    for i in range(length):
        name = ("MulBackward0", "AddBackward0", "TanhBackward0")[i % 3]
        node = b.node(name, saved=[("self", None, False)] if name != "AddBackward0" else ())
        leaf = leaves[i % width]
        targets = [previous] if previous else []
        if name != "TanhBackward0" or not previous:
            targets.append(b.by_id(leaf)["accumulator"] or b.accumulate(leaf))
        b.next(node, targets)
        previous = node
    out = b.tensor("out", [8], "nonleaf", grad_fn=previous)
    b.root(out)
    return b.to_dict()
