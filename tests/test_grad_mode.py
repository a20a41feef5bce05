"""Grad modes as context managers, decorators and plain calls: each scenario runs with minigrad
and with torch and must observe the same modes and flags."""

import json
import warnings

import pytest
from oracle import plain
from parity_programs import check, programs

import minigrad


def modes(m):
    return m.is_grad_enabled(), m.is_inference_mode_enabled()


def flags(t):
    return t.requires_grad, t.is_leaf, t.grad_fn is None


# Each scenario takes the library and returns what it observed.
def no_grad_block(m):
    x = m.ones(2, requires_grad=True)
    with m.no_grad():
        inside = modes(m)
        y = x * 2
    return inside, modes(m), flags(y)


def enable_grad_inside_no_grad(m):
    x = m.ones(2, requires_grad=True)
    with m.no_grad():
        with m.enable_grad():
            inner = modes(m), flags(x * 2)
        after_inner = modes(m)
    return inner, after_inner, modes(m)


def set_grad_enabled_call(m):
    result = [modes(m)]
    m.set_grad_enabled(False)
    result.append(modes(m))
    m.set_grad_enabled(True)
    result.append(modes(m))
    return result


def set_grad_enabled_context(m):
    x = m.ones(2, requires_grad=True)
    with m.set_grad_enabled(False):
        inside = modes(m), flags(x * 2)
    with m.no_grad():
        with m.set_grad_enabled(True):
            nested = modes(m), flags(x * 2)
        back = modes(m)
    return inside, modes(m), nested, back


def set_grad_enabled_object_changes_mode_at_once(m):
    m.set_grad_enabled(False)
    manager = m.set_grad_enabled(True)
    created = modes(m)

    @manager
    def f():
        return modes(m)
    after_decorating = modes(m)
    called = f()
    after_call = modes(m)
    m.set_grad_enabled(True)
    return created, after_decorating, called, after_call


def set_grad_enabled_decorator(m):
    @m.set_grad_enabled(False)
    def f():
        return modes(m)
    return f(), modes(m)


def no_grad_decorators(m):
    x = m.ones(2, requires_grad=True)

    @m.no_grad()
    def called(a):
        return flags(a * 2), modes(m)

    @m.no_grad
    def bare(a):
        return flags(a * 2), modes(m)
    return called(x), bare(x), modes(m), bare.__name__, called.__name__


def enable_grad_decorators(m):
    x = m.ones(2, requires_grad=True)

    @m.enable_grad()
    def called():
        return flags(x * 2)

    @m.enable_grad
    def bare():
        return flags(x * 2)
    with m.no_grad():
        return called(), bare(), modes(m)


def inference_mode_block(m):
    x = m.ones(2, requires_grad=True)
    with m.inference_mode():
        inside = modes(m), flags(x * 2)
        with m.inference_mode(False):
            off = modes(m)
        with m.enable_grad():
            enabled = modes(m)
        with m.no_grad():
            no_grad = modes(m)
        with m.set_grad_enabled(True):
            set_true = modes(m)
    return inside, off, enabled, no_grad, set_true, modes(m)


def inference_mode_false_outside(m):
    with m.no_grad():
        with m.inference_mode(False):
            inner = modes(m)
        after = modes(m)
    with m.inference_mode(False):
        plain = modes(m)
    return inner, after, plain


def inference_mode_decorators(m):
    @m.inference_mode()
    def called():
        return modes(m)

    @m.inference_mode
    def bare():
        return modes(m)

    @m.inference_mode(False)
    def off():
        return modes(m)
    with m.no_grad():
        off_result = off()
    return called(), bare(), off_result, modes(m)


def restored_after_raise(m):
    seen = []
    for make in (m.no_grad, m.enable_grad, lambda: m.set_grad_enabled(False), m.inference_mode):
        with m.no_grad():
            try:
                with make():
                    raise KeyError("boom")
            except KeyError:
                pass
            seen.append(modes(m))
        seen.append(modes(m))
    return seen


def decorated_function_that_raises(m):
    @m.no_grad()
    def f():
        raise ZeroDivisionError("inside")
    try:
        f()
    except ZeroDivisionError as error:
        return str(error), modes(m)


