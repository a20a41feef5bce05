"""``nn.functional``: the layers and losses as plain functions (``F.relu``, ``F.mse_loss``, …).

The modules of ``minigrad.nn`` call these; each builds the same graph PyTorch builds, so node
names match (``F.linear`` on a matrix gives ``AddmmBackward0``, ``F.cross_entropy`` gives
``NllLossBackward0`` over ``LogSoftmaxBackward0``, ``F.l1_loss`` gives ``MeanBackward0`` over
``AbsBackward0`` over ``SubBackward0``).
"""

import warnings

import numpy as np

import minigrad
from minigrad import _dtype
from minigrad.grad_mode import no_grad
from minigrad.nn._attention_functional import scaled_dot_product_attention
from minigrad.nn._conv_functional import (
    conv1d,
    conv2d,
    conv3d,
    conv_transpose1d,
    conv_transpose2d,
    conv_transpose3d,
)
from minigrad.nn._functions import activation as _act
from minigrad.nn._functions._reduce import reduction_code
from minigrad.nn._functions.activation import LeakyRelu, LeakyReluInplace, Mish, Silu, Softplus
from minigrad.nn._functions.batch_norm import NativeBatchNorm
from minigrad.nn._functions.embedding import Embedding
from minigrad.nn._functions.gelu import Gelu, check_approximate
from minigrad.nn._functions.group_norm import NativeGroupNorm
from minigrad.nn._functions.layer_norm import ABSENT, NativeLayerNorm
from minigrad.nn._functions.loss import (
    BinaryCrossEntropy,
    BinaryCrossEntropyWithLogits,
    HuberLoss,
    MseLoss,
    NllLoss,
    NllLoss2d,
    SmoothL1Loss,
    Xlogy,
)
from minigrad.nn._pad_functional import pad
from minigrad.nn._pool_functional import (
    adaptive_avg_pool2d,
    avg_pool1d,
    avg_pool2d,
    max_pool1d,
    max_pool2d,
)
from minigrad.ops._util import check_tensor_arg, normalize_dim, result_dtype
from minigrad.ops.arithmetic import AddScalar, DivScalar, broadcast_error
from minigrad.ops.inplace import inplace as _inplace
from minigrad.tensor import Tensor

__all__ = ["linear", "relu", "leaky_relu", "leaky_relu_", "gelu", "silu", "mish", "softplus",
           "elu", "elu_", "selu", "selu_", "celu", "celu_", "hardtanh", "hardtanh_", "relu6",
           "threshold", "threshold_", "hardsigmoid", "hardswish", "logsigmoid", "prelu",
           "softsign", "tanhshrink", "softmin", "glu",
           "tanh", "sigmoid", "softmax", "log_softmax", "dropout", "dropout1d", "dropout2d",
           "dropout3d", "batch_norm", "layer_norm",
           "group_norm",
           "pad", "normalize", "cosine_similarity", "scaled_dot_product_attention",
           "embedding", "one_hot", "l1_loss", "mse_loss", "nll_loss", "cross_entropy",
           "binary_cross_entropy", "binary_cross_entropy_with_logits", "smooth_l1_loss",
           "huber_loss", "kl_div", "margin_ranking_loss", "conv1d", "conv2d",
           "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "max_pool1d",
           "max_pool2d", "avg_pool1d", "avg_pool2d", "adaptive_avg_pool2d"]


# ---------------------------------------------------------------------- layers
def linear(input, weight, bias=None):  # noqa: A002 - PyTorch's argument name
    """y = x Wᵀ + b. A matrix input gives one ``AddmmBackward0`` node, like PyTorch; other
    ranks are flattened to a matrix and viewed back.

    Example:
        >>> F.linear(minigrad.ones(1, 2), minigrad.ones(3, 2), minigrad.zeros(3))
        tensor([[2., 2., 2.]])
    """
    check_tensor_arg("linear", "input", input, 1)
    check_tensor_arg("linear", "weight", weight, 2)
    if bias is not None:
        check_tensor_arg("linear", "bias", bias, 3)
    if input.ndim == 0 or weight.ndim == 0:
        raise RuntimeError(f"both arguments to linear need to be at least 1D, but they are "
                           f"{input.ndim}D and {weight.ndim}D")
    if input.ndim == 2 and bias is not None:
        return minigrad.addmm(bias, input, weight.t())
    if input.ndim == 2 and weight.ndim == 2:
        return input.mm(weight.t())
    if bias is not None and input.is_contiguous() and (bias.ndim == 1 or (
            bias.ndim == 2 and bias.shape[0] == 1 and bias.shape[1] != 1)):
        batch = input.shape[:-1]  # PyTorch's fused path: one addmm on the rows, viewed back
        out = minigrad.addmm(bias, input.reshape(-1, input.shape[-1]), weight.t())
        return out.view(*batch, weight.shape[0])
    out = input.matmul(weight.t())
    if bias is None:
        return out
    return out.add_(bias) if out._base is None else out + bias  # (1-D input: a view here)


def relu(input, inplace=False):  # noqa: A002
    """max(x, 0), elementwise.

    Example:
        >>> F.relu(minigrad.tensor([-1.0, 2.0]))
        tensor([0., 2.])
    """
    check_tensor_arg("relu", "input", input, 1)
    return input.relu_() if inplace else input.relu()


def leaky_relu(input, negative_slope=0.01, inplace=False):  # noqa: A002
    """x where x > 0, ``negative_slope``·x elsewhere.

    Example:
        >>> F.leaky_relu(minigrad.tensor([-1.0, 2.0]), 0.1)
        tensor([-0.1000,  2.0000])
    """
    check_tensor_arg("leaky_relu", "input", input, 1)
    if inplace:
        return leaky_relu_(input, negative_slope)
    return LeakyRelu.apply(input, negative_slope)


