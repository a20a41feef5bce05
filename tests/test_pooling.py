"""Pooling (``minigrad/nn/_functions/pooling.py``, ``nn/_pool_functional.py``,
``nn/pooling.py``) against PyTorch: values, indices, gradients, node names, second
derivatives, module reprs, and the errors for misuse."""

import numpy as np
import pytest
from oracle import assert_matches, to_plain

import minigrad
from minigrad import nn
from minigrad.autograd import gradcheck, gradgradcheck

# name: (function, input shape, positional arguments, keyword arguments)
CASES = {
    "max_plain": ("max_pool2d", (2, 3, 6, 6), (2,), {}),
    "max_stride_pad_ceil": ("max_pool2d", (2, 2, 7, 6), (3, 2, 1),
                            dict(ceil_mode=True, return_indices=True)),
    "max_dilation": ("max_pool2d", (1, 2, 9, 8), ((2, 3), 1, 1),
                     dict(dilation=2, return_indices=True)),
    "max_overlapping": ("max_pool2d", (1, 1, 6, 6), (3, 1), {}),
    "max_unbatched": ("max_pool2d", (3, 5, 5), (2,), dict(return_indices=True)),
    "max1d": ("max_pool1d", (2, 3, 9), (3, 2, 1), dict(return_indices=True)),
    "avg_plain": ("avg_pool2d", (2, 3, 6, 6), (2,), {}),
    "avg_pad_ceil": ("avg_pool2d", (1, 2, 7, 6), (3, 2, 1), dict(ceil_mode=True)),
    "avg_exclude_pad": ("avg_pool2d", (1, 2, 7, 6), (3, 2, 1),
                        dict(ceil_mode=True, count_include_pad=False)),
    "avg_divisor": ("avg_pool2d", (1, 2, 6, 6), ((2, 3), 1), dict(divisor_override=4)),
    "avg_unbatched": ("avg_pool2d", (3, 5, 5), (2,), {}),
    "avg1d": ("avg_pool1d", (2, 3, 9), (3, 2, 1), {}),
    "adaptive": ("adaptive_avg_pool2d", (2, 2, 7, 5), ((3, 4),), {}),
    "adaptive_none": ("adaptive_avg_pool2d", (2, 6, 5), ((None, 2),), {}),
    "adaptive_one": ("adaptive_avg_pool2d", (2, 2, 7, 5), (1,), {}),
}


def _array(shape, seed):
    return np.random.default_rng(seed).standard_normal(shape)


def _run(lib, case):
    name, shape, args, kwargs = CASES[case]
    x = lib.tensor(_array(shape, 0), requires_grad=True)
    out = getattr(lib.nn.functional, name)(x, *args, **kwargs)
    result = {}
    if isinstance(out, tuple):
        out, result["indices"] = out
    out.backward(lib.tensor(_array(tuple(out.shape), 1)))
    result.update(out=out, grad=x.grad)
    return result


