"""The functional API: derivatives of a whole Python function, as ``torch.autograd.functional``.

Each function takes ``func`` and the point ``inputs`` (a tensor or a tuple of tensors) and
calls ``func`` on fresh copies of them, so nothing the caller holds is touched:

===========  ==================================================================
``vjp``      ``vᵀ J``: one backward pass
``jvp``      ``J v``: the double backward trick (differentiate ``vᵀJ`` in ``v``)
``jacobian`` ``J``: one backward pass per output element
``hessian``  ``H``: the Jacobian of the gradient
``vhp``      ``vᵀ H``: backward of the gradient
``hvp``      ``H v``: the double backward trick on the gradient
===========  ==================================================================

Results mirror the structure of the arguments exactly as in PyTorch: a single tensor where
``inputs`` (or the output of ``func``) is a single tensor, a tuple where it is a tuple.
``create_graph=True`` makes the results differentiable; ``strict=True`` raises when an output
does not depend on an input, instead of returning zeros.
"""

import numpy as np

from minigrad.grad_mode import enable_grad, set_grad_enabled, state

__all__ = ["vjp", "jvp", "jacobian", "hessian", "vhp", "hvp"]


# ---------------------------------------------------------------------------- helpers
def _as_tuple(value, arg_name, fn_name):
    """``(was_a_tuple, tuple_of_tensors)``, with PyTorch's TypeError for anything else."""
    from minigrad.tensor import Tensor
    is_tuple = isinstance(value, tuple)
    items = value if is_tuple else (value,)
    for i, item in enumerate(items):
        if not isinstance(item, Tensor):
            where = f"value at index {i}" if is_tuple else f"given {arg_name}"
            raise TypeError(f"The {arg_name} given to {fn_name} must be either a Tensor or a "
                            f"tuple of Tensors but the {where} has type {type(item)}.")
    return is_tuple, items


def _unpack(result, was_tuple):
    """Undo ``_as_tuple``: ``was_tuple`` is a flag, or a pair (outer, inner) for nested tuples."""
    if isinstance(was_tuple, tuple):
        outer, inner = was_tuple
        if not inner:
            result = tuple(row[0] for row in result)
        return result if outer else result[0]
    return result if was_tuple else result[0]


def _fresh(tensors, create_graph, need_graph):
    """New tensor objects for ``func`` to work on: views that keep history when the caller
    wants a differentiable result, detached copies otherwise."""
    return tuple(t.view_as(t) if create_graph and t.requires_grad
                 else t.detach().requires_grad_(need_graph) for t in tensors)


def _finish(tensors, create_graph):
    """Detach results unless ``create_graph`` (recursing into tuples of tuples)."""
    if create_graph:
        return tensors
    return tuple(t.detach() if not isinstance(t, tuple) else _finish(t, False)
                 for t in tensors)


def _check_v(v, like, like_is_tuple):
    if len(v) != len(like):
        if like_is_tuple:
            raise RuntimeError(f"v is a tuple of invalid length: should be {len(like)} but got "
                               f"{len(v)}.")
        raise RuntimeError("The given v should contain a single Tensor.")
    for i, (vi, li) in enumerate(zip(v, like)):
        if vi.shape != li.shape:
            where = f"Entry {i} in " if like_is_tuple else ""
            raise RuntimeError(f"{where}v has invalid size: should be {li.shape} but got "
                               f"{vi.shape}.")


_STRICT_MESSAGES = {
    "outputs": ("Output {i} of the user-provided function does not require gradients. The "
                "outputs must be computed in a differentiable manner from the input when "
                "running in strict mode."),
    "grad_inputs": ("The gradient with respect to input {i} is independent of the inputs of "
                    "the user-provided function. This is not allowed in strict mode."),
    "jacobian": ("While computing the hessian, found that the jacobian of the user-provided "
                 "function with respect to input {i} is independent of the input. This is not "
                 "allowed in strict mode. You should ensure that your function is twice "
                 "differentiable and that the jacobian depends on the inputs (this would be "
                 "violated by a linear function for example)."),
    "hessian": ("The hessian of the user-provided function with respect to input {i} is "
                "independent of the input. This is not allowed in strict mode. You should "
                "ensure that your function is thrice differentiable and that the hessian "
                "depends on the inputs."),
}


