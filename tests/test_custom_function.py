"""Custom ``autograd.Function``: the same contract as PyTorch's, checked against torch."""

import warnings

import numpy as np
import pytest
from oracle import plain

import minigrad


def _scale_fn(lib):
    class Scale(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x, k):
            ctx.save_for_backward(x)
            ctx.k = k
            ctx.seen_needs = ctx.needs_input_grad
            return x * k

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return grad * ctx.k, None
    return Scale


def test_custom_function_node_name_and_grad(torch):
    for lib in (minigrad, torch):
        Scale = _scale_fn(lib)
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = Scale.apply(x, 3)
        assert type(y.grad_fn).__name__ == "ScaleBackward"
        assert y.grad_fn.name() == "ScaleBackward"
        assert len(y.grad_fn.next_functions) == 1
        assert y.grad_fn.needs_input_grad == (True, False)
        y.sum().backward()
        assert x.grad.tolist() == [3.0, 3.0]
        assert repr(y).startswith("tensor([3., 6.], grad_fn=<ScaleBackward>")


def test_wrong_number_of_gradients(torch):
    messages = []
    for lib in (minigrad, torch):
        class Short(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x, k):
                return x * k

            @staticmethod
            def backward(ctx, grad):
                return grad, None, None, grad

        x = lib.tensor([1.0], requires_grad=True)
        with pytest.raises(RuntimeError) as info:
            Short.apply(x, 2).sum().backward()
        messages.append(str(info.value))
    assert messages[0] == messages[1]


