"""Activation layers: ``ReLU``, ``LeakyReLU``, ``GELU``, ``SiLU``, ``Mish``, ``Softplus``,
``Tanh``, ``Sigmoid``, ``Softmax``,
``LogSoftmax`` (each a thin Module around ``nn.functional``)."""

from minigrad.nn import functional as F
from minigrad.nn.module import Module

__all__ = ["ReLU", "LeakyReLU", "GELU", "SiLU", "Mish", "Softplus", "Tanh", "Sigmoid", "Softmax",
           "LogSoftmax"]


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
