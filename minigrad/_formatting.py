"""PyTorch's tensor printing (``tensor([2., 4.], grad_fn=<MulBackward0>)``)."""

import numpy as np

__all__ = ["tensor_repr"]


def tensor_repr(t):
    data = t._data
    body = np.array2string(data, separator=", ", prefix="tensor(")
    suffix = []
    if data.dtype not in (np.float32, np.int64, np.bool_):
        suffix.append(f"dtype={t.dtype}")
    if t.grad_fn is not None:
        suffix.append(f"grad_fn=<{t.grad_fn.name()}>")
    elif t.requires_grad:
        suffix.append("requires_grad=True")
    return "tensor(" + ", ".join([body] + suffix) + ")"
