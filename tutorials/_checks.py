"""The check cells of the tutorials: ``check("3a", answer)`` tells the student how they did.

* The answer is still ``...`` → a reminder to fill it in (the cell does not fail, so that a
  notebook runs top to bottom as shipped).
* A right answer → one green line starting with ``✓`` and a sentence on why it is right.
* A wrong answer → the cell fails with ``NotYet``: one red line starting with ``✗`` and a hint,
  shown without a traceback.

The marks are plain Unicode (no emoji font needed); the colours are ANSI codes, which Jupyter
front ends and terminals render.

Every checker compares with what minigrad itself computes where it can, so the checks stay true
to the engine. tests/test_tutorials.py feeds each exercise a right and a wrong answer.
"""

import math

__all__ = ["check", "NotYet", "EXERCISES"]


class NotAnswered(Exception):
    """Raised by a checker when the answer still holds the ``...`` placeholder."""


class NotYet(AssertionError):
    """A wrong answer: the cell fails and shows only the hint."""

    def _render_traceback_(self):  # IPython shows these lines instead of a traceback
        return [f"{RED}✗ {self}{RESET}"]


EXERCISES = {}
GREEN, RED, BLUE, RESET = "\x1b[1;32m", "\x1b[1;31m", "\x1b[34m", "\x1b[0m"
WAITING = (f"{BLUE}… Exercise {{key}}: replace the ... with your answer, run that cell, then run "
           f"this one again.{RESET}")


def exercise(key):
    """Register the checker of exercise ``key``; it returns a sentence or raises NotYet."""
    def register(fn):
        EXERCISES[key] = fn
        return fn
    return register


def check(key, *answers):
    """Check the answer(s) to exercise ``key`` and say so in one line (returns nothing)."""
    if key not in EXERCISES:
        raise KeyError(f"no exercise {key!r}")
    if any(a is Ellipsis for a in answers):
        print(WAITING.format(key=key))
        return None
    try:
        why = EXERCISES[key](*answers)
    except NotAnswered:
        print(WAITING.format(key=key))
        return None
    except NotYet as exc:
        raise NotYet(f"Exercise {key}, not yet: {exc}") from None
    print(f"{GREEN}✓ Exercise {key}: right! {why}{RESET}")


# ----------------------------------------------------------------------------- helpers
def plain(x):
    """A tensor, array, number or nested list as nested Python floats (or the value itself)."""
    if hasattr(x, "detach") and hasattr(x, "tolist"):
        return x.detach().tolist()
    if hasattr(x, "tolist"):
        return x.tolist()
    return x


def close(a, b, tol=1e-4):
    """Whether two numbers or nested lists agree to ``tol`` (relative and absolute)."""
    a, b = plain(a), plain(b)
    if isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)):
        if not isinstance(a, (list, tuple)) or not isinstance(b, (list, tuple)):
            return False
        return len(a) == len(b) and all(close(x, y, tol) for x, y in zip(a, b))
    try:
        return math.isclose(float(a), float(b), rel_tol=tol, abs_tol=tol)
    except (TypeError, ValueError):
        return False


def names(answer, what):
    """A set of names from a set/list/tuple of strings; NotYet otherwise."""
    if isinstance(answer, str) or not isinstance(answer, (set, frozenset, list, tuple)):
        raise NotYet(f"give {what} as a set of names, like {{'p', 'q'}}.")
    return {str(a).strip() for a in answer}


def want_type(answer, types, what):
    if not isinstance(answer, types) or isinstance(answer, bool) and bool not in types:
        raise NotYet(f"the answer should be {what}, not {type(answer).__name__}.")


# ----------------------------------------------------------------------------- 1 · leaves
def _ex1_tensors():
    import minigrad as torch
    p = torch.tensor(2.0, requires_grad=True)
    q = torch.tensor(3.0)
    r = p * q
    s = q * q
    u = (s + 1).exp()
    return {"p": p, "q": q, "r": r, "s": s, "u": u}


@exercise("1a")
def _check_1a(answer):
    answer = names(answer, "the leaves")
    truth = {k for k, t in _ex1_tensors().items() if t.is_leaf}
    if answer == truth:
        return ("p is yours and tracked; q, s and u never touched a tracked tensor, so autograd "
                "recorded nothing for them: no history, so they are leaves. Only r has a grad_fn.")
    if "s" not in answer or "u" not in answer:
        raise NotYet("s and u were computed, but from what? Does anything that went into them "
                      "require grad?")
    raise NotYet("a leaf is a tensor whose grad_fn is None. Which of them has a grad_fn?")


