"""``saved_tensors_hooks``, ``disable_saved_tensors_hooks`` and ``register_multi_grad_hook``
against torch: what the hooks see, when they run, and the values and errors that follow."""

import numpy as np
import pytest
from oracle import assert_matches, plain
from parity_programs import check, programs

import minigrad


def values(grads):
    return [None if g is None else g.tolist() for g in grads]


# ----------------------------------------------------------------------------- saved tensors
def pack_unpack_log(lib):
    log = []

    def pack(t):
        log.append(("pack", tuple(t.shape), t.requires_grad,
                    t.grad_fn.name() if t.grad_fn else None, lib.is_grad_enabled()))
        return t.detach().clone()

    def unpack(packed):
        log.append(("unpack", lib.is_grad_enabled()))
        return packed

    x = lib.tensor([1.0, 2.0], requires_grad=True)
    with lib.autograd.graph.saved_tensors_hooks(pack, unpack):
        y = x.exp()
        z = x * x
    log.append("forward done")
    result = y.grad_fn._saved_result
    log.append(("result", result.grad_fn is y.grad_fn, result.requires_grad,
                np.round(result.tolist(), 5).tolist()))
    log.append(("same object twice", z.grad_fn._saved_self is z.grad_fn._saved_other))
    (y.sum() + z.sum()).backward()
    log.append(("grad", np.round(x.grad.tolist(), 5).tolist()))
    return log


@pytest.mark.torch
def test_pack_and_unpack_run_as_in_torch(torch):
    log = pack_unpack_log(minigrad)
    assert log == pack_unpack_log(torch)
    assert log[:3] == [("pack", (2,), True, "ExpBackward0", False),  # pack runs under no_grad
                       ("pack", (2,), True, None, False), ("pack", (2,), True, None, False)]


def double_backward_through_hooks(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True, dtype=lib.float64)
    with lib.autograd.graph.saved_tensors_hooks(lambda t: t.detach(), lambda t: t):
        a = x * 3
        y = (a.sin() * x.exp()).sum()
    (g,) = lib.autograd.grad(y, x, create_graph=True)
    g.sum().backward()
    saved = a.grad_fn.next_functions  # a's node is unchanged
    return x.grad.tolist(), len(saved)


@pytest.mark.torch
def test_unpacked_tensors_are_put_back_in_the_graph(torch):
    """``pack_hook`` detaches, yet double backward works: the unpacked tensor gets the saved
    tensor's place in the graph back (grad_fn, or the leaf's AccumulateGrad)."""
    mine, theirs = double_backward_through_hooks(minigrad), double_backward_through_hooks(torch)
    np.testing.assert_allclose(mine[0], theirs[0], rtol=1e-12)
    for lib in (torch, minigrad):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        with lib.autograd.graph.saved_tensors_hooks(lambda t: t.detach(), lambda t: t):
            leaf_saved = x.sin()
            a = x * 3
            inner_saved = a.sin()
        s = leaf_saved.grad_fn._saved_self
        assert (s.is_leaf, s.requires_grad, s.grad_fn) == (True, True, None)
        s = inner_saved.grad_fn._saved_self
        assert (s.is_leaf, s.requires_grad, s.grad_fn) == (False, True, a.grad_fn)


