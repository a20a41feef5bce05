"""Shape ops: views, reshapes, transposes, squeezes, expands, splits and repeats.

Where PyTorch returns a view, the op returns a NumPy view of the input's array (``is_view``), so
the two share memory and the version counter, as in PyTorch.
"""

import math
import warnings

import numpy as np

from minigrad.autograd.function import _Op
from minigrad.ops._util import (
    normalize_dim,
    permute_to,
    sum_to,
    swap_dims,
    transposed,
    unsqueeze_to,
)
from minigrad.tensor import Tensor

__all__ = ["View", "UnsafeView", "Expand", "Unsqueeze", "Clone", "Squeeze", "SqueezeDim",
           "SqueezeDims", "Transpose", "T", "Permute", "Split", "SplitWithSizes", "Unbind",
           "Repeat", "view", "reshape", "flatten", "unflatten", "expand", "expand_as",
           "unsqueeze", "clone", "contiguous", "squeeze", "transpose", "swapaxes", "swapdims",
           "t", "permute", "movedim", "moveaxis", "chunk", "split", "unbind", "repeat",
           "split_with_sizes", "UnsafeSplit", "UnsafeSplitWithSizes", "unsafe_split",
           "unsafe_split_with_sizes", "unsafe_chunk", "Flip", "ReshapeAlias"]

VIEW_INCOMPATIBLE = (
    "view size is not compatible with input tensor's size and stride (at least one dimension "
    "spans across two contiguous subspaces). Use .reshape(...) instead.")


def _size(shape):
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    return tuple(int(s) for s in shape)


def _infer_shape(shape, numel):
    shape = list(shape)
    if shape.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    if -1 in shape:
        known = math.prod(s for s in shape if s != -1)
        if known == 0 or numel % known:
            raise RuntimeError(f"shape '{shape}' is invalid for input of size {numel}")
        shape[shape.index(-1)] = numel // known
    if math.prod(shape) != numel:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    return tuple(shape)


def _view_of(data, shape):
    """``data`` seen with another shape without copying, or None when the strides forbid it."""
    try:
        return np.reshape(data, shape, copy=False)
    except ValueError:
        return None


class View(_Op):
    """y = x with another shape, same elements;  ∂y/∂x = grad reshaped back."""

    node_name = "ViewBackward0"
    formula = ("reshape(grad, self_sym_sizes)",)
    is_view = True

    @staticmethod
    def forward(ctx, x, shape):
        ctx.self_sym_sizes = tuple(x.shape)
        out = _view_of(x._data, _infer_shape(shape, x._data.size))
        if out is None:
            raise RuntimeError(VIEW_INCOMPATIBLE)
        return out

    @staticmethod
    def backward(ctx, grad):
        return grad.reshape(ctx.self_sym_sizes), None


class ReshapeAlias(View):
    """y = x with another shape, same elements, where x is not contiguous but its strides
    allow a view (what ``reshape`` records then);  ∂y/∂x = grad reshaped back."""

    node_name = "ReshapeAliasBackward0"


class UnsafeView(_Op):
    """y = a fresh copy of x reshaped (what ``reshape`` records after a clone);  ∂y/∂x = grad
    reshaped back."""

    node_name = "UnsafeViewBackward0"
    array_backward = True  # its backward also runs on arrays (no create_graph)
    formula = ("reshape(grad, self_sym_sizes)",)

    @staticmethod
    def forward(ctx, x, shape):
        ctx.self_sym_sizes = tuple(x.shape)
        return x._data.reshape(shape)

    @staticmethod
    def backward(ctx, grad):
        return grad.reshape(ctx.self_sym_sizes), None



def _legacy_type(x):
    """How PyTorch's expand message names a tensor's type (bool has no legacy name there)."""
    return "CPUBoolType" if x.dtype.name == "bool" else f"minigrad.{x.dtype.tensor_type}"

