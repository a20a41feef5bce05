"""A recording laid out once, ready to be played: the picture, the frame data, the notes' places.

``Playback`` is what the widget (:mod:`viz.stepper`), the exported page and the SVG frames
(:mod:`viz.export`) share. It draws the recording's graph once with the renderer — as it was
before the recording started: no gradients yet, saved tensors not yet released — computes the
frame data (:mod:`viz.frames`), and places every note (:mod:`viz.still`).

Example:
    >>> import minigrad as torch
    >>> from minigrad.autograd.graph import record
    >>> x = torch.tensor([1.0, 2.0], requires_grad=True)
    >>> with record() as rec:
    ...     (x * x).sum().backward()
    >>> play = Playback(rec)
    >>> play.event_at("node", 0) == play.data["sequences"]["node"][0]
    True
"""

import re
import uuid

from viz import engines, layouts
from viz._svg import inline
from viz.boxes import merge_boxes
from viz.compose import build_scene
from viz.data import is_tensor
from viz.drawing import draw
from viz.frames import GRANULARITIES, build_frames, event_at, label_notes
from viz.inside import inside_pictures
from viz.legend import stepper_key
from viz.room import reserve, rooms, unmarked
from viz.still import covering, frame_svg, geometry, place_notes, widen

__all__ = ["Playback", "record_target", "renderer_theme", "THEMES", "SPEEDS", "NODE_FRAMES"]

THEMES = ("default", "mono", "classroom")
NODESEP, RANKSEP = 0.3, 0.4  # inches between boxes (a plain drawing has 0.3, 0.35)
NODE_FRAMES = 2000  # above this many events a stepper plays node by node by default
NOTE_SCALE = 1.5  # the classroom theme's notes, as its graph text (viz.classroom.FONT_SCALE)
SPEEDS = {"slow": 1500, "normal": 700, "fast": 250, "fastest": 60}  # ms per frame when playing


def renderer_theme(theme):
    """The renderer's palette for a stepper theme (``classroom`` keeps the default colours
    unless the renderer has a ``classroom`` palette)."""
    from viz.style import PALETTES
    if theme is None or isinstance(theme, dict) or theme in PALETTES:
        return theme
    return None


def _before_recording(recording):
    """The recording's snapshot as it was when the recording began: no ``.grad`` yet, and
    only the saved tensors that were released before it marked released."""
    snap = recording.snapshot.to_dict()
    released_later = {}
    for event in recording.events:
        if event["kind"] == "saved_released":
            released_later.setdefault(event["node"], set()).update(event["names"])
    for tensor in snap["tensors"]:
        tensor["grad"] = None
    for node in snap["nodes"]:
        later = released_later.get(node["id"], ())
        for slot in node.get("saved") or ():
            if slot.get("name") in later:
                slot["released"] = False
    # Which module made each node (collapse="modules"), as viz.draw reads it from a recording.
    snap["events"] = [e for e in recording.events if e["kind"] in ("module_call", "node_created")]
    return snap


