"""``F.max_pool1d/2d``, ``F.avg_pool1d/2d``, ``F.adaptive_avg_pool2d``: argument checks with
PyTorch's error texts, then one pooling node (``nn._functions.pooling``).

The 1-d forms pool a (N, C, 1, L) view with the 2-d op and squeeze it back, so their graph
ends in ``SqueezeBackward1``, as PyTorch's does.
"""

from minigrad.nn._conv_functional import ntuple
from minigrad.nn._functions.pooling import (
    AdaptiveAvgPool2D,
    AvgPool2D,
    MaxPool2DWithIndices,
    PoolParams,
    pool_output_size,
)

__all__ = ["max_pool1d", "max_pool2d", "avg_pool1d", "avg_pool2d", "adaptive_avg_pool2d"]


def _pair(value, name, op):
    pair = ntuple(value, 2)
    if len(pair) == 1:
        pair = pair * 2
    if len(pair) != 2:
        raise RuntimeError(f"{op}: {name} must either be a single int, or a tuple of two ints")
    return pair


def _wide(value, height):
    """A 1-d pooling argument as the 2-d one of a (1, L) plane."""
    return (height, ntuple(value, 1)[0])


def _params(op, input, kernel_size, stride, padding, dilation, ceil_mode,  # noqa: A002
            count_include_pad=True, divisor_override=None):
    """Checked pooling parameters, in PyTorch's order of checks."""
    if op == "max_pool2d" and input.ndim not in (3, 4):
        raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    if input.ndim < 3:  # PyTorch's avg_pool2d reads size(-3) first
        n = max(input.ndim, 1)
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], "
                         "but got -3)")
    if input.ndim not in (3, 4) or input.shape[-3] == 0:
        raise RuntimeError(f"Expected 3D or 4D (batch mode) tensor with optional 0 dim batch "
                           f"size for input, but got:{list(input.shape)}")
    kernel = _pair(kernel_size, "kernel_size", op)
    stride = kernel if stride is None or stride == [] else _pair(stride, "stride", op)
    padding, dilation = _pair(padding, "padding", op), _pair(dilation, "dilation", op)
    if any(k <= 0 for k in kernel):
        raise RuntimeError(f"kernel size should be greater than zero, but got kH: {kernel[0]} "
                           f"kW: {kernel[1]}")
    if any(s <= 0 for s in stride):
        raise RuntimeError("stride should not be zero")
    if any(p < 0 for p in padding):
        raise RuntimeError(f"pad must be non-negative, but got pad: {min(padding)}")
    for p, k, d in zip(padding, kernel, dilation):
        if p > ((k - 1) * d + 1) // 2:
            raise RuntimeError(f"pad should be at most half of effective kernel size, but got "
                               f"pad={p}, kernel_size={k} and dilation={d}")
    if any(d <= 0 for d in dilation):
        raise RuntimeError(f"dilation should be greater than zero, but got dilationH: "
                           f"{dilation[0]} dilationW: {dilation[1]}")
    params = PoolParams(kernel, stride, padding, dilation, bool(ceil_mode),
                        bool(count_include_pad), divisor_override)
    out = pool_output_size(input.shape[-2:], params)
    if any(n < 1 for n in out):
        size = "x".join(map(str, input.shape[-3:]))
        raise RuntimeError(f"Given input size: ({size}). Calculated output size: "
                           f"({input.shape[-3]}x{out[0]}x{out[1]}). Output size is too small")
    return params


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1,  # noqa: A002
               ceil_mode=False, return_indices=False):
    """The maximum of each (kH, kW) window, moving by ``stride`` (default: the kernel size)
    over the input padded with -∞. ``return_indices`` also gives where each maximum was, as an
    index into the flattened H·W plane. One ``MaxPool2DWithIndicesBackward0`` node.

    Example:
        >>> F.max_pool2d(minigrad.arange(16.0).view(1, 1, 4, 4), 2)
        tensor([[[[ 5.,  7.],
                  [13., 15.]]]])
    """
    params = _params("max_pool2d", input, kernel_size, stride, padding, dilation, ceil_mode)
    values, indices = MaxPool2DWithIndices.apply(input, params)
    return (values, indices) if return_indices else values


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1,  # noqa: A002
               ceil_mode=False, return_indices=False):
    """The maximum of each window of a (N, C, L) or (C, L) input.

    Example:
        >>> F.max_pool1d(minigrad.tensor([[1.0, 3.0, 2.0, 0.0]]), 2)
        tensor([[3., 2.]])
    """
    if input.ndim not in (2, 3):
        raise RuntimeError(f"max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 "
                           f"dim batch size for input, but got:{list(input.shape)}")
    out = max_pool2d(input.unsqueeze(-2), _wide(kernel_size, 1),
                     None if stride is None else _wide(stride, 1), _wide(padding, 0),
                     _wide(dilation, 1), ceil_mode, return_indices)
    if return_indices:
        return out[0].squeeze(-2), out[1].squeeze(-2)
    return out.squeeze(-2)


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False,  # noqa: A002
               count_include_pad=True, divisor_override=None):
    """The mean of each (kH, kW) window; zero padding counts in the mean unless
    ``count_include_pad=False``; ``divisor_override`` replaces the window size as divisor.
    One ``AvgPool2DBackward0`` node.

    Example:
        >>> F.avg_pool2d(minigrad.arange(16.0).view(1, 1, 4, 4), 2)
        tensor([[[[ 2.5000,  4.5000],
                  [10.5000, 12.5000]]]])
    """
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    params = _params("avg_pool2d", input, kernel_size, stride, padding, 1, ceil_mode,
                     count_include_pad, divisor_override)
    return AvgPool2D.apply(input, params)


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False,  # noqa: A002
               count_include_pad=True):
    """The mean of each window of a (N, C, L) or (C, L) input.

    Example:
        >>> F.avg_pool1d(minigrad.tensor([[1.0, 3.0, 2.0, 0.0]]), 2)
        tensor([[2., 1.]])
    """
    if input.ndim not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input.ndim}-dimensional "
                           "tensor for argument #1 'self' (while checking arguments for "
                           "avg_pool1d)")
    out = avg_pool2d(input.unsqueeze(-2), _wide(kernel_size, 1),
                     None if stride is None else _wide(stride, 1), _wide(padding, 0),
                     ceil_mode, count_include_pad)
    return out.squeeze(-2)


def adaptive_avg_pool2d(input, output_size):  # noqa: A002
    """Average pooling to a given output size: output row i averages input rows
    ⌊i·H/oH⌋ … ⌈(i+1)·H/oH⌉ - 1 (windows may overlap); ``None`` keeps a dim's size. An output
    of 1×1 is the mean (``MeanBackward1``), as in PyTorch.

    Example:
        >>> F.adaptive_avg_pool2d(minigrad.arange(16.0).view(1, 1, 4, 4), 1)
        tensor([[[[7.5000]]]])
    """
    if input.ndim not in (3, 4):
        raise RuntimeError(f"adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got "
                           f"{list(input.shape)}")
    size = output_size if isinstance(output_size, (list, tuple)) else (output_size,) * 2
    if len(size) != 2:
        raise RuntimeError("adaptive_avg_pool2d: output_size must be 2")
    size = tuple(n if s is None else int(s) for s, n in zip(size, input.shape[-2:]))
    if size == (1, 1):
        return input.mean((-1, -2), keepdim=True)
    return AdaptiveAvgPool2D.apply(input, size)
