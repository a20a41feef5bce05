"""``minigrad.utils.checkpoint``: trade compute for memory, as ``torch.utils.checkpoint``.

A checkpointed region keeps only its inputs during forward; the tensors its ops would save for
backward are thrown away and computed again (the region's forward runs a second time) when
backward needs them. Two variants, as in PyTorch:

- ``use_reentrant=True``: the region becomes one custom Function (``CheckpointFunctionBackward``
  in the graph) whose backward reruns the region under grad mode and calls ``autograd.backward``
  on it, a backward pass inside the backward pass. It refuses ``autograd.grad`` and
  ``backward(inputs=...)``.
- ``use_reentrant=False``: the region runs normally inside ``saved_tensors_hooks`` whose pack hook
  stores a placeholder; the first unpack reruns the region and hands out the recomputed tensors.
  The graph looks like the uncheckpointed one. Works with ``autograd.grad`` and keyword
  arguments, and checks that the rerun saved as many tensors, of the same shapes and dtypes.

The random generator's state is restored for the rerun (``preserve_rng_state=True``), so dropout
draws the same mask twice.

Example:
    >>> from minigrad.utils.checkpoint import checkpoint
    >>> x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    >>> y = checkpoint(lambda t: (t * t).exp(), x, use_reentrant=False)
    >>> y.sum().backward()
    >>> x.grad
    tensor([  5.4366, 218.3926])
"""

import contextlib
import uuid
import warnings
import weakref

from minigrad import random as _random
from minigrad.autograd.function import Function
from minigrad.autograd.graph_hooks import saved_tensors_hooks
from minigrad.grad_mode import enable_grad, is_grad_enabled, no_grad, state
from minigrad.tensor import Tensor

__all__ = ["checkpoint", "checkpoint_sequential", "CheckpointError", "CheckpointFunction",
           "check_backward_validity", "detach_variable", "set_checkpoint_early_stop",
           "set_checkpoint_debug_enabled"]

_DETERMINISM_CHECKS = ("default", "none")
_early_stop_override = None
_debug_override = None

# NB: PyTorch's tip goes on with advice for torch.compile, which minigrad does not have.
_DEBUG_TIP = (
    "\nTip: To see a more detailed error message, either pass `debug=True` to\n"
    "`torch.utils.checkpoint.checkpoint(...)` or wrap the code block\n"
    "with `with torch.utils.checkpoint.set_checkpoint_debug_enabled(True):` to\n"
    "enable checkpoint\u2011debug mode globally.\n")


class CheckpointError(RuntimeError):
    """The recomputation of a non-reentrant checkpoint did not match the original forward."""


class _StopRecomputation(Exception):
    """Raised inside a rerun once every tensor backward needs has been recomputed."""


def detach_variable(inputs):
    """Detached copies of the tensors of ``inputs`` (a tuple), keeping their ``requires_grad``.

    Example:
        >>> x = minigrad.ones(2, requires_grad=True) * 2
        >>> d, n = detach_variable((x, 3))
        >>> d.requires_grad, d.grad_fn is None, n
        (True, True, 3)
    """
    if not isinstance(inputs, tuple):
        raise RuntimeError("Only tuple of tensors is supported. Got Unsupported input type: "
                           f"{type(inputs).__name__}")
    out = []
    for inp in inputs:
        if isinstance(inp, Tensor):
            detached = inp.detach()
            detached.requires_grad = inp.requires_grad
            inp = detached
        out.append(inp)
    return tuple(out)


def check_backward_validity(inputs):
    """Warn (as PyTorch) when no tensor of ``inputs`` requires grad.

    Example:
        >>> import warnings
        >>> with warnings.catch_warnings(record=True) as w:
        ...     warnings.simplefilter("always")
        ...     check_backward_validity([minigrad.ones(1)])
        >>> str(w[0].message)
        'None of the inputs have requires_grad=True. Gradients will be None'
    """
    if not any(isinstance(t, Tensor) and t.requires_grad for t in inputs):
        warnings.warn("None of the inputs have requires_grad=True. Gradients will be None",
                      stacklevel=3)


