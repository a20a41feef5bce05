"""``minigrad-viz`` from the shell, run as a subprocess (``python -m viz.cli``)."""

import json
import os
import pathlib
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ET

import pytest

from viz import engines

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SCRIPT = """
import minigrad as torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = torch.tensor([4.0, 5.0, 6.0], requires_grad=True)
loss = (x * y).sum()
count = 3
print("the script prints this")
"""

needs_engine = pytest.mark.skipif(not engines.available_engines(),
                                  reason="no Graphviz engine is installed here")


def run(*args, cwd):
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""),
               MINIGRAD_VIZ_NO_BROWSER="1")
    return subprocess.run([sys.executable, "-m", "viz.cli", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120, check=False)


@pytest.fixture
def script(tmp_path):
    path = tmp_path / "train.py"
    path.write_text(textwrap.dedent(SCRIPT))
    return path


def last_line(done):
    return done.stderr.strip().splitlines()[-1]


def test_help_explains_itself(tmp_path):
    done = run("--help", cwd=tmp_path)
    assert done.returncode == 0 and "render" in done.stdout and "legend" in done.stdout
    done = run("render", "--help", cwd=tmp_path)
    assert done.returncode == 0
    for flag in ("--var", "--view", "--values", "--show-saved", "--json", "-o"):
        assert flag in done.stdout


@needs_engine
def test_render_writes_an_svg(script, tmp_path):
    done = run("render", str(script), "--var", "loss", "-o", "g.svg", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    root = ET.parse(tmp_path / "g.svg").getroot()
    titles = [t.text for t in root.iter("{http://www.w3.org/2000/svg}title")]
    assert any(t.startswith("x: leaf") for t in titles)
    assert "the script prints this" in done.stderr  # never mixed into the picture


@needs_engine
def test_render_forward_view_with_values_and_saved(script, tmp_path):
    done = run("render", str(script), "--var", "loss", "--view", "forward", "--values",
               "--show-saved", "-o", "-", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    root = ET.fromstring(done.stdout)
    graph = root.find("{http://www.w3.org/2000/svg}g")
    assert "mg-forward" in graph.get("class").split()
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "data [1, 2, 3]" in texts


@needs_engine
def test_default_output_name(script, tmp_path):
    done = run("render", str(script), "--var", "loss", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "train-loss.svg").exists()


def test_json_dumps_the_snapshot(script, tmp_path):
    done = run("render", str(script), "--var", "loss", "--json", "-o", "-", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["format"] == "minigrad.snapshot/1"
    assert {t["name"] for t in data["tensors"]} >= {"x", "y", "loss"}


@pytest.mark.parametrize("args, reason", [
    (("missing.py", "--var", "loss"), "no such file: missing.py"),
    (("{script}", "--var", "los"), "has no variable 'los' (its tensors: loss, x, y)"),
    (("{script}", "--var", "count"), "'count' is not a minigrad tensor (it is of type int)"),
    ((".", "--var", "loss"), ". is a directory, not a Python script"),
    (("{script}", "--var", "loss", "--max-nodes", "-3"), "must be a whole number of at least 1"),
])
def test_bad_input_exits_non_zero_with_one_line(script, tmp_path, args, reason):
    args = [a.format(script=script) for a in args]
    done = run("render", *args, cwd=tmp_path)
    assert done.returncode == 2
    assert last_line(done).startswith(("minigrad-viz: error: ", "minigrad-viz render: error: "))
    assert reason in last_line(done)
    assert "Traceback" not in done.stderr


def test_a_failing_script_is_reported_in_one_line(tmp_path):
    path = tmp_path / "broken.py"
    path.write_text("raise ValueError('bad data\\nsecond line')\n")
    done = run("render", str(path), "--var", "loss", cwd=tmp_path)
    assert done.returncode == 2
    assert last_line(done) == "minigrad-viz: error: broken.py raised ValueError: bad data"


def test_a_huge_error_message_is_cut_to_one_short_line(tmp_path):
    path = tmp_path / "loud.py"
    path.write_text("raise RuntimeError('x' * 100_000)\n")
    done = run("render", str(path), "--var", "loss", cwd=tmp_path)
    assert done.returncode == 2 and len(last_line(done)) < 400
    assert "Traceback" not in done.stderr


@needs_engine
def test_hostile_variable_names_give_a_clean_picture(tmp_path):
    from tests.test_viz_security import HOSTILE, check_svg
    path = tmp_path / "evil.py"
    path.write_text(textwrap.dedent(f"""
        import minigrad as torch
        names = {HOSTILE!r}
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        total = x.sum()
        for k, name in enumerate(names):
            globals()[name] = x * (k + 2)
            total = total + globals()[name].sum()
        loss = total
    """))
    for extra in ((), ("--view", "forward", "--values", "--show-saved", "--legend")):
        done = run("render", str(path), "--var", "loss", "-o", "-", *extra, cwd=tmp_path)
        assert done.returncode == 0, done.stderr[-500:]
        root = check_svg(done.stdout)
        texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
        assert "<script>alert(1)</script>" in texts  # shown as text, not run


def test_missing_arguments_are_usage_errors(tmp_path):
    done = run("render", cwd=tmp_path)
    assert done.returncode == 2 and "usage:" in done.stderr


@needs_engine
def test_legend_command(tmp_path):
    done = run("legend", "-o", "legend.svg", "--open", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert ET.parse(tmp_path / "legend.svg").getroot() is not None
    assert "would open" in done.stderr


def test_output_into_a_new_folder(tmp_path):
    from viz.cli import main
    target = tmp_path / "build" / "nested" / "first_graph.svg"
    script = pathlib.Path(__file__).resolve().parents[1] / "tutorials" / "first_graph.py"
    assert main(["render", str(script), "--var", "loss", "-o", str(target)]) == 0
    assert target.read_text(encoding="utf-8").lstrip().startswith(("<?xml", "<svg", "<!--"))
