"""Inference tensors: what a tensor made in ``inference_mode`` may not do, as in PyTorch.

A tensor created while ``inference_mode()`` is on (``t.is_inference()``) has no version
counter and no autograd history. Outside inference mode it may be read and used in new
computations, but not changed in place, made to require grad, or saved for backward. A view
made in inference mode of a normal tensor stays normal, but changing it in place later with
grad mode on is an error (``views.py``).
"""

import weakref

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
STALE_VIEW = (
    "A view was created in inference mode and its base or another view of its base has been "
    "modified inplace in normal mode. Given that this use case is ambiguous and error-prone, it "
    "is forbidden. You can clarify your code by moving both the view and the inplace either both "
    "inside the inference_mode block (if you don't want the inplace to be tracked) or both "
    "outside (if you want the inplace to be tracked).")
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
    made = base.__dict__.get("_inference_views")
    if made is None:
        made = base.__dict__["_inference_views"] = weakref.WeakSet()
    for view in views:
        view.__dict__.pop("_inference", None)
        view._requires_grad = base._requires_grad
        view.__dict__["_creation_meta"] = "inference"
        made.add(view)
    return False


def base_changed(base, changed):
    """After a recorded in-place change of ``base`` (or of its views ``changed``): the views
    made of it in inference mode can no longer be used (their history would be ambiguous)."""
    for view in list(base.__dict__.get("_inference_views", ())):
        if not any(view is c for c in changed):
            view.__class__ = _stale_view_class(type(view))


def _stale_view_class(cls):
    """A subclass whose ``grad_fn`` raises PyTorch's error (a view in that state has its class
    switched: normal tensors pay nothing for the check)."""
    stale = _STALE.get(cls)
    if stale is None:
        def grad_fn(self):
            raise RuntimeError(STALE_VIEW)
        stale = _STALE[cls] = type(cls.__name__, (cls,), {
            "__slots__": (), "grad_fn": property(grad_fn), "_creator": property(grad_fn),
            "__module__": cls.__module__, "__qualname__": cls.__qualname__})
    return stale


_STALE = {}
