"""Recurrent layers: ``RNN``, ``LSTM`` and ``GRU`` over whole sequences (``num_layers``,
``bidirectional``, ``batch_first``, dropout between layers, an LSTM's ``proj_size``), and the
one-step ``RNNCell``, ``LSTMCell`` and ``GRUCell``.

Parameters have PyTorch's names, shapes and initialisation: ``weight_ih_l{k}``,
``weight_hh_l{k}``, ``bias_ih_l{k}``, ``bias_hh_l{k}`` (``_reverse`` for the backward
direction), each drawn from U(-1/√hidden_size, 1/√hidden_size) in registration order, so that
after ``manual_seed(s)`` a layer starts from PyTorch's numbers.

Each step is composed of differentiable ops (``F.linear``, ``unsafe_chunk``, ``sigmoid``,
``tanh``, ``mul``, ``add``, ``stack``, ``cat``) in the order of PyTorch's CPU code, so the
graphs of ``RNN``, ``GRU`` and the cells are PyTorch's node for node. NB: PyTorch runs an
``LSTM`` layer as one fused oneDNN kernel (a single ``MkldnnRnnLayerBackward0`` node); minigrad's
LSTM graph shows its steps instead. Outputs and gradients are PyTorch's.
"""

import math
import numbers
import warnings

import numpy as np

import minigrad
from minigrad import _device, _dtype
from minigrad.nn import functional as F
from minigrad.nn import init
from minigrad.nn.module import Module
from minigrad.nn.parameter import Parameter
from minigrad.tensor import Tensor

__all__ = ["RNNBase", "RNN", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell"]

_GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}


# ---------------------------------------------------------------------- one step of each cell
def _rnn_step(x_proj, h, w_hh, b_hh, nonlinearity, hidden_first=False):
    """h' = act(x·W_ihᵀ + b_ih + h·W_hhᵀ + b_hh), with ``x_proj`` the input's part (added
    after the hidden part in a layer, before it in a cell: PyTorch's graphs)."""
    h_proj = F.linear(h, w_hh, b_hh)
    pre = h_proj + x_proj if hidden_first else x_proj + h_proj
    return pre.tanh() if nonlinearity == "tanh" else pre.relu()


def _lstm_step(x_proj, state, w_hh, b_hh, w_hr=None):
    """i, f, g, o = σ, σ, tanh, σ of the four quarters of the gates;
    c' = f·c + i·g,  h' = o·tanh(c') (times W_hrᵀ with a projection)."""
    h, c = state
    i, f, g, o = (x_proj + F.linear(h, w_hh, b_hh)).unsafe_chunk(4, -1)
    c = f.sigmoid() * c + i.sigmoid() * g.tanh()
    h = o.sigmoid() * c.tanh()
    return (h if w_hr is None else F.linear(h, w_hr)), c


def _gru_step(x_proj, h, w_hh, b_hh):
    """r, z = σ(h_r + x_r), σ(h_z + x_z);  n = tanh(x_n + h_n·r);  h' = (h - n)·z + n."""
    x_r, x_z, x_n = x_proj.unsafe_chunk(3, -1)
    h_r, h_z, h_n = F.linear(h, w_hh, b_hh).unsafe_chunk(3, -1)
    r, z = (h_r + x_r).sigmoid(), (h_z + x_z).sigmoid()
    n = (x_n + h_n * r).tanh()
    return (h - n) * z + n


def _empty(shape, dtype):
    np_dtype = _dtype.to_dtype(dtype).numpy if dtype is not None else _dtype.default_float.numpy
    return Parameter(Tensor._make(np.empty(shape, np_dtype)))


def _dtype_error(input, weight):  # noqa: A002 - PyTorch's name
    return ValueError(f"RNN input dtype ({input.dtype}) does not match weight dtype "
                      f"({weight.dtype}). Convert input: input.to({weight.dtype}), or convert "
                      f"model: model.to({input.dtype})")


