"""Programs for the ops that the op registry does not reach, so that tests/test_formulas.py
checks every built-in op's ``formula``: nn ops (losses, convolutions, pooling, batch norm,
embedding), in-place ops and writes through views, samplers, and edge cases (a zero in a
product, p = ∞ norms)."""

from op_registry import OpCase, shapes

__all__ = ["CASES"]


def _f(lib):
    return lib.nn.functional


def _const(lib, values, dtype=None):
    return lib.tensor(values, dtype=lib.float64 if dtype is None else dtype)


def _probabilities(*shape_list):
    return lambda rng: [rng.uniform(0.05, 0.95, s) for s in shape_list]


def _put(x, index, value):
    y = x * 1
    y[index] = value
    return y


def _through_view(x):
    y = x * 1
    y[1].mul_(2)   # CopySlices, reading the view's old values through AsStridedBackward0
    return y


def _losses():
    return [
        OpCase("mse_loss/" + mode, lambda lib, x, t, mode=mode: _f(lib).mse_loss(
            x, t, reduction=mode), shapes((3, 2), (3, 2))) for mode in ("mean", "sum", "none")
    ] + [
        OpCase("nll_loss/weighted", lambda lib, x: _f(lib).nll_loss(
            x, lib.tensor([0, 2, 1, 2]), weight=_const(lib, [1.0, 2.0, 0.5])), shapes((4, 3))),
        OpCase("nll_loss/none", lambda lib, x: _f(lib).nll_loss(
            x, lib.tensor([0, 2, 1, 2]), reduction="none", ignore_index=1), shapes((4, 3))),
        OpCase("nll_loss/one-sample", lambda lib, x: _f(lib).nll_loss(
            x, lib.tensor(2), reduction="none"), shapes((3,))),
        OpCase("nll_loss/2d", lambda lib, x: _f(lib).nll_loss(
            x, lib.tensor([[[0, 1], [2, 0]], [[1, 1], [2, 2]]])), shapes((2, 3, 2, 2))),
        OpCase("nll_loss/2d-none", lambda lib, x: _f(lib).nll_loss(
            x, lib.tensor([[[0, 1], [2, 0]], [[1, 1], [2, 2]]]), reduction="none"),
            shapes((2, 3, 2, 2))),
        OpCase("cross_entropy", lambda lib, x: _f(lib).cross_entropy(
            x, lib.tensor([1, 0, 2]), label_smoothing=0.1), shapes((3, 3))),
        OpCase("cross_entropy/probabilities", lambda lib, x, t: _f(lib).cross_entropy(
            x, t.softmax(1)), shapes((3, 4), (3, 4)), grad_args=(0,)),
        OpCase("binary_cross_entropy", lambda lib, x, t: _f(lib).binary_cross_entropy(
            x, t, weight=_const(lib, [1.0, 2.0, 0.5])), _probabilities((2, 3), (2, 3))),
        OpCase("binary_cross_entropy/sum", lambda lib, x, t: _f(lib).binary_cross_entropy(
            x, t, reduction="sum"), _probabilities((4,), (4,))),
        OpCase("bce_with_logits", lambda lib, x, t: _f(lib).binary_cross_entropy_with_logits(
            x, t), shapes((2, 3), (2, 3))),
        OpCase("bce_with_logits/weights", lambda lib, x, t: _f(lib).
               binary_cross_entropy_with_logits(x, t, weight=_const(lib, [2.0, 1.0, 0.5]),
                                                pos_weight=_const(lib, [2.0, 0.5, 1.0]),
                                                reduction="none"), shapes((2, 3), (2, 3))),
    ]