def _check_requires_grad(tensors, kind, strict):
    """In strict mode, every tensor must depend on the inputs (require grad)."""
    if not strict:
        return
    for i, t in enumerate(tensors):
        if t is None:
            raise RuntimeError(f"The output of the user-provided function is independent of "
                               f"input {i}. This is not allowed in strict mode.")
        if not t.requires_grad:
            raise RuntimeError(_STRICT_MESSAGES[kind].format(i=i))


def _grad(outputs, inputs, grad_outputs=None, create_graph=False, retain_graph=None):
    """``autograd.grad`` that skips outputs without history and returns None for unused
    inputs."""
    from minigrad.autograd.api import grad
    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    pairs = [(o, g) for o, g in zip(outputs, grad_outputs) if o is not None and o.requires_grad]
    if not pairs:
        return (None,) * len(inputs)
    return grad([o for o, _ in pairs], inputs, [g for _, g in pairs], allow_unused=True,
                create_graph=create_graph, retain_graph=retain_graph)


_ZERO_MESSAGES = {
    "back": ("The output of the user-provided function is independent of input {i}. This is "
             "not allowed in strict mode."),
    "back_trick": ("The gradient with respect to the input is independent of entry {i} in the "
                   "grad_outputs when using the double backward trick to compute forward mode "
                   "gradients. This is not allowed in strict mode."),
    "double_back": ("The jacobian of the user-provided function is independent of input {i}. "
                    "This is not allowed in strict mode."),
    "double_back_trick": ("The hessian of the user-provided function is independent of entry "
                          "{i} in the grad_jacobian. This is not allowed in strict mode as it "
                          "prevents from using the double backward trick to replace forward "
                          "mode AD."),
}


def _zeros_for_none(grads, like, strict, create_graph, stage):
    """Replace None (no dependence) by zeros, or raise in strict mode."""
    from minigrad.factories import zeros_like
    result = []
    for i, g in enumerate(grads):
        if g is None:
            if strict:
                raise RuntimeError(_ZERO_MESSAGES[stage].format(i=i))
            g = zeros_like(like[i])
        elif strict and create_graph and not g.requires_grad:
            which = "hessian" if "double" in stage else "jacobian"
            raise RuntimeError(f"The {which} of the user-provided function is independent of "
                               f"input {i}. This is not allowed in strict mode when "
                               "create_graph=True.")
        result.append(g)
    return tuple(result)


def _prepare_v(v, like, like_is_tuple, create_graph, fn_name, none_message):
    if v is None:
        if len(like) != 1 or like[0].numel() != 1:
            raise RuntimeError(none_message)
        return None
    _, v = _as_tuple(v, "v", fn_name)
    v = _fresh(v, create_graph, need_graph=False)
    _check_v(v, like, like_is_tuple)
    return v


_V_NONE_INPUT = ("The vector v can only be None if the input to the user-provided function is "
                 "a single Tensor with a single element.")
_V_NONE_OUTPUT = ("The vector v can only be None if the user-provided function returns a "
                  "single Tensor with a single element.")


def _call(func, inputs, fn_name, strict):
    is_tuple, outputs = _as_tuple(func(*inputs), "outputs of the user-provided function",
                                  fn_name)
    _check_requires_grad(outputs, "outputs", strict)
    return is_tuple, outputs


def _scalar_output(outputs, is_tuple, fn_name):
    if is_tuple:
        raise RuntimeError(f"The function given to {fn_name} should return a single Tensor")
    if outputs[0].numel() != 1:
        raise RuntimeError(f"The Tensor returned by the function given to {fn_name} should "
                           "contain a single element")


