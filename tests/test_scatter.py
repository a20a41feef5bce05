"""``scatter``/``scatter_add`` (minigrad/ops/scatter.py): values, nodes, gradients (first and
second order) and errors, against torch 2.13."""

import pytest
from parity_expr import agree
from parity_programs import check, programs

import minigrad
from minigrad.autograd import gradcheck, gradgradcheck


def _x(torch):
    return torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)


def _index(torch):
    return torch.tensor([[0, 0], [2, 1]])  # a repeated index in row 0


def case_scatter_src(torch):
    x, src = _x(torch), torch.tensor([[10.0, 20.0], [30.0, 40.0]], requires_grad=True)
    y = x.scatter(1, _index(torch), src)
    (y * torch.arange(6.0).view(2, 3)).sum().backward()
    return y, x.grad, src.grad


def case_scatter_value(torch):
    x = _x(torch)
    y = x.scatter(1, _index(torch), 9.0)
    (y * torch.arange(6.0).view(2, 3)).sum().backward()
    return y, x.grad, torch.scatter(x, 0, torch.tensor([[1, 0, 1]]), value=-1.0)


def case_scatter_add(torch):
    x, src = _x(torch), torch.tensor([[10.0, 20.0], [30.0, 40.0]], requires_grad=True)
    y = torch.scatter_add(x, 1, _index(torch), src)
    (y * torch.arange(6.0).view(2, 3)).sum().backward()
    return y, x.grad, src.grad


def case_scatter_in_place(torch):
    x = _x(torch) * 1
    x.scatter_(1, _index(torch), 0.5)
    y = x * 1
    y.scatter_add_(0, torch.tensor([[1, 1, 0]]), torch.ones(1, 3))
    return x, y, x.grad_fn.name(), y.grad_fn.name(), x._version


def case_scatter_dtypes_and_shapes(torch):
    ints = torch.tensor([1, 2, 3])
    return (ints.scatter(0, torch.tensor([0]), 2.5), ints.scatter(0, torch.tensor([1]), True),
            torch.tensor([1, 2], dtype=torch.uint8).scatter(0, torch.tensor([0]), -1),
            torch.tensor(1.0).scatter(0, torch.tensor(0), 5.0),
            torch.tensor(1.0).scatter_add(0, torch.tensor([0, 0]), torch.tensor([2.0, 3.0])),
            torch.zeros(2, 3).scatter(1, torch.zeros(2, 0, dtype=torch.long), 1.0),
            torch.zeros(2, 3).scatter(1, torch.tensor([[0, 1, 2, 0]]), torch.ones(1, 5)),
            torch.zeros(2, 3).scatter(1, torch.tensor([[2]]).int(), 1.0))


def _errors(torch, calls):
    out = []
    for call in calls:
        try:
            call()
            out.append("no error")
        except (RuntimeError, IndexError, TypeError) as error:
            out.append([type(error).__name__, str(error).split("\n")[0]])
    return out


def case_scatter_errors(torch):
    x, i = _x(torch), _index(torch)
    return _errors(torch, [
        lambda: x.scatter(1, i, torch.ones(2, 2, dtype=torch.float64)),
        lambda: x.scatter(1, i.float(), 1.0),
        lambda: x.scatter(1, torch.tensor([[5]]), 1.0),
        lambda: x.scatter(1, torch.tensor([[-1]]), 1.0),
        lambda: x.scatter(1, torch.tensor([0]), 1.0),
        lambda: x.scatter(1, i, torch.tensor(2.0)),
        lambda: x.scatter(1, torch.tensor([[0, 1, 2, 0]]), torch.ones(1, 2)),
        lambda: x.scatter(1, torch.tensor([[0, 1], [0, 1], [0, 1]]), 1.0),
        lambda: x.scatter(3, i, 1.0),
        lambda: x.scatter(1, i, "a"),
        lambda: x.scatter(1, [[0]], 1.0),
        lambda: x.scatter_add(1, i, 2.0),
        lambda: torch.tensor([1, 2]).scatter(0, torch.tensor([0]), float("nan")),
    ])


