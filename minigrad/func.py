"""``minigrad.func``: derivatives as function transforms, as in ``torch.func`` (functorch).

``grad(f)`` is a new function that returns the gradient of ``f``; transforms compose
(``grad(grad(f))``, ``hessian(f) = jacfwd(jacrev(f))``). Each one is a few lines on top of
minigrad's autograd: reverse mode (``grad``, ``vjp``, ``jacrev``) calls ``autograd.grad``,
forward mode (``jvp``, ``jacfwd``) runs ``f`` on dual tensors of ``autograd.forward_ad``.

How composition works: a transform differentiates with respect to fresh leaves made from its
arguments, except when an argument already requires grad (it comes from an outer transform, or
the caller wants to differentiate through): then it differentiates with respect to an alias of
it and keeps the graph (``create_graph=True``), so the outer transform can differentiate the
result again. Arguments can be tensors or tuples, lists and dicts of tensors.

NB: ``vmap`` runs ``f`` once per element of the batch dimension and stacks the results: the
same values as PyTorch's batching rules, without their speed.
"""

import minigrad
from minigrad._pytree import flatten as _flatten
from minigrad.autograd import api, forward_ad
from minigrad.grad_mode import enable_grad
from minigrad.nn.utils.stateless import functional_call
from minigrad.tensor import Tensor

__all__ = ["grad", "grad_and_value", "vjp", "jvp", "jacrev", "jacfwd", "hessian", "vmap",
           "functional_call"]

_OWN_LEAF = "_func_own_leaf"  # marks the leaves a transform made for itself


def _argnums(argnums, args):
    nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)
    for n in nums:
        if not -len(args) <= n < len(args):
            raise RuntimeError(f"Got argnum={n}, but only {len(args)} positional inputs")
    return nums


def _differentiable(tree):
    """Fresh leaves (or, for tensors that already require grad, aliases) to differentiate
    with respect to; also whether the graph must be kept for an outer transform."""
    leaves, rebuild = _flatten(tree)
    inputs, keep_graph = [], False
    for leaf in leaves:
        if not isinstance(leaf, Tensor):
            raise RuntimeError(f"Expected tensors, got unsupported type {type(leaf)}")
        if leaf.requires_grad:
            keep_graph = True
            inputs.append(leaf.view_as(leaf))
        elif forward_ad.tangent_of(leaf) is not None:  # a dual tensor of an outer jvp
            keep_graph = True
            inputs.append(_own(leaf.view_as(leaf).requires_grad_()))
        else:
            inputs.append(_own(leaf.detach().requires_grad_()))
    return inputs, rebuild, keep_graph


def _needs_graph(x):
    """Whether a result computed from ``x`` must stay differentiable (for an outer
    transform or for the caller)."""
    return isinstance(x, Tensor) and (x.requires_grad or forward_ad.tangent_of(x) is not None)


def _own(leaf):
    """Mark a leaf that a transform made (see ``_reaches_outside``)."""
    leaf.__dict__[_OWN_LEAF] = True
    return leaf


def _prepare(args, nums):
    """The arguments with ``nums`` replaced by differentiable copies."""
    args, per_arg, keep_graph = list(args), [], False
    for n in nums:
        inputs, rebuild, keep = _differentiable(args[n])
        args[n] = rebuild(inputs)
        per_arg.append((inputs, rebuild))
        keep_graph = keep_graph or keep
    return args, per_arg, keep_graph


def _grads(outputs, inputs, seeds, keep):
    """``autograd.grad`` that gives zeros (not errors or None) where nothing depends. The
    graph is kept: ``_plain`` later cuts what depends only on the transform's own leaves."""
    pairs = [(o, s) for o, s in zip(outputs, seeds) if o.requires_grad]
    if not pairs:
        found = [None] * len(inputs)
    else:
        found = api.grad([o for o, _ in pairs], inputs, [s for _, s in pairs],
                         retain_graph=True, create_graph=True, allow_unused=True)
    return [minigrad.zeros_like(x) if g is None else g for g, x in zip(found, inputs)]


def _plain(tree, keep_graph):
    """The results as the caller gets them: detached, unless they must stay differentiable
    (for an outer transform, or because they depend on tensors from outside that require
    grad, as PyTorch's transforms keep them)."""
    leaves, rebuild = _flatten(tree)
    return rebuild([leaf.detach() if isinstance(leaf, Tensor) and not keep_graph
                    and not _reaches_outside(leaf) else leaf for leaf in leaves])


def _reaches_outside(tensor):
    """Whether ``tensor``'s graph reaches a leaf that no transform made."""
    stack, seen = [tensor.grad_fn], set()
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        variable = getattr(node, "variable", None)
        if variable is not None and not variable.__dict__.get(_OWN_LEAF):
            return True
        stack.extend(next_node for next_node, _ in node.next_functions)
    return False


