"""``meshgrid``: coordinate grids from vectors, each a view of its vector expanded over the
grid (PyTorch's ViewBackward0 under ExpandBackward0)."""

import warnings

from minigrad.ops._util import check_tensor_arg

__all__ = ["meshgrid"]

INDEXING_WARNING = ("minigrad.meshgrid: in an upcoming release, it will be required to pass "
                    "the indexing argument.")


def meshgrid(*tensors, indexing=None):
    """Grids of the coordinates given by 0-d or 1-d tensors: with ``indexing="ij"`` (matrix
    indexing), grid k varies along dimension k; with ``"xy"`` (Cartesian), the first two
    dimensions are swapped. Without ``indexing``, "ij" with PyTorch's warning.

    Example:
        >>> xs, ys = minigrad.meshgrid(minigrad.tensor([1, 2]), minigrad.tensor([5, 6, 7]),
        ...                            indexing="ij")
        >>> ys
        tensor([[5, 6, 7],
                [5, 6, 7]])
    """
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    if indexing is None:
        warnings.warn(INDEXING_WARNING, UserWarning, stacklevel=2)
        indexing = "ij"
    if not tensors:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    for t in tensors:
        check_tensor_arg("meshgrid", "tensors", t, 1)
    if indexing not in ("ij", "xy"):
        raise RuntimeError('minigrad.meshgrid: indexing must be one of "xy" or "ij", but '
                           f"received: {indexing}")
    for t in tensors:
        if t.ndim > 1:
            raise RuntimeError("minigrad.meshgrid: Expected 0D or 1D tensor in the tensor list "
                               f"but got: {t}")
        if t.dtype != tensors[0].dtype:
            raise RuntimeError("meshgrid expects all tensors to have the same dtype")
    sizes = [t.numel() for t in tensors]
    where = list(range(len(tensors)))  # the grid dimension each tensor varies along
    if indexing == "xy" and len(tensors) > 1:
        where[0], where[1] = 1, 0
        sizes[0], sizes[1] = sizes[1], sizes[0]
    grids = []
    for t, d in zip(tensors, where):
        shape = [1] * len(tensors)
        shape[d] = -1
        grids.append(t.view(shape).expand(sizes))
    return tuple(grids)
