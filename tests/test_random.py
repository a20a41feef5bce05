"""minigrad.random: after the same seed, every sampler draws PyTorch's values, bit for bit.

Each sweep seeds 21 times (0-20) and then draws tensors of 1, 2, 3, 15, 16, 17, 31, 100 and
1000 elements one after the other (so the normal sampler's paths on both sides of 16 elements
and its cached second value are all exercised). The exact values of the first three draws and
a sha256 of the bytes of all of them are compared with PyTorch's.
"""

import hashlib
import math

import numpy as np
import pytest
from oracle import assert_matches

import minigrad

SIZES = (1, 2, 3, 15, 16, 17, 31, 100, 1000)
SEEDS = range(21)
FLOATS = ("float32", "float64")


def _array(t):
    return np.ascontiguousarray(t.detach().numpy())


def _fingerprint(arrays):
    """Exact values of the first three arrays (the small ones) and a hash of all the bytes."""
    digest = hashlib.sha256(b"".join(a.tobytes() for a in arrays)).hexdigest()[:32]
    return {"sha256": digest, "dtype": str(arrays[0].dtype),
            "first": [a.tolist() for a in arrays[:3] if a.size <= 32]}


def _sweep(lib, draw, dtype_name):
    dtype = getattr(lib, dtype_name)
    rows = []
    for seed in SEEDS:
        lib.manual_seed(seed)
        rows.append(_fingerprint([_array(draw(lib, n, dtype)) for n in SIZES]))
    return rows


DRAWS = {
    "rand": (lambda lib, n, dt: lib.rand(n, dtype=dt), FLOATS),
    "randn": (lambda lib, n, dt: lib.randn(n, dtype=dt), FLOATS),
    "randn_2d": (lambda lib, n, dt: lib.randn(2, n, dtype=dt), FLOATS),
    "normal_": (lambda lib, n, dt: lib.empty(n, dtype=dt).normal_(0.5, 2.5), FLOATS),
    "normal": (lambda lib, n, dt: lib.normal(-1.0, 0.25, size=(n,), dtype=dt), FLOATS),
    "uniform_": (lambda lib, n, dt: lib.empty(n, dtype=dt).uniform_(-0.3, 1.7), FLOATS),
    "exponential_": (lambda lib, n, dt: lib.empty(n, dtype=dt).exponential_(1.5), FLOATS),
    "cauchy_": (lambda lib, n, dt: lib.empty(n, dtype=dt).cauchy_(0.5, 2.0), FLOATS),
    "log_normal_": (lambda lib, n, dt: lib.empty(n, dtype=dt).log_normal_(0.1, 0.5), FLOATS),
    "geometric_": (lambda lib, n, dt: lib.empty(n, dtype=dt).geometric_(0.3),
                   FLOATS + ("int64",)),
    "bernoulli_": (lambda lib, n, dt: lib.empty(n, dtype=dt).bernoulli_(0.3),
                   FLOATS + ("int64", "bool")),
    "bernoulli": (lambda lib, n, dt: lib.bernoulli(lib.rand(n, dtype=dt)), FLOATS),
    "dropout": (lambda lib, n, dt: lib.nn.functional.dropout(lib.ones(n, dtype=dt), p=0.2),
                FLOATS),
    "randint": (lambda lib, n, dt: lib.randint(-5, 7, (n,), dtype=dt),
                ("int64", "int32", "float32", "float64")),
    "randint_2_28": (lambda lib, n, dt: lib.randint(2**28, (n,), dtype=dt), ("int64",)),
    "randint_wide": (lambda lib, n, dt: lib.randint(-2**40, 2**40, (n,), dtype=dt),
                     ("int64", "float64")),
    "randperm": (lambda lib, n, dt: lib.randperm(n, dtype=dt), ("int64", "float32")),
    "random_": (lambda lib, n, dt: lib.empty(n, dtype=dt).random_(),
                ("int64", "int32", "int16", "int8", "uint8", "bool", "float32", "float64")),
    "random_to": (lambda lib, n, dt: lib.empty(n, dtype=dt).random_(9), ("int64", "float32")),
    "random_from_to": (lambda lib, n, dt: lib.empty(n, dtype=dt).random_(-3, 9),
                       ("int64", "float64")),
    "rand_like": (lambda lib, n, dt: lib.rand_like(lib.zeros(n, dtype=dt)), FLOATS),
    "randn_like": (lambda lib, n, dt: lib.randn_like(lib.zeros(n, dtype=dt)), FLOATS),
    "randint_like": (lambda lib, n, dt: lib.randint_like(lib.zeros(n, dtype=dt), 3, 8),
                     ("int64", "float32")),
    "multinomial": (lambda lib, n, dt: lib.multinomial(lib.rand(n, dtype=dt), min(n, 3)),
                    FLOATS),
    "multinomial_replacement": (
        lambda lib, n, dt: lib.multinomial(lib.rand(2, n, dtype=dt), 5, replacement=True),
        FLOATS),
}
CASES = [(name, dtype) for name, (_, dtypes) in DRAWS.items() for dtype in dtypes]


