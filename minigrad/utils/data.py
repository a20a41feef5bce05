"""``minigrad.utils.data``: datasets, samplers and the ``DataLoader`` that batches them.

The random draws are PyTorch's, in PyTorch's order, so that a seeded program shuffles as it does
with PyTorch: every pass over a ``DataLoader`` first draws one int64 from the loader's generator
(PyTorch's "base seed" for worker processes); a ``RandomSampler`` without a generator then draws
a seed from the default generator for a fresh ``Generator``, and each epoch's order is
``randperm(n, generator=...)``; ``random_split`` is one ``randperm``.

NB: ``num_workers`` is accepted, but minigrad loads every batch in the main process.

Example:
    >>> from minigrad.utils.data import DataLoader, TensorDataset
    >>> data = TensorDataset(minigrad.arange(5.0), minigrad.arange(5))
    >>> for x, y in DataLoader(data, batch_size=2):
    ...     print(x, y)
    tensor([0., 1.]) tensor([0, 1])
    tensor([2., 3.]) tensor([2, 3])
    tensor([4.]) tensor([4])
"""

import bisect
import itertools
import math
import warnings

import minigrad
from minigrad.utils._collate import default_collate, default_convert
from minigrad.utils.sampler import (
    BatchSampler,
    RandomSampler,
    Sampler,
    SequentialSampler,
    SubsetRandomSampler,
    random_int64,
)

__all__ = ["Dataset", "IterableDataset", "TensorDataset", "ConcatDataset", "Subset",
           "random_split", "Sampler", "SequentialSampler", "RandomSampler",
           "SubsetRandomSampler", "BatchSampler", "DataLoader", "default_collate",
           "default_convert"]


# ---------------------------------------------------------------------------- datasets
class Dataset:
    """A map from indices to samples: subclasses define ``__getitem__`` (and ``__len__``)."""

    def __getitem__(self, index):
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __add__(self, other):
        return ConcatDataset([self, other])


class IterableDataset(Dataset):
    """A stream of samples: subclasses define ``__iter__``."""

    def __iter__(self):
        raise NotImplementedError("Subclasses of IterableDataset should implement __iter__.")


class TensorDataset(Dataset):
    """Samples are the rows of tensors of equal first dimension: ``data[i] = (x[i], y[i])``.

    Example:
        >>> data = TensorDataset(minigrad.zeros(3, 2), minigrad.tensor([1, 2, 3]))
        >>> len(data), data[1]
        (3, (tensor([0., 0.]), tensor(2)))
    """

    def __init__(self, *tensors):
        if any(tensors[0].size(0) != t.size(0) for t in tensors):
            raise AssertionError("Size mismatch between tensors")
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self):
        return self.tensors[0].size(0)


class ConcatDataset(Dataset):
    """Several datasets one after the other."""

    def __init__(self, datasets):
        self.datasets = list(datasets)
        if not self.datasets:
            raise AssertionError("datasets should not be an empty iterable")
        self.cumulative_sizes = list(itertools.accumulate(len(d) for d in self.datasets))

    def __len__(self):
        return self.cumulative_sizes[-1]

    def __getitem__(self, index):
        if index < 0:
            if -index > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            index += len(self)
        which = bisect.bisect_right(self.cumulative_sizes, index)
        start = self.cumulative_sizes[which - 1] if which else 0
        return self.datasets[which][index - start]


class Subset(Dataset):
    """The samples of ``dataset`` at ``indices``, in that order."""

    def __init__(self, dataset, indices):
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, index):
        if isinstance(index, list):
            return self.dataset[[self.indices[i] for i in index]]
        return self.dataset[self.indices[index]]

    def __len__(self):
        return len(self.indices)


def _lengths_from_fractions(lengths, total):
    """``floor(fraction * total)`` each, the remainder handed out one by one from the start."""
    sizes = []
    for i, fraction in enumerate(lengths):
        if fraction < 0 or fraction > 1:
            raise ValueError(f"Fraction at index {i} is not between 0 and 1")
        sizes.append(math.floor(total * fraction))
    for i in range(total - sum(sizes)):
        sizes[i % len(sizes)] += 1
    for i, size in enumerate(sizes):
        if size == 0:
            warnings.warn(f"Length of split at index {i} is 0. This might result in an empty "
                          "dataset.", UserWarning, stacklevel=3)
    return sizes


