"""Nodes of the backward graph: the objects behind ``tensor.grad_fn``.

A ``Node`` maps the gradients of its forward outputs (``grad_outputs``) to the gradients of its
forward inputs (``grad_inputs``), one per entry of ``next_functions``. Leaves that require grad
are reached through an ``AccumulateGrad`` node, which writes ``.grad``.
"""

import itertools
import re
import sys
import weakref
from typing import NamedTuple

import numpy as np
from numpy import ndarray

from minigrad.autograd import anomaly_mode, forward_ad, observe
from minigrad.grad_mode import state

__all__ = ["Node", "AccumulateGrad", "GraphRoot", "SavedTensor", "RemovableHandle",
           "ERR_BACKWARD_TWICE", "UINT64_MAX", "forward_op_name"]

UINT64_MAX = 2**64 - 1
_sequence = itertools.count()

ERR_BACKWARD_TWICE = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you "
    "call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward "
    "through the graph a second time or if you need to access saved tensors after calling "
    "backward.")


_Tensor = None  # minigrad.tensor.Tensor, bound on first use (tensor.py imports this module)


def _tensor_class():
    global _Tensor
    if _Tensor is None:
        from minigrad.tensor import Tensor
        _Tensor = Tensor
    return _Tensor


def _contains(items, obj):
    """``obj in items`` by identity (``in`` would compare tensors elementwise)."""
    for item in items:
        if item is obj:
            return True
    return False


def _zeros_for_unused(grad_outputs, output_meta):
    """``materialize_grads``: zeros for the tensor outputs that got no gradient (None stays for
    the outputs that were not tensors)."""
    Tensor = _tensor_class()
    return tuple(Tensor._make(np.zeros(shape, dtype)) if g is None and dtype is not None else g
                 for g, (shape, dtype) in zip(grad_outputs, output_meta))


def _trimmed_grads(node, grads, n_args):
    """A backward's gradients cut to one per input: extra trailing Nones are allowed, as in
    PyTorch; any other count is an error."""
    if len(grads) > n_args and all(g is None for g in grads[n_args:]):
        return grads[:n_args]
    raise RuntimeError(f"function {node.name()} returned an incorrect number of gradients "
                       f"(expected {n_args}, got {len(grads)})")


