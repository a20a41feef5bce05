"""``Function``: one differentiable operation, its ``forward`` and ``backward`` side by side.

Every built-in op of minigrad is a ``Function`` subclass, exactly like one a user writes::

    class Exp(Function):
        node_name = "ExpBackward0"

        @staticmethod
        def forward(ctx, x):
            result = np.exp(x._data)
            ...

``Function.apply`` runs ``forward`` and, when grad mode is on and an input requires grad, links
a node of class ``<node_name>`` (``<ClassName>Backward`` for a user's Function) into the graph.
The node *is* the ``ctx`` that ``forward`` saw: what ``forward`` saves, ``backward`` reads.
"""

import functools
import sys
import types
import warnings
import weakref

import numpy as np
from numpy import ndarray  # (a global: reads of np.<name> are not cached by CPython 3.11)

from minigrad._errstate import context_in_use, quiet_call, quiet_run
from minigrad._shared import shared
from minigrad.autograd import _user_function, anomaly_mode, forward_ad, inference, observe
from minigrad.autograd import node as _node
from minigrad.autograd import views as _views
from minigrad.autograd.anomaly_mode import enabled_threads as _anomaly_threads
from minigrad.autograd.node import (
    _OUTPUT,
    _RELEASED,
    AccumulateGrad,
    Node,
    SavedTensor,
    _contains,
    _sequence,
    _tensor_class,
    _trimmed_grads,
    _zeros_for_unused,
    rebuilt_output,
)
from minigrad.autograd.observe import watching as _watching
from minigrad.grad_mode import grad_off_threads as _grad_off_threads
from minigrad.grad_mode import inference_blocks, inference_tensors_made, state
from minigrad.grad_mode import saved_hooks_open as _saved_hooks_open

__all__ = ["Function", "BackwardNode", "FunctionCtx", "InplaceFunction", "NestedIOFunction",
           "once_differentiable", "Error", "add_grads"]


class FunctionCtx:
    """The methods ``forward`` may call on ``ctx``."""

    def save_for_backward(self, *tensors):
        """Keep tensors (or None) for ``backward``; read them back as ``ctx.saved_tensors``."""
        self._to_save = tensors

    def save_for_forward(self, *tensors):
        """Keep tensors for ``jvp`` (forward-mode AD), which reads them as ``ctx.saved_tensors``."""
        if not all(t is None or isinstance(t, _tensor_class()) for t in tensors):
            raise AssertionError("save_for_forward expects all arguments to be tensors; you "
                                 "should save non-tensors as attributes on ctx.")
        self._saved_for_forward = tensors

    def mark_dirty(self, *tensors):
        self._dirty = tensors

    def mark_non_differentiable(self, *tensors):
        self._non_differentiable = tensors

    def set_materialize_grads(self, value):
        self._materialize_grads = bool(value)


class BackwardNode(FunctionCtx, Node):
    """The node a ``Function`` leaves in the graph: it calls the Function's ``backward``."""

    _forward_cls = None
    _to_save = ()
    _dirty = ()
    _non_differentiable = ()
    _materialize_grads = True
    needs_input_grad = ()
    _tensor_positions = ()  # where the tensors are among the arguments of ``forward``

    _saved_for_forward = None
    _in_jvp = False
    _array_dtype = None  # while a built-in backward runs on arrays: the gradient's dtype

    @property
    def saved_tensors(self):
        if self._in_jvp:  # jvp sees only what save_for_forward kept
            return tuple(self._saved_for_forward or ())
        versions = self._saved_versions
        if versions is not None and self._saved_values is not _RELEASED:
            return self._unpack_lean(versions)
        saved = self._saved
        if saved is None:
            return ()
        if self._array_dtype is not None:  # a backward on arrays gets arrays
            dtype, arrays = self._array_dtype, []
            for s in saved:  # (a loop, not a comprehension: one call less per node)
                arrays.append(None if s is None else s.unpack_array(self, dtype))
            return tuple(arrays)
        return tuple([None if s is None else s.unpack(self) for s in saved])

    def _unpack_lean(self, versions):
        """``saved_tensors`` of lean slots (see ``Node._saved``): each tensor as it was saved,
        if no in-place op has changed it since; a number as its array (on arrays) or tensor."""
        dtype, result = self._array_dtype, []
        for value, version in zip(self._saved_values, versions):
            if version is None:
                result.append(None)
            elif type(value) is ndarray:  # a number, or the node's output
                if version is not _OUTPUT:
                    result.append(_numbers.number_array_for(value, dtype) if dtype is not None
                                  else _numbers.wrapped_number(value))
                elif self._out_counter[0]:  # changed in place since (the error, as below)
                    return tuple([None if s is None else s.unpack(self) for s in self._saved])
                else:
                    result.append(value if dtype is not None else rebuilt_output(
                        self, value, 0, self._out_counter))
            elif (getattr(value, "_vc", None) or _UNCHANGED)[0] != version:
                return tuple([None if s is None else s.unpack(self)  # (raises the error)
                              for s in self._saved])
            else:
                result.append(value._array_for(dtype) if dtype is not None else value)
        return tuple(result)

    @property
    def saved_variables(self):
        """Deprecated name of ``saved_tensors``."""
        return _user_function.saved_variables(self)

    def apply(self, grad_outputs):
        if self._materialize_grads and _contains(grad_outputs, None):
            grad_outputs = _zeros_for_unused(grad_outputs, self._output_meta)
        forward_cls, needs = self._forward_cls, self.needs_input_grad
        grads = forward_cls.backward(self, *grad_outputs)
        if not isinstance(grads, tuple):
            grads = (grads,)
        n_args = len(needs)
        if len(grads) != n_args:
            grads = _trimmed_grads(self, grads, n_args)
        if not forward_cls._forward_on_arrays:  # a user's Function: check its results
            _check_user_grads(self, grads)
        return tuple([grads[i] if needs[i] else None for i in self._tensor_positions])

    def __repr__(self):
        if issubclass(self._forward_cls, _Op):
            return Node.__repr__(self)
        return f"<minigrad.autograd.function.{type(self).__name__} object at {id(self):#x}>"


