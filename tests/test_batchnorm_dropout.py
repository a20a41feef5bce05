"""nn.BatchNorm2d/3d (minigrad/nn/batchnorm.py) and the channel dropouts F.dropout1d/2d/3d,
nn.Dropout1d/2d/3d (minigrad/nn/functional.py, nn/dropout.py) against torch 2.13: values,
gradients, running statistics, eval mode, reprs, state_dict keys, errors and warnings, and
seeded masks equal to torch's."""

import warnings

import pytest
from oracle import assert_matches
from parity_expr import agree
from parity_programs import check, programs, run

import minigrad
from minigrad import nn
from minigrad.autograd import gradcheck

F = nn.functional


def _randn(torch, *shape, dtype=None, seed=0):
    torch.manual_seed(seed)
    return torch.randn(*shape, dtype=dtype or torch.float32)


def _chain(node):
    """The node names along the first edges, from ``node`` to the leaf."""
    names = []
    while node is not None:
        names.append(type(node).__name__)
        node = node.next_functions[0][0] if node.next_functions else None
    return names


# ---------------------------------------------------------------------- batch norm
def _train_steps(torch, module, shape, steps=3):
    """A few training steps of ``module`` (outputs, gradients, buffers), then eval."""
    torch.manual_seed(1)
    outs = []
    for _ in range(steps):
        x = torch.randn(*shape).requires_grad_()
        y = module(x)
        (y * torch.arange(float(y.numel())).view(y.shape)).sum().backward()
        outs.append([y, x.grad])
    grads = [p.grad for p in module.parameters()]
    buffers = [b.clone() for b in module.buffers()]
    module.eval()
    return [outs, grads, buffers, module(torch.randn(*shape))]


def case_batch_norm2d_training_and_eval(torch):
    return _train_steps(torch, torch.nn.BatchNorm2d(3), (4, 3, 2, 5))


def case_batch_norm2d_cumulative_momentum_no_affine(torch):
    return _train_steps(torch, torch.nn.BatchNorm2d(2, momentum=None, affine=False, eps=1e-3),
                        (3, 2, 3, 3))


def case_batch_norm2d_without_running_stats(torch):
    return _train_steps(torch, torch.nn.BatchNorm2d(3, track_running_stats=False), (2, 3, 2, 2))


def case_batch_norm3d_training_and_eval(torch):
    return _train_steps(torch, torch.nn.BatchNorm3d(2, momentum=0.3), (2, 2, 3, 2, 2))


def case_batch_norm3d_float64(torch):
    return _train_steps(torch, torch.nn.BatchNorm3d(2, dtype=torch.float64).float(),
                        (3, 2, 2, 2, 2), steps=2)


def case_batch_norm_node(torch):
    x = _randn(torch, 2, 3, 2, 2).requires_grad_()
    y = torch.nn.BatchNorm2d(3)(x)
    return [type(y.grad_fn).__name__,
            [None if f is None else type(f).__name__ for f, _ in y.grad_fn.next_functions]]


def case_batch_norm_reprs_and_state(torch):
    layers = [torch.nn.BatchNorm2d(3), torch.nn.BatchNorm3d(4, eps=1e-3, momentum=None),
              torch.nn.BatchNorm2d(2, affine=False), torch.nn.BatchNorm3d(2,
                                                                         track_running_stats=False)]
    return [[repr(m), list(m.state_dict()), [(n, p) for n, p in m.named_parameters()],
             [(n, b) for n, b in m.named_buffers()]] for m in layers]


def case_batch_norm_in_a_conv_net(torch):
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Conv2d(1, 4, 3), torch.nn.BatchNorm2d(4), torch.nn.ReLU(),
                              torch.nn.Flatten(), torch.nn.Linear(16, 1))
    x = torch.randn(3, 1, 4, 4)
    loss = net(x).pow(2).mean()
    loss.backward()
    return [loss, [p.grad for p in net.parameters()], net[1].running_mean, net[1].running_var,
            net[1].num_batches_tracked]


@pytest.mark.parametrize("prog", programs(globals(), "case_batch_norm"),
                         ids=lambda p: p.__name__)
def test_batch_norm_matches_torch(prog, oracle):
    # NB: an absolute tolerance too, for float32 input gradients that cancel to near 0
    expected = oracle(lambda torch: run(prog, torch))
    assert_matches(run(prog), expected, rtol=1e-5, atol=1e-5)


BATCH_NORM_ERRORS = {
    "2d-got-3d": "T.nn.BatchNorm2d(3)(T.ones(2, 3, 4))",
    "2d-got-5d": "T.nn.BatchNorm2d(3)(T.ones(2, 3, 4, 4, 4))",
    "3d-got-4d": "T.nn.BatchNorm3d(3)(T.ones(2, 3, 4, 4))",
    "3d-got-2d": "T.nn.BatchNorm3d(3).eval()(T.ones(2, 3))",
    "1d-got-4d": "T.nn.BatchNorm1d(3)(T.ones(2, 3, 4, 4))",
    "one-value-per-channel": "T.nn.BatchNorm2d(3)(T.ones(1, 3, 1, 1))",
    "one-value-eval-is-fine": "T.nn.BatchNorm2d(3).eval()(T.ones(1, 3, 1, 1))",
    "wrong-channels": "T.nn.BatchNorm2d(3)(T.ones(2, 4, 2, 2))",
    "cuda": "T.nn.BatchNorm3d(3, device='cuda')",
}