@pytest.mark.parametrize("case", sorted(CASES))
def test_pooling_matches_torch(oracle, case):
    expected = oracle(lambda torch: _run(torch, case))
    assert_matches(_run(minigrad, case), expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("case", ["max_stride_pad_ceil", "max_overlapping", "avg_pad_ceil",
                                  "avg_exclude_pad", "adaptive"])
def test_gradcheck_and_gradgradcheck(case):
    name, shape, args, kwargs = CASES[case]
    kwargs = {k: v for k, v in kwargs.items() if k != "return_indices"}
    x = minigrad.tensor(_array(shape, 2), requires_grad=True)
    fn = getattr(nn.functional, name)
    assert gradcheck(lambda t: fn(t, *args, **kwargs), (x,))
    assert gradgradcheck(lambda t: fn(t, *args, **kwargs), (x,))


def _double_backward(lib):
    result = {}
    for name, fn in (("max", lambda x: lib.nn.functional.max_pool2d(x, 2)),
                     ("avg", lambda x: lib.nn.functional.avg_pool2d(x, 3, 1, 1)),
                     ("adaptive", lambda x: lib.nn.functional.adaptive_avg_pool2d(x, 3))):
        x = lib.tensor(_array((1, 2, 4, 4), 3), requires_grad=True)
        (g,) = lib.autograd.grad((fn(x) ** 2).sum(), x, create_graph=True)
        (h,) = lib.autograd.grad((g ** 2).sum(), x)
        result[name] = {"grad": g, "second": h}
    return result


def test_double_backward_nodes_and_values_match_torch(oracle):
    expected = oracle(_double_backward)
    assert_matches(_double_backward(minigrad), expected, rtol=1e-12, atol=1e-12)


def test_indices_do_not_require_grad():
    x = minigrad.randn(1, 1, 4, 4, requires_grad=True)
    values, indices = nn.functional.max_pool2d(x, 2, return_indices=True)
    assert values.requires_grad and not indices.requires_grad
    assert indices.dtype == minigrad.int64


def _modules(lib):
    nn_ = lib.nn
    return [nn_.MaxPool2d(2), nn_.MaxPool2d(2, 1, 1, 2, True, True), nn_.MaxPool1d(3, 2),
            nn_.AvgPool2d(2), nn_.AvgPool2d(3, 2, 1, True, False, 2), nn_.AvgPool1d(3),
            nn_.AdaptiveAvgPool2d((5, 7)), nn_.AdaptiveAvgPool2d(1), nn_.Flatten()]


def test_module_reprs(oracle):
    expected = oracle(lambda torch: [repr(m) for m in _modules(torch)])
    assert [repr(m) for m in _modules(minigrad)] == expected


def test_modules_compute_as_the_functions(oracle):
    def run(lib):
        x = lib.tensor(_array((1, 2, 6, 6), 4))
        return [m(x if "1d" not in type(m).__name__ else x[0]) for m in _modules(lib)]
    assert_matches(run(minigrad), oracle(run), rtol=1e-12, atol=1e-12)


ERRORS = {
    "max_pad_too_big": lambda t: t.nn.functional.max_pool2d(t.randn(1, 3, 8, 8), 3, padding=2),
    "max_output_too_small": lambda t: t.nn.functional.max_pool2d(t.randn(1, 1, 1, 1), 2),
    "max_rank": lambda t: t.nn.functional.max_pool2d(t.randn(8), 2),
    "max_kernel_zero": lambda t: t.nn.functional.max_pool2d(t.randn(1, 3, 8, 8), 0, 1),
    "max_stride_zero": lambda t: t.nn.functional.max_pool2d(t.randn(1, 3, 8, 8), 2, 0),
    "max_negative_pad": lambda t: t.nn.functional.max_pool2d(t.randn(1, 3, 8, 8), 3,
                                                             padding=-1),
    "max_kernel_triple": lambda t: t.nn.functional.max_pool2d(t.randn(1, 3, 8, 8), (2, 2, 2)),
    "max1d_rank": lambda t: t.nn.functional.max_pool1d(t.randn(8), 2),
    "avg_rank": lambda t: t.nn.functional.avg_pool2d(t.randn(8, 8), 2),
    "avg_pad_too_big": lambda t: t.nn.functional.avg_pool2d(t.randn(1, 3, 8, 8), 3, padding=2),
    "avg_output_too_small": lambda t: t.nn.functional.avg_pool2d(t.randn(1, 1, 1, 1), 2),
    "avg_divisor_zero": lambda t: t.nn.functional.avg_pool2d(t.randn(1, 3, 8, 8), 2,
                                                             divisor_override=0),
    "avg1d_rank": lambda t: t.nn.functional.avg_pool1d(t.randn(8), 2),
    "adaptive_rank": lambda t: t.nn.functional.adaptive_avg_pool2d(t.randn(8, 8), 2),
    "adaptive_size": lambda t: t.nn.functional.adaptive_avg_pool2d(t.randn(1, 2, 8, 8),
                                                                   (2, 2, 2)),
    "empty_channels": lambda t: t.nn.functional.max_pool2d(t.randn(1, 0, 8, 8), 2),
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


def _saved_attributes(lib):
    x = lib.tensor(_array((1, 2, 6, 6), 0), requires_grad=True)
    max_node = lib.nn.functional.max_pool2d(x, 3, 2, 1, ceil_mode=True).grad_fn
    avg_node = lib.nn.functional.avg_pool2d(x, (3, 2), 2, 1, divisor_override=2).grad_fn
    return ({n: getattr(max_node, f"_saved_{n}") for n in
             ("kernel_size", "stride", "padding", "dilation", "ceil_mode")},
            {n: getattr(avg_node, f"_saved_{n}") for n in
             ("kernel_size", "stride", "padding", "ceil_mode", "count_include_pad",
              "divisor_override")})


def test_saved_attributes_as_torch(oracle):
    assert to_plain(_saved_attributes(minigrad)) == oracle(_saved_attributes)


def _empty_batch(lib):
    x = lib.zeros(0, 3, 8, 8, requires_grad=True)
    outs = [lib.nn.functional.max_pool2d(x, 2), lib.nn.functional.avg_pool2d(x, 3, 2, 1),
            lib.nn.functional.adaptive_avg_pool2d(x, 3)]
    sum(o.sum() for o in outs).backward()
    return {"outs": outs, "grad": x.grad}


def test_an_empty_batch_pools_to_empty_results(oracle):
    assert_matches(_empty_batch(minigrad), oracle(_empty_batch))
