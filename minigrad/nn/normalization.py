"""``LayerNorm``: normalise each sample over its last dimensions, with a learnable scale and
shift per element of those dimensions (the normalisation of transformers)."""

import numbers

import numpy as np

from minigrad import _device, _dtype
from minigrad.nn import functional as F
from minigrad.nn import init
from minigrad.nn.module import Module
from minigrad.nn.parameter import Parameter
from minigrad.tensor import Tensor

__all__ = ["LayerNorm"]


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
