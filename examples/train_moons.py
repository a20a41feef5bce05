"""Train a small MLP on the two-moons data set and print its training accuracy.

The data is generated with NumPy (no downloads). The script is written against PyTorch's API:
swap the import below for ``import torch`` and it runs unchanged under PyTorch.

    python examples/train_moons.py
"""

import time

import numpy as np

import minigrad as torch

nn = torch.nn


def make_moons(n_samples=300, noise=0.15, seed=0):
    """Two interleaving half circles in 2-D with Gaussian noise; labels 0 and 1."""
    rng = np.random.default_rng(seed)
    n_out = n_samples // 2
    n_in = n_samples - n_out
    outer = np.linspace(0, np.pi, n_out)
    inner = np.linspace(0, np.pi, n_in)
    points = np.concatenate([
        np.stack([np.cos(outer), np.sin(outer)], axis=1),
        np.stack([1 - np.cos(inner), 1 - np.sin(inner) - 0.5], axis=1),
    ])
    points += rng.normal(scale=noise, size=points.shape)
    labels = np.concatenate([np.zeros(n_out), np.ones(n_in)]).astype(np.int64)
    return points.astype(np.float32), labels


def train(steps=300, seed=0, verbose=True):
    """Fit the MLP with Adam on the full batch; return the final training accuracy."""
    torch.manual_seed(seed)
    points, labels = make_moons(seed=seed)
    x, y = torch.tensor(points), torch.tensor(labels)
    model = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 16), nn.ReLU(),
                          nn.Linear(16, 2))
    loss_fn = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=0.02)
    for step in range(steps):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        if verbose and step % 50 == 0:
            print(f"step {step:4d}  loss {loss.item():.4f}")
    model.eval()
    with torch.no_grad():
        accuracy = (model(x).argmax(dim=1) == y).float().mean().item()
    return accuracy


def main():
    start = time.perf_counter()
    accuracy = train()
    print(f"training accuracy: {accuracy:.1%} ({time.perf_counter() - start:.1f} s)")
    return accuracy


if __name__ == "__main__":
    main()
