"""``nn.init``: fill a tensor in place with the values a layer starts from.

Every function writes into the tensor without recording a graph (as under ``no_grad``),
bumps the tensor's version counter and returns the tensor. Random values come from the
tensor's in-place samplers (``uniform_``, ``normal_``) and the default generator that
``minigrad.manual_seed`` seeds (or ``generator=``): the same calls in the same order as
PyTorch's, so a layer built after ``manual_seed(s)`` starts from PyTorch's parameters.
"""

import math
import warnings

import numpy as np

from minigrad.grad_mode import no_grad
from minigrad.tensor import Tensor

__all__ = ["calculate_gain", "uniform_", "normal_", "trunc_normal_", "constant_", "zeros_",
           "ones_", "eye_", "xavier_uniform_", "xavier_normal_", "kaiming_uniform_",
           "kaiming_normal_", "orthogonal_"]

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


def uniform_(tensor, a=0.0, b=1.0, generator=None):
    """Fill with samples from U(a, b).

    Example:
        >>> w = nn.init.uniform_(minigrad.empty(3, 5), -0.1, 0.1)
    """
    with no_grad():
        return tensor.uniform_(a, b, generator=generator)


def normal_(tensor, mean=0.0, std=1.0, generator=None):
    """Fill with samples from N(mean, std²).

    Example:
        >>> w = nn.init.normal_(minigrad.empty(3, 5), std=0.02)
    """
    with no_grad():
        return tensor.normal_(mean, std, generator=generator)


def trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0, generator=None):
    """Fill with N(mean, std²) restricted to [a, b], by rejection as PyTorch does: when
    [a, b] holds more than 30% of the mass, redraw the normal samples that fall outside;
    otherwise draw uniformly in [a, b] and accept with the normal's relative density.

    Example:
        >>> w = nn.init.trunc_normal_(minigrad.empty(3, 5), std=0.02)
        >>> bool((w.abs() <= 2).all())
        True
    """
    def norm_cdf(x):
        return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0

    if mean < a - 2 * std or mean > b + 2 * std:
        warnings.warn("mean is more than 2 std from [a, b] in nn.init.trunc_normal_. The "
                      "distribution of values may be incorrect.", stacklevel=2)
    with no_grad():
        if norm_cdf((b - mean) / std) - norm_cdf((a - mean) / std) > 0.3:
            return _trunc_normal_by_redrawing(tensor, mean, std, a, b, generator)
        return _trunc_normal_by_acceptance(tensor, mean, std, a, b, generator)


def _like(tensor):
    return Tensor._make(np.empty_like(tensor._data))


def _trunc_normal_by_redrawing(tensor, mean, std, a, b, generator):
    kind = tensor._data.dtype.type
    low, high = kind(a), kind(b)
    result = tensor.normal_(mean, std, generator=generator)._data.copy()
    while True:
        outside = (result < low) | (result > high)
        if not outside.any():
            return _fill(tensor, result)
        redrawn = _like(tensor).normal_(mean, std, generator=generator)._data
        result = np.where(outside, redrawn, result)


def _log_density(candidates, mean, std, log_peak):
    """-(x - mean)²/(2 std²) - log_peak, one tensor-dtype operation at a time."""
    kind = candidates.dtype.type
    x = (candidates - kind(mean)) / kind(std)
    return (x * x) * kind(-0.5) - kind(log_peak)


def _rejects(tensor, log_density, generator):
    """log u > the log density, for a fresh uniform u: the candidate is drawn again."""
    with np.errstate(divide="ignore"):
        return np.log(_like(tensor).uniform_(generator=generator)._data) > log_density


def _trunc_normal_by_acceptance(tensor, mean, std, a, b, generator):
    mode = max(a, min(mean, b))
    log_peak = -0.5 * ((mode - mean) / std) ** 2
    result = tensor.uniform_(a, b, generator=generator)._data.copy()
    pending = _rejects(tensor, _log_density(result, mean, std, log_peak), generator)
    while pending.any():
        candidates = _like(tensor).uniform_(a, b, generator=generator)._data
        result = np.where(pending, candidates, result)
        log_density = _log_density(candidates, mean, std, log_peak)
        pending = np.where(pending, _rejects(tensor, log_density, generator), pending)
    return _fill(tensor, result)


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
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    bound = math.sqrt(3.0) * std  # the same rounding steps as PyTorch's
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


def orthogonal_(tensor, gain=1, generator=None):
    """Fill with a (semi-)orthogonal matrix: the Q of a QR decomposition of normal samples,
    its columns' signs fixed by R's diagonal, times ``gain``.

    NB: the normal samples are PyTorch's; the QR decomposition is NumPy's LAPACK, so values
    can differ from PyTorch's in the last bits.

    Example:
        >>> w = nn.init.orthogonal_(minigrad.empty(3, 5))
        >>> bool(((w @ w.T) - minigrad.eye(3)).abs().max() < 1e-5)
        True
    """
    if tensor.ndim < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor
    rows = tensor.shape[0]
    cols = tensor.numel() // rows
    flattened = np.empty((rows, cols), tensor._data.dtype)
    with no_grad():
        normal_(Tensor._make(flattened), 0.0, 1.0, generator)
    if rows < cols:
        flattened = flattened.T
    q, r = np.linalg.qr(flattened)
    q = q * np.sign(np.diag(r))
    if rows < cols:
        q = q.T
    return _fill(tensor, (q * gain).reshape(tensor.shape))
