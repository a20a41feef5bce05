"""``Optimizer``: the base of SGD and Adam — parameter groups, per-parameter state, zero_grad.

A subclass only writes ``step()``. Updates happen in place on the parameters' arrays, outside
autograd (as under ``no_grad``), and bump each parameter's version counter, like PyTorch's
in-place ``param.add_(...)``.
"""

import warnings

import numpy as np

from minigrad import _dtype
from minigrad.tensor import Tensor, typename

__all__ = ["Optimizer", "required"]


class _Required:
    """Marks a hyperparameter that has no default (e.g. a group without ``lr``)."""

    def __repr__(self):
        return "<required parameter>"


required = _Required()


# PyTorch's options that choose an implementation of ``step`` (multi-tensor, fused kernels,
# a step recorded by autograd, CUDA graph capture). minigrad has one: the plain for-loop, so it
# takes only the values that ask for nothing more (``foreach`` changes no result: any value).
_PLAIN_PATH = {"fused": (None, False), "differentiable": (False,), "capturable": (False,)}


def _check_plain_path(optimizer, group):
    """Refuse, clearly, an option value that asks for an implementation minigrad lacks."""
    for name, accepted in _PLAIN_PATH.items():
        if name in group and group[name] not in accepted:
            raise NotImplementedError(
                f"minigrad's {type(optimizer).__name__} has only the plain for-loop step: "
                f"{name}={group[name]!r} is not supported (leave it at its default, "
                f"{accepted[0]!r})")


def zero_step():
    """A new step counter (PyTorch's ``state["step"]``): a 0-d float32 tensor, float64 under a
    float64 default dtype."""
    double = _dtype.get_default_dtype() == _dtype.float64
    return Tensor._make(np.array(0.0, np.float64 if double else np.float32))


class Optimizer:
    """Holds ``param_groups`` (a list of dicts: ``params`` plus hyperparameters) and ``state``
    (a dict from parameter to its running buffers).

    Args:
        params: an iterable of tensors, or of dicts that each define a parameter group.
        defaults: the hyperparameters a group gets when it does not set them.

    Example:
        >>> w = nn.Parameter(minigrad.ones(2))
        >>> opt = optim.SGD([w], lr=0.1)
        >>> (w * w).sum().backward()
        >>> opt.step()
        >>> w
        Parameter containing:
        tensor([0.8000, 0.8000], requires_grad=True)
    """

    def __init__(self, params, defaults):
        self.defaults = defaults
        self.state = {}  # parameter → its buffers (tensors hash by identity)
        self.param_groups = []
        if isinstance(params, Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of "
                            f"Tensors or dicts, but got {typename(params)}")
        groups = list(params)
        if not groups:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)

    def add_param_group(self, param_group):
        """Add a group of parameters with its own hyperparameters (defaults fill the rest)."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            params = [params]
        elif isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, "
                            "but the ordering of tensors in sets will change between runs. "
                            "Please use a list instead.")
        param_group["params"] = params = list(params)
        for param in params:
            if not isinstance(param, Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is "
                                + typename(param))
            if not (param.is_leaf or param.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError("parameter group didn't specify a value of required "
                                 f"optimization parameter {name}")
            param_group.setdefault(name, default)
        _check_plain_path(self, param_group)
        if len({id(p) for p in params}) != len(params):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; in "
                          "future, this will cause an error; see "
                          "github.com/pytorch/pytorch/issues/40967 for more information",
                          stacklevel=3)
        existing = {id(p) for group in self.param_groups for p in group["params"]}
        if existing & {id(p) for p in params}:
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    def zero_grad(self, set_to_none=True):
        """Reset every parameter's ``.grad``: to None (default) or to zeros in place."""
        for group in self.param_groups:
            for param in group["params"]:
                grad = param._grad
                if grad is None:
                    continue
                if set_to_none:
                    param._grad = None
                    continue
                if grad.grad_fn is not None:
                    grad = param._grad = grad.detach()
                grad._requires_grad = False
                grad._data[...] = 0
                grad._bump_version()

    def step(self, closure=None):
        """Update the parameters once from their ``.grad`` (subclasses implement it)."""
        raise NotImplementedError

    def _params_with_grad(self, group):
        return [p for p in group["params"] if p._grad is not None]

    @staticmethod
    def _closure_loss(closure):
        """``closure()`` with grad mode on (it recomputes the loss and calls backward), or
        None without a closure: what ``step(closure)`` returns."""
        if closure is None:
            return None
        from minigrad.grad_mode import enable_grad
        with enable_grad():
            return closure()

    # ------------------------------------------------------------------ state
    def state_dict(self):
        """``{"state": {index: buffers}, "param_groups": [group with params as indices]}``."""
        index, groups = {}, []
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            packed["params"] = [index.setdefault(id(p), len(index)) for p in group["params"]]
            groups.append(packed)
        state = {index[id(p)]: dict(s) for p, s in self.state.items() if id(p) in index}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict):
        """Restore hyperparameters and buffers saved by ``state_dict`` (same parameter layout)."""
        groups = state_dict["param_groups"]
        if len(groups) != len(self.param_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        for mine, saved in zip(self.param_groups, groups):
            if len(mine["params"]) != len(saved["params"]):
                raise ValueError("loaded state dict contains a parameter group that doesn't "
                                 "match the size of optimizer's group")
            _check_plain_path(self, saved)
        self.state = {}
        for mine, saved in zip(self.param_groups, groups):
            for param, index in zip(mine["params"], saved["params"]):
                if index in state_dict["state"]:
                    self.state[param] = {
                        k: v.detach().clone() if isinstance(v, Tensor) else v
                        for k, v in state_dict["state"][index].items()}
            mine.update({k: v for k, v in saved.items() if k != "params"})

    def __repr__(self):
        text = type(self).__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            for key in sorted(group):
                if key != "params":
                    text += f"    {key}: {group[key]}\n"
        return text + ")"
