"""Dtypes: names, aliases, attributes, the default dtype and ``dtype=`` arguments vs torch."""

import pickle

import numpy as np
import pytest

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
