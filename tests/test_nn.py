"""nn: Parameter, Module registration and traversal, state_dict, layers, init; parity with torch."""

import math
import warnings

import numpy as np
import pytest
from oracle import plain
from parity_expr import agree
from parity_programs import check

import minigrad
from minigrad import nn
from minigrad.autograd import observe


def graph_names(fn):
    """The graph below ``fn`` as nested (class name, children), comparable across libraries."""
    if fn is None:
        return None
    return (type(fn).__name__, tuple(graph_names(f) for f, _ in fn.next_functions))


def copy_params(src, dst, torch):
    """Give the torch module ``dst`` the parameters and buffers of the minigrad module ``src``."""
    with torch.no_grad():
        for t, m in zip(dst.state_dict(keep_vars=True).values(), src.state_dict().values()):
            t.copy_(torch.from_numpy(np.array(m.numpy())))


def make_net(lib):
    """The same model class written against either library."""

    class Net(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = lib.nn.Linear(2, 4)
            self.scale = lib.nn.Parameter(lib.ones(4))
            self.body = lib.nn.Sequential(lib.nn.ReLU(), lib.nn.BatchNorm1d(4),
                                          lib.nn.Linear(4, 3, bias=False))
            self.heads = lib.nn.ModuleList([lib.nn.Linear(3, 1) for _ in range(2)])

        def forward(self, x):
            h = self.body(self.fc1(x) * self.scale)
            return self.heads[0](h) + self.heads[1](h)

    return Net()


# ---------------------------------------------------------------------- Parameter
def test_parameter_is_a_leaf_that_requires_grad_and_prints_like_torch(torch):
    p = nn.Parameter(minigrad.tensor([1.0, 2.0]))
    assert p.is_leaf and p.requires_grad and p.grad_fn is None and p.grad is None
    assert isinstance(p, minigrad.Tensor)
    assert repr(p) == repr(torch.nn.Parameter(torch.tensor([1.0, 2.0])))
    assert repr(nn.Parameter(minigrad.ones(2), requires_grad=False)) == repr(
        torch.nn.Parameter(torch.ones(2), requires_grad=False))
    assert not isinstance(p * 2, nn.Parameter)


def test_parameter_shares_data_with_the_tensor_it_wraps():
    t = minigrad.zeros(2)
    p = nn.Parameter(t)
    t._data[0] = 5
    assert p[0].item() == 5


def test_parameter_of_integers_cannot_require_grad(oracle):
    def run(lib):
        with pytest.raises(RuntimeError) as info:
            lib.nn.Parameter(lib.tensor([1, 2]))
        return (str(info.value))
    messages = [plain(run(minigrad)), oracle(run)]
    assert messages[0] == messages[1]


# ---------------------------------------------------------------------- the seed example
def test_linear_then_l1_loss_like_the_classic_example(torch):
    lin = nn.Linear(3, 5)
    assert lin.weight.is_leaf and lin.weight.requires_grad and lin.weight.grad is None
    x = minigrad.rand(1, 3)
    y = lin(x)
    assert (y.is_leaf, y.requires_grad) == (False, True)
    assert y.grad_fn.name() == "AddmmBackward0"
    with pytest.raises(RuntimeError, match="you can only change requires_grad flags of leaf"):
        y.requires_grad = False
    gt = minigrad.rand(1, 5)
    loss = nn.L1Loss()(y, gt)
    t_lin = torch.nn.Linear(3, 5)
    copy_params(lin, t_lin, torch)
    t_loss = torch.nn.L1Loss()(t_lin(torch.tensor(x.numpy())), torch.tensor(gt.numpy()))
    assert graph_names(loss.grad_fn) == graph_names(t_loss.grad_fn)
    loss.backward()
    t_loss.backward()
    np.testing.assert_allclose(lin.weight.grad.numpy(), t_lin.weight.grad.numpy(), rtol=1e-6)
    assert x.grad is None and gt.grad is None and loss.grad_fn is not None
    with pytest.warns(UserWarning, match="is not a leaf Tensor"):
        assert y.grad is None


@pytest.mark.parametrize("shape", [(4, 3), (2, 5, 3), (3,)])
def test_linear_builds_torchs_graph_for_each_input_rank(torch, shape):
    lin, t_lin = nn.Linear(3, 2), torch.nn.Linear(3, 2)
    copy_params(lin, t_lin, torch)
    data = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    x = minigrad.tensor(data, requires_grad=True)
    tx = torch.tensor(data, requires_grad=True)
    y, ty = lin(x), t_lin(tx)
    assert graph_names(y.grad_fn) == graph_names(ty.grad_fn)
    np.testing.assert_allclose(y.detach().numpy(), ty.detach().numpy(), rtol=1e-5, atol=1e-6)
    y.sum().backward()
    ty.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), rtol=1e-5)
    np.testing.assert_allclose(lin.weight.grad.numpy(), t_lin.weight.grad.numpy(), rtol=1e-5)


