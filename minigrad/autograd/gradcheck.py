"""``gradcheck`` and ``gradgradcheck``: compare autograd's Jacobians with finite differences.

For every input that requires grad and every output of ``func``, two Jacobians are built, both
with one row per input element and one column per output element (PyTorch's layout):

* **numerical**: nudge one input element by ``±eps`` in place and take the central difference
  ``(f(x + eps) - f(x - eps)) / (2 eps)`` — a column of finite differences per element;
* **analytical**: run backward once per output element with a one-hot ``grad_output``.

They must agree within ``|a - n| <= atol + rtol·|n|``. Inputs should be float64: in float32 the
rounding error of ``f(x ± 1e-6)`` swamps the difference, which is why PyTorch warns.
``gradgradcheck`` applies ``gradcheck`` to the function ``(inputs, v) ↦ vᵀJ`` built with
``create_graph=True``, i.e. it checks second derivatives.
"""

import warnings

import numpy as np

from minigrad.autograd.function import Function

__all__ = ["gradcheck", "gradgradcheck", "GradcheckError"]


class GradcheckError(RuntimeError):
    """Raised by ``gradcheck`` and ``gradgradcheck`` when a check fails."""


FAILED_NONDET_MSG = """\n
NOTE: If your op relies on non-deterministic operations i.e., it is listed here:
https://pytorch.org/docs/stable/generated/torch.use_deterministic_algorithms.html
this failure might be expected.

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck.
If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with `nondet_tol=<tol>` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have `gradcheck_nondet_tol=<tol>`.
- is a Module test (e.g., in common_nn.py), then modify the corresponding
  module_test entry to have `gradcheck_nondet_tol=<tol>`
"""


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True,
              nondet_tol=0.0, check_undefined_grad=True, check_grad_dtypes=False,
              check_batched_grad=False, check_batched_forward_grad=False,
              check_forward_ad=False, check_backward_ad=True, fast_mode=False, masked=None):
    """Check the gradients of ``func`` at ``inputs`` against finite differences.

    Args:
        func: takes the tensors of ``inputs`` and returns a tensor or a tuple of tensors.
        inputs: a tensor or a tuple of arguments; tensors that require grad are checked
            (they should be float64).
        eps: the finite-difference step.
        atol, rtol: the tolerances of ``|analytical - numerical| <= atol + rtol·|numerical|``.
        raise_exception: raise ``GradcheckError`` on failure (else return False).
        nondet_tol: how much two backward runs on the same input may differ.
        check_grad_dtypes: also check that each gradient has its input's dtype.
        check_forward_ad: also check the Jacobian computed with ``forward_ad``.
        check_backward_ad: check the Jacobian computed with backward (the default).

    Returns:
        True if every check passed.

    Raises:
        GradcheckError: when a Jacobian does not match and ``raise_exception`` is True.

    Example:
        >>> x = minigrad.randn(3, dtype=minigrad.float64, requires_grad=True)
        >>> minigrad.autograd.gradcheck(lambda t: (t.sin() * t).sum(), (x,))
        True
    """
    # NB: minigrad has no vmap and no sparse or complex tensors: masked and fast-mode checks
    # run the plain (slow) check, and a batched check is the plain check itself (vmap's
    # answer is defined as the loop over the batch, which is what the plain check runs).
    if not (check_forward_ad or check_backward_ad):
        raise AssertionError("Expected at least one of check_forward_ad or check_backward_ad "
                             "to be True")
    if check_batched_grad and not check_backward_ad:
        raise AssertionError("Setting check_batched_grad=True requires check_backward_ad to "
                             "be True")
    if check_batched_forward_grad and not check_forward_ad:
        raise AssertionError("Setting check_batched_forward_grad=True requires "
                             "check_forward_ad to be True")
    try:
        return _gradcheck(func, inputs, eps, atol, rtol, nondet_tol, check_grad_dtypes,
                          check_forward_ad, check_backward_ad, check_undefined_grad)
    except GradcheckError:
        if raise_exception:
            raise
        return False


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3,
                  gen_non_contig_grad_outputs=False, raise_exception=True, nondet_tol=0.0,
                  check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
                  check_fwd_over_rev=False, check_rev_over_rev=True, fast_mode=False,
                  masked=False):
    """Check the second derivatives of ``func`` against finite differences of its gradients.

    The gradients ``vᵀJ`` (computed with ``create_graph=True``) are checked with
    ``gradcheck`` as a function of both ``inputs`` and ``grad_outputs`` (random values in
    [-1, 1) when not given).

    Example:
        >>> x = minigrad.randn(3, dtype=minigrad.float64, requires_grad=True)
        >>> minigrad.autograd.gradgradcheck(lambda t: t.tanh() * t, (x,))
        True
    """
    from minigrad.autograd.api import grad
    from minigrad.factories import rand

    if not (check_fwd_over_rev or check_rev_over_rev):
        raise AssertionError("Expected at least one of check_fwd_over_rev or "
                             "check_rev_over_rev to be True")
    if check_undefined_grad and not check_rev_over_rev:
        raise AssertionError("Setting check_undefined_grad=True requires check_rev_over_rev "
                             "to be True")
    inputs = _as_tuple(inputs)
    if grad_outputs is None:
        outputs = _differentiable(func(*inputs))
        grad_outputs = tuple(rand(o.shape, dtype=o.dtype if o.is_floating_point() else None)
                             .mul(2).sub(1).requires_grad_() for o in outputs)
    grad_outputs = _as_tuple(grad_outputs)
    n_out = len(grad_outputs)
    diff_inputs = {i for i, x in enumerate(inputs) if _is_tensor(x) and x.requires_grad}
    diff_grad_outputs = {i for i, v in enumerate(grad_outputs) if v.requires_grad}

    def first_derivatives(*args):
        args_in = tuple(x.requires_grad_() if i in diff_inputs else x
                        for i, x in enumerate(args[:-n_out]))
        vs = tuple(v.requires_grad_() if i in diff_grad_outputs else v
                   for i, v in enumerate(args[-n_out:]))
        outputs = _differentiable(func(*args_in))
        grads = grad(outputs, [args_in[i] for i in sorted(diff_inputs)], vs,
                     create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(first_derivatives, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception, nondet_tol=nondet_tol,
                     check_undefined_grad=check_undefined_grad,
                     check_grad_dtypes=check_grad_dtypes, check_forward_ad=check_fwd_over_rev,
                     check_backward_ad=check_rev_over_rev)


# ------------------------------------------------------- PyTorch's old, deprecated helpers
def _warn_private(name):
    warnings.warn(
        f"`{name}` was part of PyTorch's private API and not meant to be exposed. We are "
        "deprecating it and it will be removed in a future version of PyTorch. If you have a "
        "specific use for this or feature request for this to be a stable API, please file us "
        "an issue at https://github.com/pytorch/pytorch/issues/new", FutureWarning,
        stacklevel=3)


def get_numerical_jacobian(fn, inputs, target=None, eps=1e-3, grad_out=1.0):
    """Deprecated: the finite-difference Jacobian of ``fn``'s first output (``fn`` takes the
    inputs as one tuple), one ``(input numel, output numel)`` tensor per tensor of ``target``
    (default: the inputs that require grad)."""
    from minigrad.factories import tensor
    _warn_private("get_numerical_jacobian")
    if grad_out != 1.0:
        raise ValueError("Expected grad_out to be 1.0. get_numerical_jacobian no longer "
                         "supports values of grad_out != 1.0.")
    inputs = _as_tuple(inputs)
    targets = _as_tuple(target) if target is not None else \
        [x for x in inputs if _is_tensor(x) and x.requires_grad]
    return tuple(tensor(_numerical_jacobian(lambda *a: fn(a), inputs, t, eps)[0],
                        dtype=t.dtype) for t in targets)


def get_analytical_jacobian(inputs, output, nondet_tol=0.0, grad_out=1.0):
    """Deprecated: the Jacobian of ``output`` by backward, one tensor per input that requires
    grad, and whether backward was reentrant (twice the same), of the right sizes and dtypes:
    ``(jacobians, reentrant, sizes_ok, types_ok)``."""
    from minigrad.factories import tensor
    _warn_private("get_analytical_jacobian")
    if grad_out != 1.0:
        raise ValueError("Expected grad_out to be 1.0. get_analytical_jacobian no longer "
                         "supports values of grad_out != 1.0.")
    diff_inputs = [x for x in _as_tuple(inputs) if _is_tensor(x) and x.requires_grad]
    first = _backward_columns(diff_inputs, output)
    second = _backward_columns(diff_inputs, output)
    reentrant = all(cols.size == 0 or np.max(np.abs(cols - again)) <= nondet_tol
                    for (cols, _, _), (again, _, _) in zip(first, second))
    jacobians = tuple(tensor(cols, dtype=x.dtype) for (cols, _, _), x in zip(first, diff_inputs))
    return (jacobians, reentrant, all(ok for _, _, ok in first),
            all(ok for _, ok, _ in first))


# ---------------------------------------------------------------------------- the checks
def _gradcheck(func, inputs, eps, atol, rtol, nondet_tol, check_grad_dtypes,
               check_forward_ad, check_backward_ad, check_undefined_grad):
    inputs = _as_tuple(inputs)
    _check_inputs(inputs)
    func_out = _as_tuple(func(*inputs))
    outputs = _differentiable(func_out)
    diff_inputs = [x for x in inputs if _is_tensor(x) and x.requires_grad]
    numerical = [_numerical_jacobian(func, inputs, x, eps) for x in diff_inputs]
    # numerical[j][k]: input j, output k; only outputs that require grad are compared
    if not outputs:
        if any(np.any(n != 0) for per_input in numerical for n in per_input):
            raise GradcheckError("Numerical gradient for function expected to be zero")
        return True
    keep = [k for k, o in enumerate(func_out) if _is_tensor(o) and o.requires_grad]
    numerical = [[per_input[k] for k in keep] for per_input in numerical]
    if check_backward_ad:
        for i, out in enumerate(outputs):
            analytical = _analytical_jacobian(diff_inputs, out, nondet_tol, check_grad_dtypes)
            for j, a in enumerate(analytical):
                _compare(a, numerical[j][i], i, j, rtol, atol, diff_inputs[j], out, "")
        _check_backward_scales_with_grad_output(outputs, diff_inputs)
    if check_forward_ad:
        forward = _forward_jacobian(func, inputs, keep)
        for i in range(len(outputs)):
            for j, a in enumerate(forward[i]):
                _compare(a, numerical[j][i], i, j, rtol, atol, diff_inputs[j], outputs[i],
                         "computed with forward mode ")
    if check_backward_ad and check_undefined_grad:
        _check_undefined_output_grads(func, inputs, diff_inputs)
    return True


def _check_inputs(inputs):
    from minigrad._dtype import float64
    found = False
    for index, x in enumerate(inputs):
        if not (_is_tensor(x) and x.requires_grad):
            continue
        if x.dtype != float64:
            warnings.warn(
                f"Input #{index} requires gradient and is not a double precision floating "
                "point or complex. This check will likely fail if all the inputs are not of "
                "double precision floating point or complex. ", UserWarning, stacklevel=4)
        # (an empty array has strides of 0 too, but no elements that could overlap)
        if x._data.size and any(st == 0 and n > 1
                                for st, n in zip(x._data.strides, x._data.shape)):
            raise RuntimeError(
                f"The {index}th input has a dimension with stride 0. gradcheck only supports "
                "inputs that are non-overlapping to be able to compute the numerical "
                "gradients correctly. You should call .contiguous on the input before passing "
                "it to gradcheck.")
        found = True
    if not found:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, "
                         "but none of them have requires_grad=True.")


