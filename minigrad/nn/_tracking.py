"""Module-call tracking: which module produced a tensor, told cheaply to whoever listens.

Two things happen in ``Module.__call__`` and nothing more:

* each output tensor gets ``tensor._module_path``: the qualified name of the innermost module
  that produced it (``"fc1"``, ``"0"``, ``""`` for a module that is not a child of another).
  An outer module does not overwrite what an inner module wrote, so the path names the layer
  whose ``forward`` created the tensor. Its ``grad_fn`` gets the same ``_module_path``, so that
  a snapshot still knows the node's module after the tensor died (``model(x).sum()``).
* when an observer is attached (``minigrad.autograd.observe.observers`` non-empty), the event
  ``module_call`` is emitted twice per call, with fields ``module``, ``name`` (the qualified
  name, or the class name for the top module), ``phase`` (``"enter"`` or ``"exit"``),
  ``inputs`` (the positional arguments) and ``outputs`` (``None`` on enter). Events nest like
  the calls, so a viewer can group the nodes created between ``enter`` and ``exit`` into one
  box (``collapse="modules"``).

* each call is also told apart from the others: ``call_started()`` takes a number from the
  nodes' sequence counter when ``forward`` starts and when it ends, and the output nodes made
  in between get ``(module, start, end)`` appended to ``node._module_calls`` (innermost call
  first). A snapshot then knows which call made every node: the one whose range holds the
  node's sequence number (``minigrad.autograd.snapshot``), so the same ``nn.Linear`` called 12
  times is 12 calls, with no observer attached and two counter reads per call.

Nothing is written into ``grad_fn.metadata``: that dict belongs to the user.
``ModuleScopes`` is a ready-made observer that turns these events into "which module calls
were open when this node was created".
"""

import weakref

from minigrad.autograd import node as _node
from minigrad.autograd import observe
from minigrad.grad_mode import state
from minigrad.tensor import Tensor

__all__ = ["tag_outputs", "call_started", "emit_module_call", "ModuleScopes"]


def call_started():
    """A number from the nodes' sequence counter: nodes made after it have bigger ones."""
    return next(_node._sequence)


def tag_outputs(outputs, path, call=None):
    """Write ``path`` as ``_module_path`` on each tensor of ``outputs`` that has none yet, and
    ``call`` (``(module, start, end)``) on the output nodes that the call made."""
    if isinstance(outputs, Tensor):
        node = outputs.grad_fn
        if "_module_path" not in outputs.__dict__:
            outputs._module_path = path
            # its node keeps the path when the tensor itself is gone
            if node is not None and "_module_path" not in node.__dict__:
                node._module_path = path
        if call is not None and node is not None and call[1] < node._seq < call[2] \
                and call not in node._module_calls:
            node._module_calls = node._module_calls + (call,)
    elif isinstance(outputs, (tuple, list)):
        for out in outputs:
            tag_outputs(out, path, call)
    elif isinstance(outputs, dict):
        for out in outputs.values():
            tag_outputs(out, path, call)


def emit_module_call(module, phase, inputs, outputs=None):
    """Tell the observers (if any) that ``module`` is entered or exited."""
    if state.observers:
        name = module._path or type(module).__name__
        observe.emit("module_call", module=module, name=name, phase=phase, inputs=inputs,
                     outputs=outputs)


class ModuleScopes:
    """An observer that remembers, for each node created while it is attached, the names of
    the module calls that were open (outermost first).

    Example:
        >>> scopes = ModuleScopes()
        >>> model = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
        >>> with scopes:
        ...     y = model(minigrad.ones(1, 2))
        >>> scopes.of(y.grad_fn)
        ('Sequential', '1')
    """

    def __init__(self):
        self.stack = []
        self.scopes = weakref.WeakKeyDictionary()  # node → tuple of module names

    def __call__(self, kind, **fields):
        if kind == "module_call":
            if fields["phase"] == "enter":
                self.stack.append(fields["name"])
            elif self.stack:
                self.stack.pop()
        elif kind == "node_created" and self.stack:
            self.scopes[fields["node"]] = tuple(self.stack)

    def of(self, node):
        """The module names open when ``node`` was created (``()`` if none)."""
        return self.scopes.get(node, ())

    def __enter__(self):
        observe.add_observer(self)
        return self

    def __exit__(self, *exc):
        observe.remove_observer(self)
        self.stack.clear()
        return False
