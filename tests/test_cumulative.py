"""``cumsum``, ``cumprod`` and ``flip`` (minigrad/ops/cumulative.py): values, dtypes, nodes,
gradients (zeros in a running product included, three orders deep: its gradient there is
built without a division) and errors vs torch 2.13."""

import numpy as np
import pytest
from oracle import assert_matches
from parity_expr import agree
from parity_programs import check, programs

import minigrad
from minigrad.autograd import gradcheck, gradgradcheck


def _x(torch):
    return torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)


def _weights(torch):
    return torch.arange(6.0).view(2, 3)


def case_cumsum(torch):
    x = _x(torch)
    y = x.cumsum(1)
    (y * _weights(torch)).sum().backward()
    return y, x.grad, torch.cumsum(x, dim=-2), x.cumsum(dim=0, dtype=torch.float64)


def case_cumprod(torch):
    x = _x(torch)
    y = x.cumprod(0)
    (y * _weights(torch)).sum().backward()
    return y, x.grad, [n for n in dir(y.grad_fn) if n in ("_saved_self", "_saved_result")]


def case_cumprod_with_zeros(torch):
    x = torch.tensor([[1.0, 0.0, 3.0, 2.0], [0.0, 0.0, 6.0, 1.0]], requires_grad=True)
    y = x.cumprod(1)
    (y * torch.arange(8.0).view(2, 4)).sum().backward()
    return y, x.grad


def case_scan_dtypes(torch):
    return (torch.tensor([1, 2]).cumsum(0), torch.tensor([True, True]).cumsum(0),
            torch.tensor([1, 2], dtype=torch.int32).cumsum(0),
            torch.tensor([1, 2], dtype=torch.uint8).cumprod(0),
            torch.tensor([1.5, 2.0]).cumsum(0, dtype=torch.int64), torch.tensor(3.0).cumsum(-1),
            torch.zeros(0, 3).cumsum(0), torch.tensor([1, 2], dtype=torch.int32).cumsum_(0))


def case_scan_in_place(torch):
    x = _x(torch) * 1
    x.cumsum_(1)
    y = x * 1
    y.cumprod_(0)
    return x, y, x.grad_fn.name(), y.grad_fn.name()


def case_flip(torch):
    x = _x(torch)
    y = x.flip(0, 1)
    (y * _weights(torch)).sum().backward()
    return (y, x.grad, x.flip([0]), x.flip((1,)), x.flip(dims=(1,)), torch.flip(x, (-1,)),
            torch.tensor(1.0).flip(0), torch.tensor([True, False]).flip(0),
            x.flip(0).is_contiguous(), x.flip(0)._base is x)


def _errors(torch, calls):
    out = []
    for call in calls:
        try:
            call()
            out.append("no error")
        except (RuntimeError, IndexError, TypeError) as error:
            out.append([type(error).__name__, str(error).split("\n")[0]])
    return out


def case_errors(torch):
    x = _x(torch)
    return _errors(torch, [
        lambda: x.cumsum(2), lambda: x.cumsum(), lambda: x.cumsum(1.5), lambda: x.cumsum(None),
        lambda: x.cumprod((1,)), lambda: torch.tensor(3.0).cumsum(1),
        lambda: torch.tensor([1.0, 2]).cumsum_(0, dtype=torch.float64),
        lambda: x.flip(), lambda: x.flip(0, 0), lambda: x.flip(2), lambda: x.flip(-3),
        lambda: x.flip(1.5), lambda: torch.flip(x, 1),
    ])


@pytest.mark.parametrize("prog", programs(globals()), ids=lambda p: p.__name__[5:])
def test_parity(prog, oracle):
    check(prog, oracle)


@pytest.mark.parametrize("fn", [
    lambda x: x.cumsum(1), lambda x: x.cumprod(0), lambda x: x.cumprod(1),
    lambda x: (x * minigrad.tensor([[1.0, 0.0, 1.0], [0.0, 1.0, 0.0]],
                                   dtype=minigrad.float64)).cumprod(1),
    lambda x: x.flip(0, 1)], ids=["cumsum", "cumprod0", "cumprod1", "cumprod-zeros", "flip"])
def test_gradients_first_and_second_order(fn):
    x = minigrad.randn(2, 3, dtype=minigrad.float64, requires_grad=True)
    assert gradcheck(fn, (x,))
    assert gradgradcheck(fn, (x,))


FUZZ_CASES = [  # found by the differential fuzzer
    "T.tensor([True]).cumprod_(0)", "T.tensor([True]).cumsum_(0)",
    "T.tensor([True]).cumsum(0, dtype=T.bool)", "T.tensor([1, 2], dtype=T.uint8).cumsum_(0)",
    "T.cumsum(T.ones(2), T.ones(2))", "T.cumprod(T.ones(2), 1.5)", "T.ones(2).cumsum(1.5)",
]


@pytest.mark.parametrize("src", FUZZ_CASES)
def test_fuzz_case_matches_torch(oracle, src):
    agree(oracle, src)


def _three_orders(lib, values):
    """First, second and third derivatives of Σ w · cumprod(x, 1), each weighted again."""
    x = lib.tensor(values, dtype=lib.float64, requires_grad=True)
    rng = np.random.default_rng(3)
    weights = [lib.tensor(rng.uniform(0.5, 1.5, x.shape), dtype=lib.float64) for _ in range(3)]
    scalar = (lib.cumprod(x, 1) * weights[0]).sum()
    grads = []
    for w in weights[1:] + [None]:
        (g,) = lib.autograd.grad(scalar, x, create_graph=True)
        grads.append(g)
        if w is not None:
            scalar = (g * g * w).sum()
    return grads


@pytest.mark.parametrize("values", [
    [[1.5, 0.0, -2.0, 0.5], [0.0, 0.0, 3.0, 1.0]],   # one zero, two zeros in a row
    [[0.0, 2.0, 0.7, -1.2], [1.1, -0.4, 0.9, 0.0]],  # a zero first, a zero last
], ids=["inner-zeros", "end-zeros"])
def test_cumprod_gradients_at_zeros_match_torch(values, oracle):
    expected = oracle(lambda torch: [g.detach() for g in _three_orders(torch, values)])
    got = [g.detach() for g in _three_orders(minigrad, values)]
    assert_matches(got, expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("op", ["cumsum", "cumprod"])
@pytest.mark.parametrize("values, dtype", [([True, True, False], "bool"), ([2, -3, 4], "int32"),
                                           ([1.5, 2.0, -1.0], "float32"), (2.5, "float64")],
                         ids=["bool", "int32", "float32", "0d"])
def test_running_results_and_dtypes_match_torch(op, values, dtype, oracle):
    def run(lib):
        return getattr(lib, op)(lib.tensor(values, dtype=getattr(lib, dtype)), 0)
    assert_matches(run(minigrad), oracle(run))


def test_cumsum_dtype_argument_matches_torch(oracle):
    def run(lib):
        return lib.cumsum(lib.tensor([1, 2, 3]), 0, dtype=lib.float64)
    assert_matches(run(minigrad), oracle(run))


def test_method_forms_match_torch(oracle):
    def run(lib):
        x = lib.tensor([[1.0, 2.0], [3.0, 4.0]])
        return x.cumsum(0), x.cumprod(1), x.cumsum(-1, dtype=lib.float64)
    assert_matches(run(minigrad), oracle(run))
