"""Elementwise math: exp, log, trigonometry, activations, clamp and dtype casts."""

import builtins

import numpy as np

from minigrad import _dtype
from minigrad.autograd.function import _Op
from minigrad.ops._util import ARRAY, apply_op, zero_grad, zero_of, zeroed
from minigrad.ops.arithmetic import MulScalar, plus
from minigrad.ops.combine import where
from minigrad.tensor import Tensor

__all__ = ["Exp", "Log", "Sin", "Cos", "Sinh", "Cosh", "Tanh", "TanhBackward", "Sigmoid",
           "SigmoidBackward", "Relu", "ThresholdBackward", "Sqrt",
           "Abs", "Clamp", "ToCopy", "exp", "log", "sin", "cos", "sinh", "cosh", "tanh", "sigmoid",
           "relu", "sqrt", "abs", "clamp", "clip", "clamp_dtype", "clamp_min", "clamp_max",
           "ClampMin", "ClampMax",
           "square", "log1p", "to_copy", "Sign", "Sgn", "sign",
           "Round", "RoundDecimals", "Floor", "Ceil", "Trunc", "round", "floor", "ceil", "trunc"]


def _floating(a):
    """The data of ``a`` as floats: integer tensors are promoted to the default dtype."""
    data = a._data
    return data if data.dtype.kind == "f" else data.astype(_dtype.default_float.numpy)


class Exp(_Op):
    """y = eˣ;  ∂y/∂x = y."""

    node_name = "ExpBackward0"
    array_backward = True  # its backward also runs on arrays (no create_graph)
    saved_names = ("result",)
    formula = ("grad * result",)

    @staticmethod
    def forward(ctx, x):
        result = np.exp(_floating(x))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return grad * result


