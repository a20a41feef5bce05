"""Convolutions (``minigrad/nn/_functions/conv.py``, ``nn/_conv_functional.py``, ``nn/conv.py``)
against PyTorch: values, gradients of input, weight and bias, node names, second derivatives,
module reprs and initialisation, and the errors for misuse."""

import numpy as np
import pytest
from oracle import assert_matches, to_plain

import minigrad
from minigrad import nn
from minigrad.autograd import gradcheck, gradgradcheck


def _arrays(shapes, seed=0, dtype=np.float64):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(s).astype(dtype) for s in shapes]


# name: (function, shapes of input, weight[, bias], keyword arguments)
CASES = {
    "conv2d_plain": ("conv2d", [(2, 3, 7, 6), (4, 3, 3, 3), (4,)], {}),
    "conv2d_stride_pad": ("conv2d", [(2, 3, 9, 8), (5, 3, 3, 2), (5,)],
                          dict(stride=(2, 1), padding=(1, 2))),
    "conv2d_dilation_groups": ("conv2d", [(1, 4, 9, 9), (6, 2, 3, 3), (6,)],
                               dict(dilation=2, groups=2, padding=1)),
    "conv2d_same": ("conv2d", [(2, 2, 6, 5), (3, 2, 3, 3)], dict(padding="same")),
    "conv2d_same_even": ("conv2d", [(1, 2, 6, 5), (3, 2, 4, 2)], dict(padding="same")),
    "conv2d_valid": ("conv2d", [(1, 2, 6, 5), (3, 2, 3, 3), (3,)], dict(padding="valid")),
    "conv2d_unbatched": ("conv2d", [(3, 6, 6), (2, 3, 3, 3), (2,)], dict(stride=2)),
    "conv2d_depthwise": ("conv2d", [(2, 3, 6, 6), (3, 1, 3, 3), (3,)], dict(groups=3)),
    "conv1d": ("conv1d", [(2, 3, 10), (4, 3, 3), (4,)], dict(stride=2, padding=1)),
    "conv1d_unbatched": ("conv1d", [(3, 10), (4, 3, 3)], dict(dilation=3)),
    "conv_transpose2d": ("conv_transpose2d", [(2, 4, 3, 4), (4, 3, 3, 3), (3,)], {}),
    "conv_transpose2d_stride": ("conv_transpose2d", [(1, 4, 3, 3), (4, 1, 3, 2), (2,)],
                                dict(stride=(2, 3), padding=(1, 0), output_padding=(1, 2),
                                     groups=2, dilation=(2, 1))),
    "conv3d": ("conv3d", [(1, 2, 5, 4, 6), (3, 2, 3, 2, 3), (3,)],
               dict(stride=(1, 2, 1), padding=(1, 0, 1))),
    "conv_transpose3d": ("conv_transpose3d", [(1, 2, 3, 2, 3), (2, 2, 2, 3, 2), (2,)],
                         dict(stride=2, padding=1, output_padding=(1, 0, 1))),
    "conv_transpose1d": ("conv_transpose1d", [(2, 3, 5), (3, 2, 4), (2,)],
                         dict(stride=3, padding=1)),
}


def _run(lib, case, dtype=np.float64):
    name, shapes, kwargs = CASES[case]
    tensors = [lib.tensor(a, requires_grad=True) for a in _arrays(shapes, dtype=dtype)]
    fn = getattr(lib.nn.functional, name)
    out = fn(tensors[0], tensors[1], tensors[2] if len(tensors) > 2 else None, **kwargs)
    gradient = _arrays([tuple(out.shape)], seed=1, dtype=dtype)[0]
    out.backward(lib.tensor(gradient))
    return {"out": out, "grads": [t.grad for t in tensors]}


@pytest.mark.filterwarnings("ignore:Using padding='same'")
@pytest.mark.parametrize("case", sorted(CASES))
def test_convolution_matches_torch(oracle, case):
    expected = oracle(lambda torch: _run(torch, case))
    assert_matches(_run(minigrad, case), expected, rtol=1e-10, atol=1e-12)


