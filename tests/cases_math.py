"""Op cases for ``minigrad.ops.reduction`` (max/min, amax/amin, prod, var/std), ``activation``
(softmax, log_softmax, logsumexp), ``linalg`` (dot, mv, mm, bmm, addmm, every path of matmul)
and ``compare`` (comparisons, logic, maximum/minimum)."""

import numpy as np
from op_registry import OpCase, shapes


def ties(*shape_list):
    """``make`` for inputs drawn from a few integers, so that ties and equal values occur."""
    def make(rng):
        return [rng.integers(-2, 3, s).astype(np.float64) for s in shape_list]
    return make


def distinct(*shape_list):
    """``make`` for inputs whose elements are all different (no ties in max/min)."""
    def make(rng):
        out = []
        for s in shape_list:
            n = int(np.prod(s))
            out.append(rng.permutation(n).reshape(s) * 0.3 - 0.2 * n + rng.uniform(0, 0.1, s))
        return out
    return make


def paired(shape, axes=None, largest=True):
    """``make`` for distinct values except that, in each slice reduced over ``axes`` (all by
    default), the largest (or smallest) value occurs exactly twice. A two-way tie is where the
    even split of the gradient (½ each) agrees with central finite differences."""
    def make(rng):
        [x] = distinct(shape)(rng)
        axes_ = tuple(range(len(shape))) if axes is None else axes
        rest = [d for d in range(len(shape)) if d not in axes_]
        moved = np.moveaxis(x, list(axes_), list(range(len(shape) - len(axes_), len(shape))))
        flat = moved.reshape([shape[d] for d in rest] + [-1]).copy()
        for row in flat.reshape(-1, flat.shape[-1]):
            order = np.argsort(row)
            first, second = (order[-1], order[-2]) if largest else (order[0], order[1])
            row[second] = row[first]
        moved = flat.reshape(moved.shape)
        return [np.moveaxis(moved, list(range(len(shape) - len(axes_), len(shape))),
                            list(axes_))]
    return make


def _bool(func):
    """A NumPy reference for a comparison: the result as bool."""
    return lambda *arrays: func(*arrays).astype(bool)


