# %% [markdown]
# # 1 · Tensors, `requires_grad`, and leaves
#
# **The question:** autograd watches some tensors and ignores others. Which ones does it watch,
# which ones end up with a `.grad` after `backward()`, and why does PyTorch call `d = c * c`
# a *leaf* when it was clearly computed from something?
#
# About 10 minutes. Run each cell with **Shift + Enter**.
#
# The code below is PyTorch code: we import minigrad *under the name* `torch`, and every line
# would run unchanged with the real thing.

# %%
import minigrad as torch
import viz
from minigrad.autograd.graph import record
from _checks import check

# %% [markdown]
# ## Two small computations
#
# `a` asks autograd to track it (`requires_grad=True`); `c` does not. We multiply each by itself.

# %%
a = torch.tensor([3.0], requires_grad=True)
b = a * a

c = torch.tensor([5.0])
d = c * c

# %% [markdown]
# A tiny helper prints the three flags we care about for each tensor:

# %%
def flags(**tensors):
    for name, t in tensors.items():
        print(f"{name}:  is_leaf={t.is_leaf!s:5}  requires_grad={t.requires_grad!s:5}  "
              f"grad_fn={t.grad_fn}")

flags(a=a, b=b, c=c, d=d)

# %% [markdown]
# Now look at the same four tensors as a picture. `view="forward"` draws values and the
# operations between them, the way you would write the computation on paper.

# %%
viz.draw([b, d], view="forward")

# %% [markdown]
# The picture answers the riddle:
#
# * `b` has an arrow coming in: autograd **recorded** the multiplication as a `MulBackward0`
#   node, because one of its inputs (`a`) requires grad. `b` is a *non-leaf*: it has a `grad_fn`.
# * `d` stands alone. Nothing that went into it required grad, so autograd recorded nothing.
#   With no history, `d` *is* where the graph starts, and that is what a leaf means to autograd:
#   a tensor with `grad_fn is None`.
#
# In PyTorch's words: every tensor with `requires_grad=False` is a leaf, by convention.
# Mathematically `d` came from `c`, but no gradient will ever flow through it, so for autograd
# it is just a constant.
#
# | kind of tensor | `requires_grad` | `grad_fn` | `is_leaf` | gets `.grad`? |
# |---|---|---|---|---|
# | made by you with `requires_grad=True` (weights) | True | None | True | **yes** |
# | any tensor that does not require grad (data, `c`, `d`) | False | None | True | no |
# | result of a recorded operation (`b`, a loss) | True | a Node | False | no (see tutorial 4) |

# %% [markdown]
# ## `requires_grad` spreads forward
#
# An operation's result requires grad as soon as **any** input does. One tracked input is
# enough to put the whole expression on the graph:

# %%
s = torch.sin(a * c)          # a tracks, c does not
print(s.requires_grad, s.grad_fn)

# %% [markdown]
# ## Who receives a gradient?
#
# Call `backward()` on `b` and look at the grads. Only the leaf that requires grad gets one:
# `b = a²`, so `db/da = 2a = 6`.

# %%
b.backward()
print("a.grad =", a.grad)
print("c.grad =", c.grad)

# %%
viz.draw(b, view="forward", grads=True)

# %% [markdown]
# Watch a gradient travel. Here one factor is tracked and one is a constant. Press ▶ (or step
# with *next*): the engine starts at `e`, `MulBackward0` sends a gradient towards `a`'s
# AccumulateGrad, which writes `a.grad` — and nothing goes to the constant `c`, drawn as a
# dashed stub.

# %% tags=["export"]
with record() as rec:
    a = torch.tensor([3.0], requires_grad=True)
    c = torch.tensor([5.0])
    e = a * c
    e.backward()

viz.Stepper(rec)

# %% [markdown]
# Asking a non-leaf for its `.grad` gives `None` *and a warning* that tells you how to keep it
# (tutorial 4 is about that):

# %%
print("b.grad =", b.grad)

# %% [markdown]
# ## Parameters are leaves too
#
# The weights of an `nn.Linear` are created by the layer itself, with `requires_grad=True`: they
# are exactly the "made by you" leaves of the table, and that is why the optimizer finds
# their gradients in `.grad`.

# %%
layer = torch.nn.Linear(3, 2)
flags(weight=layer.weight, bias=layer.bias)

# %% [markdown]
# And one thing you cannot do: switch tracking off on a non-leaf. Its history already exists;
# the error tells you what to use instead (`detach()`, tutorial 6).

# %%
try:
    b.requires_grad = False
except RuntimeError as err:
    print("RuntimeError:", err)

# %% [markdown]
# ## Exercises
#
# **1a.** Here is a small computation. Which of `p, q, r, s, u` are leaves? Decide on paper
# first, then write your answer as a set of names, like `{"p", "q"}`.
#
# ```python
# p = torch.tensor(2.0, requires_grad=True)
# q = torch.tensor(3.0)
# r = p * q
# s = q * q
# u = (s + 1).exp()
# ```

# %% tags=["exercise-1a"]
leaves = ...   # your answer: a set of names

# %% tags=["check-1a"]
check("1a", leaves)

# %% [markdown]
# **1b.** With the same tensors, we run `(r * u).backward()`. Which of `p, q, r, s, u` have a
# `.grad` that is not `None` afterwards?

# %% tags=["exercise-1b"]
with_grad = ...   # your answer: a set of names

# %% tags=["check-1b"]
check("1b", with_grad)

# %% [markdown]
# ## What you saw
#
# * Autograd records an operation only if one of its inputs requires grad.
# * A leaf is a tensor without history (`grad_fn is None`): your own tracked tensors, and every
#   tensor that does not require grad, however it was computed.
# * After `backward()`, only leaves that require grad have `.grad` filled in.
#
# Next: **2 · `grad_fn`, `next_functions` and a backward pass by hand.**