# ---------------------------------------------------------------------------- public API
def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """The vector-Jacobian product ``vᵀ J`` of ``func`` at ``inputs``.

    Args:
        func: takes tensors, returns a tensor or a tuple of tensors.
        inputs: a tensor or a tuple of tensors.
        v: shaped like the output of ``func``; optional when it has a single element.
        create_graph: make the results differentiable.
        strict: raise when an input does not influence the outputs.

    Returns:
        ``(func_output, vjp)``, ``vjp`` shaped like ``inputs``.

    Example:
        >>> x = minigrad.tensor([1.0, 2.0])
        >>> minigrad.autograd.functional.vjp(lambda t: t ** 2, x, minigrad.ones(2))
        (tensor([1., 4.]), tensor([2., 4.]))
    """
    with enable_grad():
        inputs_tuple, inputs = _as_tuple(inputs, "inputs", "vjp")
        inputs = _fresh(inputs, create_graph, need_graph=True)
        outputs_tuple, outputs = _call(func, inputs, "vjp", strict)
        v = _prepare_v(v, outputs, outputs_tuple, create_graph, "vjp", _V_NONE_OUTPUT)
    with set_grad_enabled(create_graph or state.grad_enabled):
        grads = _grad(outputs, inputs, v, create_graph=create_graph)
        result = _zeros_for_none(grads, inputs, strict, create_graph, "back")
    return (_unpack(_finish(outputs, create_graph), outputs_tuple),
            _unpack(_finish(result, create_graph), inputs_tuple))


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """The Jacobian-vector product ``J v`` of ``func`` at ``inputs``.

    Computed with the double backward trick: ``u ↦ uᵀJ`` is linear in ``u``, so its gradient
    with respect to ``u``, weighted by ``v``, is ``J v``.

    Returns:
        ``(func_output, jvp)``, ``jvp`` shaped like the output of ``func``.

    Example:
        >>> x = minigrad.tensor([1.0, 2.0])
        >>> minigrad.autograd.functional.jvp(lambda t: t ** 2, x, minigrad.ones(2))
        (tensor([1., 4.]), tensor([2., 4.]))
    """
    from minigrad.factories import zeros_like
    with enable_grad():
        inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jvp")
        inputs = _fresh(inputs, create_graph, need_graph=True)
        v = _prepare_v(v, inputs, inputs_tuple, create_graph, "jvp", _V_NONE_INPUT)
        outputs_tuple, outputs = _call(func, inputs, "jvp", strict)
        # The backward is linear in u, so u's value does not matter: zeros are safe.
        u = tuple(zeros_like(o, requires_grad=True) for o in outputs)
        grad_inputs = _grad(outputs, inputs, u, create_graph=True)
        _check_requires_grad(grad_inputs, "grad_inputs", strict)
    with set_grad_enabled(create_graph or state.grad_enabled):
        grads = _grad(grad_inputs, u, v, create_graph=create_graph)
        result = _zeros_for_none(grads, outputs, strict, create_graph, "back_trick")
    return (_unpack(_finish(outputs, create_graph), outputs_tuple),
            _unpack(_finish(result, create_graph), outputs_tuple))


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False,
             strategy="reverse-mode"):
    """The Jacobian of ``func`` at ``inputs``: output shape followed by input shape.

    With one input and one output, a tensor; with a tuple of inputs (or outputs), a tuple;
    with both, ``jac[i][j]`` is the Jacobian of output ``i`` with respect to input ``j``.

    Args:
        vectorize: accepted for compatibility (minigrad has no vmap: one pass per row).
        strategy: ``"reverse-mode"`` (one backward per output element) or ``"forward-mode"``
            (one ``forward_ad`` pass per input element; PyTorch requires ``vectorize=True``).

    Example:
        >>> x = minigrad.tensor([1.0, 2.0])
        >>> minigrad.autograd.functional.jacobian(lambda t: t ** 2, x)
        tensor([[2., 0.],
                [0., 4.]])
    """
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError(
            'Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your '
            'function has more outputs than inputs, "forward-mode" tends to be more performant. '
            'Otherwise, prefer to use "reverse-mode".')
    if strategy == "forward-mode":
        if create_graph:
            raise NotImplementedError(
                "torch.autograd.functional.jacobian: `create_graph=True` and "
                '`strategy="forward-mode"` are not supported together (yet). Please either set '
                '`create_graph=False` or `strategy="reverse-mode"`.')
        return _jacobian_forward(func, inputs, strict, vectorize)
    with enable_grad():
        inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
        inputs = _fresh(inputs, create_graph, need_graph=True)
        outputs_tuple, outputs = _call(func, inputs, "jacobian", strict)
        if vectorize and strict:
            raise RuntimeError("torch.autograd.functional.jacobian: `strict=True` and "
                               "`vectorized=True` are not supported together. Please either "
                               "set `strict=False` or `vectorize=False`.")
        jac = tuple(_jacobian_rows(i, out, inputs, create_graph, strict)
                    for i, out in enumerate(outputs))
        return _unpack(_finish(jac, create_graph), (outputs_tuple, inputs_tuple))