REDUCTIONS = [
    OpCase("max", lambda lib, a: a.max(), distinct((2, 3)), "MaxBackward1", np.max),
    OpCase("max/tie", lambda lib, a: a.max(), paired((3, 4)), "MaxBackward1", np.max),
    OpCase("min/tie", lambda lib, a: lib.min(a), paired((3, 4), largest=False), "MinBackward1",
           np.min),
    OpCase("max/0d", lambda lib, a: a.max(), shapes(()), "MaxBackward1"),
    OpCase("max/dim", lambda lib, a: a.max(1), distinct((3, 4)), "MaxBackward0",
           lambda a: a.max(1)),
    OpCase("max/dim-keepdim", lambda lib, a: a.max(dim=0, keepdim=True), distinct((3, 4)),
           "MaxBackward0", lambda a: a.max(0, keepdims=True)),
    OpCase("max/dim-negative-3d", lambda lib, a: lib.max(a, -1), distinct((2, 3, 4)),
           "MaxBackward0"),
    OpCase("max/dim-0d", lambda lib, a: a.max(0), shapes(()), "MaxBackward0"),
    OpCase("max/indices", lambda lib, a: a.max(1).indices, ties((3, 4)), check_grad=False),
    OpCase("min/dim", lambda lib, a: a.min(0).values, distinct((3, 4)), "MinBackward0",
           lambda a: a.min(0)),
    OpCase("min/indices-keepdim", lambda lib, a: a.min(1, True)[1], ties((3, 4)),
           check_grad=False),
    OpCase("max/other", lambda lib, a, b: lib.max(a, b), distinct((2, 3), (3,)),
           "MaximumBackward0"),
    OpCase("amax/dim", lambda lib, a: lib.amax(a, 1), paired((3, 4), (1,)), "AmaxBackward0"),
    OpCase("amax/all", lambda lib, a: lib.amax(a), paired((3, 4)), "AmaxBackward0", np.max),
    OpCase("amax/dims-keepdim", lambda lib, a: lib.amax(a, (0, 2), keepdim=True),
           paired((2, 3, 4), (0, 2)), "AmaxBackward0"),
    OpCase("amin/dim", lambda lib, a: lib.amin(a, -1), paired((3, 4), (1,), largest=False),
           "AminBackward0", lambda a: a.min(-1)),
    OpCase("argmax", lambda lib, a: a.argmax(), ties((3, 4)), check_grad=False,
           numpy=np.argmax),
    OpCase("argmax/dim", lambda lib, a: a.argmax(1), ties((3, 4)), check_grad=False,
           numpy=lambda a: a.argmax(1)),
    OpCase("argmax/keepdim", lambda lib, a: a.argmax(keepdim=True), ties((3, 4)),
           check_grad=False),
    OpCase("argmin/dim-keepdim", lambda lib, a: lib.argmin(a, 0, keepdim=True), ties((3, 4)),
           check_grad=False),
    OpCase("prod", lambda lib, a: lib.prod(a), shapes((2, 3)), "ProdBackward0", np.prod),
    OpCase("prod/one-zero", lambda lib, a: lib.prod(a * (a > 0)), shapes((5,)),
           "ProdBackward0"),
    OpCase("prod/dim", lambda lib, a: lib.prod(a, 1), shapes((3, 4)), "ProdBackward1",
           lambda a: a.prod(1)),
    OpCase("prod/dim-keepdim-zeros", lambda lib, a: lib.prod(a, 0, keepdim=True), ties((4, 3)),
           "ProdBackward1"),
    OpCase("cumsum", lambda lib, a: lib.cumsum(a, 1), shapes((2, 4)), "CumsumBackward0",
           lambda a: np.cumsum(a, 1)),
    OpCase("cumprod", lambda lib, a: lib.cumprod(a, -1), shapes((3, 4)), "CumprodBackward0",
           lambda a: np.cumprod(a, -1)),
    OpCase("var", lambda lib, a: lib.var(a), shapes((2, 3)), "VarBackward0",
           lambda a: a.var(ddof=1)),
    OpCase("var/dim", lambda lib, a: lib.var(a, 1), shapes((3, 4)), "VarBackward0",
           lambda a: a.var(1, ddof=1)),
    OpCase("var/biased-keepdim", lambda lib, a: lib.var(a, 0, False, True), shapes((3, 4)),
           "VarBackward0", lambda a: a.var(0, keepdims=True)),
    OpCase("var/correction-dims", lambda lib, a: lib.var(a, (0, 2), correction=2),
           shapes((2, 3, 4)), "VarBackward0"),
    OpCase("std", lambda lib, a: lib.std(a), shapes((2, 3)), "StdBackward0",
           lambda a: a.std(ddof=1)),
    OpCase("std/dim-keepdim", lambda lib, a: lib.std(a, -1, keepdim=True), shapes((3, 4)),
           "StdBackward0"),
    OpCase("std/unbiased-false", lambda lib, a: lib.std(a, 1, unbiased=False), shapes((3, 4)),
           "StdBackward0", lambda a: a.std(1)),
    OpCase("all", lambda lib, a: lib.all(a > -1), shapes((3, 4)), check_grad=False),
    OpCase("all/dim", lambda lib, a: lib.all(a, 1), ties((3, 4)), check_grad=False,
           numpy=lambda a: a.all(1)),
    OpCase("any/dim-keepdim", lambda lib, a: lib.any(a > 1, 0, keepdim=True), shapes((3, 4)),
           check_grad=False),
    OpCase("any", lambda lib, a: (a > 1.9).any(), shapes((3, 4)), check_grad=False),
]