# ---------------------------------------------------------------------- whole sequences
class RNNBase(Module):
    """The layers, directions and parameters that ``RNN``, ``LSTM`` and ``GRU`` share."""

    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True,
                 batch_first=False, dropout=0.0, bidirectional=False, proj_size=0,
                 device=None, dtype=None):
        super().__init__()
        _device.check_device(device)  # the CPU only: CUDA raises PyTorch's error
        _check_sizes(mode, hidden_size, num_layers, dropout, proj_size)
        self.mode, self.input_size, self.hidden_size = mode, input_size, hidden_size
        self.num_layers, self.bias, self.batch_first = num_layers, bias, batch_first
        self.dropout, self.bidirectional, self.proj_size = float(dropout), bidirectional, proj_size
        gate_size = _GATES[mode] * hidden_size
        real_hidden = proj_size or hidden_size
        directions = 2 if bidirectional else 1
        self._all_weights = []
        for layer in range(num_layers):
            for direction in range(directions):
                suffix = f"_l{layer}" + ("_reverse" if direction else "")
                inputs = input_size if layer == 0 else real_hidden * directions
                shapes = {"weight_ih": (gate_size, inputs), "weight_hh": (gate_size, real_hidden)}
                if bias:
                    shapes.update(bias_ih=(gate_size,), bias_hh=(gate_size,))
                if proj_size:
                    shapes["weight_hr"] = (proj_size, hidden_size)
                for name, shape in shapes.items():
                    setattr(self, name + suffix, _empty(shape, dtype))
                self._all_weights.append([name + suffix for name in shapes])
        self.reset_parameters()

    def reset_parameters(self):
        bound = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -bound, bound)

    @property
    def all_weights(self):
        """The parameters of each layer and direction, as lists in PyTorch's order."""
        return [[getattr(self, name) for name in names] for names in self._all_weights]

    def _weights(self, layer, direction):
        names = self._all_weights[layer * (2 if self.bidirectional else 1) + direction]
        found = {name.split("_l")[0]: getattr(self, name) for name in names}
        return (found["weight_ih"], found["weight_hh"], found.get("bias_ih"),
                found.get("bias_hh"), found.get("weight_hr"))

    def extra_repr(self):
        text = f"{self.input_size}, {self.hidden_size}"
        if self.proj_size != 0:
            text += f", proj_size={self.proj_size}"
        if self.num_layers != 1:
            text += f", num_layers={self.num_layers}"
        if self.bias is not True:
            text += f", bias={self.bias}"
        if self.batch_first is not False:
            text += f", batch_first={self.batch_first}"
        if self.dropout != 0:
            text += f", dropout={self.dropout}"
        if self.bidirectional is not False:
            text += f", bidirectional={self.bidirectional}"
        return text

    # -- the forward pass, shared
    def _prepare(self, input, states):  # noqa: A002 - PyTorch's name
        """Checks, then the input as (L, N, H_in) and the initial states as (D·layers, N, H)
        tensors; and whether the input was unbatched."""
        name = "LSTM" if self.mode == "LSTM" else "GRU" if self.mode == "GRU" else "RNN"
        if input.ndim not in (2, 3):
            what = f"{input.ndim}D tensor" if name == "RNN" else f"{input.ndim}D"
            raise ValueError(f"{name}: Expected input to be 2D or 3D, got {what} instead")
        batched = input.ndim == 3
        _check_state_ranks(states, batched)
        if not batched:
            input = input.unsqueeze(0 if self.batch_first else 1)
            states = None if states is None else [s.unsqueeze(1) for s in states]
        if self.batch_first:
            input = input.transpose(0, 1)
        weight = self.weight_ih_l0
        if input.dtype != weight.dtype:
            raise _dtype_error(input, weight)
        if input.shape[-1] != self.input_size:
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected "
                               f"{self.input_size}, got {input.shape[-1]}")
        layers = self.num_layers * (2 if self.bidirectional else 1)
        sizes = [self.proj_size or self.hidden_size] + (
            [self.hidden_size] if self.mode == "LSTM" else [])
        if states is None:
            states = [minigrad.zeros(layers, input.shape[1], size, dtype=input.dtype)
                      for size in sizes]
        for k, (state, size) in enumerate(zip(states, sizes)):
            expected = (layers, input.shape[1], size)
            if tuple(state.shape) != expected:
                which = f"hidden[{k}]" if self.mode == "LSTM" else "hidden"
                raise RuntimeError(f"Expected {which} size {expected}, got {list(state.shape)}")
        if input.shape[0] == 0:
            raise RuntimeError("Expected sequence length to be larger than 0 in RNN")
        return input, states, batched

    def _run_direction(self, input, state, layer, direction):
        """The outputs of one layer in one direction, stacked in time order (L, N, H), and
        its last state; ``input`` is the layer's input (L, N, H_in)."""
        w_ih, w_hh, b_ih, b_hh, w_hr = self._weights(layer, direction)
        projected = F.linear(input, w_ih, b_ih).unbind(0)  # every step's input part at once
        order = range(len(projected) - 1, -1, -1) if direction else range(len(projected))
        outputs = [None] * len(projected)
        for t in order:
            if self.mode == "LSTM":
                state = _lstm_step(projected[t], state, w_hh, b_hh, w_hr)
                outputs[t] = state[0]
            elif self.mode == "GRU":
                state = outputs[t] = _gru_step(projected[t], state, w_hh, b_hh)
            else:
                nonlinearity = "tanh" if self.mode == "RNN_TANH" else "relu"
                state = outputs[t] = _rnn_step(projected[t], state, w_hh, b_hh, nonlinearity,
                                               hidden_first=True)
        return minigrad.stack(outputs), state

    def _run(self, input, states):  # noqa: A002 - PyTorch's name
        """Every layer and direction: (the last layer's outputs, the last states)."""
        directions = 2 if self.bidirectional else 1
        last = [[] for _ in states]
        for layer in range(self.num_layers):
            per_direction = []
            for direction in range(directions):
                k = layer * directions + direction
                start = tuple(s[k] for s in states)
                outputs, final = self._run_direction(
                    input, start if self.mode == "LSTM" else start[0], layer, direction)
                per_direction.append(outputs)
                for slot, value in zip(last, final if self.mode == "LSTM" else (final,)):
                    slot.append(value)
            input = minigrad.cat(per_direction, -1) if directions == 2 else per_direction[0]
            if self.dropout and self.training and layer < self.num_layers - 1:
                input = F.dropout(input, self.dropout)
        return input, [minigrad.stack(slot) for slot in last]

    def _finish(self, output, states, batched):
        if self.batch_first:
            output = output.transpose_(0, 1)  # (in place, as PyTorch: TransposeBackward1)
        if not batched:
            output = output.squeeze(0 if self.batch_first else 1)
            states = [s.squeeze(1) for s in states]
        return output, states


