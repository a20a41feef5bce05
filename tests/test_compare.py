"""Comparison-module ops not covered elsewhere (minigrad/ops/compare.py): ``nextafter``."""

import pytest
from parity_expr import agree
from parity_programs import check, programs


def case_nextafter(torch):
    a = torch.tensor([1.0, float("inf"), float("nan"), 0.0, -0.0], requires_grad=True)
    b = torch.tensor([float("inf"), 0.0, 1.0, -1.0, 1.0], requires_grad=True)
    y = torch.nextafter(a, b)
    y.sum().backward()
    return (y, y.grad_fn.name(), a.grad, b.grad, y - a.detach(),
            torch.tensor([1.0], dtype=torch.float64).nextafter(torch.tensor([2.0])) - 1,
            torch.tensor([1, 2]).nextafter(torch.tensor([2.0])),
            torch.tensor([1.0]).nextafter(torch.tensor([[2.0], [0.0]])) - 1)


def case_nextafter_in_place(torch):
    x = torch.tensor([1.0, 2.0])
    x.nextafter_(torch.tensor([2.0, 0.0], dtype=torch.float64))
    return x - torch.tensor([1.0, 2.0]), x.dtype


def case_nextafter_errors(torch):
    out = []
    for call in (lambda: torch.nextafter(torch.tensor([1, 2]), torch.tensor([0, 3])),
                 lambda: torch.nextafter(torch.tensor([True]), torch.tensor([False])),
                 lambda: torch.nextafter(torch.tensor([1.0]), 3.0),
                 lambda: torch.tensor([1.0]).nextafter(3.0),
                 lambda: torch.tensor([1.0, 2.0]).nextafter(torch.tensor([1.0, 2.0, 3.0]))):
        try:
            call()
        except (RuntimeError, TypeError, NotImplementedError) as error:
            out.append([type(error).__name__, str(error).split("\n")[0]])
    return out


@pytest.mark.parametrize("prog", programs(globals()), ids=lambda p: p.__name__[5:])
def test_parity(prog, oracle):
    check(prog, oracle)


def test_nextafter_checks_shapes_before_dtypes(oracle):
    agree(oracle, "T.tensor([1, 2]).nextafter(T.zeros(2, 0))")


FUZZ_CASES = [  # found by the differential fuzzer
    "T.isin(T.tensor([1.0]), True)", "T.isin(T.tensor([1]), True)", "T.isin(True, T.tensor([1.0]))",
    "T.ones(2).isclose(1)", "T.isclose(T.ones(2), 1)", "T.ones(2).allclose(1)",
    "T.allclose(T.ones(2), 1)", "T.ones(2).equal(1)", "T.equal(T.ones(2), 1)",
]


@pytest.mark.parametrize("src", FUZZ_CASES)
def test_fuzz_case_matches_torch(oracle, src):
    agree(oracle, src)
