"""Inference tensors as PyTorch has them (minigrad/autograd/inference.py), compared with torch
2.13 through the oracle."""

import pytest
from parity_programs import check, programs


def case_is_inference(torch):
    with torch.inference_mode():
        x = torch.ones(2)
    return x.is_inference(), torch.is_inference(x), torch.ones(2).is_inference()


def case_version(torch):
    with torch.inference_mode():
        x = torch.ones(2)
    return x._version


def case_version_inside(torch):
    with torch.inference_mode():
        x = torch.ones(2)
        return x._version


def case_inplace_outside(torch):
    with torch.inference_mode():
        x = torch.ones(2)
    x.add_(1)


def case_inplace_inside(torch):
    with torch.inference_mode():
        x = torch.ones(2)
        x.add_(1)
    return x


def case_setitem_outside(torch):
    with torch.inference_mode():
        x = torch.ones(2)
    x[0] = 3


def case_saved(torch):
    with torch.inference_mode():
        x = torch.ones(2)
    w = torch.ones(2, requires_grad=True)
    return x * w


def case_not_saved(torch):
    with torch.inference_mode():
        x = torch.ones(2)
    w = torch.ones(2, requires_grad=True)
    y = x + w
    y.sum().backward()
    return y, w.grad, y.is_inference()


def case_requires_grad_(torch):
    with torch.inference_mode():
        x = torch.ones(2)
    x.requires_grad_()


def case_requires_grad_set(torch):
    with torch.inference_mode():
        x = torch.ones(2)
    x.requires_grad = True


def case_requires_grad_inside(torch):
    with torch.inference_mode():
        x = torch.ones(2)
        x.requires_grad_()
        y = x * 2
    return x.requires_grad, y.requires_grad, y.grad_fn


def case_leaf_rg_in_mode(torch):
    w = torch.ones(2, requires_grad=True)
    with torch.inference_mode():
        y = w * 2
        z = w.view(2)
        w2 = w[0]
    return (
        y.requires_grad,
        y.is_inference(),
        z.is_inference(),
        z.requires_grad,
        z._base is w,
        w2.requires_grad,
    )


def case_view_of_normal_inplace(torch):
    w = torch.ones(2)
    with torch.inference_mode():
        v = w.view(2)
        v.add_(1)
    return w, w._version, v.is_inference()


def case_view_of_normal_mod_outside(torch):
    w = torch.ones(2, requires_grad=True).clone()
    with torch.inference_mode():
        v = w.view(2)
    v.add_(1)


def case_view_of_inference(torch):
    with torch.inference_mode():
        x = torch.ones(2, 2)
        v = x[0]
    return v.is_inference(), x.view(4).is_inference()


def case_normal_inplace_in_mode(torch):
    a = torch.ones(2)
    with torch.inference_mode():
        a.mul_(2)
    return a._version, a.is_inference()


def case_normal_rg_inplace_in_mode(torch):
    a = torch.ones(2, requires_grad=True).clone()
    with torch.inference_mode():
        a.mul_(2)
    return a._version, type(a.grad_fn).__name__


def case_false(torch):
    with torch.inference_mode():
        with torch.inference_mode(False):
            x = torch.ones(2)
            y = torch.ones(2, requires_grad=True) * 2
    return x.is_inference(), y.requires_grad, torch.is_inference_mode_enabled()


def case_detach(torch):
    with torch.inference_mode():
        x = torch.ones(2)
    return x.detach().is_inference(), x.clone().is_inference(), (x + 1).is_inference()


def case_mix_outside(torch):
    with torch.inference_mode():
        x = torch.ones(2)
    y = torch.ones(2)
    y.add_(x)
    return y, y._version


def case_out_outside(torch):
    with torch.inference_mode():
        x = torch.ones(2)
    return x.view(2).is_inference(), x[0].is_inference()


def case_view_inplace_outside(torch):
    with torch.inference_mode():
        x = torch.ones(2)
    x.view(2).add_(1)


def case_grad_of_inference_in_grad(torch):
    with torch.inference_mode():
        x = torch.ones(2)
    w = torch.ones(2, requires_grad=True)
    return torch.autograd.grad((x.mul(3) * w).sum(), w)


def case_decorator(torch):
    @torch.inference_mode()
    def f(a):
        return a * 2

    return f(torch.ones(2)).is_inference()


def case_data(torch):
    with torch.inference_mode():
        x = torch.ones(2)
    return x.data.is_inference(), x.detach().requires_grad


def case_is_inference_arg(torch):
    return torch.is_inference(3)


def case_factories(torch):
    with torch.inference_mode():
        xs = [
            torch.zeros(2),
            torch.tensor([1.0]),
            torch.arange(3),
            torch.randn(2),
            torch.ones(2).clone(),
            torch.ones(2)[0],
        ]
    return [x.is_inference() for x in xs]


def case_copy_into_inference_outside(torch):
    with torch.inference_mode():
        x = torch.ones(2)
    x.copy_(torch.zeros(2))


def case_zero_outside(torch):
    with torch.inference_mode():
        x = torch.ones(2)
    x.zero_()


def case_resize(torch):
    with torch.inference_mode():
        x = torch.ones(2)
    return x.unsqueeze(0).is_inference(), x.unsqueeze(0)._version


def case_version_view(torch):
    with torch.inference_mode():
        x = torch.ones(2)
    return x[0]._version


