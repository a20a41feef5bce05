# %% [markdown]
# # 2 · `grad_fn`, `next_functions`, AccumulateGrad — and a backward pass by hand
#
# **The question:** what exactly does autograd write down while your code runs, and what does
# `backward()` do with it? By the end you will run a backward pass yourself, one node at a
# time, and get the same `.grad` as `backward()`.
#
# About 15 minutes.

# %%
import minigrad as torch
import viz
from minigrad.autograd.graph import record
from _checks import check

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.tensor([3.0, 4.0], requires_grad=True)
z = x * y
loss = z.sum()
loss

# %% [markdown]
# ## The graph is made of Nodes
#
# `loss.grad_fn` is the *Node* that knows how to send a gradient back through `sum`. Each node
# lists where the gradient goes next in `next_functions`: a tuple of `(node, input number)`
# pairs, one per input of the operation.

# %%
sum_node = loss.grad_fn
print(sum_node)
print(sum_node.next_functions)

# %%
mul_node = sum_node.next_functions[0][0]
print(mul_node.next_functions)

# %% [markdown]
# Two new nodes: **AccumulateGrad**. A leaf like `x` has no `grad_fn` (it was not computed), so
# the graph needs a node that stands for it. AccumulateGrad's only job is to *add* the gradient
# it receives into `x.grad`. It knows its tensor as `.variable` and has no `next_functions`:
# the graph ends there.

# %%
acc_x = mul_node.next_functions[0][0]
acc_y = mul_node.next_functions[1][0]
print(acc_x.variable is x, acc_y.variable is y, acc_x.next_functions)

# %% [markdown]
# Here is the whole chain as a picture. Arrows point the way gradients flow in `backward()`.
# The legend on the side names every shape the pictures use; some of them (hooks, saved
# tensors, `retain_grad`) come in later tutorials.

# %%
viz.draw(loss, legend=True)

# %% [markdown]
# ## Constants leave a `(None, 0)`
#
# An input that does not require grad gets no node: its entry in `next_functions` is
# `(None, 0)`, and the picture draws it as a dashed *constant* stub where the gradient stops.

# %%
m = x * 2
print(m.grad_fn.next_functions)
viz.draw(m)

# %% [markdown]
# ## A backward pass by hand
#
# A node is callable: give it the gradient of its output, and it returns the gradients of its
# inputs, in `next_functions` order. So we can do the engine's job ourselves. (This is for
# learning only: in real code you call `backward()`.)
#
# 1. `loss` is the output, so `dloss/dloss = 1`. Feed that to `sum_node`.
# 2. Feed what comes out to `mul_node`: it returns `dloss/dx` and `dloss/dy`.
# 3. Hand each one to its AccumulateGrad, which writes `.grad`.
#
# (We work under `no_grad()` so that these gradients do not build a graph of their own.)

# %%
with torch.no_grad():
    g_z = sum_node(torch.tensor(1.0))
    print("dloss/dz =", g_z)
    g_x, g_y = mul_node(g_z)
    print("dloss/dx =", g_x, "  dloss/dy =", g_y)
    acc_x(g_x)
    acc_y(g_y)

print("x.grad =", x.grad, "  y.grad =", y.grad)

# %% [markdown]
# For `loss = Σ xᵢ·yᵢ`, calculus says `dloss/dx = y` and `dloss/dy = x`. Now let the engine do it.
# We reset the grads first, because AccumulateGrad *adds* (tutorial 3).

# %%
x.grad = None
y.grad = None
loss.backward()
print("x.grad =", x.grad, "  y.grad =", y.grad)

# %% [markdown]
# ## Watch the engine do the same steps
#
# `record()` captures every event of a computation. The stepper replays them: press ▶ or step
# with the buttons. Watch `SumBackward0` run first, then `MulBackward0`, then the two
# AccumulateGrad nodes writing `x.grad` and `y.grad` — exactly the calls you made above.

# %% tags=["export"]
with record() as rec:
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = torch.tensor([3.0, 4.0], requires_grad=True)
    loss = (x * y).sum()
    loss.backward()

viz.Stepper(rec)

# %% [markdown]
# ## Exercises
#
# **2a.** Start at `f.grad_fn` and keep following the *first* entry of `next_functions` until
# you reach a node with none. Which node classes do you meet, in order? Predict first, then
# check by printing `type(node).__name__` as you walk.

# %% tags=["exercise-2a"]
a = torch.tensor(1.0, requires_grad=True)
b = torch.tensor(2.0, requires_grad=True)
c = torch.tensor(3.0, requires_grad=True)
f = (a * b + c).exp()

path = ...   # your answer: a list of class names, e.g. ["SinBackward0", "PowBackward0"]

# %% tags=["check-2a"]
check("2a", path)

# %% [markdown]
# **2b.** Compute `dg/du` **without** calling `backward()`: call `sum_node`, then `mul_node`,
# as above, and keep what `mul_node` returns for `u`. (`v` does not require grad, so
# `mul_node` gives `None` as its second gradient.)

# %% tags=["exercise-2b"]
u = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
v = torch.tensor([4.0, 5.0, 6.0])
g = (u * v).sum()
sum_node = g.grad_fn
mul_node = sum_node.next_functions[0][0]

u_grad = ...   # your answer: call the nodes, starting with sum_node(torch.tensor(1.0))

# %% tags=["check-2b"]
check("2b", u_grad, u)

# %% [markdown]
# ## What you saw
#
# * Each recorded operation is a Node (`MulBackward0`, …) stored in its result's `grad_fn`.
# * `next_functions` links a node to the nodes of its inputs; `(None, 0)` marks a constant.
# * Leaves that require grad are reached through an **AccumulateGrad** node, which adds into
#   `.grad`.
# * `backward()` calls the nodes in a valid order, passing gradients along the links. You just
#   did it by hand.
#
# Next: **3 · `backward()`: vectors, `retain_graph`, and gradients that add up.**
