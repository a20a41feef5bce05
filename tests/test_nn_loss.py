"""Losses: values, gradients, node names and errors against torch, for every reduction."""

import numpy as np
import pytest
from oracle import plain
from parity_expr import agree

import minigrad
from minigrad import nn

REDUCTIONS = ["mean", "sum", "none"]


def graph_names(fn):
    if fn is None:
        return None
    return (type(fn).__name__, tuple(graph_names(f) for f, _ in fn.next_functions))


def _data(seed=0):
    rng = np.random.default_rng(seed)
    return {
        "x": rng.standard_normal((4, 3)),
        "t": rng.standard_normal((4, 3)),
        "p": rng.uniform(0.05, 0.95, (4, 3)),
        "y": rng.integers(0, 2, (4, 3)).astype(np.float64),
        "soft": rng.uniform(0, 1, (4, 3)),
        "cls": np.array([0, 2, 1, 2]),
        "w3": rng.uniform(0.5, 2, 3),
    }


# Each case: a name, how to call the loss on (lib, tensors, reduction), the tensors it uses
# and which of them require grad.
CASES = {
    "l1": (lambda lib, d, r: lib.nn.L1Loss(reduction=r)(d["x"], d["t"]), "x+t", "x+t"),
    "mse": (lambda lib, d, r: lib.nn.MSELoss(reduction=r)(d["x"], d["t"]), "x+t", "x+t"),
    "mse_const_target": (lambda lib, d, r: lib.nn.MSELoss(reduction=r)(d["x"], d["t"]),
                         "x+t", "x"),
    "cross_entropy": (lambda lib, d, r: lib.nn.CrossEntropyLoss(reduction=r)(d["x"], d["cls"]),
                      "x", "x"),
    "cross_entropy_weight_ignore": (
        lambda lib, d, r: lib.nn.CrossEntropyLoss(weight=d["w3"], ignore_index=1,
                                                  reduction=r)(d["x"], d["cls"]), "x", "x"),
    "cross_entropy_1d": (lambda lib, d, r: lib.nn.functional.cross_entropy(
        d["x"][0], d["cls"][1], reduction=r), "x", "x"),
    "cross_entropy_soft": (lambda lib, d, r: lib.nn.functional.cross_entropy(
        d["x"], d["soft"], reduction=r), "x", "x"),
    "cross_entropy_smoothing": (lambda lib, d, r: lib.nn.CrossEntropyLoss(
        label_smoothing=0.1, reduction=r)(d["x"], d["cls"]), "x", "x"),
    "nll": (lambda lib, d, r: lib.nn.NLLLoss(reduction=r)(d["x"].log_softmax(1), d["cls"]),
            "x", "x"),
    "bce": (lambda lib, d, r: lib.nn.BCELoss(reduction=r)(d["p"], d["y"]), "p+y", "p"),
    "bce_soft_target_grad": (lambda lib, d, r: lib.nn.BCELoss(reduction=r)(d["p"], d["soft"]),
                             "p", "p"),
    "bce_weight": (lambda lib, d, r: lib.nn.BCELoss(weight=d["w3"], reduction=r)(d["p"],
                                                                                 d["soft"]),
                   "p+soft", "p+soft"),
    "bce_logits": (lambda lib, d, r: lib.nn.BCEWithLogitsLoss(reduction=r)(d["x"], d["soft"]),
                   "x+soft", "x+soft"),
    "bce_logits_pos_weight": (lambda lib, d, r: lib.nn.BCEWithLogitsLoss(
        pos_weight=d["w3"], weight=d["w3"] * 0.5, reduction=r)(d["x"], d["soft"]),
        "x+soft", "x+soft"),
}


def _tensors(lib, data, grad_keys, dtype):
    out = {}
    for key, value in data.items():
        t = lib.tensor(value) if value.dtype.kind == "i" else lib.tensor(value, dtype=dtype)
        if key in grad_keys and key in ("x", "t", "p", "soft"):
            t.requires_grad_(True)
        out[key] = t
    return out


def _grad_keys(spec):
    return spec.split("+")


