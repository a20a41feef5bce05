"""ValueTable (minigrad/autograd/_values.py): each distinct array stored once, never a wrong
value for an array that only looks like another."""

import numpy as np

import minigrad
from minigrad.autograd import _values
from minigrad.autograd._values import ValueTable, value_to_array
from minigrad.autograd.graph import record


def _with_middle(value, n=1000):
    """float32 arrays too long to be looked up by all their bytes, equal but for the middle."""
    array = np.zeros(n, np.float32)
    array[n // 2] = value
    assert array.nbytes > _values._WHOLE_BYTES
    return array


def _restored(table, ref):
    return np.frombuffer(table._entries[ref][2], table._entries[ref][0])


def test_equal_arrays_share_one_entry_whatever_their_length():
    table = ValueTable(full_limit=10_000)
    for make in (lambda: np.arange(3.0), lambda: _with_middle(2.0)):
        first, again = make(), make()
        assert first is not again
        assert table.add(first) == table.add(again)
    assert len(table) == 2


def test_arrays_alike_at_both_ends_keep_their_own_values():
    table = ValueTable(full_limit=10_000)
    arrays = [_with_middle(float(k)) for k in range(3 * _values._SAME_ENDS)]
    refs = [table.add(a) for a in arrays]
    assert len(set(refs)) == len(arrays)  # a new array is never taken for an older one
    for array, ref in zip(arrays, refs):
        np.testing.assert_array_equal(_restored(table, ref), array)
        np.testing.assert_array_equal(value_to_array(table.value(ref)), array)
    # the first ones told apart are still found again by content
    assert table.add(_with_middle(1.0)) == refs[1]


def test_a_dtype_or_shape_apart_is_another_value():
    table = ValueTable(full_limit=10_000)
    array = _with_middle(5.0)
    refs = {table.add(array), table.add(array.reshape(20, 50)), table.add(array.view(np.int32))}
    assert len(refs) == 3


def test_a_recording_tells_apart_gradients_equal_at_both_ends():
    x = minigrad.tensor(np.zeros(1000, np.float32), requires_grad=True)
    weights = [_with_middle(float(k + 1)) for k in range(3)]
    with record(names={}, full_limit=10_000) as rec:
        loss = sum((x * minigrad.tensor(w)).sum() for w in weights)
        loss.backward()
    sent = [rec.values[e["grads_out"][0]] for e in rec.events
            if e["kind"] == "node_ran" and rec.snapshot[e["node"]]["name"] == "MulBackward0"]
    middles = sorted(value_to_array(v)[500] for v in sent)
    assert middles == [1.0, 2.0, 3.0]
    (accumulated,) = [e for e in rec.events if e["kind"] == "grad_accumulated"]
    np.testing.assert_array_equal(value_to_array(rec.values[accumulated["after"]]),
                                  sum(weights))