class Function:
    """Base class of differentiable operations: subclass it, write ``forward`` and ``backward``.

    Example:
        >>> class Square(minigrad.autograd.Function):
        ...     @staticmethod
        ...     def forward(ctx, x):
        ...         ctx.save_for_backward(x)
        ...         return x * x
        ...     @staticmethod
        ...     def backward(ctx, grad):
        ...         (x,) = ctx.saved_tensors
        ...         return 2 * x * grad
        >>> Square.apply(minigrad.tensor(3.0, requires_grad=True))
        tensor(9., grad_fn=<SquareBackward>)
    """

    node_name = None     # the class name of the node in the graph
    saved_names = ()     # names for ``node._saved_<name>``, one per saved tensor
    pack_order = None    # the order in which saved tensors are packed, when not as saved
    clear_saved_tensors_on_access = False  # True: ctx.saved_tensors may be read once, and the
    # node lets go of them as it hands them over (PyTorch's memory-saving switch)

    _node_base = None  # the base class of the nodes (BackwardNode; _BuiltinNode for _Op)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        name = cls.__dict__.get("node_name") or f"{cls.__name__}Backward"
        cls._backward_cls = type(name, (cls._node_base or BackwardNode,), {
            "_forward_cls": cls, "_saved_as": tuple(cls.saved_names),
            "__module__": cls.__module__, "__qualname__": name,
            **_saved_slot_properties(cls.saved_names)})
        if cls._forward_on_arrays:  # a built-in op: its values as ``_saved_<name>``
            module = sys.modules.get(cls.__module__)
            add_saved_values([vars(module) if module else {}, {cls.__name__: cls}],
                             cls.__module__)
        else:  # a user's Function: PyTorch's full contract
            cls._backward_cls.apply = _user_function.node_apply
            cls._backward_cls._raw_saved_tensors = property(_user_function.raw_saved_tensors)
            if cls.clear_saved_tensors_on_access:  # (a property of its own: no cost elsewhere)
                cls._backward_cls.saved_tensors = property(_user_function.saved_tensors_once)
            if "apply" not in cls.__dict__:
                cls.apply = classmethod(_user_function.apply)

    def __init__(self, *args, **kwargs):
        warnings.warn(
            f"{self.__class__} should not be instantiated. Methods on autograd functions "
            "are all static, so you should invoke them on the class itself. Instantiating an "
            "autograd function will raise an error in a future version of PyTorch.",
            DeprecationWarning, stacklevel=2)

    def __call__(self, *args, **kwargs):
        raise RuntimeError(
            "Legacy autograd function with non-static forward method is deprecated. Please use "
            "new-style autograd function with static forward method. (Example: "
            "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")

    @staticmethod
    def forward(ctx, *args):
        raise NotImplementedError(
            "You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError(
            "You must implement either the backward or vjp method for your custom "
            "autograd.Function to use it with backward mode AD.")

    vjp = backward  # the other name of ``backward``: a Function may define one of the two

    @staticmethod
    def setup_context(ctx, inputs, output):
        """With it, ``forward`` takes no ctx: it is called as ``setup_context(ctx, inputs,
        output)`` right after ``forward(*inputs)``."""
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def jvp(ctx, *grad_inputs):
        raise NotImplementedError("You must implement the jvp function for custom "
                                  "autograd.Function to use it with forward mode AD.")

    generate_vmap_rule = False  # NB: minigrad's vmap is a loop and needs no rule; kept for the API

    @staticmethod
    def vmap(info, in_dims, *args):
        raise NotImplementedError(
            "To use autograd.Function with vmap, you must either override the vmap staticmethod "
            "or set generate_vmap_rule=True.")

    @classmethod
    def apply(cls, *args):
        if not cls._forward_on_arrays:  # e.g. ``super().apply`` from a user's own ``apply``
            return _user_function.apply(cls, *args)
        Tensor = _tensor_class()
        ctx = cls._backward_cls()
        record = False
        if state.grad_enabled:
            needs = tuple([isinstance(a, Tensor) and a._requires_grad for a in args])
            record = True in needs
            if record and inference_tensors_made[0]:  # only inference tensors: not recorded
                record = inference.records(args, Tensor)
        ctx.needs_input_grad = needs if record else (False,) * len(args)
        outputs = cls.forward(ctx, *args)
        if not record and type(outputs) is ndarray and not cls.is_view \
                and not forward_ad._active:
            return Tensor._make(outputs)  # the common case without a graph: a new array
        return _wrap_outputs(cls, ctx, args, outputs, record, Tensor)

    _forward_on_arrays = False
    is_view = False      # outputs share memory and the version counter with the first input
    multi_output_view = False  # returns several views (split, unbind): none may change in place


