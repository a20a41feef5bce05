# %% [markdown]
# # 6 · Switching autograd off: `no_grad`, `inference_mode`, `detach` — and why `eval()` is something else
#
# **The question:** when you only want numbers — evaluating a model, updating weights, logging
# a loss — how do you stop autograd from recording? And does `model.eval()` do that?
#
# About 10 minutes.

# %%
import minigrad as torch
import viz
from _checks import check

w = torch.tensor([1.0, 2.0], requires_grad=True)

# %% [markdown]
# ## `no_grad()`: record nothing
#
# Inside `with torch.no_grad():`, operations run as if no input required grad: the results have
# no `grad_fn`, so they are leaves that do not require grad, and no graph is kept in memory.

# %%
with torch.no_grad():
    y = w * 2
print(y.requires_grad, y.grad_fn, y.is_leaf)

# %% [markdown]
# You need it every time you change a weight yourself. An in-place update of a leaf that
# requires grad is refused — autograd could not tell what the gradient of that update should be:

# %%
w.grad = torch.tensor([0.5, 0.5])
try:
    w -= 0.1 * w.grad
except RuntimeError as err:
    print("RuntimeError:", err)

with torch.no_grad():          # this is what optimizer.step() does inside
    w -= 0.1 * w.grad
print(w)

# %% [markdown]
# Related switches:
#
# * `@torch.no_grad()` as a decorator: the whole function runs without recording;
# * `torch.enable_grad()` turns recording back on inside a `no_grad` block;
# * `torch.set_grad_enabled(flag)` picks one or the other from a variable, e.g.
#   `set_grad_enabled(is_training)`.

# %%
@torch.no_grad()
def evaluate(t):
    return t * 2

with torch.no_grad():
    with torch.enable_grad():
        inner = w * 2

with torch.set_grad_enabled(False):
    off = w * 2

print(evaluate(w).requires_grad, inner.requires_grad, off.requires_grad)

# %% [markdown]
# ## `inference_mode()`: `no_grad`, stricter
#
# `torch.inference_mode()` also records nothing. In PyTorch it goes further: tensors made
# inside are marked as *inference tensors* and may never enter a graph later, which lets it
# skip some bookkeeping. Use it for pure inference code.
#
# *minigrad note:* minigrad does not mark inference tensors; here they behave like `no_grad`
# results.

# %%
with torch.inference_mode():
    z = w * 2
print(z.requires_grad, torch.is_grad_enabled())

# %% [markdown]
# ## `detach()`: cut one tensor out of the graph
#
# `t.detach()` returns a tensor with the same data but no history. Everything computed from it
# sees a constant. Here `x` enters the loss twice, once detached. Step through the backward
# pass: the detached path ends in a dashed constant stub, so only the second path sends a
# gradient to `x`.

# %% tags=["export"]
from minigrad.autograd.graph import record

with record() as rec:
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x_detached = x.detach()
    total = (x_detached * w + x).sum()
    total.backward()

viz.Stepper(rec, granularity="node")

# %%
print("x.grad =", x.grad, "  (only the '+ x' path counts)")

# %% [markdown]
# `detach()` does not copy: the data is shared. Change one in place and the other changes too.
# (`x.detach().clone()` gives an independent copy.)

# %%
with torch.no_grad():
    x_detached[0] = 100.0
print(x)

# %% [markdown]
# ## And `model.eval()`?
#
# `eval()` is **not** about autograd. It flips a module's `training` flag, and a few layers
# behave differently depending on it: `Dropout` zeroes random activations only in training;
# `BatchNorm` uses batch statistics in training and running averages in eval.

# %%
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Dropout(p=0.5))
inputs = torch.ones(1, 4)

model.train()
print("train:", model(inputs))
print("train:", model(inputs), " <- dropout: different zeros every call")

model.eval()
out = model(inputs)
print("eval: ", out)
print("eval still records a graph:", out.requires_grad, out.grad_fn)

# %% [markdown]
# So the two answer different questions:
#
# | | changes layer behaviour (Dropout, BatchNorm) | stops graph recording |
# |---|---|---|
# | `model.eval()` | yes | **no** |
# | `torch.no_grad()` | **no** | yes |
#
# For inference you want both: `model.eval()` and `with torch.no_grad():`.
#
# ## Exercises
#
# **6a.** In which of these snippets does `out.requires_grad` end up `True`? (`w` requires grad,
# `model` is an `nn.Linear`, `inputs` a plain tensor.) Answer with a set of letters.
#
# ```python
# # A
# with torch.no_grad():
#     out = w * 2
# # B
# with torch.no_grad():
#     with torch.enable_grad():
#         out = w * 2
# # C
# model.eval()
# out = model(inputs)
# # D
# out = w.detach() * 2
# # E
# with torch.set_grad_enabled(True):
#     out = w * 2
# ```

# %% tags=["exercise-6a"]
records = ...   # your answer: a set of letters, e.g. {"A"}

# %% tags=["check-6a"]
check("6a", records)

# %% [markdown]
# **6b.** You want predictions from a trained model that (1) are the same on every call, and
# (2) build no graph. What do you need?
#
# * **A** — `model.eval()` only
# * **B** — `with torch.no_grad():` only
# * **C** — both
# * **D** — `x.detach()` on the input

# %% tags=["exercise-6b"]
inference_recipe = ...   # your answer: "A", "B", "C" or "D"

# %% tags=["check-6b"]
check("6b", inference_recipe)

# %% [markdown]
# ## What you saw
#
# * `no_grad`, `inference_mode` and `set_grad_enabled(False)` stop recording for a block;
#   `enable_grad` restarts it.
# * `detach()` cuts one tensor out of the graph, sharing its data.
# * `eval()` changes how layers compute, not whether autograd records.
#
# Next: **7 · `autograd.grad` and derivatives of derivatives.**
