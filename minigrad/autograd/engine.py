"""The backward engine: one loop that runs the graph's nodes in PyTorch's order.

1. Count, for every node reachable from the roots, how many edges point at it.
2. Put the first node in a ready queue with the initial gradients.
3. Pop the ready node created most recently (AccumulateGrad nodes count as newest, so they run
   as soon as they are ready; ties run in the order they became ready). Run its hooks and its
   ``apply``; add each gradient it returns into the input buffer of the node at the other end of
   the edge (this is where fan-in gradients are summed); a node whose count reaches zero
   becomes ready.
4. Free the saved tensors of each node after it ran, unless ``retain_graph``.

With ``inputs``, nodes that lead to none of them are never queued (PyTorch's ``exec_info``),
and built-in nodes send None along the edges to them.
If anything raises, every ``.grad`` the pass wrote is restored before the error propagates.
Every step is reported to the observers of ``minigrad.autograd.observe``.
"""

import heapq
import itertools

from minigrad import grad_mode
from minigrad._errstate import QUIET, quiet_var
from minigrad.autograd import anomaly_mode, observe
from minigrad.autograd.function import BackwardNode, add_grads, apply_on_arrays, as_tensors
from minigrad.autograd.node import AccumulateGrad, GraphRoot
from minigrad.grad_mode import state

__all__ = ["execute", "will_execute"]

_passes = itertools.count(1)  # NB: next() on a count is atomic in CPython: ids unique per process