@pytest.mark.parametrize("name,dtype", CASES, ids=[f"{n}-{d}" for n, d in CASES])
def test_draws_equal_pytorch_for_seeds_0_to_20(oracle, name, dtype):
    draw = DRAWS[name][0]
    expected = oracle(lambda torch: _sweep(torch, draw, dtype))
    assert _sweep(minigrad, draw, dtype) == expected


def test_normal_of_16_or_more_values_has_a_path_of_its_own():
    minigrad.manual_seed(0)
    blocks = minigrad.randn(16)
    minigrad.manual_seed(0)
    one_by_one = minigrad.cat([minigrad.randn(1) for _ in range(16)])
    assert not bool((blocks == one_by_one).all())  # the vectorised and the scalar path


def test_a_million_values_are_drawn(oracle):
    def draw(lib):
        lib.manual_seed(5)
        return [hashlib.sha256(_array(t).tobytes()).hexdigest() for t in
                (lib.rand(10**6), lib.randn(10**6), lib.randn(999_999, dtype=lib.float64),
                 lib.randint(0, 1000, (10**6,)), lib.rand(10**6, dtype=lib.float64),
                 lib.randperm(10**6), lib.empty(10**6).uniform_(-2, 3))]
    assert draw(minigrad) == oracle(draw)


# ---------------------------------------------------------------------------- nn parameters
def _linear_parameters(lib):
    rows = []
    for seed in SEEDS:
        lib.manual_seed(seed)
        layer = lib.nn.Linear(2, 3)
        rows.append([_array(layer.weight).tolist(), _array(layer.bias).tolist()])
    return rows


def test_linear_2_3_has_pytorchs_parameters_for_every_seed(oracle):
    assert _linear_parameters(minigrad) == oracle(_linear_parameters)


def _conv_like_parameters(lib, in_channels, out_channels, k):
    """A Conv2d's parameters drawn with nn.init as PyTorch's Conv2d draws them."""
    weight = lib.empty(out_channels, in_channels, k, k)
    lib.nn.init.kaiming_uniform_(weight, a=math.sqrt(5))
    bias = lib.empty(out_channels)
    bound = 1 / math.sqrt(in_channels * k * k)
    lib.nn.init.uniform_(bias, -bound, bound)
    return [weight, bias]


def _blitz_network(lib):
    """The 60-minute blitz's LeNet: its parameters, then its random input and target."""
    lib.manual_seed(0)
    if hasattr(lib.nn, "Conv2d"):
        convs = [p for m in (lib.nn.Conv2d(1, 6, 5), lib.nn.Conv2d(6, 16, 5))
                 for p in m.parameters()]
    else:  # NB: until minigrad has nn.Conv2d, the same draws through nn.init
        convs = _conv_like_parameters(lib, 1, 6, 5) + _conv_like_parameters(lib, 6, 16, 5)
    linears = [p for m in (lib.nn.Linear(400, 120), lib.nn.Linear(120, 84),
                           lib.nn.Linear(84, 10)) for p in m.parameters()]
    tensors = convs + linears + [lib.randn(1, 1, 32, 32), lib.randn(10)]
    return _fingerprint([_array(t) for t in tensors]) | {
        "fc3_bias": _array(linears[-1]).tolist(), "target": _array(tensors[-1]).tolist()}


def test_the_blitz_network_starts_from_pytorchs_parameters(oracle):
    assert _blitz_network(minigrad) == oracle(_blitz_network)


