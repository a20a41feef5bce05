"""Matrix products: ``dot``, ``mv``, ``mm``, ``bmm``, ``addmm`` and ``matmul``.

``matmul`` is not an op of its own: like PyTorch it dispatches on the operands' dimensions to
``dot`` (1-D·1-D), ``mv`` (2-D·1-D), ``mm`` (2-D·2-D, and 1-D·2-D between an unsqueeze and a
squeeze), folds a batch into ``mm``/``mv`` where PyTorch does, and otherwise broadcasts the
batch dimensions and calls ``bmm``. So ``x @ W`` shows students the very nodes PyTorch shows.
"""

import numpy as np

from minigrad import _dtype
from minigrad.autograd.function import _Op
from minigrad.ops._util import (
    apply_op,
    check_tensor_arg,
    sum_to,
    swap_dims,
    transposed,
)
from minigrad.ops.arithmetic import times
from minigrad.ops.shape import Expand, SqueezeDim, UnsafeView, contiguous, reshape

__all__ = ["Dot", "Mv", "Mm", "Bmm", "Addmm", "dot", "mv", "mm", "bmm", "addmm", "matmul"]

# dtype names as PyTorch's C++ type metadata prints them (used in mm's dtype error)
_CPP_NAMES = {"float32": "float", "float64": "double", "float16": "c10::Half", "int64": "long int",
              "int32": "int", "int16": "short int", "int8": "signed char",
              "uint8": "unsigned char", "bool": "bool"}


def _type(t):
    return t.dtype.tensor_type[:-6]  # "Float", "Double", "Long", ...


def _check_kernel(kernel, a, b, always=False):
    """PyTorch's products have no bool kernel; the empty ones (but dot) return before it."""
    if a._data.dtype.kind == "b" and (always or (a._data.size and b._data.size)):
        raise _dtype.not_implemented(kernel, _dtype.bool)


def _matrix(shape):
    return "x".join(str(s) for s in shape)


class Dot(_Op):
    """z = Σ a_i b_i;  ∂z/∂a = b,  ∂z/∂b = a."""

    node_name = "DotBackward0"
    array_backward = True  # its backward also runs on arrays (no create_graph)
    saved_names = ("self", "tensor")
    formula = ("grad * tensor", "grad * self")

    @staticmethod
    def forward(ctx, a, b):
        if a.ndim != 1 or b.ndim != 1:
            raise RuntimeError(f"1D tensors expected, but got {a.ndim}D and {b.ndim}D tensors")
        if a._data.dtype != b._data.dtype:
            raise RuntimeError("dot : expected both vectors to have same dtype, but found "
                               f"{_type(a)} and {_type(b)}")
        _check_kernel("dot", a, b, always=True)
        if a.shape != b.shape:
            n, m = a.shape[0], b.shape[0]
            raise RuntimeError(f"inconsistent tensor size, expected tensor [{n}] and src [{m}] "
                               "to have the same number of elements, but got "
                               f"{n} and {m} elements respectively")
        need_a, need_b = ctx.needs_input_grad
        ctx.save_for_backward(a if need_b else None, b if need_a else None)
        return np.asarray(np.dot(a._data, b._data))

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return (grad * b if b is not None else None,
                grad * a if a is not None else None)


class Mv(_Op):
    """z = A v;  ∂z/∂A = g vᵀ (outer product),  ∂z/∂v = Aᵀ g."""

    node_name = "MvBackward0"
    array_backward = True  # its backward also runs on arrays (no create_graph)
    saved_names = ("self", "vec")
    formula = ("outer(grad, vec)", "self.T @ grad")

    @staticmethod
    def forward(ctx, a, v):
        if a.ndim == 0:
            raise IndexError("Dimension specified as 0 but tensor has no dimensions")
        if a.ndim != 2 or v.ndim != 1:
            raise RuntimeError(f"vector + matrix @ vector expected, got 1, {a.ndim}, {v.ndim}")
        if a.shape[1] != v.shape[0]:
            raise RuntimeError(f"size mismatch, got input ({a.shape[0]}), mat "
                               f"({_matrix(a.shape)}), vec ({v.shape[0]})")
        if a._data.dtype != v._data.dtype:
            raise RuntimeError("addmv input tensors must have the same dtype, but got "
                               f"{_type(v)}, {_type(a)}, and {_type(v)}")
        _check_kernel("addmv_impl_cpu", a, v)
        need_a, need_v = ctx.needs_input_grad
        ctx.save_for_backward(a if need_v else None, v if need_a else None)
        return Mv.compute(a._data, v._data)

    compute = staticmethod(np.matmul)  # the product on arrays (see apply_op)

    @staticmethod
    def backward(ctx, grad):
        a, v = ctx.saved_tensors
        # (PyTorch's outer product: the column grad.reshape(n, 1) times v)
        return (grad.reshape(-1, 1) * v if v is not None else None,
                apply_op(Mv, transposed(a), grad) if a is not None else None)