class Expand(_Op):
    """y = x broadcast to ``shape`` (no copy);  ∂y/∂x = grad summed over the new dimensions."""

    node_name = "ExpandBackward0"
    array_backward = True  # its backward also runs on arrays (no create_graph)
    formula = ("grad",)
    is_view = True

    @staticmethod
    def forward(ctx, x, shape):
        ctx.self_sym_sizes = tuple(x.shape)
        return np.broadcast_to(x._data, _expanded_shape(x, shape))

    @staticmethod
    def backward(ctx, grad):
        return sum_to(grad, ctx.self_sym_sizes), None


def _expanded_shape(x, shape):
    """The target of ``x.expand(*shape)`` with PyTorch's checks and messages."""
    lead = len(shape) - x.ndim
    if lead < 0:
        raise RuntimeError(
            f"expand({_legacy_type(x)}{{{list(x.shape)}}}, size={list(shape)}): "
            f"the number of sizes provided ({len(shape)}) must be greater or equal to the "
            f"number of dimensions in the tensor ({x.ndim})")
    if x.ndim == 0 and any(s < 0 for s in shape):  # PyTorch counts elements first here
        _check_sizes(shape)
    target = list(shape)
    for i in reversed(range(len(shape))):  # from the last dim, as PyTorch checks them
        s = shape[i]
        if i < lead:
            if s == -1:
                raise RuntimeError(f"The expanded size of the tensor ({s}) isn't allowed in a "
                                   f"leading, non-existing dimension {i}")
            continue
        have = x.shape[i - lead]
        if s == -1:
            target[i] = have
        elif have != s and have != 1:
            raise RuntimeError(
                f"The expanded size of the tensor ({s}) must match the existing size ({have}) "
                f"at non-singleton dimension {i}.  Target sizes: {list(shape)}.  Tensor sizes: "
                f"{list(x.shape)}")
    _check_sizes(target)
    return tuple(target)


def _check_sizes(sizes):
    """PyTorch's errors for negative sizes: read as unsigned, their product overflows, unless
    a 0 comes first."""
    if all(s >= 0 for s in sizes):
        return
    product, overflow = 1, False
    for s in sizes:
        product *= s % 2 ** 64
        overflow |= product >= 2 ** 64
        product %= 2 ** 64
    if overflow or product >= 2 ** 63:
        raise RuntimeError("numel: integer multiplication overflow")
    raise ValueError("negative dimensions are not allowed")


class Unsqueeze(_Op):
    """y = x with a new dimension of size 1 at ``dim``;  ∂y/∂x = grad squeezed at ``dim``."""

    node_name = "UnsqueezeBackward0"
    formula = ("squeeze(grad, dim)",)
    is_view = True

    @staticmethod
    def forward(ctx, x, dim):
        ctx.dim = normalize_dim(dim, x.ndim + 1)
        return np.expand_dims(x._data, ctx.dim)

    @staticmethod
    def backward(ctx, grad):
        return grad.squeeze(ctx.dim), None


class Clone(_Op):
    """y = a copy of x (same memory layout);  ∂y/∂x = 1."""

    node_name = "CloneBackward0"
    array_backward = True  # its backward also runs on arrays (no create_graph)
    formula = ("grad",)

    @staticmethod
    def forward(ctx, x, order="K"):
        return x._data.copy(order=order)

    @staticmethod
    def backward(ctx, grad):
        return grad, None


class Flip(_Op):
    """y = x in reverse order along ``dims`` (a copy);  ∂y/∂x = grad reversed back."""

    node_name = "FlipBackward0"
    formula = ("flip(grad, dims)",)

    @staticmethod
    def forward(ctx, x, dims):
        ctx.dims = dims  # node._saved_dims, as in PyTorch
        return np.flip(x._data, dims).copy() if dims else x._data.copy()

    @staticmethod
    def backward(ctx, grad):
        return Flip.apply(grad, ctx.dims), None


