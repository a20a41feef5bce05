"""Pictures that keep up with running code: a stepper refilled by a training loop, and a
drawing of the graph that grows as notebook cells create tensors.

``LiveStepper`` is a :class:`~viz.stepper.Stepper` shown once; each ``with live.record():``
block replaces what it shows, in place: the output never grows, and when the loop builds the
same graph again (same shape, new tensors) the picture stays and only the frame data changes,
so nothing flickers. ``watch()`` redraws the forward graph of the notebook's tensors after
every cell, in one display that updates in place.

Example:
    >>> live = viz.LiveStepper()                      # doctest: +SKIP
    >>> display(live)                                 # doctest: +SKIP
    >>> for step in range(100):                       # doctest: +SKIP
    ...     with live.record():
    ...         loss = ((w * x).sum() - 1) ** 2
    ...         loss.backward()
    ...     optimizer.step(); optimizer.zero_grad()
"""

import contextlib
import inspect
import time

from viz.data import caller_names
from viz.stepper import Stepper

__all__ = ["LiveStepper", "Watcher", "watch", "graph_roots"]


class LiveStepper(Stepper):
    """A stepper that each ``with live.record():`` block refills, in place.

    Args:
        every: show one recording in ``every`` (the other blocks run unrecorded, at full
            speed).
        min_interval: seconds; a block that starts sooner than this after the last shown
            recording runs unrecorded (the last block of a loop may then not be shown; call
            ``live.record(force=True)`` for it).
        granularity, theme, **draw_options: as for :class:`~viz.stepper.Stepper`.

    Example:
        >>> live = LiveStepper()
        >>> with live.record():  # doctest: +SKIP
        ...     loss.backward()
    """

    def __init__(self, every=1, min_interval=0.0, granularity="event", theme="default",
                 **draw_options):
        super().__init__(None, granularity=granularity, theme=theme, names={}, **draw_options)
        self.every, self.min_interval = max(1, int(every)), float(min_interval)
        self.blocks = 0          # how many record() blocks ran
        self.shown = 0           # how many of them were shown
        self._last = 0.0

    def record(self, names=None, force=False):
        """A context manager: record the block and show it when it ends (even if it raises).

        Names come from the variables of the code running the block (as when they end), or
        from ``names``.
        """
        self.blocks += 1
        due = (self.blocks - 1) % self.every == 0 and \
            time.monotonic() - self._last >= self.min_interval
        return _Block(self._finish, inspect.currentframe().f_back, names, due or force)

    def _finish(self, recording):
        self._last = time.monotonic()
        self.shown += 1
        self.load(recording)


class _Block:
    """One ``with live.record():`` block: records it (if ``active``) and hands it over."""

    def __init__(self, done, frame, names, active):
        self.done, self.frame, self.active = done, frame, active
        self.names = {} if names is None else dict(names)
        self.stack = contextlib.ExitStack()
        self.recording = None

    def __enter__(self):
        if self.active:
            from minigrad.autograd.graph import record
            self.recording = self.stack.enter_context(record(names=self.names))
        return self

    def __exit__(self, kind, error, traceback):
        if self.recording is None:
            return False
        if not self.names:
            self.names.update(caller_names(self.frame))
        self.stack.close()
        self.frame = None
        self.done(self.recording)
        return False


# ----------------------------------------------------------------- watching a notebook
def graph_roots(namespace):
    """The tensors of ``namespace`` that no other tensor there was computed from.

    These are the outputs of what the cells built so far (``loss``, or ``y`` while ``loss``
    does not exist yet); drawing them draws every tensor of the namespace that has a graph.
    """
    from minigrad.autograd.graph import snapshot
    names = {k: v for k, v in caller_names(_Scope(namespace)).items()
             if getattr(v, "requires_grad", False)}
    if not names:
        return {}
    snap = snapshot(*names.values(), names=names)
    used = set()
    for edge in snap.edges:
        if edge["kind"] == "next":
            used.add(edge["target"])
    fed = set()
    for info in snap.tensors:
        if (info["grad_fn"] in used) or (info["accumulator"] in used):
            fed.add(info["name"])
    return {name: t for name, t in names.items() if name not in fed}


class _Scope:
    """A stand-in frame whose locals are ``namespace`` (for ``caller_names``)."""

    def __init__(self, namespace):
        self.f_locals, self.f_globals = namespace, {}


class Watcher:
    """Redraws the graph of a namespace's tensors, in one display, after every cell.

    Made by :func:`watch`; ``stop()`` ends it. ``update()`` redraws now (also outside IPython).
    """

    def __init__(self, namespace, view="forward", shell=None, **draw_options):
        self.namespace, self.shell = namespace, shell
        draw_options.setdefault("collapse", "modules")  # a model's layers: one box per call
        self.options = dict(draw_options, view=view)
        self.handle = None
        self.drawing = None
        self.signature = None

    def update(self, *_):
        """Redraw if the graph changed since the last drawing; returns the drawing."""
        from viz.drawing import draw
        roots = graph_roots(self.namespace)
        signature = tuple((name, id(t)) for name, t in roots.items())
        if not roots or signature == self.signature:
            return self.drawing
        self.signature = signature
        names = caller_names(_Scope(self.namespace))
        self.drawing = draw(list(roots.values()), names=names, **self.options)
        if self.handle is not None:
            self.handle.update(self.drawing)
        return self.drawing

    def start(self):
        from IPython.display import HTML, display
        self.handle = display(HTML("<i>viz.watch(): the graph appears here as cells create "
                                   "tensors.</i>"), display_id=True)
        self.update()
        if self.shell is not None:
            self.shell.events.register("post_run_cell", self.update)
        return self

    def stop(self):
        """Stop redrawing after cells."""
        if self.shell is not None:
            try:
                self.shell.events.unregister("post_run_cell", self.update)
            except ValueError:
                pass
        return self

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.update()
        self.stop()
        return False

    def __repr__(self):
        return f"<viz.Watcher: {'watching' if self.shell else 'manual'}>"


def watch(namespace=None, view="forward", **draw_options):
    """Watch the graph grow: after every notebook cell, redraw the graph of its tensors.

    The drawing appears under the cell that called ``watch()`` and is updated in place (the
    forward view by default: values flowing into ops; each ``nn.Module`` call as one box,
    unless ``collapse=None``). Only the last graph is kept: a training loop of any length
    watched this way keeps its memory flat. ``stop()`` the returned
    :class:`Watcher` to end it; outside IPython, call its ``update()`` yourself.

    Example:
        In a notebook, ``w = viz.watch()`` in one cell, then each cell that creates tensors
        redraws the graph. Outside IPython, pass the namespace and call ``update()``:

        >>> import minigrad as torch, viz
        >>> cells = {}
        >>> w = viz.watch(cells)
        >>> cells["x"] = torch.tensor([1.0, 2.0], requires_grad=True)
        >>> cells["y"] = (cells["x"] * 3).sum()
        >>> "y" in w.update().source
        True
        >>> w = w.stop()
    """
    shell = None
    try:
        from IPython import get_ipython
        shell = get_ipython()
    except ImportError:
        pass
    if namespace is None:
        namespace = shell.user_ns if shell is not None else \
            inspect.currentframe().f_back.f_globals
    watcher = Watcher(namespace, view=view, shell=shell, **draw_options)
    return watcher.start() if shell is not None else watcher
