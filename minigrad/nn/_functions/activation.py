"""Activation nodes that ``minigrad.ops`` does not have: ``LeakyReluBackward0``,
``SiluBackward0`` and ``SoftplusBackward0``, and the nodes of their gradients where PyTorch has
one of its own (``LeakyReluBackwardBackward0``, ``SoftplusBackwardBackward0``); and elu,
selu and celu, hardtanh (relu6), threshold, hardsigmoid, hardswish, logsigmoid, prelu, glu."""

import numpy as np

from minigrad import _dtype
from minigrad.autograd.function import _Op
from minigrad.ops._util import apply_op, sum_to, zero_grad, zero_of
from minigrad.ops.arithmetic import plus
from minigrad.ops.combine import cat
from minigrad.ops.pointwise import Sigmoid
from minigrad.tensor import Tensor

__all__ = ["LeakyRelu", "LeakyReluInplace", "LeakyReluBackward", "Silu", "Mish", "Softplus",
           "SoftplusBackward", "Elu", "EluInplace", "EluBackward", "Celu", "CeluInplace",
           "Hardtanh", "HardtanhBackward", "Threshold", "ThresholdInplace", "ThresholdBackward",
           "Hardsigmoid", "HardsigmoidBackward", "Hardswish", "LogSigmoid", "PreluKernel", "Glu"]


def _scaled(data, slope):
    """``slope · data`` in data's dtype, as PyTorch computes it: a float16 tensor in float32
    (its kernels' arithmetic type for half), then rounded."""
    if data.dtype == np.float16:
        return (data.astype(np.float32) * np.float32(slope)).astype(np.float16)
    return (data * slope).astype(data.dtype, copy=False)


class LeakyRelu(_Op):
    """y = x if x > 0 else s·x;  ∂y/∂x = 1 where x > 0, s elsewhere."""

    node_name = "LeakyReluBackward0"
    saved_names = ("self",)
    formula = (
        "grad * where(self > 0, 1, negative_slope)",
    )

    @staticmethod
    def forward(ctx, x, negative_slope):
        ctx.negative_slope = negative_slope
        ctx.save_for_backward(x)
        data = x._data
        return np.where(data > 0, data, _scaled(data, negative_slope))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return LeakyReluBackward.apply(grad, x, ctx.negative_slope), None


class LeakyReluInplace(_Op):
    """leaky_relu_ (in place): y = x if x > 0 else s·x, saving y instead of x, as PyTorch's
    ``LeakyReluBackward1`` does (y > 0 exactly where x > 0, for s ≥ 0);  ∂y/∂x = 1 or s."""

    node_name = "LeakyReluBackward1"
    saved_names = ("result",)
    formula = (
        "grad * where(result > 0, 1, negative_slope)",
    )

    @staticmethod
    def forward(ctx, x, negative_slope):
        ctx.negative_slope = negative_slope
        data = x._data
        result = np.where(data > 0, data, _scaled(data, negative_slope))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        if ctx.negative_slope < 0:
            raise RuntimeError(
                "In-place leakyReLu backward calculation is triggered with a negative slope "
                "which is not supported. This is caused by calling in-place forward function "
                "with a negative slope, please call out-of-place version instead. File an "
                "issue at https://github.com/pytorch/pytorch if you do require supporting "
                "in-place leakRelu backward calculation with negative slope")
        (y,) = ctx.saved_tensors
        return LeakyReluBackward.apply(grad, y, ctx.negative_slope), None


class LeakyReluBackward(_Op):
    """leaky_relu's backward as an op of its own, as in PyTorch (``leaky_relu_backward``):
    z = g where x > 0, else s·g;  ∂z/∂g = 1 where x > 0, else s;  ∂z/∂x = 0."""

    node_name = "LeakyReluBackwardBackward0"
    saved_names = ("self",)
    formula = ("grad * where(self > 0, 1, negative_slope)", "0 * grad")

    @staticmethod
    def forward(ctx, g, x, negative_slope):
        ctx.negative_slope = negative_slope
        ctx.save_for_backward(x)
        data = g._data
        return np.where(x._data > 0, data, _scaled(data, negative_slope))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        need_g, need_x = ctx.needs_input_grad[:2]
        return (LeakyReluBackward.apply(grad, x, ctx.negative_slope) if need_g else None,
                zero_grad(grad) if need_x else None, None)


