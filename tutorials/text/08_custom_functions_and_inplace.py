# %% [markdown]
# # 8 · Custom Functions and in-place pitfalls
#
# **The question:** how do you teach autograd an operation it does not know — and why does
# changing a tensor in place sometimes make `backward()` fail with a long message about
# "version 1; expected version 0"?
#
# About 15 minutes.

# %%
import minigrad as torch
import viz
from minigrad.autograd.graph import record
from _checks import check

# %% [markdown]
# ## A Function of your own
#
# Subclass `torch.autograd.Function` and write two static methods side by side:
#
# * `forward(ctx, ...)` computes the result. Anything backward will need goes into `ctx`
#   (`ctx.save_for_backward(...)` for tensors).
# * `backward(ctx, grad_output)` receives the gradient of the result and returns one gradient
#   per input of `forward` (`None` for inputs that need none).
#
# A classic: rounding has a zero derivative almost everywhere, which stops learning dead. A
# *straight-through estimator* rounds in the forward pass and pretends to be the identity in
# the backward pass. The forward pass may even leave autograd's world: here NumPy does the
# rounding. Autograd never looks inside `forward`; it trusts your `backward`.

# %%
import numpy as np

class RoundST(torch.autograd.Function):
    """Round to the nearest integer (with NumPy); let the gradient through unchanged."""

    @staticmethod
    def forward(ctx, x):
        return torch.tensor(np.round(x.detach().numpy()))

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output

x = torch.tensor([0.2, 1.7, 2.5], requires_grad=True)
y = RoundST.apply(x)          # always call .apply, never forward() directly
print(y)
(y * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print("x.grad =", x.grad)

# %% [markdown]
# Your Function becomes a node like any other, named after your class:

# %%
print(y.grad_fn)
viz.draw(y)

# %% [markdown]
# When backward needs the input, save it. `gradcheck` compares your formula with finite
# differences (use float64 for it):

# %%
class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, grad_output):
        x, = ctx.saved_tensors
        return 2 * x * grad_output

probe = torch.tensor([0.5, -1.5, 3.0], dtype=torch.float64, requires_grad=True)
print("gradcheck:", torch.autograd.gradcheck(Square.apply, (probe,)))

# %% [markdown]
# ## In place: `_version` counts the changes
#
# Methods ending in `_` (`add_`, `mul_`, `zero_`, …) and item assignment change a tensor's
# memory instead of making a new tensor. Every tensor has a version counter that each such
# change increments:

# %%
a = torch.tensor([1.0, 2.0], requires_grad=True)
e = a.exp()
print("version before:", e._version)
e.add_(1)
print("version after: ", e._version)

# %% [markdown]
# Now the trap. `ExpBackward0` computes its gradient as `grad · exp(a)` — and to save work it
# saved its own **result** `e` during the forward pass. We just overwrote `e` with `e + 1`.
# Backward would silently compute a wrong gradient. Instead, the saved tensor remembers the
# version it was saved at (0), sees version 1, and refuses. Step to the end to see the error
# frame pinned to the node that needed the overwritten value:

# %% tags=["export"]
with record() as rec:
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    e = a.exp()
    e.add_(1)
    try:
        e.sum().backward()
    except RuntimeError as err:
        print("RuntimeError:", err)

viz.Stepper(rec)

# %% [markdown]
# Read the message from the left: *which* tensor (a float tensor of shape `[2]`), *where* it
# came from (output 0 of `Exp`), and the versions. The cure is to not modify a tensor that
# backward still needs: use the out-of-place form (`e = e + 1`), or `clone()` first.
#
# Not every in-place change is a problem. `MulBackward0` of `a * 2` needs only the constant 2,
# not its result, so changing the result is fine:

# %%
a = torch.tensor([1.0, 2.0], requires_grad=True)
h = a * 2
h.add_(1)
h.sum().backward()
print("fine: a.grad =", a.grad)

# %% [markdown]
# Two more rules you will meet:
#
# * In-place on a **leaf that requires grad** is refused outright — its `AccumulateGrad` stands
#   for its value at the start. Optimizers update weights under `no_grad()` (tutorial 6).
# * In-place on a non-leaf *rebases* its history: `h.grad_fn` now points at the in-place op.

# %%
print(h.grad_fn)
try:
    a.mul_(2)
except RuntimeError as err:
    print("RuntimeError:", err)

# %% [markdown]
# ## Exercises
#
# **8a.** Complete the backward of `Cube` (forward computes `x³`). The check runs your Function
# with an arbitrary upstream gradient and compares with finite differences.

# %% tags=["exercise-8a"]
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, grad_output):
        x, = ctx.saved_tensors
        return ...   # your answer: the gradient with respect to x

# %% tags=["check-8a"]
check("8a", Cube)

# %% [markdown]
# **8b.** Which of these snippets make `backward()` fail with the version error? (`a` is a leaf
# that requires grad.) Answer with a set of letters.
#
# ```python
# # A
# h = a * 2;   h.add_(1);                 h.sum().backward()
# # B
# h = a.exp(); h.add_(1);                 h.sum().backward()
# # C
# h = a * 2;   g = h * h;   h.mul_(2);    g.sum().backward()
# # D
# h = a.sin(); g = h + 1;   h.zero_();    g.sum().backward()
# ```

# %% tags=["exercise-8b"]
failing = ...   # your answer: a set of letters

# %% tags=["check-8b"]
check("8b", failing)

# %% [markdown]
# ## What you saw
#
# * A custom `Function` is a `forward`/`backward` pair; `ctx` carries what backward needs, and
#   it appears in the graph as `<Name>Backward`.
# * Every in-place change bumps `_version`. A saved tensor whose version moved makes backward
#   stop with an error instead of computing a wrong gradient.
# * Whether in-place is safe depends on what the nodes saved: results of `exp`, `sigmoid`,
#   `tanh`, and factors of products are saved; sums are not.
#
# Next: **9 · forward-mode AD and the functional API.**