def leaky_relu_(input, negative_slope=0.01):  # noqa: A002
    """``leaky_relu`` written into x (node ``LeakyReluBackward1``, which saves the result).

    Example:
        >>> x = minigrad.tensor([-1.0, 2.0])
        >>> F.leaky_relu_(x, 0.5) is x, x
        (True, tensor([-0.5000,  2.0000]))
    """
    check_tensor_arg("leaky_relu_", "input", input, 1)
    from minigrad.ops.inplace import inplace as in_place
    return in_place(input, LeakyReluInplace.apply, negative_slope)


def gelu(input, *, approximate="none"):  # noqa: A002
    """x·Φ(x), elementwise, with Φ the standard normal's CDF; ``approximate="tanh"`` uses
    0.5·(1 + tanh(√(2/π)·(x + 0.044715·x³))) for Φ (node ``GeluBackward0``).

    Example:
        >>> F.gelu(minigrad.tensor([-1.0, 0.0, 1.0]))
        tensor([-0.1587,  0.0000,  0.8413])
        >>> F.gelu(minigrad.tensor([1.0]), approximate="tanh")
        tensor([0.8412])
    """
    check_tensor_arg("gelu", "input", input, 1)
    if not isinstance(approximate, str):
        raise TypeError(f"gelu(): argument 'approximate' must be str, not "
                        f"{type(approximate).__name__}")
    check_approximate(approximate)
    return Gelu.apply(input, approximate)


def silu(input, inplace=False):  # noqa: A002
    """x·σ(x), elementwise ("swish"); ``inplace`` writes it into x.

    Example:
        >>> F.silu(minigrad.tensor([-1.0, 0.0, 2.0]))
        tensor([-0.2689,  0.0000,  1.7616])
    """
    check_tensor_arg("silu", "input", input, 1)
    if inplace:
        from minigrad.ops.inplace import inplace as in_place
        return in_place(input, Silu.apply)
    return Silu.apply(input)


def mish(input, inplace=False):  # noqa: A002
    """x·tanh(softplus(x)), elementwise; ``inplace`` writes it into x.

    Example:
        >>> F.mish(minigrad.tensor([-1.0, 0.0, 2.0]))
        tensor([-0.3034,  0.0000,  1.9440])
    """
    check_tensor_arg("mish", "input", input, 1)
    if inplace:
        from minigrad.ops.inplace import inplace as in_place
        return in_place(input, Mish.apply)
    return Mish.apply(input)


def softplus(input, beta=1.0, threshold=20.0):  # noqa: A002
    """log(1 + e^(βx)) / β, elementwise, a smooth relu; x itself where βx > ``threshold``.

    Example:
        >>> F.softplus(minigrad.tensor([-1.0, 0.0, 30.0]))
        tensor([ 0.3133,  0.6931, 30.0000])
    """
    check_tensor_arg("softplus", "input", input, 1)
    return Softplus.apply(input, beta, threshold)


def tanh(input):  # noqa: A002
    """Hyperbolic tangent, elementwise."""
    return input.tanh()


# ------------------------------------------- more activations (elu … threshold)
def _in_place(input, op, *args):  # noqa: A002
    return _inplace(input, op.apply, *args)


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def elu(input, alpha=1.0, inplace=False):  # noqa: A002
    """x where x > 0, else α·(eˣ - 1) (node ``EluBackward0``; in place ``EluBackward1``).

    Example:
        >>> F.elu(minigrad.tensor([-1.0, 2.0]))
        tensor([-0.6321,  2.0000])
    """
    check_tensor_arg("elu_" if inplace else "elu", "input", input, 1)
    if inplace:
        return _in_place(input, _act.EluInplace, alpha, 1, 1)
    return _act.Elu.apply(input, alpha, 1, 1)


def elu_(input, alpha=1.0):  # noqa: A002
    """``elu`` written into x."""
    return elu(input, alpha, inplace=True)


def selu(input, inplace=False):  # noqa: A002
    """scale·elu(x, α) with PyTorch's α ≈ 1.6733, scale ≈ 1.0507 (node ``EluBackward0``).

    Example:
        >>> F.selu(minigrad.tensor([-1.0, 1.0]))
        tensor([-1.1113,  1.0507])
    """
    check_tensor_arg("selu_" if inplace else "selu", "input", input, 1)
    if inplace:
        return _in_place(input, _act.EluInplace, _SELU_ALPHA, _SELU_SCALE, 1)
    return _act.Elu.apply(input, _SELU_ALPHA, _SELU_SCALE, 1)


def selu_(input):  # noqa: A002
    """``selu`` written into x."""
    return selu(input, inplace=True)


def celu(input, alpha=1.0, inplace=False):  # noqa: A002
    """max(0, x) + min(0, α·(e^(x/α) - 1)) (node ``CeluBackward0``; in place
    ``CeluBackward1``).

    Example:
        >>> F.celu(minigrad.tensor([-1.0, 2.0]), alpha=2.0)
        tensor([-0.7869,  2.0000])
    """
    check_tensor_arg("celu_" if inplace else "celu", "input", input, 1)
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError: alpha cannot be 0 for CELU")
    if inplace:
        return _in_place(input, _act.CeluInplace, alpha)
    return _act.Celu.apply(input, alpha)


def celu_(input, alpha=1.0):  # noqa: A002
    """``celu`` written into x."""
    return celu(input, alpha, inplace=True)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):  # noqa: A002
    """clamp(x, min_val, max_val) (node ``HardtanhBackward0``).

    Example:
        >>> F.hardtanh(minigrad.tensor([-2.0, 0.5, 2.0]))
        tensor([-1.0000,  0.5000,  1.0000])
    """
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    check_tensor_arg("hardtanh_" if inplace else "hardtanh", "input", input, 1)
    if inplace:
        return _in_place(input, _act.Hardtanh, min_val, max_val)
    return _act.Hardtanh.apply(input, min_val, max_val)