def _numerical_jacobian(func, inputs, target, eps):
    """One (target.numel(), output.numel()) array per tensor output, by central differences."""
    data = target._data  # perturbed in place, one element at a time, then restored

    columns = []
    for index in np.ndindex(data.shape):
        original = data[index].copy()
        data[index] = original - eps
        below = _as_tuple(func(*inputs))
        below_values = _flat(below)  # copied now: an output may share memory with an input
        data[index] = original + eps
        above = _as_tuple(func(*inputs))
        above_values = _flat(above)
        data[index] = original
        _check_same_dtype_and_shape(below, above, index, eps)
        below, above = below_values, above_values
        columns.append([None if a is None else (a - b) / (2 * eps)
                        for a, b in zip(above, below)])
    outs = _flat(_as_tuple(func(*inputs)))
    return [np.stack([c[k] for c in columns]) if columns and o is not None
            else np.zeros((data.size, 0 if o is None else o.size))
            for k, o in enumerate(outs)]


def _flat(outs):
    return [np.array(o._data, dtype=np.float64).reshape(-1) if _is_tensor(o) else None
            for o in outs]


def _check_same_dtype_and_shape(below, above, index, eps):
    """``func`` must return outputs of one shape and dtype on both sides of a nudge."""
    for a, b in zip(below, above):
        if not (_is_tensor(a) and _is_tensor(b)):
            continue
        where = f"on index {tuple(int(i) for i in index)} by {eps}, but got:"
        if a.shape != b.shape:
            raise AssertionError("Expected `func` to return outputs with the same shape when "
                                 f"inputs are perturbed {where} shapes {a.shape} and {b.shape}.")
        if a.dtype != b.dtype:
            raise AssertionError("Expected `func` to return outputs with the same dtype when "
                                 f"inputs are perturbed {where} dtypes {a.dtype} and {b.dtype}.")


