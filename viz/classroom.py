"""Classroom presentation: large type and high contrast, for a projector at the back of a room.

``viz.classroom.draw(...)`` is :func:`viz.draw` with the ``classroom`` palette (black ink, white
paper, saturated fills, dark borders), every font size scaled up and more room inside boxes (an
arrow's head never touches a title); ``viz.classroom.Stepper``
is :class:`viz.Stepper` with ``theme="classroom"`` (its canvas zooms and its notes get bold).
Importing this module registers the palette as the renderer's theme ``"classroom"``, so
``viz.draw(..., theme="classroom")`` and the stepper's classroom theme use it too; if the
renderer ever ships its own ``classroom`` palette, that one wins.

Example:
    >>> import minigrad as torch
    >>> from viz import classroom
    >>> x = torch.tensor([1.0, 2.0], requires_grad=True)
    >>> d = classroom.draw((x * x).sum(), id_prefix="big")
    >>> "fontsize=16" in d.source          # the renderer's 11 pt, times 1.5
    True
"""

import re

from viz.drawing import Drawing
from viz.drawing import draw as _draw
from viz.style import PALETTES

__all__ = ["PALETTE", "FONT_SCALE", "BOX_MARGIN", "ClassroomDrawing", "draw", "Stepper",
           "save_html", "scale_fonts", "roomy_boxes"]

# Text is black on light fills (contrast at least 15:1); borders and the highlight reach at
# least 7:1 against their fill (WCAG AAA), except "faint" (5.3:1 on white, still above AA),
# which marks on purpose what is done or released.
PALETTE = {
    "ink": "#000000", "muted": "#333333", "faint": "#6b6b6b", "paper": "#ffffff",
    "leaf": "#cfe0ff", "leaf_line": "#002b80", "constant": "#ffffff",
    "nonleaf": "#ffffff", "retained": "#ffe270", "retained_line": "#4d3900",
    "root": "#bff2cc", "root_line": "#00461a", "fn": "#e6e6e6", "acc": "#cfe0ff",
    "saved": "#ffd6a6", "saved_line": "#6b3000", "badge": "#000000", "badge_text": "#ffffff",
    "highlight": "#9e0000", "module": "#e3dbff", "ran": "#f2f2f2",
}
FONT_SCALE = 1.5

PALETTES.setdefault("classroom", PALETTE)

_SIZES = re.compile(r'(fontsize=|POINT-SIZE=")(\d+(?:\.\d+)?)')
_PENS = re.compile(r'(penwidth=")(\d+(?:\.\d+)?)(")')
# A box's label (a tensor, a constant) keeps this much room (inches, across and down) from
# the box's edge: an arrow's head or a constant's "tee" bar ends on the edge, clear of the
# title under it.
BOX_MARGIN = "0.14,0.13"
_BOX = re.compile(r'^(\s*"(?:[^"\\]|\\.)*" \[)(?=[^\n]*\bshape="box")(?![^\n]*\bmargin=)', re.M)


def roomy_boxes(source, margin=BOX_MARGIN):
    """DOT text where every ``shape="box"`` node without a margin of its own gets ``margin``.

    Example:
        >>> roomy_boxes('  "c [c1]" [shape="box" label="c"];', "0.2,0.2")
        '  "c [c1]" [margin="0.2,0.2" shape="box" label="c"];'
    """
    return _BOX.sub(lambda m: f'{m[1]}margin="{margin}" ', source)


def scale_fonts(source, factor=FONT_SCALE):
    """DOT text with every ``fontsize`` / ``POINT-SIZE`` times ``factor``, and every
    ``penwidth`` thicker by half as much.

    Example:
        >>> scale_fonts('node [fontsize=10 penwidth="2"]', 1.5)
        'node [fontsize=15 penwidth="2.5"]'
    """
    def size(match):
        return f"{match[1]}{round(float(match[2]) * factor):d}"

    def pen(match):
        return f"{match[1]}{float(match[2]) * (1 + (factor - 1) / 2):g}{match[3]}"

    return _PENS.sub(pen, _SIZES.sub(size, source))


class ClassroomDrawing(Drawing):
    """A :class:`~viz.drawing.Drawing` whose DOT text has large type (``font_scale``)."""

    def __init__(self, scene, theme="classroom", engine=None, id_prefix=None,
                 font_scale=FONT_SCALE):
        super().__init__(scene, theme=theme, engine=engine, id_prefix=id_prefix)
        self.font_scale = font_scale

    def _source_for(self, html):
        if html not in self._sources:
            self._sources[html] = roomy_boxes(scale_fonts(super()._source_for(html),
                                                          self.font_scale))
        return self._sources[html]


def draw(obj, font_scale=FONT_SCALE, theme="classroom", **options):
    """:func:`viz.draw` for a projector: the classroom palette and fonts ``font_scale`` larger.

    Takes every option of :func:`viz.draw` (``view``, ``values``, ``grads``, ``legend``, …).
    """
    if options.get("names") is None:
        from viz.data import caller_names, frame_of_caller
        options["names"] = caller_names(frame_of_caller(2))
    plain = _draw(obj, theme=theme, **options)
    return ClassroomDrawing(plain.scene, theme=theme, engine=plain.engine,
                            id_prefix=options.get("id_prefix"), font_scale=font_scale)


def Stepper(target, **options):  # noqa: N802 - reads like the class it returns
    """:class:`viz.Stepper` in the classroom theme (large, high contrast)."""
    from viz.data import caller_names, frame_of_caller
    from viz.stepper import Stepper as _Stepper
    if options.get("names") is None and not hasattr(target, "state_at"):
        options["names"] = caller_names(frame_of_caller(2))
    return _Stepper(target, theme="classroom", **options)


def save_html(target, path, **options):
    """:func:`viz.export.save_html` in the classroom theme.

    A ``Stepper`` is re-laid out from its recording in the classroom theme, at its granularity.
    """
    from viz.export import save_html as _save_html
    if hasattr(target, "playback"):
        options.setdefault("granularity", target.granularity)
        target = target.recording
    return _save_html(target, path, theme="classroom", **options)
