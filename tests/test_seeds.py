"""The examples of the reference tutorials (../shared/seeds), rewritten in our own words.

Each example is a function of the library (``torch`` or ``minigrad``) that prints what a student
would look at. Where the values are deterministic the printed text must match torch's exactly
(object addresses aside); where they come from a random generator, the numbers are masked and
the structure (flags, node names, shapes, which values are equal) must match. CUDA is left out.
"""

import re
import warnings

import pytest
from seed_functions import clamp_at_zero

import minigrad

ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
CREATE_GRAPH_WARNING = "Using backward() with create_graph=True"
NUMBER = re.compile(r"-?\d+\.\d*(?:e[+-]?\d+)?")


def printed(lib, example, capsys, masked=False):
    """What ``example(lib)`` prints (and the text of any error or warning it raises)."""
    capsys.readouterr()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            example(lib)
        except Exception as error:  # noqa: BLE001 - an error is part of the output
            print(f"{type(error).__name__}: {error}")
    out = capsys.readouterr().out
    for w in caught:
        if str(w.message).startswith(CREATE_GRAPH_WARNING):
            continue   # once per process in torch: tested in test_autograd_api.py
        out += f"{w.category.__name__}: {str(w.message).split(' (Triggered internally')[0]}\n"
    out = ADDRESS.sub(" at ADDR", out).replace("torch.", "minigrad.")
    if masked:
        out = " ".join(NUMBER.sub("N", out).split())
    return out


def same_output(torch, example, capsys, masked=False):
    ours = printed(minigrad, example, capsys, masked)
    theirs = printed(torch, example, capsys, masked)
    assert ours == theirs
    return ours


# ---------------------------------------------------------------- 000: concepts and check()

def show(t):
    print(f"is_leaf: {t.is_leaf}, requires_grad: {t.requires_grad}, grad_fn: {t.grad_fn}, "
          f"grad: {t.grad}")


def concepts_flags(lib):
    show(lib.rand(3))
    show(lib.rand(3, requires_grad=True))
    show(lib.rand(3, requires_grad=True) + 1)
    show(lib.rand(3) + 1)


def concepts_requires_grad_setters(lib):
    p = lib.rand(3, requires_grad=True)
    p.requires_grad = True
    print(p.requires_grad_(True) is p)
    show(lib.nn.Parameter(lib.rand(3)))
    show(lib.nn.Linear(3, 5).weight)


def concepts_non_leaf_flag_error(lib):
    out = lib.nn.Linear(3, 5)(lib.rand(1, 3))
    out.requires_grad = False


def concepts_module(lib):
    layer = lib.nn.Linear(3, 5)
    show(layer.weight)
    out = layer(lib.rand(1, 3))
    show(out)
    target = lib.rand(1, 5)
    loss = lib.nn.L1Loss()(out, target)
    show(loss)
    loss.backward()
    print(layer.weight.grad is not None, layer.weight.grad.shape, layer.bias.grad.shape)
    show(out)   # still no grad for the non-leaf (warns)


def concepts_l1loss_called_with_tensors(lib):
    out = lib.nn.Linear(3, 5)(lib.rand(1, 3))
    lib.nn.L1Loss(out, lib.rand(1, 5))   # the tutorial's slip: tensors given to the constructor


def concepts_backward_on_leaf_without_grad(lib):
    lib.rand(3).sum().backward()


def concepts_grad_modes(lib):
    x = lib.rand(3, requires_grad=True)

    @lib.no_grad()
    def frozen(t):
        return t * 2

    print(frozen(x).requires_grad)
    with lib.no_grad():
        a = x * 2
        with lib.enable_grad():
            b = x * 2
    print(a.requires_grad, b.requires_grad)
    for flag in (True, False):
        with lib.set_grad_enabled(flag):
            print((x * 2).requires_grad)
    model = lib.nn.Linear(3, 2)
    model.eval()
    with lib.no_grad():
        print(model(lib.rand(1, 3)).requires_grad, model.training)


def concepts_retain_grad(lib):
    x = lib.rand(3, requires_grad=True)
    h = x * 2
    print(h.retains_grad)
    h.retain_grad()
    print(h.retains_grad)
    h.sum().backward()
    print(h.grad)


def concepts_normals(lib):
    """The SDF example: gradient of a network's output with respect to its 3-D input points."""
    lib.manual_seed(0)
    backbone = lib.nn.Linear(3, 1)
    points = lib.rand(2, 4, 3)
    with lib.set_grad_enabled(True):
        points.requires_grad_(True)
        sigma = backbone(points)
        normal = -lib.autograd.grad(lib.sum(sigma), points, create_graph=True)[0]
    print(sigma.shape, normal.shape, normal.requires_grad, normal.grad_fn)
    print(lib.allclose(normal, -backbone.weight.reshape(1, 1, 3).expand(2, 4, 3)))


