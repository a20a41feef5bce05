"""``BatchNorm1d/2d/3d``: normalise each channel over the batch; running statistics for
eval."""

import numpy as np

from minigrad import _device, _dtype
from minigrad.nn import functional as F
from minigrad.nn.module import Module
from minigrad.nn.parameter import Parameter
from minigrad.tensor import Tensor

__all__ = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d"]


class _BatchNorm(Module):
    """y = (x - mean)/√(var + eps)·weight + bias per channel (dim 1 of the input).

    In training mode the mean and (biased) variance of the batch are used, and the buffers
    ``running_mean``/``running_var`` move towards them by ``momentum`` (``None``: a cumulative
    average). In eval mode the running statistics are used instead, so one sample can be
    normalised: this is why ``model.eval()`` matters for inference. Subclasses say which input
    ranks they take (``_check_input_dim``).
    """

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True,
                 track_running_stats=True, device=None, dtype=None):
        super().__init__()
        _device.check_device(device)  # the CPU only: CUDA raises PyTorch's error
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        np_dtype = _dtype.to_dtype(dtype).numpy if dtype is not None else np.float32
        if affine:
            self.weight = Parameter(Tensor._make(np.ones(num_features, np_dtype)))
            self.bias = Parameter(Tensor._make(np.zeros(num_features, np_dtype)))
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        if track_running_stats:
            self.register_buffer("running_mean", Tensor._make(np.zeros(num_features, np_dtype)))
            self.register_buffer("running_var", Tensor._make(np.ones(num_features, np_dtype)))
            self.register_buffer("num_batches_tracked", Tensor._make(np.array(0, np.int64)))
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)

    _input_ranks = ()  # the ranks a subclass takes

    def _check_input_dim(self, input):  # noqa: A002 - PyTorch's argument name
        if input.ndim not in self._input_ranks:
            expected = " or ".join(f"{rank}D" for rank in self._input_ranks)
            raise ValueError(f"expected {expected} input (got {input.ndim}D input)")

    def reset_running_stats(self):
        if self.track_running_stats:
            self.running_mean._data[...] = 0
            self.running_var._data[...] = 1
            self.num_batches_tracked._data[...] = 0

    def forward(self, input):  # noqa: A002 - PyTorch's argument name
        self._check_input_dim(input)
        momentum = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats:
            self.num_batches_tracked._data[...] += 1
            self.num_batches_tracked._bump_version()
            if self.momentum is None:
                momentum = 1.0 / float(self.num_batches_tracked._data)
        use_batch_stats = self.training or self.running_mean is None
        tracked = not self.training or self.track_running_stats
        return F.batch_norm(input, self.running_mean if tracked else None,
                            self.running_var if tracked else None, self.weight, self.bias,
                            use_batch_stats, momentum, self.eps)

    def extra_repr(self):
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, "
                f"affine={self.affine}, bias={self.affine}, "
                f"track_running_stats={self.track_running_stats}")


class BatchNorm1d(_BatchNorm):
    """Batch normalisation of an (N, C) or (N, C, L) input, per feature C.

    Example:
        >>> bn = nn.BatchNorm1d(2)
        >>> y = bn(minigrad.tensor([[1.0, 2.0], [3.0, 6.0]]))
        >>> y
        tensor([[-1.0000, -1.0000],
                [ 1.0000,  1.0000]], grad_fn=<NativeBatchNormBackward0>)
        >>> bn.running_mean
        tensor([0.2000, 0.4000])
    """

    _input_ranks = (2, 3)


class BatchNorm2d(_BatchNorm):
    """Batch normalisation of an (N, C, H, W) input, per channel C (statistics over N, H, W)."""

    _input_ranks = (4,)


class BatchNorm3d(_BatchNorm):
    """Batch normalisation of an (N, C, D, H, W) input, per channel C."""

    _input_ranks = (5,)
