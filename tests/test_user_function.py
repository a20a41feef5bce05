"""A user's ``Function`` as PyTorch runs it: minigrad/autograd/_user_function.py, compared with
torch 2.13 through the oracle (setup_context, vjp, once_differentiable, save_for_forward, what
forward may return, mark_dirty on views, the view+in-place errors)."""

import pytest
from parity_programs import check, programs


def case_setup_context(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(x, k):
            return x * k

        @staticmethod
        def setup_context(ctx, inputs, output):
            x, k = inputs
            ctx.k = k
            ctx.save_for_backward(x, output)

        @staticmethod
        def backward(ctx, g):
            x, out = ctx.saved_tensors
            return g * ctx.k, None

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = F.apply(x, 3.0)
    y.sum().backward()
    return y, x.grad, type(y.grad_fn).__name__


def case_setup_context_noctx_forward_sig(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(x):
            return x.clone()

        @staticmethod
        def setup_context(ctx, inputs, output):
            pass

        @staticmethod
        def backward(ctx, g):
            return g

    with torch.no_grad():
        return F.apply(torch.ones(2))


def case_vjp(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def vjp(ctx, g):
            return g * 5

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    F.apply(x).sum().backward()
    return x.grad


def case_vjp_and_backward(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def vjp(ctx, g):
            return g * 5

        @staticmethod
        def backward(ctx, g):
            return g * 5

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    F.apply(x).sum().backward()
    return x.grad


def case_no_backward(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    F.apply(x).sum().backward()


def case_once_diff(torch):
    once_differentiable = torch.autograd.function.once_differentiable

    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x**2

        @staticmethod
        @once_differentiable
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 2 * x * g

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = F.apply(x)
    (gx,) = torch.autograd.grad(y.sum(), x, create_graph=True)
    r = [gx, gx.requires_grad, type(gx.grad_fn).__name__]
    try:
        gx.sum().backward()
    except Exception as e:
        r.append(str(e))
    return r


def case_once_diff_nograd(torch):
    once_differentiable = torch.autograd.function.once_differentiable

    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x**2

        @staticmethod
        @once_differentiable
        def backward(ctx, g):
            return g * 3

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (gx,) = torch.autograd.grad(F.apply(x).sum(), x)
    return gx


def case_save_for_forward(torch):
    fwAD = torch.autograd.forward_ad

    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_forward(x)
            return x**2

        @staticmethod
        def jvp(ctx, t):
            (x,) = ctx.saved_tensors
            return 2 * x * t

    x = torch.tensor([1.0, 2.0])
    with fwAD.dual_level():
        d = fwAD.make_dual(x, torch.tensor([1.0, 1.0]))
        y = F.apply(d)
        return fwAD.unpack_dual(y).tangent


def case_saved_variables(torch):
    import warnings

    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * 2

        @staticmethod
        def backward(ctx, g):
            with warnings.catch_warnings(record=True) as w:
                warnings.simplefilter("always")
                (x,) = ctx.saved_variables
            ctx.msgs = [str(i.message) for i in w]
            return g * x

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = F.apply(x)
    y.sum().backward()
    return x.grad, y.grad_fn.msgs


def case_inplace_function(torch):
    InplaceFunction = torch.autograd.function.InplaceFunction

    class F(InplaceFunction):
        @staticmethod
        def forward(ctx, x, inplace=False):
            if inplace:
                ctx.mark_dirty(x)
                return x.mul_(2)
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2, None

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    a = x.clone()
    y = F.apply(a, True)
    y.sum().backward()
    return y is a, x.grad, type(y.grad_fn).__name__, a._version


def case_forward_numpy(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            r = [x.requires_grad, torch.is_grad_enabled(), x.is_leaf]
            ctx.r = r
            return torch.tensor(x.numpy() * 2)

        @staticmethod
        def backward(ctx, g):
            return g * 2

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = F.apply(x * 1)
    return y, y.grad_fn.r


def case_forward_input_identity(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.same = x is ctx.x_outer
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    seen = []

    class G(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            seen.append(a is x)
            seen.append(a.grad_fn)
            return a.clone()

        @staticmethod
        def backward(ctx, g):
            return g

    G.apply(x)
    return seen


def case_same_tensor_twice(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = x * 2
            return y, y

        @staticmethod
        def backward(ctx, g1, g2):
            return g1 + g2

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    a, b = F.apply(x)
    (a * 3 + b).sum().backward()
    return a is b, x.grad, a._output_nr if hasattr(a, "_output_nr") else a.output_nr


def case_same_tensor_twice_nograd(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = x * 2
            return y, y

        @staticmethod
        def backward(ctx, g1, g2):
            return g1 + g2

    a, b = F.apply(torch.ones(2))
    return a is b


def case_return_input(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 3

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = F.apply(x)
    y.sum().backward()
    return y is x, y._base is x, x.grad, type(y.grad_fn).__name__, y.is_leaf


def case_return_input_nograd(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, g):
            return g

    x = torch.tensor([1.0, 2.0])
    y = F.apply(x)
    return y is x, y._base is x


def case_return_input_nonleaf(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 3

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x * 1
    y = F.apply(h)
    y.sum().backward()
    return y is h, x.grad, type(h.grad_fn).__name__, y._version


def case_backward_none(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, z):
            return x * z

        @staticmethod
        def backward(ctx, g):
            return None, g

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    z = torch.tensor([1.0, 2.0], requires_grad=True)
    F.apply(x, z).sum().backward()
    return x.grad, z.grad


def case_backward_all_none(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return None

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    F.apply(x).sum().backward()
    return x.grad


def case_jvp_absent_tangent(torch):
    fwAD = torch.autograd.forward_ad
    seen = []

    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            return x * y

        @staticmethod
        def jvp(ctx, tx, ty):
            seen.append(tx)
            seen.append(ty)
            return tx + ty

    with fwAD.dual_level():
        d = fwAD.make_dual(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 1.0]))
        out = F.apply(d, torch.tensor([3.0, 4.0]))
        return seen, fwAD.unpack_dual(out).tangent


def case_inplace_view_of_leaf(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_dirty(x)
            return x.mul_(2)

        @staticmethod
        def backward(ctx, g):
            return g * 2

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    v = x[:1]
    F.apply(v)


def case_inplace_leaf(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_dirty(x)
            return x.mul_(2)

        @staticmethod
        def backward(ctx, g):
            return g * 2

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    F.apply(x)


def case_inplace_view_nonleaf(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_dirty(x)
            return x.mul_(2)

        @staticmethod
        def backward(ctx, g):
            return g * 2

    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = x.clone()
    v = b[:2]
    out = F.apply(v)
    b.sum().backward()
    return (
        out is v,
        type(v.grad_fn).__name__,
        type(b.grad_fn).__name__,
        x.grad,
        b,
        v._version,
        b._version,
    )


def case_dirty_nondiff(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_dirty(x)
            ctx.mark_non_differentiable(x)
            return x.mul_(2)

        @staticmethod
        def backward(ctx, g):
            return g * 2

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    F.apply(x.clone())


def case_view_of_intermediate(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = x * 2
            return y.view(2), y

        @staticmethod
        def backward(ctx, g1, g2):
            return g1 + g2

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    a, b = F.apply(x)
    r = [a._base is b, a.requires_grad, type(a.grad_fn).__name__]
    try:
        a.mul_(2)
        r.append("ok")
    except Exception as e:
        r.append(str(e))
    return r


def case_view_of_input(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.view(2)

        @staticmethod
        def backward(ctx, g):
            return g

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x.clone()
    a = F.apply(h)
    r = [a._base is h, type(a.grad_fn).__name__]
    try:
        a.mul_(2)
        r.append(type(a.grad_fn).__name__)
    except Exception as e:
        r.append(str(e))
    return r


def case_view_nograd_forward(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.view(2)

        @staticmethod
        def backward(ctx, g):
            return g

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x.clone()
    with torch.no_grad():
        a = F.apply(h)
    r = [a.requires_grad, a._base is h]
    try:
        a.mul_(2)
        r.append("ok")
    except Exception as e:
        r.append(str(e))
    return r


def case_dirty_view_inplace_in_fn(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_dirty(x)
            x.add_(1)
            return x

        @staticmethod
        def backward(ctx, g):
            return g

    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = x * 1
    v = b[1:]
    F.apply(v)
    (b * b).sum().backward()
    return x.grad, type(b.grad_fn).__name__, type(v.grad_fn).__name__


def case_materialize(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, g1, g2):
            return g1 if g2 is None else g1 + g2

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    a, b = F.apply(x)
    a.sum().backward()
    return x.grad


def case_apply_kwargs(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, k=2):
            return x * k

        @staticmethod
        def backward(ctx, g):
            return g, None

    return F.apply(torch.ones(2), k=3)


def case_needs_input_grad(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, y, k):
            ctx.n = ctx.needs_input_grad
            return x * y * k

        @staticmethod
        def backward(ctx, g):
            return g, g, None

    x = torch.ones(2, requires_grad=True)
    return F.apply(x, torch.ones(2), 2).grad_fn.n


def case_nondiff_output(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            idx = torch.tensor([0, 1])
            ctx.mark_non_differentiable(idx)
            return x * 2, idx

        @staticmethod
        def backward(ctx, g, gi):
            return g * 2

    x = torch.ones(2, requires_grad=True)
    a, i = F.apply(x)
    return a, i, i.requires_grad


def case_int_output(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2, torch.tensor([1, 2])

        @staticmethod
        def backward(ctx, g, gi):
            return g * 2

    x = torch.ones(2, requires_grad=True)
    a, i = F.apply(x)
    return a, i, i.requires_grad


def case_grad_fn_name_repr(torch):
    class MyFn(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g

    y = MyFn.apply(torch.ones(2, requires_grad=True))
    return y.grad_fn.name(), type(y.grad_fn).__name__


def case_non_tensor_output(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2, 5

        @staticmethod
        def backward(ctx, g, g2):
            return g

    x = torch.ones(2, requires_grad=True)
    a, b = F.apply(x)
    return a, b


def case_save_non_tensor(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x, 3)
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g

    F.apply(torch.ones(2, requires_grad=True))


def case_saved_output_identity(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = x * 2
            ctx.save_for_backward(x, y)
            return y

        @staticmethod
        def backward(ctx, g):
            x2, y2 = ctx.saved_tensors
            ctx.ids = [x2 is ctx.xx, y2 is ctx.yy]
            return g

    x = torch.ones(2, requires_grad=True)
    y = F.apply(x)
    y.grad_fn.xx, y.grad_fn.yy = x, y
    y.sum().backward()
    return y.grad_fn.ids


def case_no_tensors(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            return a + b, b

        @staticmethod
        def backward(ctx, g1, g2):
            return g1, g2

    return F.apply(1, 2)


def case_no_tensor_inputs_tensor_out(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return torch.tensor([float(a)])

        @staticmethod
        def backward(ctx, g):
            return g

    y = F.apply(3)
    return y, y.requires_grad


def case_non_tensor_io(torch):
    seen = []

    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, t1, t2, scale, t3):
            t4 = t1 + t2 * t3
            t5 = t1 + t2 * t3 * 2
            ctx.scale = scale
            ctx.save_for_backward(t1, t2, t3)
            return scale, t4, None, True, t5, "bar", t1

        @staticmethod
        def backward(ctx, *grads):
            seen.append([g is None for g in grads])
            t1, t2, t3 = ctx.saved_tensors
            return (grads[1] * ctx.scale + grads[4] * ctx.scale, grads[1] + grads[6], None, None)

    t1 = torch.tensor([1.0, 2.0], requires_grad=True)
    t2 = torch.tensor([3.0, 4.0], requires_grad=True)
    t3 = torch.tensor([5.0, 6.0])
    res = F.apply(t1, t2, 4, t3)
    (res[1].sum() + res[4].sum() + res[6].sum()).backward()
    return [type(r).__name__ for r in res], res[6] is t1, seen, t1.grad, t2.grad


def case_dirty_returned_twice(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.mul_(2)
            ctx.mark_dirty(x)
            return x, x

        @staticmethod
        def backward(ctx, g1, g2):
            return g1 * 2 + g2 * 2

    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = a.clone()
    o1, o2 = F.apply(b)
    r = [o1 is o2, o1 is b]
    (o1 * 3).sum().backward()
    r.append(a.grad)
    return r


def case_dirty_view_returned_twice(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.mul_(2)
            ctx.mark_dirty(x)
            return x, x

        @staticmethod
        def backward(ctx, g1, g2):
            return g1 * 2 + g2 * 2

    a = torch.tensor([1.0, 2.0], requires_grad=True)
    F.apply(a.clone().view_as(a))


def case_dirty_not_returned(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.mul_(2)
            ctx.mark_dirty(x)
            return x * 1

        @staticmethod
        def backward(ctx, g):
            return g

    a = torch.tensor([1.0, 2.0], requires_grad=True)
    F.apply(a.clone())


def case_invalid_grad_shape(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return torch.ones(10)

    x = torch.ones(5, 5, requires_grad=True)
    F.apply(x).sum().backward()


def case_grad_wrong_count(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            return x * y

        @staticmethod
        def backward(ctx, g):
            return g

    x = torch.ones(2, requires_grad=True)
    F.apply(x, x).sum().backward()


def case_grad_for_non_tensor(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, k):
            return x * k

        @staticmethod
        def backward(ctx, g):
            return g, g

    x = torch.ones(2, requires_grad=True)
    F.apply(x, 2).sum().backward()


def case_saved_freed(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g

    x = torch.ones(2, requires_grad=True)
    y = F.apply(x)
    y.sum().backward()
    return y.grad_fn.saved_tensors


def case_saved_modified(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * 2

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * x

    x = torch.ones(2, requires_grad=True)
    h = x.clone()
    y = F.apply(h)
    h.add_(1)
    y.sum().backward()


def case_save_intermediate(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            e = x.exp()
            ctx.save_for_backward(e)
            return e * 2

        @staticmethod
        def backward(ctx, g):
            (e,) = ctx.saved_tensors
            return g * e * 2

    x = torch.tensor([0.0, 1.0], requires_grad=True)
    F.apply(x).sum().backward()
    return x.grad


def case_needs_input_grad_nograd(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.seen = ctx.needs_input_grad
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g

    x = torch.ones(2, requires_grad=True)
    with torch.no_grad():
        y = F.apply(x)
    return y.requires_grad, y.grad_fn


def case_ctx_attrs_after(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.foo = 3
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g

    y = F.apply(torch.ones(2, requires_grad=True))
    return y.grad_fn.foo, y.grad_fn.needs_input_grad, len(y.grad_fn.next_functions)


def case_mark_non_diff_input(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_non_differentiable(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g

    x = torch.ones(2, requires_grad=True)
    y = F.apply(x)
    return y.requires_grad, y is x, y._base is x


def case_nondiff_grad_none_in_backward(torch):
    seen = []

    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            a = x.clone()
            b = x.clone()
            ctx.mark_non_differentiable(b)
            return a, b

        @staticmethod
        def backward(ctx, ga, gb):
            seen.append(gb)
            return ga

    x = torch.ones(2, requires_grad=True)
    a, b = F.apply(x)
    a.sum().backward()
    return seen, b.requires_grad


def case_set_materialize_false_grads(torch):
    seen = []

    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            return x.clone(), x.clone()

        @staticmethod
        def backward(ctx, ga, gb):
            seen.append([ga is None, gb is None])
            return ga

    x = torch.ones(2, requires_grad=True)
    a, b = F.apply(x)
    a.sum().backward()
    return seen


def case_backward_returns_wrong_type(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.clone()

        @staticmethod
        def backward(ctx, g):
            return 5

    F.apply(torch.ones(2, requires_grad=True)).sum().backward()


def case_double_backward(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x**3

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * 3 * x**2

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (g,) = torch.autograd.grad(F.apply(x).sum(), x, create_graph=True)
    (g2,) = torch.autograd.grad(g.sum(), x)
    return g, g2


def case_setup_context_kwargs_default(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(x, scale=2.0):
            return x * scale

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.inputs_len = len(inputs)
            ctx.scale = inputs[1]

        @staticmethod
        def backward(ctx, g):
            return g * ctx.scale, None

    x = torch.ones(2, requires_grad=True)
    y = F.apply(x)
    y2 = F.apply(x, scale=5.0)
    y2.sum().backward()
    return y, y.grad_fn.inputs_len, x.grad


def case_setup_context_mark_dirty(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(x):
            return x.mul_(2)

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.mark_dirty(inputs[0])

        @staticmethod
        def backward(ctx, g):
            return g * 2

    a = torch.ones(2, requires_grad=True)
    b = a.clone()
    y = F.apply(b)
    y.sum().backward()
    return y is b, a.grad


def case_setup_context_save_output(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(x):
            return x.exp()

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(output)

        @staticmethod
        def backward(ctx, g):
            (y,) = ctx.saved_tensors
            return g * y

    x = torch.tensor([0.0, 1.0], requires_grad=True)
    F.apply(x).sum().backward()
    return x.grad


def case_jvp_view_checks(torch):
    fwAD = torch.autograd.forward_ad

    class ViewFn(torch.autograd.Function):
        @staticmethod
        def forward(ctx, foo):
            return foo.narrow(0, 0, 2)

        @staticmethod
        def vjp(ctx, gO):
            return gO.clone()

        @staticmethod
        def jvp(ctx, gI):
            return gI.clone()

    with fwAD.dual_level():
        d = fwAD.make_dual(torch.tensor([1.0, 2.0, 3.0]), torch.tensor([1.0, 1.0, 1.0]))
        ViewFn.apply(d)


def case_jvp_view_checks_narrow(torch):
    fwAD = torch.autograd.forward_ad

    class ViewFn(torch.autograd.Function):
        @staticmethod
        def forward(ctx, foo):
            return foo.narrow(0, 0, 2)

        @staticmethod
        def jvp(ctx, gI):
            return gI.narrow(0, 0, 2)

        @staticmethod
        def backward(ctx, g):
            return g

    with fwAD.dual_level():
        d = fwAD.make_dual(torch.tensor([1.0, 2.0, 3.0]), torch.tensor([1.0, 1.0, 1.0]))
        out = ViewFn.apply(d)
        return fwAD.unpack_dual(out).tangent


def case_jvp_inplace_checks(torch):
    fwAD = torch.autograd.forward_ad

    class InplaceFn(torch.autograd.Function):
        @staticmethod
        def forward(ctx, foo):
            ctx.mark_dirty(foo)
            return foo.mul_(2)

        @staticmethod
        def vjp(ctx, gO):
            return 2 * gO

        @staticmethod
        def jvp(ctx, gI):
            return 2 * gI

    with fwAD.dual_level():
        d = fwAD.make_dual(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 1.0]))
        InplaceFn.apply(d)


def case_jvp_inplace_checks_ok(torch):
    fwAD = torch.autograd.forward_ad

    class InplaceFn(torch.autograd.Function):
        @staticmethod
        def forward(ctx, foo):
            ctx.mark_dirty(foo)
            return foo.mul_(2)

        @staticmethod
        def vjp(ctx, gO):
            return 2 * gO

        @staticmethod
        def jvp(ctx, gI):
            gI.mul_(2)
            return gI

    with fwAD.dual_level():
        d = fwAD.make_dual(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 1.0]))
        out = InplaceFn.apply(d)
        return out is d, fwAD.unpack_dual(d).tangent, fwAD.unpack_dual(out).primal


def case_jvp_wrong_formula_dtype(torch):
    fwAD = torch.autograd.forward_ad

    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def jvp(ctx, t):
            return t.to(torch.float64)

    with fwAD.dual_level():
        d = fwAD.make_dual(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 1.0]))
        F.apply(d)


def case_jvp_wrong_formula_shape(torch):
    fwAD = torch.autograd.forward_ad

    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def jvp(ctx, t):
            return torch.ones(3)

    with fwAD.dual_level():
        d = fwAD.make_dual(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 1.0]))
        F.apply(d)


def case_jvp_non_tensor_args(torch):
    fwAD = torch.autograd.forward_ad
    seen = []

    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, k, x, name):
            return x * k

        @staticmethod
        def jvp(ctx, tk, tx, tname):
            seen.append([tk, tname])
            return tx * 3

    with fwAD.dual_level():
        d = fwAD.make_dual(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 1.0]))
        out = F.apply(3, d, "a")
        return seen, fwAD.unpack_dual(out).tangent


def case_jvp_forward_no_op(torch):
    fwAD = torch.autograd.forward_ad

    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def jvp(ctx, t):
            return t

    with fwAD.dual_level():
        d = fwAD.make_dual(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 1.0]))
        out = F.apply(d)
        return out is d, fwAD.unpack_dual(out).tangent


def case_jvp_no_jvp(torch):
    fwAD = torch.autograd.forward_ad

    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g

    with fwAD.dual_level():
        d = fwAD.make_dual(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 1.0]))
        F.apply(d)


def case_jvp_jvp_multiple_outputs(torch):
    fwAD = torch.autograd.forward_ad

    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2, x * 3

        @staticmethod
        def jvp(ctx, t):
            return t * 2, t * 3

    with fwAD.dual_level():
        d = fwAD.make_dual(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 1.0]))
        a, b = F.apply(d)
        return fwAD.unpack_dual(a).tangent, fwAD.unpack_dual(b).tangent


def case_jvp_jvp_wrong_count(torch):
    fwAD = torch.autograd.forward_ad

    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2, x * 3

        @staticmethod
        def jvp(ctx, t):
            return t * 2

    with fwAD.dual_level():
        d = fwAD.make_dual(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 1.0]))
        F.apply(d)


def case_jvp_save_for_forward_and_backward(torch):
    fwAD = torch.autograd.forward_ad

    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            ctx.save_for_backward(y)
            ctx.save_for_forward(x, y)
            return x * y

        @staticmethod
        def jvp(ctx, tx, ty):
            x, y = ctx.saved_tensors
            return tx * y + ty * x

        @staticmethod
        def backward(ctx, g):
            (y,) = ctx.saved_tensors
            return g * y, None

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with fwAD.dual_level():
        d = fwAD.make_dual(x, torch.tensor([1.0, 1.0]))
        out = F.apply(d, torch.tensor([3.0, 4.0]))
        t = fwAD.unpack_dual(out).tangent
    out.sum().backward()
    return t, x.grad


def case_jvp_save_for_forward_non_tensor(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_forward(x, 3)
            return x * 2

        @staticmethod
        def jvp(ctx, t):
            return t

    F.apply(torch.ones(2))


def case_once_differentiable_error_node(torch):
    once_differentiable = torch.autograd.function.once_differentiable

    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, t1, s, t2):
            ctx.s = s
            ctx.save_for_backward(t1, t2)
            return t1 + s * t2 + t1 * t2

        @staticmethod
        @once_differentiable
        def backward(ctx, g):
            t1, t2 = ctx.saved_tensors
            return g + g * t2, None, g * ctx.s + g * t1

    def desc(fn):
        if fn is None:
            return "None"
        return type(fn).__name__ + "(" + ", ".join(desc(n) for n, _ in fn.next_functions) + ")"

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = torch.tensor([3.0, 4.0], requires_grad=True)
    out = F.apply(x, 2, y)
    out.sum().backward(torch.ones((), requires_grad=True), create_graph=True)
    result = [desc(x.grad.grad_fn), x.grad.grad_fn.next_functions[1][0].name(), x.grad]
    try:
        x.grad.sum().backward()
    except RuntimeError as error:
        result.append(str(error))
    return result


def case_backward_returning_none_leaves_grad_none(torch):
    class Nothing(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            return None

    x = torch.ones(2, requires_grad=True)
    Nothing.apply(x ** 2).sum().backward()  # PowBackward0 gets no gradient: sends none on
    (x.exp() * Nothing.apply(x)).sum().backward()  # MulBackward0 gets a gradient for one input
    return x.grad


def case_materialize_non_diff_grads_off(torch):
    class TwoOut(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            kept, marked = x.clone(), x.clone()
            ctx.mark_non_differentiable(marked)
            ctx._materialize_non_diff_grads = False
            return kept, marked

        @staticmethod
        def backward(ctx, g_kept, g_marked):
            seen.append(g_marked)
            return g_kept

    seen = []
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    TwoOut.apply(x)[0].sum().backward()
    return seen, x.grad


def case_vmap_defaults(torch):
    class Square(torch.autograd.Function):
        @staticmethod
        def forward(x):
            return x ** 2

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(inputs[0])

        @staticmethod
        def backward(ctx, grad):
            return 2 * ctx.saved_tensors[0] * grad

    try:
        Square.vmap(None, (0,), torch.ones(2))
    except NotImplementedError as error:
        return Square.generate_vmap_rule, str(error)


@pytest.mark.parametrize("prog", programs(globals()), ids=lambda p: p.__name__[5:])
def test_parity(prog, oracle):
    check(prog, oracle)