@contextlib.contextmanager
def _rng_as_in_forward(saved_state):
    """Run the block with the generator state of the forward, restore the current one after."""
    if saved_state is None:
        yield
        return
    with _random.fork_rng():
        _random.set_rng_state(saved_state)
        yield


def _is_checkpoint_valid():
    """False inside a backward pass that only runs toward given inputs (``autograd.grad``)."""
    task = state.engine_task
    return task is None or task[1] is None


class CheckpointFunction(Function):
    """The reentrant checkpoint: forward without a graph, backward reruns it and backprops."""

    @staticmethod
    def forward(ctx, run_function, preserve_rng_state, *args):
        check_backward_validity(args)
        ctx.run_function = run_function
        ctx.rng_state = _random.get_rng_state() if preserve_rng_state else None
        ctx.inputs = [None if isinstance(a, Tensor) else a for a in args]
        ctx.tensor_indices = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        ctx.save_for_backward(*(a for a in args if isinstance(a, Tensor)))
        with no_grad():
            return run_function(*args)

    @staticmethod
    def backward(ctx, *grad_outputs):
        if not _is_checkpoint_valid():
            raise RuntimeError(
                "When use_reentrant=True, torch.utils.checkpoint is incompatible with .grad() "
                "or passing an `inputs` parameter to .backward(). To resolve this error, you can "
                "either set use_reentrant=False, or call .backward() without passing the "
                "`inputs` argument.")
        inputs = list(ctx.inputs)
        for index, tensor in zip(ctx.tensor_indices, ctx.saved_tensors):
            inputs[index] = tensor
        with _rng_as_in_forward(ctx.rng_state):
            detached = detach_variable(tuple(inputs))
            with enable_grad():
                outputs = ctx.run_function(*detached)
        if isinstance(outputs, Tensor):
            outputs = (outputs,)
        pairs = [(out, grad) for out, grad in zip(outputs, grad_outputs)
                 if isinstance(out, Tensor) and out.requires_grad]
        if not pairs:
            raise RuntimeError("none of output has requires_grad=True, this checkpoint() is not "
                               "necessary")
        from minigrad.autograd import backward
        backward([out for out, _ in pairs], [grad for _, grad in pairs])
        grads = tuple(t.grad if isinstance(t, Tensor) else None for t in detached)
        return (None, None) + grads


class _Holder:
    """What the forward's pack hook stores: the rerun fills ``recomputed[pass id]``."""

    def __init__(self):
        self.recomputed = {}


