"""Forward-mode AD: dual tensors that carry a tangent through every op, as in PyTorch.

Inside ``with dual_level():``, ``make_dual(primal, tangent)`` gives a tensor whose every op also
computes the directional derivative of its result along ``tangent`` (a Jacobian-vector product).
``unpack_dual(y)`` reads it back as ``UnpackedDualTensor(primal, tangent)``. Leaving the level
forgets every tangent; outside a level, ``Function.apply`` pays one flag test and nothing more.

How a tangent crosses one op. Every op already knows its vector-Jacobian product (its
``backward``), written with Tensor ops, so it can itself be differentiated. For a seed ``g``,
``vjp(g) = Jᵀ g`` is linear in ``g``; differentiating ``⟨vjp(g), t⟩`` with respect to ``g``
gives ``J t``, the JVP. This is the "double backward trick": forward mode for every op of minigrad,
including ops written after this file, with no per-op JVP formula. A user's
``autograd.Function`` supplies its own ``jvp(ctx, *tangents)``, as in PyTorch.

Example:
    >>> import minigrad.autograd.forward_ad as fwAD
    >>> with fwAD.dual_level():
    ...     x = fwAD.make_dual(minigrad.tensor([0.0, 1.0]), minigrad.tensor([1.0, 1.0]))
    ...     fwAD.unpack_dual(x.sin()).tangent    # cos(x) · 1
    tensor([1.0000, 0.5403])
"""

import collections
import contextlib
import weakref

import numpy as np

from minigrad.grad_mode import state

__all__ = ["dual_level", "enter_dual_level", "exit_dual_level", "make_dual", "unpack_dual",
           "UnpackedDualTensor"]

UnpackedDualTensor = collections.namedtuple("UnpackedDualTensor", ["primal", "tangent"])
UnpackedDualTensor.__doc__ = """What ``unpack_dual`` returns: the ``primal`` and its ``tangent``."""

_ATTR = "_fw_tangent"   # where a tensor keeps its tangent (in its ``__dict__``)
VIEWS = "_fw_views"     # where a base keeps the views made of it in a level (in its ``__dict__``)

# Read by ``Function.apply`` on every op: True only inside a dual level (and not while this
# module is busy computing a JVP, whose scratch ops must not propagate tangents themselves).
# (Plain globals: a module ``__getattr__`` here would keep CPython 3.11 from caching the
# lookup of ``forward_ad._active``, which every op pays.)
_active = False
_level = None           # the level that is entered (0), or None
_current_level = -1     # PyTorch's name for it: the entered level, or -1
_enabled = True         # ``_set_fwd_grad_enabled``: False stops tangents from propagating
_holders = []           # weak references to the tensors that hold a tangent of that level


# ---------------------------------------------------------------------------- levels
def enter_dual_level():
    """Enter a new forward grad level and return it (PyTorch supports one level at a time)."""
    global _active, _level, _current_level
    if _level is not None:
        raise RuntimeError("Nested forward mode AD is not supported at the moment")
    _level = _current_level = 0
    _active = _enabled
    return _level


def exit_dual_level(*, level=None):
    """Leave the level: every tangent created in it is forgotten."""
    global _active, _level, _current_level
    if level is None:
        level = _level
    if level is None or level < 0:
        raise RuntimeError("Dual level must be a positive number.")
    if level != _level:
        raise RuntimeError("Trying to exit a forward AD level that was not the last one that "
                           "was created. This is not supported.")
    for ref in _holders:
        tensor = ref()
        if tensor is not None:
            tensor.__dict__.pop(_ATTR, None)
    _holders.clear()
    _level, _current_level, _active = None, -1, False


class dual_level:
    """Context manager for forward-mode AD: tangents exist only inside it.

    Example:
        >>> import minigrad.autograd.forward_ad as fwAD
        >>> x = minigrad.tensor(2.0)
        >>> with fwAD.dual_level():
        ...     y = fwAD.make_dual(x, minigrad.tensor(1.0)) ** 3
        ...     fwAD.unpack_dual(y).tangent     # 3x² · 1
        tensor(12.)
        >>> fwAD.unpack_dual(y).tangent is None
        True
    """

    def __enter__(self):
        return enter_dual_level()

    def __exit__(self, *exc):
        exit_dual_level()
        return False


