"""``einsum``: sums of products of tensors whose dimensions are named by letters (Einstein's
summation convention), composed of differentiable views, sums, products and ``bmm``.

The plan is PyTorch's, so that the graph is too: each operand is aligned to one common layout
(the output's dimensions, then those summed out) by ``diagonal`` for a letter repeated in it,
``unsqueeze`` for a letter it lacks and one ``permute``; the aligned operands are then
contracted left to right, two at a time, by a ``mul`` or a ``bmm`` between permutes and
reshapes, and the summed dimensions are dropped by a final ``view`` (one operand: a ``sum``).
"""

import numbers

from minigrad.ops._util import type_name
from minigrad.ops.linalg import bmm
from minigrad.tensor import Tensor

__all__ = ["einsum"]

ELLIPSIS = "..."
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def einsum(*args):
    """Sums of products of the operands' elements along dimensions named by ``equation``:
    ``"ij,jk->ik"`` is a matrix product, ``"ii->"`` a trace, ``"bij->bji"`` a transpose.

    Subscripts are the letters a–z and A–Z, one per dimension; ``...`` stands for dimensions
    that broadcast; a letter repeated in one operand takes its diagonal; letters missing from
    the output (after ``->``) are summed over. Without ``->``, the output is ``...`` then the
    letters that appear once, in alphabetical order (capitals first). The operands may be
    given as one list, or interleaved with subscript lists: ``einsum(a, [0, 1], b, [1, 2])``.

    There is no einsum node: the result's ``grad_fn`` is the last step of the plan, as in
    PyTorch (``ViewBackward0`` after a ``bmm``, ``MulBackward0`` when nothing is summed,
    ``SumBackward1`` for one operand summed, ``PermuteBackward0`` for a transpose).

    NB: deeper in the graph, a ``reshape`` that PyTorch records as ``ReshapeAliasBackward0``
    (a view it reaches by strides) is a ``ViewBackward0`` here, and one that copies is a
    ``CloneBackward0`` under ``UnsafeViewBackward0``, as minigrad's ``reshape`` records them.
    The opt_einsum contraction order is not used (PyTorch's too only uses it when the
    ``opt_einsum`` package is installed).

    Example:
        >>> a = minigrad.tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> minigrad.einsum("ij,jk->ik", a, a)
        tensor([[ 7., 10.],
                [15., 22.]])
        >>> minigrad.einsum("ii", a)
        tensor(5.)
    """
    equation, operands = _arguments(args)
    inputs, output = _parse(equation, len(operands))
    ellipsis_ndim = _check_ranks(inputs, operands)
    positions, out_size, ellipsis_at, total = _layout(inputs, output, ellipsis_ndim)
    aligned, counts = _align(operands, inputs, positions, ellipsis_at, ellipsis_ndim, total)
    return _contract(aligned, counts, out_size)


# ---------------------------------------------------------------- arguments and equation
def _arguments(args):
    """(equation, operands) from ``(equation, *operands)``, ``(equation, [operands])`` or the
    sublist form ``(op, subscripts, op, subscripts, ..., [output])``."""
    if len(args) < 2:
        raise ValueError("einsum(): must specify the equation string and at least one operand, "
                         "or at least one operand and its subscripts list")
    if isinstance(args[0], Tensor):
        return _sublist_equation(args)
    equation, operands = args[0], args[1:]
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        return _arguments((equation, *operands[0]))
    if not isinstance(equation, str):
        raise TypeError("einsum(): argument 'equation' (position 1) must be str, not "
                        f"{type_name(equation)}")
    for i, operand in enumerate(operands):
        if not isinstance(operand, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 1, but got "
                            f"{type_name(operand)}")
    return equation, operands


def _sublist_equation(args):
    def letters(sublist):
        return "".join(_sublist_letter(s) for s in sublist)
    equation = ",".join(letters(s) for s in args[1::2])
    if len(args) % 2:
        return equation + "->" + letters(args[-1]), args[:-1:2]
    return equation, args[::2]


def _sublist_letter(s):
    if s is Ellipsis:
        return ELLIPSIS
    if isinstance(s, numbers.Integral) and 0 <= s < len(LETTERS):
        return LETTERS[s]
    raise ValueError("einsum(): subscript in subscript list is not within the valid range "
                     f"[0, {len(LETTERS)})")


