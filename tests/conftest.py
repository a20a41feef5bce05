"""Shared fixtures: ``torch`` is the parity oracle and is skipped cleanly when absent."""

import importlib.util

import pytest

HAS_TORCH = importlib.util.find_spec("torch") is not None


@pytest.fixture(scope="session")
def torch():
    """PyTorch, for parity tests; the test is skipped when it is not installed."""
    if not HAS_TORCH:
        pytest.skip("torch is not installed (pip install torch==2.13.0 to run parity tests)")
    import torch as _torch
    _torch.set_num_threads(1)
    return _torch


@pytest.fixture(autouse=True)
def _restore_grad_mode():
    """Every test starts and ends with grad mode on and anomaly mode off."""
    from minigrad.autograd import anomaly_mode
    from minigrad.grad_mode import state
    yield
    state.grad_enabled, state.inference = True, False
    anomaly_mode.enabled, anomaly_mode.check_nan = False, True