def _analytical_jacobian(diff_inputs, output, nondet_tol, check_grad_dtypes):
    """One (input.numel(), output.numel()) array per input, by one backward per column."""
    first = _backward_columns(diff_inputs, output)
    second = _backward_columns(diff_inputs, output)
    for (cols, types_ok, sizes_ok), (again, _, _) in zip(first, second):
        if not types_ok and check_grad_dtypes:
            raise GradcheckError("Gradient has dtype mismatch")
        if not sizes_ok:
            raise GradcheckError("Analytical gradient has incorrect size")
        if cols.size and np.max(np.abs(cols - again)) > nondet_tol:
            raise GradcheckError(
                "Backward is not reentrant, i.e., running backward with same input and "
                "grad_output multiple times gives different values, although analytical "
                "gradient matches numerical gradient."
                f"The tolerance for nondeterminism was {nondet_tol}." + FAILED_NONDET_MSG)
    return [cols for cols, _, _ in first]


def _backward_columns(diff_inputs, output):
    from minigrad.autograd.api import grad
    from minigrad.factories import zeros_like
    n_out = output.numel()
    jacobians = [np.zeros((x.numel(), n_out)) for x in diff_inputs]
    types_ok = sizes_ok = True
    for k in range(n_out):
        seed = zeros_like(output)
        seed._data.reshape(-1)[k] = 1
        grads = grad(output, diff_inputs, seed, retain_graph=True, allow_unused=True)
        for jac, x, g in zip(jacobians, diff_inputs, grads):
            if g is None:
                continue
            if g.dtype != x.dtype:
                types_ok = False
            if g.shape != x.shape:
                sizes_ok = False
                continue
            jac[:, k] = g._data.reshape(-1)
    return [(jac, types_ok, sizes_ok) for jac in jacobians]


