"""In-place ops (``add_``, ``mul_``, ``zero_``, ``x -= y``, …) and their autograd rules.

An in-place op computes the out-of-place result, writes it into the tensor's own memory (so
views and aliases see it), bumps the version counter shared with them, and — when autograd is
recording — moves the tensor's history onto the op's node, as PyTorch does: after ``y.mul_(2)``,
``y.grad_fn`` is a ``MulBackward0`` whose edge leads to y's previous ``grad_fn``.
"""

import warnings
import weakref

import numpy as np

from minigrad._dtype import can_cast, cast_error, check_scalar, from_numpy_dtype
from minigrad.autograd import allow_mutation, forward_ad, inference, views
from minigrad.autograd.function import _Op
from minigrad.autograd.node import forward_op_name
from minigrad.grad_mode import no_grad, state
from minigrad.ops import arithmetic, combine, compare, pointwise, special, ternary, triangular
from minigrad.ops._util import (
    as_tensor_operand,
    qualified_node_name,
    result_dtype,
    sum_to,
    zero_grad,
)
from minigrad.ops.indexing import (
    OVERLAPPING,
    PARTIAL_OVERLAP,
    CopySlices,
    CopyWhole,
    FillWhole,
    Index,
    IndexBackward,
    IndexPut,
    _Plan,
)
from minigrad.ops.shape import Clone
from minigrad.tensor import Tensor

__all__ = ["inplace", "check_leaf", "check_inplace_shape", "Zero", "Fill", "FillTensor", "Copy",
           "AsStrided", "LEAF_INPLACE", "VIEW_OF_LEAF_INPLACE", "NO_GRAD_VIEW_INPLACE"]

LEAF_INPLACE = "a leaf Variable that requires grad is being used in an in-place operation."
VIEW_OF_LEAF_INPLACE = ("a view of a leaf Variable that requires grad is being used in an "
                        "in-place operation.")
MULTI_OUTPUT_VIEW_INPLACE = (
    "Output {nr} of {op} is a view and is being modified inplace. This view is the output of a "
    "function that returns multiple views. Such functions do not allow the output views to be "
    "modified inplace. You should replace the inplace operation by an out-of-place one.")
NO_GRAD_VIEW_INPLACE = (
    "A view was created in no_grad mode and is being modified inplace with grad mode enabled. "
    "Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify "
    "your code by moving both the view and the inplace either both inside the no_grad block (if "
    "you don't want the inplace to be tracked) or both outside (if you want the inplace to be "
    "tracked).")
EXPANDED_MASKED_FILL = (
    "Use of masked_fill_ on expanded tensors is deprecated. Please clone() the tensor before "
    "performing this operation. This also applies to advanced indexing e.g. tensor[mask] = "
    "scalar")


class Zero(_Op):
    """y = 0;  ∂y/∂x = 0."""

    node_name = "ZeroBackward0"
    formula = ("0 * grad",)

    @staticmethod
    def forward(ctx, x):
        return np.zeros_like(x._data)

    @staticmethod
    def backward(ctx, grad):
        return zero_grad(grad)


class Fill(_Op):
    """y = v everywhere;  ∂y/∂x = 0."""

    node_name = "FillBackward2"
    formula = ("0 * grad",)

    @staticmethod
    def forward(ctx, x, value):
        check_scalar(value, x.dtype)
        return np.full_like(x._data, np.asarray(value).astype(x._data.dtype))  # -1 wraps

    @staticmethod
    def backward(ctx, grad):
        return zero_grad(grad), None


class FillTensor(_Op):
    """y = v everywhere, for a 0-d tensor v;  ∂y/∂x = 0,  ∂y/∂v = Σ grad."""

    node_name = "FillBackward3"
    formula = ("0 * grad", "sum(grad)")

    @staticmethod
    def forward(ctx, x, value):
        if value.ndim:
            raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor "
                               f"with {value.ndim} dimensions.")
        ctx.value_dtype = value.dtype
        return np.full_like(x._data, value._data)

    @staticmethod
    def backward(ctx, grad):
        need_x, need_value = ctx.needs_input_grad
        return (zero_grad(grad) if need_x else None,
                grad.sum().to(ctx.value_dtype) if need_value else None)


