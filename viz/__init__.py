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
           "available_engines", "EngineNotFound", "RenderError"]
