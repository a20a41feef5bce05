"""Graph objects against torch: flags, node names, next_functions, AccumulateGrad, saved values,
calling nodes by hand, and Node hooks."""

import gc
import re
import warnings

import pytest
from oracle import plain

import minigrad

ERR_TWICE = "Trying to backward through the graph a second time"


def describe(fn):
    """A node as plain data: its class name and its edges (class name or None, input_nr)."""
    if fn is None:
        return None
    return type(fn).__name__, tuple(
        (None if n is None else type(n).__name__, nr) for n, nr in fn.next_functions)


def flags(t):
    return t.requires_grad, t.is_leaf, describe(t.grad_fn)


EXPRESSIONS = {
    "x+y": lambda x, y, c: x + y,
    "x+2": lambda x, y, c: x + 2,
    "2+x": lambda x, y, c: 2 + x,
    "x+c": lambda x, y, c: x + c,
    "c+x": lambda x, y, c: c + x,
    "x*y": lambda x, y, c: x * y,
    "x*2": lambda x, y, c: x * 2,
    "2*x": lambda x, y, c: 2 * x,
    "x*c": lambda x, y, c: x * c,
    "c*x": lambda x, y, c: c * x,
    "x*x": lambda x, y, c: x * x,
    "x-y": lambda x, y, c: x - y,
    "x-2": lambda x, y, c: x - 2,
    "2-x": lambda x, y, c: 2 - x,
    "c-x": lambda x, y, c: c - x,
    "x/y": lambda x, y, c: x / y,
    "x/2": lambda x, y, c: x / 2,
    "2/x": lambda x, y, c: 2 / x,
    "-x": lambda x, y, c: -x,
    "x**2": lambda x, y, c: x ** 2,
    "x.pow(3)": lambda x, y, c: x.pow(3),
    "x.square()": lambda x, y, c: x.square(),
    "x**y": lambda x, y, c: x ** y,
    "2**x": lambda x, y, c: 2 ** x,
    "c**x": lambda x, y, c: c ** x,
    "exp": lambda x, y, c: x.exp(),
    "log": lambda x, y, c: x.log(),
    "tanh": lambda x, y, c: x.tanh(),
    "sigmoid": lambda x, y, c: x.sigmoid(),
    "relu": lambda x, y, c: x.relu(),
    "sum": lambda x, y, c: x.sum(),
    "sum(0)": lambda x, y, c: x.sum(0),
    "mean": lambda x, y, c: x.mean(),
    "clone": lambda x, y, c: x.clone(),
    "view": lambda x, y, c: x.view(3, 1),
    "x[0]": lambda x, y, c: x[0],
    "x[1:]": lambda x, y, c: x[1:],
    "c*c": lambda x, y, c: c * c,
    "c+1": lambda x, y, c: c + 1,
    "detach": lambda x, y, c: x.detach(),
    "detach*2": lambda x, y, c: x.detach() * 2,
    "leaf x": lambda x, y, c: x,
    "constant c": lambda x, y, c: c,
    "exp(x)*y+c": lambda x, y, c: x.exp() * y + c,
}


def _inputs(lib):
    return (lib.tensor([1.0, 2.0, 3.0], requires_grad=True),
            lib.tensor([4.0, 5.0, 6.0], requires_grad=True),
            lib.tensor([2.0, 2.0, 2.0]))


@pytest.mark.parametrize("expr", EXPRESSIONS, ids=list(EXPRESSIONS))
def test_flags_names_and_edges_match_torch(oracle, expr):
    fn = EXPRESSIONS[expr]
    assert plain(flags(fn(*_inputs(minigrad)))) == oracle(lambda torch: flags(fn(*_inputs(torch))))


def test_edge_table_from_the_notes():
    x, _, c = _inputs(minigrad)
    assert describe((x * c).grad_fn)[1] == (("AccumulateGrad", 0), (None, 0))
    assert describe((c * x).grad_fn)[1] == ((None, 0), ("AccumulateGrad", 0))
    assert describe((x ** 2).grad_fn) == ("PowBackward0", (("AccumulateGrad", 0),))
    assert describe((2 - x).grad_fn) == ("RsubBackward1", (("AccumulateGrad", 0),))


@pytest.mark.parametrize("mode", ["no_grad", "set_grad_enabled", "inference_mode"])
def test_results_computed_without_grad_are_leaves(torch, mode):
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        ctx = {"no_grad": lib.no_grad, "inference_mode": lib.inference_mode,
               "set_grad_enabled": lambda: lib.set_grad_enabled(False)}[mode]
        with ctx():
            y = x * 2
        return flags(y)
    assert run(minigrad) == run(torch) == (False, True, None)


