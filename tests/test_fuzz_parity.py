"""A differential fuzzer: random short programs run on torch 2.13 and on minigrad must agree.

A program is plain data: a few input tensors (float/int/bool, 0-d and size-0 shapes included)
and a list of steps, each an op applied to earlier results or to numbers (broadcasting, in-place
ops, indexing, reductions and misuses such as mismatched shapes or dtypes all arise). The same
program runs on both libraries; each step's result is compared as plain data (exception type and
first line of its message; dtype, shape, requires_grad, grad_fn name and values), then, when the
last result requires grad, the gradients of the inputs after ``backward``.

Examples are derandomized, and torch's answers are stored by the ``oracle`` fixture (keyed by the
program's text), so the fuzzer also runs without torch. ``MINIGRAD_FUZZ_EXAMPLES`` sets how many
programs the test runs (200 by default). To count differing programs rather than stop at the
first, run the module as a script (needs torch)::

    PYTHONPATH=. python tests/test_fuzz_parity.py --examples 3000 [--show 5] [--seed 1]
"""

import math
import operator
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oracle import plain_equal, to_plain

import minigrad

__all__ = ["programs", "program_text", "run_program", "traces_agree"]

EXAMPLES = int(os.environ.get("MINIGRAD_FUZZ_EXAMPLES", "200"))
RTOL, ATOL = 1e-4, 1e-5

SHAPES = [(), (3,), (2, 3), (1, 3), (2, 1), (0,), (0, 3), (2, 0), (3, 1, 2)]
DTYPES = ["float32", "float32", "float64", "int64", "int32", "bool", "uint8"]
FLOATS = [0.0, 1.0, -1.0, 0.5, -2.5, 3.0, 2.0, -0.0, 1e3]
INTS = [0, 1, -1, 2, -3, 5]
NUMBERS = [0, 1, 2, -1, 3, 0.5, -2.5, 0.0, True, False, float("nan"), float("inf")]

UNARY = ["neg", "abs", "exp", "log", "sqrt", "relu", "sigmoid", "tanh", "sin", "cos", "floor",
         "ceil", "round", "trunc", "sign", "reciprocal", "square", "logical_not", "float", "long",
         "bool", "double", "clone", "detach", "t", "flatten", "isnan", "sum", "mean", "prod",
         "max", "min", "argmax", "argmin", "all", "any", "var", "std", "norm", "median",
         "__neg__", "__abs__", "__invert__", "contiguous", "exp_", "neg_", "abs_", "relu_",
         "zero_", "sigmoid_", "tanh_", "sqrt_", "floor_", "round_"]
WITH_DIM = ["sum", "mean", "prod", "max", "min", "argmax", "amax", "amin", "softmax",
            "log_softmax", "logsumexp", "var", "std", "unsqueeze", "squeeze", "all", "any",
            "median", "cumsum", "cumprod", "flip", "cumsum_", "cumprod_"]
NO_KEEPDIM = ("unsqueeze", "squeeze", "softmax", "log_softmax", "cumsum", "cumprod", "flip",
              "cumsum_", "cumprod_")
BINARY = ["add", "sub", "mul", "div", "pow", "remainder", "floor_divide", "maximum", "minimum",
          "eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or", "logical_xor",
          "matmul", "__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__truediv__",
          "__rtruediv__", "__mod__", "__floordiv__", "__pow__", "__rpow__", "__and__", "__or__",
          "__xor__", "__matmul__", "add_", "sub_", "mul_", "div_", "pow_", "copy_", "__iadd__",
          "__imul__", "__isub__", "__itruediv__", "fill_", "eq_", "lt_", "dot", "mm", "mv",
          "clamp_min", "clamp_max", "isin", "nextafter", "nextafter_", "remainder_",
          "floor_divide_", "ge_", "ne_", "expand_as", "view_as", "reshape_as", "type_as",
          "isclose", "allclose", "equal", "clamp_max_"]
