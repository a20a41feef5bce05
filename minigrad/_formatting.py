"""Printing tensors exactly the way PyTorch prints them.

``repr(t)`` is ``tensor(<body>, <suffixes>)``. The body is built in three steps, following
PyTorch's ``torch/_tensor_str.py``:

1. A ``_Formatter`` looks at every element that will be shown and picks one style for all of
   them (integer-valued floats ``4.``, fixed ``0.1000`` or scientific ``1.0000e-05``) and one
   column width, so that the columns line up.
2. Nested lists are written one dimension at a time; rows wrap at ``linewidth`` columns and
   continuation lines are indented under the opening bracket. Tensors with more than
   ``threshold`` elements are summarised: ``edgeitems`` rows at each end, ``...`` between.
3. Suffixes (``dtype=``, ``grad_fn=``, ``requires_grad=True``) follow, on a new line when they
   would overflow the line.

Example:
    >>> x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    >>> x * 2
    tensor([2., 4.], grad_fn=<MulBackward0>)
"""

import math
from dataclasses import dataclass

import numpy as np

__all__ = ["PRINT_OPTS", "set_printoptions", "get_printoptions", "tensor_repr", "tensor_body"]


@dataclass
class _PrintOptions:
    precision: int = 4        # digits after the decimal point
    threshold: float = 1000   # summarise tensors with more elements than this
    edgeitems: int = 3        # rows (or elements) shown at each end when summarising
    linewidth: int = 80       # characters per line before wrapping
    sci_mode: bool | None = None  # None: let the formatter decide


PRINT_OPTS = _PrintOptions()

_PROFILES = {
    "default": dict(precision=4, threshold=1000, edgeitems=3, linewidth=80),
    "short": dict(precision=2, threshold=1000, edgeitems=2, linewidth=80),
    "full": dict(precision=4, threshold=math.inf, edgeitems=3, linewidth=80),
}


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None,
                     profile=None, sci_mode=None):
    """Change how tensors print (PyTorch's ``torch.set_printoptions``).

    ``profile`` is ``"default"``, ``"short"`` or ``"full"``; the other arguments override it.
    As in PyTorch, ``sci_mode`` is reset to automatic unless it is given.

    Example:
        >>> minigrad.set_printoptions(precision=2)
        >>> minigrad.tensor([1 / 3])
        tensor([0.33])
        >>> minigrad.set_printoptions(profile="default")
    """
    if profile is not None:
        for name, value in _PROFILES[profile].items():
            setattr(PRINT_OPTS, name, value)
    for name, value in (("precision", precision), ("threshold", threshold),
                        ("edgeitems", edgeitems), ("linewidth", linewidth)):
        if value is not None:
            setattr(PRINT_OPTS, name, value)
    PRINT_OPTS.sci_mode = sci_mode


def get_printoptions():
    """The current print options as a dict."""
    return dict(vars(PRINT_OPTS))


# ---------------------------------------------------------------------------- one element
class _Formatter:
    """One style and one width for all the elements of a tensor."""

    def __init__(self, values):
        """``values``: a flat array of the elements that will be printed."""
        self.floating = values.dtype.kind == "f"
        self.int_mode = True   # floats that are all whole numbers print as ``4.``
        self.sci_mode = False
        self.width = 1
        if not self.floating:
            self.width = max([len(str(v)) for v in values.tolist()] + [1])
            return
        shown = values[np.isfinite(values) & (values != 0)]
        if shown.size:  # else (all zero, nan or inf): "0.", "nan", "inf"
            self._choose_float_style(shown)

    def _choose_float_style(self, shown):
        magnitudes = np.abs(shown).astype(np.float64)
        smallest, largest = magnitudes.min(), magnitudes.max()
        self.int_mode = bool(np.all(shown == np.ceil(shown)))
        self.sci_mode = PRINT_OPTS.sci_mode
        if self.sci_mode is None:
            self.sci_mode = bool(largest / smallest > 1000.0 or largest > 1.0e8
                                 or smallest < 1.0e-4)
        precision = PRINT_OPTS.precision
        if self.sci_mode:
            widths = [len(f"{v:.{precision}e}") for v in shown.tolist()]
        elif self.int_mode:
            widths = [len(f"{v:.0f}") + 1 for v in shown.tolist()]  # + 1 for the "."
        else:
            widths = [len(f"{v:.{precision}f}") for v in shown.tolist()]
        self.width = max([self.width] + widths)

    def __call__(self, value):
        """The text of one element (a Python number), right-aligned to the common width."""
        if not self.floating:
            text = f"{value}"
        elif self.sci_mode:
            text = f"{value:{self.width}.{PRINT_OPTS.precision}e}"
        elif self.int_mode:
            text = f"{value:.0f}" + ("." if math.isfinite(value) else "")
        else:
            text = f"{value:.{PRINT_OPTS.precision}f}"
        return text.rjust(self.width)


