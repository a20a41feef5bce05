"""Benchmarks: ``python -m benchmarks`` times minigrad beside PyTorch, micrograd and NumPy."""