def _split_aux(result, has_aux, name):
    if not has_aux:
        return result, None
    if not (isinstance(result, tuple) and len(result) == 2):
        raise RuntimeError(f"{name}: output of function f should be a tuple: (output, aux) "
                           "if has_aux is True")
    for leaf in _flatten(result[1])[0]:
        if not isinstance(leaf, Tensor):
            raise RuntimeError(f"Expected tensors, got unsupported type {type(leaf)}")
    return result


# ---------------------------------------------------------------------------- reverse mode
def grad_and_value(func, argnums=0, has_aux=False):
    """Like ``grad``, but the new function returns ``(gradient, value)`` (with ``has_aux``:
    ``(gradient, (value, aux))``)."""
    def wrapper(*args, **kwargs):
        nums = _argnums(argnums, args)
        with enable_grad():
            args, per_arg, keep = _prepare(args, nums)
            output, aux = _split_aux(func(*args, **kwargs), has_aux, "grad_and_value(f)(*args)")
            if not isinstance(output, Tensor):
                raise RuntimeError(f"grad_and_value(f)(*args): Expected f(*args) to return a "
                                   f"Tensor, got {type(output)}")
            if output.dim() != 0:
                raise RuntimeError(f"grad_and_value(f)(*args): Expected f(*args) to return a "
                                   f"scalar Tensor, got tensor with {output.dim()} dims. Maybe "
                                   "you wanted to use the vjp or jacrev APIs instead?")
            inputs = [x for leaves, _ in per_arg for x in leaves]
            found = _grads([output], inputs, [None], keep)
        grads, start = [], 0
        for leaves, rebuild in per_arg:
            grads.append(_plain(rebuild(found[start:start + len(leaves)]), keep))
            start += len(leaves)
        grads = grads[0] if isinstance(argnums, int) else tuple(grads)
        value = _plain(output, keep)
        return (grads, (value, _plain(aux, keep))) if has_aux else (grads, value)
    return wrapper


def grad(func, argnums=0, has_aux=False):
    """The gradient of a function with a scalar tensor output, as a new function.

    Args:
        func: ``f(*args)`` returning a 0-d tensor (with ``has_aux``: ``(output, aux)``).
        argnums: which positional argument(s) to differentiate (an int or a tuple of ints).

    Example:
        >>> from minigrad.func import grad
        >>> grad(lambda x: (x ** 2).sum())(minigrad.tensor([1.0, 2.0]))
        tensor([2., 4.])
        >>> grad(grad(lambda x: x.sin()))(minigrad.tensor(0.5))   # -sin(x)
        tensor(-0.4794)
    """
    def wrapper(*args, **kwargs):
        result = grad_and_value(func, argnums, has_aux)(*args, **kwargs)
        return (result[0], result[1][1]) if has_aux else result[0]
    return wrapper


def vjp(func, *primals, has_aux=False):
    """``(func(*primals), vjp_fn)``: ``vjp_fn(cotangents)`` gives ``vᵀ J`` for each primal.

    Example:
        >>> from minigrad.func import vjp
        >>> out, vjp_fn = vjp(lambda x: x * 3, minigrad.tensor([1.0, 2.0]))
        >>> vjp_fn(minigrad.ones(2))
        (tensor([3., 3.]),)
    """
    with enable_grad():
        args, per_arg, keep = _prepare(primals, range(len(primals)))
        output, aux = _split_aux(func(*args), has_aux, "vjp(f, *primals)")
    outputs, _ = _flatten(output)

    def vjp_fn(cotangents):
        seeds, _ = _flatten(cotangents)
        if len(seeds) != len(outputs):
            raise RuntimeError(f"Expected pytree structure of cotangents to be the same as "
                               f"pytree structure of outputs to the function. cotangents: "
                               f"{len(seeds)} tensors, primal output: {len(outputs)} tensors")
        inputs = [x for leaves, _ in per_arg for x in leaves]
        with enable_grad():
            found = _grads(outputs, inputs, seeds, keep)
        result, start = [], 0
        for leaves, rebuild in per_arg:
            result.append(_plain(rebuild(found[start:start + len(leaves)]), keep))
            start += len(leaves)
        return tuple(result)

    value = _plain(output, keep)
    return (value, vjp_fn, _plain(aux, keep)) if has_aux else (value, vjp_fn)


def _one_hot_seeds(output):
    flat = output.numel()
    for i in range(flat):
        seed = minigrad.zeros(flat, dtype=output.dtype)
        seed[i] = 1.0
        yield seed.reshape(output.shape)


