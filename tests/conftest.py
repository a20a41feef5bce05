"""Shared fixtures: ``torch`` is the parity oracle and is skipped cleanly when absent."""

import importlib.util

import pytest
from oracle import Oracle

HAS_TORCH = importlib.util.find_spec("torch") is not None


@pytest.fixture(scope="session")
def torch():
    """PyTorch, for parity tests; the test is skipped when it is not installed."""
    if not HAS_TORCH:
        pytest.skip("torch is not installed (pip install torch==2.13.0 to run parity tests)")
    import torch as _torch
    _torch.set_num_threads(1)
    return _torch


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium, driven by Playwright (skipped, with the reason, where either is
    missing)."""
    from test_stepper_browser import ARGS, CHROMIUM, _missing
    reason = _missing()
    if reason:
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def _oracle_store():
    """One store of torch's answers per session; new or changed answers are written at the end."""
    torch = None
    if HAS_TORCH:
        import torch
        torch.set_num_threads(1)
    store = Oracle(torch)
    yield store
    if torch is not None:
        store.save()


@pytest.fixture
def oracle(request, _oracle_store):
    """``oracle(lambda torch: ..., key=None)``: torch's answer as plain data (see oracle.py)."""
    module = request.module.__name__.rsplit(".", 1)[-1]
    calls = []

    def ask(compute, key=None):
        calls.append(key)
        if key is None:  # unnamed questions are told apart by their order in the test
            unnamed = calls.count(None)
            key = None if unnamed == 1 else str(unnamed)
        name = request.node.name if key is None else f"{request.node.name}::{key}"
        return _oracle_store.ask(module, name, compute)

    return ask


@pytest.fixture(autouse=True)
def _restore_grad_mode():
    """Every test starts and ends with grad mode on and anomaly mode off."""
    from minigrad.grad_mode import state
    yield
    state.grad_enabled, state.inference = True, False
    state.anomaly, state.check_nan = False, True
