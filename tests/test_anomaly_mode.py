"""Anomaly mode against torch: forward traces in ``metadata``, the NaN check, the warnings."""

import warnings

import pytest

import minigrad
from minigrad.autograd import anomaly_mode

TRIGGERED = " (Triggered internally at"  # the suffix of PyTorch's C++ warnings


def divide(x):
    return x / x  # the line both traces must end with


def make_graph(t):
    x = t.tensor([0.0, 1.0], requires_grad=True)
    return x, divide(x)


def quiet(lib, check_nan=True):
    """``detect_anomaly`` without its 'Anomaly Detection has been enabled' warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return lib.autograd.detect_anomaly(check_nan=check_nan)


def messages(caught):
    return [(w.category, str(w.message).split(TRIGGERED)[0]) for w in caught]


def run_backward(loss, retain_graph=False):
    """``loss.backward()``; return (error type and text, warnings as (category, text))."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            loss.backward(retain_graph=retain_graph)
            error = None
        except RuntimeError as e:
            error = (type(e).__name__, str(e).replace("torch.", "minigrad."))
    return error, messages(caught)


# ----------------------------------------------------------------------------- forward traces
@pytest.mark.torch
def test_nodes_keep_the_forward_trace_as_torch(torch):
    traces = {}
    for lib in (torch, minigrad):
        with quiet(lib):
            x, y = make_graph(lib)
        acc = y.grad_fn.next_functions[0][0]
        assert list(y.grad_fn.metadata) == ["traceback_"]
        assert acc.metadata["traceback_"] == y.grad_fn.metadata["traceback_"]
        traces[lib] = y.grad_fn.metadata["traceback_"]
    # The frames of this file are the same; minigrad's own frames are not in the trace.
    assert traces[minigrad][-2:] == traces[torch][-2:]
    assert traces[minigrad][-1].endswith("return x / x  # the line both traces must end with\n")
    assert len(traces[minigrad]) == len(traces[torch])


@pytest.mark.torch
def test_no_trace_outside_anomaly_mode(torch, monkeypatch):
    monkeypatch.setattr(anomaly_mode, "store_stack", None)  # would fail if it were called
    for lib in (torch, minigrad):
        x, y = make_graph(lib)
        assert y.grad_fn.metadata == {}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            y.sum().backward()


@pytest.mark.torch
def test_nodes_made_by_a_backward_pass_keep_their_parent(torch):
    for lib in (torch, minigrad):
        with quiet(lib):
            x = lib.tensor([1.0, 4.0], requires_grad=True)
            y = x.sqrt()
            (g,) = lib.autograd.grad(y.sum(), x, create_graph=True)
        assert g.grad_fn.name() == "DivBackward0"
        assert sorted(g.grad_fn.metadata) == ["parent_", "traceback_"]
        assert g.grad_fn.metadata["parent_"] is y.grad_fn
        trace = g.grad_fn.metadata["traceback_"]
        assert "lib.autograd.grad(y.sum(), x, create_graph=True)" in "".join(trace)
    assert "lib.autograd.grad(y.sum(), x, create_graph=True)" in trace[-1]  # minigrad's


# ----------------------------------------------------------------------------- NaN and errors
@pytest.mark.torch
def test_nan_raises_naming_the_node_and_warns_with_the_trace(torch):
    results = []
    for lib in (torch, minigrad):
        with quiet(lib):
            x, y = make_graph(lib)
            results.append(run_backward(y.sum()))
        assert x.grad is None
    assert results[0] == results[1]
    error, warned = results[1]
    assert error == ("RuntimeError", "Function 'DivBackward0' returned nan values in its 1th "
                                     "output.")
    (category, text), = warned
    assert category is UserWarning
    assert text.startswith("Error detected in DivBackward0. Traceback of forward call that "
                           "caused the error:\n  File ")
    assert text.endswith("    return x / x  # the line both traces must end with\n")


@pytest.mark.torch
def test_nodes_made_outside_anomaly_mode_have_no_trace_to_show(torch):
    results = []
    for lib in (torch, minigrad):
        x, y = make_graph(lib)
        with quiet(lib):
            results.append(run_backward(y.sum()))
    assert results[0] == results[1]
    assert results[1][1] == [(UserWarning, "Error detected in DivBackward0. No forward pass "
                              "information available. Enable detect anomaly during forward pass "
                              "for more information.")]


@pytest.mark.torch
def test_the_parents_trace_follows_in_a_second_warning(torch):
    results = []
    for lib in (torch, minigrad):
        with quiet(lib):
            x = lib.tensor([0.0, 1.0], requires_grad=True)
            y = x.sqrt()
            (g,) = lib.autograd.grad(y.sum(), x, create_graph=True)
            results.append(run_backward((g * 0).sum()))
    error, warned = results[1]
    assert error == results[0][0] == (
        "RuntimeError", "Function 'DivBackward0' returned nan values in its 1th output.")
    assert [text.split(":\n")[0] for _, text in warned] == \
        [text.split(":\n")[0] for _, text in results[0][1]] == [
        "Error detected in DivBackward0. Traceback of forward call that caused the error",
        "\n\nPrevious calculation was induced by SqrtBackward0. Traceback of forward call that "
        "induced the previous calculation"]
    assert warned[1][1].endswith("    y = x.sqrt()\n") and results[0][1][1][1].endswith(
        "    y = x.sqrt()\n")