def _forward_jacobian(func, inputs, keep):
    """forward[i][j]: (input j numel, output i numel), from one JVP per input element."""
    from minigrad.autograd import forward_ad
    from minigrad.factories import zeros_like
    diff_positions = [p for p, x in enumerate(inputs) if _is_tensor(x) and x.requires_grad]
    result = None
    for j, position in enumerate(diff_positions):
        x = inputs[position]
        rows = []
        for index in range(x.numel()):
            tangent = zeros_like(x.detach())
            tangent._data.reshape(-1)[index] = 1
            with forward_ad.dual_level():  # every differentiable input is a dual, as in
                args = list(inputs)           # PyTorch: the others with zero tangents
                for other in diff_positions:
                    primal = inputs[other].detach()
                    args[other] = forward_ad.make_dual(
                        primal, tangent if other == position else zeros_like(primal))
                outs = _as_tuple(func(*args))
                rows.append([_tangent_row(outs[k]) for k in keep])
        if result is None:
            result = [[None] * len(diff_positions) for _ in keep]
        for i in range(len(keep)):
            result[i][j] = np.stack([r[i] for r in rows])
    return result


def _tangent_row(out):
    from minigrad.autograd import forward_ad
    tangent = forward_ad.unpack_dual(out).tangent
    if tangent is None:
        return np.zeros(out.numel())
    return np.array(tangent._data, dtype=np.float64).reshape(-1)