REFLECTED = ("__radd__", "__rsub__", "__rtruediv__", "__rpow__")
# The wider set: more methods, attributes and their setters, keyword forms, functional forms,
# in-place changes through views, steps under no_grad, backward and autograd.grad (misuses too).
MORE_UNARY = ["log1p", "sin_", "cos_", "log_", "reciprocal_", "square_", "trunc_", "ceil_",
              "sign_", "int", "short", "byte", "item", "tolist", "retain_grad", "detach_",
              "requires_grad_", "is_contiguous", "numel", "dim", "stride", "nelement",
              "is_floating_point", "argmax", "clamp_min_", "log_softmax", "softmax", "t_",
              "squeeze_", "nanmedian", "isfinite", "isinf", "signbit", "size", "ndimension",
              "element_size", "sinh", "cosh", "tril", "triu", "sinh_", "cosh_", "tril_",
              "triu_"]
ATTRIBUTES = ["T", "mT", "is_leaf", "grad", "requires_grad", "data", "shape", "ndim", "dtype",
              "retains_grad", "output_nr", "_version"]
SETTERS = {"requires_grad": [True, False, 1], "data": [("v",)], "grad": [("v",), None]}
KEYWORDS = [("sum", {"dim": ("dims", 0, 1)}), ("sum", {"dim": ("dims", -1,), "keepdim": True}),
            ("sum", {"dtype": ("dtype", "float64")}), ("mean", {"dtype": ("dtype", "float64")}),
            ("mean", {"dim": ("dims", 0, -1)}), ("var", {"correction": 0}),
            ("var", {"dim": 0, "unbiased": False}), ("std", {"dim": -1, "keepdim": True}),
            ("norm", {"p": 1}), ("norm", {"p": 2, "dim": 0}), ("max", {"dim": 0, "keepdim": True}),
            ("min", {"dim": -1}), ("softmax", {"dim": -1, "dtype": ("dtype", "float64")}),
            ("add", {"other": ("v",), "alpha": 2}), ("sub", {"other": ("v",), "alpha": 0.5}),
            ("div", {"other": ("v",), "rounding_mode": "trunc"}),
            ("div", {"other": ("v",), "rounding_mode": "floor"}), ("amax", {"dim": ("dims", 0, 1)}),
            ("logsumexp", {"dim": ("dims", 0, -1)}),
            ("prod", {"dim": 0, "dtype": ("dtype", "float64")}), ("all", {"dim": 0}),
            ("any", {"dim": -1, "keepdim": True}), ("split", {"split_size": 1}),
            ("to", {"dtype": ("dtype", "float64"), "copy": True}),
            ("unflatten", {"dim": 0, "sizes": ("dims", 1, -1)}),
            ("movedim", {"source": 0, "destination": -1}), ("flatten", {"start_dim": 1}),
            ("transpose", {"dim0": -1, "dim1": 0}), ("squeeze", {"dim": ("dims", 0, 1)}),
            ("cumsum", {"dim": 0, "dtype": ("dtype", "float64")}), ("cumprod", {"dim": -1}),
            ("flip", {"dims": ("dims", 0, -1)}), ("swapaxes", {"axis0": 0, "axis1": -1}),
            ("scatter", {"dim": 0, "index": ("index", [0]), "value": 2.5}),
            ("scatter_add", {"dim": -1, "index": ("index", [[0]]), "src": ("v",)})]
FUNCTIONS = ["add", "sub", "mul", "div", "maximum", "minimum", "max", "min", "matmul", "eq",
             "pow", "remainder", "isin", "cat", "stack", "where", "dot", "nextafter", "flip",
             "cumsum", "gather"]
NN_FUNCTIONS = ["relu", "sigmoid", "tanh", "softmax", "log_softmax", "mse_loss", "l1_loss",
                "cross_entropy", "nll_loss", "binary_cross_entropy", "one_hot", "linear"]
VIEWS = [("select", 0, 0), ("select", -1, 1), ("t",), ("flat",), ("slice", 0, 1), ("unsqueeze",),
         ("diagonal",), ("expand",), ("unbind",), ("chunk",), ("narrow",), ("transpose",)]
