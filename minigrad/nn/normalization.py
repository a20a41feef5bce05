"""``LayerNorm``: normalise each sample over its last dimensions, with a learnable scale and
shift per element of those dimensions (the normalisation of transformers); ``GroupNorm``:
normalise groups of channels."""

import numbers

import numpy as np

from minigrad import _device, _dtype
from minigrad.nn import functional as F
from minigrad.nn import init
from minigrad.nn.module import Module
from minigrad.nn.parameter import Parameter
from minigrad.tensor import Tensor

__all__ = ["LayerNorm", "GroupNorm"]


def _empty(shape, dtype):
    np_dtype = _dtype.to_dtype(dtype).numpy if dtype is not None else _dtype.default_float.numpy
    return Tensor._make(np.empty(shape, np_dtype))


class LayerNorm(Module):
    """y = (x - mean)/√(var + eps)·weight + bias, the mean and (biased) variance taken over the
    last ``len(normalized_shape)`` dimensions of each sample (node
    ``NativeLayerNormBackward0``). ``weight`` starts at 1 and ``bias`` at 0, both of shape
    ``normalized_shape``; the same in training and eval mode (no running statistics).

    Example:
        >>> ln = nn.LayerNorm(2)
        >>> ln
        LayerNorm((2,), eps=1e-05, elementwise_affine=True, bias=True)
        >>> ln(minigrad.tensor([[1.0, 3.0]]))
        tensor([[-1.0000,  1.0000]], grad_fn=<NativeLayerNormBackward0>)
    """

    def __init__(self, normalized_shape, eps=1e-5, elementwise_affine=True, bias=True,
                 device=None, dtype=None):
        super().__init__()
        _device.check_device(device)  # the CPU only: CUDA raises PyTorch's error
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps, self.elementwise_affine = eps, elementwise_affine
        self.register_parameter("weight", Parameter(_empty(self.normalized_shape, dtype))
                                if elementwise_affine else None)
        self.register_parameter("bias", Parameter(_empty(self.normalized_shape, dtype))
                                if elementwise_affine and bias else None)
        self.reset_parameters()

    def reset_parameters(self):
        if self.elementwise_affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def forward(self, input):  # noqa: A002 - PyTorch's argument name
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return (f"{self.normalized_shape}, eps={self.eps}, "
                f"elementwise_affine={self.elementwise_affine}, bias={self.bias is not None}")


class GroupNorm(Module):
    """y = (x - mean)/√(var + eps)·weight + bias, the mean and (biased) variance taken per
    sample over each of ``num_groups`` groups of channels (and all positions); ``weight``
    (ones) and ``bias`` (zeros) have one value per channel (node ``NativeGroupNormBackward0``).

    Example:
        >>> gn = nn.GroupNorm(2, 4)
        >>> gn
        GroupNorm(2, 4, eps=1e-05, affine=True, bias=True)
        >>> gn(minigrad.tensor([[1.0, 3.0, 5.0, 5.0]]))
        tensor([[-1.0000,  1.0000,  0.0000,  0.0000]], grad_fn=<NativeGroupNormBackward0>)
    """

    def __init__(self, num_groups, num_channels, eps=1e-5, affine=True, device=None,
                 dtype=None, *, bias=True):
        super().__init__()
        _device.check_device(device)
        if num_channels % num_groups != 0:
            raise ValueError(f"num_channels ({num_channels}) must be divisible by num_groups "
                             f"({num_groups})")
        self.num_groups, self.num_channels, self.eps = num_groups, num_channels, eps
        self.affine = affine
        self.register_parameter("weight", Parameter(_empty((num_channels,), dtype))
                                if affine else None)
        self.register_parameter("bias", Parameter(_empty((num_channels,), dtype))
                                if affine and bias else None)
        self.reset_parameters()

    def reset_parameters(self):
        if self.affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def forward(self, input):  # noqa: A002 - PyTorch's argument name
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return (f"{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}, "
                f"bias={self.bias is not None}")