def random_split(dataset, lengths, generator=None):
    """Split ``dataset`` into non-overlapping ``Subset``s of the given lengths (or fractions
    summing to 1), by one ``randperm`` of all indices.

    Example:
        >>> train, test = random_split(range(10), [0.8, 0.2],
        ...                            generator=minigrad.Generator().manual_seed(0))
        >>> len(train), len(test)
        (8, 2)
    """
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        lengths = _lengths_from_fractions(lengths, len(dataset))
    if sum(lengths) != len(dataset):
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    generator = minigrad.default_generator if generator is None else generator
    indices = minigrad.randperm(sum(lengths), generator=generator).tolist()
    ends = list(itertools.accumulate(lengths))
    return [Subset(dataset, indices[end - length:end]) for end, length in zip(ends, lengths)]




# ---------------------------------------------------------------------------- the loader
class DataLoader:
    """Batches of a dataset: ``for x, y in DataLoader(data, batch_size=32, shuffle=True)``.

    Args:
        dataset: a ``Dataset`` (indexable, with a length) or an ``IterableDataset``.
        batch_size: samples per batch (None: no batching, samples one by one).
        shuffle: a new random order every pass (``RandomSampler``).
        sampler: the order of indices (excludes ``shuffle``); batch_sampler: lists of indices.
        collate_fn: turns a list of samples into a batch (``default_collate``).
        drop_last: drop the last batch when it is smaller than ``batch_size``.
        generator: the ``Generator`` for shuffling and the per-pass seed.
        num_workers: accepted; NB: minigrad always loads in the main process.

    Example:
        >>> loader = DataLoader(list(range(5)), batch_size=2, drop_last=True)
        >>> len(loader), [b.tolist() for b in loader]
        (2, [[0, 1], [2, 3]])
    """

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None,
                 num_workers=0, collate_fn=None, pin_memory=False, drop_last=False, timeout=0,
                 worker_init_fn=None, multiprocessing_context=None, generator=None, *,
                 prefetch_factor=None, persistent_workers=False, pin_memory_device="",
                 in_order=True):
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to "
                             "disable multiprocessing.")
        self.dataset, self.num_workers, self.generator = dataset, num_workers, generator
        self.pin_memory, self.timeout, self.worker_init_fn = pin_memory, timeout, worker_init_fn
        self._iterable = isinstance(dataset, IterableDataset)
        if self._iterable and shuffle not in (None, False):
            raise ValueError(f"DataLoader with IterableDataset: expected unspecified shuffle "
                             f"option, but got shuffle={shuffle}")
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, "
                                 "shuffle, sampler, and drop_last")
            batch_size, drop_last = None, False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually "
                             "exclusive with drop_last")
        if sampler is None and not self._iterable:
            sampler = (RandomSampler(dataset, generator=generator) if shuffle
                       else SequentialSampler(dataset))
        if batch_size is not None and batch_sampler is None and not self._iterable:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.batch_size, self.drop_last = batch_size, drop_last
        self.sampler, self.batch_sampler = sampler, batch_sampler
        if collate_fn is None:
            collate_fn = default_collate if self._auto_collation else default_convert
        self.collate_fn = collate_fn

    @property
    def _auto_collation(self):
        return self.batch_sampler is not None or (self._iterable and self.batch_size is not None)

    def __iter__(self):
        # PyTorch draws a base seed for worker processes at the start of every pass, even
        # without workers: drawing it too keeps the random stream in step with PyTorch's.
        random_int64(self.generator)
        if self._iterable:
            return self._iterable_batches()
        if self.batch_sampler is not None:
            return (self.collate_fn([self.dataset[i] for i in batch])
                    for batch in self.batch_sampler)
        return (self.collate_fn(self.dataset[i]) for i in self.sampler)

    def _iterable_batches(self):
        samples = iter(self.dataset)
        if self.batch_size is None:
            yield from map(self.collate_fn, samples)
            return
        while batch := list(itertools.islice(samples, self.batch_size)):
            if len(batch) < self.batch_size and self.drop_last:
                return
            yield self.collate_fn(batch)

    def __len__(self):
        if self._iterable:
            n = len(self.dataset)
            if self.batch_size is None:
                return n
            return n // self.batch_size if self.drop_last else -(-n // self.batch_size)
        return len(self.batch_sampler if self.batch_sampler is not None else self.sampler)
