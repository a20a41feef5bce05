"""``minigrad._C``: the names of PyTorch's C extension that autograd code uses, against torch."""

import pytest
from oracle import plain

import minigrad


def _functions_story(lib):
    """UndefinedGrad and DelayedError nodes, and the AccumulateGrad class."""
    story = {}
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    seen = []

    class Watch(lib.autograd.Function):
        @staticmethod
        def forward(ctx, t):
            ctx.set_materialize_grads(materialize)
            return t.clone()

        @staticmethod
        def backward(ctx, grad):
            seen.append(None if grad is None else grad.tolist())
            return grad

    for materialize in (True, False):
        out = lib._C._functions.UndefinedGrad()(Watch.apply(x))
        story[f"undefined name {materialize}"] = type(out.grad_fn).__name__
        out.sum().backward()
    story["watch saw"] = seen
    story["x.grad"] = x.grad
    failing = lib._C._functions.DelayedError("Boom!", 1)(x)
    story["delayed name"] = type(failing.grad_fn).__name__
    try:
        (failing * 2).sum().backward()
    except RuntimeError as error:
        story["delayed error"] = str(error)
    story["grad of the delayed input itself"] = lib.autograd.grad(failing.sum(), failing)[0]
    story["accumulate"] = isinstance(x.clone().grad_fn.next_functions[0][0],
                                     lib._C._functions.AccumulateGrad)
    return story


def test_functions(oracle):
    assert plain(_functions_story(minigrad)) == oracle(_functions_story)


def _engine_story(lib):
    """Graph-task ids, _will_engine_execute_node, grad mode and the saved-hooks switch."""
    story = {"outside": lib._C._current_graph_task_id(), "grad": lib._C.is_grad_enabled()}
    ids, answers = [], []
    a = lib.tensor(1.0, requires_grad=True)
    b = lib.tensor(2.0, requires_grad=True)
    mid = a * 3
    side = b.exp()
    out = mid * side

    def hook(grad):
        ids.append(lib._C._current_graph_task_id())
        answers.append([lib._C._will_engine_execute_node(mid.grad_fn),
                        lib._C._will_engine_execute_node(side.grad_fn)])
    mid.register_hook(hook)
    out.backward(retain_graph=True)
    lib.autograd.backward(out, inputs=(a,), retain_graph=True)
    lib.autograd.grad(out, (mid,), retain_graph=True)
    story["steps"] = [i - ids[0] for i in ids]
    story["will execute"] = answers
    for node in (out.grad_fn, out):
        try:
            lib._C._will_engine_execute_node(node)
        except RuntimeError as error:
            story.setdefault("errors", []).append(str(error).split(" but ")[0])
    with lib.autograd.graph.disable_saved_tensors_hooks("no hooks here"):
        story["hooks enabled inside"] = lib._C._autograd._saved_tensors_hooks_is_enabled()
    story["hooks enabled after"] = lib._C._autograd._saved_tensors_hooks_is_enabled()
    return story


def test_engine_questions(oracle):
    assert plain(_engine_story(minigrad)) == oracle(_engine_story)


@pytest.mark.parametrize("keep", [True, False])
def test_weak_tensor_ref_and_forward_switch(oracle, keep):
    def run(lib):
        t = lib.ones(2)
        ref = lib._C._WeakTensorRef(t)
        if not keep:
            del t
        lib._C._set_fwd_grad_enabled(False)
        off = lib.autograd.forward_ad._is_fwd_grad_enabled()
        lib._C._set_fwd_grad_enabled(True)
        return [ref.expired(), off, lib.autograd.forward_ad._is_fwd_grad_enabled()]
    assert run(minigrad) == oracle(run)
