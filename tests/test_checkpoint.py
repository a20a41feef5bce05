"""``minigrad.utils.checkpoint`` against ``torch.utils.checkpoint`` (torch 2.13, via the oracle).

Each scenario is one function of the library (``minigrad`` or ``torch``) that returns plain
observations: values, gradients, node names, how often the checkpointed region ran, the texts
of warnings and errors. The same function runs on both and the answers must agree.
"""

import importlib
import warnings

import pytest
from oracle import assert_matches, plain

import minigrad


def _cp(lib):
    return importlib.import_module(lib.__name__ + ".utils.checkpoint")


def _counted(calls, fn):
    def region(*args, **kwargs):
        calls.append(1)
        return fn(*args, **kwargs)
    return region


def _first_line(exc):
    return [type(exc).__name__, str(exc).split("\n", 1)[0]]


@pytest.mark.parametrize("use_reentrant", [True, False])
def test_values_grads_node_and_recomputation_count(oracle, use_reentrant):
    def scenario(lib):
        calls = []
        x = lib.tensor([0.5, -1.0, 2.0], requires_grad=True)
        w = lib.tensor([1.5, 0.25, -0.5], requires_grad=True)
        out = _cp(lib).checkpoint(_counted(calls, lambda a, b, k: (a * b).sin() * k + a.exp()),
                                  x, w, 3.0, use_reentrant=use_reentrant)
        after_forward = len(calls)
        out.sum().backward()
        return {"out": out, "node": type(out.grad_fn).__name__, "x_grad": x.grad,
                "w_grad": w.grad, "calls": [after_forward, len(calls)]}

    got = scenario(minigrad)
    assert_matches(got, oracle(scenario), rtol=1e-6)
    expected_node = "CheckpointFunctionBackward" if use_reentrant else "AddBackward0"
    assert got["node"] == expected_node and got["calls"] == [1, 2]


@pytest.mark.parametrize("use_reentrant", [True, False])
def test_checkpoint_sequential_runs_all_but_the_last_segment_twice(oracle, use_reentrant):
    def scenario(lib):
        counts = [0] * 6

        def layer(i):
            def f(t):
                counts[i] += 1
                return t * lib.tensor(float(i + 1)) + 1.0
            return f

        x = lib.tensor([[1.0, 2.0]], requires_grad=True)
        out = _cp(lib).checkpoint_sequential([layer(i) for i in range(6)], 3, x,
                                             use_reentrant=use_reentrant)
        before = list(counts)
        out.sum().backward()
        return {"out": out, "grad": x.grad, "before": before, "after": list(counts)}

    assert_matches(scenario(minigrad), oracle(scenario))


