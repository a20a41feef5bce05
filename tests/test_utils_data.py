"""``minigrad.utils.data``: datasets, samplers, ``DataLoader`` and ``random_split``, against
torch (batches, collation, lengths, errors, and the shuffled orders drawn from the generator)."""

import collections

import numpy as np
import pytest
from parity_check import check

import minigrad


def data(m):
    return m.utils.data


def xy(m, n=5):
    return data(m).TensorDataset(m.arange(2.0 * n).reshape(n, 2), m.arange(n))


def batches(loader):
    return [b for b in loader]


class Squares:
    """A map-style dataset written as in tutorials (a subclass of Dataset)."""

    def __init__(self, m):
        self.m = m

    def __len__(self):
        return 4

    def __getitem__(self, i):
        return {"x": self.m.tensor([float(i)]), "y": i * i}


Point = collections.namedtuple("Point", "x y")

CASES = {
    # datasets
    "tensor-dataset": lambda m: [len(xy(m)), list(xy(m)[1]), list(xy(m)[-1])],
    "tensor-dataset-slice": lambda m: list(xy(m)[1:3]),
    "tensor-dataset-mismatch": lambda m: data(m).TensorDataset(m.zeros(3), m.zeros(4)),
    "dataset-base-getitem": lambda m: data(m).Dataset()[0],
    "subset": lambda m: (lambda s: [len(s), list(s[0]), s[[1, 0]]])(data(m).Subset(xy(m), [4, 0])),
    "concat": lambda m: (lambda c: [len(c), list(c[6]), list(c[-1])])(xy(m) + xy(m, 3)),
    # batching without randomness
    "loader-default": lambda m: batches(data(m).DataLoader(xy(m))),
    "loader-batches": lambda m: batches(data(m).DataLoader(xy(m), batch_size=2)),
    "loader-drop-last": lambda m: batches(data(m).DataLoader(xy(m), batch_size=2,
                                                             drop_last=True)),
    "loader-len": lambda m: [len(data(m).DataLoader(xy(m), batch_size=2)),
                             len(data(m).DataLoader(xy(m), batch_size=2, drop_last=True)),
                             len(data(m).DataLoader(xy(m), batch_size=2, shuffle=True))],
    "loader-no-batching": lambda m: batches(data(m).DataLoader(xy(m, 2), batch_size=None)),
    "loader-list-of-numbers": lambda m: batches(data(m).DataLoader([1.5, 2.5, 3.5], batch_size=2)),
    "loader-ints": lambda m: batches(data(m).DataLoader(list(range(5)), batch_size=3)),
    "loader-dicts": lambda m: batches(data(m).DataLoader(Squares(m), batch_size=3)),
    "loader-strings": lambda m: batches(data(m).DataLoader(["a", "b", "c"], batch_size=2)),
    "loader-numpy": lambda m: batches(data(m).DataLoader(
        [np.array([1.0, 2.0]), np.array([3.0, 4.0])], batch_size=2)),
    "loader-numpy-scalars": lambda m: batches(data(m).DataLoader(
        [np.float32(1.5), np.float32(2.5)], batch_size=2)),
    "loader-named-tuples": lambda m: [tuple(b) for b in data(m).DataLoader(
        [Point(1, 2.0), Point(3, 4.0)], batch_size=2)],
    "loader-lists": lambda m: batches(data(m).DataLoader([[1, 2], [3, 4]], batch_size=2)),
    "loader-sampler": lambda m: batches(data(m).DataLoader(
        xy(m), batch_size=2, sampler=[4, 3, 0])),
    "loader-batch-sampler": lambda m: batches(data(m).DataLoader(
        xy(m), batch_sampler=[[0, 1], [4]])),
    "loader-collate-fn": lambda m: batches(data(m).DataLoader(
        list(range(4)), batch_size=2, collate_fn=lambda b: sum(b))),
    "collate-unequal": lambda m: batches(data(m).DataLoader([[1, 2], [3]], batch_size=2)),
    "collate-unsupported": lambda m: batches(data(m).DataLoader([object(), object()],
                                                                batch_size=2)),
    "batch-sampler-class": lambda m: list(data(m).BatchSampler(range(5), 2, False)),
    "batch-sampler-bad-size": lambda m: data(m).BatchSampler(range(5), 0, False),
    "sequential-sampler": lambda m: list(data(m).SequentialSampler(range(3))),
    "random-sampler-bad": lambda m: data(m).RandomSampler(range(3), num_samples=0),
    # misuse
    "shuffle-and-sampler": lambda m: data(m).DataLoader(xy(m), shuffle=True, sampler=[0]),
    "batch-sampler-and-size": lambda m: data(m).DataLoader(xy(m), batch_size=2,
                                                           batch_sampler=[[0]]),
    "no-batching-drop-last": lambda m: data(m).DataLoader(xy(m), batch_size=None,
                                                          drop_last=True),
    "negative-workers": lambda m: data(m).DataLoader(xy(m), num_workers=-1),
    "split-sum": lambda m: data(m).random_split(range(10), [3, 3]),
    "split-fraction-range": lambda m: data(m).random_split(range(10), [1.5, -0.5]),
    "split-lengths": lambda m: [len(s) for s in data(m).random_split(range(10), [0.3, 0.3, 0.4])],
    "split-lengths-remainder": lambda m: [len(s) for s in data(m).random_split(
        range(11), [0.5, 0.25, 0.25])],
}


