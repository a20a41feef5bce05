"""``minigrad.nn.utils``: helpers around modules (``stateless.functional_call``, gradient clipping,
parameters as one vector)."""

from minigrad.nn.utils import clip_grad, convert_parameters, stateless
from minigrad.nn.utils.clip_grad import (
    clip_grad_norm,
    clip_grad_norm_,
    clip_grad_value_,
    clip_grads_with_norm_,
    get_total_norm,
)
from minigrad.nn.utils.convert_parameters import parameters_to_vector, vector_to_parameters

__all__ = ["stateless", "clip_grad", "convert_parameters", "clip_grad_norm", "clip_grad_norm_",
           "clip_grad_value_", "clip_grads_with_norm_", "get_total_norm", "parameters_to_vector",
           "vector_to_parameters"]
