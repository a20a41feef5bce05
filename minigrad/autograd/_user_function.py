"""``apply`` of a user's ``Function``: PyTorch's rules for what ``forward`` may return.

Built-in ops take the fast path of ``Function.apply``; a user's Function comes here, where
PyTorch's custom-Function contract is kept in full:

- ``forward(ctx, *args, **kwargs)``, or ``forward(*args)`` plus ``setup_context(ctx, inputs,
  output)``; both run in no-grad mode, on the inputs as they were passed;
- an output that is an input is returned as a new view of it; the same tensor returned twice is
  one object (its output number is the last position); integer and bool outputs, and those
  given to ``mark_non_differentiable``, get no history;
- ``mark_dirty``: the input modified in place takes the node as its history (a view's base gets
  a ``CopySlices``, as for any in-place change of a view);
- outputs that are views remember how they were made, so that changing one in place raises
  PyTorch's error (``views.check_inplace``);
- backward runs ``vjp`` or ``backward`` (PyTorch refuses a Function that defines both).
"""

import inspect
import warnings
import weakref

import numpy as np

from minigrad.autograd import forward_ad, inference, observe
from minigrad.autograd.node import (
    ERR_BACKWARD_TWICE,
    _contains,
    _tensor_class,
    _trimmed_grads,
    _zeros_for_unused,
)
from minigrad.grad_mode import inference_tensors_made, state

__all__ = ["apply", "node_apply", "uses_setup_context", "CUSTOM", "MULTI", "NO_GRAD_CUSTOM"]

# How a view was made, when changing it in place is an error (PyTorch's CreationMeta).
CUSTOM, MULTI, NO_GRAD_CUSTOM, INFERENCE = "custom", "multi", "no_grad_custom", "inference"

DIRTY_VIEW_MULTI = (
    "If your Function modifies inplace an input that is a view of another Tensor, your Function "
    "cannot return more than one Tensor. This is not supported by the current autograd engine. "
    "You should either make sure the input is not a view (using .clone() for example) or make "
    "your Function only return one Tensor (potentially splitting it into two Functions: one doing "
    "the inplace that returns a single Tensor and a second one that does the other operations). "
    "You can ask on the forum https://discuss.pytorch.org/ if you need help to do this change.")
BOTH_BACKWARD_AND_VJP = ("Implementing both 'backward' and 'vjp' for a custom Function is not "
                         "allowed. You should only implement one of them.")


def uses_setup_context(cls):
    """Whether ``cls`` overrides ``setup_context`` (then ``forward`` takes no ctx)."""
    from minigrad.autograd.function import Function
    return getattr(cls.setup_context, "__func__", cls.setup_context) is not \
        Function.__dict__["setup_context"].__func__


def _bind(forward, args, kwargs):
    """The arguments of ``forward`` as one positional tuple, defaults filled in."""
    bound = inspect.signature(forward).bind(*args, **kwargs)
    bound.apply_defaults()
    return bound.args


def apply(cls, *args, **kwargs):
    """Run ``cls.forward`` and link its node into the graph (see the module docstring)."""
    Tensor = _tensor_class()
    setup = uses_setup_context(cls)
    if setup:
        args, kwargs = _bind(cls.forward, args, kwargs), {}
    ctx = cls._backward_cls()
    needs = tuple([isinstance(a, Tensor) and a._requires_grad for a in args])
    record = state.grad_enabled and True in needs
    if record and inference_tensors_made[0]:
        record = inference.records(args, Tensor)
    ctx.needs_input_grad = needs if record else (False,) * len(args)
    previous, state.grad_enabled = state.grad_enabled, False
    try:
        with forward_ad.paused():
            if setup:
                outputs = cls.forward(*args, **kwargs)
                cls.setup_context(ctx, args, outputs)
            else:
                outputs = cls.forward(ctx, *args, **kwargs)
    finally:
        state.grad_enabled = previous
    single = not isinstance(outputs, tuple)
    outputs = (outputs,) if single else outputs
    if ctx._dirty:
        from minigrad.autograd.function import _check_dirty
        _check_dirty(ctx, args, outputs, record)
    if record:
        from minigrad.autograd.function import link_inputs
        link_inputs(ctx, args, Tensor)
    # (read before the outputs are wrapped: a dirty view's history rewrite drops its tangent)
    tangents = forward_ad.tangents_of(args) if forward_ad._active else None
    result = _wrap_outputs(ctx, args, outputs, record, Tensor)
    if record:
        _save_tensors(ctx, outputs, result, Tensor)
        if state.observers:
            observe.node_created(ctx, result)
    if forward_ad._active:
        forward_ad.propagate(cls, ctx, args, result, tangents)
    return result[0] if single else result


