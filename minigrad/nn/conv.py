"""Convolution layers: ``Conv1d``, ``Conv2d``, ``Conv3d`` and their ``ConvTranspose*``.

Each holds a weight and an optional bias, initialised as PyTorch does, and calls ``F.conv*``
(one ``ConvolutionBackward0`` node). With ``padding_mode`` ``"reflect"`` or ``"replicate"``,
the input is padded by ``F.pad`` first (a ``ReflectionPad*Backward0`` or
``ReplicationPad*Backward0`` node), and the convolution itself pads nothing, as in PyTorch.
"""

import math

from minigrad import _device
from minigrad.nn import functional as F
from minigrad.nn import init
from minigrad.nn._conv_functional import ntuple
from minigrad.nn.linear import _empty
from minigrad.nn.module import Module
from minigrad.nn.parameter import Parameter

__all__ = ["Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d",
           "ConvTranspose3d"]


def _pads_for_f_pad(padding, kernel_size, dilation):
    """``padding`` as ``F.pad`` takes it, the last dimension first, (before, after) each
    (PyTorch's ``_reversed_padding_repeated_twice``): ``'same'`` puts the odd element after."""
    if padding == "valid":
        return [0, 0] * len(kernel_size)
    if padding == "same":
        pads = []
        for k, d in zip(reversed(kernel_size), reversed(dilation)):
            total = d * (k - 1)
            pads += [total // 2, total - total // 2]
        return pads
    return tuple(p for p in reversed(padding) for _ in range(2))


class _ConvNd(Module):
    """What the convolution layers share: checks, parameters, their initialisation, repr."""

    _dims = 2
    _transposed = False

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 dilation=1, groups=1, bias=True, padding_mode="zeros", device=None,
                 dtype=None, output_padding=0):
        super().__init__()
        if padding_mode != "zeros" and self._transposed:
            raise ValueError(f'Only "zeros" padding mode is supported for {type(self).__name__}')
        _device.check_device(device)  # the CPU only: CUDA raises PyTorch's error
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        n = self._dims
        self.stride, self.dilation = ntuple(stride, n), ntuple(dilation, n)
        if isinstance(padding, str):
            if padding not in ("same", "valid"):
                raise ValueError(f"Invalid padding string {padding!r}, should be one of "
                                 "{'valid', 'same'}")
            if padding == "same" and any(s != 1 for s in self.stride):
                raise ValueError("padding='same' is not supported for strided convolutions")
        else:
            padding = ntuple(padding, n)
        if padding_mode not in ("zeros", "reflect", "replicate", "circular"):
            raise ValueError("padding_mode must be one of ['zeros', 'reflect', 'replicate', "
                             f"'circular'], but got padding_mode='{padding_mode}'")
        if padding_mode == "circular":  # NB: minigrad's F.pad has no circular mode
            raise NotImplementedError("padding_mode='circular' is not supported by minigrad")
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size, self.padding = ntuple(kernel_size, n), padding
        self._reversed_padding_repeated_twice = _pads_for_f_pad(padding, self.kernel_size,
                                                               self.dilation)
        self.transposed, self.output_padding = self._transposed, ntuple(output_padding, n)
        self.groups, self.padding_mode = groups, padding_mode
        shape = ((in_channels, out_channels // groups) if self._transposed
                 else (out_channels, in_channels // groups)) + self.kernel_size
        self.weight = Parameter(_empty(*shape, dtype=dtype))
        self.bias = Parameter(_empty(out_channels, dtype=dtype)) if bias else None
        self.reset_parameters()

    def reset_parameters(self):
        """W ~ kaiming_uniform_(a=√5), b ~ U(-1/√fan_in, 1/√fan_in), as PyTorch."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

    def _conv_forward(self, input, weight, bias):  # noqa: A002 - PyTorch's names
        """The convolution with ``weight`` and ``bias`` (PyTorch's hook for subclasses that
        transform the weight first); a padding mode other than zeros pads with ``F.pad``."""
        padding = self.padding
        if self.padding_mode != "zeros":
            input = F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode)
            padding = 0
        return self._conv(input, weight, bias, self.stride, padding, self.dilation, self.groups)

    def forward(self, input):  # noqa: A002
        return self._conv_forward(input, self.weight, self.bias)

    def extra_repr(self):
        text = (f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
                f"stride={self.stride}")
        if self.padding != (0,) * len(self.kernel_size):
            text += f", padding={self.padding}"
        if self.dilation != (1,) * len(self.kernel_size):
            text += f", dilation={self.dilation}"
        if self.output_padding != (0,) * len(self.kernel_size):
            text += f", output_padding={self.output_padding}"
        if self.groups != 1:
            text += f", groups={self.groups}"
        if self.bias is None:
            text += ", bias=False"
        if self.padding_mode != "zeros":
            text += f", padding_mode={self.padding_mode}"
        return text


class Conv1d(_ConvNd):
    """A 1-d convolution layer over (N, C, L) inputs.

    Example:
        >>> nn.Conv1d(3, 6, 3)
        Conv1d(3, 6, kernel_size=(3,), stride=(1,))
    """

    _dims = 1

    _conv = staticmethod(F.conv1d)


class Conv2d(_ConvNd):
    """A 2-d convolution layer: ``out_channels`` kernels of shape
    (in_channels/groups, kH, kW) slide over an (N, C, H, W) input.

    Example:
        >>> conv = nn.Conv2d(1, 6, 5)
        >>> conv
        Conv2d(1, 6, kernel_size=(5, 5), stride=(1, 1))
        >>> conv(minigrad.rand(1, 1, 32, 32)).shape
        minigrad.Size([1, 6, 28, 28])
    """

    _conv = staticmethod(F.conv2d)


class Conv3d(_ConvNd):
    """A 3-d convolution layer over (N, C, D, H, W) inputs (volumes, or video).

    Example:
        >>> nn.Conv3d(2, 4, 3, padding=1)
        Conv3d(2, 4, kernel_size=(3, 3, 3), stride=(1, 1, 1), padding=(1, 1, 1))
    """

    _dims = 3

    _conv = staticmethod(F.conv3d)


class _ConvTransposeNd(_ConvNd):
    _transposed = True

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 output_padding=0, groups=1, bias=True, dilation=1, padding_mode="zeros",
                 device=None, dtype=None):
        if isinstance(padding, str):
            raise TypeError(f"{type(self).__name__}: padding must be an int or a tuple")
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, bias, padding_mode, device, dtype, output_padding)

    def _output_padding(self, input, output_size):  # noqa: A002
        if output_size is None:
            return self.output_padding
        size = list(output_size)[-self._dims:]
        natural = [(s - 1) * st - 2 * p + d * (k - 1) + 1 for s, st, p, d, k in zip(
            input.shape[-self._dims:], self.stride, self.padding, self.dilation,
            self.kernel_size)]
        return tuple(s - n for s, n in zip(size, natural))


class ConvTranspose1d(_ConvTransposeNd):
    """A transposed 1-d convolution layer (weight (in, out/groups, K)).

    Example:
        >>> nn.ConvTranspose1d(3, 6, 3)
        ConvTranspose1d(3, 6, kernel_size=(3,), stride=(1,))
    """

    _dims = 1

    def forward(self, input, output_size=None):  # noqa: A002
        return F.conv_transpose1d(input, self.weight, self.bias, self.stride, self.padding,
                                  self._output_padding(input, output_size), self.groups,
                                  self.dilation)


class ConvTranspose2d(_ConvTransposeNd):
    """A transposed 2-d convolution layer (weight (in, out/groups, kH, kW)): the gradient of
    a ``Conv2d`` in its input, used to upsample.

    Example:
        >>> up = nn.ConvTranspose2d(3, 6, 3, stride=2, output_padding=1)
        >>> up
        ConvTranspose2d(3, 6, kernel_size=(3, 3), stride=(2, 2), output_padding=(1, 1))
        >>> up(minigrad.rand(1, 3, 4, 4)).shape
        minigrad.Size([1, 6, 10, 10])
    """

    def forward(self, input, output_size=None):  # noqa: A002
        return F.conv_transpose2d(input, self.weight, self.bias, self.stride, self.padding,
                                  self._output_padding(input, output_size), self.groups,
                                  self.dilation)


class ConvTranspose3d(_ConvTransposeNd):
    """A transposed 3-d convolution layer (weight (in, out/groups, kD, kH, kW)).

    Example:
        >>> nn.ConvTranspose3d(2, 4, 3, stride=2)
        ConvTranspose3d(2, 4, kernel_size=(3, 3, 3), stride=(2, 2, 2))
    """

    _dims = 3

    def forward(self, input, output_size=None):  # noqa: A002
        return F.conv_transpose3d(input, self.weight, self.bias, self.stride, self.padding,
                                  self._output_padding(input, output_size), self.groups,
                                  self.dilation)