def test_linear_without_bias_is_a_plain_mm(torch):
    y = nn.Linear(3, 2, bias=False)(minigrad.ones(4, 3))
    ty = torch.nn.Linear(3, 2, bias=False)(torch.ones(4, 3))
    assert graph_names(y.grad_fn) == graph_names(ty.grad_fn)


def test_linear_wrong_input_size_gives_torchs_error(torch):
    with pytest.raises(RuntimeError) as expected:
        torch.nn.Linear(3, 2)(torch.ones(2, 4))
    with pytest.raises(RuntimeError) as got:
        nn.Linear(3, 2)(minigrad.ones(2, 4))
    assert str(got.value) == str(expected.value)


def test_linear_default_init_stays_within_one_over_sqrt_fan_in():
    minigrad.manual_seed(0)
    lin = nn.Linear(400, 300)
    bound = 1 / math.sqrt(400)
    w, b = lin.weight.detach().numpy(), lin.bias.detach().numpy()
    assert np.abs(w).max() <= bound and np.abs(b).max() <= bound
    assert abs(w.var() - bound**2 / 3) < 0.05 * bound**2
    assert lin.weight.dtype == minigrad.float32
    assert nn.Linear(2, 2, dtype=minigrad.float64).weight.dtype == minigrad.float64


def test_manual_seed_makes_initialisation_repeatable():
    minigrad.manual_seed(3)
    a = nn.Linear(4, 4).weight.detach().numpy().copy()
    minigrad.manual_seed(3)
    assert np.array_equal(a, nn.Linear(4, 4).weight.detach().numpy())


# ---------------------------------------------------------------------- Module structure
def test_named_parameters_children_and_modules_match_torch(torch):
    net, t_net = make_net(minigrad), make_net(torch)
    assert [n for n, _ in net.named_parameters()] == [n for n, _ in t_net.named_parameters()]
    assert [n for n, _ in net.named_children()] == [n for n, _ in t_net.named_children()]
    assert [n for n, _ in net.named_modules()] == [n for n, _ in t_net.named_modules()]
    assert [type(m).__name__ for m in net.modules()] == [type(m).__name__
                                                         for m in t_net.modules()]
    assert [n for n, _ in net.named_buffers()] == [n for n, _ in t_net.named_buffers()]
    assert len(list(net.parameters(recurse=False))) == 1
    assert all(isinstance(p, nn.Parameter) for p in net.parameters())


def test_state_dict_keys_and_values_match_torch(torch):
    net, t_net = make_net(minigrad), make_net(torch)
    assert list(net.state_dict()) == list(t_net.state_dict())
    sd = net.state_dict()
    assert not sd["fc1.weight"].requires_grad
    assert sd["body.1.num_batches_tracked"].dtype == minigrad.int64
    assert net.state_dict(keep_vars=True)["fc1.weight"] is net.fc1.weight


def test_load_state_dict_copies_in_place():
    a, b = make_net(minigrad), make_net(minigrad)
    weight = b.fc1.weight
    result = b.load_state_dict(a.state_dict())
    assert repr(result) == "<All keys matched successfully>"
    assert b.fc1.weight is weight
    assert np.array_equal(weight.detach().numpy(), a.fc1.weight.detach().numpy())
    assert weight._version > 0


def _error_text(fn):
    with pytest.raises(RuntimeError) as info:
        fn()
    return str(info.value).replace("torch.Size", "Size").replace("minigrad.Size", "Size")


def test_load_state_dict_errors_match_torch(torch):
    sd = {"weight": np.zeros((2, 3), np.float32), "foo": np.zeros(1, np.float32)}
    mine = _error_text(lambda: nn.Linear(3, 5).load_state_dict(
        {k: minigrad.tensor(v) for k, v in sd.items()}))
    theirs = _error_text(lambda: torch.nn.Linear(3, 5).load_state_dict(
        {k: torch.tensor(v) for k, v in sd.items()}))
    assert mine == theirs
    result = nn.Linear(3, 5).load_state_dict({"weight": minigrad.zeros(5, 3)}, strict=False)
    t_result = torch.nn.Linear(3, 5).load_state_dict({"weight": torch.zeros(5, 3)},
                                                     strict=False)
    assert repr(result) == repr(t_result)
    assert result.missing_keys == ["bias"] and result.unexpected_keys == []


def test_repr_matches_torch(oracle):
    def build(lib):
        n = lib.nn
        return n.Sequential(
            n.Linear(2, 16), n.ReLU(), n.Dropout(0.1), n.BatchNorm1d(16, momentum=None),
            n.Embedding(3, 4, padding_idx=0), n.Softmax(dim=1), n.LogSoftmax(dim=1), n.Flatten(),
            n.Identity(), n.Tanh(), n.Sigmoid(), n.LeakyReLU(0.2),
            n.ModuleList([n.Linear(2, 2), n.Linear(2, 2), n.Linear(2, 2), n.ReLU()]),
            n.L1Loss(), n.MSELoss(), n.CrossEntropyLoss(), n.BCELoss(), n.BCEWithLogitsLoss(),
            n.Linear(3, 1, bias=False), n.BatchNorm1d(3, affine=False))

    assert plain(repr(build(minigrad))) == oracle(lambda torch: repr(build(torch)))
    assert plain(repr(make_net(minigrad))) == oracle(lambda torch: repr(make_net(torch)))


