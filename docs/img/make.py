"""Redraw the pictures in docs/img: ``python docs/img/make.py [PNG_DIR]`` (project installed,
or ``PYTHONPATH=.`` from the repo root).

Each picture is a graph students meet in the tutorials; ``PNG_DIR`` also writes PNG copies
(to look at them outside a browser).
"""

import contextlib
import io
import pathlib
import sys

import minigrad as torch
import viz
from minigrad import nn
from minigrad.autograd.graph import record

OUT = pathlib.Path(__file__).resolve().parent
PNG = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else None


def save(drawing, name):
    drawing.save(OUT / f"{name}.svg")
    if PNG:
        drawing.save(PNG / f"{name}.png")


# x * y -> sum: the smallest graph with a Function node and two AccumulateGrad nodes
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = torch.tensor([4.0, 5.0, 6.0], requires_grad=True)
z = x * y
s = z.sum()
save(viz.draw(s, values=True, id_prefix="mulsum"), "mul_sum_backward")

# A * B -> exp -> + E: a constant, a retained grad, a hook, saved tensors
A = torch.tensor([0.5, 1.0], requires_grad=True)
B = torch.tensor([2.0, -1.0], requires_grad=True)
E = torch.tensor([1.0, 1.0])
C = A * B
D = C.exp()
D.retain_grad()


def print_grad(grad):
    print(grad)


A.register_hook(print_grad)
F = D + E
save(viz.draw(F, show_saved=True, id_prefix="expadd"), "exp_add_backward")
with contextlib.redirect_stdout(io.StringIO()):
    F.sum().backward()
save(viz.draw(F, view="forward", id_prefix="expaddf"), "exp_add_forward")


# A two-layer MLP, whole and with each nn.Linear call as one box
class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(2, 3)
        self.fc2 = nn.Linear(3, 1)

    def forward(self, inputs):
        return self.fc2(self.fc1(inputs).relu())


torch.manual_seed(0)
model = MLP()
inputs, target = torch.randn(4, 2), torch.randn(4, 1)
with record() as rec:
    loss = ((model(inputs) - target) ** 2).mean()
    loss.backward()
save(viz.draw(loss, id_prefix="mlp"), "mlp_backward")
save(viz.draw(rec, collapse="modules", id_prefix="mlpc"), "mlp_collapsed")

# A recording, half-way through backward
with record() as rec:
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    loss = (x * w).sum()
    loss.backward()
event = next(k for k, e in enumerate(rec.events) if e["kind"] == "saved_released")
save(viz.draw(rec, event=event, show_saved=True, grads=True, id_prefix="step"),
     "recording_step")
save(viz.legend(id_prefix="legend"), "legend")

# The README's opening animation: a backward pass, one node run per frame
x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, 4.0], requires_grad=True)
loss = ((x * w) * x).sum()
viz.save_animation(loss, OUT / "backward.gif", granularity="node", duration_ms=1400,
                   last_ms=3000, scale=1.0, names={"x": x, "w": w, "loss": loss})