class _Frame:
    """One non-reentrant checkpointed call: its inputs, placeholders, and reruns per pass."""

    def __init__(self, rerun, early_stop, check):
        self.rerun = rerun
        self.early_stop = early_stop
        self.check = check
        self.holders = []        # weak references, in the order the forward saved tensors
        self.metadata = []       # (shape, dtype) per saved tensor, when checking
        self.counts = {}         # pass id -> tensors saved by that pass's rerun
        self.forward_done = False
        self.ignore_mismatch = False

    def pack(self, tensor):
        holder = _Holder()
        self.holders.append(weakref.ref(holder))
        if self.check:
            self.metadata.append(_metadata(tensor))
        return holder

    def unpack(self, holder):
        pass_id = state.backward_pass if state.backward_pass is not None else uuid.uuid4().int
        if pass_id not in self.counts:
            self._recompute(pass_id)
        if pass_id not in holder.recomputed:
            raise CheckpointError("torch.utils.checkpoint: Unpack is being triggered for a tensor "
                                  "that was already unpacked once. If you are calling "
                                  "ctx.saved_tensors in backward, make sure to do so only once. "
                                  "Otherwise please open an issue with details on your use case.")
        return holder.recomputed.pop(pass_id)

    def _recompute(self, pass_id):
        self.counts[pass_id] = 0

        def pack_again(tensor):
            index = self.counts[pass_id]
            self.counts[pass_id] += 1
            if index >= len(self.holders):
                if not self.forward_done:  # a checkpoint nested in the forward's own rerun
                    self.ignore_mismatch = True
                    return tensor
                raise CheckpointError("torch.utils.checkpoint: trying to save more tensors "
                                      "during recomputation than during the original forward "
                                      "pass.\n" + _DEBUG_TIP)
            holder = self.holders[index]()
            if holder is not None:
                holder.recomputed[pass_id] = tensor.detach() if tensor.requires_grad else tensor
            if self.early_stop and self.counts[pass_id] == len(self.holders):
                raise _StopRecomputation
            return tensor

        try:
            with saved_tensors_hooks(pack_again, lambda tensor: tensor), enable_grad():
                self.rerun()
        except _StopRecomputation:
            pass
        self._check(pass_id)

    def _check(self, pass_id):
        if self.ignore_mismatch:
            return
        if self.counts[pass_id] != len(self.holders):
            raise CheckpointError(
                "torch.utils.checkpoint: A different number of tensors was saved during the "
                "original forward and recomputation.\n"
                f"Number of tensors saved during forward: {len(self.holders)}\n"
                f"Number of tensors saved during recomputation: {self.counts[pass_id]}.\n"
                + _DEBUG_TIP)
        if not self.check:
            return
        different = ""
        for index, ref in enumerate(self.holders):
            holder = ref()
            if holder is None or pass_id not in holder.recomputed:
                continue
            now = _metadata(holder.recomputed[pass_id])
            if now != self.metadata[index]:
                different += (f"tensor at position {index}:\nsaved metadata: "
                              f"{_show(self.metadata[index])}\nrecomputed metadata: {_show(now)}\n")
        if different:
            raise CheckpointError(
                "torch.utils.checkpoint: Recomputed values for the following tensors have "
                f"different metadata than during the forward pass.\n{different}.\n" + _DEBUG_TIP)


def _metadata(tensor):
    return tuple(tensor.shape), tensor.dtype


def _show(meta):
    shape, dtype = meta
    dtype = str(dtype).split(".")[-1]
    return (f"{{'shape': torch.Size({list(shape)}), 'dtype': torch.{dtype}, "
            "'device': device(type='cpu')}")


def _checkpoint_without_reentrant(function, preserve_rng_state, determinism_check, early_stop,
                                  args, kwargs):
    """Run ``function`` with its saved tensors replaced by placeholders that a rerun fills."""
    if determinism_check not in _DETERMINISM_CHECKS:
        raise ValueError(f"determinism_check should be one of {list(_DETERMINISM_CHECKS)}, "
                         f"but got {determinism_check}")
    if not is_grad_enabled():
        return function(*args, **kwargs)
    rng_state = _random.get_rng_state() if preserve_rng_state else None

    def rerun():
        with _rng_as_in_forward(rng_state):
            function(*args, **kwargs)

    if _early_stop_override is not None:
        early_stop = _early_stop_override
    frame = _Frame(rerun, early_stop, determinism_check == "default")
    with saved_tensors_hooks(frame.pack, frame.unpack):
        result = function(*args, **kwargs)
    frame.forward_done = True
    return result