def _saved_slot_properties(names):
    """``node._saved_<name>`` and ``node._raw_saved_<name>`` for each saved tensor's name: the
    tensor, unpacked, and its SavedTensor. (Properties, not ``__getattr__``: a class with a
    ``__getattr__`` loses CPython's fast reads of every attribute of its instances.)"""
    properties = {}
    for index, name in enumerate(names):
        properties[f"_saved_{name}"] = property(functools.partial(_saved_slot, index, name))
        properties[f"_raw_saved_{name}"] = property(functools.partial(_raw_saved_slot, index))
    return properties


def _saved_slot(index, name, node):
    saved = node._saved
    if saved is None:  # nothing saved: a value the forward kept under that name, if any
        return _saved_value(name, node)
    slot = saved[index]
    return None if slot is None else slot.unpack(node)


def _raw_saved_slot(index, node):
    saved = node._saved
    if saved is None:
        raise AttributeError(f"'{type(node).__name__}' object has no attribute "
                             f"'_raw_saved_{node._saved_as[index]}'")
    return saved[index]


def _saved_value(name, node):
    """``node._saved_<name>``: what the op's forward kept as ``ctx.<name>`` (PyTorch's saved
    values that are not tensors: ``_saved_alpha``, ``_saved_dim``...)."""
    try:
        return node.__dict__[name]
    except KeyError:
        raise AttributeError(f"'{type(node).__name__}' object has no attribute "
                             f"'_saved_{name}'") from None


def add_saved_values(namespaces, module_name):
    """Give the built-in nodes a ``_saved_<name>`` property for every name that the code in
    ``namespaces`` (a module's or a class's dict, of module ``module_name``) uses as an
    attribute or has as a string: a superset of what the ops keep on ``ctx``. A name a node
    does not have raises AttributeError, as any missing attribute."""
    names, stack = set(), []
    for namespace in namespaces:
        for value in list(namespace.values()):
            if getattr(value, "__module__", None) != module_name:
                continue  # (imported from elsewhere)
            members = list(vars(value).values()) if isinstance(value, type) else (value,)
            for member in members:
                code = getattr(getattr(member, "__func__", member), "__code__", None)
                if isinstance(code, types.CodeType) and code not in _scanned:
                    stack.append(code)
    while stack:
        code = stack.pop()
        _scanned.add(code)
        names.update(n for n in code.co_names if not n.startswith("_"))
        for const in code.co_consts:
            if isinstance(const, types.CodeType):
                stack.append(const)
            elif isinstance(const, str) and const.isidentifier() and const[0] != "_":
                names.add(const)  # (a name given to setattr)
    for name in names:
        key = f"_saved_{name}"
        if not hasattr(_BuiltinNode, key):  # (not over minigrad's own _saved_as...)
            setattr(_BuiltinNode, key, property(functools.partial(_saved_value, name)))


_scanned = set()  # the code objects add_saved_values has read


class _BuiltinNode(BackwardNode):
    """The node of a built-in op: its ``backward`` returns one gradient (or None) per argument
    of ``forward``, each of the right shape and dtype by construction, so the engine does not
    check them (``_trusted``).

    Without ``create_graph`` (grad mode off), the ``backward`` of an op that declares
    ``array_backward`` runs on NumPy arrays: the same formula, with the gradient and the saved
    tensors as arrays (a saved number cast to the gradient's dtype, as the op's forward casts
    it), and each result cast to the dtype of the input it is for (``apply_on_arrays``).
    """

    _trusted = True
    _mixed = True  # an input that requires grad has another dtype than the output (set on link)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        # The formula the engine may run on arrays (without create_graph): the op's backward.
        if cls._forward_cls.array_backward:
            cls._array_formula = staticmethod(cls._forward_cls.backward)

    def apply(self, grad_outputs):
        if len(grad_outputs) == 1:
            grad = grad_outputs[0]
            formula = self._array_formula
            if grad is not None and formula is not None and not state.grad_enabled:
                return quiet_call(apply_on_arrays, self, grad)  # 1/0 = inf, as in the forwards
            missing = grad is None
        else:
            missing = _contains(grad_outputs, None)
        if missing and all(g is None for g in grad_outputs):
            # As PyTorch: no gradient in, none out (a custom backward that returned None
            # leaves the leaves' .grad None, instead of sending zeros on).
            return (None,) * len(self.next_functions)
        if missing and self._materialize_grads:
            return BackwardNode.apply(self, grad_outputs)  # zeros for the missing gradients
        grads = self._forward_cls.backward(self, *grad_outputs)
        if type(grads) is not tuple:
            grads = (grads,)
        needs = self.needs_input_grad
        grads = tuple([grads[i] if needs[i] else None for i in self._tensor_positions])
        if self._mixed:  # mixed dtypes: each gradient in its input's dtype
            return _cast_grads(self, grads)
        return grads


