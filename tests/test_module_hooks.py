"""nn.Module hooks as torch 2.13 runs them (minigrad/nn/_hooks.py): forward (pre-)hooks with
kwargs, prepend and always_call, full backward (pre-)hooks with BackwardHookFunctionBackward
nodes, global module hooks (compared through the oracle)."""

import pytest
from parity_programs import check, programs


def _gm(torch):
    return torch.nn.modules.module if hasattr(torch.nn, "modules") else torch.nn.module


def _lin(torch):
    torch.manual_seed(0)
    m = torch.nn.Linear(2, 2)
    with torch.no_grad():
        m.weight.copy_(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
        m.bias.copy_(torch.tensor([0.5, -0.5]))
    return m


def case_full_backward_hook(torch):
    m = _lin(torch)
    log = []
    m.register_full_backward_hook(lambda mod, gi, go: log.append((gi, go)))
    x = torch.tensor([[1.0, 2.0]], requires_grad=True)
    y = m(x)
    r = [type(y.grad_fn).__name__, type(y.grad_fn.next_functions[0][0]).__name__]
    y.sum().backward()
    return r, log, x.grad


def case_full_backward_hook_replace(torch):
    m = _lin(torch)
    m.register_full_backward_hook(lambda mod, gi, go: (gi[0] * 10,))
    x = torch.tensor([[1.0, 2.0]], requires_grad=True)
    m(x).sum().backward()
    return x.grad, m.weight.grad


def case_full_backward_pre_hook(torch):
    m = _lin(torch)
    log = []

    def pre(mod, go):
        log.append(go)
        return (go[0] * 2,)

    m.register_full_backward_pre_hook(pre)
    x = torch.tensor([[1.0, 2.0]], requires_grad=True)
    m(x).sum().backward()
    return log, x.grad, m.weight.grad


def case_backward_hook_no_input_grad(torch):
    m = _lin(torch)
    log = []
    m.register_full_backward_hook(lambda mod, gi, go: log.append((gi, go)))
    x = torch.tensor([[1.0, 2.0]])
    m(x).sum().backward()
    return log, m.bias.grad


def case_backward_hook_no_input_grad_bad(torch):
    m = _lin(torch)
    m.register_full_backward_hook(lambda mod, gi, go: (go[0],))
    m(torch.tensor([[1.0, 2.0]])).sum().backward()


def case_backward_hook_wrong_count(torch):
    m = _lin(torch)
    m.register_full_backward_hook(lambda mod, gi, go: (gi[0], gi[0]))
    m(torch.tensor([[1.0, 2.0]], requires_grad=True)).sum().backward()


def case_backward_pre_hook_wrong_count(torch):
    m = _lin(torch)
    m.register_full_backward_pre_hook(lambda mod, go: (go[0], go[0]))
    m(torch.tensor([[1.0, 2.0]], requires_grad=True)).sum().backward()


def case_backward_hooks_order_prepend(torch):
    m = _lin(torch)
    log = []
    m.register_full_backward_hook(lambda mod, gi, go: log.append("a"))
    m.register_full_backward_hook(lambda mod, gi, go: log.append("b"), prepend=True)
    m.register_full_backward_pre_hook(lambda mod, go: log.append("pre"))
    m(torch.tensor([[1.0, 2.0]], requires_grad=True)).sum().backward()
    return log


def case_output_inplace(torch):
    m = _lin(torch)
    m.register_full_backward_hook(lambda mod, gi, go: None)
    y = m(torch.tensor([[1.0, 2.0]], requires_grad=True))
    y.mul_(2)


def case_mixed_hooks(torch):
    m = _lin(torch)
    m.register_full_backward_hook(lambda mod, gi, go: None)
    m.register_backward_hook(lambda mod, gi, go: None)


def case_forward_pre_hook_kwargs(torch):
    class M(torch.nn.Module):
        def forward(self, x, scale=1.0):
            return x * scale

    m = M()
    log = []

    def pre(mod, args, kwargs):
        log.append(sorted(kwargs))
        return (args[0] + 1,), {"scale": 10.0}

    m.register_forward_pre_hook(pre, with_kwargs=True)
    return m(torch.tensor([1.0]), scale=2.0), log


def case_forward_pre_hook_bad_return(torch):
    class M(torch.nn.Module):
        def forward(self, x):
            return x

    m = M()
    m.register_forward_pre_hook(lambda mod, a, k: 5, with_kwargs=True)
    m(torch.tensor([1.0]))


def case_forward_pre_hook_single(torch):
    m = _lin(torch)
    m.register_forward_pre_hook(lambda mod, a: a[0] * 0)
    return m(torch.tensor([[1.0, 2.0]]))


def case_forward_hook_kwargs(torch):
    class M(torch.nn.Module):
        def forward(self, x, scale=1.0):
            return x * scale

    m = M()
    log = []
    m.register_forward_hook(lambda mod, a, k, out: (log.append(k), out + 1)[1], with_kwargs=True)
    return m(torch.tensor([1.0]), scale=3.0), log


def case_forward_hook_prepend(torch):
    m = _lin(torch)
    log = []
    m.register_forward_hook(lambda *a: log.append(1))
    m.register_forward_hook(lambda *a: log.append(2), prepend=True)
    m.register_forward_pre_hook(lambda *a: log.append(3))
    m.register_forward_pre_hook(lambda *a: log.append(4), prepend=True)
    m(torch.ones(1, 2))
    return log


def case_forward_hook_always_call(torch):
    class M(torch.nn.Module):
        def forward(self, x):
            raise ValueError("boom")

    m = M()
    log = []
    m.register_forward_hook(lambda mod, a, out: log.append(("always", out)), always_call=True)
    m.register_forward_hook(lambda mod, a, out: log.append("normal"))
    try:
        m(torch.ones(1))
    except ValueError as e:
        log.append(str(e))
    return log


def case_forward_hook_remove(torch):
    m = _lin(torch)
    log = []
    h = m.register_forward_hook(lambda *a: log.append(1), with_kwargs=False, always_call=True)
    m(torch.ones(1, 2))
    h.remove()
    m(torch.ones(1, 2))
    return log


def case_global_forward_hooks(torch):
    g = _gm(torch)
    m = _lin(torch)
    log = []
    h1 = g.register_module_forward_pre_hook(lambda mod, a: log.append("gpre"))
    h2 = g.register_module_forward_hook(lambda mod, a, out: log.append("gpost"))
    m.register_forward_hook(lambda mod, a, out: log.append("post"))
    m.register_forward_pre_hook(lambda mod, a: log.append("pre"))
    try:
        m(torch.ones(1, 2))
    finally:
        h1.remove()
        h2.remove()
    m(torch.ones(1, 2))
    return log


def case_global_backward_hooks(torch):
    g = _gm(torch)
    m = _lin(torch)
    log = []
    h1 = g.register_module_full_backward_hook(lambda mod, gi, go: log.append("gb"))
    h2 = g.register_module_full_backward_pre_hook(lambda mod, go: log.append("gpre"))
    m.register_full_backward_hook(lambda mod, gi, go: log.append("b"))
    m.register_full_backward_pre_hook(lambda mod, go: log.append("pre"))
    try:
        m(torch.ones(1, 2, requires_grad=True)).sum().backward()
    finally:
        h1.remove()
        h2.remove()
    return log


def case_backward_hook_sequential(torch):
    torch.manual_seed(0)
    a = _lin(torch)
    b = _lin(torch)
    seq = torch.nn.Sequential(a, torch.nn.ReLU(), b)
    log = []
    for name, mod in [("a", a), ("b", b), ("seq", seq)]:
        mod.register_full_backward_hook(lambda m, gi, go, name=name: log.append((name, gi, go)))
    x = torch.tensor([[1.0, -2.0]], requires_grad=True)
    seq(x).sum().backward()
    return log, x.grad


def case_backward_hook_tuple_output(torch):
    class M(torch.nn.Module):
        def forward(self, x, k):
            return x * 2, x * 3, k

    m = M()
    log = []
    m.register_full_backward_hook(lambda mod, gi, go: log.append((gi, go)))
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    a, b, k = m(x, 5)
    (a.sum() + b.sum() * 2).backward()
    return log, k, x.grad


def case_backward_hook_graph_nodes(torch):
    m = _lin(torch)
    m.register_full_backward_pre_hook(lambda mod, go: None)
    x = torch.tensor([[1.0, 2.0]], requires_grad=True)
    y = m(x)
    n = y.grad_fn
    names = []
    while n is not None:
        names.append(n.name())
        nxt = [
            f
            for f, _ in n.next_functions
            if f is not None
            and f.name() != "torch::autograd::AccumulateGrad"
            and "AccumulateGrad" not in f.name()
        ]
        n = nxt[-1] if nxt else None
    return names


def case_legacy_backward_hook(torch):
    m = _lin(torch)
    log = []
    m.register_backward_hook(lambda mod, gi, go: log.append(len(gi)))
    m(torch.tensor([[1.0, 2.0]], requires_grad=True)).sum().backward()
    return log


def case_backward_hook_double_call(torch):
    m = _lin(torch)
    log = []
    m.register_full_backward_hook(lambda mod, gi, go: log.append(1))
    x = torch.tensor([[1.0, 2.0]], requires_grad=True)
    y = m(x)
    y.sum().backward(retain_graph=True)
    y.sum().backward()
    return log, x.grad


@pytest.mark.parametrize("prog", programs(globals()), ids=lambda p: p.__name__[5:])
def test_parity(prog, oracle):
    check(prog, oracle)
