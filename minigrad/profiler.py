"""``minigrad.profiler``: how long minigrad's own ops take, as ``torch.profiler`` reports it.

Inside ``with profile() as prof:`` every op that goes through ``Function.apply`` (all the
differentiable ops, custom Functions) is timed as ``minigrad::<Op>``, every node the backward
engine runs as ``autograd::engine::evaluate_function: <Node>`` (through the engine's
observers, ``minigrad.autograd.observe``), and every ``record_function("name")`` block as
``name``. Ranges nest: an op run inside a ``record_function`` block, or by a backward formula,
is its child, so each row has a total time and a self time (the total minus its children's).
``prof.key_averages().table(sort_by="cpu_time_total")`` prints PyTorch's table.

Outside a profile nothing is wrapped or observed: profiling costs nothing until it is used.

NB: PyTorch times its C++ kernels (``aten::mul``); minigrad times its Python ops by their
class names (``minigrad::Mul``). Work that does not go through ``Function.apply`` (tensor
factories, comparisons that build no graph) is not listed. There is no CUDA, no ``schedule``
and no memory profiling. Without ``create_graph`` the backward formulas of ops such as ``Mul``
run on NumPy arrays, so only the forward ``Mul`` is counted (PyTorch also counts the two
``aten::mul`` inside ``MulBackward0``).

Example:
    >>> x = minigrad.ones(3, requires_grad=True)
    >>> with minigrad.profiler.profile() as prof:
    ...     with minigrad.profiler.record_function("forward"):
    ...         y = (x * x).sum()
    ...     y.backward()
    >>> calls = {e.key: e.count for e in prof.key_averages()}
    >>> calls["forward"], calls["minigrad::Mul"], calls[BACKWARD_PREFIX + "MulBackward0"]
    (1, 1, 1)
"""

import enum
import functools
import json
import time

from minigrad.autograd import observe
from minigrad.autograd.function import Function

__all__ = ["profile", "record_function", "ProfilerActivity", "EventList", "FunctionEvent",
           "FunctionEventAvg"]

_active = []  # the profiles that are recording (innermost last)
BACKWARD_PREFIX = "autograd::engine::evaluate_function: "


class ProfilerActivity(enum.Enum):
    """What to profile: the CPU (minigrad's only device) or CUDA (accepted, nothing to see)."""

    CPU = 0
    CUDA = 1


class FunctionEvent:
    """One timed range: its name, start and end (microseconds), parent and children."""

    def __init__(self, name, start, parent):
        self.name, self.key = name, name
        self.start_us, self.end_us = start, None
        self.cpu_parent, self.cpu_children = parent, []
        if parent is not None:
            parent.cpu_children.append(self)

    @property
    def cpu_time_total(self):
        return self.end_us - self.start_us

    @property
    def self_cpu_time_total(self):
        return self.cpu_time_total - sum(c.cpu_time_total for c in self.cpu_children)

    def __repr__(self):
        return f"<FunctionEvent name={self.name!r} cpu_time_total={self.cpu_time_total:.3f}us>"


class FunctionEventAvg:
    """The events of one name together: ``count``, ``cpu_time_total``, ``self_cpu_time_total``
    and ``cpu_time`` (the average per call), in microseconds."""

    def __init__(self, key):
        self.key, self.count = key, 0
        self.cpu_time_total = self.self_cpu_time_total = 0.0

    def add(self, event):
        self.count += 1
        self.cpu_time_total += event.cpu_time_total
        self.self_cpu_time_total += event.self_cpu_time_total
        return self

    @property
    def cpu_time(self):
        return self.cpu_time_total / self.count if self.count else 0.0

    def __repr__(self):
        return (f"<FunctionEventAvg key={self.key!r} count={self.count} "
                f"cpu_time_total={self.cpu_time_total:.3f}us>")