def _parse(equation, num_operands):
    """Each operand's subscripts (letters and ``...``) and the output's (None: implicit)."""
    left, arrow, right = equation.partition("->")
    inputs = [[]]
    _read_subscripts(left, 0, inputs, num_operands)
    if len(inputs) < num_operands:
        raise RuntimeError("einsum(): more operands were provided than specified in the "
                           "equation")
    if not arrow:
        return inputs, None
    output = [[]]
    _read_subscripts(right, len(left) + 2, output, None)
    return inputs, output[0]


def _read_subscripts(text, start, groups, num_operands):
    """Append the subscripts of ``text`` (at ``start`` in the equation) to ``groups``, a new
    group after each comma; ``num_operands`` None: the output, which has no commas."""
    i = 0
    while i < len(text):
        char, where = text[i], _where(num_operands, len(groups) - 1)
        if char == ".":
            if ELLIPSIS in groups[-1]:
                raise RuntimeError(f"einsum(): found '.' for {where} for which an ellipsis was "
                                   "already found" if num_operands is not None else
                                   "einsum(): found '.' for output but an ellipsis (...) was "
                                   "already found")
            if text[i:i + 3] != ELLIPSIS:
                raise RuntimeError(f"einsum(): found '.' for {where} that is not part of any "
                                   "ellipsis" + (" (...)" if num_operands is None else ""))
            groups[-1].append(ELLIPSIS)
            i += 2
        elif char == "," and num_operands is not None:
            if len(groups) == num_operands:
                raise RuntimeError("einsum(): fewer operands were provided than specified in "
                                   "the equation")
            groups.append([])
        elif char in LETTERS:
            groups[-1].append(char)
        elif char != " ":
            raise RuntimeError(f"einsum(): invalid subscript given at index {start + i} in the "
                               "equation string, subscripts must be in [a-zA-Z]")
        i += 1


def _where(num_operands, index):
    return "output" if num_operands is None else f"operand {index}"


def _check_ranks(inputs, operands):
    """The number of dimensions that ``...`` stands for (the most any operand gives it)."""
    ellipsis_ndim = 0
    for i, (labels, operand) in enumerate(zip(inputs, operands)):
        named = len(labels) - (ELLIPSIS in labels)
        if ELLIPSIS in labels:
            if named > operand.ndim:
                raise RuntimeError(f"einsum(): the number of subscripts in the equation ({named})"
                                   f" is more than the number of dimensions ({operand.ndim}) for "
                                   f"operand {i}")
            ellipsis_ndim = max(ellipsis_ndim, operand.ndim - named)
        elif named != operand.ndim:
            raise RuntimeError(f"einsum(): the number of subscripts in the equation ({named}) "
                               f"does not match the number of dimensions ({operand.ndim}) for "
                               f"operand {i} and no ellipsis was given")
    return ellipsis_ndim


# ---------------------------------------------------------------- the common layout
def _layout(inputs, output, ellipsis_ndim):
    """Where each letter goes in the common layout: the output's dimensions first, then those
    summed out (the ellipsis, when the output lacks it, then letters in alphabetical order).
    Returns (positions by letter, the output's size, where ``...`` starts, the layout's size)."""
    counts = {}
    for labels in inputs:
        for label in labels:
            if label != ELLIPSIS:
                counts[label] = counts.get(label, 0) + 1
    if output is None:  # implicit: the ellipsis, then the letters seen once
        output = [ELLIPSIS] + sorted(label for label, n in counts.items() if n == 1)
    positions, ellipsis_at, size = {}, None, 0
    for label in output:
        if label == ELLIPSIS:
            ellipsis_at, size = size, size + ellipsis_ndim
            continue
        if label in positions or label not in counts:
            raise RuntimeError(f"einsum(): output subscript {label} " + (
                "appears more than once in the output" if label in positions else
                "does not appear in the equation for any input operand"))
        positions[label], size = size, size + 1
    out_size = size
    if ellipsis_at is None:
        ellipsis_at, size = size, size + ellipsis_ndim
    for label in sorted(counts):
        if label not in positions:
            positions[label], size = size, size + 1
    return positions, out_size, ellipsis_at, size