INITS = {
    "uniform_": lambda init, w: init.uniform_(w, -0.1, 0.1),
    "normal_": lambda init, w: init.normal_(w, std=0.02),
    "xavier_uniform_": lambda init, w: init.xavier_uniform_(w, gain=init.calculate_gain("tanh")),
    "xavier_normal_": lambda init, w: init.xavier_normal_(w),
    "kaiming_uniform_": lambda init, w: init.kaiming_uniform_(w, a=math.sqrt(5)),
    "kaiming_uniform_relu": lambda init, w: init.kaiming_uniform_(w, mode="fan_out",
                                                                  nonlinearity="relu"),
    "kaiming_normal_": lambda init, w: init.kaiming_normal_(w, nonlinearity="relu"),
    "trunc_normal_": lambda init, w: init.trunc_normal_(w, std=0.02),
    "trunc_normal_tail": lambda init, w: init.trunc_normal_(w, mean=0.0, std=1.0, a=1.5, b=3),
}


@pytest.mark.parametrize("name", INITS)
@pytest.mark.parametrize("dtype", FLOATS)
def test_init_functions_draw_pytorchs_values(oracle, name, dtype):
    def run(lib):
        arrays = []
        for seed in (0, 1, 2):
            lib.manual_seed(seed)
            for shape in ((3, 5), (6, 1, 5, 5), (120, 400), (17, 2)):
                w = lib.empty(*shape, dtype=getattr(lib, dtype))
                arrays.append(_array(INITS[name](lib.nn.init, w)))
        return _fingerprint(arrays)
    assert run(minigrad) == oracle(run)


def test_orthogonal_uses_pytorchs_samples(oracle):
    def run(lib):
        lib.manual_seed(0)
        return [_array(lib.nn.init.orthogonal_(lib.empty(*s), gain=2)).tolist()
                for s in ((3, 5), (5, 3), (2, 2, 2))] + [_array(lib.rand(2)).tolist()]
    assert np.allclose(np.concatenate([np.ravel(a) for a in run(minigrad)]),
                       np.concatenate([np.ravel(a) for a in oracle(run)]), rtol=0, atol=1e-6)


def test_embedding_and_batch_norm_parameters(oracle):
    def run(lib):
        lib.manual_seed(4)
        emb = lib.nn.Embedding(5, 3, padding_idx=2)
        bn = lib.nn.BatchNorm1d(3)
        return [_array(emb.weight).tolist(), _array(bn.weight).tolist(), _array(lib.rand(2))
                .tolist()]
    assert run(minigrad) == oracle(run)


def test_dropout_module_masks(oracle):
    def run(lib):
        lib.manual_seed(1)
        drop = lib.nn.Dropout(0.25)
        x = lib.ones(4, 5, dtype=lib.float64)
        out = [_array(drop(x)).tolist(), _array(drop(x.t())).tolist()]
        y = lib.ones(3) * 1  # a non-leaf, changed in place
        lib.nn.Dropout(0.5, inplace=True)(y)
        return out + [_array(y).tolist(), type(y.grad_fn).__name__
                      if y.grad_fn is not None else None]
    assert run(minigrad) == oracle(run)


# ---------------------------------------------------------------------------- generators, state
def _state_hashes(lib):
    hashes = []

    def snap(state):
        hashes.append(hashlib.sha256(_array(state).tobytes()).hexdigest()[:32])
    lib.manual_seed(3)
    snap(lib.get_rng_state())
    lib.randn(3)  # leaves a cached normal value
    snap(lib.get_rng_state())
    lib.rand(700)
    snap(lib.get_rng_state())
    lib.rand(547)  # 1248 words in all: the state twisted exactly twice
    snap(lib.get_rng_state())
    g = lib.Generator()
    snap(g.get_state())
    lib.manual_seed(-1)
    snap(lib.get_rng_state())
    return hashes + [lib.get_rng_state().shape[0], str(lib.get_rng_state().dtype)[-5:],
                     lib.initial_seed(), g.initial_seed()]


def test_rng_state_has_pytorchs_bytes(oracle):
    assert _state_hashes(minigrad) == oracle(_state_hashes)


def test_set_rng_state_restores_the_stream_and_the_cached_normal():
    minigrad.manual_seed(11)
    minigrad.randn(5)
    state = minigrad.get_rng_state()
    first = [minigrad.randn(3).tolist(), minigrad.rand(700).sum().item()]
    minigrad.rand(3)
    minigrad.set_rng_state(state)
    assert [minigrad.randn(3).tolist(), minigrad.rand(700).sum().item()] == first
    g = minigrad.Generator().set_state(state)
    assert g.initial_seed() == 11
    assert minigrad.randn(3, generator=g).tolist() == first[0]