class Squeeze(_Op):
    """y = x without its dimensions of size 1;  ∂y/∂x = grad with them put back."""

    node_name = "SqueezeBackward0"
    formula = ("unsqueeze(grad, dims)",)
    is_view = True

    @staticmethod
    def forward(ctx, x, dims):
        shape = x._data.shape
        dims = range(x.ndim) if dims is None else (normalize_dim(d, x.ndim) for d in dims)
        ctx.dims = tuple(sorted({d for d in dims if x.ndim and shape[d] == 1}))
        return np.squeeze(x._data, ctx.dims)

    @staticmethod
    def backward(ctx, grad):
        return unsqueeze_to(grad, ctx.dims), None


class SqueezeDim(Squeeze):
    """y = x without dimension ``dim`` if its size is 1;  ∂y/∂x = grad unsqueezed there."""

    node_name = "SqueezeBackward1"


class SqueezeDims(Squeeze):
    """y = x without those of ``dims`` whose size is 1;  ∂y/∂x = grad unsqueezed there."""

    node_name = "SqueezeBackward2"


class Transpose(_Op):
    """y = x with dimensions ``dim0`` and ``dim1`` swapped;  ∂y/∂x = grad swapped back."""

    node_name = "TransposeBackward0"
    formula = ("swap(grad, dim0, dim1)",)
    is_view = True

    @staticmethod
    def forward(ctx, x, dim0, dim1):
        ctx.dim0, ctx.dim1 = normalize_dim(dim0, x.ndim), normalize_dim(dim1, x.ndim)
        if x.ndim == 0:  # dims 0 and -1 name the 0-d tensor's one "dimension": itself
            return x._data.view()
        return np.swapaxes(x._data, ctx.dim0, ctx.dim1)

    @staticmethod
    def backward(ctx, grad):
        return swap_dims(grad, ctx.dim0, ctx.dim1), None, None


class T(_Op):
    """y = xᵀ for a matrix (x itself for fewer dimensions);  ∂y/∂x = gradᵀ."""

    node_name = "TBackward0"
    formula = ("grad.T",)
    is_view = True

    @staticmethod
    def forward(ctx, x):
        if x.ndim > 2:
            raise RuntimeError(
                f"t() expects a tensor with <= 2 dimensions, but self is {x.ndim}D")
        return x._data.T

    @staticmethod
    def backward(ctx, grad):
        return transposed(grad)


class Permute(_Op):
    """y = x with its dimensions reordered by ``dims``;  ∂y/∂x = grad ordered back."""

    node_name = "PermuteBackward0"
    formula = ("permute_back(grad, dims)",)
    is_view = True

    @staticmethod
    def forward(ctx, x, dims):
        if len(dims) != x.ndim:
            raise RuntimeError(
                "permute(sparse_coo): number of dimensions in the tensor input does not match "
                "the length of the desired ordering of dimensions i.e. input.dim() = "
                f"{x.ndim} is not equal to len(dims) = {len(dims)}")
        dims = tuple(normalize_dim(d, x.ndim) for d in dims)
        if len(set(dims)) != len(dims):
            raise RuntimeError("permute(): duplicate dims are not allowed.")
        ctx.dims = dims
        return np.transpose(x._data, dims)

    @staticmethod
    def backward(ctx, grad):
        return permute_to(grad, tuple(np.argsort(ctx.dims).tolist())), None


class Split(_Op):
    """(y₀, y₁, …) = consecutive pieces of x along ``dim``;  ∂yᵢ/∂x = gradᵢ put back in
    place (the gradients of all pieces concatenated)."""

    node_name = "SplitBackward0"
    formula = ("cat(grads, dim)",)
    is_view = True
    multi_output_view = True

    @staticmethod
    def forward(ctx, x, sizes, dim):
        ctx.dim = dim
        bounds = np.cumsum(sizes)[:-1].tolist()
        return tuple(np.split(x._data, bounds, axis=dim))

    @staticmethod
    def backward(ctx, *grads):
        from minigrad.ops.combine import cat
        return cat(grads, ctx.dim), None, None


class SplitWithSizes(Split):
    """(y₀, y₁, …) = pieces of x of the given sizes along ``dim``;  ∂yᵢ/∂x = gradᵢ in place."""

    node_name = "SplitWithSizesBackward0"