def _check_backward_scales_with_grad_output(outputs, diff_inputs):
    """A zero ``grad_output`` must give zero gradients of the right dtype and size."""
    from minigrad.autograd.api import grad
    from minigrad.factories import zeros_like
    grads = grad(outputs, diff_inputs, [zeros_like(o) for o in outputs], allow_unused=True,
                 retain_graph=True)
    for g, x in zip(grads, diff_inputs):
        if g is None:
            continue
        if np.any(g._data != 0):
            raise GradcheckError("backward not multiplied by grad_output")
        if g.dtype != x.dtype:
            raise GradcheckError("grad is incorrect type")
        if g.shape != x.shape:
            raise GradcheckError("grad is incorrect size")


def _check_undefined_output_grads(func, inputs, diff_inputs):
    """Backward must cope with undefined (None) output gradients, and give None or zeros: all
    outputs undefined at once, then (with several outputs) one at a time, as PyTorch checks."""
    from minigrad.autograd.api import grad
    from minigrad.factories import zeros_like
    n_outputs = len(_differentiable(func(*inputs)))
    choices = [None] + (list(range(n_outputs)) if n_outputs > 1 else [])
    for undefined in choices:
        outputs = _differentiable(func(*inputs))
        outputs = [_UndefinedGrad.apply(o) if undefined in (None, k) else o
                   for k, o in enumerate(outputs)]
        try:
            grads = grad(outputs, diff_inputs, [zeros_like(o) for o in outputs],
                         allow_unused=True)
        except RuntimeError as error:
            _warn_undefined_check()
            raise GradcheckError(
                "Expected backward function to handle undefined output grads. Please look at "
                '"Notes about undefined output gradients" in "tools/autograd/derivatives.yaml"'
            ) from error
        if any(g is not None and np.any(g._data != 0) for g in grads):
            _warn_undefined_check()
            raise GradcheckError(
                "Expected all input grads to be undefined or zero when all output grads are "
                'undefined or zero. Please look at "Notes about undefined output gradients" in '
                '"tools/autograd/derivatives.yaml"')


def _warn_undefined_check():
    warnings.warn("Backwards compatibility: New undefined gradient support checking feature is "
                  "enabled by default, but it may break existing callers of this function. If "
                  'this is true for you, you can call this function with "check_undefined_grad='
                  'False" to disable the feature', stacklevel=4)


class _UndefinedGrad(Function):
    """Identity forward whose backward sends an undefined (None) gradient on."""

    @staticmethod
    def forward(ctx, x):
        return x.clone()

    @staticmethod
    def backward(ctx, grad_output):
        return None


def _compare(analytical, numerical, out_index, in_index, rtol, atol, x, out, mode):
    if np.allclose(analytical, numerical, rtol=rtol, atol=atol):
        return
    from minigrad.factories import tensor
    raise GradcheckError(
        f"Jacobian {mode}mismatch for output {out_index:d} with respect to input "
        f"{in_index:d},\nnumerical:{tensor(numerical, dtype=out.dtype)}\n"
        f"analytical:{tensor(analytical, dtype=x.dtype)}\n")


# ---------------------------------------------------------------------------- helpers
def _is_tensor(x):
    from minigrad.tensor import Tensor
    return isinstance(x, Tensor)


def _as_tuple(x):
    if isinstance(x, tuple):
        return x
    if isinstance(x, list):
        return tuple(x)
    return (x,)


def _differentiable(outputs):
    return tuple(o for o in _as_tuple(outputs) if _is_tensor(o) and o.requires_grad)