VIEW_INPLACE = ["add_", "mul_", "zero_", "fill_", "copy_", "clamp_", "relu_", "sigmoid_",
                "exp_", "sub_", "div_", "masked_fill_", "__setitem__"]
BACKWARDS = ["sum", "plain", "retain", "ones", "twice", "inputs", "create_graph"]
GRADS = ["plain", "sum", "allow_unused", "create_graph", "ones", "twice"]
SHAPE_OPS = ["reshape", "view", "expand", "permute", "transpose", "repeat", "narrow", "select",
             "split", "chunk", "unbind", "index_select", "diagonal", "flip", "swapaxes",
             "moveaxis", "split_with_sizes"]
# scatter-like ops: (dim, index) and, but for gather, a source (an earlier result or a number)
SCATTERS = ["scatter", "scatter_", "scatter_add", "scatter_add_", "gather"]
SCATTER_INDICES = [[0], [0, 0], [[0]], [[1], [0]], [[0, 1]], [[0, 2], [1, 0]], [5], [-1], []]


def _tensor_spec(draw):
    shape = draw(st.sampled_from(SHAPES))
    dtype = draw(st.sampled_from(DTYPES))
    pool = (FLOATS if dtype.startswith("float") else [True, False] if dtype == "bool"
            else [v for v in INTS if v >= 0] if dtype == "uint8" else INTS)
    values = [draw(st.sampled_from(pool)) for _ in range(math.prod(shape))]
    requires_grad = dtype.startswith("float") and draw(st.booleans())
    if draw(st.integers(0, 30)) == 0:
        requires_grad = True  # now and then a misuse: an integer tensor that requires grad
    return ("input", values, list(shape), dtype, requires_grad)


def _operand(draw, n):
    """An earlier result ("v", i) or a number."""
    if draw(st.integers(0, 3)) == 0:
        return draw(st.sampled_from(NUMBERS))
    return ("v", draw(st.integers(0, n - 1)))


def _step(draw, n):
    kind = draw(st.sampled_from(["unary", "dim", "binary", "binary", "shape", "index",
                                 "setitem", "clamp", "where", "cat", "masked_fill", "to",
                                 "more", "attr", "set", "kw", "fn", "nnf", "view_inplace",
                                 "nograd", "backward", "grad", "index", "scatter"]))
    x = ("v", draw(st.integers(0, n - 1)))
    dim = draw(st.integers(-3, 2))
    if kind in WIDER:
        return WIDER[kind](draw, n, x)
    if kind == "unary":
        return ("call", draw(st.sampled_from(UNARY)), [x])
    if kind == "dim":
        op = draw(st.sampled_from(WITH_DIM))
        if op in NO_KEEPDIM:
            return ("call", op, [x, dim])
        return ("call", op, [x, dim, draw(st.booleans())])
    if kind == "binary":
        op = draw(st.sampled_from(BINARY))
        if op in REFLECTED:  # Python calls these with a number only
            return ("call", op, [x, draw(st.sampled_from(NUMBERS))])
        return ("call", op, [x, _operand(draw, n)])
    if kind == "clamp":
        lo, hi = draw(st.sampled_from([(0, 1), (0.5, 1.5), (-1, None), (None, 2.5), (2, 1)]))
        return ("call", draw(st.sampled_from(["clamp", "clamp_"])), [x, lo, hi])
    if kind == "where":
        return ("fn", "where", [("v", draw(st.integers(0, n - 1))), x, _operand(draw, n)])
    if kind == "cat":
        y = ("v", draw(st.integers(0, n - 1)))
        return ("fn", draw(st.sampled_from(["cat", "stack"])), [[x, y], dim])
    if kind == "masked_fill":
        mask = ("v", draw(st.integers(0, n - 1)))
        return ("call", draw(st.sampled_from(["masked_fill", "masked_fill_"])),
                [x, mask, draw(st.sampled_from(NUMBERS))])
    if kind == "to":
        return ("call", "to", [x, ("dtype", draw(st.sampled_from(DTYPES)))])
    if kind == "shape":
        op = draw(st.sampled_from(SHAPE_OPS))
        args = {"reshape": [[-1], [3, -1], [2, 3], []], "view": [[-1], [1, -1], [0]],
                "expand": [[2, 3], [3, -1], [-1]], "permute": [[1, 0], [0], []],
                "transpose": [[0, 1], [0, -1]], "repeat": [[2], [2, 1], []],
                "narrow": [[0, 0, 1], [1, 1, 2], [0, 2, 5]], "select": [[0, 0], [1, -1]],
                "split": [[1], [2, 1]], "chunk": [[2], [2, 1]], "unbind": [[0], [1]],
                "index_select": [[0, ("index", [0])], [0, ("index", [1, 0])],
                                 [0, ("findex", [0.0])]], "diagonal": [[], [1], [0, 0, 1]],
                "flip": [[0], [0, 1], [-1]], "swapaxes": [[0, 1], [0, -1]],
                "moveaxis": [[0, -1], [1, 0]], "split_with_sizes": [[[1, 2]], [[1, 1], 1]]}
        return ("call", op, [x, *draw(st.sampled_from(args[op]))])
    index = draw(st.sampled_from([0, -1, 1, 5, ("slice", 0, 2), ("slice", 1, None),
                                  ("none",), ("ellipsis",), ("tuple", 0, 0), ("mask",),
                                  ("index", [0, 0]), ("index", []), ("list", [0, 1]),
                                  ("list", [-1]), ("list", [True, False]), ("step", 0, None, 2),
                                  ("selfmask",), ("cols", [0, -1]), ("index", [[0], [1]]),
                                  ("list", [[0, 1], [1, 0]]), ("zerod", 0)]))
    if kind == "index":
        return ("getitem", None, [x, index])
    return ("setitem", None, [x, index, _operand(draw, n)])


