"""Forward-mode AD (``minigrad.autograd.forward_ad``) against ``torch.autograd.forward_ad``.

Every op of the registry and every op family of ``op_families`` is run on dual tensors with
random tangents in both libraries; the tangents of the outputs must agree. Then the API itself:
levels, ``make_dual`` / ``unpack_dual``, PyTorch's errors, custom Functions, and the promise
that outside a dual level ``Function.apply`` does no forward-mode work at all.
"""

import numpy as np
import pytest
from op_families import FAMILIES
from op_registry import all_cases
from oracle import plain

import minigrad
import minigrad.autograd.forward_ad as fwAD

CASES = [c for c in all_cases() + FAMILIES if c.check_grad]


def _tangents_of(lib, case, arrays, seed=3):
    """Primal and tangent values of every float output, from dual inputs with random tangents."""
    fw = lib.autograd.forward_ad
    rng = np.random.default_rng(seed)
    grad_args = case.grad_args if case.grad_args is not None else range(len(arrays))
    with fw.dual_level():
        inputs = []
        for i, a in enumerate(arrays):
            t = lib.tensor(a, dtype=lib.float64)
            if i in grad_args:
                t = fw.make_dual(t, lib.tensor(rng.normal(size=a.shape), dtype=lib.float64))
            inputs.append(t)
        out = case.fn(lib, *inputs)
        outs = out if isinstance(out, (tuple, list)) else (out,)
        result = []
        for o in outs:
            if not o.is_floating_point():
                continue
            primal, tangent = fw.unpack_dual(o)
            result.append((np.asarray(primal.tolist()),
                           None if tangent is None else np.asarray((tangent + 0).tolist())))
    return result


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_tangents_match_torch(case, oracle):
    arrays = case.make(np.random.default_rng(0))
    mine = _tangents_of(minigrad, case, arrays)
    ref = oracle(lambda torch: _tangents_of(torch, case, arrays))
    assert len(mine) == len(ref)
    for (p, t), (rp, rt) in zip(mine, ref):
        np.testing.assert_allclose(p, rp, rtol=1e-6, atol=1e-12)
        if rt is None:
            assert t is None or not np.any(t)
            continue
        assert t is not None, "no tangent where torch has one"
        np.testing.assert_allclose(t, rt, rtol=1e-7, atol=1e-10)


@pytest.mark.parametrize("case", [c for c in CASES if len(c.make(np.random.default_rng(0))) == 1
                                  and c.grad_args is None][:12],
                         ids=lambda c: c.name)
def test_tangent_is_the_directional_derivative(case):
    """J·t from forward mode equals the central difference (f(x + εt) - f(x - εt)) / 2ε."""
    (x,) = case.make(np.random.default_rng(0))
    t = np.random.default_rng(1).normal(size=x.shape)
    ((_, tangent),) = _tangents_of(minigrad, case, [x], seed=1)[:1]
    eps = 1e-6

    def f(v):
        out = case.fn(minigrad, minigrad.tensor(v, dtype=minigrad.float64))
        out = out[0] if isinstance(out, (tuple, list)) else out
        return out.detach().numpy()
    np.testing.assert_allclose(tangent, (f(x + eps * t) - f(x - eps * t)) / (2 * eps),
                               rtol=1e-5, atol=1e-7)


# ---------------------------------------------------------------------------- the API
def _error(fn):
    try:
        fn()
    except Exception as error:  # noqa: BLE001 - the type is part of what is compared
        return type(error).__name__, str(error)
    return None


@pytest.mark.parametrize("name", ["outside-level", "size", "int-primal", "int-tangent",
                                  "nested", "dual-of-dual", "unpack-number"])
def test_errors_match_torch(name, torch):
    def attempt(lib):
        fw = lib.autograd.forward_ad
        p = lib.zeros(3, dtype=lib.float64)
        if name == "outside-level":
            return _error(lambda: fw.make_dual(p, lib.ones(3, dtype=lib.float64)))
        with fw.dual_level():
            if name == "size":
                return _error(lambda: fw.make_dual(p, lib.ones(2, dtype=lib.float64)))
            if name == "int-primal":
                return _error(lambda: fw.make_dual(lib.arange(3), lib.arange(3)))
            if name == "int-tangent":
                return _error(lambda: fw.make_dual(p, lib.arange(3)))
            if name == "nested":
                return _error(lambda: fw.dual_level().__enter__())
            if name == "dual-of-dual":
                x = fw.make_dual(p, lib.ones(3, dtype=lib.float64))
                return _error(lambda: fw.make_dual(x, lib.ones(3, dtype=lib.float64)))
            return _error(lambda: fw.unpack_dual(1.0))
    mine, ref = attempt(minigrad), attempt(torch)
    assert mine is not None and mine[0] == ref[0]
    assert mine[1] == ref[1].replace("torch.", "minigrad.")


