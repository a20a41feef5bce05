"""``minigrad.nn``: modules, parameters, layers, losses, ``init`` and ``functional``.

Mirrors ``torch.nn`` for what tutorials use; node names in the graph are PyTorch's.
"""

from minigrad.nn import functional, init, parallel, utils
from minigrad.nn.activation import (
    CELU,
    ELU,
    GELU,
    GLU,
    SELU,
    Hardsigmoid,
    Hardswish,
    Hardtanh,
    LeakyReLU,
    LogSigmoid,
    LogSoftmax,
    Mish,
    PReLU,
    ReLU,
    ReLU6,
    Sigmoid,
    SiLU,
    Softmax,
    Softmin,
    Softplus,
    Softsign,
    Tanh,
    Tanhshrink,
    Threshold,
)
from minigrad.nn.attention import MultiheadAttention
from minigrad.nn.batchnorm import BatchNorm1d, BatchNorm2d, BatchNorm3d
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
from minigrad.nn.dropout import Dropout, Dropout1d, Dropout2d, Dropout3d
from minigrad.nn.embedding import Embedding
from minigrad.nn.linear import Flatten, Identity, Linear, Unflatten
from minigrad.nn.loss import (
    BCELoss,
    BCEWithLogitsLoss,
    CrossEntropyLoss,
    HuberLoss,
    KLDivLoss,
    L1Loss,
    MarginRankingLoss,
    MSELoss,
    NLLLoss,
    SmoothL1Loss,
)
from minigrad.nn.module import Module
from minigrad.nn.normalization import GroupNorm, LayerNorm
from minigrad.nn.parallel import DataParallel
from minigrad.nn.parameter import Parameter
from minigrad.nn.pooling import AdaptiveAvgPool2d, AvgPool1d, AvgPool2d, MaxPool1d, MaxPool2d
from minigrad.nn.rnn import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNCell

__all__ = ["Module", "Parameter", "Sequential", "ModuleList", "ModuleDict", "Linear",
           "Identity", "Flatten", "Unflatten", "ReLU", "LeakyReLU", "GELU", "SiLU", "Mish",
           "Softplus", "Tanh",
           "Sigmoid", "Softmax", "LogSoftmax", "ELU", "Hardtanh", "ReLU6", "SELU", "CELU",
           "Threshold", "Hardsigmoid", "Hardswish", "LogSigmoid", "PReLU", "Softsign",
           "Tanhshrink", "Softmin", "GLU", "Dropout", "BatchNorm1d", "LayerNorm", "GroupNorm",
           "Dropout1d", "Dropout2d", "Dropout3d", "BatchNorm2d", "BatchNorm3d",
           "CosineSimilarity", "Embedding", "L1Loss", "MSELoss", "CrossEntropyLoss", "NLLLoss",
           "BCELoss", "BCEWithLogitsLoss", "SmoothL1Loss", "HuberLoss", "KLDivLoss",
           "MarginRankingLoss", "functional", "init", "Conv1d", "Conv2d", "Conv3d",
           "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d", "MaxPool1d", "MaxPool2d",
           "AvgPool1d", "AvgPool2d", "AdaptiveAvgPool2d", "RNN", "LSTM", "GRU", "RNNCell",
           "LSTMCell", "GRUCell", "MultiheadAttention", "DataParallel", "parallel"]