def test_float32_convolution_stays_float32(oracle):
    expected = oracle(lambda torch: _run(torch, "conv2d_stride_pad", np.float32))
    got = _run(minigrad, "conv2d_stride_pad", np.float32)
    assert got["out"].dtype == minigrad.float32
    assert_matches(got, expected, rtol=1e-5, atol=1e-5)


@pytest.mark.filterwarnings("ignore:Using padding='same'")
@pytest.mark.parametrize("case", ["conv2d_stride_pad", "conv2d_dilation_groups",
                                  "conv_transpose2d_stride", "conv1d", "conv2d_same_even"])
def test_gradcheck_and_gradgradcheck(case):
    name, shapes, kwargs = CASES[case]
    tensors = [minigrad.tensor(a, requires_grad=True) for a in _arrays(shapes, seed=3)]
    fn = getattr(nn.functional, name)
    assert gradcheck(lambda *t: fn(*t, **kwargs), tensors)
    assert gradgradcheck(lambda *t: fn(*t, **kwargs), tensors)


def _second_order(lib):
    x, w, b = (lib.tensor(a, requires_grad=True)
               for a in _arrays([(1, 2, 5, 5), (3, 2, 3, 3), (3,)], seed=4))
    y = lib.nn.functional.conv2d(x, w, b, stride=2, padding=1)
    gx, gw = lib.autograd.grad((y * y).sum(), (x, w), create_graph=True)
    hx, hw, hb = lib.autograd.grad((gx * gx).sum() + (gw ** 3).sum(), (x, w, b))
    return {"gx": gx, "gw": gw, "hessian_products": [hx, hw, hb]}


def test_double_backward_matches_torch(oracle):
    expected = oracle(_second_order)
    assert_matches(_second_order(minigrad), expected, rtol=1e-10, atol=1e-12)


def test_node_names_of_the_graph():
    x = minigrad.randn(1, 2, 5, 5, requires_grad=True)
    w = minigrad.randn(3, 2, 3, 3, requires_grad=True)
    y = nn.functional.conv2d(x, w)
    assert type(y.grad_fn).__name__ == "ConvolutionBackward0"
    # NB: PyTorch lists a third edge (None, 0) for the absent bias; minigrad has none.
    assert [type(f).__name__ for f, _ in y.grad_fn.next_functions] == ["AccumulateGrad"] * 2
    (g,) = minigrad.autograd.grad(y.sum(), w, create_graph=True)
    assert type(g.grad_fn).__name__ == "ConvolutionBackwardBackward0"
    assert y.grad_fn._saved_input is x and y.grad_fn._saved_weight is w


def _modules(lib):
    nn_ = lib.nn
    return [nn_.Conv2d(1, 6, 5), nn_.Conv2d(1, 6, 5, stride=2, padding=1, bias=False),
            nn_.Conv2d(4, 6, (3, 5), padding="same", dilation=2, groups=2),
            nn_.Conv1d(3, 6, 3), nn_.ConvTranspose2d(3, 6, 3, stride=2, output_padding=1),
            nn_.ConvTranspose1d(4, 2, 3, groups=2, bias=False), nn_.Conv3d(2, 4, 3, padding=1),
            nn_.ConvTranspose3d(2, 4, (3, 1, 2), stride=2, dilation=(1, 1, 2))]


def test_module_reprs(oracle):
    expected = oracle(lambda torch: [repr(m) for m in _modules(torch)])
    assert [repr(m) for m in _modules(minigrad)] == expected


