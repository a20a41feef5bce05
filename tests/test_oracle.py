"""The torch-answer store: plain data from tensors and errors, NaN-aware equality, replay."""

import json

import pytest
from oracle import Oracle, assert_matches, plain_equal, to_plain

import minigrad


def test_plain_tensor_and_error():
    t = minigrad.tensor([1.0, float("nan")], requires_grad=True) * 2
    plain = to_plain(t)
    assert plain["dtype"] == "float32" and plain["shape"] == [2]
    assert plain["grad_fn"] == "MulBackward0" and plain["requires_grad"] is True
    err = to_plain(RuntimeError("first line\nsecond"))
    assert err == {"error": "RuntimeError", "message": "first line"}


def test_equality_is_nan_aware_and_typed():
    assert plain_equal([float("nan"), 1.0], [float("nan"), 1.0])
    assert not plain_equal([1.0], [1.5])
    assert plain_equal([1.0], [1.0 + 1e-9], atol=1e-6)
    assert not plain_equal(True, 1)


def test_stored_answer_replays_without_torch(tmp_path, monkeypatch):
    import oracle as oracle_module
    monkeypatch.setattr(oracle_module, "ANSWERS_DIR", tmp_path)
    (tmp_path / "m.json").write_text(json.dumps({"k": {"error": "TypeError", "message": "x"}}))
    store = Oracle(None)
    assert store.ask("m", "k", lambda torch: 1 / 0) == {"error": "TypeError", "message": "x"}
    with pytest.raises(pytest.skip.Exception):
        store.ask("m", "missing", lambda torch: 1)


def test_live_answer_is_recorded(tmp_path, monkeypatch):
    import oracle as oracle_module
    monkeypatch.setattr(oracle_module, "ANSWERS_DIR", tmp_path)
    store = Oracle(torch=object())
    assert store.ask("m", "k", lambda torch: [1, 2.5]) == [1, 2.5]
    store.save()
    assert json.loads((tmp_path / "m.json").read_text()) == {"k": [1, 2.5]}


def test_matches_against_torch(oracle):
    expected = oracle(lambda torch: torch.tensor([1.0, 2.0], requires_grad=True) * 3)
    assert_matches(minigrad.tensor([1.0, 2.0], requires_grad=True) * 3, expected)