def _floats(x, kernel):
    """x's data for a float-only kernel (PyTorch's error for any other dtype); float16 is
    computed in float32, as PyTorch's kernels compute half."""
    data = x._data
    if data.dtype.kind != "f":
        raise _dtype.not_implemented(kernel, x.dtype)
    return data.astype(np.float32) if data.dtype == np.float16 else data


def _one_minus(s):
    """1 - s as PyTorch's C++ writes it for a tensor: a tensor of ones minus s (a
    SubBackward0, not the RsubBackward1 of ``1 - s``)."""
    if isinstance(s, Tensor):
        return Tensor._make(np.ones_like(s._data)) - s
    return 1.0 - s


class Silu(_Op):
    """y = x·σ(x);  ∂y/∂x = σ(x)·(1 + x·(1 - σ(x))) (a backward of plain ops, as PyTorch's)."""

    node_name = "SiluBackward0"
    array_backward = True  # its backward also runs on arrays (no create_graph)
    saved_names = ("self",)
    formula = ("grad * sigmoid(self) * (1 + self * (1 - sigmoid(self)))",)

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        data = _floats(x, "silu_cpu")
        return (data / (1 + np.exp(-data))).astype(x._data.dtype, copy=False)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        s = apply_op(Sigmoid, x)
        return grad * s * plus(x * _one_minus(s), 1.0)


class Mish(_Op):
    """y = x·tanh(softplus(x));  ∂y/∂x = t + x·σ(x)·(1 - t²) with t = tanh(softplus(x)) (a
    backward of plain ops, as PyTorch's under create_graph)."""

    node_name = "MishBackward0"
    saved_names = ("self",)
    # tanh(softplus(x)) written as sinh/cosh of log(1 + eˣ), in the formula language
    formula = ("grad * (sinh(log(1 + exp(self))) / cosh(log(1 + exp(self))) + self * "
               "sigmoid(self) * (1 - (sinh(log(1 + exp(self))) / cosh(log(1 + exp(self)))) ** 2))",)

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        data = _floats(x, "mish_cpu")
        return (data * np.tanh(np.log1p(np.exp(data)))).astype(x._data.dtype, copy=False)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        t = Softplus.apply(x, 1.0, 20.0).tanh()
        return grad * (t + x * x.sigmoid() * (1.0 - t * t))


class Softplus(_Op):
    """y = log(1 + e^(βx)) / β (x itself where βx > threshold);  ∂y/∂x = σ(βx) (1 there)."""

    node_name = "SoftplusBackward0"
    array_backward = True  # its backward also runs on arrays (no create_graph)
    saved_names = ("self",)
    formula = ("grad * where(self * beta > threshold, 1, sigmoid(self * beta))",)

    @staticmethod
    def forward(ctx, x, beta, threshold):
        ctx.beta, ctx.threshold = beta, threshold  # node._saved_beta, _saved_threshold
        ctx.save_for_backward(x)
        data = _floats(x, "softplus_cpu")
        scaled = data * beta
        smooth = np.log1p(np.exp(scaled)) / beta  # (an overflow only where x itself is kept)
        return np.where(scaled > threshold, data, smooth).astype(x._data.dtype, copy=False)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return apply_op(SoftplusBackward, grad, x, ctx.beta, ctx.threshold), None, None


