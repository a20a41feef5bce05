"""``Module``: the base class of layers and models.

A Module keeps three ordered registries, filled by plain attribute assignment:

* ``_parameters``: attributes that are ``Parameter`` (listed by ``parameters()``),
* ``_buffers``: tensors registered with ``register_buffer`` (saved in ``state_dict``, never
  trained: BatchNorm's running statistics),
* ``_modules``: attributes that are Modules (the children).

Names for the graph viewer: every registered Parameter carries ``param._display_name``, its
qualified name seen from the outermost module (``"fc1.weight"``, ``"0.bias"``). Registering a
module as a child re-prefixes the names of everything below it. Calling a module tags its
outputs and notifies observers as described in ``minigrad.nn._tracking``.
"""

from collections import OrderedDict, namedtuple
from collections.abc import Mapping

import numpy as np

from minigrad import _device, _dtype
from minigrad.grad_mode import no_grad
from minigrad.nn import _hooks
from minigrad.nn._hooks import (
    register_module_backward_hook,
    register_module_forward_hook,
    register_module_forward_pre_hook,
    register_module_full_backward_hook,
    register_module_full_backward_pre_hook,
)
from minigrad.nn._tracking import call_started, emit_module_call, tag_outputs
from minigrad.nn.parameter import Parameter
from minigrad.tensor import Tensor, typename

