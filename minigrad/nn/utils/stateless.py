"""``functional_call``: run a module with other parameters, leaving the module unchanged
(``torch.nn.utils.stateless``; also exported as ``minigrad.func.functional_call``)."""

__all__ = ["functional_call"]


def functional_call(module, parameter_and_buffer_dicts, args=None, kwargs=None, *,
                    tie_weights=True, strict=False):
    """Call ``module`` with some of its parameters and buffers replaced by the given tensors
    (by their ``state_dict`` names), leaving the module itself unchanged.

    Example:
        >>> net = nn.Linear(2, 1)
        >>> params = {"weight": minigrad.ones(1, 2), "bias": minigrad.zeros(1)}
        >>> functional_call(net, params, (minigrad.tensor([[1.0, 2.0]]),))
        tensor([[3.]])
    """
    dicts = (parameter_and_buffer_dicts if isinstance(parameter_and_buffer_dicts, tuple)
             else (parameter_and_buffer_dicts,))
    replacements = {}
    for d in dicts:
        for key in d:
            if key in replacements:
                raise ValueError(f"{key} appeared in multiple dictionaries; behavior of "
                                 "functional call is ambiguous")
        replacements.update(d)
    if strict:
        _check_keys(module, replacements)
    args = () if args is None else args if isinstance(args, tuple) else (args,)
    saved = []
    try:
        for name, tensor in replacements.items():
            owner, _, leaf = _owner(module, name)
            for registry in (owner._parameters, owner._buffers) if owner else ():
                if leaf in registry:
                    saved.append((registry, leaf, registry[leaf]))
                    registry[leaf] = tensor
                    break
        return module(*args, **(kwargs or {}))
    finally:
        for registry, leaf, original in reversed(saved):
            registry[leaf] = original


def _owner(module, name):
    path, _, leaf = name.rpartition(".")
    owner = module
    for part in path.split(".") if path else ():
        owner = owner._modules.get(part) if owner is not None else None
    return owner, path, leaf


def _check_keys(module, replacements):
    names = [n for n, _ in module.named_parameters()] + [n for n, _ in module.named_buffers()]
    missing = [n for n in names if n not in replacements]
    unexpected = [n for n in replacements if n not in names]
    problems = []
    if unexpected:
        problems.append("Unexpected key(s): " + ", ".join(f"'{k}'" for k in unexpected) + ".")
    if missing:
        problems.append("Missing key(s): " + ", ".join(f"'{k}'" for k in missing) + ".")
    if problems:
        raise RuntimeError(f"Error(s) in reparametrizing for {type(module).__name__}:\n\t"
                           + "\n\t".join(problems))