def apply_on_arrays(node, grad, as_arrays=False):
    """``node.apply((grad,))`` on arrays: ``node._array_formula`` (the op's backward) gets the
    array of the gradient (``grad``: a tensor or, from another such node, an array) and reads
    the saved tensors as arrays; each gradient it returns becomes a tensor again, or stays an
    array with ``as_arrays`` (the engine's plain passes: see ``as_tensors``). The caller has
    made NumPy quiet (the engine keeps it so over a run of such nodes)."""
    grad_array = grad if type(grad) is ndarray else grad._data
    node._array_dtype = dtype = grad_array.dtype  # (what ctx.saved_tensors looks at)
    try:
        grads = node._array_formula(node, grad_array)
    finally:
        node._array_dtype = None
    if type(grads) is not tuple:
        grads = (grads,)
    needs, mixed, positions = node.needs_input_grad, node._mixed, node._tensor_positions
    result = []
    for i in positions:
        g = grads[i]
        if g is None or not needs[i]:
            result.append(None)
            continue
        if g is grad_array and not mixed:  # passed through (e.g. by add): what came in
            result.append(grad)
            continue
        if type(g) is not ndarray:  # a NumPy scalar
            g = np.asarray(g)
        if mixed or (g.dtype is not dtype and g.dtype != dtype):
            k = 2 * positions.index(i)  # (the edge of this input: node._edges[k], [k + 1])
            to, input_nr = node._edges[k], node._edges[k + 1]
            want = to._output_meta[input_nr][1] if to is not None else None
            if want is not None and g.dtype is not want and g.dtype != want:
                g = g.astype(want)
        if g.nbytes >= _STEAL_BYTES:
            to = node._edges[2 * positions.index(i)]
            if type(to) is AccumulateGrad:  # a new array for a leaf: .grad may take it
                to._fresh = (state.backward_pass, weakref.ref(g))
        result.append(g if as_arrays else _grad_tensor(g))
    return tuple(result)


def _grad_tensor(array):
    """A gradient array as a tensor (``Tensor._make``, inlined)."""
    t = _new(_node._Tensor)
    t._data, t._requires_grad, t._creator = array, False, None
    t._output_nr, t._grad, t._base, t._vc = 0, None, None, None
    if inference_blocks[0] and state.inference:
        t._inference = True
    return t


def as_tensors(grads):
    """``grads`` with each array (a gradient ``apply_on_arrays`` kept as one) as a tensor: what
    every node but an array formula gets."""
    if type(grads) is tuple:
        for g in grads:
            if type(g) is ndarray:
                break
        else:
            return grads
    return tuple([_grad_tensor(g) if type(g) is ndarray else g for g in grads])


def _cast_grads(node, grads):
    """Each gradient in the dtype of the input it is for (``x * w`` with float32 ``x`` and
    float64 ``w``: ``x``'s gradient is float32), as the engine's check would cast it."""
    result = []
    edges = iter(node._edges)
    for next_node, input_nr, g in zip(edges, edges, grads):
        if g is not None and next_node is not None:
            dtype = next_node._output_meta[input_nr][1]
            if dtype is not None and g._data.dtype != dtype:
                g = g.to(dtype)
        result.append(g)
    return tuple(result)


def add_grads(held, grad):
    """The sum of two gradients for one input (the engine's input buffer, fan-in): without
    ``create_graph``, the arrays added directly (they agree in shape and dtype by the time they
    get here), else the recorded ``held + grad``."""
    Tensor = _node._Tensor or _tensor_class()
    arrays = type(held) is ndarray, type(grad) is ndarray
    if arrays == (True, True):  # (from two array formulas: no grad mode to record in)
        a, b = held, grad
    elif True in arrays:
        return add_grads(*as_tensors((held, grad)))
    elif state.grad_enabled or type(held) is not Tensor or type(grad) is not Tensor:
        return held + grad
    else:
        a, b = held._data, grad._data
    if a.dtype is not b.dtype and a.dtype != b.dtype or a.shape != b.shape:
        held, grad = as_tensors((held, grad))
        return held + grad
    try:  # inf + -inf = nan, quietly, as in PyTorch
        total = np.asarray(quiet_run(np.add, a, b, out=_ARRAY))
    except RuntimeError:  # (the quiet context is in use: see minigrad._errstate)
        total = np.asarray(quiet_call(np.add, a, b, out=_ARRAY))
    return total if arrays[0] else Tensor._make(total)


