"""Module-call tracking: which module produced a tensor, told cheaply to whoever listens.

Two things happen in ``Module.__call__`` and nothing more:

* each output tensor gets ``tensor._module_path``: the qualified name of the innermost module
  that produced it (``"fc1"``, ``"0"``, ``""`` for a module that is not a child of another).
  An outer module does not overwrite what an inner module wrote, so the path names the layer
  whose ``forward`` created the tensor.
* when an observer is attached (``minigrad.autograd.observe.observers`` non-empty), the event
  ``module_call`` is emitted twice per call, with fields ``module``, ``name`` (the qualified
  name, or the class name for the top module), ``phase`` (``"enter"`` or ``"exit"``),
  ``inputs`` (the positional arguments) and ``outputs`` (``None`` on enter). Events nest like
  the calls, so a viewer can group the nodes created between ``enter`` and ``exit`` into one
  box (``collapse="modules"``).

Nothing is written into ``grad_fn.metadata``: that dict belongs to the user.
"""

from minigrad.autograd import observe
from minigrad.tensor import Tensor

__all__ = ["tag_outputs", "emit_module_call"]


def tag_outputs(outputs, path):
    """Write ``path`` as ``_module_path`` on each tensor of ``outputs`` that has none yet."""
    if isinstance(outputs, Tensor):
        if "_module_path" not in outputs.__dict__:
            outputs._module_path = path
    elif isinstance(outputs, (tuple, list)):
        for out in outputs:
            tag_outputs(out, path)
    elif isinstance(outputs, dict):
        for out in outputs.values():
            tag_outputs(out, path)


def emit_module_call(module, phase, inputs, outputs=None):
    """Tell the observers (if any) that ``module`` is entered or exited."""
    if observe.observers:
        name = module._path or type(module).__name__
        observe.emit("module_call", module=module, name=name, phase=phase, inputs=inputs,
                     outputs=outputs)
