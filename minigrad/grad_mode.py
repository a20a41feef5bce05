"""Grad modes: whether new operations are recorded into the autograd graph.

``no_grad``, ``enable_grad``, ``set_grad_enabled`` and ``inference_mode`` behave like PyTorch's:

- as context managers (``with minigrad.no_grad(): ...``), restoring the previous mode when the
  block ends, also when it raises;
- as decorators, with or without parentheses (``@minigrad.no_grad()`` and ``@minigrad.no_grad``;
  ``set_grad_enabled`` needs its argument). A decorated generator function runs its body in the
  mode, but the code that iterates over it keeps its own mode between items;
- ``set_grad_enabled(False)`` called as a plain function changes the mode at once.

Results computed while grad mode is off are leaves with ``requires_grad=False``.

As in PyTorch, every mode is per thread: a ``no_grad`` block or a backward pass in one thread
leaves the others as they are, and a new thread starts with grad mode on. ``state`` holds the
switches of the calling thread (one ``threading.local``); read them through the small functions
below (``is_grad_enabled()``...), or ``state.<field>`` on a hot path.
"""

import functools
import inspect
import operator
import threading
import warnings

__all__ = ["no_grad", "enable_grad", "set_grad_enabled", "inference_mode", "is_grad_enabled",
           "is_inference_mode_enabled", "state", "inference_blocks", "inference_tensors_made",
           "set_multithreading_enabled", "is_multithreading_enabled", "grad_off_threads",
           "saved_hooks_open",
           "_unsafe_preserve_version_counter"]

CLASS_DECORATION_WARNING = (
    "Decorating classes is deprecated and will be disabled in future versions. You should only "
    "decorate functions or methods. To preserve the current behavior of class decoration, you "
    "can directly decorate the `__init__` method and nothing else.")


class _State(threading.local):
    """The switches of the calling thread, which the rest of minigrad reads.

    Fields: ``grad_enabled``, ``inference`` (grad modes); ``anomaly``, ``check_nan``,
    ``anomaly_parent`` (anomaly mode, and the node the engine is running while it is on);
    ``backward_pass`` (id of the backward pass running in this thread, or None),
    ``engine_task`` (what ``will_execute`` consults), ``final_callbacks`` (the callbacks queued
    for the end of that pass, or None outside one), ``keep_graph`` (its ``retain_graph``);
    ``observers`` (the observers of this thread's events, see ``minigrad.autograd.observe``);
    ``saved_hooks`` (the stack of ``saved_tensors_hooks`` pairs, innermost last) and
    ``saved_hooks_disabled`` (the message of an open ``disable_saved_tensors_hooks`` block, or
    None), per thread as in PyTorch.
    """

    def __init__(self):  # runs once in every thread that touches ``state``
        self._grad_enabled = True
        self._thread_end = _ThreadEnd()
        self.inference = False
        self.anomaly = False
        self.check_nan = True
        self.anomaly_parent = None
        self.backward_pass = None
        self.engine_task = None
        self.final_callbacks = None
        self.keep_graph = False
        self.observers = []
        self.saved_hooks = []
        self.saved_hooks_disabled = None

    def _set_grad_enabled(self, enabled):
        with _count_lock:  # (``+=`` is no atomic step: two threads could lose one)
            grad_off_threads[0] += (not enabled) - (not self._grad_enabled)
            self._thread_end.grad_off = not enabled
        self._grad_enabled = enabled

    # (attrgetter: a read costs no Python call)
    grad_enabled = property(operator.attrgetter("_grad_enabled"), _set_grad_enabled)


class _ThreadEnd:
    """Kept in each thread's ``state``, and dropped with it when the thread ends: a thread that
    ends with grad mode off is no longer counted in ``grad_off_threads``."""

    __slots__ = ("grad_off",)

    def __init__(self):
        self.grad_off = False

    def __del__(self):
        if self.grad_off:
            with _count_lock:
                grad_off_threads[0] -= 1


