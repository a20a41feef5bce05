"""optim: SGD and Adam follow torch's trajectories; zero_grad, param groups, state, errors."""

from pathlib import Path

import numpy as np
import pytest
from oracle import plain

import minigrad
from minigrad import nn, optim

SGD_CONFIGS = [
    {"lr": 0.1},
    {"lr": 0.1, "momentum": 0.9},
    {"lr": 0.05, "momentum": 0.9, "dampening": 0.3, "weight_decay": 0.01},
    {"lr": 0.05, "momentum": 0.8, "nesterov": True, "weight_decay": 0.1},
    {"lr": 0.1, "maximize": True},
]
ADAM_CONFIGS = [
    {},
    {"lr": 0.01, "betas": (0.8, 0.99), "eps": 1e-6},
    {"lr": 0.01, "weight_decay": 0.1},
    {"lr": 0.01, "amsgrad": True},
    {"lr": 0.01, "weight_decay": 0.1, "decoupled_weight_decay": True},
    {"lr": 0.01, "maximize": True},
]


def _problem(seed=0):
    rng = np.random.default_rng(seed)
    return {"w": rng.standard_normal((3, 2)), "b": rng.standard_normal(2),
            "x": rng.standard_normal((16, 3)), "y": rng.standard_normal((16, 2))}


def _trajectory(lib, opt_name, config, dtype, steps=8):
    """Weights after each of ``steps`` optimizer steps on a small regression problem."""
    data = _problem()
    w = lib.nn.Parameter(lib.tensor(data["w"], dtype=dtype))
    b = lib.nn.Parameter(lib.tensor(data["b"], dtype=dtype))
    x, y = lib.tensor(data["x"], dtype=dtype), lib.tensor(data["y"], dtype=dtype)
    opt = getattr(lib.optim, opt_name)([w, b], **config)
    history = []
    for step in range(steps):
        opt.zero_grad()
        batch = slice(2 * step % 16, 2 * step % 16 + 8)
        loss = ((x[batch].matmul(w) + b).tanh() - y[batch]).pow(2).mean()
        loss.backward()
        opt.step()
        history.append(np.concatenate([w.detach().numpy().ravel(), b.detach().numpy()]))
    return np.array(history)


@pytest.mark.parametrize("dtype,rtol", [("float32", 1e-5), ("float64", 1e-10)])
@pytest.mark.parametrize("opt_name,config",
                         [("SGD", c) for c in SGD_CONFIGS] + [("Adam", c) for c in ADAM_CONFIGS])
def test_trajectory_matches_torch(oracle, opt_name, config, dtype, rtol):
    mine = _trajectory(minigrad, opt_name, config, getattr(minigrad, dtype))
    theirs = oracle(lambda torch: _trajectory(torch, opt_name, config, getattr(torch, dtype)))
    np.testing.assert_allclose(mine, theirs, rtol=rtol, atol=rtol * 1e-2)


def test_adamw_matches_torch(torch):
    def run(lib):
        w = lib.nn.Parameter(lib.tensor([[1.0, -2.0], [0.5, 3.0]], dtype=lib.float64))
        opt = lib.optim.AdamW([w], lr=0.1)
        for _ in range(5):
            opt.zero_grad()
            (w * w).sum().backward()
            opt.step()
        return w.detach().numpy()

    np.testing.assert_allclose(run(minigrad), run(torch), rtol=1e-12)


def test_linear_model_trains_identically_with_nn_modules(torch):
    def run(lib, init):
        model = lib.nn.Sequential(lib.nn.Linear(3, 8), lib.nn.Tanh(), lib.nn.Linear(8, 1))
        with lib.no_grad():
            for p, value in zip(model.parameters(), init):
                p.copy_(lib.tensor(value))
        opt = lib.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        data = _problem(1)
        x, y = lib.tensor(data["x"], dtype=lib.float32), lib.tensor(data["y"][:, :1],
                                                                   dtype=lib.float32)
        for _ in range(10):
            opt.zero_grad()
            lib.nn.functional.mse_loss(model(x), y).backward()
            opt.step()
        return [p.detach().numpy().copy() for p in model.parameters()]

    init = [p.detach().numpy().copy() for p in
            nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1)).parameters()]
    for mine, theirs in zip(run(minigrad, init), run(torch, init)):
        np.testing.assert_allclose(mine, theirs, rtol=1e-5, atol=1e-6)


def test_step_updates_in_place_and_bumps_the_version():
    w = nn.Parameter(minigrad.ones(2))
    data = w._data
    opt = optim.SGD([w], lr=0.5)
    (w * w).sum().backward()
    opt.step()
    assert w._data is data and w._version == 1
    assert w.is_leaf and w.grad_fn is None
    np.testing.assert_allclose(w.detach().numpy(), [0.0, 0.0])