NORMS = [
    OpCase("norm", lambda lib, a: a.norm(), shapes((2, 3)), "LinalgVectorNormBackward0",
           lambda a: np.sqrt((a * a).sum())),
    OpCase("norm/dim", lambda lib, a: a.norm(dim=1), shapes((2, 3)),
           "LinalgVectorNormBackward0", lambda a: np.sqrt((a * a).sum(1))),
    OpCase("norm/dims-keepdim", lambda lib, a: a.norm(2, (0, -1), True), shapes((2, 3, 4)),
           "LinalgVectorNormBackward0"),
    OpCase("norm/p1", lambda lib, a: a.norm(p=1, dim=0), shapes((3, 2)),
           "LinalgVectorNormBackward0", lambda a: np.abs(a).sum(0)),
    OpCase("norm/p3", lambda lib, a: lib.norm(a, p=3), shapes((4,)),
           "LinalgVectorNormBackward0", lambda a: (np.abs(a) ** 3).sum() ** (1 / 3)),
    OpCase("norm/p1.5", lambda lib, a: a.norm(p=1.5, dim=-1), shapes((2, 3)),
           "LinalgVectorNormBackward0"),
    OpCase("norm/p0.5", lambda lib, a: a.norm(p=0.5), shapes((3,), positive=True),
           "LinalgVectorNormBackward0"),
    OpCase("norm/inf", lambda lib, a: a.norm(p=float("inf"), dim=1), distinct((2, 3)),
           "LinalgVectorNormBackward0", lambda a: np.abs(a).max(1)),
    OpCase("norm/-inf", lambda lib, a: a.norm(p=-float("inf")), distinct((5,)),
           "LinalgVectorNormBackward0", lambda a: np.abs(a).min()),
    OpCase("norm/fro-dims", lambda lib, a: a.norm(p="fro", dim=(0, 1)), shapes((2, 3, 2)),
           "LinalgVectorNormBackward0"),
    OpCase("norm/0d", lambda lib, a: a.norm(), shapes(()), "LinalgVectorNormBackward0",
           np.abs),
]

ACTIVATIONS = [
    OpCase("softmax/last", lambda lib, a: a.softmax(-1), shapes((3, 4)), "SoftmaxBackward0"),
    OpCase("softmax/dim0", lambda lib, a: lib.softmax(a, 0), shapes((3, 4)), "SoftmaxBackward0"),
    OpCase("softmax/3d-middle", lambda lib, a: a.softmax(1), shapes((2, 3, 4)),
           "SoftmaxBackward0"),
    OpCase("softmax/1d", lambda lib, a: a.softmax(0), shapes((5,)), "SoftmaxBackward0"),
    OpCase("softmax/0d", lambda lib, a: a.softmax(0), shapes(()), "SoftmaxBackward0"),
    OpCase("softmax/large", lambda lib, a: (a * 500).softmax(1), shapes((2, 3)),
           "SoftmaxBackward0"),
    OpCase("log_softmax/last", lambda lib, a: a.log_softmax(-1), shapes((3, 4)),
           "LogSoftmaxBackward0"),
    OpCase("log_softmax/dim0", lambda lib, a: lib.log_softmax(a, 0), shapes((3, 4)),
           "LogSoftmaxBackward0"),
    OpCase("log_softmax/large", lambda lib, a: (a * 500).log_softmax(1), shapes((2, 3)),
           "LogSoftmaxBackward0"),
    OpCase("logsumexp", lambda lib, a: a.logsumexp(1), shapes((3, 4)), "LogsumexpBackward0",
           lambda a: np.log(np.exp(a).sum(1))),
    OpCase("logsumexp/keepdim", lambda lib, a: lib.logsumexp(a, 0, keepdim=True),
           shapes((3, 4)), "LogsumexpBackward0"),
    OpCase("logsumexp/dims", lambda lib, a: lib.logsumexp(a, (0, 2)), shapes((2, 3, 4)),
           "LogsumexpBackward0"),
    OpCase("logsumexp/large", lambda lib, a: (a * 500).logsumexp(1), shapes((2, 3)),
           "LogsumexpBackward0"),
    OpCase("logsumexp/0d", lambda lib, a: a.logsumexp(0), shapes(()), "LogsumexpBackward0"),
]

