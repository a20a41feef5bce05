"""Parity of one expression: ``agree(oracle, "T.tensor([1, 2]) / 2")`` evaluates the text with
``T`` bound to torch (through the oracle, which stores the answer) and to minigrad, and asserts
that both give the same plain data (values, dtype, shape, requires_grad, grad_fn name; or the
same exception type and first line of its message)."""

import warnings

from oracle import assert_matches

import minigrad

__all__ = ["agree", "evaluate"]


def evaluate(src, T, names=None):
    """``src`` evaluated with ``T`` as the library and ``names`` as further globals (warnings
    silenced); an exception is returned, not raised, with the library's name in its message
    (a module or a file of it) written as torch's."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return eval(src, {"T": T, **(names or {})})
    except Exception as exc:  # the error is the answer
        return type(exc)(str(exc).replace("minigrad.", "torch.").replace("minigrad/", "torch/"))


def agree(oracle, src, rtol=0.0, atol=0.0, names=None):
    """Assert that minigrad answers ``src`` as torch 2.13 does (``names``: helpers it uses)."""
    expected = oracle(lambda torch: _raise(evaluate(src, torch, names)))
    assert_matches(evaluate(src, minigrad, names), expected, rtol, atol)


def _raise(value):
    if isinstance(value, Exception):
        raise value
    return value
