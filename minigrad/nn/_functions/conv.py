"""``ConvolutionBackward0``: a convolution (or a transposed one) as one node, with edges to the
input, the weight and the bias; and ``ConvolutionBackwardBackward0``, its backward as an op of
its own, so that ``create_graph=True`` differentiates convolutions again.

The arithmetic is im2col with NumPy's ``matmul`` (``_im2col``). The gradients of a convolution
are convolutions too: of the input, a transposed convolution of the gradient with the same
weight; of the weight, a convolution of the input with the gradient (``weight_grad``).
"""

from typing import NamedTuple

import numpy as np

from minigrad.autograd.function import _Op
from minigrad.nn._functions import _im2col

__all__ = ["ConvParams", "Convolution", "ConvolutionBackward", "convolution", "weight_grad"]


class ConvParams(NamedTuple):
    """What a convolution needs besides its tensors; ``padding`` holds (before, after) pairs."""

    stride: tuple
    padding: tuple
    dilation: tuple
    transposed: bool
    output_padding: tuple
    groups: int

    def transposed_size(self, size, kernel):
        """Spatial output size of the transposed convolution of an input of spatial ``size``."""
        return tuple((s - 1) * st - lo - hi + d * (k - 1) + 1 + op for s, k, st, d, (lo, hi), op
                     in zip(size, kernel, self.stride, self.dilation, self.padding,
                            self.output_padding))

    def flipped(self, transposed, output_padding=None):
        """The same geometry as a (transposed or not) convolution."""
        op = output_padding or (0,) * len(self.stride)
        return self._replace(transposed=transposed, output_padding=tuple(op))


def _forward(x, w, b, p):
    """The arrays of a convolution or a transposed one."""
    geometry = (p.stride, p.padding, p.dilation, p.groups)
    if not p.transposed:
        return _im2col.conv_forward(x, w, b, *geometry)
    y = _im2col.conv_input_grad(x, w, *geometry, p.transposed_size(x.shape[2:], w.shape[2:]))
    if b is not None:
        y += b.reshape((-1,) + (1,) * (y.ndim - 2))
    return np.ascontiguousarray(y)


class Convolution(_Op):
    """y = Σ w·window(x) + b over every window (im2col, then one matmul); transposed: y is the
    adjoint in x of that map. ∂ℓ/∂x, ∂ℓ/∂w, ∂ℓ/∂b are computed by ``ConvolutionBackward``."""

    node_name = "ConvolutionBackward0"
    saved_names = ("input", "weight")
    formula = (
        "conv_input(grad, weight, params, input)",
        "conv_weight(input, grad, params, weight)",
        "channels(grad)",
    )

    @staticmethod
    def forward(ctx, x, weight, bias, params):
        ctx.params, ctx.has_bias = params, bias is not None
        _save_geometry(ctx, params, bias)
        ctx.save_for_backward(x, weight)
        return _forward(x._data, weight._data, None if bias is None else bias._data, params)

    @staticmethod
    def backward(ctx, grad):
        x, weight = ctx.saved_tensors
        needs = ctx.needs_input_grad
        mask = (needs[0], needs[1], needs[2] and ctx.has_bias)
        grads = ConvolutionBackward.apply(grad, x, weight, ctx.params, mask)
        return (*grads, None)


def _save_geometry(ctx, p, bias):
    """What PyTorch's node shows as ``_saved_stride``, ``_saved_padding``, …"""
    ctx.stride, ctx.dilation, ctx.groups = p.stride, p.dilation, p.groups
    ctx.padding = tuple(before for before, _ in p.padding)
    ctx.transposed, ctx.output_padding = p.transposed, p.output_padding
    ctx.bias_sym_sizes_opt = (0,) if bias is None else tuple(bias.shape)


