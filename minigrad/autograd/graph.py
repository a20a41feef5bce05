"""``minigrad.autograd.graph`` (also ``minigrad.graph``): the graph's public types and views.

As ``torch.autograd.graph`` it exports ``Node`` and ``RemovableHandle``; minigrad adds the plain
data views the renderer and the stepper read: ``snapshot()`` → ``Snapshot`` and ``record()`` →
``Recording`` (see ``docs/graph-data.md`` and ``docs/recording.md``).
"""

from minigrad.autograd.node import Node, RemovableHandle
from minigrad.autograd.recording import Recording, RecordingTruncated, record
from minigrad.autograd.snapshot import Snapshot, snapshot

__all__ = ["Node", "RemovableHandle", "snapshot", "Snapshot", "record", "Recording",
           "RecordingTruncated"]
