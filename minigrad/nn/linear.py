"""``Linear`` (y = x Wᵀ + b), and the shape-only layers ``Identity``, ``Flatten`` and
``Unflatten``."""

import math

import numpy as np

from minigrad import _device, _dtype
from minigrad.nn import functional as F
from minigrad.nn import init
from minigrad.nn.module import Module
from minigrad.nn.parameter import Parameter
from minigrad.tensor import Tensor

__all__ = ["Linear", "NonDynamicallyQuantizableLinear", "Identity", "Flatten", "Unflatten"]


def _empty(*shape, dtype=None):
    np_dtype = _dtype.to_dtype(dtype).numpy if dtype is not None else _dtype.default_float.numpy
    return Tensor._make(np.empty(shape, dtype=np_dtype))


class Linear(Module):
    """y = x Wᵀ + b, with W of shape (out_features, in_features).

    Initialised as PyTorch does: W ~ U(-1/√in, 1/√in) (``kaiming_uniform_`` with a=√5) and
    b ~ U(-1/√in, 1/√in). On a matrix input the graph has one ``AddmmBackward0`` node.

    Example:
        >>> lin = nn.Linear(3, 5)
        >>> y = lin(minigrad.rand(1, 3))
        >>> y.grad_fn
        <AddmmBackward0 object at 0x...>
    """

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        _device.check_device(device)  # the CPU only: CUDA raises PyTorch's error
        self.in_features, self.out_features = in_features, out_features
        self.weight = Parameter(_empty(out_features, in_features, dtype=dtype))
        self.bias = Parameter(_empty(out_features, dtype=dtype)) if bias else None
        self.reset_parameters()

    def reset_parameters(self):
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in = self.in_features
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input):  # noqa: A002 - PyTorch's argument name
        if input.shape[-1:] != (self.in_features,):
            rows = int(np.prod(input.shape[:-1], dtype=np.int64))
            raise RuntimeError(
                f"mat1 and mat2 shapes cannot be multiplied ({rows}x{input.shape[-1]} and "
                f"{self.in_features}x{self.out_features})")
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"bias={self.bias is not None}")


class NonDynamicallyQuantizableLinear(Linear):
    """A ``Linear`` under another name, as PyTorch's ``MultiheadAttention.out_proj`` is (the
    name tells PyTorch's quantization tools to leave it alone)."""


class Identity(Module):
    """Returns its input unchanged (a placeholder, e.g. to switch a layer off).

    Example:
        >>> x = minigrad.ones(2)
        >>> nn.Identity()(x) is x
        True
    """

    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):  # noqa: A002
        return input


class Flatten(Module):
    """Flattens dims ``start_dim`` … ``end_dim`` into one (by default all but the batch dim).

    Example:
        >>> nn.Flatten()(minigrad.ones(2, 3, 4)).shape
        minigrad.Size([2, 12])
    """

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim, self.end_dim = start_dim, end_dim

    def forward(self, input):  # noqa: A002
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self):
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Unflatten(Module):
    """Splits dimension ``dim`` into ``unflattened_size`` (the inverse of ``Flatten``).

    Example:
        >>> nn.Unflatten(1, (2, 3))(minigrad.ones(4, 6)).shape
        minigrad.Size([4, 2, 3])
    """

    def __init__(self, dim, unflattened_size):
        super().__init__()
        self.dim, self.unflattened_size = dim, unflattened_size

    def forward(self, input):  # noqa: A002
        return input.unflatten(self.dim, self.unflattened_size)

    def extra_repr(self):
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"
