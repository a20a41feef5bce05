"""SmoothL1Loss, HuberLoss, KLDivLoss and MarginRankingLoss: values, gradients, graphs, saved
attributes, warnings and errors against torch."""

import warnings

import numpy as np
import pytest
from oracle import plain
from parity_expr import agree

import minigrad
from minigrad import nn
from minigrad.autograd import gradcheck, gradgradcheck


def graph_names(fn):
    if fn is None:
        return None
    return (type(fn).__name__, tuple(graph_names(f) for f, _ in fn.next_functions))


def _data():
    rng = np.random.default_rng(0)
    target = rng.dirichlet(np.ones(3), 4)
    target[1, 2] = 0.0  # a zero probability: xlogy(0, 0) = 0
    return {"x": rng.standard_normal((4, 3)), "t": rng.standard_normal((4, 3)) * 2,
            "p": target, "y": np.sign(rng.standard_normal((4, 3))),
            "w": rng.uniform(0.5, 2, (4, 3))}


# name: (loss of (lib, tensors, reduction), the tensors that require grad, its reductions)
BASIC = ("mean", "sum", "none")
KL = BASIC + ("batchmean",)
CASES = {
    "smooth_l1": (lambda lib, d, r: lib.nn.SmoothL1Loss(reduction=r)(d["x"], d["t"]), "xt",
                  BASIC),
    "smooth_l1_beta": (lambda lib, d, r: lib.nn.functional.smooth_l1_loss(
        d["x"], d["t"], reduction=r, beta=0.4), "xt", BASIC),
    "smooth_l1_beta0": (lambda lib, d, r: lib.nn.SmoothL1Loss(reduction=r, beta=0.0)(
        d["x"], d["t"]), "xt", BASIC),
    "smooth_l1_broadcast": (lambda lib, d, r: lib.nn.functional.smooth_l1_loss(
        d["x"][0], d["t"], reduction=r), "xt", BASIC),
    "huber": (lambda lib, d, r: lib.nn.HuberLoss(reduction=r)(d["x"], d["t"]), "xt", BASIC),
    "huber_delta": (lambda lib, d, r: lib.nn.HuberLoss(reduction=r, delta=2.5)(d["x"], d["t"]),
                    "xt", BASIC),
    "huber_weight": (lambda lib, d, r: lib.nn.functional.huber_loss(
        d["x"], d["t"], reduction=r, delta=0.5, weight=d["w"]), "xt", BASIC),
    "huber_broadcast": (lambda lib, d, r: lib.nn.functional.huber_loss(
        d["x"], d["t"][:1], reduction=r), "xt", BASIC),
    "kl_div": (lambda lib, d, r: lib.nn.KLDivLoss(reduction=r)(d["x"].log_softmax(1), d["p"]),
               "x", KL),
    "kl_div_target_grad": (lambda lib, d, r: lib.nn.functional.kl_div(
        d["x"], d["t"].softmax(1), reduction=r), "xt", KL),
    "kl_div_zero_target_grad": (lambda lib, d, r: lib.nn.functional.kl_div(
        d["x"], d["p"], reduction=r), "xp", ("sum",)),
    "kl_div_log_target": (lambda lib, d, r: lib.nn.KLDivLoss(reduction=r, log_target=True)(
        d["x"].log_softmax(1), d["t"].log_softmax(1)), "xt", KL),
    "kl_div_1d_batchmean": (lambda lib, d, r: lib.nn.functional.kl_div(
        d["x"][0], d["p"][0], reduction=r), "x", ("batchmean",)),
    "kl_div_0d_batchmean": (lambda lib, d, r: lib.nn.functional.kl_div(
        d["x"][0, 0], d["p"][0, 0], reduction=r), "x", ("batchmean",)),
    "margin_ranking": (lambda lib, d, r: lib.nn.MarginRankingLoss(reduction=r)(
        d["x"], d["t"], d["y"]), "xt", BASIC),
    "margin_ranking_margin": (lambda lib, d, r: lib.nn.MarginRankingLoss(0.7, reduction=r)(
        d["x"], d["t"], d["y"]), "xt", BASIC),
    "margin_ranking_target_grad": (lambda lib, d, r: lib.nn.functional.margin_ranking_loss(
        d["x"], d["t"], d["w"], margin=0.5, reduction=r), "xtw", BASIC),
    "margin_ranking_broadcast": (lambda lib, d, r: lib.nn.functional.margin_ranking_loss(
        d["x"], d["t"][:1], d["y"][:, :1], reduction=r), "xt", BASIC),
}
PARAMS = [(case, r) for case, (_, _, reductions) in CASES.items() for r in reductions]


