"""``nn.init``: fill a tensor in place with the values a layer starts from.

Every function writes into ``tensor._data`` without recording a graph (as under ``no_grad``),
bumps the tensor's version counter and returns the tensor. Random values come from
``minigrad.factories.get_rng()``, the generator ``minigrad.manual_seed`` seeds.
"""

import math
import warnings

import numpy as np

from minigrad.factories import get_rng

__all__ = ["calculate_gain", "uniform_", "normal_", "trunc_normal_", "constant_", "zeros_",
           "ones_", "eye_", "xavier_uniform_", "xavier_normal_", "kaiming_uniform_",
           "kaiming_normal_"]

_LINEAR = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
           "conv_transpose3d")


def calculate_gain(nonlinearity, param=None):
    """The factor by which a nonlinearity's inputs should be scaled to keep variances stable.

    Example:
        >>> nn.init.calculate_gain("relu")
        1.4142135623730951
    """
    if nonlinearity in _LINEAR or nonlinearity == "sigmoid":
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            slope = 0.01
        elif isinstance(param, (int, float)) and not isinstance(param, bool):
            slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _fill(tensor, values):
    """Write ``values`` into the tensor's array in place and bump its version."""
    tensor._data[...] = np.asarray(values, dtype=tensor._data.dtype)
    tensor._bump_version()
    return tensor


def _rng(generator):
    return generator if isinstance(generator, np.random.Generator) else get_rng()


def uniform_(tensor, a=0.0, b=1.0, generator=None):
    """Fill with samples from U(a, b).

    Example:
        >>> w = nn.init.uniform_(minigrad.empty(3, 5), -0.1, 0.1)
    """
    return _fill(tensor, _rng(generator).uniform(a, b, tensor.shape))


def normal_(tensor, mean=0.0, std=1.0, generator=None):
    """Fill with samples from N(mean, std²).

    Example:
        >>> w = nn.init.normal_(minigrad.empty(3, 5), std=0.02)
    """
    return _fill(tensor, _rng(generator).normal(mean, std, tensor.shape))


def trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0, generator=None):
    """Fill with N(mean, std²) samples redrawn until they fall in [a, b]."""
    rng, shape = _rng(generator), tensor.shape
    values = rng.normal(mean, std, shape)
    outside = (values < a) | (values > b)
    while outside.any():
        values[outside] = rng.normal(mean, std, int(outside.sum()))
        outside = (values < a) | (values > b)
    return _fill(tensor, values)


def constant_(tensor, val):
    """Fill with ``val``.

    Example:
        >>> nn.init.constant_(minigrad.empty(2), 0.5)
        tensor([0.5000, 0.5000])
    """
    return _fill(tensor, val)


def zeros_(tensor):
    """Fill with 0."""
    return _fill(tensor, 0)


def ones_(tensor):
    """Fill with 1."""
    return _fill(tensor, 1)


def eye_(tensor):
    """Fill a 2-D tensor with the identity matrix."""
    if tensor.ndim != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    return _fill(tensor, np.eye(*tensor.shape))


def _calculate_fan_in_and_fan_out(tensor):
    if tensor.ndim < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than "
                         "2 dimensions")
    receptive_field = int(np.prod(tensor.shape[2:], dtype=np.int64))
    return tensor.shape[1] * receptive_field, tensor.shape[0] * receptive_field


def _calculate_correct_fan(tensor, mode):
    mode = mode.lower()
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"Mode {mode} not supported, please use one of ['fan_in', 'fan_out']")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def xavier_uniform_(tensor, gain=1.0, generator=None):
    """Glorot: U(-a, a) with a = gain·√(6 / (fan_in + fan_out)).

    Example:
        >>> w = nn.init.xavier_uniform_(minigrad.empty(3, 5), gain=nn.init.calculate_gain("tanh"))
    """
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    bound = math.sqrt(3.0) * gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return uniform_(tensor, -bound, bound, generator)


def xavier_normal_(tensor, gain=1.0, generator=None):
    """Glorot: N(0, std²) with std = gain·√(2 / (fan_in + fan_out))."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return normal_(tensor, 0.0, gain * math.sqrt(2.0 / float(fan_in + fan_out)), generator)


def _kaiming_std(tensor, a, mode, nonlinearity):
    fan = _calculate_correct_fan(tensor, mode)
    return calculate_gain(nonlinearity, a) / math.sqrt(fan)


def kaiming_uniform_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    """He: U(-b, b) with b = gain·√(3 / fan); ``a`` is the leaky-ReLU slope.

    ``nn.Linear`` uses ``a=√5``, which gives b = 1/√fan_in.

    Example:
        >>> w = nn.init.kaiming_uniform_(minigrad.empty(3, 5), nonlinearity="relu")
    """
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=2)
        return tensor
    bound = math.sqrt(3.0) * _kaiming_std(tensor, a, mode, nonlinearity)
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    """He: N(0, std²) with std = gain/√fan."""
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=2)
        return tensor
    return normal_(tensor, 0.0, _kaiming_std(tensor, a, mode, nonlinearity), generator)