def _check_mm(a, b, first="self", second="mat2"):
    if a._data.ndim != 2:
        raise RuntimeError(f"{first} must be a matrix")
    if b._data.ndim != 2:
        raise RuntimeError(f"{second} must be a matrix")
    if a._data.shape[1] != b._data.shape[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({_matrix(a.shape)} and "
                           f"{_matrix(b.shape)})")


class Mm(_Op):
    """Z = A B;  ∂Z/∂A = G Bᵀ,  ∂Z/∂B = Aᵀ G."""

    node_name = "MmBackward0"
    array_backward = True  # its backward also runs on arrays (no create_graph)
    saved_names = ("self", "mat2")
    formula = ("grad @ mat2.T", "self.T @ grad")
    pack_order = (1, 0)  # the order PyTorch packs them in (saved_tensors_hooks)

    @staticmethod
    def forward(ctx, a, b):
        _check_mm(a, b)
        if a._data.dtype != b._data.dtype:
            raise RuntimeError("expected m1 and m2 to have the same dtype, but got: "
                               f"{_CPP_NAMES[a.dtype.name]} != {_CPP_NAMES[b.dtype.name]}")
        _check_kernel("addmm_impl_cpu_", a, b)
        need_a, need_b = ctx.needs_input_grad
        ctx.save_for_backward(a if need_b else None, b if need_a else None)
        return Mm.compute(a._data, b._data)

    compute = staticmethod(np.matmul)  # the product on arrays (see apply_op)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return (apply_op(Mm, grad, transposed(b)) if b is not None else None,
                apply_op(Mm, transposed(a), grad) if a is not None else None)


class Bmm(_Op):
    """Z[i] = A[i] B[i] for each batch i;  ∂Z/∂A = G Bᵀ,  ∂Z/∂B = Aᵀ G (batch by batch)."""

    node_name = "BmmBackward0"
    array_backward = True  # its backward also runs on arrays (no create_graph)
    saved_names = ("self", "mat2")
    formula = ("grad @ mT(mat2)", "mT(self) @ grad")
    pack_order = (1, 0)  # the order PyTorch packs them in (saved_tensors_hooks)

    @staticmethod
    def forward(ctx, a, b):
        if a.ndim != 3:
            raise RuntimeError("batch1 must be a 3D tensor")
        if b.ndim != 3:
            raise RuntimeError("batch2 must be a 3D tensor")
        if b.shape[:2] != (a.shape[0], a.shape[2]):
            raise RuntimeError("Expected size for first two dimensions of batch2 tensor to be: "
                               f"[{a.shape[0]}, {a.shape[2]}] but got: [{b.shape[0]}, "
                               f"{b.shape[1]}].")
        if a._data.dtype != b._data.dtype:
            raise RuntimeError(f"expected scalar type {_type(a)} but found {_type(b)}")
        _check_kernel("bmm", a, b)
        need_a, need_b = ctx.needs_input_grad
        ctx.save_for_backward(a if need_b else None, b if need_a else None)
        return Bmm.compute(a._data, b._data)

    compute = staticmethod(np.matmul)  # the products on arrays (see apply_op)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return (apply_op(Bmm, grad, swap_dims(b, 1, 2)) if b is not None else None,
                apply_op(Bmm, swap_dims(a, 1, 2), grad) if a is not None else None)


