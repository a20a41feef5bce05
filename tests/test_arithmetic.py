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


def _rows(rec, node_name):
    data = build_frames(rec)
    return [t for k, t in _panel(data, _event(rec, "node_ran", node_name)) if k == "chain rule"]


def test_an_index_reads_as_python_writes_it():
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    v = torch.tensor([5.0, 6.0], requires_grad=True)
    with record() as rec:
        (x[:, 1:] * 2).sum().backward()
    assert _rows(rec, "SliceBackward0") == [
        "∂/∂x = put(grad, [:, 1:2], (2, 2)) = put([[2.], [2.]], [:, 1:2], (2, 2)) = "
        "[[0., 2.], [0., 2.]]"]
    assert x.grad.tolist() == [[0.0, 2.0], [0.0, 2.0]]
    with record() as rec:
        y = x * 1
        y[0] = v
        y.sum().backward()
    assert _rows(rec, "CopySlices")[1] == "∂/∂v = grad[0] = [[1., 1.], [1., 1.]][0] = [1., 1.]"


def test_a_node_with_several_outputs_shows_each_gradient():
    x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    with record() as rec:
        a, b = x.split([1, 3])
        (b * 2).sum().backward()
    # a got no gradient: it counts as zeros, as the engine passes it to the backward
    assert _rows(rec, "SplitWithSizesBackward0") == [
        "∂/∂x = cat(grads, 0) = cat((0, [2., 2., 2.]), 0) = [0., 2., 2., 2.]"]
    assert x.grad.tolist() == [0.0, 2.0, 2.0, 2.0]


def test_each_input_of_cat_gets_its_piece():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0], requires_grad=True)
    with record() as rec:
        (torch.cat([a, b]) * torch.tensor([4.0, 5.0, 6.0])).sum().backward()
    rows = _rows(rec, "CatBackward0")
    assert rows == ["∂/∂a = split(grad, pieces, 0)[0] = split([4., 5., 6.], pieces, 0)[0] = "
                    "[4., 5.]",
                    "∂/∂b = split(grad, pieces, 0)[1] = split([4., 5., 6.], pieces, 0)[1] = [6.]"]


def test_settings_read_as_numbers_or_by_name():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    t = torch.tensor([0.0, 4.0])
    with record() as rec:
        torch.nn.functional.mse_loss(x, t).backward()
    # divisor(mode, numel) of the formula is the number of elements for a mean
    assert _rows(rec, "MseLossBackward0") == [
        "∂/∂x = 2 · (x − t) · grad / 2 = 2 · ([1., 2.] − [0., 4.]) · 1. / 2 = [1., -2.]"]
    p = torch.tensor([0.25, 0.5], requires_grad=True)
    with record() as rec:
        torch.nn.functional.binary_cross_entropy(p, torch.tensor([1.0, 0.0])).backward()
    rows = _rows(rec, "BinaryCrossEntropyBackward0")
    assert rows[0].startswith("∂/∂p = grad · (p − target) / maximum(p · (1 − p), 1e-12) / 2")
    torch.manual_seed(0)
    image = torch.randn(1, 1, 4, 4, requires_grad=True)
    w = torch.randn(2, 1, 2, 2, requires_grad=True)
    with record() as rec:
        torch.nn.functional.conv2d(image, w).sum().backward()
    # the geometry is too long to print inside the formula: it is named
    assert _rows(rec, "ConvolutionBackward0") == [
        "∂/∂image = conv_input(grad, w, params, image): conv_input((1×2×3×3), (2×1×2×2), "
        "params, (1×1×4×4)) → 1×1×4×4",
        "∂/∂w = conv_weight(image, grad, params, w): conv_weight((1×1×4×4), (1×2×3×3), "
        "params, (2×1×2×2)) → 2×1×2×2"]


def test_a_shape_shows_as_numbers():
    x = torch.tensor([[1.0, 3.0]], requires_grad=True)
    with record() as rec:
        x.var().backward()
    # (n - 1 = 1: the division by 1 is left out)
    assert _rows(rec, "VarBackward0") == [
        "∂/∂x = spread(grad, x.shape, (0, 1), False) · 2 · (x − mean(x, (0, 1))) = "
        "spread(1., (1, 2), (0, 1), False) · 2 · ([[1., 3.]] − mean([[1., 3.]], (0, 1))) = "
        "[[-2., 2.]]"]


def test_a_factor_one_is_left_out():
    a = torch.tensor(2.0, requires_grad=True)
    b = torch.tensor(3.0, requires_grad=True)
    with record() as rec:
        (a + b).backward()
    assert _rows(rec, "AddBackward0") == ["∂/∂a = grad = 1.", "∂/∂b = grad = 1."]