def execute(roots, grads, keep_graph, create_graph, inputs=None, accumulate_grad=True,
            api="backward"):
    """Run backward from ``roots`` (tensors) seeded with ``grads``.

    With ``inputs`` and ``accumulate_grad=False`` (``autograd.grad``), return the gradients
    flowing into ``inputs`` instead of writing ``.grad``; with ``accumulate_grad=True``
    (``backward(inputs=...)``) only the paths to ``inputs`` run.
    """
    pass_id = next(_passes)
    notify = observe.notifier()
    anomaly = state.anomaly
    graph_root, root_grads = _graph_root(roots, grads)
    dependencies = _count_dependencies(graph_root)
    needed, captures = (_plan(graph_root, inputs, accumulate_grad) if inputs is not None
                        else (None, {}))
    captured = [None] * len(inputs) if inputs is not None else None
    if notify:
        notify("backward_started", pass_id=pass_id, api=api, roots=tuple(roots),
               grads=tuple(grads), graph_root=graph_root, inputs=inputs,
               retain_graph=keep_graph, create_graph=create_graph)
        notify("dependencies", pass_id=pass_id, counts=dict(dependencies), needed=needed)

    # The gradients of the nodes that wait for more (fan-in) or in the ready heap; the node that
    # runs next keeps its own in ``single_grads``.
    buffers = {}
    waiting = {}  # {node with several edges: how many of them have yet to bring a gradient}
    ready = []
    order = itertools.count()
    journal = _GradJournal()
    node = None
    # The switches of this thread (grad_mode.state): another thread's pass keeps its own.
    previous_mode, previous_pass = state.grad_enabled, state.backward_pass
    previous_task, previous_node = state.engine_task, state.anomaly_parent
    previous_callbacks, state.final_callbacks = state.final_callbacks, []
    previous_keep, state.keep_graph = state.keep_graph, keep_graph
    state.grad_enabled, state.backward_pass = create_graph, pass_id
    state.engine_task = (dependencies, needed, captures)
    # As PyTorch's engine: hooks that backward itself enters or leaves (in an unpack hook)
    # do not outlive the pass; the thread's saved_tensors_hooks stack is put back afterwards.
    previous_hooks = state.saved_hooks
    state.saved_hooks = list(previous_hooks)
    # Without create_graph, a built-in node whose formula also runs on arrays gets the array
    # of its gradient (``apply_on_arrays``): PyTorch runs every node in the pass's grad mode.
    on_arrays = not create_graph
    # In a plain pass (no ``inputs``, no anomaly mode, no observer but ``record()``'s), the
    # gradients such nodes make stay arrays on their way to the next one; any other node gets
    # them as tensors.
    as_arrays = on_arrays and (not notify or notify.takes_arrays) and needed is None \
        and not anomaly
    # NumPy's quiet error state (see minigrad._errstate) is entered before the first such node
    # and kept while they follow one another; it is left before any other code runs (hooks,
    # a user's backward, AccumulateGrad, observers: with observers, around each node alone).
    quiet = None

    # ``single``: the one ready node, while no other is ready (a chain), kept out of the heap
    # with its gradients. Without observers, a node that becomes ready when the queue is empty
    # waits there; a second ready node sends it to the heap first, so the order is the heap's.
    single = single_grads = None
    if notify:
        buffers[graph_root] = root_grads
        heapq.heappush(ready, (-graph_root._seq, next(order), graph_root))
        notify.node_ready(pass_id, graph_root, ready)
    else:
        single, single_grads = graph_root, root_grads
    try:
        while True:
            if single is not None:
                node, grads_in, single = single, single_grads, None
                single_grads = None  # (a leaf's .grad may take an array nothing else holds)
            elif ready:
                node = heapq.heappop(ready)[2]
                grads_in = buffers.pop(node)
            else:
                break
            if anomaly:  # nodes created while this one runs get it as metadata["parent_"]
                state.anomaly_parent = node
            if notify:
                notify.node_started(pass_id, node, grads_in, ready)
            if needed is not None and not needed[node]:
                # Only here to capture a gradient of ``inputs``: tensor hooks, then capture.
                quiet = _leave_quiet(quiet)
                grads_in = _tensor_pre_hooks(node, grads_in, journal, notify, pass_id)
                _capture(node, grads_in, captures, captured, notify, pass_id)
                continue
            if captures:
                _capture(node, grads_in, captures, captured, notify, pass_id)
            # (Each ``if`` below skips a call that would find nothing to do: most nodes have
            # no hooks, and only ``autograd.grad`` captures.)
            lean = False  # (True: only a built-in formula ran, no user code but unpack hooks)
            if node._hooked:  # AccumulateGrad, or a node that has (had) hooks or retains grad
                is_leaf = type(node) is AccumulateGrad
                quiet = _leave_quiet(quiet)  # (user code runs in the user's error state)
                if as_arrays:
                    # (the last node's names let go of its gradients first: a leaf's .grad may
                    # take an array that only its gradient tensor holds)
                    grads_out = grad = buffer = None
                    grads_in = as_tensors(grads_in)
                if (node.variable._hooks if is_leaf else node._tensor_pre_hooks) or \
                        node._retained:
                    grads_in = _tensor_pre_hooks(node, grads_in, journal, notify, pass_id)
                if node._pre_hooks:
                    grads_in = _node_pre_hooks(node, grads_in, notify, pass_id)
                if is_leaf:
                    journal.remember(node.variable, in_place=not create_graph)
                grads_out = node.apply(grads_in if type(grads_in) is tuple else tuple(grads_in))
            elif on_arrays and node._array_formula is not None and len(grads_in) == 1 \
                    and grads_in[0] is not None:
                if quiet is None:
                    quiet = quiet_var.set(QUIET)
                grads_out = apply_on_arrays(node, grads_in[0], as_arrays)
                lean = True
                if notify:  # (_leave_quiet, inlined: it runs for every node)
                    quiet_var.reset(quiet)
                    quiet = None
            else:
                quiet = _leave_quiet(quiet)
                if as_arrays:
                    grads_in = as_tensors(grads_in)
                grads_out = node.apply(grads_in if type(grads_in) is tuple else tuple(grads_in))
            if not node._trusted or anomaly:  # (untrusted: an unpack hook ran, user code)
                grads_out = _validate(node, as_tensors(grads_out) if as_arrays else grads_out)
                lean = False
            if needed is not None and _is_builtin(node):
                grads_out = _drop_unneeded(node, grads_out, needed, captures)
            if notify:
                notify.node_ran(pass_id, node, grads_in, grads_out)
            if not lean and node._post_hooks:  # (user code may have added one)
                grads_out = _node_post_hooks(node, grads_out, grads_in, notify, pass_id)
            if not keep_graph and node._saved_values:
                node.release_variables()
                if notify:
                    notify.saved_released(pass_id, node)
            if anomaly and state.check_nan:
                anomaly_mode.raise_if_nan(node, grads_out)
            edges = iter(node._edges)  # flat: (node, input_nr) after (node, input_nr)
            for next_node, input_nr, grad in zip(edges, edges, grads_out):
                if next_node is None:
                    continue
                count = dependencies[next_node]  # (the number of its edges: never changed)
                if count == 1:  # its only edge (a chain): this gradient is all it gets
                    if len(next_node._output_meta) == 1:
                        buffer = (grad,)
                    else:
                        buffer = [None] * len(next_node._output_meta)
                        buffer[input_nr] = grad
                else:  # fan-in: summed in its input buffer until the last edge
                    pending = waiting[next_node] = waiting.get(next_node, count) - 1
                    buffer = buffers.get(next_node)
                    if buffer is None:
                        buffer = buffers[next_node] = [None] * len(next_node._output_meta)
                    if grad is not None:
                        held = buffer[input_nr]
                        buffer[input_nr] = grad if held is None else add_grads(held, grad)
                        if notify and held is not None:
                            notify.grad_summed(pass_id, next_node, input_nr, node, grad,
                                               buffer[input_nr], pending)
                    if pending > 0:
                        continue
                    del buffers[next_node]  # ready: its gradients travel with it
                if needed is not None and not (needed[next_node] or next_node in captures):
                    if notify:  # like PyTorch: a node that does not lead to ``inputs`` is
                        notify("node_skipped", pass_id=pass_id, node=next_node)  # not queued
                    continue
                if notify:
                    buffers[next_node] = buffer
                    heapq.heappush(ready, (-next_node._seq, next(order), next_node))
                    notify.node_ready(pass_id, next_node, ready)
                elif single is None and not ready:
                    single, single_grads = next_node, buffer
                else:
                    if single is not None:  # a second ready node: both go to the heap, in the
                        heapq.heappush(ready, (-single._seq, next(order), single))  # order
                        buffers[single] = single_grads  # they became ready
                        single = None
                    buffers[next_node] = buffer
                    heapq.heappush(ready, (-next_node._seq, next(order), next_node))
        quiet = _leave_quiet(quiet)
        node = None
        callbacks = state.final_callbacks  # queue_callback: run once the graph is done,
        while callbacks:                   # in the pass's grad mode; they may queue more
            callbacks.pop(0)()
    except BaseException as error:
        _leave_quiet(quiet)
        journal.rollback()
        if notify:
            notify("error", pass_id=pass_id, node=node, error=error, message=str(error))
        if node is not None and state.anomaly:
            anomaly_mode.warn_error(node)  # the forward trace of the failing node
        raise
    finally:
        with grad_mode._count_lock:  # (blocks entered or left in the pass: not any more)
            grad_mode.saved_hooks_open[0] += len(previous_hooks) - len(state.saved_hooks)
        state.grad_enabled, state.backward_pass = previous_mode, previous_pass
        state.engine_task, state.anomaly_parent = previous_task, previous_node
        state.saved_hooks, state.final_callbacks = previous_hooks, previous_callbacks
        state.keep_graph = previous_keep
    if notify:
        notify("backward_finished", pass_id=pass_id)
    return captured