def hardtanh_(input, min_val=-1.0, max_val=1.0):  # noqa: A002
    """``hardtanh`` written into x."""
    return hardtanh(input, min_val, max_val, inplace=True)


def relu6(input, inplace=False):  # noqa: A002
    """min(max(x, 0), 6): a hardtanh from 0 to 6 (node ``HardtanhBackward0``).

    Example:
        >>> F.relu6(minigrad.tensor([-1.0, 7.0]))
        tensor([0., 6.])
    """
    return hardtanh(input, 0, 6, inplace)


def threshold(input, threshold, value, inplace=False):  # noqa: A002
    """x where x > ``threshold``, else ``value`` (node ``ThresholdBackward0``; in place
    ``ThresholdBackward1``).

    Example:
        >>> F.threshold(minigrad.tensor([0.5, 2.0]), 1.0, 0.0)
        tensor([0., 2.])
    """
    check_tensor_arg("threshold_" if inplace else "threshold", "input", input, 1)
    if inplace:
        return _in_place(input, _act.ThresholdInplace, threshold, value)
    return _act.Threshold.apply(input, threshold, value)


def threshold_(input, threshold, value):  # noqa: A002
    """``threshold`` written into x."""
    check_tensor_arg("threshold_", "input", input, 1)  # (its argument shadows threshold())
    return _in_place(input, _act.ThresholdInplace, threshold, value)


def hardsigmoid(input, inplace=False):  # noqa: A002
    """clamp(x/6 + 1/2, 0, 1) (node ``HardsigmoidBackward0``).

    Example:
        >>> F.hardsigmoid(minigrad.tensor([-3.0, 0.0, 3.0]))
        tensor([0.0000, 0.5000, 1.0000])
    """
    check_tensor_arg("hardsigmoid", "input", input, 1)
    if inplace:
        return _in_place(input, _act.Hardsigmoid)
    return _act.Hardsigmoid.apply(input)


def hardswish(input, inplace=False):  # noqa: A002
    """x·clamp(x + 3, 0, 6)/6 (node ``HardswishBackward0``).

    Example:
        >>> F.hardswish(minigrad.tensor([-4.0, 1.0, 4.0]))
        tensor([-0.0000,  0.6667,  4.0000])
    """
    check_tensor_arg("hardswish", "input", input, 1)
    if inplace:
        return _in_place(input, _act.Hardswish)
    return _act.Hardswish.apply(input)


def logsigmoid(input):  # noqa: A002
    """log σ(x), computed stably (node ``LogSigmoidBackward0``).

    Example:
        >>> F.logsigmoid(minigrad.tensor([0.0]))
        tensor([-0.6931])
    """
    check_tensor_arg("log_sigmoid", "input", input, 1)
    return _act.LogSigmoid.apply(input)


def prelu(input, weight):  # noqa: A002
    """x where x > 0, else w·x, with one learnable w per channel (dim 1) or one for all
    (node ``PreluKernelBackward0``, over a ``ViewBackward0`` of the weight).

    Example:
        >>> F.prelu(minigrad.tensor([-1.0, 2.0]), minigrad.tensor([0.25]))
        tensor([-0.2500,  2.0000])
    """
    check_tensor_arg("prelu", "input", input, 1)
    check_tensor_arg("prelu", "weight", weight, 2)
    if weight.ndim > 1:
        raise RuntimeError(f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: "
                           f"ndim = {weight.ndim}")
    channels = input.shape[1] if input.ndim >= 2 else 1
    count = weight.numel()
    if count != 1 and count != channels:
        raise RuntimeError(f"Mismatch of parameter numbers and input channel size. Found "
                           f"parameter numbers = {count} and channel size = {channels}.")
    if input.dtype != weight.dtype:
        raise RuntimeError(f"prelu: Type promoting not supported. Got "
                           f"{_dtype.scalar_name(input.dtype)} and "
                           f"{_dtype.scalar_name(weight.dtype)}")
    shape = () if input.ndim == 0 else (count,) if input.ndim == 1 else (
        (1, count) + (1,) * (input.ndim - 2))
    if tuple(weight.shape) != shape:
        weight = weight.view(shape)
    return _act.PreluKernel.apply(input, weight)


def softsign(input):  # noqa: A002
    """x / (1 + |x|) (a ``DivBackward0`` over ``AddBackward0`` over ``AbsBackward0``).

    Example:
        >>> F.softsign(minigrad.tensor([-1.0, 3.0]))
        tensor([-0.5000,  0.7500])
    """
    return input / (input.abs() + 1)


def tanhshrink(input):  # noqa: A002
    """x - tanh(x) (a ``SubBackward0`` over ``TanhBackward0``).

    Example:
        >>> F.tanhshrink(minigrad.tensor([1.0]))
        tensor([0.2384])
    """
    return input - input.tanh()


def softmin(input, dim=None, _stacklevel=3, dtype=None):  # noqa: A002
    """softmax(-x) along ``dim`` (``SoftmaxBackward0`` over ``NegBackward0``).

    Example:
        >>> F.softmin(minigrad.tensor([0.0, 0.0]), dim=0)
        tensor([0.5000, 0.5000])
    """
    if dim is None:
        dim = _softmax_dim("softmin", input.ndim)
    return softmax(-input, dim, dtype)


def glu(input, dim=-1):  # noqa: A002
    """a·σ(b), with a and b the halves of x along ``dim`` (node ``GluBackward0``).

    Example:
        >>> F.glu(minigrad.tensor([1.0, 0.0]))
        tensor([0.5000])
    """
    check_tensor_arg("glu", "input", input, 1)
    if input.ndim == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    axis = normalize_dim(dim, input.ndim)
    if input.shape[axis] % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {axis} is size "
                           f"{input.shape[axis]}")
    return _act.Glu.apply(input, dim)


def sigmoid(input):  # noqa: A002
    """1 / (1 + e⁻ˣ), elementwise."""
    return input.sigmoid()