def _align(operands, inputs, positions, ellipsis_at, ellipsis_ndim, total):
    """The operands permuted to the common layout (size 1 where one lacks a dimension), and,
    for each place of the layout, how many operands have a size other than 1 there."""
    sizes = {}  # by layout place, the size seen so far (other than 1)
    counts = [0] * total
    aligned = []
    for i, (operand, labels) in enumerate(zip(operands, inputs)):
        source = [None] * total  # the operand's dimension for each place of the layout
        covered = operand.ndim - (len(labels) - 1)  # by the ellipsis, if it has one
        dim = 0
        for label in labels:
            if label == ELLIPSIS:
                places = range(ellipsis_at + ellipsis_ndim - covered, ellipsis_at + ellipsis_ndim)
            elif source[positions[label]] is not None:  # repeated: its diagonal
                first = source[positions[label]]
                if operand.shape[dim] != operand.shape[first]:
                    raise RuntimeError(f"einsum(): subscript {label} is repeated for operand {i} "
                                       f"but the sizes don't match, {operand.shape[dim]} != "
                                       f"{operand.shape[first]}")
                operand = operand.diagonal(0, first, dim).movedim(-1, first)
                continue
            else:
                places = (positions[label],)
            for place in places:
                size = operand.shape[dim]
                if size != 1:
                    _check_broadcast(sizes.get(place, 1), size, label, i, dim)
                    sizes[place] = size
                    counts[place] += 1
                source[place] = dim
                dim += 1
        for place in range(total):
            if source[place] is None:
                operand, source[place] = operand.unsqueeze(dim), dim
                dim += 1
        aligned.append(operand.permute(source))
    return aligned, counts


def _check_broadcast(seen, size, label, i, dim):
    if seen in (1, size):
        return
    if label == ELLIPSIS:
        raise RuntimeError(f"einsum(): dimension {dim} covered by ellipsis in operand {i}has "
                           f"size {size} which does not broadcast with previously seen ellipsis "
                           f"with size {seen} for the respective dimension")
    raise RuntimeError(f"einsum(): subscript {label} has size {size} for operand {i} which does "
                       f"not broadcast with previously seen size {seen}")


# ---------------------------------------------------------------- the contraction
def _contract(operands, counts, out_size):
    """Contract the aligned operands left to right, summing each dimension out as soon as no
    later operand has it, then drop the summed (now size 1) dimensions."""
    total = len(counts)
    if len(operands) == 1:
        result = operands[0]
        return result.sum(tuple(range(out_size, total))) if total > out_size else result
    result, rest = operands[0], list(operands[1:])
    while rest:
        a, b = result, rest.pop(0)
        both, a_only, b_only = [], [], []
        for dim in range(out_size, total):
            if a.shape[dim] != 1 and b.shape[dim] != 1:
                counts[dim] -= 1
                if counts[dim] == 1:
                    both.append(dim)
                    counts[dim] = 0
            elif counts[dim] == 1 and (a.shape[dim] != 1 or b.shape[dim] != 1):
                (a_only if a.shape[dim] != 1 else b_only).append(dim)
                counts[dim] = 0
        if a_only:
            a = a.sum(a_only, True)
        if b_only:
            b = b.sum(b_only, True)
        result = _sum_product(a, b, both)
    if total > out_size:
        result = result.view(result.shape[:out_size])
    return result


def _sum_product(a, b, summed):
    """(a * b) summed over the dimensions ``summed`` (kept, as size 1), both of one rank: a
    ``bmm`` of (batch, a's own, summed) by (batch, summed, b's own), then viewed back."""
    if not summed:
        return a.mul(b)
    batch, a_own, b_own = [], [], []
    for dim in range(a.ndim):
        if dim in summed:
            continue
        if a.shape[dim] != 1 and b.shape[dim] != 1:
            batch.append(dim)
        elif a.shape[dim] != 1:
            a_own.append(dim)
        else:
            b_own.append(dim)
    if a_own and b_own and b_own[-1] < a_own[0]:  # b's dimensions first: b becomes the left
        a, b, a_own, b_own = b, a, b_own, a_own

    def size(t, dims):
        n = 1
        for d in dims:
            n *= t.shape[d]
        return n

    batch_n, a_n, b_n, sum_n = size(a, batch), size(a, a_own), size(b, b_own), size(a, summed)
    left = a.permute(batch + a_own + summed + b_own).reshape(batch_n, a_n, sum_n)
    right = b.permute(batch + summed + b_own + a_own).reshape(batch_n, sum_n, b_n)
    order = batch + a_own + summed + b_own
    shape = ([a.shape[d] for d in batch + a_own] + [1] * len(summed) +
             [b.shape[d] for d in b_own])
    back = [order.index(d) for d in range(a.ndim)]
    return bmm(left, right).view(shape).permute(back)
