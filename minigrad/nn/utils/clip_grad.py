"""Gradient clipping: rescale (``clip_grad_norm_``) or clamp (``clip_grad_value_``) the ``.grad``
of parameters in place, outside autograd, as ``torch.nn.utils.clip_grad`` does.

``foreach`` is accepted for PyTorch's signature and ignored: minigrad has one (loop) path.
"""

import types
import warnings

import minigrad
from minigrad.grad_mode import no_grad
from minigrad.linalg import vector_norm
from minigrad.tensor import Tensor

__all__ = ["clip_grad_norm_", "clip_grad_norm", "clip_grad_value_", "get_total_norm",
           "clip_grads_with_norm_"]


def _as_list(tensors):
    return [tensors] if isinstance(tensors, Tensor) else list(tensors)


def _grads(parameters):
    return [p.grad for p in parameters if p.grad is not None]


@no_grad()
def get_total_norm(tensors, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """The p-norm of the tensors as if they were one vector: ``||(||t_1||_p, ..., ||t_n||_p)||_p``
    (0 for no tensors)."""
    tensors = _as_list(tensors)
    norm_type = float(norm_type)
    if not tensors:
        return minigrad.tensor(0.0)
    norms = [vector_norm(t, norm_type) for t in tensors]
    total_norm = vector_norm(minigrad.stack(norms), norm_type)
    if error_if_nonfinite and not bool(total_norm.isfinite()):
        raise RuntimeError(
            f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, "
            "so it cannot be clipped. To disable this error and scale the gradients by the "
            "non-finite norm anyway, set `error_if_nonfinite=False`")
    return total_norm


@no_grad()
def clip_grads_with_norm_(parameters, max_norm, total_norm, foreach=None):
    """Scale every gradient in place by ``min(1, max_norm / (total_norm + 1e-6))``."""
    grads = _grads(_as_list(parameters))
    max_norm = float(max_norm)
    if not grads:
        return
    # Always multiplied (by 1 when nothing is clipped), so every grad's version moves, as in torch.
    clip_coef = minigrad.clamp(max_norm / (total_norm + 1e-6), max=1.0)
    for grad in grads:
        grad.mul_(clip_coef)


@no_grad()
def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """Rescale the gradients so that their total ``norm_type``-norm is at most ``max_norm``;
    returns that total norm (measured before clipping)."""
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    else:
        was_generator = isinstance(parameters, types.GeneratorType)
        parameters = list(parameters)  # a generator is read only once
        if was_generator and not parameters:
            warnings.warn("`parameters` is an empty generator, no gradient clipping will occur.",
                          stacklevel=3)
    total_norm = get_total_norm(_grads(parameters), norm_type, error_if_nonfinite, foreach)
    clip_grads_with_norm_(parameters, max_norm, total_norm, foreach)
    return total_norm


def clip_grad_norm(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """Deprecated spelling of ``clip_grad_norm_`` (warns, then does the same)."""
    warnings.warn("`minigrad.nn.utils.clip_grad_norm` is now deprecated in favor of "
                  "`minigrad.nn.utils.clip_grad_norm_`.", FutureWarning, stacklevel=2)
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


@no_grad()
def clip_grad_value_(parameters, clip_value, foreach=None):
    """Clamp every gradient in place to ``[-clip_value, clip_value]``."""
    clip_value = float(clip_value)
    for grad in _grads(_as_list(parameters)):
        # Two in-place writes (two version bumps), as torch's clamp_min_/clamp_max_ pair.
        grad.clamp_min_(-clip_value)
        grad.clamp_max_(clip_value)