class _ExecutionEngine:
    """What ``Variable._execution_engine`` is in PyTorch, for its one public use: callbacks
    queued during a backward pass, run when that pass (in this thread) has finished."""

    @staticmethod
    def queue_callback(callback):
        if state.final_callbacks is None:
            raise RuntimeError("Final callbacks can only be installed during backward pass.")
        state.final_callbacks.append(callback)


execution_engine = _ExecutionEngine()


def _leave_quiet(token):
    """Leave NumPy's quiet error state if ``token`` (from ``quiet_var.set``) says the pass
    entered it; None either way."""
    if token is not None:
        quiet_var.reset(token)


def edge_of(tensor):
    """The (node, input_nr) through which gradient flows into ``tensor``'s history."""
    if isinstance(tensor, tuple):  # a GradientEdge already
        return tensor
    if tensor.grad_fn is not None:
        return tensor.grad_fn, tensor._output_nr
    return tensor._grad_accumulator(), 0


def _graph_root(roots, grads):
    if len(roots) == 1:
        node, input_nr = edge_of(roots[0])
        buffer = [None] * len(node._output_meta)
        buffer[input_nr] = grads[0]
        return node, buffer
    node = GraphRoot([edge_of(t) for t in roots], grads)
    return node, []


def _count_dependencies(root):
    """For every node reachable from ``root``: the number of edges that point at it."""
    dependencies = {root: 0}
    stack = [root]
    while stack:
        for child in stack.pop()._edges[::2]:
            if child is None:
                continue
            if child in dependencies:
                dependencies[child] += 1
            else:
                dependencies[child] = 1
                stack.append(child)
    return dependencies