def test_train_and_eval_reach_every_submodule():
    net = make_net(minigrad)
    assert net.eval() is net
    assert not any(m.training for m in net.modules())
    net.train()
    assert all(m.training for m in net.modules())
    with pytest.raises(ValueError, match="training mode is expected to be boolean"):
        net.train("yes")


def test_zero_grad_sets_to_none_or_zeros():
    lin = nn.Linear(2, 1)
    lin(minigrad.ones(3, 2)).sum().backward()
    lin.zero_grad(set_to_none=False)
    assert np.all(lin.weight.grad.numpy() == 0)
    lin.zero_grad()
    assert lin.weight.grad is None and lin.bias.grad is None


def test_apply_and_requires_grad():
    net = make_net(minigrad)
    seen = []
    net.apply(lambda m: seen.append(type(m).__name__))
    assert seen[-1] == "Net" and seen[0] == "Linear"
    net.requires_grad_(False)
    assert not any(p.requires_grad for p in net.parameters())


def test_register_buffer_and_persistence():
    m = nn.Module()
    m.register_buffer("count", minigrad.tensor(0))
    m.register_buffer("scratch", minigrad.zeros(2), persistent=False)
    assert list(m.state_dict()) == ["count"]
    assert [n for n, _ in m.named_buffers()] == ["count", "scratch"]
    m.count = minigrad.tensor(5)
    assert m.state_dict()["count"].item() == 5


def test_assignment_errors_match_torch(oracle):
    def message(lib, fn):
        with pytest.raises(TypeError) as info:
            fn(lib)
        return str(info.value).replace("torch", "minigrad")

    def assign_tensor(lib):
        lin = lib.nn.Linear(2, 2)
        lin.weight = lib.zeros(2, 2)

    expected = oracle(lambda torch: message(torch, assign_tensor))
    assert plain(message(minigrad, assign_tensor)) == expected
    # a builtin's type is named bare, as torch.typename names it
    with pytest.raises(TypeError, match=r"^cannot assign 'int' as parameter 'weight' "):
        nn.Linear(2, 2).weight = 3
    with pytest.raises(AttributeError, match="'Linear' object has no attribute 'nope'"):
        nn.Linear(2, 2).nope  # noqa: B018


def test_assigning_none_and_deleting_attributes():
    lin = nn.Linear(2, 2)
    lin.bias = None
    assert [n for n, _ in lin.named_parameters()] == ["weight"]
    assert lin(minigrad.ones(1, 2)).grad_fn.name() == "MmBackward0"
    del lin.weight
    assert list(lin.parameters()) == []


def test_sequential_indexing_and_module_containers():
    seq = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
    assert isinstance(seq[0], nn.Linear) and isinstance(seq[-1], nn.Linear)
    assert len(seq[1:]) == 2 and [n for n, _ in seq[1:].named_children()] == ["1", "2"]
    assert len(seq) == 3 and isinstance(list(seq)[1], nn.ReLU)
    layers = nn.ModuleList([nn.Linear(2, 2)])
    layers.append(nn.Linear(2, 2))
    assert len(list(layers.parameters())) == 4
    heads = nn.ModuleDict({"a": nn.Linear(2, 1)})
    assert "a" in heads and [n for n, _ in heads.named_parameters()] == ["a.weight", "a.bias"]
    with pytest.raises(IndexError):
        seq[5]


def test_forward_missing_gives_torchs_error():
    with pytest.raises(NotImplementedError, match=r'Module \[Module\] is missing the required'):
        nn.Module()(1)


def test_forward_hooks_run_and_can_replace_values():
    lin = nn.Linear(2, 2)
    calls = []
    handle = lin.register_forward_pre_hook(lambda m, args: calls.append("pre"))
    lin.register_forward_hook(lambda m, args, out: out * 0)
    assert np.all(lin(minigrad.ones(1, 2)).detach().numpy() == 0) and calls == ["pre"]
    handle.remove()
    lin(minigrad.ones(1, 2))
    assert calls == ["pre"]


# ---------------------------------------------------------------------- names for the viewer
def test_display_names_are_qualified_and_follow_nesting():
    net = make_net(minigrad)
    assert net.fc1.weight._display_name == "fc1.weight"
    assert net.scale._display_name == "scale"
    assert net.body[2].weight._display_name == "body.2.weight"
    assert net.heads[1].bias._display_name == "heads.1.bias"
    assert net.body[1].running_mean._display_name == "body.1.running_mean"
    outer = nn.Sequential(net)
    assert net.fc1.weight._display_name == "0.fc1.weight"
    assert outer[0] is net
    lin = nn.Linear(2, 2)
    assert lin.weight._display_name == "weight"
    assert nn.Sequential(lin)[0].weight._display_name == "0.weight"


def test_outputs_remember_the_innermost_module_that_made_them():
    net = make_net(minigrad)
    out = net(minigrad.randn(5, 2))
    assert out._module_path == ""
    h = net.fc1(minigrad.ones(1, 2))
    assert h._module_path == "fc1"
    seq = nn.Sequential(nn.Linear(2, 2), nn.Tanh())
    assert seq(minigrad.ones(1, 2))._module_path == "1"


