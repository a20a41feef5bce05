"""Recurrent layers (minigrad/nn/rnn.py) against torch 2.13: parameter names, shapes and seeded
initial values; outputs, last states and the gradients of input, initial state and every
parameter for RNN (tanh, relu), LSTM (with a projection) and GRU, several layers, both
directions, batch_first, unbatched input, dropout between layers; the cells; reprs and
PyTorch's errors. gradcheck/gradgradcheck on float64 layers.

The graphs of RNN, GRU and the cells are compared node for node; PyTorch's LSTM layer is one
fused oneDNN node, so only its values are compared.
"""

import warnings

import pytest
from oracle import assert_matches
from parity_programs import check, run

import minigrad
from minigrad import nn
from minigrad.autograd import gradcheck, gradgradcheck


def close(prog, oracle):
    """``prog`` answers as torch does, to float32 precision (an absolute 1e-6 for the small
    gradients that cancellation makes)."""
    expected = oracle(lambda torch: run(prog, torch))
    assert_matches(run(prog), expected, rtol=2e-5, atol=1e-6)


LAYERS = {
    "rnn": ("RNN", {}, (5, 2, 3)),
    "rnn-relu-2-layers-bidirectional-batch-first": (
        "RNN", {"num_layers": 2, "nonlinearity": "relu", "bidirectional": True,
                "batch_first": True}, (2, 5, 3)),
    "rnn-unbatched-no-bias": ("RNN", {"bias": False}, (4, 3)),
    "lstm": ("LSTM", {}, (5, 2, 3)),
    "lstm-2-layers-bidirectional": ("LSTM", {"num_layers": 2, "bidirectional": True},
                                    (4, 2, 3)),
    "lstm-projection-unbatched": ("LSTM", {"num_layers": 2, "proj_size": 2}, (5, 3)),
    "lstm-batch-first": ("LSTM", {"batch_first": True}, (2, 4, 3)),
    "gru": ("GRU", {}, (5, 2, 3)),
    "gru-2-layers-bidirectional-no-bias": ("GRU", {"num_layers": 2, "bidirectional": True,
                                                   "bias": False}, (4, 2, 3)),
    "gru-batch-first-unbatched": ("GRU", {"batch_first": True}, (6, 3)),
}


def _initial_state(torch, layer, shape):
    """A random initial state (h_0, or (h_0, c_0)) of the right shape, requiring grad."""
    directions = 2 if layer.bidirectional else 1
    size = layer.proj_size or layer.hidden_size
    batch = () if len(shape) == 2 else (shape[0] if layer.batch_first else shape[1],)
    h = torch.randn(directions * layer.num_layers, *batch, size).requires_grad_()
    if isinstance(layer, torch.nn.LSTM):
        return h, torch.randn(directions * layer.num_layers, *batch,
                              layer.hidden_size).requires_grad_()
    return h


def _states(hidden):
    return list(hidden) if isinstance(hidden, tuple) else [hidden]


def _layer_program(torch, name, kwargs, shape, with_state):
    torch.manual_seed(0)
    layer = getattr(torch.nn, name)(3, 4, **kwargs)
    x = torch.randn(*shape).requires_grad_()
    hx = _initial_state(torch, layer, shape) if with_state else None
    output, hidden = layer(x) if hx is None else layer(x, hx)
    states = _states(hidden)
    loss = (output * output.sin()).sum() + sum((s * s.cos()).sum() for s in states)
    inputs = [x, *(_states(hx) if hx is not None else []), *layer.parameters()]
    grads = torch.autograd.grad(loss, inputs)
    return [repr(layer), [(n, p) for n, p in layer.named_parameters()], output.detach(),
            [s.detach() for s in states], list(grads)]


@pytest.mark.parametrize("with_state", [False, True], ids=["zero-state", "given-state"])
@pytest.mark.parametrize("case", LAYERS.values(), ids=LAYERS.keys())
def test_layer_matches_torch(oracle, case, with_state):
    name, kwargs, shape = case
    close(lambda torch: _layer_program(torch, name, kwargs, shape, with_state), oracle)