def jacrev(func, argnums=0, *, has_aux=False, chunk_size=None):
    """The Jacobian by reverse mode (one ``autograd.grad`` per output element), as a new
    function. Its shape is ``output.shape + input.shape``.

    Example:
        >>> from minigrad.func import jacrev
        >>> jacrev(lambda x: x ** 2)(minigrad.tensor([1.0, 2.0]))
        tensor([[2., 0.],
                [0., 4.]])
    """
    def wrapper(*args, **kwargs):
        nums = _argnums(argnums, args)
        with enable_grad():
            args, per_arg, keep = _prepare(args, nums)
            output, aux = _split_aux(func(*args, **kwargs), has_aux, "jacrev(f)(*args)")
            outputs, rebuild_out = _flatten(output)
            inputs = [x for leaves, _ in per_arg for x in leaves]
            jacobians = []
            for out in outputs:
                rows = [_grads([out], inputs, [seed], keep) for seed in _one_hot_seeds(out)]
                jacobians.append([_stacked([r[k] for r in rows], out, x)
                                  for k, x in enumerate(inputs)])
        result = rebuild_out([_per_argnum(jac, per_arg, argnums, keep)
                              for jac in jacobians])
        return (result, _plain(aux, keep)) if has_aux else result
    return wrapper


def _stacked(parts, out, x):
    if not parts:
        return minigrad.zeros(tuple(out.shape) + tuple(x.shape), dtype=x.dtype)
    return minigrad.stack(parts).reshape(tuple(out.shape) + tuple(x.shape))


def _per_argnum(jac, per_arg, argnums, keep):
    grouped, start = [], 0
    for leaves, rebuild in per_arg:
        grouped.append(_plain(rebuild(jac[start:start + len(leaves)]), keep))
        start += len(leaves)
    return grouped[0] if isinstance(argnums, int) else tuple(grouped)



# ---------------------------------------------------------------------------- forward mode
def jvp(func, primals, tangents, *, strict=False, has_aux=False):
    """``(func(*primals), J · tangents)`` by forward mode (dual tensors).

    Example:
        >>> from minigrad.func import jvp
        >>> jvp(lambda x: x ** 2, (minigrad.tensor([1.0, 2.0]),), (minigrad.ones(2),))
        (tensor([1., 4.]), tensor([2., 4.]))
    """
    if not isinstance(primals, tuple):
        raise RuntimeError("jvp(f, primals, tangents): Expected primals to be a tuple. E.g. it "
                           "should be valid to call f(*primals).")
    if not isinstance(tangents, tuple) or len(tangents) != len(primals):
        raise RuntimeError("jvp(f, primals, tangents): Expected primals and tangents to have "
                           "the same python structure.")
    with forward_ad.dual_level():
        duals = []
        for primal, tangent in zip(primals, tangents):
            leaves, rebuild = _flatten(primal)
            directions, _ = _flatten(tangent)
            duals.append(rebuild([forward_ad.make_dual(p, t)
                                  for p, t in zip(leaves, directions)]))
        output, aux = _split_aux(func(*duals), has_aux, "jvp(f, primals, tangents)")
        outputs, rebuild_out = _flatten(output)
        unpacked = [forward_ad.unpack_dual(o) for o in outputs]
        values = rebuild_out([u.primal for u in unpacked])
        derivatives = rebuild_out([minigrad.zeros_like(o) if u.tangent is None else u.tangent
                                   for o, u in zip(outputs, unpacked)])
    keep_graph = any(_needs_graph(p) for primal in primals for p in _flatten(primal)[0])
    values, derivatives = _plain(values, keep_graph), _plain(derivatives, keep_graph)
    return (values, derivatives, aux) if has_aux else (values, derivatives)


def jacfwd(func, argnums=0, has_aux=False, *, randomness="error"):
    """The Jacobian by forward mode (one ``jvp`` per input element), as a new function. Its
    shape is ``output.shape + input.shape``.

    Example:
        >>> from minigrad.func import jacfwd
        >>> jacfwd(lambda x: x.sum() * x)(minigrad.tensor([1.0, 2.0]))
        tensor([[4., 1.],
                [2., 5.]])
    """
    def wrapper(*args, **kwargs):
        nums = _argnums(argnums, args)
        per_arg = [_flatten(args[n]) for n in nums]
        inputs = [x for leaves, _ in per_arg for x in leaves]
        keep = any(_needs_graph(x) for x in inputs)
        columns, output, aux = [], None, None

        def at(leaves):
            new, start = list(args), 0
            for n, (arg_leaves, rebuild) in zip(nums, per_arg):
                new[n] = rebuild(leaves[start:start + len(arg_leaves)])
                start += len(arg_leaves)
            return func(*new, **kwargs)

        for k, x in enumerate(inputs):
            for seed in _one_hot_seeds(x):
                directions = tuple(seed if j == k else minigrad.zeros_like(y)
                                   for j, y in enumerate(inputs))
                result = jvp(lambda *leaves: at(list(leaves)), tuple(inputs), directions,
                             has_aux=has_aux)
                output, column = result[0], result[1]
                aux = result[2] if has_aux else None
                columns.append((k, column))
        outputs, rebuild_out = _flatten(output)
        jacobians = []
        for i, out in enumerate(outputs):
            jac = []
            for k, x in enumerate(inputs):
                cols = [_flatten(c)[0][i] for kk, c in columns if kk == k]
                shape = tuple(out.shape) + tuple(x.shape)
                jac.append(minigrad.stack(cols, dim=-1).reshape(shape) if cols
                           else minigrad.zeros(shape, dtype=out.dtype))
            jacobians.append(_per_argnum(jac, per_arg, argnums, keep))
        result = rebuild_out(jacobians)
        return (result, aux) if has_aux else result
    return wrapper