class Log(_Op):
    """y = ln x;  ∂y/∂x = 1/x."""

    node_name = "LogBackward0"
    array_backward = True  # its backward also runs on arrays (no create_graph)
    saved_names = ("self",)
    formula = ("grad / self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return np.log(_floating(x))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad / x


class Log1p(_Op):
    """y = ln(1 + x);  ∂y/∂x = 1/(1 + x)."""

    node_name = "Log1PBackward0"
    array_backward = True  # its backward also runs on arrays (no create_graph)
    saved_names = ("self",)
    formula = ("grad / (self + 1)",)

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return np.log1p(_floating(x))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad / plus(x, 1)


class Sin(_Op):
    """y = sin x;  ∂y/∂x = cos x."""

    node_name = "SinBackward0"
    array_backward = True  # its backward also runs on arrays (no create_graph)
    saved_names = ("self",)
    formula = ("grad * cos(self)",)

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return Sin.compute(_floating(x))

    compute = staticmethod(np.sin)  # on arrays (see apply_op)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * apply_op(Cos, x)


class Cos(_Op):
    """y = cos x;  ∂y/∂x = -sin x."""

    node_name = "CosBackward0"
    array_backward = True  # its backward also runs on arrays (no create_graph)
    saved_names = ("self",)
    formula = ("-grad * sin(self)",)

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return Cos.compute(_floating(x))

    compute = staticmethod(np.cos)  # on arrays (see apply_op)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * -apply_op(Sin, x)


class Sinh(_Op):
    """y = sinh x = (eˣ - e⁻ˣ) / 2;  ∂y/∂x = cosh x."""

    node_name = "SinhBackward0"
    array_backward = True  # its backward also runs on arrays (no create_graph)
    saved_names = ("self",)
    formula = ("grad * cosh(self)",)

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return Sinh.compute(_floating(x))

    compute = staticmethod(np.sinh)  # on arrays (see apply_op)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * apply_op(Cosh, x)


class Cosh(_Op):
    """y = cosh x = (eˣ + e⁻ˣ) / 2;  ∂y/∂x = sinh x."""

    node_name = "CoshBackward0"
    array_backward = True  # its backward also runs on arrays (no create_graph)
    saved_names = ("self",)
    formula = ("grad * sinh(self)",)

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return Cosh.compute(_floating(x))

    compute = staticmethod(np.cosh)  # on arrays (see apply_op)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * apply_op(Sinh, x)


class Tanh(_Op):
    """y = tanh x;  ∂y/∂x = 1 - y²."""

    node_name = "TanhBackward0"
    array_backward = True  # its backward also runs on arrays (no create_graph)
    saved_names = ("result",)
    formula = ("grad * (1 - result ** 2)",)

    @staticmethod
    def forward(ctx, x):
        result = np.tanh(_floating(x))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        return apply_op(TanhBackward, grad, y)


class TanhBackward(_Op):
    """tanh's backward as its own op, as in PyTorch: z = g·(1 - y²);
    ∂z/∂g = 1 - y²,  ∂z/∂y = -2·y·g."""

    node_name = "TanhBackwardBackward0"
    saved_names = ("grad_output", "output")
    formula = (
        "grad * (1 - output ** 2)",
        "-2 * grad * grad_output * output",
    )

    @staticmethod
    def forward(ctx, g, y):
        ctx.save_for_backward(g, y)
        return TanhBackward.compute(g._data, y._data)

    @staticmethod
    def compute(g, y):  # on arrays (see apply_op)
        return g * (1 - y * y)

    @staticmethod
    def backward(ctx, grad):
        g, y = ctx.saved_tensors
        need_g, need_y = ctx.needs_input_grad
        return (TanhBackward.apply(grad, y) if need_g else None,
                grad * (-2 * y * g) if need_y else None)


class Sigmoid(_Op):
    """y = 1 / (1 + e⁻ˣ);  ∂y/∂x = y(1 - y)."""

    node_name = "SigmoidBackward0"
    array_backward = True  # its backward also runs on arrays (no create_graph)
    saved_names = ("result",)
    formula = ("grad * result * (1 - result)",)

    @staticmethod
    def forward(ctx, x):
        result = Sigmoid.compute(_floating(x))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def compute(x):  # on arrays (see apply_op)
        return (1 / (1 + np.exp(-x))).astype(x.dtype, copy=False)

    @staticmethod
    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        return apply_op(SigmoidBackward, grad, y)


class SigmoidBackward(_Op):
    """sigmoid's backward as its own op, as in PyTorch: z = g·y(1 - y);
    ∂z/∂g = y(1 - y),  ∂z/∂y = g·(1 - 2y)."""

    node_name = "SigmoidBackwardBackward0"
    saved_names = ("grad_output", "output")
    formula = (
        "grad * output * (1 - output)",
        "grad * grad_output * (1 - 2 * output)",
    )

    @staticmethod
    def forward(ctx, g, y):
        ctx.save_for_backward(g, y)
        return SigmoidBackward.compute(g._data, y._data)

    @staticmethod
    def compute(g, y):  # on arrays (see apply_op)
        return g * (y * (1 - y))

    @staticmethod
    def backward(ctx, grad):
        g, y = ctx.saved_tensors
        need_g, need_y = ctx.needs_input_grad
        return (SigmoidBackward.apply(grad, y) if need_g else None,
                grad * g * (-2 * y + 1) if need_y else None)


class Relu(_Op):
    """y = max(x, 0);  ∂y/∂x = 1 where y > 0, else 0."""

    node_name = "ReluBackward0"
    array_backward = True  # its backward also runs on arrays (no create_graph)
    saved_names = ("result",)
    formula = ("grad * (result > 0)",)

    @staticmethod
    def forward(ctx, x):
        if x._data.dtype.kind == "b":
            raise RuntimeError("Boolean inputs not supported for relu")
        # (out=ARRAY: a 0-d input gives a 0-d array, not a NumPy scalar that takes a slow path)
        result = np.maximum(x._data, zero_of(x._data.dtype), out=ARRAY)
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        return apply_op(ThresholdBackward, grad, y)


class ThresholdBackward(_Op):
    """relu's backward, as its own op (so that it depends on y, as in PyTorch):
    z = g where y > 0, else 0;  ∂z/∂g = grad where y > 0,  ∂z/∂y = 0."""

    node_name = "ThresholdBackwardBackward0"
    saved_names = ("self",)
    formula = ("grad * (self > 0)", "0 * grad")

    @staticmethod
    def forward(ctx, g, y):
        ctx.save_for_backward(y)
        return ThresholdBackward.compute(g._data, y._data)

    @staticmethod
    def compute(g, y):  # on arrays (see apply_op)
        # y <= 0 gets 0: a NaN passes its gradient through, as in PyTorch.
        return zeroed(g, y <= zero_of(y.dtype))

    @staticmethod
    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        return ThresholdBackward.apply(grad, y), Tensor._make(np.zeros(y.shape, grad._data.dtype))


class Sqrt(_Op):
    """y = √x;  ∂y/∂x = 1 / (2y)."""

    node_name = "SqrtBackward0"
    array_backward = True  # its backward also runs on arrays (no create_graph)
    saved_names = ("result",)
    formula = ("grad / (2 * result)",)

    @staticmethod
    def forward(ctx, x):
        result = np.sqrt(_floating(x))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        return grad / apply_op(MulScalar, y, 2)


class Abs(_Op):
    """y = |x|;  ∂y/∂x = sign(x) (0 at 0)."""

    node_name = "AbsBackward0"
    array_backward = True  # its backward also runs on arrays (no create_graph)
    saved_names = ("self",)
    formula = ("grad * sign(self)",)

    @staticmethod
    def forward(ctx, x):
        if x._data.dtype.kind == "b":
            raise _dtype.not_implemented("abs_cpu", x.dtype)
        ctx.save_for_backward(x)
        return np.abs(x._data)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * apply_op(Sgn, x)


class Sign(_Op):
    """y = sign(x);  ∂y/∂x = 0."""

    node_name = "SignBackward0"
    array_backward = True  # its backward also runs on arrays (no create_graph)
    formula = ("0 * grad",)

    @staticmethod
    def forward(ctx, x):
        return Sign.compute(x._data)

    @staticmethod
    def compute(data):  # on arrays (see apply_op)
        if data.dtype == np.bool_:
            return data.copy()  # sign(True) is True
        out = np.sign(data)
        if out.dtype.kind == "f":
            out = np.where(np.isnan(out), 0, out).astype(out.dtype)  # sign(NaN) = 0, as PyTorch
        return np.asarray(out)

    @staticmethod
    def backward(ctx, grad):
        return zero_grad(grad)  # (PyTorch's zeros_like: a constant)


class Sgn(Sign):
    """sign(x) as PyTorch's formulas write it (``abs``'s gradient is ``grad * x.sgn()``)."""

    node_name = "SgnBackward0"


class _Step(_Op):
    """A piecewise-constant function: ∂y/∂x = 0 (PyTorch returns zeros, not ``grad * 0``)."""

    ufunc = None
    kernel = None
    formula = ("0 * grad",)

    @staticmethod
    def forward(ctx, x):
        data = x._data
        if data.dtype == np.bool_:
            raise _dtype.not_implemented(ctx._forward_cls.kernel, x.dtype)
        return data.copy() if data.dtype.kind in "biu" else ctx._forward_cls.ufunc(data)

    @staticmethod
    def backward(ctx, grad):
        return Tensor._make(np.zeros_like(grad._data))


class Round(_Step):
    """y = x rounded to the nearest integer (ties to even);  ∂y/∂x = 0."""

    node_name = "RoundBackward0"
    ufunc = np.rint
    kernel = "round_vml_cpu"


class Floor(_Step):
    """y = ⌊x⌋;  ∂y/∂x = 0."""

    node_name = "FloorBackward0"
    ufunc = np.floor
    kernel = "floor_vml_cpu"


class Ceil(_Step):
    """y = ⌈x⌉;  ∂y/∂x = 0."""

    node_name = "CeilBackward0"
    ufunc = np.ceil
    kernel = "ceil_vml_cpu"


class Trunc(_Step):
    """y = x rounded towards zero;  ∂y/∂x = 0."""

    node_name = "TruncBackward0"
    ufunc = np.trunc
    kernel = "trunc_vml_cpu"


class RoundDecimals(_Op):
    """y = x rounded to ``decimals`` decimal places (ties to even);  ∂y/∂x = 0."""

    node_name = "RoundBackward1"
    formula = ("0 * grad",)

    @staticmethod
    def forward(ctx, x, decimals):
        data = x._data
        if data.dtype.kind != "f":
            raise NotImplementedError(
                f'"round_cpu" not implemented for \'{x.dtype.tensor_type[:-6]}\'')
        ten = np.asarray(10.0 ** builtins.abs(decimals), dtype=data.dtype)
        if decimals > 0:
            return np.rint(data * ten) / ten
        return np.rint(data / ten) * ten

    @staticmethod
    def backward(ctx, grad):
        return Tensor._make(np.zeros_like(grad._data)), None


def _bound(value, dtype):
    """A clamp bound in the result's dtype: -1 is 255 for uint8, as PyTorch casts it."""
    if dtype.is_floating_point or dtype is _dtype.bool:
        return value
    return np.asarray(value).astype(dtype.numpy)


class Clamp(_Op):
    """y = min(max(x, lo), hi);  ∂y/∂x = 1 where lo ≤ x ≤ hi, else 0."""

    node_name = "ClampBackward1"
    array_backward = True  # its backward also runs on arrays (no create_graph)
    saved_names = ("self",)
    formula = ("grad * between(self, bounds)",)

    @staticmethod
    def forward(ctx, x, lo, hi):
        if lo is None and hi is None:
            raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
        ctx.save_for_backward(x)
        ctx.bounds = (lo, hi)
        dtype = clamp_dtype(x, lo, hi)
        if dtype == _dtype.bool:  # no bool kernel (its name says which bounds were given)
            kind = "clamp" if lo is not None and hi is not None else (
                "clamp_min" if lo is not None else "clamp_max")
            raise _dtype.not_implemented(f"{kind}_scalar_cpu", _dtype.bool)
        bounds = [None if b is None else _bound(_dtype.check_scalar(b, dtype), dtype)
                  for b in (lo, hi)]
        return np.clip(x._data.astype(dtype.numpy, copy=False), *bounds)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        lo, hi = ctx.bounds
        mask = True
        if lo is not None:
            mask = x >= lo
        if hi is not None:
            mask = (x <= hi) if mask is True else mask & (x <= hi)
        if not isinstance(grad, Tensor):  # (a backward on arrays)
            return zeroed(grad, ~mask), None, None
        return where(mask, grad, 0.0), None, None  # (PyTorch's clamp_backward)


class ClampMin(Clamp):
    """y = max(x, lo);  ∂y/∂x = 1 where x ≥ lo, else 0."""

    node_name = "ClampMinBackward0"


class ClampMax(Clamp):
    """y = min(x, hi);  ∂y/∂x = 1 where x ≤ hi, else 0."""

    node_name = "ClampMaxBackward0"


class ClampMinTensor(_Op):
    """y = max(x, m) for a tensor m;  ∂y/∂x = 1 where x ≥ m,  ∂y/∂m = 1 where x < m."""

    node_name = "ClampMinBackward1"
    saved_names = ("self", "min")
    formula = ("grad * (self >= min)", "grad * (self < min)")
    _pick = staticmethod(np.maximum)

    @staticmethod
    def forward(ctx, x, bound):
        from minigrad.ops._util import result_dtype
        from minigrad.ops.arithmetic import broadcast_error
        try:
            np.broadcast_shapes(x.shape, bound.shape)
        except ValueError:
            raise broadcast_error(x, bound) from None
        ctx.save_for_backward(x, bound)
        dtype = result_dtype(x, bound)
        return ctx._forward_cls._pick(x._data.astype(dtype), bound._data.astype(dtype))

    @staticmethod
    def backward(ctx, grad):
        from minigrad.ops._util import sum_to
        x, bound = ctx.saved_tensors
        keep = x >= bound if ctx._forward_cls is ClampMinTensor else x <= bound
        need_x, need_bound = ctx.needs_input_grad
        return (sum_to(where(keep, grad, 0.0), x.shape) if need_x else None,
                sum_to(where(keep.logical_not(), grad, 0.0), bound.shape) if need_bound else None)


class ClampMaxTensor(ClampMinTensor):
    """y = min(x, m) for a tensor m;  ∂y/∂x = 1 where x ≤ m,  ∂y/∂m = 1 where x > m."""

    node_name = "ClampMaxBackward1"
    saved_names = ("self", "max")
    formula = ("grad * (self <= max)", "grad * (self > max)")
    _pick = staticmethod(np.minimum)


class ClampTensor(_Op):
    """y = min(max(x, lo), hi) for tensor bounds (either may be None);  ∂y/∂x = 1 where
    lo ≤ x ≤ hi,  ∂y/∂lo = 1 where x < lo < hi,  ∂y/∂hi = 1 where x > hi or hi < lo."""

    node_name = "ClampBackward0"
    saved_names = ("self", "min", "max")
    formula = ("grad * (self >= min) * (self <= max)", "grad * (self < min) * (min < max)",
               "grad * ((self > max) | (max < min))")

    @staticmethod
    def forward(ctx, x, lo, hi):
        from minigrad.ops._util import result_dtype
        from minigrad.ops.arithmetic import broadcast_error
        bounds = [b for b in (lo, hi) if b is not None]
        for b in bounds:
            try:
                np.broadcast_shapes(x.shape, b.shape)
            except ValueError:
                raise broadcast_error(x, b) from None
        ctx.save_for_backward(x, lo, hi)
        dtype = result_dtype(x, *bounds)
        out = x._data.astype(dtype)
        if lo is not None:
            out = np.maximum(out, lo._data.astype(dtype))
        if hi is not None:
            out = np.minimum(out, hi._data.astype(dtype))
        return out

    @staticmethod
    def backward(ctx, grad):
        from minigrad.ops._util import sum_to
        x, lo, hi = ctx.saved_tensors
        need_x, need_lo, need_hi = ctx.needs_input_grad
        inside = None
        for bound, ok in ((lo, lambda: x >= lo), (hi, lambda: x <= hi)):
            if bound is not None:
                inside = ok() if inside is None else inside.logical_and(ok())
        grad_lo = grad_hi = None
        if need_lo:
            below = x < lo if hi is None else (x < lo).logical_and(lo < hi)
            grad_lo = sum_to(where(below, grad, 0.0), lo.shape)
        if need_hi:
            above = x > hi if lo is None else (x > hi).logical_or(hi < lo)
            grad_hi = sum_to(where(above, grad, 0.0), hi.shape)
        return (sum_to(where(inside, grad, 0.0), x.shape) if need_x else None), grad_lo, grad_hi


class ToCopy(_Op):
    """y = x converted to another dtype;  ∂y/∂x = 1 (cast back)."""

    node_name = "ToCopyBackward0"
    formula = ("grad",)

    @staticmethod
    def forward(ctx, x, dtype):
        ctx.source_dtype = x.dtype
        return x._data.astype(dtype.numpy)

    @staticmethod
    def backward(ctx, grad):
        return grad.to(ctx.source_dtype), None


def exp(x):
    return Exp.apply(x)


def log(x):
    return Log.apply(x)


def log1p(x):
    return Log1p.apply(x)


def sin(x):
    return Sin.apply(x)


def cos(x):
    return Cos.apply(x)


def sinh(x):
    return Sinh.apply(x)


def cosh(x):
    return Cosh.apply(x)


def tanh(x):
    return Tanh.apply(x)


def sigmoid(x):
    return Sigmoid.apply(x)


def relu(x):
    return Relu.apply(x)


def sqrt(x):
    return Sqrt.apply(x)


def abs(x):  # noqa: A001 - PyTorch's name
    return Abs.apply(x)


def sign(x):
    return Sign.apply(x)


def clamp_dtype(x, lo, hi):
    """The dtype of ``clamp(x, lo, hi)``: x's promoted with the bounds (as numbers)."""
    from minigrad.ops._util import WrappedNumber, result_dtype
    bounds = [b if isinstance(b, Tensor) else WrappedNumber._make(np.asarray(b))
              for b in (lo, hi) if b is not None]
    return _dtype.from_numpy_dtype(result_dtype(x, *bounds))


def clamp(x, min=None, max=None):  # noqa: A002 - PyTorch's names
    tensors = [isinstance(b, Tensor) for b in (min, max) if b is not None]
    if any(tensors):
        if not all(tensors):  # PyTorch has no overload for one tensor and one number
            raise TypeError(
                "clamp() received an invalid combination of arguments - got (Tensor, "
                + ", ".join(f"{k}={'Tensor' if isinstance(v, Tensor) else type(v).__name__}"
                            for k, v in sorted({"min": min, "max": max}.items())
                            if v is not None) + "), but expected one of:")
        return ClampTensor.apply(x, min, max)
    return Clamp.apply(x, min, max)


clip = clamp  # PyTorch's alias


def clamp_min(x, min):  # noqa: A002 - PyTorch's name
    if isinstance(min, Tensor):
        return ClampMinTensor.apply(x, min)
    return ClampMin.apply(x, min, None)


def clamp_max(x, max):  # noqa: A002 - PyTorch's name
    if isinstance(max, Tensor):
        return ClampMaxTensor.apply(x, max)
    return ClampMax.apply(x, None, max)


def round(x, *, decimals=0):  # noqa: A001 - PyTorch's name
    """Round to the nearest integer, or to ``decimals`` decimal places; ties go to even."""
    if decimals == 0:
        return Round.apply(x)
    return RoundDecimals.apply(x, int(decimals))


def floor(x):
    return Floor.apply(x)


def ceil(x):
    return Ceil.apply(x)


def trunc(x):
    return Trunc.apply(x)


def square(x):
    return x ** 2


def to_copy(x, dtype):
    return ToCopy.apply(x, dtype)
