"""Dtypes: names, aliases, attributes, the default dtype and ``dtype=`` arguments vs torch."""

import pickle

import numpy as np
import pytest
from parity_expr import agree

import minigrad
from minigrad import _dtype

NAMES = ["float16", "float32", "float64", "uint8", "uint16", "uint32", "uint64", "int8", "int16",
         "int32", "int64", "bool"]
ALIASES = {"half": "float16", "float": "float32", "double": "float64", "short": "int16",
           "int": "int32", "long": "int64"}


def _attributes(lib, name):
    dtype = getattr(lib, name)
    return [repr(dtype).replace("torch.", "minigrad."), str(dtype).replace("torch.", "minigrad."),
            dtype.is_floating_point, dtype.is_signed, dtype.is_complex, dtype.itemsize]


@pytest.mark.parametrize("name", NAMES)
def test_dtype_attributes_match_torch(oracle, name):
    assert _attributes(_dtype, name) == oracle(lambda torch: _attributes(torch, name))


@pytest.mark.parametrize("name", NAMES)
def test_legacy_type_names_match_torch(oracle, name):
    mine = minigrad.zeros(1, dtype=getattr(_dtype, name)).type()
    assert mine == oracle(lambda torch: torch.zeros(1, dtype=getattr(torch, name)).type()
                          .replace("torch.", "minigrad."))


@pytest.mark.parametrize("alias, name", ALIASES.items())
def test_aliases_are_the_same_object(alias, name):
    assert getattr(_dtype, alias) is getattr(_dtype, name)
    assert getattr(_dtype, alias) == getattr(_dtype, name)
    assert hash(getattr(_dtype, alias)) == hash(getattr(_dtype, name))


def test_top_level_names():
    for name in ["float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8",
                 "bool", "half", "float", "double", "int", "long"]:
        assert getattr(minigrad, name) is getattr(_dtype, name)


def test_dtypes_survive_pickling_as_the_same_object():
    assert pickle.loads(pickle.dumps(minigrad.float64)) is minigrad.float64


@pytest.mark.torch
def test_python_types_as_dtype_arguments_match_torch(torch):
    for python_type in (float, int, bool):
        mine = minigrad.tensor(1, dtype=python_type).dtype
        theirs = torch.tensor(1, dtype=python_type).dtype
        assert repr(mine) == repr(theirs).replace("torch.", "minigrad.")


def test_tensor_dtype_follows_the_numpy_storage():
    for name in NAMES:
        d = getattr(_dtype, name)
        assert minigrad.zeros(2, dtype=d).dtype is d
        assert minigrad.from_numpy(np.zeros(2, dtype=d.numpy)).dtype is d


def test_lenient_conversion_for_minigrad_code():
    assert _dtype.to_dtype(np.float64) is minigrad.float64
    assert _dtype.to_dtype(np.dtype("int32")) is minigrad.int32
    assert _dtype.to_dtype("bool") is minigrad.bool
    assert _dtype.to_dtype(float) is minigrad.float64  # as PyTorch maps Python's float
    with pytest.raises(TypeError, match="minigrad has no dtype"):
        _dtype.to_dtype(np.complex64)


@pytest.mark.torch
def test_default_dtype_matches_torch(torch):
    assert repr(_dtype.get_default_dtype()) == "minigrad.float32"
    try:
        torch.set_default_dtype(torch.float64)
        _dtype.set_default_dtype(minigrad.float64)
        for make in (lambda m: m.tensor([1.5]).dtype, lambda m: m.zeros(2).dtype,
                     lambda m: m.rand(2).dtype, lambda m: m.arange(0.0, 2).dtype,
                     lambda m: m.full((1,), 2.0).dtype, lambda m: m.tensor([1]).dtype,
                     lambda m: m.linspace(0, 1, 3).dtype):
            assert repr(make(minigrad)) == repr(make(torch)).replace("torch.", "minigrad.")
    finally:
        torch.set_default_dtype(torch.float32)
        _dtype.set_default_dtype(minigrad.float32)
    for lib, bad in ((torch, torch.int64), (_dtype, minigrad.int64)):
        with pytest.raises(TypeError, match="only floating-point types are supported as the "
                                            "default type"):
            lib.set_default_dtype(bad)


