"""``SGD``: stochastic gradient descent with momentum, dampening, Nesterov and weight decay."""

import numpy as np

from minigrad.optim.optimizer import Optimizer
from minigrad.tensor import Tensor

__all__ = ["SGD"]


class SGD(Optimizer):
    """Gradient descent, with PyTorch's update rule (per parameter p with gradient g):

    g ← g + weight_decay·p;
    with momentum: b ← g on the first step, else b ← momentum·b + (1 - dampening)·g,
    then g ← g + momentum·b (Nesterov) or g ← b;
    p ← p - lr·g (``maximize``: +).

    NB: PyTorch's ``foreach``, ``fused`` and ``differentiable`` choose how ``step`` runs;
    minigrad has one way (the plain loop) and refuses ``fused=True`` or ``differentiable=True``.

    Example:
        >>> model = nn.Linear(2, 1)
        >>> opt = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        >>> loss = model(minigrad.ones(4, 2)).pow(2).mean()
        >>> opt.zero_grad()
        >>> loss.backward()
        >>> opt.step()
    """

    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0,
                 nesterov=False, *, maximize=False, foreach=None, differentiable=False,
                 fused=None):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        defaults = {"lr": lr, "momentum": momentum, "dampening": dampening,
                    "weight_decay": weight_decay, "nesterov": nesterov, "maximize": maximize,
                    "foreach": foreach, "differentiable": differentiable, "fused": fused}
        super().__init__(params, defaults)

    def step(self, closure=None):
        """Update every parameter that has a gradient; returns ``closure()`` if given."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            for param in self._params_with_grad(group):
                # PyTorch keeps state (the momentum buffer) only with momentum
                state = self.state.setdefault(param, {}) if group["momentum"] != 0 else {}
                _update(param, group, state)
        return loss


def _update(param, group, state):
    p = param._data
    g = param._grad._data
    if group["maximize"]:
        g = -g
    if group["weight_decay"] != 0:
        g = g + group["weight_decay"] * p
    momentum = group["momentum"]
    if momentum != 0:
        buf = state.get("momentum_buffer")
        if buf is None:
            buf = state["momentum_buffer"] = Tensor._make(np.array(g, copy=True))
        else:
            buf._data *= momentum
            buf._data += (1 - group["dampening"]) * g
        g = g + momentum * buf._data if group["nesterov"] else buf._data
    p -= group["lr"] * g
    param._bump_version()