def _run(lib, case, reduction, dtype):
    fn, _, grads = CASES[case]
    tensors = _tensors(lib, _data(), _grad_keys(grads), dtype)
    loss = fn(lib, tensors, reduction)
    return loss, tensors


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("case", list(CASES))
def test_loss_matches_torch(oracle, case, reduction):
    def run(lib):
        loss, tensors = _run(lib, case, reduction, lib.float64)
        names = graph_names(loss.grad_fn)
        weights = np.random.default_rng(5).uniform(0.5, 1.5, tuple(loss.shape))
        loss.backward(lib.tensor(weights, dtype=lib.float64))
        return {"loss": loss.detach().numpy(), "dtype": str(loss.dtype).split(".")[-1],
                "names": names, "grads": {key: tensors[key].grad.numpy()
                                          for key in _grad_keys(CASES[case][2])}}
    mine, ref = plain(run(minigrad)), oracle(run)
    np.testing.assert_allclose(mine["loss"], ref["loss"], rtol=1e-10)
    assert mine["dtype"] == ref["dtype"] == "float64"
    if case != "cross_entropy_smoothing":
        assert mine["names"] == ref["names"]
    for key, grad in ref["grads"].items():
        np.testing.assert_allclose(mine["grads"][key], grad, rtol=1e-9, atol=1e-12, err_msg=key)


@pytest.mark.parametrize("case", ["mse", "bce", "bce_logits_pos_weight", "cross_entropy"])
def test_loss_second_derivatives_match_torch(oracle, case):
    def second(lib):
        loss, tensors = _run(lib, case, "mean", lib.float64)
        key = _grad_keys(CASES[case][2])[0]
        (g,) = lib.autograd.grad(loss, tensors[key], create_graph=True)
        (gg,) = lib.autograd.grad((g * g).sum(), tensors[key])
        return gg.detach().numpy()

    np.testing.assert_allclose(second(minigrad), oracle(second), rtol=1e-9, atol=1e-12)


def test_float32_losses_stay_float32(torch):
    loss, _ = _run(minigrad, "bce_logits", "mean", minigrad.float32)
    t_loss, _ = _run(torch, "bce_logits", "mean", torch.float32)
    assert loss.dtype == minigrad.float32
    np.testing.assert_allclose(loss.item(), t_loss.item(), rtol=1e-6)


def test_saved_attributes_look_like_torchs():
    x = minigrad.randn(3, 2, requires_grad=True)
    loss = nn.MSELoss()(x, minigrad.zeros(3, 2))
    assert loss.grad_fn._saved_reduction == 1
    assert loss.grad_fn._saved_self is x
    nll = nn.functional.nll_loss(x, minigrad.tensor([0, 1, 1]), reduction="sum")
    assert nll.grad_fn._saved_reduction == 2 and nll.grad_fn._saved_ignore_index == -100
    assert nll.grad_fn._saved_total_weight.item() == 3


def test_cross_entropy_ignores_all_targets_gives_nan(torch):
    x = minigrad.randn(2, 3, requires_grad=True)
    loss = nn.CrossEntropyLoss(ignore_index=0)(x, minigrad.tensor([0, 0]))
    assert np.isnan(loss.item())


def test_k_dimensional_cross_entropy_values(torch):
    data = np.random.default_rng(0).standard_normal((2, 3, 4))
    target = np.array([[0, 1, 2, 0], [1, 1, 2, 2]])
    x, tx = minigrad.tensor(data, requires_grad=True), torch.tensor(data, requires_grad=True)
    for reduction in REDUCTIONS:
        loss = nn.functional.cross_entropy(x, minigrad.tensor(target), reduction=reduction)
        t_loss = torch.nn.functional.cross_entropy(tx, torch.tensor(target), reduction=reduction)
        np.testing.assert_allclose(loss.detach().numpy(), t_loss.detach().numpy(), rtol=1e-10)
    loss.sum().backward()
    t_loss.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), rtol=1e-10)


def _error(lib, fn):
    with pytest.raises(Exception) as info:
        fn(lib)
    return type(info.value).__name__, str(info.value).replace("torch", "minigrad")


