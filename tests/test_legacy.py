"""Legacy names of old tutorials: ``autograd.Variable``, ``FloatTensor([1, 2])``, ``LongTensor``,
``Tensor(2, 3)``, ``isinstance(t, FloatTensor)``, ``t.type()``, against torch."""

import pytest
from parity_check import check

import minigrad
from minigrad.autograd import Variable


def variable(m):
    return m.autograd.Variable


CASES = {
    "float-tensor": lambda m: m.FloatTensor([1, 2]),
    "double-tensor": lambda m: m.DoubleTensor([1, 2]),
    "long-tensor": lambda m: m.LongTensor([1.7, 2]),
    "int-tensor": lambda m: m.IntTensor([1, 2]),
    "bool-tensor": lambda m: m.BoolTensor([1, 0]),
    "byte-tensor": lambda m: m.ByteTensor([1, 2]),
    "half-tensor": lambda m: m.HalfTensor([1, 2]),
    "short-char": lambda m: [m.ShortTensor([1]), m.CharTensor([1])],
    "float-tensor-shape": lambda m: m.FloatTensor(2, 3).shape,
    "float-tensor-empty": lambda m: m.FloatTensor(),
    "float-tensor-of-same-dtype": lambda m: m.FloatTensor(m.tensor([1.0, 2.0])),
    "float-tensor-of-other-dtype": lambda m: m.FloatTensor(m.tensor([1, 2])),
    "float-tensor-device": lambda m: m.FloatTensor([1, 2], device="cpu"),
    "tensor-shape": lambda m: m.Tensor(2, 3).shape,
    "tensor-shape-dtype": lambda m: m.Tensor(2, 3).dtype,
    "tensor-size": lambda m: m.Tensor(m.Size([2])).shape,
    "tensor-data": lambda m: m.Tensor([1, 2]),
    "tensor-nested": lambda m: m.Tensor([[1, 2], [3, 4]]),
    "tensor-tuple-is-data": lambda m: m.Tensor((2, 3)),
    "tensor-empty": lambda m: m.Tensor(),
    "tensor-of-tensor": lambda m: m.Tensor(m.tensor([1, 2])),
    "tensor-float-scalar": lambda m: m.Tensor(2.5),
    "tensor-str": lambda m: m.Tensor("a"),
    "tensor-negative": lambda m: m.Tensor(-1),
    "tensor-cuda": lambda m: m.Tensor([1.0], device="cuda"),
    "isinstance": lambda m: [isinstance(m.tensor([1.0]), m.FloatTensor),
                             isinstance(m.tensor([1]), m.FloatTensor),
                             isinstance(m.tensor([1]), m.LongTensor),
                             isinstance(m.tensor([1.0], dtype=m.float64), m.DoubleTensor),
                             isinstance(m.nn.Parameter(m.ones(1)), m.FloatTensor),
                             isinstance(3, m.FloatTensor)],
    "legacy-class-repr": lambda m: [repr(m.FloatTensor), repr(m.LongTensor)],
    "legacy-class-dtype": lambda m: [m.FloatTensor.dtype, m.LongTensor.dtype],
    "legacy-not-subclass": lambda m: issubclass(m.FloatTensor, m.Tensor),
    "constructed-type": lambda m: type(m.FloatTensor([1.0])) is m.Tensor,
    # t.type()
    "type-names": lambda m: [m.tensor([1.0]).type(), m.tensor([1]).type(),
                             m.tensor([True]).type(), m.tensor([1.0], dtype=m.float64).type()],
    "type-legacy-class": lambda m: m.tensor([1.5]).type(m.LongTensor),
    "type-string": lambda m: m.tensor([1.5]).type("torch.IntTensor"),
    "type-dtype": lambda m: m.tensor([1.5]).type(m.float64),
    "type-same": lambda m: (lambda t: t.type(m.FloatTensor) is t)(m.tensor([1.0])),
    "type-grad": lambda m: m.tensor([1.0], requires_grad=True).type(m.DoubleTensor),
    "type-bad-string": lambda m: m.tensor([1.0]).type("foo"),
    "type-bad-object": lambda m: m.tensor([1.0]).type(int),
    # Variable
    "variable": lambda m: variable(m)(m.tensor([1.0, 2.0])),
    "variable-requires-grad": lambda m: variable(m)(m.tensor([1.0, 2.0]), requires_grad=True),
    "variable-int-requires-grad": lambda m: variable(m)(m.tensor([1, 2]), requires_grad=True),
    "variable-list": lambda m: variable(m)([1.0, 2.0]),
    "variable-empty": lambda m: variable(m)(),
    "variable-volatile": lambda m: variable(m)(m.tensor([1.0]), volatile=True),
    "variable-of-leaf": lambda m: (lambda v: [variable(m)(v) is v,
                                             variable(m)(v).requires_grad, variable(m)(v).is_leaf])(
        m.tensor([1.0], requires_grad=True)),
    "variable-of-non-leaf": lambda m: (lambda u: [variable(m)(u).grad_fn,
                                                 variable(m)(u).requires_grad])(
        m.tensor([1.0], requires_grad=True) * 2),
    "variable-isinstance": lambda m: [isinstance(m.tensor(1.0), variable(m)),
                                      isinstance(1.0, variable(m))],
}


@pytest.mark.parametrize("name", list(CASES))
def test_matches_torch(oracle, name):
    check(oracle, CASES[name])


def _default_type(m, t):
    m.set_default_tensor_type(t)
    try:
        return [m.tensor([1.0]), m.get_default_dtype(), m.Tensor([2])]
    finally:
        m.set_default_dtype(m.float32)


DEFAULT_TYPE_CASES = {
    "double": lambda m: _default_type(m, m.DoubleTensor),
    "name": lambda m: _default_type(m, "torch.DoubleTensor"),
    "integer-refused": lambda m: _default_type(m, m.LongTensor),
}


@pytest.mark.parametrize("name", list(DEFAULT_TYPE_CASES))
def test_set_default_tensor_type_matches_torch(oracle, name):
    check(oracle, DEFAULT_TYPE_CASES[name])


def test_set_default_tensor_type_warns():
    with pytest.warns(UserWarning, match="set_default_tensor_type\\(\\) is deprecated"):
        minigrad.set_default_tensor_type(minigrad.FloatTensor)


def test_variable_shares_data():
    x = minigrad.tensor([1.0, 2.0])
    v = Variable(x, requires_grad=True)
    x[0] = 5.0
    assert v.tolist() == [5.0, 2.0] and not x.requires_grad


def test_variable_warns_for_volatile():
    with pytest.warns(UserWarning, match="volatile was removed"):
        Variable(minigrad.tensor([1.0]), volatile=True)


def test_legacy_tensor_trains_like_a_tensor():
    w = Variable(minigrad.Tensor([[0.5, -1.0]]), requires_grad=True)
    loss = (w @ minigrad.FloatTensor([[2.0], [3.0]])).sum()
    loss.backward()
    assert w.grad.tolist() == [[2.0, 3.0]]


def test_tensor_of_shape_is_zeros():
    # NB: PyTorch leaves it uninitialised; minigrad fills it with zeros
    assert minigrad.Tensor(2, 3).tolist() == [[0.0] * 3] * 2


def test_tensor_constructor_follows_default_dtype():
    minigrad.set_default_dtype(minigrad.float64)
    try:
        assert minigrad.Tensor([1, 2]).dtype is minigrad.float64
    finally:
        minigrad.set_default_dtype(minigrad.float32)