def graph(fn):
    """The graph below ``fn`` as a list of nodes numbered in depth-first order, each its class
    name and its children's numbers (None for a missing edge): comparable across libraries,
    and linear in the graph's size (a recurrent graph has exponentially many paths)."""
    numbers, nodes, stack = {}, [], [fn]
    while stack:
        node = stack.pop()
        if node is None or node in numbers:
            continue
        numbers[node] = len(nodes)
        nodes.append(node)
        stack.extend(reversed([f for f, _ in node.next_functions]))
    return [[type(n).__name__, [None if f is None else numbers[f] for f, _ in n.next_functions]]
            for n in nodes]


def _graphs(torch, name, kwargs, shape):
    torch.manual_seed(0)
    output, hidden = getattr(torch.nn, name)(3, 4, **kwargs)(torch.randn(*shape))
    return [graph(t.grad_fn) for t in [output, *_states(hidden)]]


@pytest.mark.parametrize("case", [c for c in LAYERS.values() if c[0] != "LSTM"],
                         ids=[k for k, c in LAYERS.items() if c[0] != "LSTM"])
def test_graph_is_torchs_node_for_node(oracle, case):
    check(lambda torch: _graphs(torch, *case), oracle)


def _dropout_program(torch, name):
    torch.manual_seed(0)
    layer = getattr(torch.nn, name)(3, 4, num_layers=3, dropout=0.5, bidirectional=True)
    x = torch.randn(5, 2, 3)
    torch.manual_seed(7)
    trained = layer(x)[0]
    layer.eval()
    return [trained, layer(x)[0]]


@pytest.mark.parametrize("name", ["RNN", "LSTM", "GRU"])
def test_dropout_between_layers_matches_torch(oracle, name):
    close(lambda torch: _dropout_program(torch, name), oracle)


CELLS = {
    "rnn-cell": ("RNNCell", {}, (2, 3)),
    "rnn-cell-relu-no-bias": ("RNNCell", {"bias": False, "nonlinearity": "relu"}, (2, 3)),
    "rnn-cell-unbatched": ("RNNCell", {}, (3,)),
    "lstm-cell": ("LSTMCell", {}, (2, 3)),
    "lstm-cell-unbatched": ("LSTMCell", {}, (3,)),
    "gru-cell": ("GRUCell", {}, (2, 3)),
    "gru-cell-no-bias-unbatched": ("GRUCell", {"bias": False}, (3,)),
}


def _cell_program(torch, name, kwargs, shape, with_state):
    torch.manual_seed(0)
    cell = getattr(torch.nn, name)(3, 4, **kwargs)
    x = torch.randn(*shape).requires_grad_()
    state_shape = shape[:-1] + (4,)
    hx = None
    if with_state:
        hx = torch.randn(*state_shape).requires_grad_()
        if name == "LSTMCell":
            hx = (hx, torch.randn(*state_shape).requires_grad_())
    states = _states(cell(x) if hx is None else cell(x, hx))
    for _ in range(2):  # three steps, the state fed back
        states = _states(cell(x, tuple(states) if name == "LSTMCell" else states[0]))
    loss = sum((s * s.sin()).sum() for s in states)
    inputs = [x, *(_states(hx) if hx is not None else []), *cell.parameters()]
    return [repr(cell), [(n, p) for n, p in cell.named_parameters()], states,
            list(torch.autograd.grad(loss, inputs))]


@pytest.mark.parametrize("with_state", [False, True], ids=["zero-state", "given-state"])
@pytest.mark.parametrize("case", CELLS.values(), ids=CELLS.keys())
def test_cell_matches_torch(oracle, case, with_state):
    name, kwargs, shape = case
    close(lambda torch: _cell_program(torch, name, kwargs, shape, with_state), oracle)


