"""optim.RMSprop and optim.Adagrad follow torch's trajectories, state, state dicts and errors."""

import numpy as np
import pytest
from oracle import plain
from test_optim import _trajectory

import minigrad
from minigrad import nn, optim

RMSPROP_CONFIGS = [
    {},
    {"lr": 0.01, "alpha": 0.9, "eps": 1e-6},
    {"lr": 0.01, "momentum": 0.9},
    {"lr": 0.01, "centered": True},
    {"lr": 0.01, "alpha": 0.3, "centered": True},  # lerp from the far end (weight ≥ 0.5)
    {"lr": 0.01, "centered": True, "momentum": 0.5, "weight_decay": 0.1},
    {"lr": 0.01, "maximize": True, "eps": 1e-3, "foreach": True},
]
ADAGRAD_CONFIGS = [
    {},
    {"lr": 0.1, "lr_decay": 0.05},
    {"lr": 0.1, "weight_decay": 0.1, "initial_accumulator_value": 0.3},
    {"lr": 0.1, "maximize": True, "eps": 1e-3, "foreach": False},
]
CASES = [("RMSprop", c) for c in RMSPROP_CONFIGS] + [("Adagrad", c) for c in ADAGRAD_CONFIGS]
# torch's sqrt (MKL's vectorised one) is not always correctly rounded, NumPy's is: results
# can differ in the last bit of √v, so exact equality is too strict (every other op matches)
TOLERANCE = {"float32": (1e-5, 1e-6), "float64": (1e-12, 1e-14)}


def _given_grads(lib, opt_name, config, dtype, steps=20):
    """Weights after each step when the gradient is a fixed NumPy function of the weights:
    both libraries see the same gradients, so only the update rule is compared."""
    rng = np.random.default_rng(0)
    w0, target = rng.standard_normal((5, 7)), rng.standard_normal((5, 7))
    w = lib.nn.Parameter(lib.tensor(w0, dtype=getattr(lib, dtype)))
    opt = getattr(lib.optim, opt_name)([w], **config)
    history = []
    for step in range(steps):
        p = w.detach().numpy()
        w.grad = lib.tensor((p ** 3 - target + np.sin(step + p)).astype(p.dtype))
        opt.step()
        history.append(w.detach().numpy().copy())
    return np.array(history)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("opt_name,config", CASES)
def test_update_rule_matches_torch(oracle, opt_name, config, dtype):
    mine = _given_grads(minigrad, opt_name, config, dtype)
    theirs = np.array(oracle(lambda torch: _given_grads(torch, opt_name, config, dtype)))
    assert mine.dtype == np.dtype(dtype)
    rtol, atol = TOLERANCE[dtype]
    np.testing.assert_allclose(mine, theirs, rtol=rtol, atol=atol)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("opt_name,config", [CASES[5], CASES[-2]])
def test_training_a_small_model_matches_torch(oracle, opt_name, config, dtype):
    mine = _trajectory(minigrad, opt_name, config, getattr(minigrad, dtype))
    theirs = oracle(lambda torch: _trajectory(torch, opt_name, config, getattr(torch, dtype)))
    rtol, atol = TOLERANCE[dtype]
    np.testing.assert_allclose(mine, theirs, rtol=rtol * 10, atol=atol * 10)


def _two_params(lib):
    return [lib.nn.Parameter(lib.tensor([1.0, -2.0])), lib.nn.Parameter(lib.tensor([0.5]))]


def _describe_state(state_dict):
    return {i: {k: (np.round(v.numpy(), 6).tolist(), str(v.dtype).split(".")[-1],
                    list(v.shape)) for k, v in s.items()}
            for i, s in state_dict["state"].items()}


PRINTED = {
    "RMSprop": lambda lib, ps: lib.optim.RMSprop(ps),
    "RMSprop/options": lambda lib, ps: lib.optim.RMSprop(ps, lr=0.1, momentum=0.9,
                                                         centered=True, foreach=True),
    "RMSprop/groups": lambda lib, ps: lib.optim.RMSprop(
        [{"params": ps[:1]}, {"params": ps[1:], "lr": 0.5, "centered": True}], lr=0.1),
    "Adagrad": lambda lib, ps: lib.optim.Adagrad(ps),
    "Adagrad/options": lambda lib, ps: lib.optim.Adagrad(
        ps, 0.1, 0.01, 0.1, 0.5, 1e-6, False, maximize=True, fused=False),
    "Adagrad/groups": lambda lib, ps: lib.optim.Adagrad(
        [{"params": ps[:1]}, {"params": ps[1:], "initial_accumulator_value": 2.0}], lr=0.1),
}


@pytest.mark.parametrize("case", list(PRINTED))
def test_repr_defaults_and_state_dict_match_torch(oracle, case):
    """Group keys and defaults in torch's order, torch's printout, and the state dict (keys,
    values, dtypes, shapes) before and after two steps; Adagrad's state exists from the start."""
    def describe(lib):
        ps = _two_params(lib)
        opt = PRINTED[case](lib, ps)
        before = opt.state_dict()
        printed = (repr(opt), opt.defaults, before["param_groups"], _describe_state(before))
        for _ in range(2):
            opt.zero_grad()
            (ps[0] * ps[0]).sum().add(ps[1].sum() * 3).backward()
            opt.step()
        after = opt.state_dict()
        return printed, after["param_groups"], _describe_state(after)

    assert plain(describe(minigrad)) == oracle(lambda torch: describe(torch))