def _scatter(draw, n, x):
    op = draw(st.sampled_from(SCATTERS))
    dim = draw(st.integers(-2, 1))
    index = ("index", draw(st.sampled_from(SCATTER_INDICES)))
    if op == "gather":
        return ("call", op, [x, dim, index])
    return ("call", op, [x, dim, index, _operand(draw, n)])


def _more(draw, n, x):
    op = draw(st.sampled_from(MORE_UNARY))
    if op == "requires_grad_":
        return ("call", op, [x, draw(st.booleans())])
    if op == "clamp_min_":
        return ("call", op, [x, draw(st.sampled_from(NUMBERS))])
    if op in ("log_softmax", "softmax", "argmax"):
        return ("call", op, [x, draw(st.integers(-2, 1))])
    return ("call", op, [x])


def _attr(draw, n, x):
    return ("attr", draw(st.sampled_from(ATTRIBUTES)), [x])


def _set(draw, n, x):
    name = draw(st.sampled_from(sorted(SETTERS)))
    value = draw(st.sampled_from(SETTERS[name]))
    if value == ("v",):
        value = ("v", draw(st.integers(0, n - 1)))
    return ("set", name, [x, value])


def _kw(draw, n, x):
    op, kwargs = draw(st.sampled_from(KEYWORDS))
    kwargs = {k: ("v", draw(st.integers(0, n - 1))) if v == ("v",) else v
              for k, v in kwargs.items()}
    return ("kw", op, [x, kwargs])


def _fn(draw, n, x):
    op = draw(st.sampled_from(FUNCTIONS))
    y = _operand(draw, n)
    if op in ("cat", "stack"):
        z = ("v", draw(st.integers(0, n - 1)))
        return ("fn", op, [[x, ("v", draw(st.integers(0, n - 1))), z],
                           draw(st.integers(-2, 1))])
    if op == "where":
        return ("fn", op, [("v", draw(st.integers(0, n - 1))), _operand(draw, n), y])
    if op in ("add", "sub", "mul", "pow", "remainder"):  # a number first, too
        return ("fn", op, [y, x] if draw(st.booleans()) else [x, y])
    if op in ("max", "min") and draw(st.booleans()):
        return ("fn", op, [x, draw(st.integers(-1, 1))])
    return ("fn", op, [x, y])