def _format_time(us):
    if us >= 1e6:
        return f"{us / 1e6:.3f}s"
    if us >= 1e3:
        return f"{us / 1e3:.3f}ms"
    return f"{us:.3f}us"


class EventList(list):
    """A list of events (or of averages) that prints as PyTorch's profiler table."""

    def table(self, sort_by=None, row_limit=100, max_name_column_width=55, header=None,
              top_level_events_only=False):
        """The rows as text: Name, Self CPU %, Self CPU, CPU total %, CPU total, CPU time avg,
        # of Calls; sorted by the named attribute (largest first), e.g. ``"cpu_time_total"``,
        ``"self_cpu_time_total"``, ``"cpu_time"`` or ``"count"``."""
        rows = list(self)
        if sort_by is not None:
            rows.sort(key=lambda e: getattr(e, sort_by), reverse=True)
        if row_limit is not None and row_limit > 0:
            rows = rows[:row_limit]
        total = sum(e.self_cpu_time_total for e in self) or 1.0
        names = [_shorten(e.key, max_name_column_width) for e in rows]
        width = max([len(n) for n in names] + [len("Name")])
        rule = "-" * width + "  " + "  ".join(["-" * 12] * 6) + "  "
        titles = ["Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg",
                  "# of Calls"]
        lines = [rule, _row("Name", titles, width), rule]
        for name, e in zip(names, rows):
            lines.append(_row(name, [f"{100 * e.self_cpu_time_total / total:.2f}%",
                                     _format_time(e.self_cpu_time_total),
                                     f"{100 * e.cpu_time_total / total:.2f}%",
                                     _format_time(e.cpu_time_total),
                                     _format_time(e.cpu_time_total / max(e.count, 1)),
                                     str(e.count)], width))
        self_total = sum(e.self_cpu_time_total for e in self)
        lines += [rule, f"Self CPU time total: {_format_time(self_total)}", ""]
        return "\n".join(lines)

    def __str__(self):
        return self.table()


def _shorten(name, width):
    return name if len(name) <= width else name[:width - 3] + "..."


def _row(name, cells, width):
    return name.rjust(width) + "  " + "  ".join(c.rjust(12) for c in cells) + "  "


def _now_us():
    return time.perf_counter_ns() / 1e3