def _check_sizes(mode, hidden_size, num_layers, dropout, proj_size):
    """PyTorch's checks of a recurrent layer's sizes, in its order."""
    if (not isinstance(dropout, numbers.Number) or isinstance(dropout, bool)
            or not 0 <= dropout <= 1):
        raise ValueError("dropout should be a number in range [0, 1] representing the "
                         "probability of an element being zeroed")
    if dropout > 0 and num_layers == 1:
        warnings.warn("dropout option adds dropout after all but last recurrent layer, so "
                      "non-zero dropout expects num_layers greater than 1, but got "
                      f"dropout={dropout} and num_layers={num_layers}", stacklevel=4)
    if not isinstance(hidden_size, int):
        raise TypeError(f"hidden_size should be of type int, got: {type(hidden_size).__name__}")
    if hidden_size <= 0:
        raise ValueError("hidden_size must be greater than zero")
    if num_layers <= 0:
        raise ValueError("num_layers must be greater than zero")
    if proj_size < 0:
        raise ValueError("proj_size should be a positive integer or zero to disable projections")
    if proj_size >= hidden_size:
        raise ValueError("proj_size has to be smaller than hidden_size")
    if proj_size and mode != "LSTM":
        raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")


def _check_state_ranks(states, batched):
    if states is None:
        return
    rank = 3 if batched else 2
    kind = "batched 3-D" if batched else "unbatched 2-D"
    if len(states) == 1 and states[0].ndim != rank:
        raise RuntimeError(f"For {kind} input, hx should also be {rank}-D but got "
                           f"{states[0].ndim}-D tensor")
    if len(states) == 2 and any(s.ndim != rank for s in states):
        raise RuntimeError(f"For {kind} input, hx and cx should also be {rank}-D but got "
                           f"({states[0].ndim}-D, {states[1].ndim}-D) tensors")


