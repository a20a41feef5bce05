"""``viz.Stepper``: step through a real backward pass, event by event, in Jupyter.

The widget is a ``VBox`` of stock ipywidgets controls (first / previous / next / last, ``Play``
with a speed, an ``IntSlider`` over the frames, a granularity switch) and an anywidget canvas
(``viz/static/stepper.js``) that holds the picture, laid out once, and the frame data. ``Play``,
the slider and the canvas are linked in the browser (``jslink``), so playing and dragging never
wait for the kernel; the canvas also takes the arrow keys. Python sees every move through the
canvas's ``frame`` trait (``stepper.frame``, ``stepper.event``, ``stepper.state``).

Where widgets cannot run (a static notebook viewer, a terminal) the display falls back to a
picture of the current frame and the text of every event.
"""

import html
import pathlib

import anywidget
import ipywidgets as widgets
import traitlets

from viz.data import caller_names, frame_of_caller
from viz.frames import GRANULARITIES
from viz.playback import SPEEDS, Playback, record_target
from viz.still import value_at

__all__ = ["Stepper", "StepperCanvas", "SPEEDS"]

_STATIC = pathlib.Path(__file__).parent / "static"
STATIC_LIMIT = 2_000_000  # characters of SVG above which the fallback shows text only


class StepperCanvas(anywidget.AnyWidget):
    """The picture and the frame data; restyles the picture in the browser on ``frame``."""

    _esm = _STATIC / "stepper.js"
    _css = _STATIC / "stepper.css"
    svg = traitlets.Unicode("").tag(sync=True)
    frames = traitlets.Dict({}).tag(sync=True)
    frame = traitlets.Int(0).tag(sync=True)
    granularity = traitlets.Unicode("event").tag(sync=True)
    theme = traitlets.Unicode("default").tag(sync=True)