def _softmax_dim(name, ndim):
    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call "
                  "to include dim=X as an argument.", UserWarning, stacklevel=3)
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input, dim=None, dtype=None):  # noqa: A002
    """eˣ / Σ eˣ along ``dim``.

    Example:
        >>> F.softmax(minigrad.tensor([0.0, 0.0]), dim=0)
        tensor([0.5000, 0.5000])
    """
    if dim is None:
        dim = _softmax_dim("softmax", input.ndim)
    if dtype is not None:
        input = input.to(dtype)
    return input.softmax(dim)


def log_softmax(input, dim=None, dtype=None):  # noqa: A002
    """x - log Σ eˣ along ``dim`` (more accurate than ``softmax(x).log()``)."""
    if dim is None:
        dim = _softmax_dim("log_softmax", input.ndim)
    if dtype is not None:
        input = input.to(dtype)
    return input.log_softmax(dim)


def dropout(input, p=0.5, training=True, inplace=False):  # noqa: A002
    """Zero each element with probability ``p`` and scale the rest by 1/(1-p) (training only;
    the identity otherwise). The mask is a constant: the node is ``MulBackward0``.

    The mask is PyTorch's: ``empty_like(input).bernoulli_(1 - p)``, divided by ``1 - p`` in
    the input's dtype, so after ``manual_seed(s)`` the same elements are dropped as in PyTorch.

    Example:
        >>> F.dropout(minigrad.ones(4), p=0.5, training=False)
        tensor([1., 1., 1., 1.])
        >>> _ = minigrad.manual_seed(0)
        >>> F.dropout(minigrad.ones(6), p=0.5)
        tensor([0., 0., 2., 0., 0., 0.])
    """
    _check_dropout_p(p)
    return _dropout(input, p, training, inplace)


def _check_dropout_p(p):
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def _dropout(input, p, training, inplace, channels=False):  # noqa: A002
    """input · mask, the mask being bernoulli_(1 - p) / (1 - p) drawn like the input (or, for
    ``channels``, one draw per channel: an (N, C, 1, ..., 1) tensor, as PyTorch's
    ``feature_dropout`` draws it)."""
    if p == 0 or not training or input.numel() == 0:
        return input
    data = input._data
    if p == 1:
        mask = Tensor._make(np.zeros((), data.dtype))
    else:
        if data.dtype.kind not in "fc":  # PyTorch fails on dividing the integer mask in place
            raise _dtype.cast_error(minigrad.float32, input.dtype)
        if not channels:
            noise = np.empty_like(data)
        elif data.ndim < 2:
            raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
        else:
            noise = np.empty(data.shape[:2] + (1,) * (data.ndim - 2), data.dtype)
        with no_grad():
            mask = Tensor._make(noise).bernoulli_(1 - p)
            # divided in PyTorch's opmath type: float32 for float16, else the dtype itself
            opmath = np.result_type(data.dtype, np.float32)
            mask._data[...] = mask._data.astype(opmath) / opmath.type(1 - p)
    return input.mul_(mask) if inplace else input * mask


def _channel_dropout(input, p, training, inplace, batched):  # noqa: A002
    """Channel dropout; an unbatched input is given a batch dim of 1 for it (also in eval, as
    PyTorch does: the result is then a new view, ``SqueezeBackward1``)."""
    if batched:
        return _dropout(input, p, training, inplace, channels=True)
    if inplace:
        return _dropout(input.unsqueeze_(0), p, training, True, channels=True).squeeze_(0)
    return _dropout(input.unsqueeze(0), p, training, False, channels=True).squeeze(0)


def dropout1d(input, p=0.5, training=True, inplace=False):  # noqa: A002
    """Zero whole channels of an (N, C, L) or (C, L) input with probability ``p`` and scale
    the others by 1/(1-p) (training only). One bernoulli_ draw per (sample, channel).

    Example:
        >>> F.dropout1d(minigrad.ones(2, 3), training=False)
        tensor([[1., 1., 1.],
                [1., 1., 1.]])
    """
    _check_dropout_p(p)
    if input.ndim not in (2, 3):
        raise RuntimeError(
            f"dropout1d: Expected 2D or 3D input, but received a {input.ndim}D input. Note that "
            "dropout1d exists to provide channel-wise dropout on inputs with 1 spatial "
            "dimension, a channel dimension, and an optional batch dimension (i.e. 2D or 3D "
            "inputs).")
    return _channel_dropout(input, p, training, inplace, batched=input.ndim == 3)


def _rank_warning(name, ndim, spatial):
    warnings.warn(
        f"{name}: Received a {ndim}-D input to {name}, which is deprecated and will result in "
        "an error in a future release. To retain the behavior and silence this warning, please "
        f"use dropout instead. Note that {name} exists to provide channel-wise dropout on "
        f"inputs with {spatial} spatial dimensions, a channel dimension, and an optional batch "
        f"dimension (i.e. {spatial + 1}D or {spatial + 2}D inputs).", stacklevel=3)


def dropout2d(input, p=0.5, training=True, inplace=False):  # noqa: A002
    """Zero whole channels of an (N, C, H, W) input with probability ``p`` and scale the others
    by 1/(1-p) (training only). As in PyTorch, a 3D input is taken as (N, C, L), not as an
    unbatched (C, H, W), with a warning."""
    _check_dropout_p(p)
    if input.ndim not in (3, 4):
        _rank_warning("dropout2d", input.ndim, 2)
    if input.ndim == 3:
        warnings.warn(
            "dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D "
            "dropout behavior is desired - input is interpreted as shape (N, C, L), where C is "
            "the channel dim. This behavior will change in a future release to interpret the "
            "input as one without a batch dimension, i.e. shape (C, H, W). To maintain the 1D "
            "channel-wise dropout behavior, please switch to using dropout1d instead.",
            stacklevel=2)
    return _dropout(input, p, training, inplace, channels=True)