def _plan(root, inputs, accumulate_grad):
    """Which nodes must run to reach ``inputs``, and where their gradients are captured."""
    targets = {}
    captures = {}
    for position, tensor in enumerate(inputs):
        node, input_nr = edge_of(tensor)
        if accumulate_grad:
            targets[node] = True
        else:
            captures.setdefault(node, []).append((input_nr, position))
    needed = {}
    # Iterative post-order walk: a node is needed if any child is a target, captured or needed.
    stack = [(root, iter(root.next_functions))]
    visited = {root}
    while stack:
        node, children = stack[-1]
        for child, _ in children:
            if child is not None and child not in visited:
                visited.add(child)
                stack.append((child, iter(child.next_functions)))
                break
        else:
            stack.pop()
            needed[node] = targets.get(node, False) or any(
                child is not None and (needed.get(child) or child in captures)
                for child, _ in node.next_functions)
    return needed, captures


def _capture(node, grads, captures, captured, notify, pass_id):
    for input_nr, position in captures.get(node, ()):
        captured[position] = grads[input_nr]
        if notify:
            notify("grad_captured", pass_id=pass_id, node=node, index=input_nr,
                   position=position, grad=grads[input_nr])


def _is_builtin(node):
    return isinstance(node, BackwardNode) and node._forward_cls._forward_on_arrays


def _drop_unneeded(node, grads, needed, captures):
    """With ``inputs``, a built-in node gives None on an edge that leads to none of them.

    PyTorch's generated nodes skip such a gradient (``should_compute_output``), so post-hooks
    see None there; a custom Function's gradients pass unchanged, as in PyTorch.
    NB: minigrad's ops compute the gradient and drop it here.
    """
    return tuple(None if child is not None and not (needed[child] or child in captures)
                 else grad for (child, _), grad in zip(node.next_functions, grads))


def will_execute(node):
    """Whether the running backward pass will run ``node`` (``_will_engine_execute_node``)."""
    if state.engine_task is None:
        raise RuntimeError("_will_engine_execute_node should only be called during the backward "
                           "pass")
    dependencies, needed, captures = state.engine_task
    if node not in dependencies:
        return False
    if needed is None:
        return True
    if isinstance(node, AccumulateGrad) and node in captures:
        raise RuntimeError("A leaf node was passed to _will_engine_execute_node but we are "
                           "currently running autograd.grad(). This is currently not supported.")
    return needed[node] or node in captures


def _hook_name(hook):
    return getattr(hook, "__name__", "<unknown>")


def _check_hook_value(hook, original, result):
    """PyTorch's checks on a gradient a hook returned in place of ``original``."""
    from minigrad.tensor import Tensor
    if result is None:
        return
    if original is None:
        raise RuntimeError("can't replace a None gradient with a non-None value")
    if not isinstance(result, Tensor):
        raise TypeError(f"expected Variable, but hook returned '{type(result).__name__}'")
    if result._data.dtype != original._data.dtype:
        raise RuntimeError(f"hook '{_hook_name(hook)}' has changed the type of value (was "
                           f"minigrad.{original.dtype.tensor_type} got "
                           f"minigrad.{result.dtype.tensor_type})")
    if result.shape != original.shape:
        raise RuntimeError(f"hook '{_hook_name(hook)}' has changed the size of value")


def _check_hook_tuple(hook, originals, result):
    if not isinstance(result, tuple):
        raise TypeError(f"expected tuple, but hook returned '{type(result).__name__}'")
    if len(result) != len(originals):
        raise RuntimeError(f"hook '{_hook_name(hook)}' has returned an incorrect number of "
                           f"values (got {len(result)}, but expected {len(originals)})")
    for original, value in zip(originals, result):
        _check_hook_value(hook, original, value)
    return result


def _tensor_pre_hooks(node, grads, journal, notify, pass_id):
    """Tensor hooks of the tensors this node produced (or of its leaf), then retain_grad."""
    if isinstance(node, AccumulateGrad):
        hooks = node.variable._hooks
        hooks = [(0, h) for h in hooks.values()] if hooks else ()
    else:
        hooks = node._tensor_pre_hooks.values() if node._tensor_pre_hooks else ()
    if hooks:
        grads = list(grads)
        for index, hook in list(hooks):
            grad = grads[index]
            result = hook(grad)  # like PyTorch, also when no gradient arrived (grad is None)
            if result is not None:
                _check_hook_value(hook, grad, result)
                grads[index] = result
            if notify:
                notify("tensor_hook", pass_id=pass_id, node=node, index=index,
                       tensor=_tensor_of(node, index), hook=hook, grad_in=grad,
                       grad_out=grads[index])
    if node._retained:
        for index, ref in list(node._retained.items()):
            tensor = ref()
            if tensor is None or grads[index] is None:
                continue
            journal.remember(tensor, in_place=False)
            grad = grads[index]
            tensor._grad = grad.clone() if tensor._grad is None else tensor._grad + grad
            if notify:
                notify("grad_retained", pass_id=pass_id, node=node, index=index, tensor=tensor,
                       grad=tensor._grad)
    return grads