def test_detach_shares_data_and_is_a_leaf():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    d = y.detach()
    assert flags(d) == (False, True, None)
    d.numpy()[0] = 7.0  # the same memory: y sees it
    assert y.tolist() == [7.0, 4.0]


def test_multi_output_edges_carry_the_output_number(oracle):
    def run(lib):
        x = lib.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
        a, b = x.chunk(2)
        out = b * a
        return [(type(n).__name__, nr) for n, nr in out.grad_fn.next_functions]
    assert plain(run(minigrad)) == oracle(lambda torch: run(torch))


# ---------------------------------------------------------------- AccumulateGrad

def test_accumulate_grad_is_reused_while_a_graph_holds_it():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    a, b = x * 2, x.exp()
    acc = a.grad_fn.next_functions[0][0]
    assert b.grad_fn.next_functions[0][0] is acc
    assert acc.variable is x
    assert acc.next_functions == ()
    assert acc.metadata == {}


def test_accumulate_grad_is_held_weakly_by_its_leaf():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    a = x * 2
    acc_id = id(a.grad_fn.next_functions[0][0])
    del a
    gc.collect()
    assert x._accumulator() is None or id(x._accumulator()) != acc_id


def test_accumulate_grad_identity(torch):
    def run(lib):
        x = lib.tensor([1.0], requires_grad=True)
        acc = (x * 2).grad_fn.next_functions[0][0]
        return type(acc).__name__, acc.name(), acc._sequence_nr(), acc.metadata
    names = run(minigrad)
    expected = run(torch)
    assert names[0] == expected[0] == "AccumulateGrad"
    # NB: name() says "minigrad::" where PyTorch says "torch::".
    assert names[1] == expected[1].replace("torch::", "minigrad::")
    assert names[2:] == expected[2:] == (2**64 - 1, {})


def test_sequence_numbers_count_up_in_creation_order():
    x = minigrad.tensor(1.0, requires_grad=True)
    a = x * 2
    b = a + 1
    assert b.grad_fn._sequence_nr() == a.grad_fn._sequence_nr() + 1


def test_node_repr_and_tensor_repr():
    x = minigrad.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * minigrad.tensor([4.0, 5.0, 6.0])
    assert re.fullmatch(r"<MulBackward0 object at 0x[0-9a-f]+>", repr(y.grad_fn))
    assert repr(y) == "tensor([ 4., 10., 18.], grad_fn=<MulBackward0>)"
    assert repr(x) == "tensor([1., 2., 3.], requires_grad=True)"


def test_metadata_is_a_per_node_dict():
    x = minigrad.tensor(1.0, requires_grad=True)
    a, b = x * 2, x * 3
    a.grad_fn.metadata["note"] = "first"
    assert a.grad_fn.metadata == {"note": "first"}
    assert b.grad_fn.metadata == {}


# ---------------------------------------------------------------- saved values

def _values(v):
    if hasattr(v, "tolist"):
        return v.tolist()
    return tuple(v) if isinstance(v, tuple) else v


SAVED = {
    "exp result": (lambda x, y: x.exp(), "_saved_result"),
    "mul self": (lambda x, y: x * y, "_saved_self"),
    "mul other": (lambda x, y: x * y, "_saved_other"),
    "pow self": (lambda x, y: x ** 2, "_saved_self"),
    "pow exponent": (lambda x, y: x ** 2, "_saved_exponent"),
    "sum sizes": (lambda x, y: x.sum(), "_saved_self_sym_sizes"),
}


@pytest.mark.parametrize("case", SAVED, ids=list(SAVED))
def test_saved_values_match_torch(torch, case):
    fn, attr = SAVED[case]

    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = lib.tensor([3.0, 4.0], requires_grad=True)
        return _values(getattr(fn(x, y).grad_fn, attr))
    assert run(minigrad) == pytest.approx(run(torch))


def test_x_times_x_saves_the_same_object_twice():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    node = (x * x).grad_fn
    assert node._saved_self is node._saved_other is x


def test_saved_result_is_the_output():
    x = minigrad.tensor([0.0, 1.0], requires_grad=True)
    b = x.exp()
    assert minigrad.allclose(b.grad_fn._saved_result, b)


