"""Shape ops: views, reshapes, transposes, squeezes and expands."""

import numpy as np

from minigrad.autograd.function import _Op
from minigrad.ops._util import normalize_dim

__all__ = ["View", "Expand", "Unsqueeze", "Clone", "Squeeze", "view", "reshape", "expand",
           "unsqueeze", "clone", "squeeze"]


def _size(shape):
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    return tuple(int(s) for s in shape)


def _infer_shape(shape, numel):
    shape = list(shape)
    if shape.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    if -1 in shape:
        known = int(np.prod([s for s in shape if s != -1]))
        if known == 0 or numel % known:
            raise RuntimeError(f"shape '{shape}' is invalid for input of size {numel}")
        shape[shape.index(-1)] = numel // known
    if int(np.prod(shape)) != numel:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    return tuple(shape)


class View(_Op):
    """y = x with another shape, same elements;  ∂y/∂x = grad reshaped back."""

    node_name = "ViewBackward0"

    @staticmethod
    def forward(ctx, x, shape):
        ctx.self_sym_sizes = x.shape
        return x._data.reshape(_infer_shape(shape, x._data.size))

    @staticmethod
    def backward(ctx, grad):
        return grad.reshape(ctx.self_sym_sizes), None


class Expand(_Op):
    """y = x broadcast to ``shape`` (no copy);  ∂y/∂x = grad summed over the new dimensions."""

    node_name = "ExpandBackward0"

    @staticmethod
    def forward(ctx, x, shape):
        ctx.self_sym_sizes = x.shape
        lead = len(shape) - x.ndim
        if lead < 0:
            raise RuntimeError(
                f"expand(torch.FloatTensor{{{list(x.shape)}}}, size={list(shape)}): the number "
                "of sizes provided must be greater or equal to the number of dimensions in the "
                "tensor")
        target = tuple(x.shape[i - lead] if s == -1 else s for i, s in enumerate(shape))
        try:
            return np.broadcast_to(x._data, target)
        except ValueError:
            raise RuntimeError(f"The expanded size of the tensor must match the existing size "
                               f"at non-singleton dimension: target {list(target)}, tensor "
                               f"{list(x.shape)}") from None

    @staticmethod
    def backward(ctx, grad):
        from minigrad.ops._util import sum_to
        return sum_to(grad, ctx.self_sym_sizes), None


class Unsqueeze(_Op):
    """y = x with a new dimension of size 1 at ``dim``;  ∂y/∂x = grad squeezed at ``dim``."""

    node_name = "UnsqueezeBackward0"

    @staticmethod
    def forward(ctx, x, dim):
        ctx.dim = normalize_dim(dim, x.ndim + 1)
        return np.expand_dims(x._data, ctx.dim)

    @staticmethod
    def backward(ctx, grad):
        return grad.squeeze(ctx.dim), None


def view(x, *shape):
    return View.apply(x, _size(shape))


def reshape(x, *shape):
    return View.apply(x, _size(shape))


def expand(x, *shape):
    shape = _size(shape)
    if shape == x.shape:
        return x
    return Expand.apply(x, shape)


def unsqueeze(x, dim):
    return Unsqueeze.apply(x, dim)


class Clone(_Op):
    """y = a copy of x;  ∂y/∂x = 1."""

    node_name = "CloneBackward0"

    @staticmethod
    def forward(ctx, x):
        return x._data.copy()

    @staticmethod
    def backward(ctx, grad):
        return grad


class Squeeze(_Op):
    """y = x without dimensions of size 1 (all, or the given ones);  ∂y/∂x = grad reshaped."""

    node_name = "SqueezeBackward0"

    @staticmethod
    def forward(ctx, x, dims):
        ctx.self_sym_sizes = x.shape
        if dims is None:
            return np.squeeze(x._data)
        dims = tuple(normalize_dim(d, x.ndim) for d in dims)
        return np.squeeze(x._data, tuple(d for d in dims if x._data.shape[d] == 1))

    @staticmethod
    def backward(ctx, grad):
        return grad.reshape(ctx.self_sym_sizes), None


def clone(x):
    return Clone.apply(x)


def squeeze(x, dim=None):
    if dim is None:
        return Squeeze.apply(x, None)
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    if isinstance(dim, int):
        return SqueezeDim.apply(x, dims)
    return SqueezeDims.apply(x, dims)


class SqueezeDim(Squeeze):
    node_name = "SqueezeBackward1"


class SqueezeDims(Squeeze):
    node_name = "SqueezeBackward2"