def generator_function(m):
    @m.no_grad()
    def gen():
        received = yield modes(m)
        try:
            yield received, modes(m)
        except KeyError:
            yield "caught", modes(m)
        return "done"
    g = gen()
    trace = [next(g), modes(m), g.send(5), modes(m), g.throw(KeyError), modes(m)]
    try:
        next(g)
    except StopIteration as stop:
        trace.append(stop.value)
    g = gen()
    next(g)
    g.close()
    trace.append(modes(m))
    return trace


def method_decorator(m):
    class Model:
        @m.no_grad()
        def predict(self, a):
            return modes(m), a
    return Model().predict(3)


def managers_enter_and_exit_return_none(m):
    results = []
    for make in (m.no_grad, m.enable_grad, m.inference_mode):
        manager = make()
        results.append((manager.__enter__(), manager.__exit__(None, None, None)))
    return results


def decorating_a_class(m):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")

        @m.no_grad()
        class Thing:
            def __init__(self):
                self.mode = m.is_grad_enabled()
    return Thing().mode, [(w.category.__name__, str(w.message)) for w in caught]


def grad_mode_errors(m):
    errors = []
    for make in (lambda: m.set_grad_enabled(1), lambda: m.set_grad_enabled("a"),
                 lambda: m.set_grad_enabled()):
        try:
            make()
        except TypeError as error:
            errors.append(str(error).replace("torch.", "minigrad."))
    return errors


def repr_of_set_grad_enabled(m):
    text = repr(m.set_grad_enabled(True))
    return text.replace("torch.autograd.grad_mode", "minigrad.grad_mode")


SCENARIOS = [no_grad_block, enable_grad_inside_no_grad, set_grad_enabled_call,
             set_grad_enabled_context, set_grad_enabled_object_changes_mode_at_once,
             set_grad_enabled_decorator, no_grad_decorators, enable_grad_decorators,
             inference_mode_block, inference_mode_false_outside, inference_mode_decorators,
             restored_after_raise, decorated_function_that_raises, generator_function,
             method_decorator, managers_enter_and_exit_return_none, decorating_a_class,
             repr_of_set_grad_enabled]


def _scenario_in_torch(torch, scenario):
    try:
        return scenario(torch)
    finally:
        torch.set_grad_enabled(True)


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda f: f.__name__)
def test_scenario_matches_torch(oracle, scenario):
    theirs = oracle(lambda torch: _scenario_in_torch(torch, scenario))
    assert plain(scenario(minigrad)) == theirs


@pytest.mark.torch
def test_errors_match_torch(torch):
    mine, theirs = grad_mode_errors(minigrad), grad_mode_errors(torch)
    assert mine[:2] == theirs[:2]  # the third names the class and differs in wording
    assert mine[2].startswith("set_grad_enabled.__init__() missing 1 required positional "
                              "argument: 'mode'")


def test_results_under_no_grad_are_leaves_without_grad():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    with minigrad.no_grad():
        for y in (x * 2, x + x, x.exp(), x.sum(), x.clone(), x.detach()):  # views: test_inplace
            assert (y.requires_grad, y.is_leaf, y.grad_fn) == (False, True, None)


def test_decorators_keep_names_and_docstrings():
    @minigrad.no_grad()
    def predict(a, b=2):
        """Predict."""
        return a * b
    assert predict.__name__ == "predict" and predict.__doc__ == "Predict."
    assert predict(3) == 6


def test_each_decorated_call_gets_its_own_manager():
    """A recursive decorated function restores the right mode at every level."""
    @minigrad.enable_grad()
    def depth(n):
        if n == 0:
            return minigrad.is_grad_enabled()
        with minigrad.no_grad():
            return depth(n - 1)
    with minigrad.no_grad():
        assert depth(3) is True
        assert minigrad.is_grad_enabled() is False
    assert minigrad.is_grad_enabled() is True


# ---------------------------------------------------------------------------- per thread
# Each scenario runs a second thread that switches a mode while the calling thread looks on
# (two events make the threads take turns), and returns what both threads saw.
def _in_thread(body):
    import threading
    result, errors = {}, []

    def run():
        try:
            body(result)
        except BaseException as error:  # reported by the calling thread
            errors.append(error)
    thread = threading.Thread(target=run)
    thread.start()
    return thread, result, errors


