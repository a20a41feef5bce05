"""Random sampling as ops: ``uniform_``, ``normal_``, ``bernoulli_``, ``random_``,
``exponential_`` (in place) and ``normal``, ``bernoulli``, ``multinomial``.

The values come from ``minigrad._distributions`` (PyTorch's CPU kernels) and a
``minigrad.Generator``. A sample does not depend differentiably on what it overwrites, so the
gradient through an in-place sampler is zero, under PyTorch's node names (``NormalBackward0``,
``UniformBackward0``, ``BernoulliBackward2``, ...).
"""

import numpy as np

from minigrad import _distributions, random
from minigrad.autograd.function import _Op
from minigrad.ops._util import zero_grad
from minigrad.ops.inplace import inplace
from minigrad.tensor import Tensor

__all__ = ["bernoulli", "multinomial"]

NORMAL_STD = "normal expects std >= 0.0, but found std {:g}"  # C++ prints -1.0 as -1


def generator_arg(generator, func="random"):
    """``generator=`` as a Generator: the default one when None."""
    if generator is None:
        return random.default_generator
    if not isinstance(generator, random.Generator):
        raise TypeError(f"{func}(): argument 'generator' must be torch.Generator, not "
                        f"{type(generator).__name__}")
    return generator


class _Sample(_Op):
    """y = a fresh sample with x's shape and dtype;  ∂y/∂x = 0.

    ``forward(ctx, x, layout, generator, *params)``: ``layout`` is the array being overwritten,
    whose memory order decides which element gets which draw.
    """

    kernel = None
    formula = ("0 * grad",)  # every sampler: a sample does not depend on x

    @classmethod
    def forward(cls, ctx, x, layout, generator, *params):
        ctx.n_params = len(params)
        out = np.empty_like(layout)
        cls.sample(out, layout, generator, *params)
        return out

    @classmethod
    def sample(cls, out, layout, generator, *params):
        cls.kernel(out, *params, generator)

    @staticmethod
    def backward(ctx, grad):
        return (zero_grad(grad), None, None) + (None,) * ctx.n_params


class Uniform(_Sample):
    """y ~ U(from, to);  ∂y/∂x = 0."""

    node_name = "UniformBackward0"
    kernel = staticmethod(_distributions.uniform_)


class Normal(_Sample):
    """y ~ N(mean, std²);  ∂y/∂x = 0."""

    node_name = "NormalBackward0"

    @staticmethod
    def sample(out, layout, generator, mean, std):  # the path depends on the layout
        _distributions.normal_(out, mean, std, generator, layout.flags.c_contiguous)


class Bernoulli(_Sample):
    """y ~ Bernoulli(p) for a number p;  ∂y/∂x = 0."""

    node_name = "BernoulliBackward2"
    kernel = staticmethod(_distributions.bernoulli_)


class Exponential(_Sample):
    """y ~ Exp(λ);  ∂y/∂x = 0."""

    node_name = "ExponentialBackward0"
    kernel = staticmethod(_distributions.exponential_)


class Cauchy(_Sample):
    """y ~ Cauchy(median, σ);  ∂y/∂x = 0."""

    node_name = "CauchyBackward0"
    kernel = staticmethod(_distributions.cauchy_)


class LogNormal(_Sample):
    """y ~ exp N(mean, std²);  ∂y/∂x = 0."""

    node_name = "LogNormalBackward0"
    kernel = staticmethod(_distributions.log_normal_)


class Geometric(_Sample):
    """y ~ Geometric(p);  ∂y/∂x = 0."""

    node_name = "GeometricBackward0"
    kernel = staticmethod(_distributions.geometric_)


class RandomFromTo(_Sample):
    """y ~ uniform integers in [from, to);  ∂y/∂x = 0."""

    node_name = "RandomBackward0"
    kernel = staticmethod(_distributions.random_from_to_)


class RandomTo(RandomFromTo):
    """y ~ uniform integers in [0, to);  ∂y/∂x = 0."""

    node_name = "RandomBackward1"