def _is_fwd_grad_enabled():
    """Whether ops propagate tangents (PyTorch's private switch; on by default)."""
    return _enabled


class _set_fwd_grad_enabled:
    """Switch tangent propagation on or off now; as a context manager, switch it back on exit.

    Example:
        >>> import minigrad.autograd.forward_ad as fwAD
        >>> with fwAD._set_fwd_grad_enabled(False):
        ...     fwAD._is_fwd_grad_enabled()
        False
        >>> fwAD._is_fwd_grad_enabled()
        True
    """

    def __init__(self, mode):
        global _enabled, _active
        self.previous = _enabled
        _enabled = bool(mode)
        _active = _enabled and _level is not None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        _set_fwd_grad_enabled(self.previous)
        return False


# ---------------------------------------------------------------------------- dual tensors
def _check_level(level, what):
    if level is None:
        level = _level
    if level is None:
        if what == "make":
            raise RuntimeError("Trying to create a dual Tensor for forward AD but no level "
                               "exists, make sure to enter_dual_level() first.")
        return None
    if level != _level:
        if what == "make":
            raise RuntimeError("Invalid level given to _make_dual")
        return None
    return level


def tangent_of(tensor):
    """The tangent ``tensor`` carries at the current level, or None."""
    return tensor.__dict__.get(_ATTR)


def set_tangent(tensor, tangent):
    """Give ``tensor`` the tangent ``tangent`` at the current level (which must exist)."""
    if _ATTR not in tensor.__dict__:
        _holders.append(weakref.ref(tensor))
    tensor.__dict__[_ATTR] = tangent



@contextlib.contextmanager
def quiet():
    """Run ops on tangents: they propagate no tangents and are hidden from observers."""
    global _active
    saved_observers, state.observers = state.observers, []
    previous, _active = _active, False
    try:
        yield
    finally:
        _active = previous
        state.observers = saved_observers


def _register_views(source, outputs):
    """Remember the views made in a level, so that an in-place change to their base (or to
    another of its views) can refresh their tangents: in PyTorch, the tangent of a view is a
    view of its base's tangent."""
    base = source._base if source._base is not None else source
    views = base.__dict__.get(VIEWS)
    if views is None:
        views = base.__dict__[VIEWS] = weakref.WeakSet()
    for out in outputs:
        if out is not None:
            views.add(out)


def copy_tangent(source, target):
    """Give ``target`` the tangent of ``source``; a no-op outside a dual level.

    For in-place ops, which compute their result out of place (so it gets its tangent like any
    op's output) and then write it into ``target``'s memory: the tangent must follow the values.
    """
    if _level is None:
        return
    tangent = tangent_of(source)
    if tangent is not None:
        set_tangent(target, tangent)
    else:
        target.__dict__.pop(_ATTR, None)


def make_dual(tensor, tangent, *, level=None):
    """A tensor with the values of ``tensor`` that carries ``tangent`` through every op.

    The result shares memory with ``tensor``; when ``tensor`` requires grad it is a view of it,
    so reverse mode still reaches ``tensor`` through it.

    Example:
        >>> import minigrad.autograd.forward_ad as fwAD
        >>> with fwAD.dual_level():
        ...     x = fwAD.make_dual(minigrad.tensor([1.0, 2.0]), minigrad.tensor([1.0, 0.0]))
        ...     fwAD.unpack_dual(x * x).tangent
        tensor([2., 0.])
    """
    _check_level(level, "make")
    if not tensor.is_floating_point():
        raise ValueError(f"Expected primal to be floating point or complex, but got: "
                         f"{tensor.dtype}")
    if not tangent.is_floating_point():
        raise ValueError(f"Expected tangent to be floating point or complex, but got: "
                         f"{tangent.dtype}")
    if tangent.shape != tensor.shape:
        raise RuntimeError(
            "Trying to set a forward gradient that has a different size than that of the "
            f"original Tensor, this is not supported. Tensor is of size {list(tensor.shape)} "
            f"while the given forward gradient is of size {list(tangent.shape)}.")
    if tangent_of(tensor) is not None:
        raise RuntimeError("Making a dual Tensor based on a Tensor that already has a forward "
                           f"gradient at the same level {_level} is not supported.")
    if tangent_of(tangent) is not None:  # (PyTorch's text has no space before the level)
        raise RuntimeError("Setting a forward grad that itself has a forward gradient at the "
                           f"same level{_level} is not supported.")
    dual = _alias(tensor)
    set_tangent(dual, tangent if _same_layout(tensor, tangent) else _relaid(tangent, tensor))
    return dual