def hessian(func, argnums=0):
    """The Hessian of a scalar function: ``jacfwd(jacrev(func))``, as in PyTorch.

    Example:
        >>> from minigrad.func import hessian
        >>> hessian(lambda x: (x ** 3).sum())(minigrad.tensor([1.0, 2.0]))
        tensor([[ 6.,  0.],
                [ 0., 12.]])
    """
    return jacfwd(jacrev(func, argnums), argnums)


# ---------------------------------------------------------------------------- vmap
def vmap(func, in_dims=0, out_dims=0, randomness="error", *, chunk_size=None):
    """``func`` mapped over a batch dimension: ``vmap(f)(xs)[i] == f(xs[i])``.

    Args:
        in_dims: the batch dimension of each positional argument (an int for all, or a tuple
            with an int or None per argument; None: not batched, passed whole).
        out_dims: where the batch dimension goes in the output(s).

    NB: a loop: ``func`` runs once per batch element and the results are stacked.

    Example:
        >>> from minigrad.func import vmap
        >>> vmap(minigrad.dot)(minigrad.ones(2, 3), minigrad.ones(2, 3))
        tensor([3., 3.])
    """
    name = getattr(func, "__name__", type(func).__name__)

    def wrapper(*args, **kwargs):
        where = f"vmap({name}, in_dims={in_dims}, ...)(<inputs>)"
        dims = _in_dims(in_dims, args, where)
        sizes = [a.shape[d] for a, d in zip(args, dims) if d is not None]
        if not sizes:
            raise ValueError(f"{where}: at least one input must be batched (in_dims all None)")
        if len(set(sizes)) > 1:
            raise ValueError(f"vmap: Expected all tensors to have the same size in the mapped "
                             f"dimension, got sizes {sizes} for the mapped dimension")
        results = [func(*[a if d is None else a.select(d, i) for a, d in zip(args, dims)],
                        **kwargs) for i in range(sizes[0])]
        leaves_per = [_flatten(r)[0] for r in results]
        _, rebuild = _flatten(results[0])
        outs = out_dims if isinstance(out_dims, tuple) else (out_dims,) * len(leaves_per[0])
        return rebuild([minigrad.stack([minigrad.as_tensor(leaves[k]) for leaves in leaves_per],
                                       dim=outs[k]) for k in range(len(leaves_per[0]))])
    return wrapper


def _tree_spec(n):
    """How PyTorch prints the structure of a flat tuple of ``n`` items in its errors."""
    return "TreeSpec(tuple, None, [" + ",\n  ".join(["*"] * n) + "])"


def _in_dims(in_dims, args, where):
    if isinstance(in_dims, int):
        dims = (in_dims,) * len(args)
    elif isinstance(in_dims, tuple):
        if len(in_dims) != len(args):
            raise ValueError(f"{where}: in_dims is not compatible with the structure of "
                             f"`inputs`. in_dims has structure {_tree_spec(len(in_dims))} but "
                             f"inputs has structure {_tree_spec(len(args))}.")
        dims = in_dims
    else:
        raise ValueError(f"{where}: expected `in_dims` to be int or a (potentially nested) "
                         f"tuple matching the structure of inputs, got: {type(in_dims)}.")
    for a, d in zip(args, dims):
        if d is None:
            continue
        if not isinstance(a, Tensor):
            raise ValueError(f"{where}: Got in_dim={d} for an input but the input is of type "
                             f"{type(a)}. We cannot vmap over non-Tensor arguments, please use "
                             "None as the respective in_dim")
        if not -a.dim() <= d < a.dim():
            raise ValueError(f"{where}: Got in_dim={d} for some input, but that input is a "
                             f"Tensor of dimensionality {a.dim()} so expected in_dim to satisfy "
                             f"-{a.dim()} <= in_dim < {a.dim()}.")
    return [None if d is None else d % a.dim() for a, d in zip(args, dims)]