def dropout3d(input, p=0.5, training=True, inplace=False):  # noqa: A002
    """Zero whole channels of an (N, C, D, H, W) or (C, D, H, W) input with probability ``p``
    and scale the others by 1/(1-p) (training only)."""
    _check_dropout_p(p)
    if input.ndim not in (4, 5):
        _rank_warning("dropout3d", input.ndim, 3)
    return _channel_dropout(input, p, training, inplace, batched=input.ndim == 5)


def batch_norm(input, running_mean, running_var, weight=None, bias=None,  # noqa: A002
               training=False, momentum=0.1, eps=1e-5):
    """Normalise each channel (dim 1) of a (N, C, *) input, then scale and shift.

    In training the batch statistics are used and the running ones updated in place; otherwise
    the running statistics are used.
    """
    if training:
        count = input.numel() // input.shape[1]
        if count <= 1:
            raise ValueError("Expected more than 1 value per channel when training, got input "
                             f"size {input.shape}")
    channels, dtype = input.shape[1], input._data.dtype
    for name, t in (("running_mean", running_mean), ("weight", weight)):
        if t is not None and t.numel() != channels:
            raise RuntimeError(f"{name} should contain {channels} elements not {t.numel()}")
    if weight is None:
        weight = Tensor._make(np.ones(channels, dtype))
    if bias is None:
        bias = Tensor._make(np.zeros(channels, dtype))
    running = None if running_mean is None else (running_mean, running_var)
    return NativeBatchNorm.apply(input, weight, bias, running, training, momentum, eps)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):  # noqa: A002
    """Normalise each sample over its last ``len(normalized_shape)`` dimensions to mean 0 and
    variance 1, then scale by ``weight`` and shift by ``bias`` (of shape ``normalized_shape``):
    one ``NativeLayerNormBackward0`` node.

    Example:
        >>> F.layer_norm(minigrad.tensor([[1.0, 3.0], [2.0, 2.0]]), (2,))
        tensor([[-1.0000,  1.0000],
                [ 0.0000,  0.0000]])
    """
    check_tensor_arg("layer_norm", "input", input, 1)
    if isinstance(normalized_shape, int) or not all(
            isinstance(n, int) for n in normalized_shape):
        raise TypeError("layer_norm(): argument 'normalized_shape' (position 2) must be tuple "
                        f"of ints, not {type(normalized_shape).__name__}")
    shape = tuple(normalized_shape)
    if not shape:
        raise RuntimeError("Expected normalized_shape to be at least 1-dimensional, i.e., "
                           "containing at least one element, but got normalized_shape = []")
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and tuple(t.shape) != shape:
            raise RuntimeError(f"Expected {name} to be of same shape as normalized_shape, but "
                               f"got {name} of shape {list(t.shape)} and normalized_shape = "
                               f"{list(shape)}")
    if input.ndim < len(shape) or tuple(input.shape[-len(shape):]) != shape:
        raise RuntimeError(f"Given normalized_shape={list(shape)}, expected input with shape "
                           f"[*, {', '.join(map(str, shape))}], but got input of size"
                           f"{list(input.shape)}")
    if not input.dtype.is_floating_point:
        raise _dtype.not_implemented("LayerNormKernelImpl", input.dtype)
    if any(t is not None and t.dtype != input.dtype for t in (weight, bias)):
        raise RuntimeError("mixed dtype (CPU): all inputs must share same datatype.")
    return NativeLayerNorm.apply(input, shape, ABSENT if weight is None else weight,
                                 ABSENT if bias is None else bias, eps)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):  # noqa: A002
    """Split the channels (dim 1) into ``num_groups`` groups and normalise each sample's group
    over its channels and positions, then scale and shift each channel by ``weight`` and
    ``bias``: one ``NativeGroupNormBackward0`` node.

    Example:
        >>> F.group_norm(minigrad.tensor([[1.0, 3.0, 5.0, 5.0]]), 2)
        tensor([[-1.0000,  1.0000,  0.0000,  0.0000]])
    """
    check_tensor_arg("group_norm", "input", input, 1)
    if input.ndim < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received "
                           f"{input.ndim}")
    shape, channels = list(input.shape), input.shape[1]
    if channels % num_groups:
        raise RuntimeError("Expected number of channels in input to be divisible by num_groups, "
                           f"but got input of shape {shape} and num_groups={num_groups}")
    # NB: PyTorch's message about the bias names the weight's shape ([0] without one)
    weight_shape = [0] if weight is None else list(weight.shape)
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and (t.ndim != 1 or t.numel() != channels):
            raise RuntimeError(f"Expected {name} to be a vector of size equal to the number of "
                               f"channels in input, but got {name} of shape {weight_shape} and "
                               f"input of shape {shape}")
    if not input.dtype.is_floating_point:
        raise _dtype.not_implemented("GroupNormKernelImpl", input.dtype)
    if any(t is not None and t.dtype != input.dtype for t in (weight, bias)):
        raise RuntimeError(f"mixed dtype (CPU): expect parameter to have scalar type of "
                           f"{_dtype.scalar_name(input.dtype)}")
    return NativeGroupNorm.apply(input, num_groups, ABSENT if weight is None else weight,
                                 ABSENT if bias is None else bias, eps)


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):  # noqa: A002 - PyTorch's names
    """x / max(‖x‖ₚ, eps) along ``dim``: vectors of length 1 (zero vectors stay zero).

    Example:
        >>> F.normalize(minigrad.tensor([[3.0, 4.0]]))
        tensor([[0.6000, 0.8000]])
    """
    if out is not None:  # NB: minigrad does not write into out=
        raise NotImplementedError("minigrad: F.normalize does not take out=")
    norm = input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
    return input / norm


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """Σ x₁x₂ / (max(‖x₁‖, eps)·max(‖x₂‖, eps)) along ``dim``, after broadcasting x₁ and x₂
    (each divided by its norm first, as PyTorch does, so that large values cannot overflow).

    Example:
        >>> F.cosine_similarity(minigrad.tensor([[1.0, 0.0]]), minigrad.tensor([[1.0, 1.0]]))
        tensor([0.7071])
    """
    try:
        shape = np.broadcast_shapes(x1._data.shape, x2._data.shape)
    except ValueError:
        raise broadcast_error(x1, x2) from None
    common = result_dtype(x1, x2)
    if common.kind != "f":
        raise RuntimeError("expected common dtype to be floating point, yet common dtype is "
                           f"{_dtype.scalar_name(_dtype.from_numpy_dtype(common))}")
    if x1.shape != x2.shape:
        x1, x2 = x1.expand(shape), x2.expand(shape)

    def unit(x):
        norm = x.norm(2, dim, keepdim=True).clone()
        with no_grad():
            norm.clamp_min_(eps)
        return x / norm

    return (unit(x1) * unit(x2)).sum(dim)


