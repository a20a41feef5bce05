"""Hooks against torch: full traces with every hook kind on every node, replacements, fan-in,
removal, errors, and hooks around ``autograd.grad`` and ``backward(inputs=...)``."""

import functools
import warnings

import pytest
from oracle import plain

import minigrad


def values(g):
    if g is None:
        return None
    return [round(v, 4) for v in g.detach().reshape(-1).tolist()]


def graph_nodes(root):
    seen, stack = [], [root.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or any(node is s for s in seen):
            continue
        seen.append(node)
        stack.extend(child for child, _ in node.next_functions)
    return seen


def full_trace(lib, build, retain=(), backward=None):
    """Register every hook kind everywhere, run backward, return the trace and retained grads.

    ``build(lib)`` returns ``(tensors, root)``: tensors is a dict name -> tensor (leaves and
    intermediates), whose names label the hooks and the nodes that produced them.
    """
    tensors, root = build(lib)
    log = []
    label = {}
    for name, t in tensors.items():
        label[t.grad_fn if t.grad_fn is not None else t] = name
        t.register_hook(lambda g, name=name: log.append(("tensor", name, values(g))))
        if name in retain:
            t.retain_grad()
        if t.is_leaf:
            t.register_post_accumulate_grad_hook(
                lambda p, name=name: log.append(("post_acc", name, values(p.grad))))
    for node in graph_nodes(root):
        owner = label.get(node, label.get(getattr(node, "variable", None), "?"))
        tag = f"{type(node).__name__}:{owner}"
        node.register_prehook(
            lambda go, tag=tag: log.append(("node_pre", tag, [values(g) for g in go])))
        node.register_hook(lambda gi, go, tag=tag: log.append(
            ("node_post", tag, [values(g) for g in gi], [values(g) for g in go])))
    (backward or (lambda r: r.backward()))(root)
    return log, {name: values(tensors[name].grad) for name in retain}


def mul_chain(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    w = lib.tensor([3.0, 4.0], requires_grad=True)
    h = x * w
    o = h * 2
    s = o.sum()
    return {"x": x, "w": w, "h": h, "o": o, "s": s}, s


def fan_in(lib):
    x = lib.tensor(1.0, requires_grad=True)
    h = x * 3
    a = h * h
    out = a + h
    return {"x": x, "h": h, "a": a, "out": out}, out


def leaf_twice(lib):
    y = lib.tensor(2.0, requires_grad=True)
    out = y * y + y
    return {"y": y, "out": out}, out


def branches(lib):
    x = lib.tensor([0.5, -1.0], requires_grad=True)
    w = lib.tensor([2.0, 1.0], requires_grad=True)
    c = lib.tensor([1.0, 3.0])
    h = (x * w).tanh()
    a = h.exp() * c
    b = h.sigmoid() - w
    s = (a * b).sum() + w.sum()
    return {"x": x, "w": w, "h": h, "a": a, "b": b, "s": s}, s


TRACES = [(mul_chain, ("h",)), (fan_in, ("h", "a")), (leaf_twice, ()),
          (branches, ("h", "b"))]


@pytest.mark.parametrize("build,retain", TRACES, ids=[b.__name__ for b, _ in TRACES])
def test_full_hook_trace_matches_torch(oracle, build, retain):
    expected = oracle(lambda torch: full_trace(torch, build, retain))
    assert plain(full_trace(minigrad, build, retain)) == expected


def test_documented_trace_order():
    log, retained = full_trace(minigrad, mul_chain, retain=("h",))
    kinds = [(kind, who) for kind, who, *_ in log]
    assert kinds[6:] == [
        ("tensor", "h"), ("node_pre", "MulBackward0:h"), ("node_post", "MulBackward0:h"),
        ("tensor", "x"), ("node_pre", "AccumulateGrad:x"), ("post_acc", "x"),
        ("node_post", "AccumulateGrad:x"),
        ("tensor", "w"), ("node_pre", "AccumulateGrad:w"), ("post_acc", "w"),
        ("node_post", "AccumulateGrad:w")]
    assert log[5] == ("node_post", "MulBackward0:o", [[2.0, 2.0], None], [[1.0, 1.0]])
    assert log[-1] == ("node_post", "AccumulateGrad:w", [], [[2.0, 4.0]])
    assert retained == {"h": [2.0, 2.0]}


def test_fan_in_is_summed_before_hooks_see_it():
    log, _ = full_trace(minigrad, fan_in)
    assert [g for kind, who, g in (e[:3] for e in log) if (kind, who) == ("tensor", "h")] == [
        [7.0]]
    x = minigrad.tensor(1.0, requires_grad=True)
    h = x * 3
    seen = []
    h.register_hook(lambda g: seen.append(g.item()))
    (h * h + h).backward()
    assert seen == [7.0]   # 2h + 1 at h = 3, once


def test_fan_in_hook_sees_thirteen_once():
    x = minigrad.tensor(2.0, requires_grad=True)
    h = x * 3
    seen = []
    h.register_hook(lambda g: seen.append(g.item()))
    (h * h + h).backward()
    assert seen == [13.0]


def test_leaf_used_twice_hook_sees_five_once():
    y = minigrad.tensor(2.0, requires_grad=True)
    seen = []
    y.register_hook(lambda g: seen.append(g.item()))
    (y * y + y).backward()
    assert seen == [5.0]


# ---------------------------------------------------------------- replacements

def replacement_trace(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    h = x * 3
    h.retain_grad()
    log = []
    h.register_hook(lambda g: log.append(("h1", values(g))) or g * 10)
    h.register_hook(lambda g: log.append(("h2", values(g))) or g + 1)
    h.grad_fn.register_prehook(lambda go: log.append(("pre", values(go[0]))) or (go[0] * 2,))
    h.grad_fn.register_hook(
        lambda gi, go: log.append(("post", values(gi[0]), values(go[0]))) or (gi[0] - 1, None))
    x.register_hook(lambda g: log.append(("x", values(g))) or g * 100)
    x.register_post_accumulate_grad_hook(lambda p: log.append(("acc", values(p.grad))))
    (h * h).sum().backward()
    return log, values(h.grad), values(x.grad)


def test_replacements_are_seen_by_later_hooks_and_the_node(torch):
    result = replacement_trace(minigrad)
    assert result == replacement_trace(torch)
    log, h_grad, x_grad = result
    assert log[:3] == [("h1", [6.0, 12.0]), ("h2", [60.0, 120.0]), ("pre", [61.0, 121.0])]
    assert h_grad == [61.0, 121.0]   # retained after tensor hooks, before the Node pre-hook


def test_retain_grad_runs_before_node_pre_hooks(torch):
    def run(lib):
        a = lib.tensor(1.0, requires_grad=True)
        b = a * 3
        b.retain_grad()
        b.register_hook(lambda g: g * 10)
        b.grad_fn.register_prehook(lambda go: (go[0] * 100,))
        b.sum().backward()
        return a.grad.item(), b.grad.item()
    assert run(minigrad) == run(torch) == (3000.0, 10.0)


def test_leaf_hooks_run_in_registration_order(torch):
    def run(lib):
        x = lib.tensor(1.0, requires_grad=True)
        x.register_hook(lambda g: g * 2)
        x.register_hook(lambda g: g + 1)
        (x * 5).backward()
        return x.grad.item()
    assert run(minigrad) == run(torch) == 11.0


def test_hooks_on_several_outputs_of_one_node_and_none_grads(oracle):
    def run(lib):
        x = lib.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
        a, b = (x * 1).chunk(2)
        log = []
        b.register_hook(lambda g: log.append(("b", values(g))))
        a.register_hook(lambda g: log.append(("a", values(g))))
        b.retain_grad()
        a.sum().backward()
        return log, values(x.grad), values(b.grad)
    assert plain(run(minigrad)) == oracle(lambda torch: run(torch))


def test_leaf_hooks_fire_with_none_when_no_gradient_arrives(torch):
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        log = []
        x.register_hook(lambda g: log.append(("x", values(g))))
        x.register_post_accumulate_grad_hook(lambda p: log.append(("acc", values(p.grad))))
        y = x * 2
        y.grad_fn.register_hook(lambda gi, go: (None, None))
        y.sum().backward()
        return log, x.grad
    assert run(minigrad) == run(torch) == ([("x", None), ("acc", None)], None)


def test_post_accumulate_grad_hook_runs_in_the_grad_mode_of_the_pass(oracle):
    def run(lib):  # as in PyTorch: grad mode is on in a create_graph pass
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        modes = []
        x.register_post_accumulate_grad_hook(lambda p: modes.append(lib.is_grad_enabled()))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")   # the create_graph warning
            (x * x).sum().backward(create_graph=True)
            x.grad = None
            (x * x).sum().backward()
        return modes
    assert run(minigrad) == oracle(run)


def test_hooks_registered_before_an_in_place_op_stay_on_the_old_node(oracle):
    def run(lib):
        x = lib.tensor([1.0, 1.0], requires_grad=True)
        y = x * 2
        seen = []
        y.register_hook(lambda g: seen.append(("old", values(g))))
        old = y.grad_fn
        y.mul_(3)
        y.register_hook(lambda g: seen.append(("new", values(g))))
        y.sum().backward()
        return seen, values(x.grad), y.grad_fn is not old
    assert plain(run(minigrad)) == oracle(lambda torch: run(torch))
    assert run(minigrad)[0] == [("new", [1.0, 1.0]), ("old", [3.0, 3.0])]


def test_removed_tensor_hooks_do_not_fire():
    x = minigrad.tensor(1.0, requires_grad=True)
    seen = []
    handle = x.register_hook(lambda g: seen.append("x"))
    h = x * 2
    h_handle = h.register_hook(lambda g: seen.append("h"))
    handle.remove()
    h_handle.remove()
    h.backward()
    assert seen == []
    assert x.grad.item() == 2.0


# ---------------------------------------------------------------- hook errors

def _hook_error(lib, where, result):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    if where == "leaf":
        x.register_hook(lambda g: result(lib, g))
    elif where == "tensor":
        y.register_hook(lambda g: result(lib, g))
    elif where == "pre":
        y.grad_fn.register_prehook(lambda go: result(lib, go))
    else:
        y.grad_fn.register_hook(lambda gi, go: result(lib, gi))
    try:
        y.sum().backward()
    except (RuntimeError, TypeError) as error:
        return type(error).__name__, str(error).replace("torch.", "minigrad.")
    return None


HOOK_ERRORS = {
    "leaf wrong shape": ("leaf", lambda lib, g: lib.ones(3)),
    "tensor wrong shape": ("tensor", lambda lib, g: g.reshape(2, 1)),
    "tensor wrong dtype": ("tensor", lambda lib, g: g.double()),
    "tensor returns float": ("tensor", lambda lib, g: 3.0),
    "pre wrong count": ("pre", lambda lib, go: (go[0], go[0])),
    "pre returns tensor": ("pre", lambda lib, go: go[0]),
    "pre returns list": ("pre", lambda lib, go: [go[0]]),
    "pre wrong shape": ("pre", lambda lib, go: (lib.ones(3),)),
    "pre wrong dtype": ("pre", lambda lib, go: (go[0].double(),)),
    "post wrong count": ("post", lambda lib, gi: (gi[0],)),
    "post replaces None": ("post", lambda lib, gi: (gi[0], gi[0])),
    "post wrong shape": ("post", lambda lib, gi: (lib.ones(3), None)),
}


@pytest.mark.parametrize("case", HOOK_ERRORS, ids=list(HOOK_ERRORS))
def test_hook_errors_match_torch(oracle, case):
    where, result = HOOK_ERRORS[case]
    expected = oracle(lambda torch: _hook_error(torch, where, result))
    assert expected is not None
    assert plain(_hook_error(minigrad, where, result)) == expected


def test_hook_name_in_errors(torch):
    def run(lib, hook):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        x.register_hook(hook(lib))
        with pytest.raises(RuntimeError) as info:
            (x * 2).sum().backward()
        return str(info.value)

    def named(lib):
        def my_hook(g):
            return lib.ones(3)
        return my_hook

    def partial(lib):
        return functools.partial(lambda n, g: lib.ones(n), 3)

    expected = "hook 'my_hook' has changed the size of value"
    assert run(minigrad, named) == run(torch, named) == expected
    assert run(minigrad, partial) == run(torch, partial)


def test_register_hook_errors(torch):
    def run(lib, what):
        x = lib.ones(2)
        y = lib.ones(2, requires_grad=True) * 2
        try:
            if what == "hook":
                x.register_hook(lambda g: g)
            elif what == "retain":
                x.retain_grad()
            elif what == "post_acc_non_leaf":
                y.register_post_accumulate_grad_hook(lambda p: None)
            else:
                x.register_post_accumulate_grad_hook(lambda p: None)
        except RuntimeError as error:
            return str(error)
    for what in ["hook", "retain", "post_acc_non_leaf", "post_acc_no_grad"]:
        assert run(minigrad, what) == run(torch, what) is not None


# ---------------------------------------------------------------- grad() and backward(inputs=)

def inputs_trace(lib, api):
    """Hooks on leaves, a non-leaf input and the nodes, for grad()/backward(inputs=...)."""
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    w = lib.tensor([3.0, 4.0], requires_grad=True)
    h = x * w
    out = (h * h).sum()
    log = []
    for name, t in {"x": x, "w": w, "h": h}.items():
        t.register_hook(lambda g, name=name: log.append(("tensor", name, values(g))))
    for name, t in {"x": x, "w": w}.items():
        t.register_post_accumulate_grad_hook(
            lambda p, name=name: log.append(("post_acc", name)))
        acc = h.grad_fn.next_functions[0 if name == "x" else 1][0]
        acc.register_prehook(lambda go, name=name: log.append(("acc_pre", name)))
    h.grad_fn.register_prehook(lambda go: log.append(("h_node",)))
    result = api(lib, out, x, w, h)
    return log, result, values(x.grad), values(w.grad)


INPUT_APIS = {
    "grad wrt leaf": lambda lib, out, x, w, h: [values(g) for g in lib.autograd.grad(out, x)],
    "grad wrt non-leaf": lambda lib, out, x, w, h: [values(g) for g in
                                                    lib.autograd.grad(out, h)],
    "grad wrt both": lambda lib, out, x, w, h: [values(g) for g in lib.autograd.grad(out, [h, w])],
    "backward inputs leaf": lambda lib, out, x, w, h: out.backward(inputs=[x]),
    "backward inputs non-leaf": lambda lib, out, x, w, h: (out.backward(inputs=[h]),
                                                           values(h.grad)),
}


@pytest.mark.parametrize("api", INPUT_APIS, ids=list(INPUT_APIS))
def test_hooks_with_inputs_match_torch(oracle, api):
    expected = oracle(lambda torch: inputs_trace(torch, INPUT_APIS[api]))
    assert plain(inputs_trace(minigrad, INPUT_APIS[api])) == expected


def test_grad_runs_tensor_hooks_of_inputs_but_not_their_accumulator():
    log, result, x_grad, _ = inputs_trace(minigrad, INPUT_APIS["grad wrt leaf"])
    assert ("tensor", "x", [18.0, 64.0]) in log
    assert not any(entry[0] in ("acc_pre", "post_acc") for entry in log)
    assert ("tensor", "w", [6.0, 16.0]) not in log   # w is not an input: its node never runs
    assert x_grad is None


def test_hook_replacement_is_what_grad_returns(torch):
    def run(lib):
        x = lib.tensor([1.0, 1.0], requires_grad=True)
        h = x * 2
        h.register_hook(lambda g: g * 10)
        return [values(g) for g in lib.autograd.grad((h * 3).sum(), [h, x])]
    # Captured for h before its hooks (its node must still run for x); x sees the ×10.
    assert run(minigrad) == run(torch) == [[3.0, 3.0], [60.0, 60.0]]
