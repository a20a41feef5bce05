"""``RMSprop``: gradient steps divided by a running root mean square of the gradient."""

import numpy as np

from minigrad._avx_mathfun import fma32, fma64
from minigrad.optim.optimizer import Optimizer, zero_step
from minigrad.tensor import Tensor

__all__ = ["RMSprop"]


def _fma(a, b, c):
    """``a * b + c`` rounded once, in the dtype of ``c``: PyTorch's CPU kernels for
    ``add(alpha=)``, ``addcmul`` and ``lerp`` compile to fused multiply-adds."""
    dtype = np.asarray(c).dtype
    if dtype == np.float32:
        return fma32(a, b, c).reshape(np.shape(c))
    if dtype == np.float64:
        return fma64(a, b, c).reshape(np.shape(c))
    return (a * b + c).astype(dtype)


class RMSprop(Optimizer):
    """RMSprop, with PyTorch's update rule (gradient g, parameter p):

    g ← g + weight_decay·p;  v ← α·v + (1 - α)·g²;
    (``centered``: ḡ ← ḡ + (1 - α)(g - ḡ), and v - ḡ² replaces v below)
    d ← √v + eps;
    with momentum: b ← momentum·b + g/d, p ← p - lr·b;  else p ← p - lr·g/d.
    (``maximize``: g ← -g first.)

    NB: PyTorch's ``foreach``, ``capturable`` and ``differentiable`` choose how ``step``
    runs; minigrad has one way (the plain loop) and refuses ``capturable=True`` and
    ``differentiable=True``.

    Example:
        >>> model = nn.Linear(2, 1)
        >>> opt = optim.RMSprop(model.parameters(), lr=1e-2, momentum=0.9)
        >>> model(minigrad.ones(4, 2)).pow(2).mean().backward()
        >>> opt.step()
    """

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0,
                 centered=False, capturable=False, foreach=None, maximize=False,
                 differentiable=False):
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= momentum:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= alpha:
            raise ValueError(f"Invalid alpha value: {alpha}")
        defaults = {"lr": lr, "momentum": momentum, "alpha": alpha, "eps": eps,
                    "centered": centered, "weight_decay": weight_decay,
                    "capturable": capturable, "foreach": foreach, "maximize": maximize,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    def step(self, closure=None):
        """Update every parameter that has a gradient; returns ``closure()`` if given."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            for param in self._params_with_grad(group):
                state = self.state.setdefault(param, {})
                if not state:
                    _init_state(state, param._data, group)
                _update(param, group, state)
        return loss


def _init_state(state, p, group):
    state["step"] = zero_step()
    state["square_avg"] = Tensor._make(np.zeros_like(p))
    if group["momentum"] > 0:
        state["momentum_buffer"] = Tensor._make(np.zeros_like(p))
    if group["centered"]:
        state["grad_avg"] = Tensor._make(np.zeros_like(p))


def _update(param, group, state):
    p, g = param._data, param._grad._data
    lr, alpha, momentum = group["lr"], group["alpha"], group["momentum"]
    dtype = p.dtype.type
    if group["maximize"]:
        g = -g
    state["step"]._data += 1
    if group["weight_decay"] != 0:
        g = _fma(p, dtype(group["weight_decay"]), g)
    v = state["square_avg"]._data
    v *= dtype(alpha)
    v[...] = _fma(dtype(1 - alpha) * g, g, v)
    if group["centered"]:
        m = state["grad_avg"]._data
        m[...] = _lerp(m, g, 1 - alpha)
        avg = np.sqrt(_fma(-m, m, v))
    else:
        avg = np.sqrt(v)
    avg += dtype(group["eps"])
    if momentum > 0:
        buf = state["momentum_buffer"]._data
        buf *= dtype(momentum)
        buf += g / avg
        p[...] = _fma(buf, dtype(-lr), p)
    else:
        p += dtype(-lr) * g / avg
    param._bump_version()


def _lerp(start, end, weight):
    """start + weight·(end - start), from the nearer end as PyTorch's kernel rounds it."""
    w = start.dtype.type(weight)
    if abs(weight) < 0.5:
        return _fma(w, end - start, start)
    return _fma(start - end, start.dtype.type(1) - w, end)