class RemovableHandle:
    """Returned by every ``register_*hook``; ``handle.remove()`` unregisters the hook."""

    _ids = itertools.count()

    def __init__(self, hooks):
        self.hooks = hooks
        self.id = next(RemovableHandle._ids)

    def remove(self):
        self.hooks.pop(self.id, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


def _add_hook(hooks, fn):
    handle = RemovableHandle(hooks)
    hooks[handle.id] = fn
    return handle


def rebuilt_output(node, data, output_nr, counter):
    """A saved output of ``node`` as a tensor again: as PyTorch, a new tensor object each time
    it is unpacked, on the output's array and version counter."""
    tensor = _tensor_class()._make(data, True, node, output_nr)
    tensor._version_counter = counter
    if forward_ad._active:  # forward-over-reverse: the rebuilt output keeps its tangent
        forward_ad.restore_saved_output_tangent(node, output_nr, tensor)
    return tensor


class SavedTensor:
    """A tensor saved for backward, with the version it had when it was saved.

    A saved *output* of the node keeps only its data (the tensor itself would point back to the
    node: a reference cycle) and is rebuilt on unpack, as PyTorch's ``SavedVariable`` does.
    """

    # What most saved tensors never change is a class-level default: saving one sets five fields.
    tensor = None        # the saved tensor (an input; None for an output, or once released)
    data = None          # the array of a saved output
    weak = None          # a weak reference to a saved output
    released = False
    packed = None        # what a pack hook returned (saved_tensors_hooks)
    unpack_hook = None
    origin = None        # the node a hooked tensor's gradient flows to

    def __init__(self, tensor, node, is_output):
        # (A tensor that has no version counter yet, such as a new output, gets its first
        # one here, as Tensor._version_counter makes it, without an exception raised and
        # caught: that costs a microsecond.)
        counter = getattr(tensor, "_vc", None)
        if counter is None:
            counter = tensor._vc = [0]
        self.version_counter, self.version = counter, counter[0]
        self.is_output = is_output
        self.output_nr = tensor._output_nr
        hooks = state.saved_hooks  # this thread's saved_tensors_hooks
        if hooks and hooks[-1] is not None and not tensor._wrapped_number:
            self._pack(tensor, is_output, hooks[-1])  # (a wrapped number is never packed)
        elif is_output:
            self.data = tensor._data
            self.weak = weakref.ref(tensor)
        else:
            self.tensor = tensor

    def _pack(self, tensor, is_output, hooks):
        pack, self.unpack_hook = hooks
        self.packed = run_pack_hook(pack, tensor)
        self.tensor, self.data, self.weak = None, None, None
        self.origin = None if is_output or not tensor._requires_grad else (
            tensor.grad_fn or tensor._grad_accumulator())

    def unpack(self, node):
        if self.released:
            raise RuntimeError(ERR_BACKWARD_TWICE)
        if self.unpack_hook is not None:  # NB: like PyTorch, no version check then
            return self._unpack_hooked(node)
        if self.version_counter[0] != self.version:
            raise RuntimeError(_modified_inplace_message(self, node))
        if not self.is_output:
            return self.tensor
        return rebuilt_output(node, self.data, self.output_nr, self.version_counter)

    def unpack_array(self, node, dtype):
        """``unpack(node)._array_for(dtype)``, for a backward on arrays: a saved output gives
        its array, without the tensor ``unpack`` would make for it."""
        if self.is_output and not self.released and self.unpack_hook is None \
                and self.version_counter[0] == self.version:
            return self.data
        return self.unpack(node)._array_for(dtype)

    def _unpack_hooked(self, node):
        """What ``unpack_hook`` returns, put back where the saved tensor was in the graph: as
        in PyTorch, always a new tensor object."""
        from minigrad.tensor import Tensor
        value = self.unpack_hook(self.packed)
        # What a hook returns may differ from what was saved (a checkpoint's recomputation):
        # the engine checks this node's gradients, summing them to the inputs' shapes.
        node._trusted = False
        if not isinstance(value, Tensor):
            raise TypeError("Output of saved tensor unpack_hook expected to be a Tensor but got "
                            f"result of type {type(value).__name__}")
        origin = node if self.is_output else self.origin
        if origin is None:  # the saved tensor did not require grad
            return value.detach() if value._requires_grad else value
        if isinstance(origin, AccumulateGrad):  # a leaf: a new leaf whose grad goes to it
            out = Tensor._make(value._data, True)
            out._accumulator = weakref.ref(origin)
        else:
            out = Tensor._make(value._data, True, origin, self.output_nr)
        out._version_counter = value._version_counter
        return out

    def register_hooks(self, *hooks):
        """``register_hooks(pack_hook, unpack_hook)``: store this saved tensor as
        ``pack_hook(tensor)`` from now on, and bring it back with ``unpack_hook(packed)`` (see
        ``graph_hooks.register_saved_tensor_hooks``, which checks the arguments as PyTorch)."""
        from minigrad.autograd.graph_hooks import register_saved_tensor_hooks
        register_saved_tensor_hooks(self, *hooks)

    def release(self):
        self.released = True
        self.tensor = self.data = self.packed = self.weak = self.unpack_hook = None


PACK_HOOK_INPLACE = (
    "A saved tensor pack hook is modifying its input in place. Tensors provided as input to "
    "pack hook cannot be modified by in-place operations as this can lead to unexpected "
    "side-effects. Please open an issue if you need to perform in-place operations on the input "
    "to a pack hook.")


def run_pack_hook(pack, tensor):
    """``pack(tensor)`` in no-grad mode, as PyTorch runs it; it may not change ``tensor``."""
    version = tensor._version_counter[0]
    previous, state.grad_enabled = state.grad_enabled, False
    try:
        packed = pack(tensor)
    finally:
        state.grad_enabled = previous
    if tensor._version_counter[0] != version:
        raise RuntimeError(PACK_HOOK_INPLACE)
    return packed


def forward_op_name(node):
    """The forward op PyTorch names in its errors about a node's output: "MulBackward0" ->
    "Mul", "SumBackward1" -> "Sum1"."""
    name = re.sub(r"Backward0?$", "", node.name())
    return re.sub(r"Backward(\d+)$", r"\1", name)


def _modified_inplace_message(saved, node):
    from minigrad._dtype import to_dtype
    data = saved.tensor._data if saved.tensor is not None else saved.data
    shape, tensor_type = list(data.shape), to_dtype(data.dtype).tensor_type
    producer = node if saved.is_output else (saved.tensor.grad_fn if saved.tensor is not None
                                             else None)
    where = f", which is output {saved.output_nr} of {forward_op_name(producer)}," \
        if producer else ""
    if state.anomaly:
        hint = ("Hint: the backtrace further above shows the operation that failed to compute its "
                "gradient. The variable in question was changed in there or anywhere later. "
                "Good luck!")
    else:
        hint = ("Hint: enable anomaly detection to find the operation that failed to compute its "
                "gradient, with minigrad.autograd.set_detect_anomaly(True, check_nan=False).")
    return ("one of the variables needed for gradient computation has been modified by an "
            f"inplace operation: [minigrad.{tensor_type} {shape}]{where} is at version "
            f"{saved.version_counter[0]}; expected version {saved.version} instead. {hint}")


class Node:
    """A step of the backward pass: ``grad_inputs = node(*grad_outputs)``.

    Attributes:
        next_functions: one ``(node, output_nr)`` pair per differentiable forward input;
            ``(None, 0)`` for an input that does not require grad.
        metadata: a dict for the user's notes about this node.
    """

    sequence_nr = None  # class-level override: AccumulateGrad always runs as soon as it is ready
    _trusted = False    # True: apply() returns gradients the engine need not check
    _array_formula = None  # a backward formula the engine may run on arrays (_BuiltinNode)

    # Five fields every node sets when it is made, in slots (fast, and never in a dict that
    # CPython 3.11 may build per node once a class has had many instances):
    # ``_seq``; ``_edges``, kept flat, ``(node0, input_nr0, node1, input_nr1, ...)``, in one
    # tuple (one object for the collector per node instead of one per edge; ``next_functions``
    # builds the pairs when read); ``_output_meta``, the (shape, dtype) of each forward output;
    # and ``_saved_values``/``_saved_versions``: what the node saved for backward, one slot per
    # ``save_for_backward`` argument (see ``_saved``).
    # The rest of a node's state starts as class-level defaults; a node assigns its own only
    # when it has one (most nodes never get hooks).
    __slots__ = ("_seq", "_edges", "_output_meta", "_saved_values", "_saved_versions",
                 "__dict__", "__weakref__")
    _pairs = None  # next_functions, once read
    _saved_as = ()  # the names of the saved tensors (``_saved_<name>``), per class
    _pre_hooks = None
    _post_hooks = None
    _tensor_pre_hooks = None   # {handle id: (output index, hook)} from tensor hooks
    _retained = None           # {output index: weakref to a tensor that retains grad}
    _hooked = False            # True once it has had any of these four (the engine's one test)
    _released_refs = None      # weak references to the tensors of released lean saved slots
    _metadata = None
    _in_refs = None            # weak references to the forward inputs (None: from the edges)
    _out_ref = None            # weak reference to the only forward output (for snapshots)
    _out_refs = ()             # or to each of several outputs (None where not a tensor)
    _uid = None                # the id of this node in snapshots and recordings
    _module_path = None        # the nn.Module whose forward created it (nn/_tracking.py)
    _module_calls = ()         # (module, start, end) of the calls it is an output of

    def __init__(self):
        self._seq = next(_sequence) if self.sequence_nr is None else self.sequence_nr
        self._edges, self._output_meta = (), ()
        self._saved_values = self._saved_versions = None
        if anomaly_mode.enabled_threads[0] and state.anomaly:
            anomaly_mode.store_stack(self)  # the forward stack, kept in metadata["traceback_"]

    @property
    def next_functions(self):
        pairs = self._pairs
        if pairs is None:  # built on first read (snapshots, recordings, the user), then kept
            edges = self._edges
            pairs = self._pairs = tuple(zip(edges[::2], edges[1::2]))
        return pairs

    @next_functions.setter
    def next_functions(self, edges):
        self._edges = tuple([item for edge in edges for item in edge])
        self._pairs = None

    @property
    def _input_refs(self):
        """Weak references to the tensor inputs (for snapshots). A built-in node keeps them
        only when an input is a constant that may still be alive; otherwise they are the
        references of the outputs its edges point at (a leaf: the AccumulateGrad's variable)."""
        refs = self._in_refs
        if refs is not None:
            return refs
        edges, refs = self._edges, []
        for k in range(0, len(edges), 2):
            child = edges[k]
            if child is None:  # a constant: the number this node saved, if it did
                refs.append(self._saved_number_ref())
            elif isinstance(child, AccumulateGrad):
                refs.append(weakref.ref(child.variable))
            else:
                outputs, nr = child._output_refs, edges[k + 1]
                refs.append(outputs[nr] if nr < len(outputs) else None)
        return tuple(refs)

    def _saved_number_ref(self):
        for saved in self._saved or ():
            if saved is not None and saved.tensor is not None and saved.tensor._wrapped_number:
                return weakref.ref(saved.tensor)
        return None

    @_input_refs.setter
    def _input_refs(self, refs):
        self._in_refs = tuple(refs)

    @property
    def _output_refs(self):
        """Weak references to the forward outputs (None for an output that is no tensor)."""
        ref = self._out_ref
        return (ref,) if ref is not None else self._out_refs

    @_output_refs.setter
    def _output_refs(self, refs):
        if len(refs) == 1 and refs[0] is not None:
            self._out_ref, self._out_refs = refs[0], ()
        else:
            self._out_ref, self._out_refs = None, tuple(refs)

    def _output_untracked(self):
        """Whether this is a one-output node that kept no reference to its output (a built-in
        op that nothing watched, ``_link_array``)."""
        return self._out_ref is None and not self._out_refs and len(self._output_meta) == 1

    def _keep_output(self, tensor):
        """Keep a weak reference to ``tensor``, the output of a node that kept none (its
        hooks' events and snapshots name it)."""
        if self._output_untracked():
            self._out_ref = weakref.ref(tensor)

    def name(self):
        """The node's class name, e.g. ``"MulBackward0"``."""
        return type(self).__name__

    def _sequence_nr(self):
        return self._seq

    def _set_sequence_nr(self, sequence_nr):
        """Change where the engine puts this node among the ready ones (higher runs first)."""
        self._seq = sequence_nr

    @property
    def _input_metadata(self):
        """Shape and dtype of each gradient this node takes in (of each forward output)."""
        from minigrad import _dtype
        from minigrad.tensor import Size
        return tuple(InputMetadata(Size(shape), dtype and _dtype.from_numpy_dtype(dtype))
                     for shape, dtype in self._output_meta)

    @property
    def metadata(self):
        if self._metadata is None:
            self._metadata = {}
        return self._metadata

    def register_prehook(self, hook):
        """``hook(grad_outputs) -> tuple or None`` runs before the node and may replace them."""
        if self._pre_hooks is None:
            self._pre_hooks = {}
            self._hooked = True
        return _add_hook(self._pre_hooks, hook)

    def register_hook(self, hook):
        """``hook(grad_inputs, grad_outputs) -> tuple or None`` runs after the node."""
        if self._post_hooks is None:
            self._post_hooks = {}
            self._hooked = True
        return _add_hook(self._post_hooks, hook)

    def _register_tensor_hook(self, index, hook):
        if self._tensor_pre_hooks is None:
            self._tensor_pre_hooks = {}
            self._hooked = True
        return _add_hook(self._tensor_pre_hooks, (index, hook))

    def apply(self, grad_outputs):
        """Return one gradient (or None) per entry of ``next_functions``."""
        raise NotImplementedError

    def __call__(self, *grad_outputs):
        expected = len(self._output_meta)
        if len(grad_outputs) != expected:
            raise TypeError(f"expected {expected} arguments, got {len(grad_outputs)} instead")
        grads = self.apply(grad_outputs)
        return grads[0] if len(grads) == 1 else grads

    def _saved_names(self):
        return self._saved_as

    @property
    def _saved(self):
        """The SavedTensor of each slot (None where None was saved), or None if nothing was.

        A built-in op that no observer or pack hook watches saves leaner: ``_saved_values``
        holds an input tensor itself (its version at save time in ``_saved_versions``), a
        Python number as its 0-d array, and the node's own output as its array (version
        ``_OUTPUT``). Its backward unpacks them directly
        (``BackwardNode.saved_tensors``); anything else that asks gets SavedTensors, made here.
        """
        values, versions = self._saved_values, self._saved_versions
        if versions is not None:  # lean slots: SavedTensors from now on
            released = values is _RELEASED
            if released:  # what is left of the tensors: weak references, if any
                values = self._released_refs or versions
            self._saved_values = values = tuple([
                _lean_slot(self, value, version, released)
                for value, version in zip(values, versions)])
            self._saved_versions = None
        return values

    @_saved.setter
    def _saved(self, saved):
        self._saved_values, self._saved_versions = saved, None

    def release_variables(self):
        values = self._saved_values
        if self._saved_versions is not None:  # lean slots: drop the references they hold,
            if values:                        # but for a picture, weakly, the tensors'
                refs = None
                for k, value in enumerate(values):
                    if value is not None and type(value) is not ndarray:  # a tensor
                        if refs is None:
                            refs = [None] * len(values)
                        refs[k] = weakref.ref(value)
                if refs is not None:
                    self._released_refs = refs
            self._saved_values = _RELEASED
        elif values is not None:
            for saved in values:
                if saved is not None:
                    saved.release()

    def __dir__(self):
        saved = [f"_saved_{n}" for n in self._saved_names()]
        saved += [f"_raw_saved_{n}" for n in self._saved_names()]
        # NB: minigrad's own bookkeeping that merely starts with "_saved_" is not listed, so
        # that dir() shows the saved values PyTorch shows and no others.
        names = {n for n in super().__dir__() if not n.startswith("_saved_")}
        return sorted(names | set(saved))

    def __repr__(self):
        return f"<{type(self).__name__} object at {id(self):#x}>"


_RELEASED = ()  # the _saved_values of a released node with lean slots (versions kept)
_OUTPUT = "output"  # the version of a lean slot that holds the node's output (its array)


def _lean_slot(node, value, version, released):
    """The SavedTensor of a lean slot: ``value`` is an input tensor saved at ``version``, a
    number's 0-d array, the array of the node's output (``version`` is ``_OUTPUT``; its
    counter is ``node._out_counter``, its tensor ``node._out_ref``), or None (nothing saved)."""
    if version is None:
        return None
    saved = _new(SavedTensor)
    if version is _OUTPUT:
        saved.version_counter, saved.version = node._out_counter, 0
        saved.is_output, saved.output_nr, saved.weak = True, 0, node._out_ref
        if released:
            saved.released = True
        else:
            saved.data = value
        return saved
    if released:  # ``value``: a weak reference to the tensor it held, if it was a tensor
        tensor = value() if isinstance(value, weakref.ref) else None
        saved.version, saved.released, saved.is_output = version, True, False
        saved.version_counter = tensor._version_counter if tensor is not None else None
        saved.output_nr = tensor._output_nr if tensor is not None else 0
        return saved
    if type(value) is ndarray:  # a number: a new wrapped-number tensor for it
        from minigrad.ops._util import wrapped_number
        value = wrapped_number(value)
    saved.version_counter, saved.version = value._version_counter, version
    saved.is_output, saved.output_nr, saved.tensor = False, value._output_nr, value
    return saved


_new = object.__new__


class InputMetadata(NamedTuple):
    """``node._input_metadata[i]``: what the node's i-th incoming gradient must look like."""

    shape: tuple
    dtype: object


class AccumulateGrad(Node):
    """The node of a leaf that requires grad: adds the incoming gradient into ``variable.grad``."""

    sequence_nr = UINT64_MAX
    _trusted = True  # it returns no gradient: nothing for the engine to check
    _hooked = True   # (the engine runs a leaf's tensor hooks and remembers its .grad)
    _fresh = None    # (pass id, weak reference to the array of a gradient made for it alone)

    def __init__(self, variable):
        super().__init__()
        self.variable = variable
        self._output_meta = ((variable._data.shape, variable._data.dtype),)

    def name(self):
        return "minigrad::autograd::AccumulateGrad"

    def apply(self, grad_outputs):
        (grad,) = grad_outputs
        variable = self.variable
        notify = observe.notifier() if observe.watching[0] and state.observers else None
        if grad is not None and variable._requires_grad:
            before = variable._grad
            if notify and before is not None:
                before = before.detach().clone()
            variable._grad = _accumulate(variable._grad, grad, self)
            if notify:
                notify("grad_accumulated", pass_id=state.backward_pass, node=self,
                       tensor=variable, before=before, after=variable._grad)
        if variable._post_acc_hooks:  # like PyTorch, also when no gradient arrived
            for hook in list(variable._post_acc_hooks.values()):
                if hook(variable) is not None:
                    raise RuntimeError("Tensor post accumulate grad hooks should return None.")
                if notify:
                    notify("post_accumulate_hook", pass_id=state.backward_pass, node=self,
                           tensor=variable, hook=hook)
        return ()


def _accumulate(held, grad, node=None):
    """The new ``.grad``: in place without ``create_graph``, a differentiable sum with it."""
    if not state.grad_enabled:
        if held is None:
            data = grad._data
            fresh = node._fresh if node is not None else None
            if fresh is not None:
                node._fresh = None  # (made in this pass: not a gradient autograd.grad returned)
                if fresh[0] == state.backward_pass and fresh[1]() is data and \
                        _stealable(node, data):
                    # As PyTorch steals a gradient nobody else holds: no copy.
                    return _tensor_class()._make(data)
            # a copy, in the same memory layout (grad.detach().clone())
            return _tensor_class()._make(data.copy(order="K"))
        held._data += grad._data
        return held
    if held is None:
        # PyTorch copies into a fresh tensor: with create_graph the grad_fn is CopyBackwards.
        from minigrad.factories import zeros_like
        from minigrad.ops.inplace import Copy
        return Copy.apply(zeros_like(grad), grad)
    return held + grad


def _stealable(node, data):
    """Whether ``.grad`` may take ``data``, an array a backward on arrays made for ``node``
    alone (``function.apply_on_arrays``): it owns its memory, may be written, only the
    gradient tensor holds it (the four references: that tensor, ``data`` here and in the
    caller, getrefcount's argument), and no hook or observer can have kept that tensor."""
    return (data.base is None and data.flags.writeable and sys.getrefcount(data) <= 4
            and not state.observers
            and not node._tensor_pre_hooks and not node._pre_hooks and not node._post_hooks
            and not node.variable._hooks)


class GraphRoot(Node):
    """The node that starts a backward pass from several roots at once."""

    def __init__(self, edges, grads):
        super().__init__()
        self.next_functions = tuple(edges)
        self._grads = tuple(grads)

    def name(self):
        return "minigrad::autograd::GraphRoot"

    def apply(self, grad_outputs):
        return self._grads