class SoftplusBackward(_Op):
    """softplus's backward as an op of its own, as in PyTorch: z = g·σ(βx) (g where
    βx > threshold);  ∂z/∂g = the same factor,  ∂z/∂x = g·β·σ(βx)(1 - σ(βx)) where
    βx < threshold, else 0."""

    node_name = "SoftplusBackwardBackward0"
    saved_names = ("grad_output", "self")
    formula = ("grad * where(self * beta > threshold, 1, sigmoid(self * beta))",
               "grad * grad_output * sigmoid(self * beta) * (1 - sigmoid(self * beta))"
               " * (self * beta < threshold) * beta")

    @staticmethod
    def forward(ctx, g, x, beta, threshold):
        ctx.beta, ctx.threshold = beta, threshold
        ctx.save_for_backward(g, x)
        return SoftplusBackward.compute(g._data, x._data, beta, threshold)

    @staticmethod
    def compute(g, x, beta, threshold):  # on arrays (see apply_op)
        scaled = x * beta
        z = np.exp(scaled)
        smooth = g * (z / (z + 1))  # (inf / inf only where g itself is kept)
        return np.where(scaled > threshold, g, smooth).astype(g.dtype, copy=False)

    @staticmethod
    def backward(ctx, grad):
        g, x = ctx.saved_tensors
        need_g, need_x = ctx.needs_input_grad[:2]
        beta, threshold = ctx.beta, ctx.threshold
        grad_g = SoftplusBackward.apply(grad, x, beta, threshold) if need_g else None
        grad_x = None
        if need_x:
            scaled = x * beta
            s = scaled.sigmoid()
            grad_x = grad * g * s * (1 - s) * (scaled < threshold).to(grad.dtype) * beta
        return grad_g, grad_x, None, None


# ---------------------------------------------------------------------- elu family
def _const(array):
    """A constant tensor (no history) of an array: a mask or a factor in a backward."""
    return Tensor._make(np.ascontiguousarray(array))


def _elu_array(data, alpha, scale, input_scale):
    negative = np.expm1(data * input_scale) * (scale * alpha)
    return np.where(data > 0, data * scale, negative)


class Elu(_Op):
    """y = scale·x where x > 0, else scale·α·(e^(input_scale·x) - 1) (elu, selu);
    ∂y/∂x = scale there, else input_scale·scale·α·e^(input_scale·x)."""

    node_name = "EluBackward0"
    saved_names = ("self",)
    formula = ("grad * where(self > 0, scale, input_scale * scale * alpha * "
               "exp(self * input_scale))",)

    @staticmethod
    def forward(ctx, x, alpha, scale, input_scale):
        ctx.alpha, ctx.scale, ctx.input_scale = alpha, scale, input_scale
        ctx.save_for_backward(x)
        data = _floats(x, "elu_cpu")
        return _elu_array(data, alpha, scale, input_scale).astype(x._data.dtype, copy=False)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return (EluBackward.apply(grad, x, ctx.alpha, ctx.scale, ctx.input_scale, False),
                None, None, None)


class EluInplace(_Op):
    """elu_ / selu_ (in place), saving the result y as PyTorch's ``EluBackward1``: where
    y ≤ 0, ∂y/∂x = input_scale·(y + scale·α)."""

    node_name = "EluBackward1"
    saved_names = ("result",)
    formula = ("grad * where(result > 0, scale, input_scale * (result + scale * alpha))",)

    @staticmethod
    def forward(ctx, x, alpha, scale, input_scale):
        ctx.alpha, ctx.scale, ctx.input_scale = alpha, scale, input_scale
        data = _floats(x, "elu_cpu")
        result = _elu_array(data, alpha, scale, input_scale).astype(x._data.dtype, copy=False)
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        if ctx.alpha < 0:
            raise RuntimeError(
                "In-place elu backward calculation is triggered with a negative slope which is "
                "not supported. This is caused by calling in-place forward function with a "
                "negative slope, please call out-of-place version instead.")
        (y,) = ctx.saved_tensors
        return (EluBackward.apply(grad, y, ctx.alpha, ctx.scale, ctx.input_scale, True),
                None, None, None)