def custom_function_saves(lib):
    log = []

    class Square(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = x * x
            ctx.save_for_backward(x, y)
            return y

        @staticmethod
        def backward(ctx, grad):
            x, y = ctx.saved_tensors
            log.append(("backward", x.requires_grad, y.requires_grad, y.grad_fn is not None))
            return 2 * x * grad

    x = lib.tensor([1.0, 2.0], requires_grad=True)
    with lib.autograd.graph.saved_tensors_hooks(lambda t: log.append("pack") or t.detach(),
                                                lambda t: log.append("unpack") or t):
        y = Square.apply(x)
    y.sum().backward()
    return log, x.grad.tolist()


@pytest.mark.torch
def test_hooks_see_what_a_custom_function_saves(torch):
    assert custom_function_saves(minigrad) == custom_function_saves(torch) == (
        ["pack", "pack", "unpack", "unpack", ("backward", True, True, True)], [2.0, 4.0])


@pytest.mark.torch
def test_no_version_check_with_hooks(torch):
    """With hooks, the saved tensor is whatever unpack_hook returns: no version check."""
    grads = []
    for lib in (torch, minigrad):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        with lib.autograd.graph.saved_tensors_hooks(lambda t: t.detach().clone(), lambda t: t):
            a = x * 1
            y = a.sin()
        a.add_(1)
        y.sum().backward()
        grads.append(x.grad.tolist())
    np.testing.assert_allclose(grads[1], grads[0], rtol=1e-6)


@pytest.mark.torch
def test_unpack_hook_must_return_a_tensor(torch):
    errors = []
    for lib in (torch, minigrad):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        with lib.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: 3):
            y = x.exp()
        with pytest.raises(TypeError) as info:
            y.sum().backward()
        errors.append(str(info.value))
    assert errors[0] == errors[1] == ("Output of saved tensor unpack_hook expected to be a "
                                      "Tensor but got result of type int")


@pytest.mark.torch
def test_the_innermost_hooks_win_and_freed_tensors_stay_freed(torch):
    for lib in (torch, minigrad):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        graph = lib.autograd.graph
        with graph.saved_tensors_hooks(lambda t: ("outer", t), lambda p: p[1] * 0):
            with graph.saved_tensors_hooks(lambda t: ("inner", t), lambda p: p[1]):
                y = x.exp()
            z = x.exp()
        y.sum().backward(retain_graph=True)
        assert x.grad.tolist() == pytest.approx(np.exp([1.0, 2.0]).tolist())
        z.sum().backward()
        assert x.grad.tolist() == pytest.approx(np.exp([1.0, 2.0]).tolist())  # outer: times 0
        with pytest.raises(RuntimeError, match="^Trying to backward through the graph a second"):
            _ = z.grad_fn._saved_result


@pytest.mark.torch
def test_disable_saved_tensors_hooks(torch):
    for lib in (torch, minigrad):
        graph = lib.autograd.graph
        with graph.disable_saved_tensors_hooks("no hooks here"):
            with pytest.raises(RuntimeError, match="^no hooks here$"):
                with graph.saved_tensors_hooks(lambda t: t, lambda t: t):
                    pass
            with graph.disable_saved_tensors_hooks("nested"):
                with pytest.raises(RuntimeError, match="^nested$"):
                    graph.saved_tensors_hooks(lambda t: t, lambda t: t).__enter__()
            with pytest.raises(RuntimeError, match="^no hooks here$"):  # restored
                graph.saved_tensors_hooks(lambda t: t, lambda t: t).__enter__()
        with graph.saved_tensors_hooks(lambda t: t, lambda t: t):  # enabled again
            with pytest.raises(RuntimeError, match="^hooks are active$"):
                with graph.disable_saved_tensors_hooks("hooks are active"):
                    pass
            with graph.saved_tensors_hooks(lambda t: t, lambda t: t):
                pass


# ----------------------------------------------------------------------------- multi grad hook
def multi_grad_log(lib):
    a = lib.tensor([1.0, 2.0], requires_grad=True)
    b = lib.tensor([3.0, 4.0], requires_grad=True)
    c = a * b
    d = a * b
    log = []
    register = lib.autograd.graph.register_multi_grad_hook
    handle = register((a, b, c, d), lambda grads: log.append(("all", values(grads))))
    c.register_hook(lambda g: log.append(("c", g.tolist())))
    a.register_hook(lambda g: log.append(("a", g.tolist())))
    c.sum().backward(retain_graph=True)
    log.append("backward(inputs=(a,))")
    c.sum().backward(inputs=(a,), retain_graph=True)
    log.append("grad(c.sum(), [c])")
    lib.autograd.grad(c.sum(), [c], retain_graph=True)
    log.append("grad(c.sum(), [a])")
    with pytest.raises(RuntimeError) as info:
        lib.autograd.grad(c.sum(), [a], retain_graph=True)
    log.append(str(info.value))
    log.append("any")
    handle_any = register((a, b, c), lambda g: log.append(("any", g.tolist())), mode="any")
    (c.sum() + d.sum()).backward(retain_graph=True)
    log.append("removed")
    handle.remove()
    handle_any.remove()
    c.sum().backward(retain_graph=True)
    return log