@pytest.mark.parametrize("case", ["exp result", "mul self", "mul other", "pow self"])
def test_saved_tensors_are_gone_after_backward(torch, case):
    fn, attr = SAVED[case]

    def run(lib, retain):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = lib.tensor([3.0, 4.0], requires_grad=True)
        out = fn(x, y)
        out.sum().backward(retain_graph=retain)
        try:
            return _values(getattr(out.grad_fn, attr))
        except RuntimeError as error:
            return str(error)

    freed = run(minigrad, False)
    assert freed.startswith(ERR_TWICE)
    assert freed == run(torch, False)
    assert run(minigrad, True) == pytest.approx(run(torch, True))


def test_non_tensor_saved_values_survive_backward():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = x ** 2
    y.sum().backward()
    assert y.grad_fn._saved_exponent == 2


def test_unknown_saved_attribute_is_an_attribute_error():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(AttributeError, match="'MulBackward0' object has no attribute '_saved_x'"):
        getattr((x * 2).grad_fn, "_saved_x")  # noqa: B009


# ---------------------------------------------------------------- calling nodes by hand

def test_manual_backward_by_calling_nodes(torch):
    def run(lib, manual):
        lib.manual_seed(6)
        x = lib.randn(4, 4, requires_grad=True)
        y = lib.randn(4, 4, requires_grad=True)
        loss = (x * y).sum()
        if not manual:
            loss.backward()
            return x.grad.tolist(), y.grad.tolist(), x.tolist(), y.tolist()
        back_sum = loss.grad_fn
        dz = back_sum(lib.tensor(1.0))
        back_mul = back_sum.next_functions[0][0]
        result = back_mul(dz)
        assert isinstance(result, tuple) and len(result) == 2
        dx, dy = result
        assert back_mul.next_functions[0][0](dx) == ()
        back_mul.next_functions[1][0](dy)
        return x.grad.tolist(), y.grad.tolist(), x.tolist(), y.tolist()

    mg_auto, mg_manual = run(minigrad, False), run(minigrad, True)
    assert mg_manual == mg_auto
    assert mg_manual[0] == mg_manual[3] and mg_manual[1] == mg_manual[2]  # dx = y, dy = x
    torch_manual = run(torch, True)
    assert torch_manual[0] == torch_manual[3]


def test_calling_a_node_returns_none_for_a_constant_input(torch):
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        return [None if g is None else g.tolist() for g in (x * 2).grad_fn(lib.ones(2))]
    assert run(minigrad) == run(torch) == [[2.0, 2.0], None]


def test_calling_accumulate_grad_accumulates(torch):
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        acc = (x * 2).grad_fn.next_functions[0][0]
        first = acc(lib.ones(2))
        acc(lib.ones(2))
        return first, x.grad.tolist()
    assert run(minigrad) == run(torch) == ((), [2.0, 2.0])


# ---------------------------------------------------------------- Node hooks

def test_node_hooks_fire_and_can_be_removed():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    log = []
    pre = y.grad_fn.register_prehook(lambda grad_outputs: log.append(("pre", grad_outputs)))
    post = y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: log.append(
        ("post", grad_inputs, grad_outputs)))
    y.sum().backward(retain_graph=True)
    assert [entry[0] for entry in log] == ["pre", "post"]
    assert log[0][1][0].tolist() == [1.0, 1.0]
    assert log[1][1][0].tolist() == [2.0, 2.0] and log[1][1][1] is None
    pre.remove()
    post.remove()
    log.clear()
    y.sum().backward()
    assert log == []


def test_node_hook_handle_is_a_context_manager_and_remove_is_idempotent():
    x = minigrad.tensor(1.0, requires_grad=True)
    y = x * 2
    log = []
    with y.grad_fn.register_prehook(lambda g: log.append(1)) as handle:
        pass
    handle.remove()
    y.backward()
    assert log == []


def test_graph_node_is_the_public_type(torch):
    x = minigrad.tensor([0.0], requires_grad=True)
    assert isinstance(x.exp().grad_fn, minigrad.autograd.graph.Node)
    assert isinstance((x * 2).grad_fn.next_functions[0][0], minigrad.autograd.graph.Node)


# ---------------------------------------------------------------- saved values PyTorch shows

def _saved_repr(lib, expr, attr):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    return repr(getattr(expr(x).grad_fn, attr)).replace("torch.", "minigrad.")