class EluBackward(_Op):
    """elu's backward as an op of its own (``elu_backward``): z = g·f where f = scale for
    x > 0, else input_scale·scale·α·e^(input_scale·x) (from the result y: input_scale·(y +
    scale·α));  ∂z/∂g = f,  ∂z/∂x = g·input_scale·f where x < 0, else 0."""

    node_name = "EluBackwardBackward0"
    saved_names = ("grad_output", "self_or_result")
    formula = (
        "grad * where(self_or_result > 0, scale, where(is_result, input_scale * "
        "(self_or_result + scale * alpha), input_scale * scale * alpha * "
        "exp(self_or_result * input_scale)))",
        "grad * grad_output * where(self_or_result < 0, where(is_result, input_scale, "
        "input_scale * input_scale * scale * alpha * exp(self_or_result * input_scale)), 0)",
    )

    @staticmethod
    def forward(ctx, g, x, alpha, scale, input_scale, is_result):
        ctx.alpha, ctx.scale, ctx.input_scale, ctx.is_result = alpha, scale, input_scale, is_result
        ctx.save_for_backward(g, x)
        return _elu_factor(x._data, alpha, scale, input_scale, is_result) * g._data

    @staticmethod
    def backward(ctx, grad):
        g, x = ctx.saved_tensors
        need_g, need_x = ctx.needs_input_grad[:2]
        args = ctx.alpha, ctx.scale, ctx.input_scale, ctx.is_result
        grad_g = EluBackward.apply(grad, x, *args) if need_g else None
        grad_x = None
        if need_x:
            negative = _const(x._data < 0).to(grad.dtype)  # (0 at x = 0, as PyTorch)
            if ctx.is_result:
                slope = negative * ctx.input_scale
            else:
                slope = (x * ctx.input_scale).exp() * negative * (
                    ctx.input_scale * ctx.input_scale * ctx.scale * ctx.alpha)
            grad_x = grad * g * slope
        return grad_g, grad_x, None, None, None, None


def _elu_factor(data, alpha, scale, input_scale, is_result):
    compute = data.astype(np.float32) if data.dtype == np.float16 else data
    if is_result:
        negative = (compute + scale * alpha) * input_scale
    else:
        negative = np.exp(compute * input_scale) * (input_scale * scale * alpha)
    return np.where(compute > 0, scale, negative).astype(data.dtype, copy=False)


class Celu(_Op):
    """y = max(0, x) + min(0, α·(e^(x/α) - 1)), an elu with input_scale 1/α; its backward
    is elu's (as in PyTorch)."""

    node_name = "CeluBackward0"
    saved_names = ("self",)
    formula = ("grad * where(self > 0, 1, exp(self / alpha))",)

    @staticmethod
    def forward(ctx, x, alpha):
        ctx.alpha = alpha
        ctx.save_for_backward(x)
        data = _floats(x, "elu_cpu")
        return _elu_array(data, alpha, 1.0, 1.0 / alpha).astype(x._data.dtype, copy=False)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return EluBackward.apply(grad, x, ctx.alpha, 1.0, 1.0 / ctx.alpha, False), None


class CeluInplace(_Op):
    """celu_ (in place), saving the result as PyTorch's ``CeluBackward1``."""

    node_name = "CeluBackward1"
    saved_names = ("result",)
    formula = ("grad * where(result > 0, 1, (result + alpha) / alpha)",)

    @staticmethod
    def forward(ctx, x, alpha):
        ctx.alpha = alpha
        data = _floats(x, "elu_cpu")
        result = _elu_array(data, alpha, 1.0, 1.0 / alpha).astype(x._data.dtype, copy=False)
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        return EluBackward.apply(grad, y, ctx.alpha, 1.0, 1.0 / ctx.alpha, True), None


# ---------------------------------------------------------------------- piecewise-linear
class _Masked(_Op):
    """The backward of a piecewise-linear activation: z = g where the mask m(x) holds,
    else 0;  ∂z/∂g = the same mask,  ∂z/∂x = 0."""

    saved_names = ("self",)

    @staticmethod
    def mask(data, *options):
        raise NotImplementedError

    @classmethod
    def forward(cls, ctx, g, x, *options):
        ctx.options = options
        ctx.save_for_backward(x)
        return np.where(cls.mask(x._data, *options), g._data, zero_of(g._data.dtype))

    @classmethod
    def backward(cls, ctx, grad):
        (x,) = ctx.saved_tensors
        need_g, need_x = ctx.needs_input_grad[:2]
        return ((cls.apply(grad, x, *ctx.options) if need_g else None,
                 zero_grad(grad) if need_x else None) + (None,) * len(ctx.options))


