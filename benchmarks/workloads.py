"""The workloads, each written once per library.

The libraries: minigrad, PyTorch, micrograd, HIPS autograd (functional: ``grad(f)``) and
mygrad (its tensors always track gradients; its ``backward`` clears the graph).

Each ``make_<workload>(lib)`` returns a zero-argument callable that does one unit of work
(forward + backward, or one SGD step), or None when the library cannot run it.
"""

import numpy as np

__all__ = ["scalar_chain", "micrograd_mlp", "micrograd_mlp_steps", "wide_mlp", "numpy_wide_mlp"]


# ------------------------------------------------------------------ (1) and (4) scalar chains
def scalar_chain(lib, n_ops):
    """``n_ops`` alternating multiply/add on a 0-d tensor, then backward."""
    if lib.__name__ == "micrograd":
        import sys

        from micrograd.engine import Value
        sys.setrecursionlimit(max(sys.getrecursionlimit(), 4 * n_ops))  # micrograd recurses

        def run():
            x = Value(0.5)
            y = x
            for _ in range(n_ops // 2):
                y = y * 0.999 + 0.001
            y.backward()
        return run

    if lib.__name__ == "autograd":  # HIPS autograd: a function and its gradient
        from autograd import grad

        def chain(x):
            y = x
            for _ in range(n_ops // 2):
                y = y * 0.999 + 0.001
            return y
        gradient = grad(chain)
        return lambda: gradient(np.array(0.5, np.float32))

    def run():
        x = _leaf(lib, np.array(0.5, np.float32))
        y = x
        for _ in range(n_ops // 2):
            y = y * 0.999 + 0.001
        y.backward()
    return run


def _leaf(lib, array):
    """A tensor that requires grad (mygrad's tensors always may)."""
    if lib.__name__ == "mygrad":
        return lib.tensor(array)
    return lib.tensor(array, requires_grad=True)


def _relu(lib, x):
    return lib.nnet.relu(x) if lib.__name__ == "mygrad" else x.relu()


# ------------------------------------------------------------------ (2) micrograd's demo
def _moons(n=100, seed=0):
    rng = np.random.default_rng(seed)
    t = rng.uniform(0, np.pi, n)
    upper = rng.random(n) < 0.5
    x = np.where(upper, np.cos(t), 1 - np.cos(t))
    y = np.where(upper, np.sin(t), 0.5 - np.sin(t))
    data = np.stack([x, y], 1) + rng.normal(0, 0.1, (n, 2))
    labels = np.where(upper, 1.0, -1.0)
    return data.astype(np.float32), labels.astype(np.float32)


def micrograd_mlp(lib):
    """One SGD step of a 2-16-16-1 MLP on 100 points with the hinge loss and L2 penalty."""
    data, labels = _moons()
    if lib.__name__ == "micrograd":
        import random

        from micrograd.nn import MLP
        random.seed(0)
        model = MLP(2, [16, 16, 1])

        def step():
            scores = [model(list(map(float, row))) for row in data]
            losses = [(1 + -float(yi) * si).relu() for yi, si in zip(labels, scores)]
            loss = sum(losses) * (1.0 / len(losses))
            loss = loss + 1e-4 * sum(p * p for p in model.parameters())
            model.zero_grad()
            loss.backward()
            for p in model.parameters():
                p.data -= 0.05 * p.grad
        return step

    rng = np.random.default_rng(0)
    sizes = [2, 16, 16, 1]
    arrays = []
    for fan_in, fan_out in zip(sizes, sizes[1:]):
        arrays += [rng.uniform(-1, 1, (fan_in, fan_out)).astype(np.float32),
                   np.zeros(fan_out, np.float32)]
    if lib.__name__ == "autograd":
        return _autograd_mlp(data, labels.reshape(-1, 1), arrays)
    params = [_leaf(lib, a) for a in arrays]
    x, y = lib.tensor(data), lib.tensor(labels.reshape(-1, 1))

    def loss_of(params):
        h = x
        for i in range(0, len(params), 2):
            h = h @ params[i] + params[i + 1]
            if i < len(params) - 2:
                h = _relu(lib, h)
        return _relu(lib, 1 - y * h).mean() + 1e-4 * sum((p * p).sum() for p in params)

    if lib.__name__ == "mygrad":
        def step():
            loss_of(params).backward()
            for i, p in enumerate(params):
                params[i] = lib.tensor(p.data - 0.05 * p.grad)
        return step

    def step():
        loss = loss_of(params)
        for p in params:
            p.grad = None
        loss.backward()
        with lib.no_grad():
            for p in params:
                p -= 0.05 * p.grad
    return step


def _autograd_mlp(x, y, arrays):
    import autograd.numpy as anp
    from autograd import grad

    def loss_of(params):
        h = x
        for i in range(0, len(params), 2):
            h = anp.dot(h, params[i]) + params[i + 1]
            if i < len(params) - 2:
                h = anp.maximum(h, 0)
        return anp.maximum(1 - y * h, 0).mean() + 1e-4 * sum((p * p).sum() for p in params)
    gradient = grad(loss_of)
    params = list(arrays)

    def step():
        grads = gradient(params)
        for i, g in enumerate(grads):
            params[i] = params[i] - np.float32(0.05) * g
    return step


def micrograd_mlp_steps(lib, steps=20):
    """``steps`` SGD steps of ``micrograd_mlp``."""
    step = micrograd_mlp(lib)

    def run():
        for _ in range(steps):
            step()
    return run


# ------------------------------------------------------------------ (3) wide MLP
WIDE = dict(batch=256, width=1024, classes=10)


def _wide_data():
    rng = np.random.default_rng(0)
    b, w, c = WIDE["batch"], WIDE["width"], WIDE["classes"]
    x = rng.standard_normal((b, w)).astype(np.float32)
    w1 = (rng.standard_normal((w, w)) / np.sqrt(w)).astype(np.float32)
    b1 = np.zeros(w, np.float32)
    w2 = (rng.standard_normal((w, c)) / np.sqrt(w)).astype(np.float32)
    b2 = np.zeros(c, np.float32)
    return x, w1, b1, w2, b2


def wide_mlp(lib):
    """Forward + backward of relu(x W1 + b1) W2 + b2, squared-error loss, batch 256, width 1024."""
    x, *weights = _wide_data()
    if lib.__name__ == "autograd":
        import autograd.numpy as anp
        from autograd import grad

        def loss_of(params):
            w1, b1, w2, b2 = params
            out = anp.dot(anp.maximum(anp.dot(x, w1) + b1, 0), w2) + b2
            return (out * out).mean()
        gradient = grad(loss_of)
        return lambda: gradient(weights)
    x = lib.tensor(x)
    w1, b1, w2, b2 = [_leaf(lib, a) for a in weights]

    def run():
        out = _relu(lib, x @ w1 + b1) @ w2 + b2
        loss = (out * out).mean()
        if lib.__name__ != "mygrad":
            for p in (w1, b1, w2, b2):
                p.grad = None
        loss.backward()
    return run


def numpy_wide_mlp():
    """The same computation by hand in NumPy: the floor for a NumPy-backed engine."""
    x, w1, b1, w2, b2 = _wide_data()

    def run():
        pre = x @ w1 + b1
        h = np.maximum(pre, 0)
        out = h @ w2 + b2
        loss = (out * out).mean()
        g_out = out * np.float32(2 / out.size)
        g_w2 = h.T @ g_out
        g_b2 = g_out.sum(0)
        g_h = g_out @ w2.T
        g_pre = g_h * (pre > 0)
        g_w1 = x.T @ g_pre
        g_b1 = g_pre.sum(0)
        return loss, g_w1, g_b1, g_w2, g_b2
    return run
