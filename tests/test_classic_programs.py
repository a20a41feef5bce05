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


def tiny_transformer(torch):
    """A character-level model in the style of nanoGPT: token and position embeddings, one
    pre-norm block (LayerNorm, causal scaled-dot-product attention over two heads, a GELU
    MLP), AdamW for a few steps, then greedy and top-k sampling from the last logits."""
    nn, F = torch.nn, torch.nn.functional
    torch.manual_seed(0)
    text = "hello world, hello autograd"
    chars = sorted(set(text))
    data = torch.tensor([chars.index(c) for c in text])
    vocab, width, heads, context = len(chars), 16, 2, 8

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.ln1, self.ln2 = nn.LayerNorm(width), nn.LayerNorm(width)
            self.qkv, self.proj = nn.Linear(width, 3 * width), nn.Linear(width, width)
            self.mlp = nn.Sequential(nn.Linear(width, 4 * width), nn.GELU(),
                                     nn.Linear(4 * width, width))

        def forward(self, x):
            b, t, c = x.shape
            q, k, v = self.qkv(self.ln1(x)).split(width, dim=2)
            q, k, v = (z.view(b, t, heads, c // heads).transpose(1, 2) for z in (q, k, v))
            att = F.scaled_dot_product_attention(q, k, v, is_causal=True)
            x = x + self.proj(att.transpose(1, 2).contiguous().view(b, t, c))
            return x + self.mlp(self.ln2(x))

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.tokens, self.positions = nn.Embedding(vocab, width), nn.Embedding(context, width)
            self.block, self.ln, self.head = Block(), nn.LayerNorm(width), nn.Linear(width, vocab)

        def forward(self, idx):
            x = self.tokens(idx) + self.positions(torch.arange(idx.shape[1]))
            return self.head(self.ln(self.block(x)))

    model = Model()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
    starts = torch.tensor([0, 5, 11, 17])
    xb = torch.stack([data[i:i + context] for i in starts])
    yb = torch.stack([data[i + 1:i + context + 1] for i in starts])
    losses = []
    for _ in range(5):
        logits = model(xb)
        loss = F.cross_entropy(logits.view(-1, vocab), yb.view(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    with torch.no_grad():
        last = model(xb)[:, -1, :]
        top = torch.topk(last, 3, dim=-1)
        ranked = torch.sort(F.softmax(last, dim=-1), dim=-1, descending=True)
    return [losses, top.values, top.indices, ranked.indices[:, :3], last.argmax(-1),
            model.block.ln1.weight.grad, sum(p.numel() for p in model.parameters())]


PROGRAMS = {"polynomial-fit": polynomial_fit, "variable-style": variable_style,
            "loader-training": loader_training, "per-sample-gradients": per_sample_gradients,
            "tiny-transformer": tiny_transformer}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_program_prints_torchs_numbers(oracle, name):
    check(oracle, PROGRAMS[name], rtol=1e-5, atol=1e-6)