@pytest.mark.torch
def test_check_nan_false_lets_nan_through(torch):
    grads = []
    for lib in (torch, minigrad):
        with quiet(lib, check_nan=False):
            x, y = make_graph(lib)
            assert run_backward(y.sum()) == (None, [])
        grads.append(x.grad.tolist())
    assert str(grads[0]) == str(grads[1]) == "[nan, 0.0]"


def post_hooks_then_nan_check(lib):
    log = []
    with quiet(lib):
        x, y = make_graph(lib)
        y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: log.append("post"))
        error, _ = run_backward(y.sum(), retain_graph=True)
        log.append(error)
        # a post-hook that replaces the NaN avoids the error
        y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: tuple(
            lib.zeros_like(g) for g in grad_inputs))
        log.append(run_backward(y.sum())[0])
    return log


@pytest.mark.torch
def test_the_nan_check_runs_after_the_node_post_hooks(torch):
    log = post_hooks_then_nan_check(minigrad)
    assert log == post_hooks_then_nan_check(torch)
    assert log == ["post", ("RuntimeError", "Function 'DivBackward0' returned nan values in its "
                            "1th output."), "post", None]


class Boom(minigrad.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 1

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError("boom")


@pytest.mark.torch
def test_any_error_in_a_node_shows_its_trace(torch):
    class TorchBoom(torch.autograd.Function):
        forward, backward = Boom.forward, Boom.backward

    results = []
    for lib, fn in ((torch, TorchBoom), (minigrad, Boom)):
        with quiet(lib):
            y = fn.apply(lib.tensor([1.0], requires_grad=True))
            results.append(run_backward(y.sum()))
    assert results[1][0] == results[0][0] == ("RuntimeError", "boom")
    assert len(results[0][1]) == len(results[1][1]) == 1
    assert results[0][1][0][1].startswith("Error detected in TorchBoomBackward. Traceback")
    assert results[1][1][0][1].startswith("Error detected in BoomBackward. Traceback")
    assert results[1][1][0][1].endswith("y = fn.apply(lib.tensor([1.0], requires_grad=True))\n")


@pytest.mark.torch
def test_inplace_error_hint_in_anomaly_mode(torch):
    results = []
    for lib in (torch, minigrad):
        with quiet(lib):
            x = lib.tensor([1.0, 2.0], requires_grad=True)
            y = x.exp()
            y.add_(1)
            results.append(run_backward(y.sum()))
    assert results[0] == results[1]
    assert results[1][0][1].endswith(
        "Hint: the backtrace further above shows the operation that failed to compute its "
        "gradient. The variable in question was changed in there or anywhere later. Good luck!")
    assert results[1][1][0][1].startswith("Error detected in ExpBackward0.")


def test_the_recording_still_names_the_failing_node():
    with quiet(minigrad):
        with minigrad.graph.record() as rec:
            x, y = make_graph(minigrad)
            with pytest.raises(RuntimeError, match="returned nan values"), \
                    pytest.warns(UserWarning, match="Error detected in DivBackward0"):
                y.sum().backward()
    (error,) = [e for e in rec.events if e["kind"] == "error"]
    (node,) = [n for n in rec.snapshot.nodes if n["id"] == error["node"]]
    assert node["name"] == "DivBackward0"


# ----------------------------------------------------------------------------- the switches
@pytest.mark.torch
def test_flags_and_the_warning_on_enabling(torch):
    for lib in (torch, minigrad):
        is_on, check = lib.is_anomaly_enabled, lib.is_anomaly_check_nan_enabled
        with pytest.warns(UserWarning, match="^Anomaly Detection has been enabled. This mode will "
                          "increase the runtime and should only be enabled for debugging.$"):
            mode = lib.autograd.detect_anomaly(check_nan=False)
        assert not is_on()
        with mode:
            assert is_on() and not check()
        assert not is_on() and check()
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # set_detect_anomaly does not warn
            lib.autograd.set_detect_anomaly(True)
            assert is_on() and check()
            with lib.autograd.set_detect_anomaly(False):
                assert not is_on()
            assert is_on()
            lib.autograd.set_detect_anomaly(False)
        assert not is_on()


def test_anomaly_mode_of_another_thread_stays_there():
    """Anomaly mode is per thread: nodes made here keep no trace while another thread has it
    on, and the count of threads with it on (which lets node creation skip the thread's
    switch) is back to zero when every thread has turned it off."""
    import threading
    on, done = threading.Event(), threading.Event()
    traces = {}

    def other():
        with anomaly_mode.set_detect_anomaly(True):
            x = minigrad.tensor([1.0], requires_grad=True)
            traces["other"] = "traceback_" in (x * 2).grad_fn.metadata
            on.set()
            done.wait(10)

    thread = threading.Thread(target=other)
    thread.start()
    on.wait(10)
    x = minigrad.tensor([1.0], requires_grad=True)
    traces["here"] = "traceback_" in (x * 2).grad_fn.metadata
    done.set()
    thread.join()
    assert traces == {"other": True, "here": False}
    assert anomaly_mode.enabled_threads[0] == 0
