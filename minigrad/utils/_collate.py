"""How a ``DataLoader`` turns a list of samples into one batch (PyTorch's ``default_collate``).

Tensors are stacked along a new first dimension; NumPy arrays become tensors and are stacked;
Python floats become a float64 tensor, ints an int64 tensor; strings stay a list; dicts,
named tuples, tuples and lists are collated field by field.
"""

import collections.abc
import numbers

import numpy as np

import minigrad

__all__ = ["default_collate", "default_convert"]

_UNSUPPORTED = ("default_collate: batch must contain tensors, numpy arrays, numbers, dicts or "
                "lists; found {}")


def default_collate(batch):
    """One batch from a list of samples of the same structure.

    Example:
        >>> default_collate([(minigrad.tensor([1.0]), 0), (minigrad.tensor([2.0]), 1)])
        [tensor([[1.],
                [2.]]), tensor([0, 1])]
    """
    elem = batch[0]
    if isinstance(elem, minigrad.Tensor):
        return minigrad.stack(batch, 0)
    if isinstance(elem, (np.ndarray, np.generic)) and not isinstance(elem, (np.str_, np.bytes_)):
        if elem.dtype.kind in "OSUa":
            raise TypeError(_UNSUPPORTED.format(elem.dtype))
        if elem.shape == ():
            return minigrad.as_tensor(np.array(batch))
        return default_collate([minigrad.as_tensor(b) for b in batch])
    if isinstance(elem, float):
        return minigrad.tensor(batch, dtype=minigrad.float64)
    if isinstance(elem, numbers.Integral):
        return minigrad.tensor(batch)
    if isinstance(elem, (str, bytes)):
        return batch
    if isinstance(elem, collections.abc.Mapping):
        collated = {key: default_collate([d[key] for d in batch]) for key in elem}
        try:
            return type(elem)(collated)
        except TypeError:
            return collated
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):  # a named tuple
        return type(elem)(*(default_collate(list(samples)) for samples in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        if any(len(b) != len(elem) for b in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        columns = [default_collate(list(samples)) for samples in zip(*batch)]
        if isinstance(elem, tuple):
            return columns
        try:
            return type(elem)(columns)
        except TypeError:
            return columns
    raise TypeError(_UNSUPPORTED.format(type(elem)))


def default_convert(data):
    """A sample as the loader hands it out without batching: NumPy arrays become tensors."""
    if isinstance(data, np.ndarray) and data.dtype.kind not in "OSUa":
        return minigrad.as_tensor(data)
    if isinstance(data, collections.abc.Mapping):
        return type(data)({key: default_convert(value) for key, value in data.items()})
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return type(data)(*(default_convert(d) for d in data))
    if isinstance(data, (list, tuple)):
        return type(data)(default_convert(d) for d in data)
    return data
