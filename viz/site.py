"""``python -m viz.site tutorials site``: every tutorial's key steppers as standalone pages.

Each notebook ``NN_*.ipynb`` in the tutorials folder runs top to bottom in a fresh ``python3``
kernel (nbclient, as the tests run them). Every code cell tagged ``export`` must end with a
stepper; it is written with :func:`viz.export.save_html` as ``<notebook>.html`` (or
``<notebook>-2.html``, … for a notebook's later steppers) with the notebook's title, the
question it answers, the code of the cell being replayed and links to the previous and next
pages on top. ``index.html`` lists them all. The pages need no kernel, no
network and no CDN: open ``site/index.html`` from disk, or serve the folder
(``python -m http.server -d site``).

Options: ``--theme classroom`` for a projector (large type, high contrast), ``--only 02 05`` to
export a few tutorials, ``--timeout`` seconds per cell.

Example:
    $ python -m viz.site tutorials site --theme classroom
"""

import argparse
import html
import os
import pathlib
import re
import sys

__all__ = ["main", "build_site", "export_notebook", "notebook_intro", "highlight"]

TAG = "export"
PROJECT = pathlib.Path(__file__).resolve().parents[1]


def _inline(text):
    """The little Markdown of a tutorial's first lines as HTML: code, bold, italics.

    Example:
        >>> _inline("why is `d = c * c` a *leaf*?")
        'why is <code>d = c * c</code> a <em>leaf</em>?'
    """
    parts = re.split(r"(`[^`]+`)", text)
    out = []
    for k, part in enumerate(parts):
        if k % 2:
            out.append(f"<code>{html.escape(part[1:-1], quote=False)}</code>")
            continue
        part = html.escape(part, quote=False)
        part = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", part)
        out.append(re.sub(r"(?<![*\w])\*([^*\s][^*]*)\*(?!\*)", r"<em>\1</em>", part))
    return "".join(out)


def _plain(text):
    """``text`` without Markdown marks, for a page's ``<title>`` and heading."""
    return re.sub(r"[`*]", "", text)


def notebook_intro(nb):
    """``(title, question)`` of a tutorial: its first heading and its "The question" paragraph.

    Example:
        >>> import nbformat
        >>> nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(
        ...     "# 1 · Leaves\\n\\n**The question:** which tensors\\nget a `.grad`?")])
        >>> notebook_intro(nb)
        ('1 · Leaves', 'which tensors get a `.grad`?')
    """
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        title = next((line[2:].strip() for line in cell.source.splitlines()
                      if line.startswith("# ")), "")
        paragraphs = re.split(r"\n\s*\n", cell.source)
        question = next((p for p in paragraphs if p.lstrip().startswith("**The question:**")),
                        "")
        question = " ".join(question.replace("**The question:**", "").split())
        return title, question
    return "", ""


def _kernel_env():
    """Kernels must import this checkout's minigrad and viz, installed or not."""
    path = os.environ.get("PYTHONPATH", "")
    return os.pathsep.join(p for p in (str(PROJECT), path) if p)


def export_notebook(path, out_dir, theme="default", timeout=120):
    """Run one notebook; save each stepper of its ``export`` cells; return the pages written."""
    import nbclient
    import nbformat

    nb = nbformat.read(path, as_version=4)
    title, question = notebook_intro(nb)
    client = nbclient.NotebookClient(
        nb, timeout=timeout, kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
        # the kernel's start-up warnings (e.g. "running over TCP") are noise for a page build
        extra_arguments=["--IPKernelApp.log_level=ERROR"])
    pages = []
    os.environ["PYTHONPATH"] = _kernel_env()
    with client.setup_kernel():
        for index, cell in enumerate(nb.cells):
            client.execute_cell(cell, index)
            if cell.cell_type != "code" or TAG not in cell.metadata.get("tags", []):
                continue
            number = len(pages) + 1
            target = out_dir / f"{path.stem}{'' if number == 1 else f'-{number}'}.html"
            page_title = _plain(title) if number == 1 else f"{_plain(title)} ({number})"
            saver = nbformat.v4.new_code_cell(_SAVE.format(
                count=cell.execution_count, path=str(target.resolve()), title=page_title,
                theme=theme))
            client.execute_cell(saver, index)
            _add_intro(target, question, cell.source)
            pages.append((target, title if number == 1 else f"{title} ({number})", question))
    return pages


# Runs in the kernel right after an export cell: its value is Out[count].
_SAVE = """\
_mg_stepper = Out.get({count})
if not hasattr(_mg_stepper, "save_html"):
    raise TypeError("a cell tagged 'export' must end with a stepper, not "
                    + type(_mg_stepper).__name__)
if {theme!r} == "classroom":
    import viz.classroom
    viz.classroom.save_html(_mg_stepper, {path!r}, title={title!r})
else:
    import viz.export
    viz.export.save_html(_mg_stepper.recording, {path!r}, title={title!r},
                         granularity=_mg_stepper.granularity, theme={theme!r})
del _mg_stepper
"""


def highlight(code):
    """Python source as escaped HTML, coloured by Pygments when it is installed.

    Example:
        >>> "&lt;" in highlight("a < b")
        True
    """
    try:
        from pygments import highlight as pygmentize
        from pygments.formatters import HtmlFormatter
        from pygments.lexers import PythonLexer
    except ImportError:
        return f"<pre>{html.escape(code, quote=False)}</pre>"
    return pygmentize(code, PythonLexer(), HtmlFormatter(noclasses=True, nobackground=True))