def _nnf(draw, n, x):
    op = draw(st.sampled_from(NN_FUNCTIONS))
    y = ("v", draw(st.integers(0, n - 1)))
    if op in ("softmax", "log_softmax"):
        return ("nnf", op, [x, draw(st.integers(-2, 1))])
    if op in ("relu", "sigmoid", "tanh"):
        return ("nnf", op, [x])
    if op == "one_hot":
        return ("nnf", op, [x, draw(st.sampled_from([-1, 3]))])
    if op in ("cross_entropy", "nll_loss"):
        return ("nnf", op, [x, draw(st.sampled_from([y, ("index", [0, 1]), ("index", 0)]))])
    return ("nnf", op, [x, y])


def _view_inplace(draw, n, x):
    op = draw(st.sampled_from(VIEW_INPLACE))
    view = draw(st.sampled_from(VIEWS))
    args = {"zero_": [], "relu_": [], "sigmoid_": [], "exp_": [], "clamp_": [0, 1],
            "masked_fill_": [("selfmask",), 2.5], "__setitem__": [0, _operand(draw, n)]}
    return ("view_inplace", op, [x, view, *args.get(op, [_operand(draw, n)])])


def _nograd(draw, n, x):
    inner = _step(draw, n)
    return ("nograd", None, inner) if inner[0] in ("call", "fn", "kw", "view_inplace") else inner


def _backward(draw, n, x):
    return ("backward", draw(st.sampled_from(BACKWARDS)), [x])


def _grad(draw, n, x):
    return ("grad", draw(st.sampled_from(GRADS)), [x, ("v", draw(st.integers(0, n - 1)))])


WIDER = {"more": _more, "attr": _attr, "set": _set, "kw": _kw, "fn": _fn, "nnf": _nnf,
         "view_inplace": _view_inplace, "nograd": _nograd, "backward": _backward,
         "grad": _grad, "scatter": _scatter}


@st.composite
def programs(draw):
    """A random program: input tensors, then steps over them (see the module docstring)."""
    inputs = [_tensor_spec(draw) for _ in range(draw(st.integers(1, 3)))]
    steps = [_step(draw, len(inputs) + i) for i in range(draw(st.integers(1, 4)))]
    return inputs + steps


def program_text(program):
    """The program as one line of text: the key of its stored torch answer."""
    return "; ".join(f"v{i} = {step!r}" for i, step in enumerate(program))


def _resolve(lib, env, arg, me=None):
    """An argument of a step as a value (``me``: the tensor the step applies to)."""
    if isinstance(arg, list):
        return [_resolve(lib, env, a, me) for a in arg]
    if isinstance(arg, dict):
        return {k: _resolve(lib, env, a, me) for k, a in arg.items()}
    if not isinstance(arg, tuple):
        return arg
    tag = arg[0]
    if tag == "v":
        return env[arg[1]]
    if tag == "dtype":
        return getattr(lib, arg[1])
    if tag in ("index", "findex"):
        return lib.tensor(arg[1], dtype=lib.int64 if tag == "index" else lib.float32)
    if tag == "slice":
        return slice(arg[1], arg[2])
    if tag == "none":
        return None
    if tag == "ellipsis":
        return Ellipsis
    if tag == "tuple":
        return tuple(arg[1:])
    if tag == "mask":
        first = env[0]
        return first > 0 if first.dtype != lib.bool else first
    if tag == "selfmask":
        return me > 0 if me.dtype != lib.bool else me
    if tag in ("dims", "list"):
        return tuple(arg[1:]) if tag == "dims" else list(arg[1])
    if tag == "step":
        return slice(*arg[1:])
    if tag == "cols":
        return (slice(None), list(arg[1]))
    if tag == "zerod":
        return lib.tensor(arg[1])
    raise ValueError(arg)


