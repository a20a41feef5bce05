"""Tensor data and metadata (shape, dtype, item, numpy, conversions, ...) against torch."""

import warnings

import numpy as np
import pytest
from oracle import plain
from parity_expr import agree

import minigrad


def to_minigrad_text(text):
    return text.replace("torch.", "minigrad.")


def outcome(make, lib):
    """What ``make(lib)`` gives: its repr, or the type and text of the error it raises."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return "ok", to_minigrad_text(repr(make(lib)))
        except Exception as error:  # noqa: BLE001 - the error is the result under test
            return type(error).__name__, to_minigrad_text(str(error))


def grad_leaf(m):
    return m.tensor([[1.5, -2.0, 3.0], [0.5, 4.0, -1.0]], requires_grad=True)


CASES = {
    # shape and size
    "shape": lambda m: m.zeros(2, 3).shape,
    "shape-0d": lambda m: m.tensor(2.0).shape,
    "shape-item-type": lambda m: type(m.zeros(2, 3).shape[0]),
    "size": lambda m: m.zeros(2, 3).size(),
    "size-dim": lambda m: m.zeros(2, 3).size(1),
    "size-negative-dim": lambda m: m.zeros(2, 3).size(-1),
    "size-dim-keyword": lambda m: m.zeros(2, 3).size(dim=0),
    "size-dim-too-big": lambda m: m.tensor([1, 2]).size(2),
    "size-dim-too-small": lambda m: m.tensor([1, 2]).size(-2),
    "size-of-0d": lambda m: m.tensor(1).size(0),
    "shape-slice": lambda m: m.zeros(2, 3, 4).shape[1:],
    "shape-plus-tuple": lambda m: m.zeros(2, 3).shape + (4,),
    "tuple-plus-shape": lambda m: (4,) + m.zeros(2, 3).shape,
    "shape-equals-tuple": lambda m: m.zeros(2, 3).shape == (2, 3),
    "shape-numel": lambda m: m.zeros(2, 3).shape.numel(),
    "Size-empty": lambda m: m.Size(),
    "Size-of-tensor-ints": lambda m: m.Size([m.tensor(2)]),
    "Size-of-floats": lambda m: m.Size([2.5]),
    # dtype, dims, counts
    "dtype-float": lambda m: m.tensor([1.0]).dtype,
    "dtype-int": lambda m: m.tensor([1]).dtype,
    "dtype-bool": lambda m: m.tensor([True]).dtype,
    "ndim": lambda m: m.zeros(2, 3, 4).ndim,
    "dim": lambda m: m.zeros(2, 3).dim(),
    "dim-0d": lambda m: m.tensor(2).dim(),
    "numel": lambda m: m.zeros(2, 3).numel(),
    "numel-0d": lambda m: m.tensor(2).numel(),
    "element-size": lambda m: m.tensor([1.0]).element_size(),
    "element-size-float64": lambda m: m.tensor([1.0], dtype=m.float64).element_size(),
    "is-floating-point-int": lambda m: m.tensor([1, 2]).is_floating_point(),
    "is-floating-point-float": lambda m: m.tensor([1.0]).is_floating_point(),
    "type-float": lambda m: m.tensor([1.0]).type(),
    "type-long": lambda m: m.tensor([1]).type(),
    "type-bool": lambda m: m.tensor([True]).type(),
    "type-convert": lambda m: m.tensor([1.5]).type(m.float64),
    "is-cuda": lambda m: m.tensor([1.0]).is_cuda,
    # item, tolist, conversions to Python
    "item-float": lambda m: m.tensor(3.5).item(),
    "item-int": lambda m: m.tensor(3).item(),
    "item-bool": lambda m: m.tensor([True]).item(),
    "item-nested": lambda m: m.tensor([[3.5]]).item(),
    "item-float32-precision": lambda m: m.tensor(0.1).item(),
    "item-many": lambda m: m.tensor([1, 2]).item(),
    "item-empty": lambda m: m.tensor([]).item(),
    "tolist-2d": lambda m: m.tensor([[1, 2], [3, 4]]).tolist(),
    "tolist-0d": lambda m: m.tensor(2.5).tolist(),
    "tolist-float32": lambda m: m.tensor([1.1]).tolist(),
    "tolist-bool": lambda m: m.tensor([True, False]).tolist(),
    "float": lambda m: float(m.tensor([2])),
    "float-many": lambda m: float(m.tensor([1.0, 2.0])),
    "int-truncates": lambda m: int(m.tensor([2.7])),
    "int-negative": lambda m: int(m.tensor(-2.7)),
    "int-many": lambda m: int(m.tensor([1.0, 2.0])),
    "bool-zero": lambda m: bool(m.tensor([0.0])),
    "bool-int": lambda m: bool(m.tensor(2)),
    "bool-many": lambda m: bool(m.tensor([1, 2])),
    "bool-empty": lambda m: bool(m.tensor([])),
    "index": lambda m: [10, 20, 30][m.tensor(1)],
    "index-float": lambda m: [10, 20, 30][m.tensor(1.0)],
    # len and iteration
    "len": lambda m: len(m.zeros(3, 2)),
    "len-0d": lambda m: len(m.tensor(1.0)),
    "iter-0d": lambda m: iter(m.tensor(1.0)),
    "list": lambda m: list(m.tensor([1, 2])),
    "list-rows": lambda m: list(m.tensor([[1.0, 2.0], [3.0, 4.0]])),
    "list-grad": lambda m: list(m.tensor([1.0, 2.0], requires_grad=True) * 2),
    # numpy
    "numpy": lambda m: m.tensor([1.0, 2.0]).numpy(),
    "numpy-int": lambda m: m.tensor([1, 2]).numpy().dtype,
    "numpy-requires-grad": lambda m: grad_leaf(m).numpy(),
    "numpy-non-leaf": lambda m: (grad_leaf(m) * 2).numpy(),
    "numpy-detached": lambda m: grad_leaf(m).detach().numpy(),
    "numpy-force": lambda m: grad_leaf(m).numpy(force=True),
    "np-asarray": lambda m: np.asarray(m.tensor([1.0, 2.0])),
    "np-asarray-requires-grad": lambda m: np.asarray(grad_leaf(m)),
    # T, data, detach, clone
    "T": lambda m: m.tensor([[1, 2], [3, 4]]).T,
    "T-grad": lambda m: grad_leaf(m).T,
    "T-3d-shape": lambda m: m.ones(2, 3, 4).T.shape,
    "T-3d-grad": lambda m: grad_leaf(m).unsqueeze(0).T,
    "T-1d": lambda m: grad_leaf(m)[0].T,
    "T-0d": lambda m: m.tensor(2.0, requires_grad=True).T,
    "T-0d-is-not-self": lambda m: (lambda t: t.T is t)(m.tensor(2.0)),
    "mT": lambda m: grad_leaf(m).mT,
    "mT-3d-shape": lambda m: m.ones(2, 3, 4).mT.shape,
    "mT-1d": lambda m: m.ones(3).mT,
    "mT-0d-is-self": lambda m: (lambda t: t.mT is t)(m.tensor(2.0, requires_grad=True)),
    "contiguous-is-self": lambda m: (lambda t: t.contiguous() is t)(grad_leaf(m)),
    "contiguous-of-view-is-self": lambda m: (lambda t: t.contiguous() is t)(grad_leaf(m)[0]),
    "contiguous-of-t": lambda m: grad_leaf(m).t().contiguous(),
    "contiguous-of-t-flag": lambda m: grad_leaf(m).t().contiguous().is_contiguous(),
    "swapaxes": lambda m: grad_leaf(m).swapaxes(0, 1),
    "swapdims-negative": lambda m: grad_leaf(m).swapdims(-1, 0),
    "movedim": lambda m: grad_leaf(m).movedim(1, 0),
    "movedim-repeated": lambda m: m.zeros(2, 3).movedim((0, 0), (1, 0)),
    "movedim-lengths": lambda m: m.zeros(2, 3).movedim((0,), (1, 0)),
    "select": lambda m: grad_leaf(m).select(1, -1),
    "select-out-of-range": lambda m: grad_leaf(m).select(0, 2),
    "select-negative-out-of-range": lambda m: grad_leaf(m).select(-1, -4),
    "select-0d": lambda m: m.tensor(1.0).select(0, 0),
    "index-select": lambda m: grad_leaf(m).index_select(1, m.tensor([2, 0])),
    "round": lambda m: m.tensor([0.5, 1.5, 2.5, -0.5, -1.25]).round(),
    "round-decimals": lambda m: m.tensor([0.125, 1.255, -2.5]).round(decimals=2),
    "round-int": lambda m: m.tensor([1, 2]).round(),
    "round-int-decimals": lambda m: m.tensor([1, 2]).round(decimals=1),
    "floor-ceil-trunc": lambda m: [f(m.tensor([-1.5, 0.5, 2.0]))
                                   for f in (m.floor, m.ceil, m.trunc)],
    "norm": lambda m: grad_leaf(m).norm(),
    "norm-dim-keepdim": lambda m: grad_leaf(m).norm(dim=1, keepdim=True),
    "norm-p1": lambda m: grad_leaf(m).norm(1),
    "norm-inf": lambda m: grad_leaf(m).norm(float("inf"), 0),
    "norm-0": lambda m: grad_leaf(m).norm(0),
    "norm-function": lambda m: m.norm(grad_leaf(m), dim=0),
    "norm-int": lambda m: m.tensor([3, 4]).norm(),
    "norm-nuc-order": lambda m: grad_leaf(m).norm("abc"),
    "norm-empty-inf": lambda m: m.zeros(0).norm(float("inf")),
    "sin_": lambda m: m.tensor([0.0, 1.0]).sin_(),
    "square_-int": lambda m: m.tensor([2, 3]).square_(),
    "reciprocal_-int": lambda m: m.tensor([2, 3]).reciprocal_(),
    "round_-leaf": lambda m: grad_leaf(m).round_(),
    "data": lambda m: grad_leaf(m).data,
    "data-of-non-leaf": lambda m: (grad_leaf(m) * 2).data,
    "data-flags": lambda m: (grad_leaf(m).data.requires_grad, grad_leaf(m).data.is_leaf),
    "detach": lambda m: (grad_leaf(m) * 2).detach(),
    "clone": lambda m: grad_leaf(m).clone(),
    "clone-plain": lambda m: m.tensor([1, 2]).clone(),
    # dtype conversion
    "to-float64": lambda m: m.tensor([1.0, 2.0]).to(m.float64),
    "to-cpu": lambda m: m.tensor([1.0, 2.0]).to("cpu"),
    "to-tensor": lambda m: m.tensor([1.0, 2.0]).to(m.tensor([1])),
    "to-device-dtype": lambda m: m.tensor([1.0, 2.0]).to("cpu", m.int64),
    "to-dtype-keyword": lambda m: m.tensor([1.0, 2.0]).to(dtype=m.int64),
    "to-python-float": lambda m: m.tensor([1.0, 2.0]).to(float),
    "to-bad-device": lambda m: m.tensor([1.0, 2.0]).to("float64"),
    "to-int-grad": lambda m: grad_leaf(m).to(m.int64),
    "to-float64-grad": lambda m: grad_leaf(m).to(m.float64),
    "double-grad": lambda m: grad_leaf(m).double(),
    "float-grad-same": lambda m: grad_leaf(m).float(),
    "long-grad": lambda m: grad_leaf(m).long(),
    "int": lambda m: m.tensor([1.5, -2.5]).int(),
    "bool-method": lambda m: m.tensor([1.5, 0.0]).bool(),
    "half": lambda m: m.tensor([1.5, 0.0]).half(),
    "byte": lambda m: m.tensor([1.5, 3.0]).byte(),
    "short": lambda m: m.tensor([1.5, 3.0]).short(),
    "type-as": lambda m: m.tensor([1.5]).type_as(m.tensor([1])),
    "float-of-int-grad": lambda m: m.tensor([1, 2]).float().requires_grad_(),
    # requires_grad_ on a non-leaf: True is a no-op, False is the setter's error
    "non-leaf-requires-grad-true": lambda m: (grad_leaf(m) * 2).requires_grad_(True),
    "non-leaf-requires-grad-false": lambda m: (grad_leaf(m) * 2).requires_grad_(False),
    "non-leaf-requires-grad-setter": lambda m: setattr(grad_leaf(m) * 2, "requires_grad", True),
}


@pytest.mark.parametrize("name", list(CASES))
def test_attribute_matches_torch(oracle, name):
    make = CASES[name]
    assert plain(outcome(make, minigrad)) == oracle(lambda torch: outcome(make, torch))


def test_data_shares_memory_and_is_not_tracked():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    d = x.data
    assert d.requires_grad is False and d.is_leaf and d.grad_fn is None
    d[0] = 10.0
    assert x.tolist() == [10.0, 2.0]


def test_detach_shares_memory_and_version_counter():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    d = y.detach()
    assert d.requires_grad is False and d.is_leaf
    d[0] = 7.0
    assert y.tolist()[0] == 7.0
    assert y._version == d._version == 1


def test_clone_copies_and_stays_in_the_graph():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    c = x.clone()
    assert type(c.grad_fn).__name__ == "CloneBackward0"
    with minigrad.no_grad():
        c[0] = 5.0
    assert x.tolist() == [1.0, 2.0]


def test_numpy_shares_memory():
    t = minigrad.zeros(3)
    t.numpy()[1] = 4.0
    assert t.tolist() == [0.0, 4.0, 0.0]


def test_to_returns_self_when_nothing_changes():
    t = minigrad.tensor([1.0])
    assert t.to(minigrad.float32) is t and t.to("cpu") is t and t.float() is t
    assert t.to(minigrad.float32, copy=True) is not t


def test_iteration_gives_rows():
    rows = list(minigrad.arange(6).reshape(3, 2))
    assert [r.tolist() for r in rows] == [[0, 1], [2, 3], [4, 5]]


def test_shape_is_a_tuple_that_prints_as_size():
    s = minigrad.zeros(2, 3).shape
    assert isinstance(s, tuple) and s == (2, 3)
    assert repr(s) == "minigrad.Size([2, 3])" and repr(s[1:]) == "minigrad.Size([3])"
    assert minigrad.Size([2, 3]).numel() == 6


@pytest.mark.torch
@pytest.mark.parametrize("shape", [(2, 3, 4), (3,), (), (2, 3)], ids=["3d", "1d", "0d", "2d"])
@pytest.mark.parametrize("attribute", ["T", "mT"])
def test_transpose_attributes_warn_as_torch(torch, shape, attribute):
    """``x.T`` off matrices and ``x.mT`` on 0-d tensors warn as PyTorch does (whose warnings
    come once per process; minigrad's follow Python's warning filters)."""
    def run(lib):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                result = list(getattr(lib.ones(shape), attribute).shape)
            except RuntimeError as error:
                result = str(error)
        texts = [str(w.message).split(" (Triggered internally")[0] for w in caught
                 if w.category is UserWarning]
        return result, [to_minigrad_text(t) for t in texts]

    mine, theirs = run(minigrad), run(torch)
    assert mine[0] == theirs[0]
    if theirs[1]:  # absent when PyTorch has already warned once in this process
        assert mine[1] == theirs[1]
    expected = {(): 1, (2, 3): 0}.get(shape, 1 if attribute == "T" else 0)
    assert len(mine[1]) == expected


# Operands that are neither tensors nor numbers (found by the differential fuzzer, which feeds
# the tuples that max(dim), split and chunk return into the next op). An operator returns
# NotImplemented, so Python raises its own TypeError (== falls back to identity); a method
# raises the TypeError of PyTorch's argument parser.
OPERAND_CASES = {
    "+ tuple": "X + (X, X)",
    "+ list": "X + [1, 2]",
    "+ return type": "X + X.max(0)",
    "+= return type": "(lambda x: O.iadd(x, x.max(0)))(X.clone())",
    "< list": "X < [1, 2]",
    "& return type": "X & X.max(0)",
    "** tuple": "X ** (X, X)",
    "// tuple": "X // (X, X)",
    "% list": "X % [1, 2]",
    "@ tuple": "X @ (X, X)",
    "== tuple": "X == (X, X)",
    "!= list": "X != [1, 2]",
    "== None": "X == None",
    "* tuple of ints": "X * (1, 2)",
    "+ numpy array": "X + N.array([1.0, 2.0])",
    "+ numpy scalar": "X + N.float32(2)",
    "add tuple": "X.add((X, X))",
    "add numpy array": "X.add(N.array([1.0, 2.0]))",
    "mul_ return type": "X.clone().mul_(X.max(0))",
    "copy_ list": "X.clone().copy_([1.0, 2.0])",
    "ge return type": "X.ge(X.max(0))",
    "eq list": "X.eq([1, 2])",
    "pow tuple": "X.pow((X, X))",
    "remainder list": "X.remainder([1, 2])",
    "floor_divide tuple": "X.floor_divide((X, X))",
    "fill_ return type": "X.clone().fill_(X.max(0))",
    "lt_ list": "X.clone().lt_([1, 2])",
    "clamp_min tuple": "X.clamp_min((X, X))",
    "masked_fill return type": "X.masked_fill(X.max(0), 3)",
    "masked_fill value tuple": "X.masked_fill(X > 0, (1, 2))",
    "maximum return type": "X.maximum(X.max(0))",
    "& float number": "T.tensor([1, 1], dtype=T.uint8) & 0.5",
    "| float number on int64": "T.tensor([1, 1]) | 2.5",
    "^ float64 0-d tensor": "T.tensor([1, 1], dtype=T.uint8) ^ T.tensor(0.5, dtype=T.float64)",
    "int ** negative int tensor": "3 ** T.tensor([-1, 2])",
    "-1 ** negative int tensor": "(-1) ** T.tensor([-1, 2, -2])",
    "False ** int tensor": "False ** T.tensor([-1, 0, 2])",
    "stride of an empty tensor": "T.zeros(2, 0, 3).stride()",
    "stride of an empty tensor, one dim": "T.zeros(0, 3).stride(1)",
    "invert float": "~X",
    "invert uint8": "~T.zeros(2, dtype=T.uint8)",
}


@pytest.mark.parametrize("src", OPERAND_CASES.values(), ids=OPERAND_CASES.keys())
def test_operand_errors_match_torch(oracle, src):
    agree(oracle, f"(lambda X: {src})(T.tensor([1.0, 2.0]))",
          names={"O": __import__("operator"), "N": np})



def _no_grad_view(lib, x):
    with lib.no_grad():
        return x.reshape(-1)


NO_GRAD_VIEW_CASES = {  # a view made under no_grad of a leaf: requires grad, gradient goes nowhere
    "flags": "(lambda v: (v.requires_grad, v.is_leaf, v.grad_fn))(W(T, X))",
    "backward": "(lambda v: (v.sum().backward(), X.grad, v.grad))(W(T, X))",
    "backward-inputs": "(lambda v: (v.sum().backward(inputs=[v]), v.grad))(W(T, X))",
    "autograd.grad": "(lambda v: T.autograd.grad(v.sum(), v))(W(T, X))",
    "retain_grad": "(lambda v: (v.retain_grad(), v.retains_grad))(W(T, X))",
}


@pytest.mark.parametrize("src", NO_GRAD_VIEW_CASES.values(), ids=NO_GRAD_VIEW_CASES.keys())
def test_no_grad_view_matches_torch(oracle, src):
    agree(oracle, f"(lambda X: {src})(T.tensor([-1.0], requires_grad=True))",
          names={"W": _no_grad_view})


# A NumPy array as an operand: a tensor's operator declines it, NumPy's reflected operator
# computes with NumPy's dtypes and values and ``__array_wrap__`` makes the result a tensor, as in
# PyTorch; ``==`` takes the array itself; function forms refuse it.
NUMPY_OPERANDS = [
    "T.tensor([1.0, 2.0]) + np.array(2.0)",
    "T.tensor([1.0, 2.0]) + np.array(2.0, dtype=np.float32)",
    "T.tensor([1.0, 2.0]) + np.array([2, 1])",
    "T.tensor([1, 2]) + np.array([2, 1], dtype=np.int32)",
    "T.tensor([1.0, 2.0]) - np.array([2.0, 1.0])", "T.tensor([1.0, 2.0]) * np.array([True, False])",
    "T.tensor([1.0, 2.0]) / np.array([2.0, 1.0])", "T.tensor([1.0, 2.0]) ** np.array([2.0, 1.0])",
    "T.tensor([3, 4]) // np.array([2, 3])", "T.tensor([3, 4]) % np.array([2, 3])",
    "T.tensor([1.0, 2.0]) @ np.array([2.0, 1.0])", "T.tensor([True]) & np.array([True])",
    "T.tensor([1.0, 2.0], requires_grad=True) + np.array([2.0, 1.0])",
    "T.tensor([1.0, 2.0]) == np.array([2.0, 1.0])", "np.array([1.0, 2.0]) == T.tensor([1.0, 2.0])",
    "T.tensor([1.0, 2.0]) != np.array([2.0, 1.0])", "T.tensor([1.0, 2.0]) < np.array([2.0, 1.0])",
    "np.array([1.0, 2.0]) + T.tensor([1.0, 2.0])", "np.array([1.0, 2.0]) * T.tensor([1.0, 2.0])",
    "np.array([1.0, 2.0]) / T.tensor([1.0, 2.0])", "np.array([1.0, 2.0]) @ T.tensor([1.0, 2.0])",
    "np.float64(2.0) - T.tensor([1.0, 2.0])", "T.tensor([1, 2]) * np.int8(2)",
    "T.tensor([1.0, 2.0]).__iadd__(np.array([2.0, 1.0]))",
    "(lambda t: (t.__iadd__(np.array([2.0, 1.0])), t))(T.tensor([1.0, 2.0]))",
    "T.add(T.tensor([1.0, 2.0]), np.array([2.0, 1.0]))", "T.tensor([1.0, 2.0]).mul(np.array(2.0))",
    "T.maximum(T.tensor([1.0, 2.0]), np.array([2.0, 1.0]))",
    "T.eq(T.tensor([1.0, 2.0]), np.array([2.0, 1.0]))", "T.lt(T.tensor([1.0]), [1.0])",
]


@pytest.mark.parametrize("src", NUMPY_OPERANDS)
def test_numpy_operands_match_torch(oracle, src):
    agree(oracle, src, names={"np": np})


OTHER_TENSOR = [  # found by the differential fuzzer
    "T.zeros(2).reshape_as(1)", "T.zeros(2).view_as(1)", "T.zeros(2).expand_as(1)",
    "T.zeros(2).type_as(1)", "T.zeros(2, 3).swapaxes(axis0=0, axis1=1)",
    "T.zeros(2, 3).swapdims(dim0=0, dim1=1)", "T.zeros(2, 3).swapaxes(0)",
]


@pytest.mark.parametrize("src", OTHER_TENSOR)
def test_other_tensor_arguments_match_torch(oracle, src):
    agree(oracle, src)