def _is_differentiable(ctx, out):
    return out._data.dtype.kind == "f" and not _contains(ctx._non_differentiable, out)


def _wrap_outputs(ctx, args, outputs, record, Tensor):
    """The tensors ``apply`` returns, each with the history PyTorch gives it."""
    n_diff = sum(1 for o in outputs if isinstance(o, Tensor) and _is_differentiable(ctx, o))
    result, refs, meta = [], [], []
    for nr, out in enumerate(outputs):
        if isinstance(out, np.ndarray) or isinstance(out, np.generic):
            out = Tensor._make(np.asarray(out))
        if isinstance(out, Tensor):
            previous = next((r for o, r in zip(outputs[:nr], result) if o is out), None)
            out = _wrap_output(ctx, nr, out, args, record, n_diff, len(outputs), previous, Tensor)
            refs.append(weakref.ref(out))
            # ``ctx._materialize_non_diff_grads = False``: backward gets None, not zeros, for
            # the outputs marked non-differentiable (a dtype of None means "no zeros").
            keep_none = not getattr(ctx, "_materialize_non_diff_grads", True) and \
                _contains(ctx._non_differentiable, out)
            meta.append((out._data.shape, None if keep_none else out._data.dtype))
        else:  # None or a non-tensor (a number, a string): returned as it is
            refs.append(None)
            meta.append(((), None))
        result.append(out)
    ctx._output_refs = tuple(refs)
    ctx._output_meta = tuple(meta)
    return tuple(result)


def _wrap_output(ctx, nr, out, args, record, n_diff, n_outputs, previous, Tensor):
    if previous is not None:  # the same tensor again: one object, the last output number
        if previous.grad_fn is ctx:
            previous._output_nr = nr
        return previous
    is_input, dirty = _contains(args, out), _contains(ctx._dirty, out)
    if not (record and _is_differentiable(ctx, out)):
        if not out._requires_grad:
            if is_input and not dirty:
                out = _view_of(out, Tensor)
                out.__dict__["_creation_meta"] = CUSTOM if record else NO_GRAD_CUSTOM
            elif out._base is not None and not record:
                _mark_view(out, NO_GRAD_CUSTOM)
            return out
        if is_input:
            out = out.detach()
        elif out._base is None:
            out.detach_()
        elif not record:  # a view of an input that requires grad: it requires grad too
            _mark_view(out, NO_GRAD_CUSTOM)
        return out
    if dirty:
        return _wrap_dirty(ctx, nr, out, is_input, n_outputs, Tensor)
    if is_input:
        out = _view_of(out, Tensor)
        _mark_view(out, CUSTOM)
    elif out.__dict__.pop("_no_grad_view", False):  # a view forward made (in no-grad mode)
        _mark_view(out, MULTI if n_diff > 1 else CUSTOM)
    elif out.grad_fn is not None or out._requires_grad:
        out = out._alias()  # a tensor with a history of its own (e.g. captured by forward)
    elif out._base is not None:
        _mark_view(out, MULTI if n_diff > 1 else CUSTOM)
    out._requires_grad, out._creator, out._output_nr = True, ctx, nr
    return out