_new = object.__new__
_UNCHANGED = (0,)  # the version of a tensor that has no version counter yet
_numbers = None  # minigrad.ops._util (wrapped numbers), set there: it imports this module
_STEAL_BYTES = 1 << 16  # a leaf's .grad may take a new gradient this large (a smaller: copied)
# ``out=...`` keeps a 0-d sum a 0-d array, not a NumPy scalar (NumPy >= 2.3)
_ARRAY = ... if np.lib.NumpyVersion(np.__version__) >= "2.3.0" else None
_NO_NEEDS = [(False,) * n for n in range(8)]
_OUTPUT_METAS = {}  # shape: ((shape, dtype),), the _output_meta of a node (its last dtype)
_VERSIONS = {}  # the _saved_versions of lean saved slots
_NEEDS_1 = ((False,), (True,))  # [needs]: needs_input_grad of a one-argument op
_NEEDS_2 = (((False, False), (False, True)), ((True, False), (True, True)))  # [a][b]
_RANGES = [tuple(range(n)) for n in range(8)]  # shared _tensor_positions: every argument a tensor


class _Op(Function):
    """Base of minigrad's built-in ops: ``forward`` gets tensors and returns NumPy arrays.

    Built-in ops share a lean ``apply``: the node is the ``ctx`` (no other object), and the
    common case, one new array from ``forward``, is linked into the graph in one place
    (``_link_array``); everything else goes through the general ``_link``.
    """

    _forward_on_arrays = True
    _node_base = _BuiltinNode
    array_backward = False  # True: ``backward`` also computes on arrays (see _BuiltinNode)

    @classmethod
    def apply(cls, *args):
        Tensor = _node._Tensor or _tensor_class()
        record = False
        if not _grad_off_threads[0] or state.grad_enabled:
            # (the commonest arities: one of the shared tuples, no new object per node)
            if len(args) == 2:
                a, b = args
                needs = _NEEDS_2[isinstance(a, Tensor) and a._requires_grad][
                    isinstance(b, Tensor) and b._requires_grad]
            elif len(args) == 1:
                needs = _NEEDS_1[isinstance(args[0], Tensor) and args[0]._requires_grad]
            else:
                needs = tuple([isinstance(a, Tensor) and a._requires_grad for a in args])
            record = True in needs
            if record and inference_tensors_made[0]:  # only inference tensors: not recorded
                record = inference.records(args, Tensor)
        node_cls = cls._backward_cls
        node = _new(node_cls)  # (Node.__init__ only for a node that joins a graph)
        node._saved_values = node._saved_versions = None  # (Node.__init__, inlined; _edges
        if record:                                        # and _output_meta: set when linked)
            node._seq = next(_sequence)
            if _anomaly_threads[0] and state.anomaly:
                anomaly_mode.store_stack(node)
            node.needs_input_grad = needs
        else:  # the ctx of a computation without a graph (e.g. in a backward formula)
            node._edges = node._output_meta = ()
            node.needs_input_grad = _NO_NEEDS[len(args)] if len(args) < 8 else (
                (False,) * len(args))
        try:  # 1/0 = inf and 0/0 = nan, silently, as in PyTorch (see minigrad._errstate)
            outputs = quiet_run(cls.forward, node, *args)
        except RuntimeError as error:
            if not context_in_use(error):
                raise
            outputs = quiet_call(cls.forward, node, *args)
        if type(outputs) is ndarray and not cls.is_view and not forward_ad._active:
            if not record:
                return Tensor._make(outputs)  # the common case without a graph: a new array
            return _link_array(node, args, outputs, Tensor)  # (built-in ops mark nothing dirty)
        return _wrap_outputs(cls, node, args, outputs, record, Tensor)


def _wrap_outputs(cls, ctx, args, outputs, record, Tensor):
    """The forward's arrays as tensors: linked to ``ctx`` when recorded, views marked, and
    tangents propagated inside a dual level."""
    single = not isinstance(outputs, tuple)
    if single:
        outputs = (outputs,)
    if ctx._dirty:
        _check_dirty(ctx, args, outputs, record)
    if record:
        result = _link(ctx, args, outputs, Tensor)
    else:
        result = tuple([_as_tensor(o, Tensor) for o in outputs])
    if cls.is_view:  # (views of several that a plain tensor gave are marked as well)
        _mark_views(args[0], result, cls.multi_output_view and state.grad_enabled)
    if forward_ad._active:  # forward-mode AD: outputs get tangents (only in a dual level)
        forward_ad.propagate(cls, ctx, args, result)
    return result[0] if single else result