@pytest.mark.parametrize("example", [concepts_flags, concepts_requires_grad_setters,
                                     concepts_non_leaf_flag_error, concepts_module,
                                     concepts_l1loss_called_with_tensors,
                                     concepts_backward_on_leaf_without_grad,
                                     concepts_grad_modes, concepts_retain_grad,
                                     concepts_normals],
                         ids=lambda f: f.__name__)
def test_seed_000_concepts(torch, capsys, example):
    same_output(torch, example, capsys, masked=True)


def test_seed_000_error_texts(torch, capsys):
    out = same_output(torch, concepts_non_leaf_flag_error, capsys)
    assert "you can only change requires_grad flags of leaf variables. If you want" in out
    out = same_output(torch, concepts_backward_on_leaf_without_grad, capsys)
    assert out == ("RuntimeError: element 0 of tensors does not require grad and does not "
                   "have a grad_fn\n")


def test_seed_000_linear_node_names(torch, capsys):
    out = same_output(torch, concepts_module, capsys, masked=True)
    assert "AddmmBackward0" in out


# ---------------------------------------------------------------- 001: backward, grad, hooks

def scalar_backward(lib):
    a = lib.tensor(2.0, requires_grad=True)
    b = lib.tensor(3.0, requires_grad=True)
    c = a ** 2 + b
    c.backward()
    print(c, a.grad, b.grad)


def vector_backward(lib):
    v = lib.ones(2, requires_grad=True)
    try:
        (v + 2).backward()
    except RuntimeError as error:
        print(error)
    w = v + 2
    w.backward(lib.ones_like(w))
    print(v.grad)


def grad_of_leaf(lib):
    a = lib.tensor(2.0, requires_grad=True)
    print(lib.autograd.grad(outputs=a ** 2, inputs=a), a.grad)


def sum_of_product(lib, by_hand):
    lib.manual_seed(6)
    a = lib.randn(4, 4, requires_grad=True)
    b = lib.randn(4, 4, requires_grad=True)
    total = (a * b).sum()
    if by_hand:
        sum_node = total.grad_fn
        d_prod = sum_node(lib.tensor(1.0))
        mul_node = sum_node.next_functions[0][0]
        da, db = mul_node(d_prod)
        mul_node.next_functions[0][0](da)
        mul_node.next_functions[1][0](db)
    else:
        total.backward()
    return a, b


def manual_backward(lib):
    a, b = sum_of_product(lib, by_hand=False)
    a2, b2 = sum_of_product(lib, by_hand=True)
    print(lib.equal(a.grad, a2.grad), lib.equal(b.grad, b2.grad))
    print(lib.equal(a.grad, b), lib.equal(b.grad, a), a.grad.shape)


def graph_walk(lib):
    p = lib.tensor(2.0, requires_grad=True)
    q = lib.tensor(0.5, requires_grad=True)
    r = lib.tensor(1.0, requires_grad=True)
    pq = p * q
    e = pq.exp()
    total = e + r
    print(total)
    print([t.is_leaf for t in [p, q, pq, e, r, total]])
    print([t.grad_fn for t in [total, e, pq, p]])
    print(total.grad_fn.next_functions)
    total.backward(retain_graph=True)
    print(p.grad, q.grad, r.grad)
    print(pq.grad, e.grad)


def hook_halves_grad(lib):
    lib.manual_seed(1)
    w = lib.nn.Parameter(lib.randn(2, 2))
    seen = []

    def show_and_halve(grad):
        print(grad.shape, grad.requires_grad)
        seen.append(grad)
        return grad / 2

    w.register_hook(show_and_halve)
    loss = (w - 1) ** 2
    print("before backward")
    loss.mean().backward()
    print("after backward")
    print(lib.allclose(w.grad, seen[0] / 2), lib.allclose(seen[0], (w.detach() - 1) / 2))


def hooks_on_tensor_and_node(lib):
    lib.manual_seed(2)
    w = lib.nn.Parameter(lib.randn(2, 2))
    w.register_hook(lambda grad: print("parameter hook"))
    print("first")
    y = w + 1
    print(y.grad_fn)
    y.grad_fn.register_hook(lambda *grads: print("operator hook"))
    y.sum().backward()
    print("second")
    z = w + 1
    print(z.grad_fn)
    z.sum().backward()


@pytest.mark.parametrize("example", [scalar_backward, vector_backward, grad_of_leaf, graph_walk,
                                     hooks_on_tensor_and_node],
                         ids=lambda f: f.__name__)