# Process-wide counts that spare the hot path a read of ``state`` (a thread-local read costs
# as much as the rest of a small op's bookkeeping): while ``grad_off_threads[0]`` is 0, grad
# mode is on in every thread, so ``not grad_off_threads[0] or state.grad_enabled`` is this
# thread's mode. ``saved_hooks_open`` counts the ``saved_tensors_hooks`` blocks open in any
# thread, in the same way. A count that is too high only costs the hot path a read of
# ``state``; it never gives a wrong mode.
grad_off_threads = [0]
saved_hooks_open = [0]
_count_lock = threading.RLock()  # (reentrant: a _ThreadEnd may be collected while it is held)
state = _State()
# How many inference_mode(True) blocks are open (in any thread): while none is, creating a
# tensor skips the inference-tensor check (Tensor._make reads only this).
inference_blocks = [0]
inference_tensors_made = [False]  # whether any inference_mode(True) block was ever entered


def is_grad_enabled():
    """True when new operations are recorded for autograd.

    Example:
        >>> with minigrad.no_grad():
        ...     minigrad.is_grad_enabled()
        False
    """
    return state.grad_enabled


def is_inference_mode_enabled():
    """True inside ``inference_mode()``."""
    return state.inference


# ---------------------------------------------------------------------------- decorators
def _wrap_generator(make_context, gen_func):
    """Run each step of the generator inside a fresh context; the caller keeps its own mode."""
    @functools.wraps(gen_func)
    def generator_in_context(*args, **kwargs):
        gen = gen_func(*args, **kwargs)
        try:
            with make_context():
                item = gen.send(None)
            while True:
                try:
                    sent = yield item
                except GeneratorExit:
                    with make_context():
                        gen.close()
                    raise
                except BaseException as error:
                    with make_context():
                        item = gen.throw(error)
                else:
                    with make_context():
                        item = gen.send(sent)
        except StopIteration as stop:
            return stop.value
    return generator_in_context


def _wrap_function(make_context, func):
    @functools.wraps(func)
    def function_in_context(*args, **kwargs):
        with make_context():
            return func(*args, **kwargs)
    return function_in_context


class _DecoratorContextManager:
    """A context manager that is also a decorator: ``@mode()`` runs each call in the mode."""

    def __call__(self, func):
        if inspect.isclass(func):  # PyTorch still allows it, with a warning
            warnings.warn(CLASS_DECORATION_WARNING, FutureWarning, stacklevel=2)
            cls = func

            def func(*args, **kwargs):
                return cls(*args, **kwargs)
        wrap = _wrap_generator if inspect.isgeneratorfunction(func) else _wrap_function
        return wrap(self.clone, func)

    def clone(self):
        """A new manager with the same settings (each decorated call uses its own)."""
        return self.__class__()


class _NoParamDecoratorContextManager(_DecoratorContextManager):
    """Also usable without parentheses: ``@no_grad`` is ``@no_grad()``."""

    def __new__(cls, orig_func=None):
        if orig_func is None:
            return super().__new__(cls)
        return cls()(orig_func)


# ---------------------------------------------------------------------------- the modes
class no_grad(_NoParamDecoratorContextManager):
    """Do not record operations: results are leaves that do not require grad.

    Example:
        >>> x = minigrad.ones(2, requires_grad=True)
        >>> with minigrad.no_grad():
        ...     y = x * 2
        >>> y.requires_grad, y.is_leaf
        (False, True)
    """

    def __init__(self):
        self.prev = False

    def __enter__(self):
        self.prev = state.grad_enabled
        state.grad_enabled = False

    def __exit__(self, exc_type, exc_value, traceback):
        state.grad_enabled = self.prev


class enable_grad(_NoParamDecoratorContextManager):
    """Record operations again, e.g. inside a ``no_grad`` block or function.

    Example:
        >>> x = minigrad.ones(2, requires_grad=True)
        >>> with minigrad.no_grad(), minigrad.enable_grad():
        ...     y = x * 2
        >>> y.requires_grad
        True
    """

    def __init__(self):
        self.prev = False

    def __enter__(self):
        self.prev = state.grad_enabled
        state.grad_enabled = True

    def __exit__(self, exc_type, exc_value, traceback):
        state.grad_enabled = self.prev


