"""``optim.lr_scheduler``: the learning rate of every epoch, ``get_last_lr``, ``state_dict``
and the warnings, against torch."""

import math
import warnings

import pytest
from parity_check import check

import minigrad


def optimizer(m, lrs=(0.1,)):
    groups = [{"params": [m.nn.Parameter(m.ones(1))], "lr": lr} for lr in lrs]
    return m.optim.SGD(groups, lr=lrs[0])


def schedule(make_scheduler, epochs=12, lrs=(0.1,), **kwargs):
    """The learning rates of ``epochs`` epochs, stepping as a training loop does."""
    def run(m):
        opt = optimizer(m, lrs)
        sched = make_scheduler(m.optim.lr_scheduler, opt)
        seen = [sched.get_last_lr()]
        for _ in range(epochs):
            opt.step()
            sched.step()
            seen.append(sched.get_last_lr())
        return [seen, [group["lr"] for group in opt.param_groups]]
    return run


def half_pow(epoch):
    return 0.5 ** epoch


SCHEDULES = {
    "step": schedule(lambda s, o: s.StepLR(o, step_size=3)),
    "step-gamma": schedule(lambda s, o: s.StepLR(o, step_size=2, gamma=0.7), lrs=(0.3, 0.01)),
    "multistep": schedule(lambda s, o: s.MultiStepLR(o, milestones=[2, 5, 5, 9], gamma=0.5)),
    "exponential": schedule(lambda s, o: s.ExponentialLR(o, gamma=0.9), epochs=30),
    "cosine": schedule(lambda s, o: s.CosineAnnealingLR(o, T_max=5), epochs=25),
    "cosine-eta-min": schedule(lambda s, o: s.CosineAnnealingLR(o, T_max=4, eta_min=0.001),
                               epochs=20, lrs=(0.1, 0.05)),
    "lambda": schedule(lambda s, o: s.LambdaLR(o, half_pow)),
    "lambda-per-group": schedule(lambda s, o: s.LambdaLR(o, [half_pow, lambda e: 1 / (e + 1)]),
                                 lrs=(0.1, 0.2)),
    "chained-step-and-exponential": schedule(
        lambda s, o: [s.StepLR(o, 3), s.ExponentialLR(o, 0.9)][-1]),
}


@pytest.mark.parametrize("name", list(SCHEDULES))
def test_schedule_matches_torch(oracle, name):
    check(oracle, SCHEDULES[name])


def plateau(m, losses, **kwargs):
    opt = optimizer(m)
    sched = m.optim.lr_scheduler.ReduceLROnPlateau(opt, **kwargs)
    lrs = []
    for loss in losses:
        opt.step()
        sched.step(loss)
        lrs.append(sched.get_last_lr())
    return [lrs, sched.num_bad_epochs, sched.best]


LOSSES = [1.0, 0.9, 0.95, 0.95, 0.96, 0.97, 0.8, 0.8, 0.81, 0.82, 0.83, 0.84, 0.85]


def caught(make):
    """The texts of the warnings ``make`` raises (and its result)."""
    def run(m):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            result = make(m)
        return [[str(w.message) for w in seen], result]
    return run


def step_before_optimizer(m):
    opt = optimizer(m)
    sched = m.optim.lr_scheduler.StepLR(opt, 1)
    sched.step()
    return sched.get_last_lr()


def step_with_epoch(m):
    opt = optimizer(m)
    sched = m.optim.lr_scheduler.StepLR(opt, 2)
    opt.step()
    sched.step(5)
    return sched.get_last_lr()


def get_lr_outside_step(m):
    return m.optim.lr_scheduler.ExponentialLR(optimizer(m), 0.5).get_lr()


def state_dict(m, make):
    opt = optimizer(m)
    sched = make(m.optim.lr_scheduler, opt)
    opt.step()
    sched.step()
    return sched.state_dict()


def resumed(m):
    opt = optimizer(m)
    sched = m.optim.lr_scheduler.StepLR(opt, 2)
    for _ in range(3):
        opt.step()
        sched.step()
    saved = sched.state_dict()
    other_opt = optimizer(m)
    other = m.optim.lr_scheduler.StepLR(other_opt, 2)
    other.load_state_dict(saved)
    other_opt.step()
    other.step()
    return [other.get_last_lr(), other.last_epoch]


CASES = {
    "plateau-min": lambda m: plateau(m, LOSSES, patience=2),
    "plateau-max-abs": lambda m: plateau(m, [-x for x in LOSSES], mode="max", patience=1,
                                         threshold=0.05, threshold_mode="abs", cooldown=2),
    "plateau-min-lr": lambda m: plateau(m, [1.0] * 12, patience=0, factor=0.5, min_lr=0.02),
    "plateau-bad-factor": lambda m: plateau(m, [], factor=1.5),
    "plateau-bad-mode": lambda m: plateau(m, [], mode="up"),
    "plateau-state-dict": lambda m: (lambda s: s.state_dict())(
        m.optim.lr_scheduler.ReduceLROnPlateau(optimizer(m))),
    "warns-step-before-optimizer": caught(step_before_optimizer),
    "warns-epoch-argument": caught(step_with_epoch),
    "warns-get-lr-outside-step": caught(get_lr_outside_step),
    "no-warning-in-order": caught(lambda m: schedule(lambda s, o: s.StepLR(o, 1), 3)(m)),
    "state-dict-step": lambda m: state_dict(m, lambda s, o: s.StepLR(o, 2, gamma=0.5)),
    "state-dict-multistep": lambda m: state_dict(m, lambda s, o: s.MultiStepLR(o, [1, 3])),
    "state-dict-cosine": lambda m: state_dict(m, lambda s, o: s.CosineAnnealingLR(o, 4)),
    "state-dict-lambda": lambda m: state_dict(m, lambda s, o: s.LambdaLR(o, half_pow)),
    "resume": resumed,
    "initial-lr-in-groups": lambda m: (lambda o: [m.optim.lr_scheduler.StepLR(o, 2),
                                                  o.param_groups[0]["initial_lr"]][1])(
        optimizer(m, (0.25,))),
    "not-an-optimizer": lambda m: m.optim.lr_scheduler.StepLR(object(), 2),
    "resume-without-initial-lr": lambda m: m.optim.lr_scheduler.StepLR(optimizer(m), 2,
                                                                       last_epoch=3),
    "lambda-count-mismatch": lambda m: m.optim.lr_scheduler.LambdaLR(optimizer(m), [half_pow] * 2),
}


@pytest.mark.parametrize("name", list(CASES))
def test_matches_torch(oracle, name):
    check(oracle, CASES[name])


def test_cosine_follows_its_closed_form():
    opt = optimizer(minigrad)
    sched = minigrad.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=10, eta_min=0.01)
    for epoch in range(1, 11):
        opt.step()
        sched.step()
        expected = 0.01 + (0.1 - 0.01) * (1 + math.cos(math.pi * epoch / 10)) / 2
        assert sched.get_last_lr()[0] == pytest.approx(expected, rel=1e-12)