def _link_array(node, args, data, Tensor):
    """``_link`` for the common case: a built-in op returned one new array."""
    edges = []
    dtype = data.dtype
    mixed = constants = skipped = False
    numbers = 0
    for a in args:
        if not isinstance(a, Tensor):  # a number or an option (dim, alpha): no edge
            skipped = True
            continue
        if a._requires_grad:
            fn = a._creator
            edges += (fn, a._output_nr) if fn is not None else (a._grad_accumulator(), 0)
            if a._data.dtype is not dtype:
                mixed = mixed or a._data.dtype != dtype
        else:  # a constant: edge (None, 0)
            edges += _NO_EDGE
            if a._wrapped_number:
                numbers += 1
            else:
                constants = True
    node._edges = tuple(edges)
    if not mixed:
        node._mixed = False
    node._tensor_positions = _RANGES[len(args)] if not skipped and len(args) < 8 else tuple(
        [i for i, a in enumerate(args) if isinstance(a, Tensor)])
    # Snapshots find the inputs through the edges; a constant tensor that may outlive this
    # call needs a weak reference. A lone number needs none: either it dies with this call, or
    # the node saved it and Node._input_refs finds it there.
    watched = _watching[0] and state.observers
    if constants or numbers > 1 or (numbers and watched):
        node._in_refs = _weak_input_refs(node, args, Tensor)
    out = _new(Tensor)  # (Tensor._make, inlined: an op's output)
    out._data, out._requires_grad, out._creator, out._output_nr = data, True, node, 0
    out._grad = out._base = out._vc = None  # (no version counter until one is needed)
    if inference_blocks[0] and state.inference:  # an inference tensor
        out._inference = True
    # One shared tuple per shape (and dtype: see minigrad._shared); the table is keyed by the
    # shape alone, since hashing a dtype costs more than the tuples it would spare.
    shape = data.shape
    meta = _OUTPUT_METAS.get(shape)
    if meta is None or meta[0][1] is not dtype:
        meta = shared(_OUTPUT_METAS, shape, ((shape, dtype),))
    node._output_meta = meta
    to_save = node._to_save
    if to_save:
        if watched or _saved_hooks_open[0]:
            node._saved = _save_all(node, (data,), (out,), Tensor)  # PyTorch's order, checks
        else:  # (without pack hooks, the order of packing is not seen)
            _save_lean(node, to_save, data, out, Tensor)
        node._to_save = ()
    if watched:  # (unwatched, a snapshot finds the output when it needs it)
        node._out_ref = weakref.ref(out)
        observe.node_created(node, (out,))
    return out


def _save_lean(node, to_save, data, out, Tensor):
    """The saved slots of a built-in node that nothing watches (see ``Node._saved``): an input
    tensor and its version, a number as its array, the output as its array (version
    ``_OUTPUT``; the output gets its version counter now, and the node keeps it and a weak
    reference to the output, as a SavedTensor of an output would)."""
    values, versions = [], []
    for t in to_save:
        if t is None:
            values.append(None)
            versions.append(None)
        elif t._wrapped_number if isinstance(t, Tensor) else False:
            values.append(t._data)
            versions.append(0)
        elif isinstance(t, Tensor) and t is not out and not t._inference:
            values.append(t)
            versions.append((getattr(t, "_vc", None) or _UNCHANGED)[0])
        elif t is data:  # the array it returns (relu, exp, tanh): the output
            values.append(data)
            versions.append(_OUTPUT)
            node._out_counter = out._vc = [0]
            node._out_ref = weakref.ref(out)
        else:  # the output tensor, an inference tensor or not a tensor (then their errors)
            node._saved = _save_all(node, (data,), (out,), Tensor)
            return
    versions = tuple(versions)
    node._saved_values = tuple(values)
    node._saved_versions = _VERSIONS.get(versions) or shared(_VERSIONS, versions)


_NO_EDGE = (None, 0)  # the edge of an input that does not require grad


def _weak_input_refs(node, args, Tensor):
    """Weak references to a node's tensor inputs, for snapshots (None for a number that is
    neither saved nor watched by an observer: it dies with the call)."""
    observed = state.observers
    return tuple([None if a._wrapped_number and (a._shared or not observed and not _contains(
        node._to_save, a)) else weakref.ref(a) for a in args if isinstance(a, Tensor)])


def _check_user_grads(node, grads):
    """PyTorch's errors for what a user's ``backward`` may not return: a gradient for an input
    that was not a tensor, or anything but a tensor or None (``...``, a number, a list)."""
    positions = node._tensor_positions
    for i, grad in enumerate(grads):
        if grad is None:
            continue
        if i not in positions:
            raise RuntimeError(f"function {node.name()} returned a gradient different than None "
                               f"at position {i + 1}, but the corresponding forward input was "
                               "not a Variable")
        if not isinstance(grad, _tensor_class()):
            raise RuntimeError(f"expected Variable or None (got {type(grad).__name__})")


DIRTY_NOT_INPUT = ("ctx.mark_dirty() received a tensor that was not an input. Only input "
                   "Tensors that have been mutated should be passed to ctx.mark_dirty().")