def _jacobian_rows(i, out, inputs, create_graph, strict):
    """Jacobians of output ``i`` with respect to every input: one backward per element."""
    from minigrad.factories import zeros, zeros_like
    rows = [[] for _ in inputs]
    for k in range(out.numel()):
        seed = zeros(out.numel(), dtype=out.dtype)
        seed._data[k] = 1
        grads = _grad((out,), inputs, (seed.view(out.shape),), create_graph=create_graph,
                      retain_graph=True)
        for j, (g, x) in enumerate(zip(grads, inputs)):
            if g is None:
                if strict:
                    raise RuntimeError(f"Output {i} of the user-provided function is "
                                       f"independent of input {j}. This is not allowed in "
                                       "strict mode.")
                g = zeros_like(x)
            elif strict and create_graph and not g.requires_grad:
                raise RuntimeError(f"The jacobian of the user-provided function is "
                                   f"independent of input {i}. This is not allowed in strict "
                                   "mode when create_graph=True.")
            rows[j].append(g)
    return tuple(_assemble(r, out.shape + x.shape, x) for r, x in zip(rows, inputs))


def _construct_standard_basis_for(tensors, tensor_numels):
    """The standard basis of the space of all ``tensors`` together, cut per tensor: block ``i``
    is a ``(sum(numels), numels[i])`` tensor of ``tensors[i]``'s dtype, holding the identity in
    the rows of that tensor's elements (the tangents a vectorized Jacobian pushes through)."""
    from minigrad.factories import zeros
    total = sum(tensor_numels)
    blocks, start = [], 0
    for tensor, numel in zip(tensors, tensor_numels):
        block = zeros(total, numel, dtype=tensor.dtype)
        block._data[start:start + numel] = np.eye(numel, dtype=block._data.dtype)
        blocks.append(block)
        start += numel
    return tuple(blocks)


def _assemble(rows, shape, like):
    from minigrad.factories import zeros
    from minigrad.ops import stack
    if not rows:
        return zeros(shape, dtype=like.dtype)
    return stack(rows, dim=0).view(shape)