def case_scatter_src_larger_than_index(torch):
    src = torch.ones(3, 3, requires_grad=True)
    y = _x(torch).scatter_add(1, torch.tensor([[0]]), src)
    try:
        torch.autograd.grad(y.sum(), src)
    except RuntimeError as error:
        return y, str(error)


@pytest.mark.parametrize("prog", programs(globals()), ids=lambda p: p.__name__[5:])
def test_parity(prog, oracle):
    check(prog, oracle)


@pytest.mark.parametrize("op", ["scatter", "scatter_add"])
def test_gradients_first_and_second_order(op):
    x = minigrad.randn(3, 4, dtype=minigrad.float64, requires_grad=True)
    src = minigrad.randn(2, 4, dtype=minigrad.float64, requires_grad=True)
    index = minigrad.tensor([[0, 2, 2, 1], [1, 0, 1, 2]])

    def f(a, b):
        return getattr(a, op)(0, index, b)
    assert gradcheck(f, (x, src))
    assert gradgradcheck(f, (x, src))


FUZZ_CASES = [  # found by the differential fuzzer: PyTorch's order of checks
    "T.zeros(2, 3).scatter_(1, T.tensor([], dtype=T.int64), 1.0)",
    "T.zeros(2, 3).scatter(1, T.tensor([], dtype=T.float32), 1.0)",
    "T.zeros(2, 3).scatter(1, T.tensor([], dtype=T.int64), T.zeros(2))",
    "T.zeros(2, 3).scatter(1, T.tensor([], dtype=T.int64), T.zeros(2, dtype=T.int64))",
    "(lambda x: x.scatter_(0, T.tensor([0]), x))(T.zeros(3))",
    "(lambda x: x.scatter_add_(0, T.tensor([0]), x[1:]))(T.zeros(3))",
    "(lambda x: x.scatter_(0, T.tensor([0]), 1.0))(T.zeros(3).expand(2, 3))",
    "(lambda x: x.scatter_(0, T.tensor([[0]]), 1.0))(T.zeros(3).expand(2, 3))",
    "(lambda x: x.scatter_(0, T.tensor([0.0]), 1.0))(T.zeros(3, requires_grad=True)[1:])",
    "T.tensor([[True, False]]).gather(0, T.tensor([], dtype=T.int64))",
    "T.zeros(2, 3).gather(0, T.zeros(0, 5, dtype=T.int64))",
    "T.zeros(0, 3).gather(1, T.tensor([[0, 1]]))",
    "T.zeros(2, 3).gather(1, T.tensor([[0, 1]] * 3))",
    "T.zeros(3).gather(1, T.tensor([[0, 1]]))",
    "(lambda x: x.scatter_(0, T.tensor([5]), x))(T.tensor([5, 1, 5], dtype=T.uint8))",
    "T.ones(3).gather(0, T.tensor([-1]))", "T.gather(T.ones(3), T.ones(3))",
    "T.gather(T.ones(3), 0)",
    "T.ones(3).gather(0, [0])", "T.ones(3).scatter(0, T.tensor([0]), None)",
    "T.ones(3).scatter(0, T.tensor([0]))",
    # x as its own src overlaps itself even when empty (another empty tensor does not)
    "(lambda x: x.scatter_add_(-2, T.tensor([], dtype=T.int64), x))(T.ones(2, 0))",
    "(lambda x: x.scatter_(0, T.tensor([], dtype=T.int64), x))(T.ones(0))",
    "T.ones(2, 0).scatter_add_(-2, T.tensor([], dtype=T.int64), T.ones(2, 0))",
]


@pytest.mark.parametrize("src", FUZZ_CASES)
def test_fuzz_case_matches_torch(oracle, src):
    agree(oracle, src)