def _wrap_dirty(ctx, nr, out, is_input, n_outputs, Tensor):
    """An input ``forward`` modified in place: it takes the node as its history."""
    from minigrad.ops.inplace import (
        LEAF_INPLACE,
        VIEW_OF_LEAF_INPLACE,
        _check_inplace,
        rebase_view_history,
        set_history,
    )
    if out.grad_fn is None and out._requires_grad:
        raise RuntimeError(LEAF_INPLACE.replace("is being used", "has been used"))
    base = out._base
    if base is not None:  # the kinds of view that may not change in place (split, unbind...)
        _check_inplace(out)
    out._version_counter[0] += 1
    if base is None or not np.may_share_memory(out._data, base._data):
        set_history(out, ctx, nr)
        return out
    if n_outputs > 1:
        raise RuntimeError(DIRTY_VIEW_MULTI)
    if base.grad_fn is None and base._requires_grad:
        raise RuntimeError(VIEW_OF_LEAF_INPLACE)
    rebase_view_history(out, Tensor._make(out._data, True, ctx, nr))
    return out


def _view_of(t, Tensor):
    """A new tensor object that views all of ``t`` (``t.view_as(t)`` without a graph)."""
    out = Tensor._make(t._data.view())
    base = t._base if t._base is not None else t
    out._base, out._version_counter = base, base._version_counter
    return out


def _mark_view(out, how):
    out.__dict__["_creation_meta"] = how
    if how == NO_GRAD_CUSTOM and out._base is not None and out._base._requires_grad:
        out._requires_grad = True  # as a view made in no-grad mode of such a tensor


def _save_tensors(ctx, outputs, result, Tensor):
    from minigrad.autograd.function import _save_all
    if ctx._to_save:
        ctx._saved = _save_all(ctx, outputs, result, Tensor)


def _user_backward(cls):
    from minigrad.autograd.function import Function
    backward, vjp = cls.backward, cls.vjp
    default_backward, default_vjp = Function.backward, Function.vjp
    if backward is not default_backward and vjp is not default_vjp:
        raise RuntimeError(BOTH_BACKWARD_AND_VJP)
    return vjp if vjp is not default_vjp else backward


def node_apply(node, grad_outputs):
    """The node's step in backward: the user's ``backward`` (or ``vjp``), checked."""
    from minigrad.autograd.function import _check_user_grads
    if node._materialize_grads and _contains(grad_outputs, None):
        grad_outputs = _zeros_for_unused(grad_outputs, node._output_meta)
    needs = node.needs_input_grad
    grads = _user_backward(node._forward_cls)(node, *grad_outputs)
    if not isinstance(grads, tuple):
        grads = (grads,)
    n_args = len(needs)
    if len(grads) != n_args:
        grads = _trimmed_grads(node, grads, n_args)
    _check_user_grads(node, grads)
    return tuple([grads[i] if needs[i] else None for i in node._tensor_positions])


def saved_variables(ctx):
    warnings.warn("'saved_variables' is deprecated; use 'saved_tensors'", DeprecationWarning,
                  stacklevel=3)
    return ctx.saved_tensors


SAVED_ONCE = ("saved_tensors can only be accessed once when clear_saved_tensors_on_access=True "
              "is set on the autograd.Function. Either access saved_tensors only once, or set "
              "clear_saved_tensors_on_access=False.")


def saved_tensors_once(node):
    """``ctx.saved_tensors`` of a Function with ``clear_saved_tensors_on_access = True``: the
    node lets go of them as it hands them over, so the caller holds the only references."""
    if node.__dict__.get("_saved_taken"):
        raise RuntimeError(SAVED_ONCE)
    tensors = super(type(node), node).saved_tensors  # the usual unpacking
    node._saved_taken = True
    node.release_variables()
    return tensors


def raw_saved_tensors(node):
    """``_raw_saved_tensors`` of a custom Function's node: the SavedTensor objects behind
    ``saved_tensors`` (a None saved is a placeholder that refuses hooks), as PyTorch shows."""
    if node._saved is None:
        return ()
    if any(s is not None and s.released for s in node._saved):
        raise RuntimeError(ERR_BACKWARD_TWICE)
    from minigrad.autograd.graph_hooks import SavedNone
    return tuple(SavedNone() if s is None else s for s in node._saved)