def _check_indices(indices):
    if indices._data.dtype.kind not in "iu":
        raise RuntimeError(
            "Expected tensor for argument #1 'indices' to have one of the following scalar types: "
            f"Long, Int; but got minigrad.{indices.dtype.tensor_type} instead (while checking "
            "arguments for embedding)")


def embedding(input, weight, padding_idx=None):  # noqa: A002
    """Rows of ``weight`` picked by the integer tensor ``input``.

    Example:
        >>> F.embedding(minigrad.tensor([1]), minigrad.eye(3))
        tensor([[0., 1., 0.]])
    """
    _check_indices(input)
    idx = input._data
    if idx.size and (idx.min() < -weight.shape[0] or idx.max() >= weight.shape[0]):
        raise IndexError("index out of range in self")
    if padding_idx is not None and padding_idx < 0:
        padding_idx += weight.shape[0]
    return Embedding.apply(weight, idx, padding_idx)


def one_hot(tensor, num_classes=-1):
    """An int64 tensor with a 1 at each index of ``tensor`` in a new last dimension."""
    check_tensor_arg("one_hot", "input", tensor, 1)
    idx = tensor._data
    if idx.dtype != np.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    if idx.size == 0:
        if num_classes <= 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        return Tensor._make(np.zeros(idx.shape + (num_classes,), np.int64))
    if idx.min() < 0:
        raise RuntimeError("Class values must be non-negative.")
    if num_classes == -1:
        num_classes = int(idx.max()) + 1
    elif idx.max() >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    return Tensor._make(np.eye(num_classes, dtype=np.int64)[idx])


# ---------------------------------------------------------------------- losses
def _legacy_reduction(size_average, reduce, reduction):
    """The old ``size_average``/``reduce`` flags, translated (with PyTorch's warning)."""
    if size_average is None and reduce is None:
        return reduction
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    if size_average and reduce:
        reduction = "mean"
    else:
        reduction = "sum" if reduce else "none"
    warnings.warn("size_average and reduce args will be deprecated, please use "
                  f"reduction='{reduction}' instead.", UserWarning, stacklevel=3)
    return reduction


def _target_size_warning(input, target):  # noqa: A002
    if target.size() != input.size():  # (PyTorch's AttributeError for a non-tensor)
        warnings.warn(f"Using a target size ({target.shape}) that is different to the input size "
                      f"({input.shape}). This will likely lead to incorrect results due to "
                      "broadcasting. Please ensure they have the same size.", UserWarning,
                      stacklevel=3)


def _as_array(value, name, op):
    """A non-differentiable argument (weight, pos_weight) as an array."""
    if value is None:
        return None
    if value._requires_grad:
        raise RuntimeError(f"The function '{op}' is not differentiable with respect to argument "
                           f"'{name}'. This input cannot have requires_grad True.")
    return value._data


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean"):  # noqa: A002
    """reduce(|x - t|), built from ``sub``, ``abs`` and ``mean``/``sum`` as PyTorch does.

    Example:
        >>> F.l1_loss(minigrad.tensor([1.0, 3.0]), minigrad.tensor([0.0, 0.0]))
        tensor(2.)
    """
    reduction = _legacy_reduction(size_average, reduce, reduction)
    reduction_code(reduction)
    _target_size_warning(input, target)
    try:  # PyTorch broadcasts the two first: their shapes are checked before the subtraction's
        np.broadcast_shapes(input._data.shape, target._data.shape)  # dtypes
    except ValueError:
        raise broadcast_error(input, target) from None
    return _reduced((input - target).abs(), reduction)


def _reduced(losses, reduction):
    """A tensor of losses reduced as ``reduction`` says: its mean, its sum, or itself
    ('none'), recorded (MeanBackward0, SumBackward0)."""
    if reduction == "mean":
        return losses.mean()
    return losses.sum() if reduction == "sum" else losses


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean"):  # noqa: A002
    """reduce((x - t)²) in one ``MseLossBackward0`` node.

    Example:
        >>> F.mse_loss(minigrad.tensor([1.0, 3.0]), minigrad.tensor([0.0, 0.0]))
        tensor(5.)
    """
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _target_size_warning(input, target)
    return MseLoss.apply(input, target, reduction)


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100,  # noqa: A002
             reduce=None, reduction="mean"):
    """Negative log-likelihood of class indices ``target`` under log-probabilities ``input``
    of shape (N, C), (C,) or (N, C, d1, …); ``weight`` weighs the classes.

    Example:
        >>> F.nll_loss(minigrad.tensor([[-1.0, -2.0]]), minigrad.tensor([1]))
        tensor(2.)
    """
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_nll_nd(input, target)
    if input.ndim <= 2 and target.ndim > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if (input.ndim == 3 or input.ndim > 4) and target.shape[1:] != input.shape[2:]:
        raise RuntimeError(f"Expected target size {[input.shape[0], *input.shape[2:]]}, got "
                           f"{list(target.shape)}")
    if target._data.dtype not in (np.int64, np.uint8):
        raise RuntimeError(
            f"expected target dtype to be Long or Byte, but got {target.dtype.tensor_type[:-6]}")
    if input.ndim == 1 and target.ndim == 1 and target.shape[0] != 1:
        raise ValueError(f"For 1D input, 1D target must have size 1, but got target size: "
                         f"{target.shape[0]}")
    if not input.dtype.is_floating_point:
        kernel = "nll_loss_out_frame" if input.ndim <= 2 else "nll_loss2d_forward_out_frame"
        raise _dtype.not_implemented(kernel, input.dtype)
    if input.ndim >= 2 and target.ndim >= 1 and input.shape[0] != target.shape[0]:
        raise ValueError(f"Expected input batch_size ({input.shape[0]}) to match target "
                         f"batch_size ({target.shape[0]}).")
    op = NllLoss2d if input.ndim > 2 else NllLoss
    weight = _as_array(weight, "weight", "nll_loss_forward")
    return op.apply(input, target._data, weight, reduction, ignore_index)