@exercise("1b")
def _check_1b(answer):
    import warnings
    answer = names(answer, "the tensors with a .grad")
    t = _ex1_tensors()
    (t["r"] * t["u"]).backward()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        truth = {k for k, v in t.items() if v.grad is not None}
    if answer == truth:
        return ("only p: it is the one leaf that requires grad. q, s and u are leaves that do "
                "not require grad, and r is a non-leaf, whose .grad is not kept.")
    if answer > truth:
        raise NotYet("too many. .grad is filled in only for leaves that require grad.")
    raise NotYet("which leaf asked autograd to track it?")


# ----------------------------------------------------------------------------- 2 · nodes
@exercise("2a")
def _check_2a(answer):
    if isinstance(answer, str) or not isinstance(answer, (list, tuple)):
        raise NotYet("give a list of class names, in the order you meet them.")
    import minigrad as torch
    a, b, c = (torch.tensor(v, requires_grad=True) for v in (1.0, 2.0, 3.0))
    node, truth = (a * b + c).exp().grad_fn, []
    while node is not None:
        truth.append(type(node).__name__)
        node = node.next_functions[0][0] if node.next_functions else None
    given = [str(n).split("::")[-1].strip() for n in answer]
    if given == truth:
        return ("exp was computed last, so its node is f.grad_fn; the walk ends at a's "
                "AccumulateGrad, which has no next_functions.")
    if given == truth[:-1]:
        raise NotYet("one more: what stands for the leaf a at the end of the chain?")
    if given and given[0] != truth[0]:
        raise NotYet("f.grad_fn is the node of the operation that produced f: the last one.")
    raise NotYet("walk it in code: node = f.grad_fn, then node = node.next_functions[0][0].")


@exercise("2b")
def _check_2b(answer, u):
    if u.grad is not None:
        raise NotYet("u.grad is set: backward() ran, or you called u's AccumulateGrad (it "
                     "writes .grad). Call only sum_node and mul_node, then re-run the exercise "
                     "cell from the top.")
    if not hasattr(answer, "tolist"):
        raise NotYet("u_grad should be the tensor that mul_node returns first.")
    if close(answer, [4.0, 5.0, 6.0]):
        return "dg/du = v: sum_node sends ones, and mul_node multiplies them by the other factor."
    if close(answer, [1.0, 1.0, 1.0]):
        raise NotYet("that is what sum_node sends. Pass it on to mul_node.")
    raise NotYet("call sum_node with tensor(1.0), pass its result to mul_node, take output 0.")


# ----------------------------------------------------------------------------- 3 · backward
@exercise("3a")
def _check_3a(answer):
    answer = plain(answer)
    if not isinstance(answer, (list, tuple)) or len(answer) != 3:
        raise NotYet("give three numbers, one per element of x.")
    if close(answer, [2.0, 0.0, -6.0]):
        return "J = diag(2x) = diag(2, 4, 6), and vᵀJ = [1·2, 0·4, -1·6]."
    if close(answer, [2.0, 4.0, 6.0]):
        raise NotYet("that is the diagonal of J, i.e. v = ones. Multiply by this v.")
    if close(answer, [1.0, 0.0, -1.0]):
        raise NotYet("that is v itself; each entry still needs dyᵢ/dxᵢ = 2xᵢ.")
    raise NotYet("J is diagonal with entries 2xᵢ; multiply each by vᵢ.")


@exercise("3b")
def _check_3b(answer):
    want_type(answer, (int, float), "a number")
    if close(answer, 6.0):
        return "zero_() wiped the first 3 + 3, then two more passes added 3 each."
    if close(answer, 12.0):
        raise NotYet("look again at what w.grad.zero_() does in the middle.")
    if close(answer, 3.0):
        raise NotYet("each pass adds to .grad, it does not overwrite it.")
    raise NotYet("each pass adds 2w = 3 to w.grad; zero_() resets it to 0.")


# ----------------------------------------------------------------------------- 4 · retain_grad
@exercise("4a")
def _check_4a(answer):
    answer = plain(answer)
    if not isinstance(answer, (list, tuple)) or len(answer) != 2:
        raise NotYet("give two numbers, one per element of h.")
    if close(answer, [6.0, 16.0]):
        return "d(Σ hᵢ²)/dhᵢ = 2hᵢ, and h = [3, 8]."
    if close(answer, [3.0, 8.0]):
        raise NotYet("that is h itself. What is the derivative of hᵢ²?")
    raise NotYet("out = Σ hᵢ², so dout/dhᵢ = 2hᵢ. What is h?")


