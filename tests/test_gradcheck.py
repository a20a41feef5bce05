"""``autograd.gradcheck`` and ``gradgradcheck``: verdicts, messages and warnings as in torch.

Every op of the registry and of ``op_families`` goes through both checks in both libraries
and must get the same verdict (a tie in ``max`` fails in both: the derivative does not exist
there). Then the failure message, the float32 warning and the argument errors, text for text.
"""

import warnings

import numpy as np
import pytest
from op_families import FAMILIES
from op_registry import all_cases
from oracle import assert_matches, plain

import minigrad
from minigrad.autograd.gradcheck import GradcheckError

CASES = [c for c in all_cases() + FAMILIES if c.check_grad]


def _inputs(lib, case, dtype=None):
    arrays = case.make(np.random.default_rng(0))
    grad_args = case.grad_args if case.grad_args is not None else range(len(arrays))
    return tuple(lib.tensor(a, dtype=dtype or lib.float64, requires_grad=i in grad_args)
                 for i, a in enumerate(arrays))


def _verdicts(lib, case):
    def func(*args):
        return case.fn(lib, *args)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the float32 family warns, in both libraries
        first = lib.autograd.gradcheck(func, _inputs(lib, case), raise_exception=False)
        second = None
        if case.second_order:  # fixed grad_outputs, the same in both libraries
            rng = np.random.default_rng(5)
            out = func(*_inputs(lib, case))
            outs = out if isinstance(out, (tuple, list)) else (out,)
            v = tuple(lib.tensor(rng.uniform(-1, 1, tuple(o.shape)), dtype=o.dtype,
                                 requires_grad=True) for o in outs if o.requires_grad)
            second = lib.autograd.gradgradcheck(func, _inputs(lib, case), v,
                                                raise_exception=False)
    return first, second


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_verdicts_match_torch(case, oracle):
    mine = _verdicts(minigrad, case)
    assert list(mine) == oracle(lambda torch: _verdicts(torch, case))
    if case in FAMILIES and "float32" not in case.name:  # drawn away from ties and kinks
        assert mine[0] is True and mine[1] in (True, None)


