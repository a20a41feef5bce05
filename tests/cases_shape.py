"""Op cases for ``minigrad.ops.shape``, ``minigrad.ops.indexing`` and ``minigrad.ops.combine``."""

import functools

import numpy as np

from op_registry import OpCase, shapes


def _method(x, name):
    """``x.<name>``, or the function form in ``minigrad.ops`` while Tensor lacks the method."""
    method = getattr(x, name, None)
    if method is not None:
        return method
    import minigrad
    return functools.partial(getattr(minigrad.ops, name), x)


def _mask(lib, a):
    """A constant boolean tensor: where ``a`` is positive."""
    return lib.tensor(a.detach().numpy() > 0)


CASES = [
    # views and reshapes
    OpCase("view", lambda lib, a: a.view(6, 4), shapes((2, 3, 4)), "ViewBackward0",
           lambda a: a.reshape(6, 4)),
    OpCase("view/infer", lambda lib, a: a.view(-1, 2), shapes((2, 3, 4)), "ViewBackward0"),
    OpCase("view/tuple", lambda lib, a: a.view((3, 2)), shapes((6,)), "ViewBackward0"),
    OpCase("view/0d", lambda lib, a: a.view(1, 1), shapes(()), "ViewBackward0"),
    OpCase("reshape", lambda lib, a: a.reshape(4, -1), shapes((2, 3, 4)), "ViewBackward0",
           lambda a: a.reshape(4, -1)),
    OpCase("reshape/non-contiguous", lambda lib, a: a.transpose(0, 1).reshape(-1),
           shapes((2, 3, 4)), "UnsafeViewBackward0",
           lambda a: a.transpose(1, 0, 2).reshape(-1)),
    OpCase("reshape/same", lambda lib, a: a.reshape(2, 3), shapes((2, 3)), "ViewBackward0"),
    OpCase("flatten", lambda lib, a: a.flatten(), shapes((2, 3, 4)), "ViewBackward0",
           lambda a: a.ravel()),
    OpCase("flatten/dims", lambda lib, a: a.flatten(1, -1), shapes((2, 3, 4)),
           "ViewBackward0"),
    OpCase("flatten/0d", lambda lib, a: a.flatten(), shapes(()), "ViewBackward0"),
    OpCase("flatten/non-contiguous", lambda lib, a: a.mT.flatten(0, 1), shapes((2, 3, 4)),
           "UnsafeViewBackward0"),
    OpCase("unflatten", lambda lib, a: _method(a, "unflatten")(-1, (2, -1)), shapes((2, 3, 4)),
           "ViewBackward0", lambda a: a.reshape(2, 3, 2, 2)),
    OpCase("clone", lambda lib, a: a.clone(), shapes((2, 3)), "CloneBackward0",
           lambda a: a.copy()),
    # transposes
    OpCase("transpose", lambda lib, a: a.transpose(0, 2), shapes((2, 3, 4)),
           "TransposeBackward0", lambda a: a.transpose(2, 1, 0)),
    OpCase("transpose/negative", lambda lib, a: a.transpose(-1, 0), shapes((2, 3)),
           "TransposeBackward0"),
    OpCase("t", lambda lib, a: a.t(), shapes((2, 3)), "TBackward0", np.transpose),
    OpCase("t/1d", lambda lib, a: a.t(), shapes((3,)), "TBackward0"),
    OpCase("T", lambda lib, a: a.T, shapes((2, 3)), "PermuteBackward0", np.transpose),
    OpCase("mT", lambda lib, a: a.mT, shapes((2, 3, 4)), "TransposeBackward0",
           lambda a: a.swapaxes(-1, -2)),
    OpCase("permute", lambda lib, a: a.permute(2, 0, 1), shapes((2, 3, 4)), "PermuteBackward0",
           lambda a: a.transpose(2, 0, 1)),
    OpCase("permute/tuple-negative", lambda lib, a: a.permute((-1, 0, 1)), shapes((2, 3, 4)),
           "PermuteBackward0"),
    OpCase("movedim", lambda lib, a: lib.movedim(a, 0, -1), shapes((2, 3, 4)),
           "PermuteBackward0", lambda a: np.moveaxis(a, 0, -1)),
    # squeezes and expands
    OpCase("squeeze", lambda lib, a: a.squeeze(), shapes((2, 1, 3, 1)), "SqueezeBackward0",
           np.squeeze),
    OpCase("squeeze/dim", lambda lib, a: a.squeeze(1), shapes((2, 1, 3)), "SqueezeBackward1"),
    OpCase("squeeze/dim-not-one", lambda lib, a: a.squeeze(0), shapes((2, 1, 3)),
           "SqueezeBackward1"),
    OpCase("squeeze/dims", lambda lib, a: a.squeeze((1, -1)), shapes((2, 1, 3, 1)),
           "SqueezeBackward2"),
    OpCase("squeeze/0d", lambda lib, a: a.squeeze(0), shapes(()), "SqueezeBackward1"),
    OpCase("unsqueeze", lambda lib, a: a.unsqueeze(1), shapes((2, 3)), "UnsqueezeBackward0",
           lambda a: a[:, None]),
    OpCase("unsqueeze/negative", lambda lib, a: a.unsqueeze(-1), shapes((2, 3)),
           "UnsqueezeBackward0"),
    OpCase("expand", lambda lib, a: a.expand(2, 4, 3), shapes((4, 1)), "ExpandBackward0",
           lambda a: np.broadcast_to(a, (2, 4, 3))),
    OpCase("expand/minus-one", lambda lib, a: a.expand(3, -1), shapes((1, 4)),
           "ExpandBackward0"),
    OpCase("expand/same-shape", lambda lib, a: a.expand(2, 3), shapes((2, 3)),
           "ExpandBackward0"),
    OpCase("expand_as", lambda lib, a, b: a.expand_as(b), shapes((3,), (2, 3)),
           "ExpandBackward0", grad_args=(0,)),
    OpCase("repeat", lambda lib, a: _method(a, "repeat")(2, 1, 3), shapes((2, 3)),
           "RepeatBackward0", lambda a: np.tile(a, (2, 1, 3))),
    # multi-output: one node, outputs 0, 1, ...
    OpCase("chunk", lambda lib, a: a.chunk(2, 1)[1], shapes((2, 5)), "SplitBackward0",
           lambda a: a[:, 3:]),
    OpCase("chunk/stacked", lambda lib, a: lib.stack(a.chunk(3), 0), shapes((6, 2)),
           "StackBackward0"),
    OpCase("chunk/one", lambda lib, a: a.chunk(1)[0], shapes((4,)), "SplitBackward0"),
    OpCase("split", lambda lib, a: a.split(2, -1)[0], shapes((3, 5)), "SplitBackward0"),
    OpCase("split/sizes", lambda lib, a: a.split([1, 3], 0)[1], shapes((4, 2)),
           "SplitWithSizesBackward0", lambda a: a[1:]),
    OpCase("split/both-used", lambda lib, a: lib.cat(a.split([2, 1])[::-1]), shapes((3, 2)),
           "CatBackward0"),
    OpCase("unbind", lambda lib, a: a.unbind(1)[2], shapes((2, 3)), "UnbindBackward0",
           lambda a: a[:, 2]),
    OpCase("unbind/all", lambda lib, a: sum(t * (i + 1) for i, t in enumerate(a.unbind())),
           shapes((3, 2)), "AddBackward0"),
    # indexing
    OpCase("getitem/int", lambda lib, a: a[1], shapes((3, 4)), "SelectBackward0",
           lambda a: a[1]),
    OpCase("getitem/negative", lambda lib, a: a[:, -1], shapes((3, 4)), "SelectBackward0"),
    OpCase("getitem/slice", lambda lib, a: a[1:], shapes((3, 4)), "SliceBackward0",
           lambda a: a[1:]),
    OpCase("getitem/step", lambda lib, a: a[:, ::2], shapes((3, 5)), "SliceBackward0"),
    OpCase("getitem/int-slice", lambda lib, a: a[0, 1:], shapes((2, 3, 4)), "SliceBackward0"),
    OpCase("getitem/none", lambda lib, a: a[None, :, None], shapes((3,)),
           "UnsqueezeBackward0"),
    OpCase("getitem/ellipsis", lambda lib, a: a[...], shapes((2, 3)), "AliasBackward0"),
    OpCase("getitem/list", lambda lib, a: a[[0, 2, 0]], shapes((3, 2)), "IndexBackward0",
           lambda a: a[[0, 2, 0]]),
    OpCase("getitem/tensor", lambda lib, a: a[:, lib.tensor([[1, 1], [0, 2]])], shapes((2, 3)),
           "IndexBackward0", lambda a: a[:, [[1, 1], [0, 2]]]),
    OpCase("getitem/two-arrays", lambda lib, a: a[[0, 1, 1], :, [2, 0, 2]], shapes((2, 3, 4)),
           "IndexBackward0", lambda a: a[[0, 1, 1], :, [2, 0, 2]]),
    OpCase("getitem/mask", lambda lib, a: a[_mask(lib, a)], shapes((3, 4)), "IndexBackward0",
           lambda a: a[a > 0]),
    OpCase("getitem/int-array", lambda lib, a: a[0, :, [1, 0]], shapes((2, 3, 4)),
           "IndexBackward0", lambda a: a[0][:, [1, 0]]),
    # combining
    OpCase("cat", lambda lib, a, b: lib.cat([a, b], 1), shapes((2, 3), (2, 1)), "CatBackward0",
           lambda a, b: np.concatenate([a, b], 1)),
    OpCase("cat/negative-dim", lambda lib, a, b, c: lib.cat((a, b, c), -3),
           shapes((1, 2, 2), (2, 2, 2), (1, 2, 2)), "CatBackward0"),
    OpCase("cat/constant", lambda lib, a, b: lib.cat([a, b]), shapes((2,), (3,)),
           "CatBackward0", grad_args=(1,)),
    OpCase("cat/same-tensor", lambda lib, a: lib.cat([a, a * 2, a]), shapes((2,)),
           "CatBackward0"),
    OpCase("stack", lambda lib, a, b: lib.stack([a, b]), shapes((2, 3), (2, 3)),
           "StackBackward0", lambda a, b: np.stack([a, b])),
    OpCase("stack/last-dim", lambda lib, a, b: lib.stack((a, b), -1), shapes((2, 3), (2, 3)),
           "StackBackward0", lambda a, b: np.stack([a, b], -1)),
    OpCase("stack/constant", lambda lib, a, b: lib.stack([a, b], 1), shapes((3,), (3,)),
           "StackBackward0", grad_args=(0,)),
    OpCase("where", lambda lib, a, b: lib.where(_mask(lib, a), a, b), shapes((2, 3), (2, 3)),
           "WhereBackward0", lambda a, b: np.where(a > 0, a, b)),
    OpCase("where/broadcast", lambda lib, a, b: lib.where(_mask(lib, b), a, b),
           shapes((3,), (2, 1)), "WhereBackward0"),
    OpCase("where/number", lambda lib, a: lib.where(_mask(lib, a), a, 0.0), shapes((5,)),
           "WhereBackward0", lambda a: np.where(a > 0, a, 0.0)),
    OpCase("where/number-first", lambda lib, a: lib.where(_mask(lib, a), 1.5, a), shapes((5,)),
           "WhereBackward0"),
    OpCase("where/constant", lambda lib, a, b: lib.where(_mask(lib, a), a, b),
           shapes((4,), (4,)), "WhereBackward0", grad_args=(1,)),
    OpCase("masked_fill", lambda lib, a: a.masked_fill(_mask(lib, a), -1.0), shapes((2, 3)),
           "MaskedFillBackward0", lambda a: np.where(a > 0, -1.0, a)),
    OpCase("masked_fill/broadcast-mask", lambda lib, a: a.masked_fill(
        lib.tensor([True, False, True]), 0.5), shapes((2, 3)), "MaskedFillBackward0"),
    OpCase("masked_fill/tensor", lambda lib, a, v: a.masked_fill(_mask(lib, a), v),
           shapes((2, 3), ()), "MaskedFillBackward1"),
    OpCase("masked_fill/fn", lambda lib, a: lib.masked_fill(a, _mask(lib, a), 2.0),
           shapes((4,)), "MaskedFillBackward0"),
]
