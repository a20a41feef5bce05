"""``out=``: the function forms that write their result into a given tensor.

``minigrad.add(a, b, out=t)`` computes ``a + b`` and copies it into ``t`` (resized when its
shape differs, with PyTorch's warning unless it was empty), as PyTorch does. Autograd does not
follow such a write: when grad mode is on and an argument requires grad, it is an error.
"""

import functools
import warnings

from minigrad import _dtype
from minigrad.autograd import allow_mutation, forward_ad, inference
from minigrad.grad_mode import no_grad, state
from minigrad.tensor import Tensor

__all__ = ["with_out", "OUT_FUNCTIONS"]

OUT_FUNCTIONS = ("add", "sub", "mul", "div", "pow", "remainder", "floor_divide", "neg", "abs",
                 "exp", "log", "log1p", "sin", "cos", "tanh", "sigmoid", "sqrt", "clamp",
                 "floor", "ceil", "round", "trunc", "sign", "reciprocal", "matmul", "mm", "bmm",
                 "mv", "dot", "sum", "mean", "prod", "cat", "stack", "maximum", "minimum", "eq",
                 "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or", "logical_xor",
                 "logical_not", "where", "amax", "amin", "logsumexp", "isin", "index_select")

_RESIZED = ("An output with one or more elements was resized since it had shape {}, which does "
            "not match the required output shape {}. This behavior is deprecated, and in a "
            "future PyTorch release outputs will not be resized unless they have zero elements. "
            "You can explicitly reuse an out tensor t by resizing it, inplace, to zero elements "
            "with t.resize_(0).")


def _tensors(values):
    for value in values:
        if isinstance(value, Tensor):
            yield value
        elif isinstance(value, (list, tuple)):
            yield from _tensors(value)


def with_out(func, name):
    """``func`` with an ``out=`` keyword argument."""
    @functools.wraps(func)
    def call(*args, out=None, **kwargs):
        if out is None:
            return func(*args, **kwargs)
        if not isinstance(out, Tensor):
            raise TypeError(f"{name}(): argument 'out' must be Tensor, not "
                            f"{type(out).__name__}")
        inputs = [*_tensors(args), *_tensors(kwargs.values()), out]
        if state.grad_enabled and any(t._requires_grad for t in inputs):
            raise RuntimeError(f"{name}(): functions with out=... arguments don't support "
                               "automatic differentiation, but one of the arguments requires "
                               "grad.")
        if out._inference:
            inference.check_inplace(out)
        if forward_ad._level is not None and any(forward_ad.tangent_of(t) is not None
                                                 for t in inputs):
            raise NotImplementedError(f"Trying to use forward AD with {name}_out that does not "
                                      "support it because it is an out= function")
        with no_grad():
            result = func(*args, **kwargs)
        if not _dtype.can_cast(result.dtype, out.dtype):
            raise _dtype.cast_error(result.dtype, out.dtype)
        if out.shape != result.shape:
            if out.numel():
                warnings.warn(_RESIZED.format(list(out.shape), list(result.shape)),
                              UserWarning, stacklevel=2)
            out.resize_(result.shape)
        if allow_mutation.active is not None:  # a saved tensor about to change: keep a clone
            allow_mutation.before_mutation(out)
        out._data[...] = result._data
        out._version_counter[0] += 1
        return out
    return call
