"""``F.conv1d``, ``F.conv2d``, ``F.conv_transpose1d``, ``F.conv_transpose2d``: argument checks
with PyTorch's error texts, then one ``ConvolutionBackward0`` node (``nn._functions.conv``).

An unbatched input (no batch dim) is given one and has it removed again, as PyTorch does
(the graph then ends in ``SqueezeBackward1``).
"""

import warnings

from minigrad.nn._functions.conv import Convolution, ConvParams

__all__ = ["conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
           "conv_transpose3d", "ntuple"]


def ntuple(value, n):
    """``value`` as a tuple of ``n`` ints (one int is repeated)."""
    if isinstance(value, (list, tuple)):
        return tuple(int(v) for v in value)
    return (int(value),) * n


def _dims(name, input, weight, dims):  # noqa: A002 - PyTorch's argument name
    """Check ranks; return (input with a batch dim, whether one was added)."""
    if input.ndim not in (dims + 1, dims + 2):
        raise RuntimeError(f"Expected {dims + 1}D (unbatched) or {dims + 2}D (batched) input to "
                           f"{name}, but got input of size: {list(input.shape)}")
    if input._data.dtype != weight._data.dtype:
        raise RuntimeError(f"expected scalar type {_type_name(input)} but found "
                           f"{_type_name(weight)}")
    unbatched = input.ndim == dims + 1
    return (input.unsqueeze(0) if unbatched else input), unbatched


def _type_name(t):
    return {"float32": "Float", "float64": "Double", "float16": "Half", "int64": "Long",
            "int32": "Int"}.get(t._data.dtype.name, t._data.dtype.name)


def _padding(padding, weight, stride, dilation):
    """Padding as (before, after) pairs; 'valid' is none, 'same' keeps the size (the odd one
    out of an even kernel goes after, as PyTorch pads it)."""
    dims = weight.ndim - 2
    if isinstance(padding, str):
        if padding == "valid":
            return ((0, 0),) * dims
        if padding != "same":
            raise RuntimeError(f"Invalid padding string: '{padding}'")
        if any(s != 1 for s in stride):
            raise RuntimeError("padding='same' is not supported for strided convolutions")
        total = [d * (k - 1) for d, k in zip(dilation, weight.shape[2:])]
        if any(t % 2 for t in total):
            warnings.warn("Using padding='same' with even kernel lengths and odd dilation may "
                          "require a zero-padded copy of the input be created", UserWarning,
                          stacklevel=4)
        return tuple((t // 2, t - t // 2) for t in total)
    padding = ntuple(padding, dims)
    if any(p < 0 for p in padding):
        raise RuntimeError("negative padding is not supported")
    return tuple((p, p) for p in padding)


def _geometry(input, weight, stride, dilation, fn_dims):  # noqa: A002
    """Stride and dilation with one entry per spatial dim of the weight (a single value is
    repeated); then the ranks of input and weight must agree."""
    dims = weight.ndim - 2
    stride, dilation = ntuple(stride, fn_dims), ntuple(dilation, fn_dims)
    stride, dilation = (v * dims if len(v) == 1 else v for v in (stride, dilation))
    for name, value in (("stride", stride), ("dilation", dilation)):
        if len(value) != dims:
            raise RuntimeError(f"expected {name} to be a single integer value or a list of "
                               f"{dims} values to match the convolution dimensions, but got "
                               f"{name}={list(value)}")
    if input.ndim != weight.ndim:
        raise RuntimeError(f"Expected {weight.ndim}-dimensional input for {weight.ndim}-"
                           f"dimensional weight {list(weight.shape)}, but got {input.ndim}-"
                           f"dimensional input of size {list(input.shape)} instead")
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(d <= 0 for d in dilation):
        raise RuntimeError(f"dilation should be greater than zero, but got {list(dilation)}")
    return stride, dilation


def _check_channels(input, weight, bias, groups, transposed):  # noqa: A002
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    w, x = list(weight.shape), list(input.shape)
    out_channels = weight.shape[1] * groups if transposed else weight.shape[0]
    if not transposed and weight.shape[0] % groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} "
                           f"at dimension 0, but got weight of size [{w}] instead")
    expected = weight.shape[0] if transposed else weight.shape[1] * groups
    if input.shape[1] != expected:
        given = f"transposed=1, weight of size {w}" if transposed else \
            f"groups={groups}, weight of size {w}"
        raise RuntimeError(f"Given {given}, expected input{x} to have {expected} channels, but "
                           f"got {input.shape[1]} channels instead")
    if bias is not None and (bias.ndim != 1 or bias.shape[0] != out_channels):
        raise RuntimeError(f"Given weight of size {w}, expected bias to be 1-dimensional with "
                           f"{out_channels} elements, but got bias of size {list(bias.shape)} "
                           "instead")


def _check_kernel_fits(input, weight, padding, dilation):  # noqa: A002
    padded = [s + lo + hi for s, (lo, hi) in zip(input.shape[2:], padding)]
    kernel = [d * (k - 1) + 1 for d, k in zip(dilation, weight.shape[2:])]
    if any(k > s for k, s in zip(kernel, padded)):
        raise RuntimeError(f"Calculated padded input size per channel: "
                           f"({' x '.join(map(str, padded))}). Kernel size: "
                           f"({' x '.join(map(str, kernel))}). Kernel size can't be greater "
                           "than actual input size")


