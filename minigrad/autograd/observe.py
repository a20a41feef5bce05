"""Observers: how the engine and op recording report what they do, in the order they do it.

An observer is any callable ``observer(kind, **fields)``. Observers are per thread, like grad
mode: one attached in a thread sees the events of that thread only (the forward ops it runs and
the backward passes it starts). With no observer attached the engine pays one truthiness test
per event site (``if state.observers:``), so observation costs nothing unless it is used.
``minigrad.autograd.graph.record()`` is built on this. (Inside the engine the per-node events
go through the methods of ``Emitter``, which hands them to an observer as
``observer(kind, **fields)`` like every other event; ``record()``'s collector takes the
positional calls directly; ``node_created`` likewise goes through ``observe.node_created``.)

Event kinds and their fields, in the order they happen (tensors and nodes are passed as the
live objects). A pass starts with ``backward_started`` and ``dependencies``; then, for every node
taken from the ready queue, the rows from ``node_started`` to ``saved_released`` in table order
(each only when it applies), followed by the hand-over of each outgoing gradient (``grad_summed``,
``node_ready``, ``node_skipped`` per edge, in edge order); the pass ends with exactly one of
``backward_finished`` or ``error``.

========================  ==================================================================
``node_created``          node, outputs (tuple of tensors); sent by ``Function.apply`` in the
                          forward pass
``backward_started``      pass_id, api ("backward" or "grad"), roots (tensors), grads
                          (tensors), graph_root (the first node), inputs (tensors or None),
                          retain_graph, create_graph
``dependencies``          pass_id, counts ({node: number of incoming edges}), needed
                          ({node: will it run}, or None when every node runs)
``node_ready``            pass_id, node, queue (nodes, in the order they will run unless a
                          node pushed later overtakes them); also sent for the first node
``node_started``          pass_id, node, grads (one per node input), queue (what is left)
``grad_captured``         pass_id, node, index, position (in ``inputs``), grad; for
                          ``autograd.grad``: before the tensor hooks on a node that must run
                          anyway, after them on a node that only captures (then nothing else
                          happens to that node)
``tensor_hook``           pass_id, node, index, tensor (or None if it died), hook, grad_in,
                          grad_out (a hook may receive and return None)
``grad_retained``         pass_id, node, index, tensor, grad (the tensor's new ``.grad``)
``node_pre_hook``         pass_id, node, hook, grads_in, grads_out
``grad_accumulated``      pass_id, node (AccumulateGrad), tensor, before (a copy, or None),
                          after
``post_accumulate_hook``  pass_id, node, tensor, hook
``node_ran``              pass_id, node, grads_in, grads_out (one per next_functions edge)
``node_post_hook``        pass_id, node, hook, grad_inputs, grad_outputs, result (None if the
                          hook returned None)
``saved_released``        pass_id, node, names (only without ``retain_graph``)
``grad_summed``           pass_id, node (receiver), index, sender, grad, total, pending (fan-in:
                          the receiver's buffer already held a gradient at ``index``)
``node_skipped``          pass_id, node (its count reached zero but it leads to no ``inputs``:
                          like PyTorch, it is never queued and none of its hooks run)
``error``                 pass_id, node (the node being run, or None), error (the exception),
                          message; every ``.grad`` touched by the pass is restored first
``backward_finished``     pass_id
========================  ==================================================================
"""

import threading

from minigrad.grad_mode import state

__all__ = ["add_observer", "remove_observer", "emit", "node_created", "notifier", "Emitter",
           "queue_of"]


def __getattr__(name):
    """``observe.observers`` (this thread's list) and ``observe.current_pass`` (the id of the
    backward pass running in this thread, or None), read from ``minigrad.grad_mode.state``."""
    if name == "observers":
        return state.observers
    if name == "current_pass":
        return state.backward_pass
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# How many observers are attached, in all threads. While none is, the event sites on the per-op
# path test this number instead of the thread's list (``if watching[0] and state.observers``):
# reading a ``threading.local`` costs more than the rest of such a test.
watching = [0]
_watching_lock = threading.Lock()


def add_observer(observer):
    """Attach ``observer`` in this thread; it is called for every event of this thread until
    removed."""
    with _watching_lock:
        state.observers.append(observer)
        watching[0] += 1


def remove_observer(observer):
    with _watching_lock:
        state.observers.remove(observer)
        watching[0] -= 1


def emit(kind, **fields):
    """Send one event to every observer (callers test ``if state.observers:`` first)."""
    for observer in tuple(state.observers):
        observer(kind, **fields)


def node_created(node, outputs):
    """Send ``node_created`` to every observer (``Function.apply`` tests
    ``if state.observers:`` first); an ``Emitter`` gets it positionally."""
    for observer in tuple(state.observers):
        if isinstance(observer, Emitter):
            observer.node_created(node, outputs)
        else:
            observer("node_created", node=node, outputs=outputs)


def notifier():
    """What the engine reports a backward pass's events to: None without observers.

    The set of observers is read once, when the pass starts. Rare events are sent as
    ``notify(kind, **fields)``; the five that happen for (almost) every node are sent through
    the methods of ``Emitter``, positionally. ``record()``'s collector is an ``Emitter`` of
    its own: when it is the only observer it gets those calls directly and converts them
    without building keyword dicts. Any other observer is wrapped in an ``Emitter`` that
    hands it the documented fields.
    """
    observers = state.observers
    if not observers:
        return None
    if len(observers) > 1:
        return Emitter(emit)
    observer = observers[0]
    return observer if isinstance(observer, Emitter) else Emitter(observer)


class Emitter:
    """Sends the engine's events as ``send(kind, **fields)`` (the fields of the table above).

    The per-node events arrive as method calls with positional arguments and the engine's
    live objects: ``grads``/``grads_in`` may be the engine's list, ``ready`` is its heap of
    ``(-sequence number, order, node)`` entries. They are only valid during the call.
    """

    # Whether the engine may pass this emitter gradients as NumPy arrays (``record()``'s
    # collector reads only their values); every other observer gets tensors.
    takes_arrays = False

    def __init__(self, send):
        self.send = send

    def __call__(self, kind, **fields):
        self.send(kind, **fields)

    def node_created(self, node, outputs):
        self.send("node_created", node=node, outputs=outputs)

    def node_ready(self, pass_id, node, ready):
        self.send("node_ready", pass_id=pass_id, node=node, queue=queue_of(ready))

    def node_started(self, pass_id, node, grads, ready):
        self.send("node_started", pass_id=pass_id, node=node, grads=tuple(grads),
                  queue=queue_of(ready))

    def node_ran(self, pass_id, node, grads_in, grads_out):
        self.send("node_ran", pass_id=pass_id, node=node, grads_in=tuple(grads_in),
                  grads_out=tuple(grads_out))

    def saved_released(self, pass_id, node):
        self.send("saved_released", pass_id=pass_id, node=node, names=node._saved_names())

    def grad_summed(self, pass_id, node, index, sender, grad, total, pending):
        self.send("grad_summed", pass_id=pass_id, node=node, index=index, sender=sender,
                  grad=grad, total=total, pending=pending)


def queue_of(ready):
    """The nodes of the engine's ready heap in the order they will run (the heap keeps no
    order)."""
    return tuple([entry[2] for entry in (sorted(ready) if len(ready) > 1 else ready)])