def test_module_parameter_shapes_and_init_bounds(oracle):
    def shapes(lib):
        return [[list(p.shape) for p in m.parameters()] for m in _modules(lib)]
    assert shapes(minigrad) == oracle(shapes)
    conv = nn.Conv2d(3, 8, 5)
    bound = 1 / np.sqrt(3 * 25)  # kaiming_uniform_(a=√5) gives the same bound as the bias
    assert np.abs(conv.weight.detach().numpy()).max() <= bound
    assert np.abs(conv.bias.detach().numpy()).max() <= bound
    assert conv.weight.detach().numpy().std() > bound / 3  # not all zeros: drawn uniformly


def test_module_forward_uses_its_parameters(oracle):
    def run(lib):
        conv = lib.nn.ConvTranspose2d(2, 3, 3, stride=2)
        x, w, b = _arrays([(1, 2, 3, 3), (2, 3, 3, 3), (3,)], seed=5, dtype=np.float32)
        with lib.no_grad():
            conv.weight.copy_(lib.tensor(w))
            conv.bias.copy_(lib.tensor(b))
        return conv(lib.tensor(x), output_size=[8, 8])
    assert_matches(run(minigrad), oracle(run), rtol=1e-5, atol=1e-6)


ERRORS = {
    "rank": lambda t: t.nn.functional.conv2d(t.randn(8, 8), t.randn(4, 3, 3, 3)),
    "channels": lambda t: t.nn.functional.conv2d(t.randn(1, 2, 8, 8), t.randn(4, 3, 3, 3)),
    "groups_channels": lambda t: t.nn.functional.conv2d(t.randn(1, 3, 8, 8),
                                                        t.randn(4, 3, 3, 3), groups=2),
    "groups_weight": lambda t: t.nn.functional.conv2d(t.randn(1, 4, 8, 8),
                                                      t.randn(3, 2, 3, 3), groups=2),
    "kernel_too_big": lambda t: t.nn.functional.conv2d(t.randn(1, 3, 2, 2),
                                                       t.randn(4, 3, 3, 3)),
    "stride_zero": lambda t: t.nn.functional.conv2d(t.randn(1, 3, 8, 8), t.randn(4, 3, 3, 3),
                                                    stride=0),
    "negative_padding": lambda t: t.nn.functional.conv2d(t.randn(1, 3, 8, 8),
                                                         t.randn(4, 3, 3, 3), padding=-1),
    "same_strided": lambda t: t.nn.functional.conv2d(t.randn(1, 3, 8, 8), t.randn(4, 3, 3, 3),
                                                     padding="same", stride=2),
    "bad_padding_string": lambda t: t.nn.functional.conv2d(t.randn(1, 3, 8, 8),
                                                           t.randn(4, 3, 3, 3), padding="foo"),
    "bias_size": lambda t: t.nn.functional.conv2d(t.randn(1, 3, 8, 8), t.randn(4, 3, 3, 3),
                                                  t.randn(3)),
    "weight_rank": lambda t: t.nn.functional.conv2d(t.randn(1, 3, 8, 8), t.randn(4, 3, 3)),
    "weight_rank_1d": lambda t: t.nn.functional.conv1d(t.randn(1, 3, 8), t.randn(4, 3, 3, 3)),
    "dtype": lambda t: t.nn.functional.conv2d(t.randn(1, 3, 8, 8).double(),
                                              t.randn(4, 3, 3, 3)),
    "dilation_zero": lambda t: t.nn.functional.conv2d(t.randn(1, 3, 8, 8),
                                                      t.randn(4, 3, 3, 3), dilation=0),
    "groups_zero": lambda t: t.nn.functional.conv2d(t.randn(1, 3, 8, 8), t.randn(4, 3, 3, 3),
                                                    groups=0),
    "transposed_channels": lambda t: t.nn.functional.conv_transpose2d(
        t.randn(1, 2, 4, 4), t.randn(3, 2, 3, 3)),
    "output_padding": lambda t: t.nn.functional.conv_transpose2d(
        t.randn(1, 3, 4, 4), t.randn(3, 2, 3, 3), stride=2, output_padding=2),
    "transposed_too_small": lambda t: t.nn.functional.conv_transpose2d(
        t.randn(1, 3, 1, 1), t.randn(3, 2, 1, 1), padding=1),
    "transposed_same": lambda t: t.nn.functional.conv_transpose2d(
        t.randn(1, 3, 4, 4), t.randn(3, 2, 3, 3), padding="same"),
    "module_channels": lambda t: t.nn.Conv2d(1, 6, 5)(t.randn(1, 3, 32, 32)),
    "module_small_input": lambda t: t.nn.Conv2d(1, 6, 5)(t.randn(1, 1, 3, 3)),
    "module_in_groups": lambda t: t.nn.Conv2d(3, 4, 3, groups=2),
    "module_out_groups": lambda t: t.nn.Conv2d(4, 3, 3, groups=2),
    "module_same_strided": lambda t: t.nn.Conv2d(4, 4, 3, padding="same", stride=2),
    "module_transposed_padding_mode": lambda t: t.nn.ConvTranspose2d(2, 2, 3,
                                                                     padding_mode="reflect"),
    "module_reflect_too_small": lambda t: t.nn.Conv2d(1, 1, 3, padding=3,
                                                      padding_mode="reflect")(t.ones(1, 1, 3, 3)),
}


