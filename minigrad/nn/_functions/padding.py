"""``F.pad``'s nodes: ``ConstantPadNdBackward0`` (a border of one value; a negative pad crops),
and for ``mode="reflect"`` / ``"replicate"`` the gathers ``ReflectionPad{1,2,3}DBackward0`` and
``ReplicationPad{1,2,3}DBackward0``, whose gradients add each output element back to the input
element it was read from (nodes ``...BackwardBackward0``)."""

import numpy as np

from minigrad.autograd.function import _Op
from minigrad.ops.indexing import _Gather, _Scatter

__all__ = ["ConstantPadNd", "PAD_OPS", "border_index", "padded_shape"]


def _regions(shape, pad):
    """The slices of the input (source) and of the output (target) that hold the same
    elements (``pad`` as F.pad takes it: (left, right) of the last dimension first)."""
    source, target = [slice(None)] * len(shape), [slice(None)] * len(shape)
    for k in range(len(pad) // 2):
        dim = len(shape) - 1 - k
        before, after = pad[2 * k], pad[2 * k + 1]
        source[dim] = slice(max(-before, 0), shape[dim] - max(-after, 0))
        length = source[dim].stop - source[dim].start
        target[dim] = slice(max(before, 0), max(before, 0) + length)
    return tuple(source), tuple(target)


def padded_shape(shape, pad):
    """The shape of x padded by ``pad``."""
    out = list(shape)
    for k in range(len(pad) // 2):
        out[len(shape) - 1 - k] += pad[2 * k] + pad[2 * k + 1]
    return tuple(out)


class ConstantPadNd(_Op):
    """y = x with ``pad`` elements of ``value`` added before and after each of its last
    dimensions (removed where negative);  ∂y/∂x = grad in the region that came from x."""

    node_name = "ConstantPadNdBackward0"
    formula = ("put(grad[target], source, self_sym_sizes)",)

    @staticmethod
    def forward(ctx, x, pad, value):
        ctx.pad = pad  # node._saved_pad, as in PyTorch
        ctx.self_sym_sizes = tuple(x.shape)
        ctx.source, ctx.target = _regions(x.shape, pad)
        out = np.full(padded_shape(x.shape, pad), value, dtype=x._data.dtype)
        out[ctx.target] = x._data[ctx.source]
        return out

    @staticmethod
    def backward(ctx, grad):
        return ConstantPadNd.apply(grad, tuple(-p for p in ctx.pad), 0), None, None


def _reflect(positions, size):
    """The input position each output position reads in ``reflect`` mode (the edge itself is
    not repeated: ..., 2, 1, [0, 1, 2, ...])."""
    period = 2 * (size - 1) if size > 1 else 1
    folded = np.abs(positions) % period
    return np.where(folded >= size, period - folded, folded)


def border_index(shape, pad, mode):
    """The NumPy index that gathers the padded tensor from x: for each padded dimension, an
    array of the input positions its output positions read (reflected or clamped)."""
    arrays = []
    for k in reversed(range(len(pad) // 2)):
        size = shape[len(shape) - 1 - k]
        positions = np.arange(-pad[2 * k], size + pad[2 * k + 1])
        arrays.append(_reflect(positions, size) if mode == "reflect" else
                      np.clip(positions, 0, size - 1))
    lead = (slice(None),) * (len(shape) - len(arrays))
    return lead + np.ix_(*arrays)


def _gather_and_scatter(name):
    """The pair of ops of one mode and rank: y = x[index] (``<name>Backward0``), and its
    gradient, zeros with g added at index (``<name>BackwardBackward0``), each the other's
    backward."""
    gather = type(name, (_Gather,), {
        "__doc__": f"{name}: y = x[index], index reading the border from x;  ∂y/∂x = grad "
                   "added back at index.",
        "node_name": f"{name}Backward0", "__module__": __name__})
    scatter = type(f"{name}Backward", (_Scatter,), {
        "__doc__": f"{name}'s backward: y = zeros with g added at index;  ∂y/∂g = grad[index].",
        "node_name": f"{name}BackwardBackward0", "__module__": __name__})
    gather.scatter, scatter.gather = scatter, gather
    return gather


# (mode, number of padded dimensions) -> the op
PAD_OPS = {(mode, dims): _gather_and_scatter(f"{title}Pad{dims}D")
           for mode, title in (("reflect", "Reflection"), ("replicate", "Replication"))
           for dims in (1, 2, 3)}
