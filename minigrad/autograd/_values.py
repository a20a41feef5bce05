"""Tensor values as plain data: full for small tensors, a summary for large ones.

A *Value* is what snapshots and recordings store instead of an array::

    {"shape": [2], "dtype": "float32", "data": [2.0, 4.0]}
    {"shape": [256, 1024], "dtype": "float32",
     "summary": {"min": -3.1, "max": 2.9, "mean": 0.01, "norm": 511.7}}

Non-finite numbers are the strings ``"nan"``, ``"inf"`` and ``"-inf"`` so that every Value is
valid JSON. ``ValueTable`` stores each distinct Value once and hands out integer references;
``freeze``/``thaw`` turn plain data into read-only data and back.
"""

import math
import re
from types import MappingProxyType

import numpy as np

__all__ = ["FULL_LIMIT", "COPY_LIMIT", "value_of", "ValueTable", "value_to_array", "format_value",
           "callable_name", "freeze", "thaw", "canonical"]

FULL_LIMIT = 64  # tensors with at most this many elements are stored in full
# record() keeps a copy of arrays up to this many elements and summarises them when read;
# larger ones are summarised at once (a copy of each would take too much memory).
COPY_LIMIT = 4096
_WHOLE_BYTES = 512  # arrays of up to this many bytes are looked up by all of them (add_small)
_END_BYTES = 64     # longer ones by this many at each end
_SAME_ENDS = 8      # different arrays with the same ends that are told apart


def _number(x):
    """A JSON-safe Python number (non-finite floats become strings)."""
    if isinstance(x, float) and not math.isfinite(x):
        return "nan" if x != x else ("inf" if x > 0 else "-inf")
    return x


def _json_safe(data):
    if isinstance(data, list):
        return [_json_safe(d) for d in data]
    return _number(data)


def _summary(array):
    with np.errstate(all="ignore"):
        values = array.astype(np.float64) if array.dtype.kind in "biu" else array
        return {"min": _number(float(values.min())), "max": _number(float(values.max())),
                "mean": _number(float(values.mean())),
                "norm": _number(float(np.sqrt(np.sum(np.square(values, dtype=np.float64)))))}


_DTYPE_NAMES = {}


def _finite(data, array):
    """Whether every number of a small float array is finite (cheap for scalars and vectors)."""
    if array.ndim == 0:
        return math.isfinite(data)
    if array.ndim <= 2:
        # inf or nan if any element is; a finite overflow is re-checked
        total = sum(data) if array.ndim == 1 else sum(map(sum, data))
        return math.isfinite(total) or bool(np.isfinite(array).all())
    return bool(np.isfinite(array).all())


def value_of(array, full_limit=FULL_LIMIT):
    """The Value (plain data) of an ndarray or a tensor.

    Example:
        >>> value_of(np.array([2.0, 4.0], dtype=np.float32))
        {'shape': [2], 'dtype': 'float32', 'data': [2.0, 4.0]}
    """
    array = getattr(array, "_data", array)
    dtype = array.dtype
    name = _DTYPE_NAMES.get(dtype)
    if name is None:
        name = _DTYPE_NAMES[dtype] = dtype.name
    if array.size <= full_limit:
        data = array.tolist()
        if dtype.kind == "f" and not _finite(data, array):
            data = _json_safe(data)
        return {"shape": list(array.shape), "dtype": name, "data": data}
    return {"shape": list(array.shape), "dtype": name, "summary": _summary(array)}


