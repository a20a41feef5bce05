# %% [markdown]
# # 10 · Training a small network, with the graph in view
#
# **The question:** what does autograd actually do in one step of training a network — and
# what changes from one step to the next? Everything from tutorials 1–9 shows up here at once:
# parameters are leaves, the loss is a scalar, `.grad` accumulates, the update runs without
# recording.
#
# About 15 minutes.

# %%
import numpy as np
import minigrad as torch
import viz
from minigrad.autograd.graph import record
from _checks import check

nn = torch.nn

# %% [markdown]
# ## Data and model
#
# Two interleaved half-moons in the plane, 100 points, labels 0 and 1. The model is a small
# multi-layer perceptron: 2 inputs → 8 hidden units (tanh) → 2 scores.

# %%
def make_moons(n=100, noise=0.15, seed=0):
    rng = np.random.default_rng(seed)
    angle = np.linspace(0, np.pi, n // 2)
    upper = np.stack([np.cos(angle), np.sin(angle)], axis=1)
    lower = np.stack([1 - np.cos(angle), 0.5 - np.sin(angle)], axis=1)
    points = np.concatenate([upper, lower]) + rng.normal(scale=noise, size=(n, 2))
    labels = np.repeat([0, 1], n // 2)
    return torch.tensor(points.astype(np.float32)), torch.tensor(labels)

class MoonNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.Linear(2, 8)
        self.out = nn.Linear(8, 2)

    def forward(self, points):
        return self.out(self.hidden(points).tanh())

x, y = make_moons()
torch.manual_seed(0)
model = MoonNet()
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
model

# %% [markdown]
# ## One loss, one graph
#
# Every parameter is a leaf that requires grad, so each gets its own AccumulateGrad node. The
# data `x` does not require grad: it enters as a constant. Drawn with `collapse="modules"`,
# each layer call is one box:

# %%
loss = loss_fn(model(x), y)
viz.draw(loss, collapse="modules")

# %% [markdown]
# And in full, with the parameter names the model gave them (`model.hidden.weight`, …). Two
# things are new here:
#
# * A `Linear` layer is two nodes: `TBackward0` (its weight is transposed) and
#   `AddmmBackward0` (one operation for `input @ weightᵀ + bias`). Its three inputs are the
#   bias, the layer's input and the transposed weight.
# * `CrossEntropyLoss` is two nodes too: `LogSoftmaxBackward0`, then `NllLossBackward0`.

# %%
viz.draw(loss)

# %% [markdown]
# ## One training step, step by step
#
# The four lines of a training step, recorded. With `granularity="node"`, each frame of the
# stepper is one node's whole turn (the default shows every single event). Step through: the
# loss's node runs first, the layers run in reverse order, and each AccumulateGrad writes a
# parameter's `.grad`.

# %% tags=["export"]
with record() as rec:
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()

viz.Stepper(rec, granularity="node")

# %% [markdown]
# `optimizer.step()` did not appear in the recording: it updates the weights under `no_grad()`,
# so autograd records nothing (tutorial 6).
#
# ## A live graph while training
#
# A `viz.LiveStepper` is a stepper that refills itself: it is shown once, and each
# `with live.record():` block replaces what it shows, in place. With `every=20` it records one
# step in twenty; the other steps run at full speed. Watch it while the loop runs: the graph
# keeps its shape — the same operations run every step — while the numbers in it change.

# %%
live = viz.LiveStepper(every=20, granularity="node")
live

# %%
for step in range(200):
    optimizer.zero_grad()
    with live.record():
        loss = loss_fn(model(x), y)
        loss.backward()
    optimizer.step()
    if step % 20 == 0:
        print(f"step {step:3d}   loss {loss.item():.3f}")

# %%
with torch.no_grad():
    accuracy = (model(x).argmax(dim=1) == y).float().mean().item()
print(f"training accuracy: {accuracy:.0%}")

# %% [markdown]
# ## What if you forget `zero_grad()`?
#
# Then every backward pass adds to the previous gradients (tutorial 3), and the update uses the
# sum of all past gradients. Below, we start from clean grads and run three backward passes
# without `zero_grad()` (and without `step()`, so the weights stay the same). Each pass adds
# the same gradient again: watch the size of one parameter's `.grad` double, then triple.

# %%
weight = model.hidden.weight
optimizer.zero_grad()                    # start clean
for step in range(3):
    loss = loss_fn(model(x), y)
    loss.backward()                      # no zero_grad() before it
    print(f"pass {step + 1}: mean |grad| = {weight.grad.abs().mean().item():.4f}")
optimizer.zero_grad()

# %% [markdown]
# ## Exercises
#
# **10a.** Put the four parts of a training step into a working order. Use the labels
# `"zero_grad"`, `"forward"` (computing the loss), `"backward"` and `"step"`.

# %% tags=["exercise-10a"]
order = ...   # your answer: a list of the four labels

# %% tags=["check-10a"]
check("10a", order)

# %% [markdown]
# **10b.** How many AccumulateGrad nodes does the graph of `loss` have for this model?
# Predict, then count with `viz.draw(loss)` or by walking `next_functions`.
#
# ```python
# model = nn.Sequential(nn.Linear(3, 5), nn.ReLU(), nn.Linear(5, 5), nn.ReLU(), nn.Linear(5, 1))
# loss = model(torch.ones(4, 3)).pow(2).mean()
# ```

# %% tags=["exercise-10b"]
accumulators = ...   # your answer: a number

# %% tags=["check-10b"]
check("10b", accumulators)

# %% [markdown]
# ## What you saw
#
# * A training step is: reset the grads, compute a scalar loss, `backward()` fills every
#   parameter's `.grad` through its AccumulateGrad node, the optimizer updates without recording.
# * The graph is rebuilt by every forward pass; its shape stays, its numbers change.
#
# That is the whole of autograd, end to end. Go back to any tutorial and change the code: the
# stepper will show you what the engine does with it.