class Copy(_Op):
    """y = src (broadcast to x's shape);  ∂y/∂x = 0,  ∂y/∂src = grad summed to src's shape."""

    node_name = "CopyBackwards"
    formula = ("0 * grad", "grad")

    @staticmethod
    def forward(ctx, x, src):
        ctx.src_shape, ctx.src_dtype = src.shape, src.dtype
        try:
            shape = np.broadcast_shapes(x.shape, src.shape)
        except ValueError:
            raise arithmetic.broadcast_error(x, src) from None
        if shape != x.shape:
            raise RuntimeError(f"output with shape {list(x.shape)} doesn't match the broadcast "
                               f"shape {list(shape)}")
        return np.broadcast_to(src._data, x.shape).astype(x._data.dtype)

    @staticmethod
    def backward(ctx, grad):
        need_x, need_src = ctx.needs_input_grad
        return (zero_grad(grad) if need_x else None,
                sum_to(grad, ctx.src_shape).to(ctx.src_dtype) if need_src else None)


# PyTorch writes this node by hand (it is not generated): its name() is qualified.
Copy._backward_cls.name = qualified_node_name


class AsStrided(Index):
    """y = the elements of x that a view covers (as integer indices into x);  ∂y/∂x = grad put
    back there."""

    node_name = "AsStridedBackward0"
    scatter = IndexBackward


def check_leaf(x, through_view=False):
    """PyTorch's errors for an in-place change of an inference tensor outside inference mode,
    and, with grad mode on, of a leaf that requires grad (or of a view of a leaf, of a view made
    under ``no_grad``, or of a view whose kind forbids it: ``autograd.views``)."""
    if x._inference:
        inference.check_inplace(x)
    if not (state.grad_enabled and x._requires_grad):
        base = x._base  # a view made before its base (a leaf) came to require grad
        if state.grad_enabled and base is not None and base._requires_grad and \
                base.grad_fn is None and np.may_share_memory(x._data, base._data):
            raise RuntimeError(VIEW_OF_LEAF_INPLACE)
        return
    if "_creation_meta" in x.__dict__:
        views.check_inplace(x)
    if x.__dict__.get("_no_grad_view"):
        raise RuntimeError(NO_GRAD_VIEW_INPLACE)
    base = x._base
    if x.grad_fn is None:
        view = through_view or (base is not None and base.grad_fn is None)
        raise RuntimeError(VIEW_OF_LEAF_INPLACE if view else LEAF_INPLACE)
    if base is not None and base.grad_fn is None:  # PyTorch: the base is a leaf
        raise RuntimeError(VIEW_OF_LEAF_INPLACE)


def _check_inplace(x):
    if state.grad_enabled and x._requires_grad:  # checked first, as PyTorch does
        base = x._base
        forward_cls = getattr(x.grad_fn, "_forward_cls", None)
        if base is not None and (forward_cls is not None and forward_cls.multi_output_view
                                 or "_multi_view" in x.__dict__):
            raise RuntimeError(MULTI_OUTPUT_VIEW_INPLACE.format(nr=x._output_nr,
                                                                op=forward_op_name(x.grad_fn)))
    check_leaf(x)


def _write(x, result):
    """Copy ``result`` into x's memory, with PyTorch's checks on shape and dtype."""
    data = result._data
    if data.shape != x._data.shape:
        raise RuntimeError(f"output with shape {list(x.shape)} doesn't match the broadcast shape "
                           f"{list(np.broadcast_shapes(data.shape, x._data.shape))}")
    if data.dtype is not x._data.dtype and not can_cast(result.dtype, x.dtype):
        raise cast_error(result.dtype, x.dtype)
    target = x._data
    try:
        np.copyto(target, data, casting="unsafe")
    except ValueError:  # read-only: an expanded view (only a fill gets here: check_overlap)
        if target.size:
            changed = data != target  # the elements a fill writes (masked_fill_: the masked)
            target = _writeable_alias(target)
            if target is None:
                raise RuntimeError(OVERLAPPING) from None
            np.copyto(target, data, casting="unsafe", where=changed)
    x._version_counter[0] += 1


def _writeable_alias(a):
    """A writeable array on the memory of ``a``, a read-only (broadcast) view of a tensor's
    memory: PyTorch fills an expanded view, each memory location once per element that refers
    to it, the last write winning. None when the memory itself is read-only."""
    root = a
    while isinstance(root.base, np.ndarray):
        root = root.base
    if not (root.flags.writeable and root.flags.c_contiguous):
        return None
    offset = a.__array_interface__["data"][0] - root.__array_interface__["data"][0]
    return np.ndarray(a.shape, a.dtype, buffer=root, offset=offset, strides=a.strides)


