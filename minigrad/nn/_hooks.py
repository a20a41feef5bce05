"""Module hooks as PyTorch runs them: forward (pre-)hooks and full backward (pre-)hooks.

``Module.__call__`` runs ``call_with_hooks`` whenever the module or the global registries hold
a hook. The order is PyTorch's: global forward pre-hooks, then the module's; the inputs go
through a ``BackwardHookFunction`` (a ``BackwardHookFunctionBackward`` node in the graph) when
backward hooks are registered; ``forward``; global then module forward hooks; the outputs go
through another ``BackwardHookFunction``. In backward, the node of the outputs sees the
gradients of the outputs first (backward pre-hooks run there); the node of the inputs then
sees the gradients of the inputs and calls the backward hooks with both.
"""

import warnings

from minigrad.autograd.function import Function
from minigrad.autograd.node import RemovableHandle
from minigrad.grad_mode import is_grad_enabled
from minigrad.tensor import Tensor

__all__ = ["BackwardHookFunction", "BackwardHook", "call_with_hooks", "add_hook",
           "register_module_forward_pre_hook", "register_module_forward_hook",
           "register_module_full_backward_pre_hook", "register_module_full_backward_hook",
           "register_module_backward_hook", "global_hooks"]

MIXED_BACKWARD_HOOKS = ("Cannot use both regular backward hooks and full backward hooks on a "
                        "single Module. Please use only one of them.")


class _Handle(RemovableHandle):
    """Removes a hook from its registry and from the registries of its options."""

    def __init__(self, hooks, extra=()):
        super().__init__(hooks)
        self.extra = tuple(extra)

    def remove(self):
        super().remove()
        for registry in self.extra:
            registry.pop(self.id, None)


def add_hook(hooks, hook, prepend=False, extra=()):
    """Register ``hook`` in the ordered dict ``hooks`` (first with ``prepend``)."""
    handle = _Handle(hooks, extra)
    hooks[handle.id] = hook
    if prepend:
        for key in [k for k in hooks if k != handle.id]:
            hooks[key] = hooks.pop(key)
    return handle


class _GlobalHooks:
    """The hooks every module runs (``register_module_*``)."""

    def __init__(self):
        self.forward_pre, self.forward, self.backward, self.backward_pre = {}, {}, {}, {}
        self.forward_always_called, self.forward_with_kwargs = {}, {}
        self.is_full_backward = None

    def any(self):
        return bool(self.forward_pre or self.forward or self.backward or self.backward_pre)


global_hooks = _GlobalHooks()


def register_module_forward_pre_hook(hook):
    """Run ``hook(module, args)`` before the ``forward`` of every module."""
    return add_hook(global_hooks.forward_pre, hook)


def register_module_forward_hook(hook, *, with_kwargs=False, always_call=False):
    """Run ``hook(module, args, output)`` after the ``forward`` of every module."""
    g = global_hooks
    handle = add_hook(g.forward, hook, extra=(g.forward_always_called, g.forward_with_kwargs))
    if with_kwargs:
        g.forward_with_kwargs[handle.id] = True
    if always_call:
        g.forward_always_called[handle.id] = True
    return handle


def register_module_full_backward_pre_hook(hook):
    """Run ``hook(module, grad_output)`` in backward, for every module."""
    return add_hook(global_hooks.backward_pre, hook)


def _add_global_backward_hook(hook, full):
    """Global backward hooks are all full or all of the deprecated kind, never both."""
    if global_hooks.is_full_backward is (not full):
        raise RuntimeError("Cannot use both regular backward hooks and full backward hooks as "
                           "a global Module hook. Please use only one of them.")
    global_hooks.is_full_backward = full
    return add_hook(global_hooks.backward, hook)


def register_module_full_backward_hook(hook):
    """Run ``hook(module, grad_input, grad_output)`` in backward, for every module."""
    return _add_global_backward_hook(hook, full=True)


def register_module_backward_hook(hook):
    """The deprecated form of ``register_module_full_backward_hook``."""
    return _add_global_backward_hook(hook, full=False)