@pytest.mark.parametrize("src", BATCH_NORM_ERRORS.values(), ids=BATCH_NORM_ERRORS.keys())
def test_batch_norm_errors_match_torch(oracle, src):
    agree(oracle, src)


@pytest.mark.parametrize("module,shape", [(nn.BatchNorm2d, (3, 2, 2, 3)),
                                          (nn.BatchNorm3d, (2, 2, 2, 1, 3))])
@pytest.mark.parametrize("training", [True, False])
def test_batch_norm_passes_gradcheck(module, shape, training):
    bn = module(shape[1], dtype=minigrad.float64).train(training)
    minigrad.manual_seed(0)
    x = minigrad.randn(*shape, dtype=minigrad.float64, requires_grad=True)
    w = minigrad.randn(shape[1], dtype=minigrad.float64, requires_grad=True)
    b = minigrad.randn(shape[1], dtype=minigrad.float64, requires_grad=True)
    bn.running_var.fill_(2.0)

    def fn(x, w, b):
        return F.batch_norm(x, bn.running_mean.clone(), bn.running_var.clone(), w, b, training)
    assert gradcheck(fn, (x, w, b))


def test_batch_norm_classes_share_the_base():
    from minigrad.nn.batchnorm import _BatchNorm
    assert all(issubclass(c, _BatchNorm) for c in (nn.BatchNorm1d, nn.BatchNorm2d,
                                                   nn.BatchNorm3d))
    y = nn.BatchNorm2d(2)(minigrad.arange(16.0).view(2, 2, 2, 2)).detach()
    assert minigrad.allclose(y.mean((0, 2, 3)), minigrad.zeros(2), atol=1e-6)


# ---------------------------------------------------------------------- channel dropout
DROPOUT_SHAPES = {"dropout1d": [(4, 5, 3), (5, 3)], "dropout2d": [(3, 4, 2, 2), (4, 5, 3)],
                  "dropout3d": [(2, 3, 2, 2, 2), (6, 2, 2, 2)]}
DROPOUT_CASES = [(name, shape, dtype, p) for name, shapes in DROPOUT_SHAPES.items()
                 for shape in shapes for dtype in ("float32", "float64", "float16")
                 for p in (0.4, 0.75)]


def _seeded_dropout(torch, name, shape, dtype, p):
    torch.manual_seed(3)
    x = torch.randn(*shape, dtype=torch.float64).to(getattr(torch, dtype)).requires_grad_()
    y = getattr(torch.nn.functional, name)(x, p)
    y.backward(torch.ones_like(y))
    return [y, x.grad, _chain(y.grad_fn), torch.randn(2)]  # the generator's state after too


@pytest.mark.parametrize("case", DROPOUT_CASES, ids=lambda c: "-".join(map(str, c)))
def test_seeded_channel_dropout_matches_torch(oracle, case):
    check(lambda torch: _seeded_dropout(torch, *case), oracle, rtol=0.0)


def test_channel_dropout_zeroes_whole_channels_and_scales():
    minigrad.manual_seed(0)
    y = F.dropout2d(minigrad.ones(8, 16, 3, 3), p=0.25)
    per_channel = y.view(8, 16, 9)
    assert bool((per_channel.amax(-1) == per_channel.amin(-1)).all())
    scale = minigrad.tensor(1 / 0.75).item()  # in float32
    assert set(per_channel[..., 0].flatten().tolist()) == {0.0, scale}


def case_dropout_graph(torch):
    x = torch.ones(2, 3, 2, 2, requires_grad=True)
    y = torch.nn.functional.dropout2d(x, 0.5)
    return [_chain(y.grad_fn), [f is None for f, _ in y.grad_fn.next_functions]]


def case_dropout_eval_and_edge_probabilities(torch):
    F_ = torch.nn.functional
    x = torch.ones(2, 3, 4, requires_grad=True)
    unbatched = torch.ones(3, 4, requires_grad=True)
    return [F_.dropout1d(x, 0.5, training=False) is x, F_.dropout2d(x, 0.0) is x,
            F_.dropout3d(torch.ones(1, 2, 1, 1, 1), 0.5, False),
            F_.dropout1d(x, 1.0), _chain(F_.dropout1d(unbatched, 0.5, training=False).grad_fn),
            _chain(F_.dropout1d(unbatched, 1.0).grad_fn),
            F_.dropout3d(torch.ones(0, 2, 1, 1, 1), 0.5),
            F_.dropout2d(torch.ones(2, 3, 1, 1, dtype=torch.long), 1.0),
            F_.dropout2d(torch.ones(2, 3, 1, 1, dtype=torch.long), 0.0)]