def _same_layout(primal, tangent):
    """PyTorch keeps the given tangent only when it lies in memory as the primal does: the
    same storage size, and (unless empty) the same offset and strides of dims longer than 1."""
    if _storage_numel(primal) != _storage_numel(tangent):
        return False
    if primal.numel() == 0:
        return True
    return primal.storage_offset() == tangent.storage_offset() and all(
        a == b or n <= 1 for a, b, n in zip(primal.stride(), tangent.stride(), primal.shape))


def _storage_numel(t):
    return t.untyped_storage().nbytes() // t.element_size()


def _relaid(tangent, primal):
    """A copy of ``tangent`` in a new storage laid out as the primal's."""
    from minigrad.tensor import Tensor
    storage = np.zeros(_storage_numel(primal), dtype=tangent._data.dtype)
    item = storage.itemsize
    view = np.lib.stride_tricks.as_strided(storage[primal.storage_offset():], primal.shape,
                                           [s * item for s in primal.stride()])
    np.copyto(view, tangent._data)
    relaid = Tensor._make(view, False, None, 0)
    relaid.__dict__["_storage"] = storage
    return relaid


def unpack_dual(tensor, *, level=None):
    """Split a dual tensor into ``UnpackedDualTensor(primal, tangent)``.

    ``tangent`` is None for a tensor without one (or outside its level); ``primal`` is a
    tensor without a tangent that shares memory with ``tensor`` (a view when it requires grad).

    Example:
        >>> import minigrad.autograd.forward_ad as fwAD
        >>> with fwAD.dual_level():
        ...     x = fwAD.make_dual(minigrad.tensor(3.0), minigrad.tensor(1.0))
        ...     primal, tangent = fwAD.unpack_dual(x.exp())
        ...     tangent                      # e³ · 1
        tensor(20.0855)
    """
    from minigrad.tensor import Tensor
    if not isinstance(tensor, Tensor):
        raise TypeError(f"_unpack_dual(): argument 'dual' (position 1) must be Tensor, not "
                        f"{type(tensor).__name__}")
    level = _check_level(level, "unpack")
    tangent = tangent_of(tensor) if level is not None else None
    if tangent is None and level is None:
        return UnpackedDualTensor(tensor, None)
    return UnpackedDualTensor(_alias(tensor), tangent)


def _alias(tensor):
    """A new tensor object on the same memory, without tangent (a view if it requires grad)."""
    global _active
    if not (tensor.requires_grad and state.grad_enabled):
        return tensor.detach()
    previous, _active = _active, False
    try:
        return tensor.view_as(tensor)
    finally:
        _active = previous


# ---------------------------------------------------------------------------- propagation
def tangents_of(args):
    """The tangent of each argument (None for a non-tensor or a tensor without one)."""
    from minigrad.tensor import Tensor
    return [tangent_of(a) if isinstance(a, Tensor) else None for a in args]