# ---------------------------------------------------------------------------- the body
def _shown_elements(data):
    """The elements a summarised print shows (``edgeitems`` at each end of every dim)."""
    edge = PRINT_OPTS.edgeitems
    if data.ndim == 0:
        return data
    if data.ndim == 1:
        return np.concatenate((data[:edge], data[-edge:])) if len(data) > 2 * edge else data
    if not edge:
        return data[(slice(0, 0),) * data.ndim]
    rows = _row_indices(len(data), edge, summarize=True)
    return np.stack([_shown_elements(data[i]) for i in rows if i is not None])


def _row_indices(n, edge, summarize):
    """Rows to print, with ``None`` where ``...`` goes."""
    if summarize and n > 2 * edge:
        return [*range(edge), None, *range(n - edge, n)]
    return list(range(n))


def _vector_str(data, indent, summarize, fmt):
    per_line = max(1, math.floor((PRINT_OPTS.linewidth - indent) / (fmt.width + 2)))
    edge = PRINT_OPTS.edgeitems
    if summarize and not edge:
        items = ["..."]
    elif summarize and len(data) > 2 * edge:
        items = ([fmt(v) for v in data[:edge].tolist()] + [" ..."]
                 + [fmt(v) for v in data[-edge:].tolist()])
    else:
        items = [fmt(v) for v in data.tolist()]
    lines = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _nested_str(data, indent, summarize, fmt):
    if data.ndim == 0:
        return fmt(data.item())
    if data.ndim == 1:
        return _vector_str(data, indent, summarize, fmt)
    rows = _row_indices(len(data), PRINT_OPTS.edgeitems, summarize)
    parts = ["..." if i is None else _nested_str(data[i], indent + 1, summarize, fmt)
             for i in rows]
    return "[" + ("," + "\n" * (data.ndim - 1) + " " * (indent + 1)).join(parts) + "]"


def tensor_body(data, indent=7):  # 7 = len("tensor(")
    """The values part of a repr, e.g. ``[2., 4.]``, for an ndarray printed at ``indent``."""
    if data.size == 0:
        return "[]"
    if data.dtype == np.float16:
        data = data.astype(np.float32)  # as PyTorch does before formatting halves
    summarize = data.size > PRINT_OPTS.threshold
    fmt = _Formatter((_shown_elements(data) if summarize else data).reshape(-1))
    return _nested_str(data, indent, summarize, fmt)


# ---------------------------------------------------------------------------- the whole repr
def _add_suffixes(text, suffixes, indent):
    """Append ``, suffix`` items, starting a new line when one would pass ``linewidth``."""
    parts = [text]
    last_line_len = len(text) - text.rfind("\n") + 1  # PyTorch's arithmetic, kept as is
    for suffix in suffixes:
        if last_line_len + len(suffix) + 2 > PRINT_OPTS.linewidth:
            parts.append(",\n" + " " * indent + suffix)
            last_line_len = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            last_line_len += len(suffix) + 2
    return "".join(parts) + ")"


def _prefix(t):
    from minigrad.tensor import Tensor
    cls = type(t)
    # A Python number wrapped as an operand is a plain tensor to the user, as in PyTorch.
    plain = cls is Tensor or cls.__name__ in ("Parameter", "WrappedNumber")
    return "tensor(" if plain else f"{cls.__name__}("


def tensor_repr(t):
    """PyTorch's repr of a minigrad tensor (also what ``print`` shows).

    ``nn.Parameter`` builds on it: ``"Parameter containing:\\n" + tensor_repr(p)``.
    """
    from minigrad import _dtype
    prefix = _prefix(t)
    indent = len(prefix)
    data, dtype = t._data, t.dtype
    suffixes = []
    if data.size == 0:
        if data.ndim != 1:
            suffixes.append(f"size={tuple(data.shape)}")
        if dtype is not _dtype.default_float:  # nothing to infer the dtype from
            suffixes.append(f"dtype={dtype!r}")
    else:
        if not PRINT_OPTS.edgeitems:
            suffixes.append(f"size={tuple(data.shape)}")
        if dtype not in (_dtype.default_float, _dtype.int64, _dtype.bool):
            suffixes.append(f"dtype={dtype!r}")
    if t.grad_fn is not None:
        suffixes.append(f"grad_fn=<{type(t.grad_fn).__name__}>")
    elif t.requires_grad:
        suffixes.append("requires_grad=True")
    from minigrad.autograd import forward_ad
    tangent = forward_ad.tangent_of(t) if forward_ad._level is not None else None
    if tangent is not None:  # a dual tensor inside a dual level, as PyTorch prints it
        suffixes.append(f"tangent={tensor_repr(tangent)}")
    return _add_suffixes(prefix + tensor_body(data, indent), suffixes, indent)
