"""``Adagrad``: gradient steps divided by the root of all squared gradients so far."""

import numpy as np

from minigrad.optim.optimizer import Optimizer, zero_step
from minigrad.optim.rmsprop import _fma
from minigrad.tensor import Tensor

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    """Adagrad, with PyTorch's update rule (step t, gradient g, parameter p):

    g ← g + weight_decay·p;  s ← s + g²  (s starts at ``initial_accumulator_value``);
    p ← p - lr/(1 + (t - 1)·lr_decay) · g/(√s + eps).
    (``maximize``: g ← -g first.)

    Like PyTorch, the constructor creates every parameter's state (``step`` and ``sum``).

    NB: PyTorch's ``foreach``, ``fused`` and ``differentiable`` choose how ``step`` runs;
    minigrad has one way (the plain loop) and refuses ``fused=True`` and
    ``differentiable=True``.

    Example:
        >>> model = nn.Linear(2, 1)
        >>> opt = optim.Adagrad(model.parameters(), lr=0.1)
        >>> model(minigrad.ones(4, 2)).pow(2).mean().backward()
        >>> opt.step()
    """

    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0,
                 eps=1e-10, foreach=None, *, maximize=False, differentiable=False, fused=None):
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= lr_decay:
            raise ValueError(f"Invalid lr_decay value: {lr_decay}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= initial_accumulator_value:
            raise ValueError("Invalid initial_accumulator_value value: "
                             f"{initial_accumulator_value}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        defaults = {"lr": lr, "lr_decay": lr_decay, "eps": eps, "weight_decay": weight_decay,
                    "initial_accumulator_value": initial_accumulator_value,
                    "foreach": foreach, "maximize": maximize, "differentiable": differentiable,
                    "fused": fused}
        super().__init__(params, defaults)
        for group in self.param_groups:
            for param in group["params"]:
                self._init_state(param)

    def _init_state(self, param):
        # PyTorch fills every group's sums with the constructor's value, not the group's own
        state = self.state.setdefault(param, {})
        state["step"] = zero_step()
        state["sum"] = Tensor._make(
            np.full_like(param._data, self.defaults["initial_accumulator_value"]))

    def step(self, closure=None):
        """Update every parameter that has a gradient; returns ``closure()`` if given."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            for param in self._params_with_grad(group):
                if not self.state.get(param):  # a group added after construction
                    self._init_state(param)
                _update(param, group, self.state[param])
        return loss


def _update(param, group, state):
    p, g = param._data, param._grad._data
    dtype = p.dtype.type
    state["step"]._data += 1
    step = float(state["step"]._data)
    if group["maximize"]:
        g = -g
    if group["weight_decay"] != 0:
        g = _fma(p, dtype(group["weight_decay"]), g)
    clr = group["lr"] / (1 + (step - 1) * group["lr_decay"])
    s = state["sum"]._data
    s[...] = _fma(g, g, s)
    std = np.sqrt(s)
    std += dtype(group["eps"])
    p += dtype(-clr) * g / std
    param._bump_version()