def _tensor_of(node, index):
    """The tensor whose gradient enters ``node`` at ``index``, if it is still alive."""
    if isinstance(node, AccumulateGrad):
        return node.variable
    refs = node._output_refs
    return refs[index]() if index < len(refs) and refs[index] is not None else None


def _node_pre_hooks(node, grads, notify, pass_id):
    if not node._pre_hooks:
        return grads
    for hook in list(node._pre_hooks.values()):
        result = hook(tuple(grads))
        if result is not None:
            _check_hook_tuple(hook, grads, result)
        if notify:
            notify("node_pre_hook", pass_id=pass_id, node=node, hook=hook,
                   grads_in=tuple(grads), grads_out=result if result is not None else tuple(grads))
        if result is not None:
            grads = list(result)
    return grads


def _node_post_hooks(node, grads_out, grads_in, notify, pass_id):
    if not node._post_hooks:
        return grads_out
    for hook in list(node._post_hooks.values()):
        result = hook(tuple(grads_out), tuple(grads_in))
        if result is not None:
            _check_hook_tuple(hook, grads_out, result)
        if notify:
            notify("node_post_hook", pass_id=pass_id, node=node, hook=hook,
                   grad_inputs=tuple(grads_out), grad_outputs=tuple(grads_in), result=result)
        if result is not None:
            grads_out = result
    return grads_out


def _validate(node, grads):
    """Check the node returned one gradient per edge, each of the shape and dtype expected."""
    edges = node.next_functions
    if len(grads) != len(edges):
        raise RuntimeError(f"Function {node.name()} returned an invalid number of gradients - "
                           f"expected {len(edges)}, but got {len(grads)}")
    checked = None
    for i, ((next_node, input_nr), grad) in enumerate(zip(edges, grads)):
        if grad is None or next_node is None:
            continue
        shape, dtype = next_node._output_meta[input_nr]
        if grad._data.shape == shape and grad._data.dtype == dtype:
            continue  # the common case: nothing to fix
        fixed = grad
        if grad._data.shape != shape:
            if not _expandable(shape, grad.shape):
                raise RuntimeError(
                    f"Function {node.name()} returned an invalid gradient at index {i} - got "
                    f"{list(grad.shape)} but expected shape compatible with {list(shape)}")
            from minigrad.ops._util import sum_to
            fixed = sum_to(grad, shape)
        if dtype is not None and fixed._data.dtype != dtype:
            fixed = fixed.to(dtype)
        if fixed is not grad:
            if checked is None:
                checked = list(grads)
            checked[i] = fixed
    return grads if checked is None else tuple(checked)


def _expandable(shape, grad_shape):
    if len(shape) > len(grad_shape):
        return False
    tail = grad_shape[len(grad_shape) - len(shape):]
    return all(s == g or s == 1 for s, g in zip(shape, tail))


class _GradJournal:
    """Remembers ``.grad`` before the pass touches it, to undo a pass that fails halfway.

    NB: PyTorch leaves the gradients written before an error in place; minigrad restores them,
    so that a failed backward never leaves a half-written ``.grad`` behind.
    """

    def __init__(self):
        self.entries = {}

    def remember(self, tensor, in_place):
        """Before the pass changes ``tensor.grad``: ``in_place`` if it will add into its data."""
        key = id(tensor)
        entry = self.entries.get(key)
        if entry is None or (in_place and entry[2] is None and entry[1] is not None):
            grad = tensor._grad if entry is None else entry[1]
            # An out-of-place update leaves the old .grad intact: keeping the tensor is enough.
            data = grad._data.copy() if in_place and grad is not None else None
            self.entries[key] = (tensor, grad, data)

    def rollback(self):
        for tensor, grad, data in self.entries.values():
            if data is not None:
                grad._data[...] = data
            tensor._grad = grad
