"""Parity programs: small functions ``prog(torch)`` run on torch (through the oracle) and on
minigrad, whose plain results must be equal.

A test module defines ``def case_<name>(torch): ...`` functions and one parametrized test::

    @pytest.mark.parametrize("prog", programs(globals()), ids=lambda p: p.__name__)
    def test_parity(prog, oracle):
        check(prog, oracle)
"""

import re
import warnings

from oracle import assert_matches

import minigrad

__all__ = ["programs", "run", "check"]


def programs(namespace, prefix="case_"):
    """The ``case_*`` functions of a module's namespace, in definition order."""
    return [f for name, f in namespace.items() if name.startswith(prefix) and callable(f)]


def run(prog, module=minigrad):
    """``prog(module)``, or the exception it raised (an error is an answer too)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return prog(module)
        except Exception as error:  # noqa: BLE001 - compared with torch's error
            return error


def check(prog, oracle, rtol=1e-6):
    """Assert that minigrad answers ``prog`` as torch 2.13 does (minigrad names itself where
    torch's texts say ``torch.`` or ``torch::``; float32 values may differ in the last bit)."""
    expected = oracle(lambda torch: _quiet(prog, torch))
    assert_matches(run(prog), _renamed(expected), rtol=rtol)


def _renamed(value):
    if isinstance(value, str):
        return re.sub(r"(?<![\w/])torch(\.|::)", r"minigrad\1", value)
    if isinstance(value, list):
        return [_renamed(v) for v in value]
    if isinstance(value, dict):
        return {k: _renamed(v) for k, v in value.items()}
    return value


def _quiet(prog, torch):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return prog(torch)
