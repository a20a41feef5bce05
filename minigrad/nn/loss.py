"""Loss modules: ``L1Loss``, ``MSELoss``, ``CrossEntropyLoss``, ``NLLLoss``, ``BCELoss``,
``BCEWithLogitsLoss``, ``SmoothL1Loss``, ``HuberLoss``, ``KLDivLoss``, ``MarginRankingLoss``;
each calls its ``nn.functional`` twin with the stored options."""

from minigrad.nn import functional as F
from minigrad.nn.module import Module

__all__ = ["L1Loss", "MSELoss", "CrossEntropyLoss", "NLLLoss", "BCELoss", "BCEWithLogitsLoss",
           "SmoothL1Loss", "HuberLoss", "KLDivLoss", "MarginRankingLoss"]


class _Loss(Module):
    def __init__(self, size_average=None, reduce=None, reduction="mean"):
        super().__init__()
        self.reduction = F._legacy_reduction(size_average, reduce, reduction)


class _WeightedLoss(_Loss):
    def __init__(self, weight=None, size_average=None, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)


class L1Loss(_Loss):
    """Mean (or sum, or none) of |input - target|.

    Example:
        >>> loss = nn.L1Loss()(minigrad.tensor([1.0, 3.0], requires_grad=True),
        ...                    minigrad.tensor([0.0, 0.0]))
        >>> loss
        tensor(2., grad_fn=<MeanBackward0>)
    """

    def forward(self, input, target):  # noqa: A002 - PyTorch's argument name
        return F.l1_loss(input, target, reduction=self.reduction)


class MSELoss(_Loss):
    """Mean (or sum, or none) of (input - target)².

    Example:
        >>> nn.MSELoss()(minigrad.tensor([1.0, 3.0]), minigrad.tensor([0.0, 0.0]))
        tensor(5.)
    """

    def forward(self, input, target):  # noqa: A002
        return F.mse_loss(input, target, reduction=self.reduction)


class NLLLoss(_WeightedLoss):
    """Negative log-likelihood of class indices under log-probabilities.

    Example:
        >>> nn.NLLLoss()(minigrad.tensor([[-1.0, -2.0]]), minigrad.tensor([1]))
        tensor(2.)
    """

    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None,
                 reduction="mean"):
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index

    def forward(self, input, target):  # noqa: A002
        return F.nll_loss(input, target, self.weight, ignore_index=self.ignore_index,
                          reduction=self.reduction)


class CrossEntropyLoss(_WeightedLoss):
    """Softmax cross-entropy of logits (N, C) and class indices (N,):
    ``NLLLoss(LogSoftmax(dim=1)(input), target)``.

    Example:
        >>> logits = minigrad.tensor([[2.0, 0.0, -1.0]], requires_grad=True)
        >>> nn.CrossEntropyLoss()(logits, minigrad.tensor([0]))
        tensor(0.1698, grad_fn=<NllLossBackward0>)
    """

    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None,
                 reduction="mean", label_smoothing=0.0):
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index, self.label_smoothing = ignore_index, label_smoothing

    def forward(self, input, target):  # noqa: A002
        return F.cross_entropy(input, target, self.weight, ignore_index=self.ignore_index,
                               reduction=self.reduction, label_smoothing=self.label_smoothing)


class BCELoss(_WeightedLoss):
    """Binary cross-entropy of probabilities in [0, 1] (apply ``Sigmoid`` first, or better,
    use ``BCEWithLogitsLoss``).

    Example:
        >>> nn.BCELoss()(minigrad.tensor([0.5]), minigrad.tensor([1.0]))
        tensor(0.6931)
    """

    def forward(self, input, target):  # noqa: A002
        return F.binary_cross_entropy(input, target, self.weight, reduction=self.reduction)


class BCEWithLogitsLoss(_WeightedLoss):
    """Binary cross-entropy of logits: sigmoid and BCE in one stable node.

    Example:
        >>> nn.BCEWithLogitsLoss()(minigrad.tensor([0.0]), minigrad.tensor([1.0]))
        tensor(0.6931)
    """

    def __init__(self, weight=None, size_average=None, reduce=None, reduction="mean",
                 pos_weight=None):
        super().__init__(weight, size_average, reduce, reduction)
        self.register_buffer("pos_weight", pos_weight)

    def forward(self, input, target):  # noqa: A002
        return F.binary_cross_entropy_with_logits(input, target, self.weight,
                                                  pos_weight=self.pos_weight,
                                                  reduction=self.reduction)




class SmoothL1Loss(_Loss):
    """Squared error below ``beta``, absolute error above it (the two joined smoothly).

    Example:
        >>> nn.SmoothL1Loss()(minigrad.tensor([0.5, 3.0]), minigrad.tensor([0.0, 0.0]))
        tensor(1.3125)
    """

    def __init__(self, size_average=None, reduce=None, reduction="mean", beta=1.0):
        super().__init__(size_average, reduce, reduction)
        self.beta = beta

    def forward(self, input, target):  # noqa: A002
        return F.smooth_l1_loss(input, target, reduction=self.reduction, beta=self.beta)


class HuberLoss(_Loss):
    """Squared error below ``delta``, ``delta`` times the absolute error above it: the loss of
    DQN's temporal-difference errors.

    Example:
        >>> nn.HuberLoss()(minigrad.tensor([0.5, 3.0]), minigrad.tensor([0.0, 0.0]))
        tensor(1.3125)
    """

    def __init__(self, reduction="mean", delta=1.0):
        super().__init__(reduction=reduction)
        self.delta = delta

    def forward(self, input, target):  # noqa: A002
        return F.huber_loss(input, target, reduction=self.reduction, delta=self.delta)


class KLDivLoss(_Loss):
    """KL divergence of log-probabilities ``input`` from ``target`` (use
    ``reduction="batchmean"`` for the true divergence per sample).

    Example:
        >>> nn.KLDivLoss(reduction="batchmean")(minigrad.tensor([[-1.0, -0.5]]),
        ...                                     minigrad.tensor([[0.5, 0.5]]))
        tensor(0.0569)
    """

    def __init__(self, size_average=None, reduce=None, reduction="mean", log_target=False):
        super().__init__(size_average, reduce, reduction)
        self.log_target = log_target

    def forward(self, input, target):  # noqa: A002
        return F.kl_div(input, target, reduction=self.reduction, log_target=self.log_target)


class MarginRankingLoss(_Loss):
    """max(0, -y·(x₁ - x₂) + margin): y = 1 asks x₁ to rank higher than x₂, y = -1 lower.

    Example:
        >>> nn.MarginRankingLoss(margin=0.5)(minigrad.tensor([1.0, 0.0]),
        ...                                  minigrad.tensor([0.0, 1.0]),
        ...                                  minigrad.tensor([1.0, 1.0]))
        tensor(0.7500)
    """

    def __init__(self, margin=0.0, size_average=None, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input1, input2, target):
        return F.margin_ranking_loss(input1, input2, target, margin=self.margin,
                                     reduction=self.reduction)