def test_module_calls_are_emitted_to_observers_only():
    events = []

    def observer(kind, **fields):
        if kind == "module_call":
            events.append((fields["name"], fields["phase"], fields["outputs"] is not None))

    seq = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
    seq(minigrad.ones(1, 2))
    observe.add_observer(observer)
    try:
        seq(minigrad.ones(1, 2))
    finally:
        observe.remove_observer(observer)
    assert events == [("Sequential", "enter", False), ("0", "enter", False),
                      ("0", "exit", True), ("1", "enter", False), ("1", "exit", True),
                      ("Sequential", "exit", True)]


# ---------------------------------------------------------------------- Dropout
def test_dropout_in_training_zeroes_about_p_and_rescales():
    minigrad.manual_seed(0)
    drop = nn.Dropout(p=0.3)
    x = minigrad.ones(100_000, requires_grad=True)
    y = drop(x)
    values = y.detach().numpy()
    assert abs((values == 0).mean() - 0.3) < 0.01
    np.testing.assert_allclose(values[values != 0], 1 / 0.7, rtol=1e-6)
    assert y.grad_fn.name() == "MulBackward0"
    assert y.grad_fn.next_functions[1] == (None, 0)
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), values)


def test_dropout_in_eval_mode_is_the_identity(torch):
    x = minigrad.ones(10, requires_grad=True)
    drop = nn.Dropout(0.5).eval()
    assert drop(x) is x
    assert nn.Dropout(0.0)(x) is x
    assert np.all(nn.Dropout(1.0)(x).detach().numpy() == 0)
    with pytest.raises(ValueError) as info:
        nn.Dropout(1.5)
    with pytest.raises(ValueError) as t_info:
        torch.nn.Dropout(1.5)
    assert str(info.value) == str(t_info.value)


# ---------------------------------------------------------------------- BatchNorm1d
@pytest.mark.parametrize("shape", [(8, 3), (4, 3, 5)])
@pytest.mark.parametrize("momentum", [0.1, None])
def test_batchnorm_train_then_eval_matches_torch(torch, shape, momentum):
    bn, t_bn = nn.BatchNorm1d(3, momentum=momentum), torch.nn.BatchNorm1d(3, momentum=momentum)
    rng = np.random.default_rng(0)
    with minigrad.no_grad():
        bn.weight._data[...] = rng.uniform(0.5, 1.5, 3)
        bn.bias._data[...] = rng.uniform(-1, 1, 3)
    copy_params(bn, t_bn, torch)
    for step in range(3):
        data = (rng.standard_normal(shape) * 2 + step).astype(np.float32)
        x = minigrad.tensor(data, requires_grad=True)
        tx = torch.tensor(data, requires_grad=True)
        y, ty = bn(x), t_bn(tx)
        assert graph_names(y.grad_fn) == graph_names(ty.grad_fn)
        np.testing.assert_allclose(y.detach().numpy(), ty.detach().numpy(), rtol=1e-4,
                                   atol=1e-5)
        w = rng.standard_normal(shape).astype(np.float32)
        (y * minigrad.tensor(w)).sum().backward()
        (ty * torch.tensor(w)).sum().backward()
        np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), rtol=1e-4, atol=1e-5)
    for name in ("running_mean", "running_var", "num_batches_tracked", "weight", "bias"):
        np.testing.assert_allclose(bn.state_dict()[name].numpy(),
                                   t_bn.state_dict()[name].numpy(), rtol=1e-5)
    np.testing.assert_allclose(bn.weight.grad.numpy(), t_bn.weight.grad.numpy(), rtol=1e-4)
    np.testing.assert_allclose(bn.bias.grad.numpy(), t_bn.bias.grad.numpy(), rtol=1e-4)
    bn.eval()
    t_bn.eval()
    data = rng.standard_normal((1,) + shape[1:]).astype(np.float32)
    x, tx = minigrad.tensor(data, requires_grad=True), torch.tensor(data, requires_grad=True)
    y, ty = bn(x), t_bn(tx)
    np.testing.assert_allclose(y.detach().numpy(), ty.detach().numpy(), rtol=1e-5, atol=1e-6)
    y.sum().backward()
    ty.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), rtol=1e-5)


def test_batchnorm_eval_does_not_touch_running_stats():
    bn = nn.BatchNorm1d(2).eval()
    bn(minigrad.randn(4, 2))
    assert np.array_equal(bn.running_mean.numpy(), [0, 0])
    assert bn.num_batches_tracked.item() == 0


