"""The one-way dependency: ``minigrad`` never imports ``viz``; ``viz`` uses only minigrad's
public graph API (``minigrad.autograd.graph``) and ``minigrad.Tensor`` as a type, and never
touches a private attribute (a name starting with ``_``) of anything but its own objects."""

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
CORE = sorted((ROOT / "minigrad").rglob("*.py"))
VIZ = sorted((ROOT / "viz").rglob("*.py"))

# What viz may import from minigrad: module -> allowed names (None: any public name).
ALLOWED = {"minigrad": {"Tensor"}, "minigrad.autograd": {"graph"},
           "minigrad.autograd.graph": None}


def imports(tree):
    """``(module, name or None, line)`` for every import statement in ``tree``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, None, node.lineno
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            for alias in node.names:
                yield node.module, alias.name, node.lineno


def private_accesses(tree):
    """Private attribute reads on anything but ``self``/``cls``/``super()`` (a class's own
    objects), and ``getattr(x, "_y")``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_"):
            own = (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")) or (
                isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name)
                and node.value.func.id == "super")
            if not own and not _is_dunder(node.attr):
                yield node.attr, node.lineno
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in ("getattr", "hasattr", "setattr", "vars")):
            args = node.args
            if node.func.id == "vars":
                yield "vars()", node.lineno
            elif len(args) > 1 and isinstance(args[1], ast.Constant) and \
                    str(args[1].value).startswith("_") and not _is_dunder(str(args[1].value)):
                yield args[1].value, node.lineno


def _is_dunder(name):
    """Python's own attributes (``__code__``), read the same way on any object."""
    return name.startswith("__") and name.endswith("__")


def parse(path):
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def test_there_is_something_to_check():
    assert len(CORE) > 10 and len(VIZ) > 5


@pytest.mark.parametrize("path", CORE, ids=lambda p: str(p.relative_to(ROOT)))
def test_minigrad_never_imports_viz(path):
    for module, _name, line in imports(parse(path)):
        assert module.split(".")[0] != "viz", f"{path.name}:{line} imports {module}"


@pytest.mark.parametrize("path", VIZ, ids=lambda p: str(p.relative_to(ROOT)))
def test_viz_uses_only_the_public_graph_api(path):
    for module, name, line in imports(parse(path)):
        if module.split(".")[0] != "minigrad":
            continue
        where = f"{path.name}:{line}"
        assert module in ALLOWED, f"{where} imports {module}: use minigrad.autograd.graph"
        allowed = ALLOWED[module]
        assert name is not None, f"{where}: import names from {module}, not the module"
        assert not name.startswith("_"), f"{where} imports private {module}.{name}"
        assert allowed is None or name in allowed, f"{where} imports {module}.{name}"


@pytest.mark.parametrize("path", VIZ, ids=lambda p: str(p.relative_to(ROOT)))
def test_viz_reads_no_private_attribute(path):
    found = list(private_accesses(parse(path)))
    assert not found, f"{path.name} reads private attributes: {found}"


def test_the_checks_catch_what_they_should():
    bad = ast.parse("import minigrad.tensor\nfrom minigrad.autograd.node import Node\n"
                    "t._version\ngetattr(t, '_grad')\nself._mine\nf.__code__\n"
                    "getattr(f, '__code__')\n")
    assert [m for m, _, _ in imports(bad)] == ["minigrad.tensor", "minigrad.autograd.node"]
    assert [a for a, _ in private_accesses(bad)] == ["_version", "_grad"]
