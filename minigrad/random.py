"""``minigrad.random``: the random-number generator that reproduces PyTorch's CPU streams.

PyTorch's CPU generator is a 32-bit Mersenne Twister (MT19937) seeded with the classic
``init_genrand`` recurrence from the low 32 bits of the seed. One "random()" draw is one
tempered 32-bit word; one "random64()" draw is two words, the first one the high half. The
samplers in ``minigrad._distributions`` turn those words into floats exactly as PyTorch's
kernels do, so that ``manual_seed(s)`` followed by ``rand``, ``randn``, ``randint``,
``randperm``, dropout or ``nn.init`` gives PyTorch's numbers, bit for bit.

The twist itself is NumPy's ``MT19937`` bit generator (the same algorithm, at C speed); this
module seeds it the way PyTorch does and keeps PyTorch's state layout, so that
``get_rng_state()`` returns the 5056 bytes PyTorch returns and ``set_rng_state`` accepts them.

Example:
    >>> g = minigrad.Generator().manual_seed(0)
    >>> minigrad.rand(3, generator=g)
    tensor([0.4963, 0.7682, 0.0885])
"""

import contextlib
import os
import struct

import numpy as np

__all__ = ["Generator", "default_generator", "manual_seed", "seed", "initial_seed",
           "get_rng_state", "set_rng_state", "fork_rng"]

_N = 624  # words of Mersenne Twister state
_DEFAULT_SEED = 67280421310721  # what a new Generator() starts from, as in PyTorch
# PyTorch's CPUGeneratorImplState: seed, left, seeded, next, 624 words (as uint64),
# three doubles and an int of the old normal cache, then a float and a bool (padded to 8).
_LAYOUT = struct.Struct(f"<QiiQ{_N}QdddixxxxfBxxx")
_STATE_SIZE = _LAYOUT.size  # 5056


def _seed_words(seed):
    """MT19937's ``init_genrand``: 624 words from the low 32 bits of ``seed``."""
    words = [seed & 0xFFFFFFFF]
    for j in range(1, _N):
        prev = words[-1]
        words.append((1812433253 * (prev ^ (prev >> 30)) + j) & 0xFFFFFFFF)
    return np.array(words, dtype=np.uint32)


def _check_seed(seed):
    seed = int(seed)
    if not -2**63 <= seed < 2**64:
        raise ValueError("Overflow when unpacking long long")
    return seed % 2**64  # negative seeds wrap around, as PyTorch's uint64 does