def _view(x, spec):
    """A view of ``x`` that an in-place step changes."""
    kind = spec[0]
    if kind == "select":
        return x.select(spec[1], spec[2])
    if kind == "slice":
        return x[spec[1]:spec[2]]
    if kind == "flat":
        return x.view(-1)
    if kind == "expand":
        return x.expand(2, *x.shape)
    if kind in ("unbind", "chunk"):
        return getattr(x, kind)(*([] if kind == "unbind" else [2]))[0]
    if kind == "narrow":
        return x.narrow(0, 0, 1)
    if kind == "transpose":
        return x.transpose(0, -1)
    return getattr(x, kind)() if kind != "unsqueeze" else x.unsqueeze(0)


def _backward(lib, env, mode, x):
    """``x``'s backward in one of several ways (misuses included): the leaves' grads after."""
    s = x if mode in ("plain", "ones") else x.sum()
    if mode == "ones":
        s.backward(lib.ones_like(x))
    elif mode == "inputs":
        s.backward(inputs=[env[0]])
    else:
        s.backward(retain_graph=mode == "retain", create_graph=mode == "create_graph")
    if mode == "twice":
        s.backward()
    return [t.grad for t in env if isinstance(t, lib.Tensor) and t.is_leaf and t.requires_grad]


def _grad(lib, mode, y, x):
    """``autograd.grad(y, x)`` in one of several ways (misuses included)."""
    s = y if mode in ("plain", "ones") else y.sum()
    kwargs = {"allow_unused": mode == "allow_unused", "create_graph": mode == "create_graph"}
    if mode == "ones":
        kwargs["grad_outputs"] = lib.ones_like(y)
    grads = lib.autograd.grad(s, x, **kwargs)
    return lib.autograd.grad(s, x) if mode == "twice" else grads


def _reflected(op):
    return lambda x, number: op(number, x)


# ``x.__add__(y)`` is how a program spells ``x + y``: it runs as Python runs the operator (a
# tensor's operator may return NotImplemented, which Python turns into its own TypeError).
OPERATORS = {f"__{name}__": getattr(operator, name) for name in (
    "neg", "abs", "invert", "add", "sub", "mul", "truediv", "mod", "floordiv", "pow", "matmul",
    "iadd", "isub", "imul", "itruediv")}
OPERATORS.update({"__and__": operator.and_, "__or__": operator.or_, "__xor__": operator.xor})
OPERATORS.update({f"__r{name}__": _reflected(getattr(operator, name))
                  for name in ("add", "sub", "truediv", "pow")})


class NotATensor(Exception):
    """A step applies a tensor method to a non-tensor result (the same for both libraries)."""


def _execute(lib, env, step):
    kind, name, args = step[0], step[1], step[2:]
    if kind == "input":
        values, (shape, dtype, requires_grad) = name, args
        data = lib.tensor(values, dtype=getattr(lib, dtype)).reshape(shape).clone()
        return data.requires_grad_() if requires_grad else data
    if kind == "nograd":
        with lib.no_grad():
            return _execute(lib, env, args[0])
    if kind == "view_inplace":
        x, spec, *rest = args[0]
        args = [_resolve(lib, env, x), spec, *(_resolve(lib, env, a, env[x[1]]) for a in rest)]
    else:
        me = env[args[0][0][1]] if kind in ("getitem", "setitem") else None
        args = [_resolve(lib, env, a, me) for a in args[0]]
    if kind not in ("fn", "nnf") and not isinstance(args[0], lib.Tensor):  # e.g. max's tuple
        raise NotATensor("the program applies a tensor op to something else")
    if kind == "attr":
        return getattr(args[0], name)
    if kind == "set":
        setattr(args[0], name, args[1])
        return args[0]
    if kind == "kw":
        return getattr(args[0], name)(**args[1])
    if kind == "nnf":
        return getattr(lib.nn.functional, name)(*args)
    if kind == "backward":
        return _backward(lib, env, name, args[0])
    if kind == "grad":
        return _grad(lib, name, *args)
    if kind == "view_inplace":
        x, spec, *rest = args
        view = _view(x, spec)
        if name == "__setitem__":
            view[rest[0]] = rest[1]
        else:
            getattr(view, name)(*rest)
        return x
    if kind == "call":
        if name in OPERATORS:  # as Python applies it: NotImplemented becomes its TypeError
            return OPERATORS[name](*args)
        return getattr(args[0], name)(*args[1:])
    if kind == "fn":
        return getattr(lib, name)(*args)
    if kind == "getitem":
        return args[0][args[1]]
    args[0][args[1]] = args[2]
    return args[0]


