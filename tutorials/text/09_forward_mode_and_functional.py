# %% [markdown]
# # 9 · Forward-mode AD and the functional API
#
# **The question:** `backward()` pushes gradients from the output back to the inputs. Could you
# push derivatives *forward*, alongside the values, instead? When is that the better choice —
# and how do you get a whole Jacobian or Hessian without writing loops?
#
# About 15 minutes.

# %%
import minigrad as torch
import minigrad.autograd.forward_ad as fwAD
from minigrad.autograd.functional import hessian, hvp, jacobian, jvp, vjp
from minigrad.autograd.graph import record
import viz
from _checks import check

# %% [markdown]
# Our example maps 2 inputs to 3 outputs, so its Jacobian `J[i, j] = dfᵢ/dxⱼ` is 3 × 2:

# %%
def f(x):
    return torch.stack([x[0] * x[1], x[0].sin(), x[1] ** 2])

x = torch.tensor([1.0, 2.0])
jacobian(f, x)

# %% [markdown]
# ## Reverse mode: one row of `J` per backward pass
#
# Tutorial 3 showed that a backward pass computes a vector–Jacobian product `vᵀ J`: with
# `v = [1, 0, 0]` it reads out the first **row** of `J` — the gradient of `f₀`. So
# `jacobian` runs one backward pass per output. Record it and count. In the stepper, each pass
# starts from a different `v`: `[1., 0., 0.]`, then `[0., 1., 0.]`, then `[0., 0., 1.]`.
# (`jacobian` works on its own copy of `x`; that is why the captions say the tensors "no longer
# exist".)

# %% tags=["export"]
with record() as rec:
    J = jacobian(f, x)

print(len(rec.passes), "backward passes, one per row of J")
viz.Stepper(rec, granularity="node")

# %% [markdown]
# ## Forward mode: one column of `J` per forward pass
#
# Forward mode goes the other way. You give the input a **tangent**: a direction `v` in which
# to nudge it. Every operation then computes two things: its value (the **primal**) and how
# fast that value moves when the input moves along `v` (the tangent of its result). A tensor
# that carries both is a *dual tensor*. At the end, the output's tangent is the
# Jacobian–vector product `J v`: with `v = [1, 0]`, the first **column** of `J`.
#
# Three functions of `forward_ad` (imported as `fwAD`) do it:
#
# * `with fwAD.dual_level():` opens the region where dual tensors exist;
# * `fwAD.make_dual(x, v)` pairs the value `x` with its tangent `v`;
# * `fwAD.unpack_dual(out)` splits a result into `.primal` and `.tangent`. Do it *inside*
#   the `with` block: when the block ends, the tangents are dropped.

# %%
with fwAD.dual_level():
    dual_x = fwAD.make_dual(x, torch.tensor([1.0, 0.0]))
    out = f(dual_x)
    primal, tangent = fwAD.unpack_dual(out)

print("f(x)    =", primal)
print("J·[1,0] =", tangent, "  <- column 0 of J")
print("out.grad_fn =", out.grad_fn)

# %% [markdown]
# `x` does not require grad, so no graph was built (`out.grad_fn` is `None`) and nothing was
# saved for a backward pass: the derivative rides along with the value.
#
# ## Which one when?
#
# For `f: ℝⁿ → ℝᵐ`, a full Jacobian costs **m** reverse passes or **n** forward passes.
#
# | situation | shape | better |
# |---|---|---|
# | training: many parameters, one loss | n huge, m = 1 | reverse (one pass!) |
# | a few inputs, many outputs (sensitivity of a simulation to 2 knobs) | n small, m large | forward |
# | one directional derivative `J v` | any | forward |
#
# ## The functional API
#
# `minigrad.autograd.functional` (as `torch.autograd.functional`) packs these passes into
# plain functions. Each takes a Python function `f` and its inputs:
#
# * `vjp(f, x, v)` → `(f(x), vᵀJ)`, with one backward pass.
# * `jvp(f, x, v)` → `(f(x), J v)`. Careful: despite its name, it does **not** use forward
#   mode. It gets `J v` from two backward passes (a trick called *double backward*). For real
#   forward mode, use `fwAD` as above.
# * `jacobian(f, x)`: one backward pass per output. With `vectorize=True,
#   strategy="forward-mode"` it uses one forward pass per input instead.
# * `hessian(g, x)` for a function `g` with one number as output: the Jacobian of its
#   gradient. `hvp(g, x, v)` → `(g(x), H v)`, without building all of `H`.

# %%
print("vjp:", vjp(f, x, torch.tensor([1.0, 0.0, 0.0]))[1], " <- row 0 of J")
print("jvp:", jvp(f, x, torch.tensor([0.0, 1.0]))[1], " <- column 1 of J")

# %% [markdown]
# Count the backward passes each one runs:

# %%
for name, compute in [("vjp", lambda: vjp(f, x, torch.tensor([1.0, 0.0, 0.0]))),
                      ("jvp", lambda: jvp(f, x, torch.tensor([0.0, 1.0]))),
                      ("jacobian, forward mode",
                       lambda: jacobian(f, x, vectorize=True, strategy="forward-mode"))]:
    with record() as rec:
        compute()
    print(f"{name}: {len(rec.passes)} backward pass(es)")

# %%
def g(x):
    return x[0] ** 2 * x[1] + x[1] ** 3

print("H =", hessian(g, x))
print("H·[1, 0] =", hvp(g, x, torch.tensor([1.0, 0.0]))[1])

# %% [markdown]
# ## Exercises
#
# **9a.** Use forward mode (`dual_level`, `make_dual`, `unpack_dual`) to compute the derivative
# of `s(x) = (x ** 2).sum()` at `x = [1, 2, 3]` in the direction `v = [1, 1, 0]`. You may
# write several lines, as long as `directional` ends up holding the tangent.

# %% tags=["exercise-9a"]
x = torch.tensor([1.0, 2.0, 3.0])
v = torch.tensor([1.0, 1.0, 0.0])

directional = ...   # your answer: the tangent of s at x in direction v

# %% tags=["check-9a"]
check("9a", directional)

# %% [markdown]
# **9b.** What is the Hessian of `q(x) = x₀² · x₁ + x₁³` at `x = (2, 1)`? (It is the `g` from
# above, at another point.) Work it out by hand, then compare with `hessian`. Give a 2 × 2
# nested list (or a tensor).

# %% tags=["exercise-9b"]
H = ...   # your answer: [[d²q/dx₀², d²q/dx₀dx₁], [d²q/dx₁dx₀, d²q/dx₁²]]

# %% tags=["check-9b"]
check("9b", H)

# %% [markdown]
# ## What you saw
#
# * Reverse mode: one backward pass gives `vᵀJ` (a row of `J` when `v` picks one output).
#   Forward mode: one forward pass gives `J v` (a column), with dual tensors and no graph.
# * `jacobian`, `hessian`, `vjp`, `jvp`, `hvp` package these passes as functions; `jvp` uses
#   two backward passes, not forward mode.
#
# Next: **10 · training a small network, with the graph in view.**