def no_grad_in_another_thread(m):
    import threading
    entered, leave = threading.Event(), threading.Event()
    x = m.ones(2, requires_grad=True)

    def body(seen):
        with m.no_grad():
            seen["inside"] = modes(m)
            entered.set()
            leave.wait(10)
    thread, seen, errors = _in_thread(body)
    entered.wait(10)
    here = modes(m), flags(x * 2)   # this thread keeps grad mode on
    leave.set()
    thread.join(10)
    assert not errors
    return seen["inside"], here, modes(m)


def new_thread_starts_with_grad_mode_on(m):
    def body(seen):
        x = m.ones(2, requires_grad=True)
        seen["modes"], seen["flags"] = modes(m), flags(x * 2)
    with m.no_grad():
        thread, seen, errors = _in_thread(body)
        thread.join(10)
        here = modes(m)
    assert not errors
    return seen["modes"], seen["flags"], here, modes(m)


def overlapping_no_grad_blocks(m):
    """Enter in this thread, enter in the other, leave here first, then there: both end on."""
    import threading
    entered, left = threading.Event(), threading.Event()

    def body(seen):
        with m.no_grad():
            entered.set()
            left.wait(10)
        seen["after"] = modes(m)
    with m.no_grad():
        thread, seen, errors = _in_thread(body)
        entered.wait(10)
    left.set()
    thread.join(10)
    assert not errors
    return seen["after"], modes(m)


def set_grad_enabled_and_inference_mode_per_thread(m):
    import threading
    entered, leave = threading.Event(), threading.Event()

    def body(seen):
        m.set_grad_enabled(False)
        with m.inference_mode():
            seen["inside"] = modes(m)
            entered.set()
            leave.wait(10)
        seen["after"] = modes(m)
    thread, seen, errors = _in_thread(body)
    entered.wait(10)
    here = modes(m)
    leave.set()
    thread.join(10)
    assert not errors
    return seen["inside"], seen["after"], here, modes(m)


THREAD_SCENARIOS = [no_grad_in_another_thread, new_thread_starts_with_grad_mode_on,
                    overlapping_no_grad_blocks, set_grad_enabled_and_inference_mode_per_thread]


@pytest.mark.parametrize("scenario", THREAD_SCENARIOS, ids=lambda s: s.__name__)
def test_modes_are_per_thread_as_in_torch(oracle, scenario):
    expected = oracle(lambda torch: scenario(torch))
    got = scenario(minigrad)
    assert json.loads(json.dumps(got)) == expected


def test_anomaly_mode_is_per_thread():
    import threading

    from minigrad.autograd import anomaly_mode
    entered, leave = threading.Event(), threading.Event()
    seen = {}

    def body():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with minigrad.autograd.detect_anomaly():
                seen["inside"] = anomaly_mode.is_anomaly_enabled()
                entered.set()
                leave.wait(10)
        seen["after"] = anomaly_mode.is_anomaly_enabled()
    thread = threading.Thread(target=body)
    thread.start()
    entered.wait(10)
    here = anomaly_mode.is_anomaly_enabled()
    leave.set()
    thread.join(10)
    assert (seen["inside"], here, seen["after"]) == (True, False, False)


def test_many_threads_switching_modes_never_leak():
    """Threads toggling no_grad while others compute: no result loses requires_grad."""
    import threading
    x = minigrad.ones(3, requires_grad=True)
    lost, stop = [], threading.Event()
    count = list(minigrad.grad_mode.grad_off_threads)  # (earlier tests' ended threads count)

    def toggler():
        while not stop.is_set():
            with minigrad.no_grad():
                (x * 2).sum()

    def computer():
        for _ in range(2000):
            if not (x * 2).requires_grad:
                lost.append(1)
    togglers = [threading.Thread(target=toggler) for _ in range(2)]
    computers = [threading.Thread(target=computer) for _ in range(2)]
    for t in togglers + computers:
        t.start()
    for t in computers:
        t.join(60)
    stop.set()
    for t in togglers:
        t.join(60)
    assert lost == [] and minigrad.is_grad_enabled()
    assert minigrad.grad_mode.grad_off_threads == count  # every toggle counted, none lost