def _expanded(data):
    """Whether several elements of ``data`` share one memory location (an expanded view)."""
    if 0 not in data.strides:  # (the common case, without a Python loop)
        return False
    return data.size > 1 and any(s == 0 and n > 1 for s, n in zip(data.strides, data.shape))


def check_inplace_shape(x, *args):
    """PyTorch's error for an in-place op whose result would not have x's shape."""
    shapes = [a._data.shape for a in args if isinstance(a, Tensor)]
    try:
        shape = np.broadcast_shapes(x._data.shape, *shapes)
    except ValueError:
        return  # (the op's own broadcasting error comes later)
    if shape != x._data.shape:
        raise RuntimeError(f"output with shape {list(x.shape)} doesn't match the broadcast shape "
                           f"{list(shape)}")


def check_overlap(x, args):
    """PyTorch's memory checks before an in-place op writes x (they come before its shape and
    dtype checks): no element of x is written twice (x is an expanded view), and no input
    overlaps x in part (``x[0].add_(x)``; the same memory with other strides counts)."""
    data = x._data
    if _expanded(data):
        raise RuntimeError(OVERLAPPING)
    for a in args:
        if isinstance(a, Tensor) and a is not x and _partial_overlap(data, a._data):
            raise RuntimeError(PARTIAL_OVERLAP)


def _partial_overlap(a, b):
    """PyTorch's ``get_overlap_status(a, b) == Partial`` on two arrays (dense ones only: for
    others it does not tell)."""
    if a.base is None and b.base is None:  # each owns its memory: the same array, or apart
        return False
    if not (a.size and b.size and np.may_share_memory(a, b) and _dense(a) and _dense(b)):
        return False
    start_a, start_b = a.ctypes.data, b.ctypes.data
    end_a, end_b = start_a + a.nbytes, start_b + b.nbytes
    if (start_a, end_a) == (start_b, end_b):  # the same memory: partial if read differently
        return a.strides != b.strides
    return start_a < end_b and start_b < end_a


def _dense(a):
    return a.flags.c_contiguous or a.flags.f_contiguous


def inplace(x, compute, *args, int_history=False, checked=False):
    """``x ← compute(x, *args)`` in x's memory; returns x.

    When autograd records the op, the node saves a copy of x's old values (PyTorch saves a
    clone of ``self`` for in-place ops that need it) and becomes x's new ``grad_fn``. An integer
    x takes no history, but from the ops PyTorch records there (``int_history``: a fill).
    ``checked``: the caller has run ``_check_inplace(x)`` already (with checks of its own
    that PyTorch makes before the memory checks).
    """
    if not checked:
        _check_inplace(x)
    if compute not in _OWN_CHECKS:
        check_overlap(x, args)
    if allow_mutation.active is not None:
        allow_mutation.before_mutation(x)
    recording = state.grad_enabled and (x._requires_grad or any(
        isinstance(a, Tensor) and a._requires_grad for a in args))
    if recording and x._data.dtype.kind != "f" and not (int_history or compute in _INT_HISTORY):
        recording = False  # an integer x takes no history (but from two ops in PyTorch)
    if recording and not x._requires_grad and x._base is not None:
        views.check_untracked_inplace(x)
    if not recording:
        dual = forward_ad._level is not None
        if dual:
            _read_view_tangent(x)
        if state.grad_enabled:
            with no_grad():
                out = compute(x, *args)
        else:  # (already off: an optimizer's step)
            out = compute(x, *args)
        _write(x, out)
        if dual:  # forward-mode AD: the tangent follows the values
            _write_tangent(x, out)
        return x
    base = x._base
    if base is not None and base.ndim and (not x._data.size or np.may_share_memory(
            x._data, base._data)):  # (an empty view shares no memory, and is a view still)
        _inplace_on_view(x, base, compute, args)
        _share_tangent(base)
        return x
    before = Tensor._make(x._data.copy(), x._requires_grad, x.grad_fn, x._output_nr)
    forward_ad.copy_tangent(x, before)
    out = compute(before, *args)
    _write(x, out)
    forward_ad.copy_tangent(out, x)
    node = out.grad_fn
    set_history(x, node, out._output_nr)
    node._output_refs = (weakref.ref(x),)
    for saved in node._saved or ():
        if saved is not None and saved.is_output:
            saved.data, saved.weak = x._data, weakref.ref(x)
            saved.version_counter, saved.version = x._version_counter, x._version_counter[0]
        elif saved is not None and saved.tensor is before:
            _save_clone(saved, before)
    _renew_views(x)
    _share_tangent(x)
    return x


