"""``lerp``, ``addcmul`` and ``addcdiv`` (minigrad.ops.ternary) and their in-place forms
against torch 2.13: rounding from the nearer end, dtypes, an Adam step, gradients and PyTorch's
errors. Forward, gradients and node names of the plain cases are in tests/cases_ternary.py."""

import pytest
from parity_expr import agree

CASES = {
    "lerp-ends": "T.lerp(T.tensor([1.0, -3.0]), T.tensor([5.0, 7.0]), 1.0)",
    "lerp-float32": "T.lerp(T.tensor([0.1, 1e8]), T.tensor([0.7, 3.0]), 0.7)",
    "lerp-extrapolate": "T.tensor([1.0, 2.0]).lerp(T.tensor([3.0, 5.0]), -1.5)",
    "lerp-tensor-weight": "T.lerp(T.zeros(2, 1), T.ones(1, 3), T.tensor([0.2, 0.6, 1.0]))",
    "lerp-0d-weight-float64": "T.lerp(T.tensor([1.0]), T.tensor([2.0]), "
                              "T.tensor(0.5, dtype=T.float64))",
    "lerp-bool-weight": "T.lerp(T.tensor([1.0]), T.tensor([2.0]), True)",
    "lerp-grads": "(lambda a, b, w: T.lerp(a, b, w).sum().backward() or (a.grad, b.grad, "
                  "w.grad))(T.tensor([1.0, 2.0], requires_grad=True), T.tensor([3.0, 5.0], "
                  "requires_grad=True), T.tensor([0.25, 0.75], requires_grad=True))",
    "lerp-saved-weight": "T.lerp(T.ones(2, requires_grad=True), T.zeros(2), 0.3)"
                         ".grad_fn._saved_weight",
    "lerp-in-place": "(lambda x: (x.lerp_(T.tensor([3.0, 4.0]), 0.5), x)[1])"
                     "(T.tensor([1.0, 2.0]))",
    "lerp-int": "T.lerp(T.tensor([1, 2]), T.tensor([3, 4]), 0.5)",
    "lerp-int-tensor-weight": "T.lerp(T.tensor([1]), T.tensor([3]), T.tensor([1]))",
    "lerp-end-dtype": "T.lerp(T.tensor([1.0]), T.tensor([2.0], dtype=T.float64), 0.5)",
    "lerp-weight-dtype": "T.lerp(T.tensor([1.0]), T.tensor([2.0]), "
                         "T.tensor([0.5], dtype=T.float64))",
    "lerp-number-end": "T.lerp(T.tensor([1.0]), 2, 0.5)",
    "lerp-str-weight": "T.lerp(T.tensor([1.0]), T.tensor([2.0]), 'a')",
    "lerp-shapes": "T.lerp(T.ones(2), T.ones(3), 0.5)",
    "addcmul-int": "T.addcmul(T.tensor([1, 2]), T.tensor([3, 4]), T.tensor([5, 6]), value=2)",
    "addcmul-promotes": "T.addcmul(T.tensor([1.0]), T.tensor([2.0], dtype=T.float64), "
                        "T.tensor([3]))",
    "addcmul-0d-input": "T.addcmul(T.tensor(1.0, dtype=T.float64), T.tensor([2.0]), "
                        "T.tensor([3.0]))",
    "addcmul-saved": "(lambda f: (f._saved_value, f._saved_tensor1, f._saved_tensor2))"
                     "(T.addcmul(T.ones(2), T.ones(2, requires_grad=True), T.tensor([2.0, 3.0]"
                     ", requires_grad=True), value=3).grad_fn)",
    "addcmul-number": "T.addcmul(T.ones(2), 2, T.ones(2))",
    "addcmul-shapes": "T.addcmul(T.ones(2), T.ones(2), T.ones(3))",
    "addcdiv-by-zero": "T.addcdiv(T.zeros(3), T.tensor([1.0, -1.0, 0.0]), T.zeros(3))",
    "addcdiv-int": "T.addcdiv(T.tensor([1]), T.tensor([3]), T.tensor([2]))",
    "addcdiv-int-float": "T.addcdiv(T.tensor([1.0]), T.tensor([3]), T.tensor([2]), value=0.5)",
    "adam-step": "(lambda p, g, m, v: (m.mul_(0.9).add_(g, alpha=0.1), v.mul_(0.999)"
                 ".addcmul_(g, g, value=0.001), p.addcdiv_(m, v.sqrt().add_(1e-8), "
                 "value=-0.01), p)[3])(T.tensor([1.0, -2.0]), T.tensor([0.5, 0.25]), "
                 "T.zeros(2), T.zeros(2))",
    "addcmul-in-place-graph": "(lambda x: x.addcmul_(T.ones(2, requires_grad=True), "
                              "T.ones(2)))(T.zeros(2))",
    "addcdiv-grads": "(lambda x, a, b: T.addcdiv(x, a, b, value=2).sum().backward() or "
                     "(x.grad, a.grad, b.grad))(T.ones(2, requires_grad=True), "
                     "T.tensor([1.0, 2.0], requires_grad=True), "
                     "T.tensor([4.0, -2.0], requires_grad=True))",
}


@pytest.mark.parametrize("src", CASES.values(), ids=CASES.keys())
def test_matches_torch(oracle, src):
    agree(oracle, src)