class Addmm(_Op):
    """Z = β·C + α·A B (C broadcast);  ∂Z/∂C = β G (summed),  ∂Z/∂A = α G Bᵀ,  ∂Z/∂B = α Aᵀ G."""

    node_name = "AddmmBackward0"
    saved_names = ("mat1", "mat2")
    formula = (
        "beta * grad",
        "alpha * grad @ mat2.T",
        "alpha * mat1.T @ grad",
    )

    @staticmethod
    def forward(ctx, c, a, b, beta, alpha):
        for name, t in (("self", c), ("mat1", a)):
            if t._data.dtype != b._data.dtype:
                raise RuntimeError(f"{name} and mat2 must have the same dtype, but got "
                                   f"{_type(t)} and {_type(b)}")
        if a.ndim != 2 or b.ndim != 2:
            name, t = ("mat1", a) if a.ndim != 2 else ("mat2", b)
            raise RuntimeError(f"{name} must be a matrix, got {t.ndim}-D tensor")
        _check_mm(a, b)
        target = (a.shape[0], b.shape[1])
        _check_expand(c.shape, target)
        _check_kernel("addmm_impl_cpu_", a, b)
        need_c, need_a, need_b = ctx.needs_input_grad[:3]
        ctx.save_for_backward(a if need_b else None, b if need_a else None)
        ctx.self_sym_sizes, ctx.alpha, ctx.beta = tuple(c.shape), alpha, beta
        ctx.column_major = _column_major(a), _column_major(b)
        product = a._data @ b._data
        if alpha != 1:
            product = product * np.asarray(alpha, dtype=product.dtype)
        if beta == 0:
            return product
        bias = c._data if beta == 1 else c._data * np.asarray(beta, dtype=product.dtype)
        return product + bias

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        need_c = ctx.needs_input_grad[0]
        grad_c = sum_to(times(grad, ctx.beta), ctx.self_sym_sizes) if need_c else None
        col_a, col_b = ctx.column_major
        grad_a = grad_b = None
        if b is not None:  # (PyTorch's mm_mat1_backward)
            grad_a = times(mm(b, grad.t()).t() if col_a else mm(grad, b.t()), ctx.alpha)
        if a is not None:  # (mm_mat2_backward)
            grad_b = times(mm(grad.t(), a).t() if col_b else mm(a.t(), grad), ctx.alpha)
        return grad_c, grad_a, grad_b, None, None


def _column_major(t):
    """Whether a matrix is laid out column by column (a transposed one, such as the weight of
    ``linear``): PyTorch then computes its gradient as a transposed product."""
    strides, item = t._data.strides, t._data.itemsize
    return strides[0] == item and strides[1] == item * t.shape[0]


def _check_expand(shape, target):
    """PyTorch's error when ``addmm``'s ``input`` does not broadcast to the product's shape."""
    if len(shape) > len(target):
        raise RuntimeError(f"expand(torch.FloatTensor{{{list(shape)}}}, size={list(target)}): "
                           f"the number of sizes provided ({len(target)}) must be greater or "
                           f"equal to the number of dimensions in the tensor ({len(shape)})")
    lead = len(target) - len(shape)
    for i, s in enumerate(shape):
        if s != 1 and s != target[lead + i]:
            raise RuntimeError(f"The expanded size of the tensor ({target[lead + i]}) must match "
                               f"the existing size ({s}) at non-singleton dimension {lead + i}.  "
                               f"Target sizes: {list(target)}.  Tensor sizes: {list(shape)}")


def dot(a, b):
    """The inner product of two 1-D tensors."""
    check_tensor_arg("dot", "tensor", b, 2)
    return Dot.apply(a, b)


def mv(a, v):
    """Matrix × vector."""
    check_tensor_arg("mv", "vec", v, 2)
    return Mv.apply(a, v)


def mm(a, b):
    """Matrix × matrix (no broadcasting: see ``matmul``)."""
    check_tensor_arg("mm", "mat2", b, 2)
    return Mm.apply(a, b)


def bmm(a, b):
    """A batch of matrix products: ``(b, n, m) × (b, m, p) → (b, n, p)``."""
    check_tensor_arg("bmm", "mat2", b, 2)
    return Bmm.apply(a, b)


def addmm(input, mat1, mat2, *, beta=1, alpha=1):  # noqa: A002 - PyTorch's name
    """``beta * input + alpha * (mat1 @ mat2)`` in one op: ``nn.Linear``'s node (AddmmBackward0).

    Example:
        >>> minigrad.addmm(minigrad.ones(2), minigrad.ones(1, 3), minigrad.ones(3, 2))
        tensor([[4., 4.]])
    """
    return Addmm.apply(input, mat1, mat2, beta, alpha)


# ---------------------------------------------------------------- matmul
class _SqueezeInPlace(SqueezeDim):
    """y = x without dimension ``dim`` of size 1 (PyTorch's in-place ``squeeze_(dim)``)."""

    node_name = "SqueezeBackward4"