def test_seed_001_exact(torch, capsys, example):
    same_output(torch, example, capsys)


@pytest.mark.parametrize("example", [manual_backward, hook_halves_grad], ids=lambda f: f.__name__)
def test_seed_001_random(torch, capsys, example):
    out = same_output(torch, example, capsys, masked=True)
    assert "True True" in out and "False" not in out.split("after backward")[-1]


def test_seed_001_values(capsys):
    assert printed(minigrad, scalar_backward, capsys) == (
        "tensor(7., grad_fn=<AddBackward0>) tensor(4.) tensor(1.)\n")
    out = printed(minigrad, graph_walk, capsys).splitlines()
    assert out[0] == "tensor(3.7183, grad_fn=<AddBackward0>)"
    assert out[1] == "[True, True, False, False, True, False]"
    assert out[2] == ("[<AddBackward0 object at ADDR>, <ExpBackward0 object at ADDR>, "
                      "<MulBackward0 object at ADDR>, None]")
    assert out[3] == ("((<ExpBackward0 object at ADDR>, 0), (<AccumulateGrad object at ADDR>, "
                      "0))")
    assert out[4] == "tensor(1.3591) tensor(5.4366) tensor(1.)"
    assert out[5] == "None None"
    assert out[6].startswith("UserWarning: The .grad attribute of a Tensor that is not a leaf")


# ---------------------------------------------------------------- 002: leaves, retain, create_graph

def leaves_and_constants(lib):
    a = lib.tensor([3.0], requires_grad=True)
    b = a * a
    c = lib.tensor([5.0])
    d = c * c
    for t in (a, b, c, d):
        print(t.requires_grad, t.is_leaf)
    u, v = lib.tensor([5.0], requires_grad=True), lib.tensor([5.0], requires_grad=True)
    k = lib.tensor([5.0], requires_grad=False)
    print(lib.sin(u * v * k).requires_grad == any(t.requires_grad for t in (u, v, k)))


def retention(lib):
    a = lib.tensor([3.0], requires_grad=True)
    b = a * a
    b.backward()
    print(a.grad is not None, b.grad is None)
    a = lib.tensor([3.0], requires_grad=True)
    b = a * a
    b.retain_grad()
    b.backward()
    print(a.grad, b.grad)


def what_grad_is(lib):
    a = lib.tensor([3.0], requires_grad=True)
    b = a * a
    b.retain_grad()
    b.backward()
    print(isinstance(a.grad, lib.Tensor))
    for g in (a.grad, b.grad):
        print(g.requires_grad, g.retains_grad, g.is_leaf)


def second_backward(lib):
    a = lib.tensor([3.0], requires_grad=True)
    b = a * a
    b.retain_grad()
    b.backward()
    b.backward()


def retain_graph_runs(lib):
    a = lib.tensor([3.0], requires_grad=True)
    b = a * a
    b.retain_grad()
    for keep in (True, True, False):
        b.backward(retain_graph=keep)
        print(a.grad)
    try:
        b.backward(retain_graph=False)
    except RuntimeError as error:
        print(str(error)[:60])


def create_graph_flags(lib):
    a = lib.tensor([5.0], requires_grad=True)
    b = a * a
    b.retain_grad()
    b.backward(create_graph=True)
    print(a.grad.requires_grad, a.grad.is_leaf, b.grad.requires_grad, b.grad.is_leaf)
    print(a.grad, b.grad)


def higher_order_with_grad(lib):
    a = lib.tensor([3.0], requires_grad=True)
    b = a * a * a
    first = lib.autograd.grad(b, a, create_graph=True)[0]
    second = lib.autograd.grad(first, a, create_graph=True)[0]
    print(first.requires_grad, second.item() == 18, second.requires_grad)
    print(first, second)


@pytest.mark.parametrize("example", [leaves_and_constants, retention, what_grad_is,
                                     second_backward, retain_graph_runs, create_graph_flags,
                                     higher_order_with_grad],
                         ids=lambda f: f.__name__)
def test_seed_002_exact(torch, capsys, example):
    same_output(torch, example, capsys)