def checkpoint(function, *args, use_reentrant=None, context_fn=None,
               determinism_check="default", debug=False, early_stop=True, **kwargs):
    """Run ``function(*args, **kwargs)`` without keeping its intermediate results for backward.

    Backward runs ``function`` again to get them. Pass ``use_reentrant`` explicitly (PyTorch warns
    otherwise and then uses the reentrant variant); ``use_reentrant=False`` is the recommended
    one. ``preserve_rng_state=False`` (a keyword) skips restoring the random state for the rerun.

    Example:
        >>> calls = []
        >>> def region(t):
        ...     calls.append(1)
        ...     return t.sin() * 2
        >>> x = minigrad.tensor([0.0, 1.0], requires_grad=True)
        >>> y = checkpoint(region, x, use_reentrant=True)
        >>> y.grad_fn.name()
        'CheckpointFunctionBackward'
        >>> y.sum().backward()
        >>> len(calls), x.grad
        (2, tensor([2.0000, 1.0806]))
    """
    if use_reentrant is None:
        warnings.warn(
            "torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly. "
            "Starting in PyTorch 2.9, calling checkpoint without use_reentrant will raise an "
            "exception. use_reentrant=False is recommended, but if you need to preserve the "
            "current default behavior, you can pass use_reentrant=True. Refer to docs for more "
            "details on the differences between the two variants.", stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs and use_reentrant:
        raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
    if use_reentrant:
        if context_fn is not None or debug is not False:
            raise ValueError("Passing `context_fn` or `debug` is only supported when "
                             "use_reentrant=False.")
        return CheckpointFunction.apply(function, preserve, *args)
    # NB: ``context_fn`` and ``debug`` (operator logs) are accepted and ignored: minigrad has no
    # dispatch-level logging to show.
    return _checkpoint_without_reentrant(function, preserve, determinism_check, early_stop,
                                         args, kwargs)


def checkpoint_sequential(functions, segments, input, use_reentrant=None, **kwargs):
    """Run ``functions`` one after the other, checkpointing all but the last of ``segments`` chunks.

    Example:
        >>> model = minigrad.nn.Sequential(minigrad.nn.Linear(2, 2), minigrad.nn.ReLU(),
        ...                                minigrad.nn.Linear(2, 1), minigrad.nn.ReLU())
        >>> x = minigrad.ones(1, 2, requires_grad=True)
        >>> out = checkpoint_sequential(model, 2, x, use_reentrant=False)
        >>> out.shape
        minigrad.Size([1, 1])
    """
    if use_reentrant is None:
        warnings.warn(
            "torch.utils.checkpoint.checkpoint_sequential: the use_reentrant parameter should be "
            "passed explicitly. In version 2.9 we will raise an exception if use_reentrant is "
            "not passed. use_reentrant=False is recommended, but if you need to preserve the "
            "current default behavior, you can pass use_reentrant=True. Refer to docs for more "
            "details on the differences between the two variants.", stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
    if hasattr(functions, "children") and not isinstance(functions, (list, tuple)):
        functions = list(functions.children())

    def run(start, end):
        def segment(x):
            for j in range(start, end + 1):
                x = functions[j](x)
            return x
        return segment

    size = len(functions) // segments
    end = -1
    for start in range(0, size * (segments - 1), size):
        end = start + size - 1
        input = checkpoint(run(start, end), input, use_reentrant=use_reentrant,
                           preserve_rng_state=preserve)
    return run(end + 1, len(functions) - 1)(input)


@contextlib.contextmanager
def set_checkpoint_early_stop(enable):
    """Whether non-reentrant checkpoints created in the block stop their rerun early.

    Example:
        >>> x = minigrad.ones(2, requires_grad=True)
        >>> with set_checkpoint_early_stop(False):
        ...     y = checkpoint(lambda t: t.exp().exp(), x, use_reentrant=False)
        >>> y.sum().backward()
    """
    global _early_stop_override
    previous, _early_stop_override = _early_stop_override, enable
    try:
        yield
    finally:
        _early_stop_override = previous


@contextlib.contextmanager
def set_checkpoint_debug_enabled(enabled):
    """Accepted for PyTorch's API; minigrad's checkpoint errors carry no operator logs.

    Example:
        >>> with set_checkpoint_debug_enabled(True):
        ...     pass
    """
    global _debug_override
    previous, _debug_override = _debug_override, enabled
    try:
        yield
    finally:
        _debug_override = previous