LINALG = [
    OpCase("dot", lambda lib, a, b: lib.dot(a, b), shapes((4,), (4,)), "DotBackward0", np.dot),
    OpCase("mv", lambda lib, a, b: lib.mv(a, b), shapes((3, 4), (4,)), "MvBackward0", np.dot),
    OpCase("mm", lambda lib, a, b: a.mm(b), shapes((3, 4), (4, 2)), "MmBackward0", np.dot),
    OpCase("mm/one-side", lambda lib, a, b: lib.mm(a, b), shapes((3, 4), (4, 2)),
           "MmBackward0", grad_args=(1,)),
    OpCase("bmm", lambda lib, a, b: lib.bmm(a, b), shapes((2, 3, 4), (2, 4, 5)), "BmmBackward0",
           np.matmul),
    OpCase("addmm", lambda lib, c, a, b: lib.addmm(c, a, b), shapes((2,), (3, 4), (4, 2)),
           "AddmmBackward0", lambda c, a, b: c + a @ b),
    OpCase("addmm/2d-bias", lambda lib, c, a, b: lib.addmm(c, a, b), shapes((3, 1), (3, 4), (4, 2)),
           "AddmmBackward0"),
    OpCase("addmm/beta-alpha", lambda lib, c, a, b: lib.addmm(c, a, b, beta=0.5, alpha=3),
           shapes((3, 2), (3, 4), (4, 2)), "AddmmBackward0",
           lambda c, a, b: 0.5 * c + 3 * (a @ b)),
    OpCase("addmm/linear", lambda lib, c, x, w: lib.addmm(c, x, w.t()),
           shapes((2,), (3, 4), (2, 4)), "AddmmBackward0"),
    OpCase("matmul/1d-1d", lambda lib, a, b: a @ b, shapes((4,), (4,)), "DotBackward0",
           np.matmul),
    OpCase("matmul/2d-1d", lambda lib, a, b: a @ b, shapes((3, 4), (4,)), "MvBackward0",
           np.matmul),
    OpCase("matmul/1d-2d", lambda lib, a, b: a @ b, shapes((4,), (4, 2)), "SqueezeBackward4",
           np.matmul),
    OpCase("matmul/1d-2d-const", lambda lib, a, b: a @ b, shapes((4,), (4, 2)),
           "SqueezeBackward4", grad_args=(0,)),
    OpCase("matmul/2d-2d", lambda lib, a, b: a @ b, shapes((3, 4), (4, 2)), "MmBackward0",
           np.matmul),
    OpCase("matmul/3d-2d", lambda lib, a, b: a @ b, shapes((2, 3, 4), (4, 5)),
           "UnsafeViewBackward0", np.matmul),
    OpCase("matmul/3d-2d-const", lambda lib, a, b: a @ b, shapes((2, 3, 4), (4, 5)),
           "UnsafeViewBackward0", grad_args=(0,)),
    OpCase("matmul/3d-1d", lambda lib, a, b: a @ b, shapes((2, 3, 4), (4,)),
           "UnsafeViewBackward0", np.matmul),
    OpCase("matmul/2d-3d", lambda lib, a, b: a @ b, shapes((3, 4), (2, 4, 5)),
           "CloneBackward0", np.matmul),
    OpCase("matmul/2d-3d-const", lambda lib, a, b: a @ b, shapes((3, 4), (2, 4, 5)),
           "UnsafeViewBackward0", grad_args=(1,)),
    OpCase("matmul/1d-3d", lambda lib, a, b: a @ b, shapes((4,), (2, 4, 5)),
           "UnsafeViewBackward0", np.matmul),
    OpCase("matmul/1d-3d-const", lambda lib, a, b: a @ b, shapes((4,), (2, 4, 5)),
           "UnsafeViewBackward0", grad_args=(1,)),
    OpCase("matmul/3d-3d", lambda lib, a, b: a @ b, shapes((2, 3, 4), (2, 4, 5)),
           "UnsafeViewBackward0", np.matmul),
    OpCase("matmul/broadcast-4d-3d", lambda lib, a, b: a @ b, shapes((2, 1, 3, 4), (3, 4, 5)),
           "UnsafeViewBackward0", np.matmul),
    OpCase("matmul/batch-of-one", lambda lib, a, b: a @ b, shapes((1, 3, 4), (2, 4, 5)),
           "CloneBackward0", np.matmul),
    OpCase("matmul/transposed", lambda lib, a, b: a.transpose(1, 2) @ b,
           shapes((2, 4, 3), (4,)), "UnsafeViewBackward0", grad_args=(0,)),
]