class set_grad_enabled(_DecoratorContextManager):
    """Switch recording on or off: a plain call takes effect at once; ``with`` and the
    decorator form restore the previous mode afterwards.

    Example:
        >>> _ = minigrad.set_grad_enabled(False)
        >>> minigrad.is_grad_enabled()
        False
        >>> _ = minigrad.set_grad_enabled(True)
    """

    def __init__(self, mode):
        if not isinstance(mode, bool):
            raise TypeError("set_grad_enabled(): argument 'enabled' (position 1) must be bool, "
                            f"not {type(mode).__name__}")
        self.prev = state.grad_enabled
        self.mode = mode
        state.grad_enabled = mode

    def __call__(self, func):
        state.grad_enabled = self.prev  # decorating must not change the mode of the caller
        return super().__call__(func)

    def __enter__(self):
        state.grad_enabled = self.mode

    def __exit__(self, exc_type, exc_value, traceback):
        state.grad_enabled = self.prev

    def __repr__(self):
        return f"minigrad.grad_mode.set_grad_enabled(mode={self.mode})"

    def clone(self):
        return self.__class__(self.mode)


_multithreading = [True]  # process-wide, as PyTorch's engine switch


def is_multithreading_enabled():
    """Whether backward may use worker threads (PyTorch's switch; minigrad's engine always runs
    in the calling thread, so it changes nothing here)."""
    return _multithreading[0]


class set_multithreading_enabled(_DecoratorContextManager):
    """Set ``is_multithreading_enabled()``: at once when called, restored after a ``with``.

    Example:
        >>> with minigrad.autograd.set_multithreading_enabled(False):
        ...     minigrad.autograd.is_multithreading_enabled()
        False
    """

    def __init__(self, mode):
        self.prev, self.mode = _multithreading[0], bool(mode)
        _multithreading[0] = self.mode

    def __enter__(self):
        pass

    def __exit__(self, exc_type, exc_value, traceback):
        _multithreading[0] = self.prev

    def clone(self):
        return self.__class__(self.mode)


class inference_mode(_DecoratorContextManager):
    """Like ``no_grad``, for code whose results will never take part in autograd.

    ``inference_mode(False)`` switches it off again (and turns grad mode on). Tensors created
    inside are *inference tensors* (``t.is_inference()``): outside the block they may not be
    changed in place, require grad or be saved for backward, and have no version counter.

    Example:
        >>> with minigrad.inference_mode():
        ...     minigrad.is_grad_enabled(), minigrad.is_inference_mode_enabled()
        (False, True)
    """

    def __new__(cls, mode=True):
        if mode is None or isinstance(mode, bool):
            return super().__new__(cls)
        return cls()(mode)  # used bare: @inference_mode

    def __init__(self, mode=True):
        self.mode = mode

    def __enter__(self):
        self._prev = (state.grad_enabled, state.inference)
        state.grad_enabled, state.inference = not self.mode, bool(self.mode)
        inference_blocks[0] += 1
        inference_tensors_made[0] = inference_tensors_made[0] or bool(self.mode)

    def __exit__(self, exc_type, exc_value, traceback):
        state.grad_enabled, state.inference = self._prev
        inference_blocks[0] -= 1

    def clone(self):
        return self.__class__(self.mode)


class _unsafe_preserve_version_counter:
    """Within this block, in-place changes of ``tensors`` do not count: their version counters
    are put back on exit, so autograd's checks of saved tensors do not see the changes. Unsafe
    (wrong gradients follow if a saved tensor really changed), as in PyTorch.

    Example:
        >>> x = minigrad.ones(2)
        >>> with minigrad.autograd._unsafe_preserve_version_counter(x):
        ...     _ = x.mul_(2)
        >>> x._version
        0
    """

    def __init__(self, tensors):
        self.tensors = tensors if isinstance(tensors, tuple) else (tensors,)
        self.versions = tuple(t._version_counter[0] for t in self.tensors)

    def __enter__(self):
        return None

    def __exit__(self, *exc):
        from minigrad._C import _unsafe_set_version_counter
        _unsafe_set_version_counter(self.tensors, self.versions)
        return False