class Random(_Sample):
    """y ~ uniform integers in [0, 2**mantissa] (floats) or [0, max] (integers);  ∂y/∂x = 0."""

    node_name = "RandomBackward2"
    kernel = staticmethod(_distributions.random_)


class BernoulliTensor(_Op):
    """y ~ Bernoulli(p) for a tensor p;  ∂y/∂x = 0,  ∂y/∂p = 0."""

    node_name = "BernoulliBackward1"
    formula = ("0 * grad", "0 * grad")  # a sample

    @staticmethod
    def forward(ctx, x, p, layout, generator):
        out = np.empty_like(layout)
        _distributions.bernoulli_(out, p._data, generator)
        return out

    @staticmethod
    def backward(ctx, grad):
        return zero_grad(grad), None, None, None


# ---------------------------------------------------------------------------- in place
def _float_only(x, kernel):
    if not x.dtype.is_floating_point:
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{x.dtype.tensor_type[:-len('Tensor')]}'")


def uniform_(x, low=0.0, high=1.0, generator=None):
    _float_only(x, "check_uniform_bounds")
    if not low <= high:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found "
                           f"from={low:g} > to={high:g}")
    return inplace(x, Uniform.apply, x._data, generator_arg(generator), low, high)


def normal_(x, mean=0.0, std=1.0, generator=None):
    _float_only(x, "normal_kernel_cpu")
    if not std >= 0.0:
        raise RuntimeError(NORMAL_STD.format(std))
    return inplace(x, Normal.apply, x._data, generator_arg(generator), mean, std)


def bernoulli_(x, p=0.5, generator=None):
    generator = generator_arg(generator)
    if isinstance(p, Tensor):
        return inplace(x, BernoulliTensor.apply, p, x._data, generator)
    if not 0 <= p <= 1:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p:g}")
    return inplace(x, Bernoulli.apply, x._data, generator, p)


def exponential_(x, lambd=1.0, generator=None):
    _float_only(x, "exponential_cpu")
    if not lambd > 0.0:
        raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={lambd:g}")
    return inplace(x, Exponential.apply, x._data, generator_arg(generator), lambd)


def cauchy_(x, median=0.0, sigma=1.0, generator=None):
    _float_only(x, "cauchy_cpu")
    if not sigma > 0.0:
        raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={sigma:g}")
    return inplace(x, Cauchy.apply, x._data, generator_arg(generator), median, sigma)


def log_normal_(x, mean=1.0, std=2.0, generator=None):
    _float_only(x, "log_normal_cpu")
    if not std > 0.0:
        raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={std:g}")
    return inplace(x, LogNormal.apply, x._data, generator_arg(generator), mean, std)


def geometric_(x, p, generator=None):
    if not 0 < p < 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={p:g}")
    return inplace(x, Geometric.apply, x._data, generator_arg(generator), p)


def random_(x, low=None, high=None, generator=None):
    """``random_()``, ``random_(to)`` or ``random_(from, to)``."""
    generator = generator_arg(generator)
    if low is None and high is None:
        return inplace(x, Random.apply, x._data, generator)
    if low is None or high is None:
        to = high if low is None else low
        return inplace(x, RandomTo.apply, x._data, generator, 0, _check_range(0, to))
    return inplace(x, RandomFromTo.apply, x._data, generator, low, _check_range(low, high))


def _check_range(low, high):
    if not low < high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} "
                           f">= to={high}")
    return high


# ---------------------------------------------------------------------------- functions
class NormalTensorFloat(_Op):
    """y = mean + ε·std, ε ~ N(0, 1), for a tensor mean;  ∂y/∂mean = 0 (a sample)."""

    node_name = "NormalBackward1"
    formula = ("0 * grad",)  # a sample

    @staticmethod
    def forward(ctx, mean, std, generator):
        out = np.empty_like(mean._data)
        _distributions.normal_(out, 0.0, std, generator)
        return out + mean._data

    @staticmethod
    def backward(ctx, grad):
        return zero_grad(grad), None, None