ERRORS = {
    "bad_reduction": lambda lib: lib.nn.MSELoss(reduction="foo")(lib.ones(3), lib.ones(3)),
    "target_out_of_bounds": lambda lib: lib.nn.CrossEntropyLoss()(lib.ones(2, 3),
                                                                  lib.tensor([0, 3])),
    "float_class_target": lambda lib: lib.nn.NLLLoss()(lib.rand(3, 4), lib.rand(3)),
    "batch_mismatch": lambda lib: lib.nn.NLLLoss()(lib.rand(3, 4), lib.tensor([1, 2])),
    "bce_out_of_range": lambda lib: lib.nn.BCELoss()(lib.tensor([1.5]), lib.tensor([1.0])),
    "bce_size": lambda lib: lib.nn.BCELoss()(lib.rand(3), lib.rand(2, 3)),
    "bce_logits_size": lambda lib: lib.nn.BCEWithLogitsLoss()(lib.rand(3), lib.rand(2, 3)),
    "ce_float_class_target": lambda lib: lib.nn.CrossEntropyLoss()(lib.rand(3, 4), lib.rand(3)),
    "ce_soft_target_shape": lambda lib: lib.nn.CrossEntropyLoss()(lib.rand(3, 4),
                                                                  lib.rand(3, 2)),
    "mse_shapes_do_not_broadcast": lambda lib: lib.nn.MSELoss()(lib.rand(3), lib.rand(2)),
    "weight_requires_grad": lambda lib: lib.nn.functional.nll_loss(
        lib.rand(3, 4, requires_grad=True), lib.tensor([0, 1, 2]),
        weight=lib.rand(4, requires_grad=True)),
}


@pytest.mark.parametrize("case", list(ERRORS))
def test_loss_errors_match_torch(oracle, case):
    assert plain(_error(minigrad, ERRORS[case])) == oracle(lambda torch: _error(torch,
                                                                                ERRORS[case]))


def test_target_size_mismatch_warns_like_torch(oracle):
    def message(lib):
        with pytest.warns(UserWarning) as record:
            lib.nn.MSELoss()(lib.ones(4, 3), lib.ones(3))
        return str(record[0].message).replace("torch", "minigrad")

    assert plain(message(minigrad)) == oracle(lambda torch: message(torch))



FUZZ_CASES = {  # found by the differential fuzzer
    "mse-bool": "F.mse_loss(T.zeros(2, 3, dtype=T.bool), T.zeros(2, 3, dtype=T.bool))",
    "mse-long": "F.mse_loss(T.zeros(3, dtype=T.int64), T.zeros(3, dtype=T.int64))",
    "mse-long-float": "F.mse_loss(T.zeros(3, dtype=T.int64), T.ones(3))",
    "mse-broadcast-float64": "F.mse_loss(T.ones(3, requires_grad=True), T.zeros(2, 3, "
                             "dtype=T.float64))",
    "bce-bool": "F.binary_cross_entropy(T.zeros(3, dtype=T.bool), T.zeros(3, dtype=T.bool))",
    "bce-long": "F.binary_cross_entropy(T.zeros(3, dtype=T.int64), T.zeros(3, dtype=T.int64))",
    "bce-dtypes-differ": "F.binary_cross_entropy(T.zeros(3), T.zeros(3, dtype=T.float64))",
    "ce-0d-input": "F.cross_entropy(T.tensor(1.0), T.tensor(1.0))",
    "ce-probabilities-long": "F.cross_entropy(T.ones(2, 3), T.ones(2, 3, dtype=T.int64))",
    "ce-probabilities-bool": "F.cross_entropy(T.ones(2, 3), T.ones(2, 3, dtype=T.bool))",
    "ce-0d-long-target": "F.cross_entropy(T.tensor(1.0), T.tensor(0))",
    "ce-batch-sizes": "F.cross_entropy(T.ones(0, 3), T.zeros(2, dtype=T.int64))",
    "ce-1d-input-long-target": "F.cross_entropy(T.ones(3), T.tensor([0, 1]))",
    "ce-0d-target": "F.cross_entropy(T.ones(2, 3), T.tensor(1))",
    "ce-long-input": "F.cross_entropy(T.ones(2, 3, dtype=T.int64), T.tensor([0, 1]))",
    "nll-0d-input": "F.nll_loss(T.tensor(1.0), T.tensor(0))",
    "nll-target-tuple": "F.nll_loss(T.ones(2, 3), T.ones(2, 3).max(1))",
    "nll-2d-target": "F.nll_loss(T.ones(2, 3), T.tensor([[0, 1]]))",
    "nll-empty-batch-0d-target": "F.nll_loss(T.ones(0, 3), T.tensor(1))",
    "nll-1d-input-2d-target": "F.nll_loss(T.ones(3), T.tensor([[1]]))",
}


