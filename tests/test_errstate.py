"""NumPy's error state around minigrad's ops (minigrad/_errstate.py): quiet inside every op,
the user's own state untouched outside, also for an op inside an op and across threads."""

import threading
import warnings

import numpy as np
import pytest

import minigrad
from minigrad._errstate import context_in_use, quiet_call, quiet_run
from minigrad.autograd.function import _Op


def test_division_by_zero_is_quiet_even_where_the_user_raises():
    with np.errstate(all="raise"):
        before = np.geterr()
        out = minigrad.tensor([1.0, 0.0]) / 0
        assert np.geterr() == before
    assert np.isinf(out._data[0]) and np.isnan(out._data[1])


def test_user_state_untouched_after_ops():
    before = np.geterr()
    x = minigrad.tensor([1.0, -1.0], requires_grad=True)
    (x / 0).sum().backward()
    assert np.geterr() == before
    with pytest.warns(RuntimeWarning):
        np.array([1.0]) / 0  # the user's NumPy still warns


class _Nested(_Op):
    """An op whose forward applies another op (the quiet context is then in use)."""

    node_name = "NestedBackward0"

    @staticmethod
    def forward(ctx, a):
        return (minigrad.tensor(a._data) / 0)._data

    @staticmethod
    def backward(ctx, grad):
        return grad


def test_an_op_inside_an_op_is_quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = _Nested.apply(minigrad.tensor([1.0, 0.0]))
    assert np.isinf(out._data[0]) and np.isnan(out._data[1])


def test_errors_of_a_forward_pass_through_unchanged():
    def forward():
        raise RuntimeError("from the forward")
    with pytest.raises(RuntimeError) as caught:
        quiet_run(forward)
    assert not context_in_use(caught.value)

    def outer():
        try:
            quiet_run(np.add, 1, 2)
        except RuntimeError as error:
            return context_in_use(error)
    assert quiet_run(outer) is True
    assert quiet_call(np.divide, 1.0, 0.0) == np.inf


def test_threads_compute_quietly_at_once():
    big = np.ones(2_000_000)  # (NumPy lets go of the GIL over arrays this large)
    errors, results = [], []

    def work():
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                for _ in range(10):
                    results.append(float((minigrad.tensor(big) / 0)._data[0]))
        except Exception as error:  # noqa: BLE001 (reported below)
            errors.append(error)
    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and results == [np.inf] * 40