def _save_clone(saved, before):
    """As PyTorch, an in-place op saves a clone of ``self``'s old values (``self.clone()``,
    recorded: a ``CloneBackward0`` of the old history), not the old tensor itself."""
    clone = Clone.apply(before)
    saved.tensor, saved.version_counter = clone, clone._version_counter
    saved.version, saved.output_nr = clone._version_counter[0], clone._output_nr


def _inplace_on_view(x, base, compute, args):
    """``x ← compute(x, *args)`` for a view ``x``, recorded as PyTorch records it: the base's
    history moves onto a ``CopySlices`` node (the base with the view's elements replaced by the
    op's result), and the view's onto an ``AsStridedBackward0`` of the base.

    NB: PyTorch's CopySlices runs the op's node inside itself, so its edges are the base's old
    history and the op's other inputs; minigrad's CopySlices has the op's node as its second
    edge, and the op reads the view's old values through an AsStridedBackward0 of the old base.
    """
    index = np.unravel_index(_view_positions(base._data, x._data), base.shape)
    before = Tensor._make(base._data.copy(), base._requires_grad, base.grad_fn,
                          base._output_nr)
    forward_ad.copy_tangent(base, before)
    out = compute(AsStrided.apply(before, index), *args)
    _write(x, out)
    plan = _Plan()
    plan.arrays = dict(enumerate(index))
    plan.overlapping = _expanded(x._data)  # PyTorch's backward then refuses to write the view
    new_base = CopySlices.apply(before, out, index, plan)
    forward_ad.copy_tangent(new_base, base)
    set_history(base, new_base.grad_fn, 0)
    base.grad_fn._output_refs = (weakref.ref(base),)
    _renew_views(base, x)
    for saved in out.grad_fn._saved or ():
        if saved is not None and saved.is_output:  # x changes again: PyTorch's version check
            saved.version_counter, saved.version = x._version_counter, x._version_counter[0]
    return x


def rebase_view_history(x, out):
    """``x``, a view, was changed in place by the node of ``out`` (a custom Function with
    ``mark_dirty``): the base's history moves onto a ``CopySlices`` of that node, and x's onto
    an ``AsStridedBackward0`` of the base, as for a built-in in-place op."""
    base = x._base
    index = np.unravel_index(_view_positions(base._data, x._data), base.shape)
    before = Tensor._make(base._data.copy(), base._requires_grad, base.grad_fn,
                          base._output_nr)
    plan = _Plan()
    plan.arrays = dict(enumerate(index))
    plan.overlapping = _expanded(x._data)  # PyTorch's backward then refuses to write the view
    new_base = CopySlices.apply(before, out, index, plan)
    set_history(base, new_base.grad_fn, 0)
    base.grad_fn._output_refs = (weakref.ref(base),)
    _renew_views(base, x)


def set_history(t, node, output_nr):
    """``t`` (changed in place) is now output ``output_nr`` of ``node``. As in PyTorch, a
    ``retain_grad()`` moves with it: ``.grad`` will be that of the new value."""
    old, old_nr = t.grad_fn, t._output_nr
    t._creator, t._output_nr, t._requires_grad = node, output_nr, True
    retained = old._retained if old is not None else None
    if retained and old_nr in retained and retained[old_nr]() is t:
        del retained[old_nr]
        if node._retained is None:
            node._retained = {}
            node._hooked = True
        node._retained[output_nr] = weakref.ref(t)


def _renew_views(base, *changed):
    """After an in-place change to ``base`` (or to its views ``changed``), every view of it
    made in grad mode (one that did not require grad as well: it does now) reads its values
    from the new base: its history becomes an ``AsStridedBackward0`` of the base (PyTorch
    regenerates it the same way, lazily)."""
    if "_inference_views" in base.__dict__:
        inference.base_changed(base, changed)
    views = set(base.__dict__.get("_views", ())).union(changed)
    for view in views:
        if view._data.size and not np.may_share_memory(view._data, base._data):
            continue
        index = np.unravel_index(_view_positions(base._data, view._data), base.shape)
        fresh = AsStrided.apply(base, index)
        forward_ad.copy_tangent(fresh, view)
        set_history(view, fresh.grad_fn, 0)
        fresh.grad_fn._output_refs = (weakref.ref(view),)