def test_parameters_without_grad_are_skipped():
    a, b = nn.Parameter(minigrad.ones(2)), nn.Parameter(minigrad.ones(2))
    opt = optim.Adam([a, b], lr=0.1)
    (a * 2).sum().backward()
    opt.step()
    assert b.tolist() == [1.0, 1.0] and a.tolist() != [1.0, 1.0]
    assert b not in opt.state and list(opt.state[a]) == ["step", "exp_avg", "exp_avg_sq"]


def test_zero_grad_set_to_none_and_to_zero():
    w = nn.Parameter(minigrad.ones(2))
    opt = optim.SGD([w], lr=0.1)
    (w * 3).sum().backward()
    grad = w.grad
    opt.zero_grad(set_to_none=False)
    assert w.grad is grad and grad.tolist() == [0.0, 0.0]
    opt.zero_grad()
    assert w.grad is None


def test_param_groups_get_their_own_hyperparameters():
    a, b = nn.Parameter(minigrad.ones(1)), nn.Parameter(minigrad.ones(1))
    opt = optim.SGD([{"params": [a]}, {"params": b, "lr": 1.0}], lr=0.1, momentum=0.5)
    assert [g["lr"] for g in opt.param_groups] == [0.1, 1.0]
    assert opt.param_groups[1]["momentum"] == 0.5
    (a + b).sum().backward()
    opt.step()
    np.testing.assert_allclose([a.item(), b.item()], [0.9, 0.0], atol=1e-7)


def test_state_dict_round_trip():
    w = nn.Parameter(minigrad.ones(2))
    opt = optim.Adam([w], lr=0.1)
    (w * w).sum().backward()
    opt.step()
    sd = opt.state_dict()
    assert list(sd) == ["state", "param_groups"] and sd["param_groups"][0]["params"] == [0]
    assert sd["state"][0]["step"].item() == 1
    fresh = optim.Adam([w], lr=0.5)
    fresh.load_state_dict(sd)
    assert fresh.param_groups[0]["lr"] == 0.1
    np.testing.assert_array_equal(fresh.state[w]["exp_avg"].numpy(),
                                  opt.state[w]["exp_avg"].numpy())


def test_repr_lists_each_group():
    text = repr(optim.SGD([nn.Parameter(minigrad.ones(1))], lr=0.1))
    assert text.startswith("SGD (\nParameter Group 0\n    dampening: 0\n")
    assert "    lr: 0.1\n" in text and text.endswith(")")


PRINTED = {
    "SGD": lambda lib, ps: lib.optim.SGD(ps, lr=0.1),
    "SGD/momentum": lambda lib, ps: lib.optim.SGD(ps, lr=0.1, momentum=0.9, nesterov=True,
                                                  foreach=False, fused=False),
    "SGD/groups": lambda lib, ps: lib.optim.SGD([{"params": ps[:1]},
                                                 {"params": ps[1:], "lr": 0.5}], lr=0.1),
    "Adam": lambda lib, ps: lib.optim.Adam(ps),
    "Adam/options": lambda lib, ps: lib.optim.Adam(ps, lr=0.01, betas=(0.8, 0.9),
                                                   amsgrad=True, foreach=True, maximize=True),
    "Adam/decoupled": lambda lib, ps: lib.optim.Adam(ps, weight_decay=0.1,
                                                     decoupled_weight_decay=True),
    "AdamW": lambda lib, ps: lib.optim.AdamW(ps, lr=0.01),
}


@pytest.mark.parametrize("case", list(PRINTED))
def test_repr_defaults_and_state_dict_match_torch(oracle, case):
    """Every key of torch's param groups (``foreach``, ``fused``, ``differentiable``, …) with
    torch's defaults, in torch's order; the printed optimizer is torch's, character for
    character; so is the state dict after two steps."""
    def describe(lib):
        ps = [lib.nn.Parameter(lib.tensor([1.0, -2.0])), lib.nn.Parameter(lib.tensor([0.5]))]
        opt = PRINTED[case](lib, ps)
        before = (repr(opt), str(opt), opt.defaults, opt.state_dict())
        for _ in range(2):
            opt.zero_grad()
            (ps[0] * ps[0]).sum().add(ps[1].sum() * 3).backward()
            opt.step()
        after = opt.state_dict()
        state = {i: {k: (np.round(v.numpy(), 6).tolist(), str(v.dtype).split(".")[-1])
                     for k, v in s.items()} for i, s in after["state"].items()}
        return before, list(after["param_groups"][0]), after["param_groups"], state
    assert plain(describe(minigrad)) == oracle(lambda torch: describe(torch))


