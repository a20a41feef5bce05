"""Containers: ``Sequential`` (a pipeline), ``ModuleList`` and ``ModuleDict`` (registered
collections of modules)."""

from collections import OrderedDict

from minigrad.nn.module import Module, _addindent

__all__ = ["Sequential", "ModuleList", "ModuleDict"]


def _index(index, length):
    if not -length <= index < length:
        raise IndexError(f"index {index} is out of range")
    return index % length


def _view(container, items):
    """A container over some of another's children, which keep their names for the viewer
    (a slice is a view, not a new parent)."""
    container._modules.update((str(name), module) for name, module in items)
    return container


class Sequential(Module):
    """Modules applied one after the other; the output of each is the input of the next.

    Children are named ``"0"``, ``"1"``, … unless given as an ``OrderedDict``.

    Example:
        >>> model = nn.Sequential(nn.Linear(2, 16), nn.ReLU())
        >>> model
        Sequential(
          (0): Linear(in_features=2, out_features=16, bias=True)
          (1): ReLU()
        )
    """

    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for name, module in args[0].items():
                self.add_module(name, module)
        else:
            for i, module in enumerate(args):
                self.add_module(str(i), module)

    def forward(self, x):
        for module in self._modules.values():
            x = module(x)
        return x

    def __getitem__(self, index):
        if isinstance(index, slice):
            return _view(Sequential(), list(self._modules.items())[index])
        return list(self._modules.values())[_index(index, len(self))]

    def __setitem__(self, index, module):
        key = list(self._modules)[_index(index, len(self))]
        self.add_module(key, module)

    def __delitem__(self, index):
        keys = list(self._modules)
        for key in keys[index] if isinstance(index, slice) else [keys[index]]:
            del self._modules[key]

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def append(self, module):
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules):
        for module in modules:
            self.append(module)
        return self


class ModuleList(Module):
    """A list of modules whose parameters are registered (a plain list would hide them).

    Example:
        >>> layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(3)])
        >>> len(list(layers.parameters()))
        6
    """

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return _view(ModuleList(), enumerate(list(self._modules.values())[index]))
        return self._modules[str(_index(index, len(self)))]

    def __setitem__(self, index, module):
        self.add_module(str(_index(index, len(self))), module)

    def __delitem__(self, index):
        modules = list(self._modules.values())
        del modules[index]
        self._modules.clear()
        self.extend(modules)

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def __iadd__(self, modules):
        return self.extend(modules)

    def append(self, module):
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules):
        for module in modules:
            self.append(module)
        return self

    def insert(self, index, module):
        modules = list(self._modules.values())
        modules.insert(index, module)
        self._modules.clear()
        self.extend(modules)

    def forward(self, *args, **kwargs):
        raise NotImplementedError(
            'Module [ModuleList] is missing the required "forward" function')

    def _child_lines(self):
        """Like PyTorch, runs of identical children print once: ``(0-2): 3 x Linear(...)``."""
        reprs = [repr(m) for m in self._modules.values()]
        lines, start = [], 0
        while start < len(reprs):
            end = start
            while end + 1 < len(reprs) and reprs[end + 1] == reprs[start]:
                end += 1
            text = _addindent(reprs[start], 2)
            if end == start:
                lines.append(f"({start}): {text}")
            else:
                lines.append(f"({start}-{end}): {end - start + 1} x {text}")
            start = end + 1
        return lines


class ModuleDict(Module):
    """A dict of modules whose parameters are registered.

    Example:
        >>> heads = nn.ModuleDict({"a": nn.Linear(2, 1), "b": nn.Linear(2, 3)})
        >>> list(heads.keys())
        ['a', 'b']
    """

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key):
        return self._modules[key]

    def __setitem__(self, key, module):
        self.add_module(key, module)

    def __delitem__(self, key):
        del self._modules[key]

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules)

    def __contains__(self, key):
        return key in self._modules

    def keys(self):
        return self._modules.keys()

    def values(self):
        return self._modules.values()

    def items(self):
        return self._modules.items()

    def update(self, modules):
        items = modules.items() if hasattr(modules, "items") else modules
        for key, module in items:
            self[key] = module

    def forward(self, *args, **kwargs):
        raise NotImplementedError(
            'Module [ModuleDict] is missing the required "forward" function')
