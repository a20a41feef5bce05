"""Observers: how the engine and op recording report what they do, in the order they do it.

An observer is any callable ``observer(kind, **fields)``. With no observer attached the engine
pays one truthiness test per event site (``if observers:``), so observation costs nothing
unless it is used. ``minigrad.autograd.graph.record()`` is built on this.

Event kinds and their fields (tensors and nodes are passed as the live objects):

========================  ==================================================================
``node_created``          node, outputs (tuple of tensors)
``backward_started``      pass_id, api ("backward" or "grad"), roots (tensors), grads
                          (tensors), graph_root (the first node), inputs (tensors or None),
                          retain_graph, create_graph
``dependencies``          pass_id, counts ({node: number of incoming edges}), needed
                          ({node: will it run}, or None when every node runs)
``node_ready``            pass_id, node, queue (nodes, in the order they will run)
``node_started``          pass_id, node, grads (one per node input), queue
``tensor_hook``           pass_id, node, index, tensor, hook, grad_in, grad_out
``grad_retained``         pass_id, node, index, tensor, grad
``node_pre_hook``         pass_id, node, hook, grads_in, grads_out
``node_ran``              pass_id, node, grads_in, grads_out (one per next_functions edge)
``grad_accumulated``      pass_id, node (AccumulateGrad), tensor, before, after
``post_accumulate_hook``  pass_id, node, tensor, hook
``node_post_hook``        pass_id, node, hook, grad_inputs, grad_outputs, result
``grad_summed``           pass_id, node (receiver), index, sender, grad, total, pending
``grad_captured``         pass_id, node, index, position (in ``inputs``), grad
``node_skipped``          pass_id, node (ready, but not needed for ``inputs``)
``saved_released``        pass_id, node, names
``error``                 pass_id, node (or None), error (the exception), message
``backward_finished``     pass_id
========================  ==================================================================
"""

__all__ = ["observers", "add_observer", "remove_observer", "emit"]

observers = []
current_pass = None  # id of the backward pass that is running, for events from inside nodes


def add_observer(observer):
    """Attach ``observer``; it is called for every event until removed."""
    observers.append(observer)


def remove_observer(observer):
    observers.remove(observer)


def emit(kind, **fields):
    """Send one event to every observer (callers test ``if observers:`` first)."""
    for observer in tuple(observers):
        observer(kind, **fields)