class HardtanhBackward(_Masked):
    """hardtanh's backward: g where min_val < x < max_val, else 0."""

    node_name = "HardtanhBackwardBackward0"
    formula = ("grad * ((self > min_val) & (self < max_val))", "0 * grad")

    @staticmethod
    def mask(data, min_val, max_val):
        return (data > min_val) & (data < max_val)


class ThresholdBackward(_Masked):
    """threshold's backward: g where x > threshold, else 0."""

    node_name = "ThresholdBackwardBackward0"
    formula = ("grad * (self > threshold)", "0 * grad")

    @staticmethod
    def mask(data, threshold):
        return data > threshold


def _bound(data, value):
    """A bound in data's type, as PyTorch converts a scalar for an integer kernel."""
    return int(value) if data.dtype.kind in "iu" else value


class Hardtanh(_Op):
    """y = clamp(x, min_val, max_val) (hardtanh, relu6);  ∂y/∂x = 1 strictly inside, else 0."""

    node_name = "HardtanhBackward0"
    saved_names = ("self",)
    formula = ("grad * ((self > min_val) & (self < max_val))",)

    @staticmethod
    def forward(ctx, x, min_val, max_val):
        ctx.min_val, ctx.max_val = min_val, max_val
        ctx.save_for_backward(x)
        data = x._data
        if data.dtype == np.bool_:
            raise RuntimeError("Bool inputs not supported for hardtanh")
        low, high = _bound(data, min_val), _bound(data, max_val)
        return np.minimum(np.maximum(data, low), high).astype(data.dtype, copy=False)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return HardtanhBackward.apply(grad, x, ctx.min_val, ctx.max_val), None, None


class Threshold(_Op):
    """y = x where x > threshold, else value;  ∂y/∂x = 1 where x > threshold, else 0."""

    node_name = "ThresholdBackward0"
    saved_names = ("self",)
    formula = ("grad * (self > threshold)",)

    @staticmethod
    def forward(ctx, x, threshold, value):
        ctx.threshold = threshold
        ctx.save_for_backward(x)
        data = x._data
        if data.dtype == np.bool_:
            raise _dtype.not_implemented("threshold_cpu", x.dtype)
        keep = data > _bound(data, threshold)
        return np.where(keep, data, np.asarray(_bound(data, value)).astype(data.dtype))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return ThresholdBackward.apply(grad, x, ctx.threshold), None, None


class Hardsigmoid(_Op):
    """y = clamp(x/6 + 1/2, 0, 1);  ∂y/∂x = 1/6 for -3 < x < 3, else 0 (PyTorch has no
    derivative of that backward)."""

    node_name = "HardsigmoidBackward0"
    saved_names = ("self",)
    formula = ("grad * ((self > -3) & (self < 3)) / 6",)

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        data = _floats(x, "hardsigmoid_cpu")
        return np.clip(data / 6 + 0.5, 0, 1).astype(x._data.dtype, copy=False)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return HardsigmoidBackward.apply(grad, x)


class HardsigmoidBackward(_Op):
    """hardsigmoid's backward, g/6 where -3 < x < 3; a second derivative is PyTorch's
    error (its node is named ``NotImplemented``)."""

    node_name = "NotImplemented"

    @staticmethod
    def forward(ctx, g, x):
        inside = (x._data > -3) & (x._data < 3)
        return np.where(inside, g._data / 6, zero_of(g._data.dtype)).astype(g._data.dtype)

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::hardsigmoid_backward is not implemented")