def test_batchnorm_without_affine_and_without_running_stats(torch):
    x = minigrad.randn(6, 3, requires_grad=True)
    y = nn.BatchNorm1d(3, affine=False)(x)
    ty = torch.nn.BatchNorm1d(3, affine=False)(torch.tensor(x.detach().numpy(),
                                                             requires_grad=True))
    assert graph_names(y.grad_fn) == graph_names(ty.grad_fn)
    bn = nn.BatchNorm1d(3, track_running_stats=False).eval()
    t_bn = torch.nn.BatchNorm1d(3, track_running_stats=False).eval()
    assert list(bn.state_dict()) == list(t_bn.state_dict())
    np.testing.assert_allclose(bn(x).detach().numpy(),
                               t_bn(torch.tensor(x.detach().numpy())).detach().numpy(),
                               rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("shape,kwargs", [((1, 3), {}), ((3,), {}), ((4, 4), {}),
                                          ((4, 4), {"track_running_stats": False})])
def test_batchnorm_errors_match_torch(torch, shape, kwargs):
    with pytest.raises(Exception) as info:
        nn.BatchNorm1d(3, **kwargs)(minigrad.ones(*shape))
    with pytest.raises(Exception) as t_info:
        torch.nn.BatchNorm1d(3, **kwargs)(torch.ones(*shape))
    assert type(info.value) is type(t_info.value)
    assert str(info.value).replace("minigrad", "torch") == str(t_info.value)


def test_batchnorm_gradients_pass_gradcheck_and_gradgradcheck():
    bn = nn.BatchNorm1d(3).double()
    x = minigrad.randn(5, 3, dtype=minigrad.float64, requires_grad=True)

    def f(x, w, b):
        return nn.functional.batch_norm(x, None, None, w, b, training=True)

    inputs = (x, bn.weight, bn.bias)
    assert minigrad.autograd.gradcheck(f, inputs)
    assert minigrad.autograd.gradgradcheck(f, inputs)


# ---------------------------------------------------------------------- Embedding
def test_embedding_matches_torch_with_repeats_and_padding(torch):
    emb = nn.Embedding(5, 3, padding_idx=1)
    t_emb = torch.nn.Embedding(5, 3, padding_idx=1)
    copy_params(emb, t_emb, torch)
    assert np.all(emb.weight.detach().numpy()[1] == 0)
    idx = [[0, 1, 4], [4, 4, 2]]
    y, ty = emb(minigrad.tensor(idx)), t_emb(torch.tensor(idx))
    assert graph_names(y.grad_fn) == graph_names(ty.grad_fn)
    np.testing.assert_array_equal(y.detach().numpy(), ty.detach().numpy())
    w = np.arange(18, dtype=np.float32).reshape(2, 3, 3)
    (y * minigrad.tensor(w)).sum().backward()
    (ty * torch.tensor(w)).sum().backward()
    np.testing.assert_array_equal(emb.weight.grad.numpy(), t_emb.weight.grad.numpy())


def test_embedding_errors_match_torch(oracle):
    def message(lib, error, idx):
        with pytest.raises(error) as info:
            lib.nn.functional.embedding(lib.tensor(idx), lib.rand(3, 4))
        return str(info.value).replace("torch", "minigrad")

    expected = oracle(lambda torch: message(torch, IndexError, [5]))
    assert plain(message(minigrad, IndexError, [5])) == expected
    expected = oracle(lambda torch: message(torch, RuntimeError, [1.0]))
    assert plain(message(minigrad, RuntimeError, [1.0])) == expected


def test_embedding_backward_is_differentiable_again():
    weight = minigrad.randn(4, 2, dtype=minigrad.float64, requires_grad=True)
    idx = minigrad.tensor([0, 3, 3])
    assert minigrad.autograd.gradgradcheck(
        lambda w: nn.functional.embedding(idx, w), (weight,))


# ---------------------------------------------------------------------- activations
@pytest.mark.parametrize("name,args", [("ReLU", ()), ("Tanh", ()), ("Sigmoid", ()),
                                       ("Softmax", (1,)), ("LogSoftmax", (1,)),
                                       ("LeakyReLU", (0.2,)), ("Identity", ()),
                                       ("Flatten", (0,)), ("SiLU", ()), ("Softplus", ()),
                                       ("Softplus", (2, 1)), ("Mish", ()), ("GELU", ()),
                                       ("GELU", ("tanh",)), ("Unflatten", (1, (2, 2)))])
def test_activation_layers_match_torch(torch, name, args):
    data = np.random.default_rng(1).standard_normal((3, 4))
    x = minigrad.tensor(data, requires_grad=True)
    tx = torch.tensor(data, requires_grad=True)
    y, ty = getattr(nn, name)(*args)(x), getattr(torch.nn, name)(*args)(tx)
    np.testing.assert_allclose(y.detach().numpy(), ty.detach().numpy(), rtol=1e-10)
    if name == "Identity":
        return
    assert graph_names(y.grad_fn) == graph_names(ty.grad_fn)
    w = np.random.default_rng(2).standard_normal(y.shape)
    (y * minigrad.tensor(w, dtype=minigrad.float64)).sum().backward()
    (ty * torch.tensor(w)).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), rtol=1e-10)


