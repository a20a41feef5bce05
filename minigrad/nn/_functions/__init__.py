"""Differentiable nodes of ``minigrad.nn`` that PyTorch implements as one fused op (so the
graph shows ``MseLossBackward0``, ``NllLossBackward0``, ``NativeBatchNormBackward0``, …).

Each is an ``_Op`` like those of ``minigrad.ops``: ``forward`` computes on NumPy arrays,
``backward`` is written with Tensor ops, so gradients can be differentiated again.
"""