@pytest.mark.parametrize("name", list(CASES))
def test_matches_torch(oracle, name):
    check(oracle, CASES[name])


def seeded(make):
    def run(m):
        m.manual_seed(0)
        return make(m)
    return run


def with_generator(seed, make):
    return lambda m: make(m, m.Generator().manual_seed(seed))


RANDOM_CASES = {
    "shuffle-with-generator": with_generator(3, lambda m, g: batches(data(m).DataLoader(
        xy(m, 7), batch_size=3, shuffle=True, generator=g))),
    "shuffle-two-epochs": with_generator(1, lambda m, g: (lambda loader: [
        batches(loader), batches(loader)])(data(m).DataLoader(list(range(6)), batch_size=4,
                                                             shuffle=True, generator=g))),
    "shuffle-global-seed": seeded(lambda m: batches(data(m).DataLoader(
        list(range(8)), batch_size=3, shuffle=True))),
    "pass-draws-base-seed": seeded(lambda m: [batches(data(m).DataLoader(list(range(3)))),
                                              m.rand(2)]),
    "random-sampler": with_generator(5, lambda m, g: list(data(m).RandomSampler(
        range(10), generator=g))),
    "random-sampler-replacement": with_generator(5, lambda m, g: list(data(m).RandomSampler(
        range(10), replacement=True, num_samples=40, generator=g))),
    "random-sampler-more-samples": with_generator(2, lambda m, g: list(data(m).RandomSampler(
        range(4), num_samples=10, generator=g))),
    "split-generator": with_generator(42, lambda m, g: [list(s) for s in data(m).random_split(
        range(10), [3, 7], generator=g)]),
    "split-fractions-generator": with_generator(42, lambda m, g: [
        list(s) for s in data(m).random_split(range(30), [0.3, 0.3, 0.4], generator=g)]),
    "split-default-generator": seeded(lambda m: [s.indices for s in data(m).random_split(
        range(6), [4, 2])]),
    "subset-random-sampler": with_generator(7, lambda m, g: list(data(m).SubsetRandomSampler(
        [10, 20, 30, 40], generator=g))),
}


@pytest.mark.parametrize("name", list(RANDOM_CASES))
def test_random_order_matches_torch(oracle, name):
    check(oracle, RANDOM_CASES[name])


@pytest.mark.parametrize("shuffle", [False, True])
def test_every_sample_once_per_epoch(shuffle):
    loader = minigrad.utils.data.DataLoader(list(range(10)), batch_size=3, shuffle=shuffle)
    for _ in range(2):
        seen = sorted(v for batch in loader for v in batch.tolist())
        assert seen == list(range(10))


def test_split_is_a_partition():
    parts = minigrad.utils.data.random_split(range(10), [0.5, 0.3, 0.2])
    assert sorted(i for p in parts for i in p) == list(range(10))
    assert [len(p) for p in parts] == [5, 3, 2]


def test_same_generator_seed_same_order():
    from minigrad.utils.data import DataLoader

    def order(seed):
        g = minigrad.Generator().manual_seed(seed)
        return [b.tolist() for b in DataLoader(list(range(8)), batch_size=8, shuffle=True,
                                               generator=g)]
    assert order(4) == order(4)


def test_iterable_dataset_batches():
    from minigrad.utils.data import DataLoader, IterableDataset

    class Count(IterableDataset):
        def __iter__(self):
            return iter(range(5))

        def __len__(self):
            return 5

    loader = DataLoader(Count(), batch_size=2)
    assert [b.tolist() for b in loader] == [[0, 1], [2, 3], [4]] and len(loader) == 3
    with pytest.raises(ValueError, match="expected unspecified shuffle option"):
        DataLoader(Count(), shuffle=True)


def test_training_loop_runs():
    from minigrad.utils.data import DataLoader, TensorDataset
    minigrad.manual_seed(0)
    x = minigrad.randn(20, 3)
    y = x @ minigrad.tensor([[1.0], [-2.0], [0.5]])
    model = minigrad.nn.Linear(3, 1)
    opt = minigrad.optim.SGD(model.parameters(), lr=0.1)
    loss_fn = minigrad.nn.MSELoss()
    first = None
    for _ in range(20):
        for xb, yb in DataLoader(TensorDataset(x, y), batch_size=5, shuffle=True):
            opt.zero_grad()
            loss = loss_fn(model(xb), yb)
            loss.backward()
            opt.step()
            first = loss.item() if first is None else first
    assert loss.item() < first / 10
