"""Classic teaching programs in the old and new styles, run unchanged with ``lib`` = minigrad
and ``lib`` = torch: device boilerplate, Variable, legacy constructors, DataLoader batches,
an lr schedule, save/load and torch.func, all in one training run each."""

import io

import pytest
from parity_check import check


def polynomial_fit(torch):
    """"Learning PyTorch with examples": fit a cubic to sin(x) by hand-written SGD."""
    import math
    dtype = torch.float
    device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
    x = torch.linspace(-math.pi, math.pi, 200, device=device, dtype=dtype)
    y = torch.sin(x)
    a, b, c, d = (torch.full((), v, device=device, dtype=dtype, requires_grad=True)
                  for v in (0.1, -0.2, 0.3, -0.1))
    for _ in range(50):
        y_pred = a + b * x + c * x ** 2 + d * x ** 3
        loss = (y_pred - y).pow(2).sum()
        loss.backward()
        with torch.no_grad():
            for p in (a, b, c, d):
                p -= 1e-5 * p.grad
                p.grad = None
    return [loss.item(), a.item(), b.item(), c.item(), d.item()]


def variable_style(torch):
    """A 2017-style program: Variable, FloatTensor, .data updates."""
    from_autograd = torch.autograd.Variable
    x = from_autograd(torch.FloatTensor([[1, 2], [3, 4], [5, 6]]))
    y = from_autograd(torch.FloatTensor([[1], [0], [1]]), requires_grad=False)
    w = from_autograd(torch.FloatTensor([[0.1], [-0.2]]), requires_grad=True)
    for _ in range(20):
        loss = ((x.mm(w) - y) ** 2).sum()
        loss.backward()
        w.data -= 0.01 * w.grad.data
        w.grad.data.zero_()
    return [loss.item(), w.data, x.type(), isinstance(w, torch.FloatTensor)]


def loader_training(torch):
    """A model trained on a DataLoader (no shuffling) with a StepLR schedule, saved and
    reloaded through a state_dict."""
    device = torch.device("cpu")
    xs = torch.arange(24.0).reshape(12, 2) / 24
    ys = xs.sum(1, keepdim=True) * 2 - 1
    data = torch.utils.data.TensorDataset(xs, ys)
    loader = torch.utils.data.DataLoader(data, batch_size=5)
    model = torch.nn.Linear(2, 1).to(device)
    with torch.no_grad():
        model.weight.copy_(torch.tensor([[0.3, -0.1]]))
        model.bias.zero_()
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
    losses = []
    for _ in range(4):
        for xb, yb in loader:
            xb, yb = xb.to(device), yb.to(device)
            opt.zero_grad()
            loss = torch.nn.functional.mse_loss(model(xb), yb)
            loss.backward()
            opt.step()
        sched.step()
        losses.append(loss.item())
    buffer = io.BytesIO()
    torch.save(model.state_dict(), buffer)
    buffer.seek(0)
    fresh = torch.nn.Linear(2, 1)
    fresh.load_state_dict(torch.load(buffer, map_location=device))
    return [losses, sched.get_last_lr(), fresh.weight, fresh.bias, len(loader)]


def per_sample_gradients(torch):
    """torch.func's per-sample-gradient recipe on a linear model."""
    from_func = torch.func
    model = torch.nn.Linear(3, 1)
    params = {"weight": torch.tensor([[0.5, -1.0, 0.25]]), "bias": torch.tensor([0.1])}
    x = torch.tensor([[1.0, 2.0, 3.0], [0.0, -1.0, 1.0]])
    y = torch.tensor([[1.0], [0.0]])

    def loss(p, xi, yi):
        out = from_func.functional_call(model, p, (xi.unsqueeze(0),))
        return ((out - yi.unsqueeze(0)) ** 2).mean()
    return from_func.vmap(from_func.grad(loss), in_dims=(None, 0, 0))(params, x, y)


PROGRAMS = {"polynomial-fit": polynomial_fit, "variable-style": variable_style,
            "loader-training": loader_training, "per-sample-gradients": per_sample_gradients}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_program_prints_torchs_numbers(oracle, name):
    check(oracle, PROGRAMS[name], rtol=1e-5, atol=1e-6)
