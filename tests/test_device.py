"""``minigrad.device``, ``device=`` arguments, ``.to()`` / ``.cpu()`` / ``.cuda()`` and the
CPU-only answers of ``cuda``, ``accelerator`` and ``backends``, against torch."""

import pytest
from parity_check import check

import minigrad

CASES = {
    # the device object
    "repr": lambda m: repr(m.device("cpu")),
    "repr-index": lambda m: repr(m.device("cpu", 0)),
    "repr-index-string": lambda m: repr(m.device("cpu:0")),
    "repr-cuda": lambda m: repr(m.device("cuda:1")),
    "str": lambda m: [str(m.device("cpu")), str(m.device("cpu:0")), f"{m.device('cpu')}"],
    "fields": lambda m: [m.device("cuda", 1).type, m.device("cuda", 1).index,
                         m.device("cpu").index],
    "equality": lambda m: [m.device("cpu") == m.device("cpu"), m.device("cpu") == "cpu",
                           m.device("cpu") == m.device("cpu:0"), m.device("cpu") != m.device("cpu"),
                           m.device("cpu") == 3],
    "hash": lambda m: hash(m.device("cpu")) == hash(m.device("cpu")),
    "of-device": lambda m: repr(m.device(m.device("cpu", 0))),
    "keywords": lambda m: repr(m.device(type="cpu", index=0)),
    "unknown-type": lambda m: m.device("xyz"),
    "unknown-type-with-index": lambda m: m.device("foo:1"),
    "bad-index-string": lambda m: m.device("cpu:x"),
    "leading-zero-index": lambda m: m.device("cpu:01"),
    "digits-in-type": lambda m: m.device("float64"),
    "empty-string": lambda m: m.device(""),
    "negative-index": lambda m: m.device("cpu", -1),
    "float": lambda m: m.device(3.5),
    "int-no-accelerator": lambda m: m.device(3),
    # tensors on the device
    "tensor-device": lambda m: repr(m.tensor([1.0]).device),
    "tensor-device-str": lambda m: str(m.zeros(2).device),
    "is-cuda": lambda m: m.ones(1).is_cuda,
    "to-device-object": lambda m: m.tensor([1.0, 2.0]).to(m.device("cpu")),
    "to-device-string-dtype": lambda m: m.tensor([1.0, 2.0]).to("cpu", m.float64),
    "to-device-keywords": lambda m: m.tensor([1.5, 2.0]).to(device="cpu", dtype=m.int64),
    "to-other-tensor": lambda m: m.tensor([1.0]).to(m.zeros(1, dtype=m.float64)),
    "to-grad": lambda m: m.tensor([1.0, 2.0], requires_grad=True).to("cpu", m.float64),
    "to-same-is-self": lambda m: [(lambda t: t.to("cpu") is t)(m.ones(2)),
                                  (lambda t: t.to(m.device("cpu")) is t)(m.ones(2)),
                                  (lambda t: t.to(t) is t)(m.ones(2)),
                                  (lambda t: t.cpu() is t)(m.ones(2))],
    "to-copy": lambda m: (lambda t: t.to("cpu", copy=True) is t)(m.ones(2)),
    "to-cuda": lambda m: m.ones(2).to("cuda"),
    "to-cuda-device": lambda m: m.ones(2).to(m.device("cuda", 0)),
    "to-mps": lambda m: m.ones(2).to("mps"),
    "to-unknown": lambda m: m.ones(2).to("foo"),
    "to-int-device": lambda m: m.ones(2).to(0),
    "cuda-method": lambda m: m.ones(2).cuda(),
    # factories
    "tensor-cpu": lambda m: m.tensor([1.0, 2.0], device="cpu"),
    "tensor-device-object": lambda m: m.tensor([1, 2], device=m.device("cpu")),
    "zeros-cpu": lambda m: m.zeros(2, 3, device="cpu"),
    "ones-cpu": lambda m: m.ones(2, device=m.device("cpu")),
    "empty-cpu": lambda m: m.empty(2, device="cpu").shape,
    "full-cpu": lambda m: m.full((2,), 3.0, device="cpu"),
    "arange-cpu": lambda m: m.arange(3, device="cpu"),
    "eye-cpu": lambda m: m.eye(2, device="cpu"),
    "linspace-cpu": lambda m: m.linspace(0, 1, 3, device="cpu"),
    "rand-cpu": lambda m: m.rand(2, device="cpu").shape,
    "randn-cpu": lambda m: m.randn(2, device="cpu").shape,
    "randint-cpu": lambda m: m.randint(0, 5, (2,), device="cpu").shape,
    "zeros-like-cpu": lambda m: m.zeros_like(m.ones(2), device="cpu"),
    "ones-like-cpu": lambda m: m.ones_like(m.ones(2), device="cpu"),
    "rand-like-cpu": lambda m: m.rand_like(m.ones(2), device="cpu").shape,
    "tensor-cuda": lambda m: m.tensor([1.0], device="cuda"),
    "zeros-cuda-index": lambda m: m.zeros(2, device="cuda:0"),
    "ones-cuda-device": lambda m: m.ones(2, device=m.device("cuda")),
    "arange-cuda": lambda m: m.arange(3, device="cuda"),
    "randn-cuda": lambda m: m.randn(3, device="cuda"),
    "tensor-mps": lambda m: m.tensor([1.0], device="mps"),
    "tensor-bad-device-type": lambda m: m.tensor([1.0], device=1.5),
    "zeros-unknown-device": lambda m: m.zeros(2, device="foo"),
    # modules
    "module-to-cpu": lambda m: (lambda net: net.to("cpu") is net)(m.nn.Linear(2, 2)),
    "module-to-device": lambda m: (lambda net: net.to(m.device("cpu")) is net)(m.nn.Linear(2, 2)),
    "module-to-device-dtype": lambda m: m.nn.Linear(2, 2).to("cpu", m.float64).weight.dtype,
    "module-cpu": lambda m: (lambda net: net.cpu() is net)(m.nn.Linear(2, 2)),
    "module-to-cuda": lambda m: m.nn.Linear(2, 2).to("cuda"),
    "module-cuda": lambda m: m.nn.Linear(2, 2).cuda(),
    "layer-device-cpu": lambda m: [m.nn.Linear(2, 3, device="cpu").weight.shape,
                                   m.nn.BatchNorm1d(2, device="cpu").running_mean,
                                   m.nn.Embedding(3, 2, device=m.device("cpu")).weight.shape],
    "linear-cuda": lambda m: m.nn.Linear(2, 3, device="cuda"),
    "batchnorm-cuda": lambda m: m.nn.BatchNorm1d(2, device="cuda"),
    "embedding-cuda": lambda m: m.nn.Embedding(3, 2, device="cuda:0"),
    "conv-cpu": lambda m: m.nn.Conv2d(1, 2, 3, device="cpu").weight.shape,
    "conv-cuda": lambda m: m.nn.Conv2d(1, 2, 3, device="cuda"),
    # CPU-only answers
    "cuda-is-available": lambda m: m.cuda.is_available(),
    "cuda-device-count": lambda m: m.cuda.device_count(),
    "cuda-current-device": lambda m: m.cuda.current_device(),
    "cuda-synchronize": lambda m: m.cuda.synchronize(),
    "cuda-manual-seed": lambda m: [m.cuda.manual_seed(0), m.cuda.manual_seed_all(0)],
    "accelerator": lambda m: [m.accelerator.is_available(), m.accelerator.device_count(),
                              m.accelerator.current_accelerator()],
    "mps": lambda m: [m.backends.mps.is_available(), m.backends.mps.is_built()],
    "cudnn": lambda m: [m.backends.cudnn.enabled, m.backends.cudnn.benchmark,
                        m.backends.cudnn.deterministic, m.backends.cudnn.is_available(),
                        m.backends.cudnn.version()],
    "constants": lambda m: [m.pi, m.e, m.inf, repr(m.nan), m.newaxis],
    "default-device": lambda m: repr(m.get_default_device()),
}


