# %% [markdown]
# # 4 · `retain_grad()` and the grads of non-leaf tensors
#
# **The question:** every intermediate tensor gets a gradient during `backward()` — it has to,
# or the chain rule could not go on. So why is its `.grad` still `None` afterwards, and how do
# you keep it when you want to look at it?
#
# About 10 minutes.

# %%
import minigrad as torch
import viz
from minigrad.autograd.graph import record
from _checks import check

# %%
a = torch.tensor([3.0], requires_grad=True)
b = a * a
b.backward()
print("a.grad =", a.grad)
print("b.grad =", b.grad)

# %% [markdown]
# `a.grad` is there; `b.grad` is `None`, and you got a warning that says what to do about it.
#
# The gradient *with respect to* `b` did exist for a moment: `backward()` started from
# `db/db = 1` and handed it to `b.grad_fn`. (Deeper in a graph, a tensor's gradient comes from
# the node of the operation that used it.) But only AccumulateGrad writes into `.grad`, and
# only leaves have one. Gradients of intermediates are thrown away once used, because nobody updates an
# intermediate tensor — an optimizer changes the weights, the leaves.
#
# ## Keeping it: `retain_grad()`
#
# Call `retain_grad()` on the non-leaf **before** `backward()`. It asks the engine to copy the
# gradient into `.grad` as it passes by.

# %%
a = torch.tensor([3.0], requires_grad=True)
b = a * a
b.retain_grad()
b.backward()
print("b.grad =", b.grad, "   b.retains_grad =", b.retains_grad)

# %% [markdown]
# ## See it happen
#
# A slightly bigger graph: `h` is an intermediate we want to inspect. In the picture, a tensor
# that retains its grad has a bold, yellow box. Step through the backward pass and stop when the
# engine reaches `h`'s node: the gradient arriving there is copied into `h.grad` just before
# `h`'s `MulBackward0` runs.

# %% tags=["export"]
with record() as rec:
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([3.0, 4.0], requires_grad=True)
    h = x * w
    h.retain_grad()
    out = (h * 2).sum()
    out.backward()

viz.Stepper(rec)

# %% [markdown]
# The forward view with `grads=True` shows every `.grad` at the end: the leaves', and `h`'s,
# because we asked for it. The intermediate of `h * 2` was never named or retained.

# %%
viz.draw(out, view="forward", grads=True)

# %% [markdown]
# ## Small print
#
# * On a leaf, `retain_grad()` does nothing: leaves keep their grad anyway (`retains_grad`
#   stays `False`).
# * On a tensor that does not require grad it is an error: no gradient will ever reach it.

# %%
print(a.retains_grad)
a.retain_grad()
print(a.retains_grad)

try:
    torch.tensor([1.0]).retain_grad()
except RuntimeError as err:
    print("RuntimeError:", err)

# %% [markdown]
# ## What is a `.grad`, anyway?
#
# An ordinary tensor. It is a leaf, and it does not require grad: it is a result, not part of
# the graph. (Tutorial 7 shows how to make gradients differentiable when you need that.)

# %%
print(type(a.grad).__name__, a.grad.is_leaf, a.grad.requires_grad)

# %% [markdown]
# ## Exercises
#
# **4a.** What is `h.grad` after this code? Use the chain rule: `out = Σ hᵢ²`.
#
# ```python
# x = torch.tensor([1.0, 2.0], requires_grad=True)
# w = torch.tensor([3.0, 4.0], requires_grad=True)
# h = x * w
# h.retain_grad()
# out = (h * h).sum()
# out.backward()
# ```

# %% tags=["exercise-4a"]
h_grad = ...   # your answer: a list of two numbers

# %% tags=["check-4a"]
check("4a", h_grad)

# %% [markdown]
# **4b.** A student writes this and gets `None` for `h.grad`. Which change makes `h.grad` hold
# the gradient? Answer with one letter.
#
# ```python
# h = x.exp()
# out = (h * 3).sum()
# out.backward()
# h.retain_grad()
# print(h.grad)
# ```
#
# * **A** — keep the code, but call `out.backward(retain_graph=True)`.
# * **B** — move `h.retain_grad()` to just after `h = x.exp()`.
# * **C** — call `x.retain_grad()` instead.
# * **D** — write `h.requires_grad_(True)` before `backward()`.

# %% tags=["exercise-4b"]
fix = ...   # your answer: "A", "B", "C" or "D"

# %% tags=["check-4b"]
check("4b", fix)

# %% [markdown]
# ## What you saw
#
# * Every tensor on the path gets a gradient during backward, but only leaves *keep* it.
# * `retain_grad()`, called before backward, keeps a non-leaf's gradient in its `.grad`.
# * A `.grad` is a plain tensor: a leaf that does not require grad.
#
# Next: **5 · hooks: running your own code inside `backward()`.**
