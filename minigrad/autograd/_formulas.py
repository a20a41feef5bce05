"""The chain-rule formula of each built-in op, and the numbers it needs, as plain data.

Each built-in ``Function`` subclass carries ``formula``: one expression per tensor input
(in ``next_functions`` order), next to its ``backward``, e.g. ``Mul.formula = ("grad * other",
"grad * self")``. The names in an expression are ``grad`` (the gradient the node receives),
the names of its saved tensors (``self``, ``other``, ``result`` …), the attributes its
``forward`` kept on ``ctx`` (``exponent``, ``alpha``, ``self_sym_sizes`` …) and the helper
functions of ``FUNCTIONS``. An op with several outputs (``split``, ``var_mean``) names the
gradients it receives ``grads`` (``grads[0]``, … ; zeros for an output nobody used). An op
that takes a list of tensors (``cat``, ``stack``) writes one expression with ``i``, the
position of the input: ``formula_of`` repeats it for each input with ``i`` replaced by 0, 1,
…. An expression reads as NumPy (``@`` is a matrix product, ``x.T`` a transpose, ``g[index]``
an index); its value, summed back to the input's shape where the op broadcast, is the
gradient the node sends to that input (tests/test_formulas.py evaluates every formula on the
numbers of real runs, with the helpers written out in tests/formula_eval.py, and compares).

``operands_of(node)`` collects the values the formula names, so that a recording can show the
arithmetic of each step ("∂/∂a = grad · b = 1 · 3 = 3") without keeping the tensors alive.

Example:
    >>> formula_names(("grad * other", "grad * self"))
    ('other', 'self')
"""

import re

import numpy as np

from minigrad.autograd._values import _DTYPE_NAMES, value_of

__all__ = ["FUNCTIONS", "formula_of", "formula_names", "operands_of", "operand_tensors",
           "recorded_operands"]

# The helpers an expression may call (besides NumPy's operators, ``x[index]`` and ``.T``).
# Each is written the way a course writes the step; tests/test_formulas.py evaluates them.
FUNCTIONS = frozenset({
    "exp", "log", "sin", "cos", "sinh", "cosh", "sign", "sqrt", "floor", "where", "sigmoid",
    "sum", "abs",
    "log_sigmoid",   # log σ(x)
    "maximum",   # maximum(a, b): elementwise
    "expand",    # expand(g, shape): g broadcast to shape
    "spread",    # spread(g, shape, dim, keepdim): a reduction's g put back over dim, broadcast
    "mean",      # mean(x, dim): the mean over dim, kept as size-1 dimensions
    "reshape",   # reshape(g, shape)
    "squeeze",   # squeeze(g, dim)
    "unsqueeze",  # unsqueeze(g, dim): dim may be a tuple of dimensions
    "permute_back",  # permute_back(g, dims): g with the permutation dims undone
    "swap",      # swap(g, dim0, dim1): two dimensions exchanged
    "mT",        # mT(x): the last two dimensions exchanged
    "outer",     # outer(u, v)
    "cross",     # cross(a, b, dim): the cross product of 3-vectors along dim
    "rowsum",    # rowsum(x, dim): sum over dim, kept as a size-1 dimension
    "divisor",   # divisor(mode, numel): numel for reduction="mean", else 1
    "between",   # between(x, bounds): 1 where lo <= x <= hi, else 0
    "count_equal",  # count_equal(x, y): how many elements of x equal y
    "ties",      # ties(x, m, dim, keepdim): 1/k on each of the k elements of x equal to m
    "put",       # put(g, index, shape): zeros of shape with g added at [index]
    "scatter",   # scatter(g, dim, indices, shape): zeros of shape with g at indices along dim
    "split",     # split(g, pieces, dim): g cut along dim into the pieces cat joined
    "cat",       # cat(gs, dim): gradients joined along dim
    "stack",     # stack(gs, dim): gradients stacked along a new dim
    "unbind",    # unbind(g, dim): the slices of g along dim
    "sum_tiles",  # sum_tiles(g, repeats, shape): the sum of g's tiles (repeat's gradient)
    "prod_others",  # prod_others(x, dim): each element's product of the others along dim
    "flip",      # flip(g, dims): g in reverse order along dims
    "tril",      # tril(g, diagonal): g below (and on) the diagonal, zeros above
    "triu",      # triu(g, diagonal): g above (and on) the diagonal, zeros below
    "cumsum",    # cumsum(g, dim): the running sum of g along dim
    "cumprod_grad",  # cumprod_grad(g, x, dim): Σ_{k≥i} g_k Π_{j≤k, j≠i} x_j (cumprod's gradient)
    "diagonal_of",  # diagonal_of(g, (offset, dim1, dim2)): a diagonal of g
    "diagonal_scatter",  # diagonal_scatter(g, shape, (offset, dim1, dim2)): zeros, g on it
    "norm_slope",  # norm_slope(x, norm, p, dim, keepdim): ∂‖x‖ₚ/∂x (x/‖x‖ for p = 2)
    "per_class",  # per_class(g): g with a class dimension (dim 1) when it has a batch one
    "or_one",    # or_one(w): w, or 1 when there is no weight (None)
    "batch_norm_input",  # batch_norm_input(g, x, γ, eps, training): ∂ℓ/∂x of batch norm
    "x_hat",     # x_hat(x, mean, invstd): (x - μ)/σ, the normalised input
    "channels",  # channels(g): Σ over every dimension but the channel one (dim 1)
    "conv_input",   # conv_input(g, w, params, x): ∂ℓ/∂x of a convolution (convᵀ of g)
    "conv_weight",  # conv_weight(x, g, params, w): ∂ℓ/∂w of a convolution
    "conv",      # conv(x, w, params, like): the convolution itself (fitted to like's shape)
    "channel_bias",  # channel_bias(b, like): a per-channel b broadcast over like's shape
    "adaptive_avg_pool",  # adaptive_avg_pool(x, size): adaptive average pooling
    "avg_pool",  # avg_pool(x, params): average pooling
    "avg_unpool",  # avg_unpool(g, shape, params): g / divisor spread over each window
    "max_unpool",  # max_unpool(g, shape, indices): g added at each window's argmax
    "max_pool_pick",  # max_pool_pick(g, indices): g at each window's argmax
    "embedding_add",  # embedding_add(g, indices, rows, padding_idx): Σ of g's rows per index
    "rows_of",   # rows_of(w, indices, padding_idx): w[indices], rows of padding_idx zeroed
})
_NAME = re.compile(r"(?<![.\w])[A-Za-z_]\w*")
_KEYWORDS = frozenset({"grad", "grads", "i", "and", "or", "not", "if", "else", "is", "True",
                       "False", "None"})