@exercise("4b")
def _check_4b(answer):
    want_type(answer, (str,), 'a letter, like "A"')
    letter = answer.strip().upper()
    if letter == "B":
        return ("retain_grad() must be in place before the gradient passes by; afterwards the "
                "value is gone.")
    hints = {"A": "retain_graph keeps saved tensors for another pass, not gradients in .grad.",
             "C": "x is a leaf: it had its .grad already. The question is about h.",
             "D": "h already requires grad (it came from x). That is not what is missing."}
    raise NotYet(hints.get(letter, "pick one of A, B, C or D."))


# ----------------------------------------------------------------------------- 5 · hooks
_LABELS_5A = {"post-accumulate u": "post-accumulate", "post-hook ExpBackward0": "post-hook",
              "tensor hook u": "tensor u", "tensor hook v": "tensor v",
              "pre-hook ExpBackward0": "pre-hook"}


@exercise("5a")
def _check_5a(answer):
    if isinstance(answer, str) or not isinstance(answer, (list, tuple)):
        raise NotYet("give a list of the five labels, in order.")
    given = [str(a).strip() for a in answer]
    if sorted(given) != sorted(_LABELS_5A):
        raise NotYet(f"use each of these labels once: {sorted(_LABELS_5A)}.")
    import minigrad as torch
    log = []
    u = torch.tensor([1.0, 2.0], requires_grad=True)
    v = u.exp()
    loss = v.sum()
    u.register_post_accumulate_grad_hook(lambda t: log.append("post-accumulate u"))
    v.grad_fn.register_hook(lambda gi, go: log.append("post-hook ExpBackward0"))
    u.register_hook(lambda g: log.append("tensor hook u"))
    v.register_hook(lambda g: log.append("tensor hook v"))
    v.grad_fn.register_prehook(lambda go: log.append("pre-hook ExpBackward0"))
    loss.backward()
    if given == log:
        return ("v's gradient is complete first (tensor hook v), then ExpBackward0 runs inside "
                "its pre- and post-hooks, then u's tensor hook and AccumulateGrad.")
    if given.index("tensor hook u") < given.index("tensor hook v"):
        raise NotYet("backward goes from the output towards the leaves: which tensor is closer "
                     "to loss?")
    raise NotYet("the order does not depend on the order of registration. Per node: tensor "
                 "hooks, pre-hooks, the node, post-hooks; a leaf's .grad update comes last.")


@exercise("5b")
def _check_5b(answer):
    want_type(answer, (int, float), "a number")
    if close(answer, 11.0):
        return "5 arrives; the first hook makes it 10, the second sees 10 and makes it 11."
    if close(answer, 12.0):
        raise NotYet("the hooks run in the order they were registered.")
    if close(answer, 5.0):
        raise NotYet("a hook that returns a tensor replaces the gradient.")
    raise NotYet("start from the gradient 5 and apply the hooks one after the other.")


# ----------------------------------------------------------------------------- 6 · grad modes
def _letters(answer, what):
    if isinstance(answer, str):
        answer = set(answer.replace(",", " ").split())
    return {str(a).strip().upper() for a in names(answer, what)}


@exercise("6a")
def _check_6a(answer):
    import minigrad as torch
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    model, inputs = torch.nn.Linear(2, 1), torch.ones(1, 2)
    with torch.no_grad():
        a = w * 2
    with torch.no_grad():
        with torch.enable_grad():
            b = w * 2
    model.eval()
    c = model(inputs)
    d = w.detach() * 2
    with torch.set_grad_enabled(True):
        e = w * 2
    truth = {k for k, t in zip("ABCDE", (a, b, c, d, e)) if t.requires_grad}
    given = _letters(answer, "the letters")
    if given == truth:
        return ("enable_grad wins inside no_grad, eval() does not stop recording, and "
                "set_grad_enabled(True) records; no_grad and detach() do not.")
    if "C" not in given:
        raise NotYet("look again at C: does eval() switch autograd off?")
    raise NotYet("for each snippet ask: is grad mode on, and does an input require grad?")


@exercise("6b")
def _check_6b(answer):
    want_type(answer, (str,), 'a letter, like "A"')
    letter = answer.strip().upper()
    if letter == "C":
        return "eval() makes Dropout/BatchNorm deterministic; no_grad() stops the recording."
    hints = {"A": "eval() alone still records a graph.",
             "B": "no_grad() alone leaves Dropout dropping at random.",
             "D": "detaching the input stops nothing: the weights still require grad."}
    raise NotYet(hints.get(letter, "pick one of A, B, C or D."))