def _error(exc):
    """An error as plain data; the library's own name in a message (``torch.FloatTensor``,
    ``minigrad.FloatTensor``) does not count as a difference."""
    plain = to_plain(exc)
    plain["message"] = plain["message"].replace("minigrad.", "torch.")
    return plain


def run_program(lib, program):
    """Run ``program`` on ``lib`` (torch or minigrad): the trace of plain results."""
    env, trace = [], []
    for step in program:
        try:
            result = _execute(lib, env, step)
        except Exception as exc:  # the error is part of the answer
            trace.append(_error(exc))
            return trace
        trace.append(to_plain(result))
        env.append(result)
    last = env[-1]
    if isinstance(last, lib.Tensor) and last.requires_grad:
        try:
            last.sum().backward()
            trace.append(["grads"] + [to_plain(t.grad) for t in env[:len(program)]
                                      if isinstance(t, lib.Tensor) and t.is_leaf
                                      and t.requires_grad])
        except Exception as exc:
            trace.append(_error(exc))
    return trace


def traces_agree(got, expected):
    """Whether two traces agree (floats within a small tolerance)."""
    return plain_equal(got, expected, RTOL, ATOL)


def _quiet_run(lib, program):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return run_program(lib, program)


@settings(max_examples=EXAMPLES, derandomize=True, database=None, deadline=None,
          suppress_health_check=list(HealthCheck))
@given(program=programs())
def test_random_programs_agree_with_torch(program, oracle):
    text = program_text(program)
    expected = oracle(lambda torch: _quiet_run(torch, program), key=text)
    got = _quiet_run(minigrad, program)
    assert traces_agree(got, expected), f"{text}\nminigrad: {got}\ntorch:    {expected}"


def test_program_text_is_a_stable_key():
    program = [("input", [1.0], [1], "float32", True), ("call", "add", [("v", 0), 2])]
    assert program_text(program) == ("v0 = ('input', [1.0], [1], 'float32', True); "
                                      "v1 = ('call', 'add', [('v', 0), 2])")


def _count(examples, show, seed_=None):
    """Run ``examples`` programs on both libraries and count those that differ (needs torch).

    ``seed_`` None runs the derandomized sequence the test runs; a number runs another one."""
    import collections

    import torch
    from hypothesis import seed
    torch.set_num_threads(1)
    seen, differing, by_op = [0], [], collections.Counter()

    @settings(max_examples=examples, derandomize=seed_ is None, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(program=programs())
    def collect(program):
        seen[0] += 1
        got, expected = _quiet_run(minigrad, program), _quiet_run(torch, program)
        if not traces_agree(got, expected):
            i = next((i for i, (a, b) in enumerate(zip(got, expected))
                      if not traces_agree(a, b)), min(len(got), len(expected)))
            step = program[i] if i < len(program) else ("backward", "backward")
            by_op[f"{step[0]}:{step[1]}"] += 1
            differing.append((program, got, expected, i))

    (collect if seed_ is None else seed(seed_)(collect))()
    print(f"{len(differing)} of {seen[0]} programs differ "
          f"({100 * len(differing) / max(seen[0], 1):.1f}%)")
    for op, n in by_op.most_common(40):
        print(f"  {n:4d}  {op}")
    for program, got, expected, i in differing[:show]:
        print("\n" + program_text(program))
        print("  minigrad:", got[i:i + 1])
        print("  torch:   ", expected[i:i + 1])


if __name__ == "__main__":
    import argparse
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--examples", type=int, default=1000)
    parser.add_argument("--show", type=int, default=0)
    parser.add_argument("--seed", type=int, default=None,
                        help="another sequence of programs (default: the test's derandomized one)")
    options = parser.parse_args()
    _count(options.examples, options.show, options.seed)
else:
    pytestmark = pytest.mark.filterwarnings("ignore")
