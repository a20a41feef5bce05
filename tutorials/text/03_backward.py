# %% [markdown]
# # 3 · `backward()`: vectors, `retain_graph`, and gradients that add up
#
# **The question:** `loss.backward()` works when `loss` is one number. What does `backward()`
# compute when the output is a vector? Why does a second `backward()` fail — and when it
# doesn't fail, why do the gradients keep growing?
#
# About 15 minutes.

# %%
import minigrad as torch
import viz
from minigrad.autograd.graph import record
from _checks import check

# %% [markdown]
# ## One number out: the gradient
#
# With a scalar output, `backward()` starts from `dz/dz = 1` and fills in `dz/dx` for every
# leaf that requires grad.

# %%
x = torch.tensor(2.0, requires_grad=True)
y = torch.tensor(3.0, requires_grad=True)
z = x ** 2 + y
z.backward()
print("dz/dx =", x.grad, "(2x)    dz/dy =", y.grad, "(1)")

# %% [markdown]
# ## A vector out: you must say which combination you want
#
# Now the output has three numbers. There is no single "gradient" any more: there is a whole
# **Jacobian** matrix `J[i, j] = dy_i/dx_j`. Autograd never builds it. It refuses to guess:

# %%
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * x
try:
    y.backward()
except RuntimeError as err:
    print("RuntimeError:", err)

# %% [markdown]
# What reverse mode computes cheaply is a **vector–Jacobian product**: you pass a vector `v`
# shaped like `y`, and `backward(v)` fills `x.grad` with `vᵀ J`, i.e. `Σᵢ vᵢ · dyᵢ/dx`.
# It is the gradient of the scalar `(v * y).sum()`.
#
# Here `J` is diagonal (each `yᵢ` depends only on `xᵢ`):

# %%
from minigrad.autograd.functional import jacobian
jacobian(lambda t: t * t, x)

# %% [markdown]
# Picking `v = [1, 0, 0]` reads out the first row of `J`; `v = ones` sums the rows, which is
# exactly what `y.sum().backward()` does.

# %%
y = x * x
y.backward(torch.tensor([1.0, 0.0, 0.0]))
print("v = [1, 0, 0]  ->", x.grad)

x.grad = None
y = x * x
y.backward(torch.ones_like(y))
print("v = ones       ->", x.grad)

x.grad = None
(x * x).sum().backward()
print("y.sum()        ->", x.grad)

# %% [markdown]
# A loss is always a scalar for this reason: one backward pass then gives the gradient with
# respect to *every* parameter at once, whatever their number.
#
# ## Why a second `backward()` fails
#
# `MulBackward0` needs the factors of the product to compute its gradients, so during the forward
# pass it **saves** them. `show_saved=True` draws the saved tensors:

# %%
a = torch.tensor([3.0], requires_grad=True)
b = a * a
viz.draw(b, show_saved=True)

# %% [markdown]
# To save memory, `backward()` frees saved tensors as soon as a node has used them. Draw the
# same graph after a backward pass: the saved tensors are marked *released*.

# %%
b.backward()
viz.draw(b, show_saved=True)

# %% [markdown]
# So a second pass through the same graph has nothing to work with:

# %%
try:
    b.backward()
except RuntimeError as err:
    print("RuntimeError:", err)

# %% [markdown]
# ## `retain_graph=True`, and gradients that add up
#
# `retain_graph=True` keeps the saved tensors, so you may run backward again. But look at what
# happens to `w.grad`: AccumulateGrad **adds** into `.grad`, it never overwrites. Step through
# the three passes and watch the AccumulateGrad frames: `.grad` goes from nothing to 12, then
# 24, then 36.

# %% tags=["export"]
with record() as rec:
    w = torch.tensor(2.0, requires_grad=True)
    loss = w * w * 3               # dloss/dw = 6w = 12
    for step in range(3):
        loss.backward(retain_graph=True)

viz.Stepper(rec)

# %%
print("after three passes, w.grad =", w.grad)

# %% [markdown]
# This is the famous "forgot `zero_grad()`" bug: in a training loop every step's gradient would
# pile onto the previous ones. Reset before each backward pass:
#
# * `w.grad = None` (what `optimizer.zero_grad()` and `model.zero_grad()` do by default), or
# * `w.grad.zero_()` (keeps the tensor, fills it with zeros).
#
# Adding up is not a bug in itself: if one batch does not fit in memory, run backward on several
# small batches and only then take an optimizer step. That is *gradient accumulation*, on
# purpose.

# %%
w.grad = None
loss.backward(retain_graph=True)
print("after a reset and one pass, w.grad =", w.grad)

# %% [markdown]
# ## Exercises
#
# **3a.** What is `x.grad` after this? Work out `vᵀ J` by hand first.
#
# ```python
# x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
# y = x ** 2
# y.backward(torch.tensor([1.0, 0.0, -1.0]))
# ```

# %% tags=["exercise-3a"]
x_grad = ...   # your answer: a list of three numbers

# %% tags=["check-3a"]
check("3a", x_grad)

# %% [markdown]
# **3b.** What is `w.grad` at the end?
#
# ```python
# w = torch.tensor(1.5, requires_grad=True)
# loss = w * w                     # dloss/dw = 2w
# loss.backward(retain_graph=True)
# loss.backward(retain_graph=True)
# w.grad.zero_()
# loss.backward(retain_graph=True)
# loss.backward()
# ```

# %% tags=["exercise-3b"]
final_grad = ...   # your answer: a number

# %% tags=["check-3b"]
check("3b", final_grad)

# %% [markdown]
# ## What you saw
#
# * For a scalar output, `backward()` gives the gradient. For a vector output `y`,
#   `y.backward(v)` gives the vector–Jacobian product `vᵀ J`.
# * Nodes save what they need for backward; a pass frees it. `retain_graph=True` keeps it.
# * `.grad` accumulates across passes: reset it (`zero_grad()`) unless you mean to add.
#
# Next: **4 · `retain_grad()` and the grads of non-leaf tensors.**
