"""``minigrad.autograd.graph`` (also ``minigrad.graph``): the graph's public types and views.

As ``torch.autograd.graph`` it exports ``Node``, ``RemovableHandle``, ``saved_tensors_hooks``,
``disable_saved_tensors_hooks``, ``register_multi_grad_hook``, ``save_on_cpu``,
``allow_mutation_on_saved_tensors``, ``GradientEdge``, ``get_gradient_edge`` and
``increment_version``; minigrad adds the plain data
views the renderer and the stepper read: ``snapshot()`` → ``Snapshot`` and ``record()`` →
``Recording`` (see ``docs/graph-data.md`` and ``docs/recording.md``).
"""

from minigrad.autograd.allow_mutation import allow_mutation_on_saved_tensors
from minigrad.autograd.gradient_edge import GradientEdge, get_gradient_edge, increment_version
from minigrad.autograd.graph_hooks import (
    disable_saved_tensors_hooks,
    register_multi_grad_hook,
    save_on_cpu,
    saved_tensors_hooks,
)
from minigrad.autograd.node import Node, RemovableHandle
from minigrad.autograd.recording import Recording, RecordingTruncated, record
from minigrad.autograd.snapshot import Snapshot, snapshot, snapshot_data

__all__ = ["Node", "RemovableHandle", "saved_tensors_hooks", "disable_saved_tensors_hooks",
           "register_multi_grad_hook", "snapshot", "snapshot_data", "Snapshot", "record",
           "Recording", "RecordingTruncated", "GradientEdge", "get_gradient_edge",
           "increment_version", "save_on_cpu", "allow_mutation_on_saved_tensors"]
