"""Animations of a backward pass for slides and blogs: GIF, APNG or MP4, one image per frame.

Each frame is the stepper's own still SVG (states, notes and caption baked in), rasterised by
resvg (the ``resvg-py`` wheel: no system library) and encoded by Pillow (GIF, APNG) or
imageio with its bundled ffmpeg (MP4). ``pip install "minigrad-stepper[anim]"`` brings both.

Example:
    >>> import minigrad as torch, viz
    >>> x = torch.tensor([1.0, 2.0], requires_grad=True)
    >>> viz.save_animation((x * x).sum(), "backward.gif", granularity="node")  # doctest: +SKIP
    PosixPath('backward.gif')
"""

import io
import pathlib
import re

__all__ = ["save_animation", "rasterize", "FORMATS"]

FORMATS = (".gif", ".png", ".apng", ".mp4")
_INSTALL = 'pip install "minigrad-stepper[anim]"'
_VARIABLE = re.compile(r"var\((--[\w-]+)(?:,\s*([^)]*))?\)")
_DECLARATION = re.compile(r"(--[\w-]+)\s*:\s*([^;}]+);")
_SIZE_PT = re.compile(r'width="([\d.]+)pt" height="([\d.]+)pt"')


def _resolve_css_variables(svg):
    """resvg reads CSS but not custom properties: write each ``var(--x)`` as its value."""
    values = dict(_DECLARATION.findall(svg))

    def value(match):
        return values.get(match.group(1), match.group(2) or "").strip()
    for _ in range(4):  # variables defined through other variables
        svg = _VARIABLE.sub(value, svg)
    return svg


def rasterize(svg, scale=1.5):
    """One SVG document as a ``PIL.Image`` (RGB on white), ``scale`` pixels per CSS pixel."""
    resvg_py, image_module = _imports()
    svg = _SIZE_PT.sub(lambda m: f'width="{float(m[1]) * 4 / 3:.1f}" '
                                 f'height="{float(m[2]) * 4 / 3:.1f}"', svg, count=1)
    png = resvg_py.svg_to_bytes(
        svg_string=_resolve_css_variables(svg), background="#ffffff", zoom=scale,
        font_family="DejaVu Sans", sans_serif_family="DejaVu Sans",
        monospace_family="DejaVu Sans Mono")
    return image_module.open(io.BytesIO(bytes(png))).convert("RGB")


def _imports():
    try:
        import resvg_py
        from PIL import Image
    except ImportError as exc:
        raise ImportError(f"animations need resvg-py and Pillow: {_INSTALL}") from exc
    return resvg_py, Image


def _same_canvas(images):
    """Pad every frame to the largest width and height, anchored top left, on white."""
    _, image_module = _imports()
    width = max(im.width for im in images)
    height = max(im.height for im in images)
    out = []
    for im in images:
        canvas = image_module.new("RGB", (width, height), "white")
        canvas.paste(im, (0, 0))
        out.append(canvas)
    return out


def _write(images, path, duration_ms, last_ms, loop):
    durations = [duration_ms] * (len(images) - 1) + [last_ms]
    suffix = path.suffix.lower()
    if suffix == ".mp4":
        try:
            import imageio.v3 as iio
            import numpy as np
        except ImportError as exc:
            raise ImportError("MP4 needs imageio and imageio-ffmpeg: pip install imageio "
                              "imageio-ffmpeg (or write .gif / .png)") from exc
        fps = 1000 / duration_ms
        even = [im.crop((0, 0, im.width - im.width % 2, im.height - im.height % 2))
                for im in images]  # H.264 wants even sizes
        iio.imwrite(path, np.stack([np.asarray(im) for im in even]), fps=fps,
                    codec="libx264", macro_block_size=1)
        return
    options = dict(save_all=True, append_images=images[1:], duration=durations, loop=loop)
    if suffix == ".gif":
        images[0].save(path, format="GIF", optimize=False, disposal=1, **options)
    else:
        images[0].save(path, format="PNG", **options)


def save_animation(target, path, granularity="node", duration_ms=900, last_ms=2500, loop=0,
                   scale=1.5, theme="default", names=None, gradient=None, retain_graph=None,
                   **draw_options):
    """Write the frames of a stepper as an animation: ``.gif``, ``.png``/``.apng`` or ``.mp4``.

    Args:
        target: a ``Recording``, a ``Stepper``, a tensor (its backward is recorded) or a
            callable that calls backward, as :func:`viz.save_html` takes.
        path: the file to write; its suffix picks the format.
        granularity: ``"node"`` (one frame per node run, the default), ``"event"`` (every
            engine event) or ``"hooks"``.
        duration_ms: how long each frame shows; ``last_ms`` for the last one.
        loop: 0 loops for ever, ``n`` plays ``n`` times (GIF and APNG).
        scale: pixels per CSS pixel of the picture (1.5 reads well on slides).
        theme: ``"default"``, ``"mono"`` or ``"classroom"``.

    Returns:
        pathlib.Path: the file written.
    """
    from viz.export import _playback, frame_svgs

    path = pathlib.Path(path)
    if path.suffix.lower() not in FORMATS:
        kind = repr(path.suffix) if path.suffix else "a file without a suffix"
        raise ValueError(f"cannot write an animation as {kind}; use one of "
                         f"{', '.join(FORMATS)}")
    if duration_ms <= 0 or last_ms <= 0:
        raise ValueError("duration_ms and last_ms must be positive")
    _imports()
    if names is None and not hasattr(target, "state_at"):
        from viz.data import caller_names, frame_of_caller
        names = caller_names(frame_of_caller(2))
    playback = _playback(target, theme, names, draw_options, gradient, retain_graph)
    images = _same_canvas([rasterize(svg, scale) for svg in frame_svgs(playback, granularity)])
    _write(images, path, duration_ms, last_ms, loop)
    return path