def propagate(fn_cls, ctx, args, outputs, tangents=None):
    """Give the outputs of one op their tangents; ``Function.apply`` calls this in a level
    (``tangents``: those of ``args``, when read before the outputs were wrapped)."""
    from minigrad.tensor import Tensor
    if fn_cls.is_view:
        _register_views(args[0], outputs)
    if tangents is None:
        tangents = [tangent_of(a) if isinstance(a, Tensor) else None for a in args]
    if all(t is None for t in tangents):
        return
    with quiet():  # scratch graphs stay private
        if fn_cls._forward_on_arrays:
            out_tangents = _jvp_by_double_backward(fn_cls, args, tangents, outputs)
        else:
            versions = [None if t is None else t._version_counter[0] for t in tangents]
            out_tangents = _jvp_of_custom_function(fn_cls, ctx, args, tangents)
            _check_custom_tangents(ctx, args, tangents, outputs, out_tangents, versions)
    for out, tangent in zip(outputs, out_tangents):
        if out is not None and tangent is not None:
            # As PyTorch, an output's tangent is a tensor object of its own (clone, copy_).
            # NB: one that requires grad (reverse over forward) is passed on as it is.
            # (An input changed in place keeps the tangent object its jvp changed in place.)
            if not tangent._requires_grad and any(tangent is t for t in tangents) and \
                    not any(out is d for d in ctx._dirty):
                tangent = Tensor._make(tangent._data if fn_cls.is_view else
                                       tangent._data.copy())
            set_tangent(out, tangent)
    if ctx._saved and any(s is not None and s.is_output for s in ctx._saved):
        set_tangent(ctx, tuple(out_tangents))  # for saved outputs that backward rebuilds


def restore_saved_output_tangent(node, output_nr, tensor):
    """Give a saved output that ``node`` rebuilt in backward its forward tangent back.

    A node keeps only the data of a saved output (holding the tensor would be a reference
    cycle), so when the output itself is gone its tangent must come from the node. This makes
    forward-over-reverse work (e.g. the tangent of a gradient is a Hessian-vector product).
    """
    tangents = node.__dict__.get(_ATTR)
    if tangents is not None and tangents[output_nr] is not None:
        set_tangent(tensor, tangents[output_nr])


def _jvp_of_custom_function(fn_cls, ctx, args, tangents):
    """The user's ``jvp``: as PyTorch, a tensor input without a tangent gets zeros, and
    ``ctx.saved_tensors`` are those given to ``ctx.save_for_forward``."""
    from minigrad.tensor import Tensor
    tangents = [Tensor._make(np.zeros(a._data.shape, a._data.dtype))
                if t is None and isinstance(a, Tensor) and a._data.dtype.kind == "f" else t
                for a, t in zip(args, tangents)]
    ctx._in_jvp = True
    try:
        result = fn_cls.jvp(ctx, *tangents)
    finally:
        ctx._in_jvp = False
    return result if isinstance(result, tuple) else (result,)


def _check_custom_tangents(ctx, args, tangents, outputs, out_tangents, versions):
    """PyTorch's checks of what a user's ``jvp`` returned (``versions``: those of the input
    tangents before it ran: the tangent of a dirty input must have been changed in place)."""
    from minigrad.tensor import Tensor
    if len(out_tangents) != len(outputs):
        raise RuntimeError("Function's jvp returned an invalid number of forward gradients "
                           f"(expected {len(outputs)} but got {len(out_tangents)})")
    bases = [a if a._base is None else a._base for a in args if isinstance(a, Tensor)]
    for position, (out, tangent) in enumerate(zip(outputs, out_tangents)):
        if tangent is None:
            continue
        if not isinstance(out, Tensor) or any(out is n for n in ctx._non_differentiable) or \
                out._data.dtype.kind != "f":
            raise RuntimeError(
                f"Function's jvp returned a gradient at position {position}, but  the "
                "corresponding forward output is not a differentiable Tensor.You should return "
                "None at that position instead.")
        dirty = next((i for i, a in enumerate(args) if a is out), None) \
            if any(d is out for d in ctx._dirty) else None
        if dirty is not None:
            given = tangents[dirty]
            if given is not None and (tangent is not given or
                                      given._version_counter[0] == versions[dirty]):
                raise RuntimeError(
                    "An inplace custom Function is not modifying the forward mode gradients "
                    "inplace. If the forward is modifying an input inplace, then the jvp "
                    "function must modify the corresponding gradient inplace.")
        elif any(out._base is b for b in bases):
            if tangent._base is None:
                raise RuntimeError("A custom Function's forward is returning a view (or an "
                                   "input as-is) but the jvp is not returning a view.")
            _check_view_tangent(out, tangent, args, tangents)
        if tangent.shape != out.shape:
            raise RuntimeError("Trying to set a forward gradient that has a different size than "
                               "that of the original Tensor, this is not supported. Tensor is of "
                               f"size {list(out.shape)} while the given forward gradient is of "
                               f"size {list(tangent.shape)}.")


