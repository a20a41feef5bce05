"""A convolution layer, forward and backward, against the NumPy floor of the same im2col.

Workload: ``nn.Conv2d(1, 32, 3)`` on a batch of 64×1×28×28 (MNIST-sized); forward, then
backward of a given output gradient (weight and bias gradients; the input is data and needs
none). Systems take turns, one repeat each per round, and the ratio is taken per round
(``timing.interleaved_times``):

- ``minigrad``: the layer and ``y.backward(g)``: ``ConvolutionBackward0`` runs its backward
  op, which lays the columns out again (im2col) for the weight gradient.
- ``numpy floor``: the same arithmetic written directly: a strided view of the windows,
  one copy into columns, one ``matmul`` forward; backward the weight gradient as one batched
  ``matmul`` with the columns kept from the forward (summed over the batch), the bias
  gradient as one sum.
- ``torch`` (when installed, one thread): for scale only.

Goal (issue 13): minigrad within 1.5× of the NumPy floor.

Run: ``python -m benchmarks.bench_conv [--quick]``.
"""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402
from numpy.lib.stride_tricks import as_strided  # noqa: E402

from benchmarks.timing import interleaved_times, paired_ratio  # noqa: E402

BATCH, CHANNELS, SIZE, KERNEL = (64, 1, 28, 28), 32, 28, 3
GOAL = 1.5


def _data():
    rng = np.random.default_rng(0)
    x = rng.standard_normal(BATCH).astype(np.float32)
    out = SIZE - KERNEL + 1
    g = rng.standard_normal((BATCH[0], CHANNELS, out, out)).astype(np.float32)
    w = (rng.standard_normal((CHANNELS, BATCH[1], KERNEL, KERNEL)) / 3).astype(np.float32)
    b = rng.standard_normal(CHANNELS).astype(np.float32)
    return x, g, w, b


def numpy_floor(x, g, w, b):
    """Forward and backward of the layer in plain NumPy (im2col, matmul)."""
    n, c, h, wd = x.shape
    k, o = w.shape[-1], w.shape[0]
    oh, ow = h - k + 1, wd - k + 1

    def step():
        sn, sc, sh, sw = x.strides
        view = as_strided(x, (n, c, k, k, oh, ow), (sn, sc, sh, sw, sh, sw), writeable=False)
        cols = view.reshape(n, c * k * k, oh * ow)               # the im2col copy
        y = np.matmul(w.reshape(o, -1), cols) + b[:, None]       # (N, O, L)
        gm = g.reshape(n, o, -1)
        grad_w = np.matmul(gm, cols.transpose(0, 2, 1)).sum(axis=0)   # Σ over the batch
        grad_b = gm.sum(axis=(0, 2))
        return y, grad_w, grad_b
    return step


def _layer(lib, x, g, w, b):
    """The same Conv2d step in either library (the program a student writes for both)."""
    conv = lib.nn.Conv2d(BATCH[1], CHANNELS, KERNEL)
    with lib.no_grad():
        conv.weight.copy_(lib.tensor(w))
        conv.bias.copy_(lib.tensor(b))
    xt, gt = lib.tensor(x), lib.tensor(g)

    def step():
        conv.zero_grad()
        conv(xt).backward(gt)
    return step


def minigrad_layer(x, g, w, b):
    import minigrad
    return _layer(minigrad, x, g, w, b)


def torch_layer(x, g, w, b):
    import torch
    torch.set_num_threads(1)
    return _layer(torch, x, g, w, b)


def measure(repeats=7, min_time=0.2):
    """Medians per system and minigrad's paired ratio to the NumPy floor."""
    data = _data()
    fns = {"minigrad": minigrad_layer(*data), "numpy floor": numpy_floor(*data)}
    try:
        fns["torch"] = torch_layer(*data)
    except ImportError:
        pass
    times, rounds = interleaved_times(fns, repeats=repeats, min_time=min_time)
    return times, paired_ratio(rounds, "minigrad", "numpy floor")


def rows(quick=False):
    """The row for ``python -m benchmarks``."""
    times, ratio = measure(3 if quick else 7, 0.05 if quick else 0.2)
    return [{"workload": "(8) Conv2d(1, 32, 3) forward + backward, batch 64×1×28×28",
             "times": times, "baseline": "numpy floor", "ratio": ratio,
             "target": f"≤ {GOAL}× NumPy floor", "met": ratio <= GOAL}]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    times, ratio = measure(3 if args.quick else 7, 0.05 if args.quick else 0.2)
    for name, seconds in times.items():
        print(f"{name:12s} {seconds * 1e3:8.3f} ms")
    print(f"minigrad / numpy floor: {ratio:.2f}× (goal ≤ {GOAL}×)")


if __name__ == "__main__":
    main()