class RNN(RNNBase):
    """An Elman RNN: h_t = act(x_t·W_ihᵀ + b_ih + h_{t-1}·W_hhᵀ + b_hh), act tanh or relu.

    ``forward(input, hx=None)`` takes input of shape (L, N, H_in) ((N, L, H_in) with
    ``batch_first``, (L, H_in) unbatched) and returns ``(output, h_n)``: every step's hidden
    state of the last layer (L, N, D·H) and every layer's last one (D·num_layers, N, H).

    Example:
        >>> rnn = nn.RNN(3, 5, num_layers=2)
        >>> output, h_n = rnn(minigrad.randn(7, 4, 3))
        >>> output.shape, h_n.shape
        (minigrad.Size([7, 4, 5]), minigrad.Size([2, 4, 5]))
    """

    def __init__(self, input_size, hidden_size, num_layers=1, nonlinearity="tanh", bias=True,
                 batch_first=False, dropout=0.0, bidirectional=False, proj_size=0, device=None,
                 dtype=None):
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or "
                             "'relu'.")
        self.nonlinearity = nonlinearity
        super().__init__("RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU", input_size,
                         hidden_size, num_layers, bias, batch_first, dropout, bidirectional,
                         proj_size, device, dtype)

    def forward(self, input, hx=None):  # noqa: A002 - PyTorch's argument name
        input, states, batched = self._prepare(input, None if hx is None else [hx])
        output, (h_n,) = self._finish(*self._run(input, states), batched)
        return output, h_n


class LSTM(RNNBase):
    """Long short-term memory: per step the gates i, f, g, o (from x_t and h_{t-1}), the cell
    c_t = f·c_{t-1} + i·g and h_t = o·tanh(c_t) (then ·W_hrᵀ with ``proj_size``).

    ``forward(input, hx=None)``, with ``hx = (h_0, c_0)``, returns ``(output, (h_n, c_n))``.

    Example:
        >>> lstm = nn.LSTM(3, 5, batch_first=True)
        >>> output, (h_n, c_n) = lstm(minigrad.randn(4, 7, 3))
        >>> output.shape, h_n.shape, c_n.shape
        (minigrad.Size([4, 7, 5]), minigrad.Size([1, 4, 5]), minigrad.Size([1, 4, 5]))
    """

    def __init__(self, input_size, hidden_size, num_layers=1, bias=True, batch_first=False,
                 dropout=0.0, bidirectional=False, proj_size=0, device=None, dtype=None):
        super().__init__("LSTM", input_size, hidden_size, num_layers, bias, batch_first,
                         dropout, bidirectional, proj_size, device, dtype)

    def forward(self, input, hx=None):  # noqa: A002 - PyTorch's argument name
        input, states, batched = self._prepare(input, None if hx is None else list(hx))
        output, (h_n, c_n) = self._finish(*self._run(input, states), batched)
        return output, (h_n, c_n)


class GRU(RNNBase):
    """Gated recurrent unit: r = σ(x_r + h_r), z = σ(x_z + h_z), n = tanh(x_n + r·h_n) and
    h_t = (1 - z)·n + z·h_{t-1}, where x_· and h_· are the input's and the hidden state's
    linear parts.

    ``forward(input, hx=None)`` returns ``(output, h_n)``.

    Example:
        >>> gru = nn.GRU(3, 5, bidirectional=True)
        >>> output, h_n = gru(minigrad.randn(7, 4, 3))
        >>> output.shape, h_n.shape
        (minigrad.Size([7, 4, 10]), minigrad.Size([2, 4, 5]))
    """

    def __init__(self, input_size, hidden_size, num_layers=1, bias=True, batch_first=False,
                 dropout=0.0, bidirectional=False, proj_size=0, device=None, dtype=None):
        super().__init__("GRU", input_size, hidden_size, num_layers, bias, batch_first,
                         dropout, bidirectional, proj_size, device, dtype)

    def forward(self, input, hx=None):  # noqa: A002 - PyTorch's argument name
        input, states, batched = self._prepare(input, None if hx is None else [hx])
        output, (h_n,) = self._finish(*self._run(input, states), batched)
        return output, h_n


