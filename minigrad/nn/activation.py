"""Activation layers: ``ReLU``, ``LeakyReLU``, ``GELU``, ``SiLU``, ``Mish``, ``Softplus``,
``Tanh``, ``Sigmoid``, ``Softmax``,
``LogSoftmax``, ``ELU``, ``Hardtanh``, ``ReLU6``, ``SELU``, ``CELU``, ``Threshold``,
``Hardsigmoid``, ``Hardswish``, ``LogSigmoid``, ``PReLU``, ``Softsign``, ``Tanhshrink``,
``Softmin``, ``GLU`` (each a thin Module around ``nn.functional``)."""

import minigrad
from minigrad.nn import functional as F
from minigrad.nn.module import Module
from minigrad.nn.parameter import Parameter

__all__ = ["ReLU", "LeakyReLU", "GELU", "SiLU", "Mish", "Softplus", "Tanh", "Sigmoid", "Softmax",
           "LogSoftmax", "ELU", "Hardtanh", "ReLU6", "SELU", "CELU", "Threshold", "Hardsigmoid",
           "Hardswish", "LogSigmoid", "PReLU", "Softsign", "Tanhshrink", "Softmin", "GLU"]


class ReLU(Module):
    """max(x, 0), elementwise (node ``ReluBackward0``).

    Example:
        >>> nn.ReLU()(minigrad.tensor([-1.0, 2.0]))
        tensor([0., 2.])
    """

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):  # noqa: A002 - PyTorch's argument name
        return F.relu(input, self.inplace)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class LeakyReLU(Module):
    """x where x > 0, ``negative_slope``·x elsewhere (node ``LeakyReluBackward0``).

    Example:
        >>> nn.LeakyReLU(0.1)(minigrad.tensor([-1.0, 2.0]))
        tensor([-0.1000,  2.0000])
    """

    def __init__(self, negative_slope=0.01, inplace=False):
        super().__init__()
        self.negative_slope, self.inplace = negative_slope, inplace

    def forward(self, input):  # noqa: A002
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self):
        return f"negative_slope={self.negative_slope}" + (", inplace=True" if self.inplace else "")


class GELU(Module):
    """x·Φ(x), elementwise, Φ the standard normal's CDF or (``approximate="tanh"``) its tanh
    approximation (node ``GeluBackward0``).

    Example:
        >>> nn.GELU()(minigrad.tensor([-1.0, 1.0]))
        tensor([-0.1587,  0.8413])
        >>> nn.GELU(approximate="tanh")
        GELU(approximate='tanh')
    """

    def __init__(self, approximate="none"):
        super().__init__()
        self.approximate = approximate

    def forward(self, input):  # noqa: A002
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self):
        return f"approximate={self.approximate!r}"


class SiLU(Module):
    """x·σ(x), elementwise (node ``SiluBackward0``).

    Example:
        >>> nn.SiLU()(minigrad.tensor([0.0, 2.0]))
        tensor([0.0000, 1.7616])
    """

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):  # noqa: A002
        return F.silu(input, inplace=self.inplace)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class Mish(Module):
    """x·tanh(softplus(x)), elementwise (node ``MishBackward0``).

    Example:
        >>> nn.Mish()(minigrad.tensor([0.0, 2.0]))
        tensor([0.0000, 1.9440])
    """

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):  # noqa: A002
        return F.mish(input, inplace=self.inplace)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class Softplus(Module):
    """log(1 + e^(βx)) / β, elementwise (node ``SoftplusBackward0``).

    Example:
        >>> nn.Softplus()(minigrad.tensor([0.0]))
        tensor([0.6931])
    """

    def __init__(self, beta=1.0, threshold=20.0):
        super().__init__()
        self.beta, self.threshold = beta, threshold

    def forward(self, input):  # noqa: A002
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self):
        return f"beta={self.beta}, threshold={self.threshold}"


