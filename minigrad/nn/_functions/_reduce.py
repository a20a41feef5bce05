"""The ``reduction=`` argument of the losses: 'none', 'mean' or 'sum'."""

import numpy as np

__all__ = ["REDUCTIONS", "reduction_code", "reduce_array", "scale_for_reduction"]

REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}


def reduction_code(reduction):
    """PyTorch's integer code for ``reduction`` (what ``_saved_reduction`` shows)."""
    if reduction not in REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return REDUCTIONS[reduction]


def reduce_array(values, reduction):
    if reduction == "mean":
        return np.asarray(values.mean(dtype=values.dtype))
    if reduction == "sum":
        return np.asarray(values.sum(dtype=values.dtype))
    return values


def scale_for_reduction(grad, reduction, numel):
    """The gradient of the reduction itself: 1/n for 'mean', 1 otherwise."""
    return grad / numel if reduction == "mean" else grad