SAVED_LOOKS = {
    "sizes is a tuple": (lambda x: x.sum(), "_saved_self_sym_sizes"),
    "sizes of mean(dim)": (lambda x: x.mean(0), "_saved_self_sym_sizes"),
    "sizes of view": (lambda x: x.view(2, 1), "_saved_self_sym_sizes"),
    "python int": (lambda x: x * 2, "_saved_other"),
    "python float": (lambda x: x * 2.5, "_saved_other"),
    "python bool": (lambda x: x * True, "_saved_other"),
    "divisor": (lambda x: x / 4, "_saved_other"),
    "in-place": (lambda x: (x * 1).mul_(3), "_saved_other"),
    "rdiv": (lambda x: 2 / x, "_saved_other"),
    "alpha": (lambda x: x + 2, "_saved_alpha"),
    "alpha of sub": (lambda x: x - x, "_saved_alpha"),
    "explicit alpha": (lambda x: x.add(x, alpha=0.5), "_saved_alpha"),
    "alpha of sub_": (lambda x: (x * 1).sub_(2, alpha=3), "_saved_alpha"),
    "alpha of rsub": (lambda x: 2 - x, "_saved_alpha"),
}


@pytest.mark.parametrize("case", SAVED_LOOKS, ids=list(SAVED_LOOKS))
def test_saved_values_look_like_torchs(oracle, case):
    expr, attr = SAVED_LOOKS[case]
    expected = oracle(lambda torch: _saved_repr(torch, expr, attr))
    assert plain(_saved_repr(minigrad, expr, attr)) == expected


def test_copy_backwards_name(torch):
    def run(lib):
        x = lib.tensor([5.0], requires_grad=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            (x * x).backward(create_graph=True)
        node = x.grad.grad_fn
        return type(node).__name__, node.name().replace("torch::", "minigrad::")
    assert run(minigrad) == run(torch) == ("CopyBackwards", "minigrad::autograd::CopyBackwards")


def test_copy_node_name_of_copy_(oracle):
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = lib.zeros(2).clone()
        y.copy_(x)
        return type(y.grad_fn).__name__, y.grad_fn.name().replace("torch::", "minigrad::")
    assert plain(run(minigrad)) == oracle(lambda torch: run(torch))


def test_lean_saved_slots_read_as_saved_tensors():
    """Issue 14: a built-in node that nothing watches keeps a saved input as the tensor and its
    version, and a saved number as its array; ``_saved_*``, ``_raw_saved_*`` and the in-place
    check read them as PyTorch's SavedVariables (a pack hook still gets SavedTensors)."""
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    w = minigrad.tensor([3.0, 4.0], requires_grad=True)
    y = x * w
    z = x * 0.5
    assert y.grad_fn._saved_versions == (0, 0)  # lean
    assert y.grad_fn._saved_self is x and y.grad_fn._saved_other is w
    number = z.grad_fn._saved_other
    assert number.dtype == minigrad.float64 and number.item() == 0.5
    assert z.grad_fn._raw_saved_other.register_hooks is not None
    with minigrad.no_grad():
        w.mul_(2)
    with pytest.raises(RuntimeError) as lean:
        y.sum().backward()
    with minigrad.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
        y2 = x * w  # saved as SavedTensors: a pack hook sees them
    assert y2.grad_fn._saved_versions is None
    lean_message = str(lean.value)
    assert "modified by an inplace operation" in lean_message
    assert "is at version 1; expected version 0 instead" in lean_message


def test_a_shared_float_operand_is_never_changed_by_what_a_user_does_with_a_saved_one():
    """Issue 14: ``x * 0.5`` uses one WrappedNumber for 0.5 while nothing watches; what a user
    gets back as ``_saved_other`` is a tensor of its own, so changing it changes no later op."""
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    saved = (x * 0.5).grad_fn._saved_other
    saved.requires_grad_()
    saved.grad = minigrad.tensor(1.0, dtype=minigrad.float64)
    again = x * 0.5
    assert again.tolist() == [0.5, 1.0]
    assert not again.grad_fn._saved_other.requires_grad
    assert again.grad_fn._saved_other.grad is None
    again.sum().backward()
    assert x.grad.tolist() == [0.5, 0.5]


def test_built_in_nodes_have_no_getattr_hook():
    """Issue 14: a ``__getattr__`` anywhere in a class's MRO turns off CPython's fast attribute
    reads for every instance; ``_saved_<name>`` are properties instead, and still read as
    PyTorch's (a tensor slot, a non-tensor value, and a name a node does not have)."""
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = minigrad.add(x * x, x, alpha=2)
    for node in (y.grad_fn, y.grad_fn.next_functions[0][0]):
        assert not any("__getattr__" in vars(k) for k in type(node).__mro__)
    assert y.grad_fn._saved_alpha == 2
    assert y.grad_fn.next_functions[0][0]._saved_self is x
    with pytest.raises(AttributeError, match="_saved_kernel_size"):
        _ = y.grad_fn._saved_kernel_size