SILU_SOFTPLUS = {
    "silu-repr": "repr(T.nn.SiLU()) + repr(T.nn.SiLU(inplace=True))",
    "softplus-repr": "repr(T.nn.Softplus()) + repr(T.nn.Softplus(beta=2, threshold=5))",
    "silu-long": "T.nn.functional.silu(T.tensor([1, 2]))",
    "silu-bool": "T.nn.functional.silu(T.tensor([True]))",
    "softplus-long": "T.nn.functional.softplus(T.tensor([1, 2]))",
    "softplus-large": "T.nn.functional.softplus(T.tensor([-100.0, 0.0, 19.0, 21.0, 1000.0]))",
    "softplus-saved": "(lambda n: (n._saved_beta, n._saved_threshold))"
                      "(T.nn.functional.softplus(T.ones(2, requires_grad=True), 3, 4).grad_fn)",
    "silu-in-place": "(lambda x: (T.nn.functional.silu(x, inplace=True), x)[1])"
                     "(T.tensor([-1.0, 2.0]))",
    "silu-float16": "T.nn.functional.silu(T.tensor([-1.0, 2.0], dtype=T.float16))",
    "softplus-float16": "T.nn.functional.softplus(T.tensor([-1.0, 2.0], dtype=T.float16))",
    "silu-not-a-tensor": "T.nn.functional.silu([1.0])",
    "relu-in-place": "(lambda h: (T.nn.functional.relu(h, inplace=True) is h, h, h._version))"
                     "(T.tensor([-1.0, 2.0], requires_grad=True) * 1)",
    "relu-module-in-place": "(lambda h: (T.nn.ReLU(inplace=True)(h) is h, h))"
                            "(T.tensor([-1.0, 2.0]))",
    "relu-in-place-leaf": "T.nn.functional.relu(T.tensor([1.0], requires_grad=True), True)",
    "leaky_relu-in-place": "(lambda h: (T.nn.functional.leaky_relu(h, 0.2, inplace=True) is h, h,"
                           " h._version, h.grad_fn._saved_result,"
                           " h.grad_fn._saved_negative_slope))"
                           "(T.tensor([-1.0, 0.0, 2.0], requires_grad=True) * 1)",
    "leaky_relu-in-place-grad": "(lambda x: (lambda h: (T.nn.functional.leaky_relu_(h, 0.2),"
                                " T.autograd.grad(h.sum(), x)))(x * 1))"
                                "(T.tensor([-1.0, 0.0, 2.0], requires_grad=True))",
    "leaky_relu-in-place-grad-grad": "(lambda x: (lambda h: T.autograd.grad(T.autograd.grad("
                                     "(T.nn.functional.leaky_relu_(h, 0.3) * h).sum(), x,"
                                     " create_graph=True)[0].sum(), x))(x * 1))"
                                     "(T.tensor([-1.0, 0.5, 2.0], requires_grad=True))",
    "leaky_relu-module-in-place": "(lambda h: (T.nn.LeakyReLU(0.5, inplace=True)(h) is h, h))"
                                  "(T.tensor([-1.0, 2.0]))",
    "leaky_relu-in-place-leaf": "T.nn.functional.leaky_relu(T.ones(1, requires_grad=True),"
                                " inplace=True)",
    "leaky_relu-in-place-negative-slope": "(lambda x: T.autograd.grad(T.nn.functional.leaky_relu("
                                          "x * 1, -0.1, inplace=True).sum(), x))"
                                          "(T.ones(2, requires_grad=True))",
    "leaky_relu-in-place-view": "(lambda b: (T.nn.functional.leaky_relu_(b[1], 0.5), b))"
                                "(T.tensor([[-1.0, 2.0], [-4.0, 3.0]], requires_grad=True) * 1)",
    "leaky_relu-not-a-tensor": "T.nn.functional.leaky_relu([1.0])",
}


@pytest.mark.parametrize("src", SILU_SOFTPLUS.values(), ids=SILU_SOFTPLUS.keys())
def test_silu_and_softplus_match_torch(oracle, src):
    agree(oracle, src, rtol=1e-6)


MISH_UNFLATTEN = {
    "mish-repr": "repr(T.nn.Mish()) + repr(T.nn.Mish(inplace=True))",
    "mish-values": "T.nn.functional.mish(T.tensor([100.0, -100.0, 20.0, -20.0, 0.5, -1.5]))",
    "mish-float16": "T.nn.functional.mish(T.tensor([-1.0, 2.0], dtype=T.float16))",
    "mish-long": "T.nn.functional.mish(T.tensor([1, 2]))",
    "mish-grad-grad": "(lambda x: (lambda g: (g, T.autograd.grad(g.sum(), x)))(T.autograd.grad("
                      "T.nn.functional.mish(x).sum(), x, create_graph=True)[0]))"
                      "(T.tensor([-2.0, -0.5, 0.0, 1.5, 3.0], dtype=T.float64,"
                      " requires_grad=True))",
    "mish-in-place": "(lambda h: (T.nn.functional.mish(h, inplace=True) is h, h))"
                     "(T.tensor([-1.0, 2.0], requires_grad=True) * 1)",
    "mish-module-in-place": "(lambda h: (T.nn.Mish(True)(h) is h, h))(T.tensor([-1.0, 2.0]))",
    "unflatten-repr": "repr(T.nn.Unflatten(1, (2, 5))) + repr(T.nn.Unflatten(-1, [2, 5]))",
    "unflatten": "T.nn.Unflatten(-1, (2, -1))(T.arange(12.0, requires_grad=True).reshape(2, 6))",
    "unflatten-bad": "T.nn.Unflatten(1, (4, 2))(T.ones(2, 6))",
}


