"""PyTorch's answers as test data, so that parity tests run on every machine.

A parity test asks the ``oracle`` fixture for what torch answers::

    def test_clamp_promotes(oracle):
        expected = oracle(lambda torch: torch.tensor([1, 2, 3]).clamp(0.5, 1.5))
        got = minigrad.tensor([1, 2, 3]).clamp(0.5, 1.5)
        assert_matches(got, expected)

``oracle(compute, key=None)`` calls ``compute(torch)`` and turns its result into plain data
(``to_plain``): tensors become ``{"tensor": values, "dtype": "float32", "shape": [...], ...}``,
an exception becomes ``{"error": "RuntimeError", "message": first line}``. The answers live in
``tests/torch_answers/<test module>.json``, keyed by the test's id (plus ``key`` when one test
asks several questions).

- torch installed: the live answer is returned, and it must equal the stored one (a stale or
  missing answer is written to the store at the end of the session, so commit the JSON files).
  ``MINIGRAD_ORACLE=live`` skips the store entirely.
- torch absent: the stored answer is returned; a question with no stored answer skips the test.
"""

import json
import math
import os
from pathlib import Path

import numpy as np
import pytest

__all__ = ["Oracle", "to_plain", "plain", "assert_matches", "plain_equal", "ANSWERS_DIR"]

ANSWERS_DIR = Path(__file__).parent / "torch_answers"


def to_plain(value):
    """Turn a torch (or minigrad) result into JSON-able plain data, the same way for both."""
    if isinstance(value, BaseException):
        return {"error": type(value).__name__, "message": str(value).split("\n", 1)[0]}
    if hasattr(value, "detach") and hasattr(value, "dtype") and hasattr(value, "shape"):
        arr = value.detach().numpy() if hasattr(value.detach(), "numpy") else value.detach()
        out = {"tensor": np.asarray(arr).tolist(), "dtype": str(value.dtype).split(".")[-1],
               "shape": list(value.shape)}
        out["requires_grad"] = bool(getattr(value, "requires_grad", False))
        grad_fn = getattr(value, "grad_fn", None)
        out["grad_fn"] = None if grad_fn is None else type(grad_fn).__name__
        return out
    if hasattr(value, "is_floating_point") and hasattr(value, "itemsize"):  # a dtype
        return {"dtype": str(value).split(".")[-1]}
    if isinstance(value, dict):
        return {str(k): to_plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_plain(v) for v in value]
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if type(value).__name__ == "Size":
        return list(value)
    return repr(value)


def plain(value):
    """``to_plain`` as a reload from the store gives it (tuples become lists)."""
    return json.loads(json.dumps(to_plain(value)))


def plain_equal(a, b, rtol=0.0, atol=0.0):
    """Equality of plain data where NaN equals NaN and floats may differ by a tolerance."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(plain_equal(a[k], b[k], rtol, atol) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(plain_equal(x, y, rtol, atol) for x, y in zip(a, b))
    if isinstance(a, bool) or isinstance(b, bool):
        return a == b and type(a) is type(b)
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return a == b or abs(a - b) <= atol + rtol * abs(b)
    return a == b


def assert_matches(got, expected, rtol=0.0, atol=0.0):
    """Assert that a minigrad result (or a raised exception) equals the torch answer."""
    plain = to_plain(got)
    assert plain_equal(plain, expected, rtol, atol), f"minigrad: {plain}\ntorch:    {expected}"


class Oracle:
    """The store of torch's answers for one test session."""

    def __init__(self, torch):
        self.torch = torch
        self.live_only = os.environ.get("MINIGRAD_ORACLE") == "live"
        self.files = {}
        self.changed = set()

    def store(self, module):
        if module not in self.files:
            path = ANSWERS_DIR / f"{module}.json"
            self.files[module] = json.loads(path.read_text()) if path.exists() else {}
        return self.files[module]

    def ask(self, module, key, compute):
        store = None if self.live_only else self.store(module)
        if self.torch is None:
            if store is None or key not in store:
                pytest.skip(f"torch is not installed and no stored answer for {key!r}")
            return store[key]
        try:
            answer = to_plain(compute(self.torch))
        except Exception as exc:  # the error *is* the answer
            answer = to_plain(exc)
        answer = json.loads(json.dumps(answer))  # exactly what a reload would give
        if store is not None and not plain_equal(store.get(key), answer):
            store[key] = answer
            self.changed.add(module)
        return answer

    def save(self):
        ANSWERS_DIR.mkdir(exist_ok=True)
        for module in sorted(self.changed):
            data = self.files[module]
            lines = [f"{json.dumps(k)}: {json.dumps(v)}" for k, v in sorted(data.items())]
            (ANSWERS_DIR / f"{module}.json").write_text("{\n" + ",\n".join(lines) + "\n}\n")