def test_state_types():
    w = nn.Parameter(minigrad.ones(2, dtype=minigrad.float64))
    opt = optim.RMSprop([w], momentum=0.5, centered=True)
    (w * w).sum().backward()
    opt.step()
    state = opt.state[w]
    assert list(state) == ["step", "square_avg", "momentum_buffer", "grad_avg"]
    assert all(isinstance(v, minigrad.Tensor) for v in state.values())
    assert state["step"].dtype == minigrad.float32 and state["step"].shape == ()
    assert state["square_avg"].dtype == minigrad.float64
    assert list(optim.Adagrad([w]).state[w]) == ["step", "sum"]


@pytest.mark.parametrize("opt_name", ["RMSprop", "Adagrad"])
def test_a_parameter_without_grad_is_skipped(oracle, opt_name):
    def run(lib):
        a, b = _two_params(lib)
        opt = getattr(lib.optim, opt_name)([a, b], lr=0.1)
        (a * 2).sum().backward()
        opt.step()
        return a, b, _describe_state(opt.state_dict())

    got = plain(run(minigrad))
    assert got == oracle(lambda torch: run(torch))
    assert got[1]["tensor"] == [0.5]


@pytest.mark.parametrize("opt_name,config", [CASES[5], CASES[-2]])
def test_state_dict_round_trip_continues_the_same_trajectory(opt_name, config):
    def losses_step(w, opt):
        opt.zero_grad()
        (w.pow(4) - w).sum().backward()
        opt.step()

    w = nn.Parameter(minigrad.tensor([1.0, -2.0, 0.5]))
    opt = getattr(optim, opt_name)([w], **config)
    for _ in range(3):
        losses_step(w, opt)
    sd = opt.state_dict()
    assert sd["param_groups"][0]["params"] == [0] and sd["state"][0]["step"].item() == 3
    twin = nn.Parameter(w.detach().clone())
    fresh = getattr(optim, opt_name)([twin], lr=0.5)
    fresh.load_state_dict(sd)
    assert fresh.param_groups[0]["lr"] == config["lr"]
    for key, value in opt.state[w].items():
        assert fresh.state[twin][key] is not value
        np.testing.assert_array_equal(fresh.state[twin][key].numpy(), value.numpy())
    for _ in range(3):
        losses_step(w, opt)
        losses_step(twin, fresh)
    np.testing.assert_array_equal(twin.detach().numpy(), w.detach().numpy())


@pytest.mark.parametrize("opt_name", ["RMSprop", "Adagrad"])
def test_step_is_in_place_bumps_the_version_and_zero_grad_works(opt_name):
    w = nn.Parameter(minigrad.ones(2))
    data = w._data
    opt = getattr(optim, opt_name)([w], lr=0.1)
    (w * 3).sum().backward()
    assert opt.step() is None
    assert w._data is data and w._version == 1 and w.is_leaf
    assert w.tolist() != [1.0, 1.0]
    grad = w.grad
    opt.zero_grad(set_to_none=False)
    assert w.grad is grad and grad.tolist() == [0.0, 0.0]
    opt.zero_grad()
    assert w.grad is None


def test_step_returns_the_closure_loss():
    w = nn.Parameter(minigrad.ones(2))
    opt = optim.RMSprop([w])

    def closure():
        opt.zero_grad()
        loss = (w * w).sum()
        loss.backward()
        return loss

    assert opt.step(closure).item() == 2.0 and w.grad is not None


@pytest.mark.parametrize("make", [
    lambda p: optim.RMSprop([p], capturable=True),
    lambda p: optim.RMSprop([p], differentiable=True),
    lambda p: optim.Adagrad([p], fused=True),
    lambda p: optim.Adagrad([p], differentiable=True),
], ids=["rmsprop-capturable", "rmsprop-differentiable", "adagrad-fused",
        "adagrad-differentiable"])
def test_options_minigrad_cannot_honour_raise_a_clear_error(make):
    with pytest.raises(NotImplementedError, match=r"has only the plain for-loop step: \w+=True "
                                                  r"is not supported"):
        make(nn.Parameter(minigrad.ones(1)))


def _p(lib):
    return [lib.nn.Parameter(lib.ones(1))]


ERRORS = {
    "rmsprop_lr": lambda lib: lib.optim.RMSprop(_p(lib), lr=-0.1),
    "rmsprop_eps": lambda lib: lib.optim.RMSprop(_p(lib), eps=-1e-8),
    "rmsprop_momentum": lambda lib: lib.optim.RMSprop(_p(lib), momentum=-0.5),
    "rmsprop_weight_decay": lambda lib: lib.optim.RMSprop(_p(lib), weight_decay=-1),
    "rmsprop_alpha": lambda lib: lib.optim.RMSprop(_p(lib), alpha=-0.99),
    "rmsprop_first_check_wins": lambda lib: lib.optim.RMSprop(_p(lib), alpha=-1, eps=-1),
    "rmsprop_empty": lambda lib: lib.optim.RMSprop([]),
    "adagrad_lr": lambda lib: lib.optim.Adagrad(_p(lib), lr=-1e-2),
    "adagrad_lr_decay": lambda lib: lib.optim.Adagrad(_p(lib), lr_decay=-1),
    "adagrad_weight_decay": lambda lib: lib.optim.Adagrad(_p(lib), weight_decay=-0.1),
    "adagrad_initial_accumulator_value": lambda lib: lib.optim.Adagrad(
        _p(lib), initial_accumulator_value=-1.5),
    "adagrad_eps": lambda lib: lib.optim.Adagrad(_p(lib), eps=-1e-10),
    "adagrad_tensor_params": lambda lib: lib.optim.Adagrad(lib.ones(2)),
}


@pytest.mark.parametrize("case", list(ERRORS))
def test_errors_match_torch(oracle, case):
    def error(lib):
        with pytest.raises(Exception) as info:
            ERRORS[case](lib)
        return type(info.value).__name__, str(info.value).replace("torch", "minigrad")

    assert plain(error(minigrad)) == oracle(lambda torch: error(torch))
