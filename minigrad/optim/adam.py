"""``Adam`` (and ``AdamW``): gradient steps scaled by running moments of the gradient."""

import math

import numpy as np

from minigrad.optim.optimizer import Optimizer, zero_step
from minigrad.tensor import Tensor

__all__ = ["Adam", "AdamW"]


class Adam(Optimizer):
    """Adam, with PyTorch's update rule (step t, gradient g, parameter p):

    g ← g + weight_decay·p (or p ← p·(1 - lr·weight_decay) when ``decoupled_weight_decay``);
    m ← m + (1 - β₁)(g - m);  v ← β₂·v + (1 - β₂)·g²;
    (``amsgrad``: v̂ ← max(v̂, v), used in place of v below)
    p ← p - lr/(1 - β₁ᵗ) · m / (√v / √(1 - β₂ᵗ) + eps).

    NB: PyTorch's ``foreach``, ``fused``, ``capturable`` and ``differentiable`` choose how
    ``step`` runs; minigrad has one way (the plain loop) and refuses the values that ask for
    another (``fused=True``, ``capturable=True``, ``differentiable=True``).

    Example:
        >>> model = nn.Linear(2, 1)
        >>> opt = optim.Adam(model.parameters(), lr=1e-2)
        >>> model(minigrad.ones(4, 2)).pow(2).mean().backward()
        >>> opt.step()
    """

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 amsgrad=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False, fused=None, decoupled_weight_decay=False):
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        for i, beta in enumerate(betas):
            if not 0.0 <= beta < 1.0:
                raise ValueError(f"Invalid beta parameter at index {i}: {beta}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = {"lr": lr, "betas": tuple(betas), "eps": eps, "weight_decay": weight_decay,
                    "amsgrad": amsgrad, "maximize": maximize, "foreach": foreach,
                    "capturable": capturable, "differentiable": differentiable, "fused": fused,
                    "decoupled_weight_decay": decoupled_weight_decay}
        super().__init__(params, defaults)

    def step(self, closure=None):
        """Update every parameter that has a gradient; returns ``closure()`` if given."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            for param in self._params_with_grad(group):
                state = self.state.setdefault(param, {})
                if not state:
                    _init_state(state, param._data, group["amsgrad"])
                _update(param, group, state)
        return loss


class AdamW(Adam):
    """Adam with decoupled weight decay (default 0.01): p ← p·(1 - lr·weight_decay).

    Example:
        >>> opt = optim.AdamW(nn.Linear(2, 1).parameters(), lr=1e-3)
    """

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2,
                 amsgrad=False, *, maximize=False, foreach=None, capturable=False,
                 differentiable=False, fused=None):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach,
                         maximize=maximize, capturable=capturable, differentiable=differentiable,
                         fused=fused, decoupled_weight_decay=True)


def _init_state(state, p, amsgrad):
    state["step"] = zero_step()
    state["exp_avg"] = Tensor._make(np.zeros_like(p))
    state["exp_avg_sq"] = Tensor._make(np.zeros_like(p))
    if amsgrad:
        state["max_exp_avg_sq"] = Tensor._make(np.zeros_like(p))


def _update(param, group, state):
    p, g = param._data, param._grad._data
    lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
    if group["maximize"]:
        g = -g
    state["step"]._data += 1
    step = float(state["step"]._data)
    if group["weight_decay"] != 0:
        if group["decoupled_weight_decay"]:
            p *= 1 - lr * group["weight_decay"]
        else:
            g = g + group["weight_decay"] * p
    m, v = state["exp_avg"]._data, state["exp_avg_sq"]._data
    m += (1 - beta1) * (g - m)
    v *= beta2
    v += (1 - beta2) * g * g
    if group["amsgrad"]:
        v = state["max_exp_avg_sq"]._data
        np.maximum(v, state["exp_avg_sq"]._data, out=v)
    step_size = lr / (1 - beta1**step)
    denom = np.sqrt(v) / math.sqrt(1 - beta2**step) + eps
    p -= step_size * (m / denom)
    param._bump_version()