def _run(lib, case, reduction, dtype):
    fn, grads, _ = CASES[case]
    tensors = {k: lib.tensor(v, dtype=dtype, requires_grad=k in grads)
               for k, v in _data().items()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(lib, tensors, reduction), tensors


@pytest.mark.parametrize(("case", "reduction"), PARAMS)
def test_loss_matches_torch(oracle, case, reduction):
    def run(lib):
        loss, tensors = _run(lib, case, reduction, lib.float64)
        names = graph_names(loss.grad_fn)
        upstream = np.random.default_rng(5).uniform(0.5, 1.5, tuple(loss.shape))
        loss.backward(lib.tensor(upstream, dtype=lib.float64))
        return {"loss": loss.detach().numpy(), "dtype": str(loss.dtype).split(".")[-1],
                "shape": list(loss.shape), "names": names,
                "grads": {k: tensors[k].grad.numpy() for k in CASES[case][1]}}

    mine, ref = plain(run(minigrad)), oracle(run)
    np.testing.assert_allclose(mine["loss"], ref["loss"], rtol=1e-10, atol=1e-14)
    assert mine["dtype"] == ref["dtype"] == "float64"
    assert mine["shape"] == ref["shape"]
    assert mine["names"] == ref["names"]
    for key, grad in ref["grads"].items():
        np.testing.assert_allclose(mine["grads"][key], grad, rtol=1e-9, atol=1e-12, err_msg=key)


GRADCHECKED = ["smooth_l1_beta", "huber_delta", "huber_weight", "kl_div_target_grad",
               "kl_div_log_target", "margin_ranking_margin", "margin_ranking_target_grad",
               "smooth_l1_broadcast"]


@pytest.mark.parametrize("reduction", ["mean", "none"])
@pytest.mark.parametrize("case", GRADCHECKED)
def test_gradcheck_and_gradgradcheck(case, reduction):
    fn, grads, reductions = CASES[case]
    data = {k: minigrad.tensor(v, dtype=minigrad.float64) for k, v in _data().items()}
    keys = list(grads)

    def loss(*inputs):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return fn(minigrad, {**data, **dict(zip(keys, inputs))}, reduction)

    inputs = [data[k].clone().requires_grad_(True) for k in keys]
    assert gradcheck(loss, inputs)
    assert gradgradcheck(loss, inputs)


@pytest.mark.parametrize("case", ["smooth_l1_beta", "huber_delta", "kl_div_target_grad",
                                  "kl_div_log_target", "margin_ranking_target_grad"])
def test_second_derivatives_match_torch(oracle, case):
    def second(lib):
        loss, tensors = _run(lib, case, "sum", lib.float64)
        x, t = tensors["x"], tensors["t"]
        gx, gt = lib.autograd.grad(loss, (x, t), create_graph=True)
        second = lib.autograd.grad((gx * gx + gt * x).sum(), (x, t), materialize_grads=True)
        return [g.detach().numpy() for g in second]

    for mine, ref in zip(second(minigrad), oracle(second)):
        np.testing.assert_allclose(mine, ref, rtol=1e-9, atol=1e-12)


def test_float32_stays_float32_and_values_match(oracle):
    def run(lib):
        x = lib.tensor(_data()["x"], dtype=lib.float32)
        p = lib.tensor(_data()["p"], dtype=lib.float32)
        F = lib.nn.functional
        out = [F.smooth_l1_loss(x, p, beta=0.5), F.huber_loss(x, p, delta=0.5),
               F.kl_div(x, p, reduction="batchmean"), F.margin_ranking_loss(x, p, -p)]
        return [(o.item(), str(o.dtype).split(".")[-1]) for o in out]

    for (value, dtype), (ref_value, ref_dtype) in zip(plain(run(minigrad)), oracle(run)):
        assert dtype == ref_dtype == "float32"
        np.testing.assert_allclose(value, ref_value, rtol=1e-6)


def test_saved_attributes_look_like_torchs():
    x, t = minigrad.randn(3, requires_grad=True), minigrad.randn(3)
    node = nn.functional.smooth_l1_loss(x, t, reduction="sum", beta=0.3).grad_fn
    assert (node._saved_beta, node._saved_reduction) == (0.3, 2)
    assert node._saved_self is x and node._saved_target is t
    node = nn.HuberLoss(reduction="none", delta=2.0)(x, t).grad_fn
    assert (node._saved_delta, node._saved_reduction) == (2.0, 0)
    t.requires_grad_(True)
    xlogy = nn.functional.kl_div(x, t.abs(), reduction="none").grad_fn.next_functions[0][0]
    assert type(xlogy).__name__ == "XlogyBackward0"
    assert xlogy._saved_self is xlogy._saved_other  # xlogy(target, target)


def test_modules_repr_and_options(oracle):
    def describe(lib):
        mods = [lib.nn.SmoothL1Loss(beta=0.5), lib.nn.HuberLoss(delta=2.0),
                lib.nn.KLDivLoss(reduction="batchmean", log_target=True),
                lib.nn.MarginRankingLoss(margin=0.25, reduction="sum")]
        return [(repr(m), {k: getattr(m, k) for k in ("reduction", "beta", "delta",
                                                      "log_target", "margin")
                           if hasattr(m, k)}) for m in mods]

    assert plain(describe(minigrad)) == oracle(describe)


def _warnings(lib, fn):
    """The warnings, and whether each points at the caller (the legacy flags' warning is left
    out of that: PyTorch points it into its own code, minigrad at the caller)."""
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        fn(lib)
    return [(w.category.__name__, str(w.message).replace("torch", "minigrad"),
             w.filename == __file__ or "size_average" in str(w.message)) for w in record]


WARNINGS = {
    "kl_div_mean": lambda lib: lib.nn.functional.kl_div(lib.zeros(2, 3), lib.ones(2, 3)),
    "kl_div_module_mean": lambda lib: lib.nn.KLDivLoss()(lib.zeros(2, 3), lib.ones(2, 3)),
    "kl_div_batchmean": lambda lib: lib.nn.functional.kl_div(lib.zeros(2, 3), lib.ones(2, 3),
                                                             reduction="batchmean"),
    "kl_div_legacy": lambda lib: lib.nn.functional.kl_div(lib.zeros(2), lib.ones(2),
                                                          size_average=False),
    "smooth_l1_size": lambda lib: lib.nn.functional.smooth_l1_loss(lib.zeros(3),
                                                                   lib.ones(2, 3)),
    "smooth_l1_legacy": lambda lib: lib.nn.functional.smooth_l1_loss(lib.zeros(3), lib.ones(3),
                                                                     reduce=False),
    "huber_size": lambda lib: lib.nn.HuberLoss()(lib.zeros(2, 3), lib.ones(3)),
    "margin_ranking_legacy": lambda lib: lib.nn.functional.margin_ranking_loss(
        lib.zeros(3), lib.ones(3), lib.ones(3), size_average=False),
}


@pytest.mark.parametrize("case", list(WARNINGS))
def test_warnings_match_torch(oracle, case):
    mine = _warnings(minigrad, WARNINGS[case])
    assert plain(mine) == oracle(lambda torch: _warnings(torch, WARNINGS[case]))


ERRORS = {
    "smooth_l1 negative beta": "F.smooth_l1_loss(T.ones(2), T.ones(2), beta=-1.0)",
    "smooth_l1 bad reduction": "F.smooth_l1_loss(T.ones(2), T.ones(2), reduction='foo')",
    "smooth_l1 shapes": "F.smooth_l1_loss(T.ones(3), T.ones(2))",
    "smooth_l1 long": "F.smooth_l1_loss(T.ones(2, dtype=T.int64), T.ones(2, dtype=T.int64))",
    "smooth_l1 long and float": "F.smooth_l1_loss(T.ones(2, dtype=T.int64), T.ones(2))",
    "huber zero delta": "F.huber_loss(T.ones(2), T.ones(2), delta=0.0)",
    "huber negative delta": "F.huber_loss(T.ones(2), T.ones(2), delta=-2.0)",
    "huber bad reduction": "F.huber_loss(T.ones(2), T.ones(2), reduction='foo')",
    "huber long": "F.huber_loss(T.ones(2, dtype=T.int64), T.ones(2, dtype=T.int64))",
    "huber shapes": "F.huber_loss(T.ones(3), T.ones(2))",
    "huber weight size": "F.huber_loss(T.ones(3), T.ones(3), weight=T.ones(2))",
    "huber weight bad reduction": "F.huber_loss(T.ones(3), T.ones(3), reduction='foo', "
                                  "weight=T.ones(3))",
    "kl_div bad reduction": "F.kl_div(T.ones(2), T.ones(2), reduction='foo')",
    "kl_div integral input": "F.kl_div(T.tensor([1, 2]), T.ones(2))",
    "kl_div integral target": "F.kl_div(T.ones(2), T.tensor([1, 2]))",
    "kl_div shapes": "F.kl_div(T.ones(3), T.ones(2), reduction='sum')",
    "kl_div nan target": "F.kl_div(T.zeros(2), T.tensor([0.0, float('nan')]), "
                         "reduction='none')",
    "kl_div negative target": "F.kl_div(T.zeros(2), T.tensor([0.0, -1.0]), reduction='none')",
    "kl_div broadcast": "F.kl_div(T.zeros(2, 1), T.full((3,), 0.5), reduction='none')",
    "margin_ranking dims": "F.margin_ranking_loss(T.ones(3), T.ones(3), T.ones(2, 3))",
    "margin_ranking bad reduction first": "F.margin_ranking_loss(T.ones(3), T.ones(2, 3), "
                                          "T.ones(3), reduction='foo')",
    "margin_ranking shapes": "F.margin_ranking_loss(T.ones(3), T.ones(2), T.ones(3))",
    "smooth_l1 beta0 values": "F.smooth_l1_loss(T.tensor([1.0, -3.0]), T.zeros(2), beta=0, "
                              "reduction='none')",
    "huber float64 target": "F.huber_loss(T.ones(2), T.zeros(2, dtype=T.float64))",
    "huber float64 input": "F.huber_loss(T.ones(2, dtype=T.float64), T.zeros(2))",
    "huber long input": "F.huber_loss(T.ones(2, dtype=T.int64), T.zeros(2))",
    "huber float32 none": "F.huber_loss(T.ones(2), T.zeros(2, dtype=T.float64), "
                          "reduction='none')",
    "smooth_l1 float64 target": "F.smooth_l1_loss(T.ones(2), T.zeros(2, dtype=T.float64))",
}


@pytest.mark.parametrize("src", ERRORS.values(), ids=ERRORS.keys())
def test_checks_and_edge_values_match_torch(oracle, src):
    agree(oracle, src.replace("F.", "T.nn.functional."), rtol=1e-6)


def test_beta_zero_is_l1_loss():
    x, t = minigrad.randn(5, requires_grad=True), minigrad.randn(5)
    loss = nn.SmoothL1Loss(beta=0.0)(x, t)
    assert type(loss.grad_fn).__name__ == "MeanBackward0"
    np.testing.assert_allclose(loss.item(), (x - t).abs().mean().item(), rtol=1e-6)


def test_huber_is_delta_times_smooth_l1():
    x, t = minigrad.randn(6, dtype=minigrad.float64), minigrad.randn(6, dtype=minigrad.float64)
    huber = nn.functional.huber_loss(x * 3, t, delta=0.8, reduction="none")
    smooth = nn.functional.smooth_l1_loss(x * 3, t, beta=0.8, reduction="none")
    np.testing.assert_allclose(huber.numpy(), 0.8 * smooth.numpy(), rtol=1e-12)


@pytest.mark.parametrize("make", [
    lambda F, x, t: F.smooth_l1_loss(x * 2, t, beta=0.5, reduction="none"),
    lambda F, x, t: F.smooth_l1_loss(x * 2, t, beta=0.5),
    lambda F, x, t: F.huber_loss(x * 2, t, delta=0.5, reduction="sum"),
    lambda F, x, t: F.huber_loss(x * 2, t, delta=0.5),
    lambda F, x, t: F.kl_div(x, t.abs(), reduction="none").grad_fn.next_functions[0][0],
], ids=["smooth_l1-none", "smooth_l1-mean", "huber-sum", "huber-mean", "xlogy"])
def test_formula_is_the_gradient_sent(make):
    from formula_eval import evaluate

    from minigrad.autograd._formulas import formula_of, operands_of

    x = minigrad.randn(5, dtype=minigrad.float64, requires_grad=True)
    t = minigrad.randn(5, dtype=minigrad.float64, requires_grad=True)
    made = make(nn.functional, x, t)
    node = made.grad_fn if isinstance(made, minigrad.Tensor) else made
    shape = (5,) if isinstance(made, minigrad.Tensor) and made.ndim else ()
    grad = np.random.default_rng(1).uniform(0.5, 1.5, shape)
    sent = node(minigrad.tensor(grad))
    operands = operands_of(node, 10**6)
    for expression, value in zip(formula_of(node), sent, strict=True):
        expected = np.broadcast_to(evaluate(expression, [grad], operands), value.shape)
        np.testing.assert_allclose(expected, value.detach().numpy(), rtol=1e-12)