class Stepper(widgets.VBox):
    """Step through a recorded backward pass: one frame per engine event.

    Args:
        target: a ``Recording``; or a tensor (its ``backward()`` is run and recorded, with
            ``gradient`` and ``retain_graph``); or a callable that builds a graph and calls
            backward (it may return ``locals()`` to name the tensors).
        granularity: ``"event"`` (every event), ``"node"`` (one frame per node) or ``"hooks"``;
            by default ``"event"``, or ``"node"`` for a pass of more than
            ``viz.playback.NODE_FRAMES`` events.
        gradient, retain_graph: passed to ``backward()`` when ``target`` is a tensor.
        theme: ``"default"``, ``"mono"`` (greyscale) or ``"classroom"`` (large, high contrast).
        names: ``{name: tensor}`` for labels (default: the caller's variables).
        **draw_options: passed to :func:`viz.draw` (``view``, ``show_saved``, ``values``,
            ``collapse``, ``max_nodes``, ``engine``).

    Example:
        >>> import minigrad as torch, viz
        >>> x = torch.tensor([1.0, 2.0], requires_grad=True)
        >>> w = torch.tensor([3.0, 4.0], requires_grad=True)
        >>> loss = (x * w).sum()
        >>> stepper = viz.Stepper(loss)
        >>> stepper.frame = 4
        >>> stepper.state["node"] is not None
        True
        >>> stepper.next(); stepper.frame
        5
    """

    def __init__(self, target, granularity=None, gradient=None, retain_graph=None,
                 theme="default", names=None, **draw_options):
        if names is None and not hasattr(target, "state_at"):
            names = caller_names(frame_of_caller(2))
        self._options = dict(draw_options, theme=theme)
        self.playback = None
        if target is not None:
            self.playback = Playback(record_target(target, gradient, retain_graph, names),
                                     **self._options)
        if granularity is None:  # a big pass plays node by node (see Playback.granularity)
            granularity = "event" if self.playback is None else self.playback.granularity
        self.canvas = StepperCanvas(theme=theme if isinstance(theme, str) else "default",
                                    granularity=granularity)
        self._build_controls(granularity)
        super().__init__([self._bar, self._modes, self.canvas])
        self.add_class("mgs-stepper")
        if self.playback is not None:
            self._show(self.playback, 0)

    # ------------------------------------------------------------- controls
    def _build_controls(self, granularity):
        def button(text, tip, cls, move):
            b = widgets.Button(description=text, tooltip=tip,
                               layout=widgets.Layout(width="auto"))
            b.add_class(cls)
            b.on_click(lambda _: move())
            return b
        self._buttons = [button("« first", "first frame", "mgs-first", self.first),
                         button("◀ prev", "previous frame (←)", "mgs-prev", self.previous),
                         button("next ▶", "next frame (→)", "mgs-next", self.next),
                         button("last »", "last frame", "mgs-last", self.last)]
        self.play = widgets.Play(interval=SPEEDS["normal"], show_repeat=False,
                                 tooltip="play / pause", layout=widgets.Layout(width="auto"))
        self.slider = widgets.IntSlider(description="frame", continuous_update=True,
                                        readout=False, layout=widgets.Layout(flex="1 1 auto"))
        self.slider.add_class("mgs-slider")
        self.speed = widgets.Dropdown(options=list(SPEEDS), value="normal",
                                      description="speed", layout=widgets.Layout(width="170px"))
        self.speed.observe(lambda c: setattr(self.play, "interval", SPEEDS[c["new"]]), "value")
        self.granularity_switch = widgets.ToggleButtons(
            options=[(label, key) for key, label in GRANULARITIES.items()], value=granularity,
            style={"button_width": "auto"},
            tooltips=["a frame for every engine event", "a frame after each node has run",
                      "only the frames where a hook fires"])
        self.granularity_switch.add_class("mgs-granularity")
        self.granularity_switch.observe(self._on_granularity, "value")
        widgets.jslink((self.play, "value"), (self.slider, "value"))
        widgets.jslink((self.slider, "value"), (self.canvas, "frame"))
        self._bar = widgets.HBox([*self._buttons, self.play, self.slider, self.speed],
                                 layout=widgets.Layout(align_items="center", width="100%"))
        self._modes = widgets.HBox([self.granularity_switch])

    def _show(self, playback, frame):
        granularity = self.canvas.granularity
        last = max(playback.frame_count(granularity) - 1, 0)
        frame = min(max(frame, 0), last)
        with self.hold_sync(), self.canvas.hold_sync():
            for control in (self.play, self.slider):
                control.min = 0
                control.max = last
                control.value = frame
            self.canvas.svg = playback.svg
            self.canvas.frames = playback.data
            self.canvas.frame = frame
        self.playback = playback

    def _on_granularity(self, change):
        if self.playback is None:
            self.canvas.granularity = change["new"]
            return
        event = self.event
        self.canvas.granularity = change["new"]
        self._show(self.playback, self.playback.frame_of(change["new"], event))

    # ------------------------------------------------------------- moving
    @property
    def frame(self):
        """The slider position (at the current granularity)."""
        return self.canvas.frame

    @frame.setter
    def frame(self, value):
        last = max(self.frame_count - 1, 0)
        value = min(max(int(value), 0), last)
        with self.hold_sync():
            self.play.value = self.slider.value = value
            self.canvas.frame = value

    @property
    def frame_count(self):
        """How many frames the slider has at the current granularity."""
        if self.playback is None:
            return 0
        return self.playback.frame_count(self.canvas.granularity)

    @property
    def granularity(self):
        return self.canvas.granularity

    @granularity.setter
    def granularity(self, value):
        self.granularity_switch.value = value

    def first(self):
        self.frame = 0

    def previous(self):
        self.frame = self.frame - 1

    def next(self):  # noqa: A003 - the control's name
        self.frame = self.frame + 1

    def last(self):
        self.frame = self.frame_count - 1

    # ------------------------------------------------------------- reading the frame
    @property
    def recording(self):
        return None if self.playback is None else self.playback.recording

    @property
    def event(self):
        """The index of the event shown now (``None`` before anything was recorded)."""
        if self.playback is None:
            return None
        return self.playback.event_at(self.canvas.granularity, self.canvas.frame)

    @property
    def state(self):
        """``recording.state_at(event)``: the graph's state in the frame shown now."""
        if self.playback is None or not self.playback.count:
            return {}
        return self.recording.state_at(self.event)

    @property
    def caption(self):
        if self.playback is None or not self.playback.count:
            return ""
        return self.playback.data["captions"][self.event]

    def element_state(self, item_id):
        """The stepper classes of element ``item_id`` (``"running"``, ``"done"``, …) now."""
        if self.playback is None:
            return ""
        return value_at(self.playback.data["classes"].get(item_id, ()), self.event)

    def load(self, target, gradient=None, retain_graph=None, names=None, frame=None):
        """Show another recording (or tensor, or callable) in this widget, in place.

        The picture is kept when the new graph has the same shape as the one shown (a training
        loop), so only the frame data travels to the browser. ``frame``: where to stand in the
        new recording (default: the same slider position; the last frame if it was there).
        """
        recording = record_target(target, gradient, retain_graph, names)
        playback = Playback(recording, like=self.playback, **self._options)
        if frame is None:
            at_end = self.playback is None or self.frame >= self.frame_count - 1
            frame = playback.frame_count(self.granularity) - 1 if at_end else self.frame
        self._show(playback, frame)

    # ------------------------------------------------------------- files and fallbacks
    def save_html(self, path, title=None):
        """Write this stepper as one self-contained HTML page (see :func:`viz.save_html`)."""
        from viz.export import write_html
        return write_html(self.playback, path, title=title, granularity=self.granularity,
                          frame=self.frame)

    def save_frames(self, directory):
        """Write one SVG per frame at the current granularity (see :func:`viz.save_frames`)."""
        from viz.export import write_frames
        return write_frames(self.playback, directory, self.granularity)

    def still(self):
        """The current frame as a standalone SVG document."""
        return self.playback.still(self.event)

    def _repr_mimebundle_(self, **kwargs):
        """The widget view, plus a picture of the current frame and the events' text for
        front ends that cannot run widgets (a static notebook viewer, a terminal)."""
        return {"application/vnd.jupyter.widget-view+json": {
                    "version_major": 2, "version_minor": 0, "model_id": self.model_id},
                "text/plain": self._text(), "text/html": self._html()}

    def _text(self):
        if self.playback is None:
            return repr(self)
        lines = [repr(self), *self.playback.event_texts()[:500]]
        return "\n".join(lines)

    def _html(self):
        if self.playback is None:
            return "<div class=\"mgs-static\">Nothing recorded yet.</div>"
        picture = ""
        if len(self.playback.svg) <= STATIC_LIMIT and self.playback.count:
            picture = self.still()
            picture = picture[picture.index("<svg"):]
        items = "".join(f"<li>{html.escape(c)}</li>" for c in self.playback.data["captions"])
        return (f'<div class="mgs-static">{picture}<details><summary>The '
                f"{self.playback.count} events of this backward pass</summary><ol start=\"1\">"
                f"{items}</ol></details></div>")

    def __repr__(self):
        if self.playback is None:
            return "<viz.Stepper: nothing recorded yet>"
        return (f"<viz.Stepper: {self.playback.count} events, frame {self.frame + 1} of "
                f"{self.frame_count} ({self.granularity})>")