_NAV = '<nav class="mg-site-nav"><a href="index.html">← all tutorials</a></nav>\n'
_STYLE = ("<style>.mg-site-nav{margin:.2em 0 .6em;display:flex;gap:1.5em;flex-wrap:wrap}"
          ".mg-site-question{max-width:60em;line-height:1.45}"
          ".mg-site-code{max-width:60em;margin:.4em 0 1em;border:1px solid #bbb;"
          "border-left:4px solid #555;background:#f7f7f7;padding:.2em .8em;overflow-x:auto}"
          ".mg-site-code pre{margin:.4em 0;font-size:13px;line-height:1.4}"
          ".mg-site-code summary{margin:.3em 0 0;font-size:90%;color:#333;cursor:pointer}"
          "</style>\n")


def _add_intro(page, question, code=""):
    """Put the question, the replayed cell's code and a link to the index under the title."""
    text = page.read_text(encoding="utf-8")
    intro = _NAV
    if question:
        intro += (f'<p class="mg-site-question"><strong>The question:</strong> '
                  f"{_inline(question)}</p>\n")
    if code.strip():
        intro += ('<details class="mg-site-code" open><summary>The code this page replays '
                  "(click to show or hide)</summary>\n" + highlight(code.strip()) +
                  "</details>\n")
    text = text.replace("</h1>\n", "</h1>\n" + intro, 1)
    page.write_text(text.replace("</head>", _STYLE + "</head>", 1), encoding="utf-8")


def _link_neighbours(entries):
    """Give every page links to the previous and the next page, in the index's order."""
    for k, (page, _, _) in enumerate(entries):
        links = ['<a href="index.html">← all tutorials</a>']
        if k > 0:
            before = entries[k - 1]
            links.insert(0, f'<a rel="prev" href="{html.escape(before[0].name)}">« '
                            f"{_inline(before[1])}</a>")
        if k + 1 < len(entries):
            after = entries[k + 1]
            links.append(f'<a rel="next" href="{html.escape(after[0].name)}">'
                         f"{_inline(after[1])} »</a>")
        nav = f'<nav class="mg-site-nav">{" ".join(links)}</nav>\n'
        text = page.read_text(encoding="utf-8").replace(_NAV, nav, 1)
        page.write_text(text, encoding="utf-8")


def _index(out_dir, entries, theme):
    big = theme == "classroom"
    rows = "\n".join(
        f'<li><a href="{html.escape(page.name)}">{_inline(title)}</a>'
        f'<p>{_inline(question)}</p></li>' for page, title, question in entries)
    page = (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        "<title>minigrad: the backward pass, step by step</title>\n<style>\n"
        f"body{{font-family:Helvetica,Arial,sans-serif;margin:2em auto;max-width:52em;"
        f"padding:0 1em;color:#000;background:#fff;font-size:{'150%' if big else '100%'};"
        "line-height:1.45}\n"
        "li{margin:0 0 1.1em}li p{margin:.2em 0 0;color:#333}a{color:#003a99;font-weight:bold}"
        "\ncode{background:#f0f0f0;padding:0 .2em}\n</style>\n</head>\n<body>\n"
        "<h1>minigrad: the backward pass, step by step</h1>\n"
        "<p>Each page replays a real backward pass of one tutorial, event by event, under "
        "the code that ran it: press ▶ or use the arrow keys (← →, Home, End). No "
        "installation, no network: everything is in the page.</p>\n"
        f"<ol>\n{rows}\n</ol>\n</body>\n</html>\n")
    path = out_dir / "index.html"
    path.write_text(page, encoding="utf-8")
    return path


def build_site(tutorials, out_dir, theme="default", only=(), timeout=120, log=print):
    """Export every tutorial's steppers into ``out_dir`` and write its index; return it."""
    tutorials, out_dir = pathlib.Path(tutorials), pathlib.Path(out_dir)
    notebooks = sorted(tutorials.glob("[0-9][0-9]_*.ipynb"))
    if only:
        notebooks = [p for p in notebooks if any(p.name.startswith(o) for o in only)]
    if not notebooks:
        raise FileNotFoundError(f"no tutorials (NN_*.ipynb) in {tutorials}")
    out_dir.mkdir(parents=True, exist_ok=True)
    entries = []
    for path in notebooks:
        pages = export_notebook(path, out_dir, theme=theme, timeout=timeout)
        log(f"{path.name}: {len(pages)} page{'s' * (len(pages) != 1)}")
        entries.extend(pages)
    _link_neighbours(entries)
    return _index(out_dir, entries, theme)


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m viz.site",
        description="Run the tutorials and write their key steppers as standalone HTML pages.")
    parser.add_argument("tutorials", nargs="?", default="tutorials",
                        help="the folder of NN_*.ipynb notebooks (default: tutorials)")
    parser.add_argument("out", nargs="?", default="site",
                        help="the folder to write (default: site)")
    parser.add_argument("--theme", choices=("default", "mono", "classroom"), default="default",
                        help="classroom: large type and high contrast, for a projector")
    parser.add_argument("--only", nargs="*", default=(), metavar="NN",
                        help="export only the tutorials whose names start with these")
    parser.add_argument("--timeout", type=int, default=120, help="seconds per cell")
    args = parser.parse_args(argv)
    try:
        index = build_site(args.tutorials, args.out, theme=args.theme, only=args.only,
                           timeout=args.timeout, log=lambda m: print(m, file=sys.stderr))
    except (FileNotFoundError, ImportError) as exc:
        print(f"viz.site: error: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {index}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