# ---------------------------------------------------------------------------- failures
def _wrong_square(lib):
    """x² with a backward that is off by half: 3x instead of 2x."""
    class WrongSquare(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return 3 * x * grad
    return WrongSquare


def _failure(lib, func, inputs, **kwargs):
    try:
        lib.autograd.gradcheck(func, inputs, **kwargs)
    except RuntimeError as error:
        return type(error).__name__, str(error)
    return None


def test_failure_message_matches_torch(torch):
    x = np.random.default_rng(0).normal(size=(2, 3))
    mine = _failure(minigrad, _wrong_square(minigrad).apply,
                    (minigrad.tensor(x, dtype=minigrad.float64, requires_grad=True),))
    ref = _failure(torch, _wrong_square(torch).apply,
                   (torch.tensor(x, dtype=torch.float64, requires_grad=True),))
    assert mine[0] == ref[0] == "GradcheckError"
    assert mine[1].startswith("Jacobian mismatch for output 0 with respect to input 0,\n"
                              "numerical:tensor([[")
    assert "\nanalytical:tensor([[" in mine[1]
    assert mine[1] == ref[1].replace("torch.", "minigrad.")


def test_failure_names_the_output_and_input(torch):
    """Indices count differentiable outputs and inputs only, as in PyTorch."""
    def run(lib):
        def func(a, scale, b):
            return a * scale, _wrong_square(lib).apply(b)
        inputs = (lib.tensor([1.0, 2.0], dtype=lib.float64, requires_grad=True), 2.0,
                  lib.tensor([0.5], dtype=lib.float64, requires_grad=True))
        return _failure(lib, func, inputs)[1].split("\n")[0]
    assert run(minigrad) == run(torch) == (
        "Jacobian mismatch for output 1 with respect to input 1,")


def test_gradcheck_error_is_a_runtime_error_and_raise_exception_false_returns_false():
    assert issubclass(GradcheckError, RuntimeError)
    x = minigrad.tensor([1.0, 2.0], dtype=minigrad.float64, requires_grad=True)
    with pytest.raises(GradcheckError):
        minigrad.autograd.gradcheck(_wrong_square(minigrad).apply, (x,))
    assert minigrad.autograd.gradcheck(_wrong_square(minigrad).apply, x,
                                       raise_exception=False) is False
    assert minigrad.autograd.gradcheck(lambda t: t * t, x) is True


def test_gradgradcheck_catches_a_wrong_double_backward(torch):
    """A backward that is right but not differentiable (it detaches) fails the second check."""
    def run(lib):
        class DetachedSquare(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x * x

            @staticmethod
            def backward(ctx, grad):
                (x,) = ctx.saved_tensors
                return 2 * x.detach() * grad
        x = lib.tensor([0.5, -1.5], dtype=lib.float64, requires_grad=True)
        first = lib.autograd.gradcheck(DetachedSquare.apply, (x,))
        v = lib.tensor([1.0, 1.0], dtype=lib.float64, requires_grad=True)
        message = None
        try:
            lib.autograd.gradgradcheck(DetachedSquare.apply, (x,), (v,))
        except RuntimeError as error:
            message = str(error)
        return first, message
    mine, ref = run(minigrad), run(torch)
    assert mine[0] is ref[0] is True
    assert mine[1] == ref[1].replace("torch.", "minigrad.")
    assert mine[1].startswith("Jacobian mismatch for output 0 with respect to input 0,")


def test_float32_inputs_warn_as_in_torch(torch):
    def run(lib):
        x = lib.tensor([0.3, -1.1, 2.0], requires_grad=True)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            verdict = lib.autograd.gradcheck(lambda t: t.sin(), (x,), raise_exception=False)
        return verdict, [str(w.message) for w in caught if w.category is UserWarning]
    mine, ref = run(minigrad), run(torch)
    assert mine[1] == ref[1] == [
        "Input #0 requires gradient and is not a double precision floating point or complex. "
        "This check will likely fail if all the inputs are not of double precision floating "
        "point or complex. "]
    assert mine[0] is ref[0] is False   # float32 rounding swamps the finite differences


def test_argument_errors_match_torch(oracle):
    def run(lib):
        results = []
        plain = lib.tensor([1.0, 2.0], dtype=lib.float64)
        results.append(_failure_any(lambda: lib.autograd.gradcheck(lambda t: t * 2, (plain,))))
        leaf = lib.tensor([1.0], dtype=lib.float64, requires_grad=True)
        with lib.no_grad():
            expanded = leaf.expand(3)
        expanded.requires_grad_()
        results.append(_failure_any(lambda: lib.autograd.gradcheck(lambda t: t * 2,
                                                                   (expanded,))))
        return results
    assert plain(run(minigrad)) == oracle(lambda torch: run(torch))



def test_an_empty_input_is_not_refused_for_its_zero_strides(oracle):
    """NumPy gives an empty (2, 0) array strides of 0: no elements overlap, so torch checks it."""
    def run(lib):
        x = lib.zeros(2, 0, dtype=lib.float64, requires_grad=True)
        return [lib.autograd.gradcheck(lambda t: t * 2, (x,)),
                lib.autograd.gradcheck(lambda t: t.diff(dim=0).sum(), (x,))]
    assert run(minigrad) == oracle(lambda torch: run(torch)) == [True, True]

def _failure_any(fn):
    try:
        fn()
    except Exception as error:  # noqa: BLE001 - the type is part of what is compared
        return type(error).__name__, str(error)
    return None


def test_non_differentiable_outputs_need_a_zero_numerical_gradient(oracle):
    def run(lib):
        x = lib.tensor([0.5, 1.5], dtype=lib.float64, requires_grad=True)
        ok = lib.autograd.gradcheck(lambda t: (t > 1).double(), (x,))
        message = _failure_any(lambda: lib.autograd.gradcheck(lambda t: (t * 2).detach(),
                                                               (x,)))
        return ok, message
    assert plain(run(minigrad)) == oracle(lambda torch: run(torch))


def test_check_forward_ad(torch):
    x = minigrad.tensor([0.3, -0.7], dtype=minigrad.float64, requires_grad=True)
    assert minigrad.autograd.gradcheck(lambda t: (t.exp() * t).sin(), (x,),
                                       check_forward_ad=True)

    def run(lib):
        class WrongJvp(lib.autograd.Function):
            @staticmethod
            def forward(ctx, t):
                return t * 2

            @staticmethod
            def backward(ctx, grad):
                return grad * 2

            @staticmethod
            def jvp(ctx, tangent):
                return tangent * 3
        y = lib.tensor([0.3, -0.7], dtype=lib.float64, requires_grad=True)
        return _failure_any(lambda: lib.autograd.gradcheck(WrongJvp.apply, (y,),
                                                           check_forward_ad=True))
    mine, ref = run(minigrad), run(torch)
    assert mine == (ref[0], ref[1].replace("torch.", "minigrad."))
    assert mine[1].startswith("Jacobian computed with forward mode mismatch for output 0 with "
                              "respect to input 0,")


def test_nondeterministic_backward_is_reported(torch):
    def run(lib):
        calls = []

        class Jittery(lib.autograd.Function):
            @staticmethod
            def forward(ctx, t):
                return t * 2

            @staticmethod
            def backward(ctx, grad):
                calls.append(1)
                return grad * 2 + len(calls) * 1e-9
        y = lib.tensor([0.3, -0.7], dtype=lib.float64, requires_grad=True)
        return _failure_any(lambda: lib.autograd.gradcheck(Jittery.apply, (y,)))
    mine, ref = run(minigrad), run(torch)
    assert mine == ref
    assert mine[1].startswith("Backward is not reentrant")


def test_gradgradcheck_with_tuple_outputs_and_given_grad_outputs(torch):
    def run(lib):
        def func(a, b):
            return (a * b).tanh(), (a.exp() @ b).sum()
        a = lib.tensor([[0.1, 0.2], [0.3, -0.4]], dtype=lib.float64, requires_grad=True)
        b = lib.tensor([[0.5, -0.6], [0.7, 0.8]], dtype=lib.float64, requires_grad=True)
        v = (lib.ones(2, 2, dtype=lib.float64, requires_grad=True),
             lib.tensor(2.0, dtype=lib.float64, requires_grad=True))
        return (lib.autograd.gradcheck(func, (a, b)), lib.autograd.gradgradcheck(func, (a, b)),
                lib.autograd.gradgradcheck(func, (a, b), v))
    assert run(minigrad) == run(torch) == (True, True, True)


# -------------------------------------------------------------------- more of torch's checks
def _outcome(lib, run):
    """What a gradcheck call gives: its verdict, or the exception (type + first line)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = run(lib)
        except (RuntimeError, AssertionError, ValueError) as error:
            result = error
    texts = sorted({str(w.message).split(" is enabled")[0] for w in caught
                    if "Backwards compatibility" in str(w.message)})
    answer = plain(result)
    if isinstance(answer, dict):  # sizes print as minigrad.Size where torch has torch.Size
        answer["message"] = answer["message"].replace(f"{lib.__name__}.", "lib.")
    return answer, texts


def _hook_rejects_none(lib):
    """A clone whose tensor hook fails when the gradient reaching it is undefined."""
    def func(x):
        def refuse_none(grad):
            if grad is None:
                raise RuntimeError("the hook got no gradient")
        y = x.clone()
        y.register_hook(refuse_none)
        return y
    return func


@pytest.mark.parametrize("undefined", [True, False])
def test_undefined_output_grads_are_checked(oracle, undefined):
    """Backward must accept an undefined output gradient (with a warning when it does not)."""
    def run(lib):
        x = lib.ones(2, dtype=lib.float64, requires_grad=True)
        return lib.autograd.gradcheck(_hook_rejects_none(lib), (x,),
                                      check_undefined_grad=undefined, raise_exception=False)
    assert _outcome(minigrad, run) == tuple(oracle(lambda torch: list(_outcome(torch, run))))


def test_undefined_output_grads_one_output_at_a_time(oracle):
    """With two outputs, each one's gradient is also made undefined on its own."""
    def run(lib):
        def func(x):
            a = x * 2
            b = x.clone()
            b.register_hook(lambda g: None if g is not None else
                            (_ for _ in ()).throw(RuntimeError("b's gradient is undefined")))
            return a, b
        x = lib.ones(2, dtype=lib.float64, requires_grad=True)
        return lib.autograd.gradcheck(func, (x,))
    assert _outcome(minigrad, run) == tuple(oracle(lambda torch: list(_outcome(torch, run))))


@pytest.mark.parametrize("change", ["shape", "dtype"])
def test_outputs_must_keep_shape_and_dtype_when_inputs_are_nudged(oracle, change):
    def run(lib):
        def func(x):
            if bool((x > 1).all()):  # only the upward nudge takes this branch
                return lib.cat([x, x]) if change == "shape" else x.float()
            return x * 1
        x = lib.ones(1, dtype=lib.float64, requires_grad=True)
        return lib.autograd.gradcheck(func, (x,), raise_exception=False)
    assert _outcome(minigrad, run) == tuple(oracle(lambda torch: list(_outcome(torch, run))))


@pytest.mark.parametrize("forward, backward, batched", [(False, False, False),
                                                        (True, False, True),
                                                        (True, True, True)])
def test_mode_arguments_are_validated(oracle, forward, backward, batched):
    def run(lib):
        x = lib.rand(2, dtype=lib.float64, requires_grad=True)
        return lib.autograd.gradcheck(lambda t: t * 3, (x,), check_forward_ad=forward,
                                      check_backward_ad=backward, check_batched_grad=batched)
    assert _outcome(minigrad, run) == tuple(oracle(lambda torch: list(_outcome(torch, run))))


def test_forward_mode_check_sees_every_input_as_a_dual(oracle):
    """All differentiable inputs carry tangents (zero for the ones not being probed), so a
    function that scales one input's tangent is caught."""
    def run(lib):
        fwad = lib.autograd.forward_ad

        def func(x, y):
            if fwad._current_level >= 0:
                primal, tangent = fwad.unpack_dual(y)
                y = fwad.make_dual(primal, tangent * 1.5)
            return x * y
        x = lib.tensor([1.0, 2.0], dtype=lib.float64, requires_grad=True)
        y = lib.tensor([3.0, -1.0], dtype=lib.float64, requires_grad=True)
        return lib.autograd.gradcheck(func, (x, y), check_forward_ad=True)
    assert _outcome(minigrad, run) == tuple(oracle(lambda torch: list(_outcome(torch, run))))


def _old_helpers(lib):
    """PyTorch's deprecated get_numerical_jacobian / get_analytical_jacobian: their values,
    reentrancy verdict, FutureWarnings and grad_out error."""
    module = __import__(f"{lib.__name__}.autograd.gradcheck", fromlist=["x"])
    a = lib.tensor([[0.5, -1.0], [2.0, 0.25]], dtype=lib.float64, requires_grad=True)
    b = lib.tensor([[1.5, 0.5], [-0.5, 3.0]], dtype=lib.float64, requires_grad=True)

    class Jittery(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, grad):
            Jittery.calls += 1
            return grad * (1 + 1e-3 * Jittery.calls)

    Jittery.calls = 0
    story = {}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        story["numerical"] = module.get_numerical_jacobian(
            lambda t: (2 * t[0] * t[1], t[0] + t[1]), (a, b), eps=1e-6)
        story["numerical target"] = module.get_numerical_jacobian(
            lambda t: (t[0] * t[1]).sum() + t[0], (a, b), target=b, eps=1e-6)
        jac, reentrant, sizes, types = module.get_analytical_jacobian((a, b), a * b + a)
        story["analytical"] = [jac, reentrant, sizes, types]
        story["jittery reentrant"] = module.get_analytical_jacobian((a,), Jittery.apply(a))[1]
        for helper, args in ((module.get_numerical_jacobian, (lambda t: t[0], (a,))),
                             (module.get_analytical_jacobian, ((a,), a * 2))):
            try:
                helper(*args, grad_out=2.0)
            except ValueError as error:
                story.setdefault("errors", []).append(str(error))
    story["warnings"] = sorted({(w.category.__name__, str(w.message)[:60]) for w in caught})
    return story


def test_deprecated_jacobian_helpers(oracle):
    assert_matches(_old_helpers(minigrad), oracle(_old_helpers), rtol=1e-6, atol=1e-9)