def case_only_inference_inputs_not_recorded(torch):
    with torch.inference_mode():
        c = torch.ones(2, requires_grad=True)
    outs = [c * c, c.exp(), c + 1]
    return [(o.requires_grad, o.is_inference(), o.grad_fn is None) for o in outs]


def case_mixed_inputs_recorded(torch):
    s = torch.ones(2, requires_grad=True)
    with torch.inference_mode():
        c = torch.ones(2, requires_grad=True)
    out = c.add(s)
    out.backward(torch.ones_like(out))
    return out.requires_grad, out.is_inference(), c.grad, s.grad


def case_mixed_inputs_saved(torch):
    s = torch.ones(2, requires_grad=True)
    with torch.inference_mode():
        c = torch.ones(2)
    return s * c


def case_inplace_by_inference_tensor(torch):
    s = torch.ones(2, requires_grad=True)
    a = s.clone()
    with torch.inference_mode():
        c = torch.ones(2)
    a.mul_(c)


def case_view_of_inference_outside(torch):
    with torch.inference_mode():
        c = torch.ones(1, 2, 3, requires_grad=True)
    out = c.view(-1)
    return out.is_inference(), out.requires_grad, out._base is None, out.is_leaf


def case_view_of_inference_inside(torch):
    with torch.inference_mode():
        c = torch.ones(1, 2, 3, requires_grad=True)
        out = c.view(-1)
        return out.is_inference(), out.requires_grad


def case_inplace_inside_keeps_requires_grad(torch):
    with torch.inference_mode():
        c = torch.ones(2, 3, requires_grad=True)
        c.add_(2)
        return c.is_inference(), c.requires_grad, c.shape


def case_normal_inplace_then_view_in_mode(torch):
    a = torch.ones(2, 3, requires_grad=True).clone()
    with torch.inference_mode():
        a.add_(2)
        v = a.view(-1)
        return a.is_inference(), a.requires_grad, v.is_inference(), v.requires_grad


def case_view_in_mode_then_inplace_in_mode(torch):
    a = torch.ones(2, 3, requires_grad=True).clone()
    with torch.inference_mode():
        out = a.view(-1).view(-1)
        out.add_(2)
        return out.is_inference(), out.requires_grad, a._version == out._version


def case_view_in_mode_used_outside(torch):
    a = torch.ones(2, 3, requires_grad=True).clone()
    with torch.inference_mode():
        out = a.view(-1)
    tmp = out * out
    return tmp.is_inference(), tmp.requires_grad, out.is_leaf


def case_view_in_mode_changed_outside_no_grad_needed(torch):
    a = torch.ones(2, 3).clone()
    with torch.inference_mode():
        out = a.view(-1)
    out.add_(2)
    return a


def case_saved_before_inplace_in_mode(torch):
    a = torch.ones(2, requires_grad=True).clone()
    out = a * a
    with torch.inference_mode():
        a.add_(2)
    out.backward(torch.ones_like(out))


def case_view_as_mixed(torch):
    s = torch.ones(1, 2, 3, requires_grad=True)
    with torch.inference_mode():
        c = torch.ones(1, 2, 3)
    a, b = c.view_as(s), s.view_as(c)
    return a.is_inference(), a.requires_grad, b.is_inference(), b.requires_grad


def case_view_in_mode_after_base_changed(torch):
    a = torch.ones(1, 2, 3, requires_grad=True).clone()
    with torch.inference_mode():
        v = a.view(-1)
    a.add_(2)
    return v.grad_fn


def case_view_in_mode_used_after_base_changed(torch):
    a = torch.ones(3, requires_grad=True).clone()
    with torch.inference_mode():
        v = a.view(-1)
    a[0:1].mul_(2)
    return v * 2


def case_view_in_mode_after_base_changed_no_grad(torch):
    a = torch.ones(3).clone()
    with torch.inference_mode():
        v = a.view(-1)
    a.add_(2)
    return v.grad_fn, v


def case_metadata_inplace_ops_in_inference_mode(torch):
    seen = []
    with torch.inference_mode():
        for requires_grad in (True, False):
            for change in (lambda t: t.transpose_(0, 1), lambda t: t.resize_(1, 2),
                           lambda t: t.resize_as_(torch.ones(2, 1))):
                c = torch.ones(1, 2, 3, requires_grad=requires_grad)
                change(c)
                seen.append((torch.is_inference(c), c.requires_grad, list(c.shape)))
    return seen


def case_transpose_of_inference_tensor_outside(torch):
    with torch.inference_mode():
        c = torch.ones(1, 2, 3)
    return c.transpose_(0, 1)


def case_is_view(torch):
    with torch.inference_mode():
        c = torch.ones(2, 3)
    a = torch.ones(2, 3, requires_grad=True).clone()
    with torch.inference_mode():
        normal_view = a.view(-1)
    return c.view(-1)._is_view(), normal_view._is_view(), a._is_view(), a[0]._is_view()


def case_out_argument_that_is_an_inference_tensor(torch):
    with torch.inference_mode():
        c = torch.ones(1, 2)
    s = torch.ones(1, 2)
    return torch.mul(s, s, out=c)


def case_inference_view_after_transpose_of_base(torch):
    a = torch.ones(1, 2, 3, requires_grad=True).clone()
    with torch.inference_mode():
        view = a.view(-1)
    a.transpose_(0, 1)
    return view.grad_fn


@pytest.mark.parametrize("prog", programs(globals()), ids=lambda p: p.__name__[5:])
def test_parity(prog, oracle):
    check(prog, oracle)
