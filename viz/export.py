"""Files from a stepper: one self-contained HTML page, or one SVG per frame for slides.

``save_html`` writes a page that plays the frames in any browser with no kernel, no network and
no CDN: the same ``render({model, el})`` as the widget (``viz/static/stepper.js``), the page's
controls (``viz/static/page.js``), the CSS, and the picture and frame data as inline JSON (every
``</`` escaped, so no data can close the script). A Content-Security-Policy forbids every
request. ``save_frames`` writes ``frame-0001.svg``, … with each frame's states, notes, caption
and CSS baked in.

Example:
    >>> import minigrad as torch, viz
    >>> x = torch.tensor([1.0, 2.0], requires_grad=True)
    >>> loss = (x * x).sum()
    >>> path = viz.save_html(loss, "/tmp/backward.html")
    >>> paths = viz.save_frames(loss, "/tmp/frames", granularity="node")
"""

import base64
import gzip
import html
import json
import pathlib
from importlib import resources

from viz.playback import SPEEDS, Playback, record_target

__all__ = ["save_html", "save_frames", "write_html", "write_frames", "page_html", "PACK_LIMIT"]

# Frame data bigger than this is stored gzip-compressed (base64) and unpacked by the browser's
# DecompressionStream before the page starts: a 2,000-node pass's captions and panels repeat
# themselves, and the page shrinks about tenfold.
PACK_LIMIT = 1_000_000
_UNPACK = """const mgsPacked = document.getElementById("mgs-packed");
if (mgsPacked) {
  const bytes = Uint8Array.from(atob(mgsPacked.textContent.trim()), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  document.getElementById("mgs-state").textContent = await new Response(stream).text();
}
"""

_CSP = ("default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
        "img-src data:; font-src data:")


def _static(name):
    return resources.files("viz").joinpath("static", name).read_text("utf-8")


def _playback(target, theme, names, draw_options, gradient=None, retain_graph=None):
    if hasattr(target, "playback"):
        return target.playback
    if isinstance(target, Playback):
        return target
    if names is None and not hasattr(target, "state_at"):
        from viz.data import caller_names, frame_of_caller
        names = caller_names(frame_of_caller(3))
    return Playback(record_target(target, gradient, retain_graph, names), theme=theme,
                    **draw_options)


def _script_safe(text):
    """Our own script or CSS, unable to end its ``<script>``/``<style>``: ``</`` → ``<\\/``."""
    return text.replace("</", "<\\/")


def _json_safe(data):
    """JSON for an inline ``<script>``: every ``<`` is written ``\\u003c``, so no data can
    close the element or open a comment."""
    return json.dumps(data, separators=(",", ":")).replace("<", "\\u003c")


def page_html(playback, title=None, granularity="event", frame=0):
    """The standalone page of ``playback`` as text."""
    title = title or "minigrad: a backward pass, step by step"
    state = {"svg": playback.svg, "frames": playback.data, "frame": frame,
             "granularity": granularity, "speeds": SPEEDS,
             "theme": playback.theme if isinstance(playback.theme, str) else "default"}
    data = _json_safe(state)
    packed = ""
    if len(data) > PACK_LIMIT:
        blob = base64.b64encode(gzip.compress(data.encode("utf-8"), 6, mtime=0)).decode()
        packed = f'<script type="application/octet-stream" id="mgs-packed">{blob}</script>\n'
        data = ""
    script = _script_safe(_UNPACK + _static("stepper.js") + "\n" + _static("page.js"))
    css = _static("stepper.css") + "\n" + _static("page.css")
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{html.escape(title)}</title>\n<style>{_script_safe(css)}</style>\n</head>\n"
        f'<body>\n<main class="mgs-page">\n<h1>{html.escape(title)}</h1>\n'
        '<div id="mgs-controls" class="mgs-controls"></div>\n'
        '<div id="mgs-modes" class="mgs-modes" role="radiogroup" aria-label="frames"></div>\n'
        '<div id="mgs-canvas"></div>\n'
        '<p class="mgs-help">Keys: ← → step, Home / End, space plays; + − 0 zoom (or ctrl + '
        'wheel); shift + arrows or drag to pan. Made with minigrad.</p>\n'
        "</main>\n"
        f'{packed}<script type="application/json" id="mgs-state">{data}</script>\n'
        f'<script type="module">\n{script}\n</script>\n</body>\n</html>\n')


def write_html(playback, path, title=None, granularity="event", frame=0):
    """Write the standalone page of ``playback`` to ``path``; returns the path."""
    path = pathlib.Path(path)
    path.write_text(page_html(playback, title, granularity, frame), encoding="utf-8")
    return path


def frame_svgs(playback, granularity="event"):
    """The still SVG of every frame of ``playback`` at ``granularity``, in order."""
    for frame in range(playback.frame_count(granularity)):
        yield playback.still(playback.event_at(granularity, frame))


def write_frames(playback, directory, granularity="event"):
    """Write one SVG per frame of ``playback`` into ``directory``; returns the paths."""
    directory = pathlib.Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    width = max(4, len(str(playback.frame_count(granularity))))
    paths = []
    for frame, svg in enumerate(frame_svgs(playback, granularity)):
        path = directory / f"frame-{frame + 1:0{width}d}.svg"
        path.write_text(svg, encoding="utf-8")
        paths.append(path)
    return paths


def save_html(target, path, title=None, granularity=None, theme="default", names=None,
              gradient=None, retain_graph=None, **draw_options):
    """Write a stepper as one self-contained HTML file that plays in any browser, offline.

    Args:
        target: a ``Recording``, a ``Stepper``, a tensor (its backward is recorded) or a
            callable that calls backward.
        path: where to write (``.html``).
        title: the page's title.
        granularity: the frames shown first: ``"event"``, ``"node"`` or ``"hooks"`` (default:
            ``"node"`` for a pass of thousands of events, else ``"event"``).
        theme: ``"default"``, ``"mono"`` or ``"classroom"``.
        **draw_options: passed to :func:`viz.draw` (``show_saved``, ``view``, …).

    Returns:
        pathlib.Path: the file written.

    Example:
        >>> viz.save_html(rec, "backward.html")  # doctest: +SKIP
        PosixPath('backward.html')
    """
    if hasattr(target, "save_html"):
        return target.save_html(path, title=title)
    playback = _playback(target, theme, names, draw_options, gradient, retain_graph)
    return write_html(playback, path, title, granularity or playback.granularity)


def save_frames(target, directory, granularity="event", theme="default", names=None,
                gradient=None, retain_graph=None, **draw_options):
    """Write one SVG per frame (``frame-0001.svg``, …) for slides; returns the paths.

    Each file shows the frame's states, notes and caption with the stepper's CSS inside, so it
    looks the same in a browser, a slide tool or a vector editor.

    Example:
        >>> paths = viz.save_frames(rec, "frames", granularity="node")  # doctest: +SKIP
    """
    if hasattr(target, "save_frames") and hasattr(target, "playback"):
        return write_frames(target.playback, directory, granularity)
    playback = _playback(target, theme, names, draw_options, gradient, retain_graph)
    return write_frames(playback, directory, granularity)