def test_unpack_dual_is_a_named_tuple_and_tangents_end_with_the_level():
    p, t = minigrad.tensor([1.0, 2.0]), minigrad.tensor([0.5, -1.0])
    with fwAD.dual_level() as level:
        assert level == 0
        x = fwAD.make_dual(p, t)
        unpacked = fwAD.unpack_dual(x)
        assert isinstance(unpacked, fwAD.UnpackedDualTensor)
        assert unpacked._fields == ("primal", "tangent")
        primal, tangent = unpacked
        assert tangent is t and unpacked.tangent is t
        assert primal is not p and primal.tolist() == [1.0, 2.0]
        assert fwAD.unpack_dual(primal).tangent is None       # the primal carries no tangent
        assert fwAD.unpack_dual(p).tangent is None            # nor does the original
        y = x * 3
    assert fwAD.unpack_dual(x).tangent is None and fwAD.unpack_dual(y).tangent is None
    assert fwAD.unpack_dual(y, level=0).tangent is None
    assert fwAD._active is False


def test_enter_and_exit_dual_level_functions():
    level = fwAD.enter_dual_level()
    try:
        x = fwAD.make_dual(minigrad.tensor(1.0), minigrad.tensor(2.0), level=level)
        assert fwAD.unpack_dual(x.exp(), level=level).tangent.item() == pytest.approx(2 * np.e)
    finally:
        fwAD.exit_dual_level(level=level)
    with pytest.raises(RuntimeError, match="Dual level must be a positive number."):
        fwAD.exit_dual_level()


@pytest.mark.parametrize("mode", ["no_grad", "detach", "argmax", "comparison", "sign"])
def test_which_results_carry_a_tangent_matches_torch(mode, oracle):
    def run(lib):
        fw = lib.autograd.forward_ad
        with fw.dual_level():
            x = fw.make_dual(lib.tensor([0.5, -1.0, 2.0], dtype=lib.float64),
                             lib.tensor([1.0, 2.0, 3.0], dtype=lib.float64))
            if mode == "no_grad":
                with lib.no_grad():
                    y = x * 2
            elif mode == "detach":
                y = x.detach()
            elif mode == "argmax":
                y = x.argmax()
            elif mode == "comparison":
                y = x > 0
            else:
                y = x.sign()
            tangent = fw.unpack_dual(y).tangent
            return None if tangent is None else (tangent + 0).tolist()
    assert plain(run(minigrad)) == oracle(lambda torch: run(torch))


def test_reverse_over_forward_matches_torch(torch):
    """The tangent of a primal that requires grad is differentiable (a mixed second derivative)."""
    def run(lib):
        fw = lib.autograd.forward_ad
        p = lib.tensor([0.3, -0.8, 1.5], dtype=lib.float64, requires_grad=True)
        v = lib.tensor([1.0, -2.0, 0.5], dtype=lib.float64)
        with fw.dual_level():
            x = fw.make_dual(p, v)
            assert x.requires_grad
            y = (x.sin() * x.exp()).sum()
            tangent = fw.unpack_dual(y).tangent
            assert tangent.requires_grad
            (g,) = lib.autograd.grad(tangent, p)      # Hessian · v
        return tangent.item(), g.tolist()
    mine, ref = run(minigrad), run(torch)
    assert mine[0] == pytest.approx(ref[0], rel=1e-12)
    np.testing.assert_allclose(mine[1], ref[1], rtol=1e-12)


@pytest.mark.parametrize("f", [lambda x: x.exp().sum(), lambda x: x.tanh().sum(),
                               lambda x: (x.sigmoid() * x.sin()).sum(),
                               lambda x: x.softmax(0).log().sum() * x.sum()],
                         ids=["exp", "tanh", "sigmoid-sin", "softmax"])