def test_checkpoint_sequential_accepts_a_sequential_module(oracle):
    def scenario(lib):
        lib.manual_seed(0)
        model = lib.nn.Sequential(lib.nn.Linear(4, 3), lib.nn.Tanh(), lib.nn.Linear(3, 2))
        x = lib.ones(2, 4, requires_grad=True)
        out = _cp(lib).checkpoint_sequential(model, 2, x, use_reentrant=False)
        out.sum().backward()
        return {"out": out, "x_grad": x.grad, "w_grad": model[0].weight.grad}

    assert_matches(scenario(minigrad), oracle(scenario), rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("use_reentrant", [True, False])
def test_random_state_is_replayed_for_the_rerun(use_reentrant):
    # Independent reference: the same program without checkpoint, from the same generator state.
    x = minigrad.randn(500, requires_grad=True)
    drop = minigrad.nn.Dropout()
    state = minigrad.get_rng_state()
    out = minigrad.utils.checkpoint.checkpoint(lambda t: drop(t) * 2, x,
                                               use_reentrant=use_reentrant)
    out.sum().backward()
    with_checkpoint = x.grad.clone()
    minigrad.set_rng_state(state)
    x.grad = None
    (drop(x) * 2).sum().backward()
    assert with_checkpoint.tolist() == x.grad.tolist()
    assert 0 < int((x.grad == 0).sum()) < 500  # the mask really dropped something


def _warning_texts(run):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run()
    return [str(w.message) for w in caught if issubclass(w.category, UserWarning)]


def test_warns_when_use_reentrant_is_not_passed(oracle):
    def scenario(lib):
        x = lib.ones(3, requires_grad=True)
        cp = _cp(lib)
        return {"checkpoint": _warning_texts(lambda: cp.checkpoint(lambda t: t * 2, x)),
                "sequential": _warning_texts(
                    lambda: cp.checkpoint_sequential([lambda t: t * 2] * 2, 2, x)),
                "explicit": _warning_texts(
                    lambda: cp.checkpoint(lambda t: t * 2, x, use_reentrant=False))}

    got = scenario(minigrad)
    assert_matches(got, oracle(scenario))
    assert got["checkpoint"] and not got["explicit"]


def test_warns_when_no_input_requires_grad(oracle):
    def scenario(lib):
        x = lib.ones(2)
        return _warning_texts(lambda: _cp(lib).checkpoint(lambda t: t * 2, x,
                                                          use_reentrant=True))

    got = scenario(minigrad)
    assert_matches(got, oracle(scenario))
    assert got == ["None of the inputs have requires_grad=True. Gradients will be None"]


ERROR_CASES = {
    "kwargs_with_reentrant": lambda lib, cp, x: cp.checkpoint(lambda t, k: t * k, x, k=2.0,
                                                              use_reentrant=True),
    "debug_with_reentrant": lambda lib, cp, x: cp.checkpoint(lambda t: t, x, use_reentrant=True,
                                                             debug=True),
    "bad_determinism_check": lambda lib, cp, x: cp.checkpoint(lambda t: t, x,
                                                              use_reentrant=False,
                                                              determinism_check="strict"),
    "sequential_kwargs": lambda lib, cp, x: cp.checkpoint_sequential([lambda t: t], 1, x,
                                                                     use_reentrant=False,
                                                                     foo=1),
    "grad_with_reentrant": lambda lib, cp, x: lib.autograd.grad(
        cp.checkpoint(lambda t: t.exp(), x, use_reentrant=True).sum(), x),
    "backward_inputs_with_reentrant": lambda lib, cp, x: cp.checkpoint(
        lambda t: t.exp(), x, use_reentrant=True).sum().backward(inputs=[x]),
    "no_output_requires_grad": lambda lib, cp, x: cp.checkpoint(
        lambda t, u: u * 2, x, lib.ones(3), use_reentrant=True).sum().backward(),
}


@pytest.mark.parametrize("case", sorted(ERROR_CASES))
def test_errors(oracle, case):
    def scenario(lib):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                ERROR_CASES[case](lib, _cp(lib), x)
            except Exception as exc:
                return _first_line(exc)
        return "no error"

    got = scenario(minigrad)
    assert_matches(got, oracle(scenario))
    assert got != "no error"


def _changing(first, later):
    calls = []

    def region(t):
        calls.append(1)
        return first(t) if len(calls) == 1 else later(t)
    return region


NON_DETERMINISM = {
    "fewer_saved": (lambda t: t.sin().exp().sin(), lambda t: t.sin().exp(), True, "default"),
    "more_saved_without_early_stop": (lambda t: t.sin().exp(), lambda t: t.sin().exp().sin(),
                                      False, "default"),
    "more_saved_hidden_by_early_stop": (lambda t: t.sin().exp(), lambda t: t.sin().exp().sin(),
                                        True, "default"),
    "different_shape": (lambda t: t.sin().exp(), lambda t: t.sin() * (t * 0 + 1).expand(2),
                        True, "default"),
}


@pytest.mark.parametrize("case", sorted(NON_DETERMINISM))
def test_recomputation_is_checked(oracle, case):
    first, later, early_stop, check = NON_DETERMINISM[case]

    def scenario(lib):
        cp = _cp(lib)
        x = lib.tensor([0.5], requires_grad=True)
        region = _changing(first, later)
        with cp.set_checkpoint_early_stop(early_stop):
            out = cp.checkpoint(region, x, use_reentrant=False, determinism_check=check)
        try:
            out.sum().backward()
        except Exception as exc:
            # (torch's text ends with advice on torch.compile, which minigrad does not have)
            text = str(exc).split("\nIf this error occurs under torch.compile", 1)[0]
            return {"error": type(exc).__name__, "text": text}
        return {"grad": x.grad}

    got = scenario(minigrad)
    assert_matches(got, oracle(scenario), rtol=1e-6)
    if case != "more_saved_hidden_by_early_stop":
        assert got["error"] == "CheckpointError"
        assert isinstance(minigrad.utils.checkpoint.CheckpointError("x"), RuntimeError)


def test_saved_tensor_access_recomputes_outside_backward_once_inside(oracle):
    def scenario(lib):
        calls = []
        x = lib.tensor([0.1, 0.2], requires_grad=True)
        y = _cp(lib).checkpoint(_counted(calls, lambda t: (t * t).exp()), x, use_reentrant=False)
        seen = [len(calls)]
        for _ in range(2):
            _ = y.grad_fn._saved_result
            seen.append(len(calls))
        y.sum().backward()
        seen.append(len(calls))
        try:
            _ = y.grad_fn._saved_result
            freed = "no error"
        except RuntimeError as exc:
            freed = _first_line(exc)
        return {"calls": seen, "freed": freed, "grad": x.grad}

    got = scenario(minigrad)
    assert_matches(got, oracle(scenario), rtol=1e-6)
    assert got["calls"] == [1, 2, 3, 4]


def test_unpacking_a_saved_tensor_twice_in_one_backward_is_an_error(oracle):
    def scenario(lib):
        class Twice(lib.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                ctx.save_for_backward(a)
                return a * 2

            @staticmethod
            def backward(ctx, grad):
                _ = ctx.saved_tensors
                (a,) = ctx.saved_tensors
                return grad * 2

        x = lib.tensor([1.0], requires_grad=True)
        out = _cp(lib).checkpoint(lambda t: Twice.apply(t * 3), x, use_reentrant=False)
        try:
            out.sum().backward()
        except Exception as exc:
            return _first_line(exc)
        return "no error"

    assert_matches(scenario(minigrad), oracle(scenario))


def test_non_reentrant_works_with_grad_kwargs_and_nesting(oracle):
    def scenario(lib):
        cp = _cp(lib)
        x = lib.tensor([0.3, -0.7], requires_grad=True)
        calls = []
        inner = _counted(calls, lambda t, *, k: (t * k).sin())
        outer = lambda t: cp.checkpoint(inner, t.exp(), k=2.0, use_reentrant=False).cos()  # noqa: E731
        y = cp.checkpoint(outer, x, use_reentrant=False)
        (g,) = lib.autograd.grad(y.sum(), x, create_graph=True)
        return {"y": y, "g": g, "calls": len(calls)}

    assert_matches(scenario(minigrad), oracle(scenario), rtol=1e-6)


@pytest.mark.parametrize("use_reentrant", [True, False])
def test_under_no_grad_nothing_is_recorded(oracle, use_reentrant):
    def scenario(lib):
        calls = []
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        with lib.no_grad():
            y = _cp(lib).checkpoint(_counted(calls, lambda t: t * 2), x,
                                    use_reentrant=use_reentrant)
        return {"y": y, "calls": len(calls)}

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = scenario(minigrad)
        expected = oracle(scenario)
    assert_matches(got, expected)


@pytest.mark.parametrize("use_reentrant", [True, False])
def test_non_tensor_inputs_and_outputs(oracle, use_reentrant):
    def scenario(lib):
        a = lib.tensor([1.0, 2.0], requires_grad=True)
        b = lib.tensor([3.0, 4.0], requires_grad=True)

        def region(t, u, scale, none):
            return scale, t * u * scale, none, "tag", t

        res = _cp(lib).checkpoint(region, a, b, 2, None, use_reentrant=use_reentrant)
        (res[1].sum() + res[4].sum()).backward()
        return {"res": list(res), "a": a.grad, "b": b.grad}

    assert_matches(scenario(minigrad), oracle(scenario))


def test_detach_variable(oracle):
    def scenario(lib):
        x = lib.ones(2, requires_grad=True) * 2
        d, n = _cp(lib).detach_variable((x, 3))
        try:
            _cp(lib).detach_variable([x])
        except RuntimeError as exc:
            err = _first_line(exc)
        return {"d": d, "n": n, "leaf": d.is_leaf, "err": err}

    assert_matches(scenario(minigrad), oracle(scenario))


def test_public_names():
    cp = minigrad.utils.checkpoint
    for name in cp.__all__:
        assert hasattr(cp, name)
    assert plain(cp.CheckpointError("x")) == {"error": "CheckpointError", "message": "x"}


def _unchecked_rerun_of_another_shape(lib):
    """With the determinism check off, the rerun saves a tensor of another shape than forward
    did: the engine sums the node's gradient back to its input's shape, as PyTorch's does."""
    calls = [0]

    def fn(x):  # forward saves x and exp's (1,) result; the rerun saves a (2,) tensor second
        calls[0] += 1
        return x.sin().exp() if calls[0] == 1 else x.sin() * lib.tensor([1.0, 2.0])

    x = lib.ones(1, requires_grad=True)
    out = _cp(lib).checkpoint(fn, x, use_reentrant=False, determinism_check="none")
    out.sum().backward()
    return x.grad


def test_an_unchecked_rerun_of_another_shape_gives_the_inputs_shape(oracle):
    assert_matches(_unchecked_rerun_of_another_shape(minigrad),
                   oracle(_unchecked_rerun_of_another_shape), rtol=1e-6)