def _check_dirty(ctx, args, outputs, record):
    """PyTorch's checks of ``ctx.mark_dirty``: every dirty tensor must be returned, and should
    be an input (a view that is not one is refused when autograd records the call)."""
    for t in ctx._dirty:
        if not _contains(outputs, t):
            raise RuntimeError("Some elements marked as dirty during the forward method were not "
                               "returned as output. The inputs that are modified inplace must "
                               "all be outputs of the Function.")
        if record and not _contains(args, t):  # (unchecked when autograd does not record)
            if t._base is not None:
                raise RuntimeError(DIRTY_NOT_INPUT)
            warnings.warn(DIRTY_NOT_INPUT, UserWarning, stacklevel=4)


def _mark_views(source, outputs, multi=False):
    """Views share their base's version counter: an in-place change to one is seen by all.

    The base also keeps weak references to the views made of it in grad mode, whether they
    require grad or not: an in-place change to the base that autograd records renews their
    history (``_renew_views``), so that a constant's view can come to require grad, as in
    PyTorch. NB: a view made under ``no_grad`` stays as it is (PyTorch raises when its grad_fn
    is read after such a change).
    """
    base = source._base if source._base is not None else source
    if source._inference or state.inference:
        if inference.mark_views(source, base, outputs):
            return  # views of an inference tensor are inference tensors, not views
    views = None
    if state.grad_enabled:
        views = base.__dict__.get("_views")
        if views is None:
            views = base.__dict__["_views"] = weakref.WeakSet()
    no_grad_view = not state.grad_enabled and not state.inference
    # A view of one of several views (unbind, split) may not change in place either.
    source_fn = source._creator
    flags = source.__dict__
    of_multi = multi or "_multi_view" in flags or source_fn is not None and \
        getattr(source_fn, "_forward_cls", _Op).multi_output_view
    # A view (in grad mode) of a view made under no_grad or in inference mode inherits that
    # origin: it may not change in place either (PyTorch propagates the CreationMeta).
    of_untracked = _views.VIEW_OF_VIEW.get(flags.get("_creation_meta") or (
        "no_grad" if "_no_grad_view" in flags else None)) if flags and views is not None \
        else None
    for out in outputs:
        if of_multi:
            out.__dict__["_multi_view"] = True
        if of_untracked:
            out.__dict__["_creation_meta"] = of_untracked
        out._base, out._version_counter = base, base._version_counter
        if views is not None:
            views.add(out)
        elif no_grad_view:  # as in PyTorch: it may not change in place with grad mode on, and
            out.__dict__["_no_grad_view"] = True  # a view of one that requires grad does too
            out._requires_grad = source._requires_grad


def _as_tensor(value, Tensor):
    if type(value) is ndarray or isinstance(value, np.generic):
        return Tensor._make(np.asarray(value))
    return value  # a tensor, or a non-tensor output of a user's Function (passed through)


def link_inputs(ctx, args, Tensor):
    """Point ``ctx`` at the nodes of its tensor inputs (``(None, 0)`` for a constant)."""
    edges, positions, inputs = [], [], []
    for i, a in enumerate(args):
        if isinstance(a, Tensor):
            positions.append(i)
            inputs.append(None if a._wrapped_number and a._shared else weakref.ref(a))
            if not a._requires_grad:
                edges.append(_NO_EDGE)
            elif a._creator is not None:
                edges.append((a._creator, a._output_nr))
            else:
                edges.append((a._grad_accumulator(), 0))
    ctx.next_functions = tuple(edges)
    ctx._tensor_positions = tuple(positions)
    ctx._input_refs = tuple(inputs)


def _link(ctx, args, outputs, Tensor):
    """Make ``ctx`` the grad_fn of the outputs and point it at the inputs' nodes."""
    link_inputs(ctx, args, Tensor)
    if len(outputs) == 1 and type(outputs[0]) is ndarray:  # the common case
        out = Tensor._make(outputs[0], True, ctx, 0)
        result = (out,)
        ctx._out_ref = weakref.ref(out)
        ctx._output_meta = ((out._data.shape, out._data.dtype),)
    else:
        result = _link_outputs(ctx, args, outputs, Tensor)
    if ctx._to_save:
        ctx._saved = _save_all(ctx, outputs, result, Tensor)
    if _watching[0] and state.observers:
        observe.node_created(ctx, result)
    return result


def _link_outputs(ctx, args, outputs, Tensor):
    """The output tensors of ``ctx``, whatever ``forward`` returned for them."""
    result, refs, meta = [], [], []
    for nr, out in enumerate(outputs):
        if type(out) is ndarray:  # a new array from a built-in op
            out = Tensor._make(out, True, ctx, nr)
        else:
            out = _link_output(ctx, nr, out, args, Tensor)
        result.append(out)
        if isinstance(out, Tensor):
            refs.append(weakref.ref(out))
            meta.append((out._data.shape, out._data.dtype))
        else:  # None, or a non-tensor output of a user's Function: never gets a gradient
            refs.append(None)
            meta.append(((), None))
    ctx._output_refs = tuple(refs)
    ctx._output_meta = tuple(meta)
    return tuple(result)


