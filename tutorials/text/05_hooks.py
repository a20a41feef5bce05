# %% [markdown]
# # 5 · Hooks: your code inside `backward()`
#
# **The question:** can you watch — or change — a gradient while `backward()` runs? Where can
# you hook in, and in which order do the hooks fire?
#
# About 15 minutes.

# %%
import minigrad as torch
import viz
from minigrad.autograd.graph import record
from _checks import check

# %% [markdown]
# ## A hook on a tensor
#
# `t.register_hook(fn)` calls `fn(grad)` each time the gradient with respect to `t` has been
# computed. If `fn` returns a tensor, that tensor **replaces** the gradient from then on.

# %%
def show(grad):
    print("  the hook sees", grad)

def halve(grad):
    return grad / 2

w = torch.tensor([1.0, 2.0], requires_grad=True)
w.register_hook(show)
w.register_hook(halve)
loss = (w * w).sum()          # dloss/dw = 2w = [2, 4]
loss.backward()
print("w.grad =", w.grad)

# %% [markdown]
# Two things to notice:
#
# * The hooks ran in the order they were registered, and what `halve` returned is what reached
#   `w.grad`.
# * `w` is used twice in `w * w`, yet `show` ran **once**, with `[2, 4]`: the engine adds up
#   all gradients flowing into a tensor first, then calls its hooks with the total.
#
# In the picture, a hooked tensor wears a dark badge with the names of its hooks:

# %%
viz.draw(loss)

# %% [markdown]
# ## Hooks on Nodes
#
# Nodes take hooks too:
#
# * `node.register_prehook(fn)`: `fn(grad_outputs)` runs *before* the node, with the gradients
#   it is about to receive (it may return replacements);
# * `node.register_hook(fn)`: `fn(grad_inputs, grad_outputs)` runs *after* it, with what it
#   computed and what it received.

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
y.grad_fn.register_prehook(lambda grad_outputs: print("before MulBackward0:", grad_outputs))
y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: print("after MulBackward0:",
                                                                 grad_inputs))
y.sum().backward()

# %% [markdown]
# The `None` in `grad_inputs` is the gradient for the constant `3`: it has no node to go to.
#
# ## After the `.grad` update: post-accumulate-grad hooks
#
# `leaf.register_post_accumulate_grad_hook(fn)` calls `fn(leaf)` right after AccumulateGrad has
# updated `leaf.grad`. Because `.grad` is final at that moment, it is the place for things like
# an optimizer step per parameter during backward. Only leaves accept it.

# %%
p = torch.tensor([1.0, -1.0], requires_grad=True)
p.register_post_accumulate_grad_hook(lambda param: print("p.grad is now", param.grad))
(p * 10).sum().backward()

# %% [markdown]
# ## The order, all at once
#
# Let us register every kind of hook on one graph and log when each fires. We record it too,
# then step through: choose the **hooks** granularity to jump from hook to hook. A hook's badge
# flashes when it fires, and the caption names it.

# %% tags=["export"]
log = []
def on_b(grad):                         log.append("tensor hook on b")
def before_mul(grad_outputs):           log.append("pre-hook of b.grad_fn")
def after_mul(grad_inputs, grad_outputs): log.append("post-hook of b.grad_fn")
def on_a(grad):                         log.append("tensor hook on a")
def a_updated(tensor):                  log.append("post-accumulate hook on a")

with record() as rec:
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = a * 3
    b.register_hook(on_b)
    b.grad_fn.register_prehook(before_mul)
    b.grad_fn.register_hook(after_mul)
    a.register_hook(on_a)
    a.register_post_accumulate_grad_hook(a_updated)
    b.sum().backward()

viz.Stepper(rec)

# %%
for number, entry in enumerate(log, 1):
    print(number, entry)

# %% [markdown]
# Read it as the engine works, node by node, from the output back:
#
# 1. when the gradient for a tensor is complete, its **tensor hooks** run — just before the
#    node that *produced* the tensor (`b.grad_fn`) runs;
# 2. if the tensor retains its grad, `.grad` is written now;
# 3. the node's **pre-hooks** run, then **the node itself**, then its **post-hooks**;
# 4. for a leaf, the node is AccumulateGrad: `.grad` is updated, then the
#    **post-accumulate-grad hooks** run.
#
# Every `register_*` call returns a handle; `handle.remove()` takes the hook off again.

# %%
handle = x.register_hook(show)
handle.remove()
(x * x).sum().backward()   # no "the hook sees" line: the hook is gone

# %% [markdown]
# ## Exercises
#
# **5a.** Put these hooks in the order they fire during `loss.backward()`:
#
# ```python
# u = torch.tensor([1.0, 2.0], requires_grad=True)
# v = u.exp()
# loss = v.sum()
# u.register_post_accumulate_grad_hook(...)   # "post-accumulate u"
# v.grad_fn.register_hook(...)                # "post-hook ExpBackward0"
# u.register_hook(...)                        # "tensor hook u"
# v.register_hook(...)                        # "tensor hook v"
# v.grad_fn.register_prehook(...)             # "pre-hook ExpBackward0"
# ```

# %% tags=["exercise-5a"]
order = ...   # your answer: the five labels, in firing order

# %% tags=["check-5a"]
check("5a", order)

# %% [markdown]
# **5b.** Two hooks on one leaf. What is `q.grad` after backward?
#
# ```python
# q = torch.tensor(1.0, requires_grad=True)
# q.register_hook(lambda g: g * 2)
# q.register_hook(lambda g: g + 1)
# (q * 5).backward()
# ```

# %% tags=["exercise-5b"]
q_grad = ...   # your answer: a number

# %% tags=["check-5b"]
check("5b", q_grad)

# %% [markdown]
# ## What you saw
#
# * Tensor hooks see (and may replace) the complete gradient of a tensor.
# * Node pre-hooks and post-hooks wrap one node's run; post-accumulate-grad hooks follow a
#   leaf's `.grad` update.
# * Order per node: tensor hooks → retained grad → pre-hooks → node → (`.grad` update →
#   post-accumulate hooks) → post-hooks.
#
# Next: **6 · switching autograd off: `no_grad`, `inference_mode`, `detach` — and `eval()`.**