def test_threads_with_grad_off_are_counted_for_the_hot_path():
    """Issue 14: ops read grad mode from a process-wide count of the threads that have it off
    (a thread-local read only while that count is not 0). The count follows every way grad mode
    changes, in every thread, and a thread inside no_grad never records."""
    import threading
    from minigrad.grad_mode import grad_off_threads
    start = grad_off_threads[0]  # (threads of earlier tests that ended with grad mode off)
    x = minigrad.ones(2, requires_grad=True)
    entered, leave, seen = threading.Event(), threading.Event(), {}

    def body():
        with minigrad.no_grad():
            seen["count inside"] = grad_off_threads[0]
            entered.set()
            leave.wait(10)
            seen["records"] = (x * 2).requires_grad
    thread = threading.Thread(target=body)
    thread.start()
    entered.wait(10)
    here = (x * 2).requires_grad  # this thread has grad on: it records
    leave.set()
    thread.join(10)
    assert seen == {"count inside": start + 1, "records": False} and here
    minigrad.set_grad_enabled(False)
    assert grad_off_threads == [start + 1] and not (x * 2).requires_grad
    minigrad.set_grad_enabled(False)  # (no change: counted once)
    minigrad.set_grad_enabled(True)
    (x * x).sum().backward()  # the engine turns it off for the pass, and back on
    with minigrad.inference_mode():
        assert grad_off_threads == [start + 1]
    assert grad_off_threads == [start] and (x * 2).requires_grad


def case_set_multithreading_enabled(torch):
    seen = []
    autograd = torch.autograd
    with autograd.set_multithreading_enabled(False):
        seen.append(autograd.is_multithreading_enabled())
        autograd.set_multithreading_enabled(True)
        seen.append(autograd.is_multithreading_enabled())
    seen.append(autograd.is_multithreading_enabled())
    autograd.set_multithreading_enabled(False)
    seen.append(autograd.is_multithreading_enabled())
    autograd.set_multithreading_enabled(True)
    return seen


@pytest.mark.parametrize("prog", programs(globals()), ids=lambda p: p.__name__[5:])
def test_parity(prog, oracle):
    check(prog, oracle)


def _preserved_versions(lib):
    """``autograd._unsafe_preserve_version_counter`` hides in-place changes from the version
    counter (and so from the saved-tensor check), on one tensor or a tuple of them."""
    x = lib.ones(2, requires_grad=True).clone()
    y = lib.ones(2, requires_grad=True).clone()
    x.add_(1)
    seen = [x._version]
    saved = (x * y).sum()  # saves x and y
    with lib.autograd._unsafe_preserve_version_counter(x):
        x.mul_(2)
        seen.append(x._version)
    seen.append(x._version)
    saved.backward(retain_graph=True)  # no complaint: the change is hidden
    with lib.autograd._unsafe_preserve_version_counter((x, y)):
        x.mul_(2)
        y.mul_(3)
    seen += [x._version, y._version]
    y.mul_(2)
    try:
        saved.backward()
    except RuntimeError as error:
        seen.append(str(error).split(";")[0].replace(lib.__name__ + ".", ""))
    try:
        lib._C._autograd._unsafe_set_version_counter((x,), (-1,))
    except RuntimeError as error:
        seen.append(str(error))
    return seen


def test_unsafe_preserve_version_counter(oracle):
    assert plain(_preserved_versions(minigrad)) == oracle(_preserved_versions)


def test_a_thread_that_ends_with_grad_off_is_no_longer_counted():
    """A worker that turns grad mode off for good (``set_grad_enabled(False)`` as a call) and
    ends leaves the process-wide count as it found it: other threads keep the fast path."""
    import gc
    import threading
    from minigrad.grad_mode import grad_off_threads
    start = grad_off_threads[0]
    seen = []

    def worker():
        minigrad.set_grad_enabled(False)
        seen.append(grad_off_threads[0])
    thread = threading.Thread(target=worker)
    thread.start()
    thread.join(10)
    gc.collect()
    assert seen == [start + 1] and grad_off_threads[0] == start
