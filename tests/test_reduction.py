"""Reductions (minigrad.ops.reduction) at their edges, against torch 2.13: cases the
differential fuzzer found, and gradients at NaNs and zeros."""

import pytest
from parity_expr import agree

CASES = {
    "amax-empty-dim-as-given": "T.zeros(0, 3).amax(-2)",
    "amin-empty-dim-as-given": "T.zeros(0, 3).amin(-2, True)",
    "amax-empty-dims-tuple": "T.zeros(0, 3).amax((1, -2))",
    "amax-empty-no-dim": "T.zeros(3, 0).amax()",
    "amax-empty-empty-list": "T.zeros(3, 0).amax([])",
    "max-empty-dim-normalised": "T.zeros(0, 3).max(-2)",
    # gradients at NaN: amax compares with == (a NaN column gets nan), max shares among NaNs
    "amax-grad-at-nan": "(lambda x: (x.amax(0).sum().backward(), x.grad)[1])"
                        "(T.tensor([[1.0, float('nan')], [2.0, 3.0]], requires_grad=True))",
    "max-grad-at-nan": "(lambda x: (x.max().backward(), x.grad)[1])"
                       "(T.tensor([1.0, float('nan'), 2.0], requires_grad=True))",
    # mean: float16 summed in float32 (no overflow at 65504 + 65504); of nothing: nan
    "mean-float16-accumulates-in-float32": "T.tensor([60000.0, 60000.0, -60000.0, -59000.0],"
                                           " dtype=T.float16).mean()",
    "mean-empty-is-nan": "T.zeros(3, 0).mean()",
    "mean-empty-grad": "(lambda x: (x.mean().backward(), x.grad)[1])"
                       "(T.zeros(0, 2, requires_grad=True))",
    "prod-grad-two-zeros": "(lambda x: (x.prod().backward(), x.grad)[1])"
                           "(T.tensor([0.0, 2.0, 0.0, 3.0], requires_grad=True))",
}


@pytest.mark.parametrize("src", CASES.values(), ids=CASES.keys())
def test_matches_torch(oracle, src):
    agree(oracle, src)


def test_mean_of_nothing_warns_nothing():
    """PyTorch's mean of an empty tensor is nan, quietly (NumPy's warns "Mean of empty
    slice")."""
    import warnings

    import minigrad
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert minigrad.zeros(2, 0).mean().isnan().item()
