"""``F.pad``: argument checks with PyTorch's error texts, then one padding node
(``nn._functions.padding``): ``constant`` (any rank, negative pads crop), ``reflect`` and
``replicate`` (the last 1, 2 or 3 dimensions of a batched or unbatched input)."""

from minigrad.nn._functions.padding import PAD_OPS, ConstantPadNd, border_index, padded_shape
from minigrad.ops._util import check_tensor_arg

__all__ = ["pad"]

_MODES = ("constant", "reflect", "replicate", "circular")


def _check_pad(pad, ndim):
    pad = tuple(pad)
    for k, p in enumerate(pad):
        if not isinstance(p, int) or isinstance(p, bool):
            raise TypeError("pad(): argument 'pad' (position 2) must be tuple of ints, but found "
                            f"element of type {type(p).__name__} at pos {k}")
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > ndim:
        raise RuntimeError("Padding length should be less than or equal to two times the input "
                           f"dimension but got padding length {len(pad)} and input of dimension "
                           f"{ndim}")
    return pad


def _check_border(input, pad, mode):  # noqa: A002 - PyTorch's name
    """The checks of reflection and replication padding: the rank, non-empty planes, and
    (reflect) pads smaller than the dimension they pad."""
    dims, shape = len(pad) // 2, list(input.shape)
    if input.ndim not in (dims + 1, dims + 2):
        raise NotImplementedError(f"Padding size {len(pad)} is not supported for {input.ndim}D "
                                  "input tensor.")
    if not all(shape[-(dims + 1):]):
        raise RuntimeError(f"Expected {dims + 1}D or {dims + 2}D (batch mode) tensor with "
                           "possibly 0 batch size and other non-zero dimensions for input, but "
                           f"got: {shape}")
    if mode == "reflect":
        for k in range(dims):
            dim = input.ndim - 1 - k
            before, after = pad[2 * k], pad[2 * k + 1]
            if before >= shape[dim] or after >= shape[dim]:
                raise RuntimeError(
                    f"Argument #{4 + 2 * k}: Padding size should be less than the corresponding "
                    f"input dimension, but got: padding ({before}, {after}) at dimension {dim} "
                    f"of input {shape}")
    if dims == 1 and padded_shape(shape, pad)[-1] < 1:
        raise RuntimeError(f"input (W: {shape[-1]}) is too small. Calculated output W: "
                           f"{padded_shape(shape, pad)[-1]}")


def pad(input, pad, mode="constant", value=None):  # noqa: A002 - PyTorch's names
    """``input`` with ``pad[0]`` elements added before its last dimension and ``pad[1]`` after,
    ``pad[2]``/``pad[3]`` around the one before, and so on. ``mode``: ``"constant"`` fills with
    ``value`` (0 by default; a negative pad removes elements), ``"reflect"`` mirrors the input
    about its edge, ``"replicate"`` repeats the edge.

    Example:
        >>> F.pad(minigrad.tensor([[1.0, 2.0, 3.0]]), (1, 2))
        tensor([[0., 1., 2., 3., 0., 0.]])
        >>> F.pad(minigrad.tensor([[1.0, 2.0, 3.0]]), (2, 1), mode="reflect")
        tensor([[3., 2., 1., 2., 3., 2.]])
    """
    check_tensor_arg("pad", "input", input, 1)
    pad = _check_pad(pad, input.ndim)
    if mode not in _MODES:
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if mode == "constant":
        if any(size < 0 for size in padded_shape(input.shape, pad)):
            raise RuntimeError("narrow(): length must be non-negative.")
        return ConstantPadNd.apply(input, pad, 0 if value is None else value)
    if value is not None and value != 0:
        raise RuntimeError(f"Padding mode \"{mode}\" doesn't take in value argument")
    if mode == "circular":  # NB: not in minigrad
        raise NotImplementedError("minigrad: F.pad's mode 'circular' is not supported")
    _check_border(input, pad, mode)
    op = PAD_OPS[mode, len(pad) // 2]
    return op.apply(input, border_index(input.shape, pad, mode))
