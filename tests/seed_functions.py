"""A custom Function from the seeds, shared by the tests that run it under minigrad and torch."""


def clamp_at_zero(lib):
    """``ClampAtZero``: a ReLU written as an ``autograd.Function`` of ``lib``."""

    class ClampAtZero(lib.autograd.Function):
        @staticmethod
        def forward(ctx, values):
            ctx.save_for_backward(values)
            return values.clamp(min=0)

        @staticmethod
        def backward(ctx, grad_output):
            (values,) = ctx.saved_tensors
            grad = grad_output.clone()
            grad[values < 0] = 0
            return grad

    return ClampAtZero