@pytest.mark.parametrize("src", MISH_UNFLATTEN.values(), ids=MISH_UNFLATTEN.keys())
def test_mish_and_unflatten_match_torch(oracle, src):
    agree(oracle, src, rtol=1e-6)


def test_softmax_without_dim_warns_like_torch(torch):
    with pytest.warns(UserWarning, match="Implicit dimension choice for softmax"):
        y = nn.Softmax()(minigrad.zeros(2, 4))
    np.testing.assert_allclose(y.numpy(), 0.25)


# ---------------------------------------------------------------------- init
def test_calculate_gain_matches_torch(torch):
    for args in [("linear",), ("sigmoid",), ("tanh",), ("relu",), ("leaky_relu",),
                 ("leaky_relu", 0.2), ("selu",), ("conv2d",)]:
        assert nn.init.calculate_gain(*args) == torch.nn.init.calculate_gain(*args)
    with pytest.raises(ValueError, match="Unsupported nonlinearity foo"):
        nn.init.calculate_gain("foo")


@pytest.mark.parametrize("fn,kwargs,expected_std,bound", [
    ("kaiming_uniform_", {}, math.sqrt(2 / 1.0001) / math.sqrt(200), None),
    ("kaiming_uniform_", {"nonlinearity": "relu"}, math.sqrt(2 / 200), math.sqrt(6 / 200)),
    ("kaiming_uniform_", {"a": math.sqrt(5)}, 1 / math.sqrt(3 * 200), 1 / math.sqrt(200)),
    ("kaiming_normal_", {"mode": "fan_out", "nonlinearity": "relu"}, math.sqrt(2 / 300), None),
    ("xavier_uniform_", {}, math.sqrt(2 / 500), math.sqrt(6 / 500)),
    ("xavier_normal_", {"gain": 2.0}, 2 * math.sqrt(2 / 500), None),
    ("normal_", {"std": 0.5}, 0.5, None),
    ("uniform_", {"a": -2.0, "b": 2.0}, 4 / math.sqrt(12), 2.0),
])
def test_init_statistics(fn, kwargs, expected_std, bound):
    minigrad.manual_seed(0)
    w = minigrad.empty(300, 200)
    version = w._version
    assert getattr(nn.init, fn)(w, **kwargs) is w
    values = w.numpy()
    assert abs(values.std() - expected_std) < 0.02 * expected_std
    if bound is not None:
        assert np.abs(values).max() <= bound
    assert w._version == version + 1


def test_init_works_on_parameters_without_recording():
    p = nn.Parameter(minigrad.empty(3, 4))
    nn.init.constant_(p, 0.5)
    assert p.grad_fn is None and p.is_leaf and np.all(p.detach().numpy() == 0.5)
    nn.init.zeros_(p)
    nn.init.ones_(p)
    nn.init.eye_(p)
    assert np.array_equal(p.detach().numpy(), np.eye(3, 4))
    with pytest.raises(ValueError, match="Fan in and fan out can not be computed"):
        nn.init.xavier_uniform_(minigrad.empty(3))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        nn.init.trunc_normal_(p, std=1.0, a=-0.5, b=0.5)
    assert np.abs(p.detach().numpy()).max() <= 0.5


def test_module_dtype_conversion():
    net = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2)).double()
    assert all(p.dtype == minigrad.float64 for p in net.parameters())
    assert net[1].running_mean.dtype == minigrad.float64
    assert net[1].num_batches_tracked.dtype == minigrad.int64
    assert net(minigrad.ones(3, 2, dtype=minigrad.float64)).dtype == minigrad.float64


# ---------------------------------------------------------------------- docstring examples
def _doc_modules():
    import importlib
    import pkgutil

    import minigrad.nn
    import minigrad.optim

    names = ["minigrad.nn", "minigrad.optim"]
    for package in (minigrad.nn, minigrad.optim, minigrad.nn._functions):
        names += [m.name for m in pkgutil.iter_modules(package.__path__, package.__name__ + ".")]
    return [importlib.import_module(name) for name in sorted(set(names))]