def _check_nll_nd(input, target):  # noqa: A002 - PyTorch's name
    """The checks PyTorch's ``nll_loss_nd`` makes first: tensors, and matching batch sizes."""
    check_tensor_arg("nll_loss_nd", "input", input, 1)
    check_tensor_arg("nll_loss_nd", "target", target, 2)
    if input.ndim < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {input.ndim})")
    if input.ndim != 1:
        # NB: PyTorch reads a 0-d target's batch size past its (empty) sizes: 0 on x86
        batch = target.shape[0] if target.ndim else 0
        if input.shape[0] != batch:
            raise ValueError(f"Expected input batch_size ({input.shape[0]}) to match target "
                             f"batch_size ({batch}).")
        if target.ndim == 0:
            raise IndexError("Dimension specified as 0 but tensor has no dimensions")


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100,  # noqa: A002
                  reduce=None, reduction="mean", label_smoothing=0.0):
    """Softmax cross-entropy of logits ``input`` and class indices ``target``:
    ``nll_loss(log_softmax(input, 1), target)``. A floating ``target`` of the input's shape is
    read as class probabilities.

    Example:
        >>> F.cross_entropy(minigrad.tensor([[0.0, 0.0]]), minigrad.tensor([0]))
        tensor(0.6931)
    """
    reduction = _legacy_reduction(size_average, reduce, reduction)
    check_tensor_arg("cross_entropy_loss", "input", input, 1)
    check_tensor_arg("cross_entropy_loss", "target", target, 2)
    class_dim = 0 if input.ndim == 1 else 1
    soft = target.shape == input.shape  # PyTorch reads class probabilities then
    if soft and target._data.dtype.kind != "f":
        raise RuntimeError("Expected floating point type for target with class probabilities, "
                           f"got {target.dtype.tensor_type[:-6]}")
    if input.ndim == 0:
        raise IndexError(f"Dimension specified as {class_dim} but tensor has no dimensions")
    log_probs = input.log_softmax(class_dim)
    if soft:
        return _soft_cross_entropy(log_probs, target, weight, reduction, label_smoothing,
                                   class_dim)
    loss = nll_loss(log_probs, target, weight, None, ignore_index, None, reduction)
    if label_smoothing > 0:
        smooth = _smoothing_term(log_probs, target, weight, ignore_index, reduction, class_dim)
        loss = (1 - label_smoothing) * loss + label_smoothing * smooth
    return loss


def _class_weights(weight, log_probs, class_dim):
    shape = [1] * log_probs.ndim
    shape[class_dim] = -1
    return log_probs if weight is None else log_probs * weight.view(shape)


def _soft_cross_entropy(log_probs, target, weight, reduction, label_smoothing, class_dim):
    """The loss for class probabilities, recorded with PyTorch's nodes."""
    n_classes = log_probs.shape[class_dim]
    if label_smoothing > 0:
        target = target * (1 - label_smoothing) + label_smoothing / n_classes
    weighted = _class_weights(weight, log_probs, class_dim) * target
    if reduction == "none":
        return -weighted.sum(class_dim)
    total = -weighted.sum()
    if reduction == "sum":
        return total
    count = log_probs.numel() // n_classes if n_classes else float("nan")  # (0/0, as PyTorch)
    count = count if log_probs.ndim > 1 else 1
    return DivScalar.apply(total, count)  # a DivBackward1, as in PyTorch


def _smoothing_term(log_probs, target, weight, ignore_index, reduction, class_dim):
    n_classes = log_probs.shape[class_dim]
    keep = Tensor._make((target._data != ignore_index).astype(log_probs._data.dtype))
    losses = -_class_weights(weight, log_probs, class_dim).sum(class_dim) * keep / n_classes
    if reduction == "sum":
        return losses.sum()
    if reduction == "none":
        return losses
    if weight is None:
        return losses.sum() / keep.sum()
    safe = np.where(target._data != ignore_index, target._data, 0)
    return losses.sum() / (Tensor._make(weight._data[safe]) * keep).sum()


