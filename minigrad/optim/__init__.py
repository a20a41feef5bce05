"""``minigrad.optim``: optimizers that update parameters from their ``.grad``.

Updates follow PyTorch's formulas step for step, so a model trained with minigrad and one
trained with PyTorch from the same weights and data stay equal (to float rounding).
"""

from minigrad.optim import lr_scheduler
from minigrad.optim.adagrad import Adagrad
from minigrad.optim.adam import Adam, AdamW
from minigrad.optim.optimizer import Optimizer
from minigrad.optim.rmsprop import RMSprop
from minigrad.optim.sgd import SGD

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "lr_scheduler"]