class Playback:
    """One recording, laid out once, with the data of every frame.

    Args:
        recording: a finished ``Recording``.
        theme: ``"default"``, ``"mono"`` or ``"classroom"``.
        **draw_options: passed to :func:`viz.draw` (``view``, ``show_saved``, ``values``,
            ``collapse``, ``max_nodes``, ``engine``, …).

    Attributes:
        recording, drawing (the renderer's ``Drawing``), prefix (SVG id prefix), svg (the
        picture, inline-ready and widened for the notes), data (frame data with ``places``).
    """

    def __init__(self, recording, theme="default", like=None, **draw_options):
        if theme not in THEMES and not isinstance(theme, dict):
            raise ValueError(f"unknown theme {theme!r}; choose one of {', '.join(THEMES)}")
        self.recording = recording
        self.theme = theme
        self.prefix = (like.prefix if like is not None else None) or \
            draw_options.pop("id_prefix", None) or "mgs" + uuid.uuid4().hex[:8]
        draw_options.pop("id_prefix", None)
        draw_options.setdefault("names", {})
        for option in ("grads", "event", "legend"):
            draw_options.pop(option, None)
        expandable = draw_options.pop("expandable", True)
        before = _before_recording(recording)
        self.drawing = draw(before, theme=renderer_theme(theme),
                            id_prefix=self.prefix, grads=False, **draw_options)
        self.source = _spaced(self.drawing.source)
        if theme == "classroom":   # the graph's own text and lines large too, not just the panel
            from viz.classroom import FONT_SCALE, roomy_boxes, scale_fonts
            self.source = roomy_boxes(scale_fonts(self.source, FONT_SCALE))
        scene = self.drawing.scene
        drawn = set(scene.items) | {link.id for link in scene.links}
        drawn.update(m for ids in scene.members.values() for m in ids)
        self.data = build_frames(recording, drawn)
        if scene.members:  # a box takes the combined state of the ops inside it
            names = {n["id"]: n["name"] for n in recording.snapshot.to_dict()["nodes"]}
            inside = self._inside(before, draw_options) if expandable else None
            merge_boxes(self.data, scene.members, names, keep=inside["calls"] if inside else ())
            if inside:
                self.data["inside"] = inside
        label_notes(self.data, {link.id: link.label for link in scene.links if link.label})
        self.data["key"] = stepper_key(self.data)
        scale = self.data["note_scale"] = NOTE_SCALE if theme == "classroom" else 1.0
        renames = _same_layout(like, self) if like is not None else None
        if renames is None:
            self.ids = _element_ids(self.source, self.prefix)
            self.raw = self._layout(scale)
            self.boxes = geometry(self.raw, self.prefix)
            self.rooms = rooms(self.boxes, self.raw, self.prefix)
            self.raw = unmarked(self.raw)
        else:   # the same graph again (a training loop): keep the picture, rename the data
            self.ids, self.raw, self.boxes = like.ids, like.raw, like.boxes
            self.rooms, self.source = like.rooms, like.source
            for key in ("classes", "notes", "focus", "inner"):
                if key in self.data:
                    self.data[key] = _renamed(self.data[key], renames)
            for call in self.data.get("inside", {}).get("calls", {}).values():
                call[1] = _renamed(call[1], renames)
        self.data["places"] = place_notes(self.boxes, self.data["notes"], self.rooms, scale)
        self.svg = widen(inline(self.raw, self.prefix), self.data["places"], self.data["notes"],
                         scale)
        if renames is not None:
            self.svg = covering(like.svg, self.svg)

    def _inside(self, before, draw_options):
        """The pictures of the boxes' insides (:mod:`viz.inside`): a click opens a box."""
        scene = self.drawing.scene
        options = {k: v for k, v in draw_options.items()
                   if k in ("view", "values", "show_saved", "names")}
        full = build_scene(before, grads=False, collapse=None, max_nodes=None, **options)
        titles = {box: (scene.items[box].lines[0].text if box in scene.items and
                        scene.items[box].lines else box) for box in scene.members}
        boxes = {box: ids for box, ids in scene.members.items()
                 if box in scene.items and scene.items[box].kind == "module"}
        return inside_pictures(full, boxes, titles, self.prefix,
                               theme=renderer_theme(self.theme), engine=self.drawing.engine)

    def _layout(self, scale):
        """The laid-out SVG (kept by :mod:`viz.layouts` for the next drawing of the same
        graph), with room made in the layout for every element's notes (:mod:`viz.room`)
        where the engine draws HTML-like labels."""
        engine = engines.get_engine(self.drawing.engine)
        if "label=<" in self.source and engine.name != "wasi":
            try:
                source = reserve(self.source, self.prefix, self.data["notes"], scale)
                return layouts.render(engine, source, "svg", self.prefix).decode("utf-8")
            except engines.RenderError:      # noqa: S110 - then the notes are searched for
                pass
        return layouts.render(engine, self.source, "svg", self.prefix).decode("utf-8")

    @property
    def granularity(self):
        """The granularity a stepper starts with: ``"event"``, or ``"node"`` for a pass of
        more than NODE_FRAMES events (thousands of steps nobody clicks through)."""
        return "node" if self.count > NODE_FRAMES else "event"

    @property
    def engine_name(self):
        return str(self.drawing.engine or "auto")

    @property
    def count(self):
        """The number of events."""
        return self.data["count"]

    def frame_count(self, granularity):
        """How many frames the slider has at ``granularity``."""
        _check(granularity)
        sequence = self.data["sequences"][granularity]
        return self.data["count"] if sequence is None else len(sequence)

    def event_at(self, granularity, frame):
        """The event index shown at slider position ``frame``."""
        _check(granularity)
        return event_at(self.data, granularity, frame)

    def frame_of(self, granularity, event):
        """The slider position at ``granularity`` that shows ``event`` or the last event
        before it."""
        _check(granularity)
        sequence = self.data["sequences"][granularity]
        if sequence is None:
            return max(0, min(event, self.data["count"] - 1))
        best = 0
        for k, e in enumerate(sequence):
            if e > event:
                break
            best = k
        return best

    def still(self, event):
        """One frame as a standalone SVG document (classes, notes, caption and CSS baked in)."""
        return frame_svg(self.svg, self.prefix, self.data, event)

    def event_texts(self):
        """``"12. caption"`` for every event."""
        return [f"{i + 1}. {c}" for i, c in enumerate(self.data["captions"])]

    def state(self):
        """The JSON-ready state the canvas needs: svg and frame data."""
        return {"svg": self.svg, "frames": self.data}


