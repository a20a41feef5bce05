"""Inference tensors: what a tensor made in ``inference_mode`` may not do, as in PyTorch.

A tensor created while ``inference_mode()`` is on (``t.is_inference()``) has no version
counter and no autograd history. Outside inference mode it may be read and used in new
computations, but not changed in place, made to require grad, or saved for backward. A view
made in inference mode of a normal tensor stays normal, but changing it in place later with
grad mode on is an error (``views.py``).
"""

from minigrad.grad_mode import state

__all__ = ["is_inference", "check_inplace", "check_requires_grad", "mark_views", "records",
           "NO_VERSION",
           "NOT_SAVED", "INPLACE_OUTSIDE", "REQUIRES_GRAD_OUTSIDE"]

NO_VERSION = "Inference tensors do not track version counter."
INPLACE_OUTSIDE = (
    "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a "
    "clone to get a normal tensor before doing inplace update.See "
    "https://github.com/pytorch/rfcs/pull/17 for more details.")
REQUIRES_GRAD_OUTSIDE = ("Setting requires_grad=True on inference tensor outside InferenceMode "
                         "is not allowed.")
NOT_SAVED = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in "
    "inference mode in computation tracked by autograd. To work around this, you can make a "
    "clone to get a normal tensor and use it in autograd, or use `minigrad.no_grad()` instead of "
    "`minigrad.inference_mode()`.")


def is_inference(input):  # noqa: A002 - PyTorch's name
    """True if ``input`` was created in inference mode.

    Example:
        >>> with minigrad.inference_mode():
        ...     t = minigrad.ones(2)
        >>> minigrad.is_inference(t), minigrad.is_inference(minigrad.ones(2))
        (True, False)
    """
    from minigrad.tensor import Tensor
    if not isinstance(input, Tensor):
        raise TypeError("is_inference(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(input).__name__}")
    return input._inference


def check_inplace(tensor):
    """An inference tensor may change in place only inside inference mode."""
    if not state.inference:
        raise RuntimeError(INPLACE_OUTSIDE)


def check_requires_grad(tensor):
    if not state.inference:
        raise RuntimeError(REQUIRES_GRAD_OUTSIDE)


def records(args, Tensor):
    """Whether autograd records an op on ``args`` (some of which require grad): not when every
    tensor among them is an inference tensor (PyTorch skips autograd for those)."""
    for a in args:
        if isinstance(a, Tensor) and not a._inference:
            return True
        if isinstance(a, (list, tuple)) and records(a, Tensor):
            return True
    return False


def mark_views(source, base, views):
    """Views of an inference tensor are inference tensors (and not views: True is returned);
    views of a normal tensor made in inference mode are normal views that keep their base's
    ``requires_grad``, and may not be changed in place outside inference mode."""
    if source._inference:
        for view in views:
            view._inference = True
        return True
    for view in views:
        view.__dict__.pop("_inference", None)
        view._requires_grad = base._requires_grad
        view.__dict__["_creation_meta"] = "inference"
    return False