class ValueTable:
    """Stores each distinct Value once; ``add(array)`` returns its index in ``values``.

    Arrays are deduplicated by content (dtype, shape and bytes: see ``add_small``), the
    largest ones by their summary, so a gradient that flows unchanged through ten events is
    stored once. While
    recording, an array of at most ``copy_limit`` elements is kept as its bytes (a copy, not a
    live object) and becomes a Value when ``values`` is first read: a copy costs a microsecond,
    a summary (min, max, mean, norm) dozens. A larger one is summarised at once, so that the
    table never holds big copies. The Values are ``canonical`` (tuples, not lists).

    ``alarm`` (if set) is called when ``nbytes`` first reaches ``alarm_bytes``: ``record()``
    checks its ``max_bytes`` cap then.
    """

    def __init__(self, full_limit=FULL_LIMIT, copy_limit=COPY_LIMIT):
        self.full_limit = full_limit
        self.copy_limit = max(copy_limit, full_limit)
        self.nbytes = 0          # a rough estimate of the memory the Values take
        self.alarm, self.alarm_bytes = None, math.inf
        self._entries = []       # (dtype, shape, bytes) of an array, or a Value
        self._index = {}         # (dtype, shape, bytes) of a short array -> reference
        self._by_ends = {}       # (dtype, shape, first bytes, last bytes) of a longer one ->
        #                          ((its bytes, reference), ...)
        self._done = 0           # entries [0, _done) are Values already

    def add(self, tensor):
        """The reference of ``tensor``'s current value (``None`` for ``None``)."""
        if tensor is None:
            return None
        array = getattr(tensor, "_data", tensor)  # a tensor or an ndarray
        if array.size <= self.copy_limit:
            return self.add_small(array)
        return self.add_large(array)

    def add_small(self, array):
        """``add`` for an ndarray of at most ``copy_limit`` elements: kept as its bytes.

        A short array is looked up by its bytes. A longer one is looked up by the bytes at its
        two ends, then compared whole with the arrays found there: hashing all its bytes would
        cost more than the rest of the lookup (a hundred kB per step of a small MLP). Past
        ``_SAME_ENDS`` different arrays with the same ends, new ones are stored without
        looking (a copy more, never a wrong value)."""
        data = array.tobytes()
        if len(data) <= _WHOLE_BYTES:
            key = (array.dtype, array.shape, data)
            ref = self._index.get(key)
            return self.new_small(key, array) if ref is None else ref
        ends = (array.dtype, array.shape, data[:_END_BYTES], data[-_END_BYTES:])
        found = self._by_ends.get(ends, ())
        for stored, ref in found:
            if stored == data:
                return ref
        ref = self.new_small((array.dtype, array.shape, data), array, indexed=False)
        if len(found) < _SAME_ENDS:  # (a tuple, not a list: the collector soon lets it be)
            self._by_ends[ends] = (*found, (data, ref))
        return ref

    def new_small(self, key, array, indexed=True):
        """``add_small`` of an array whose key ``(dtype, shape, bytes)`` is not in the table
        yet (a caller that looked it up already, by its bytes unless not ``indexed``)."""
        ref = len(self._entries)
        if indexed:
            self._index[key] = ref
        self._entries.append(key)
        self.nbytes += 100 + array.nbytes
        if self.nbytes >= self.alarm_bytes:
            self._ring()
        return ref

    def add_large(self, array):
        """``add`` for an ndarray of more than ``full_limit`` elements: kept as its bytes up to
        ``copy_limit`` elements, summarised now above."""
        if array.size <= self.copy_limit:
            return self.add_small(array)
        value = canonical(value_of(array, self.full_limit))
        key = (value["dtype"], array.shape, tuple(value["summary"].values()))
        ref = self._index.get(key)
        if ref is None:
            ref = self._index[key] = len(self._entries)
            self._entries.append(value)
            self.nbytes += 300
            if self.nbytes >= self.alarm_bytes:
                self._ring()
        return ref

    def _ring(self):
        self.alarm_bytes = math.inf
        if self.alarm is not None:
            self.alarm()

    def __len__(self):
        return len(self._entries)

    def value(self, ref):
        """The Value of one reference (made from its bytes if need be, and kept)."""
        entry = self._entries[ref]
        if type(entry) is tuple:
            entry = self._entries[ref] = self._make(entry)
        return entry

    def _make(self, entry):
        dtype, shape, data = entry
        return canonical(value_of(np.frombuffer(data, dtype).reshape(shape), self.full_limit))

    @property
    def values(self):
        """The list of Values (converting what was recorded since the last call)."""
        entries = self._entries
        for i in range(self._done, len(entries)):
            entry = entries[i]
            if type(entry) is tuple:
                entries[i] = self._make(entry)
        self._done = len(entries)
        return entries


def value_to_array(value):
    """The ndarray of a full Value (``None`` for a summary)."""
    if value is None or "data" not in value:
        return None
    data = thaw(value["data"])

    def restore(d):
        if isinstance(d, list):
            return [restore(x) for x in d]
        return float(d) if isinstance(d, str) else d
    return np.array(restore(data), dtype=value["dtype"]).reshape(value["shape"])


_SPACES = re.compile(r"\s+")


def format_value(value, max_elements=8):
    """Short text for a Value, as PyTorch prints the tensor: ``[6., 8.]``, ``1.``.

    Example:
        >>> format_value({"shape": [2], "dtype": "float32", "data": [6.0, 8.0]})
        '[6., 8.]'
    """
    if value is None:
        return "None"
    shape = list(value["shape"])
    size = int(np.prod(shape, dtype=np.int64)) if shape else 1
    if "data" in value and size <= max_elements:
        from minigrad._formatting import tensor_body
        return _SPACES.sub(" ", tensor_body(value_to_array(value), indent=0)).replace("[ ", "[")
    dims = "×".join(str(s) for s in shape)
    if "data" in value:
        array = value_to_array(value).astype(np.float64)
        with np.errstate(all="ignore"):
            mean, norm = float(array.mean()), float(np.sqrt(np.sum(array * array)))
    else:
        mean, norm = (float(value["summary"][k]) for k in ("mean", "norm"))
    return f"a {dims} tensor (mean {mean:.4g}, norm {norm:.4g})"


def callable_name(fn):
    """A readable name for a hook: its ``__name__``, or its class name."""
    inner = getattr(fn, "func", None)  # functools.partial
    if inner is not None and not hasattr(fn, "__name__"):
        return f"partial({callable_name(inner)})"
    name = getattr(fn, "__name__", None)
    return name if isinstance(name, str) else type(fn).__name__


def freeze(data):
    """Read-only copy of plain data: dicts become mapping proxies, lists become tuples."""
    if isinstance(data, dict):
        return MappingProxyType({k: freeze(v) for k, v in data.items()})
    if isinstance(data, (list, tuple)):
        return tuple(freeze(v) for v in data)
    return data


def canonical(data):
    """The same plain data with every list turned into a tuple (dicts stay dicts).

    Recordings keep their events and Values in this form: equal data compares equal whether
    it was recorded or read back from JSON.
    """
    if isinstance(data, dict):
        return {k: canonical(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return tuple(canonical(v) for v in data)
    return data


def thaw(data):
    """Plain (JSON-ready) copy of frozen data."""
    if isinstance(data, (dict, MappingProxyType)):
        return {k: thaw(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [thaw(v) for v in data]
    return data