@pytest.mark.parametrize("case", sorted(ERRORS))
def test_errors_as_torch(oracle, case):
    expected = oracle(ERRORS[case])
    assert "error" in expected
    try:
        got = ERRORS[case](minigrad)
    except Exception as exc:  # noqa: BLE001 - the error is the result
        got = exc
    assert_matches(got, expected)


def test_same_padding_with_an_even_kernel_warns_like_torch():
    with pytest.warns(UserWarning, match="padding='same' with even kernel lengths"):
        nn.functional.conv2d(minigrad.randn(1, 1, 5, 5), minigrad.randn(1, 1, 2, 2),
                             padding="same")


# name: (module, its arguments, input shape)
PADDING_MODES = {
    "conv2d_reflect": ("Conv2d", dict(in_channels=2, out_channels=3, kernel_size=3, padding=1,
                                      padding_mode="reflect"), (2, 2, 5, 6)),
    "conv2d_replicate_uneven": ("Conv2d", dict(in_channels=2, out_channels=2,
                                               kernel_size=(3, 5), padding=(1, 2), stride=2,
                                               padding_mode="replicate"), (1, 2, 6, 7)),
    "conv2d_same_dilated_reflect": ("Conv2d", dict(in_channels=1, out_channels=2,
                                                   kernel_size=4, padding="same", dilation=2,
                                                   padding_mode="reflect"), (1, 1, 8, 9)),
    "conv1d_replicate_unbatched": ("Conv1d", dict(in_channels=3, out_channels=2,
                                                  kernel_size=3, padding=2,
                                                  padding_mode="replicate"), (3, 7)),
    "conv3d_replicate": ("Conv3d", dict(in_channels=1, out_channels=2, kernel_size=3,
                                        padding=1, padding_mode="replicate"), (1, 1, 4, 3, 5)),
    "conv2d_valid_reflect": ("Conv2d", dict(in_channels=1, out_channels=1, kernel_size=2,
                                            padding="valid", padding_mode="reflect"),
                             (1, 1, 3, 3)),
}


def _padding_mode(lib, case):
    """A layer with a padding mode: its output, the gradients of input, weight and bias, the
    names of the two nodes (pad, then convolution) and the pads it gives F.pad."""
    module, kwargs, shape = PADDING_MODES[case]
    layer = getattr(lib.nn, module)(**kwargs).double()
    x, w, b = _arrays([shape, tuple(layer.weight.shape), tuple(layer.bias.shape)], seed=3)
    with lib.no_grad():
        layer.weight.copy_(lib.tensor(w))
        layer.bias.copy_(lib.tensor(b))
    x = lib.tensor(x, requires_grad=True)
    out = layer(x)
    out.backward(lib.tensor(_arrays([tuple(out.shape)], seed=4)[0]))
    pad_node = out.grad_fn.next_functions[0][0]
    return {"out": out, "grads": [x.grad, layer.weight.grad, layer.bias.grad],
            "nodes": [type(out.grad_fn).__name__, type(pad_node).__name__],
            "pads": list(layer._reversed_padding_repeated_twice), "repr": repr(layer)}


