"""``draw()`` and ``Drawing``: a picture of a graph that shows itself in a notebook.

A ``Drawing`` holds the laid-out-once picture: its DOT text (``.source``, no Graphviz needed),
its SVG (``.svg()``, rendered once and kept), and ``.save(path)``. In Jupyter (Lab, Notebook 7,
VS Code, Colab) it displays inline through ``_repr_mimebundle_``, also with ``display(d)``.
"""

import pathlib
import uuid

from viz import engines, layouts
from viz._svg import html_block
from viz.compose import build_scene
from viz.data import caller_names, frame_of_caller
from viz.dot import write_dot

__all__ = ["draw", "Drawing"]

_FORMATS = {".svg": "svg", ".png": "png", ".dot": "dot", ".gv": "dot", ".json": "json"}


class Drawing:
    """One picture: ``.source`` (DOT), ``.svg()``, ``.save(path)``; shows itself in Jupyter.

    Build it with :func:`draw`. Element ids in the SVG are ``<prefix>-<snapshot id>``
    (``mg3fa2c1-n4``); ``element_id()`` gives them, docs/visual-language.md lists them.

    Example:
        >>> from viz.examples import mul_sum
        >>> d = draw(mul_sum(), id_prefix="demo")
        >>> d.element_id("n1")
        'demo-n1'
        >>> "digraph" in d.source
        True
    """

    def __init__(self, scene, theme=None, engine=None, id_prefix=None):
        self.scene = scene
        self.theme = theme
        self.engine = engine
        self.prefix = id_prefix or "mg" + uuid.uuid4().hex[:8]
        self._sources = {}
        self._svg = None

    def element_id(self, item_id):
        """The SVG id of the item or link ``item_id`` (a snapshot id such as ``"n4"``)."""
        from viz.dot import dom_id
        return dom_id(self.prefix, item_id)

    def _engine(self):
        return engines.get_engine(self.engine)

    def _source_for(self, html):
        if html not in self._sources:
            self._sources[html] = write_dot(self.scene, self.prefix, self.theme, html=html)
        return self._sources[html]

    @property
    def source(self):
        """The DOT text; plain-text labels when the chosen engine lacks HTML-like labels."""
        try:
            html = self._engine().html_labels
        except engines.EngineNotFound:
            html = True
        return self._source_for(html)

    def render(self, fmt="svg"):
        """The picture in format ``fmt`` (``svg``, ``png`` where the engine can) as bytes."""
        engine = self._engine()
        return layouts.render(engine, self._source_for(engine.html_labels), fmt, self.prefix)

    def svg(self):
        """The SVG document as text (rendered on first use, then kept)."""
        if self._svg is None:
            self._svg = self.render("svg").decode("utf-8")
        return self._svg

    def save(self, path, format=None):  # noqa: A002 - the name graphviz's API uses
        """Write the picture to ``path``; the format comes from its suffix unless given.

        ``.svg`` and ``.png`` (where the engine can) are rendered; ``.dot``/``.gv`` write the
        source. Returns the path.
        """
        path = pathlib.Path(path)
        fmt = format or _FORMATS.get(path.suffix.lower())
        if fmt is None:
            raise ValueError(f"cannot tell the format of {path.name!r}: use .svg, .png, .dot "
                             "or pass format=")
        if fmt == "dot":
            path.write_text(self.source, encoding="utf-8")
        elif fmt == "svg":
            path.write_text(self.svg(), encoding="utf-8")
        else:
            path.write_bytes(self.render(fmt))
        return path

    def _repr_mimebundle_(self, include=None, exclude=None):
        try:
            svg = self.svg()
        except (engines.EngineNotFound, engines.RenderError) as exc:
            return {"text/plain": f"{self!r}\n{exc}"}
        return {"text/html": html_block(svg, self.prefix), "image/svg+xml": svg,
                "text/plain": repr(self)}

    def _repr_svg_(self):
        return self.svg()

    def _repr_html_(self):
        return html_block(self.svg(), self.prefix)

    def __repr__(self):
        items = sum(1 for i in self.scene.items.values() if i.kind != "legend")
        return (f"<viz.Drawing: {self.scene.view} view, {items} elements, "
                f"{len(self.scene.links)} arrows>")


def draw(obj, view="backward", values=None, grads=None, show_saved=False, legend=False,
         highlight=(), collapse="auto", expand=(), max_nodes="auto", names=None, event=None,
         theme=None, engine=None, id_prefix=None, collapse_depth=None):
    """Draw an autograd graph.

    Args:
        obj: a tensor (usually the loss), a list of tensors, a ``Snapshot``, a ``Recording``
            (with ``event=``), or the ``to_dict()`` of a snapshot.
        view: ``"backward"`` — PyTorch's Node graph (``grad_fn``, ``next_functions``,
            AccumulateGrad), arrows in the direction gradients flow; or ``"forward"`` — the
            values and the ops between them, as micrograd draws them.
        values: show each tensor's data (default: only in the forward view).
        grads: show each tensor's ``.grad`` (default: only in the forward view).
        show_saved: show what each node saved for backward; released ones dashed and marked.
        legend: add the legend of the visual language to the picture.
        highlight: ids (``"n4"``), names (``"x"``, ``"MulBackward0"``) or tensors to emphasise.
        collapse: ``"modules"`` draws each ``nn.Module`` call as one box (a module called 12
            times: 12 boxes, ``cell (call 3 of 12)``); or a list of module names to collapse
            only those; ``None`` draws every node. The default, ``"auto"``, collapses a graph
            too big to lay out in a few seconds (more than ``viz.compose.AUTO_LIMIT``
            elements) and says so in the picture.
        expand: module names (all their calls), ``name#3`` (one call) or box ids to keep
            drawn in full when collapsing.
        max_nodes: draw at most this many boxes, nearest the output first; the rest become one
            "N more nodes" marker. ``"auto"`` (the default) does so for a graph still too big
            after collapsing (unless ``collapse=None``); ``None`` never cuts.
        collapse_depth: which nesting level of module calls becomes boxes (1: the outermost
            calls); by default the deepest level with at most ``viz.calls.AUTO_BOXES`` boxes.
        names: ``{name: tensor}`` for labels; by default the caller's variables are used.
        event: with a ``Recording``, draw the graph as it is after this event (what ran, what
            runs, what waits, grads so far, released saved tensors).
        theme: ``"default"``, ``"mono"`` (greyscale for print) or a dict of colours.
        engine: the Graphviz engine for this drawing (see :func:`viz.set_engine`).
        id_prefix: the prefix of every SVG id (default: a random ``mg`` + 8 hex digits).

    Returns:
        Drawing: shows itself in Jupyter; ``.svg()``, ``.save(path)``, ``.source``.

    Example:
        >>> import minigrad as torch, viz
        >>> x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        >>> y = torch.tensor([4.0, 5.0, 6.0], requires_grad=True)
        >>> s = (x * y).sum()
        >>> d = viz.draw(s)
        >>> "MulBackward0" in d.source and "AccumulateGrad" in d.source
        True
    """
    if names is None:
        names = caller_names(frame_of_caller(2))
    scene = build_scene(obj, view=view, values=values, grads=grads, show_saved=show_saved,
                        legend=legend, highlight=highlight, collapse=collapse, expand=expand,
                        max_nodes=max_nodes, names=names or None, event=event,
                        collapse_depth=collapse_depth)
    return Drawing(scene, theme=theme, engine=engine, id_prefix=id_prefix)
