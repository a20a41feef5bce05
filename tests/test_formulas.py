"""Each op's ``formula`` (minigrad/autograd/_formulas.py), evaluated on the numbers a recording
kept, equals the gradient the node really sent: for every op of the registry and the programs
of tests/formula_cases.py, first and second order (the upstream gradients require grad, so the
backward of every backward node runs too). The helpers a formula calls are written out in
tests/formula_eval.py. The arithmetic overlay of the stepper shows these formulas with these
numbers.
"""

import warnings

import numpy as np
import pytest
from formula_cases import CASES as MORE_CASES
from formula_eval import HELPERS, evaluate
from op_families import FAMILIES
from op_registry import all_cases

import minigrad
import minigrad.nn.functional  # noqa: F401 - its ops are walked below
from minigrad.autograd._formulas import FUNCTIONS, formula_names, formula_of
from minigrad.autograd._values import value_to_array
from minigrad.autograd.function import _Op
from minigrad.autograd.graph import record

CASES = [c for c in all_cases() + FAMILIES + MORE_CASES if c.check_grad]


def _sum_to(array, shape):
    array = np.asarray(array)
    while array.ndim > len(shape):
        array = array.sum(axis=0)
    for d, size in enumerate(shape):
        if size == 1 and array.shape[d] != 1:
            array = array.sum(axis=d, keepdims=True)
    return np.broadcast_to(array, shape)


_RUNS = {}


def _run(case):
    if case.name not in _RUNS:
        _RUNS[case.name] = _record(case)
    return _RUNS[case.name]


def _record(case):
    rng = np.random.default_rng(0)
    arrays = case.make(rng)
    grad_args = case.grad_args if case.grad_args is not None else range(len(arrays))
    inputs = [minigrad.tensor(a, dtype=minigrad.float64, requires_grad=i in grad_args)
              for i, a in enumerate(arrays)]
    with warnings.catch_warnings(), record(names={}, full_limit=100_000) as rec:
        warnings.simplefilter("ignore")
        out = case.fn(minigrad, *inputs)
        outs = [o for o in (out if isinstance(out, (tuple, list)) else (out,))
                if o.requires_grad]
        # the upstream gradients require grad too, so that second order also runs the
        # backward of each backward node (a linear op's backward does not depend on x)
        vs = [minigrad.tensor(rng.uniform(-1, 1, tuple(o.shape)), dtype=o.dtype,
                              requires_grad=case.second_order and o.dtype.is_floating_point)
              for o in outs]
        wanted = [t for t in inputs if t.requires_grad]
        grads = minigrad.autograd.grad(outs, wanted, vs, create_graph=case.second_order,
                                       allow_unused=True)
        if case.second_order:
            total = sum((g * g).sum() for g in grads if g is not None and g.requires_grad)
            if isinstance(total, minigrad.Tensor):
                total.backward()
    return rec


def _received(rec, node, event):
    """The gradients a node received, as arrays (zeros for an output nobody used)."""
    shapes = node["operands"].get("output_shapes") or ()
    return [value_to_array(rec.values[ref]) if ref is not None else
            np.zeros(tuple(shapes[k])) if k < len(shapes) else 0.0
            for k, ref in enumerate(event["grads_in"])]


def _missing(node, name):
    """A tensor the recording did not keep: too big to store, released, or never saved."""
    value = node["operands"].get(name)
    if hasattr(value, "keys") and "shape" in value:
        return "data" not in value
    saved = {slot.get("name") for slot in node.get("saved") or ()}
    return value is None and (name in saved or name not in node["operands"])


def _checks(rec):
    """(node name, position, formula value, gradient sent) for every formula the nodes used."""
    nodes = {n["id"]: n for n in rec.snapshot.nodes}
    for event in rec.events:
        if event["kind"] != "node_ran" or not nodes[event["node"]].get("formula"):
            continue
        node = nodes[event["node"]]
        operands = node["operands"]
        if all(ref is None for ref in event["grads_in"]):
            continue
        grads = _received(rec, node, event)
        for position, ref in enumerate(event["grads_out"]):
            if ref is None:
                continue
            assert position < len(node["formula"]), f"{node['name']}: no formula for {position}"
            names = formula_names((node["formula"][position],))
            if any(_missing(node, n) for n in names):
                continue      # a tensor kept as its shape only (too big to store)
            sent = value_to_array(rec.values[ref])
            value = evaluate(node["formula"][position], grads, operands)
            yield node["name"], position, _sum_to(value, sent.shape), sent


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_formula_numbers_are_the_gradient_sent(case):
    checked = 0
    for name, position, value, sent in _checks(_run(case)):
        np.testing.assert_allclose(value, sent, rtol=1e-6, atol=1e-9,
                                   err_msg=f"{name} input {position}")
        checked += 1
    nodes = {n["name"] for n in _run(case).snapshot.nodes if n.get("formula")}
    assert checked or not nodes


def test_every_op_formula_is_checked_by_some_program():
    checked = {name for case in CASES for name, *_ in _checks(_run(case))}
    assert sorted({c.node_name for c in _op_classes()} - checked) == []


def test_the_language_has_a_meaning_for_each_helper():
    assert FUNCTIONS == set(HELPERS)


def _op_classes():
    seen, stack = [], [_Op]
    while stack:
        cls = stack.pop()
        for sub in cls.__subclasses__():
            stack.append(sub)
            if sub.__module__.startswith("minigrad.") and "node_name" in sub.__dict__ \
                    and sub.node_name != "NotImplemented":
                seen.append(sub)
    return seen


def test_every_built_in_op_class_has_a_formula():
    classes = _op_classes()
    assert len(classes) > 150
    lacking = sorted(c.__name__ for c in classes if formula_of(c._backward_cls()) is None)
    assert lacking == []


def test_a_formula_has_one_expression_per_tensor_input():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    for out in (x * x, x + 1, (x ** 3).sum(), x.exp(), x @ x):
        assert len(formula_of(out.grad_fn)) == len(out.grad_fn.next_functions)