class ConvolutionBackward(_Op):
    """(∂ℓ/∂x, ∂ℓ/∂w, ∂ℓ/∂b) of a convolution: bilinear in (grad, weight) and (input, grad),
    so its own gradients are convolutions again (``backward``)."""

    node_name = "ConvolutionBackwardBackward0"
    saved_names = ("grad_output", "input", "weight")
    formula = (
        "conv(grads[0], weight, params, grad_output) + conv(input, grads[1], params, "
        "grad_output) + channel_bias(grads[2], grad_output)",
        "conv_input(grad_output, grads[1], params, input)",
        "conv_weight(grads[0], grad_output, params, weight)",
    )

    @staticmethod
    def forward(ctx, grad, x, weight, params, mask):
        ctx.params, ctx.mask = params, mask
        ctx.save_for_backward(grad, x, weight)
        g, data, w, p = grad._data, x._data, weight._data, params
        geometry = (p.stride, p.padding, p.dilation, p.groups)
        grad_x = grad_w = grad_b = None
        if mask[0] and p.transposed:
            grad_x = _fit(_im2col.conv_forward(g, w, None, *geometry), data.shape)
        elif mask[0]:
            grad_x = np.ascontiguousarray(
                _im2col.conv_input_grad(g, w, *geometry, data.shape[2:]))
        if mask[1] and p.transposed:
            grad_w = _im2col.conv_weight_grad(g, data, w.shape[2:], *geometry)
        elif mask[1]:
            grad_w = _im2col.conv_weight_grad(data, g, w.shape[2:], *geometry)
        if mask[2]:
            grad_b = g.sum(axis=(0, *range(2, g.ndim)))
        return grad_x, grad_w, grad_b

    @staticmethod
    def backward(ctx, gg_x, gg_w, gg_b):
        grad, x, weight = ctx.saved_tensors
        p = ctx.params
        needs = ctx.needs_input_grad
        # Regular: gx = convᵀ(grad, w), gw = weight_grad(x, grad), gb = Σ grad. Transposed:
        # gx = conv(grad, w), gw = weight_grad(grad, x). Each is linear in each argument.
        g_grad = g_x = g_w = None
        if needs[0]:
            terms = []
            if gg_x is not None:
                terms.append(convolution(gg_x, weight, gg_b, p, grad.shape))
            elif gg_b is not None:
                terms.append(gg_b.reshape(1, -1, *(1,) * (grad.ndim - 2)).expand(*grad.shape))
            if gg_w is not None:
                terms.append(convolution(x, gg_w, None, p, grad.shape))
            g_grad = _add(terms)
        if needs[1] and gg_w is not None:
            g_x = convolution(grad, gg_w, None, p.flipped(not p.transposed), x.shape)
        if needs[2] and gg_x is not None:
            g_w = (weight_grad(gg_x, grad, weight.shape, p) if not p.transposed
                   else weight_grad(grad, gg_x, weight.shape, p))
        return g_grad, g_x, g_w, None, None


def _fit(y, shape):
    """``y`` cut to ``shape`` (a transposed convolution's gradient can see one row more)."""
    if y.shape == tuple(shape):
        return y
    return np.ascontiguousarray(y[tuple(slice(0, s) for s in shape)])


def _add(terms):
    """The sum of the tensors in ``terms`` (None for none)."""
    if not terms:
        return None
    total = terms[0]
    for term in terms[1:]:
        total = total + term
    return total


def convolution(x, weight, bias, params, out_shape):
    """A differentiable convolution (or transposed one) with ``params`` whose output has
    ``out_shape``: a transposed one gets the output padding that fits, a regular one is cut."""
    p = params
    kernel, size = weight.shape[2:], tuple(out_shape[2:])
    if p.transposed:
        natural = p.flipped(True).transposed_size(x.shape[2:], kernel)
        p = p.flipped(True, [s - n for s, n in zip(size, natural)])
    y = Convolution.apply(x, weight, bias, p)
    if y.shape[2:] != size:
        y = y[(slice(None), slice(None)) + tuple(slice(0, s) for s in size)]
    return y


def weight_grad(x, grad, weight_shape, params):
    """∂ℓ/∂w of a convolution of ``x`` whose output gradient is ``grad``, written as a
    convolution (of x's channels, batch as channels, with grad as the kernel, stride and
    dilation swapped), so that it can be differentiated."""
    p = params
    n, groups = x.shape[0], p.groups
    c, o = x.shape[1] // groups, grad.shape[1] // groups
    xs = x.reshape(n, groups, c, *x.shape[2:]).transpose(0, 2).reshape(c, groups * n,
                                                                          *x.shape[2:])
    kernel = grad.reshape(n, groups, o, *grad.shape[2:]).permute(
        1, 2, 0, *range(3, grad.ndim + 1)).reshape(groups * o, n, *grad.shape[2:])
    swapped = p._replace(stride=p.dilation, dilation=p.stride, transposed=False)
    y = Convolution.apply(xs, kernel, None, swapped)  # (C/g, O, *K')
    size = tuple(weight_shape[2:])
    if y.shape[2:] != size:
        y = y[(slice(None), slice(None)) + tuple(slice(0, s) for s in size)]
    return y.transpose(0, 1)
