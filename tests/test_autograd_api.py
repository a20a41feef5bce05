"""``backward``, ``autograd.grad`` and the tensor autograd API against torch: values, errors
(type and text), warnings (category and text), and minigrad's no-half-written-grad promise."""

import warnings

import pytest
from oracle import plain
from parity_programs import check, programs

import minigrad
from minigrad.autograd import api
from minigrad.tensor import NON_LEAF_GRAD_WARNING


def outcome(lib, fn):
    """What ``fn(lib)`` does: its result, or its error's type and text, plus its warnings."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = ("ok", _plain(fn(lib)))
        except Exception as error:  # noqa: BLE001 - the error is the result
            result = (type(error).__name__, _text(error))
    return result, [(w.category.__name__, _text(w.message)) for w in caught]


def _text(message):
    text = str(message).replace("torch.", "minigrad.")
    return text.split(" (Triggered internally at")[0].split("\nException raised from")[0]


def _plain(value):
    if isinstance(value, (tuple, list)):
        return tuple(_plain(v) for v in value)
    if hasattr(value, "tolist") and hasattr(value, "requires_grad"):
        return ("tensor", value.tolist(), value.requires_grad)
    return value


def _leaf(lib, *values):
    return lib.tensor(list(values), requires_grad=True)


CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


@case
def backward_non_scalar_without_gradient(t):
    (_leaf(t, 1.0, 1.0) + 2).backward()


@case
def backward_non_scalar_with_gradient(t):
    x = _leaf(t, 1.0, 1.0)
    (x + 2).backward(t.ones(2))
    return x.grad


@case
def backward_on_tensor_without_grad(t):
    (t.ones(2) + 2).backward()


@case
def backward_on_scalar_without_grad(t):
    t.tensor(1.0).backward()


@case
def backward_on_detached(t):
    (_leaf(t, 1.0) * 2).detach().sum().backward()


@case
def backward_on_no_grad_result(t):
    x = _leaf(t, 1.0, 2.0)
    with t.no_grad():
        y = (x * 2).sum()
    y.backward()


@case
def backward_on_integer_scalar(t):
    x = t.tensor(3)
    x.backward()


@case
def backward_gradient_wrong_shape(t):
    (_leaf(t, 1.0, 1.0) * 2).backward(t.ones(3))


@case
def backward_gradient_not_a_tensor(t):
    (_leaf(t, 1.0, 1.0) * 2).backward([1.0, 2.0])


@case
def backward_twice(t):
    x = _leaf(t, 1.0, 2.0)
    y = (x * x).sum()
    y.backward()
    y.backward()


@case
def backward_twice_without_saved_tensors(t):
    x = _leaf(t, 1.0, 2.0)
    y = (x + x).sum()
    y.backward()
    y.backward()
    return x.grad


@case
def retain_graph_accumulates(t):
    x = t.tensor(1.0, requires_grad=True)
    y = x * 3
    seen = []
    for _ in range(3):
        y.backward(retain_graph=True)
        seen.append(x.grad.item())
    return seen


@case
def backward_on_leaf(t):
    x = _leaf(t, 1.0, 2.0)
    x.backward(t.tensor([3.0, 4.0]))
    return x.grad


@case
def non_leaf_grad_warns(t):
    y = _leaf(t, 1.0) * 2
    return y.grad


@case
def non_leaf_grad_after_backward_warns(t):
    y = _leaf(t, 1.0) * 2
    y.sum().backward()
    return y.grad


@case
def retained_grad_does_not_warn(t):
    y = _leaf(t, 1.0) * 2
    y.retain_grad()
    before = y.grad
    y.sum().backward()
    return before, y.grad, y.retains_grad


@case
def assigned_grad_does_not_warn(t):
    y = _leaf(t, 1.0, 2.0) * 2
    y.grad = t.ones(2)
    return y.grad


@case
def leaf_grad_is_none_before_backward(t):
    return _leaf(t, 1.0).grad, t.ones(1).grad


@case
def retain_grad_on_leaf_is_a_no_op(t):
    x = _leaf(t, 1.0)
    x.retain_grad()
    return x.retains_grad


@case
def set_requires_grad_true_on_non_leaf(t):
    y = _leaf(t, 1.0) * 2
    y.requires_grad = True


@case
def set_requires_grad_false_on_non_leaf(t):
    y = _leaf(t, 1.0) * 2
    y.requires_grad = False


@case
def requires_grad_method_on_non_leaf(t):
    y = _leaf(t, 1.0) * 2
    y.requires_grad_(False)


@case
def int_requires_grad_method(t):
    t.tensor([1, 2]).requires_grad_()


@case
def int_requires_grad_setter(t):
    x = t.tensor([1, 2])
    x.requires_grad = True


@case
def int_requires_grad_false_is_fine(t):
    return t.tensor([1, 2]).requires_grad_(False).requires_grad


@case
def grad_unused_input(t):
    x, y = _leaf(t, 1.0, 1.0), _leaf(t, 1.0, 1.0)
    return t.autograd.grad((x * 2).sum(), [x, y])


@case
def grad_allow_unused(t):
    x, y = _leaf(t, 1.0, 1.0), _leaf(t, 1.0, 1.0)
    return t.autograd.grad((x * 2).sum(), [x, y], allow_unused=True)


@case
def grad_materialize_grads(t):
    x, y = _leaf(t, 1.0, 1.0), _leaf(t, 1.0, 1.0)
    return t.autograd.grad((x * 2).sum(), [x, y], materialize_grads=True)


@case
def grad_materialize_grads_create_graph(t):
    x, y = _leaf(t, 1.0, 1.0), _leaf(t, 1.0, 1.0)
    return t.autograd.grad((x * x).sum(), [x, y], materialize_grads=True, create_graph=True)


@case
def grad_materialize_with_allow_unused_false(t):
    x = _leaf(t, 1.0)
    t.autograd.grad((x * 2).sum(), x, materialize_grads=True, allow_unused=False)


@case
def grad_input_without_grad(t):
    x = _leaf(t, 1.0, 1.0)
    t.autograd.grad((x * 2).sum(), [x, t.ones(2)])


@case
def grad_empty_inputs(t):
    t.autograd.grad((_leaf(t, 1.0) * 2).sum(), [])


@case
def grad_outputs_wrong_shape(t):
    x = _leaf(t, 1.0, 1.0)
    t.autograd.grad(x * 2, x, t.ones(3))


@case
def grad_non_scalar_without_grad_outputs(t):
    x = _leaf(t, 1.0, 1.0)
    t.autograd.grad(x * 2, x)


@case
def grad_with_grad_outputs(t):
    x = _leaf(t, 1.0, 1.0)
    return t.autograd.grad(x * 2, x, t.tensor([1.0, 3.0]))


@case
def grad_too_few_grad_outputs(t):
    x = _leaf(t, 1.0, 1.0)
    t.autograd.grad([x * 2, x * 3], x, [t.tensor([1.0, 3.0])])


@case
def grad_output_without_grad_fn(t):
    t.autograd.grad(t.ones(2).sum(), _leaf(t, 1.0))


@case
def grad_leaves_dot_grad_alone(t):
    x = _leaf(t, 1.0, 2.0)
    return t.autograd.grad((x * x).sum(), x), x.grad


@case
def grad_twice_without_retain(t):
    x = _leaf(t, 1.0, 2.0)
    y = (x * x).sum()
    t.autograd.grad(y, x)
    t.autograd.grad(y, x)


@case
def grad_create_graph_second_order(t):
    x = t.tensor([3.0], requires_grad=True)
    y = x * x * x
    (first,) = t.autograd.grad(y, x, create_graph=True)
    (second,) = t.autograd.grad(first, x, create_graph=True)
    return first, second, first.requires_grad, second.requires_grad


@case
def backward_inputs_leaf(t):
    x, w = t.tensor(2.0, requires_grad=True), t.tensor(3.0, requires_grad=True)
    h = x * w
    (h * h).backward(inputs=[x])
    return x.grad, w.grad, h.retains_grad


@case
def backward_inputs_non_leaf(t):
    x, w = t.tensor(2.0, requires_grad=True), t.tensor(3.0, requires_grad=True)
    h = x * w
    (h * h).backward(inputs=[h])
    return x.grad, w.grad, h.grad, h.retains_grad


@case
def backward_inputs_mixed(t):
    x, w = t.tensor(2.0, requires_grad=True), t.tensor(3.0, requires_grad=True)
    h = x * w
    (h * h).backward(inputs=[h, w])
    return x.grad, w.grad, h.grad


@case
def backward_inputs_single_tensor(t):
    x, w = t.tensor(2.0, requires_grad=True), t.tensor(3.0, requires_grad=True)
    (x * w).backward(inputs=w)
    return x.grad, w.grad


@case
def backward_inputs_empty(t):
    (_leaf(t, 1.0) * 2).sum().backward(inputs=[])


@case
def backward_inputs_without_grad(t):
    (_leaf(t, 1.0) * 2).sum().backward(inputs=[t.ones(1)])


@case
def backward_inputs_unused(t):
    x, y = _leaf(t, 1.0), _leaf(t, 2.0)
    (x * 2).sum().backward(inputs=[y])
    return x.grad, y.grad


@case
def multi_root_with_grad_tensors(t):
    x = _leaf(t, 1.0, 2.0)
    t.autograd.backward([x * 2, (x * x).sum()], [t.tensor([1.0, 10.0]), None])
    return x.grad


@case
def multi_root_too_few_grad_tensors(t):
    x = _leaf(t, 1.0, 2.0)
    t.autograd.backward([x * 2, x * 3], [t.tensor([1.0, 3.0])])


@case
def multi_root_second_without_grad(t):
    x = _leaf(t, 1.0, 2.0)
    t.autograd.backward([x * 2, t.ones(2)], [t.ones(2), t.ones(2)])


@case
def multi_root_non_scalar_none(t):
    x = _leaf(t, 1.0, 2.0)
    t.autograd.backward([x.sum(), x * 2])


@case
def grad_attributes_after_backward(t):
    a = t.tensor([3.0], requires_grad=True)
    b = a * a
    b.retain_grad()
    b.backward()
    return (a.grad.requires_grad, a.grad.is_leaf, a.grad.retains_grad,
            b.grad.requires_grad, b.grad.is_leaf)


@case
def detach_result(t):
    x = _leaf(t, 1.0, 2.0)
    d = (x * 2).detach()
    return d.requires_grad, d.is_leaf, d.grad_fn


@case
def detach_in_place(t):
    y = _leaf(t, 1.0, 2.0) * 2
    y.detach_()
    return y.requires_grad, y.is_leaf, y.grad_fn


@case
def clone_keeps_history(t):
    c = _leaf(t, 1.0).clone()
    return c.requires_grad, c.is_leaf, type(c.grad_fn).__name__


@case
def enable_grad_inside_no_grad(t):
    x = _leaf(t, 1.0)
    with t.no_grad():
        with t.enable_grad():
            y = x * 2
        z = x * 2
    return y.requires_grad, z.requires_grad


@case
def numpy_of_requires_grad(t):
    _leaf(t, 1.0).numpy()


@case
def assign_grad_wrong_size(t):
    x = _leaf(t, 1.0, 1.0)
    x.grad = t.ones(3)


@case
def assign_grad_wrong_dtype(t):
    x = _leaf(t, 1.0, 1.0)
    x.grad = t.ones(2, dtype=t.float64)


@case
def assign_grad_not_a_tensor(t):
    x = _leaf(t, 1.0, 1.0)
    x.grad = 3.0


@case
def assigned_grad_is_accumulated_in_place(t):
    x = _leaf(t, 1.0, 1.0)
    g = t.ones(2)
    x.grad = g
    (x * 2).sum().backward()
    first = x.grad is g
    (x * 2).sum().backward()
    return first, x.grad is g, g


@case
def leaf_stops_requiring_grad_after_graph_was_built(t):
    x = _leaf(t, 1.0, 1.0)
    y = x * 2
    seen = []
    x.register_hook(lambda g: seen.append(g.tolist()))
    x.register_post_accumulate_grad_hook(lambda p: seen.append(p.grad))
    x.requires_grad_(False)
    y.sum().backward()
    return x.grad, seen


@case
def grad_only_inputs_is_deprecated(t):
    x = _leaf(t, 1.0, 1.0)
    return t.autograd.grad((x * 2).sum(), x, only_inputs=False)


@case
def grad_same_input_twice(t):
    x = _leaf(t, 1.0, 1.0)
    h = x * 3
    return t.autograd.grad((h * 2).sum(), [h, h, x])


@case
def grad_of_root_wrt_itself(t):
    h = _leaf(t, 1.0, 1.0) * 3
    return t.autograd.grad(h, h, t.tensor([2.0, 5.0]))


@case
def backward_inside_no_grad(t):
    x = _leaf(t, 1.0, 2.0)
    y = (x * x).sum()
    with t.no_grad():
        y.backward()
    return x.grad


@case
def hooks_see_grad_mode_of_create_graph(t):
    x = _leaf(t, 1.0, 2.0)
    seen = []
    y = x * x
    y.register_hook(lambda g: seen.append((t.is_grad_enabled(), g.requires_grad)))
    y.sum().backward()
    y = x * x
    y.register_hook(lambda g: seen.append((t.is_grad_enabled(), g.requires_grad)))
    t.autograd.grad(y.sum(), x, create_graph=True)
    return seen


@pytest.mark.parametrize("name", CASES, ids=list(CASES))
def test_matches_torch(oracle, name):
    assert plain(outcome(minigrad, CASES[name])) == oracle(lambda torch: outcome(torch,
                                                                                  CASES[name]))


# ---------------------------------------------------------------- spot checks without torch

def test_error_texts_without_torch():
    with pytest.raises(RuntimeError, match="^grad can be implicitly created only for scalar"):
        (_leaf(minigrad, 1.0, 1.0) + 2).backward()
    with pytest.raises(RuntimeError, match="^element 0 of tensors does not require grad and "
                                           "does not have a grad_fn$"):
        (minigrad.ones(2) + 2).backward()
    with pytest.raises(RuntimeError, match=r"^Mismatch in shape: grad_output\[0\] has a shape "
                                           r"of minigrad.Size\(\[3\]\) and output\[0\] has a "
                                           r"shape of minigrad.Size\(\[2\]\).$"):
        (_leaf(minigrad, 1.0, 1.0) * 2).backward(minigrad.ones(3))


def test_retain_graph_accumulates_three_six_nine():
    assert outcome(minigrad, retain_graph_accumulates) == (("ok", (3.0, 6.0, 9.0)), [])


def test_non_leaf_grad_warning_text():
    (_, value), caught = outcome(minigrad, non_leaf_grad_warns)
    assert value is None
    assert caught == [("UserWarning", NON_LEAF_GRAD_WARNING)]
    assert NON_LEAF_GRAD_WARNING.startswith("The .grad attribute of a Tensor that is not a leaf "
                                            "Tensor is being accessed.")
    assert NON_LEAF_GRAD_WARNING.endswith("See github.com/pytorch/pytorch/pull/30531 for more "
                                          "information.")
    assert outcome(minigrad, retained_grad_does_not_warn)[1] == []
    assert outcome(minigrad, assigned_grad_does_not_warn)[1] == []


@pytest.fixture
def fresh_create_graph_warning(monkeypatch):
    monkeypatch.setattr(api, "_warned_create_graph", False)


def test_create_graph_warns_once(fresh_create_graph_warning):
    x = minigrad.tensor([5.0], requires_grad=True)
    with pytest.warns(UserWarning, match="^Using backward\\(\\) with create_graph=True will "
                                         "create a reference cycle") as caught:
        (x * x).backward(create_graph=True)
    assert len(caught) == 1
    assert caught[0].message.args[0] == api.CREATE_GRAPH_WARNING
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        (x * x).backward(create_graph=True)   # once per process, as in PyTorch
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        minigrad.autograd.grad((x * x).sum(), x, create_graph=True)   # grad() never warns


def create_graph_on_backward(t):
    a = t.tensor([5.0], requires_grad=True)
    b = a * a
    b.retain_grad()
    b.backward(create_graph=True)
    first = (a.grad.tolist(), a.grad.requires_grad, a.grad.is_leaf, type(a.grad.grad_fn).__name__,
             b.grad.requires_grad, b.grad.is_leaf)
    (a * a).backward(create_graph=True)
    second = a.grad.tolist(), type(a.grad.grad_fn).__name__
    (g,) = t.autograd.grad(a.grad.sum(), a)   # d(4a)/da through the accumulated grad
    return first, second, g.tolist()


def test_create_graph_makes_leaf_grad_require_grad(oracle):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = oracle(lambda torch: create_graph_on_backward(torch))
        assert plain(create_graph_on_backward(minigrad)) == expected
        first, second, g = create_graph_on_backward(minigrad)
    assert first == ([10.0], True, False, "CopyBackwards", False, True)
    assert second == ([20.0], "AddBackward0")
    assert g == [4.0]


def test_autograd_backward_and_tensor_backward_agree():
    x = minigrad.tensor(2.0, requires_grad=True)
    y = minigrad.tensor(3.0, requires_grad=True)
    z = x ** 2 + y
    minigrad.autograd.backward(z)
    assert (x.grad.item(), y.grad.item()) == (4.0, 1.0)


# ---------------------------------------------------------------- no half-written .grad
#
# NB: PyTorch keeps the gradients written before an error in backward; minigrad restores every
# .grad (leaf and retained) to what it was before the pass.

def _failing_backward(lib, existing=False, retain=False, create_graph=False, fail_in="hook"):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    w = lib.tensor([3.0, 4.0], requires_grad=True)
    if existing:
        x.grad, w.grad = lib.tensor([10.0, 10.0]), lib.tensor([20.0, 20.0])
    h = x * w
    if retain:
        h.retain_grad()
    out = (h * 2).sum()

    def boom(*args):
        raise ValueError("boom")

    if fail_in == "hook":        # AccumulateGrad(x) runs first, then w's hook fails
        w.register_hook(boom)
    elif fail_in == "post_acc":  # fails after w's .grad was written
        w.register_post_accumulate_grad_hook(boom)
    else:                        # fails in the middle of the graph, after h's grad is retained
        h.grad_fn.register_hook(boom)
    before = x.grad, w.grad
    with pytest.raises(ValueError, match="boom"):
        out.backward(create_graph=create_graph)
    return x, w, h, before


@pytest.mark.parametrize("fail_in", ["hook", "post_acc", "node_post_hook"])
@pytest.mark.parametrize("existing", [False, True], ids=["no_grads", "existing_grads"])
@pytest.mark.parametrize("create_graph", [False, True], ids=["", "create_graph"])
def test_error_in_backward_leaves_no_half_written_grad(fail_in, existing, create_graph):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        x, w, h, (x_before, w_before) = _failing_backward(
            minigrad, existing=existing, retain=True, create_graph=create_graph,
            fail_in=fail_in)
    if existing:
        assert x.grad is x_before and w.grad is w_before   # the same tensors ...
        assert x.grad.tolist() == [10.0, 10.0] and w.grad.tolist() == [20.0, 20.0]  # ... values
    else:
        assert x.grad is None and w.grad is None
    assert h.grad is None
    assert minigrad.is_grad_enabled()


def test_torch_keeps_partial_grads_where_minigrad_restores_them(torch):
    x, _, _, _ = _failing_backward(torch, fail_in="hook")
    assert x.grad is not None   # PyTorch: x was accumulated before w's hook failed
    x, _, _, _ = _failing_backward(minigrad, fail_in="hook")
    assert x.grad is None


def test_a_failed_pass_does_not_undo_earlier_passes():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    (x * 3).sum().backward()
    g = x.grad
    x.register_hook(lambda grad: (_ for _ in ()).throw(KeyError("late")))
    with pytest.raises(KeyError):
        (x * 5).sum().backward()
    assert x.grad is g and g.tolist() == [3.0, 3.0]


# ----------------------------------------------------- against torch (parity programs)
def case_grads_batched(torch):
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    y = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    rows = torch.arange(3.0).view(3, 1, 1).expand(3, 2, 2)
    (by_rows,) = torch.autograd.grad(x * x, (x,), (rows,), is_grads_batched=True)
    unused = torch.autograd.grad((x * 2).sum(), (x, y), torch.arange(4.0),
                                 is_grads_batched=True, allow_unused=True)
    zeros = torch.autograd.grad((x * 2).sum(), (x, y), torch.ones(2), is_grads_batched=True,
                                materialize_grads=True)
    return by_rows, unused, zeros


def case_grads_batched_shape_mismatch(torch):
    x = torch.ones(2, 2, requires_grad=True)
    return torch.autograd.grad(x.clone(), (x,), (torch.ones(2, 2),), is_grads_batched=True)


def case_calling_a_node_with_the_wrong_number_of_grads(torch):
    x = torch.ones(1, requires_grad=True)
    y = x ** 2
    errors = []
    for grads in ((x.detach(), x.detach()), ()):
        try:
            y.grad_fn(*grads)
        except TypeError as error:
            errors.append(str(error))
    return errors, y.grad_fn(torch.ones(1))


@pytest.mark.parametrize("prog", programs(globals()), ids=lambda p: p.__name__[5:])
def test_parity(prog, oracle):
    check(prog, oracle)
