"""Storages: the flat run of memory that a tensor and all its views look at.

``Tensor.storage()`` gives a ``TypedStorage`` (elements of the tensor's dtype) and
``Tensor.untyped_storage()`` an ``UntypedStorage`` (bytes), as in PyTorch. Both are views of
the same NumPy memory as the tensor, so ``storage.data_ptr()`` and ``tensor.data_ptr()`` agree
up to the tensor's ``storage_offset()``.

Example:
    >>> x = minigrad.arange(5.0)[1:4]
    >>> len(x.untyped_storage()), x.storage_offset()
    (20, 1)
"""

import numpy as np

from minigrad._device import device as _device

__all__ = ["TypedStorage", "UntypedStorage"]


def _address(array):
    return array.__array_interface__["data"][0] if array.size else 0


class TypedStorage:
    """The elements of a storage, read as the tensor's dtype."""

    def __init__(self, flat, dtype):
        self._flat, self.dtype = flat, dtype

    @property
    def device(self):
        return _device("cpu")

    def __len__(self):
        return self._flat.size

    def size(self):
        return self._flat.size

    def __getitem__(self, index):
        value = self._flat[index]
        return value.tolist() if isinstance(value, (np.generic, np.ndarray)) else value

    def tolist(self):
        return self._flat.tolist()

    def data_ptr(self):
        return _address(self._flat)

    def element_size(self):
        return self._flat.itemsize

    def nbytes(self):
        return self._flat.nbytes

    def untyped(self):
        return UntypedStorage(self._flat)

    def __iter__(self):
        return iter(self.tolist())

    def __repr__(self):
        lines = "".join(f" {v}\n" for v in self.tolist())
        return (f"{lines}[minigrad.storage.TypedStorage(dtype={self.dtype}, device=cpu) of "
                f"size {len(self)}]")


class UntypedStorage:
    """The bytes of a storage."""

    def __init__(self, flat):
        self._flat = flat
        self._bytes = flat.view(np.uint8) if flat.size else np.zeros(0, np.uint8)

    device = TypedStorage.device

    def __len__(self):
        return self._bytes.size

    def nbytes(self):
        return self._bytes.size

    def size(self):
        return self._bytes.size

    def __getitem__(self, index):
        return self._bytes[index].tolist()

    def tolist(self):
        return self._bytes.tolist()

    def data_ptr(self):
        return _address(self._flat)

    def __repr__(self):
        lines = "".join(f" {v}\n" for v in self.tolist())
        return f"{lines}[minigrad.storage.UntypedStorage(device=cpu) of size {len(self)}]"