def _wrong_shape(lib):
    class Bad(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            return lib.ones(5)
    return Bad


def test_wrong_gradient_shape(torch):
    messages = []
    for lib in (minigrad, torch):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        with pytest.raises(RuntimeError) as info:
            _wrong_shape(lib).apply(x).sum().backward()
        messages.append(str(info.value))
    assert messages[0] == messages[1]


def _returning(lib, value):
    """A Function of ``(x, y, k)`` whose backward returns ``value(grad)``."""
    class Returning(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x, y, k):
            return x * y * k

        @staticmethod
        def backward(ctx, grad):
            return value(grad)
    return Returning


BAD_RETURNS = {
    "ellipsis": lambda g: ...,
    "number": lambda g: (g, 3.0, None),
    "list": lambda g: [g, g, None],
    "string": lambda g: "grad",
    "for a number input": lambda g: (g, g, 5),
    "ellipsis for a constant": lambda g: (g, ..., None),
}


@pytest.mark.parametrize("case", BAD_RETURNS, ids=list(BAD_RETURNS))
def test_backward_returning_a_non_tensor_is_torchs_error(torch, case):
    messages = []
    for lib in (minigrad, torch):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = lib.tensor([3.0, 4.0], requires_grad=case != "ellipsis for a constant")
        out = _returning(lib, BAD_RETURNS[case]).apply(x, y, 2)
        with pytest.raises(RuntimeError) as info:
            out.sum().backward()
        messages.append(str(info.value))
        assert x.grad is None
    assert messages[0] == messages[1]


def _two_outputs(lib, seen):
    """``x ↦ (2x, 3x)`` with the second output non-differentiable; backward logs its grad."""
    class Two(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            a, b = x * 2, x * 3
            ctx.mark_non_differentiable(b)
            return a, b

        @staticmethod
        def backward(ctx, ga, gb):
            seen.append(gb.tolist())
            return ga * 2
    return Two


def test_non_differentiable_and_materialized_grads(torch):
    results = []
    for lib in (minigrad, torch):
        seen = []
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        a, b = _two_outputs(lib, seen).apply(x)
        a.sum().backward()
        results.append((a.requires_grad, b.requires_grad, b.grad_fn is None, seen,
                        x.grad.tolist()))
    assert results[0] == results[1]


def _pair_without_materializing(lib, seen):
    """``x ↦ (2x, 3x)`` with ``set_materialize_grads(False)``; backward logs ``gb is None``."""
    class Pair(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, ga, gb):
            seen.append(gb is None)
            return ga * 2
    return Pair


def test_set_materialize_grads_false_passes_none(torch):
    results = []
    for lib in (minigrad, torch):
        seen = []
        x = lib.tensor([1.0], requires_grad=True)
        first, _ = _pair_without_materializing(lib, seen).apply(x)
        first.sum().backward()
        results.append((seen, x.grad.tolist()))
    assert results[0] == results[1]


def test_mark_dirty(torch):
    results = []
    for lib in (minigrad, torch):
        class Double(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                x.mul_(2)
                ctx.mark_dirty(x)
                return x

            @staticmethod
            def backward(ctx, grad):
                return grad * 2

        leaf = lib.tensor([1.0, 2.0], requires_grad=True)
        c = leaf * 1
        d = Double.apply(c)
        d.sum().backward()
        with pytest.raises(RuntimeError) as info:
            Double.apply(lib.tensor([1.0], requires_grad=True))
        results.append((d is c, type(c.grad_fn).__name__, c._version, leaf.grad.tolist(),
                        str(info.value)))
    assert results[0] == results[1]


def test_returning_an_input_gives_a_new_tensor(torch):
    results = []
    for lib in (minigrad, torch):
        class Same(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x

            @staticmethod
            def backward(ctx, grad):
                return grad

        c = lib.tensor([1.0], requires_grad=True) * 1
        e = Same.apply(c)
        results.append((e is c, type(e.grad_fn).__name__))
    assert results[0] == results[1]


def test_no_graph_when_nothing_requires_grad():
    Scale = _scale_fn(minigrad)
    y = Scale.apply(minigrad.tensor([1.0]), 2)
    assert y.grad_fn is None and not y.requires_grad
    with minigrad.no_grad():
        y = Scale.apply(minigrad.tensor([1.0], requires_grad=True), 2)
    assert y.grad_fn is None


def test_custom_relu_with_masked_assignment():
    class MyReLU(minigrad.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x.clamp(min=0)

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            g = grad.clone()
            g[x < 0] = 0
            return g

    x = minigrad.tensor([-1.0, 2.0, -0.5], requires_grad=True)
    y = MyReLU.apply(x)
    y.backward(minigrad.ones(3))
    np.testing.assert_array_equal(x.grad.numpy(), [0.0, 1.0, 0.0])
    assert y.grad_fn.name() == "MyReLUBackward"


def _misuse(lib, mode):
    """A Function that misuses ``ctx`` (or returns a non-tensor) in one of several ways."""
    class Misuse(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            if mode == "dirty not returned":
                x.mul_(2)
                ctx.mark_dirty(x)
                return x * 1
            if mode == "dirty not modified":
                ctx.mark_dirty(x)
                return x * 2
            if mode == "save a number":
                ctx.save_for_backward(x, 3)
            return x * 2, 3, None

        @staticmethod
        def backward(ctx, grad, grad_number, grad_none):
            ctx.seen = (grad_number, grad_none)
            return grad * 2
    return Misuse


MISUSES = ["dirty not returned", "dirty not modified", "save a number"]


@pytest.mark.parametrize("mode", MISUSES)
@pytest.mark.parametrize("requires_grad", [True, False])
def test_ctx_misuse_is_torchs_error(torch, mode, requires_grad):
    outcomes = []
    for lib in (minigrad, torch):
        x = lib.ones(3, requires_grad=requires_grad) * 1
        try:
            _misuse(lib, mode).apply(x)
            outcomes.append(None)
        except (RuntimeError, TypeError) as error:
            outcomes.append((type(error), str(error)))
    assert outcomes[0] == outcomes[1]
    assert mode == "save a number" and not requires_grad or outcomes[0] is not None


def test_mark_dirty_on_a_non_input_warns_like_torch(torch):
    messages = []
    for lib in (minigrad, torch):
        class Fresh(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                t = x.detach() * 1
                ctx.mark_dirty(t)
                return t

            @staticmethod
            def backward(ctx, grad):
                return grad
        with pytest.warns(UserWarning) as record:
            Fresh.apply(lib.ones(3, requires_grad=True))
        messages.append(str(record[0].message).split(" (Triggered")[0])
    assert messages[0] == messages[1]


def test_non_tensor_outputs_pass_through_and_get_no_gradient(torch):
    results = []
    for lib in (minigrad, torch):
        Misuse = _misuse(lib, "plain")
        x = lib.ones(3, requires_grad=True)
        y, number, nothing = Misuse.apply(x)
        y.sum().backward()
        with lib.no_grad():
            plain = Misuse.apply(x)[1]
        results.append((number, nothing, plain, y.grad_fn.seen, x.grad.tolist()))
    assert results[0] == results[1] == (3, None, 3, (None, None), [2.0, 2.0, 2.0])


def test_unimplemented_and_legacy_use_are_torchs_errors(torch):
    outcomes = []
    for lib in (minigrad, torch):
        class Empty(lib.autograd.Function):
            pass
        seen = []
        with pytest.raises(NotImplementedError) as info:
            Empty.apply(lib.ones(1, requires_grad=True))
        seen.append(str(info.value))
        with pytest.raises(NotImplementedError) as info:
            Empty.backward(None, None)
        seen.append(str(info.value))
        with pytest.warns(DeprecationWarning) as record:
            instance = Empty()
        seen.append(str(record[0].message))
        with pytest.raises(RuntimeError) as info:
            instance(lib.ones(1))
        seen.append(str(info.value))
        outcomes.append(seen)
    assert outcomes[0] == outcomes[1]


# ---------------------------------------------------------------- raw saved tensors, saved once
def _raw_saved_story(lib):
    """What ``_raw_saved_tensors`` of a custom Function's node gives, and what its entries
    accept, before and after backward frees them."""
    def attempt(fn):
        try:
            fn()
            return "ok"
        except (RuntimeError, TypeError) as error:
            return [type(error).__name__, str(error).split("\n")[0]]

    class KeepTwo(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x, None)
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            return grad * 2

    class KeepNone(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            return grad * 2

    x = lib.ones(3, requires_grad=True)
    y = KeepTwo.apply(x)
    raw = y.grad_fn._raw_saved_tensors
    story = [len(raw), attempt(lambda: raw[1].register_hooks(lambda t: t, lambda t: t)),
             attempt(lambda: raw[0].register_hooks(lambda t: t)),
             attempt(lambda: raw[0].register_hooks(1, 2)),
             attempt(lambda: raw[0].register_hooks(lambda t: t * 1, lambda t: t)),
             attempt(lambda: raw[0].register_hooks(lambda t: t, lambda t: t))]
    y.sum().backward()
    story += [attempt(lambda: y.grad_fn._raw_saved_tensors),
              attempt(lambda: y.grad_fn.saved_tensors), x.grad]
    story.append(len(KeepNone.apply(x).grad_fn._raw_saved_tensors))
    return story


def test_raw_saved_tensors_of_a_custom_function(oracle):
    assert plain(_raw_saved_story(minigrad)) == oracle(_raw_saved_story)


def _saved_once_story(lib, reads):
    """``clear_saved_tensors_on_access = True``: backward may read ``saved_tensors`` once, and
    then holds the only reference to what it read."""
    import gc
    import weakref
    seen = []

    class Once(lib.autograd.Function):
        clear_saved_tensors_on_access = True

        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * 3

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            for _ in range(reads - 1):
                (x,) = ctx.saved_tensors
            alive = weakref.ref(x)
            del x
            gc.collect()
            seen.append(alive() is None)
            return grad * 3

    leaf = lib.ones(2, requires_grad=True)
    out = Once.apply(leaf * 1)  # the saved input is an intermediate only the node keeps
    try:
        out.sum().backward()
    except RuntimeError as error:
        seen.append(str(error))
    return seen + [leaf.grad]


@pytest.mark.parametrize("reads", [1, 2])
def test_saved_tensors_cleared_on_access(oracle, reads):
    assert plain(_saved_once_story(minigrad, reads)) == oracle(
        lambda torch: _saved_once_story(torch, reads))


# ---------------------------------------------------------------- mark_dirty: more of torch's
def _dirty_story(lib):
    """mark_dirty on a tensor that is not an input (a view of an intermediate is refused when
    autograd records the call) and on inputs that are views of several kinds."""
    def dirty(body):
        class Dirty(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                out = body(x)
                ctx.mark_dirty(out)
                return out

            @staticmethod
            def backward(ctx, grad):
                return grad
        return Dirty

    leaf = lib.tensor([1.0, 2.0], requires_grad=True)
    cases = {
        "view-of-intermediate": lambda: dirty(lambda x: x.clone().view_as(x)).apply(leaf * 1),
        "view-untracked": lambda: dirty(lambda x: x.clone().view_as(x)).apply(lib.ones(2)),
        "one-of-several": lambda: dirty(lambda x: x.add_(1)).apply(leaf.split([1, 1])[0]),
        "one-of-several-nonleaf": lambda: dirty(lambda x: x.add_(1)).apply(
            (leaf * 1).unbind()[1]),
        "view-of-leaf": lambda: dirty(lambda x: x.add_(1)).apply(leaf.view_as(leaf)),
        "view-of-nonleaf": lambda: dirty(lambda x: x.add_(1)).apply((leaf * 1)[1:]),
    }
    story = {}
    for name, run in cases.items():
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                out = run()
                story[name] = [out.requires_grad, type(out.grad_fn).__name__]
            except RuntimeError as error:
                story[name] = str(error)
        story[name + " warnings"] = len([w for w in caught if "mark_dirty" in str(w.message)])
    return story


def test_mark_dirty_checks(oracle):
    assert plain(_dirty_story(minigrad)) == oracle(_dirty_story)


def _dirty_jvp_story(lib, changes_tangent, requires_grad):
    """An in-place custom Function's jvp must change the input's tangent in place, and the
    output (the input itself) then keeps that very tangent object."""
    fw = lib.autograd.forward_ad

    class Double(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_dirty(x)
            return x.mul_(2)

        @staticmethod
        def backward(ctx, grad):
            return grad * 2

        @staticmethod
        def jvp(ctx, tangent):
            return tangent.mul_(2) if changes_tangent else tangent

    x = lib.tensor([1.0, 3.0], requires_grad=requires_grad).clone()
    with fw.dual_level():
        tangent = lib.ones(2)
        dual = fw.make_dual(x, tangent)
        try:
            out = Double.apply(dual)
        except RuntimeError as error:
            return str(error)
        kept = fw.unpack_dual(out).tangent
        return [out is dual, kept is tangent, kept, out]


@pytest.mark.parametrize("changes_tangent", [True, False])
@pytest.mark.parametrize("requires_grad", [True, False])
def test_inplace_function_jvp_changes_the_tangent_in_place(oracle, changes_tangent,
                                                            requires_grad):
    assert plain(_dirty_jvp_story(minigrad, changes_tangent, requires_grad)) == oracle(
        lambda torch: _dirty_jvp_story(torch, changes_tangent, requires_grad))
