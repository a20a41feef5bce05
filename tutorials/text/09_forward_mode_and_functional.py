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
# ## Reverse mode: one *row* combination per pass
#
# Tutorial 3 showed that a backward pass computes a vector–Jacobian product `vᵀ J`: with
# `v = [1, 0, 0]` it reads out the first **row** of `J` — the gradient of `f₀`. So
# `jacobian` in reverse mode runs one backward pass per output. Record it and count:

# %% tags=["export"]
with record() as rec:
    J = jacobian(f, x)

print(len(rec.passes), "backward passes, one per row of J")
viz.Stepper(rec)

# %% [markdown]
# ## Forward mode: one *column* combination per pass
#
# Forward mode attaches to each input a **tangent** — a direction `v` — and every operation
# computes, next to its value, how the value moves in that direction (a *dual number*:
# `primal + tangent·ε`). One forward pass gives the Jacobian–vector product `J v`: with
# `v = [1, 0]`, the first **column** of `J`.

# %%
with fwAD.dual_level():
    dual_x = fwAD.make_dual(x, torch.tensor([1.0, 0.0]))
    out = f(dual_x)
    primal, tangent = fwAD.unpack_dual(out)

print("f(x)   =", primal)
print("J·[1,0] =", tangent, "  <- column 0 of J")

# %% [markdown]
# No graph is built and nothing is stored for later: the derivative rides along with the
# value, so memory does not grow with the length of the computation.
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
# `minigrad.autograd.functional` (as `torch.autograd.functional`) wraps both modes in plain
# functions of a Python function `f` and its inputs:
#
# * `vjp(f, x, v)` → `(f(x), vᵀJ)`; `jvp(f, x, v)` → `(f(x), J v)`;
# * `jacobian(f, x)`; `hessian(g, x)` for a scalar `g` (the Jacobian of its gradient);
# * `hvp(g, x, v)` → `(g(x), H v)`, without forming `H`.

# %%
print("vjp:", vjp(f, x, torch.tensor([1.0, 0.0, 0.0]))[1], " <- row 0 of J")
print("jvp:", jvp(f, x, torch.tensor([0.0, 1.0]))[1], " <- column 1 of J")

# %%
def g(x):
    return x[0] ** 2 * x[1] + x[1] ** 3

print("H =", hessian(g, x))
print("H·[1, 0] =", hvp(g, x, torch.tensor([1.0, 0.0]))[1])

# %% [markdown]
# ## Exercises
#
# **9a.** Use forward mode (`dual_level`, `make_dual`, `unpack_dual`) to compute the derivative
# of `s(x) = (x ** 2).sum()` at `x = [1, 2, 3]` in the direction `v = [1, 1, 0]`.

# %% tags=["exercise-9a"]
x = torch.tensor([1.0, 2.0, 3.0])
v = torch.tensor([1.0, 1.0, 0.0])

directional = ...   # your answer: the tangent of s at x in direction v

# %% tags=["check-9a"]
check("9a", directional)

# %% [markdown]
# **9b.** What is the Hessian of `q(x) = x₀² · x₁ + x₁³` at `x = (2, 1)`? Work it out by hand,
# then compare with `hessian`. Give a 2 × 2 nested list (or a tensor).

# %% tags=["exercise-9b"]
H = ...   # your answer: [[d²q/dx₀², d²q/dx₀dx₁], [d²q/dx₁dx₀, d²q/dx₁²]]

# %% tags=["check-9b"]
check("9b", H)

# %% [markdown]
# ## What you saw
#
# * Reverse mode: one pass per output gives `vᵀJ` (rows). Forward mode: one pass per input
#   gives `J v` (columns), with dual numbers and no stored graph.
# * `jacobian`, `hessian`, `vjp`, `jvp`, `hvp` package these passes as functions.
#
# Next: **10 · training a small network, with the graph in view.**