_POSITION = re.compile(r"(?<![.\w])i(?!\w)")
_CACHE = {}
_FORMULAS = {}  # node class -> (its op's formula or None, whether it repeats with i)


def formula_of(node):
    """The ``formula`` of the op that made ``node`` (``None`` for AccumulateGrad, custom ops)."""
    cls = type(node)
    known = _FORMULAS.get(cls)
    if known is None:
        formula = getattr(getattr(cls, "_forward_cls", None), "formula", None)
        positional = bool(formula) and len(formula) == 1 and bool(_POSITION.search(formula[0]))
        known = _FORMULAS[cls] = (tuple(formula) if formula else None, positional)
    formula, positional = known
    if positional:   # one expression per input
        count = len(getattr(node, "next_functions", ()) or ())
        if count:
            return tuple(_POSITION.sub(str(k), formula[0]) for k in range(count))
    return formula


def formula_names(formula):
    """The operand names of a formula (everything but ``grad``, keywords and helpers)."""
    names = _CACHE.get(formula)
    if names is None:
        seen = []
        for expression in formula:
            for name in _NAME.findall(expression or ""):
                if name not in FUNCTIONS and name not in _KEYWORDS and name not in seen:
                    seen.append(name)
        names = _CACHE[formula] = tuple(seen)
    return names


def _integers(items):
    """Whether a (nested) list holds integers or bools only, as an index list does."""
    return all(_integers(v) if isinstance(v, list) else isinstance(v, (int, np.integer))
               for v in items)