@pytest.mark.torch
def test_multi_grad_hook_calls_and_order_match_torch(torch):
    log = multi_grad_log(minigrad)
    assert log == multi_grad_log(torch)
    assert log[:3] == [("c", [1.0, 1.0]), ("a", [3.0, 4.0]),
                       ("all", [[3.0, 4.0], [1.0, 2.0], [1.0, 1.0], None])]


@pytest.mark.torch
def test_multi_grad_hook_bad_input(torch):
    for lib in (torch, minigrad):
        a = lib.tensor([1.0], requires_grad=True)
        register = lib.autograd.graph.register_multi_grad_hook
        with pytest.raises(ValueError, match=r"^Expects mode to be one of \('all', 'any'\) but "
                                             r"got x$"):
            register((a,), print, mode="x")
        with pytest.raises(AssertionError, match="^Expected gradient function to be set$"):
            register((a, lib.tensor([1.0])), print)
        handle = register((a, lib.tensor([1.0])), print, mode="any")  # skips that tensor
        assert isinstance(handle, lib.autograd.graph.RemovableHandle)


def after_a_tensor_hook(lib):
    a = lib.tensor([1.0, 2.0], requires_grad=True)
    seen = []
    a.register_hook(lambda g: g * 100)
    lib.autograd.graph.register_multi_grad_hook((a,), lambda grads: seen.append(values(grads)))
    (a * 2).sum().backward()
    return seen


@pytest.mark.torch
def test_multi_grad_hook_sees_what_earlier_tensor_hooks_returned(torch):
    assert after_a_tensor_hook(minigrad) == after_a_tensor_hook(torch) == [[[200.0, 200.0]]]


# ----------------------------------------------------------------------------- per thread
def hooks_seen_by_another_thread(lib):
    """Open each graph-wide block in the main thread, and look from a real second thread:
    does that thread's saving see the hooks, may it open blocks of its own?"""
    import threading

    graph = lib.autograd.graph
    seen = {}

    def other(name):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        (x * x).sum()
        for block, opened in (("hooks", lambda: graph.saved_tensors_hooks(id, id)),
                              ("mutation", graph.allow_mutation_on_saved_tensors)):
            try:
                with opened():
                    seen[f"{name} {block}"] = "opened"
            except RuntimeError as error:
                seen[f"{name} {block}"] = str(error)

    def in_thread(name):
        thread = threading.Thread(target=other, args=(name,))
        thread.start()
        thread.join()

    packed_by = []
    with graph.saved_tensors_hooks(lambda t: packed_by.append("packed") or t, lambda t: t):
        in_thread("under saved_tensors_hooks")
    with graph.disable_saved_tensors_hooks("disabled here"):
        in_thread("under disable_saved_tensors_hooks")
    with graph.allow_mutation_on_saved_tensors():
        in_thread("under allow_mutation_on_saved_tensors")
    seen["packs in main thread's hooks"] = len(packed_by)
    return seen


def test_saved_tensor_hooks_are_per_thread(oracle):
    expected = oracle(hooks_seen_by_another_thread)
    assert hooks_seen_by_another_thread(minigrad) == expected


