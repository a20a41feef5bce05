"""Activation nodes that ``minigrad.ops`` does not have: ``LeakyReluBackward0``,
``SiluBackward0`` and ``SoftplusBackward0``, and the nodes of their gradients where PyTorch has
one of its own (``LeakyReluBackwardBackward0``, ``SoftplusBackwardBackward0``)."""

import numpy as np

from minigrad import _dtype
from minigrad.autograd.function import _Op
from minigrad.ops._util import apply_op, zero_grad
from minigrad.ops.arithmetic import plus
from minigrad.ops.pointwise import Sigmoid
from minigrad.tensor import Tensor

__all__ = ["LeakyRelu", "LeakyReluInplace", "LeakyReluBackward", "Silu", "Mish", "Softplus",
           "SoftplusBackward"]


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
