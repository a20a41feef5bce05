"""How a view was made decides whether it may be changed in place (PyTorch's ``CreationMeta``).

Most views may: autograd rewrites the history of the view and of its base. Four kinds may not,
when the change would be recorded (grad mode on and the view requires grad), because no
history could be rewritten correctly; a tensor of such a kind carries ``_creation_meta``:

- ``"custom"``: an output of a custom Function that is a view (or an input returned as-is);
- ``"multi"``: one of several views a custom Function returned;
- ``"no_grad_custom"``: a view a custom Function returned in no-grad mode;
- ``"inference"``: a view of a normal tensor made in inference mode;
- ``"view_of_no_grad"``, ``"view_of_inference"``: a view (made in grad mode) of a view of the
  no-grad or inference kind.
"""

from minigrad.autograd.node import forward_op_name

__all__ = ["check_inplace", "check_untracked_inplace", "CUSTOM_FUNCTION_VIEW", "NO_GRAD_VIEW",
           "INFERENCE_VIEW"]

_CUSTOM_TAIL = (
    "This view was created inside a custom Function (or because an input was returned as-is) and "
    "the autograd logic to handle view+inplace would override the custom backward associated "
    "with the custom Function, leading to incorrect gradients. This behavior is forbidden. You "
    "can fix this by cloning the output of the custom Function.")
CUSTOM_FUNCTION_VIEW = "Output {nr} of {op} is a view and is being modified inplace. " + \
    _CUSTOM_TAIL
MULTI_OUTPUT_VIEW = (
    "Output {nr} of {op} is a view and is being modified inplace. This view is the output of a "
    "function that returns multiple views. Such functions do not allow the output views to be "
    "modified inplace. You should replace the inplace operation by an out-of-place one.")
NO_GRAD_VIEW = ("A view was created in no_grad mode and is being modified inplace with grad "
                "mode enabled. " + _CUSTOM_TAIL)
INFERENCE_VIEW = (
    "A view was created in inference mode and is being modified inplace in normal mode. Given "
    "that this use case is ambiguous and error-prone, it is forbidden. You can clarify your code "
    "by moving both the view and the inplace either both inside the inference_mode block (if you "
    "don't want the inplace to be tracked) or both outside (if you want the inplace to be "
    "tracked).")


UNTRACKED_VIEW = "A view was created in no_grad mode and is being modified inplace with grad " \
    "mode enabled. "

_VIEW_OF_VIEW_TAIL = (
    "Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify "
    "your code by moving both the view and the inplace either both inside the {block} block (if "
    "you don't want the inplace to be tracked) or both outside (if you want the inplace to be "
    "tracked).")
VIEW_OF_NO_GRAD_VIEW = (
    "Output {nr} of {op} is a view of a view which was created in no_grad mode and is being "
    "modified inplace with grad mode enabled. " + _VIEW_OF_VIEW_TAIL.format(block="no_grad"))
VIEW_OF_INFERENCE_VIEW = (
    "Output {nr} of {op} is a view of a view which was created in inference mode and is being "
    "modified inplace in normal mode. " + _VIEW_OF_VIEW_TAIL.format(block="inference_mode"))
# The kind a view of a view of each kind gets (the others are not inherited this way).
VIEW_OF_VIEW = {"no_grad": "view_of_no_grad", "inference": "view_of_inference",
                "view_of_no_grad": "view_of_no_grad", "view_of_inference": "view_of_inference"}


def check_untracked_inplace(view):
    """Raise PyTorch's error if ``view``, which does not require grad, may not be changed in
    place by an op that autograd records (an operand requires grad): a view a custom Function
    returned, or one of several views (unbind, split)."""
    how = view.__dict__.get("_creation_meta")
    if how in ("custom", "no_grad_custom"):
        raise RuntimeError(NO_GRAD_VIEW)
    if how == "multi" or "_multi_view" in view.__dict__:
        raise RuntimeError(UNTRACKED_VIEW + MULTI_OUTPUT_VIEW.split("inplace. ", 1)[1])


def check_inplace(view):
    """Raise PyTorch's error if ``view`` may not be changed in place by a recorded op."""
    how = view.__dict__.get("_creation_meta")
    if how is None:
        return
    if how == "inference":
        raise RuntimeError(INFERENCE_VIEW)
    if how == "no_grad_custom":
        raise RuntimeError(NO_GRAD_VIEW)
    op = forward_op_name(view.grad_fn) if view.grad_fn is not None else "?"
    message = {"multi": MULTI_OUTPUT_VIEW, "view_of_no_grad": VIEW_OF_NO_GRAD_VIEW,
               "view_of_inference": VIEW_OF_INFERENCE_VIEW}.get(how, CUSTOM_FUNCTION_VIEW)
    raise RuntimeError(message.format(nr=view._output_nr, op=op))