class NormalFloatTensor(_Op):
    """y = mean + ε·std, ε ~ N(0, 1), for a tensor std;  ∂y/∂std = 0 (a sample)."""

    node_name = "NormalBackward2"
    formula = ("0 * grad",)  # a sample

    @staticmethod
    def forward(ctx, mean, std, generator):
        out = np.empty_like(std._data)
        _distributions.normal_(out, 0.0, 1.0, generator)
        return out * std._data + std._data.dtype.type(mean)

    @staticmethod
    def backward(ctx, grad):
        return None, zero_grad(grad), None


class NormalTensorTensor(_Op):
    """y = mean + ε·std, ε ~ N(0, 1), for tensors mean and std;  both gradients 0."""

    node_name = "NormalBackward3"
    formula = ("0 * grad", "0 * grad")  # a sample

    @staticmethod
    def forward(ctx, mean, std, generator):
        shape = np.broadcast_shapes(mean.shape, std.shape)
        out = np.empty(shape, np.result_type(mean._data, std._data))
        _distributions.normal_(out, 0.0, 1.0, generator)
        ctx.shapes = mean.shape, std.shape
        return out * std._data + mean._data

    @staticmethod
    def backward(ctx, grad):
        mean_shape, std_shape = ctx.shapes
        return zero_grad(grad, mean_shape), zero_grad(grad, std_shape), None


def normal(mean, std, generator=None):
    """``normal(mean, std)`` with a tensor mean and/or std: one sample per element."""
    generator = generator_arg(generator, "normal")
    if isinstance(std, Tensor):
        if (std._data < 0).any():
            raise RuntimeError("normal expects all elements of std >= 0.0")
        if isinstance(mean, Tensor):
            return NormalTensorTensor.apply(mean, std, generator)
        return NormalFloatTensor.apply(mean, std, generator)
    if not std >= 0.0:
        raise RuntimeError(NORMAL_STD.format(std))
    return NormalTensorFloat.apply(mean, std, generator)


class BernoulliProbabilities(_Op):
    """y ~ Bernoulli(p) elementwise;  ∂y/∂p = 0 (a sample)."""

    node_name = "BernoulliBackward0"
    formula = ("0 * grad",)  # a sample

    @staticmethod
    def forward(ctx, p, generator):
        out = np.empty_like(p._data)
        _distributions.bernoulli_(out, p._data, generator)
        return out

    @staticmethod
    def backward(ctx, grad):
        return zero_grad(grad), None


def bernoulli(input, p=None, *, generator=None):  # noqa: A002 - PyTorch's argument name
    """0/1 samples: with probability ``input`` elementwise, or ``p`` for every element.

    Example:
        >>> _ = minigrad.manual_seed(0)
        >>> minigrad.bernoulli(minigrad.tensor([0.0, 1.0, 0.5]))
        tensor([0., 1., 1.])
    """
    generator = generator_arg(generator, "bernoulli")
    if p is None:
        if ((input._data < 0) | (input._data > 1)).any():
            raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.  "
                               "(Could this error message be improved?  If so, please report "
                               "an enhancement request to PyTorch.)")
        return BernoulliProbabilities.apply(input, generator)
    out = Tensor._make(np.empty_like(input._data))
    return bernoulli_(out, p, generator)


def multinomial(input, num_samples, replacement=False, *, generator=None):  # noqa: A002
    """Indices of categories drawn with the probabilities (weights) in ``input``'s last dim.

    Example:
        >>> _ = minigrad.manual_seed(0)
        >>> minigrad.multinomial(minigrad.tensor([0.1, 0.0, 0.9]), 2)
        tensor([2, 0])
    """
    generator = generator_arg(generator, "multinomial")
    data = input._data
    if input.ndim not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if not input.dtype.is_floating_point:
        raise RuntimeError(f"multinomial only supports floating-point dtypes for input, got: "
                           f"{input.dtype.tensor_type[:-len('Tensor')]}")
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    if not replacement and num_samples > data.shape[-1]:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without "
                           "replacement")
    if not (np.isfinite(data).all() and (data >= 0).all()):
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    if (data.reshape(-1, data.shape[-1]).sum(-1) == 0).any():
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    picked = _distributions.multinomial(data, int(num_samples), replacement, generator)
    return Tensor._make(picked)