class Tanh(Module):
    """Hyperbolic tangent, elementwise (node ``TanhBackward0``).

    Example:
        >>> nn.Tanh()(minigrad.tensor([0.0]))
        tensor([0.])
    """

    def forward(self, input):  # noqa: A002
        return F.tanh(input)


class Sigmoid(Module):
    """1 / (1 + e⁻ˣ), elementwise (node ``SigmoidBackward0``).

    Example:
        >>> nn.Sigmoid()(minigrad.tensor([0.0]))
        tensor([0.5000])
    """

    def forward(self, input):  # noqa: A002
        return F.sigmoid(input)


class Softmax(Module):
    """eˣ / Σ eˣ along ``dim`` (node ``SoftmaxBackward0``).

    Example:
        >>> nn.Softmax(dim=1)(minigrad.zeros(1, 4))
        tensor([[0.2500, 0.2500, 0.2500, 0.2500]])
    """

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):  # noqa: A002
        return F.softmax(input, self.dim)

    def extra_repr(self):
        return f"dim={self.dim}"


class LogSoftmax(Module):
    """log(softmax(x)) along ``dim``, computed stably (node ``LogSoftmaxBackward0``).

    Example:
        >>> nn.LogSoftmax(dim=1)(minigrad.zeros(1, 2))
        tensor([[-0.6931, -0.6931]])
    """

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):  # noqa: A002
        return F.log_softmax(input, self.dim)

    def extra_repr(self):
        return f"dim={self.dim}"


def _inplace_repr(text, inplace):
    return text + (", inplace=True" if inplace and text else "inplace=True" if inplace else "")


class ELU(Module):
    """x where x > 0, else α·(eˣ - 1) (node ``EluBackward0``).

    Example:
        >>> nn.ELU()(minigrad.tensor([-1.0, 2.0]))
        tensor([-0.6321,  2.0000])
    """

    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha, self.inplace = alpha, inplace

    def forward(self, input):  # noqa: A002
        return F.elu(input, self.alpha, self.inplace)

    def extra_repr(self):
        return _inplace_repr(f"alpha={self.alpha}", self.inplace)


class Hardtanh(Module):
    """clamp(x, min_val, max_val) (node ``HardtanhBackward0``).

    Example:
        >>> nn.Hardtanh()(minigrad.tensor([-2.0, 0.5]))
        tensor([-1.0000,  0.5000])
    """

    def __init__(self, min_val=-1.0, max_val=1.0, inplace=False):
        super().__init__()
        self.min_val, self.max_val, self.inplace = min_val, max_val, inplace
        if not self.max_val > self.min_val:
            raise AssertionError(f"max_val ({max_val}) must be greater than min_val ({min_val})")

    def forward(self, input):  # noqa: A002
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self):
        return _inplace_repr(f"min_val={self.min_val}, max_val={self.max_val}", self.inplace)


class ReLU6(Hardtanh):
    """min(max(x, 0), 6) (node ``HardtanhBackward0``).

    Example:
        >>> nn.ReLU6()(minigrad.tensor([-1.0, 7.0]))
        tensor([0., 6.])
    """

    def __init__(self, inplace=False):
        super().__init__(0.0, 6.0, inplace)

    def extra_repr(self):
        return _inplace_repr("", self.inplace)


class SELU(Module):
    """scale·elu(x, α), PyTorch's self-normalizing constants (node ``EluBackward0``).

    Example:
        >>> nn.SELU()(minigrad.tensor([1.0]))
        tensor([1.0507])
    """

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):  # noqa: A002
        return F.selu(input, self.inplace)

    def extra_repr(self):
        return _inplace_repr("", self.inplace)


class CELU(Module):
    """max(0, x) + min(0, α·(e^(x/α) - 1)) (node ``CeluBackward0``).

    Example:
        >>> nn.CELU(2.0)(minigrad.tensor([-1.0]))
        tensor([-0.7869])
    """

    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha, self.inplace = alpha, inplace

    def forward(self, input):  # noqa: A002
        return F.celu(input, self.alpha, self.inplace)

    def extra_repr(self):
        return _inplace_repr(f"alpha={self.alpha}", self.inplace)