# ---------------------------------------------------------------------- single steps
class RNNCellBase(Module):
    """The parameters of a one-step cell: ``weight_ih`` (gates·H, H_in), ``weight_hh``
    (gates·H, H), ``bias_ih`` and ``bias_hh`` (gates·H), all U(-1/√H, 1/√H)."""

    def __init__(self, input_size, hidden_size, bias, num_chunks, device=None, dtype=None):
        super().__init__()
        _device.check_device(device)
        self.input_size, self.hidden_size, self.bias = input_size, hidden_size, bias
        self.weight_ih = _empty((num_chunks * hidden_size, input_size), dtype)
        self.weight_hh = _empty((num_chunks * hidden_size, hidden_size), dtype)
        if bias:
            self.bias_ih = _empty((num_chunks * hidden_size,), dtype)
            self.bias_hh = _empty((num_chunks * hidden_size,), dtype)
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def reset_parameters(self):
        bound = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -bound, bound)

    def extra_repr(self):
        text = f"{self.input_size}, {self.hidden_size}"
        if self.bias is not True:
            text += f", bias={self.bias}"
        if getattr(self, "nonlinearity", "tanh") != "tanh":
            text += f", nonlinearity={self.nonlinearity}"
        return text

    def _prepare(self, input, states):  # noqa: A002 - PyTorch's name
        """Checks; the input and states as (N, ·) matrices (zeros when not given)."""
        if input.ndim not in (1, 2):
            raise ValueError(f"{type(self).__name__}: Expected input to be 1D or 2D, got "
                             f"{input.ndim}D instead")
        batched = input.ndim == 2
        if not batched:
            input = input.unsqueeze(0)
            states = None if states is None else [s.unsqueeze(0) for s in states]
        if states is None:
            count = 2 if isinstance(self, LSTMCell) else 1
            states = [minigrad.zeros(input.shape[0], self.hidden_size, dtype=input.dtype)
                      for _ in range(count)]
        if input.shape[1] != self.input_size:
            raise RuntimeError(f"input has inconsistent input_size: got {input.shape[1]} "
                               f"expected {self.input_size}")
        for k, state in enumerate(states):
            if state.shape[0] != input.shape[0]:
                raise RuntimeError(f"Input batch size {input.shape[0]} doesn't match hidden{k} "
                                   f"batch size {state.shape[0]}")
            if state.shape[-1] != self.hidden_size:
                raise RuntimeError(f"hidden{k} has inconsistent hidden_size: got "
                                   f"{state.shape[-1]}, expected {self.hidden_size}")
        return F.linear(input, self.weight_ih, self.bias_ih), states, batched


class RNNCell(RNNCellBase):
    """One step of an Elman RNN: h' = act(x·W_ihᵀ + b_ih + h·W_hhᵀ + b_hh).

    Example:
        >>> cell = nn.RNNCell(3, 5)
        >>> cell(minigrad.randn(4, 3)).shape
        minigrad.Size([4, 5])
    """

    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None,
                 dtype=None):
        super().__init__(input_size, hidden_size, bias, 1, device, dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):  # noqa: A002 - PyTorch's argument name
        if self.nonlinearity not in ("tanh", "relu"):
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        x_proj, (h,), batched = self._prepare(input, None if hx is None else [hx])
        h = _rnn_step(x_proj, h, self.weight_hh, self.bias_hh, self.nonlinearity)
        return h if batched else h.squeeze(0)


class LSTMCell(RNNCellBase):
    """One step of an LSTM: ``forward(input, (h, c))`` returns ``(h', c')``.

    Example:
        >>> cell = nn.LSTMCell(3, 5)
        >>> h, c = cell(minigrad.randn(4, 3))
        >>> h.shape, c.shape
        (minigrad.Size([4, 5]), minigrad.Size([4, 5]))
    """

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, 4, device, dtype)

    def forward(self, input, hx=None):  # noqa: A002 - PyTorch's argument name
        if hx is not None and not isinstance(hx, (tuple, list)):
            raise TypeError("lstm_cell(): argument 'hx' (position 2) must be tuple of Tensors, "
                            f"not {type(hx).__name__}")
        x_proj, states, batched = self._prepare(input, None if hx is None else list(hx))
        h, c = _lstm_step(x_proj, states, self.weight_hh, self.bias_hh)
        return (h, c) if batched else (h.squeeze(0), c.squeeze(0))


class GRUCell(RNNCellBase):
    """One step of a GRU: h' = (1 - z)·n + z·h.

    Example:
        >>> cell = nn.GRUCell(3, 5)
        >>> cell(minigrad.randn(3)).shape
        minigrad.Size([5])
    """

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, 3, device, dtype)

    def forward(self, input, hx=None):  # noqa: A002 - PyTorch's argument name
        x_proj, (h,), batched = self._prepare(input, None if hx is None else [hx])
        h = _gru_step(x_proj, h, self.weight_hh, self.bias_hh)
        return h if batched else h.squeeze(0)