def saved_tensor_counts(lib):
    """How many tensors each op hands to pack_hook, and the _saved_ names its node lists."""
    F = lib.nn.functional
    x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    logits = lib.tensor([[1.0, 2.0, 0.5], [0.1, 0.2, 0.3]], requires_grad=True)
    programs = {
        "2 ** x": lambda: 2 ** x, "x * 2": lambda: x * 2, "2 / x": lambda: 2 / x,
        "x / 2": lambda: x / 2, "where": lambda: lib.where(x > 1, x, 0.0),
        "cross_entropy": lambda: F.cross_entropy(logits, lib.tensor([0, 2])),
    }
    counts = {}
    for name, program in programs.items():
        packed = []
        with lib.autograd.graph.saved_tensors_hooks(lambda t, p=packed: p.append(t.shape) or t,
                                                    lambda t: t):
            out = program()
        names = sorted(a for a in dir(out.grad_fn) if a.startswith("_raw_saved_"))
        counts[name] = [len(packed), names]
    return counts


def test_saved_tensor_counts_are_torchs(oracle):
    expected = oracle(saved_tensor_counts)
    assert saved_tensor_counts(minigrad) == expected


def test_saved_values_of_pow_where_nll_loss(oracle):
    def saved(lib):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        pow_node = (2 ** x).grad_fn
        where_node = lib.where(x > 1, x, 0.0).grad_fn
        logits = lib.tensor([[1.0, 2.0, 0.5], [0.1, 0.2, 0.3]], requires_grad=True)
        nll = lib.nn.functional.cross_entropy(logits, lib.tensor([0, 2])).grad_fn
        return [pow_node._saved_self, pow_node._saved_exponent, pow_node._saved_result,
                where_node._saved_condition, nll._saved_target, nll._saved_total_weight,
                nll._saved_weight]

    assert_matches(saved(minigrad), oracle(saved), rtol=1e-6)


def case_unpack_hook_leaving_its_block_during_backward(torch):
    def unpack(x):
        inner.__exit__()
        return x

    inner = torch.autograd.graph.saved_tensors_hooks(lambda x: x, unpack)
    outer = torch.autograd.graph.saved_tensors_hooks(lambda x: x, lambda x: x)
    for _ in range(3):
        with outer:
            inner.__enter__()
            x = torch.tensor([1.0, 2.0], requires_grad=True)
            x.sin().sum().backward()
    for _ in range(3):
        inner.__exit__()
    y = torch.tensor(1.0, requires_grad=True).exp()
    y.grad_fn._raw_saved_result.register_hooks(lambda x: x, lambda x: x)  # stack is empty again
    return x.grad


def case_unpack_hook_entering_a_block_does_not_keep_it(torch):
    import gc
    import weakref

    def scope():
        def unpack(x):
            weak_block().__enter__()
            return x

        block = torch.autograd.graph.saved_tensors_hooks(lambda x: x, unpack)
        weak_block = weakref.ref(block)
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        with block:
            x.sin().sum().backward()
        return weakref.ref(unpack)

    gc.disable()
    try:
        return scope()() is None
    finally:
        gc.enable()


@pytest.mark.parametrize("prog", programs(globals()), ids=lambda p: p.__name__[5:])
def test_parity(prog, oracle):
    check(prog, oracle)


def _pack_hook_changes_input(lib, how):
    """A pack hook may not change the tensor it is given in place (both ways of installing
    one), as PyTorch checks."""
    def doubling(t):
        t *= 2
        return t

    a = lib.ones(3, requires_grad=True)
    try:
        if how == "register_hooks":
            out = a * a
            out.grad_fn._raw_saved_self.register_hooks(doubling, lambda t: t)
        else:
            with lib.autograd.graph.saved_tensors_hooks(doubling, lambda t: t):
                out = (a + 1) * a
        return ["no error", a]
    except RuntimeError as error:
        return [str(error), a]


@pytest.mark.parametrize("how", ["register_hooks", "context"])
def test_pack_hook_may_not_change_its_input(oracle, how):
    assert plain(_pack_hook_changes_input(minigrad, how)) == oracle(
        lambda torch: _pack_hook_changes_input(torch, how))
