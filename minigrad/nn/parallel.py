"""``nn.DataParallel``: on a machine without GPUs (minigrad's only kind), a pass-through.

PyTorch's ``DataParallel`` splits each batch over several GPUs; with none it just calls the
wrapped module, and so does minigrad's. The wrapper is still a module of its own: the
wrapped one is ``.module`` and the keys of its ``state_dict`` start with ``module.``, as in
PyTorch (checkpoints saved from a ``DataParallel`` model have these keys).
"""

from minigrad.nn.module import Module

__all__ = ["DataParallel"]


class DataParallel(Module):
    """Calls ``module`` unchanged (there are no GPUs to spread the batch over).

    Example:
        >>> model = nn.DataParallel(nn.Linear(2, 1))
        >>> list(model.state_dict())
        ['module.weight', 'module.bias']
        >>> model(minigrad.ones(3, 2)).shape
        minigrad.Size([3, 1])
    """

    def __init__(self, module, device_ids=None, output_device=None, dim=0):
        super().__init__()
        self.module = module
        self.device_ids = []  # as in PyTorch without CUDA: no devices to use

    def forward(self, *inputs, **kwargs):
        return self.module(*inputs, **kwargs)
