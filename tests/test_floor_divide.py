"""Floor division (``a // b``, ``floor_divide``, ``div(rounding_mode=...)``) against torch:
values, dtypes, PyTorch's errors, and what autograd does with it (``floor_divide`` has no
derivative in PyTorch: its node raises; ``div`` with a rounding mode has a zero gradient)."""

import math

import pytest
from oracle import plain
from parity_expr import agree

import minigrad


def _values(lib):
    return (lib.tensor([5.5, -3.2, 7.0, -0.0], requires_grad=True),
            lib.tensor([2.0, 1.5, -2.0, 1.0], requires_grad=True))


CASES = {
    "a // b": lambda lib, a, b: a // b,
    "floor_divide": lambda lib, a, b: lib.floor_divide(a, b),
    "method": lambda lib, a, b: a.floor_divide(b),
    "by a number": lambda lib, a, b: a // 2,
    "number // a": lambda lib, a, b: 7 // a,
    "constant divisor": lambda lib, a, b: a // b.detach(),
    "no grad": lambda lib, a, b: a.detach() // b.detach(),
    "//= on a non-leaf": lambda lib, a, b: (a * 1).__ifloordiv__(b),
    "div floor": lambda lib, a, b: lib.div(a, b, rounding_mode="floor"),
    "div trunc": lambda lib, a, b: a.div(b, rounding_mode="trunc"),
    "div floor by a number": lambda lib, a, b: lib.div(a, 2, rounding_mode="floor"),
    "by zero": lambda lib, a, b: lib.tensor([1.0, -2.0, 0.0], dtype=lib.float64) // 0.0,
    "broadcast": lambda lib, a, b: lib.ones(2, 3) * 7 // lib.tensor([2.0, 3.0, 4.0]),
    "int": lambda lib, a, b: lib.tensor([7, -7, 5, 0]) // lib.tensor([2, 2, -3, 4]),
    "int by a number": lambda lib, a, b: lib.tensor([7, -7, 5]) // 2,
    "number // int": lambda lib, a, b: 7 // lib.tensor([2, -2, 3]),
    "int by a float": lambda lib, a, b: lib.tensor([7, -7, 5]) // 2.5,
    "float number // int": lambda lib, a, b: 7.5 // lib.tensor([2, 3]),
    "int div trunc": lambda lib, a, b: lib.tensor([7, -7, 5]).div(lib.tensor([2, 2, -3]),
                                                                    rounding_mode="trunc"),
    "uint8 // int8": lambda lib, a, b: (lib.tensor([5], dtype=lib.uint8)
                                        // lib.tensor([2], dtype=lib.int8)),
    "int32 // 0-d int64": lambda lib, a, b: lib.tensor([7, 8], dtype=lib.int32) // lib.tensor(2),
    "float64 // int": lambda lib, a, b: lib.tensor([5.5], dtype=lib.float64) // lib.tensor([2]),
    "float //= number": lambda lib, a, b: lib.tensor([5.0, 6.0]).__ifloordiv__(4),
    # errors
    "int by zero": lambda lib, a, b: lib.tensor([7, 1]) // lib.tensor([0, 1]),
    "int by the number zero": lambda lib, a, b: lib.tensor([7, 1]) // 0,
    "bool": lambda lib, a, b: lib.tensor([True]) // lib.tensor([True]),
    "int //= float": lambda lib, a, b: lib.tensor([5, 6]).__ifloordiv__(2.5),
    "bad rounding mode": lambda lib, a, b: lib.div(a, b, rounding_mode="round"),
}


def _describe(lib, case):
    a, b = _values(lib)
    try:
        out = CASES[case](lib, a, b)
    except (RuntimeError, NotImplementedError) as error:
        return type(error).__name__, str(error)
    values = [("nan" if math.isnan(v) else v) for v in out.flatten().tolist()]
    row = [values, str(out.dtype).split(".")[-1], out.requires_grad,
           None if out.grad_fn is None else out.grad_fn.name().replace("torch::", "minigrad::")]
    if out.requires_grad:
        try:
            row.append([None if g is None else g.tolist() for g in lib.autograd.grad(
                out.sum(), (a, b), allow_unused=True)])
        except RuntimeError as error:
            row.append(str(error))
    return row


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_floor_division_matches_torch(case, oracle):
    assert plain(_describe(minigrad, case)) == oracle(lambda torch: _describe(torch, case))


def test_floor_divide_is_python_floor_division():
    a = [7.0, -7.0, 7.5, -7.5, 1.0, 0.0, -0.0]
    b = [2.0, 2.0, -2.0, 0.5, 0.1, 3.0, -3.0]
    out = (minigrad.tensor(a, dtype=minigrad.float64)
           // minigrad.tensor(b, dtype=minigrad.float64)).tolist()
    assert [math.copysign(1, v) for v in out] == [math.copysign(1, x // y) for x, y in zip(a, b)]
    assert out == [x // y for x, y in zip(a, b)]


FUZZ_CASES = {  # found by the differential fuzzer: an empty division divides nothing
    "empty int // 0": "T.zeros(0, 3, dtype=T.int64) // 0",
    "empty bool // 0": "T.zeros(0, 3, dtype=T.bool).floor_divide(0)",
    "empty // broadcast zeros": "T.zeros(0, 3, dtype=T.int64) // T.zeros(3, dtype=T.int64)",
    "empty % 0": "T.zeros(0, 3, dtype=T.int64) % 0",
    "empty remainder_ 0": "T.zeros(0, 3, dtype=T.int64).remainder_(0)",
    "empty div floor 0": "T.zeros(0, 3, dtype=T.int64).div(0, rounding_mode='floor')",
    "int % 0": "T.zeros(3, dtype=T.int64) % 0",
    "shapes before zero": "T.zeros(0, dtype=T.uint8) // T.zeros(2, 3, dtype=T.uint8)",
    # an in-place division checks the result's shape before dividing by an integer zero
    "floor_divide_ shape before zero":
        "T.tensor(5, dtype=T.int32).floor_divide_(T.tensor([[-1], [0]]))",
    "remainder_ shape before zero": "T.tensor(5, dtype=T.int32).remainder_(T.tensor([[-1], [0]]))",
    "div_ floor shape before zero":
        "T.tensor(5, dtype=T.int32).div_(T.tensor([[-1], [0]]), rounding_mode='floor')",
    "//= shape before zero": "T.tensor([5, 2]).__ifloordiv__(T.tensor([[1, 2], [0, 3]]))",
    "div_ trunc int": "T.tensor([7, -7, 5]).div_(T.tensor([2, 2, -3]), rounding_mode='trunc')",
    "div_ floor int": "T.tensor([7, -7, 5]).div_(T.tensor([2, 2, -3]), rounding_mode='floor')",
    "div_ floor float": "T.tensor([7.5, -7.5]).div_(2, rounding_mode='floor')",
    "div_ floor int zero": "T.tensor([7, 1]).div_(T.tensor([2, 0]), rounding_mode='floor')",
    "div_ bad mode": "T.tensor([7.0]).div_(2, rounding_mode='round')",
    # ... and the result's dtype too: a bool tensor cannot take an integer quotient
    "remainder_ bool dtype before zero": "T.tensor([False, True]).remainder_(0)",
    "floor_divide_ bool dtype before zero": "T.tensor([True, False]).floor_divide_(0)",
    "floor_divide_ int by float": "T.tensor([5]).floor_divide_(2.5)",
    "div_ floor int by float": "T.tensor([5]).div_(2.5, rounding_mode='floor')",
    "clamp_max_ bool by tensor": "T.tensor([True]).clamp_max_(T.tensor([3.0]))",
    "clamp_ int by tensors": "T.tensor([1]).clamp_(T.tensor(0.5), T.tensor(2.0))",
    "clamp_ int by number": "T.tensor([1]).clamp_(0.5, None)",
}


@pytest.mark.parametrize("src", FUZZ_CASES.values(), ids=FUZZ_CASES.keys())
def test_fuzz_case_matches_torch(oracle, src):
    agree(oracle, src)