def _spaced(source):
    """DOT ``source`` with more room between boxes than a plain drawing, so that the notes
    fit beside the boxes."""
    source = re.sub(r"\bnodesep=[\d.]+", f"nodesep={NODESEP}", source, count=1)
    return re.sub(r"\branksep=[\d.]+", f"ranksep={RANKSEP}", source, count=1)


def _element_ids(source, prefix):
    """The scene ids of the elements of a DOT text, in the order they are written."""
    return re.findall(rf'id="{re.escape(prefix)}-([A-Za-z0-9_-]+)"', source)


def _canonical(source, prefix, ids):
    """``source`` with every element id replaced by its position: equal for the same graph."""
    position = {item: f"#{k}" for k, item in enumerate(ids)}
    source = source.replace(f"{prefix}-", f"{prefix} ")
    pattern = re.compile(r"(?<![\w-])[A-Za-z]\w*(?:-[A-Za-z]\w*)*(?![\w-])")
    return pattern.sub(lambda m: position.get(m.group(0), m.group(0)), source)


def _same_layout(old, new):
    """``{new id: old id}`` when ``new`` draws the same picture as ``old`` up to ids."""
    ids = _element_ids(new.source, new.prefix)
    if len(ids) != len(old.ids) or old.engine_name != new.engine_name:
        return None
    if _canonical(new.source, new.prefix, ids) != _canonical(old.source, old.prefix, old.ids):
        return None
    return dict(zip(ids, old.ids))


def _renamed(value, renames):
    if isinstance(value, dict):
        return {renames.get(k, k): v for k, v in value.items()}
    return [renames.get(v, v) if isinstance(v, str) else v for v in value]


def _check(granularity):
    if granularity not in GRANULARITIES:
        raise ValueError(f"granularity must be one of {', '.join(GRANULARITIES)}, "
                         f"not {granularity!r}")


def record_target(target, gradient=None, retain_graph=None, names=None):
    """The ``Recording`` for a stepper target: a Recording, a tensor or a callable.

    A tensor is backpropagated (``gradient``, ``retain_graph`` pass through) and a callable
    called, both inside ``record()``. An exception raised on the way (backward twice, an
    in-place modification) is part of the recording: it becomes its error frame.
    """
    from minigrad.autograd.graph import Recording, record
    if isinstance(target, Recording):
        return target
    if not (is_tensor(target) or callable(target)):
        raise TypeError(f"cannot step through a {type(target).__name__}: pass a Recording, "
                        "a tensor (its backward is recorded) or a function that calls backward")
    names = {} if names is None else names   # read when the block ends: it may still grow
    with record(names=names) as rec:
        try:
            if is_tensor(target):
                target.backward(gradient=gradient, retain_graph=retain_graph)
            else:
                result = target()
                if isinstance(result, dict):
                    names.update(result)
        except Exception as error:  # noqa: BLE001 - the error is the recording's last frame
            names.update(_locals_of(target, error.__traceback__))
    return rec


def _locals_of(function, traceback):
    """The tensors named in ``function``'s own frame when it raised (its ``locals()``, which
    it could not return), for the labels of the error frame."""
    code = getattr(function, "__code__", None)
    while traceback is not None:
        frame = traceback.tb_frame
        if frame.f_code is code:
            return {k: v for k, v in frame.f_locals.items()
                    if is_tensor(v) and not k.startswith("_")}
        traceback = traceback.tb_next
    return {}
