"""Doctests (``python -m pytest --doctest-modules minigrad viz``): the names every example may
use without importing them, and a clean global state around each example.

Examples in docstrings read as a student types them (``minigrad.tensor(...)``, ``torch.ones``,
``nn.Linear``, ``F.relu``, ``optim.SGD``, ``np.zeros``); this file provides those names. Each
example starts with seed 0, float32, default print options, grad mode on and anomaly mode off,
and leaves them so.
"""

import numpy as np
import pytest


@pytest.fixture(autouse=True)
def _doctest_names(request):
    """Fill the doctest namespace and restore global state after each doctest."""
    if type(request.node).__name__ != "DoctestItem":
        yield
        return
    import minigrad
    from minigrad import nn
    from minigrad.autograd import anomaly_mode
    from minigrad.grad_mode import state

    namespace = request.getfixturevalue("doctest_namespace")
    namespace.update(minigrad=minigrad, torch=minigrad, nn=nn, F=nn.functional,
                     optim=minigrad.optim, np=np)
    options = minigrad.get_printoptions()
    dtype = minigrad.get_default_dtype()
    minigrad.manual_seed(0)
    yield
    minigrad.set_printoptions(**{k: options[k] for k in
                                 ("precision", "threshold", "edgeitems", "linewidth")},
                              sci_mode=options.get("sci_mode"))
    minigrad.set_default_dtype(dtype)
    state.grad_enabled, state.inference = True, False
    anomaly_mode.enabled = False


def pytest_collection_modifyitems(items):
    """The anomaly-mode examples warn by design (as PyTorch does, with the forward traceback):
    keep that out of the warnings summary, where a newcomer would read it as a failure."""
    for item in items:
        if type(item).__name__ == "DoctestItem" and ".anomaly_mode." in item.name:
            item.add_marker(pytest.mark.filterwarnings("ignore::UserWarning"))