__all__ = ["Module", "register_module_forward_pre_hook", "register_module_forward_hook",
           "register_module_full_backward_pre_hook", "register_module_full_backward_hook",
           "register_module_backward_hook"]


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What ``load_state_dict`` returns: the keys that did not match."""

    __slots__ = ()

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


def _join(prefix, name):
    return f"{prefix}.{name}" if prefix else name


def _addindent(text, spaces):
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    return lines[0] + "\n" + "\n".join(" " * spaces + line for line in lines[1:])


class Module:
    """Base class of every layer and model: subclass it, assign layers in ``__init__``, write
    ``forward``.

    Example:
        >>> class Net(nn.Module):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.fc1 = nn.Linear(2, 4)
        ...         self.fc2 = nn.Linear(4, 1)
        ...     def forward(self, x):
        ...         return self.fc2(self.fc1(x).relu())
        >>> [name for name, _ in Net().named_parameters()]
        ['fc1.weight', 'fc1.bias', 'fc2.weight', 'fc2.bias']
    """

    training = True

    def __init__(self):
        d = self.__dict__
        d["training"] = True
        d["_parameters"] = {}
        d["_buffers"] = {}
        d["_non_persistent_buffers_set"] = set()
        d["_modules"] = {}
        d["_forward_pre_hooks"] = {}
        d["_forward_hooks"] = {}
        d["_forward_pre_hooks_with_kwargs"] = {}
        d["_forward_hooks_with_kwargs"] = {}
        d["_forward_hooks_always_called"] = {}
        d["_backward_hooks"] = {}
        d["_backward_pre_hooks"] = {}
        d["_is_full_backward_hook"] = None
        d["_path"] = ""

    def forward(self, *args, **kwargs):
        raise NotImplementedError(
            f'Module [{type(self).__name__}] is missing the required "forward" function')

    def __call__(self, *args, **kwargs):
        emit_module_call(self, "enter", args)
        start = call_started()
        if (self._forward_pre_hooks or self._forward_hooks or self._backward_hooks
                or self._backward_pre_hooks or _hooks.global_hooks.any()):
            outputs = _hooks.call_with_hooks(self, self.forward, args, kwargs)
        else:
            outputs = self.forward(*args, **kwargs)
        tag_outputs(outputs, self._path, (self, start, call_started()))
        emit_module_call(self, "exit", args, outputs)
        return outputs

    def register_forward_pre_hook(self, hook, *, prepend=False, with_kwargs=False):
        """``hook(module, args) -> None or new args`` runs before ``forward``; with
        ``with_kwargs``, ``hook(module, args, kwargs) -> None or (new args, new kwargs)``."""
        handle = _hooks.add_hook(self._forward_pre_hooks, hook, prepend,
                                 extra=(self._forward_pre_hooks_with_kwargs,))
        if with_kwargs:
            self._forward_pre_hooks_with_kwargs[handle.id] = True
        return handle

    def register_forward_hook(self, hook, *, prepend=False, with_kwargs=False,
                              always_call=False):
        """``hook(module, args, output) -> None or new output`` runs after ``forward``
        (``hook(module, args, kwargs, output)`` with ``with_kwargs``; also when ``forward``
        raised, with ``always_call``).

        Example:
            >>> layer = nn.Linear(2, 1)
            >>> handle = layer.register_forward_hook(lambda m, args, out: out.abs() * 0)
            >>> layer(minigrad.ones(1, 2)).tolist()
            [[0.0]]
        """
        handle = _hooks.add_hook(self._forward_hooks, hook, prepend, extra=(
            self._forward_hooks_with_kwargs, self._forward_hooks_always_called))
        if with_kwargs:
            self._forward_hooks_with_kwargs[handle.id] = True
        if always_call:
            self._forward_hooks_always_called[handle.id] = True
        return handle

    def register_full_backward_pre_hook(self, hook, prepend=False):
        """``hook(module, grad_output) -> None or new grad_output`` runs in backward when the
        gradients of the module's outputs are known."""
        return _hooks.add_hook(self._backward_pre_hooks, hook, prepend)

    def register_full_backward_hook(self, hook, prepend=False):
        """``hook(module, grad_input, grad_output) -> None or new grad_input`` runs in backward
        when the gradients of the module's inputs are known.

        Example:
            >>> layer = nn.Linear(2, 1)
            >>> seen = []
            >>> handle = layer.register_full_backward_hook(
            ...     lambda m, grad_in, grad_out: seen.append(grad_out[0].shape))
            >>> layer(minigrad.ones(1, 2, requires_grad=True)).sum().backward()
            >>> seen
            [minigrad.Size([1, 1])]
        """
        if self._is_full_backward_hook is False:
            raise RuntimeError(_hooks.MIXED_BACKWARD_HOOKS)
        self.__dict__["_is_full_backward_hook"] = True
        return _hooks.add_hook(self._backward_hooks, hook, prepend)

    def register_backward_hook(self, hook):
        """Deprecated: ``register_full_backward_hook`` is what it should have been."""
        if self._is_full_backward_hook is True:
            raise RuntimeError(_hooks.MIXED_BACKWARD_HOOKS)
        self.__dict__["_is_full_backward_hook"] = False
        return _hooks.add_hook(self._backward_hooks, hook)

    # ------------------------------------------------------------------ registration
    def __setattr__(self, name, value):
        d = self.__dict__
        params = d.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            self._forget(name)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{typename(value)}' as parameter '{name}' "
                                "(minigrad.nn.Parameter or None expected)")
            self.register_parameter(name, value)
        elif isinstance(value, Module):
            if d.get("_modules") is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            self._forget(name)
            self._set_child(name, value)
        elif d.get("_modules") is not None and name in d["_modules"]:
            if value is not None:
                raise TypeError(f"cannot assign '{typename(value)}' as child module '{name}' "
                                "(minigrad.nn.Module or None expected)")
            d["_modules"][name] = None
        elif d.get("_buffers") is not None and name in d["_buffers"]:
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(f"cannot assign '{typename(value)}' as buffer '{name}' "
                                "(minigrad.Tensor or None expected)")
            self._set_buffer(name, value)
        else:
            object.__setattr__(self, name, value)

    def __getattr__(self, name):
        d = self.__dict__
        for registry in ("_parameters", "_buffers", "_modules"):
            if registry in d and name in d[registry]:
                return d[registry][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name):
        if name in self._parameters or name in self._buffers or name in self._modules:
            self._forget(name)
        else:
            object.__delattr__(self, name)

    def _forget(self, name):
        """Remove ``name`` from every registry and from the plain attributes."""
        self.__dict__.pop(name, None)
        self._parameters.pop(name, None)
        self._buffers.pop(name, None)
        self._non_persistent_buffers_set.discard(name)
        self._modules.pop(name, None)

    def _check_name(self, name, kind):
        if not isinstance(name, str):
            raise TypeError(f"{kind} name should be a string. Got {type(name).__name__}")
        if "." in name:
            raise KeyError(f'{kind} name can\'t contain ".", got: {name}')
        if name == "":
            raise KeyError(f'{kind} name can\'t be empty string ""')

    def register_parameter(self, name, param):
        """Add ``param`` (a Parameter or None) under ``name``; same as assigning it."""
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        self._check_name(name, "parameter")
        if hasattr(self, name) and name not in self._parameters:
            raise KeyError(f"attribute '{name}' already exists")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{typename(param)}' object to parameter '{name}' "
                            "(minigrad.nn.Parameter or None required)")
        self._parameters[name] = param
        if param is not None:
            param._display_name = _join(self._path, name)

    def register_buffer(self, name, tensor, persistent=True):
        """Add a tensor that is state but not a parameter (saved in ``state_dict`` when
        ``persistent``), e.g. BatchNorm's ``running_mean``.

        Example:
            >>> m = nn.Module()
            >>> m.register_buffer("steps", minigrad.tensor(0))
            >>> list(m.state_dict())
            ['steps']
        """
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        self._check_name(name, "buffer")
        if hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{typename(tensor)}' object to buffer '{name}' "
                            "(minigrad Tensor or None required)")
        self._set_buffer(name, tensor)
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def _set_buffer(self, name, tensor):
        self._buffers[name] = tensor
        if tensor is not None:
            tensor._display_name = _join(self._path, name)

    def add_module(self, name, module):
        """Add a child module under ``name``; same as assigning it as an attribute."""
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{typename(module)} is not a Module subclass")
        self._check_name(name, "module")
        if hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        self._set_child(name, module)

    register_module = add_module

    def _set_child(self, name, module):
        self._modules[name] = module
        if module is not None:
            module._set_path(_join(self._path, name))

    def _set_path(self, path):
        """Give this module the qualified name ``path`` and re-prefix everything below it."""
        self.__dict__["_path"] = path
        for name, param in self._parameters.items():
            if param is not None:
                param._display_name = _join(path, name)
        for name, buffer in self._buffers.items():
            if buffer is not None:
                buffer._display_name = _join(path, name)
        for name, child in self._modules.items():
            if child is not None:
                child._set_path(_join(path, name))

    # ------------------------------------------------------------------ traversal
    def named_modules(self, memo=None, prefix="", remove_duplicate=True):
        """Yield ``(qualified name, module)`` for this module and every module below it."""
        if memo is None:
            memo = set()
        if remove_duplicate:
            if self in memo:
                return
            memo.add(self)
        yield prefix, self
        for name, child in self._modules.items():
            if child is not None:
                yield from child.named_modules(memo, _join(prefix, name), remove_duplicate)

    def modules(self):
        for _, module in self.named_modules():
            yield module

    def named_children(self):
        """Yield ``(name, module)`` for the direct children."""
        seen = set()
        for name, child in self._modules.items():
            if child is not None and child not in seen:
                seen.add(child)
                yield name, child

    def children(self):
        for _, child in self.named_children():
            yield child

    def _named_members(self, registry, prefix, recurse, remove_duplicate=True):
        modules = (self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate)
                   if recurse else [(prefix, self)])
        seen = set()
        for module_prefix, module in modules:
            for name, value in getattr(module, registry).items():
                if value is None or (remove_duplicate and id(value) in seen):
                    continue
                seen.add(id(value))
                yield _join(module_prefix, name), value

    def named_parameters(self, prefix="", recurse=True, remove_duplicate=True):
        """Yield ``(qualified name, parameter)``, this module's own parameters first, then each
        child's, in registration order (a parameter shared by two modules is listed once).

        Example:
            >>> [n for n, _ in nn.Sequential(nn.Linear(2, 3), nn.ReLU()).named_parameters()]
            ['0.weight', '0.bias']
        """
        return self._named_members("_parameters", prefix, recurse, remove_duplicate)

    def parameters(self, recurse=True):
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
        return self._named_members("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse=True):
        for _, buffer in self.named_buffers(recurse=recurse):
            yield buffer

    def get_submodule(self, target):
        """The module at the dotted path ``target`` (``""`` is this module)."""
        module = self
        for item in target.split(".") if target else []:
            if not hasattr(module, item):
                raise AttributeError(f"{type(module).__name__} has no attribute `{item}`")
            module = getattr(module, item)
            if not isinstance(module, Module):
                raise AttributeError(f"`{item}` is not an nn.Module")
        return module

    def apply(self, fn):
        """Call ``fn(module)`` on every child (recursively), then on this module.

        Example:
            >>> def init(m):
            ...     if isinstance(m, nn.Linear):
            ...         nn.init.zeros_(m.bias)
            >>> net = nn.Sequential(nn.Linear(2, 2)).apply(init)
        """
        for child in self.children():
            child.apply(fn)
        fn(self)
        return self

    # ------------------------------------------------------------------ modes and grads
    def train(self, mode=True):
        """Put this module and every module below it in training mode (``mode=False``: eval).

        Only layers that behave differently in training (Dropout, BatchNorm) care. This is not
        ``no_grad``: eval mode still records the graph.
        """
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for child in self.children():
            child.train(mode)
        return self

    def eval(self):
        """Evaluation mode: Dropout becomes the identity, BatchNorm uses its running stats."""
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        for param in self.parameters():
            param.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=True):
        """Reset the gradients of all parameters: to None (default) or to zeros."""
        for param in self.parameters():
            _reset_grad(param, set_to_none)

    # ------------------------------------------------------------------ state
    def state_dict(self, destination=None, prefix="", keep_vars=False):
        """An ordered dict from qualified names to parameters and persistent buffers (detached
        unless ``keep_vars``).

        Example:
            >>> list(nn.Linear(2, 3).state_dict())
            ['weight', 'bias']
        """
        if destination is None:
            destination = OrderedDict()
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param if keep_vars else param.detach()
        for name, buffer in self._buffers.items():
            if buffer is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = buffer if keep_vars else buffer.detach()
        for name, child in self._modules.items():
            if child is not None:
                child.state_dict(destination, prefix + name + ".", keep_vars)
        return destination

    def load_state_dict(self, state_dict, strict=True, assign=False):
        """Copy parameters and buffers from ``state_dict`` (in place, under no_grad).

        With ``strict`` (the default) missing and unexpected keys raise PyTorch's
        ``RuntimeError``; shape mismatches always do. Returns ``(missing_keys,
        unexpected_keys)``.
        """
        if not isinstance(state_dict, Mapping):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        missing, unexpected, errors = [], [], []
        self._load(state_dict, "", missing, unexpected, errors)
        if strict:
            if unexpected:
                keys = ", ".join(f'"{k}"' for k in unexpected)
                errors.insert(0, f"Unexpected key(s) in state_dict: {keys}. ")
            if missing:
                keys = ", ".join(f'"{k}"' for k in missing)
                errors.insert(0, f"Missing key(s) in state_dict: {keys}. ")
        if errors:
            raise RuntimeError(f"Error(s) in loading state_dict for {type(self).__name__}:\n\t"
                               + "\n\t".join(errors))
        return _IncompatibleKeys(missing, unexpected)

    def _load(self, state_dict, prefix, missing, unexpected, errors):
        local = {name: value for name, value in self._parameters.items() if value is not None}
        local.update((name, value) for name, value in self._buffers.items()
                     if value is not None and name not in self._non_persistent_buffers_set)
        for name, target in local.items():
            key = prefix + name
            if key not in state_dict:
                missing.append(key)
                continue
            _copy_into(target, key, state_dict[key], errors)
        for key in state_dict:
            if key.startswith(prefix):
                head = key[len(prefix):].split(".", 1)[0]
                if head not in self._modules and head not in local:
                    unexpected.append(key)
        for name, child in self._modules.items():
            if child is not None:
                child_prefix = prefix + name + "."
                child._load({k: v for k, v in state_dict.items() if k.startswith(child_prefix)},
                            child_prefix, missing, unexpected, errors)

    # ------------------------------------------------------------------ dtype
    def to(self, *args, dtype=None, device=None, **kwargs):
        """Convert floating-point parameters and buffers to ``dtype`` in place.

        ``to(device)``, ``to(dtype)``, ``to(device, dtype)`` and ``to(tensor)`` as in PyTorch;
        the only device is the CPU (CUDA raises PyTorch's "not compiled" error).
        """
        for a in args:
            if isinstance(a, Tensor):
                dtype = a.dtype
            elif isinstance(a, (_dtype.dtype, type)):
                dtype = a
            else:
                device = a
        if device is not None:
            _device.check_device(device)
        if dtype is None:
            return self
        np_dtype = _dtype.to_dtype(dtype).numpy
        for tensor in list(self.parameters()) + list(self.buffers()):
            if tensor._data.dtype.kind == "f":
                tensor._data = tensor._data.astype(np_dtype)
                if tensor._grad is not None:
                    tensor._grad._data = tensor._grad._data.astype(np_dtype)
        return self

    def float(self):
        return self.to(_dtype.float32)

    def double(self):
        return self.to(_dtype.float64)

    def cpu(self):
        return self

    def cuda(self, device=None):
        """Raises, as PyTorch does on a CPU-only build: minigrad has no CUDA."""
        raise AssertionError(_device.NO_CUDA)

    # ------------------------------------------------------------------ printing
    def extra_repr(self):
        """The text between the parentheses of this module's repr (override in layers)."""
        return ""

    def _child_lines(self):
        return [f"({name}): " + _addindent(repr(child), 2)
                for name, child in self._modules.items()]

    def __repr__(self):
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = self._child_lines()
        lines = extra_lines + child_lines
        body = ""
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                body = extra_lines[0]
            else:
                body = "\n  " + "\n  ".join(lines) + "\n"
        return f"{type(self).__name__}({body})"

    def __dir__(self):
        names = set(super().__dir__())
        names.update(self._parameters, self._buffers, self._modules)
        return sorted(n for n in names if not n[0].isdigit())


def _reset_grad(param, set_to_none):
    if param._grad is None:
        return
    if set_to_none:
        param._grad = None
    else:
        grad = param._grad
        if grad.grad_fn is not None:
            grad = grad.detach()
            param._grad = grad
        grad._data[...] = 0
        grad._bump_version()


def _copy_into(target, key, value, errors):
    if not isinstance(value, Tensor):
        errors.append(f'While copying the parameter named "{key}", expected minigrad.Tensor or '
                      f"Tensor-like object from checkpoint but received {type(value)}")
        return
    if value.shape != target.shape:
        errors.append(f"size mismatch for {key}: copying a param with shape {value.shape} from "
                      f"checkpoint, the shape in current model is {target.shape}.")
        return
    with no_grad():
        target._data[...] = np.asarray(value._data, dtype=target._data.dtype)
        target._bump_version()