# ---------------------------------------------------------------- promotion, overflow, bool
# Each case is an expression in ``T`` (minigrad or torch); the oracle stores torch's answer.
PROMOTION = {
    "int-clamp-float": "T.tensor([1, 2, 3]).clamp(0.5, 1.5)",
    "int-clamp-int": "T.tensor([1, 2, 3]).clamp(2)",
    "bool-clamp-int": "T.tensor([True, False]).clamp(0, 1)",
    "int-plus-float": "T.tensor([1, 2]) + 0.5",
    "bool-times-float": "T.tensor([True, False]) * 2.5",
    "int-div-int": "T.tensor([1, 2, 3]) / T.tensor([2, 2, 2])",
    "int-div-number": "T.tensor([1, 2, 3]) / 2",
    "int8-div-int8": "T.tensor([1, 2], dtype=T.int8) / T.tensor([2, 4], dtype=T.int8)",
    "bool-pow-int": "T.tensor([True, False]) ** 2",
    "bool-pow-float": "T.tensor([True, False]) ** 2.5",
    "bool-pow-bool": "T.tensor([True, False]) ** True",
    "number-pow-int": "2 ** T.tensor([1, 2])",
    "int-pow-negative": "T.tensor([1, 2]) ** -1",
    "int-sqrt": "T.tensor([1, 4]).sqrt()",
    "bool-remainder-number": "T.tensor([True, False]) % 2",
    "int-add_-float": "T.tensor([1, 2, 3]).add_(0.5)",
    "int-div_-int": "T.tensor([1, 2, 3]).div_(2)",
    "int8-add_-double": "T.tensor([1], dtype=T.int8).add_(T.ones(1, dtype=T.float64))",
    "int-mul_-long": "T.tensor([1], dtype=T.int32).mul_(T.tensor([3]))",
    "bool-mul_-long": "T.tensor([True]).mul_(T.tensor([1]))",
    "int-clamp_-float": "T.tensor([1, 2]).clamp_(0.5)",
    "int8-clamp_-float": "T.tensor([1, 2], dtype=T.int8).clamp_(0.5)",
    "bool-clamp_-int": "T.tensor([True, False]).clamp_(0, 1)",
    "float-add_-double": "T.ones(2).add_(T.ones(2, dtype=T.float64))",
    # alpha takes no part in the result's dtype
    "bool-add-bool-alpha": "T.tensor([True, False]).add(T.tensor([True, True]), alpha=2)",
    "bool-add-bool-alpha-0": "T.tensor([True, False]).add(T.tensor([True, True]), alpha=0)",
    "bool-add-bool-alpha-float": "T.tensor([True]).add(T.tensor([True]), alpha=2.5)",
    "bool-add_-bool-alpha": "T.tensor([True]).add_(T.tensor([True]), alpha=2)",
    "bool-sub-bool-alpha": "T.add(T.tensor([False]), T.tensor([True]), alpha=-1)",
    "int-add-bool-alpha": "T.tensor([1]).add(T.tensor([True]), alpha=2)",
    "float-add-bool-alpha": "T.tensor([1.0]).add(T.tensor([True]), alpha=2.5)",
    "uint8-add-bool-alpha": "T.tensor([1], dtype=T.uint8).add(T.tensor([True]), alpha=-1)",
    "bool-add-number-alpha": "T.tensor([True]).add(2, alpha=2)",
    "float-add-true-alpha": "T.tensor([1.0]).add(True, alpha=2.5)",
}


@pytest.mark.parametrize("src", PROMOTION.values(), ids=PROMOTION.keys())
def test_type_promotion_matches_torch(oracle, src):
    agree(oracle, src)