@pytest.mark.parametrize("case", sorted(PADDING_MODES))
def test_padding_modes_as_torch(oracle, case):
    assert_matches(_padding_mode(minigrad, case), oracle(lambda t: _padding_mode(t, case)),
                   rtol=1e-10, atol=1e-12)


def test_a_padding_mode_pads_before_the_convolution():
    layer = nn.Conv1d(1, 1, 3, padding=1, padding_mode="replicate", bias=False)
    with minigrad.no_grad():
        layer.weight.copy_(minigrad.tensor([[[1.0, 0.0, 0.0]]]))  # out[i] = padded[i]
    out = layer(minigrad.tensor([[[5.0, 6.0, 7.0]]]))
    assert out.tolist() == [[[5.0, 5.0, 6.0]]]  # the left edge repeated, not a zero
    zeros = nn.Conv1d(1, 1, 3, padding=1, bias=False)
    with minigrad.no_grad():
        zeros.weight.copy_(layer.weight)
    assert zeros(minigrad.tensor([[[5.0, 6.0, 7.0]]])).tolist() == [[[0.0, 5.0, 6.0]]]


def test_circular_padding_mode_is_refused_clearly():
    with pytest.raises(NotImplementedError, match="padding_mode='circular'"):
        nn.Conv2d(1, 2, 3, padding_mode="circular")


def _forward_mode(lib):
    fwad = lib.autograd.forward_ad
    x, v, w, b = (lib.tensor(a) for a in _arrays([(1, 2, 6, 6), (1, 2, 6, 6), (3, 2, 3, 3),
                                                   (3,)], seed=6))
    with fwad.dual_level():
        y = lib.nn.functional.conv2d(fwad.make_dual(x, v), w, b, padding=1)
        y = lib.nn.functional.max_pool2d(y, 2)
        return fwad.unpack_dual(y).tangent


def test_forward_mode_through_convolution_and_pooling(oracle):
    assert_matches(_forward_mode(minigrad), oracle(_forward_mode), rtol=1e-10, atol=1e-12)


def _saved_attributes(lib):
    x = lib.tensor(_arrays([(1, 2, 6, 6)])[0], requires_grad=True)
    w = lib.tensor(_arrays([(4, 2, 3, 3)])[0], requires_grad=True)
    nodes = [lib.nn.functional.conv2d(x, w, stride=2, padding=1).grad_fn,
             lib.nn.functional.conv2d(x, w, lib.zeros(4, dtype=lib.float64),
                                      padding="same").grad_fn,
             lib.nn.functional.conv_transpose2d(x, w.transpose(0, 1), stride=2,
                                                output_padding=1, dilation=2).grad_fn]
    names = ("bias_sym_sizes_opt", "dilation", "groups", "output_padding", "padding",
             "stride", "transposed")
    return [{n: getattr(node, f"_saved_{n}") for n in names} for node in nodes]


def test_saved_attributes_as_torch(oracle):
    assert to_plain(_saved_attributes(minigrad)) == oracle(_saved_attributes)


def _empty_batch(lib):
    x = lib.zeros(0, 4, 8, 8, requires_grad=True)
    w = lib.ones(4, 2, 3, 3, requires_grad=True)
    y = lib.nn.functional.conv2d(x, w, groups=2)
    y.sum().backward()
    return {"out": y, "grads": [x.grad, w.grad]}


def test_an_empty_batch_gives_empty_results_and_zero_weight_grads(oracle):
    assert_matches(_empty_batch(minigrad), oracle(_empty_batch))