class Threshold(Module):
    """x where x > ``threshold``, else ``value`` (node ``ThresholdBackward0``).

    Example:
        >>> nn.Threshold(1.0, 0.0)(minigrad.tensor([0.5, 2.0]))
        tensor([0., 2.])
    """

    def __init__(self, threshold, value, inplace=False):
        super().__init__()
        self.threshold, self.value, self.inplace = threshold, value, inplace

    def forward(self, input):  # noqa: A002
        return F.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self):
        return _inplace_repr(f"threshold={self.threshold}, value={self.value}", self.inplace)


class Hardsigmoid(Module):
    """clamp(x/6 + 1/2, 0, 1) (node ``HardsigmoidBackward0``); its repr never shows
    ``inplace``, as PyTorch's.

    Example:
        >>> nn.Hardsigmoid()(minigrad.tensor([0.0]))
        tensor([0.5000])
    """

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):  # noqa: A002
        return F.hardsigmoid(input, self.inplace)


class Hardswish(Module):
    """x·clamp(x + 3, 0, 6)/6 (node ``HardswishBackward0``); its repr never shows
    ``inplace``, as PyTorch's.

    Example:
        >>> nn.Hardswish()(minigrad.tensor([1.0]))
        tensor([0.6667])
    """

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):  # noqa: A002
        return F.hardswish(input, self.inplace)


class LogSigmoid(Module):
    """log σ(x) (node ``LogSigmoidBackward0``).

    Example:
        >>> nn.LogSigmoid()(minigrad.tensor([0.0]))
        tensor([-0.6931])
    """

    def forward(self, input):  # noqa: A002
        return F.logsigmoid(input)


class PReLU(Module):
    """x where x > 0, else w·x, with ``num_parameters`` learnable slopes w (one per channel,
    or one for all), each starting at ``init`` (node ``PreluKernelBackward0``).

    Example:
        >>> nn.PReLU()(minigrad.tensor([-1.0, 2.0]))
        tensor([-0.2500,  2.0000], grad_fn=<PreluKernelBackward0>)
    """

    def __init__(self, num_parameters=1, init=0.25, device=None, dtype=None):
        super().__init__()
        self.num_parameters, self.init = num_parameters, init
        self.weight = Parameter(minigrad.empty(num_parameters, device=device, dtype=dtype))
        self.reset_parameters()

    def reset_parameters(self):
        with minigrad.no_grad():
            self.weight.fill_(self.init)

    def forward(self, input):  # noqa: A002
        return F.prelu(input, self.weight)

    def extra_repr(self):
        return f"num_parameters={self.num_parameters}"


class Softsign(Module):
    """x / (1 + |x|).

    Example:
        >>> nn.Softsign()(minigrad.tensor([3.0]))
        tensor([0.7500])
    """

    def forward(self, input):  # noqa: A002
        return F.softsign(input)


class Tanhshrink(Module):
    """x - tanh(x).

    Example:
        >>> nn.Tanhshrink()(minigrad.tensor([1.0]))
        tensor([0.2384])
    """

    def forward(self, input):  # noqa: A002
        return F.tanhshrink(input)


class Softmin(Module):
    """softmax(-x) along ``dim``.

    Example:
        >>> nn.Softmin(dim=0)(minigrad.tensor([0.0, 0.0]))
        tensor([0.5000, 0.5000])
    """

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):  # noqa: A002
        return F.softmin(input, self.dim, _stacklevel=5)

    def extra_repr(self):
        return f"dim={self.dim}"


class GLU(Module):
    """a·σ(b), a and b the halves of x along ``dim`` (node ``GluBackward0``).

    Example:
        >>> nn.GLU()(minigrad.tensor([1.0, 0.0]))
        tensor([0.5000])
    """

    def __init__(self, dim=-1):
        super().__init__()
        self.dim = dim

    def forward(self, input):  # noqa: A002
        return F.glu(input, self.dim)

    def extra_repr(self):
        return f"dim={self.dim}"