class Hardswish(_Op):
    """y = x·clamp(x + 3, 0, 6)/6;  ∂y/∂x = 0 for x ≤ -3, x/3 + 1/2 for -3 < x < 3, else 1."""

    node_name = "HardswishBackward0"
    saved_names = ("self",)
    formula = ("grad * where(self <= -3, 0, where(self < 3, self / 3 + 0.5, 1))",)

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        data = _floats(x, "hardswish_cpu")
        return (data * np.clip(data + 3, 0, 6) / 6).astype(x._data.dtype, copy=False)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        data = x._data
        inside = _const((data > -3) & (data < 3)).to(grad.dtype)
        above = _const(data >= 3).to(grad.dtype)
        return grad * ((x / 3 + 0.5) * inside + above)


# ---------------------------------------------------------------------- others
class LogSigmoid(_Op):
    """y = log σ(x) = min(x, 0) - log(1 + e^(-|x|));  ∂y/∂x = σ(-x)."""

    node_name = "LogSigmoidBackward0"
    saved_names = ("self", "buffer")
    formula = ("grad * sigmoid(-self)",)

    @staticmethod
    def forward(ctx, x):
        data = _floats(x, "log_sigmoid_cpu")
        buffer = np.exp(-np.abs(data))  # PyTorch's saved buffer: e^(-|x|)
        ctx.save_for_backward(x, Tensor._make(buffer.astype(x._data.dtype, copy=False)))
        return (np.minimum(data, 0) - np.log1p(buffer)).astype(x._data.dtype, copy=False)

    @staticmethod
    def backward(ctx, grad):
        x, _ = ctx.saved_tensors
        return grad * (-x).sigmoid()


class PreluKernel(_Op):
    """y = x where x > 0, else w·x (w broadcast over x's channels);  ∂y/∂x = 1 or w,
    ∂y/∂w = 0 or x."""

    node_name = "PreluKernelBackward0"
    saved_names = ("self", "weight")
    formula = ("grad * where(self > 0, 1, weight)", "grad * where(self > 0, 0, self)")

    @staticmethod
    def forward(ctx, x, w):
        ctx.save_for_backward(x, w)
        data = _floats(x, "prelu_cpu")
        out = np.where(data > 0, data, data * w._data)
        return out.astype(np.result_type(x._data, w._data), copy=False)

    @staticmethod
    def backward(ctx, grad):
        x, w = ctx.saved_tensors
        need_x, need_w = ctx.needs_input_grad[:2]
        positive = _const(x._data > 0).to(grad.dtype)
        grad_x = grad * (positive + (1 - positive) * w) if need_x else None
        grad_w = sum_to(grad * x * (1 - positive), w.shape) if need_w else None
        return grad_x, grad_w


class Glu(_Op):
    """y = a·σ(b), a and b the halves of x along ``dim``;  ∂y/∂a = σ(b),
    ∂y/∂b = a·σ(b)(1 - σ(b))."""

    node_name = "GluBackward0"
    saved_names = ("self",)
    formula = ("cat([grad * sigmoid(self[second]), grad * self[first] * sigmoid(self[second]) "
               "* (1 - sigmoid(self[second]))], axis)",)

    @staticmethod
    def forward(ctx, x, dim):
        ctx.dim = dim % 2 ** 64  # PyTorch shows a negative dim as an unsigned number
        ctx.axis = dim
        half = x.shape[dim] // 2 if x.ndim else 0
        lead = (slice(None),) * (dim % x.ndim if x.ndim else 0)
        ctx.first, ctx.second = lead + (slice(0, half),), lead + (slice(half, 2 * half),)
        ctx.save_for_backward(x)
        data = _floats(x, "glu_cpu")
        a, b = np.split(data, 2, axis=dim)
        return (a / (1 + np.exp(-b))).astype(x._data.dtype, copy=False)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        a, b = x.chunk(2, ctx.axis)
        s = b.sigmoid()
        return cat([grad * s, grad * a * s * (1 - s)], ctx.axis), None


class ThresholdInplace(Threshold):
    """threshold_ (in place): PyTorch names its node ``ThresholdBackward1``."""

    node_name = "ThresholdBackward1"
