"""Tensor attributes and hooks on values as torch 2.13 has them: setters that validate
(``.data``, ``.grad``, read-only ``grad_fn``/``is_leaf``, ``requires_grad`` a bool),
``retain_grad`` across in-place ops and on views, post-accumulate-grad hooks, forward-mode
in-place changes (compared through the oracle)."""

import pytest
from parity_programs import check, programs


def case_retain_then_inplace(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.retain_grad()
    y.mul_(3)
    (y * y).sum().backward()
    return y.grad, y.retains_grad, x.grad


def case_retain_then_inplace_twice(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.retain_grad()
    y.add_(1)
    y.mul_(3)
    y.sum().backward()
    return y.grad, y.retains_grad


def case_retain_view(torch):
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    v = y[:2]
    v.retain_grad()
    (v * v).sum().backward()
    return v.grad, v.retains_grad, y.retains_grad


def case_retain_view_inplace(torch):
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    v = y[:2]
    v.retain_grad()
    v.mul_(2)
    (y * y).sum().backward()
    return v.grad, x.grad


def case_retain_base_then_view_inplace(torch):
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    y.retain_grad()
    y[:2].mul_(2)
    y.sum().backward()
    return y.grad, type(y.grad_fn).__name__


def case_retain_leaf(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x.retain_grad()
    (x * 2).sum().backward()
    return x.grad, x.retains_grad


def case_retain_twice(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.retain_grad()
    y.retain_grad()
    y.sum().backward(retain_graph=True)
    y.sum().backward()
    return y.grad


def case_retain_hook_order(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    log = []
    y.register_hook(lambda g: log.append(("h1", g.tolist())) or g * 2)
    y.retain_grad()
    y.register_hook(lambda g: log.append(("h2", g.tolist())) or g * 3)
    y.sum().backward()
    return log, y.grad, x.grad


def case_post_acc_order(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    log = []
    x.register_post_accumulate_grad_hook(lambda t: log.append(("p1", t.grad.tolist())))
    x.register_hook(lambda g: log.append(("h", g.tolist())) or g * 2)
    x.register_post_accumulate_grad_hook(lambda t: log.append(("p2", t.grad.tolist())))
    (x * 3).sum().backward()
    return log


def case_post_acc_modify(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)

    def p(t):
        t.grad.mul_(10)

    x.register_post_accumulate_grad_hook(p)
    x.register_post_accumulate_grad_hook(lambda t: t.grad.add_(1))
    (x * 3).sum().backward()
    return x.grad


def case_post_acc_nonleaf(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (x * 2).register_post_accumulate_grad_hook(lambda t: None)


def case_post_acc_no_grad(torch):
    torch.tensor([1.0, 2.0]).register_post_accumulate_grad_hook(lambda t: None)


def case_post_acc_remove(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    log = []
    h = x.register_post_accumulate_grad_hook(lambda t: log.append(1))
    x.sum().backward()
    h.remove()
    x.sum().backward()
    return log


def case_post_acc_grad_mode(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    log = []
    x.register_post_accumulate_grad_hook(lambda t: log.append(torch.is_grad_enabled()))
    (x * x).sum().backward(create_graph=True)
    return log


def case_fwad_inplace_caller(torch):
    fwAD = torch.autograd.forward_ad
    with fwAD.dual_level():
        p = torch.tensor([1.0, 2.0])
        d = fwAD.make_dual(p, torch.tensor([1.0, 1.0]))
        d.mul_(3)
        r1 = fwAD.unpack_dual(d).tangent
        return r1, fwAD.unpack_dual(d).primal


def case_fwad_inplace_in_fn(torch):
    fwAD = torch.autograd.forward_ad

    def f(t):
        t.mul_(2)
        t.add_(1)

    with fwAD.dual_level():
        d = fwAD.make_dual(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 0.5]))
        f(d)
        return fwAD.unpack_dual(d).tangent


def case_fwad_inplace_view(torch):
    fwAD = torch.autograd.forward_ad
    with fwAD.dual_level():
        d = fwAD.make_dual(torch.tensor([1.0, 2.0, 3.0]), torch.tensor([1.0, 1.0, 1.0]))
        v = d[:2]
        v.mul_(5)
        return fwAD.unpack_dual(d).tangent, fwAD.unpack_dual(v).tangent


def case_fwad_inplace_plain_by_dual(torch):
    fwAD = torch.autograd.forward_ad
    with fwAD.dual_level():
        d = fwAD.make_dual(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 1.0]))
        p = torch.tensor([3.0, 4.0])
        p.mul_(d)
        return fwAD.unpack_dual(p).tangent


def case_fwad_inplace_base_of_primal(torch):
    fwAD = torch.autograd.forward_ad
    with fwAD.dual_level():
        p = torch.tensor([1.0, 2.0])
        d = fwAD.make_dual(p, torch.tensor([1.0, 1.0]))
        d.add_(torch.tensor([1.0, 1.0]))
        return p, fwAD.unpack_dual(d).tangent


def case_set_data_float(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x.data = torch.tensor([1, 2])


def case_set_data_nontensor(torch):
    x = torch.tensor([1.0, 2.0])
    x.data = [1.0, 2.0]


def case_set_data_ok(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    v = x._version
    x.data = torch.tensor([5.0, 6.0, 7.0])
    return x, x._version, v


def case_set_data_int_ok(torch):
    x = torch.tensor([1.0, 2.0])
    x.data = torch.tensor([1, 2])
    return x


def case_set_data_double(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x.data = torch.tensor([1.0, 2.0], dtype=torch.float64)
    return x


def case_set_grad_shape(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x.grad = torch.tensor([1.0, 2.0, 3.0])


def case_set_grad_dtype(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x.grad = torch.tensor([1.0, 2.0], dtype=torch.float64)


def case_set_grad_self(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x.grad = x


def case_set_grad_list(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x.grad = [1.0, 2.0]


def case_set_grad_ok(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x.grad = torch.tensor([3.0, 4.0])
    x.grad = None
    return x.grad


def case_set_grad_int(torch):
    x = torch.tensor([1, 2])
    x.grad = torch.tensor([1, 2])
    return x.grad


def case_set_grad_fn(torch):  # NB: PyTorch names its C base class: compared as Tensor
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    try:
        y = x * 2
        y.grad_fn = None
    except AttributeError as e:  # PyTorch names its C base class
        return str(e).replace("torch._C.TensorBase", "torch.Tensor")


def case_set_grad_fn_leaf(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    try:
        x.grad_fn = None
    except AttributeError as e:  # PyTorch names its C base class
        return str(e).replace("torch._C.TensorBase", "torch.Tensor")


def case_set_requires_grad_int(torch):
    x = torch.tensor([1.0, 2.0])
    x.requires_grad = 1


def case_set_requires_grad_none(torch):
    x = torch.tensor([1.0, 2.0])
    x.requires_grad = None


def case_requires_grad_method_int(torch):
    x = torch.tensor([1.0, 2.0])
    x.requires_grad_(1)
    return x.requires_grad


def case_set_is_leaf(torch):
    x = torch.tensor([1.0, 2.0])
    try:
        x.is_leaf = True
    except AttributeError as e:  # PyTorch names its C base class
        return str(e).replace("torch._C.TensorBase", "torch.Tensor")


def case_del_grad(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x.grad = torch.tensor([1.0, 1.0])
    del x.grad
    return x.grad


def case_set_data_grad_shape_later(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x.sum().backward()
    x.data = torch.tensor([1.0, 2.0, 3.0])
    return x.grad


def case_view_made_before_its_base_required_grad(torch):
    a = torch.tensor([1.0, 2.0, 3.0])
    b = a[:]
    a.requires_grad = True
    try:
        b.add_(5)
    except RuntimeError as error:
        return str(error), b.tolist()


def case_volatile(torch):
    import warnings
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = torch.ones(2).volatile
    return value, [(w.category.__name__, str(w.message)) for w in caught], \
        torch.autograd.torch is torch


def case_attributes_that_cannot_be_deleted(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x.grad = torch.ones(2)
    del x.grad
    errors = []
    for name in ("data", "requires_grad", "_grad_fn", "_backward_hooks"):
        try:
            delattr(x, name)
        except RuntimeError as error:
            errors.append(str(error))
    return x.grad, errors, (x * 2).sum()


@pytest.mark.parametrize("prog", programs(globals()), ids=lambda p: p.__name__[5:])
def test_parity(prog, oracle):
    check(prog, oracle)