def test_forward_over_reverse_gives_hessian_vector_products(f, torch):
    """The tangent of a gradient computed with create_graph=True is H·v."""
    def run(lib):
        fw = lib.autograd.forward_ad
        p = lib.tensor([0.3, -1.2, 2.0], dtype=lib.float64, requires_grad=True)
        v = lib.tensor([1.0, 0.5, -1.0], dtype=lib.float64)
        with fw.dual_level():
            x = fw.make_dual(p, v)
            (g,) = lib.autograd.grad(f(x), x, create_graph=True)
            return (fw.unpack_dual(g).tangent + 0).tolist()
    np.testing.assert_allclose(run(minigrad), run(torch), rtol=1e-10)


def test_custom_function_with_jvp_matches_torch(torch):
    def make(lib):
        class Cube(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.x = x.detach()
                return x ** 3

            @staticmethod
            def backward(ctx, grad):
                return 3 * ctx.x ** 2 * grad

            @staticmethod
            def jvp(ctx, tangent):
                return 3 * ctx.x ** 2 * tangent
        return Cube

    def run(lib):
        fw = lib.autograd.forward_ad
        with fw.dual_level():
            x = fw.make_dual(lib.tensor([1.0, -2.0]), lib.tensor([1.0, 0.5]))
            return fw.unpack_dual(make(lib).apply(x) * 2).tangent.tolist()
    assert run(minigrad) == run(torch) == [6.0, 12.0]


def test_custom_function_without_jvp_raises_torchs_error():
    class Double(minigrad.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            return grad * 2

    with fwAD.dual_level():
        x = fwAD.make_dual(minigrad.tensor([1.0]), minigrad.tensor([1.0]))
        with pytest.raises(NotImplementedError, match="You must implement the jvp function for "
                                                      "custom autograd.Function to use it with "
                                                      "forward mode AD."):
            Double.apply(x)
    assert Double.apply(minigrad.tensor([1.0])).tolist() == [2.0]  # fine outside a level


def test_in_place_ops_move_the_tangent(torch):
    def run(lib):
        fw = lib.autograd.forward_ad
        with fw.dual_level():
            x = fw.make_dual(lib.tensor([1.0, 2.0, 3.0]), lib.tensor([1.0, 1.0, 1.0]))
            y = x.clone()
            y.mul_(3).add_(x)
            y[0] = x[1] * 5
            return fw.unpack_dual(y).tangent.tolist()
    assert run(minigrad) == run(torch) == [5.0, 4.0, 4.0]


def test_no_forward_work_outside_a_dual_level(monkeypatch):
    """Outside a level ``Function.apply`` only tests a flag: propagation is never entered."""
    def fail(*args):
        raise AssertionError("forward AD ran outside a dual level")
    monkeypatch.setattr(fwAD, "propagate", fail)
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    ((x * x).exp().sum() / 2).backward()
    assert fwAD._active is False and x.grad is not None


def test_scratch_graphs_are_hidden_from_observers():
    from minigrad.autograd import observe
    events = []

    def observer(kind, **fields):
        events.append((kind, fields.get("node")))
    observe.add_observer(observer)
    try:
        with fwAD.dual_level():
            x = fwAD.make_dual(minigrad.tensor([1.0, 2.0]), minigrad.tensor([1.0, 1.0]))
            x.sin()
    finally:
        observe.remove_observer(observer)
    assert [kind for kind, _ in events] == []   # nothing recorded: no input requires grad


def _dual(lib, values, tangent):
    fw = lib.autograd.forward_ad
    return fw.make_dual(lib.tensor(values, dtype=lib.float64),
                        lib.tensor(tangent, dtype=lib.float64))


VIEW_WRITES = {
    "mul_": lambda lib, a, d: a[1:].mul_(d),
    "add_": lambda lib, a, d: a[1:].add_(d),
    "copy_": lambda lib, a, d: a[1:].copy_(d),
    "setitem": lambda lib, a, d: a.__setitem__(slice(1, None), d),
    "setitem-on-a-view": lambda lib, a, d: a[1:].__setitem__(0, d[0]),
    "fill_-0d-view": lambda lib, a, d: a[0].fill_(d[1]),
    "column-of-transpose": lambda lib, a, d: a.view(3, 1).t()[0, 1:].add_(d),
    "twice": lambda lib, a, d: (a[1:].mul_(d), a[:2].add_(d), a[a > 1.5].zero_()),
    "plain-into-dual": lambda lib, a, d: (a.copy_(_dual(lib, [1.0, 2.0, 3.0], [1.0, 2.0, 3.0])),
                                          a[1:].copy_(lib.ones(2, dtype=lib.float64))),
    "base-of-dual-view": lambda lib, a, d: (a.copy_(_dual(lib, [1.0, 2.0, 3.0], [1.0, 2.0, 3.0])),
                                            a.mul_(2)),
}


@pytest.mark.parametrize("requires_grad", [False, True], ids=["no-grad", "requires-grad"])
@pytest.mark.parametrize("write", list(VIEW_WRITES), ids=list(VIEW_WRITES))
def test_in_place_op_on_a_view_gives_the_base_a_tangent(write, requires_grad, oracle):
    """In PyTorch the tangent of a view is a view of its base's tangent: writing a dual value
    through a view of a plain tensor gives the base a tangent (zero elsewhere), and every view
    of the base, made before or after, sees it."""
    def run(lib):
        fw = lib.autograd.forward_ad
        with fw.dual_level():
            a = lib.zeros(3, dtype=lib.float64)
            before = a[:2]
            primal = lib.tensor([2.0, 3.0], dtype=lib.float64, requires_grad=requires_grad)
            d = fw.make_dual(primal, lib.tensor([1.0, 10.0], dtype=lib.float64))
            VIEW_WRITES[write](lib, a, d)
            return [a.tolist()] + [
                None if t is None else (t + 0).tolist()
                for t in (fw.unpack_dual(a).tangent, fw.unpack_dual(before).tangent,
                          fw.unpack_dual(a[1:]).tangent)]
    assert plain(run(minigrad)) == oracle(lambda torch: run(torch))


def test_tangent_through_a_view_write_stays_differentiable(oracle):
    """Reverse over forward through a view write: the base's tangent depends on the tangent."""
    def run(lib):
        fw = lib.autograd.forward_ad
        v = lib.tensor([1.0, -2.0], dtype=lib.float64, requires_grad=True)
        with fw.dual_level():
            a = lib.zeros(3, dtype=lib.float64)
            a[1:].copy_(fw.make_dual(lib.tensor([2.0, 3.0], dtype=lib.float64), v * 3))
            tangent = fw.unpack_dual(a).tangent
            (g,) = lib.autograd.grad((tangent * lib.tensor([1.0, 2.0, 4.0],
                                                            dtype=lib.float64)).sum(), v)
        return tangent.tolist(), g.tolist()
    assert plain(run(minigrad)) == oracle(lambda torch: run(torch))


def test_copy_and_clone_give_tangents_of_their_own(oracle):
    def run(lib):
        fw = lib.autograd.forward_ad
        tangent = lib.tensor([[5.0], [6.0]])
        with fw.dual_level():
            dual = fw.make_dual(lib.tensor([[3.0], [4.0]]), tangent)
            target = lib.tensor([[1.0], [2.0]])
            target.copy_(dual)
            copied = fw.unpack_dual(target).tangent
            cloned = fw.unpack_dual(dual.clone()).tangent
            return copied is tangent, cloned is tangent, copied.tolist(), cloned.tolist()
    assert plain(run(minigrad)) == oracle(run)


def test_a_tangent_may_not_be_a_dual_itself(oracle):
    def run(lib):
        fw = lib.autograd.forward_ad
        with fw.dual_level():
            dual = fw.make_dual(lib.tensor([1.0, 2.0]), lib.tensor([3.0, 4.0]))
            try:
                fw.make_dual(lib.tensor([5.0, 6.0]), dual)
            except RuntimeError as error:
                return str(error)
    assert run(minigrad) == oracle(run)


def test_duals_print_inplace_update_out_and_detach_(oracle):
    def run(lib):
        fw = lib.autograd.forward_ad
        seen = []
        with fw.dual_level():
            tangent = lib.tensor([1.0, 1.0], dtype=lib.float64)
            dual = fw.make_dual(lib.tensor([1.0, 2.0], dtype=lib.float64), tangent)
            seen.append(str(dual * 2).replace("torch.", "minigrad."))
            dual *= 2  # the tangent tensor itself is updated
            seen.append(tangent.tolist())
            for args in ((lib.ones(2), lib.ones(2), dual), (dual, lib.ones(2), lib.ones(2))):
                try:
                    lib.add(args[0], args[1], out=args[2])
                except NotImplementedError as error:
                    seen.append(str(error))
            copy = dual.clone()
            copy.detach_()
            seen.append(fw.unpack_dual(copy * 2).tangent is None)
        return seen
    assert run(minigrad) == oracle(run)


def _switch_and_level(lib):
    """The private switch that stops tangents, and the module's record of the entered level."""
    fw = lib.autograd.forward_ad
    seen = [fw._current_level, fw._is_fwd_grad_enabled()]
    with fw.dual_level():
        seen.append(fw._current_level)
        x = fw.make_dual(lib.tensor([1.0, 2.0]), lib.tensor([1.0, 1.0]))
        with fw._set_fwd_grad_enabled(False):
            seen.append(fw._is_fwd_grad_enabled())
            seen.append(fw.unpack_dual(x * 3).tangent)  # no tangent while switched off
        seen.append(fw.unpack_dual(x * 3).tangent)
        fw._set_fwd_grad_enabled(False)  # called, not entered: it switches at once
        seen.append(fw._is_fwd_grad_enabled())
        fw._set_fwd_grad_enabled(True)
    seen.append(fw._current_level)
    return seen


def test_fwd_grad_switch_and_current_level(oracle):
    assert plain(_switch_and_level(minigrad)) == oracle(_switch_and_level)


def _tangent_layouts(lib):
    """make_dual keeps the given tangent when it lies in memory as the primal does, and
    otherwise stores a copy laid out as the primal (so writing to it leaves the original)."""
    fw = lib.autograd.forward_ad
    cases = {
        "same": (lib.zeros(3), lib.ones(3)),
        "offset": (lib.zeros(5)[1:4], lib.ones(3)),
        "storage": (lib.zeros(5)[:4], lib.ones(4)),
        "strides": (lib.zeros(2, 3).t(), lib.ones(3, 2)),
        "size-one-dim": (lib.zeros(1, 3), lib.ones(3, 1).t()),
        "empty": (lib.zeros(0), lib.ones(0)),
    }
    seen = {}
    with fw.dual_level():
        for name, (primal, tangent) in cases.items():
            kept = fw.unpack_dual(fw.make_dual(primal, tangent)).tangent
            before = tangent.clone()
            kept.mul_(2)
            seen[name] = [kept is tangent, kept.stride(), kept.storage_offset(),
                          len(kept.untyped_storage()) // kept.element_size(),
                          bool(lib.equal(before, tangent))]
    return seen


def test_make_dual_lays_the_tangent_out_as_the_primal(oracle):
    assert plain(_tangent_layouts(minigrad)) == oracle(_tangent_layouts)


def _custom_jvp_checks(lib):
    """PyTorch's checks of what a custom Function's jvp returns: the tangent of a view output
    must view the given tangent (or its base), a non-differentiable output gets None, and jvp
    sees only what save_for_forward kept."""
    fw = lib.autograd.forward_ad

    class Narrow(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x, how):
            ctx.how = how
            return x.narrow(0, 0, 2)

        @staticmethod
        def backward(ctx, grad):
            return None, None

        @staticmethod
        def jvp(ctx, tangent, _):
            out = tangent.narrow(0, 0, 2)
            if ctx.how != "view":
                out = out.clone()
            if ctx.how == "view-of-copy":
                out = out.view_as(out)
            return out

    class Flagged(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            ctx.save_for_backward(x)
            flag = y.clone()
            ctx.mark_non_differentiable(flag)
            return x * 2, flag

        @staticmethod
        def backward(ctx, grad, _):
            return grad * 2, None

        @staticmethod
        def jvp(ctx, tangent, _):
            seen.append(len(ctx.saved_tensors))
            return tangent * 2, (tangent.clone() if wrong_flag else None)

    seen, story, wrong_flag = [], {}, False
    for how in ("view", "copy", "view-of-copy"):
        for of_view in (False, True):
            with fw.dual_level():
                dual = fw.make_dual(lib.zeros(4, 3), lib.ones(4, 3))
                if of_view:
                    dual = dual.view_as(dual)
                try:
                    out = Narrow.apply(dual, how)
                    story[f"{how} {of_view}"] = fw.unpack_dual(out).tangent
                except RuntimeError as error:
                    story[f"{how} {of_view}"] = str(error)
    for wrong in (False, True):
        wrong_flag = wrong  # read by Flagged.jvp
        with fw.dual_level():
            try:
                _, flag = Flagged.apply(fw.make_dual(lib.ones(2), lib.ones(2)), lib.ones(2))
                story[f"flag {wrong}"] = fw.unpack_dual(flag).tangent
            except RuntimeError as error:
                story[f"flag {wrong}"] = str(error)
    story["saved seen by jvp"] = seen
    return story


def test_custom_function_jvp_checks(oracle):
    assert plain(_custom_jvp_checks(minigrad)) == oracle(_custom_jvp_checks)