def _link_output(ctx, nr, out, args, Tensor):
    """The tensor for output ``nr`` when ``forward`` did not return a new array."""
    if isinstance(out, np.generic):  # a NumPy scalar
        return Tensor._make(np.asarray(out), True, ctx, nr)
    if not isinstance(out, Tensor):  # None or a non-tensor (a number, a string): as it is
        return out
    if _contains(ctx._non_differentiable, out):
        return out
    if _contains(ctx._dirty, out):
        if out.grad_fn is None and out._requires_grad:
            raise RuntimeError("a leaf Variable that requires grad has been used in an "
                               "in-place operation.")
        out._version_counter[0] += 1
    elif out.grad_fn is not None or out._requires_grad or _contains(args, out):
        out = out._alias()
    out._requires_grad, out._creator, out._output_nr = True, ctx, nr
    return out


def _save_all(ctx, outputs, result, Tensor):
    """The SavedTensors of ``ctx``, packed in PyTorch's order (``pack_order``)."""
    to_save = ctx._to_save
    order = ctx._forward_cls.pack_order or range(len(to_save))
    saved = [None] * len(to_save)
    for i in order:
        if to_save[i] is not None:
            saved[i] = _save(ctx, to_save[i], outputs, result, Tensor)
    ctx._to_save = ()
    return tuple(saved)


def _save(ctx, t, outputs, result, Tensor):
    """``t`` (a tensor, or an array ``forward`` returned) as a SavedTensor of ``ctx``."""
    if t._inference if isinstance(t, Tensor) else False:
        raise RuntimeError(inference.NOT_SAVED)
    if not isinstance(t, Tensor):  # a built-in op saving the array it returns
        for array, tensor in zip(outputs, result):
            if array is t:
                t = tensor
                break
        if not isinstance(t, Tensor):
            i = next(i for i, s in enumerate(ctx._to_save) if s is t)
            raise TypeError("save_for_backward can only save variables, but argument "
                            f"{i} is of type {type(t).__name__}")
    if t._wrapped_number and t._shared:  # a shared number: a tensor of its own
        t = _numbers.wrapped_number(t._data)
    return SavedTensor(t, ctx, _contains(result, t))


class InplaceFunction(Function):
    """A Function that may work in place: ``Function`` plus an ``inplace`` flag."""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace


class NestedIOFunction(Function):
    """PyTorch's legacy base for Functions with nested inputs (kept for its name only)."""


ONCE_DIFFERENTIABLE = ("trying to differentiate twice a function that was marked with "
                       "@once_differentiable")


class Error(Node):
    """The node ``once_differentiable`` puts behind the gradients it returns: differentiating
    them again raises (PyTorch's ``DelayedError``)."""

    def __init__(self, message, values):
        super().__init__()
        self.message = message
        edges, meta, outputs = [], [], []
        for nr, value in enumerate(values):
            if value is None:
                edges.append(_NO_EDGE)
                meta.append(((), None))
                outputs.append(None)
                continue
            leaf = value.detach().requires_grad_()
            edges.append((leaf._grad_accumulator(), 0))
            meta.append((value._data.shape, value._data.dtype))
            outputs.append(_tensor_class()._make(value._data, True, self, nr))
        self.next_functions, self._output_meta = tuple(edges), tuple(meta)
        self.outputs = tuple(outputs)

    def name(self):
        return "minigrad::autograd::Error"

    def apply(self, grad_outputs):
        raise RuntimeError(self.message)


def once_differentiable(backward):
    """Decorate a ``backward`` that cannot itself be differentiated: it runs in no-grad mode,
    and differentiating its results again raises.

    Example:
        >>> class Cube(minigrad.autograd.Function):
        ...     @staticmethod
        ...     def forward(ctx, x):
        ...         ctx.save_for_backward(x)
        ...         return x ** 3
        ...     @staticmethod
        ...     @minigrad.autograd.function.once_differentiable
        ...     def backward(ctx, grad):
        ...         (x,) = ctx.saved_tensors
        ...         return 3 * x ** 2 * grad
        >>> x = minigrad.tensor(2.0, requires_grad=True)
        >>> minigrad.autograd.grad(Cube.apply(x), x)
        (tensor(12.),)
    """
    @functools.wraps(backward)
    def wrapper(ctx, *grads):
        from minigrad.grad_mode import no_grad
        with no_grad():
            outputs = backward(ctx, *grads)
        Tensor = _tensor_class()
        if not state.grad_enabled or not any(
                isinstance(g, Tensor) and g._requires_grad for g in grads):
            return outputs
        single = not isinstance(outputs, tuple)
        outputs = Error(ONCE_DIFFERENTIABLE, (outputs,) if single else outputs).outputs
        return outputs[0] if single else outputs
    return wrapper