class BackwardHookFunction(Function):
    """y = x for each tensor: a node that sees the gradients of a module's inputs or outputs."""

    @staticmethod
    def forward(ctx, *args):
        ctx.mark_non_differentiable(*[a for a in args if not a.requires_grad])
        return args

    @staticmethod
    def backward(ctx, *grads):
        return grads


class BackwardHook:
    """Links the gradients of a module's outputs with those of its inputs for its hooks."""

    def __init__(self, module, hooks, pre_hooks):
        self.module, self.hooks, self.pre_hooks = module, hooks, pre_hooks
        self.grad_outputs = None
        self.n_inputs = self.n_outputs = -1
        self.input_positions = self.output_positions = None

    @staticmethod
    def _spread(positions, values, size):
        spread = [None] * size
        for i, value in zip(positions, values):
            spread[i] = value
        return tuple(spread)

    def _through_node(self, args, on_node):
        """``args`` with their tensors passed through a BackwardHookFunction."""
        positions = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        tensors = [args[i] for i in positions]
        if not (any(t.requires_grad for t in tensors) and is_grad_enabled()):
            return args, None
        passed = BackwardHookFunction.apply(*tensors)
        on_node(next(t.grad_fn for t in passed if t.grad_fn is not None))
        args = list(args)
        for i, t in zip(positions, passed):
            args[i] = t
        return tuple(args), positions

    def setup_input_hook(self, args):
        def on_node(node):
            node.register_hook(self._input_hook)
        args, self.input_positions = self._through_node(args, on_node)
        self.n_inputs = len(args)
        return args

    def _input_hook(self, grad_inputs, _):
        if self.grad_outputs is None:  # the gradient did not come through the outputs
            return None
        grads = self._spread(self.input_positions, grad_inputs, self.n_inputs)
        for hook in self.hooks:
            result = hook(self.module, grads, self.grad_outputs)
            if result is None:
                continue
            if len(result) != len(grads):
                raise RuntimeError("Backward hook returned an invalid number of grad_input, "
                                   f"got {len(result)}, but expected {len(grads)}")
            grads = result
        self.grad_outputs = None
        return tuple(grads[i] for i in self.input_positions)

    def setup_output_hook(self, outputs):
        single = not isinstance(outputs, tuple)
        args = (outputs,) if single else outputs

        def on_node(node):
            node.register_hook(self._output_hook)
        args, self.output_positions = self._through_node(args, on_node)
        self.n_outputs = len(args)
        return args[0] if single else args

    def _output_hook(self, _, grad_outputs):
        self.grad_outputs = self._spread(self.output_positions, grad_outputs, self.n_outputs)
        for hook in self.pre_hooks:
            result = hook(self.module, self.grad_outputs)
            if result is None:
                continue
            if len(result) != len(self.grad_outputs):
                raise RuntimeError("Backward pre hook returned an invalid number of grad_output, "
                                   f"got {len(result)}, but expected {len(self.grad_outputs)}")
            self.grad_outputs = result
        grad_outputs = self.grad_outputs
        if self.input_positions is None:  # no input requires grad: call the hooks now
            warnings.warn("Full backward hook is firing when gradients are computed with respect "
                          "to module outputs since no inputs require gradients. See "
                          "https://docs.pytorch.org/docs/main/generated/torch.nn.Module.html"
                          "#torch.nn.Module.register_full_backward_hook for more details.",
                          stacklevel=5)
            nothing = (None,) * self.n_inputs
            for hook in self.hooks:
                result = hook(self.module, nothing, self.grad_outputs)
                if result is not None and not (isinstance(result, tuple)
                                               and all(r is None for r in result)):
                    raise RuntimeError("Backward hook for Modules where no input requires "
                                       "gradient should always return None or None for all "
                                       "gradients.")
            self.grad_outputs = None
        return tuple(grad_outputs[i] for i in self.output_positions)


def _backward_hooks(module):
    g = global_hooks
    full = list(g.backward.values()) if g.is_full_backward is True else []
    legacy = list(g.backward.values()) if g.is_full_backward is False else []
    if module._is_full_backward_hook is True:
        full += module._backward_hooks.values()
    elif module._is_full_backward_hook is False:
        legacy += module._backward_hooks.values()
    return full, legacy


