"""Tensor printing: ``repr`` and ``print`` give PyTorch's text, character for character.

Each case builds the same tensor with minigrad and with torch (from the same NumPy data) and
compares the two reprs with ``torch.`` replaced by ``minigrad.``.
"""

import math

import numpy as np
import pytest

import minigrad
from minigrad import _formatting

# name -> function(lib) building a tensor with ``lib`` (minigrad or torch)
CASES = {
    # the classic examples
    "mul-grad-fn": lambda m: m.tensor([1.0, 2.0], requires_grad=True) * 2,
    "scalar": lambda m: m.tensor(3.0),
    "scalar-add-grad-fn": lambda m: m.tensor(1.0, requires_grad=True).exp() + 1,
    "int-valued-floats": lambda m: m.tensor([4.0, 10.0, 18.0]),
    "fixed-point": lambda m: m.tensor([0.1, 1.0, 0.001]),
    "scientific": lambda m: m.tensor([1e-5, 1e5]),
    "leaf-requires-grad": lambda m: m.tensor([1.0, 2.0, 3.0], requires_grad=True),
    "0d-requires-grad": lambda m: m.tensor(2.5, requires_grad=True),
    # floats: styles and widths
    "negative-fixed": lambda m: m.tensor([-1.5, 2.25, -0.125]),
    "large-int-valued": lambda m: m.tensor([1e8, 1.0]),
    "huge-int-valued": lambda m: m.tensor([2e9, 3e9]),
    "ratio-over-1000-int": lambda m: m.tensor([1.0, 1001.0]),
    "ratio-1000-int": lambda m: m.tensor([1.0, 1000.0]),
    "ratio-over-1000-frac": lambda m: m.tensor([0.5, 600.5]),
    "tiny": lambda m: m.tensor([1e-4, 2e-4]),
    "just-below-1e-4": lambda m: m.tensor([0.5, 9.9e-5]),
    "zeros": lambda m: m.zeros(3),
    "zeros-2d": lambda m: m.zeros(2, 3),
    "ones-2d": lambda m: m.ones(2, 2),
    "negative-zero": lambda m: m.tensor(-0.0),
    "negative-zero-vector": lambda m: m.tensor([-0.0, 1.0]),
    "negative-zero-fraction": lambda m: m.tensor([-0.0, 0.5]),
    "nan-inf": lambda m: m.tensor([float("nan"), float("inf"), -float("inf")]),
    "nan-inf-int-valued": lambda m: m.tensor([1.0, float("nan"), float("inf")]),
    "nan-inf-fraction": lambda m: m.tensor([0.5, float("nan"), -float("inf")]),
    "nan-inf-sci": lambda m: m.tensor([1e-7, float("nan"), float("inf")]),
    "nan-scalar": lambda m: m.tensor(float("nan")),
    "inf-scalar": lambda m: m.tensor(float("-inf")),
    "pi-scalar": lambda m: m.tensor(math.pi),
    "sci-scalar": lambda m: m.tensor(1.5e-8),
    "big-scalar": lambda m: m.tensor(123456789.0),
    "rounding-up": lambda m: m.tensor([0.99999, 9.99996]),
    "float32-rounding": lambda m: m.tensor([1 / 3, 2 / 3, 0.1]),
    # dtypes
    "float64": lambda m: m.tensor([1.0, 2.5], dtype=m.float64),
    "float64-grad": lambda m: m.tensor([1.0, 2.5], dtype=m.float64, requires_grad=True),
    "float64-scalar": lambda m: m.tensor(1.0, dtype=m.float64),
    "float16": lambda m: m.tensor([1.0, 2.5, 1 / 3], dtype=m.float16),
    "int64": lambda m: m.tensor([1, 2, 3]),
    "int64-negative": lambda m: m.tensor([1, -22, 333]),
    "int64-scalar": lambda m: m.tensor(7),
    "int64-big": lambda m: m.tensor([10**12, -5]),
    "int32": lambda m: m.tensor([1, 2], dtype=m.int32),
    "int8": lambda m: m.tensor([-1, 2], dtype=m.int8),
    "uint8": lambda m: m.tensor([1, 255], dtype=m.uint8),
    "int16-2d": lambda m: m.tensor([[1, 2], [3, 4]], dtype=m.int16),
    "bool": lambda m: m.tensor([True, False, True]),
    "bool-scalar": lambda m: m.tensor(False),
    "bool-2d": lambda m: m.eye(3, dtype=m.bool),
    # empty tensors
    "empty-1d": lambda m: m.tensor([]),
    "empty-2d": lambda m: m.zeros(0, 3),
    "empty-2d-other": lambda m: m.zeros(3, 0),
    "empty-3d": lambda m: m.zeros(2, 0, 4),
    "empty-int": lambda m: m.tensor([], dtype=m.int64),
    "empty-bool": lambda m: m.zeros(0, dtype=m.bool),
    "empty-float64": lambda m: m.zeros(0, 2, dtype=m.float64),
    "empty-grad": lambda m: m.zeros(0, requires_grad=True),
    "empty-nested-list": lambda m: m.tensor([[]]),
    # shapes, wrapping and indentation
    "2d": lambda m: m.tensor([[1.0, 2.0], [3.0, 4.0]]),
    "2d-grad-fn": lambda m: m.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True) * 3,
    "3d": lambda m: m.arange(24).reshape(2, 3, 4),
    "3d-float": lambda m: m.arange(24.0).reshape(2, 3, 4) / 7,
    "4d": lambda m: m.arange(16).reshape(2, 2, 2, 2),
    "column": lambda m: m.arange(5.0).reshape(5, 1),
    "row": lambda m: m.arange(5.0).reshape(1, 5),
    "1-1-1": lambda m: m.ones(1, 1, 1),
    "wrap-1d": lambda m: m.arange(30.0) / 3,
    "wrap-1d-ints": lambda m: m.arange(100),
    "wrap-2d": lambda m: m.arange(60.0).reshape(2, 30) / 7,
    "wrap-3d": lambda m: m.arange(80.0).reshape(2, 2, 20) * 1.5,
    "wrap-grad-fn": lambda m: m.arange(20.0, requires_grad=True) * 1.25,
    "suffix-new-line": lambda m: m.arange(13.0, dtype=m.float64, requires_grad=True) / 7,
    "wrap-sci": lambda m: m.tensor([1e-6] * 12),
    "wrap-bool": lambda m: m.tensor([i % 3 == 0 for i in range(30)]),
    "arange-neg-to-pos": lambda m: m.arange(-1, 1, 0.1),
    "arange-quarter": lambda m: m.arange(0, 1, 0.25),
    "linspace": lambda m: m.linspace(0, 1, 5),
    "eye": lambda m: m.eye(2, 3),
    # summarisation (more than 1000 elements)
    "summary-1d": lambda m: m.arange(2000.0),
    "summary-1d-ints": lambda m: m.arange(1001),
    "summary-2d": lambda m: m.arange(2000.0).reshape(40, 50) / 3,
    "summary-3d": lambda m: m.arange(3000).reshape(10, 10, 30),
    "summary-narrow-rows": lambda m: m.arange(1200).reshape(400, 3),
    "summary-grad": lambda m: m.ones(1001, requires_grad=True),
    "exactly-1000": lambda m: m.arange(1000),
}