class Generator:
    """A source of random numbers with PyTorch's CPU algorithm and state.

    Args:
        device: only ``"cpu"``.

    Example:
        >>> g = minigrad.Generator()
        >>> g.initial_seed()
        67280421310721
        >>> minigrad.randint(0, 10, (4,), generator=g.manual_seed(1))
        tensor([5, 9, 4, 8])
    """

    def __init__(self, device="cpu"):
        if str(device) != "cpu":
            raise RuntimeError(f"minigrad has only CPU generators, got device '{device}'")
        self._bits = np.random.MT19937()
        self._set_seed(_DEFAULT_SEED)

    @property
    def device(self):
        import minigrad  # a device object where minigrad has one, else its name
        return minigrad.device("cpu") if hasattr(minigrad, "device") else "cpu"

    def _set_seed(self, seed):
        self._seed = seed
        self._load(_seed_words(seed), position=_N, fresh=True)
        self._next_double_normal = None  # Box–Muller's second value, kept for the next draw
        self._next_float_normal = None

    def _load(self, words, position, fresh):
        self._bits.state = {"bit_generator": "MT19937",
                            "state": {"key": words, "pos": position}}
        self._fresh = fresh  # seeded and never drawn from (PyTorch's next = 0, left = 1)

    def manual_seed(self, seed):
        """Seed with ``seed`` (an int, negative ones wrap to 64 bits) and return ``self``."""
        self._set_seed(_check_seed(seed))
        return self

    def seed(self):
        """Seed from the operating system's entropy and return the seed."""
        new = int.from_bytes(os.urandom(8), "little")
        self._set_seed(new)
        return new

    def initial_seed(self):
        """The seed this generator was last seeded with."""
        return self._seed

    # ------------------------------------------------------------------------- raw draws
    def _random(self, n):
        """``n`` 32-bit words (uint32), PyTorch's ``random()``."""
        self._fresh = self._fresh and n == 0
        return self._bits.random_raw(n).astype(np.uint32)

    def _random64(self, n):
        """``n`` 64-bit words (uint64), PyTorch's ``random64()``: two words, high one first."""
        self._fresh = self._fresh and n == 0
        words = self._bits.random_raw(2 * n)
        return (words[0::2] << np.uint64(32)) | words[1::2]

    # ------------------------------------------------------------------------- state
    def get_state(self):
        """The generator's state as PyTorch's 5056-byte ``uint8`` tensor."""
        from minigrad.tensor import Tensor
        state = self._bits.state["state"]
        position = int(state["pos"])
        if position == _N:  # the next draw twists
            left, nxt = 1, 0 if self._fresh else _N
        else:
            left, nxt = _N + 1 - position, position
        double = self._next_double_normal
        single = self._next_float_normal
        raw = _LAYOUT.pack(self._seed, left, 1, nxt, *state["key"].tolist(), 0.0,
                           0.0 if double is None else double, 0.0, double is not None,
                           0.0 if single is None else single, single is not None)
        return Tensor._make(np.frombuffer(raw, dtype=np.uint8).copy())

    def set_state(self, new_state):
        """Restore a state returned by ``get_state`` (here or by PyTorch); return ``self``."""
        from minigrad.tensor import Tensor
        if not isinstance(new_state, Tensor):
            raise TypeError(f"expected a torch.ByteTensor, but got {type(new_state).__name__}")
        data = np.ascontiguousarray(new_state._data)
        if data.dtype != np.uint8:
            raise TypeError("RNG state must be a torch.ByteTensor")
        if data.size != _STATE_SIZE:
            raise RuntimeError(f"Expected a CPUGeneratorImplState of size {_STATE_SIZE} but "
                               f"found the input RNG state size to be {data.size}")
        fields = _LAYOUT.unpack(data.tobytes())
        seed, left, seeded, nxt = fields[:4]
        words = np.array(fields[4:4 + _N], dtype=np.uint64).astype(np.uint32)
        _, normal_y, _, normal_valid, single, single_valid = fields[4 + _N:]
        if not (seeded and 0 < left <= _N and nxt <= _N) or (left != 1 and left + nxt != _N + 1):
            raise RuntimeError("Invalid mt19937 state")  # NB: PyTorch takes any left/next
        self._seed = seed
        self._load(words, position=_N if left == 1 else nxt, fresh=left == 1 and nxt == 0)
        self._next_double_normal = normal_y if normal_valid else None
        self._next_float_normal = single if single_valid else None
        return self

    def __repr__(self):
        return f"<minigrad.Generator object at {hex(id(self))}>"


default_generator = Generator()
default_generator.seed()  # as in PyTorch, the default generator starts from fresh entropy


def manual_seed(seed):
    """Seed the default generator (behind ``rand``, ``randn``, dropout, ``nn.init``, ...).

    Returns the default generator, as PyTorch does.

    Example:
        >>> _ = minigrad.manual_seed(0)
        >>> minigrad.rand(2)
        tensor([0.4963, 0.7682])
    """
    return default_generator.manual_seed(seed)


def seed():
    """Seed the default generator from the operating system's entropy; return the seed."""
    return default_generator.seed()


def initial_seed():
    """The seed the default generator was last seeded with.

    Example:
        >>> _ = minigrad.manual_seed(7)
        >>> minigrad.initial_seed()
        7
    """
    return default_generator.initial_seed()


def get_rng_state():
    """The default generator's state: a 5056-byte ``uint8`` tensor, PyTorch's layout.

    Example:
        >>> state = minigrad.get_rng_state()
        >>> a = minigrad.randn(3)
        >>> minigrad.set_rng_state(state)
        >>> bool((minigrad.randn(3) == a).all())
        True
    """
    return default_generator.get_state()


def set_rng_state(new_state):
    """Restore the default generator from a state ``get_rng_state`` returned."""
    default_generator.set_state(new_state)


@contextlib.contextmanager
def fork_rng(devices=None, enabled=True, _caller="fork_rng", _devices_kw="devices",
             device_type="cpu"):
    """Inside the ``with`` block, draw freely: the default generator's state is restored after.

    Example:
        >>> _ = minigrad.manual_seed(0)
        >>> with minigrad.random.fork_rng():
        ...     _ = minigrad.rand(100)
        >>> minigrad.rand(1)
        tensor([0.4963])
    """
    if not enabled:
        yield
        return
    state = get_rng_state()
    try:
        yield
    finally:
        set_rng_state(state)
