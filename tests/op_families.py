"""One expression per op family, for the derivative tests that must reach every op of the core
(gradients of gradients, forward-mode tangents). Written once for both libraries (``lib`` is
``minigrad`` or ``torch``), in the ``OpCase`` format of ``op_registry``; ``node`` is unused.

Values are drawn away from kinks and ties (relu at 0, max with equal elements) so that every
derivative is well defined and both libraries must agree.
"""

import numpy as np
from op_registry import OpCase, shapes


def _distinct(*shape_list):
    """Inputs whose elements are all different (no ties for max/min/sort-like ops)."""
    def make(rng):
        out = []
        for s in shape_list:
            n = int(np.prod(s))
            values = rng.permutation(n) / n * 3 - 1.5 + rng.uniform(0, 0.1 / n, n)
            out.append(values.reshape(s))
        return out
    return make


def _away_from_zero(*shape_list):
    def make(rng):
        return [rng.uniform(0.3, 1.5, s) * rng.choice([-1, 1], s) for s in shape_list]
    return make


FAMILIES = [
    # arithmetic with broadcasting
    OpCase("arith/mixed", lambda lib, a, b: (a * b - a / (b * b + 1)) ** 2 + 3 - a,
           shapes((2, 3), (3,))),
    OpCase("arith/pow-tensor", lambda lib, a, b: a ** b, shapes((2, 3), (3,), positive=True)),
    OpCase("arith/rpow-rdiv", lambda lib, a: 2 ** a + 1 / (a * a + 1), shapes((4,))),
    # pointwise
    OpCase("pointwise/exp-log", lambda lib, a: (a.exp() + 1).log() * a.log1p(),
           shapes((3,), positive=True)),
    OpCase("pointwise/trig", lambda lib, a: a.sin() * a.cos() + a.tanh() * a.sigmoid(),
           shapes((2, 2))),
    OpCase("pointwise/sqrt-abs", lambda lib, a: a.abs().sqrt() * a, _away_from_zero((5,))),
    OpCase("pointwise/relu-clamp", lambda lib, a: a.relu() * a + a.clamp(-0.5, 0.5) * a,
           _away_from_zero((6,))),
    OpCase("pointwise/square-reciprocal", lambda lib, a: a.square() * a.reciprocal().exp(),
           _away_from_zero((4,))),
    # reductions
    OpCase("reduce/sum-mean", lambda lib, a: a.sum(0) * a.mean(1, keepdim=True) * a.mean(),
           shapes((2, 3))),
    OpCase("reduce/max-min", lambda lib, a: a.max(1)[0] * a.min(0).values.sum() * a.max(),
           _distinct((3, 4))),
    OpCase("reduce/amax", lambda lib, a: lib.amax(a, 1) * a.sum(), _distinct((3, 4))),
    OpCase("reduce/logsumexp", lambda lib, a: a.logsumexp(1) * a.sum(0).sum(), shapes((2, 3))),
    OpCase("reduce/prod", lambda lib, a: lib.prod(a, 1) + lib.prod(a), _away_from_zero((2, 3))),
    OpCase("reduce/var-std", lambda lib, a: lib.var(a, 1) * lib.std(a) + lib.var(a),
           shapes((3, 4))),
    # activations
    OpCase("activation/softmax", lambda lib, a: a.softmax(-1) * a, shapes((2, 4))),
    OpCase("activation/log-softmax", lambda lib, a: a.log_softmax(0) * a.exp(), shapes((3, 2))),
    # linear algebra
    OpCase("linalg/mm", lambda lib, a, b: (a @ b).tanh() @ b.t(), shapes((2, 3), (3, 4))),
    OpCase("linalg/matvec", lambda lib, a, v: (a @ v) * (v @ v), shapes((3, 4), (4,))),
    OpCase("linalg/batched", lambda lib, a, b: lib.bmm(a, b).sin() + a @ b,
           shapes((2, 2, 3), (2, 3, 2))),
    OpCase("linalg/broadcast-matmul", lambda lib, a, b: (a @ b) * (a @ b), shapes((2, 2, 3),
                                                                                  (3, 2))),
    OpCase("linalg/addmm-mv-dot", lambda lib, c, a, b, v: lib.addmm(c, a, b, beta=0.5, alpha=2)
           .tanh() * lib.mv(a, v).unsqueeze(1) * lib.dot(v, v),
           shapes((2, 2), (2, 3), (3, 2), (3,))),
    # shape ops
    OpCase("shape/view-permute", lambda lib, a: a.view(3, 4).t().reshape(2, 6).permute(1, 0)
           .exp() * a.flatten()[:1], shapes((2, 6))),
    OpCase("shape/transpose-squeeze", lambda lib, a: a.unsqueeze(0).transpose(1, 2).squeeze(0)
           .sin() * a.t(), shapes((2, 3))),
    OpCase("shape/expand", lambda lib, a: a.expand(3, 2, 4).exp() * a.expand_as(
           lib.zeros(2, 2, 4)).sum(0), shapes((2, 4))),
    OpCase("shape/movedim-narrow", lambda lib, a: lib.narrow(lib.movedim(a, 0, 2), 1, 1, 2)
           .cos() * a.sum(), shapes((2, 3, 4))),
    OpCase("shape/unflatten", lambda lib, a: lib.unflatten(a, 1, (2, 3)).square().sum(2)
           * a[:, :2], shapes((2, 6))),
    # indexing
    OpCase("index/select-slice", lambda lib, a: a[0] * a[1:, ::2].sum(0).sum() + a[:, -1].exp()
           .sum(), shapes((3, 4))),
    OpCase("index/advanced", lambda lib, a: a[[0, 2, 0]] * a[:, [1, 1]].sum(), shapes((3, 2))),
    OpCase("index/mask", lambda lib, a: a[a > 0].square().sum() * a, _away_from_zero((2, 3))),
    OpCase("index/index-select", lambda lib, a: lib.index_select(a, 1, lib.tensor([2, 0, 2]))
           .tanh() * lib.select(a, 0, 1).sum(), shapes((2, 3))),
    # combining
    OpCase("combine/cat-stack", lambda lib, a, b: lib.cat([a, b * a], 0).sin()
           * lib.stack([a, b], 1).sum(1).sum(0), shapes((2, 3), (2, 3))),
    OpCase("combine/where", lambda lib, a, b: lib.where(a > b, a * a, b.exp()) * b,
           _distinct((2, 3), (3,))),
    OpCase("combine/maximum", lambda lib, a, b: lib.maximum(a, b) * lib.minimum(a, b).exp(),
           _distinct((2, 3), (2, 3))),
    OpCase("combine/masked-fill", lambda lib, a: a.masked_fill(a < 0, 2.0) * a,
           _away_from_zero((4,))),
    OpCase("combine/chunk-split", lambda lib, a: a.chunk(2, 1)[1] * a.split(2, 1)[0].exp()
           + a.unbind(1)[0].unsqueeze(1), shapes((2, 4))),
    # in-place ops on non-leaves
    OpCase("inplace/arith", lambda lib, a, b: a.clone().mul_(b).add_(a).div_(b * b + 1)
           .sub_(a, alpha=2).pow_(2), shapes((2, 3), (3,))),
    OpCase("inplace/pointwise", lambda lib, a: (a * 1).add_(1).mul_(0.5).clamp_(-0.8, 0.8)
           .pow_(2).exp_() * a, shapes((4,))),
    OpCase("inplace/setitem", lambda lib, a, b: _setitem(a * 1, b) * a,
           shapes((3, 3), (3,))),
    # dtype conversion
    OpCase("to/float32-and-back", lambda lib, a: a.float().exp().double() * a, shapes((3,))),
]


def _setitem(x, value):
    x[1] = value.exp()
    x[:, 0] = value * 2
    return x