def _jacobian_forward(func, inputs, strict, vectorize):
    """Forward-mode Jacobian: one JVP (a dual pass) per input element."""
    from minigrad.autograd import forward_ad
    from minigrad.factories import zeros, zeros_like
    from minigrad.ops import stack
    if strict:
        raise RuntimeError("torch.autograd.functional.jacobian: `strict=True` and "
                           '`strategy="forward-mode"` are not supported together (yet). Please '
                           'either set `strict=False` or `strategy="reverse-mode"`.')
    if not vectorize:
        raise NotImplementedError("Computing Jacobian using forward-AD or forward-over-reverse "
                                  "Hessian isonly implemented for `vectorize=True`.")
    inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
    columns = [[] for _ in inputs]   # columns[j][k]: output tangents for element k of input j
    outputs, outputs_tuple = None, False
    for j, x in enumerate(inputs):
        for k in range(x.numel()):
            tangent = zeros(x.numel(), dtype=x.dtype)
            tangent._data[k] = 1
            with forward_ad.dual_level():
                duals = [forward_ad.make_dual(t, tangent.view(t.shape) if i == j
                                              else zeros_like(t))
                         for i, t in enumerate(inputs)]
                outputs_tuple, outs = _as_tuple(func(*duals), "outputs", "jacobian")
                unpacked = [forward_ad.unpack_dual(o) for o in outs]
            outputs = [p for p, _ in unpacked]
            columns[j].append([zeros_like(p) if t is None else t for p, t in unpacked])
    jac = []
    for i, out in enumerate(outputs):
        per_input = []
        for j, x in enumerate(inputs):
            cols = [c[i] for c in columns[j]]
            if not cols:
                per_input.append(zeros(out.shape + x.shape, dtype=out.dtype))
                continue
            stacked = stack(cols, dim=-1)  # output shape + (input numel,)
            per_input.append(stacked.reshape(out.shape + x.shape))
        jac.append(per_input)
    # NB: lists, not tuples, exactly as PyTorch returns them for this strategy.
    return _unpack(jac, (outputs_tuple, inputs_tuple))


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False,
            outer_jacobian_strategy="reverse-mode"):
    """The Hessian of a scalar function: the Jacobian of its gradient.

    With a tuple of inputs, ``hess[i][j]`` is the block for inputs ``i`` and ``j``.

    Example:
        >>> x = minigrad.tensor([1.0, 2.0])
        >>> minigrad.autograd.functional.hessian(lambda t: (t ** 3).sum(), x)
        tensor([[ 6.,  0.],
                [ 0., 12.]])
    """
    inputs_tuple, inputs = _as_tuple(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode".')

    def scalar_func(*args):
        out = func(*args)
        is_tuple, outs = _as_tuple(out, "outputs of the user-provided function", "hessian")
        _check_requires_grad(outs, "outputs", strict)
        _scalar_output(outs, is_tuple, "hessian")
        return out.squeeze()

    def gradient(*args):
        if outer_jacobian_strategy == "forward-mode":  # forward over reverse: the duals must
            args = tuple(t.requires_grad_(True) for t in args)  # keep their tangents inside
        jac = jacobian(scalar_func, args, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict)
        return jac

    result = jacobian(gradient, inputs, create_graph=create_graph, strict=strict,
                      vectorize=vectorize, strategy=outer_jacobian_strategy)
    return _unpack(result, (inputs_tuple, inputs_tuple))


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """The vector-Hessian product ``vᵀ H`` of a scalar function at ``inputs``.

    Returns:
        ``(func_output, vhp)``, ``vhp`` shaped like ``inputs``.

    Example:
        >>> x = minigrad.tensor([1.0, 2.0])
        >>> minigrad.autograd.functional.vhp(lambda t: (t ** 3).sum(), x, minigrad.ones(2))
        (tensor(9.), tensor([ 6., 12.]))
    """
    with enable_grad():
        inputs_tuple, inputs = _as_tuple(inputs, "inputs", "vhp")
        inputs = _fresh(inputs, create_graph, need_graph=True)
        v = _prepare_v(v, inputs, inputs_tuple, create_graph, "vhp", _V_NONE_INPUT)
        outputs_tuple, outputs = _call(func, inputs, "vhp", strict)
        _scalar_output(outputs, outputs_tuple, "vhp")
        jac = _grad(outputs, inputs, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict)
    with set_grad_enabled(create_graph or state.grad_enabled):
        grads = _grad(jac, inputs, v, create_graph=create_graph)
        result = _zeros_for_none(grads, inputs, strict, create_graph, "double_back")
    return (_unpack(_finish(outputs, create_graph), outputs_tuple),
            _unpack(_finish(result, create_graph), inputs_tuple))


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """The Hessian-vector product ``H v`` of a scalar function at ``inputs``.

    Uses the double backward trick on the gradient; for a twice continuously differentiable
    function ``hvp`` equals ``vhp`` (the Hessian is symmetric), which is cheaper.

    Example:
        >>> x = minigrad.tensor([1.0, 2.0])
        >>> minigrad.autograd.functional.hvp(lambda t: (t ** 3).sum(), x, minigrad.ones(2))
        (tensor(9.), tensor([ 6., 12.]))
    """
    from minigrad.factories import zeros_like
    with enable_grad():
        inputs_tuple, inputs = _as_tuple(inputs, "inputs", "hvp")
        inputs = _fresh(inputs, create_graph, need_graph=True)
        v = _prepare_v(v, inputs, inputs_tuple, create_graph, "hvp", _V_NONE_INPUT)
        outputs_tuple, outputs = _call(func, inputs, "hvp", strict)
        _scalar_output(outputs, outputs_tuple, "hvp")
        jac = _grad(outputs, inputs, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict)
        u = tuple(zeros_like(x, requires_grad=True) for x in inputs)
        double_back = _grad(jac, inputs, u, create_graph=True)
        _check_requires_grad(jac, "hessian", strict)
    with set_grad_enabled(create_graph or state.grad_enabled):
        grads = _grad(double_back, u, v, create_graph=create_graph)
        result = _zeros_for_none(grads, inputs, strict, create_graph, "double_back_trick")
    return (_unpack(_finish(outputs, create_graph), outputs_tuple),
            _unpack(_finish(result, create_graph), inputs_tuple))
