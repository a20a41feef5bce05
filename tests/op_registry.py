"""One registry of op cases drives every op test: forward against NumPy where given, numerical
gradient checks (no torch needed), node names, and parity with torch when it is installed.

A case's ``fn(lib, *inputs)`` is written once for both libraries: ``lib`` is ``minigrad`` or
``torch``. Inputs are float64 arrays made by ``make(rng)``; those at ``grad_args`` require grad.
Modules ``tests/cases_*.py`` each define ``CASES`` (a list of ``OpCase``).
"""

import dataclasses
from collections.abc import Callable


@dataclasses.dataclass
class OpCase:
    name: str                                  # test id, e.g. "mul/broadcast"
    fn: Callable                               # fn(lib, *tensors) -> tensor
    make: Callable                             # make(rng) -> list of float64 arrays
    node: str | None = None                    # expected out.grad_fn.name(), checked vs torch too
    numpy: Callable | None = None              # numpy(*arrays) -> array, the forward reference
    grad_args: tuple | None = None             # which inputs require grad (default: all)
    check_grad: bool = True                    # False for ops that are not differentiable
    second_order: bool = True                  # also check gradients of gradients


def shapes(*shape_list, low=-2.0, high=2.0, positive=False):
    """``make`` for inputs of the given shapes (positive ones in [0.5, 2] if asked)."""
    def make(rng):
        if positive:
            return [rng.uniform(0.5, 2.0, s) for s in shape_list]
        return [rng.uniform(low, high, s) for s in shape_list]
    return make


def all_cases():
    import importlib
    import pathlib
    import pkgutil
    here = pathlib.Path(__file__).parent
    cases = []
    for info in pkgutil.iter_modules([str(here)]):
        if info.name.startswith("cases_"):
            cases.extend(importlib.import_module(info.name).CASES)
    return cases
