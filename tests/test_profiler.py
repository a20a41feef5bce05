"""``minigrad.profiler`` / ``minigrad.autograd.profiler``: real timings of minigrad's ops and
backward nodes, PyTorch's table layout and backward event names (checked against torch)."""

import re
import time

import pytest
from parity_check import check

import minigrad
from minigrad.autograd import observe
from minigrad.autograd.function import Function
from minigrad.profiler import BACKWARD_PREFIX, profile, record_function


def program(m):
    """A small training step, profiled with the library's ``torch.profiler``."""
    x = m.tensor([[1.0, -2.0], [3.0, 0.5]], requires_grad=True)
    w = m.tensor([[0.5], [-1.0]], requires_grad=True)
    with m.profiler.profile(activities=[m.profiler.ProfilerActivity.CPU]) as prof:
        with m.profiler.record_function("model_inference"):
            loss = (x @ w).tanh().pow(2).sum()
        loss.backward()
    return prof


def columns(table):
    header = table.splitlines()[1]
    return re.split(r"\s{2,}", header.strip())


def backward_calls(prof):
    """{backward node name: calls}, leaving out the gradient accumulators (named per library)."""
    return {e.key[len(BACKWARD_PREFIX):]: e.count for e in prof.key_averages()
            if e.key.startswith(BACKWARD_PREFIX) and "AccumulateGrad" not in e.key}


CASES = {
    "table-columns": lambda m: columns(program(m).key_averages().table(sort_by="cpu_time_total")),
    "table-footer": lambda m: program(m).key_averages().table().splitlines()[-1].split(":")[0],
    "backward-nodes": lambda m: backward_calls(program(m)),
    "record-function-row": lambda m: [e.count for e in program(m).key_averages()
                                      if e.key == "model_inference"],
    "bad-sort-key": lambda m: program(m).key_averages().table(sort_by="foo"),
    "legacy-api": lambda m: columns(_legacy(m).key_averages().table()),
}


def _legacy(m):
    with m.autograd.profiler.profile() as prof:
        m.ones(2, requires_grad=True).exp()
    return prof


@pytest.mark.parametrize("name", list(CASES))
def test_matches_torch(oracle, name):
    check(oracle, CASES[name])


class Sleepy(Function):
    """A custom Function whose forward takes at least 5 ms."""

    @staticmethod
    def forward(ctx, x):
        time.sleep(0.005)
        return x.clone()

    @staticmethod
    def backward(ctx, grad):
        return grad


def test_it_really_times_ops():
    x = minigrad.ones(2, requires_grad=True)
    with profile() as prof:
        Sleepy.apply(x)
    (row,) = [e for e in prof.key_averages() if e.key == "minigrad::Sleepy"]
    assert row.count == 1 and row.cpu_time_total >= 5000  # microseconds; sleep is a minimum


def test_totals_are_self_plus_children():
    prof = program(minigrad)
    for event in prof.events():
        children = sum(c.cpu_time_total for c in event.cpu_children)
        assert event.self_cpu_time_total == pytest.approx(event.cpu_time_total - children)
        assert event.self_cpu_time_total >= 0
    (block,) = [e for e in prof.events() if e.name == "model_inference"]
    assert [c.name for c in block.cpu_children] == [
        "minigrad::Mm", "minigrad::Tanh", "minigrad::Pow", "minigrad::Sum"]


def test_table_is_sorted_and_limited():
    prof = program(minigrad)
    text = prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=3)
    rows = text.splitlines()[3:6]
    assert len(rows) == 3 and text.splitlines()[6].startswith("---")
    averages = sorted(prof.key_averages(), key=lambda e: -e.self_cpu_time_total)
    shown = [e.key if len(e.key) <= 55 else e.key[:52] + "..." for e in averages[:3]]
    assert [re.split(r"\s{2,}", r.strip())[0] for r in rows] == shown


def test_nothing_is_wrapped_or_observed_outside_a_profile():
    plain = Function.__dict__["apply"]
    with profile():
        assert Function.__dict__["apply"] is not plain
        assert observe.observers
    assert Function.__dict__["apply"] is plain and not observe.observers


def test_record_function_as_a_decorator_and_nested_profiles():
    @record_function("step")
    def step():
        return (minigrad.ones(2, requires_grad=True) * 3).sum()

    with profile() as outer:
        with profile() as inner:
            step()
    for prof in (outer, inner):
        assert {e.key: e.count for e in prof.key_averages()}["step"] == 1


def test_an_error_in_backward_closes_the_ranges():
    class Broken(Function):
        @staticmethod
        def forward(ctx, x):
            return x.clone()

        @staticmethod
        def backward(ctx, grad):
            raise ValueError("broken backward")

    x = minigrad.ones(2, requires_grad=True)
    with profile() as prof:
        with pytest.raises(ValueError):
            Broken.apply(x).sum().backward()
    assert all(e.end_us is not None for e in prof._events)
    assert any(e.key == BACKWARD_PREFIX + "BrokenBackward" for e in prof.key_averages())


def test_chrome_trace(tmp_path):
    import json
    prof = program(minigrad)
    path = tmp_path / "trace.json"
    prof.export_chrome_trace(str(path))
    names = {e["name"] for e in json.loads(path.read_text())["traceEvents"]}
    assert "model_inference" in names