ERRORS = [
    lambda T: T.nn.RNN(4, 5)(T.ones(2, 3, 4, 1)),
    lambda T: T.nn.RNN(4, 5)(T.ones(2, 3, 5)),
    lambda T: T.nn.RNN(4, 5)(T.ones(2, 3, 4), T.ones(1, 2, 5)),
    lambda T: T.nn.RNN(4, 5)(T.ones(2, 3, 4), T.ones(2, 5)),
    lambda T: T.nn.RNN(4, 5)(T.ones(3, 4), T.ones(1, 2, 5)),
    lambda T: T.nn.RNN(4, 5)(T.ones(2, 3, 4, dtype=T.float64)),
    lambda T: T.nn.RNN(4, 5)(T.ones(0, 3, 4)),
    lambda T: T.nn.LSTM(4, 5)(T.ones(2, 3, 4), (T.ones(1, 3, 5), T.ones(1, 2, 5))),
    lambda T: T.nn.LSTM(4, 5)(T.ones(3, 4), (T.ones(1, 1, 5), T.ones(1, 5))),
    lambda T: T.nn.LSTM(4, 5)(T.ones(2, 3, 4), (T.ones(1, 5), T.ones(1, 3, 5))),
    lambda T: T.nn.GRU(4, 5)(T.ones(2, 3, 4, 1)),
    lambda T: T.nn.RNN(4, 5, nonlinearity="foo"),
    lambda T: T.nn.RNN(4, 5, dropout=1.5),
    lambda T: T.nn.RNN(4, 5, dropout=True),
    lambda T: T.nn.RNN(4, 0),
    lambda T: T.nn.RNN(4, 5, 0),
    lambda T: T.nn.RNN(4, 5.0),
    lambda T: T.nn.LSTM(4, 5, proj_size=5),
    lambda T: T.nn.GRU(4, 5, proj_size=2),
    lambda T: T.nn.RNNCell(4, 5)(T.ones(2, 3, 4)),
    lambda T: T.nn.RNNCell(4, 5)(T.ones(2, 5)),
    lambda T: T.nn.RNNCell(4, 5)(T.ones(2, 4), T.ones(3, 5)),
    lambda T: T.nn.RNNCell(4, 5)(T.ones(2, 4), T.ones(2, 6)),
    lambda T: T.nn.LSTMCell(4, 5)(T.ones(2, 4), T.ones(2, 5)),
    lambda T: T.nn.LSTMCell(4, 5)(T.ones(2, 4), (T.ones(2, 5), T.ones(3, 5))),
    lambda T: T.nn.LSTMCell(4, 5)(T.ones(3, 2, 4)),
    lambda T: T.nn.GRUCell(4, 5)(T.ones(3, 2, 4)),
]


def _errors(torch):
    out = []
    for attempt in ERRORS:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                attempt(torch)
            out.append(None)
        except Exception as error:  # noqa: BLE001 - compared with torch's
            out.append([type(error).__name__, str(error).split("\n")[0]])
    return out


def test_errors_match_torch(oracle):
    check(_errors, oracle)


def test_dropout_with_one_layer_warns_like_torch():
    with pytest.warns(UserWarning, match="non-zero dropout expects num_layers greater than 1"):
        nn.GRU(3, 4, dropout=0.2)


def test_all_weights_lists_each_layer_and_direction():
    lstm = nn.LSTM(3, 4, num_layers=2, bidirectional=True)
    assert [[tuple(w.shape) for w in ws] for ws in lstm.all_weights] == [
        [(16, 3), (16, 4), (16,), (16,)], [(16, 3), (16, 4), (16,), (16,)],
        [(16, 8), (16, 4), (16,), (16,)], [(16, 8), (16, 4), (16,), (16,)]]
    assert lstm.all_weights[3][0] is lstm.weight_ih_l1_reverse


@pytest.mark.parametrize("name", ["RNN", "LSTM", "GRU"])
def test_layers_pass_gradcheck_and_gradgradcheck(name):
    minigrad.manual_seed(0)
    layer = getattr(nn, name)(2, 2, num_layers=2, bidirectional=True, dtype=minigrad.float64)
    x = minigrad.randn(3, 1, 2, dtype=minigrad.float64, requires_grad=True)
    h = minigrad.randn(4, 1, 2, dtype=minigrad.float64, requires_grad=True)

    def fn(x, h):
        output, hidden = layer(x, (h, h * 0.5) if name == "LSTM" else h)
        return output, *_states(hidden)

    assert gradcheck(fn, (x, h))
    assert gradgradcheck(fn, (x, h))


@pytest.mark.parametrize("name", ["RNNCell", "LSTMCell", "GRUCell"])
def test_cells_pass_gradcheck_and_gradgradcheck(name):
    minigrad.manual_seed(0)
    cell = getattr(nn, name)(3, 2, dtype=minigrad.float64)
    x = minigrad.randn(2, 3, dtype=minigrad.float64, requires_grad=True)
    h = minigrad.randn(2, 2, dtype=minigrad.float64, requires_grad=True)

    def fn(x, h):
        return cell(x, (h, h.sin()) if name == "LSTMCell" else h)

    assert gradcheck(fn, (x, h))
    assert gradgradcheck(fn, (x, h))