def _random_cases():
    """Random data: the same NumPy arrays go to both libraries."""
    rng = np.random.default_rng(1234)
    arrays = {
        "randn-5": rng.standard_normal(5).astype(np.float32),
        "randn-4x6": rng.standard_normal((4, 6)).astype(np.float32),
        "randn-2x3x4": rng.standard_normal((2, 3, 4)).astype(np.float32),
        "rand-scaled": (rng.random(7) * 1e4).astype(np.float32),
        "rand-tiny": (rng.random(6) * 1e-6).astype(np.float32),
        "randn-float64": rng.standard_normal((3, 3)),
        "randint": rng.integers(-1000, 1000, size=(5, 5)),
        "randn-35x35": rng.standard_normal((35, 35)).astype(np.float32),
        "randn-wide": rng.standard_normal((3, 17)).astype(np.float32) * 100,
    }
    return {name: (lambda m, a=a: m.tensor(a)) for name, a in arrays.items()}


CASES.update(_random_cases())


def to_minigrad_text(text):
    return text.replace("torch.", "minigrad.")


@pytest.mark.parametrize("name", list(CASES))
def test_repr_matches_torch(oracle, name):
    make = CASES[name]
    assert repr(make(minigrad)) == to_minigrad_text(oracle(lambda torch: repr(make(torch))))


def test_the_classic_examples_without_torch():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    assert repr(x * 2) == "tensor([2., 4.], grad_fn=<MulBackward0>)"
    assert repr(minigrad.tensor(3.0)) == "tensor(3.)"
    assert repr(minigrad.tensor([4.0, 10.0, 18.0])) == "tensor([ 4., 10., 18.])"
    assert repr(minigrad.tensor([0.1, 1.0, 0.001])) == "tensor([0.1000, 1.0000, 0.0010])"
    assert repr(minigrad.tensor([1e-5, 1e5])) == "tensor([1.0000e-05, 1.0000e+05])"
    assert repr(minigrad.zeros(0, 3)) == "tensor([], size=(0, 3))"
    assert repr(x) == "tensor([1., 2.], requires_grad=True)"
    assert repr(minigrad.tensor([1.0], dtype=minigrad.float64)) == \
        "tensor([1.], dtype=minigrad.float64)"