def _plain(value, full_limit, table=None):
    """A ctx attribute as plain data: numbers and strings as they are, tuples as lists,
    tensors and arrays as Values (shape and dtype only above ``full_limit`` elements), or as
    ``(reference,)`` into ``table`` (see ``operands_of``)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if type(value) is np.ndarray and value.size > full_limit:
        return _described(value)
    if isinstance(value, slice):          # an index: {"slice": [start, stop, step]}
        return {"slice": [value.start, value.stop, value.step]}
    if value is Ellipsis:
        return {"ellipsis": True}
    if isinstance(value, list) and value and _integers(value):   # an index: an array
        return value_of(np.asarray(value), full_limit)
    if isinstance(value, (tuple, list)):
        return [_plain(v, full_limit, table) for v in value]
    array = getattr(value, "_data", value)
    if hasattr(array, "dtype") and hasattr(array, "shape"):
        if array.size <= full_limit:
            if table is not None:
                return (table.add_small(array),)
            return value_of(array, full_limit)
        return _described(array)
    if hasattr(value, "name") and not callable(value.name):   # a minigrad dtype
        return str(value.name)
    return str(value)


def _described(array):
    """A large array as its shape and dtype only."""
    name = _DTYPE_NAMES.get(array.dtype)
    if name is None:  # (``dtype.name`` is slow: names are kept)
        name = _DTYPE_NAMES[array.dtype] = array.dtype.name
    return {"shape": list(array.shape), "dtype": name}


def _plan(node):
    """``(saved names, formula, ((operand name, its saved slot or -1), ...), whether it names
    ``grads``, whether its formula repeats per input)`` of ``node``'s class, worked out once
    per class (the saved names of built-in nodes are the class's)."""
    names = node._saved_as
    plan = _PLANS.get(type(node))
    if plan is None or plan[0] is not names:
        formula = formula_of(node)
        plan = (names, formula, None if formula is None else tuple(
            (name, names.index(name) if name in names else -1)
            for name in formula_names(formula)),
            formula is not None and any("grads" in (e or "") for e in formula),
            _FORMULAS[type(node)][1])
        _PLANS[type(node)] = plan
    return plan


_PLANS = {}


def operands_of(node, full_limit, table=None, values=None):
    """``{name: plain value}`` of the operands ``node``'s formula names (``{}`` without one),
    and ``output_shapes`` when it names ``grads``.

    Saved tensors are read without unpacking (no version check, no hooks); a slot that holds
    nothing (released, or not saved because no gradient needs it) gives ``None``. With a
    ``ValueTable``, small arrays are added to it and given as ``(reference,)``, the one kind
    of tuple among the plain values (``record()`` stores the bytes now and makes the Value
    when the recording is read); with ``values`` (a function), their Values are
    ``values(array)``.
    """
    plan = _plan(node)
    if plan[2] is None:
        return {}
    return _operands(node, plan, node._saved or (), full_limit, table, values)


def _operands(node, plan, saved, full_limit, table, values):
    """``operands_of`` once the plan and the saved slots are at hand."""
    result = {}
    for name, k in plan[2]:
        if k >= 0:
            slot = saved[k] if k < len(saved) else None
            if slot is None:
                result[name] = None
                continue
            tensor = slot.tensor
            data = tensor._data if tensor is not None else slot.data
            if data is None:
                result[name] = None
            elif type(data) is np.ndarray and (table is not None or values is not None):
                if data.size > full_limit:
                    result[name] = _described(data)
                elif table is not None:
                    result[name] = (table.add_small(data),)
                else:
                    result[name] = values(data)
            else:
                result[name] = _plain(data, full_limit, table)
        else:
            attributes = node.__dict__
            if name in attributes:
                value = attributes[name]
                if value is None or type(value) in _PLAIN_TYPES:
                    result[name] = value
                elif type(value) is tuple and _PLAIN_TYPES.issuperset(map(type, value)):
                    result[name] = list(value)  # (sizes, dims: _plain, without recursion)
                else:
                    result[name] = _plain(value, full_limit, table)
    if plan[3]:   # what an unused output sent
        meta = getattr(node, "_output_meta", None) or ()
        result["output_shapes"] = [list(shape) for shape, _ in meta]
    return result


_PLAIN_TYPES = frozenset({bool, int, float, str})  # (kept as they are by _plain)


def recorded_operands(node, full_limit, table, tensor_id):
    """What ``record()`` keeps of ``node`` the first time it runs, from one plan per class:
    ``(formula_of(node), operands_of(node, full_limit, table), {saved name:
    tensor_id(tensor)} of the saved inputs still held)``, the two dicts as tuples of their
    items (a recording keeps one per node: tuples soon leave the garbage collector's watch),
    or None when it has no formula."""
    plan = _plan(node)
    names, formula = plan[0], plan[1]
    if not formula:
        return None
    if plan[4]:  # one expression per input: as many as this node has
        formula = formula_of(node)
    saved = node._saved or ()
    operands = _operands(node, plan, saved, full_limit, table, None)
    ids = []
    for name, slot in zip(names, saved):
        if slot is not None:
            tensor = slot.tensor
            if tensor is not None:
                ids.append((name, tensor_id(tensor)))
    return formula, tuple(operands.items()), tuple(ids)


def operand_tensors(node):
    """``{saved name: tensor}`` for the saved inputs of ``node`` that are still held (a saved
    output is the node's own result and needs no link)."""
    saved = node._saved
    if not saved or _plan(node)[1] is None:
        return {}
    return {name: slot.tensor for name, slot in zip(node._saved_names(), saved)
            if slot is not None and slot.tensor is not None}