def call_with_hooks(module, forward, args, kwargs):
    """``forward(*args, **kwargs)`` with every hook of ``module`` and the global ones."""
    state = {"result": None, "called": set(), "args": args, "kwargs": kwargs}
    try:
        return _run(module, forward, state)
    except Exception:
        _always_called_hooks(module, state)
        raise


def _run(module, forward, state):
    g = global_hooks
    args, kwargs = state["args"], state["kwargs"]
    pre_hooks = list(g.backward_pre.values()) + list(module._backward_pre_hooks.values())
    full, legacy = _backward_hooks(module)
    for key, hook in (*g.forward_pre.items(), *module._forward_pre_hooks.items()):
        if key in module._forward_pre_hooks_with_kwargs:
            result = hook(module, args, kwargs)
            if result is not None:
                if not (isinstance(result, tuple) and len(result) == 2):
                    raise RuntimeError("forward pre-hook must return None or a tuple of "
                                       f"(new_args, new_kwargs), but got {result}.")
                args, kwargs = result
        else:
            result = hook(module, args)
            if result is not None:
                args = result if isinstance(result, tuple) else (result,)
        state["args"], state["kwargs"] = args, kwargs
    bw_hook = None
    if full or pre_hooks:
        bw_hook = BackwardHook(module, full, pre_hooks)
        args = state["args"] = bw_hook.setup_input_hook(args)
    result = state["result"] = forward(*args, **kwargs)
    for key, hook in (*g.forward.items(), *module._forward_hooks.items()):
        if key in module._forward_hooks_always_called or key in g.forward_always_called:
            state["called"].add(key)
        if key in module._forward_hooks_with_kwargs or key in g.forward_with_kwargs:
            out = hook(module, args, kwargs, result)
        else:
            out = hook(module, args, result)
        if out is not None:
            result = state["result"] = out
    if bw_hook is not None:
        if not isinstance(result, (Tensor, tuple)):
            warnings.warn("For backward hooks to be called, module output should be a Tensor or "
                          f"a tuple of Tensors but received {type(result)}", stacklevel=3)
        result = bw_hook.setup_output_hook(result)
    if legacy:
        _legacy_backward_hooks(module, legacy, result)
    return result


def _legacy_backward_hooks(module, hooks, result):
    var = result
    while not isinstance(var, Tensor):
        var = next(v for v in var.values() if isinstance(v, Tensor)) \
            if isinstance(var, dict) else var[0]
    if var.grad_fn is not None:
        for hook in hooks:
            var.grad_fn.register_hook(
                lambda grad_inputs, grad_outputs, hook=hook: hook(module, grad_inputs,
                                                                   grad_outputs))


def _always_called_hooks(module, state):
    """After ``forward`` (or a hook) raised: the ``always_call`` forward hooks not yet run."""
    g = global_hooks
    called, args, kwargs = state["called"], state["args"], state["kwargs"]
    for key, hook in g.forward.items():
        if key in g.forward_always_called and key not in called:
            try:
                out = hook(module, args, state["result"])
                if out is not None:
                    state["result"] = out
            except Exception as error:  # noqa: BLE001 - PyTorch silences it with a warning
                warnings.warn("global module forward hook with ``always_call=True`` raised an "
                              "exception that was silenced as another error was raised in "
                              f"forward: {error}", stacklevel=3)
    for key, hook in module._forward_hooks.items():
        if key in module._forward_hooks_always_called and key not in called:
            try:
                if key in module._forward_hooks_with_kwargs:
                    out = hook(module, args, kwargs, state["result"])
                else:
                    out = hook(module, args, state["result"])
                if out is not None:
                    state["result"] = out
            except Exception as error:  # noqa: BLE001 - PyTorch silences it with a warning
                warnings.warn("module forward hook with ``always_call=True`` raised an "
                              "exception that was silenced as another error was raised in "
                              f"forward: {error}", stacklevel=3)
