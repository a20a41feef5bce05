# %% [markdown]
# # 7 · `autograd.grad` and derivatives of derivatives
#
# **The question:** how do you get a derivative as a value you can compute with — and then
# differentiate *that*? Physics-informed neural networks need exactly this: their loss
# contains `u''(t)`, the second derivative of the network's output with respect to its input.
#
# About 15 minutes.

# %%
import math
import minigrad as torch
import viz
from minigrad.autograd.graph import record
from _checks import check

# %% [markdown]
# ## `torch.autograd.grad`: ask for exactly the derivative you want
#
# `torch.autograd.grad(outputs, inputs)` returns the gradients of `outputs` with respect to
# `inputs` as a tuple, **without touching `.grad`**. It is the tool of choice when a
# derivative is part of your computation rather than the end of it.

# %%
x = torch.tensor(2.0, requires_grad=True)
y = x ** 3
dy_dx, = torch.autograd.grad(y, x)
print("dy/dx =", dy_dx, "   x.grad =", x.grad)

# %% [markdown]
# That derivative is a plain number: it has no `grad_fn`, so it cannot be differentiated again.
# Try, and autograd says so:

# %%
print(dy_dx.requires_grad, dy_dx.grad_fn)
try:
    torch.autograd.grad(dy_dx, x)
except RuntimeError as err:
    print("RuntimeError:", err)

# %% [markdown]
# ## `create_graph=True`: the backward pass records itself
#
# Every backward formula in minigrad (and PyTorch) is written with ordinary tensor
# operations. With `create_graph=True`, those operations are *recorded* while backward runs,
# so the derivative comes out with a graph of its own.
#
# Draw it and read it from the top: `1. · (x² · 3)`. The `1.` is the gradient the pass starts
# from (`dy/dy = 1`); `x² · 3` is the formula `PowBackward0` uses for the derivative of `x³`.
# It ends at `x`'s AccumulateGrad, like any graph: so it can be differentiated.

# %%
y = x ** 3
dy_dx, = torch.autograd.grad(y, x, create_graph=True)
print("dy/dx =", dy_dx)
viz.draw(dy_dx)

# %% [markdown]
# Differentiate again — as many times as you like, as long as every step but the last
# creates a graph:

# %%
d2y_dx2, = torch.autograd.grad(dy_dx, x, create_graph=True)
d3y_dx3, = torch.autograd.grad(d2y_dx2, x)
print("d²y/dx² =", d2y_dx2, "(6x)    d³y/dx³ =", d3y_dx3, "(6)")

# %% [markdown]
# Step through the second-order pass: the engine runs backward *through the graph of the first
# derivative*, the one drawn above.

# %% tags=["export"]
with record() as rec:
    x = torch.tensor(2.0, requires_grad=True)
    y = x ** 3
    dy_dx, = torch.autograd.grad(y, x, create_graph=True)
    d2y_dx2, = torch.autograd.grad(dy_dx, x)

viz.Stepper(rec)

# %% [markdown]
# ## Many points at once
#
# A network evaluates `u` at a whole column of times `t`, and we want `du/dt` at every one.
# Each `u[i]` depends only on `t[i]`, so the gradient of `u.sum()` with respect to `t[i]` is
# just `du[i]/dt[i]`: one call gives them all. (Passing `grad_outputs=torch.ones_like(u)`, the
# vector `v` of tutorial 3, does the same.) Check it on `u = sin(t)`, whose `u''` is `-u`:

# %%
t = torch.linspace(0, 3, 4).reshape(-1, 1).requires_grad_()
u = torch.sin(t)
du, = torch.autograd.grad(u.sum(), t, create_graph=True)
d2u, = torch.autograd.grad(du.sum(), t)
print("t:   ", t.detach().flatten())
print("u'': ", d2u.flatten())
print("-u:  ", -u.detach().flatten())

# %% [markdown]
# ## A physics-informed network
#
# The oscillator equation `u''(t) + u(t) = 0` with `u(0) = 0` and `u'(0) = 1` has the solution
# `u = sin(t)`. Let us *not* tell the network that. We only ask it to satisfy the equation: the
# loss is the squared residual `u'' + u` at 40 points, plus the two starting conditions. Both
# derivatives come from `autograd.grad` with `create_graph=True`, so `loss.backward()` can
# differentiate through them to the weights. That stacks three derivatives: two in `t` for
# `u''`, then one in the weights. We train for 200 steps of Adam.

# %%
torch.manual_seed(0)
net = torch.nn.Sequential(torch.nn.Linear(1, 16), torch.nn.Tanh(),
                          torch.nn.Linear(16, 16), torch.nn.Tanh(),
                          torch.nn.Linear(16, 1))
optimizer = torch.optim.Adam(net.parameters(), lr=0.01)
t = torch.linspace(0, math.pi, 40).reshape(-1, 1).requires_grad_()
t0 = torch.zeros(1, 1, requires_grad=True)

def physics_loss():
    u = net(t)
    du, = torch.autograd.grad(u.sum(), t, create_graph=True)
    d2u, = torch.autograd.grad(du.sum(), t, create_graph=True)
    u0 = net(t0)
    du0, = torch.autograd.grad(u0.sum(), t0, create_graph=True)
    return ((d2u + u) ** 2).mean() + (u0 ** 2).sum() + ((du0 - 1) ** 2).sum()

for step in range(1, 201):
    loss = physics_loss()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step == 1 or step % 50 == 0:
        print(f"step {step:3d}   loss {loss.item():.5f}")

# %% [markdown]
# The network never saw `sin`, only the equation. Compare:

# %%
with torch.no_grad():
    probe = torch.tensor([[0.5], [1.5], [2.5], [3.0]])
    for time, guess in zip(probe.flatten().tolist(), net(probe).flatten().tolist()):
        print(f"t = {time:.1f}   network {guess:+.4f}   sin(t) {math.sin(time):+.4f}")

# %% [markdown]
# ## Exercises
#
# **7a.** Use `torch.autograd.grad` twice to compute the second derivative of `f(x) = x⁴` at
# `x = 2`.

# %% tags=["exercise-7a"]
x = torch.tensor(2.0, requires_grad=True)
f = x ** 4

second = ...   # your answer: a tensor computed with torch.autograd.grad

# %% tags=["check-7a"]
check("7a", second)

# %% [markdown]
# **7b.** A *gradient penalty* (used in physics-informed networks and some GANs) punishes
# large gradients: with `g = df/dx`, the gradient of `f`, it is `(g ** 2).sum()`. Compute the
# gradient of that penalty with respect to `x`, for `f = (x ** 3).sum()` at `x = [1, 2]`.

# %% tags=["exercise-7b"]
x = torch.tensor([1.0, 2.0], requires_grad=True)
f = (x ** 3).sum()

penalty_grad = ...   # your answer: d/dx of (g ** 2).sum(), where g = df/dx

# %% tags=["check-7b"]
check("7b", penalty_grad)

# %% [markdown]
# ## What you saw
#
# * `autograd.grad` returns derivatives as values and leaves `.grad` alone.
# * With `create_graph=True` the backward pass is recorded, so its result can be differentiated
#   again — to any order.
# * A physics-informed loss uses `u'` and `u''`; training differentiates through them.
#
# Next: **8 · custom Functions and in-place pitfalls.**