# Forward-mode AD when no graph is recorded. As in PyTorch, the tangent of a view is a view of
# its base's tangent: a write through a view gives the base a tangent (zero elsewhere, when it
# had none) and every view of the base sees the change. minigrad keeps one tangent per tensor,
# so the base's tangent is the truth and the views' tangents are refreshed from it.
def _viewed_base(x):
    """x's base when x is a view that shares its memory, else None."""
    base = x._base
    if base is None or not np.may_share_memory(x._data, base._data):
        return None
    return base


def _read_view_tangent(x):
    """Before an in-place op on the view ``x``: its tangent is its base's, at its elements."""
    base = _viewed_base(x)
    if base is not None and forward_ad.tangent_of(base) is not None:
        _share_tangent(base, x)


def _write_tangent(x, out):
    """After ``x ← out``: x (and its base, when x is a view) take the tangent of ``out``; a
    tensor that had a tangent keeps a zero one where ``out`` has none, as in PyTorch."""
    base, tangent = _viewed_base(x), forward_ad.tangent_of(out)
    target = x if base is None else base
    before = forward_ad.tangent_of(target)
    if tangent is None and before is None:
        return
    if tangent is None:
        tangent = Tensor._make(np.zeros(x.shape, before._data.dtype))
    if base is None and before is not None and before.shape == tangent.shape and \
            not before._requires_grad and not tangent._requires_grad:
        # as PyTorch: the tangent is updated in place (the caller's tangent tensor sees it)
        np.copyto(before._data, tangent._data, casting="unsafe")
        before._version_counter[0] += 1
        tangent = before
    if base is not None:
        if before is None:
            before = Tensor._make(np.zeros(base.shape, tangent._data.dtype))
        tangent = _put_tangent(before, _view_positions(base._data, x._data), tangent)
    forward_ad.set_tangent(target, tangent)
    _share_tangent(target, x)


def _share_tangent(base, *views):
    """Every known view of ``base`` (and ``views``) takes the base's tangent at its elements."""
    if forward_ad._level is None:
        return
    tangent = forward_ad.tangent_of(base)
    if tangent is None:
        return
    views = set(views).union(base.__dict__.get("_views", ()),
                             base.__dict__.get(forward_ad.VIEWS, ()))
    for view in views:
        if view is not base and np.may_share_memory(view._data, base._data):
            forward_ad.set_tangent(view, _take_tangent(
                tangent, _view_positions(base._data, view._data)))


def _take_tangent(tangent, positions):
    """``tangent``'s elements at flat ``positions`` (differentiable, for reverse over forward)."""
    with forward_ad.quiet():
        return AsStrided.apply(tangent.reshape(-1), (positions,))


def _put_tangent(tangent, positions, value):
    """``tangent`` with ``value`` written at flat ``positions`` (differentiable)."""
    plan, positions = _Plan(), positions.reshape(-1)
    plan.arrays = {0: positions}
    with forward_ad.quiet():
        flat = CopySlices.apply(tangent.reshape(-1), value.to(tangent.dtype).reshape(-1),
                                (positions,), plan)
        return flat.reshape(tangent.shape)