def matmul(a, b):
    """The matrix product with PyTorch's rules for 1-D operands and batch broadcasting.

    Example:
        >>> x = minigrad.ones(3, requires_grad=True)
        >>> W = minigrad.ones(3, 2, requires_grad=True)
        >>> x @ W
        tensor([3., 3.], grad_fn=<SqueezeBackward4>)
    """
    check_tensor_arg("matmul", "input", a, 1)
    check_tensor_arg("matmul", "other", b, 2)
    da, db = a._data.ndim, b._data.ndim
    if da == 2 and db == 2:  # (the commonest: checked first)
        return Mm.apply(a, b)
    if da == 0 or db == 0:
        raise RuntimeError("both arguments to matmul need to be at least 1D, but they are "
                           f"{da}D and {db}D")
    if da == 1 and db == 1:
        return dot(a, b)
    if da == 2 and db == 1:
        return mv(a, b)
    if da == 1 and db == 2:
        return _SqueezeInPlace.apply(mm(a.unsqueeze(0), b), (0,))
    if _should_fold(a, b):
        return _folded_matmul(a, b)
    return _batched_matmul(a, b)


def _should_fold(a, b):
    """Whether PyTorch folds the batch of the larger operand into an mm/mv: when the smaller
    operand requires grad (a smaller gradient), or when the fold needs no copy."""
    a_larger = a.ndim >= b.ndim
    big, small = (a, b) if a_larger else (b, a)
    if big.ndim < 3 or small.ndim > 2:
        return False
    if small._requires_grad:
        return True
    if a.ndim == 2:
        return False
    if big._data.size == 0:
        return True
    shape, strides = list(big.shape), list(big._data.strides)
    if not a_larger:  # the larger one is b, used transposed
        shape[-2:], strides[-2:] = shape[:-3:-1], strides[:-3:-1]
    return all(strides[i] == strides[i + 1] * shape[i + 1] for i in range(len(shape) - 2))


def _folded_matmul(a, b):
    transpose = b.ndim > a.ndim
    t1 = b.transpose(-2, -1) if transpose else a
    t2 = (a.t() if a.ndim == 2 else a) if transpose else b
    out_shape = tuple(t1.shape[:-1])
    folded = reshape(t1, (int(np.prod(out_shape)), t1.shape[-1]))
    if t2.ndim == 1:
        return UnsafeView.apply(mv(folded, t2), out_shape)
    out = UnsafeView.apply(mm(folded, t2), out_shape + (t2.shape[1],))
    if not transpose:
        return out
    return contiguous(out.transpose(-2, -1))


def _batched_matmul(a, b):
    da, db = a.ndim, b.ndim
    n, m1 = (a.shape[-2] if da > 1 else 1), a.shape[-1]
    m2, p = (b.shape[-2], b.shape[-1]) if db > 1 else (b.shape[0], 1)
    batch_a, batch_b = tuple(a.shape[:-2]), tuple(b.shape[:-2])
    if da == 3 and db == 3 and batch_a[0] != batch_b[0]:  # PyTorch folds these (smaller grad)
        if batch_a[0] == 1 and a._requires_grad:
            return matmul(SqueezeDim.apply(a, (0,)), b)
        if batch_b[0] == 1 and b._requires_grad:
            return matmul(a, SqueezeDim.apply(b, (0,)))
    batch = _broadcast_shapes(batch_a, batch_b)
    size = int(np.prod(batch))
    a3 = reshape(Expand.apply(a, batch + (n, m1)), (size, n, m1))
    if db == 1:
        b3 = reshape(Expand.apply(b, batch + (m2,)), (size, m2)).unsqueeze(2)
    else:
        b3 = reshape(Expand.apply(b, batch + (m2, p)), (size, m2, p))
    out = bmm(a3, b3)
    if db == 1:
        out = SqueezeDim.apply(out, (-1,))
    out_shape = batch + ((n,) if da > 1 else ()) + ((p,) if db > 1 else ())
    return UnsafeView.apply(out, out_shape)


def _broadcast_shapes(s1, s2):
    """The broadcast of two batch shapes, with PyTorch's message when they do not broadcast."""
    ndim = max(len(s1), len(s2))
    s1, s2 = (1,) * (ndim - len(s1)) + s1, (1,) * (ndim - len(s2)) + s2
    out = []
    for i, (x, y) in enumerate(zip(s1, s2)):
        if x != y and 1 not in (x, y):
            raise RuntimeError(f"The size of tensor a ({x}) must match the size of tensor b ({y}) "
                               f"at non-singleton dimension {i}")
        out.append(y if x == 1 else x)
    return tuple(out)