def _check_view_tangent(out, tangent, args, tangents):
    """The tangent of an output that views an input must view that input's tangent (its base,
    when the input is itself a view), as PyTorch checks."""
    from minigrad.tensor import Tensor
    for arg, given in zip(args, tangents):
        if not isinstance(arg, Tensor) or given is None or \
                (arg if arg._base is None else arg._base) is not out._base:
            continue
        if arg._base is not None and given._base is not None:
            if given._base is not tangent._base:
                raise RuntimeError("A custom Function is returning a view but the jvp is not "
                                   "returning a view of the same base as the given grad input.")
        elif tangent._base is not given:
            raise RuntimeError("A custom Function is returning a view but the jvp is not "
                               "returning a view of the given grad input.")
        return


@contextlib.contextmanager
def paused():
    """A user's ``forward`` runs with forward-mode AD off, as in PyTorch: its ops (in-place
    ones too) leave tangents alone; ``jvp`` computes them afterwards."""
    global _active, _level
    previous = _active, _level
    _active, _level = False, None
    try:
        yield
    finally:
        _active, _level = previous


def _jvp_by_double_backward(fn_cls, args, tangents, outputs):
    """Tangents of ``fn_cls(*args)``'s outputs: d/dg ⟨vjp(g), t⟩ = J t, for each output."""
    from minigrad.autograd.api import grad
    from minigrad.factories import zeros_like
    from minigrad.tensor import Tensor

    grad_mode = state.grad_enabled
    state.grad_enabled = True
    try:
        # Run the op again on fresh stand-ins for the inputs that carry a tangent. A stand-in
        # of an input that requires grad is a view of it, so the tangent stays differentiable
        # (reverse over forward); the op gets a clone, which in-place ops may overwrite.
        inputs, wrt, wrt_tangents = list(args), [], []
        for i, (a, t) in enumerate(zip(args, tangents)):
            if t is None:
                continue
            stand_in = (a.view_as(a) if a.requires_grad and grad_mode
                        else a.detach().requires_grad_())
            inputs[i] = stand_in.clone()
            wrt.append(stand_in)
            wrt_tangents.append(t.to(a.dtype))
        rerun = fn_cls.apply(*inputs)
        rerun = rerun if isinstance(rerun, tuple) else (rerun,)
        live = [j for j, o in enumerate(rerun)
                if isinstance(o, Tensor) and o.requires_grad and o.is_floating_point()]
        result = [None] * len(outputs)
        if not live:
            return result
        seeds = [zeros_like(rerun[j]).requires_grad_() for j in live]
        vjps = grad([rerun[j] for j in live], wrt, seeds, create_graph=True, allow_unused=True)
        used = [(v, t) for v, t in zip(vjps, wrt_tangents) if v is not None and v.requires_grad]
        keep_graph = grad_mode and (any(t.requires_grad for t in wrt_tangents) or any(
            isinstance(a, Tensor) and a.requires_grad for a in args))
        jvps = [None] * len(seeds)
        if used:
            jvps = grad([v for v, _ in used], seeds, [t for _, t in used],
                        create_graph=keep_graph, allow_unused=True)
        for j, seed, jvp in zip(live, seeds, jvps):
            result[j] = zeros_like(seed) if jvp is None else jvp
        return result
    finally:
        state.grad_enabled = grad_mode