def _view_positions(base, view):
    """For each element of ``view`` (a NumPy view of ``base``), its flat row-major index in
    ``base``: lay the indices out in memory as ``base`` lays out its elements, then read them
    back through the view's offset and strides."""
    item, as_strided = base.itemsize, np.lib.stride_tricks.as_strided
    span = sum((n - 1) * s for n, s in zip(base.shape, base.strides)) // item + 1
    memory = np.zeros(max(span, 1), np.int64)
    as_strided(memory, base.shape, [s // item * 8 for s in base.strides])[...] = \
        np.arange(base.size).reshape(base.shape)
    start = (view.ctypes.data - base.ctypes.data) // item
    return as_strided(memory[start:], view.shape, [s // item * 8 for s in view.strides]).copy()


# The in-place forms, as used by Tensor methods.
def add_(x, other, alpha=1):
    return inplace(x, arithmetic.add, other, alpha)


def sub_(x, other, alpha=1):
    _check_inplace(x)
    arithmetic._check_sub(x, as_tensor_operand(other, x))  # before the memory checks
    return inplace(x, arithmetic.sub, other, alpha, checked=True)


def mul_(x, other):
    return inplace(x, arithmetic.mul, other)


def div_(x, other, *, rounding_mode=None):
    if rounding_mode is None:
        return inplace(x, arithmetic.div, other)
    return _dividing(x, lambda t, o: arithmetic.div(t, o, rounding_mode=rounding_mode), other)


def floor_divide_(x, other):
    return _dividing(x, arithmetic.FloorDivideInplace.apply, as_tensor_operand(other, x))


def _dividing(x, divide, other):
    """``x ← divide(x, other)`` for a division that may be of integers (floor_divide_,
    remainder_, div_ with a rounding mode): as in PyTorch, the result's shape and dtype are
    checked before the division's own errors (an integer division by zero)."""
    def checked(t, o):
        check_inplace_shape(t, o)
        dtype = from_numpy_dtype(result_dtype(t, as_tensor_operand(o, t)))
        if not can_cast(dtype, t.dtype):
            raise cast_error(dtype, t.dtype)
        return divide(t, o)
    return inplace(x, checked, other)


def pow_(x, exponent):
    return inplace(x, arithmetic.pow, exponent)


def neg_(x):
    return inplace(x, arithmetic.neg)


def zero_(x):
    return inplace(x, Zero.apply)


def fill_(x, value):
    if isinstance(value, Tensor):
        if value.ndim == 0 and _expanded(x._data):  # a tensor value: copy_'s memory check
            raise RuntimeError(OVERLAPPING)
        return inplace(x, FillTensor.apply, value)
    return inplace(x, Fill.apply, value)


def copy_(x, src):
    return inplace(x, Copy.apply, as_tensor_operand(src, x))


def clamp_(x, min=None, max=None):  # noqa: A002 - PyTorch's names
    dtype = pointwise.clamp_dtype(x, min, max)
    if not can_cast(dtype, x.dtype):  # with number bounds, this message names the C++ type
        tensors = isinstance(min, Tensor) or isinstance(max, Tensor)
        raise cast_error(dtype, x.dtype, cpp=not tensors)
    return inplace(x, pointwise.clamp, min, max)


def remainder_(x, other):
    return _dividing(x, arithmetic.remainder, other)


def _compare_(op):
    """``x.eq_(y)``: x takes the comparison's truth values, in its own dtype."""
    return lambda x, other: inplace(x, lambda t, o: _comparison(op, t, o), other,
                                    int_history=True)  # (their nodes: zero gradients)


def _comparison(op, x, other):
    """A comparison that autograd records (PyTorch's ``EqBackward0``… nodes: zero gradients),
    for the in-place forms on tensors that require grad."""
    result = getattr(compare, op)(x, other)
    if state.grad_enabled and (x._requires_grad or (isinstance(other, Tensor)
                                                    and other._requires_grad)):
        node = _COMPARISONS[op, isinstance(other, Tensor)]
        return node.apply(x, as_tensor_operand(other, x), result)
    return result


class ComparisonInplace(_Op):
    """y = (x op other) as 0/1 in x's dtype;  ∂y/∂x = ∂y/∂other = 0."""

    formula = ("0 * grad", "0 * grad")

    @staticmethod
    def forward(ctx, x, other, result):
        ctx.shapes = (x.shape, x._data.dtype), (other.shape, other._data.dtype)
        return result._data.astype(x._data.dtype)

    @staticmethod
    def backward(ctx, grad):
        return (Tensor._make(np.zeros(*ctx.shapes[0])), Tensor._make(np.zeros(*ctx.shapes[1])),
                None)


# PyTorch's nodes: EqBackward0 with a number, EqBackward1 with a tensor (and Ne, Lt, ...)
_COMPARISONS = {(op, tensor): type(f"{op.capitalize()}Inplace{int(tensor)}", (ComparisonInplace,),
                                   {"node_name": f"{op.capitalize()}Backward{int(tensor)}",
                                    "__doc__": ComparisonInplace.__doc__})
                for op in ("eq", "ne", "lt", "le", "gt", "ge") for tensor in (False, True)}


eq_, ne_, lt_, le_, gt_, ge_ = (_compare_(op) for op in ("eq", "ne", "lt", "le", "gt", "ge"))


def clamp_min_(x, min):  # noqa: A002 - PyTorch's name
    return clamp_(x, min, None)


def clamp_max_(x, max):  # noqa: A002 - PyTorch's name
    return clamp_(x, None, max)


def masked_fill_(x, mask, value):
    if _expanded(x._data):
        warnings.warn(EXPANDED_MASKED_FILL, UserWarning, stacklevel=3)
    check_leaf(x)
    combine.check_mask(mask)  # before the shapes, unlike masked_fill
    if _partial_overlap(x._data, mask._data):  # and PyTorch's memory check before them too
        raise RuntimeError(PARTIAL_OVERLAP)
    combine._broadcast_shape(x, mask)  # and x is tensor "a" in the message
    return inplace(x, combine.masked_fill, mask, value)


def _unary(func):
    return lambda x: inplace(x, func)


relu_ = _unary(pointwise.relu)
exp_ = _unary(pointwise.exp)
log_ = _unary(pointwise.log)
sigmoid_ = _unary(pointwise.sigmoid)
tanh_ = _unary(pointwise.tanh)
sqrt_ = _unary(pointwise.sqrt)
abs_ = _unary(pointwise.abs)
sin_ = _unary(pointwise.sin)
cos_ = _unary(pointwise.cos)
sinh_ = _unary(pointwise.sinh)
cosh_ = _unary(pointwise.cosh)
log1p_ = _unary(pointwise.log1p)
sign_ = _unary(pointwise.sign)
reciprocal_ = _unary(arithmetic.reciprocal)
square_ = _unary(pointwise.square)
floor_ = _unary(pointwise.floor)
ceil_ = _unary(pointwise.ceil)
trunc_ = _unary(pointwise.trunc)


erf_ = _unary(special.erf)
erfc_ = _unary(special.erfc)
erfinv_ = _unary(special.erfinv)


def atan2_(x, other):
    return inplace(x, special.atan2, other)


def nan_to_num_(x, nan=0.0, posinf=None, neginf=None):
    return inplace(x, lambda t: special.nan_to_num(t, nan, posinf, neginf, position=1))


def lerp_(x, end, weight):
    return inplace(x, ternary.lerp, end, weight)


def addcmul_(x, tensor1, tensor2, *, value=1):
    return inplace(x, lambda t, a, b: ternary.addcmul(t, a, b, value=value), tensor1, tensor2)


def addcdiv_(x, tensor1, tensor2, *, value=1):
    return inplace(x, lambda t, a, b: ternary.addcdiv(t, a, b, value=value), tensor1, tensor2)


def round_(x, *, decimals=0):
    return inplace(x, lambda t: pointwise.round(t, decimals=decimals))


def tril_(x, diagonal=0):
    return inplace(x, lambda t: triangular.tril(t, diagonal, position=1))


def triu_(x, diagonal=0):
    return inplace(x, lambda t: triangular.triu(t, diagonal, position=1))


__all__ += ["add_", "sub_", "mul_", "div_", "floor_divide_", "pow_", "neg_", "zero_", "fill_",
            "copy_", "clamp_", "clamp_min_", "clamp_max_", "masked_fill_", "remainder_", "eq_",
            "ne_", "lt_", "le_", "gt_", "ge_",
            "relu_", "exp_", "log_", "sigmoid_", "tanh_", "sqrt_", "abs_", "sin_", "cos_",
            "sinh_", "cosh_", "tril_", "triu_", "log1p_", "sign_", "reciprocal_", "square_",
            "round_", "floor_", "ceil_", "trunc_", "erf_", "erfc_", "erfinv_", "atan2_",
            "nan_to_num_", "lerp_", "addcmul_", "addcdiv_"]


# In-place ops after which PyTorch records history on an integer tensor (it then requires grad;
# its sum() raises "Autograd not support dtype").
_INT_HISTORY = (FillTensor.apply, combine.masked_fill)

# Ops whose own checks cover memory overlap (setitem) or that PyTorch lets write an expanded
# view (fills, masked_fill_).
_OWN_CHECKS = (Zero.apply, Fill.apply, FillTensor.apply, combine.masked_fill, CopySlices.apply,
               IndexPut.apply, CopyWhole.apply, FillWhole.apply)
