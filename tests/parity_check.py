"""One helper for parity cases written once for both libraries: ``make(lib)`` runs with
``lib`` = minigrad and (through the oracle) with ``lib`` = torch, and the results must match.

Results that are text (reprs, error messages) name the library: torch's ``torch.`` is read as
``minigrad.`` before comparing.
"""

import re
import warnings

from oracle import assert_matches, to_plain

__all__ = ["run", "check", "as_minigrad"]


_TORCH_NAME = re.compile(r"(?<![\w/])torch\.")  # not pytorch.org or pytorch/pytorch


def as_minigrad(plain):
    """torch's plain answer with ``torch.`` named ``minigrad.`` in every text."""
    if isinstance(plain, str):
        return _TORCH_NAME.sub("minigrad.", plain)
    if isinstance(plain, dict):
        return {k: as_minigrad(v) for k, v in plain.items()}
    if isinstance(plain, list):
        return [as_minigrad(v) for v in plain]
    return plain


def run(make, lib):
    """``make(lib)``, or the exception it raised (warnings silenced)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return make(lib)
        except Exception as error:  # noqa: BLE001 - the error is the result under test
            return error


def check(oracle, make, key=None, rtol=0.0, atol=0.0):
    """Assert that ``make(minigrad)`` gives what ``make(torch)`` gives."""
    import minigrad
    expected = as_minigrad(oracle(lambda torch: to_plain(run(make, torch)), key=key))
    assert_matches(run(make, minigrad), expected, rtol=rtol, atol=atol)
