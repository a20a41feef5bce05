"""``minigrad.autograd.profiler``: PyTorch's older name for the profiler.

It is the same profiler as ``minigrad.profiler`` (see there): ``with profile() as prof:``,
``record_function``, ``prof.key_averages().table(sort_by="self_cpu_time_total")``.

Example:
    >>> from minigrad.autograd import profiler
    >>> with profiler.profile() as prof:
    ...     _ = minigrad.ones(2, requires_grad=True).sin()
    >>> prof.key_averages()[0].key
    'minigrad::Sin'
"""

from minigrad.profiler import EventList, FunctionEvent, FunctionEventAvg, profile, record_function

__all__ = ["profile", "record_function", "EventList", "FunctionEvent", "FunctionEventAvg"]
