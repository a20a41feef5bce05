"""``minigrad.nn``: modules, parameters, layers, losses, ``init`` and ``functional``.

Mirrors ``torch.nn`` for what tutorials use; node names in the graph are PyTorch's.
"""

from minigrad.nn import functional, init, parallel
from minigrad.nn.activation import (
    GELU,
    LeakyReLU,
    LogSoftmax,
    Mish,
    ReLU,
    Sigmoid,
    SiLU,
    Softmax,
    Softplus,
    Tanh,
)
from minigrad.nn.attention import MultiheadAttention
from minigrad.nn.batchnorm import BatchNorm1d
from minigrad.nn.container import ModuleDict, ModuleList, Sequential
from minigrad.nn.conv import (
    Conv1d,
    Conv2d,
    Conv3d,
    ConvTranspose1d,
    ConvTranspose2d,
    ConvTranspose3d,
)
from minigrad.nn.distance import CosineSimilarity
from minigrad.nn.dropout import Dropout
from minigrad.nn.embedding import Embedding
from minigrad.nn.linear import Flatten, Identity, Linear, Unflatten
from minigrad.nn.loss import BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, L1Loss, MSELoss, NLLLoss
from minigrad.nn.module import Module
from minigrad.nn.normalization import GroupNorm, LayerNorm
from minigrad.nn.parallel import DataParallel
from minigrad.nn.parameter import Parameter
from minigrad.nn.pooling import AdaptiveAvgPool2d, AvgPool1d, AvgPool2d, MaxPool1d, MaxPool2d
from minigrad.nn.rnn import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNCell

__all__ = ["Module", "Parameter", "Sequential", "ModuleList", "ModuleDict", "Linear",
           "Identity", "Flatten", "Unflatten", "ReLU", "LeakyReLU", "GELU", "SiLU", "Mish",
           "Softplus", "Tanh",
           "Sigmoid", "Softmax", "LogSoftmax", "Dropout", "BatchNorm1d", "LayerNorm", "GroupNorm",
           "CosineSimilarity", "Embedding", "L1Loss", "MSELoss", "CrossEntropyLoss", "NLLLoss",
           "BCELoss", "BCEWithLogitsLoss", "functional", "init", "Conv1d", "Conv2d", "Conv3d",
           "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d", "MaxPool1d", "MaxPool2d",
           "AvgPool1d", "AvgPool2d", "AdaptiveAvgPool2d", "RNN", "LSTM", "GRU", "RNNCell",
           "LSTMCell", "GRUCell", "MultiheadAttention", "DataParallel", "parallel"]
