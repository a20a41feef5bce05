"""Build the tutorial notebooks from their text form (jupytext's "percent" format).

Each ``text/NN_name.py`` holds one notebook: ``# %%`` starts a code cell, ``# %% [markdown]``
a Markdown cell (its lines start with ``# ``), and ``tags=["a", "b"]`` after either gives the
cell's tags. The notebooks are written next to this file, without outputs, with stable cell ids
so that a rebuild changes nothing that was not edited. jupytext (optional) reads the same files:
the notebooks carry ``"jupytext": {"formats": "ipynb,text//py:percent"}``.

Usage:
    python tutorials/_build.py          # rebuild every notebook
    python tutorials/_build.py --check  # exit 1 if a notebook is out of date
"""

import json
import pathlib
import re
import sys

HERE = pathlib.Path(__file__).resolve().parent
TEXT = HERE / "text"
_MARKER = re.compile(r"^# %%(?P<md> \[markdown\])?(?: tags=(?P<tags>\[.*\]))?\s*$")


def parse(text):
    """The cells of a percent-format text: a list of ``(cell_type, source, tags)``."""
    cells, current = [], None
    for line in text.splitlines():
        match = _MARKER.match(line)
        if match:
            kind = "markdown" if match["md"] else "code"
            current = [kind, [], json.loads(match["tags"]) if match["tags"] else []]
            cells.append(current)
        elif current is not None:
            if current[0] == "markdown":
                line = line[2:] if line.startswith("# ") else line.lstrip("#")
            current[1].append(line)
    return [(kind, "\n".join(lines).strip("\n"), tags) for kind, lines, tags in cells]


def notebook(stem, text):
    """The notebook (a JSON-ready dict, nbformat 4.5, no outputs) of one text file."""
    cells = []
    for k, (kind, source, tags) in enumerate(parse(text)):
        cell = {"cell_type": kind, "id": f"{stem[:2]}-{k:02d}", "metadata": {}, "source": source}
        if tags:
            cell["metadata"]["tags"] = tags
        if kind == "code":
            cell.update(execution_count=None, outputs=[])
        cells.append(cell)
    return {
        "cells": cells,
        "metadata": {
            "jupytext": {"formats": "ipynb,text//py:percent"},
            "kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python",
                           "name": "python3"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4, "nbformat_minor": 5,
    }


def dumps(nb):
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


def build(check=False):
    """Write (or with ``check=True`` compare) every notebook; returns the stale ones."""
    stale = []
    for source in sorted(TEXT.glob("[0-9][0-9]_*.py")):
        target = HERE / (source.stem + ".ipynb")
        text = dumps(notebook(source.stem, source.read_text(encoding="utf-8")))
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            stale.append(target.name)
            if not check:
                target.write_text(text, encoding="utf-8")
    return stale


if __name__ == "__main__":
    check = "--check" in sys.argv
    stale = build(check=check)
    if stale:
        print(("out of date: " if check else "wrote: ") + ", ".join(stale))
    sys.exit(1 if check and stale else 0)