def _conv(name, dims, input, weight, bias, stride, padding, dilation, groups):  # noqa: A002
    input, unbatched = _dims(name, input, weight, dims)
    stride, dilation = _geometry(input, weight, stride, dilation, dims)
    padding = _padding(padding, weight, stride, dilation)
    _check_channels(input, weight, bias, groups, transposed=False)
    _check_kernel_fits(input, weight, padding, dilation)
    params = ConvParams(stride, padding, dilation, False, (0,) * dims, groups)
    out = Convolution.apply(input, weight, bias, params)
    return out.squeeze(0) if unbatched else out


def _conv_transpose(name, dims, input, weight, bias, stride, padding, output_padding,  # noqa: A002
                    groups, dilation):
    input, unbatched = _dims(name, input, weight, dims)
    stride, dilation = _geometry(input, weight, stride, dilation, dims)
    if isinstance(padding, str):
        raise TypeError(f"{name}(): argument 'padding' must be tuple of ints, not str")
    padding = _padding(padding, weight, stride, dilation)
    output_padding = ntuple(output_padding, dims)
    if any(op >= max(s, d) for op, s, d in zip(output_padding, stride, dilation)):
        axes = ("height", "width") if dims == 2 else ("",) if dims == 1 else ("",) * dims
        parts = [f"output_padding_{a}: {op}" for a, op in zip(axes, output_padding)]
        parts += [f"stride_{a}: {s}" for a, s in zip(axes, stride)]
        parts += [f"dilation_{a}: {d}" for a, d in zip(axes, dilation)]
        raise RuntimeError("output padding must be smaller than either stride or dilation, but "
                           f"got {' '.join(parts)}")
    _check_channels(input, weight, bias, groups, transposed=True)
    params = ConvParams(stride, padding, dilation, True, output_padding, groups)
    size = params.transposed_size(input.shape[2:], weight.shape[2:])
    if any(s <= 0 for s in size):
        raise RuntimeError(f"Given input size per channel: ({' x '.join(map(str, input.shape[2:]))}"
                           f"). Calculated output size per channel: "
                           f"({' x '.join(map(str, size))}). Output size is too small")
    out = Convolution.apply(input, weight, bias, params)
    return out.squeeze(0) if unbatched else out


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):  # noqa: A002
    """A 1-d convolution (cross-correlation) of ``(N, C, L)`` with weight ``(O, C/groups, K)``.

    Example:
        >>> F.conv1d(minigrad.ones(1, 1, 4), minigrad.ones(1, 1, 2))
        tensor([[[2., 2., 2.]]])
    """
    return _conv("conv1d", 1, input, weight, bias, stride, padding, dilation, groups)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):  # noqa: A002
    """A 2-d convolution (cross-correlation) of ``(N, C, H, W)`` with weight
    ``(O, C/groups, kH, kW)``: y[n, o] = Σ_c w[o, c] ⋆ x[n, c] + b[o]. ``padding`` may be a
    number, a pair, ``'valid'`` (none) or ``'same'`` (output as large as the input). One
    ``ConvolutionBackward0`` node, as in PyTorch.

    Example:
        >>> x = minigrad.arange(9.0).view(1, 1, 3, 3)
        >>> F.conv2d(x, minigrad.ones(1, 1, 2, 2))
        tensor([[[[ 8., 12.],
                  [20., 24.]]]])
    """
    return _conv("conv2d", 2, input, weight, bias, stride, padding, dilation, groups)


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):  # noqa: A002
    """A 3-d convolution of ``(N, C, D, H, W)`` with weight ``(O, C/groups, kD, kH, kW)``.

    Example:
        >>> F.conv3d(minigrad.ones(1, 1, 2, 2, 2), minigrad.ones(1, 1, 2, 2, 2)).view(-1)
        tensor([8.])
    """
    return _conv("conv3d", 3, input, weight, bias, stride, padding, dilation, groups)


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0,  # noqa: A002
                     output_padding=0, groups=1, dilation=1):
    """The transposed 1-d convolution (the gradient of ``conv1d`` in its input), weight
    ``(C, O/groups, K)``.

    Example:
        >>> F.conv_transpose1d(minigrad.ones(1, 1, 2), minigrad.ones(1, 1, 2))
        tensor([[[1., 2., 1.]]])
    """
    return _conv_transpose("conv_transpose1d", 1, input, weight, bias, stride, padding,
                           output_padding, groups, dilation)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0,  # noqa: A002
                     output_padding=0, groups=1, dilation=1):
    """The transposed 2-d convolution, weight ``(C, O/groups, kH, kW)``: each input pixel
    adds a copy of the kernel, scaled by its value, to the output (the gradient of ``conv2d``
    in its input). Output size (H-1)·stride - 2·padding + dilation·(kH-1) + output_padding + 1.

    Example:
        >>> F.conv_transpose2d(minigrad.ones(1, 1, 1, 2), minigrad.ones(1, 1, 2, 2))
        tensor([[[[1., 2., 1.],
                  [1., 2., 1.]]]])
    """
    return _conv_transpose("conv_transpose2d", 2, input, weight, bias, stride, padding,
                           output_padding, groups, dilation)


def conv_transpose3d(input, weight, bias=None, stride=1, padding=0,  # noqa: A002
                     output_padding=0, groups=1, dilation=1):
    """The transposed 3-d convolution, weight ``(C, O/groups, kD, kH, kW)``.

    Example:
        >>> F.conv_transpose3d(minigrad.ones(1, 1, 1, 1, 1), minigrad.ones(1, 1, 2, 2, 2)).shape
        minigrad.Size([1, 1, 2, 2, 2])
    """
    return _conv_transpose("conv_transpose3d", 3, input, weight, bias, stride, padding,
                           output_padding, groups, dilation)
