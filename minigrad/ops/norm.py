"""Vector norms: ``x.norm()``, ``minigrad.norm`` and ``linalg_vector_norm``, PyTorch's
``LinalgVectorNormBackward0`` node, with its gradient for every order p (2, 1, ∞, 0, …)."""

import math

import numpy as np

from minigrad.autograd.function import _Op
from minigrad.ops.combine import masked_fill
from minigrad.ops.pointwise import Sgn
from minigrad.ops.reduction import _all_dims, _unsqueeze_to

__all__ = ["LinalgVectorNorm", "norm", "linalg_vector_norm"]


def _forward(data, ord, axis, keepdim):  # noqa: A002 - PyTorch's name
    a = np.abs(data)
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        if ord == 2:
            return np.sqrt(np.sum(a * a, axis=axis, keepdims=keepdim))
        if ord == 1:
            return np.sum(a, axis=axis, keepdims=keepdim)
        if ord == math.inf:
            return np.max(a, axis=axis, keepdims=keepdim)
        if ord == -math.inf:
            return np.min(a, axis=axis, keepdims=keepdim)
        if ord == 0:
            return np.sum(a != 0, axis=axis, keepdims=keepdim).astype(data.dtype)
        power = np.asarray(ord, dtype=data.dtype)
        return np.sum(a ** power, axis=axis, keepdims=keepdim) ** (1 / power)


class LinalgVectorNorm(_Op):
    """y = (Σ |x|ᵖ)^(1/p) over ``dim``;  ∂y/∂x = sign(x)·|x|ᵖ⁻¹ / yᵖ⁻¹ (x/y for p = 2,
    sign(x) for p = 1, shared evenly between the largest |x| for p = ∞; 0 where y = 0)."""

    node_name = "LinalgVectorNormBackward0"
    saved_names = ("self", "result")
    formula = (
        "spread(grad, self.shape, dim, keepdim) * norm_slope(self, result, ord, dim, keepdim)",
    )

    @staticmethod
    def forward(ctx, x, ord, dim, keepdim):  # noqa: A002 - PyTorch's name
        data = x._data
        if data.dtype.kind != "f":
            raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor "
                               f"as input. Got {x.dtype.tensor_type[:-6]}")
        dims = _all_dims(dim, x.ndim)
        if ord in (math.inf, -math.inf):
            _check_not_empty(data, dim, dims)
        ctx.ord, ctx.dim, ctx.keepdim = ord, dim, keepdim  # node._saved_ord, ... as in PyTorch
        result = np.asarray(_forward(data, ord, dims if data.ndim else None, keepdim))
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx, grad):
        x, norm = ctx.saved_tensors
        p = ctx.ord
        if x.ndim and not ctx.keepdim and ctx.dim:  # (over all dims, the 0-d grad broadcasts)
            dims = _all_dims(ctx.dim, x.ndim)
            grad, norm = _unsqueeze_to(grad, dims, False), _unsqueeze_to(norm, dims, False)
        sgn = Sgn.apply
        if p == 0:
            grad_x = None
        elif p == 1:
            grad_x = sgn(x) * grad
        elif p == 2:
            grad_x = grad * masked_fill(x / norm, norm == 0, 0.0)
        elif math.isinf(p):  # the derivative of max |x|: NaNs and ties share the gradient
            size = x.abs()
            mask = (size == norm) | size.isnan()
            grad_x = sgn(x) * (grad / mask.sum(_all_dims(ctx.dim, x.ndim), keepdim=True) * mask)
        elif p < 1:
            scaled = sgn(x) * masked_fill(x.abs() ** (p - 1), x == 0, 0.0)
            grad_x = scaled * grad * norm ** (1 - p)
        else:
            scaled = sgn(x) * x.abs() ** (p - 1) if p < 2 else x * x.abs() ** (p - 2)
            grad_x = scaled * masked_fill(grad / norm ** (p - 1), norm == 0, 0.0)
        return grad_x, None, None, None


def _check_not_empty(data, dim, dims):
    if dim is None or not data.ndim:
        if data.size == 0:
            raise RuntimeError("linalg.vector_norm cannot compute the inf norm on an empty tensor "
                               "because the operation does not have an identity")
        return
    for d in dims:
        if data.shape[d] == 0:
            # NB: PyTorch's message lacks the space after the dimension; so does this one.
            raise RuntimeError(f"linalg.vector_norm cannot compute the inf norm on the dimension "
                               f"{d}because this dimension is empty and the operation does not "
                               "have an identity")


def linalg_vector_norm(x, ord=2, dim=None, keepdim=False):  # noqa: A002 - PyTorch's name
    """The vector p-norm (Σ |x|ᵖ)^(1/p) of x over ``dim`` (all dimensions when None).

    Example:
        >>> minigrad.linalg_vector_norm(minigrad.tensor([3.0, -4.0]), ord=1)
        tensor(7.)
    """
    if isinstance(dim, int):
        dim = (dim,)
    return LinalgVectorNorm.apply(x, ord, None if dim is None else tuple(dim), keepdim)


def norm(input, p="fro", dim=None, keepdim=False):  # noqa: A002 - PyTorch's names
    """The p-norm of ``input`` over ``dim`` (all of it when None): ``x.norm()`` is the
    Euclidean length. ``p="fro"`` is the 2-norm.

    Example:
        >>> x = minigrad.tensor([3.0, 4.0], requires_grad=True)
        >>> x.norm()
        tensor(5., grad_fn=<LinalgVectorNormBackward0>)
    """
    if isinstance(p, str):
        if p != "fro":
            if p == "nuc":  # NB: minigrad has no SVD, so no nuclear norm
                raise NotImplementedError("minigrad: the nuclear norm (p='nuc') is not supported")
            raise RuntimeError(f"linalg.matrix_norm: Order {p} not supported.")
        if dim is not None and not isinstance(dim, int) and len(dim) > 2:
            raise RuntimeError("linalg.matrix_norm: dim must be a 2-tuple. Got "
                               + " ".join(str(d) for d in dim))
        p = 2
    return linalg_vector_norm(input, p, dim, keepdim)
