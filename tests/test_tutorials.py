"""The tutorials run top to bottom, and every exercise's check cell judges answers correctly.

Each notebook runs once in a fresh ``python3`` kernel (nbclient), as shipped: no cell may fail,
and every check cell must say the exercise is still open. Then, in the same kernel, each
exercise's answer cell is run again with a right answer (its check cell must print ✓) and with
a wrong one (its check cell must fail with ``NotYet``). The answers live here, not in the
notebooks: the ``...`` of an answer cell is replaced by the expression below, or, for an answer
of several lines, the whole line that holds the ``...`` is replaced by those lines.
"""

import copy
import os
import pathlib
import re
import sys

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")
pytest.importorskip("ipywidgets")

ROOT = pathlib.Path(__file__).resolve().parents[1]
TUTORIALS = ROOT / "tutorials"
NOTEBOOKS = sorted(TUTORIALS.glob("[0-9][0-9]_*.ipynb"))
CELL_TIMEOUT = 120

# exercise -> (a right answer, a wrong answer): each replaces the "..." of the answer cell.
ANSWERS = {
    "1a": ('{"p", "q", "s", "u"}', '{"p", "q"}'),
    "1b": ('{"p"}', '{"p", "r"}'),
    "2a": ('["ExpBackward0", "AddBackward0", "MulBackward0", "AccumulateGrad"]',
           '["ExpBackward0", "AddBackward0", "MulBackward0"]'),
    "2b": ("mul_node(sum_node(torch.tensor(1.0)))[0]", "sum_node(torch.tensor(1.0))"),
    "3a": ("[2.0, 0.0, -6.0]", "[2.0, 4.0, 6.0]"),
    "3b": ("6.0", "12.0"),
    "4a": ("[6.0, 16.0]", "[3.0, 8.0]"),
    "4b": ('"B"', '"A"'),
    "5a": ('["tensor hook v", "pre-hook ExpBackward0", "post-hook ExpBackward0", '
           '"tensor hook u", "post-accumulate u"]',
           '["post-accumulate u", "post-hook ExpBackward0", "tensor hook u", '
           '"tensor hook v", "pre-hook ExpBackward0"]'),
    "5b": ("11", "12"),
    "6a": ('{"B", "C", "E"}', '{"B", "E"}'),
    "6b": ('"C"', '"A"'),
    "7a": ("torch.autograd.grad(torch.autograd.grad(f, x, create_graph=True)[0], x)[0]",
           "torch.autograd.grad(f, x)[0]"),
    "7b": ("torch.autograd.grad((torch.autograd.grad(f, x, create_graph=True)[0] ** 2).sum(),"
           " x)[0]", "torch.autograd.grad(f, x)[0]"),
    "8a": ("3 * x ** 2 * grad_output", "3 * x ** 2"),
    "8b": ('{"B", "C"}', '{"A", "B", "C"}'),
    "9a": ("with fwAD.dual_level():\n"
           "    s = (fwAD.make_dual(x, v) ** 2).sum()\n"
           "    directional = fwAD.unpack_dual(s).tangent",
           "2 * x * v"),
    "9b": ("hessian(g, torch.tensor([2.0, 1.0]))", "[[4.0, 2.0], [2.0, 12.0]]"),
    "10a": ('["zero_grad", "forward", "backward", "step"]',
            '["forward", "backward", "zero_grad", "step"]'),
    "10b": ("6", "3"),
    "11a": ("[1, 8, 15, 15]", "[1, 8, 16, 16]"),
    "11b": ("[[0, 1, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0], [1, 0, 0, 0]]", "[[0.25] * 4] * 4"),
}


def _fill(source, answer):
    """The answer cell with its ``...`` replaced: in place, or as whole lines if several."""
    if "\n" not in answer:
        return source.replace("...", answer)
    lines = source.split("\n")
    at = next(i for i, line in enumerate(lines) if "..." in line)
    return "\n".join(lines[:at] + answer.split("\n") + lines[at + 1:])


def _tag(cell, prefix):
    for tag in cell.get("metadata", {}).get("tags", []):
        if tag.startswith(prefix):
            return tag[len(prefix):]
    return None