COMPARISONS = [
    OpCase("eq", lambda lib, a, b: a == b, ties((3, 4), (4,)), check_grad=False,
           numpy=_bool(np.equal)),
    OpCase("ne/scalar", lambda lib, a: a != 1, ties((3, 4)), check_grad=False,
           numpy=lambda a: a != 1),
    OpCase("lt", lambda lib, a, b: lib.lt(a, b), ties((2, 1, 3), (4, 1)), check_grad=False,
           numpy=_bool(np.less)),
    OpCase("le/reflected", lambda lib, a: 0 <= a, ties((3, 4)), check_grad=False,
           numpy=lambda a: a >= 0),
    OpCase("gt", lambda lib, a, b: a > b, ties((3, 4), (3, 1)), check_grad=False,
           numpy=_bool(np.greater)),
    OpCase("ge/int", lambda lib, a: a.long() >= 1, ties((3, 4)), check_grad=False),
    OpCase("gt/never-requires-grad", lambda lib, a: a.requires_grad_() > 0, shapes((3,)),
           check_grad=False),
    OpCase("logical_and", lambda lib, a, b: lib.logical_and(a, b), ties((3, 4), (4,)),
           check_grad=False, numpy=np.logical_and),
    OpCase("logical_or", lambda lib, a, b: lib.logical_or(a, b), ties((3, 4), (4,)),
           check_grad=False, numpy=np.logical_or),
    OpCase("logical_xor", lambda lib, a, b: lib.logical_xor(a, b), ties((3, 4), (4,)),
           check_grad=False, numpy=np.logical_xor),
    OpCase("logical_not", lambda lib, a: lib.logical_not(a), ties((3, 4)), check_grad=False,
           numpy=np.logical_not),
    OpCase("and/bool", lambda lib, a, b: (a > 0) & (b < 1), ties((3, 4), (4,)),
           check_grad=False),
    OpCase("or/bool", lambda lib, a, b: (a > 0) | (b < 1), ties((3, 4), (4,)),
           check_grad=False),
    OpCase("xor/bool", lambda lib, a, b: (a > 0) ^ (b < 1), ties((3, 4), (4,)),
           check_grad=False),
    OpCase("not/bool", lambda lib, a: ~(a > 0), ties((3, 4)), check_grad=False),
    OpCase("bitwise_and/int", lambda lib, a, b: lib.bitwise_and(a.long(), b.long()),
           ties((3, 4), (4,)), check_grad=False),
    OpCase("bitwise_not/int", lambda lib, a: lib.bitwise_not(a.long()), ties((3, 4)),
           check_grad=False),
    OpCase("isnan", lambda lib, a: lib.isnan(a.log()), shapes((6,)), check_grad=False),
    OpCase("isinf", lambda lib, a: lib.isinf((a * 1000).exp() - (-a * 1000).exp()), shapes((6,)),
           check_grad=False),
    OpCase("isfinite", lambda lib, a: lib.isfinite((a * 1000).exp() * a.log()), shapes((6,)),
           check_grad=False),
    OpCase("maximum", lambda lib, a, b: lib.maximum(a, b), shapes((3, 4), (4,)),
           "MaximumBackward0", np.maximum),
    OpCase("maximum/ties", lambda lib, a, b: lib.maximum(a, b), ties((3, 4), (3, 1)),
           "MaximumBackward0", np.maximum),
    OpCase("minimum/ties", lambda lib, a, b: lib.minimum(a, b), ties((2, 3), (3,)),
           "MinimumBackward0", np.minimum),
    OpCase("minimum/one-side", lambda lib, a, b: lib.minimum(a, b), shapes((3, 4), (3, 4)),
           "MinimumBackward0", grad_args=(1,)),
]

CASES = REDUCTIONS + NORMS + ACTIVATIONS + LINALG + COMPARISONS