# ----------------------------------------------------------------------------- 7 · higher order
@exercise("7a")
def _check_7a(answer):
    if isinstance(answer, tuple) and len(answer) == 1:
        raise NotYet("autograd.grad returns a tuple: take its element [0] (or unpack with ,).")
    if close(answer, 48.0):
        return "f' = 4x³ = 32 and f'' = 12x² = 48 at x = 2."
    if close(answer, 32.0):
        raise NotYet("32 is the first derivative. Differentiate it again (it needs "
                     "create_graph=True the first time).")
    raise NotYet("f' = 4x³ and f'' = 12x². Compute both with autograd.grad.")


@exercise("7b")
def _check_7b(answer):
    if isinstance(answer, tuple) and len(answer) == 1:
        raise NotYet("autograd.grad returns a tuple: take its element [0].")
    if close(answer, [36.0, 288.0]):
        return "g = 3x², (g²).sum() = Σ 9x⁴, whose gradient is 36x³ = [36, 288]."
    if close(answer, [3.0, 12.0]):
        raise NotYet("that is g itself. Now differentiate (g ** 2).sum() with respect to x.")
    raise NotYet("g = autograd.grad(f, x, create_graph=True)[0]; then differentiate "
                 "(g ** 2).sum() with respect to x.")


# ----------------------------------------------------------------------------- 8 · Functions
@exercise("8a")
def _check_8a(fn):
    import minigrad as torch
    x = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64, requires_grad=True)
    upstream = torch.tensor([1.0, -2.0, 0.5], dtype=torch.float64)
    try:
        out = fn.apply(x)
        out.backward(upstream)
    except Exception as exc:  # noqa: BLE001 - any mistake in the student's code is a hint
        if "ellipsis" in str(exc).lower() or "Ellipsis" in repr(exc):
            raise NotAnswered from None
        raise NotYet(f"backward raised {type(exc).__name__}: {exc}") from None
    want = [3 * v * v * g for v, g in zip([0.5, -1.0, 2.0], [1.0, -2.0, 0.5])]
    if x.grad is not None and close(x.grad, want):
        return "d(x³)/dx = 3x², times the gradient that arrives (the chain rule)."
    if x.grad is not None and close(x.grad, [3 * v * v for v in [0.5, -1.0, 2.0]]):
        raise NotYet("almost: the result must be multiplied by grad_output (chain rule).")
    raise NotYet("the derivative of x³ is 3x²; multiply it by grad_output.")


@exercise("8b")
def _check_8b(answer):
    import minigrad as torch
    snippets = {
        "A": "h = a * 2; h.add_(1); h.sum().backward()",
        "B": "h = a.exp(); h.add_(1); h.sum().backward()",
        "C": "h = a * 2; g = h * h; h.mul_(2); g.sum().backward()",
        "D": "h = a.sin(); g = h + 1; h.zero_(); g.sum().backward()",
    }
    truth = set()
    for letter, code in snippets.items():
        try:
            exec(code, {"a": torch.tensor([1.0, 2.0], requires_grad=True)})  # noqa: S102
        except RuntimeError:
            truth.add(letter)
    given = _letters(answer, "the letters")
    if given == truth:
        return ("exp saves its result (B) and h * h saves h (C); a * 2 saves only the "
                "constant (A) and sin saves its input a, not h (D).")
    if "D" in given:
        raise NotYet("D: which tensor does SinBackward0 save — its input or its output?")
    if "A" in given:
        raise NotYet("A: does MulBackward0 of h = a * 2 need h to compute its gradient?")
    raise NotYet("for each snippet: which tensors did the nodes save, and was one of them "
                 "changed in place?")


# ----------------------------------------------------------------------------- 9 · forward mode
@exercise("9a")
def _check_9a(answer):
    if answer is None:
        raise NotYet("the tangent is None: was unpack_dual called after the with block ended? "
                     "Unpack inside fwAD.dual_level().")
    if hasattr(answer, "primal") and hasattr(answer, "tangent"):
        raise NotYet("unpack_dual gives a pair (primal, tangent): take its .tangent.")
    if close(answer, 14.0):
        raise NotYet("14 is s(x) itself, the primal. The question asks for the tangent.")
    if close(answer, 6.0):
        return "the tangent of Σxᵢ² is Σ 2xᵢvᵢ = 2·1 + 2·2 + 0 = 6."
    if close(answer, [2.0, 4.0, 0.0]):
        raise NotYet("that is the tangent of x ** 2, before the sum. Take the tangent of s.")
    if close(answer, [2.0, 4.0, 6.0]):
        raise NotYet("that is the gradient; the question asks for one direction v.")
    raise NotYet("make x dual with tangent v inside fwAD.dual_level(), compute s, and take "
                 "unpack_dual(s).tangent.")


