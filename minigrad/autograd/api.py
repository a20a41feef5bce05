"""``backward`` and ``grad``: the two ways to start the engine, with PyTorch's checks."""

import warnings

import numpy as np

from minigrad.autograd import engine, warn_always
from minigrad.autograd.gradient_edge import GradientEdge
from minigrad.autograd.node import _tensor_class

__all__ = ["backward", "grad"]

CREATE_GRAPH_WARNING = (
    "Using backward() with create_graph=True will create a reference cycle between the parameter "
    "and its gradient which can cause a memory leak. We recommend using autograd.grad when "
    "creating the graph to avoid this. If you have to use this function, make sure to reset the "
    ".grad fields of your parameters to None after use to break the cycle and avoid the leak.")
_warned_create_graph = False


def _as_tuple(value):
    Tensor = _tensor_class()
    if value is None:
        return None
    if isinstance(value, (Tensor, GradientEdge)):
        return (value,)
    return tuple(value)


class _EdgeRoot:
    """What the checks below read of an output given as a ``GradientEdge``: the shape and
    dtype of the gradient that flows into that edge."""

    requires_grad = True

    def __init__(self, edge):
        from minigrad import _dtype
        from minigrad.tensor import Size
        shape, self.np_dtype = edge.node._output_meta[edge.output_nr]
        self.shape, self.dtype = Size(shape), _dtype.from_numpy_dtype(self.np_dtype)

    def numel(self):
        return int(np.prod(self.shape))

    def is_floating_point(self):
        return self.np_dtype.kind == "f"


def _make_grads(outputs, grads):
    """The initial gradient of each output: given, or 1 for a scalar (PyTorch's checks)."""
    Tensor = _tensor_class()
    result = []
    for i, (out, grad) in enumerate(zip(outputs, grads)):
        if isinstance(out, GradientEdge):
            out = _EdgeRoot(out)
        if isinstance(grad, Tensor):
            if grad.shape != out.shape:
                raise RuntimeError(
                    f"Mismatch in shape: grad_output[{i}] has a shape of {grad.shape} and "
                    f"output[{i}] has a shape of {out.shape}.")
            if grad.dtype != out.dtype and grad.is_floating_point() and out.is_floating_point():
                grad = grad.to(out.dtype)  # as PyTorch's engine casts it for the root's node
            result.append(grad)
        elif grad is None:
            if out.requires_grad:
                if out.numel() != 1:
                    raise RuntimeError("grad can be implicitly created only for scalar outputs")
                if not out.is_floating_point():
                    raise RuntimeError("grad can be implicitly created only for real scalar "
                                       f"outputs but got {out.dtype}")
                result.append(Tensor._make(np.ones(tuple(out.shape), out.dtype.numpy)))
            else:
                result.append(None)
        else:
            raise TypeError(f"gradients can be either Tensors or None, but got "
                            f"{type(grad).__name__}")
    return result


def _check_roots(outputs, grads):
    if len(outputs) != len(grads):
        raise RuntimeError(f"got {len(outputs)} tensors and {len(grads)} gradients")
    for i, out in enumerate(outputs):
        if not isinstance(out, GradientEdge) and not out.requires_grad:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not "
                               "have a grad_fn")