class profile:
    """Record the time of minigrad's ops, backward nodes and ``record_function`` blocks.

    Args:
        activities: ``[ProfilerActivity.CPU]`` (the default; CUDA adds nothing).
        record_shapes, profile_memory, with_stack, with_flops, with_modules: accepted;
            NB: minigrad records none of these.
        schedule, on_trace_ready: NB: not supported (a ``schedule`` raises).

    Example:
        >>> with minigrad.profiler.profile() as prof:
        ...     _ = minigrad.ones(2, requires_grad=True).exp()
        >>> [(e.key, e.count) for e in prof.key_averages()]
        [('minigrad::Exp', 1)]
    """

    def __init__(self, enabled=True, *, activities=None, schedule=None, on_trace_ready=None,
                 record_shapes=False, profile_memory=False, with_stack=False, with_flops=False,
                 with_modules=False, use_cuda=False, **ignored):
        if schedule is not None:
            raise NotImplementedError("minigrad's profiler records everything between start "
                                      "and stop: `schedule` is not supported")
        self.enabled = enabled
        self.on_trace_ready = on_trace_ready
        self._events, self._open, self._node_ranges = [], [], {}
        self._observer = None

    # ------------------------------------------------------------------ start and stop
    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()
        return False

    def start(self):
        if not self.enabled:
            return
        if not _active:
            _wrap_apply()
        _active.append(self)
        self._observer = self._on_engine_event
        observe.add_observer(self._observer)

    def stop(self):
        if self not in _active:
            return
        observe.remove_observer(self._observer)
        _active.remove(self)
        if not _active:
            _unwrap_apply()
        while self._open:  # close ranges left open by an error
            self.close(self._open[-1])
        if self.on_trace_ready is not None:
            self.on_trace_ready(self)

    def step(self):
        """Marks a training step (accepted; minigrad records the whole run)."""

    # ------------------------------------------------------------------ ranges
    def open(self, name):
        parent = self._open[-1] if self._open else None
        event = FunctionEvent(name, _now_us(), parent)
        self._open.append(event)
        self._events.append(event)
        return event

    def close(self, event):
        event.end_us = _now_us()
        while self._open and self._open[-1] is not event:  # inner ranges end with it
            self._open.pop().end_us = event.end_us
        if self._open:
            self._open.pop()

    def _on_engine_event(self, kind, **fields):
        if kind == "node_started":
            self._node_ranges[fields["node"]] = self.open(BACKWARD_PREFIX + fields["node"].name())
        elif kind == "node_ran":
            event = self._node_ranges.pop(fields["node"], None)
            if event is not None:
                self.close(event)
        elif kind in ("error", "backward_finished"):
            for event in self._node_ranges.values():
                self.close(event)
            self._node_ranges.clear()

    # ------------------------------------------------------------------ results
    def events(self):
        """Every timed range, in the order they started."""
        return EventList(e for e in self._events if e.end_us is not None)

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0):
        """One row per name: calls and times added up (see ``FunctionEventAvg``)."""
        averages = {}
        for event in self.events():
            averages.setdefault(event.key, FunctionEventAvg(event.key)).add(event)
        return EventList(averages.values())

    def table(self, sort_by=None, row_limit=100, **kwargs):
        return self.key_averages().table(sort_by=sort_by, row_limit=row_limit, **kwargs)

    def export_chrome_trace(self, path):
        """Write the ranges as a Chrome trace (open it in chrome://tracing or Perfetto)."""
        trace = [{"name": e.name, "ph": "X", "cat": "cpu_op", "ts": e.start_us,
                  "dur": e.cpu_time_total, "pid": 0, "tid": 0} for e in self.events()]
        with open(path, "w") as file:
            json.dump({"traceEvents": trace}, file)

    def __str__(self):
        return self.table()


class record_function:
    """Time a block of code under ``name`` (a context manager or a decorator).

    Example:
        >>> with minigrad.profiler.profile() as prof:
        ...     with minigrad.profiler.record_function("my_block"):
        ...         _ = minigrad.ones(2, requires_grad=True) * 2
        >>> [e.key for e in prof.events()]
        ['my_block', 'minigrad::Mul']
    """

    def __init__(self, name, args=None):
        self.name = name
        self._ranges = []

    def __enter__(self):
        self._ranges = [(p, p.open(self.name)) for p in _active]
        return self

    def __exit__(self, *exc):
        for prof, event in self._ranges:
            prof.close(event)
        self._ranges = []
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with record_function(self.name):
                return fn(*args, **kwargs)
        return wrapper


# ---------------------------------------------------------------------------- timing the ops
_plain_applies = {}  # class -> its own ``apply`` while a profile records


def _timed(plain):
    def timed_apply(cls, *args):
        ranges = [(p, p.open("minigrad::" + cls.__name__)) for p in _active]
        try:
            return plain.__func__(cls, *args)
        finally:
            for prof, event in ranges:
                prof.close(event)
    return timed_apply


def _function_classes(cls=Function):
    yield cls
    for sub in cls.__subclasses__():
        yield from _function_classes(sub)


def _wrap_apply():
    """While a profile records, every ``apply`` of ``Function`` and of any subclass that
    defines its own is timed."""
    for cls in set(_function_classes()):
        plain = cls.__dict__.get("apply")
        if isinstance(plain, classmethod):
            _plain_applies[cls] = plain
            cls.apply = classmethod(_timed(plain))


def _unwrap_apply():
    for cls, plain in _plain_applies.items():
        cls.apply = plain
    _plain_applies.clear()