@pytest.mark.parametrize("module", _doc_modules(), ids=lambda m: m.__name__)
def test_docstring_examples_run(module):
    import doctest

    minigrad.manual_seed(0)
    globs = dict(vars(module), minigrad=minigrad, nn=nn, optim=minigrad.optim, F=nn.functional)
    finder, runner = doctest.DocTestFinder(), doctest.DocTestRunner(
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for test in finder.find(module, module.__name__, globs=globs):
        runner.run(test)
    assert runner.failures == 0


def test_module_scopes_group_nodes_by_module_call():
    from minigrad.nn._tracking import ModuleScopes

    net = make_net(minigrad)
    with ModuleScopes() as scopes:
        out = net(minigrad.randn(5, 2))
    assert scopes.of(out.grad_fn) == ("Net",)
    first_head = out.grad_fn.next_functions[0][0]
    assert scopes.of(first_head) == ("Net", "heads.0")
    assert scopes.of(first_head.next_functions[1][0]) == ("Net", "body", "body.2")



FUNCTIONAL_CASES = {  # found by the differential fuzzer
    "one_hot-int32": "T.nn.functional.one_hot(T.tensor([0, 2], dtype=T.int32), 3)",
    "one_hot-empty-infer": "T.nn.functional.one_hot(T.zeros(0, dtype=T.long), -1)",
    "one_hot-empty": "T.nn.functional.one_hot(T.zeros(0, 3, dtype=T.long), 3)",
    "one_hot-negative": "T.nn.functional.one_hot(T.tensor([-1, 2]), 3)",
    "one_hot-too-big": "T.nn.functional.one_hot(T.tensor([0, 3]), 3)",
    "one_hot-float": "T.nn.functional.one_hot(T.tensor(1.0), 3)",
    "one_hot-infer": "T.nn.functional.one_hot(T.tensor([0, 2]), -1)",
    "linear-0d": "T.nn.functional.linear(T.tensor(1.0), T.tensor(1.0))",
    "linear-1d-weight": "T.nn.functional.linear(T.ones(2, 3, requires_grad=True), T.ones(3))",
}


@pytest.mark.parametrize("src", FUNCTIONAL_CASES.values(), ids=FUNCTIONAL_CASES.keys())
def test_functional_edge_matches_torch(oracle, src):
    agree(oracle, src)


LINEAR = [  # PyTorch's paths: addmm for a matrix, one addmm on the rows of a contiguous input
    # with a 1-D (or row) bias, else matmul then add_; bool has no kernel
    "F.linear(T.ones(3, requires_grad=True), T.ones(4, 3), T.ones(4))",
    "F.linear(T.ones(3, requires_grad=True), T.ones(4, 3), T.ones(1, 4))",
    "F.linear(T.ones(3, requires_grad=True), T.ones(4, 3), T.tensor(1.0))",
    "F.linear(T.ones(2, 2, 3, requires_grad=True), T.ones(4, 3), T.ones(4))",
    "F.linear(T.ones(2, 2, 3, requires_grad=True), T.ones(4, 3), T.ones(2, 1, 4))",
    "F.linear(T.ones(2, 2, 3, requires_grad=True), T.ones(4, 3), T.ones(1, 1))",
    "F.linear(T.ones(2, 2, 3, requires_grad=True), T.ones(4, 3), T.tensor(1.0))",
    "F.linear(T.ones(2, 2, 2, 3, requires_grad=True), T.ones(4, 3), T.ones(4))",
    "F.linear(T.ones(3, 2, 2, requires_grad=True).movedim(0, -1), T.ones(4, 3), T.ones(4))",
    "F.linear(T.ones(3, requires_grad=True), T.ones(3), T.tensor(1.0))",
    "F.linear(T.ones(3), T.ones(3), T.ones(1))", "F.linear(T.ones(2, 3), T.ones(3), T.tensor(1.0))",
    "F.linear(T.tensor([[True]]), T.tensor([[True]]))",
    "F.linear(T.tensor([[True]]), T.tensor([[True]]), T.tensor([True]))",
    "F.linear(T.tensor([True]), T.tensor([[True]]))",
    "F.linear(T.tensor([True]), T.tensor([True]))",
    "F.linear(T.tensor([[True]]), T.tensor([[True]]), T.tensor([1.0]))",
    "F.linear(T.tensor([[1]]), T.tensor([[1]]), T.tensor([1]))",
    "F.linear(T.ones(2, 0, dtype=T.bool), T.ones(4, 0, dtype=T.bool))",
]


@pytest.mark.parametrize("src", LINEAR)
def test_linear_matches_torch(oracle, src):
    agree(oracle, src.replace("F.", "T.nn.functional."))


def _leaky_relu_large(torch):
    # leaky_relu and its backward in three float dtypes: s·x of a float16 tensor is computed in
    # float32 and rounded, as PyTorch does; infs, NaNs and signed zeros come out as in PyTorch.
    out = []
    for dtype in (torch.float16, torch.float32, torch.float64):
        x = torch.tensor([-1.5, 0.0, 2.0, -0.0, float("inf"), float("-inf")] * 500, dtype=dtype)
        x[7] = float("nan")
        x.requires_grad_()
        g = torch.tensor([0.5, -2.0, 1.25, -0.0, 3.0] * 600, dtype=dtype)
        g[0], g[1], g[2], g[4] = float("inf"), float("nan"), float("-inf"), -float("inf")
        y = torch.nn.functional.leaky_relu(x, 0.2)
        (grad,) = torch.autograd.grad(y, x, g)
        for t in (y, grad):
            out.append([t[:12], t[-6:], (t > 0).sum(), (t < 0).sum(), t.isnan().sum(),
                        t.isinf().sum(), t.signbit().sum()])
    return out


def test_leaky_relu_on_a_large_tensor_matches_torch(oracle):
    check(_leaky_relu_large, oracle)