def _check_inputs(inputs, accumulate_grad):
    for t in inputs:
        if isinstance(t, GradientEdge):
            continue
        if accumulate_grad:
            t.retain_grad()
        if not t.requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None):
    """Accumulate into ``.grad`` of the leaves the gradient of ``tensors``.

    Example:
        >>> x = minigrad.tensor(2.0, requires_grad=True)
        >>> minigrad.autograd.backward(x ** 2)
        >>> x.grad
        tensor(4.)
    """
    global _warned_create_graph
    tensors = _as_tuple(tensors)
    grads = _as_tuple(grad_tensors) or (None,) * len(tensors)
    inputs = _as_tuple(inputs)
    if inputs is not None and len(inputs) == 0:
        raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    grads = _make_grads(tensors, grads)
    if retain_graph is None:
        retain_graph = create_graph
    _check_roots(tensors, grads)
    if inputs is not None:
        _check_inputs(inputs, accumulate_grad=True)
    if create_graph and (not _warned_create_graph or warn_always.enabled):
        # NB: PyTorch warns from C++ once per process (unless warn_always); so does minigrad.
        _warned_create_graph = True
        warnings.warn(CREATE_GRAPH_WARNING, UserWarning, stacklevel=3)
    engine.execute(tensors, grads, retain_graph, create_graph, inputs=inputs,
                   accumulate_grad=True, api="backward")


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
         only_inputs=True, allow_unused=None, is_grads_batched=False, materialize_grads=False):
    """Return the gradients of ``outputs`` with respect to ``inputs`` (``.grad`` untouched).

    Example:
        >>> x = minigrad.tensor(3.0, requires_grad=True)
        >>> minigrad.autograd.grad(x ** 3, x)
        (tensor(27.),)
    """
    from minigrad.factories import zeros_like
    if materialize_grads and allow_unused is False:
        raise ValueError("Expected allow_unused to be True or not passed when "
                         "materialize_grads=True, but got: allow_unused=False.")
    if allow_unused is None:
        allow_unused = materialize_grads
    outputs = _as_tuple(outputs)
    inputs = _as_tuple(inputs)
    if len(inputs) == 0:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    if not only_inputs:
        warnings.warn("only_inputs argument is deprecated and is ignored now (defaults to True). "
                      "To accumulate gradient for other parts of the graph, please use "
                      "minigrad.autograd.backward.", FutureWarning, stacklevel=2)
    grads = _as_tuple(grad_outputs) or (None,) * len(outputs)
    if retain_graph is None:
        retain_graph = create_graph
    if is_grads_batched:
        return _batched_grad(outputs, inputs, grads, retain_graph, create_graph, allow_unused,
                             materialize_grads)
    grads = _make_grads(outputs, grads)
    _check_roots(outputs, grads)
    _check_inputs(inputs, accumulate_grad=False)
    result = engine.execute(outputs, grads, retain_graph, create_graph, inputs=inputs,
                            accumulate_grad=False, api="grad")
    for i, g in enumerate(result):
        if g is None and not allow_unused:
            raise RuntimeError(f"The differentiated Tensor at index {i} appears to not have been "
                               "used in the graph. Set allow_unused=True if this is the desired "
                               "behavior.")
    if materialize_grads:
        if any(g is None and isinstance(t, GradientEdge) for t, g in zip(inputs, result)):
            raise RuntimeError("materialize_grads cannot be used when the given input is a "
                               "GradientEdge")
        result = [zeros_like(t, requires_grad=create_graph) if g is None else g
                  for t, g in zip(inputs, result)]
    return tuple(result)


BATCHED_MISMATCH = (
    "If `is_grads_batched=True`, we interpret the first dimension of each grad_output as the "
    "batch dimension. The sizes of the remaining dimensions are expected to match the shape of "
    "corresponding output, but a mismatch was detected: grad_output[{i}] has a shape of "
    "{grad} and output[{i}] has a shape of {out}. If you only want some tensors in "
    "`grad_output` to be considered batched, consider using vmap.")


def _batched_grad(outputs, inputs, grads, retain_graph, create_graph, allow_unused,
                  materialize_grads):
    """``grad(..., is_grads_batched=True)``: one backward pass per row of the grad_outputs,
    the results stacked. NB: PyTorch vectorises this with vmap; minigrad loops."""
    from minigrad.factories import zeros_like
    from minigrad.ops import stack
    from minigrad.tensor import Size
    for i, (out, g) in enumerate(zip(outputs, grads)):
        if g is not None and (g.ndim == 0 or tuple(g.shape[1:]) != tuple(out.shape)):
            # NB: PyTorch's text drops the first two sizes of grad_output, not one: as there.
            raise RuntimeError(BATCHED_MISMATCH.format(i=i, grad=Size(g.shape[2:]),
                                                        out=Size(out.shape)))
    batch = next(g.shape[0] for g in grads if g is not None)
    rows = [grad(outputs, inputs, [None if g is None else g[b] for g in grads],
                 retain_graph=retain_graph or b < batch - 1, create_graph=create_graph,
                 allow_unused=True) for b in range(batch)]
    result = []
    for i, t in enumerate(inputs):
        column = [row[i] for row in rows]
        if all(g is None for g in column):
            if not allow_unused:
                raise RuntimeError(f"The differentiated Tensor at index {i} appears to not have "
                                   "been used in the graph. Set allow_unused=True if this is "
                                   "the desired behavior.")
            result.append(zeros_like(t) if materialize_grads else None)
        else:
            result.append(stack([zeros_like(t) if g is None else g for g in column]))
    return tuple(result)