def test_true_division_of_integers_gives_the_default_dtype():
    minigrad.set_default_dtype(minigrad.float64)
    try:
        assert (minigrad.tensor([1, 2]) / 2).dtype is minigrad.float64
        assert minigrad.tensor([1, 2]).clamp(0.5).dtype is minigrad.float64
    finally:
        minigrad.set_default_dtype(minigrad.float32)


OVERFLOW = {
    "fill_-nan": "T.tensor([1, 2, 3]).fill_(float('nan'))",
    "fill_-int8": "T.tensor([1, 2], dtype=T.int8).fill_(300)",
    "fill_-int32": "T.tensor([1, 2], dtype=T.int32).fill_(float('inf'))",
    "fill_-uint8-wraps": "T.tensor([1, 2], dtype=T.uint8).fill_(-1)",
    "fill_-bool-nan": "T.tensor([True]).fill_(float('nan'))",
    "fill_-big-int": "T.tensor([1]).fill_(2 ** 40)",
    "setitem-nan": "(lambda t: (t.__setitem__(0, float('nan')), t)[1])(T.tensor([1, 2, 3]))",
    "tensor-int8-300": "T.tensor([300], dtype=T.int8)",
    "tensor-int8--129": "T.tensor([-129], dtype=T.int8)",
    "tensor-uint8--1": "T.tensor([-1], dtype=T.uint8)",
    "tensor-uint8-256": "T.tensor([256], dtype=T.uint8)",
    "tensor-uint8--1.0": "T.tensor([-1.0], dtype=T.uint8)",
    "tensor-int32-2**31": "T.tensor([2 ** 31], dtype=T.int32)",
    "tensor-int64-nan": "T.tensor([float('nan')], dtype=T.int64)",
    "full-nan-long": "T.full((2,), float('nan'), dtype=T.int64)",
    "masked_fill-nan": "T.tensor([1, 2]).masked_fill(T.tensor([True, False]), float('nan'))",
    "masked_fill-float": "T.tensor([1, 2]).masked_fill(T.tensor([True, False]), 2.5)",
    "clamp-int8-max": "T.tensor([1, 2], dtype=T.int8).clamp(max=300)",
}


@pytest.mark.parametrize("src", OVERFLOW.values(), ids=OVERFLOW.keys())
def test_overflow_matches_torch(oracle, src):
    agree(oracle, src)


BOOL = {
    "neg": "-T.tensor([True])",
    "neg-method": "T.tensor([True]).neg()",
    "neg_": "T.tensor([True]).neg_()",
    "sub-bools": "T.tensor([True]) - T.tensor([True])",
    "sub-bool-number": "T.tensor([True]) - True",
    "sub-number": "T.tensor([True]) - 1",
    "rsub": "1 - T.tensor([True])",
    "int-sub_-bool": "T.tensor([1]).sub_(T.tensor([True]))",
    "float-sub-bool": "T.tensor([1.0]) - T.tensor([True])",
    "bool-sub-float": "T.tensor([True]) - T.tensor([1.0])",
    "relu": "T.tensor([True]).relu()",
    "relu_": "T.tensor([True]).relu_()",
    "abs": "T.tensor([True]).abs()",
    "trunc": "T.tensor([True]).trunc()",
    "ceil": "T.tensor([True]).ceil()",
    "floor": "T.tensor([True]).floor()",
    "round": "T.tensor([True]).round()",
    "remainder": "T.tensor([True]) % T.tensor([True])",
    "argmax": "T.tensor([True, False]).argmax()",
    "argmin": "T.tensor([True, False]).argmin(0)",
    "pow-bools": "T.tensor([True]).pow(T.tensor([True]))",
    "sign": "T.tensor([True, False]).sign()",
    "add": "T.tensor([True]) + T.tensor([True])",
}


@pytest.mark.parametrize("src", BOOL.values(), ids=BOOL.keys())
def test_bool_tensors_match_torch(oracle, src):
    agree(oracle, src)


def test_grad_of_a_root_leaf_has_its_dtype(oracle):
    src = ("(lambda x: (x.backward(T.ones(2, dtype=T.float64)), x.grad)[1])"
           "(T.ones(2, requires_grad=True))")
    agree(oracle, src)