def test_set_rng_state_rejects_bad_states(oracle):
    for key, bad in (("size", lambda lib: lib.zeros(10, dtype=lib.uint8)),
                     ("dtype", lambda lib: lib.zeros(5056)),
                     ("invalid", lambda lib: lib.zeros(5056, dtype=lib.uint8)),
                     ("list", lambda lib: [1, 2])):
        def run(lib, bad=bad):
            lib.set_rng_state(bad(lib))
        with pytest.raises(Exception) as info:
            run(minigrad)
        assert_matches(info.value, oracle(run, key=key))


def test_generators(oracle):
    def run(lib):
        g = lib.Generator()
        first = g.initial_seed()
        same = g.manual_seed(7) is g
        a = _array(lib.rand(3, generator=g)).tolist()
        lib.manual_seed(0)
        b = _array(lib.rand(3, generator=lib.Generator().manual_seed(7))).tolist()
        default = lib.manual_seed(5) is lib.default_generator
        return [first, same, a == b, a, default, str(g.device), lib.initial_seed()]
    assert run(minigrad) == oracle(run)


def test_manual_seed_bounds(oracle):
    for seed in (2**64 - 1, -2**63, 2**64, -2**63 - 1, 2.7):
        def run(lib, seed=seed):
            lib.manual_seed(seed)
            return [lib.initial_seed(), _array(lib.rand(2)).tolist()]
        try:
            got = run(minigrad)
        except Exception as exc:  # noqa: BLE001 - the error is compared with PyTorch's
            got = exc
        assert_matches(got, oracle(run, key=str(seed)))


def test_seed_and_fork_rng():
    s = minigrad.seed()
    assert minigrad.initial_seed() == s
    minigrad.manual_seed(0)
    expected = minigrad.rand(1, generator=minigrad.Generator().manual_seed(0)).tolist()
    with minigrad.random.fork_rng():
        minigrad.randn(100)
    assert minigrad.rand(1).tolist() == expected


def test_interleaved_draws_on_one_generator(oracle):
    def run(lib):
        g = lib.Generator().manual_seed(2)
        draws = [lib.rand(3, generator=g), lib.randn(5, generator=g),
                 lib.randint(0, 10, (4,), generator=g), lib.randn(1, generator=g),
                 lib.randn(20, generator=g), lib.empty(6).bernoulli_(0.5, generator=g),
                 lib.randperm(7, generator=g), lib.randn(3, dtype=lib.float64, generator=g),
                 lib.empty(2).uniform_(-1, 1, generator=g), lib.randn(2, generator=g),
                 lib.empty((), dtype=lib.int64).random_(generator=g),
                 lib.normal(lib.zeros(3), 1.0, generator=g),
                 lib.rand_like(lib.zeros(2), generator=g),
                 lib.randn_like(lib.zeros(2, dtype=lib.float64), generator=g),
                 lib.randint_like(lib.zeros(2), 5, generator=g),
                 lib.bernoulli(lib.full((3,), 0.5), generator=g),
                 lib.multinomial(lib.ones(4), 2, generator=g)]
        return [_array(t).tolist() for t in draws]
    assert run(minigrad) == oracle(run)


def test_dataloader_style_draws(oracle):
    def run(lib):
        out = []
        for seed in SEEDS:
            g = lib.Generator()
            g.manual_seed(seed)
            out.append([int(lib.empty((), dtype=lib.int64).random_(generator=g).item()),
                        _array(lib.randperm(10, generator=g)).tolist()])
        return out
    assert run(minigrad) == oracle(run)


def test_strided_tensors_are_filled_in_memory_order(oracle):
    def run(lib):
        lib.manual_seed(0)
        a = lib.empty(5, 4).t().normal_()
        b = lib.empty(6, 5)[:, 1:4].normal_()  # 18 values, strided: the one-by-one path
        c = lib.empty(4, 6, 3).permute(2, 0, 1).bernoulli_(0.5)
        d = lib.empty(3, 8).t().bernoulli_(lib.rand(8, 3))
        e = lib.empty(4, 5).t().uniform_(2, 3)
        return [_array(t).tolist() for t in (a, b, c, d, e)]
    assert run(minigrad) == oracle(run)


