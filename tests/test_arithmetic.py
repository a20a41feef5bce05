"""The arithmetic overlay (viz/arithmetic.py): the chain rule with its numbers on the node that
runs, fan-in sums and ``.grad`` updates, in the frame data and the side panel."""

import minigrad as torch
from minigrad.autograd.graph import record
from viz.arithmetic import chain_rule, pretty
from viz.frames import build_frames
from viz.still import value_at


def _notes(data, event):
    return {k: value_at(t, event) for k, t in data["notes"].items()}


def _panel(data, event):
    return [tuple(data["panel_rows"][k]) for k in data["panels"][event]]


def _event(rec, kind, name=None):
    nodes = {n["id"]: n for n in rec.snapshot.nodes}
    return next(e["i"] for e in rec.events if e["kind"] == kind and (
        name is None or nodes[e["node"]]["name"] == name))


def test_mul_shows_the_chain_rule_with_its_numbers():
    a = torch.tensor(2.0, requires_grad=True)
    b = torch.tensor(3.0, requires_grad=True)
    with record() as rec:
        c = a * b
        c.backward()
    data = build_frames(rec)
    ran = _event(rec, "node_ran", "MulBackward0")
    node = c.grad_fn and rec.snapshot.named("c")["grad_fn"]
    lines = [t for k, t in (line.split("\t") for line in _notes(data, ran)[node].split("\n"))
             if k == "arith"]
    assert lines == ["∂/∂a = grad · b = 1. · 3. = 3.", "∂/∂b = grad · a = 1. · 2. = 2."]
    assert ("chain rule", "∂/∂a = grad · b = 1. · 3. = 3.") in _panel(data, ran)
    # the numbers are the gradients really sent
    assert (a.grad.item(), b.grad.item()) == (3.0, 2.0)


def test_fan_in_and_accumulate_grad_show_their_sums():
    x = torch.tensor(1.0, requires_grad=True)
    x.grad = torch.tensor(2.0)            # not zeroed: 2 + new
    with record() as rec:
        y = x * 3 + x * 4
        y.backward()
    data = build_frames(rec)
    summed = _event(rec, "grad_summed")
    acc = rec.snapshot.named("x")["accumulator"]
    assert "3. + 4. = 7." in _notes(data, summed)[acc] or \
        "4. + 3. = 7." in _notes(data, summed)[acc]
    accumulated = _event(rec, "grad_accumulated")
    tid = rec.snapshot.named("x")["id"]
    assert _notes(data, accumulated)[tid].split("\n")[0] == "gradnew\tx.grad = 2. + 7. = 9."
    assert ("accumulates", "x.grad = 2. + 7. = 9.") in _panel(data, accumulated)


def test_accumulate_grad_from_none():
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    with record() as rec:
        (w * 3).sum().backward()
    data = build_frames(rec)
    accumulated = _event(rec, "grad_accumulated")
    tid = rec.snapshot.named("w")["id"]
    assert _notes(data, accumulated)[tid] == "gradnew\tw.grad = None + [3., 3.] = [3., 3.]"


def test_big_tensors_show_the_formula_with_shapes():
    torch.manual_seed(0)
    W = torch.randn(8, 16, requires_grad=True)
    x = torch.randn(16, 2)
    with record() as rec:
        (W @ x).sum().backward()
    data = build_frames(rec)
    ran = _event(rec, "node_ran", "MmBackward0")
    rows = [t for k, t in _panel(data, ran) if k == "chain rule"]
    assert rows == ["∂/∂W = grad @ xᵀ: (8×2) @ (16×2)ᵀ → 8×16"]
    # the picture shows the short form: the result's shape only
    notes = "\n".join(_notes(data, ran).values())
    assert "arith\t∂/∂W = grad @ xᵀ → 8×16" in notes


def test_scalar_operands_show_as_numbers():
    x = torch.tensor(3.0, requires_grad=True)
    with record() as rec:
        (x ** 2).backward()
    data = build_frames(rec)
    ran = _event(rec, "node_ran", "PowBackward0")
    rows = [t for k, t in _panel(data, ran) if k == "chain rule"]
    assert rows == ["∂/∂x = grad · 2 · x ^ (2 − 1) = 1. · 2 · 3. ^ (2 − 1) = 6."]


def test_constant_inputs_get_no_line_and_custom_functions_none():
    class Square(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return 2 * x * grad
    x = torch.tensor(3.0, requires_grad=True)
    with record() as rec:
        (Square.apply(x) + torch.tensor(1.0)).backward()
    data = build_frames(rec)
    rows = [r for r in data["panel_rows"] if r[0] == "chain rule"]
    assert rows == [["chain rule", "∂/∂squarebackward = grad = 1."]] or \
        all("Square" not in r[1] for r in rows)
    node = {"formula": ["grad"], "operands": {}}
    one = {"shape": [], "dtype": "float32", "data": 1.0}
    assert chain_rule(node, one, [None], ["c"], {}) == []


def test_pretty_reads_like_math():
    assert pretty("grad * exponent * self ** (exponent - 1)") == \
        "grad · exponent · self ^ (exponent − 1)"
    assert pretty("self.T @ grad") == "selfᵀ @ grad"