def binary_cross_entropy(input, target, weight=None, size_average=None,  # noqa: A002
                         reduce=None, reduction="mean"):
    """-reduce(w·(t·log p + (1-t)·log(1-p))) for probabilities ``input`` in [0, 1].

    Example:
        >>> F.binary_cross_entropy(minigrad.tensor([0.5]), minigrad.tensor([1.0]))
        tensor(0.6931)
    """
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if target.size() != input.size():
        raise ValueError(f"Using a target size ({target.shape}) that is different to the input "
                         f"size ({input.shape}) is deprecated. Please ensure they have the same "
                         "size.")
    if target.dtype != input.dtype:
        raise RuntimeError(f"Found dtype {target.dtype.tensor_type[:-6]} but expected "
                           f"{input.dtype.tensor_type[:-6]}")
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f'"binary_cross_entropy" not implemented for '
                                  f"'{input.dtype.tensor_type[:-6]}'")
    weight = _as_array(weight, "weight", "binary_cross_entropy")
    return BinaryCrossEntropy.apply(input, target, weight, reduction)


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None,  # noqa: A002
                                     reduce=None, reduction="mean", pos_weight=None):
    """``binary_cross_entropy(sigmoid(input), target)`` computed stably from logits.

    Example:
        >>> F.binary_cross_entropy_with_logits(minigrad.tensor([0.0]), minigrad.tensor([1.0]))
        tensor(0.6931)
    """
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if target.shape != input.shape:
        raise ValueError(f"Target size ({target.shape}) must be the same as input size "
                         f"({input.shape})")
    op = "binary_cross_entropy_with_logits"
    return BinaryCrossEntropyWithLogits.apply(
        input, target, _as_array(weight, "weight", op), _as_array(pos_weight, "pos_weight", op),
        reduction)


def _broadcast_pair(input, target):  # noqa: A002
    """``broadcast_tensors(input, target)``: an ``ExpandBackward0`` only where a shape grows."""
    try:
        shape = np.broadcast_shapes(input._data.shape, target._data.shape)
    except ValueError:
        raise broadcast_error(input, target) from None
    return tuple(t if t.shape == shape else t.expand(shape) for t in (input, target))


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean",  # noqa: A002
                   beta=1.0):
    """reduce(d²/(2β) if |d| < β else |d| - β/2) with d = x - t, in one
    ``SmoothL1LossBackward0`` node; β = 0 is ``l1_loss``, as in PyTorch.

    Example:
        >>> F.smooth_l1_loss(minigrad.tensor([0.5, 3.0]), minigrad.tensor([0.0, 0.0]))
        tensor(1.3125)
    """
    _target_size_warning(input, target)
    reduction = _legacy_reduction(size_average, reduce, reduction)
    input, target = _broadcast_pair(input, target)
    reduction_code(reduction)
    if beta == 0.0:
        return l1_loss(input, target, reduction=reduction)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    return SmoothL1Loss.apply(input, target, reduction, beta)


def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):  # noqa: A002
    """reduce(w·(d²/2 if |d| < δ else δ(|d| - δ/2))) with d = x - t; without ``weight`` one
    ``HuberLossBackward0`` node.

    Example:
        >>> F.huber_loss(minigrad.tensor([0.5, 3.0]), minigrad.tensor([0.0, 0.0]))
        tensor(1.3125)
    """
    _target_size_warning(input, target)
    input, target = _broadcast_pair(input, target)
    if weight is None:
        reduction_code(reduction)
        return _huber(input, target, reduction, delta)
    if weight.size() != input.size():
        raise ValueError("Weights and input must have the same size.")
    losses = _huber(input, target, "none", delta) * weight
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"Invalid reduction mode: {reduction}. Expected one of 'none', "
                         "'mean', 'sum'.")
    return _reduced(losses, reduction)


def _huber(input, target, reduction, delta):  # noqa: A002
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    return HuberLoss.apply(input, target, reduction, delta)


def kl_div(input, target, size_average=None, reduce=None, reduction="mean",  # noqa: A002
           log_target=False):
    """KL divergence of log-probabilities ``input`` from ``target`` (probabilities, or log-
    probabilities with ``log_target``): reduce(t·log t - t·x), or reduce(eᵗ·(t - x)).
    'batchmean' is the sum divided by the batch size, the true KL divergence per sample.

    Example:
        >>> F.kl_div(minigrad.tensor([[-1.0, -0.5]]), minigrad.tensor([[0.5, 0.5]]),
        ...          reduction="batchmean")
        tensor(0.0569)
    """
    if size_average is not None or reduce is not None:
        code = _legacy_reduction(size_average, reduce, reduction)
    else:
        if reduction == "mean":
            warnings.warn("reduction: 'mean' divides the total loss by both the batch size and "
                          "the support size.'batchmean' divides only by the batch size, and "
                          "aligns with the KL div math definition.'mean' will be changed to "
                          "behave the same as 'batchmean' in the next major release.",
                          UserWarning, stacklevel=2)
        code = "sum" if reduction == "batchmean" else reduction
        reduction_code(code)
    if not (input.dtype.is_floating_point or input.dtype.is_complex) or \
            not (target.dtype.is_floating_point or target.dtype.is_complex):
        raise RuntimeError("kl_div: Integral inputs not supported.")
    if log_target:
        losses = target.exp() * (target - input)
    else:
        losses = Xlogy.apply(target, target) - target * input
    losses = _reduced(losses, code)
    if reduction == "batchmean" and input.ndim != 0:
        losses = losses / input.shape[0]
    return losses


def margin_ranking_loss(input1, input2, target, margin=0, size_average=None, reduce=None,
                        reduction="mean"):
    """reduce(max(0, -y·(x₁ - x₂) + margin)): ``target`` y = 1 means x₁ should rank higher.

    Example:
        >>> F.margin_ranking_loss(minigrad.tensor([1.0, 0.0]), minigrad.tensor([0.0, 1.0]),
        ...                       minigrad.tensor([1.0, 1.0]), margin=0.5)
        tensor(0.7500)
    """
    reduction = _legacy_reduction(size_average, reduce, reduction)
    reduction_code(reduction)
    if input1.ndim != input2.ndim or input1.ndim != target.ndim:
        raise RuntimeError(f"margin_ranking_loss : All input tensors should have same dimension "
                           f"but got sizes: input1: {input1.size()}, input2: {input2.size()}, "
                           f"target: {target.size()} ")
    return _reduced(AddScalar.apply(-target * (input1 - input2), margin).clamp_min(0),
                    reduction)