# ---------------------------------------------------------------------------- autograd, errors
SAMPLERS = {
    "normal_": lambda t: t.normal_(),
    "uniform_": lambda t: t.uniform_(),
    "bernoulli_": lambda t: t.bernoulli_(0.5),
    "bernoulli_tensor": lambda t: t.bernoulli_(t.detach() * 0 + 0.5),
    "random_": lambda t: t.random_(),
    "random_to": lambda t: t.random_(5),
    "random_from_to": lambda t: t.random_(0, 5),
    "exponential_": lambda t: t.exponential_(),
    "cauchy_": lambda t: t.cauchy_(),
    "log_normal_": lambda t: t.log_normal_(),
    "geometric_": lambda t: t.geometric_(0.5),
}


@pytest.mark.parametrize("name", SAMPLERS)
def test_sampling_in_place_records_a_zero_gradient(oracle, name):
    def run(lib):
        lib.manual_seed(0)
        x = lib.ones(3, requires_grad=True)
        y = x * 2
        SAMPLERS[name](y)
        (y * x).sum().backward()
        return [type(y.grad_fn).__name__, _array(x.grad).tolist()]
    assert run(minigrad) == oracle(run)


def test_normal_with_tensor_arguments(oracle):
    def run(lib):
        lib.manual_seed(0)
        mean = lib.ones(20, requires_grad=True)
        std = lib.full((20,), 2.0, requires_grad=True)
        out = [lib.normal(mean, 0.5), lib.normal(1.5, std), lib.normal(mean, std),
               lib.normal(lib.ones(3, 1), lib.full((5,), 0.5))]
        out[2].sum().backward()
        return [[_array(t).tolist(), type(t.grad_fn).__name__ if t.grad_fn else None]
                for t in out] + [_array(mean.grad).tolist()]
    assert run(minigrad) == oracle(run)


ERRORS = {
    "randperm_negative": lambda lib: lib.randperm(-1),
    "normal_std": lambda lib: lib.empty(3).normal_(0, -1),
    "normal_fn_std": lambda lib: lib.normal(0.0, -1.0, size=(2,)),
    "bernoulli_p": lambda lib: lib.empty(3).bernoulli_(1.5),
    "random_order": lambda lib: lib.empty(3).random_(5, 2),
    "uniform_order": lambda lib: lib.empty(3).uniform_(2, 1),
    "randint_order": lambda lib: lib.randint(5, 2, (3,)),
    "randn_int": lambda lib: lib.randn(3, dtype=lib.int64),
    "normal_int": lambda lib: lib.zeros(3, dtype=lib.int64).normal_(),
    "multinomial_negative": lambda lib: lib.multinomial(lib.tensor([0.5, -1.0]), 1),
    "multinomial_too_many": lambda lib: lib.multinomial(lib.tensor([0.5, 1.0]), 3),
    "multinomial_zero": lambda lib: lib.multinomial(lib.tensor([0.0, 0.0]), 1),
    "multinomial_3d": lambda lib: lib.multinomial(lib.ones(2, 2, 2), 1),
    "leaf": lambda lib: lib.ones(2, requires_grad=True).normal_(),
    "exponential_lambda": lambda lib: lib.empty(3).exponential_(0),
    "cauchy_sigma": lambda lib: lib.empty(3).cauchy_(0, -1),
    "log_normal_std": lambda lib: lib.empty(3).log_normal_(0, 0),
    "geometric_p": lambda lib: lib.empty(3).geometric_(1.5),
}


@pytest.mark.parametrize("name", ERRORS)
def test_misuse_raises_pytorchs_errors(oracle, name):
    with pytest.raises(Exception) as info:
        ERRORS[name](minigrad)
    assert_matches(info.value, oracle(ERRORS[name]))


# ---------------------------------------------------------------------------- the twister
def test_the_generator_is_the_standard_mt19937():
    # The C++ standard requires the 10000th output of mt19937 seeded with 5489 to be 4123659995.
    g = minigrad.Generator().manual_seed(5489)
    words = g._random(10000)
    assert words[0] == 3499211612 and words[-1] == 4123659995


def test_the_twist_equals_pythons_own_mersenne_twister():
    import random as stdlib_random
    g = minigrad.Generator().manual_seed(12345)
    g._random(100)  # somewhere inside a block
    state = g._bits.state["state"]
    python = stdlib_random.Random()
    python.setstate((3, tuple(int(w) for w in state["key"]) + (int(state["pos"]),), None))
    expected = [python.getrandbits(32) for _ in range(2000)]
    assert g._random(2000).tolist() == expected
