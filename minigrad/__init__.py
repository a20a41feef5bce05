"""minigrad: a small autograd engine on NumPy with PyTorch's names and semantics.

``import minigrad as torch`` runs the classic autograd examples. Every backward step is
reported to observers, which ``minigrad.graph`` turns into snapshots and recordings.
"""

import math as _math
import sys as _sys

from minigrad import accelerator, autograd, backends, cuda, ops, random
from minigrad._device import device, get_default_device, set_default_device
from minigrad._dtype import (
    bool,
    double,
    dtype,
    float,
    float16,
    float32,
    float64,
    get_default_dtype,
    half,
    int,
    int8,
    int16,
    int32,
    int64,
    layout,
    long,
    set_default_dtype,
    short,
    strided,
    uint8,
    uint16,
    uint32,
    uint64,
)
from minigrad._formatting import get_printoptions, set_printoptions
from minigrad._legacy import (
    BoolTensor,
    ByteTensor,
    CharTensor,
    DoubleTensor,
    FloatTensor,
    HalfTensor,
    IntTensor,
    LongTensor,
    ShortTensor,
    set_default_tensor_type,
)
from minigrad.autograd.anomaly_mode import (
    is_anomaly_check_nan_enabled,
    is_anomaly_enabled,
    set_anomaly_enabled,
)
from minigrad.autograd.inference import is_inference
from minigrad.autograd.warn_always import is_warn_always_enabled, set_warn_always
from minigrad.factories import (
    arange,
    as_tensor,
    empty,
    empty_like,
    empty_strided,
    eye,
    from_numpy,
    full,
    full_like,
    linspace,
    normal,
    ones,
    ones_like,
    rand,
    rand_like,
    randint,
    randint_like,
    randn,
    randn_like,
    randperm,
    tensor,
    zeros,
    zeros_like,
)
from minigrad.grad_mode import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)
from minigrad.ops import *  # noqa: F403 - the function forms: minigrad.exp, minigrad.cat, ...
from minigrad.random import (
    Generator,
    default_generator,
    get_rng_state,
    initial_seed,
    manual_seed,
    seed,
    set_rng_state,
)
from minigrad.tensor import Size, Tensor

__version__ = "0.1.0"

pi, e, inf, nan = _math.pi, _math.e, _math.inf, _math.nan
newaxis = None


import minigrad.linalg as linalg  # noqa: E402 - not ops.linalg, which ops' * brings in too
from minigrad.autograd import graph  # noqa: E402 - minigrad.graph is the same module

_sys.modules["minigrad.graph"] = graph


def is_tensor(obj):
    return isinstance(obj, Tensor)


def __getattr__(name):
    if name in ("save", "load"):
        from minigrad import serialization
        return getattr(serialization, name)
    if name == "vmap":
        from minigrad.func import vmap
        return vmap
    import importlib
    if name in ("nn", "optim", "utils", "func", "profiler", "_C"):
        module = importlib.import_module(f"minigrad.{name}")
        globals()[name] = module
        return module
    raise AttributeError(f"module 'minigrad' has no attribute '{name}'")


def _add_out_arguments():
    """The function forms take ``out=`` (minigrad.ops.out)."""
    from minigrad.ops.out import OUT_FUNCTIONS, with_out
    for name in OUT_FUNCTIONS:
        globals()[name] = with_out(globals()[name], name)


_add_out_arguments()


def _add_saved_values():
    """``grad_fn._saved_<name>`` for the non-tensor values the built-in ops keep (each op's
    module was read when the op was made; now whole, read again for helpers made after)."""
    import sys

    from minigrad.autograd.function import add_saved_values
    for name, module in list(sys.modules.items()):
        if name.startswith(("minigrad.ops", "minigrad.nn")) and module:
            add_saved_values([vars(module)], name)


_add_saved_values()