def _exercises(nb):
    """exercise key -> (answer cell index, check cell index)."""
    found = {}
    for index, cell in enumerate(nb.cells):
        for prefix, slot in (("exercise-", 0), ("check-", 1)):
            key = _tag(cell, prefix)
            if key is not None:
                found.setdefault(key, [None, None])[slot] = index
    return {k: tuple(v) for k, v in found.items()}


def _text(cell):
    parts = []
    for output in cell.get("outputs", []):
        if output.get("output_type") == "stream":
            parts.append(output["text"])
        elif "data" in output:
            parts.append(output["data"].get("text/plain", ""))
        elif output.get("output_type") == "error":
            parts.append("\n".join(output.get("traceback", [])))
    return "".join(parts)


@pytest.fixture(autouse=True)
def _kernel_finds_the_project(monkeypatch):
    """Kernels import this checkout's minigrad and viz, installed or not."""
    path = os.environ.get("PYTHONPATH", "")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(p for p in (str(ROOT), path) if p))
    monkeypatch.setenv("MINIGRAD_VIZ_NO_BROWSER", "1")


def test_there_are_eleven_tutorials():
    assert [p.name[:2] for p in NOTEBOOKS] == [f"{k:02d}" for k in range(1, 12)]


def test_binder_opens_the_first_tutorial_with_the_project_installed():
    binder = ROOT / "binder"
    requirements = (binder / "requirements.txt").read_text().split("\n")
    assert any(line.startswith(".[") for line in requirements)   # a local reference
    assert "graphviz" in (binder / "apt.txt").read_text().split()
    assert (binder / "runtime.txt").read_text().strip() in ("python-3.11", "python-3.12")
    post_build = (binder / "postBuild").read_text()
    assert post_build.startswith("#!/bin/bash") and "set -e" in post_build
    assert "apputils-extension:announcements" in post_build
    assert os.access(binder / "postBuild", os.X_OK)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    opened = re.search(r"`binder/`[^`]*(?:`[^`]*`[^`]*)*?`lab/tree/([^`]+)`", readme)
    assert opened and (ROOT / opened[1]).is_file() and opened[1] == NOTEBOOKS[0].relative_to(
        ROOT).as_posix()
    assert "OWNER" not in readme  # every address and command runs as written


def test_notebooks_match_their_text_form():
    sys.path.insert(0, str(TUTORIALS))
    try:
        import _build
    finally:
        sys.path.remove(str(TUTORIALS))
    assert _build.build(check=True) == [], "run: python tutorials/_build.py"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_is_committed_without_outputs(path):
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, path.name


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_and_checks_judge_answers(path):
    nb = nbformat.read(path, as_version=4)
    exercises = _exercises(nb)
    assert 1 <= len(exercises) <= 2, f"{path.name}: one or two exercises"
    client = nbclient.NotebookClient(
        nb, timeout=CELL_TIMEOUT, kernel_name="python3",
        resources={"metadata": {"path": str(TUTORIALS)}})
    with client.setup_kernel():
        for index, cell in enumerate(nb.cells):
            client.execute_cell(cell, index)          # raises CellExecutionError on failure
        for key, (answer_at, check_at) in sorted(exercises.items()):
            assert answer_at is not None and check_at is not None, key
            assert "… Exercise" in _text(nb.cells[check_at]), f"{key}: shipped check should wait"
            source = nb.cells[answer_at].source
            assert source.count("...") == 1, f"{key}: the answer cell needs exactly one ..."
            right, wrong = ANSWERS[key]
            for answer, expect_right in ((right, True), (wrong, False)):
                cell = copy.deepcopy(nb.cells[answer_at])
                cell.source = _fill(source, answer)
                client.execute_cell(cell, answer_at)
                check = copy.deepcopy(nb.cells[check_at])
                if expect_right:
                    client.execute_cell(check, check_at)
                    assert "✓ Exercise" in _text(check), f"{key}: {answer!r} not accepted"
                else:
                    with pytest.raises(nbclient.exceptions.CellExecutionError) as info:
                        client.execute_cell(check, check_at)
                    assert info.value.ename == "NotYet", f"{key}: {info.value}"
                    assert "✗ Exercise" in _text(check), f"{key}: the hint is not shown"
