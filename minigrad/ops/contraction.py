"""``tensordot``: a contraction over pairs of dimensions, composed as PyTorch composes it:
each input permuted (its free dimensions and the contracted ones apart) and reshaped to a
matrix, one ``mm`` (a ``dot`` when both sides are vectors), and a reshape to the free sizes."""

import numbers

from minigrad.ops._util import normalize_dim, type_name
from minigrad.ops.linalg import dot, mm
from minigrad.tensor import Tensor

__all__ = ["tensordot"]


def _dim_lists(a, b, dims):
    if isinstance(dims, Tensor):
        if dims.numel() > 1:
            return dims[0].tolist(), dims[1].tolist()
        dims = int(dims.item())
    if isinstance(dims, numbers.Integral) and not isinstance(dims, bool):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        if dims > min(a.ndim, b.ndim):
            raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
        return list(range(-dims, 0)), list(range(dims))
    if not isinstance(dims, (tuple, list)):
        raise RuntimeError("tensordot expects dims to be int or tuple[list[int], list[int]] or "
                           f"list[list[int]] containing two lists, but got dims={dims}")
    dims_a, dims_b = dims
    for value, name, position in ((dims_a, "dims_self", 3), (dims_b, "dims_other", 4)):
        if not isinstance(value, (tuple, list)):
            raise TypeError(f"tensordot(): argument '{name}' (position {position}) must be "
                            f"tuple of ints, not {type_name(value)}")
    return list(dims_a), list(dims_b)


def _unique(dims, ndim):
    wrapped = [normalize_dim(d, ndim) for d in dims]
    for d in wrapped:
        if wrapped.count(d) > 1:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    return wrapped


def tensordot(a, b, dims=2, out=None):
    """Σ over the paired dimensions ``dims`` (an int n: the last n of ``a`` with the first n
    of ``b``; or two lists) of a[…, k] · b[k, …]; the result has a's free dimensions, then b's.

    Example:
        >>> a, b = minigrad.ones(2, 3), minigrad.ones(3, 4)
        >>> minigrad.tensordot(a, b, dims=([1], [0])).shape
        minigrad.Size([2, 4])
    """
    dims_a, dims_b = _dim_lists(a, b, dims)
    if len(dims_a) != len(dims_b):
        raise RuntimeError("both dimension lists should have same length")
    if a.dtype != b.dtype:
        raise RuntimeError("both inputs should have same dtype")
    t1, t2, csize = a, b, 1
    for da, db in zip(dims_a, dims_b):
        s1, s2 = a.shape[normalize_dim(da, a.ndim)], b.shape[normalize_dim(db, b.ndim)]
        if s2 == 1:  # a dimension that broadcasts is summed at once
            t1 = t1.sum(da, keepdim=True)
        elif s1 == 1:
            t2 = t2.sum(db, keepdim=True)
        elif s1 != s2:
            raise RuntimeError(f"contracted dimensions need to match, but first has size {s1} "
                               f"in dim {da} and second has size {s2} in dim {db}")
        else:
            csize *= s1
    cdims_a, cdims_b = _unique(dims_a, a.ndim), _unique(dims_b, b.ndim)
    free_a = [i for i in range(a.ndim) if i not in cdims_a]
    free_b = [i for i in range(b.ndim) if i not in cdims_b]
    sizes = [t1.shape[i] for i in free_a] + [t2.shape[i] for i in free_b]
    size1 = size2 = 1
    for i in free_a:
        size1 *= t1.shape[i]
    for i in free_b:
        size2 *= t2.shape[i]
    t1, t2 = t1.permute((*free_a, *dims_a)), t2.permute((*dims_b, *free_b))
    if size1 == 1 and size2 == 1:
        result = dot(t1.flatten(), t2.flatten())
    else:
        result = mm(t1.reshape(size1, csize), t2.reshape(csize, size2))
    result = result.reshape(sizes)
    return result if out is None else out.resize_(result.shape).copy_(result)