def test_seed_002_values(capsys):
    assert printed(minigrad, retain_graph_runs, capsys).splitlines() == [
        "tensor([6.])", "tensor([12.])", "tensor([18.])",
        "Trying to backward through the graph a second time (or direc"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        lines = printed(minigrad, create_graph_flags, capsys).splitlines()
    assert lines[0] == "True False False True"
    assert lines[1] == "tensor([10.], grad_fn=<CopyBackwards>) tensor([1.])"


# ---------------------------------------------------------------- 003: the autograd reference page

def saved_tensors_page(lib):
    a = lib.tensor([0.0, 0.0, 0.0], requires_grad=True)
    b = a.exp()
    print(isinstance(b.grad_fn, lib.autograd.graph.Node))
    print([n for n in dir(b.grad_fn) if n in ("_saved_result", "_raw_saved_result", "metadata",
                                               "name", "next_functions", "register_hook",
                                               "register_prehook")])
    print(lib.allclose(b.grad_fn._saved_result, b))
    print(lib.randn((2, 3, 4), requires_grad=True).shape)


def node_api(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = (x * 2).exp()
    node = y.grad_fn
    print(node.name(), node.metadata, node.next_functions[0][0].name())
    handle = node.register_prehook(lambda grads: print("pre", grads))
    node.register_hook(lambda grad_inputs, grad_outputs: print("post", grad_inputs))
    y.sum().backward()
    handle.remove()


@pytest.mark.parametrize("example", [saved_tensors_page, node_api], ids=lambda f: f.__name__)
def test_seed_003(torch, capsys, example):
    same_output(torch, example, capsys, masked=example is saved_tensors_page)


# ---------------------------------------------------------------- 004: a guided tour

def basic_gradients(lib):
    a = lib.tensor(2.0, requires_grad=True)
    b = lib.tensor(3.0, requires_grad=True)
    c = a ** 2 + b ** 3
    c.backward()
    print(f"a: {a}, dc/da: {a.grad}")
    print(f"b: {b}, dc/db: {b.grad}")
    print(f"c.grad_fn: {c.grad_fn}")
    print(f"a.grad_fn: {a.grad_fn}")


def accumulation(lib):
    a = lib.tensor(1.0, requires_grad=True)
    twice, thrice = a * 2, a * 3
    twice.backward(retain_graph=True)
    print(f"after the first backward: {a.grad}")
    thrice.backward()
    print(f"after the second backward: {a.grad}")
    a.grad.zero_()
    print(f"after zero_(): {a.grad}")


def excluding(lib):
    a = lib.tensor([1.0, 2.0], requires_grad=True)
    b = a * 2
    with lib.no_grad():
        c = a * 3
    print(f"c.requires_grad: {c.requires_grad}")
    d = b.detach()
    print(f"b.requires_grad: {b.requires_grad}, d.requires_grad: {d.requires_grad}")


def vector_jacobian(lib):
    a = lib.randn(3, requires_grad=True)
    b = a * 2
    weights = lib.tensor([0.1, 1.0, 0.001], dtype=lib.float)
    b.backward(gradient=weights)
    print(f"a.grad: {a.grad}")


def second_derivative(lib):
    a = lib.tensor(2.0, requires_grad=True)
    b = a ** 3
    first = lib.autograd.grad(outputs=b, inputs=a, create_graph=True)[0]
    print(f"first = {first}")
    second = lib.autograd.grad(outputs=first, inputs=a)[0]
    print(f"second = {second}")


def custom_relu(lib):
    ClampAtZero = clamp_at_zero(lib)
    a = lib.tensor([-1.0, 2.0, -0.5], requires_grad=True)
    out = ClampAtZero.apply(a)
    print(f"output: {out}")
    out.backward(lib.tensor([1.0, 1.0, 1.0]))
    print(f"gradient: {a.grad}")


def tips(lib):
    a = lib.tensor([1.0], requires_grad=True)
    b = a * 2
    print(a.requires_grad, a.is_leaf, b.requires_grad, b.is_leaf)
    b.backward(retain_graph=True)
    b.backward()
    print(a.grad)


@pytest.mark.parametrize("example", [basic_gradients, accumulation, excluding, vector_jacobian,
                                     second_derivative, custom_relu, tips],
                         ids=lambda f: f.__name__)
def test_seed_004(torch, capsys, example):
    same_output(torch, example, capsys)


def test_seed_004_values(capsys):
    assert printed(minigrad, basic_gradients, capsys).splitlines() == [
        "a: 2.0, dc/da: 4.0", "b: 3.0, dc/db: 27.0",
        "c.grad_fn: <AddBackward0 object at ADDR>", "a.grad_fn: None"]
    assert printed(minigrad, second_derivative, capsys) == "first = 12.0\nsecond = 12.0\n"
    assert printed(minigrad, vector_jacobian, capsys) == (
        "a.grad: tensor([0.2000, 2.0000, 0.0020])\n")
    assert printed(minigrad, custom_relu, capsys) == (
        "output: tensor([0., 2., 0.], grad_fn=<ClampAtZeroBackward>)\n"
        "gradient: tensor([0., 1., 0.])\n")