@pytest.mark.parametrize("name", list(CASES))
def test_matches_torch(oracle, name):
    check(oracle, CASES[name])


def _with_default(m, spec, make):
    m.set_default_device(spec)
    try:
        return make(m)
    finally:
        m.set_default_device(None)


DEFAULT_CASES = {
    "cpu": lambda m: _with_default(m, "cpu", lambda m: [repr(m.get_default_device()),
                                                         m.zeros(2)]),
    "cpu-device-object": lambda m: _with_default(m, m.device("cpu"),
                                                 lambda m: repr(m.get_default_device())),
    "cuda-fails-at-factory": lambda m: _with_default(m, "cuda", lambda m: m.zeros(2)),
    "unknown": lambda m: _with_default(m, "foo", lambda m: m.zeros(2)),
    "with-cpu-block": lambda m: _in_block(m, "cpu", lambda m: [m.zeros(1), repr(
        m.get_default_device())]),
    "with-cuda-block": lambda m: _in_block(m, "cuda", lambda m: m.zeros(1)),
    "after-cuda-block": lambda m: [_in_block(m, "cuda", lambda m: None), m.zeros(1)],
}


def _in_block(m, spec, make):
    with m.device(spec):
        return make(m)


@pytest.mark.parametrize("name", list(DEFAULT_CASES))
def test_default_device_matches_torch(oracle, name):
    check(oracle, DEFAULT_CASES[name])


def test_cudnn_flags_are_settable_attributes():
    cudnn = minigrad.backends.cudnn
    before = cudnn.benchmark
    cudnn.benchmark = True
    try:
        assert minigrad.backends.cudnn.benchmark is True
    finally:
        cudnn.benchmark = before


def test_device_is_immutable_and_pickles():
    import pickle
    d = minigrad.device("cpu", 0)
    with pytest.raises(AttributeError):
        d.type = "cuda"
    assert pickle.loads(pickle.dumps(d)) == d


def test_the_usual_device_idiom_runs():
    device = minigrad.device("cuda" if minigrad.cuda.is_available() else "cpu")
    net = minigrad.nn.Linear(3, 1).to(device)
    x = minigrad.randn(4, 3).to(device)
    net(x).sum().backward()
    assert net.weight.grad.device == device
