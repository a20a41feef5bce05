"""``minigrad.autograd``: reverse-mode automatic differentiation, as in ``torch.autograd``."""

from minigrad.autograd import anomaly_mode, observe
from minigrad.autograd.anomaly_mode import detect_anomaly, set_detect_anomaly
from minigrad.autograd.api import backward, grad
from minigrad.autograd.function import Function, FunctionCtx
from minigrad.autograd.gradcheck import gradcheck, gradgradcheck  # the functions, as in torch
from minigrad.autograd.variable import Variable
from minigrad.grad_mode import (
    _unsafe_preserve_version_counter,
    enable_grad,
    inference_mode,
    is_multithreading_enabled,
    no_grad,
    set_grad_enabled,
    set_multithreading_enabled,
)

__all__ = ["backward", "grad", "Function", "FunctionCtx", "detect_anomaly",
           "set_detect_anomaly", "anomaly_mode", "observe", "graph", "gradcheck", "gradgradcheck",
           "functional", "forward_ad", "no_grad", "enable_grad", "set_grad_enabled",
           "inference_mode", "Variable", "profiler", "set_multithreading_enabled",
           "is_multithreading_enabled", "_unsafe_preserve_version_counter"]


def __getattr__(name):
    # Submodules that import the rest of minigrad are loaded on first use.
    import importlib
    if name in ("graph", "functional", "forward_ad", "profiler"):
        return importlib.import_module(f"minigrad.autograd.{name}")
    if name == "torch":  # as ``torch.autograd.torch``: the package itself
        return importlib.import_module("minigrad")
    raise AttributeError(f"module 'minigrad.autograd' has no attribute '{name}'")