def _layers():
    F = _f
    return [
        OpCase("conv2d/groups", lambda lib, x, w, b: F(lib).conv2d(
            x, w, b, stride=2, padding=1, groups=2), shapes((2, 4, 5, 6), (6, 2, 3, 3), (6,))),
        OpCase("conv1d/dilated", lambda lib, x, w: F(lib).conv1d(x, w, padding=2, dilation=2),
               shapes((2, 3, 7), (4, 3, 3))),
        OpCase("conv1d/unbatched", lambda lib, x, w: F(lib).conv1d(x, w, stride=2),
               shapes((3, 7), (4, 3, 3))),
        OpCase("conv_transpose2d", lambda lib, x, w, b: F(lib).conv_transpose2d(
            x, w, b, stride=2, padding=1, output_padding=1),
            shapes((2, 3, 3, 4), (3, 2, 3, 3), (2,))),
        OpCase("conv_transpose1d/groups", lambda lib, x, w: F(lib).conv_transpose1d(
            x, w, stride=2, groups=2, dilation=2), shapes((1, 4, 5), (4, 1, 3))),
        OpCase("max_pool2d", lambda lib, x: F(lib).max_pool2d(x, 2, 2, padding=1),
               shapes((1, 2, 5, 5))),
        OpCase("max_pool2d/unbatched", lambda lib, x: F(lib).max_pool2d(x, 3, 1),
               shapes((2, 4, 5))),
        OpCase("avg_pool2d", lambda lib, x: F(lib).avg_pool2d(
            x, 3, 2, 1, ceil_mode=True, count_include_pad=False), shapes((1, 2, 6, 7))),
        OpCase("avg_pool2d/divisor", lambda lib, x: F(lib).avg_pool2d(
            x, 2, 1, divisor_override=3), shapes((2, 5, 5))),
        OpCase("avg_pool2d/pad", lambda lib, x: F(lib).avg_pool2d(x, 3, 2, 1),
               shapes((2, 1, 5, 4))),
        OpCase("adaptive_avg_pool2d", lambda lib, x: F(lib).adaptive_avg_pool2d(x, (2, 3)),
               shapes((1, 2, 5, 7))),
        OpCase("batch_norm/train", lambda lib, x, w, b: F(lib).batch_norm(
            x, None, None, w, b, training=True), shapes((4, 3, 2), (3,), (3,))),
        OpCase("batch_norm/eval", lambda lib, x, w, b: F(lib).batch_norm(
            x, _const(lib, [0.1, -0.2, 0.3]), _const(lib, [1.5, 0.7, 2.0]), w, b),
            shapes((4, 3, 2, 2), (3,), (3,))),
        OpCase("embedding", lambda lib, w: F(lib).embedding(
            lib.tensor([[0, 2, 2], [4, 1, 0]]), w, padding_idx=1), shapes((5, 3))),
        OpCase("leaky_relu", lambda lib, x: F(lib).leaky_relu(x, 0.1), shapes((5,))),
        OpCase("leaky_relu_", lambda lib, x: F(lib).leaky_relu(x * 1, 0.1, inplace=True),
               shapes((5,))),
        OpCase("pad/constant", lambda lib, x: F(lib).pad(x, (1, -1, 0, 2), value=0.5),
               shapes((2, 3, 4))),
    ] + [
        OpCase(f"pad/{mode}{len(pad) // 2}d", lambda lib, x, pad=pad, mode=mode: F(lib).pad(
            x, pad, mode=mode), shapes((1, 2, 3, 3, 4)[-len(pad) // 2 - 2:]))
        for mode in ("reflect", "replicate") for pad in ((2, 1), (1, 2, 2, 0), (1, 0, 1, 1, 2, 1))
    ] + [
        OpCase("group_norm", lambda lib, x, w, b: F(lib).group_norm(x, 2, w, b),
               shapes((2, 4, 3), (4,), (4,))),
        OpCase("group_norm/no-affine", lambda lib, x: F(lib).group_norm(x, 3, eps=0.1),
               shapes((2, 6))),
        OpCase("layer_norm", lambda lib, x, w, b: F(lib).layer_norm(x, (3, 2), w, b),
               shapes((4, 3, 2), (3, 2), (3, 2))),
        OpCase("layer_norm/no-affine", lambda lib, x: F(lib).layer_norm(x, (5,), eps=0.1),
               shapes((2, 5))),
        OpCase("mish", lambda lib, x: F(lib).mish(x * 2), shapes((6,))),
        OpCase("gelu", lambda lib, x: F(lib).gelu(x * 3), shapes((6,))),
        OpCase("gelu/tanh", lambda lib, x: F(lib).gelu(x * 3, approximate="tanh"), shapes((6,))),
        OpCase("elu", lambda lib, x: F(lib).elu(x * 2, 0.8), shapes((6,))),
        OpCase("elu_", lambda lib, x: F(lib).elu(x * 2, inplace=True), shapes((6,))),
        OpCase("selu_", lambda lib, x: F(lib).selu(x * 2, inplace=True), shapes((6,))),
        OpCase("celu", lambda lib, x: F(lib).celu(x * 2, 0.7), shapes((6,))),
        OpCase("celu_", lambda lib, x: F(lib).celu(x * 2, 0.7, inplace=True), shapes((6,))),
        OpCase("hardtanh", lambda lib, x: F(lib).hardtanh(x * 2, -1.5, 0.5), shapes((6,))),
        OpCase("threshold", lambda lib, x: F(lib).threshold(x, 0.1, -2.0), shapes((6,))),
        OpCase("threshold_", lambda lib, x: F(lib).threshold(x * 1, 0.1, -2.0, inplace=True),
               shapes((6,))),
        OpCase("hardsigmoid", lambda lib, x: F(lib).hardsigmoid(x * 4), shapes((6,)),
               second_order=False),
        OpCase("hardswish", lambda lib, x: F(lib).hardswish(x * 4), shapes((6,))),
        OpCase("logsigmoid", lambda lib, x: F(lib).logsigmoid(x * 3), shapes((6,))),
        OpCase("prelu", lambda lib, x, w: F(lib).prelu(x, w), shapes((2, 3, 2), (3,))),
        OpCase("glu", lambda lib, x: F(lib).glu(x, 1), shapes((2, 4))),
        OpCase("smooth_l1_loss", lambda lib, x, t: F(lib).smooth_l1_loss(x, t, beta=0.5),
               shapes((3, 2), (3, 2))),
        OpCase("huber_loss", lambda lib, x, t: F(lib).huber_loss(
            x, t, reduction="sum", delta=0.7), shapes((3, 2), (3, 2))),
        OpCase("kl_div", lambda lib, x, t: F(lib).kl_div(
            x.log_softmax(1), t.softmax(1), reduction="batchmean"), shapes((3, 4), (3, 4))),
    ]


def _inplace():
    cases = [
        OpCase(f"{op}_/{kind}", lambda lib, x, y, op=op, kind=kind: getattr(x * 1, op + "_")(
            y if kind == "tensor" else 0.5), shapes((2, 3), (3,)))
        for op in ("eq", "ne", "lt", "le", "gt", "ge") for kind in ("number", "tensor")]
    return cases + [
        OpCase("zero_", lambda lib, x: (x * 1).zero_(), shapes((3,))),
        OpCase("fill_", lambda lib, x: (x * 1).fill_(2.0), shapes((3,))),
        OpCase("fill_/tensor", lambda lib, x, v: (x * 1).fill_(v), shapes((3,), ())),
        OpCase("copy_", lambda lib, x, y: (x * 1).copy_(y), shapes((2, 3), (3,))),
        OpCase("setitem/indices", lambda lib, x, v: _put(x, [0, 2, 0], v), shapes((3, 2), (2,))),
        OpCase("setitem/mask", lambda lib, x, v: _put(x, x > 0, v), shapes((2, 3), ())),
        OpCase("setitem/all", lambda lib, x, v: _put(x, Ellipsis, v), shapes((2, 3), (3,))),
        OpCase("setitem/slice", lambda lib, x, v: _put(x, (slice(None), 1), v),
               shapes((2, 3), (2,))),
        OpCase("view/inplace", lambda lib, x: _through_view(x), shapes((3, 2))),
        OpCase("as_strided_", lambda lib, x: (x * 1).as_strided_((2, 2), (1, 2), 1),
               shapes((6,))),
    ]


def _samplers():
    return [OpCase(f"{name}_{args}", lambda lib, x, name=name, args=args: getattr(
        x * 1, name + "_")(*args), shapes((3,)), second_order=False) for name, args in (
        ("uniform", ()), ("normal", ()), ("exponential", ()), ("cauchy", ()),
        ("log_normal", ()), ("geometric", (0.5,)), ("random", ()), ("random", (5,)),
        ("random", (1, 5)), ("bernoulli", (0.5,)))] + [
        OpCase("bernoulli_/tensor", lambda lib, x, p: (x * 1).bernoulli_(p),
               _probabilities((3,), (3,)), second_order=False),
        OpCase("bernoulli", lambda lib, p: lib.bernoulli(p), _probabilities((3,)),
               second_order=False),
        OpCase("normal/tensor-number", lambda lib, m: lib.normal(m, 2.0), shapes((3,)),
               second_order=False),
        OpCase("normal/number-tensor", lambda lib, s: lib.normal(0.0, s),
               shapes((3,), positive=True), second_order=False),
        OpCase("normal/tensors", lambda lib, m, s: lib.normal(m, s),
               shapes((3,), (3,), positive=True), second_order=False),
    ]


def _edges():
    return [
        OpCase("prod/zero", lambda lib, x: (x * _const(lib, [1.0, 0.0, 2.0])).prod(),
               shapes((3,))),
        OpCase("prod/dim-zero", lambda lib, x: (x * _const(lib, [[1.0, 0.0], [2.0, 3.0]])).prod(
            0), shapes((2, 2))),
        OpCase("norm/inf", lambda lib, x: x.norm(float("inf"), dim=1),
               shapes((2, 3))),
        OpCase("norm/3", lambda lib, x: x.norm(3, dim=0, keepdim=True),
               shapes((2, 3))),
        OpCase("norm/half", lambda lib, x: x.norm(0.5), shapes((4,))),
        OpCase("norm/1", lambda lib, x: x.norm(1), shapes((2, 2))),
        OpCase("amin/ties", lambda lib, x: (x * 0 + _const(lib, [[1.0, 1.0, 2.0]])).amin(1),
               shapes((2, 3))),
        OpCase("cat/empty", lambda lib, x, y: lib.cat([x, lib.zeros(0, dtype=lib.float64), y]),
               shapes((2,), (3,))),
        OpCase("std_mean/one-output", lambda lib, x: lib.std_mean(x, 1)[0], shapes((2, 3))),
        OpCase("var_mean/mean-only", lambda lib, x: lib.var_mean(x, 0)[1], shapes((2, 3))),
        OpCase("split/one-used", lambda lib, x: x.split([1, 2])[1], shapes((3, 2))),
        OpCase("repeat", lambda lib, x: x.repeat(2, 1, 3), shapes((2, 2))),
        OpCase("max/dim-keepdim", lambda lib, x: x.max(1, keepdim=True)[0], shapes((2, 3))),
        OpCase("median/dim", lambda lib, x: x.median(0)[0], shapes((3, 2))),
        OpCase("index_select", lambda lib, x: x.index_select(1, lib.tensor([2, 0, 2])),
               shapes((2, 3))),
        OpCase("getitem/mixed", lambda lib, x: x[1:, [0, 2, 2]], shapes((3, 3))),
        OpCase("matmul/vector-matrix", lambda lib, v, m: v @ m, shapes((3,), (3, 2))),
        OpCase("diagonal/offset", lambda lib, x: x.diagonal(1, 0, 2), shapes((3, 2, 4))),
    ]


def _api_round():
    """Ops added by issue 12's API round: tensor clamp bounds, gather, nanmedian, the in-place
    view ops, as_strided and the unsafe splits."""
    return [
        OpCase("clamp/tensor-bounds", lambda lib, x, lo, hi: lib.clamp(x, lo, hi),
               shapes((6,), (6,), (6,))),
        OpCase("gather", lambda lib, x: lib.gather(x, 1, lib.tensor([[0, 0], [2, 1]])),
               shapes((2, 3))),
        OpCase("nanmedian", lambda lib, x: x.nanmedian(), shapes((5,))),
        OpCase("transpose_", lambda lib, x: (x * 1).transpose_(0, 1), shapes((2, 3))),
        OpCase("t_", lambda lib, x: (x * 1).t_(), shapes((2, 3))),
        OpCase("squeeze_", lambda lib, x: (x * 1).squeeze_(), shapes((2, 1, 3))),
        OpCase("squeeze_/dim", lambda lib, x: (x * 1).squeeze_(1), shapes((2, 1, 3))),
        OpCase("squeeze_/dims", lambda lib, x: (x * 1).squeeze_((1,)), shapes((2, 1, 3))),
        OpCase("unsqueeze_", lambda lib, x: (x * 1).unsqueeze_(0), shapes((2, 3))),
        OpCase("as_strided", lambda lib, x: lib.as_strided(x, (2, 2), (1, 2), 1), shapes((6,))),
        OpCase("unsafe_split", lambda lib, x: (x * 1).unsafe_split(1)[1], shapes((3, 2))),
        OpCase("unsafe_split_with_sizes", lambda lib, x: (x * 1).unsafe_split_with_sizes(
            (1, 2))[1], shapes((3, 2))),
    ]


def _graph_round():
    """Ops that the backward formulas stopped using when their gradient graphs took PyTorch's
    nodes (the p-norms call ``sgn``, no longer ``sign``)."""
    return [OpCase("sign", lambda lib, x: x.sign() * x, shapes((4,)))]



def _parity_ops():
    """Ops added by issue 12's parity round: scatters, running sums and products, flip,
    nextafter (a zero in cumprod takes its other backward)."""
    index = [[0, 2], [1, 1]]
    return [
        OpCase("scatter/src", lambda lib, x, s: x.scatter(1, lib.tensor(index), s),
               shapes((2, 3), (2, 2))),
        OpCase("scatter/value", lambda lib, x: x.scatter(1, lib.tensor(index), 2.5),
               shapes((2, 3))),
        OpCase("scatter_add", lambda lib, x, s: x.scatter_add(0, lib.tensor(index), s),
               shapes((3, 3), (2, 2))),
        OpCase("scatter_/src", lambda lib, x, s: (x * 1).scatter_(1, lib.tensor(index), s),
               shapes((2, 3), (2, 2))),
        OpCase("cumsum", lambda lib, x: x.cumsum(1), shapes((2, 3))),
        OpCase("cumprod", lambda lib, x: x.cumprod(0), shapes((3, 2))),
        OpCase("cumprod/zeros", lambda lib, x: (x * lib.tensor(
            [1.0, 0.0, 1.0, 0.0], dtype=lib.float64)).cumprod(0), shapes((4,))),
        OpCase("flip", lambda lib, x: x.flip(0, -1), shapes((2, 3))),
        OpCase("nextafter", lambda lib, x, y: lib.nextafter(x, y), shapes((2, 3), (3,))),
        OpCase("gather/0-d", lambda lib, x: x.sum().gather(0, lib.tensor([0, 0, 0])),
               shapes((2,))),
    ]



CASES = (_losses() + _layers() + _inplace() + _samplers() + _edges() + _api_round()
         + _graph_round() + _parity_ops())
