"""median, var_mean and std_mean (minigrad.ops.statistics) against torch 2.13."""

import pytest
from parity_expr import agree
from parity_programs import check, programs

CASES = {
    "median": "T.tensor([[1.0, 3.0, 2.0], [4.0, 0.0, 4.0]]).median()",
    "median-even": "T.tensor([1.0, 2.0, 3.0, 4.0]).median()",
    "median-dim": "T.tensor([[1.0, 3.0, 2.0], [4.0, 0.0, 4.0]]).median(1)",
    "median-dim-keepdim": "T.tensor([[1.0, 3.0, 2.0], [4.0, 0.0, 5.0]]).median(dim=0, "
                          "keepdim=True)",
    "median-fields": "(lambda r: (r.values, r.indices))(T.tensor([[3.0, 1.0, 2.0]]).median(1))",
    "median-function": "T.median(T.tensor([[3.0, 1.0, 2.0]]), 1)",
    "median-nan": "T.tensor([1.0, float('nan'), 2.0]).median()",
    "median-nan-dim": "T.tensor([[1.0, float('nan'), 2.0], [1.0, 2.0, 3.0]]).median(1)",
    "median-empty": "T.tensor([]).median()",
    "median-empty-dim": "T.zeros(0, 2).median(0)",
    "median-int": "T.tensor([3, 1, 2]).median()",
    "median-bool": "T.tensor([True, False]).median()",
    "median-0d": "T.tensor(2.0).median(0)",
    # found by the differential fuzzer: NaN converted to integer dtypes, the dim checked first
    "median-empty-uint8": "T.zeros(0, 3, dtype=T.uint8).median()",
    "median-empty-int16": "T.zeros(0, 3, dtype=T.int16).median()",
    "median-empty-int32": "T.zeros(0, 3, dtype=T.int32).median()",
    "median-empty-int64": "T.zeros(0, 3, dtype=T.int64).median()",
    "median-empty-bool": "T.zeros(0, 3, dtype=T.bool).median()",
    "median-bool-dim": "T.tensor([True]).median(0)",
    "median-bool-bad-dim": "T.tensor([True]).median(1)",
    "median-bool-empty-dim": "T.zeros(2, 0, dtype=T.bool).median(1)",
    "median-bool-dim-over-nonempty": "T.zeros(2, 0, dtype=T.bool).median(0)",
    "median-empty-dim-negative": "T.zeros(0, 3).median(-2)",
    "median-grad": "(lambda x: (x.median().backward(), x.grad)[1])"
                   "(T.tensor([[1.0, 3.0, 2.0], [4.0, 0.0, 4.0]], requires_grad=True))",
    "median-grad-ties": "(lambda x: (x.median().backward(), x.grad)[1])"
                        "(T.tensor([2.0, 1.0, 2.0, 3.0, 2.0], requires_grad=True))",
    "median-dim-grad": "(lambda x: (x.median(1).values.sum().backward(), x.grad)[1])"
                       "(T.tensor([[1.0, 3.0, 2.0], [4.0, 0.0, 4.0]], requires_grad=True))",
    "median-node": "T.ones(3, requires_grad=True).median()",
    "median-dim-node": "T.ones(2, 3, requires_grad=True).median(1)",
    "var_mean": "T.var_mean(T.tensor([[1.0, 2.0, 4.0], [0.0, 1.0, 1.0]]))",
    "var_mean-dim": "T.var_mean(T.tensor([[1.0, 2.0, 4.0], [0.0, 1.0, 1.0]]), 1, keepdim=True)",
    "var_mean-correction": "T.var_mean(T.tensor([1.0, 2.0, 4.0]), correction=0)",
    "var_mean-unbiased-false": "T.var_mean(T.tensor([1.0, 2.0, 4.0]), 0, False)",
    "var_mean-int": "T.var_mean(T.tensor([1, 2]))",
    "var_mean-node": "T.var_mean(T.ones(3, requires_grad=True))",
    "var_mean-one-node": "(lambda r: r[0].grad_fn is r[1].grad_fn)"
                         "(T.var_mean(T.ones(3, requires_grad=True)))",
    "var_mean-grad": "(lambda x: ((lambda v, m: (2 * v + 3 * m).backward())(*T.var_mean(x)), "
                     "x.grad)[1])(T.tensor([1.0, 2.0, 4.0], requires_grad=True))",
    "std_mean": "T.std_mean(T.tensor([[1.0, 2.0, 4.0], [0.0, 1.0, 1.0]]), dim=0)",
    "std_mean-node": "T.std_mean(T.ones(3, requires_grad=True))",
    "std_mean-grad": "(lambda x: ((lambda s, m: (s + m).backward())(*T.std_mean(x)), "
                     "x.grad)[1])(T.tensor([1.0, 2.0, 4.0], requires_grad=True))",
}


@pytest.mark.parametrize("src", CASES.values(), ids=CASES.keys())
def test_matches_torch(oracle, src):
    agree(oracle, src, rtol=1e-6, atol=1e-7)


def case_nanmedian(torch):
    out = []
    for values in ([1.0, float("nan"), 3.0, 2.0, float("nan")], [1.0, 0.0, 1.0, 0.0, 1.0, 0.0],
                   [float("nan")] * 3):
        x = torch.tensor(values, requires_grad=True)
        y = torch.nanmedian(x)
        y.backward()
        out.append((y, x.grad))
    return out, torch.tensor([1, 5, 3]).nanmedian()


@pytest.mark.parametrize("prog", programs(globals()), ids=lambda p: p.__name__[5:])
def test_parity(prog, oracle):
    check(prog, oracle)