def case_dropout_inplace(torch):
    torch.manual_seed(5)
    leaf = torch.randn(3, 4, 2, requires_grad=True)
    h = leaf * 2
    y = torch.nn.functional.dropout1d(h, 0.5, inplace=True)
    unbatched = leaf[0] * 1
    u = torch.nn.functional.dropout3d(unbatched.view(4, 2, 1, 1), 0.5, inplace=True)
    y.sum().backward()
    return [y is h, h._version, _chain(y.grad_fn), leaf.grad, _chain(u.grad_fn), u.shape,
            torch.randn(2)]


def case_dropout_modules(torch):
    torch.manual_seed(2)
    layers = [torch.nn.Dropout1d(0.2), torch.nn.Dropout2d(), torch.nn.Dropout3d(0.3, True)]
    x = [torch.randn(4, 3, 2), torch.randn(4, 3, 2, 2), torch.randn(2, 3, 2, 2, 2)]
    train = [m(t.clone()) for m, t in zip(layers, x)]
    evals = [m.eval()(t) is t for m, t in zip(layers, x)]
    return [[repr(m) for m in layers], [list(m.state_dict()) for m in layers], train, evals,
            repr(torch.nn.Sequential(torch.nn.Conv2d(1, 2, 3), torch.nn.Dropout2d(0.1)))]


@pytest.mark.parametrize("prog", programs(globals(), "case_dropout"), ids=lambda p: p.__name__)
def test_dropout_matches_torch(prog, oracle):
    check(prog, oracle, rtol=0.0)


DROPOUT_ERRORS = {
    "1d-got-1d": "T.nn.functional.dropout1d(T.ones(5))",
    "1d-got-4d-eval": "T.nn.functional.dropout1d(T.ones(2, 3, 4, 4), training=False)",
    "1d-p": "T.nn.functional.dropout1d(T.ones(2, 3), 1.5)",
    "2d-p": "T.nn.functional.dropout2d(T.ones(2, 3, 4, 4), -0.1)",
    "3d-p": "T.nn.functional.dropout3d(T.ones(2, 3, 4, 4), 2)",
    "module-p": "T.nn.Dropout2d(1.5)",
    "module-3d-p": "T.nn.Dropout3d(-1)",
    "2d-got-1d": "T.nn.functional.dropout2d(T.ones(2))",
    "2d-got-1d-eval": "T.nn.functional.dropout2d(T.ones(2), training=False)",
    "3d-got-1d-p1": "T.nn.functional.dropout3d(T.ones(2), 1.0)",
    "long": "T.nn.functional.dropout2d(T.ones(2, 3, 1, 1, dtype=T.long))",
    "bool": "T.nn.functional.dropout3d(T.ones(2, 3, 1, 1, 1, dtype=T.bool))",
    "long-plain-dropout": "T.nn.functional.dropout(T.ones(4, dtype=T.long))",
    "inplace-leaf": "T.nn.functional.dropout2d(T.ones(2, 3, 4, 4, requires_grad=True), "
                    "inplace=True)",
    "inplace-unbatched-leaf-eval": "T.nn.functional.dropout1d(T.ones(2, 3, requires_grad=True),"
                                   " training=False, inplace=True)",
}


@pytest.mark.parametrize("src", DROPOUT_ERRORS.values(), ids=DROPOUT_ERRORS.keys())
def test_dropout_errors_match_torch(oracle, src):
    agree(oracle, src)


def _warnings_of(torch, call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call(torch)
    return [list(result.shape), [[w.category.__name__, str(w.message)] for w in caught]]


WARNING_CALLS = {
    "2d-got-3d": lambda T: T.nn.functional.dropout2d(T.ones(2, 3, 4), 0.5),
    "2d-got-2d": lambda T: T.nn.functional.dropout2d(T.ones(2, 3), 0.5),
    "2d-got-5d-eval": lambda T: T.nn.functional.dropout2d(T.ones(2, 3, 1, 1, 1), 0.5, False),
    "2d-module-got-3d": lambda T: T.nn.Dropout2d()(T.ones(2, 3, 4)),
    "3d-got-3d": lambda T: T.nn.functional.dropout3d(T.ones(2, 3, 4), 0.5),
    "3d-got-6d": lambda T: T.nn.functional.dropout3d(T.ones(1, 2, 1, 1, 1, 1), 0.5),
    "2d-got-4d": lambda T: T.nn.functional.dropout2d(T.ones(1, 2, 3, 4), 0.5),
    "1d-got-2d": lambda T: T.nn.functional.dropout1d(T.ones(2, 3), 0.5),
}


@pytest.mark.parametrize("call", WARNING_CALLS.values(), ids=WARNING_CALLS.keys())
def test_dropout_warnings_match_torch(oracle, call):
    expected = oracle(lambda torch: _warnings_of(torch, call))
    assert _warnings_of(minigrad, call) == expected


def test_dropout2d_warning_points_at_the_caller():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        F.dropout2d(minigrad.ones(2, 3), 0.5)
        F.dropout3d(minigrad.ones(2, 3), 0.5)
    assert [w.filename for w in caught] == [__file__] * 2