def test_print_and_str_equal_repr(capsys):
    t = minigrad.arange(6.0).reshape(2, 3) / 3
    print(t)
    assert capsys.readouterr().out == repr(t) + "\n"
    assert str(t) == repr(t)


def test_format_spec_matches_torch(oracle):
    def formats(m):  # a 0-d tensor formats as its Python number
        return [f"{m.tensor(3.0)}", f"{m.tensor(1 / 3):.3f}", f"{m.tensor(7):>4}"]
    assert formats(minigrad) == oracle(formats) == ["3.0", "0.333", "   7"]
    assert f"{minigrad.tensor([3.0])}" == "tensor([3.])"
    with pytest.raises(TypeError, match="unsupported format string passed to Tensor.__format__"):
        f"{minigrad.tensor([3.0]):.2f}"


def test_size_and_dtype_reprs_match_torch(oracle):
    def texts(m):
        made = [make(m) for make in (
            lambda m: m.zeros(2, 3).shape, lambda m: m.tensor(1.0).shape,
            lambda m: m.zeros(2, 3).size(), lambda m: m.Size([4]),
            lambda m: m.float32, lambda m: m.float64, lambda m: m.int64, lambda m: m.bool,
            lambda m: m.tensor([1, 2]).dtype, lambda m: m.half)]
        return [to_minigrad_text(f(x)) for x in made for f in (repr, str)]
    assert texts(minigrad) == oracle(texts)


def test_parameter_repr_matches_torch(oracle):
    make = lambda m: m.nn.Parameter(m.ones(2, 40))  # noqa: E731
    assert repr(make(minigrad)) == to_minigrad_text(oracle(lambda torch: repr(make(torch))))


# ---------------------------------------------------------------------------- print options
@pytest.fixture
def restore_printoptions():
    yield
    _formatting.set_printoptions(profile="default")


def _reprs_with_options(lib, set_options, options, makes):
    """The reprs of ``makes`` under print options, which are restored afterwards."""
    set_options(**options)
    try:
        return [to_minigrad_text(repr(make(lib))) for make in makes]
    finally:
        set_options(profile="default")


OPTIONS = [
    dict(precision=2),
    dict(precision=8),
    dict(sci_mode=True),
    dict(sci_mode=False),
    dict(linewidth=40),
    dict(threshold=10),
    dict(threshold=10, edgeitems=1),
    dict(threshold=10, edgeitems=0),
    dict(profile="short"),
    dict(profile="full"),
]
OPTION_TENSORS = [
    lambda m: m.tensor([1 / 3, 200.0, 1e-3]),
    lambda m: m.tensor([1e-7, 1.0]),
    lambda m: m.tensor([1.0, 2.0]),
    lambda m: m.arange(24.0).reshape(4, 6) / 7,
    lambda m: m.arange(30),
    lambda m: m.arange(1500.0),
]


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in
                                                                     o.items()))
def test_set_printoptions_matches_torch(oracle, restore_printoptions, options):
    expected = oracle(lambda torch: _reprs_with_options(torch, torch.set_printoptions, options,
                                                        OPTION_TENSORS))
    assert _reprs_with_options(minigrad, _formatting.set_printoptions, options,
                               OPTION_TENSORS) == expected


def test_set_printoptions_resets_sci_mode_like_torch():
    try:
        _formatting.set_printoptions(sci_mode=True)
        _formatting.set_printoptions(precision=3)
        assert _formatting.get_printoptions()["sci_mode"] is None
        assert repr(minigrad.tensor([1 / 3])) == "tensor([0.333])"
    finally:
        _formatting.set_printoptions(profile="default")


def test_default_dtype_float64_changes_the_suffixes(oracle):
    cases = [lambda m: m.tensor([1.0, 2.0]), lambda m: m.tensor([1.0], dtype=m.float32),
             lambda m: m.zeros(0), lambda m: m.zeros(0, dtype=m.float32),
             lambda m: m.tensor([], dtype=m.int64)]

    def reprs(lib):
        lib.set_default_dtype(lib.float64)
        try:
            return [to_minigrad_text(repr(make(lib))) for make in cases]
        finally:
            lib.set_default_dtype(lib.float32)
    assert reprs(minigrad) == oracle(reprs)
