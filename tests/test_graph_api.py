"""The graph API of ``minigrad.autograd.graph`` as in torch 2.13: gradient edges, version
counters, save_on_cpu, disable_saved_tensors_hooks, allow_mutation_on_saved_tensors,
``SavedTensor.register_hooks``, set_warn_always, and saved tensors packed and unpacked as PyTorch
does it (compared through the oracle)."""

import pytest
from parity_programs import check, programs

import minigrad


def case_gradient_edge(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    a = x * 2
    b = a.exp()
    e = torch.autograd.graph.get_gradient_edge(a)
    return type(e).__name__, e.node is a.grad_fn, e.output_nr, torch.autograd.grad(b.sum(), e)


def case_gradient_edge_leaf(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    e = torch.autograd.graph.get_gradient_edge(x)
    return e.node.name(), e.output_nr, torch.autograd.grad((x * 3).sum(), e)


def case_gradient_edge_nograd(torch):
    x = torch.tensor([1.0, 2.0])
    return torch.autograd.graph.get_gradient_edge(x)


def case_gradient_edge_backward_inputs(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    a = x * 2
    b = (a * a).sum()
    b.backward(inputs=[torch.autograd.graph.get_gradient_edge(x)])
    return x.grad


def case_gradient_edge_after_inplace(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    a = x * 2
    e = torch.autograd.graph.get_gradient_edge(a)
    a.mul_(3)
    out = (a * 1).sum()
    return torch.autograd.grad(out, e)


def case_gradient_edge_mixed(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    a = x * 2
    out = (a * a).sum()
    return torch.autograd.grad(out, [x, torch.autograd.graph.get_gradient_edge(a)])


def case_output_nr(torch):
    x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    a, b = x.split(2)
    return a.output_nr, b.output_nr, x.output_nr, (x * 1).output_nr


def case_increment_version(torch):
    x = torch.tensor([1.0, 2.0])
    v0 = x._version
    torch.autograd.graph.increment_version(x)
    torch.autograd.graph.increment_version([x, x])
    return v0, x._version


def case_increment_version_inplace_check(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    a = x * 1
    b = a * a
    torch.autograd.graph.increment_version(a)
    b.sum().backward()


def case_save_on_cpu(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.autograd.graph.save_on_cpu():
        y = x * x
    y.sum().backward()
    return x.grad


def case_save_on_cpu_pin(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.autograd.graph.save_on_cpu(pin_memory=False):
        y = x.exp() * x
    y.sum().backward()
    return x.grad


def case_disable_hooks(torch):
    with torch.autograd.graph.disable_saved_tensors_hooks("no hooks here"):
        with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
            pass


def case_disable_hooks_nested_ok(torch):
    with torch.autograd.graph.disable_saved_tensors_hooks("a"):
        with torch.autograd.graph.disable_saved_tensors_hooks("b"):
            pass
    with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
        return 1


def case_disable_hooks_inside_hooks(torch):
    with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
        with torch.autograd.graph.disable_saved_tensors_hooks("already on"):
            pass


def case_disable_hooks_save_on_cpu(torch):
    with torch.autograd.graph.disable_saved_tensors_hooks("nope"):
        with torch.autograd.graph.save_on_cpu():
            pass


def case_allow_mutation(torch):
    with torch.autograd.graph.allow_mutation_on_saved_tensors():
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        a = x.clone()
        y = a * a
        a.mul_(2)
        y.sum().backward()
        return x.grad, a


def case_allow_mutation_leaf(torch):
    with torch.autograd.graph.allow_mutation_on_saved_tensors():
        x = torch.tensor([1.0, 2.0])
        w = torch.tensor([3.0, 4.0], requires_grad=True)
        y = x * w
        x.add_(10)
        y.sum().backward()
        return w.grad, x


def case_allow_mutation_outside(torch):
    with torch.autograd.graph.allow_mutation_on_saved_tensors():
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        a = x.clone()
        y = a.sin()
        a.mul_(2)
    y.sum().backward()


def case_allow_mutation_nested(torch):
    with torch.autograd.graph.allow_mutation_on_saved_tensors():
        with torch.autograd.graph.allow_mutation_on_saved_tensors():
            pass


def case_allow_mutation_view(torch):
    with torch.autograd.graph.allow_mutation_on_saved_tensors():
        x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        a = x.clone()
        y = a * a
        a[0].mul_(5)
        y.sum().backward()
        return x.grad


def case_raw_saved_hooks(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.pow(2)
    log = []
    y.grad_fn._raw_saved_self.register_hooks(
        lambda t: (log.append("pack"), t * 10)[1], lambda t: (log.append("unpack"), t)[1]
    )
    y.sum().backward()
    return x.grad, log


def case_raw_saved_hooks_twice(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.pow(2)
    y.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t)
    y.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t)


def case_raw_saved_hooks_bad_unpack(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.pow(2)
    y.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: 5)
    y.sum().backward()


def case_raw_saved_hooks_not_callable(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.pow(2)
    y.grad_fn._raw_saved_self.register_hooks(lambda t: t, 5)


def case_raw_saved_after_release(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.pow(2)
    y.sum().backward()
    y.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t)


def case_raw_saved_none(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    r = y.grad_fn._raw_saved_result
    return type(r).__name__


def case_warn_always(torch):
    a = torch.is_warn_always_enabled()
    torch.set_warn_always(True)
    b = torch.is_warn_always_enabled()
    torch.set_warn_always(False)
    return a, b, torch.is_warn_always_enabled()


def case_saved_result_identity(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    z = x * x
    return (
        y.grad_fn._saved_result is y,
        y.grad_fn._saved_result is y.grad_fn._saved_result,
        z.grad_fn._saved_self is x,
    )


def case_pack_order_mul(torch):
    log = []
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 4.0], requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(
        lambda t: (log.append(t.tolist()), t)[1], lambda t: t
    ):
        a * b
    return log


def case_pack_order_many(torch):
    log = []
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 4.0], requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(
        lambda t: (log.append(t.tolist()), t)[1], lambda t: t
    ):
        a / b
        a**b
        torch.maximum(a, b)
        a @ b
        a[None] @ b[:, None]
        torch.remainder(a, b)
        torch.minimum(a, b)
    return log


def case_pack_order_custom(torch):
    log = []

    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            out = x * y
            ctx.save_for_backward(x, y, out)
            return out

        @staticmethod
        def backward(ctx, g):
            return g, g

    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 4.0], requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(
        lambda t: (log.append(t.tolist()), t)[1], lambda t: t
    ):
        F.apply(a, b)
    return log


def case_unpack_new_object(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
        y = x * x
    return y.grad_fn._saved_self is x


def case_grad_edge_multi(torch):
    x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    a, b = x.split(2)
    e = torch.autograd.graph.get_gradient_edge(b)
    return e.output_nr, torch.autograd.grad((b * 3).sum(), e)


def case_node_name_edge(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    e = torch.autograd.graph.get_gradient_edge(x * 2)
    return e.node.name(), isinstance(e, tuple), e[1] if isinstance(e, tuple) else None


def case_allow_mutation_clones(torch):
    with torch.autograd.graph.allow_mutation_on_saved_tensors() as ctx:
        a = torch.ones(2, 3, requires_grad=True)
        b = a.clone()
        out = (b**2).sum()
        counts = [len(ctx.cloned)]
        b.sin_()
        counts.append(len(ctx.cloned))
        out.sum().backward()
        counts.append(len(ctx.cloned))
        return counts, a.grad


def case_allow_mutation_leaf_under_no_grad(torch):
    with torch.autograd.graph.allow_mutation_on_saved_tensors():
        a = torch.ones(2, requires_grad=True)
        o = (a * a).sum()
        with torch.no_grad():
            a.mul_(2)
        o.backward()
        return a.grad, a


def case_allow_mutation_twice(torch):
    with torch.autograd.graph.allow_mutation_on_saved_tensors() as ctx:
        a = torch.ones(2, requires_grad=True)
        c = a.clone()
        o = (c * c * c).sum()
        c.mul_(2)
        c.mul_(3)
        n = len(ctx.cloned)
        o.backward()
        return n, a.grad, c


def case_saved_after_backward(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x.clone()

        @staticmethod
        def backward(ctx, g):
            return g

    x = torch.ones(2, requires_grad=True)
    y = F.apply(x)
    y.sum().backward()
    return y.grad_fn.saved_tensors


def case_saved_self_after_backward(torch):
    x = torch.ones(2, requires_grad=True)
    y = x.pow(2)
    y.sum().backward()
    return y.grad_fn._saved_self


def case_retain_grad_inplace_over_view(torch):
    base = torch.tensor([1.0, 2.0], requires_grad=True).clone()
    view = base[1:]
    base.retain_grad()
    view.retain_grad()
    view.mul_(2)
    (base * 3).sum().backward()
    return base.grad, view.grad


def case_retains_grad_inplace_multiple_outputs(torch):
    t = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    a, b = t.clone().split(2)
    a.retain_grad()
    b.retain_grad()
    a = a * 1
    a.retain_grad()
    a.mul_(2)
    (a + b).sum().backward()
    return a.grad, b.grad, t.grad


def case_retain_grad_leaf_inplace(torch):
    x = torch.ones(2, requires_grad=True)
    y = x * 1
    y.retain_grad()
    y.add_(1)
    y.retain_grad()
    (y * y).sum().backward()
    return y.grad


def case_hook_then_inplace(torch):
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    log = []
    y.register_hook(lambda g: log.append(g.tolist()))
    y.mul_(3)
    y.sum().backward()
    return log, x.grad


def case_saved_tensor_hooks_unpack_wrong(torch):
    x = torch.ones(2, requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: 5):
        y = x * x
    y.sum().backward()


def case_saved_tensor_hooks_pack_grad_mode(torch):
    x = torch.ones(2, requires_grad=True)
    log = []

    def pack(t):
        log.append(torch.is_grad_enabled())
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        x * x
    return log


def case_saved_tensor_hooks_unpack_grad_mode(torch):
    x = torch.ones(2, requires_grad=True)
    log = []

    def unpack(t):
        log.append(torch.is_grad_enabled())
        return t

    with torch.autograd.graph.saved_tensors_hooks(lambda t: t, unpack):
        y = x * x
    y.sum().backward(create_graph=True)
    _ = y.grad_fn._saved_self
    return log


def case_raw_saved_hooks_output(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    log = []
    y.grad_fn._raw_saved_result.register_hooks(
        lambda t: (log.append(t.tolist()), t)[1], lambda t: t * 0 + 1
    )
    y.sum().backward()
    return log, x.grad


def case_increment_version_inplace_saved(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    torch.autograd.graph.increment_version(y)
    y.sum().backward()
    return x.grad


def case_grad_edge_unused(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    z = torch.tensor([1.0, 2.0], requires_grad=True)
    e = torch.autograd.graph.get_gradient_edge(z)
    return torch.autograd.grad((x * 2).sum(), [x, e], allow_unused=True)


def case_grad_edge_unused_error(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    z = torch.tensor([1.0, 2.0], requires_grad=True)
    e = torch.autograd.graph.get_gradient_edge(z)
    return torch.autograd.grad((x * 2).sum(), [x, e])


def case_grad_edge_materialize(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    z = torch.tensor([1.0, 2.0], requires_grad=True)
    e = torch.autograd.graph.get_gradient_edge(z)
    return torch.autograd.grad((x * 2).sum(), [x, e], materialize_grads=True)


def case_set_data_then_backward(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * x
    x.data = torch.tensor([5.0, 6.0])
    y.sum().backward()
    return x.grad, x._version


def case_grad_set_then_accumulate(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    g = torch.tensor([10.0, 10.0])
    x.grad = g
    (x * 2).sum().backward()
    return x.grad is g, x.grad


def case_output_nr_custom(torch):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.clone(), x.clone()

        @staticmethod
        def backward(ctx, a, b):
            return a + b

    a, b = F.apply(torch.ones(2, requires_grad=True))
    return a.output_nr, b.output_nr


def case_node_name_custom_nested(torch):
    class Outer:
        class MyOp(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x.clone()

            @staticmethod
            def backward(ctx, g):
                return g

    y = Outer.MyOp.apply(torch.ones(2, requires_grad=True))
    return y.grad_fn.name(), type(y.grad_fn).__name__


def case_gradient_edge_as_output(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)

    def split(reduce=True):
        tmp = x.sin().cos()
        if reduce:
            tmp = tmp.sum()
        return tmp.exp().clone().sin().sum(), torch.autograd.graph.get_gradient_edge(tmp)

    out, edge = split()
    (tmp_grad,) = torch.autograd.grad(out, (edge,))
    (two_steps,) = torch.autograd.grad(edge, (x,), grad_outputs=(tmp_grad,))
    errors = []
    for reduce, grads in ((False, None), (True, torch.tensor([1.0, 2.0, 3.0]))):
        try:
            torch.autograd.grad(split(reduce)[1], (x,), grad_outputs=grads)
        except RuntimeError as error:
            errors.append(str(error))
    out, edge = split()
    torch.autograd.backward((edge, out), retain_graph=True)
    return two_steps, torch.autograd.grad(split()[0], (x,)), errors, x.grad


def case_materialize_grads_with_gradient_edges(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True).clone()
    y = torch.tensor([3.0, 4.0], requires_grad=True).clone()
    edge_x = torch.autograd.graph.GradientEdge(x.grad_fn, x.output_nr)
    edge_y = torch.autograd.graph.GradientEdge(y.grad_fn, y.output_nr)
    out = x.clone()
    used_edge = torch.autograd.grad(out.sum(), (edge_x, y), allow_unused=True,
                                    materialize_grads=True)
    try:
        torch.autograd.grad(out.sum(), (x, edge_y), allow_unused=True, materialize_grads=True)
    except RuntimeError as error:
        return used_edge, str(error)


def case_input_metadata(torch):
    x = torch.ones(2, requires_grad=True, dtype=torch.float32)
    var, mean = torch.var_mean(torch.ones(3, 3, requires_grad=True), dim=0)
    return [(list(m.shape), m.dtype) for m in
            (*(x * x).grad_fn._input_metadata, *var.grad_fn._input_metadata)]


def case_set_gives_a_leaf_a_new_accumulator(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    edge = torch.autograd.graph.get_gradient_edge(x)
    out = x.clone()
    with torch.no_grad():
        x.set_(torch.tensor([5.0, 6.0]))
    try:
        torch.autograd.grad(out.sum(), x)
    except RuntimeError as error:
        message = str(error)
    out.sum().backward(retain_graph=True)
    return message, torch.autograd.grad(out.sum(), edge), x.grad


def case_allow_mutation_bookkeeping(torch):
    counts = []
    with torch.autograd.graph.allow_mutation_on_saved_tensors() as ctx:
        def note():
            counts.append((len(ctx.tid_to_weakhandle), len(list(ctx.cloned.items()))))

        a = torch.tensor([1.0, 2.0], requires_grad=True).clone()
        out = (a ** 2).sum()
        note()
        out.backward()
        a.sin_()
        note()
        b, c = a ** 2, a ** 2  # the same tensor saved twice: one clone
        a.sin_()
        note()
        del b, c
        note()
    return counts


def case_allow_mutation_out_argument(torch):
    with torch.autograd.graph.allow_mutation_on_saved_tensors() as ctx:
        a = torch.tensor([1.0], requires_grad=True)
        b = torch.tensor([3.0])
        out = a * b
        torch.sin(torch.tensor([2.0]), out=b)
        cloned = len(list(ctx.cloned.items()))
        out.backward()
    return cloned, a.grad


def case_layout(torch):
    with torch.autograd.graph.save_on_cpu():
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        y = a * a
    return repr(a.layout), y.grad_fn._saved_self.layout == a.layout, repr(torch.strided)


@pytest.mark.parametrize("prog", programs(globals()), ids=lambda p: p.__name__[5:])
def test_parity(prog, oracle):
    check(prog, oracle)


PACKED_OPS = {
    "div": lambda L, a, b: a / b,
    "pow": lambda L, a, b: a**b,
    "pow_scalar": lambda L, a, b: a**2,
    "mm": lambda L, a, b: a @ b,
    "bmm": lambda L, a, b: L.bmm(a[None], b[None]),
    "mv": lambda L, a, b: L.mv(a, b[0]),
    "dot": lambda L, a, b: L.dot(a[0], b[0]),
    "addmm": lambda L, a, b: L.addmm(a, a, b),
    "maximum": lambda L, a, b: L.maximum(a, b),
    "minimum": lambda L, a, b: L.minimum(a, b),
    "remainder": lambda L, a, b: a % b,
    "exp_log_sigmoid": lambda L, a, b: a.exp().log().sigmoid().tanh(),
    "softmax_mean_max": lambda L, a, b: (a.softmax(1).mean(), a.max(1), a.norm(), a.prod()),
    "linear_mse": lambda L, a, b: L.nn.functional.mse_loss(L.nn.functional.linear(a, b), b),
}


@pytest.mark.parametrize("name", PACKED_OPS)
def test_saved_tensors_packed_in_torch_order(name, oracle):
    def run(lib):
        log = []
        a = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        b = lib.tensor([[5.0, 6.0], [7.0, 8.0]], requires_grad=True)
        with lib.autograd.graph.saved_tensors_hooks(
            lambda t: (log.append(round(float(t.sum().item()), 3)), t)[1], lambda t: t
        ):
            PACKED_OPS[name](lib, a, b)
        return log

    assert run(minigrad) == oracle(run)