class UnsafeSplit(Split):
    """``split`` whose pieces autograd does not treat as views (they may change in place)."""

    node_name = "UnsafeSplitBackward0"
    is_view = False
    multi_output_view = False


class UnsafeSplitWithSizes(UnsafeSplit):
    node_name = "UnsafeSplitWithSizesBackward0"


class Unbind(_Op):
    """(y₀, y₁, …) = the slices of x along ``dim``;  ∂yᵢ/∂x = the gradients stacked."""

    node_name = "UnbindBackward0"
    formula = ("stack(grads, dim)",)
    is_view = True
    multi_output_view = True

    @staticmethod
    def forward(ctx, x, dim):
        ctx.dim = dim = normalize_dim(dim, x.ndim)  # the range first, as PyTorch
        if x.ndim == 0:
            raise IndexError("Dimension specified as 0 but tensor has no dimensions")
        lead = (slice(None),) * dim
        return tuple(x._data[lead + (i, Ellipsis)] for i in range(x._data.shape[dim]))

    @staticmethod
    def backward(ctx, *grads):
        from minigrad.ops.combine import stack
        return stack(grads, ctx.dim), None


class Repeat(_Op):
    """y = x tiled ``repeats`` times along each dimension;  ∂y/∂x = the sum over the tiles."""

    node_name = "RepeatBackward0"
    formula = ("sum_tiles(grad, repeats, self_sym_sizes)",)

    @staticmethod
    def forward(ctx, x, repeats):
        if len(repeats) < x.ndim:
            raise RuntimeError("Number of dimensions of repeat dims can not be smaller than "
                               "number of dimensions of tensor")
        ctx.self_sym_sizes, ctx.repeats = tuple(x.shape), repeats
        padded = (1,) * (len(repeats) - x.ndim) + x.shape
        return np.tile(x._data.reshape(padded), repeats)

    @staticmethod
    def backward(ctx, grad):
        # As PyTorch's repeat_backward: the leading new dims summed away one by one, then one
        # reshape to (repeat, size) pairs and one sum over the repeats
        repeats, shape = ctx.repeats, ctx.self_sym_sizes
        if 0 in repeats:
            return Tensor._make(np.zeros(shape, grad._data.dtype)), None
        lead = len(repeats) - len(shape)
        for _ in range(lead):
            grad = grad.sum(0)
        sizes, dims = [], []
        for repeat, size in zip(repeats[lead:], shape):
            if repeat != 1:
                sizes.append(repeat)
                dims.append(len(sizes) - 1)
            sizes.append(size)
        if dims:
            grad = grad.reshape(sizes).sum(tuple(dims))
        return grad, None


# ---------------------------------------------------------------- function forms
def view(x, *shape):
    return View.apply(x, _size(shape))


def _required(args, op, name):
    """PyTorch's TypeError for a method called without its sizes (``x.permute()``)."""
    if not args:
        raise TypeError(f'{op}() missing 1 required positional arguments: "{name}"')


def reshape(x, *shape):
    """A view when the strides allow it (ViewBackward0 of a contiguous x, else
    ReshapeAliasBackward0), else a copy (UnsafeViewBackward0)."""
    _required(shape, "reshape", "shape")
    shape = _infer_shape(_size(shape), x._data.size)
    if x._data.flags.c_contiguous:
        return View.apply(x, shape)
    if _view_of(x._data, shape) is not None:
        return ReshapeAlias.apply(x, shape)
    return UnsafeView.apply(Clone.apply(x, "C"), shape)


def flatten(x, start_dim=0, end_dim=-1):
    start, end = normalize_dim(start_dim, x.ndim), normalize_dim(end_dim, x.ndim)
    if x.ndim == 0:  # (its dims checked as those of one dimension, as PyTorch checks them)
        return reshape(x, 1)
    if start > end:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if start == end:
        return x
    shape = x.shape
    return reshape(x, shape[:start] + (math.prod(shape[start:end + 1]),) + shape[end + 1:])