@exercise("9b")
def _check_9b(answer):
    answer = plain(answer)
    if not (isinstance(answer, (list, tuple)) and len(answer) == 2):
        raise NotYet("give a 2 × 2 nested list, like [[a, b], [c, d]].")
    if close(answer, [[2.0, 4.0], [4.0, 6.0]]):
        return "d²q/dx₀² = 2x₁ = 2, d²q/dx₀dx₁ = 2x₀ = 4, d²q/dx₁² = 6x₁ = 6."
    if close(answer, [[4.0, 2.0], [2.0, 12.0]]):
        raise NotYet("that is the Hessian at (1, 2), the example above. Here x = (2, 1).")
    raise NotYet("dq/dx₀ = 2x₀x₁ and dq/dx₁ = x₀² + 3x₁²; differentiate each again.")


# ----------------------------------------------------------------------------- 10 · training
@exercise("10a")
def _check_10a(answer):
    labels = {"zero_grad", "forward", "backward", "step"}
    if isinstance(answer, str) or not isinstance(answer, (list, tuple)):
        raise NotYet("give a list of the four labels.")
    given = [str(a).strip().replace("()", "") for a in answer]
    if sorted(given) != sorted(labels):
        raise NotYet(f"use each of these labels once: {sorted(labels)}.")
    at = {label: given.index(label) for label in labels}
    if at["forward"] > at["backward"]:
        raise NotYet("backward() needs the loss: it must come after the forward pass.")
    if at["zero_grad"] > at["backward"]:
        raise NotYet("zero_grad() after backward() would wipe the gradients you just computed.")
    if at["step"] < at["backward"]:
        raise NotYet("step() uses .grad: run backward() first.")
    extra = (" (zero_grad may also come after the forward pass: it only has to precede "
             "backward)" if at["zero_grad"] == 0 else " (zero_grad before forward works too)")
    return "gradients are reset, computed, then used." + extra


@exercise("10b")
def _check_10b(answer):
    want_type(answer, (int,), "a whole number")
    import minigrad as torch
    nn = torch.nn
    model = nn.Sequential(nn.Linear(3, 5), nn.ReLU(), nn.Linear(5, 5), nn.ReLU(),
                          nn.Linear(5, 1))
    loss = model(torch.ones(4, 3)).pow(2).mean()
    seen, stack, truth = set(), [loss.grad_fn], 0
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        truth += type(node).__name__ == "AccumulateGrad"
        stack.extend(n for n, _ in node.next_functions)
    if answer == truth:
        return "one per parameter tensor: a weight and a bias for each of the 3 Linear layers."
    if answer == 3:
        raise NotYet("each Linear layer has two parameter tensors.")
    raise NotYet("count the leaves that require grad: the parameters. ReLU has none.")


@exercise("11a")
def _check_11a(answer):
    import minigrad as torch
    truth = list(torch.nn.Conv2d(3, 8, 5, stride=2, padding=1)(torch.zeros(1, 3, 32, 32)).shape)
    given = list(plain(answer)) if isinstance(plain(answer), (list, tuple)) else None
    if given is None or len(given) != 4:
        raise NotYet("give a list of four numbers: batch, channels, height, width.")
    if given == truth:
        return "(32 + 2·1 − 5) // 2 + 1 = 15 on each side, 8 output channels."
    if given[:2] != truth[:2]:
        raise NotYet("the batch stays 1 and there is one output channel per kernel (8).")
    raise NotYet("apply the rule per side: ⌊(32 + 2·1 − 5) / 2⌋ + 1.")


@exercise("11b")
def _check_11b(answer):
    import minigrad as torch
    x = torch.tensor([[1.0, 5.0, 2.0, 0.0], [3.0, 2.0, 1.0, 4.0], [0.0, 1.0, 7.0, 2.0],
                      [6.0, 2.0, 3.0, 3.0]]).view(1, 1, 4, 4).requires_grad_()
    torch.nn.functional.max_pool2d(x, 2).sum().backward()
    truth = x.grad[0, 0].tolist()
    given = plain(answer)
    if not (isinstance(given, (list, tuple)) and len(given) == 4
            and all(isinstance(r, (list, tuple)) and len(r) == 4 for r in given)):
        raise NotYet("give four rows of four numbers.")
    if close(given, truth):
        return "each 2×2 block sends its gradient 1 to its largest value (5, 4, 6 and 7)."
    if close(given, [[0.25] * 4] * 4):
        raise NotYet("that is average pooling; max pooling gives it all to one pixel.")
    raise NotYet("in each 2×2 block, only the largest value gets the block's gradient, 1.")