@pytest.mark.parametrize("make", [
    lambda p: optim.SGD([p], lr=0.1, fused=True),
    lambda p: optim.SGD([p], lr=0.1, differentiable=True),
    lambda p: optim.Adam([p], fused=True),
    lambda p: optim.Adam([p], capturable=True),
    lambda p: optim.AdamW([p], differentiable=True),
    lambda p: optim.SGD([{"params": [p], "fused": True}], lr=0.1),
], ids=["sgd-fused", "sgd-differentiable", "adam-fused", "adam-capturable",
        "adamw-differentiable", "group-fused"])
def test_options_minigrad_cannot_honour_raise_a_clear_error(make):
    with pytest.raises(NotImplementedError, match=r"has only the plain for-loop step: \w+=True "
                                                  r"is not supported"):
        make(nn.Parameter(minigrad.ones(1)))


def test_loading_a_state_dict_that_asks_for_a_fused_step_raises():
    p = nn.Parameter(minigrad.ones(1))
    sd = optim.Adam([p]).state_dict()
    sd["param_groups"][0]["fused"] = True
    with pytest.raises(NotImplementedError, match="fused=True is not supported"):
        optim.Adam([p]).load_state_dict(sd)


ERRORS = {
    "empty": lambda lib: lib.optim.SGD([], lr=0.1),
    "tensor_not_iterable": lambda lib: lib.optim.SGD(lib.ones(2), lr=0.1),
    "negative_lr": lambda lib: lib.optim.SGD([lib.nn.Parameter(lib.ones(1))], lr=-0.1),
    "negative_momentum": lambda lib: lib.optim.SGD([lib.nn.Parameter(lib.ones(1))], lr=0.1,
                                                   momentum=-1),
    "nesterov": lambda lib: lib.optim.SGD([lib.nn.Parameter(lib.ones(1))], lr=0.1,
                                          nesterov=True),
    "beta": lambda lib: lib.optim.Adam([lib.nn.Parameter(lib.ones(1))], betas=(1.0, 0.9)),
    "eps": lambda lib: lib.optim.Adam([lib.nn.Parameter(lib.ones(1))], eps=-1.0),
    "non_leaf": lambda lib: lib.optim.SGD([lib.ones(1, requires_grad=True) * 2], lr=0.1),
    "duplicate_groups": lambda lib: lib.optim.SGD(
        [{"params": [p]}, {"params": [p]}], lr=0.1) if (p := lib.nn.Parameter(
            lib.ones(1))) is not None else None,
}


@pytest.mark.parametrize("case", list(ERRORS))
def test_errors_match_torch(oracle, case):
    def error(lib):
        with pytest.raises(Exception) as info:
            ERRORS[case](lib)
        return type(info.value).__name__, str(info.value).replace("torch", "minigrad")

    assert plain(error(minigrad)) == oracle(lambda torch: error(torch))


# ---------------------------------------------------------------------- the moons example
MOONS = Path(__file__).resolve().parent.parent / "examples" / "train_moons.py"


def _run_moons(source, capsys):
    namespace = {"__name__": "train_moons"}
    exec(compile(source, str(MOONS), "exec"), namespace)  # noqa: S102 - our own example
    accuracy = namespace["main"]()
    printed = capsys.readouterr().out
    return accuracy, printed


def test_moons_example_reaches_97_percent(capsys):
    accuracy, printed = _run_moons(MOONS.read_text(), capsys)
    assert accuracy >= 0.97
    assert f"training accuracy: {accuracy:.1%}" in printed


def test_moons_example_runs_under_torch_by_changing_one_import(torch, capsys):
    source = MOONS.read_text()
    assert source.count("import minigrad as torch\n") == 1
    accuracy, _ = _run_moons(source.replace("import minigrad as torch\n", "import torch\n"),
                             capsys)
    assert accuracy >= 0.97


def test_adam_step_counter_follows_a_float64_default_dtype():
    # torch's Adam keeps state["step"] as float64 when the default dtype is float64
    minigrad.set_default_dtype(minigrad.float64)
    try:
        p = nn.Parameter(minigrad.ones(2))
        opt = optim.Adam([p])
        p.sum().backward()
        opt.step()
    finally:
        minigrad.set_default_dtype(minigrad.float32)
    assert opt.state[p]["step"].dtype == minigrad.float64
    assert opt.state[p]["step"].item() == 1.0