def unflatten(x, dim, sizes):
    if x.ndim == 0:  # (PyTorch passes on the error of its dimension check)
        raise RuntimeError(f"unflatten got an unexpected error:\nDimension specified as {dim} "
                           "but tensor has no dimensions")
    dim = normalize_dim(dim, x.ndim)
    have = x.shape[dim]
    sizes = tuple(sizes)
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    known = math.prod(s for s in sizes if s != -1)
    unexpected = ("only one dimension can be inferred" if sizes.count(-1) > 1 else
                  next((f"invalid shape dimension {s}" for s in sizes if s < -1), None))
    if unexpected is None and -1 in sizes and known == have == 0:
        unexpected = (f"cannot reshape tensor of 0 elements into shape {list(sizes)} because "
                      "the unspecified dimension size -1 can be any value and is ambiguous")
    if unexpected:  # PyTorch passes on the error of its size inference
        raise RuntimeError(f"unflatten got an unexpected error:\n{unexpected}")
    if (-1 in sizes and (known == 0 or have % known)) or (-1 not in sizes and known != have):
        raise RuntimeError(f"unflatten: Provided sizes {list(sizes)} don't multiply up to the "
                           f"size of dim {dim} ({have}) in the input tensor")
    if -1 in sizes:
        sizes = tuple(have // known if s == -1 else s for s in sizes)
    return View.apply(x, x.shape[:dim] + sizes + x.shape[dim + 1:])


def expand(x, *shape):
    """Always records ExpandBackward0, as PyTorch does, even when the shape is unchanged."""
    _required(shape, "expand", "size")
    return Expand.apply(x, _size(shape))


def expand_as(x, other):
    return Expand.apply(x, other.shape)


def unsqueeze(x, dim):
    return Unsqueeze.apply(x, dim)


def clone(x):
    return Clone.apply(x)


def contiguous(x):
    """x itself when its memory is already in row-major order, else a row-major copy."""
    if x._data.flags.c_contiguous:
        return x
    return Clone.apply(x, "C")


def squeeze(x, dim=None):
    if dim is None:
        return Squeeze.apply(x, None)
    if isinstance(dim, (tuple, list)):
        return SqueezeDims.apply(x, tuple(dim))
    return SqueezeDim.apply(x, (dim,))


def transpose(x, dim0, dim1):
    return Transpose.apply(x, dim0, dim1)


swapaxes = swapdims = transpose

# PyTorch warns once per process (TORCH_WARN_ONCE); NB: minigrad leaves that to Python's filters.
T_NOT_2D = ("The use of `x.T` on tensors of dimension other than 2 to reverse their shape is "
            "deprecated and it will throw an error in a future release. Consider `x.mT` to "
            "transpose batches of matrices or `x.permute(*minigrad.arange(x.ndim - 1, -1, -1))` "
            "to reverse the dimensions of a tensor.")
T_0D = "Tensor.T is deprecated on 0-D tensors. This function is the identity in these cases."
MT_0D = "Tensor.mT is deprecated on 0-D tensors. This function is the identity in these cases."


def numpy_t(x):
    """``x.T``: all dimensions reversed (a warning unless x is a matrix), as PyTorch's numpy_T."""
    if x.ndim not in (0, 2):
        warnings.warn(T_NOT_2D, UserWarning, stacklevel=3)
    elif x.ndim == 0:
        warnings.warn(T_0D, UserWarning, stacklevel=3)
    return Permute.apply(x, tuple(reversed(range(x.ndim))))


def matrix_t(x):
    """``x.mT``: the last two dimensions swapped (x itself, with a warning, for a 0-d x)."""
    if x.ndim == 0:
        warnings.warn(MT_0D, UserWarning, stacklevel=3)
        return x
    if x.ndim < 2:
        raise RuntimeError("tensor.mT is only supported on matrices or batches of matrices. "
                           f"Got {x.ndim}-D tensor.")
    return Transpose.apply(x, -2, -1)


def t(x):
    return T.apply(x)


def permute(x, *dims):
    _required(dims, "permute", "dims")
    return Permute.apply(x, _size(dims))


def movedim(x, source, destination):
    """x with the dimensions ``source`` moved to the positions ``destination`` (a view)."""
    given_source = np.atleast_1d(source).tolist()
    given_destination = np.atleast_1d(destination).tolist()
    if len(given_source) != len(given_destination):
        raise RuntimeError(f"movedim: Invalid source or destination dims: source "
                           f"({given_source} dims) should contain the same number of dims as "
                           f"destination ({given_destination} dims)")
    source = [normalize_dim(d, x.ndim) for d in given_source]
    destination = [normalize_dim(d, x.ndim) for d in given_destination]
    for name, dims, given in (("source", source, given_source),
                              ("destination", destination, given_destination)):
        if len(set(dims)) != len(dims):
            raise RuntimeError(f"movedim: repeated dim in `{name}` ({given})")
    if x.ndim == 0:  # nothing to move: PyTorch's alias of x
        from minigrad.ops.indexing import Alias
        return Alias.apply(x)
    order = [d for d in range(x.ndim) if d not in source]
    for dst, src in sorted(zip(destination, source)):
        order.insert(dst, src)
    return Permute.apply(x, tuple(order))


moveaxis = movedim


def split(x, split_size_or_sections, dim=0):
    """Pieces of ``split_size`` (the last may be smaller), or of the listed sizes."""
    if x.ndim == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    dim = normalize_dim(dim, x.ndim)
    n = x.shape[dim]
    if isinstance(split_size_or_sections, (list, tuple)):
        sizes = tuple(int(s) for s in split_size_or_sections)
        if sum(sizes) != n or any(s < 0 for s in sizes):
            raise RuntimeError(
                f"split_with_sizes expects split_sizes to sum exactly to {n} (input tensor's "
                f"size at dimension {dim}), but got split_sizes={list(sizes)}")
        return SplitWithSizes.apply(x, sizes, dim)
    size = int(split_size_or_sections)
    if size < 0:
        raise RuntimeError(f"split expects split_size be non-negative, but got split_size={size}")
    if size == 0 and n != 0:
        raise RuntimeError("split_size can only be 0 if dimension size is 0, but got dimension "
                           f"size of {n}")
    count = max(1, -(-n // size)) if size else 1
    sizes = tuple(min(size, n - i * size) for i in range(count))
    return Split.apply(x, sizes, dim)


def split_with_sizes(x, split_sizes, dim=0):
    """Pieces of ``x`` along ``dim`` of the listed sizes (which must add up to its size)."""
    if not isinstance(split_sizes, (list, tuple)):
        raise TypeError(f"split_with_sizes(): argument 'split_sizes' (position 1) must be "
                        f"tuple of ints, not {type(split_sizes).__name__}")
    return split(x, list(split_sizes), dim)


def chunk(x, chunks, dim=0):
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    if x.ndim == 0:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    n = x.shape[normalize_dim(dim, x.ndim)]
    if n == 0:
        return split(x, [0] * chunks, dim)
    return split(x, -(-n // chunks), dim)


def unsafe_split(x, split_size, dim=0):
    """``split``, but the pieces are not views to autograd: they may change in place."""
    if isinstance(split_size, (list, tuple)):
        return unsafe_split_with_sizes(x, split_size, dim)
    dim = normalize_dim(dim, x.ndim)
    n, size = x.shape[dim], int(split_size)
    sizes = (size,) * (n // size) + ((n % size,) if n % size else ()) if size else (0,)
    return UnsafeSplit.apply(x, sizes, dim)


def unsafe_split_with_sizes(x, split_sizes, dim=0):
    return UnsafeSplitWithSizes.apply(x, tuple(int(n) for n in split_sizes),
                                      normalize_dim(dim, x.ndim))


def unsafe_chunk(x, chunks, dim=0):
    n = x.shape[normalize_dim(dim, x.ndim)]
    return unsafe_split(x, -(-n // chunks) if n else 0, dim)


def unbind(x, dim=0):
    return Unbind.apply(x, dim)


def repeat(x, *repeats):
    _required(repeats, "repeat", "repeats")
    return Repeat.apply(x, _size(repeats))