@pytest.mark.parametrize("src", FUZZ_CASES.values(), ids=FUZZ_CASES.keys())
def test_fuzz_case_matches_torch(oracle, src):
    agree(oracle, src.replace("F.", "T.nn.functional."), rtol=1e-6)


CHECK_ORDER = {  # found by the differential fuzzer: the order of PyTorch's checks
    "nll 1-D int32 target": "N(T.zeros(3), T.zeros(2, dtype=T.int32))",
    "nll empty int32 target": "N(T.zeros(0), T.zeros(0, dtype=T.int32))",
    "nll long input": "N(T.zeros(2, 3, dtype=T.int64), T.zeros(2, dtype=T.int64))",
    "nll byte input": "N(T.zeros(0, 3, dtype=T.uint8), T.zeros(0, dtype=T.uint8))",
    "nll bool input": "N(T.zeros(2, 3, dtype=T.bool), T.zeros(2, dtype=T.int64))",
    "nll 1-D long input": "N(T.zeros(3, dtype=T.int64), T.zeros(2, dtype=T.int64))",
    "nll 3-D target size": "N(T.zeros(3, 1, 2), T.zeros(3, 1, 2, dtype=T.int64))",
    "nll 3-D long input": "N(T.zeros(3, 1, 2, dtype=T.int64), T.zeros(3, 2, dtype=T.int64))",
    "nll 3-D bounds": "N(T.zeros(3, 1, 2), T.tensor([[5, 0], [1, 1], [0, 0]]))",
    "nll int8 target": "N(T.zeros(2, 3), T.zeros(2, dtype=T.int8))",
    "cross_entropy int32 target": "T.nn.functional.cross_entropy(T.zeros(2, 3), "
                                  "T.zeros(2, dtype=T.int32))",
    "l1_loss of bools": "T.nn.functional.l1_loss(True, True)",
    "l1_loss shapes before bool": "T.nn.functional.l1_loss(T.zeros(0, 3, dtype=T.bool), "
                                  "T.zeros(3, 1, 2, dtype=T.int64))",
    "mse_loss of tuples": "T.nn.functional.mse_loss((1,), (1,))",
    "bce of ints": "T.nn.functional.binary_cross_entropy(1, 1)",
    "relu of a tuple": "T.nn.functional.relu((1,))",
    "one_hot of a tuple": "T.nn.functional.one_hot((1,))",
    "linear bool weight": "T.nn.functional.linear(T.ones(2), True)",
    "bce target out of range": "T.nn.functional.binary_cross_entropy(T.tensor([0.5]), "
                               "T.tensor([2.0]))",
    "nll no classes": "N(T.zeros(2, 0), T.tensor([0, 1]))",
    "bce input first": "T.nn.functional.binary_cross_entropy(T.tensor([2.0]), T.tensor([2.0]))",
    "bce element order": "T.nn.functional.binary_cross_entropy(T.tensor([0.5, 2.0]), "
                         "T.tensor([2.0, 0.5]))",
}


@pytest.mark.parametrize("src", CHECK_ORDER.values(), ids=CHECK_ORDER.keys())
def test_checks_come_in_torchs_order(oracle, src):
    agree(oracle, src.replace("N(", "T.nn.functional.nll_loss("))
