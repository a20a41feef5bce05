"""``nn.DataParallel`` as PyTorch has it on a CPU-only machine: a pass-through module."""

import pytest
from parity_check import check

import minigrad


def wrapped(m):
    m.manual_seed(0)
    net = m.nn.Linear(2, 1)
    with m.no_grad():
        net.weight.copy_(m.tensor([[0.5, -1.0]]))
        net.bias.fill_(0.25)
    return m.nn.DataParallel(net)


CASES = {
    "repr": lambda m: repr(wrapped(m)),
    "state-dict-keys": lambda m: list(wrapped(m).state_dict()),
    "parameters": lambda m: [name for name, _ in wrapped(m).named_parameters()],
    "forward": lambda m: wrapped(m)(m.tensor([[1.0, 2.0], [3.0, 4.0]])),
    "device-ids": lambda m: m.nn.DataParallel(m.nn.Linear(1, 1), device_ids=[0]).device_ids,
    "module": lambda m: repr(wrapped(m).module),
    "same-class": lambda m: m.nn.parallel.DataParallel is m.nn.DataParallel,
    "backward": lambda m: (lambda net: [net(m.ones(1, 2)).sum().backward(),
                                        net.module.weight.grad][1])(wrapped(m)),
}


@pytest.mark.parametrize("name", list(CASES))
def test_matches_torch(oracle, name):
    check(oracle, CASES[name])


def test_loads_a_checkpoint_saved_without_the_wrapper():
    plain = minigrad.nn.Linear(2, 1)
    model = minigrad.nn.DataParallel(minigrad.nn.Linear(2, 1))
    model.module.load_state_dict(plain.state_dict())
    assert model.module.weight.tolist() == plain.weight.tolist()
