"""viz: pictures of minigrad's autograd graphs, drawn from snapshots and recordings.

``viz.draw(loss)`` shows the backward graph inline in Jupyter; ``viz.draw(loss, view="forward")``
the values and ops. ``viz.legend()`` explains the visual language. ``viz`` reads only
``minigrad.autograd.graph``'s plain data (snapshots and recordings), never tensor internals.

Example:
    >>> import minigrad as torch, viz
    >>> x = torch.tensor([1.0, 2.0], requires_grad=True)
    >>> loss = (x * x).sum()
    >>> d = viz.draw(loss)
    >>> "SumBackward0" in d.source
    True
"""

from viz.dot import to_dot
from viz.drawing import Drawing, draw
from viz.engines import (
    EngineNotFound,
    RenderError,
    available_engines,
    get_engine,
    set_engine,
)
from viz.legend import legend

__all__ = ["draw", "Drawing", "legend", "to_dot", "set_engine", "get_engine",
           "available_engines", "EngineNotFound", "RenderError", "Stepper", "StepperCanvas",
           "LiveStepper", "Watcher", "watch", "save_html", "save_frames", "save_animation"]

# The stepper and its exports need ipywidgets/anywidget: they load on first use, so that
# ``import viz`` (and the command line) works with the renderer alone.
_LAZY = {"Stepper": "viz.stepper", "StepperCanvas": "viz.stepper", "LiveStepper": "viz.live",
         "Watcher": "viz.live", "watch": "viz.live", "save_html": "viz.export",
         "save_frames": "viz.export", "save_animation": "viz.animation"}


def __getattr__(name):
    if name in _LAZY:
        import importlib
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'viz' has no attribute {name!r}")
